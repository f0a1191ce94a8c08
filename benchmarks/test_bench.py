"""Every way of binding a call, per case, against the interpreter's own binding.

Each benchmark times a generated function making ``CALLS`` calls with the
case's literal arguments (or its ``args``/``kwargs``), the statement the
``python -m posonly bench`` table uses for that column.
"""

from typing import Any, Callable, Dict

import pytest

from posonly import _bench

CALLS = 100


def _runner(case: _bench.Case, statement: str, fn: Any) -> Callable[[], None]:
    args, kwargs = case.arguments()
    stack = args + tuple(kwargs.values())
    kwnames = tuple(kwargs) or None
    body = "\n".join("    " + statement.format(call=case.call) for _ in range(CALLS))
    namespace: Dict[str, Any] = {
        "fn": fn, "args": args, "kwargs": kwargs, "stack": stack, "kwnames": kwnames,
    }
    exec(f"def run():\n{body}\n", namespace)
    return namespace["run"]  # type: ignore[no-any-return]


def _params():
    for case in _bench.CASES:
        for column, _statement, _title in _bench.COLUMNS:
            yield pytest.param(case, column, id=f"{case.name}-{column}")


@pytest.mark.parametrize("case, column", list(_params()))
def test_bind(benchmark, case, column):
    fns = _bench._callables(case)
    if column not in fns:
        pytest.skip(f"{column} is not available here")
    statement = dict((c, s) for c, s, _ in _bench.COLUMNS)[column]
    benchmark.group = f"{case.name}: ({case.params}) <- f({case.call})"
    benchmark.extra_info["calls_per_round"] = CALLS
    benchmark(_runner(case, statement, fns[column]))


def _pep570_params():
    for kind, passing, case in _bench.PEP570_CASES:
        for column in ("floor", "binder", "bind", "pure"):
            yield pytest.param(kind, passing, case, column, id=f"{kind} {passing}-{column}")


@pytest.mark.parametrize("kind, passing, case, column", list(_pep570_params()))
def test_pep570(benchmark, kind, passing, case, column):
    fns = _bench._callables(case)
    if column not in fns:
        pytest.skip(f"{column} is not available here")
    statement = dict((c, s) for c, s, _ in _bench.COLUMNS)[column]
    benchmark.group = f"PEP 570, {column}: parameters by kind and passing"
    benchmark.extra_info["calls_per_round"] = CALLS
    benchmark(_runner(case, statement, fns[column]))


@pytest.mark.parametrize("variant", ["undecorated", "inspect", "posonly", "drop-in"])
def test_validating_decorator(benchmark, variant):
    wrapped = _bench._validating_decorators()
    if variant not in wrapped:
        pytest.skip(f"{variant} is not available here")
    benchmark.group = "validating decorator: " + _bench.DECORATOR_CALL.label
    benchmark.extra_info["calls_per_round"] = CALLS
    benchmark(_runner(_bench.DECORATOR_CALL, "fn({call})", wrapped[variant]))
