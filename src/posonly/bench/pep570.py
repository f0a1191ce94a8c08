"""PEP 570's question: what a call costs when its parameters are
positional-only, positional-or-keyword or keyword-only, passed by position or
by keyword.  All rows are one interleaved table, so each row's ratio to the
first is taken under the same conditions."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from . import binding, grid
from .case import Case
from .table import Ratio, Table, number

ROWS: List[Tuple[str, str, Case]] = [
    ("positional-only", "by position", Case("positional-only by position", "a, b, c, /", "1, 2, 3")),
    ("positional-or-keyword", "by position",
     Case("positional-or-keyword by position", "a, b, c", "1, 2, 3")),
    ("positional-or-keyword", "by keyword",
     Case("positional-or-keyword by keyword", "a, b, c", "a=1, b=2, c=3")),
    ("keyword-only", "by keyword", Case("keyword-only by keyword", "*, a, b, c", "a=1, b=2, c=3")),
]
COLUMNS = {
    "floor": "plain def, literal call",
    "binder": "binder(f)(...)",
    "bind": "binder(f).bind(args, kwargs)",
    "pure": "the pure-Python twin's binder(f)(...)",
}
HEADS = {"floor": "plain def", "binder": "binder", "bind": ".bind", "pure": "pure"}


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 100


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [case.name for _, _, case in ROWS]


def build(select: Optional[Any] = None) -> Table:
    table = Table("pep570", "PEP 570: the cost of a call by parameter kind, ns per call "
                  "(each column relative to its first row)", COLUMNS,
                  reference="each row's time over the first row's, column by column",
                  grouped=False)
    chosen = [r for r in ROWS if select is None or select(table.key, r[2].name)]
    if chosen and chosen[0] is not ROWS[0]:
        chosen.insert(0, ROWS[0])  # the reference row of the ratios
    table.filtered_out = len(ROWS) - len(chosen)
    for kind, passing, case in chosen:
        fns = binding.callables(case)
        table.add_row(case.name, {c: binding.cell(case, c, fns[c]) for c in COLUMNS if c in fns},
                      parameters=kind, passed=passing, **case.info())
    if table.rows:
        first = table.rows[0]["name"]
        for row in table.rows:
            for column in COLUMNS:
                top, bottom = table.cell(row["name"], column), table.cell(first, column)
                if top is not None and bottom is not None:
                    table.add_ratio(row["name"], column, Ratio(top, bottom))
    return table


def section(table: Table) -> Dict[str, Any]:
    out = table.section()
    out["geomean"] = {}  # a geomean over rows of ratios to the first row means nothing
    pos, kw = "positional-or-keyword by position", "positional-or-keyword by keyword"
    headline = {}
    for column in COLUMNS:
        a, b = table.cell(kw, column), table.cell(pos, column)
        if a is not None and b is not None:
            headline[column] = number(*Ratio(a, b).estimate())
    if headline:
        out["keyword_over_position"] = headline
    return out


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    rows = section["rows"]
    labels = list(zip(("parameters", "passed", "call"),
                      grid.rows(section, "parameters", "passed", "call")))
    values = []
    for c in section["columns"]:
        cells = []
        for row in rows:
            cell, r = row["cells"].get(c), row["ratios"].get(c)
            if cell is None:
                cells.append("- ")
                continue
            spread = None if r is None else r["spread"]
            cells.append(f"{cell['value']:.1f} ns" + grid.ratio(r, 7).replace("x", "")
                         + f" +-{grid.pct(spread)}")
        values.append((HEADS[c], cells))
    lines = grid.title(section, width) + grid.lines(labels, values, width)
    headline = section.get("keyword_over_position")
    if headline:
        lines += grid.wrap_text("by keyword / by position, positional-or-keyword parameters: " + ", ".join(
            f"{HEADS[c]} {grid.ratio(n, 0).strip()} (+-{grid.pct(n['spread']).strip()})"
            for c, n in headline.items()), width)
    return lines
