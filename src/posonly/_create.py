"""Binders of plain functions, made straight from the function: the pure
twin of ``_create.pxi``.

Making them is on the clock: a library that wraps thousands of functions
pays it at every start.  A plain function's parameters are read from its
code object, which the compiler made valid (identifiers, no duplicates,
order), so nothing is checked again.  The helpers that read a code object
here serve the pure wrapper's templates too (``_wrapper``).
"""

from __future__ import annotations

import sys
import types
from inspect import CO_VARARGS, CO_VARKEYWORDS
from typing import Any, Dict, Optional, Tuple

from ._binder import NO_KEYWORDS, Binder, generate_function, new_partial, set_partial_state
from ._plan import NAMED_BY_CALLEE, Plan, make_binder
from ._layout import Layout, _name_of_function, advertises, is_plain_function

__all__ = ["CO_VARARGS_OR_VARKEYWORDS", "binder", "binder_of_function", "parameter_names",
           "placeholder_layout", "plain_function"]

CO_VARARGS_OR_VARKEYWORDS = CO_VARARGS | CO_VARKEYWORDS


def plain_function(func: Any) -> Optional[Tuple[types.CodeType, str, Optional[Tuple[Any, ...]]]]:
    """``(code, name, defaults)`` of a plain function, one whose parameters
    the pure twin makes a binder or wrapper of straight from its code object
    (the name is what the interpreter's errors call it); ``None`` for
    anything else, which goes the general way: not a function, a ``__dict__``
    holding ``__wrapped__`` or ``__signature__`` (another signature
    advertised), or defaults or a name the general way copies or refuses."""
    if NAMED_BY_CALLEE or not is_plain_function(func) or advertises(func):
        # (On PyPy the function itself names some messages: the general way.)
        return None
    code = func.__code__
    defaults = func.__defaults__
    name = _name_of_function(func)
    if (
        defaults is not None and (type(defaults) is not tuple or len(defaults) > code.co_argcount)
    ) or type(name) is not str:
        return None
    return code, name, defaults


def placeholder_layout(argcount: int, n_posonly: int, n_kwonly: int, flags: int) -> Layout:
    """A layout of one shape (a code object's counts and ``*args``/``**kwargs``
    flags) with parameters named ``_0``, ``_1``, ..., for template functions."""
    n = argcount + n_kwonly
    names = [f"_{i}" for i in range(n + bool(flags & CO_VARARGS) + bool(flags & CO_VARKEYWORDS))]
    return Layout(
        "f", names[:n_posonly], names[n_posonly:argcount],
        names[n] if flags & CO_VARARGS else None, names[argcount:n],
        names[-1] if flags & CO_VARKEYWORDS else None,
    )


if sys.version_info >= (3, 12) and hasattr(types.CodeType, "_varname_from_oparg"):

    def parameter_names(code: types.CodeType, n: int) -> Tuple[str, ...]:
        """The first ``n`` names of ``code``'s locals (its parameters come
        first).  Read one by one: from 3.12 on, ``co_varnames`` makes a
        tuple of every local that the code object then keeps."""
        return tuple(map(code._varname_from_oparg, range(n)))  # type: ignore[attr-defined]

else:

    def parameter_names(code: types.CodeType, n: int) -> Tuple[str, ...]:
        """The first ``n`` names of ``code``'s locals (its parameters come first)."""
        return code.co_varnames[:n]


# A binder of a plain function, made with no compile: the function that binds
# is a copy of one template function per shape (how many parameters of each
# kind), compiled once, whose body returns its locals as a tuple; the copy
# gets the function's own parameter names (``co_varnames``: the bytecode reads
# its locals by position), name and defaults, so the interpreter binds each
# call to it, and words each error, as it would for the function itself.
_TEMPLATES: Dict[Tuple[int, int, int, int], types.CodeType] = {}
_QUALNAME_IN_CODE = sys.version_info >= (3, 11)  # co_qualname: the function's default qualname


def _template(argcount: int, n_posonly: int, n_kwonly: int, flags: int) -> types.CodeType:
    key = (argcount, n_posonly, n_kwonly, flags)
    code = _TEMPLATES.get(key)
    if code is None:
        shape = placeholder_layout(argcount, n_posonly, n_kwonly, flags)
        code = generate_function(shape, Plan(shape)).__code__
        if len(_TEMPLATES) < 4096:
            _TEMPLATES[key] = code
    return code


def binder(target: Any, follow_wrapped: bool = True) -> "Binder[Any]":
    """``posonly.binder`` of the pure twin: a plain function's binder made
    from its code object, anything else's by the general path."""
    if type(target) is _FunctionType:
        made = binder_of_function(target)
        if made is not None:
            return made
    return make_binder(Binder, target, follow_wrapped)


_FunctionType = types.FunctionType


def binder_of_function(func: types.FunctionType) -> Optional["Binder[Any]"]:
    """A Binder of a plain function made from its code object; None for any
    other function, which the general path then binds."""
    parts = plain_function(func)
    if parts is None:
        return None
    code, name, defaults = parts
    argcount = code.co_argcount
    flags = code.co_flags & CO_VARARGS_OR_VARKEYWORDS
    n_kwonly = code.co_kwonlyargcount
    template = _template(argcount, code.co_posonlyargcount, n_kwonly, flags)
    names = parameter_names(code, template.co_nlocals)
    if _QUALNAME_IN_CODE:
        copy = template.replace(co_varnames=names, co_name=name, co_qualname=name)
    else:
        copy = template.replace(co_varnames=names, co_name=name)
    function = types.FunctionType(copy, _GLOBALS, name, defaults)
    kwdefaults = func.__kwdefaults__
    if kwdefaults and n_kwonly:
        # The interpreter looks up only the keyword-only names there.
        kwonly = names[argcount : argcount + n_kwonly]
        function.__kwdefaults__ = {k: kwdefaults[k] for k in kwonly if k in kwdefaults} or None
    # The binder is the partial of the function alone: its layout, plan
    # and partial() function are built on first use, and its keywords are
    # the dict every such binder shares.
    binder = new_partial(Binder, function)
    set_partial_state(binder, (function, (), NO_KEYWORDS, None))
    return binder


_GLOBALS: Dict[str, Any] = {}  # the template functions' globals: they read none
