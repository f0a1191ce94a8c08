"""A pure wrapper of a plain function, made with no compile: a copy of a
template function compiled once per shape."""

from __future__ import annotations

import sys
import textwrap
import types
import warnings
from typing import Any, Callable, Dict, Optional, Tuple

from ._plan import Plan, parameter_list
from ._create import CO_VARARGS_OR_VARKEYWORDS, parameter_names, placeholder_layout, plain_function
from ._layout import MISSING, QUALIFIED_NAMES
from ._wrapper_source import _FILENAME, _proceed_source, _refuse_missing, _refuse_values, _WrapperSource
from ._wrapper_stale import _stale

# _wrapper_function writes it for parameters named _0, _1, ...; a copy gets
# the function's own parameter names (co_varnames: the bytecode reads its
# locals by position), its keyword-only names where the body passes them by
# keyword (constants of the code), its name and defaults.  What is its own
# (the function, the handler, an around= wrapper's proceed, made at its
# first call from a template of the same shape) are constants of its code,
# as are the helpers it calls: no closure cells, no dict but the one every
# functools.wraps wrapper has, and globals shared by all.
#
# Defaults are the function's at the call: a wrapper of a function with
# defaults compares the function's __defaults__ and __kwdefaults__ with the
# objects it was made with (constants of its code) on each call, and on a
# change reads them again (_stale), and its layout with them.
_Templates = Tuple[types.CodeType, types.CodeType, Tuple[str, ...], Tuple[int, ...]]
_TEMPLATES: Dict[Tuple[int, int, int, int, bool, int], _Templates] = {}
_SEEN_DEFAULTS = "__posonly_seen_defaults__"  # placeholders among a template's constants
_SEEN_KWDEFAULTS = "__posonly_seen_kwdefaults__"


def _template_function(source: str, *placeholders: Any) -> Any:
    namespace: Dict[str, Any] = {}
    with warnings.catch_warnings():
        # `x is not "placeholder"`: the placeholder becomes an object
        warnings.simplefilter("ignore", SyntaxWarning)
        exec(compile(source, _FILENAME, "exec"), namespace)
    return namespace["make"](*placeholders)


# A template-made wrapper's own state, constants of its code (placeholders
# in the template's source, each one constant of the code, replaced in each
# wrapper's copy): the function, the handler, an around= wrapper's
# _ProceedSlot.  Its globals are one dict all of them share, which holds
# nothing of theirs: a call writes nothing into a wrapper's __dict__.
_FUNC = "__posonly_func__"
_HANDLER = "__posonly_handler__"
_PROCEED = "__posonly_proceed__"
# The helpers a template calls, constants of its code too.
_STALE_CONST = "__posonly_stale__"
# What _stale needs of a template-made wrapper: (reads, the indices of the
# marks among its constants, whether around=, how to make it again).
_REMADE_CONST = "__posonly_remade__"
_NEW_PROCEED_CONST = "__posonly_new_proceed__"
# The globals of every template-made wrapper: the builtins (the interpreter
# reads them there for an import made while the frame runs, as warnings
# does for a coroutine never awaited), and a module name.
_TEMPLATE_GLOBALS: Dict[str, Any] = {
    "__builtins__": sys.modules["builtins"].__dict__, "__name__": __name__,
}


class _ProceedSlot:
    """An around= wrapper's ``proceed``, made at its first call."""

    __slots__ = ("proceed",)

    def __init__(self) -> None:
        self.proceed: Any = None


def _templates(
    argcount: int, n_posonly: int, n_kwonly: int, flags: int, around: bool, reads: int
) -> _Templates:
    """The templates of one shape; ``reads``: 1 where the wrapper reads the
    function's ``__defaults__`` at each call, 2 its ``__kwdefaults__``, 3 both."""
    key = (argcount, n_posonly, n_kwonly, flags, around, reads)
    templates = _TEMPLATES.get(key)
    if templates is None:
        layout = placeholder_layout(argcount, n_posonly, n_kwonly, flags)
        shape = _WrapperSource(Plan(layout))
        tests = ([f"{_FUNC!r}.__defaults__ is not {_SEEN_DEFAULTS!r}"] if reads & 1 else []) + (
            [f"{_FUNC!r}.__kwdefaults__ is not {_SEEN_KWDEFAULTS!r}"] if reads & 2 else [])
        # (On a change, _stale reads the arguments from the caller's frame.)
        check = (
            f"    if {' or '.join(tests)}:\n"
            f"        return {_STALE_CONST!r}({_REMADE_CONST!r})\n"
            if reads else ""
        )
        if around:
            body = check + (
                f"    if {_PROCEED!r}.proceed is None:\n"
                f"        {_PROCEED!r}.proceed = {_NEW_PROCEED_CONST!r}({_FUNC!r}, {key!r})\n"
                f"    return {_HANDLER!r}({_PROCEED!r}.proceed, {shape.values(copy_varkw=False)})\n"
            )
        else:
            body = check + (
                f"    {_HANDLER!r}({shape.values(copy_varkw=True)})\n"
                f"    return {shape.call(repr(_FUNC))}\n"
            )
        wrapper = _template_function(
            f"def make():\n  def wrapper({parameter_list(layout)}):\n"
            + textwrap.indent(body, "  ") + "  return wrapper\n",
        )
        names = ["_func", "_type", "_tuple", "_len", "_invalid", "_values", "_missing", "_refuse"]
        proceed = _template_function(
            "def make(_func):\n    def proceed(_values, /):\n"
            + textwrap.indent(_proceed_source(shape, names, f", {len(shape.out_names)}, _func"), "    ")
            + "    return proceed\n",
            len,
        )
        code = wrapper.__code__
        if code.co_freevars or code.co_cellvars:
            raise SystemError("posonly: a template has free variables")
        consts = code.co_consts
        marks = tuple(
            consts.index(m) if m in consts else -1
            for m in (_SEEN_DEFAULTS, _SEEN_KWDEFAULTS, _FUNC, _HANDLER, _PROCEED)
        )
        helpers = {
            _STALE_CONST: _stale, _NEW_PROCEED_CONST: _new_proceed,
            _REMADE_CONST: (reads, marks, around, _wrapper_of_function),
        }
        code = code.replace(co_consts=tuple(
            helpers.get(c, c) if type(c) is str else c for c in consts
        ))
        templates = (code, proceed.__code__, tuple(layout.kwonly), marks)
        if len(_TEMPLATES) < 4096:
            _TEMPLATES[key] = templates
    return templates


def _with_names(template: types.CodeType, kwonly: Dict[str, str]) -> Tuple[Any, ...]:
    """``template``'s constants with the keyword names of its calls renamed."""
    if not kwonly:
        return template.co_consts
    return tuple(
        kwonly.get(c, c) if type(c) is str
        else tuple(kwonly.get(x, x) for x in c) if type(c) is tuple and c and type(c[0]) is str
        else c
        for c in template.co_consts
    )


_PROCEED_GLOBALS: Dict[str, Any] = {
    "_type": type, "_tuple": tuple, "_len": len, "_invalid": _refuse_values,
    "_missing": MISSING, "_refuse": _refuse_missing,
}


def _new_proceed(function: Any, key: Tuple[int, int, int, int, bool, int]) -> Any:
    """An around= wrapper's proceed, made at its first call from the
    template of the wrapper's shape, for the function's keyword-only names."""
    _, proceed, placeholders, _ = _templates(*key)
    argcount = key[0]
    kwonly = parameter_names(function.__code__, argcount + key[2])[argcount:]
    code = proceed.replace(co_consts=_with_names(proceed, dict(zip(placeholders, kwonly))))
    return types.FunctionType(code, _PROCEED_GLOBALS, "proceed", None, (types.CellType(function),))


def _template_made(obj: Any) -> bool:
    """Whether the function ``obj`` is a wrapper made from a template."""
    return obj.__globals__ is _TEMPLATE_GLOBALS and obj.__code__.co_filename == _FILENAME


def _wrapper_of_function(
    function: Any, before: Optional[Callable[[Tuple[Any, ...]], Any]], around: Optional[Callable[..., Any]]
) -> Optional[types.FunctionType]:
    """_wrapper_function's function for a plain function, made from
    templates; None for anything else."""
    parts = plain_function(function)
    if parts is None:
        return None
    code, name, defaults = parts
    argcount = code.co_argcount
    n_kwonly = code.co_kwonlyargcount
    kwdefaults = function.__kwdefaults__
    # Only a function with defaults reads them at each call: a parameter
    # without one is required at the call, before the wrapper's code runs.
    reads = (1 if defaults else 0) | (2 if kwdefaults and n_kwonly else 0)
    wrapper, _, placeholders, marks = _templates(
        argcount, code.co_posonlyargcount, n_kwonly, code.co_flags & CO_VARARGS_OR_VARKEYWORDS,
        around is not None, reads,
    )
    names = parameter_names(code, wrapper.co_nlocals)
    kwonly = names[argcount : argcount + n_kwonly]
    marked = list(_with_names(wrapper, dict(zip(placeholders, kwonly))))
    if reads & 1:
        marked[marks[0]] = defaults
    if reads & 2:
        marked[marks[1]] = kwdefaults
    marked[marks[2]] = function
    marked[marks[3]] = before if around is None else around
    if around is not None:
        marked[marks[4]] = _ProceedSlot()
    code_name = function.__name__ if QUALIFIED_NAMES else name
    generated = types.FunctionType(
        wrapper.replace(co_varnames=names, co_consts=tuple(marked), co_name=code_name),
        _TEMPLATE_GLOBALS, code_name, defaults,
    )
    if kwdefaults is not None and n_kwonly:
        # The function's own dict: the interpreter looks each default up
        # there at the call, so a dict changed in place is seen, as by
        # calls of the function.
        generated.__kwdefaults__ = kwdefaults
    generated.__qualname__ = name
    return generated
