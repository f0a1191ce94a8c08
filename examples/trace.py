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
recorder, which names them.  A call that does not fit the signature raises
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
from typing import Any, Callable, NamedTuple, TypeVar, cast

from posonly import Layout, wrap

F = TypeVar("F", bound=Callable[..., Any])


class Call(NamedTuple):
    """One recorded call: the function's name and its arguments by name."""

    function: str
    arguments: dict[str, Any]


Record = Callable[[Call], object]


def trace(record: Record) -> Callable[[F], F]:
    """Pass a :class:`Call` to ``record`` before each call of the function."""

    def decorate(func: F) -> F:
        layout = Layout.from_callable(func)
        name = func.__qualname__
        # Each parameter's slot in the locals tuple, in signature order.
        slots = {n: i for i, n in enumerate(layout.names)}
        order = [(n, slots[n]) for n in layout.posonly + layout.positional]
        if layout.varargs is not None:
            order.append((layout.varargs, slots[layout.varargs]))
        order += [(n, slots[n]) for n in layout.kwonly]
        if layout.varkw is not None:
            order.append((layout.varkw, slots[layout.varkw]))

        def before(values: tuple[Any, ...]) -> None:
            record(Call(name, {n: values[i] for n, i in order}))

        return cast(F, wrap(func, before=before))

    return decorate


def trace_with_inspect(record: Record) -> Callable[[F], F]:
    """:func:`trace`, written with :meth:`inspect.Signature.bind`."""

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        name = func.__qualname__

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            record(Call(name, bound.arguments))
            return func(*args, **kwargs)

        return cast(F, wrapper)

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
    decorator = {"posonly": posonly_version, "inspect": inspect_version}[kind]
    last: list[Call] = []

    def keep_last(call: Call) -> None:
        last[:] = [call]

    return decorator(keep_last)(fetch)


def demo() -> None:
    calls: list[Call] = []
    traced_fetch = trace(calls.append)(fetch)
    traced_fetch("https://example.org")
    traced_fetch("https://example.org", 5, "Accept: */*", retries=1, stream=True)
    for call in calls:
        print(call)


if __name__ == "__main__":
    demo()
