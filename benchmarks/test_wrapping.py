"""What a wrapper that sees each call's values adds to a call: the wrapping
table of ``python -m posonly bench``, one benchmark group per signature.

Within a group, compare each wrapper with ``bare`` (the function itself) and
``def`` (a ``functools.wraps`` pass-through ``def``); every handler is a
no-op.  wrapt's column is there when wrapt is installed.
"""

import pytest

from posonly import _bench
from test_bench import CALLS, _runner


def _params():
    for case in _bench.WRAP_CASES:
        for column, _title in _bench.WRAP_COLUMNS:
            yield pytest.param(case, column, id=f"{case.name}-{column}")


@pytest.mark.parametrize("case, column", list(_params()))
def test_wrapping(benchmark, case, column):
    wrapped = _bench._wrapped(case.function())
    if column not in wrapped:
        pytest.skip(f"{column} is not available here")
    benchmark.group = f"wrapping {case.name}: ({case.params}) <- f({case.call})"
    benchmark.extra_info["calls_per_round"] = CALLS
    benchmark(_runner(case, "fn({call})", wrapped[column]))
