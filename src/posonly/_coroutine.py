"""A wrapper of a coroutine function where functions cannot be marked as
coroutine functions (before 3.12): the pure ``wrap``'s and ``migrate``'s."""

from __future__ import annotations

import functools
import types
from typing import TYPE_CHECKING, Any, Callable

from ._layout import Layout

if TYPE_CHECKING:
    _Partial = functools.partial[Any]
else:
    _Partial = functools.partial


class _CoroutineWrapper(_Partial):
    """A wrapper (or migrated function) of a coroutine function where
    functions cannot be marked as coroutine functions (before 3.12):
    ``inspect.iscoroutinefunction`` looks through a partial to its ``func``,
    which here is the coroutine function, while calls go to the generated
    function.  Its repr names it as a function, as the generated function's
    does, and as the compiled ``Wrapper``'s does."""

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
        """The generated function's: the values' layout, as it is now (a
        wrapper's)."""
        return self._generated.layout  # type: ignore[attr-defined, no-any-return]

    def __setstate__(self, state: Any) -> None:
        raise TypeError("a Wrapper cannot be changed")

    def __reduce__(self) -> str:
        return self.__qualname__  # by reference, as a function

    @classmethod
    def around(cls, func: Any, generated: Callable[..., Any]) -> "_CoroutineWrapper":
        """The wrapper of the coroutine function ``func`` whose calls go to
        ``generated``, which ``functools.update_wrapper`` has filled."""
        self = cls(_coroutine_function_of(func), generated)
        self.__dict__.update(generated.__dict__)
        self.__dict__.pop("layout", None)  # (read from the generated function)
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(self, attr, getattr(generated, attr))
        return self

    def __repr__(self) -> str:
        return f"<function {self.__qualname__} at {id(self):#x}>"


def _coroutine_function_of(func: Any) -> Any:
    """The function ``inspect.iscoroutinefunction`` finds in ``func``."""
    while True:
        if isinstance(func, types.MethodType):
            func = func.__func__
        elif isinstance(func, functools.partial):
            func = func.func
        else:
            return func
