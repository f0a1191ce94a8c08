"""The migration table: what ``posonly.migrate`` adds to a call, in the
future form (no legacy form used: straight to the function) and in each
legacy form (bound to the legacy signature, warned, called in the future
form), against a ``functools.wraps`` pass-through ``def``, the same def
with one ``warnings.warn`` call (the floor of any decorator that warns:
what the warning itself costs is its ratio less 1) and a hand-written
deprecation decorator (``def wrapper(*args, **kwargs)`` that looks at the
call, warns and rewrites it).  Ratios are overheads (wrapped minus the bare
function's future-form call) over the pass-through def's; the cells run
with deprecation warnings ignored, as a library's users see them by
default."""

from __future__ import annotations

import contextlib
import functools
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import posonly

from . import _targets, grid
from .case import Case, call_cell
from .table import Overhead, Table

PARAMS = "a, b, /, c=None, *, d=0"
DECLARATION: Dict[str, Any] = {"positional_only": ("b",), "keyword_only": ("d",),
                               "renamed": {"old": "c"}, "removal": "3.0"}

#: (row, the call, the same call in the future form)
ROWS: List[Tuple[str, str, str]] = [
    ("future form, by position", "1, 2", "1, 2"),
    ("future form, keywords", "1, 2, c=3, d=4", "1, 2, c=3, d=4"),
    ("legacy: b by keyword", "1, b=2", "1, 2"),
    ("legacy: d by position", "1, 2, 3, 4", "1, 2, 3, d=4"),
    ("legacy: old name", "1, 2, old=3", "1, 2, c=3"),
]

COLUMNS: Dict[str, str] = {
    "bare": "the function itself, called in the future form",
    "def": "functools.wraps pass-through def (*args, **kwargs), future form",
    "def+warn": "the pass-through def calling warnings.warn once, future form: a warning's floor",
    "hand": "hand-written deprecation decorator (*args, **kwargs): checks, warns, rewrites",
    "migrate": "posonly.migrate(f, ...)",
    "pure migrate": "the pure-Python twin's migrate(f, ...)",
}


def hand_written(f: Callable[..., Any]) -> Callable[..., Any]:
    """What a library writes by hand for ``DECLARATION``: enough for the
    usual legacy calls, none of the interpreter's messages."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) < 2 and "b" in kwargs:
            warnings.warn("Passing keyword argument 'b' to f() is deprecated.",
                          DeprecationWarning, stacklevel=2)
            args += (kwargs.pop("b"),)
        if len(args) > 3:
            warnings.warn("Passing more than 3 positional arguments to f() is deprecated.",
                          DeprecationWarning, stacklevel=2)
            kwargs["d"] = args[3]
            args = args[:3]
        if "old" in kwargs:
            warnings.warn("Passing keyword argument 'old' to f() is deprecated.",
                          DeprecationWarning, stacklevel=2)
            kwargs["c"] = kwargs.pop("old")
        return f(*args, **kwargs)

    return wrapper


def warned(f: Callable[..., Any]) -> Callable[..., Any]:
    """The pass-through def with one warning: what any decorator that warns
    costs at least."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        warnings.warn("Passing keyword argument 'b' to f() is deprecated.",
                      DeprecationWarning, stacklevel=2)
        return f(*args, **kwargs)

    return wrapper


def _pure_migrate(f: Callable[..., Any], **declaration: Any) -> Any:
    from posonly._migrate import migrate

    return migrate(f, **declaration)


@contextlib.contextmanager
def _warnings_ignored() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 100


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [name for name, _, _ in ROWS]


def build(select: Optional[Any] = None) -> Table:
    table = Table("migration", "Migration: overhead per call over the bare function's "
                  "future-form call, relative to the pass-through def's", COLUMNS,
                  reference="(column - bare) / (def - bare), row by row")
    table.around = _warnings_ignored
    for name, call, future_call in ROWS:
        if select is not None and not select(table.key, name):
            table.filtered_out += 1
            continue
        case, future = Case(name, PARAMS, call), Case(name, PARAMS, future_call)
        f = case.function()

        @functools.wraps(f)
        def pass_through(*args: Any, **kwargs: Any) -> Any:
            return f(*args, **kwargs)

        legacy: Dict[str, Callable[..., Any]] = {
            "hand": hand_written(f), "migrate": posonly.migrate(f, **DECLARATION)}
        if _targets.compiled_module() is not None:
            legacy["pure migrate"] = _pure_migrate(f, **DECLARATION)
        args, kwargs = future.arguments()
        expected = f(*args, **kwargs)
        cells = {"bare": call_cell(future, "bare", "fn({call})", f),
                 "def": call_cell(future, "def", "fn({call})", pass_through),
                 "def+warn": call_cell(future, "def+warn", "fn({call})", warned(f))}
        legacy_args, legacy_kwargs = case.arguments()
        with _warnings_ignored():
            for column, fn in legacy.items():
                if fn(*legacy_args, **legacy_kwargs) != expected:
                    raise AssertionError(f"{column} {case.label}: not the function's result")
                cells[column] = call_cell(case, column, "fn({call})", fn)
        table.add_row(name, cells, signature=case.signature, call=f"f({call})",
                      future=f"f({future_call})")
        for column in ["def+warn", *legacy]:
            table.add_ratio(name, column, Overhead(cells[column], cells["def"], cells["bare"]))
    return table


def section(table: Table) -> Dict[str, Any]:
    return table.section()


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    columns = [c for c in section["columns"] if c not in ("bare", "def")]
    rows = section["rows"]
    labels = list(zip(("call", "future form"), grid.rows(section, "call", "future")))
    values = [
        ("bare ns", [f"{row['cells']['bare']['value']:.1f}" for row in rows]),
        ("def ns", [f"{row['cells']['def']['value'] - row['cells']['bare']['value']:.1f}"
                    for row in rows]),
    ]
    values += [(c, [grid.ratio(row["ratios"].get(c), 0) for row in rows]) for c in columns]
    values.append(("+-", [grid.pct(grid.row_spread(row)) for row in rows]))
    lines = grid.title(section, width) + grid.lines(labels, values, width)
    return lines + grid.legend(section["columns"].items(), width)
