"""What both binders derive from a layout, and their shared cold paths.

The compiled binder and the pure-Python one differ only in how they bind; the
plan of a binder's output, the checks on the entry points' arguments, and the
conversions from a locals tuple (``arguments``, ``apply``) live here once.
"""

from __future__ import annotations

import functools
import types
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar, Union

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


class Plan:
    """A layout's numbers as a binder needs them, for one way of calling.

    ``bound`` is true for a bound method's binder: the interpreter counts
    ``self`` in its messages, and the output leaves it out.
    """

    __slots__ = (
        "layout",
        "bound",
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
    )

    def __init__(self, layout: Layout, bound: bool = False) -> None:
        if not isinstance(layout, Layout):
            raise TypeError(f"a binder needs a Layout, not {type(layout).__name__}")
        self.layout = layout
        self.bound = bound
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

        # The output: the locals in frame order, less ``self`` when bound.
        # ``self`` is the first positional parameter, or else the first item
        # of ``*args``, which the output then leaves out.
        drop = 1 if bound and self.argcount else 0
        out_names = layout.names[drop:]
        self.out_size = len(out_names)
        index = {name: i for i, name in enumerate(out_names)}
        self.out_positional = self.argcount - drop
        self.out_varargs = index.get(layout.varargs, -1)  # type: ignore[arg-type]
        self.out_varkw = index.get(layout.varkw, -1)  # type: ignore[arg-type]
        self.out_kwonly = tuple((n, index[n]) for n in layout.kwonly)
        signature_order = (
            layout.posonly
            + layout.positional
            + ((layout.varargs,) if layout.varargs is not None else ())
            + layout.kwonly
            + ((layout.varkw,) if layout.varkw is not None else ())
        )
        self.arguments_order = tuple((n, index[n]) for n in signature_order if n in index)

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
        """A bound method's output from the locals of its function."""
        if self.argcount:
            return values[1:]
        slot = self.varargs_slot
        return values[:slot] + (values[slot][1:],) + values[slot + 1 :]

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


BinderT = TypeVar("BinderT")

FUNCTION_BINDERS: Dict[Any, Callable[[types.FunctionType], Any]] = {}
"""Per ``Binder`` class, its maker of binders of plain functions, straight
from the code object (``None`` where the function is not plain)."""
_FunctionType = types.FunctionType


def make_binder(
    binder_class: Callable[..., BinderT], target: Union[Callable[..., Any], Layout]
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
    if isinstance(target, types.MethodType) and isinstance(target.__func__, types.FunctionType):
        return binder_class(Layout.from_callable(target.__func__), target.__self__)
    if not callable(target):
        raise TypeError(f"binder() needs a callable or a Layout, not {type(target).__name__}")
    return binder_class(Layout.from_callable(target))


# -- plain functions, made from their code objects ---------------------------

_ABSENT: Any = object()
CO_VARARGS_OR_VARKEYWORDS = 0x04 | 0x08


def plain_function(func: Any) -> Optional[Tuple[types.CodeType, str, Optional[Tuple[Any, ...]]]]:
    """``(code, name, defaults)`` of a plain function, one whose parameters
    the pure twin makes a binder or wrapper of straight from its code object
    (the name is what the interpreter's errors call it); ``None`` for
    anything else, which goes the general way: not a function, a ``__dict__``
    holding ``__wrapped__`` or ``__signature__`` (another signature
    advertised), or defaults or a name the general way copies or refuses."""
    if type(func) is not _FunctionType:
        return None
    code = func.__code__
    if (
        type(code) is not types.CodeType  # PyPy's builtins
        or getattr(func, "__wrapped__", _ABSENT) is not _ABSENT
        or getattr(func, "__signature__", _ABSENT) is not _ABSENT
    ):
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
