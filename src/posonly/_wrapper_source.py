"""The source text of a pure wrapper: the function generated, once per
wrapper, with the parameters and defaults the interpreter binds.

``wrap(func, before=...)`` and ``wrap(func, around=...)`` generate a
function with ``func``'s own signature and defaults.  The interpreter binds
each call to it, with its exact semantics, as fast as Python can bind, and
with ``func``'s own messages (the function is named as ``func`` is).  Its
body hands the locals to the handler and calls ``func``; for ``def f(a, /,
b=<default>, *args, c, **kw)``::

    def f(a, /, b=<default>, *args, c, **kw):             # before=
        _before((a, b, c, args, {**kw}))
        return _func(a, b, *args, c=c, **kw)

    def f(a, /, b=<default>, *args, c, **kw):             # around=
        return _around(_proceed, (a, b, c, args, kw))

    def proceed(values, /):                               # made once, too
        if _type(values) is not _tuple or _len(values) != 5:
            _invalid(values)
        a, b, c, args, kw = values
        return _func(a, b, *args, c=c, **kw)

``before`` gets a copy of the ``**kwargs`` dict, so that ``func`` is called
with the caller's keywords whatever ``before`` does with its values.  The
helpers' names are chosen not to clash with the parameters'.  A plain
function's wrapper is made with no compile, from the templates of
``_wrapper_templates``, which are this source for a shape; anything else
that ``before=`` wraps is a forwarding ``def wrapper(*args, **kwargs)``
whose binder checks the call.
"""

from __future__ import annotations

import types
import weakref
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._callform import form_of_call
from ._plan import MISSING_VALUE, Plan, parameter_list
from ._defaults import defaults_source
from ._layout import MISSING, QUALIFIED_NAMES, Call, Layout, _name_of_function, resolve
from ._wrapper_stale import (
    _DEFAULTS_KEEP_IDENTITY,
    _READS,
    _binder_at_call,
    _defaults_changed,
    _kwdefaults_to_share,
    _remade_binder,
    _seen_defaults,
    _stale,
)

# The file of a generated function's code: what tracebacks and
# inspect.getfile show.  A wrapper's frame is no stack level for warnings,
# as the compiled wrapper, a C call, has no frame: a handler (the wrapper's
# body) that warns with stacklevel=2 points at the call of the wrapper, in
# both implementations.  The warnings machinery of every interpreter
# (CPython's C and Python ones, PyPy's) skips, when it counts levels, the
# frames whose code's file name holds both "importlib" and "_bootstrap",
# its own import machinery's: the name says it.
_FILENAME = "<posonly.wrap: skipped by warnings, as importlib._bootstrap>"
_MARK = "__posonly_wrapper__"  # in a generated function's globals
_OF_FUNCTION = object()  # the mark of a wrapper of a function
_OF_BOUND_METHOD = object()  # the mark of a wrapper of a bound method
_OF_PARTIAL = object()  # the mark of a wrapper of a partial


def _helper_names(layout: Layout, *bases: str) -> List[str]:
    """A name per base (``_func``, ...) that no parameter has."""
    taken = set(layout.names)
    names = []
    for base in bases:
        name = "_" + base
        while name in taken:
            name = "_" + name
        taken.add(name)
        names.append(name)
    return names


class _WrapperSource:
    """The source text of a wrapper's pieces: the values tuple and the calls.

    The generated function has the parameters the interpreter binds
    (``plan.layout``: with a bound method's ``self`` or a partial's
    arguments first); the values are those of the signature advertised
    (``plan.output``), each a parameter of the same name, ``*args`` less
    the items the prefix put there.
    """

    def __init__(self, plan: Plan) -> None:
        layout = plan.layout
        output = plan.output
        self.layout = layout
        self.output = output
        self.expression = {name: name for name in output.names}
        if output.varargs is not None and plan.varargs_cut:
            self.expression[output.varargs] = f"{output.varargs}[{plan.varargs_cut}:]"
        # The values, in frame order, as names (proceed unpacks them).
        self.out_names = list(output.names)
        self.positional = list(output.posonly + output.positional)

    def values(self, copy_varkw: bool) -> str:
        """The values tuple, built from the wrapper's parameters."""
        items = [self.expression[name] for name in self.output.names]
        if self.output.varkw is not None and copy_varkw:
            items[-1] = "{**%s}" % items[-1]
        return "(" + "".join(item + ", " for item in items) + ")"

    def call(self, target: str, expression: bool = True) -> str:
        """A call of ``target`` with the values: positionals by position,
        ``*args`` spread, keyword-only by keyword, ``**kwargs`` merged."""
        output = self.output
        value = self.expression.__getitem__ if expression else (lambda name: name)
        arguments = [value(name) for name in self.positional]
        if output.varargs is not None:
            arguments.append("*" + value(output.varargs))
        arguments += [f"{name}={name}" for name in output.kwonly]
        if output.varkw is not None:
            arguments.append("**" + output.varkw)
        return f"{target}({', '.join(arguments)})"


def _generate(source: str, namespace: Dict[str, Any], name: str) -> Any:
    """Run ``source`` (one ``def`` of a function called ``name``) in
    ``namespace``, its globals, which then do not hold it: no reference
    cycle keeps a wrapper alive."""
    exec(compile(source, _FILENAME, "exec"), namespace)
    return namespace.pop(name)


def _invalid_values(size: int, name: str) -> Callable[[Any], None]:
    def invalid(values: Any) -> None:
        _refuse_values(values, size, name)

    return invalid


def _refuse_values(values: Any, size: int, name: Any) -> None:
    """proceed()'s error for ``values`` that are no tuple of ``size`` items;
    ``name`` is the function's name, or the function itself."""
    if type(values) is not tuple:
        raise TypeError(f"proceed() needs a tuple of values, not {type(values).__name__}")
    if not isinstance(name, str):
        name = _name_of_function(name)
    raise TypeError(f"proceed() needs {size} values for {name}(), got {len(values)}")


def _refuse_missing() -> None:
    raise ValueError(MISSING_VALUE)


def _proceed_source(shape: _WrapperSource, names: List[str], size_check: str) -> str:
    """The body of ``proceed(values)``: check the tuple, unpack it, call
    the function (``names``: func, type, tuple, len, invalid, values,
    missing, refuse)."""
    func, type_, tuple_, len_, invalid, values, missing, refuse = names
    size = len(shape.out_names)
    unpack = f"    {''.join(n + ', ' for n in shape.out_names)}= {values}\n" if size else ""
    # As Binder.apply: a value left MISSING is refused (by identity: no
    # value's __eq__ runs).
    plain = shape.positional + list(shape.output.kwonly)
    check_missing = (
        f"    if {' or '.join(f'{n} is {missing}' for n in plain)}:\n        {refuse}()\n"
        if plain else ""
    )
    return (
        f"    if {type_}({values}) is not {tuple_} or {len_}({values}) != {size}:\n"
        f"        {invalid}({values}{size_check})\n"
        f"{unpack}"
        f"{check_missing}"
        f"    return {shape.call(func, expression=False)}\n"
    )


def _proceed(layout: Layout, shape: _WrapperSource, target: Callable[..., Any]) -> Callable[[Tuple[Any, ...]], Any]:
    """``proceed(values)``: check the tuple, unpack it, call ``target``."""
    names = _helper_names(
        layout, "func", "type", "tuple", "len", "invalid", "values", "missing", "refuse"
    )
    func, type_, tuple_, len_, invalid, values, missing, refuse = names
    size = len(shape.out_names)
    source = f"def proceed({values}, /):\n" + _proceed_source(shape, names, "")
    namespace = {
        func: target, type_: type, tuple_: tuple, len_: len,
        invalid: _invalid_values(size, layout.name), missing: MISSING, refuse: _refuse_missing,
    }
    return _generate(source, namespace, "proceed")  # type: ignore[no-any-return]


def _wrapper_function(
    shape: _WrapperSource,
    func: Callable[..., Any],
    before: Optional[Callable[[Tuple[Any, ...]], Any]],
    around: Optional[Callable[..., Any]],
    mark: object,
) -> types.FunctionType:
    """The generated function with the parameters and defaults the
    interpreter binds; it calls ``func`` itself with the values."""
    layout = shape.layout
    params = parameter_list(layout)
    func_name, handler, proceed, source_name, seen, stale, itself, changed = _helper_names(
        layout, "func", "handler", "proceed", "source", "seen", "stale", "itself", "changed"
    )
    namespace: Dict[str, Any] = {_MARK: mark, func_name: func}
    # Defaults are read at the call where they come from a function and the
    # function has some (as for a template-made wrapper, see there).
    source = defaults_source(func) if layout.defaults or layout.kwdefaults else None
    check = ""
    if source is not None:
        namespace.update({
            source_name: source, seen: _seen_defaults(source), stale: _stale,
            _READS: (source_name, seen, func_name, handler, around is not None,
                     mark is _OF_PARTIAL, _remade),
            changed: _defaults_changed,
        })
        frame = "(" + "".join(name + ", " for name in layout.names) + ")"
        check = (
            f"    if {source_name}.__defaults__ is not {seen}[0] or "
            f"{source_name}.__kwdefaults__ is not {seen}[1]:\n"
            if _DEFAULTS_KEEP_IDENTITY else
            f"    if {changed}({source_name}, {seen}):\n"
        ) + f"        return {stale}({itself}, {frame})\n"
    if before is not None:
        namespace[handler] = before
        body = (
            f"    {handler}({shape.values(copy_varkw=True)})\n"
            f"    return {shape.call(func_name)}\n"
        )
    else:
        namespace[handler] = around
        namespace[proceed] = _proceed(layout, shape, func)
        body = f"    return {handler}({proceed}, {shape.values(copy_varkw=False)})\n"
    generated = _generate(f"def wrapper({params}):\n{check}{body}", namespace, "wrapper")
    generated.__defaults__ = layout.defaults or None
    shared = source if source is not None or not layout.kwonly else defaults_source(func)
    generated.__kwdefaults__ = (
        _kwdefaults_to_share(layout.kwonly, shared) if shared is not None
        else dict(layout._kwdefaults) or None
    )
    if source is not None:  # (a weak reference: a wrapper lives in no reference cycle)
        namespace[itself] = weakref.ref(generated)
    return generated  # type: ignore[no-any-return]


def _generated_wrapper(
    func: Any, before: Optional[Callable[[Tuple[Any, ...]], Any]], around: Optional[Callable[..., Any]]
) -> Tuple[types.FunctionType, Plan, Call]:
    """The generated function of a wrapper of what is not a plain function
    (or a plain function on an interpreter without templates), named as the
    function bound, with the plan and the call it was made from."""
    call = resolve(func)
    plan = Plan(call.layout, call)
    one_first = len(call.prefix) == 1 and not call.preset
    mark = _OF_FUNCTION if not plan.bound else _OF_BOUND_METHOD if one_first else _OF_PARTIAL
    generated = _wrapper_function(_WrapperSource(plan), func, before, around, mark)
    _name_generated(generated, call.layout, func)
    return generated, plan, call


def _remade(
    func: Any, before: Optional[Callable[[Tuple[Any, ...]], Any]], around: Optional[Callable[..., Any]]
) -> types.FunctionType:
    """A generated function made again, for the defaults as they are now."""
    return _generated_wrapper(func, before, around)[0]


# wrap(func, before=...) of anything but a plain function: the binder of
# what func advertises checks the call and makes the values, and func gets
# the caller's own arguments, as the compiled wrapper passes them (a
# generated function would pass the advertised defaults too, which a
# (*args, **kwargs) function sees).  Marked as a wrapper of a function.
_FORWARDING_GLOBALS: Dict[str, Any] = {
    _MARK: _OF_FUNCTION, "_changed": _defaults_changed, "_form": form_of_call, "_len": len,
    "_tuple": tuple,
}


def _forwarding_source(read: bool, form: bool, around: bool) -> str:
    """``make``, which makes a forwarding wrapper: ``read``, one that reads
    the function's defaults again when they change; ``form``, one whose
    handler gets the call's :class:`CallForm` too (the number of positional
    arguments and the keyword names, which only a ``*args, **kwargs``
    function sees)."""
    lines = [
        "def make(_func, _handler, _bind, _proceed"
        + (", _source, _seen, _remake" if read else "") + "):",
        "    def wrapper(*args, **kwargs):",
    ]
    if read:
        lines += [
            "        nonlocal _bind, _seen",
            "        if _source.__defaults__ is not _seen[0] or _source.__kwdefaults__ is not _seen[1]:"
            if _DEFAULTS_KEEP_IDENTITY else "        if _changed(_source, _seen):",
            "            _bind, _seen = _remake(_func, _source)",
        ]
    arguments = "_bind(*args, **kwargs)"
    if form:
        arguments += ", _form(_bind.layout, _len(args), _tuple(kwargs))"
    if around:
        lines.append(f"        return _handler(_proceed, {arguments})")
    else:
        lines += [f"        _handler({arguments})", "        return _func(*args, **kwargs)"]
    return "\n".join(lines + ["    return wrapper", ""])


_FORWARDING: Dict[Tuple[bool, bool, bool], Callable[..., Any]] = {}
for _key in ((r, f, a) for r in (False, True) for f, a in ((False, False), (True, False), (True, True))):
    exec(compile(_forwarding_source(*_key), _FILENAME, "exec"), _FORWARDING_GLOBALS)  # noqa: S102
    _FORWARDING[_key] = _FORWARDING_GLOBALS.pop("make")
del _key


def _forwarding_wrapper(
    func: Any, before: Optional[Callable[[Tuple[Any, ...]], Any]],
    around: Optional[Callable[..., Any]] = None, form: bool = False,
) -> Tuple[types.FunctionType, Layout]:
    """The wrapper and the layout of its values: one handler (``around=``
    only with ``form``), which gets the call's form where ``form``."""
    source = defaults_source(func)
    bind = _binder_at_call(func, source)
    plan = bind._plan
    proceed = _proceed(plan.layout, _WrapperSource(plan), func) if around is not None else None
    make = _FORWARDING[source is not None, form, around is not None]
    handler = before if around is None else around
    wrapper: types.FunctionType = (
        make(func, handler, bind, proceed) if source is None
        else make(func, handler, bind, proceed, source, _seen_defaults(source), _remade_binder)
    )
    name = bind.layout.name
    wrapper.__qualname__ = name
    wrapper.__name__ = name.rpartition(".")[2]
    return wrapper, plan.output


def _name_generated(generated: Any, layout: Layout, func: Any) -> None:
    """The interpreter names a function in its call errors by
    ``__qualname__`` (3.10+), by ``co_name`` (CPython 3.9) or by ``__name__``
    (PyPy 3.9): each is the bound function's, as ``functools.wraps`` would
    set them where ``func`` has them."""
    generated.__qualname__ = layout.name
    generated.__name__ = layout.name.rpartition(".")[2] if QUALIFIED_NAMES else layout.name
    code_name = getattr(func, "__name__", None) if QUALIFIED_NAMES else layout.name
    if not isinstance(code_name, str):
        code_name = generated.__name__
    generated.__code__ = generated.__code__.replace(co_name=code_name)


# A wrapper of a plain function, made with no compile: its generated function
