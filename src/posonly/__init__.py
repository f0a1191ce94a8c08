"""posonly: bind call arguments to parameters at the interpreter's own speed.

``binder(f)`` analyses a signature once and returns a binder whose calls map
arguments onto the parameters exactly as the interpreter would, returning the
locals tuple.  ``Layout`` is the analysed signature.  ``wrap(f, before=...)``
and ``wrap(f, around=...)`` make a wrapper that hands each call's locals to a
handler.  The binder is compiled
with Cython when the extension is built; otherwise (or with
``POSONLY_PURE_PYTHON=1`` set before import, or off CPython) a pure-Python twin
with the same API and behaviour is used.  ``IMPLEMENTATION`` says which.

``signature(f)`` and ``patch_inspect()`` are a drop-in for :mod:`inspect`'s
signatures, binding, ``getfullargspec`` and ``getcallargs``;
``record_served()`` counts which of those calls posonly served and which
fell back to inspect's own code, and why (``python -m posonly run --report``
does so for a whole program).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, TypeVar, Union, overload

from . import _impl
from ._inspect import Signature, patch_inspect, signature, unpatch_inspect
from ._layout import MISSING, Layout
from ._callform import CallForm
from ._served import Served, record_served

__all__ = [
    "IMPLEMENTATION",
    "MISSING",
    "Binder",
    "CallForm",
    "Layout",
    "Served",
    "Signature",
    "Wrapper",
    "binder",
    "migrate",
    "patch_inspect",
    "record_served",
    "signature",
    "unpatch_inspect",
    "wrap",
]
__version__ = "0.1.0"

if TYPE_CHECKING:
    # What type checkers see: the types as the public names (a revealed
    # type reads posonly.Wrapper[...], not a private module's), with the API
    # both implementations have.
    from typing import Dict, Generic, Mapping, Optional, Sequence, Tuple, Type

    from typing_extensions import Concatenate, ParamSpec

    from ._wrapper import wrap as wrap

    _P = ParamSpec("_P")
    _P2 = ParamSpec("_P2")
    _R = TypeVar("_R")
    _T = TypeVar("_T")
    _Values = Tuple[Any, ...]

    class Binder(Generic[_P]):
        """Binds call arguments to a layout's parameters, as the interpreter does."""

        @property
        def layout(self) -> Layout: ...
        def __new__(cls, layout: Layout) -> "Binder[...]": ...
        def __call__(self, /, *args: _P.args, **kwargs: _P.kwargs) -> _Values: ...
        def bind(self, args: Any = (), kwargs: Any = None) -> _Values: ...
        def vectorcall(self, stack: Any, kwnames: Any = None) -> _Values: ...
        def partial(self, /, *args: _P.args, **kwargs: _P.kwargs) -> _Values: ...
        def arguments(self, /, *args: _P.args, **kwargs: _P.kwargs) -> Dict[str, Any]: ...
        def apply(self, func: Callable[..., Any], values: _Values) -> Any: ...
        def __get__(self, instance: Any, owner: Any = None) -> "Binder[_P]": ...

    class Wrapper(Generic[_P, _R]):
        """What :func:`wrap` returns: generic in the function's parameters
        and return type."""

        __wrapped__: Callable[_P, _R]
        __name__: str
        __qualname__: str

        @overload
        def __init__(
            self,
            func: Callable[_P, _R],
            *,
            before: Optional[Callable[[_Values], object]] = None,
            around: Optional[Callable[[Callable[[_Values], _R], _Values], _R]] = None,
            form: Literal[False] = False,
        ) -> None: ...
        @overload
        def __init__(
            self,
            func: Callable[_P, _R],
            *,
            before: Optional[Callable[[_Values, CallForm], object]] = None,
            around: Optional[Callable[[Callable[[_Values], _R], _Values, CallForm], _R]] = None,
            form: Literal[True],
        ) -> None: ...
        def __init__(self, func: Callable[_P, _R], **handler: Any) -> None: ...

        @property
        def layout(self) -> Layout:
            """The :class:`Layout` of the values a handler gets."""

        def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...

        # On a class, a wrapper is a method: on an instance it is bound (its
        # first parameter filled), so that calls through an instance are
        # checked; a classmethod's function is bound to the class.
        @overload
        def __get__(  # type: ignore[misc]
            self: Callable[Concatenate[Type[_T], _P2], _R],
            instance: Optional[_T],
            owner: Optional[Type[_T]] = None,
        ) -> Callable[_P2, _R]: ...
        @overload
        def __get__(self, instance: None, owner: Optional[type] = None) -> "Wrapper[_P, _R]": ...
        @overload
        def __get__(
            self: Callable[Concatenate[_T, _P2], _R], instance: _T, owner: Optional[type] = None
        ) -> Callable[_P2, _R]: ...
        @overload
        def __get__(self, instance: object, owner: Optional[type] = None) -> "Wrapper[_P, _R]": ...
        def __get__(self, instance: Any, owner: Any = None) -> Any: ...

    # migrate() gives a callable with the function's own (future) signature.
    @overload
    def migrate(
        func: Callable[_P, _R],
        /,
        *,
        positional_only: Sequence[str] = ...,
        keyword_only: Sequence[str] = ...,
        renamed: Optional[Mapping[str, str]] = ...,
        since: Optional[str] = ...,
        removal: Optional[str] = ...,
        category: Type[Warning] = ...,
    ) -> Callable[_P, _R]: ...
    @overload
    def migrate(
        func: None = None,
        /,
        *,
        positional_only: Sequence[str] = ...,
        keyword_only: Sequence[str] = ...,
        renamed: Optional[Mapping[str, str]] = ...,
        since: Optional[str] = ...,
        removal: Optional[str] = ...,
        category: Type[Warning] = ...,
    ) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
    def migrate(func: Any = None, /, **declaration: Any) -> Any:
        """Keep the calls of ``func``'s former signature working, with a
        warning, while ``func`` is written in its future one."""

else:
    Binder = _impl.Binder
    Wrapper = _impl.Wrapper
    wrap = _impl.wrap
    migrate = _impl.migrate
IMPLEMENTATION: Literal["cython", "python"] = "cython" if _impl.compiled else "python"
"""``"cython"`` when the compiled binder is in use, ``"python"`` for the twin."""
_chosen_binder: Callable[[Any, bool], Any] = _impl.binder


if not TYPE_CHECKING:
    _P = TypeVar("_P")


@overload
def binder(target: Layout, *, follow_wrapped: bool = True) -> "Binder[...]": ...


@overload
def binder(target: Callable[_P, Any], *, follow_wrapped: bool = True) -> "Binder[_P]": ...


def binder(target: Union[Callable[..., Any], Layout], *, follow_wrapped: bool = True) -> Any:
    """A binder for a callable or a :class:`Layout`.

    The signature bound is the one the callable advertises, as
    :func:`inspect.signature` finds it: a ``__wrapped__`` chain is followed
    (unless ``follow_wrapped`` is false) and a ``__signature__`` honoured.
    Each call binds as the interpreter binds calling ``target``: a bound
    method's, a callable instance's or a :func:`functools.partial`'s
    messages count the values the call puts first as the interpreter's do,
    and the result leaves them out.  Raises :class:`TypeError` for an object
    that is neither callable nor a layout, and whatever
    :func:`inspect.signature` raises for a callable without a signature.
    """
    return _chosen_binder(target, follow_wrapped)
