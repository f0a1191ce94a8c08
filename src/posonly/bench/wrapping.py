"""The wrapping table: what a wrapper that sees each call's values adds to a
call, against the plain ``functools.wraps`` pass-through ``def`` (which sees
nothing).  Ratios are overheads (wrapped minus bare) over the pass-through
def's overhead; every handler is a no-op, so what is timed is the wrapping."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Dict, List, Optional

import posonly

from . import _targets, grid
from .case import Case, call_cell
from .table import Overhead, Table

CASES: List[Case] = [
    Case("one positional-only", "a, /", "1"),
    Case("three by position", "a, b, c", "1, 2, 3"),
    Case("mixed kinds", "a, b, /, c, d=4, *, e, g=7", "1, 2, 3, e=5"),
    Case("five by keyword", "a, b, c, d, e", "a=1, b=2, c=3, d=4, e=5"),
    Case("*args, **kwargs", "*args, **kwargs", "1, 2, x=3"),
]

COLUMNS: Dict[str, str] = {
    "bare": "the function itself, unwrapped",
    "def": "functools.wraps pass-through def (*args, **kwargs)",
    "wrapt": "wrapt pass-through @wrapt.decorator",
    "recipe": "def + binder(f).bind(args, kwargs) + handler + bind.apply",
    "before": "posonly.wrap(f, before=handler)",
    "around": "posonly.wrap(f, around=handler), proceed(values)",
    "form": "posonly.wrap(f, before=handler, form=True): the handler gets the call's CallForm too",
    "pure before": "the pure-Python twin's wrap(f, before=handler)",
    "pure around": "the pure-Python twin's wrap(f, around=handler)",
    "inspect": "def + inspect.signature(f).bind(...) + handler",
}


def before_handler(values: Any) -> None:
    """A handler that looks at nothing: what is timed is the wrapping."""


def around_handler(proceed: Callable[[Any], Any], values: Any) -> Any:
    return proceed(values)


def form_handler(values: Any, form: Any) -> None:
    """A handler that asks how the call was made, and looks at nothing."""


def wrapped(f: Callable[..., Any]) -> Dict[str, Callable[..., Any]]:
    """``f`` wrapped each way available here, each wrapper seeing the values."""

    @functools.wraps(f)
    def pass_through(*args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs)

    out: Dict[str, Callable[..., Any]] = {"bare": f, "def": pass_through}
    try:
        import wrapt  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        pass
    else:
        @wrapt.decorator  # type: ignore[misc,untyped-decorator,unused-ignore]
        def wrapt_pass_through(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
            return wrapped(*args, **kwargs)

        out["wrapt"] = wrapt_pass_through(f)

    bind = posonly.binder(f)

    @functools.wraps(f)
    def recipe(*args: Any, **kwargs: Any) -> Any:
        values = bind.bind(args, kwargs)
        before_handler(values)
        return bind.apply(f, values)

    out["recipe"] = recipe
    out["before"] = posonly.wrap(f, before=before_handler)
    out["around"] = posonly.wrap(f, around=around_handler)
    out["form"] = posonly.wrap(f, before=form_handler, form=True)
    if _targets.compiled_module() is not None:
        out["pure before"] = _targets.pure_wrap(f, before=before_handler)
        out["pure around"] = _targets.pure_wrap(f, around=around_handler)
    signature = inspect.signature(f)

    @functools.wraps(f)
    def with_inspect(*args: Any, **kwargs: Any) -> Any:
        before_handler(signature.bind(*args, **kwargs))
        return f(*args, **kwargs)

    out["inspect"] = with_inspect
    return out


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 100


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [c.name for c in CASES]


def build(select: Optional[Any] = None) -> Table:
    table = Table("wrapping", "Wrapping: overhead per call (wrapped minus bare), each relative "
                  "to the pass-through def's; every handler is a no-op", COLUMNS,
                  reference="(column - bare) / (def - bare), row by row")
    for case in CASES:
        if select is not None and not select(table.key, case.name):
            table.filtered_out += 1
            continue
        f = case.function()
        args, kwargs = case.arguments()
        expected = f(*args, **kwargs)
        cells = {}
        for column, fn in wrapped(f).items():
            if fn(*args, **kwargs) != expected:
                raise AssertionError(f"{column} {case.label}: not the function's result")
            cells[column] = call_cell(case, column, "fn({call})", fn)
        table.add_row(case.name, cells, **case.info())
        for column, timed in cells.items():
            if column not in ("bare", "def"):
                table.add_ratio(case.name, column,
                                Overhead(timed, cells["def"], cells["bare"]))
    return table


def section(table: Table) -> Dict[str, Any]:
    return table.section()


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    columns = [c for c in section["columns"] if c not in ("bare", "def")]
    rows = section["rows"]
    signatures, calls = grid.rows(section, "signature", "call")
    labels = [("signature", grid.with_geomean(signatures, section, True)),
              ("call", grid.with_geomean(calls, section, False))]
    values = [
        ("bare ns", grid.with_geomean([f"{row['cells']['bare']['value']:.1f}" for row in rows],
                                  section, False)),
        ("def ns", grid.with_geomean([f"{row['cells']['def']['value'] - row['cells']['bare']['value']:.1f}"
                                  for row in rows], section, False)),
    ]
    for c in columns:
        cells = [grid.ratio(row["ratios"].get(c), 0) for row in rows]
        if section["geomean"]:
            cells.append(grid.ratio(section["geomean"].get(c), 0))
        values.append((c, cells))
    values.append(("+-", grid.with_geomean([grid.pct(grid.row_spread(row)) for row in rows], section, False)))
    lines = grid.title(section, width) + grid.lines(labels, values, width)
    return lines + grid.legend(section["columns"].items(), width)
