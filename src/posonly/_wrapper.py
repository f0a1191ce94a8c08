"""The pure-Python wrapper: the twin of the compiled ``Wrapper``.

``wrap(func, before=...)`` and ``wrap(func, around=...)`` generate, once per
wrapper, a function with ``func``'s own signature and defaults.  The
interpreter binds each call to it, with its exact semantics, as fast as
Python can bind, and with ``func``'s own messages (the function is named as
``func`` is).  Its body hands the locals to the handler and calls ``func``;
for ``def f(a, /, b=<default>, *args, c, **kw)``::

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
helpers' names are chosen not to clash with the parameters'.

A wrapper is a plain function: on a class it is a method as any function is,
with no Python-level ``__get__`` or ``__call__`` in the way.  A wrapper of a
coroutine function is marked as one with :func:`inspect.markcoroutinefunction`
(3.12 and later); before 3.12 a function cannot be marked, so the wrapper is a
:class:`functools.partial` of the coroutine function (what
:func:`inspect.iscoroutinefunction` looks through) whose calls go to the
generated function.
A wrapper of a bound method is the generated function (with ``self`` first)
bound to the same object, so that the interpreter counts ``self`` in its
messages as it does for the method, and the values leave it out, as the
method's binder does.

What both implementations do alike (``tests/test_wrap_twins.py`` drives them
side by side):

- Defaults are the function's at the call, as the interpreter's: the values
  the handler gets, and the call of the function.  A keyword-only default is
  looked up in the function's own ``__kwdefaults__`` dict at the call, as
  the interpreter looks it up, so a dict changed in place is seen: the
  compiled wrapper's binder holds that dict and looks there, and a
  generated function (and the pure binder a forwarding wrapper calls) has
  that very dict as its own ``__kwdefaults__``.  A replaced ``__defaults__``
  tuple or ``__kwdefaults__`` dict is seen too.  The compiled wrapper
  compares the two objects with those its binder read (two pointer compares
  per call) and remakes its binder on a change.  A generated function has
  positional defaults of its own: where the function has defaults, its
  first lines compare the function's objects with those it was made with
  (constants of its code), and on a change ``_stale`` gives it the new
  defaults and makes the call again from the arguments given (on that first
  call after the change, an argument passed that is the former default
  object itself counts as not given).  In the pure wrapper, a parameter
  without a default in what it last read (none when it was made, or a
  keyword-only default deleted in place) stays required when a replaced
  tuple or dict gives it one, until a call passes it: the interpreter
  refuses the call before the wrapper's code runs.
- ``wrapper.layout`` is the layout of the values the handler gets (as
  ``binder.layout`` is of a binder's: a bound method's ``self`` and a
  partial's arguments in neither), with the defaults as they were read when
  the wrapper was made, and again at the first call after either object was
  replaced (``_stale`` or the remade binder sets it again); a dict changed
  in place leaves it as it was, in both.
- ``inspect.iscoroutinefunction`` answers as for the function;
  ``inspect.isgeneratorfunction`` and ``isasyncgenfunction`` answer False, as
  for a ``functools.wraps`` def: a wrapper is a function that returns the
  generator.
- A wrapper pickles by reference where a function would (a module-level
  name, a method or class or static method on a module-level class), and
  loads as itself, its handler in place; a wrapper of a bound method, a
  callable instance or a partial raises :class:`pickle.PicklingError`, as
  nothing could load it as what was dumped.
"""

from __future__ import annotations

import copyreg
import functools
import inspect
import operator
import pickle
import sys
import textwrap
import types
import warnings
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Generic, List, Optional, Tuple, TypeVar, overload

from ._common import (
    MISSING_VALUE,
    Plan,
    descriptor_refused,
    make_binder,
    parameter_list,
    wrapper_arguments,
)
from ._create import (
    CO_VARARGS_OR_VARKEYWORDS,
    parameter_names,
    placeholder_layout,
    plain_function,
)
from ._defaults import defaults_source
from ._layout import MISSING, QUALIFIED_NAMES, ClassSignature, Layout, _name_of_function, advertises, resolve

__all__ = ["Wrapper", "wrap"]

if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    _P = ParamSpec("_P")
else:
    try:  # only type checkers read it; 3.9 has no ParamSpec
        from typing import ParamSpec

        _P = ParamSpec("_P")
    except ImportError:
        _P = TypeVar("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")
_Values = Tuple[Any, ...]
_Before = Callable[[_Values], object]

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


class _Shape:
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


class _LayoutAsMade(Layout):
    """``Layout.from_callable(func)`` for a plain function as it was when
    made, read when first asked for (a wrapper's layout, which only some
    handlers read, costs nothing until then): the ``defaults`` slot holds
    the function's ``__defaults__`` tuple and the ``_kwdefaults`` slot its
    keyword-only defaults as they were, as a Layout holds them (unset where
    there are none), until the other fields are read; it then becomes a
    Layout."""

    __slots__ = ()

    def __getattr__(self, attr: str) -> Any:
        # Called for a slot not set: the fields, read now.
        if attr in _SNAPSHOT_READS:
            _resolve_layout(self)
            return object.__getattribute__(self, attr)
        raise AttributeError(f"'Layout' object has no attribute {attr!r}")

    @property
    def kwdefaults(self) -> Any:
        _resolve_layout(self)
        return self.kwdefaults


_SNAPSHOT_READS = frozenset((
    "name", "posonly", "positional", "varargs", "kwonly", "varkw", "defaults", "_kwdefaults",
    "names", "_hash", "_access",
))


def _layout_as_made(func: Any) -> Layout:
    """A layout of the plain function ``func`` with its defaults as they are
    now, whatever they are when the layout is first read: the keyword-only
    ones are copied (a dict changed in place changes the calls, not the
    layout, as for the compiled wrapper's binder)."""
    self = object.__new__(_LayoutAsMade)
    set_ = object.__setattr__
    set_(self, "_function", func)
    defaults, kwdefaults = func.__defaults__, func.__kwdefaults__
    if defaults is not None:
        set_(self, "defaults", defaults)
    if kwdefaults:
        code = func.__code__
        argcount = code.co_argcount
        kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
        set_(self, "_kwdefaults", tuple([(k, kwdefaults[k]) for k in kwonly if k in kwdefaults]))
    return self


def _resolve_layout(layout: Any) -> None:
    get = object.__getattribute__
    if type(layout) is not _LayoutAsMade:
        return
    func = get(layout, "_function")
    try:
        defaults = get(layout, "defaults")
    except AttributeError:
        defaults = None
    try:
        kwdefaults = dict(get(layout, "_kwdefaults"))
    except AttributeError:
        kwdefaults = None
    code = func.__code__
    argcount = code.co_argcount
    total = argcount + code.co_kwonlyargcount
    index = total + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    names = parameter_names(code, index)
    kwonly = names[argcount:total]
    made = Layout(
        name=_name_of_function(func), posonly=names[:code.co_posonlyargcount],
        positional=names[code.co_posonlyargcount:argcount],
        varargs=names[total] if code.co_flags & 0x04 else None,
        kwonly=kwonly, varkw=names[index - 1] if code.co_flags & 0x08 else None,
        defaults=defaults or (), kwdefaults=kwdefaults,
    )
    set_ = object.__setattr__
    for field in _SNAPSHOT_READS - {"_access"}:
        set_(layout, field, getattr(made, field))
    set_(layout, "__class__", Layout)


def _set_layout(owner: Any, layout: Layout, in_partial: bool) -> None:
    """``owner.layout`` made ``layout``: on a wrapper's generated function,
    and on the partial made around it (``in_partial``)."""
    owner.__dict__["layout"] = layout
    if in_partial:
        for referrer in _referrers(owner):
            if type(referrer) is functools.partial and referrer.func is owner:
                referrer.__dict__["layout"] = layout


_LAYOUT_OF = "__posonly_layout_of__"  # the defaults objects wrapper.layout has


def _same_pair(a: Any, b: Tuple[Any, Any]) -> bool:
    return a is not None and a[0] is b[0] and a[1] is b[1]


def _referrers(obj: Any) -> List[Any]:
    import gc

    return gc.get_referrers(obj)


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


def _proceed_source(shape: _Shape, names: List[str], size_check: str) -> str:
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


def _proceed(layout: Layout, shape: _Shape, target: Callable[..., Any]) -> Callable[[Tuple[Any, ...]], Any]:
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
    shape: _Shape,
    func: Callable[..., Any],
    before: Optional[Callable[[Tuple[Any, ...]], Any]],
    around: Optional[Callable[..., Any]],
    mark: object,
    n_prefix: int = 0,
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
            _READS: (source_name, seen, func_name, handler, around is not None, n_prefix),
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


# wrap(func, before=...) of anything but a plain function: the binder of
# what func advertises checks the call and makes the values, and func gets
# the caller's own arguments, as the compiled wrapper passes them (a
# generated function would pass the advertised defaults too, which a
# (*args, **kwargs) function sees).  Marked as a wrapper of a function.
def _probe(a: Any = None, *, b: Any = None) -> None:
    """A function whose defaults tell how the interpreter hands them out."""


# CPython hands out a function's own __defaults__ tuple and __kwdefaults__
# dict; PyPy makes a new tuple on each read of __defaults__ (it keeps a
# list), so there the items are compared.
_DEFAULTS_KEEP_IDENTITY = (
    _probe.__defaults__ is _probe.__defaults__ and _probe.__kwdefaults__ is _probe.__kwdefaults__
)


def _defaults_changed(source: Any, seen: Tuple[Any, Any]) -> bool:
    """Whether ``source`` holds other defaults than ``seen`` (as
    _seen_defaults made it), by identity, item by item where the
    interpreter makes a new tuple on each read."""
    defaults, kwdefaults = source.__defaults__, source.__kwdefaults__
    if kwdefaults is not seen[1] or defaults is seen[0]:
        return kwdefaults is not seen[1]
    if defaults is None or seen[0] is None or len(defaults) != len(seen[0]):
        return True
    return not all(map(operator.is_, defaults, seen[0]))


_FORWARDING_GLOBALS: Dict[str, Any] = {_MARK: _OF_FUNCTION, "_changed": _defaults_changed}
exec(  # noqa: S102 - fixed source
    compile(
        "def forwarding(_func, _handler, _bind):\n"
        "    def wrapper(*args, **kwargs):\n"
        "        _handler(_bind(*args, **kwargs))\n"
        "        return _func(*args, **kwargs)\n"
        "    return wrapper\n"
        "def forwarding_read(_func, _handler, _bind, _source, _seen, _remake):\n"
        "    def wrapper(*args, **kwargs):\n"
        "        nonlocal _bind, _seen\n"
        + (
            "        if _source.__defaults__ is not _seen[0] or _source.__kwdefaults__ is not _seen[1]:\n"
            if _DEFAULTS_KEEP_IDENTITY else "        if _changed(_source, _seen):\n"
        ) +
        "            _bind, _seen = _remake(_func, _source)\n"
        "        _handler(_bind(*args, **kwargs))\n"
        "        return _func(*args, **kwargs)\n"
        "    return wrapper\n",
        _FILENAME, "exec",
    ),
    _FORWARDING_GLOBALS,
)
_forwarding = _FORWARDING_GLOBALS.pop("forwarding")
_forwarding_read = _FORWARDING_GLOBALS.pop("forwarding_read")



def _seen_defaults(source: Any) -> Tuple[Any, Any]:
    return source.__defaults__, source.__kwdefaults__


def _output_layout(func: Any) -> Layout:
    """The layout of the values of a call of ``func`` as it is now."""
    call = resolve(func)
    return Plan(call.layout, call).output


def _binder_at_call(func: Any, source: Any) -> Any:
    """A binder of ``func`` that binds with the defaults ``source`` (the
    function its defaults come from, or None) has at the call: its function
    shares ``source``'s ``__kwdefaults__`` dict (see _kwdefaults_to_share),
    as the compiled wrapper's binder reads it at each call."""
    from ._binder import Binder, _function_of
    from ._create import binder_of_function

    binder = make_binder(Binder, binder_of_function, func)
    if source is not None:
        function = _function_of(binder)
        code = function.__code__
        argcount = code.co_argcount
        kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
        if kwonly:
            function.__kwdefaults__ = _kwdefaults_to_share(kwonly, source)
    return binder


def _remade_binder(func: Any, source: Any) -> Tuple[Any, Tuple[Any, Any]]:
    """A binder of ``func`` read again, with the defaults objects it read;
    the forwarding wrappers of ``func`` that call this (their code is the
    caller's) get its layout."""
    seen = _seen_defaults(source)
    binder = _binder_at_call(func, source)
    code = sys._getframe(1).f_code
    for referrer in _referrers(code):
        if type(referrer) is types.FunctionType and referrer.__code__ is code and any(
            cell.cell_contents is func for cell in referrer.__closure__ or ()
        ):
            referrer.__dict__["layout"] = binder._plan.output
    return binder, seen


def _forwarding_wrapper(
    func: Any, before: Callable[[Tuple[Any, ...]], Any]
) -> Tuple[types.FunctionType, Layout]:
    """The wrapper and the layout of its values."""
    source = defaults_source(func)
    seen = _seen_defaults(source) if source is not None else None
    bind = _binder_at_call(func, source)
    wrapper: types.FunctionType = (
        _forwarding(func, before, bind) if source is None
        else _forwarding_read(func, before, bind, source, seen, _remade_binder)
    )
    name = bind.layout.name
    wrapper.__qualname__ = name
    wrapper.__name__ = name.rpartition(".")[2]
    return wrapper, bind._plan.output


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
# is a copy of a template function compiled once per shape, as
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
_READS = "__posonly_reads__"  # in a generated function's own globals: the names read
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
        shape = _Shape(Plan(layout))
        tests = ([f"{_FUNC!r}.__defaults__ is not {_SEEN_DEFAULTS!r}"] if reads & 1 else []) + (
            [f"{_FUNC!r}.__kwdefaults__ is not {_SEEN_KWDEFAULTS!r}"] if reads & 2 else [])
        # (On a change, _stale reads the arguments from the caller's frame.)
        check = (
            f"    if {' or '.join(tests)}:\n"
            f"        return {_STALE_CONST!r}({reads})\n"
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
        helpers = {_STALE_CONST: _stale, _NEW_PROCEED_CONST: _new_proceed}
        code = code.replace(co_consts=tuple(
            helpers.get(c, c) if type(c) is str else c for c in consts
        ))
        marks = tuple(
            consts.index(m) if m in consts else -1
            for m in (_SEEN_DEFAULTS, _SEEN_KWDEFAULTS, _FUNC, _HANDLER, _PROCEED)
        )
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


def _given_arguments(code: types.CodeType, defaults: Any, kwdefaults: Any,
                     frame: Tuple[Any, ...]) -> Tuple[List[Any], Dict[str, Any]]:
    """The arguments of a call that a function of ``code`` with these
    defaults bound to ``frame`` (its locals in frame order): a value that is
    its parameter's default object counts as not given."""
    argcount = code.co_argcount
    n_posonly = code.co_posonlyargcount
    total = argcount + code.co_kwonlyargcount
    names = parameter_names(code, total)
    defaults = defaults or ()
    kwdefaults = kwdefaults or {}
    first_default = argcount - len(defaults)
    index = total
    extra: Tuple[Any, ...] = ()
    more: Dict[str, Any] = {}
    if code.co_flags & 0x04:
        extra = frame[index]
        index += 1
    if code.co_flags & 0x08:
        more = frame[index]
    given = [
        bool(extra) or i < first_default or frame[i] is not defaults[i - first_default]
        for i in range(argcount)
    ]
    last_posonly = max((i for i in range(n_posonly) if given[i]), default=-1)
    positional: List[Any] = []
    keywords: Dict[str, Any] = {}
    gap = False
    for i in range(argcount):
        if i <= last_posonly or (given[i] and not gap):
            positional.append(frame[i])
        elif given[i]:
            keywords[names[i]] = frame[i]
        else:
            gap = True
    for i in range(argcount, total):
        name = names[i]
        if name not in kwdefaults or frame[i] is not kwdefaults[name]:
            keywords[name] = frame[i]
    positional.extend(extra)
    keywords.update(more)
    return positional, keywords


class _NoDefault:
    """A generated function's default for a parameter whose function lost
    its default (see _read_defaults); never a value handed on."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<posonly: no default>"


_NO_DEFAULT = _NoDefault()
_NEVER = _NoDefault()  # the defaults "seen" by a wrapper that reads them on every call
_FRESH: "weakref.WeakKeyDictionary[Any, Tuple[Any, Any, Any]]" = weakref.WeakKeyDictionary()


def _read_defaults(generated: Any, function: Any) -> bool:
    """Give ``generated`` the defaults ``function`` has now: its
    ``__defaults__``, and its ``__kwdefaults__`` dict itself (see
    _kwdefaults_to_share).

    A parameter cannot be made required again once the interpreter binds
    it as optional: where ``function`` has lost defaults, ``generated``
    keeps such a parameter optional, with ``_NO_DEFAULT`` (in a dict of its
    own for a keyword-only one), and the answer is False (each call then
    goes through ``_stale``)."""
    code = generated.__code__
    argcount = code.co_argcount
    kwonly = parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:]
    capacity = len(generated.__defaults__ or ())
    defaults = function.__defaults__ or ()
    complete = len(defaults) >= capacity
    if not complete:
        defaults = (_NO_DEFAULT,) * (capacity - len(defaults)) + tuple(defaults)
    generated.__defaults__ = defaults or None
    kwdefaults = function.__kwdefaults__ or {}
    had = generated.__kwdefaults__ or {}
    lost = [name for name in kwonly if name in had and name not in kwdefaults]
    if lost:
        own = {k: kwdefaults[k] for k in kwonly if k in kwdefaults}
        own.update(dict.fromkeys(lost, _NO_DEFAULT))
        generated.__kwdefaults__ = own
        return False
    generated.__kwdefaults__ = _kwdefaults_to_share(kwonly, function)
    return complete


def _kwdefaults_to_share(kwonly: Tuple[str, ...], function: Any) -> Optional[Dict[str, Any]]:
    """What a generated function with the keyword-only parameters ``kwonly``
    takes as its ``__kwdefaults__`` to bind as ``function`` does: the
    function's own dict, where the interpreter looks each default up at the
    call (so a dict changed in place is seen, as by calls of the function);
    a copy of the defaults where ``function``'s keyword-only names differ
    (never for the function a wrapper reads its defaults from)."""
    kwdefaults = function.__kwdefaults__
    if not kwonly or kwdefaults is None:
        return None
    code = function.__code__
    argcount = code.co_argcount
    if parameter_names(code, argcount + code.co_kwonlyargcount)[argcount:] == tuple(kwonly):
        return kwdefaults  # type: ignore[no-any-return]
    return {k: kwdefaults[k] for k in kwonly if k in kwdefaults} or None


def _calling_function(code: types.CodeType) -> Any:
    """The function whose code ``code`` is: a template-made wrapper, found
    among the collector's referrers of its code (its own), so that it keeps
    no reference to itself for the rare call that needs it."""
    import gc

    for referrer in gc.get_referrers(code):
        if type(referrer) is types.FunctionType and referrer.__code__ is code:
            return referrer
    raise SystemError("posonly: a wrapper's function was not found")  # pragma: no cover


def _stale(itself: Any, frame: Optional[Tuple[Any, ...]] = None) -> Any:
    """A call of a wrapper whose function's defaults have changed since it
    read them: the wrapper reads them again, and the call is made again from
    the arguments it was given (a value that is its parameter's default
    object counts as not given: on the first call after a change, an
    argument passed that is the former default object itself is taken for
    the new default).  Where the function has lost a default, every call
    comes here, and goes to a wrapper made for the defaults as they are."""
    if type(itself) is int:  # a template-made wrapper: what it reads
        caller = sys._getframe(1)
        reads_bits, generated = itself, _calling_function(caller.f_code)
        code = generated.__code__
        n = code.co_argcount + code.co_kwonlyargcount
        n += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
        local = caller.f_locals
        frame = tuple([local[name] for name in parameter_names(code, n)])
        del caller, local
    else:
        generated = itself()
    code = generated.__code__
    reads = generated.__globals__.get(_READS)
    if reads is not None:  # a generated function with globals of its own
        source_name, seen, func_name, handler_name, around, n_prefix = reads
        function = generated.__globals__[source_name]
        func = generated.__globals__[func_name]
        handler = generated.__globals__[handler_name]
    else:
        around, n_prefix = any(type(c) is _ProceedSlot for c in code.co_consts), 0
        marks = _templates(
            code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount,
            code.co_flags & CO_VARARGS_OR_VARKEYWORDS, around, reads_bits,
        )[3]
        function = func = code.co_consts[marks[2]]
        handler = code.co_consts[marks[3]]
    assert frame is not None
    positional, keywords = _given_arguments(
        code, generated.__defaults__, generated.__kwdefaults__, frame
    )
    complete = _read_defaults(generated, function)
    now = _seen_defaults(function) if complete else (_NEVER, _NEVER)
    # wrapper.layout: the values' layout, with the defaults now read.
    if reads is not None:
        generated.__globals__[seen] = now
        state = generated.__globals__
        current = _seen_defaults(function)
        if not _same_pair(state.get(_LAYOUT_OF), current):  # (once per change)
            state[_LAYOUT_OF] = current
            _set_layout(generated, _output_layout(func), state.get(_MARK) is _OF_PARTIAL)
    else:
        generated.__dict__["layout"] = _layout_as_made(function)
        consts = list(code.co_consts)
        for index, seen_now in zip(marks, now):
            if index >= 0:
                consts[index] = seen_now
        generated.__code__ = code.replace(co_consts=tuple(consts))
    if complete:
        return generated(*positional, **keywords)
    current = _seen_defaults(function)
    fresh = _FRESH.get(generated)
    if fresh is None or _defaults_changed(function, (fresh[0], fresh[1])):
        made = wrap(func, around=handler) if around else wrap(func, before=handler)
        fresh = (current[0], current[1], made)
        _FRESH[generated] = fresh
    return fresh[2](*positional[n_prefix:], **keywords)


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


if TYPE_CHECKING:
    _Partial = functools.partial[Any]
else:
    _Partial = functools.partial


class _CoroutineWrapper(_Partial):
    """A wrapper of a coroutine function where functions cannot be marked as
    coroutine functions (before 3.12): ``inspect.iscoroutinefunction`` looks
    through a partial to its ``func``, which here is the coroutine function,
    while calls go to the generated function."""

    __slots__ = ("_generated",)
    _generated: Callable[..., Any]
    __qualname__: str  # set by functools.update_wrapper, in the partial's __dict__

    def __new__(cls, coroutine_function: Callable[..., Any], generated: Callable[..., Any]) -> "_CoroutineWrapper":
        self = super().__new__(cls, coroutine_function)
        self._generated = generated
        return self

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return self._generated(*args, **kwargs)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self if instance is None else types.MethodType(self, instance)

    @property
    def layout(self) -> Layout:
        """The generated function's: the values' layout, as it is now."""
        return self._generated.layout  # type: ignore[attr-defined, no-any-return]

    def __setstate__(self, state: Any) -> None:
        raise TypeError("a Wrapper cannot be changed")

    def __reduce__(self) -> str:
        return self.__qualname__  # by reference, as a function

    def __repr__(self) -> str:
        return f"<posonly.Wrapper {self.__qualname__} at {id(self):#x}>"


def _coroutine_function_of(func: Any) -> Any:
    """The function ``inspect.iscoroutinefunction`` finds in ``func``."""
    while True:
        if isinstance(func, types.MethodType):
            func = func.__func__
        elif isinstance(func, functools.partial):
            func = func.func
        else:
            return func


def _is_wrapper(obj: Any) -> bool:
    if type(obj) is types.MethodType:
        # Only a bound method's wrapper is itself a method; a wrapper looked
        # up on an instance is a method of a wrapper, as for any function.
        obj = obj.__func__
        expected = _OF_BOUND_METHOD
    elif type(obj) is functools.partial:
        obj = obj.func
        expected = _OF_PARTIAL
    else:
        expected = _OF_FUNCTION
    if type(obj) is _CoroutineWrapper:
        obj = obj._generated
    return type(obj) is types.FunctionType and (
        obj.__globals__.get(_MARK) is expected
        or (expected is _OF_FUNCTION and _template_made(obj))
    )


def _check_callable(value: Any, what: str) -> None:
    if not callable(value):
        raise TypeError(f"wrap() {what} must be callable, not {type(value).__name__}")


@overload
def wrap(
    func: "classmethod[_T, _P, _R]",
    *,
    before: Optional[_Before] = None,
    around: Optional[Callable[[Callable[[_Values], _R], _Values], _R]] = None,
) -> "classmethod[_T, _P, _R]": ...


@overload
def wrap(  # type: ignore[overload-overlap]
    func: "staticmethod[_P, _R]",
    *,
    before: Optional[_Before] = None,
    around: Optional[Callable[[Callable[[_Values], _R], _Values], _R]] = None,
) -> "staticmethod[_P, _R]": ...


@overload
def wrap(
    func: Callable[_P, _R],
    *,
    before: Optional[_Before] = None,
    around: Optional[Callable[[Callable[[_Values], _R], _Values], _R]] = None,
) -> "Wrapper[_P, _R]": ...


def wrap(
    func: Any,
    *,
    before: Optional[_Before] = None,
    around: Optional[Callable[[Callable[[_Values], Any], _Values], Any]] = None,
) -> Any:
    """Wrap ``func`` so that each call's values reach one handler.

    ``before(values)`` gets the values of each call (frame order, as
    ``binder(func)(...)`` returns them); what it returns is ignored, and then
    ``func`` is called with the caller's arguments.  ``around(proceed,
    values)`` gets the tuple and ``proceed``, which calls ``func`` with a
    values tuple (the same or another) and returns its result; the call
    returns what ``around`` returns.  A call that does not bind raises the
    interpreter's own ``TypeError`` before any handler runs; a call binds
    with the defaults ``func`` has at the call: a replaced ``__defaults__``
    or ``__kwdefaults__``, or that dict changed in place, is seen at the
    next call, as the interpreter sees it (``wrapper.layout`` keeps the
    defaults it last read, not a dict's in-place changes).  The signature
    bound is the one ``func`` advertises, as :func:`posonly.binder` binds
    it.  A ``classmethod`` or ``staticmethod`` object gives the same kind of
    object around a wrapper of its function.

    Raises :class:`TypeError` if ``func`` or the handler is not callable, or
    unless exactly one handler is given, and whatever
    :func:`inspect.signature` raises for a callable without a signature.
    """
    if isinstance(func, (classmethod, staticmethod)):
        return type(func)(wrap(func.__func__, before=before, around=around))
    _check_callable(func, "func")
    if (before is None) == (around is None):
        raise TypeError("wrap() takes exactly one handler: before= or around=")
    _check_callable(before if before is not None else around, "before=" if before is not None else "around=")
    generated = _wrapper_of_function(func, before, around)  # None unless a plain function
    bound = one_first = False
    # A plain function goes the generated way on every interpreter (on PyPy
    # it is not made from templates, but its own signature, generated, words
    # the errors as PyPy does); anything else forwards the caller's arguments.
    forwarding = generated is None and before is not None and not (
        type(func) is types.FunctionType and not advertises(func)
    )
    if generated is not None:
        layout = _layout_as_made(func)  # read from func on first use
    elif forwarding:
        generated, layout = _forwarding_wrapper(func, before)  # type: ignore[arg-type]
    else:
        call = resolve(func)
        plan = Plan(call.layout, call)
        shape = _Shape(plan)
        bound = plan.bound
        one_first = len(call.prefix) == 1 and not call.preset
        mark = _OF_FUNCTION if not bound else _OF_BOUND_METHOD if one_first else _OF_PARTIAL
        generated = _wrapper_function(shape, func, before, around, mark, len(call.prefix))
        _name_generated(generated, call.layout, func)
        layout = plan.output
    functools.update_wrapper(generated, func)
    # wrapper.layout: the layout of the values the handler gets.
    generated.layout = layout  # type: ignore[attr-defined]
    if forwarding:
        # inspect.signature(w, follow_wrapped=False): the signature bound.
        generated.__signature__ = inspect.signature(func)  # type: ignore[attr-defined]
    wrapper: Any = generated
    if bound:
        # inspect.signature of the bound wrapper: the parameters bound
        # (the function's, with self), less what the call puts first.
        target = call.target
        generated.__signature__ = (  # type: ignore[attr-defined]
            inspect.signature(target, follow_wrapped=False)
            if target is not None else call.layout.to_signature()
        )
    if inspect.iscoroutinefunction(func):
        if sys.version_info >= (3, 12):  # inspect.markcoroutinefunction
            inspect.markcoroutinefunction(generated)
        else:
            wrapper = _CoroutineWrapper(_coroutine_function_of(func), generated)
            wrapper.__dict__.update(generated.__dict__)
            del wrapper.__dict__["layout"]  # (read from the generated function)
            for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
                setattr(wrapper, attr, getattr(generated, attr))
    if one_first:
        # A method pickles as getattr(self, name), which would load as the
        # method unwrapped: its name refuses to pickle, so the method does,
        # as the compiled wrapper of a bound method does.
        wrapper.__name__ = _RefusedName(wrapper.__name__)
        wrapper = types.MethodType(wrapper, call.prefix[0])
    elif bound:
        # inspect finds the function's signature through __wrapped__, and
        # with follow_wrapped=False the partial's, from the generated one's.
        inner = wrapper
        wrapper = functools.partial(inner, *call.prefix, **(call.preset or {}))
        wrapper.__dict__.update(generated.__dict__)
        del wrapper.__dict__["__signature__"]
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(wrapper, attr, getattr(generated, attr))
        # A partial pickles its function by reference: the function bound
        # names no module, so the partial refuses to pickle, as the compiled
        # wrapper of a partial does.
        inner.__module__ = _FILENAME
    return wrapper


class _RefusedName(str):
    """The name of a wrapper that a pickle would load as something else."""

    __slots__ = ()

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise pickle.PicklingError(f"a posonly wrapper of a bound method ({self}) cannot be pickled")


def _reduce_refusing_wrappers(obj: Any) -> Any:
    """A bound method's or partial's reduction, refused for a wrapper."""
    if _is_wrapper(obj):
        raise pickle.PicklingError(f"{obj!r}: a posonly wrapper of a bound method or a partial "
                                   "cannot be pickled")
    return obj.__reduce__()


def _name_probe() -> None:
    """Tells whether a method pickles with its function's own name object."""


_name_probe.__name__ = _RefusedName("probe")
if type(types.MethodType(_name_probe, 0).__reduce__()[1][1]) is not _RefusedName:
    # (PyPy: a method pickles with a copy of the name, and a partial its
    # function otherwise.)  The reductions of every bound method and
    # partial go here; those of anything but a wrapper are the usual ones.
    copyreg.pickle(types.MethodType, _reduce_refusing_wrappers)
    copyreg.pickle(functools.partial, _reduce_refusing_wrappers)


_wrapper_arguments = wrapper_arguments("Wrapper")


class _WrapperType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return _is_wrapper(obj)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        func, before, around = _wrapper_arguments(*args, **kwargs)
        if isinstance(func, (classmethod, staticmethod)):
            raise descriptor_refused(func)
        return wrap(func, before=before, around=around)


if TYPE_CHECKING:
    # The type as type checkers see it, under its public name.
    from . import Wrapper as Wrapper
else:

    class Wrapper(Generic[_P, _R], metaclass=_WrapperType):
        """What :func:`wrap` returns: a callable with ``func``'s signature that
        hands each call's values to a handler.

        It looks as :func:`functools.wraps` makes a wrapper look (``__wrapped__``,
        ``__name__``, ``__qualname__``, ``__doc__``, ``__module__``,
        ``__dict__``), is a method on a class, a coroutine function when ``func``
        is one, and pickles by reference as a function does.  It holds no
        per-call state.  ``wrapper.layout`` is the :class:`Layout` of the
        values its handler gets.  In the pure-Python implementation a wrapper is a
        generated function (see ``posonly._wrapper``), and ``Wrapper`` is the
        type ``isinstance`` recognises it by; ``Wrapper(func, before=...)`` is
        ``wrap(func, before=...)``.  For type checkers it is generic in the
        function's parameters and return type: ``Wrapper[P, R]``.
        """

        # Named as the twin of the compiled module, whose class is _bind.Wrapper.
        __module__ = "posonly._bind_py"

        def __init_subclass__(cls, **kwargs: Any) -> None:
            raise TypeError("type 'posonly._bind_py.Wrapper' is not an acceptable base type")

        @classmethod
        def __class_getitem__(cls, item: Any) -> Any:
            # As the compiled class's: the subscript names the same class (3.9
            # has no ParamSpec for typing's own checks to accept).
            return types.GenericAlias(cls, item)

        # inspect.signature(Wrapper): wrap's arguments, as the compiled class
        # answers (no instance of this class is ever made).
        __signature__ = ClassSignature(_wrapper_arguments)


# inspect.signature(wrap), as the compiled wrap answers: the parameters
# without the annotations, which are for type checkers.
wrap.__signature__ = inspect.signature(wrapper_arguments("wrap"))  # type: ignore[attr-defined]
