"""What both binders derive from a layout, and their shared cold paths.

The compiled binder and the pure-Python one differ only in how they bind; the
plan of a binder's output, the checks on the entry points' arguments, and the
conversions from a locals tuple (``arguments``, ``apply``) live here once.
"""

from __future__ import annotations

import functools
import sys
import types
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar, Union

from ._layout import (
    MISSING,
    Call,
    Layout,
    _placeholder,
    advertises,
    is_plain_function,
    resolve,
    without_first,
)

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
                without_first(self.layout, len(self.prefix)) if self.prefix else self.layout
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
        return _collector(self.name)(*args)[0]

    def star_kwargs(self, kwargs: Any) -> Optional[Dict[str, Any]]:
        """``kwargs`` as the interpreter reads ``f(**kwargs)``: a dict (its
        keys are not checked here)."""
        if kwargs is None or type(kwargs) is dict:
            return kwargs
        return _collector(self.name)(**kwargs)[1]

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


def wrapper_arguments(name: str) -> Callable[..., Tuple[Any, Any, Any, Any]]:
    """A function named ``name`` that takes a wrapper's arguments as
    ``wrap`` does and returns them: a wrong call gets the interpreter's
    message, naming ``name``, in both implementations."""
    namespace: Dict[str, Any] = {}
    exec(
        "def arguments(func, *, before=None, around=None, form=False):\n"
        "    return func, before, around, form\n",
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
NAMED_BY_CALLEE = sys.implementation.name != "cpython"
"""Whether the interpreter names the callee by the function itself in some
call errors (PyPy: by its ``__module__`` and ``__qualname__``), so that a
binder must carry the function it binds for."""


def make_binder(
    binder_class: Callable[..., BinderT],
    target: Union[Callable[..., Any], Layout],
    follow_wrapped: bool = True,
) -> BinderT:
    """``posonly.binder`` for one implementation, given its ``Binder``
    class: the general path, for whatever that twin's own ``binder`` did
    not make straight from a plain function's code object."""
    if isinstance(target, Layout):
        return binder_class(target)
    if is_plain_function(target) and not advertises(target):
        layout = Layout._from_function(target)
        if NAMED_BY_CALLEE:  # the function names PyPy's messages
            call = Call(layout)
            call.callee = target
            return binder_class(layout, call)
        return binder_class(layout)
    if not callable(target) and not isinstance(target, (classmethod, staticmethod)):
        raise TypeError(f"binder() needs a callable or a Layout, not {type(target).__name__}")
    call = resolve(target, follow_wrapped)
    if NAMED_BY_CALLEE and isinstance(target, (types.FunctionType, types.MethodType)):
        call.callee = target
    return binder_class(call.layout, call)
