"""Recipe: a decorator that validates a call's arguments by parameter name.

    @validate(amount=lambda v: v > 0, currency=str.isupper)
    def pay(amount, /, currency="EUR", *, note=""): ...

    pay(5)            # fine: the default "EUR" is checked too
    pay(-5)           # ValidationError: pay() argument 'amount' failed its check: -5

Each rule is a predicate on one parameter's value, however that value was
passed (by position, by keyword or by default).  ``wrap(func, before=check)``
analyses the signature once, at decoration time; each call hands ``check``
the locals tuple, which checks only the parameters that have rules, and then
``func`` runs with the caller's arguments.  A call that does not fit the
signature raises the interpreter's own ``TypeError`` before any rule runs.

Two versions of the same decorator, for comparison (``python -m posonly bench``
measures one against the other):

- ``posonly_version`` is :func:`validate`, built on :func:`posonly.wrap`;
- ``inspect_version`` is :func:`validate_with_inspect`, built on
  :meth:`inspect.Signature.bind`.

``make_decorated(kind)`` returns the module's sample function decorated by
``kind`` (``"posonly"``, ``"inspect"``, or ``"plain"`` for no decorator); call
it with ``*SAMPLE_ARGS, **SAMPLE_KWARGS``.  Run ``python examples/validate.py``
for a demo.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable, TypeVar

from posonly import Wrapper, wrap

if sys.version_info >= (3, 10):
    from typing import ParamSpec
else:
    from typing_extensions import ParamSpec

P = ParamSpec("P")
R = TypeVar("R")
Rule = Callable[[Any], bool]


class ValidationError(ValueError):
    """An argument failed its rule; ``parameter`` and ``value`` say which."""

    def __init__(self, function: str, parameter: str, value: Any) -> None:
        super().__init__(f"{function}() argument {parameter!r} failed its check: {value!r}")
        self.parameter = parameter
        self.value = value


def _check_rule_names(func: Callable[..., Any], names: tuple[str, ...], rules: dict[str, Rule]) -> None:
    for name in rules:
        if name not in names:
            raise TypeError(f"validate(): {func.__qualname__}() has no parameter {name!r}")


def validate(**rules: Rule) -> Callable[[Callable[P, R]], Wrapper[P, R]]:
    """Check the named parameters' values with ``rules`` on every call."""

    def decorate(func: Callable[P, R]) -> Wrapper[P, R]:
        def check(values: tuple[Any, ...]) -> None:
            for index, name, rule in checks:
                if not rule(values[index]):
                    raise ValidationError(func.__qualname__, name, values[index])

        wrapper = wrap(func, before=check)
        names = wrapper.layout.names  # the order of the values
        _check_rule_names(func, names, rules)
        checks = [(names.index(name), name, rule) for name, rule in rules.items()]
        return wrapper

    return decorate


def validate_with_inspect(**rules: Rule) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """:func:`validate`, written with :meth:`inspect.Signature.bind`."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        _check_rule_names(func, tuple(signature.parameters), rules)

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, rule in rules.items():
                value = bound.arguments[name]
                if not rule(value):
                    raise ValidationError(func.__qualname__, name, value)
            return func(*args, **kwargs)

        return wrapper

    return decorate


posonly_version = validate
inspect_version = validate_with_inspect


def pay(amount: float, /, currency: str = "EUR", *, note: str = "") -> str:
    return f"{amount:.2f} {currency} {note}".rstrip()


SAMPLE_RULES: dict[str, Rule] = {"amount": lambda v: v > 0, "currency": str.isupper}
SAMPLE_ARGS: tuple[Any, ...] = (12.5, "EUR")
SAMPLE_KWARGS: dict[str, Any] = {"note": "lunch"}


def make_decorated(kind: str) -> Callable[..., Any]:
    """``pay`` decorated by ``kind``: ``"posonly"``, ``"inspect"`` or ``"plain"``."""
    if kind == "plain":
        return pay
    if kind == "posonly":
        return posonly_version(**SAMPLE_RULES)(pay)
    return {"inspect": inspect_version}[kind](**SAMPLE_RULES)(pay)


def demo() -> None:
    checked_pay = make_decorated("posonly")
    print(checked_pay(12.5, "EUR", note="lunch"))
    bad_calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((-3,), {}),
        ((3,), {"currency": "eur"}),
        ((), {"amount": 3}),
    ]
    for args, kwargs in bad_calls:
        try:
            checked_pay(*args, **kwargs)
        except (ValidationError, TypeError) as error:
            print(f"{type(error).__name__}: {error}")


if __name__ == "__main__":
    demo()
