"""Recipe: a memoizing decorator whose cache key is the bound call.

    @memoize(ignore=("log",))
    def area(width, height=1, *, log=None): ...

    area(2, 3)
    area(2, height=3)        # the same call: served from the cache
    area(width=2, height=3)  # the same call again
    area(2, 3, log=print)    # still the same call: ``log`` is not in the key

:func:`functools.lru_cache` keys on the arguments as they were passed, so
``f(1, 2)``, ``f(1, b=2)`` and ``f(b=2, a=1)`` are three entries there.  Here
the key is the call's values in parameter order, defaults filled in, so every
way of passing the same values is one entry; parameters named in ``ignore``
are left out of the key.  ``wrap(func, around=...)`` analyses the signature
once, at decoration time; each call hands the locals tuple to the cache, keyed
by ``wrapper.layout.key(values, ignore)``, which calls ``func`` through
``proceed`` only on a miss.  As with ``lru_cache``, every value in the key must be
hashable; a call that does not fit the signature raises the interpreter's own
``TypeError``.  The cache is unbounded.

Two versions of the same decorator, for comparison (``python -m posonly bench``
measures one against the other):

- ``posonly_version`` is :func:`memoize`, built on :func:`posonly.wrap`;
- ``inspect_version`` is :func:`memoize_with_inspect`, built on
  :meth:`inspect.Signature.bind`.

``make_decorated(kind)`` returns the module's sample function decorated by
``kind`` (``"posonly"``, ``"inspect"``, or ``"plain"`` for no decorator) with
a fresh cache; call it with ``*SAMPLE_ARGS, **SAMPLE_KWARGS`` (after the first
call, every call is a cache hit).  Run ``python examples/memoize.py`` for a
demo.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable, Collection, Hashable, TypeVar

from posonly import Wrapper, wrap

if sys.version_info >= (3, 10):
    from typing import ParamSpec
else:
    from typing_extensions import ParamSpec

P = ParamSpec("P")
R = TypeVar("R")


def _check_ignored(func: Callable[..., Any], names: Collection[str], ignore: Collection[str]) -> None:
    for name in ignore:
        if name not in names:
            raise TypeError(f"memoize(): {func.__qualname__}() has no parameter {name!r}")


def memoize(*, ignore: Collection[str] = ()) -> Callable[[Callable[P, R]], Wrapper[P, R]]:
    """Cache the function's results by bound call, leaving ``ignore`` out of the key."""
    ignored = tuple(ignore)

    def decorate(func: Callable[P, R]) -> Wrapper[P, R]:
        cache: dict[Hashable, R] = {}

        def cached(proceed: Callable[[tuple[Any, ...]], R], values: tuple[Any, ...]) -> R:
            key = layout.key(values, ignored)
            try:
                return cache[key]
            except KeyError:
                result = cache[key] = proceed(values)
                return result

        wrapper = wrap(func, around=cached)
        layout = wrapper.layout
        _check_ignored(func, layout.names, ignored)
        return wrapper

    return decorate


def memoize_with_inspect(*, ignore: Collection[str] = ()) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """:func:`memoize`, written with :meth:`inspect.Signature.bind`."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        _check_ignored(func, signature.parameters, ignore)
        varkw = [p.name for p in signature.parameters.values() if p.kind is p.VAR_KEYWORD]
        cache: dict[Hashable, R] = {}

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = tuple(
                frozenset(value.items()) if name in varkw else value
                for name, value in bound.arguments.items()
                if name not in ignore
            )
            try:
                return cache[key]
            except KeyError:
                result = cache[key] = func(*args, **kwargs)
                return result

        return wrapper

    return decorate


posonly_version = memoize
inspect_version = memoize_with_inspect


def area(width: float, height: float = 1, *, log: Callable[[str], object] | None = None) -> float:
    if log is not None:
        log(f"computing area({width}, {height})")
    return width * height


SAMPLE_IGNORE = ("log",)
SAMPLE_ARGS: tuple[Any, ...] = (2,)
SAMPLE_KWARGS: dict[str, Any] = {"height": 3}


def make_decorated(kind: str) -> Callable[..., Any]:
    """``area`` decorated by ``kind``: ``"posonly"``, ``"inspect"`` or ``"plain"``."""
    if kind == "plain":
        return area
    if kind == "posonly":
        return posonly_version(ignore=SAMPLE_IGNORE)(area)
    return {"inspect": inspect_version}[kind](ignore=SAMPLE_IGNORE)(area)


def demo() -> None:
    cached_area = memoize(ignore=("log",))(area)
    print(cached_area(2, 3, log=print))
    print(cached_area(2, height=3, log=print))  # a hit: nothing is logged
    print(cached_area(width=2, height=3))  # a hit
    print(cached_area(2, log=print))  # height=1: a new entry


if __name__ == "__main__":
    demo()
