"""Every cell of every table of ``python -m posonly bench`` as a
pytest-benchmark benchmark, on the bench's own runner.

Groups: ``binding: <row>`` (every way of binding one call, the floor
included), ``pep570: <column>`` (the four parameter kinds, one way of
binding), ``wrapping: <row>``, ``creation: <signature>`` (making a wraps
def, a binder, a wrapper, a layout, two signatures, each from fresh
functions) and ``clients: <pattern>: <signature>`` (plain inspect against
``patch_inspect()``).  ``pytest benchmarks/ -k creation`` runs one table.
"""

from typing import Any, Dict, Iterator

import pytest

from posonly.bench import SUITES

ROUNDS = 30

_TABLES: Dict[str, Any] = {}


def _table(key: str) -> Any:
    if key not in _TABLES:
        _TABLES[key] = SUITES[key].build(None)
    return _TABLES[key]


def _params() -> Iterator[Any]:
    for key in SUITES:
        for (row, column) in _table(key).cells:
            yield pytest.param(key, row, column, id=f"{key}: {row}: {column}")


def _group(key: str, row: str, column: str) -> str:
    return f"pep570: {column}" if key == "pep570" else f"{key}: {row}"


@pytest.mark.parametrize("key, row, column", list(_params()))
def test_bench(benchmark, key, row, column):
    cell: Any = _table(key).cell(row, column)
    benchmark.group = _group(key, row, column)
    loops = SUITES[key].LOOPS  # a loop of a call table makes 10 calls
    benchmark.extra_info.update(ops_per_round=loops * cell.ops, timed=cell.timed)
    armed = []

    def setup() -> None:
        # What the bench does around each sample, outside the timed region:
        # the previous round's teardown, then this round's setup and warm-up.
        if armed and cell.teardown is not None:
            cell.teardown()
        if cell.setup is not None:
            cell.setup(loops + (1 if cell.warmup else 0))
        armed.append(True)
        if cell.warmup:
            cell.run(1)

    try:
        with _table(key).around():  # as the bench measures the table
            benchmark.pedantic(cell.run, args=(loops,), setup=setup, rounds=ROUNDS)
    finally:
        if armed and cell.teardown is not None:
            cell.teardown()
