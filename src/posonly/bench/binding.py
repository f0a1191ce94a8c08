"""The binding table: every way of binding a call against the floor.

The floor is the interpreter's own binding of the same call: a plain ``def``
with the same signature whose body returns its locals as a tuple, called with
the same literal arguments.  Each column is a generated loop of the same
literal call (or of ``.bind(args, kwargs)``, ``.vectorcall(stack, kwnames)``),
so the floor pays no tuple or dict unpacking, and neither does the binder
called the same way.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Tuple

import posonly

from . import _targets, grid
from .case import Case, call_cell
from .runner import Cell, geomean
from .table import Ratio, Table

_TWENTY = ", ".join(["p0", "p1", "p2"] + [f"p{i}={i}" for i in range(3, 20)])

CASES: List[Case] = [
    Case("one positional-only", "a, /", "1"),
    Case("three by position", "a, b, c", "1, 2, 3"),
    Case("three, last by keyword", "a, b, c", "1, 2, c=3"),
    Case("mixed kinds", "a, b, /, c, d=4, *, e, g=7", "1, 2, 3, e=5"),
    Case("five by keyword", "a, b, c, d, e", "a=1, b=2, c=3, d=4, e=5"),
    Case("five by position", "a, b, c, d, e", "1, 2, 3, 4, 5"),
    Case("*args, **kwargs", "*args, **kwargs", "1, 2, x=3"),
    Case("twenty, three given", _TWENTY, "1, 2, 3"),
    Case("method-like", "self, x, /, *, flag=False", "1, 2"),
    Case("PEP 570 corner", "name, /, **kw", "1, name=2"),
    Case("keyword-only", "*, a, b=2", "a=1"),
    Case("defaults filled", "a, b=2, c=3", "1"),
]

# (column, statement, description) in the order of the table.  ``fn`` is the
# column's callable, ``{call}`` the case's literal arguments.
COLUMNS: List[Tuple[str, str, str]] = [
    ("floor", "fn({call})", "plain def, literal call"),
    ("c-floor", "fn({call})", "a C callable that builds the same tuple with no matching"),
    ("binder", "fn({call})", "binder(f)(...)"),
    ("bind", "fn.bind(args, kwargs)", "binder(f).bind(args, kwargs)"),
    ("vectorcall", "fn.vectorcall(stack, kwnames)", "binder(f).vectorcall(stack, kwnames)"),
    ("pure", "fn({call})", "the pure-Python twin's binder(f)(...)"),
    ("exec", "fn(*args, **kwargs)", "the plain def called as f(*args, **kwargs)"),
    ("drop-in", "fn.bind({call})", "posonly.signature(f).bind(...)"),
    ("patched", "fn.bind({call})", "inspect.signature(f).bind(...) after patch_inspect()"),
    ("inspect", "fn.bind({call})", "inspect.signature(f).bind(...)"),
    # A ratio only, timed by the two columns it divides.
    ("drop-in speedup", "", "inspect's time over the drop-in's, round by round: how many times "
     "faster posonly.signature(f).bind(...) is than inspect.signature(f).bind(...)"),
]
STATEMENTS = {column: statement for column, statement, _ in COLUMNS}
HEADS = {
    "floor": "floor", "c-floor": "C copy", "binder": "binder", "bind": ".bind",
    "vectorcall": ".vcall", "pure": "pure", "exec": "exec", "drop-in": "drop-in",
    "patched": "patched", "inspect": "inspect", "drop-in speedup": "d-in/ins",
}
BINDER_COLUMNS = ("binder", "bind", "vectorcall", "pure")


def callables(case: Case) -> Dict[str, Any]:
    """The callable behind each column available here."""
    f = case.function()
    out: Dict[str, Any] = {"floor": f}
    floor = _targets.tuple_floor()
    if floor is not None:
        args, kwargs = case.arguments()
        out["c-floor"] = floor(f(*args, **kwargs))
    b = posonly.binder(f)
    out.update(binder=b, bind=b, vectorcall=b)
    if _targets.compiled_module() is not None:
        out["pure"] = _targets.pure_binder(f)
    out["exec"] = f
    out["drop-in"] = posonly.signature(f)
    out["patched"] = inspect.signature(f)
    out["inspect"] = _targets.plain_inspect.signature(f)  # binds as inspect's, patch or not
    return out


def check(case: Case, column: str, fn: Any) -> None:
    """A binder column must give the floor's locals."""
    if column not in BINDER_COLUMNS:
        return
    args, kwargs = case.arguments()
    expected = case.function()(*args, **kwargs)
    got = {
        "binder": lambda: fn(*args, **kwargs),
        "pure": lambda: fn(*args, **kwargs),
        "bind": lambda: fn.bind(args, kwargs),
        "vectorcall": lambda: fn.vectorcall(args + tuple(kwargs.values()), tuple(kwargs) or None),
    }[column]()
    if got != expected:
        raise AssertionError(f"{column} {case.label}: {got!r} != {expected!r}")


def cell(case: Case, column: str, fn: Any) -> Cell:
    check(case, column, fn)
    if column == "patched":
        return call_cell(case, column, STATEMENTS[column], fn, setup=_targets.require_patch,
                         timed="inspect.Signature.bind, patched")
    return call_cell(case, column, STATEMENTS[column], fn)


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 100


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [c.name for c in CASES]


def build(select: Optional[Any] = None) -> Table:
    table = Table("binding", "Binding: ns per call, each way relative to the floor",
                  {c: d for c, _, d in COLUMNS},
                  reference="each column's time over the floor's (a plain def, literal call), "
                  "round by round")
    table.around = _targets.patched  # for the patched column (see _targets)
    for case in CASES:
        if select is not None and not select(table.key, case.name):
            table.filtered_out += 1
            continue
        fns = callables(case)
        cells = {column: cell(case, column, fns[column]) for column, _, _ in COLUMNS if column in fns}
        table.add_row(case.name, cells, **case.info())
        for column, timed in cells.items():
            if column != "floor":
                table.add_ratio(case.name, column, Ratio(timed, cells["floor"]))
        if "drop-in" in cells and "inspect" in cells:
            table.add_ratio(case.name, "drop-in speedup", Ratio(cells["inspect"], cells["drop-in"]))
    return table


def section(table: Table) -> Dict[str, Any]:
    out = table.section()
    # Over the cases whose locals hold no *args or **kwargs container: the C
    # copy makes none, so it is the same tuple only there.
    plain = [r for r in out["rows"] if "*" not in r["signature"].replace("*,", "")
             and "c-floor" in r["ratios"] and "binder" in r["ratios"]]
    if plain:
        out["binder_vs_c_floor"] = round(geomean(
            [r["ratios"]["binder"]["value"] / r["ratios"]["c-floor"]["value"] for r in plain]), 4)
    for column in ("binder", "drop-in", "patched"):
        pairs = [r for r in out["rows"] if column in r["ratios"] and "inspect" in r["ratios"]]
        if pairs:
            out[f"{column}_vs_inspect"] = round(geomean(
                [r["ratios"]["inspect"]["value"] / r["ratios"][column]["value"] for r in pairs]), 2)
    return out


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    columns = [c for c in section["columns"] if c != "floor"]
    rows = section["rows"]
    signatures, calls = grid.rows(section, "signature", "call")
    labels = [("signature", grid.with_geomean(signatures, section, True)),
              ("call", grid.with_geomean(calls, section, False))]
    values = [("floor ns", grid.with_geomean(
        [f"{row['cells']['floor']['value']:.1f}" for row in rows], section, False))]
    for c in columns:
        cells = [grid.ratio(row["ratios"].get(c), 0) for row in rows]
        if section["geomean"]:
            cells.append(grid.ratio(section["geomean"].get(c), 0))
        values.append((HEADS[c], cells))
    values.append(("+-", grid.with_geomean([grid.pct(grid.row_spread(row)) for row in rows], section, False)))
    lines = grid.title(section, width) + grid.lines(labels, values, width)
    lines += grid.legend(((HEADS[c], t) for c, t in section["columns"].items()), width)
    if "binder_vs_c_floor" in section:
        lines += grid.wrap_text(f"binder(f)(...) costs {section['binder_vs_c_floor']:.2f}x what the C copy "
                       "does (geomean over the cases without *args or **kwargs)", width)
    for column, title in (("binder", "binder(f)(...)"),
                          ("drop-in", "posonly.signature(f).bind(...)"),
                          ("patched", "inspect's bind after patch_inspect()")):
        if f"{column}_vs_inspect" in section:
            lines += grid.wrap_text(f"{title} is {section[f'{column}_vs_inspect']:.1f}x faster than "
                           "inspect.Signature.bind (geomean over the rows)", width)
    return lines
