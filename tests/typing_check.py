"""The public API's types as a user's type checker sees them.

``tests/test_typing.py`` runs ``mypy --strict`` on this file, where every
``assert_type`` must hold, and also runs :func:`check` so that what the file
states stays true at run time, under both implementations.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Literal, Mapping, Optional

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

import posonly
from posonly import MISSING, Binder, Layout, Wrapper, binder, wrap


def f(a: int, b: int, /, c: int, d: int = 4, *, e: int, g: int = 7) -> int:
    return a + b + c + d + e + g


def g(*args: int, **kwargs: int) -> int:
    return sum(args) + sum(kwargs.values())


class Counter:
    def add(self, n: int = 1) -> int:
        return n


def check() -> None:
    assert_type(posonly.__version__, str)
    assert_type(posonly.IMPLEMENTATION, Literal["cython", "python"])
    assert posonly.IMPLEMENTATION in ("cython", "python")

    layout = Layout.from_callable(f)
    assert_type(layout, Layout)
    assert_type(Layout.parse("a, /, b=2, *, c", name="h"), Layout)
    assert_type(Layout(name="h", posonly=("a",), kwonly=("c",)), Layout)
    assert_type(Layout.from_signature(layout.to_signature(), name="h"), Layout)
    assert_type(layout.names, tuple[str, ...])
    assert_type(layout.posonly, tuple[str, ...])
    assert_type(layout.varargs, Optional[str])
    assert_type(layout.defaults, tuple[Any, ...])
    assert_type(layout.kwdefaults, Mapping[str, Any])
    assert_type(layout.argcount, int)
    assert_type(str(layout), str)
    assert layout.names == ("a", "b", "c", "d", "e", "g")

    bind = binder(f)
    assert_type(binder(layout), Binder[...])
    assert_type(binder(Counter().add)(2), tuple[Any, ...])
    assert_type(bind.layout, Layout)

    values = bind(1, 2, 3, e=5)
    assert_type(values, tuple[Any, ...])
    assert values == (1, 2, 3, 4, 5, 7)
    assert_type(bind.bind((1, 2, 3), {"e": 5}), tuple[Any, ...])
    assert_type(bind.vectorcall((1, 2, 3, 5), ("e",)), tuple[Any, ...])
    assert bind.vectorcall([1, 2, 3, 5], ("e",)) == values

    partial = bind.partial(1, 2, 3, e=5)
    assert_type(partial, tuple[Any, ...])
    partial = binder(layout).partial(1)
    assert partial[2] is MISSING

    arguments = bind.arguments(1, 2, 3, e=5)
    assert_type(arguments, dict[str, Any])
    assert list(arguments) == ["a", "b", "c", "d", "e", "g"]

    result = bind.apply(f, values)
    assert_type(result, Any)
    assert result == 22

    call: Callable[..., tuple[Any, ...]] = binder(g)
    assert call(1, 2, x=3) == ((1, 2), {"x": 3})

    seen: list[tuple[Any, ...]] = []
    checked = wrap(f, before=seen.append)
    # The wrapper carries the function's parameters and return type: a
    # result needs no cast, and a wrong call is a type error (see
    # tests/test_typing.py's mistakes).
    total = checked(1, 2, 3, e=5)
    assert_type(total, int)
    assert total == 22 and seen == [values]
    constructed = Wrapper(f, before=seen.append)
    assert_type(constructed(1, 2, 3, e=5, g=0), int)
    assert_type(bind(1, 2, 3, e=5), tuple[Any, ...])
    assert_type(bind.arguments(1, 2, 3, e=5), dict[str, Any])
    assert_type(binder(f, follow_wrapped=False)(1, 2, 3, e=5), tuple[Any, ...])
    assert isinstance(checked, Wrapper)
    assert checked.__wrapped__ is f and checked.__qualname__ == "f"

    def around(proceed: Callable[[tuple[Any, ...]], Any], values: tuple[Any, ...]) -> Any:
        return proceed(values[:2] + (0,) + values[3:])

    assert wrap(f, around=around)(1, 2, 3, e=5) == 19
    wrapped_g: Callable[..., int] = wrap(g, before=seen.append)
    assert wrapped_g(1, x=2) == 3


    static = posonly.wrap(staticmethod(g), before=seen.append)
    assert isinstance(static, staticmethod)
    assert static.__func__(1, x=2) == 3


if __name__ == "__main__":
    check()
