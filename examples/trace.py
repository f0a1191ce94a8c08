"""Recipe: a decorator that records each call's arguments by parameter name.

    calls = []

    @trace(calls.append)
    def fetch(url, /, timeout=10, *headers, retries=3, **options): ...

    fetch("https://example.org", 5, retries=1)
    calls  # [Call(function='fetch', arguments={'url': 'https://example.org',
           #   'timeout': 5, 'headers': (), 'retries': 1, 'options': {}})]

Every call is recorded the same way however its arguments were passed: a dict
of every parameter in signature order, defaults filled in, ``*args`` as a
tuple and ``**kwargs`` as a dict.  ``wrap(func, before=...)`` analyses the
signature once, at decoration time; each call hands the locals tuple to the
recorder, which names them with ``wrapper.layout.arguments(values)``.  A call that does not fit the signature raises
the interpreter's own ``TypeError`` and is not recorded.

Two versions of the same decorator, for comparison (``python -m posonly bench``
measures one against the other):

- ``posonly_version`` is :func:`trace`, built on :func:`posonly.wrap`;
- ``inspect_version`` is :func:`trace_with_inspect`, built on
  :meth:`inspect.Signature.bind`.

``make_decorated(kind)`` returns the module's sample function decorated by
``kind`` (``"posonly"``, ``"inspect"``, or ``"plain"`` for no decorator); call
it with ``*SAMPLE_ARGS, **SAMPLE_KWARGS``.  Run ``python examples/trace.py``
for a demo.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable, NamedTuple, TypeVar

from posonly import Wrapper, wrap

if sys.version_info >= (3, 10):
    from typing import ParamSpec
else:
    from typing_extensions import ParamSpec

P = ParamSpec("P")
R = TypeVar("R")


class Call(NamedTuple):
    """One recorded call: the function's name and its arguments by name."""

    function: str
    arguments: dict[str, Any]


Record = Callable[[Call], object]


def trace(record: Record) -> Callable[[Callable[P, R]], Wrapper[P, R]]:
    """Pass a :class:`Call` to ``record`` before each call of the function."""

    def decorate(func: Callable[P, R]) -> Wrapper[P, R]:
        def before(values: tuple[Any, ...]) -> None:
            record(Call(name, arguments(values)))

        wrapper = wrap(func, before=before)
        name = func.__qualname__
        arguments = wrapper.layout.arguments  # by name, in signature order
        return wrapper

    return decorate


def trace_with_inspect(record: Record) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """:func:`trace`, written with :meth:`inspect.Signature.bind`."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        name = func.__qualname__

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            record(Call(name, bound.arguments))
            return func(*args, **kwargs)

        return wrapper

    return decorate


posonly_version = trace
inspect_version = trace_with_inspect


def fetch(url: str, /, timeout: float = 10, *headers: str, retries: int = 3, **options: Any) -> str:
    return f"GET {url}"


SAMPLE_ARGS: tuple[Any, ...] = ("https://example.org", 5)
SAMPLE_KWARGS: dict[str, Any] = {"retries": 1}


def make_decorated(kind: str) -> Callable[..., Any]:
    """``fetch`` decorated by ``kind``: ``"posonly"``, ``"inspect"`` or ``"plain"``.

    The decorated function records into a list that keeps only the last call,
    so a benchmark's memory stays flat.
    """
    if kind == "plain":
        return fetch
    last: list[Call] = []

    def keep_last(call: Call) -> None:
        last[:] = [call]

    if kind == "posonly":
        return posonly_version(keep_last)(fetch)
    return {"inspect": inspect_version}[kind](keep_last)(fetch)


def demo() -> None:
    calls: list[Call] = []
    traced_fetch = trace(calls.append)(fetch)
    traced_fetch("https://example.org")
    traced_fetch("https://example.org", 5, "Accept: */*", retries=1, stream=True)
    for call in calls:
        print(call)


if __name__ == "__main__":
    demo()
