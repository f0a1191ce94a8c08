"""What both binders derive from a layout, and their shared cold paths.

The compiled binder and the pure-Python one differ only in how they bind; the
plan of a binder's output, the checks on the entry points' arguments, and the
conversions from a locals tuple (``arguments``, ``apply``) live here once.
"""

from __future__ import annotations

import functools
import sys
import types
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar, Union

from ._layout import MISSING, Layout, _name_of_function


MISSING_VALUE = "got MISSING for a parameter that was not bound"
"""The ValueError of ``Binder.apply`` and ``proceed`` for a value left MISSING."""

NO_DEFAULT: Any = type("NoDefault", (), {"__repr__": lambda self: "<no default>"})()
"""In ``Plan.kwdefault_by_slot``: a keyword-only parameter without a default."""


@functools.lru_cache(maxsize=64)
def _collector(name: str) -> Callable[..., Tuple[Tuple[Any, ...], Dict[str, Any]]]:
    """A function named ``name`` that returns ``(args, kwargs)``: calling it
    with ``*args`` or ``**kwargs`` reads them exactly as the interpreter does
    (dict subclasses by their storage, repeated keys and bad types refused
    with the interpreter's own messages)."""
    namespace: Dict[str, Any] = {}
    exec("def collect(*args, **kwargs):\n    return args, kwargs\n", {}, namespace)
    collect = namespace["collect"]
    name_function(collect, name)
    return collect  # type: ignore[no-any-return]


def name_function(function: Any, name: str) -> None:
    """Name ``function`` as the interpreter names a function in its call
    errors: by ``__qualname__`` (3.10+), by the code object's ``co_name``
    (CPython 3.9) or by ``__name__`` (PyPy 3.9)."""
    function.__qualname__ = name
    function.__name__ = name
    function.__code__ = function.__code__.replace(co_name=name)


class Call:
    """How the interpreter calls a callable, as :func:`resolve` finds it.

    ``layout`` is the parameter list the interpreter binds, named as its
    errors name the function; ``prefix`` the positional values the call puts
    before the caller's (a bound method's ``self``, a partial's ``args``);
    ``preset`` the keywords it merges under the caller's (a partial's);
    ``output`` the layout of the values a binder returns, the signature the
    callable advertises (``None``: ``layout`` less what ``prefix`` fills).
    ``target`` is what the interpreter ends up calling with ``layout``'s
    parameters, where that is a Python function, else ``None``.
    """

    __slots__ = ("layout", "prefix", "preset", "output", "target", "callee")

    def __init__(
        self,
        layout: Layout,
        prefix: Tuple[Any, ...] = (),
        preset: Optional[Dict[str, Any]] = None,
        output: Optional[Layout] = None,
        target: Any = None,
    ) -> None:
        self.layout = layout
        self.prefix = prefix
        self.preset = preset or None
        self.output = output
        self.target = target
        self.callee: Any = None  # a function or method whose name PyPy's messages use

    def bound_to(self, first: Any) -> "Call":
        """This call as a method bound to ``first``: the interpreter puts
        ``first`` after this call's own prefix."""
        return Call(self.layout, self.prefix + (first,), self.preset, None, self.target)


def _without_first(layout: Layout, n: int) -> Layout:
    """``layout`` less what ``n`` leading positional values fill: its first
    ``n`` positional parameters (then none of ``*args``'s name: the values
    keep the rest of the tuple)."""
    positional = layout.posonly + layout.positional
    drop = min(n, len(positional))
    n_posonly = max(0, len(layout.posonly) - drop)
    kept = positional[drop:]
    return Layout(
        layout.name, kept[:n_posonly], kept[n_posonly:], layout.varargs, layout.kwonly,
        layout.varkw, layout.defaults[max(0, len(layout.defaults) - len(kept)):],
        layout.kwdefaults,
    )


class Plan:
    """A layout's numbers as a binder needs them, for one way of calling.

    ``call`` (a :class:`Call`) adds what the interpreter puts into the call
    besides the caller's arguments: a bound method's ``self``, a partial's
    arguments.  The interpreter counts them in its messages, and the output
    (the values of ``call.output``) leaves them out.  ``bound`` is true when
    there are any: such binders bind through the general path.
    """

    __slots__ = (
        "layout",
        "bound",
        "prefix",
        "preset",
        "_output",
        "name",
        "n_posonly",
        "argcount",
        "n_kwonly",
        "total_args",
        "n_locals",
        "varargs_slot",
        "varkw_slot",
        "ndefaults",
        "kwdefault_by_slot",
        "keyword_candidates",
        "arguments_order",
        "out_positional",
        "out_varargs",
        "out_kwonly",
        "out_varkw",
        "out_size",
        "sources",
        "varargs_cut",
        "tail",
        "holes",
    )

    def __init__(self, layout: Layout, call: Optional[Call] = None) -> None:
        if not isinstance(layout, Layout):
            raise TypeError(f"a binder needs a Layout, not {type(layout).__name__}")
        self.layout = layout
        self.prefix = call.prefix if call is not None else ()
        self.preset = call.preset if call is not None else None
        self.bound = bool(self.prefix or self.preset)
        placeholder = _placeholder()
        # Where a partial's functools.Placeholder stands in the prefix: the
        # caller's first positionals go there (3.14+).
        self.holes = tuple(
            i for i, value in enumerate(self.prefix) if value is placeholder
        ) if placeholder is not None else ()
        self.name = layout.name
        self.n_posonly = len(layout.posonly)
        self.argcount = layout.argcount
        self.n_kwonly = len(layout.kwonly)
        self.total_args = self.argcount + self.n_kwonly
        self.n_locals = len(layout.names)
        self.varargs_slot = self.total_args if layout.varargs is not None else -1
        self.varkw_slot = self.n_locals - 1 if layout.varkw is not None else -1
        self.ndefaults = len(layout.defaults)
        kwdefaults = dict(layout._kwdefaults)
        self.kwdefault_by_slot = tuple(kwdefaults.get(n, NO_DEFAULT) for n in layout.kwonly)
        self.keyword_candidates = layout.names[self.n_posonly : self.total_args]

        # The output: the values of the advertised layout, each taken from
        # the locals by name; *args less the items the prefix put there.
        output = call.output if call is not None else None
        self._output = output
        if output is None:
            # The function's own parameters, less the first positional ones
            # the prefix fills (a bound method's self): no Layout to build.
            drop = min(len(self.prefix), self.argcount)
            positional = (layout.posonly + layout.positional)[drop:]
            out_varargs, kwonly, out_varkw = layout.varargs, layout.kwonly, layout.varkw
            out_names = layout.names[drop:]
            self.varargs_cut = (
                len(self.prefix) - drop if out_varargs is not None else 0
            )
            self.tail = -1 if self.varargs_cut else drop
            self.sources = tuple(range(drop, self.n_locals)) if self.tail else None
        else:
            positional = output.posonly + output.positional
            out_varargs, kwonly, out_varkw = output.varargs, output.kwonly, output.varkw
            out_names = output.names
            slot = {name: i for i, name in enumerate(layout.names)}
            self.sources = tuple([slot[name] for name in out_names])
            self.varargs_cut = (
                max(0, len(self.prefix) - self.argcount) if out_varargs is not None else 0
            )
            # A contiguous tail of the locals (a bound method's): one slice.
            start = self.sources[0] if self.sources else self.n_locals
            self.tail = (
                start
                if not self.varargs_cut and self.sources == tuple(range(start, self.n_locals))
                else -1
            )
        self.out_size = len(out_names)
        index = {name: i for i, name in enumerate(out_names)}
        self.out_positional = len(positional)
        self.out_varargs = index.get(out_varargs, -1)  # type: ignore[arg-type]
        self.out_varkw = index.get(out_varkw, -1)  # type: ignore[arg-type]
        self.out_kwonly = tuple((n, index[n]) for n in kwonly)
        signature_order = (
            positional
            + ((out_varargs,) if out_varargs is not None else ())
            + kwonly
            + ((out_varkw,) if out_varkw is not None else ())
        )
        self.arguments_order = tuple((n, index[n]) for n in signature_order)

    @property
    def output(self) -> Layout:
        """The layout of the values: the signature advertised."""
        if self._output is None:
            self._output = (
                _without_first(self.layout, len(self.prefix)) if self.prefix else self.layout
            )
        return self._output

    def positionals(self, args: Tuple[Any, ...], partial: bool = False) -> Tuple[Any, ...]:
        """The positional values the interpreter passes on for a call with
        ``args``: the prefix first, as ``functools.partial`` puts it, its
        ``Placeholder`` holes filled from the first of ``args`` (a partial
        binding, which may leave parameters out, leaves a hole no argument
        fills :data:`MISSING`)."""
        holes = self.holes
        if not holes:
            return self.prefix + args
        if len(args) < len(holes) and not partial:
            raise TypeError(
                "missing positional arguments in 'partial' call; "
                f"expected at least {len(holes)}, got {len(args)}"
            )
        filled = list(self.prefix)
        for j, i in enumerate(holes):
            filled[i] = args[j] if j < len(args) else MISSING
        return (*filled, *args[len(holes):])

    # -- argument checks of the entry points (cold unless the types are odd) --

    def star_args(self, args: Any) -> Tuple[Any, ...]:
        """``args`` as the interpreter reads ``f(*args)``."""
        if type(args) is tuple:
            return args
        return _collector(self.name)(*args)[0]  # type: ignore[no-any-return]

    def star_kwargs(self, kwargs: Any) -> Optional[Dict[str, Any]]:
        """``kwargs`` as the interpreter reads ``f(**kwargs)``: a dict (its
        keys are not checked here)."""
        if kwargs is None or type(kwargs) is dict:
            return kwargs
        return _collector(self.name)(**kwargs)[1]  # type: ignore[no-any-return]

    def vectorcall_args(
        self, stack: Any, kwnames: Any
    ) -> Tuple[Tuple[Any, ...], Optional[Tuple[Any, ...]]]:
        """Check ``vectorcall(stack, kwnames)``'s arguments; ``None`` for no keywords."""
        if type(stack) is not tuple:
            if not isinstance(stack, (tuple, list)):
                raise TypeError(
                    f"vectorcall() stack must be a tuple or a list, not {type(stack).__name__}"
                )
            stack = tuple(stack)
        if kwnames is None:
            return stack, None
        if type(kwnames) is not tuple:
            raise TypeError(
                f"vectorcall() kwnames must be a tuple or None, not {type(kwnames).__name__}"
            )
        if len(kwnames) > len(stack):
            raise ValueError(
                f"vectorcall() got {len(kwnames)} keyword names for a stack of "
                f"{len(stack)} values"
            )
        return stack, (kwnames or None)

    # -- from a locals tuple back to names and calls ------------------------

    def arguments(self, values: Tuple[Any, ...]) -> Dict[str, Any]:
        return {name: values[i] for name, i in self.arguments_order}

    def apply(self, func: Callable[..., Any], values: Tuple[Any, ...]) -> Any:
        if type(values) is not tuple:
            raise TypeError(f"apply() needs a tuple of values, not {type(values).__name__}")
        if len(values) != self.out_size:
            raise ValueError(
                f"apply() needs {self.out_size} values for {self.name}(), got {len(values)}"
            )
        for value in values:
            if value is MISSING:
                raise ValueError(MISSING_VALUE)
        positional = values[: self.out_positional]
        keywords = {name: values[i] for name, i in self.out_kwonly}
        # The interpreter spreads *args and merges **kwargs, as in any call:
        # any iterable and any mapping, and a key that repeats a keyword-only
        # name is its "got multiple values for keyword argument".
        extra = values[self.out_varargs] if self.out_varargs >= 0 else ()
        more = values[self.out_varkw] if self.out_varkw >= 0 else {}
        return func(*positional, *extra, **keywords, **more)

    def drop_self(self, values: Tuple[Any, ...]) -> Tuple[Any, ...]:
        """The output from the locals of the function bound: what the
        prefix filled left out."""
        if self.tail >= 0:
            return values[self.tail :]
        out = [values[i] for i in self.sources]  # type: ignore[union-attr]
        if self.varargs_cut:
            slot = self.out_varargs
            out[slot] = out[slot][self.varargs_cut :]
        return tuple(out)

    def call(self) -> Call:
        """The :class:`Call` this plan binds."""
        return Call(self.layout, self.prefix, self.preset, self._output)

    def deep_copy_call(self, memo: Dict[int, Any]) -> Call:
        """The call of this plan with its prefix and keywords deep-copied,
        as :func:`copy.deepcopy` copies a bound method's ``self``."""
        import copy

        return Call(
            self.layout, copy.deepcopy(self.prefix, memo), copy.deepcopy(self.preset, memo),
            self._output,
        )

    def describe(self) -> str:
        return f"{self.name}{self.layout}"


def parameter_list(layout: Layout) -> str:
    """``layout``'s parameters as a ``def`` writes them, without defaults
    (``a, b, /, c, *args, e, **kw``): generated functions set
    ``__defaults__`` and ``__kwdefaults__`` themselves."""
    params = list(layout.posonly)
    if params:
        params.append("/")
    params += layout.positional
    if layout.varargs is not None:
        params.append("*" + layout.varargs)
    elif layout.kwonly:
        params.append("*")
    params += layout.kwonly
    if layout.varkw is not None:
        params.append("**" + layout.varkw)
    return ", ".join(params)


_ABSENT: Any = object()


def advertises(func: types.FunctionType) -> bool:
    """Whether a plain function says its signature is another's: a
    ``__wrapped__`` or ``__signature__`` of its own (a function's type has
    neither, so only its ``__dict__`` can).  Looked up as attributes, which
    leaves a function without a ``__dict__`` without one (reading
    ``func.__dict__`` would make and keep an empty dict)."""
    return (
        getattr(func, "__wrapped__", _ABSENT) is not _ABSENT
        or getattr(func, "__signature__", _ABSENT) is not _ABSENT
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


def _is_plain_function(obj: Any) -> bool:
    # PyPy's builtins are functions too, with a code object of their own
    # kind that does not know their signature.
    return isinstance(obj, types.FunctionType) and type(obj.__code__) is types.CodeType


def _stop_unwrapping(obj: Any) -> bool:
    return hasattr(obj, "__signature__") or isinstance(obj, types.MethodType)


def _error_name(obj: Any) -> str:
    """What a call's errors would call ``obj``: its qualified name, else its
    name, else its type's."""
    while isinstance(obj, functools.partial):
        obj = obj.func  # a partial's errors are its function's
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    return name if isinstance(name, str) else type(obj).__name__


def _placeholder() -> Any:
    return getattr(functools, "Placeholder", None)


WRAPPER_TYPES: List[type] = []
"""Wrapper types that are not functions (the compiled one): each says how
it binds with its ``_posonly_call``."""


class CallAttribute:
    """``wrapper.__call__`` of a compiled wrapper: the wrapper itself, which
    carries its signature, as a function's ``__call__`` is a method with
    the function's signature, so that tools that look there
    (:func:`unittest.mock.create_autospec`) find it."""

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return _call_wrapper
        return instance


def _call_wrapper(self: Any, /, *args: Any, **kwargs: Any) -> Any:
    return self(*args, **kwargs)


def _target(obj: Any, follow_wrapped: bool) -> Optional[Call]:
    """What the interpreter binds when ``obj`` is called: a Python function's
    parameters (found through bound methods, ``__wrapped__`` chains,
    partials and ``__call__``), or a ``__signature__`` it honours as
    :func:`inspect.signature` does; ``None`` where it is neither (builtins,
    classes), and the advertised signature stands alone."""
    if isinstance(obj, types.MethodType):
        inner = _target(obj.__func__, follow_wrapped)
        return None if inner is None else inner.bound_to(obj.__self__)
    if isinstance(obj, (classmethod, staticmethod)):
        return _target(obj.__func__, follow_wrapped)
    if type(obj) in WRAPPER_TYPES:
        return obj._posonly_call  # type: ignore[no-any-return]
    if follow_wrapped:
        import inspect

        obj = inspect.unwrap(obj, stop=_stop_unwrapping)
        if isinstance(obj, types.MethodType):
            return _target(obj, follow_wrapped)
    sig = getattr(obj, "__signature__", None)
    if sig is not None:
        return Call(Layout.from_signature(sig, name=_error_name(obj)))
    if _is_plain_function(obj):
        return Call(Layout._from_function(obj), target=obj)
    if isinstance(obj, functools.partial):
        inner = _target(obj.func, follow_wrapped)
        if inner is None:
            return None
        placeholder = _placeholder()
        if placeholder is not None and any(
            arg is placeholder and len(inner.prefix) + i >= inner.layout.argcount
            for i, arg in enumerate(obj.args)
        ):
            return None  # a Placeholder in *args: inspect's signature stands alone
        preset = {**(inner.preset or {}), **obj.keywords}
        return Call(inner.layout, inner.prefix + obj.args, preset, None, inner.target)
    if isinstance(obj, type):
        return None
    call = getattr(type(obj), "__call__", None)
    if _is_plain_function(call) or hasattr(call, "__wrapped__"):
        # A callable instance: the interpreter calls its class's __call__
        # with the instance first.
        inner = _target(call, follow_wrapped)
        return None if inner is None else inner.bound_to(obj)
    return None


def _same_shape(a: Layout, b: Layout) -> bool:
    return a._fields()[1:6] == b._fields()[1:6]


def resolve(obj: Any, follow_wrapped: bool = True) -> Call:
    """How the interpreter calls ``obj``, and the signature it advertises.

    The advertised signature is :func:`inspect.signature`'s (following
    ``__wrapped__`` unless ``follow_wrapped`` is false, honouring
    ``__signature__``); the call is bound as the interpreter binds it, so
    that its errors are the interpreter's.  Where what the interpreter binds
    cannot carry the advertised values, the advertised signature is bound
    alone, named as the function.
    """
    if _is_plain_function(obj) and not advertises(obj):
        return Call(Layout._from_function(obj), target=obj)
    if (
        isinstance(obj, types.MethodType)
        and _is_plain_function(obj.__func__)
        and not advertises(obj.__func__)
    ):
        return Call(Layout._from_function(obj.__func__), (obj.__self__,), target=obj.__func__)
    if not callable(obj) and not isinstance(obj, (classmethod, staticmethod)):
        raise TypeError(f"{type(obj).__name__!r} object is not callable")
    import inspect

    advertised = obj.__func__ if isinstance(obj, (classmethod, staticmethod)) else obj
    signature = inspect.signature(advertised, follow_wrapped=follow_wrapped)
    target = _target(obj, follow_wrapped)
    name = target.layout.name if target is not None else _error_name(obj)
    output = Layout.from_signature(signature, name=name)
    if target is None:
        return Call(output)
    if not target.prefix and not target.preset and _same_shape(target.layout, output):
        return Call(target.layout, (), None, None, target.target)
    if set(output.names) <= set(target.layout.names):
        return Call(target.layout, target.prefix, target.preset, output, target.target)
    return Call(output)


def wrapper_arguments(name: str) -> Callable[..., Tuple[Any, Any, Any]]:
    """A function named ``name`` that takes a wrapper's arguments as
    ``wrap`` does and returns them: a wrong call gets the interpreter's
    message, naming ``name``, in both implementations."""
    namespace: Dict[str, Any] = {}
    exec(
        "def arguments(func, *, before=None, around=None):\n    return func, before, around\n",
        {}, namespace,
    )
    function = namespace["arguments"]
    name_function(function, name)
    return function  # type: ignore[no-any-return]


def binder_arguments() -> Callable[..., Tuple[Any, Any]]:
    """A function named ``Binder`` that takes a Binder's arguments and
    returns them, for the same messages in both implementations."""
    namespace: Dict[str, Any] = {}
    exec("def arguments(layout, call=None):\n    return layout, call\n", {}, namespace)
    function = namespace["arguments"]
    name_function(function, "Binder")
    return function  # type: ignore[no-any-return]


def descriptor_refused(func: Any) -> TypeError:
    """``Wrapper(descriptor)``: only ``wrap`` makes a descriptor of the same kind."""
    return TypeError(
        f"Wrapper() cannot wrap a {type(func).__name__} object; "
        f"wrap() returns a {type(func).__name__} of a Wrapper"
    )


BinderT = TypeVar("BinderT")
_NAMED_BY_CALLEE = sys.implementation.name != "cpython"

FUNCTION_BINDERS: Dict[Any, Callable[[types.FunctionType], Any]] = {}
"""Per ``Binder`` class, its maker of binders of plain functions, straight
from the code object (``None`` where the function is not plain)."""
_FunctionType = types.FunctionType


def make_binder(
    binder_class: Callable[..., BinderT],
    target: Union[Callable[..., Any], Layout],
    follow_wrapped: bool = True,
) -> BinderT:
    """``posonly.binder`` for one implementation's ``Binder`` class."""
    if type(target) is _FunctionType:
        # A plain function: made from its code object, with no Layout built.
        made = FUNCTION_BINDERS.get(binder_class)
        binder = made(target) if made is not None else None
        if binder is not None:
            return binder  # type: ignore[no-any-return]
    if isinstance(target, Layout):
        return binder_class(target)
    if _is_plain_function(target) and not advertises(target):
        layout = Layout._from_function(target)
        if _NAMED_BY_CALLEE:  # the function names PyPy's messages
            call = Call(layout)
            call.callee = target
            return binder_class(layout, call)
        return binder_class(layout)
    if not callable(target) and not isinstance(target, (classmethod, staticmethod)):
        raise TypeError(f"binder() needs a callable or a Layout, not {type(target).__name__}")
    call = resolve(target, follow_wrapped)
    if _NAMED_BY_CALLEE and isinstance(target, (types.FunctionType, types.MethodType)):
        call.callee = target
    return binder_class(call.layout, call)


# -- plain functions, made from their code objects ---------------------------

CO_VARARGS_OR_VARKEYWORDS = 0x04 | 0x08


def plain_function(func: Any) -> Optional[Tuple[types.CodeType, str, Optional[Tuple[Any, ...]]]]:
    """``(code, name, defaults)`` of a plain function, one whose parameters
    the pure twin makes a binder or wrapper of straight from its code object
    (the name is what the interpreter's errors call it); ``None`` for
    anything else, which goes the general way: not a function, a ``__dict__``
    holding ``__wrapped__`` or ``__signature__`` (another signature
    advertised), or defaults or a name the general way copies or refuses."""
    if type(func) is not _FunctionType or _NAMED_BY_CALLEE:
        # (On PyPy the function itself names some messages: the general way.)
        return None
    code = func.__code__
    if type(code) is not types.CodeType or advertises(func):  # PyPy's builtins; another signature
        return None
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
    names = [f"_{i}" for i in range(n + bool(flags & 0x04) + bool(flags & 0x08))]
    return Layout(
        "f", names[:n_posonly], names[n_posonly:argcount],
        names[n] if flags & 0x04 else None, names[argcount:n],
        names[-1] if flags & 0x08 else None,
    )
