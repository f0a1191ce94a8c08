"""The public API's types as a user's type checker sees them.

``tests/test_typing.py`` runs ``mypy --strict`` on this file, where every
``assert_type`` must hold, and also runs :func:`check` so that what the file
states stays true at run time, under both implementations.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable, Coroutine, Hashable, Literal, Mapping, Optional, TypeVar

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type
if sys.version_info >= (3, 10):
    from typing import ParamSpec
else:
    from typing_extensions import ParamSpec

import posonly
from posonly import MISSING, Binder, Layout, Wrapper, binder, wrap


def f(a: int, b: int, /, c: int, d: int = 4, *, e: int, g: int = 7) -> int:
    return a + b + c + d + e + g


def g(*args: int, **kwargs: int) -> int:
    return sum(args) + sum(kwargs.values())


class Counter:
    def add(self, n: int = 1) -> int:
        return n


P = ParamSpec("P")
R = TypeVar("R")
CALLS: list[dict[str, Any]] = []


def traced(func: Callable[P, R]) -> Wrapper[P, R]:
    """A generic decorator: the wrapper keeps the function's types."""

    def record(values: tuple[Any, ...]) -> None:
        CALLS.append(wrapper.layout.arguments(values))

    wrapper = wrap(func, before=record)
    return wrapper


def retried(func: Callable[P, Coroutine[Any, Any, R]]) -> Wrapper[P, Coroutine[Any, Any, R]]:
    """A generic decorator of coroutine functions with an async around handler."""

    async def around(
        proceed: Callable[[tuple[Any, ...]], Coroutine[Any, Any, R]], values: tuple[Any, ...]
    ) -> R:
        try:
            return await proceed(values)
        except ValueError:
            return await proceed(wrapper.layout.replace(values, n=0))

    wrapper = wrap(func, around=around)
    return wrapper


class Account:
    def __init__(self, balance: int = 0) -> None:
        self.balance = balance

    @traced
    def deposit(self, amount: int) -> int:
        self.balance += amount
        return self.balance

    @classmethod
    @traced
    def opened(cls, balance: int) -> "Account":
        return cls(balance)

    @staticmethod
    @traced
    def fee(amount: int) -> int:
        return amount // 100

    @retried
    async def fetch(self, n: int) -> str:
        if n < 0:
            raise ValueError(n)
        return "x" * n


class Ledger:
    """Migrated methods keep their future signatures for type checkers."""

    @posonly.migrate(keyword_only=("fee",), renamed={"sum": "amount"})
    def pay(self, amount: int, *, fee: int = 0) -> int:
        return amount + fee

    @classmethod
    @posonly.migrate(positional_only=("balance",))
    def opened(cls, balance: int, /) -> "Ledger":
        return cls()


@posonly.migrate(positional_only=("a",), since="2.3", removal="3.0")
def migrated(a: int, /, b: str = "") -> str:
    return b * a


def check() -> None:
    # migrate keeps the function's (future) parameters and return type.
    assert_type(migrated(2, "x"), str)
    assert_type(migrated(2, b="x"), str)
    assert_type(posonly.migrate(migrated, positional_only=("a",))(3), str)
    assert_type(Ledger().pay(1, fee=2), int)
    assert_type(Ledger.opened(3), Ledger)
    assert Ledger().pay(1, fee=2) == 3 and migrated(2, "x") == "xx"
    form = posonly.CallForm(Layout.from_callable(migrated), 1, ("b",))
    assert_type(form.keywords, dict[str, str])
    assert form.positional == ("a",) and form.keywords == {"b": "b"}
    forms: list[posonly.CallForm] = []

    def told(values: tuple[Any, ...], form: posonly.CallForm) -> None:
        forms.append(form)

    def around_told(proceed: Callable[[tuple[Any, ...]], str], values: tuple[Any, ...],
                    form: posonly.CallForm) -> str:
        return proceed(values)

    assert_type(wrap(migrated, before=told, form=True)(2, b="x"), str)
    assert_type(wrap(migrated, around=around_told, form=True)(2), str)
    assert forms[0].keywords == {"b": "b"}

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

    # Calls through Wrapper.__get__: a method's wrapper, bound to the
    # instance or the class, checks the rest of the parameters.
    CALLS.clear()
    account = Account()
    assert_type(account.deposit(5), int)
    assert_type(Account.deposit(account, 5), int)
    assert_type(Account.opened(7), Account)
    assert_type(account.opened(7), Account)
    assert_type(Account.fee(300), int)
    assert_type(account.fee(300), int)
    assert account.balance == 10 and Account.opened(7).balance == 7 and account.fee(300) == 3
    assert CALLS[0] == {"self": account, "amount": 5}
    assert_type(asyncio.run(account.fetch(2)), str)
    assert asyncio.run(account.fetch(-1)) == ""

    # A handler's view of the values.
    wrapper = wrap(f, before=seen.append)
    assert_type(wrapper.layout, Layout)
    named = wrapper.layout.arguments(values)
    assert_type(named, dict[str, Any])
    assert_type(wrapper.layout.values(named), tuple[Any, ...])
    assert_type(wrapper.layout.replace(values, c=0), tuple[Any, ...])
    assert_type(wrapper.layout.key(values, ignore=("a",)), Hashable)
    assert_type(wrapper.layout.instance(values), Any)
    assert wrapper.layout.values(named) == values


if __name__ == "__main__":
    check()
