"""The pure-Python ``Binder``: the twin of ``_binder.pxi``.

Calls, ``bind()`` and ``partial()`` go through functions generated with the
layout's own signature, so the interpreter binds them itself, as fast as
Python can and with its exact semantics (``partial()``'s function has
:data:`MISSING` as the default of every required parameter).  A ``Binder``
is a :class:`functools.partial` of that function with no arguments of its
own (or with a bound method's ``self``): calling it hands the call on to the
function, and where the interpreter lets a subclass keep ``partial``'s
vectorcall (CPython 3.12 and later), no argument tuple or keyword dict is
built on the way.  ``vectorcall()`` does the same where a call can express
the vectorcall; keyword names that repeat, are not strings or (on CPython)
are ``str`` subclasses follow ``initialize_locals`` of CPython's
``Python/ceval.c`` step by step, as the compiled binder does.  A binder of a
plain function is made straight from its code object: ``_create``.
"""

from __future__ import annotations

import functools
import sys
import threading
import types
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Generic,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
)

from . import _errors
from ._plan import (
    NAMED_BY_CALLEE,
    NO_DEFAULT,
    Plan,
    binder_arguments,
    name_function,
    parameter_list,
)
from ._layout import MISSING, ClassSignature, Layout

__all__ = ["NO_KEYWORDS", "Binder", "generate_function", "new_partial", "set_partial_state"]


_EMPTY: Any = object()  # a local not filled yet


def generate_function(layout: Layout, plan: Plan) -> Callable[..., Tuple[Any, ...]]:
    """A function with ``layout``'s signature that returns the output of
    ``plan``: its locals, less what a bound method's ``self`` or a partial's
    arguments filled."""
    values = []
    for slot in plan.sources if plan.sources is not None else range(len(layout.names)):
        name = layout.names[slot]
        if slot == plan.varargs_slot and plan.varargs_cut:
            name = f"{name}[{plan.varargs_cut}:]"
        values.append(name + ", ")
    namespace: Dict[str, Any] = {}
    exec(f"def f({parameter_list(layout)}):\n    return ({''.join(values)})\n", {}, namespace)
    function = namespace["f"]
    # Defaults are set as attributes: no name of ours can clash with a parameter.
    function.__defaults__ = layout.defaults or None
    function.__kwdefaults__ = dict(layout._kwdefaults) or None
    name_function(function, layout.name)
    return function  # type: ignore[no-any-return]


def _generate_partial_function(layout: Layout, plan: Plan) -> Callable[..., Tuple[Any, ...]]:
    """The function of :meth:`Binder.partial`: ``layout``'s signature with
    :data:`MISSING` as the default of every required parameter, so that the
    interpreter binds the call, raises every error but "missing", and leaves
    ``MISSING`` where nothing was given."""
    required = layout.argcount - len(layout.defaults)
    with_defaults = Layout(
        layout.name, layout.posonly, layout.positional, layout.varargs, layout.kwonly,
        layout.varkw, (MISSING,) * required + layout.defaults,
        {name: layout.kwdefaults.get(name, MISSING) for name in layout.kwonly},
    )
    return generate_function(with_defaults, plan)


# The keyword names of a vectorcall that a call with ``**kwargs`` expresses
# exactly, when they are also distinct: there, the generated function binds.
# CPython matches a raw vectorcall's names without hashing them, so a str
# subclass (whose __hash__ and __eq__ may be anything) is matched by
# ``initialize_locals`` instead; PyPy has no vectorcall at all, and its own
# answer is that of the call.
if sys.implementation.name == "cpython":

    def _names_of_a_call(kwnames: Tuple[Any, ...]) -> bool:
        return all(type(name) is str for name in kwnames)

else:

    def _names_of_a_call(kwnames: Tuple[Any, ...]) -> bool:
        return all(isinstance(name, str) for name in kwnames)


def initialize_locals(
    plan: Plan,
    stack: Sequence[Any],
    nargs: int,
    kwnames: Optional[Tuple[Any, ...]],
) -> Tuple[Any, ...]:
    """Bind a vectorcall's ``stack`` and ``kwnames`` to the locals of ``plan``.

    The steps and their errors come in the order of CPython's
    ``initialize_locals``.
    """
    name = plan.name
    names = plan.layout.names
    argcount = plan.argcount
    total_args = plan.total_args
    out = [_EMPTY] * plan.n_locals
    n = nargs if nargs < argcount else argcount
    out[:n] = stack[:n]
    if plan.varargs_slot >= 0:
        out[plan.varargs_slot] = tuple(stack[argcount:nargs])
    varkw: Optional[Dict[Any, Any]] = None
    if plan.varkw_slot >= 0:
        varkw = out[plan.varkw_slot] = {}

    for k, keyword in enumerate(kwnames or ()):
        if not issubclass(type(keyword), str):
            raise _errors.keywords_must_be_strings(name)
        value = stack[nargs + k]
        # Positional-only names are never matched by keyword: identity first,
        # then equality with the keyword on the left, as the interpreter does.
        for j in range(plan.n_posonly, total_args):
            if names[j] is keyword:
                break
        else:
            for j in range(plan.n_posonly, total_args):
                if keyword == names[j]:
                    break
            else:
                if varkw is None:
                    raise _errors.unexpected_keyword(
                        name, plan.layout.posonly, kwnames, plan.keyword_candidates, keyword  # type: ignore[arg-type]
                    )
                varkw[keyword] = value
                continue
        if out[j] is not _EMPTY:
            raise _errors.multiple_values(name, keyword)
        out[j] = value

    if nargs > argcount and plan.varargs_slot < 0:
        kwonly_given = sum(1 for v in out[argcount:total_args] if v is not _EMPTY)
        raise _errors.too_many_positional(
            name, argcount, plan.ndefaults, nargs, kwonly_given
        )
    if nargs < argcount:
        first_default = argcount - plan.ndefaults
        missing = [i for i in range(nargs, first_default) if out[i] is _EMPTY]
        if missing:
            raise _errors.missing_arguments(name, "positional", [names[i] for i in missing])
        defaults = plan.layout.defaults
        for i in range(max(nargs, first_default), argcount):
            if out[i] is _EMPTY:
                out[i] = defaults[i - first_default]
    if plan.n_kwonly:
        missing_kwonly = []
        for i in range(argcount, total_args):
            if out[i] is _EMPTY:
                default = plan.kwdefault_by_slot[i - argcount]
                if default is NO_DEFAULT:
                    missing_kwonly.append(names[i])
                out[i] = default
        if missing_kwonly:
            raise _errors.missing_arguments(name, "keyword-only", missing_kwonly)
    return tuple(out)


_binder_arguments = binder_arguments()


def _partial_values(
    plan: Plan, function: Callable[..., Tuple[Any, ...]], partial_function: Callable[..., Tuple[Any, ...]],
    args: Tuple[Any, ...], kwargs: Dict[str, Any],
) -> Tuple[Any, ...]:
    """``Binder.partial``: the call's binding with :data:`MISSING` for the
    required parameters not given."""
    if plan.bound:
        args = plan.positionals(args, partial=True)
        if plan.preset:
            kwargs = {**plan.preset, **kwargs}
    try:
        return partial_function(*args, **kwargs)
    except TypeError:
        if len(args) <= plan.argcount or plan.varargs_slot >= 0:
            raise
    # Too many positionals: the message counts the parameters that have
    # defaults, so the call's own function words it (and raises it).
    return function(*args, **kwargs)


# PyPy names the callee in "keywords must be strings" by its __module__ and
# __qualname__ (CPython does not name it; NAMED_BY_CALLEE): there, a binder
# of a function and its partial() and arguments() carry the function's, so
# that the message is the one calling the function gives.

_ENTRY_POINTS = """\
def partial(*args, **kwargs):
    return _partial_values(_plan, _function, _partial_function, args, kwargs)
def arguments(*args, **kwargs):
    if _plan.bound:
        args = _plan.positionals(args)
        if _plan.preset:
            kwargs = {**_plan.preset, **kwargs}
    return _plan.arguments(_function(*args, **kwargs))
"""


def _name_as(binder: "Binder[Any]", target: Any) -> None:
    module = getattr(target, "__module__", None)
    qualname = getattr(target, "__qualname__", None)
    if not isinstance(qualname, str):
        return
    plan = binder._plan
    namespace: Dict[str, Any] = {
        "_plan": plan, "_function": binder._function,
        "_partial_function": binder._partial_function, "_partial_values": _partial_values,
    }
    exec(_ENTRY_POINTS, namespace)
    attributes = binder.__dict__
    for name in ("partial", "arguments"):
        attributes[name] = namespace.pop(name)
    name = getattr(target, "__name__", qualname)
    entry_points = (attributes["partial"], attributes["arguments"])
    for function in (binder._function, binder._partial_function) + entry_points:
        function.__module__ = module
        function.__qualname__ = qualname
    for function in entry_points:  # PyPy 3.9 names a function by __name__
        function.__name__ = name
    attributes["__module__"] = module
    attributes["__qualname__"] = qualname
    attributes["__name__"] = name


def _not_a_binder_attribute(self: Any) -> Any:
    raise AttributeError("not an attribute of a Binder")


class _CallThrough:
    """What a Binder needs of :class:`functools.partial`, for interpreters
    whose ``partial`` is itself Python code that sets the attributes a
    Binder hides (PyPy): calling it calls the function, after ``args``,
    with its ``keywords`` under the caller's."""

    __slots__ = ("_call_function", "_call_args", "_call_keywords")
    _call_function: Callable[..., Any]
    _call_args: Tuple[Any, ...]
    _call_keywords: Dict[str, Any]

    def __new__(cls, function: Callable[..., Any], /, *args: Any, **keywords: Any) -> Any:
        self = object.__new__(cls)
        object.__setattr__(self, "_call_function", function)
        object.__setattr__(self, "_call_args", args)
        object.__setattr__(self, "_call_keywords", keywords)
        return self

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        if self._call_keywords:
            kwargs = {**self._call_keywords, **kwargs}
        return self._call_function(*self._call_args, *args, **kwargs)


if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    _P = ParamSpec("_P")
    _Partial = functools.partial[Tuple[Any, ...]]
else:
    try:  # the C partial: on 3.12+ a subclass keeps its vectorcall
        from _functools import partial as _Partial
    except ImportError:
        _Partial = _CallThrough
    try:  # only type checkers read it; 3.9 has no ParamSpec
        from typing import ParamSpec

        _P = ParamSpec("_P")
    except ImportError:
        _P = TypeVar("_P")




# The keywords of every binder made from a plain function's code
# (``_create``): never written to (a partial only reads its keywords, and a
# binder hides them).
NO_KEYWORDS: Dict[str, Any] = {}
new_partial = _Partial.__new__
set_partial_state: Any = None
"""``partial.__setstate__``, with which ``_create`` gives a binder its
function alone (None on PyPy, where every binder is made the general way)."""
# A binder's function is its partial's own func.
if _Partial is _CallThrough:
    _function_of = _CallThrough.__dict__["_call_function"].__get__
else:
    _function_of = _Partial.func.__get__
    set_partial_state = _Partial.__setstate__  # type: ignore[attr-defined]
_LATER = frozenset(("layout", "_plan", "_partial_function"))
_completing = threading.Lock()


class Binder(_Partial, Generic[_P]):
    """Binds call arguments to a layout's parameters, as the interpreter does.

    Calling the binder binds its arguments and returns the locals tuple: the
    parameters' values in frame order (``Layout.names``), defaults filled in,
    ``*args`` a tuple and ``**kwargs`` a new dict.  Errors are the
    interpreter's ``TypeError`` s, word for word.  Build one with
    :func:`posonly.binder`.
    """

    # layout, _plan and _partial_function live in the instance dict (a C
    # partial has one already; _CallThrough has none), set once.
    __slots__ = ("__dict__",) if _Partial is _CallThrough else ()
    # Named as the twin of the compiled module, whose class is _bind.Binder.
    __module__ = "posonly._bind_py"

    layout: Layout
    _plan: Plan
    _partial_function: Callable[..., Tuple[Any, ...]]

    def __new__(cls, *args: Any, **kwargs: Any) -> "Binder[Any]":
        layout, call = _binder_arguments(*args, **kwargs)
        plan = Plan(layout, call)
        function = generate_function(layout, plan)
        # A call is partial's: the function, after a bound method's self or
        # a partial's arguments, with a partial's keywords under the caller's.
        self = super().__new__(cls, function, *plan.prefix, **(plan.preset or {}))
        # layout: the values' (what a call puts first is not in them).
        object.__setattr__(self, "layout", plan.output)
        object.__setattr__(self, "_plan", plan)
        object.__setattr__(self, "_partial_function", _generate_partial_function(layout, plan))
        if NAMED_BY_CALLEE and call is not None and call.callee is not None:
            _name_as(self, call.callee)
        return self

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("type 'posonly._bind_py.Binder' is not an acceptable base type")

    if not TYPE_CHECKING:

        @classmethod
        def __class_getitem__(cls, item: Any) -> Any:
            # As the compiled class's: the subscript names the same class
            # (3.9 has no ParamSpec for typing's own checks to accept).
            return types.GenericAlias(cls, item)

    if TYPE_CHECKING:

        def __call__(self, /, *args: _P.args, **kwargs: _P.kwargs) -> Tuple[Any, ...]: ...

    @property
    def _function(self) -> Callable[..., Tuple[Any, ...]]:
        """The function that binds: the partial's own."""
        return _function_of(self)  # type: ignore[no-any-return]

    if not TYPE_CHECKING:  # a type checker would take it for any attribute

        def __getattr__(self, attr):
            # Only a binder made by _create.binder_of_function lacks these, until asked.
            if attr in _LATER:
                with _completing:
                    try:
                        object.__getattribute__(self, "layout")
                    except AttributeError:
                        layout = Layout._from_function(self._function)
                        plan = Plan(layout)
                        partial_function = _generate_partial_function(layout, plan)
                        object.__setattr__(self, "_partial_function", partial_function)
                        object.__setattr__(self, "_plan", plan)
                        object.__setattr__(self, "layout", layout)
            return object.__getattribute__(self, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError(f"Binder is immutable; cannot set {attr!r}")

    def __setstate__(self, state: Any) -> None:
        raise TypeError("Binder is immutable")

    def __get__(self, instance: Any, owner: Any = None) -> "Binder[_P]":
        # A binder stored on a class is an attribute, not a method.
        return self

    # partial's attributes are not a binder's: its keywords dict would even
    # let a caller change every later call.
    func = args = keywords = property(_not_a_binder_attribute)
    if _Partial is not _CallThrough:
        # Nor is the dict that holds its state: a binder has no __dict__,
        # as the compiled one has none.
        __dict__ = property(_not_a_binder_attribute)

    def bind(self, args: Any = (), kwargs: Any = None) -> Tuple[Any, ...]:
        """Bind ``f(*args, **kwargs)`` from a tuple and a dict (or ``None``)."""
        plan = self._plan
        args = plan.star_args(args)
        kwargs = plan.star_kwargs(kwargs)
        if plan.bound:
            # As partial's call does (the binder's own, but named as the
            # function where the interpreter names the callee).
            args = plan.positionals(args)
            if plan.preset:
                kwargs = {**plan.preset, **kwargs} if kwargs else plan.preset
        return self._function(*args, **kwargs) if kwargs else self._function(*args)

    def vectorcall(self, stack: Any, kwnames: Any = None) -> Tuple[Any, ...]:
        """Bind a vectorcall: ``stack`` holds the positional values, then one
        value per name in ``kwnames`` (a tuple, or ``None`` for no keywords)."""
        stack, kwnames = self._plan.vectorcall_args(stack, kwnames)
        if kwnames is None:
            return self(*stack)  # type: ignore[call-arg]
        nargs = len(stack) - len(kwnames)
        if _names_of_a_call(kwnames):
            kwargs = dict(zip(kwnames, stack[nargs:]))
            if len(kwargs) == len(kwnames):
                return self(*stack[:nargs], **kwargs)
        plan = self._plan
        if plan.bound:
            positionals = plan.positionals(stack[:nargs])
            preset = plan.preset or {}
            # A partial's keywords go under the call's (the call's win).
            extra = tuple(name for name in preset if name not in kwnames)
            stack = positionals + stack[nargs:] + tuple(preset[name] for name in extra)
            locals_ = initialize_locals(plan, stack, len(positionals), kwnames + extra)
            return plan.drop_self(locals_)
        return initialize_locals(plan, stack, nargs, kwnames)

    def partial(self, /, *args: _P.args, **kwargs: _P.kwargs) -> Tuple[Any, ...]:
        """Like a call, but required parameters not given are :data:`MISSING`."""
        return _partial_values(self._plan, self._function, self._partial_function, args, kwargs)

    def arguments(self, /, *args: _P.args, **kwargs: _P.kwargs) -> Dict[str, Any]:
        """Bind the call; return a dict of name to value in signature order."""
        return self._plan.arguments(self.bind(args, kwargs))

    def apply(self, func: Callable[..., Any], values: Tuple[Any, ...]) -> Any:
        """Call ``func`` with a locals tuple: positionals by position,
        ``*args`` spread, keyword-only by keyword, ``**kwargs`` merged."""
        return self._plan.apply(func, values)

    def __repr__(self) -> str:
        return f"<posonly.Binder {self._plan.describe()}>"

    def __reduce__(self) -> Any:
        if self._plan.bound:
            raise TypeError("a bound method's binder cannot be pickled")
        return (Binder, (self._plan.layout,))

    def __copy__(self) -> "Binder[_P]":
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Binder[_P]":
        return Binder(self._plan.layout, self._plan.deep_copy_call(memo))


# inspect.signature(Binder): its arguments, as the compiled class answers.
Binder.__signature__ = ClassSignature(_binder_arguments)  # type: ignore[attr-defined]
