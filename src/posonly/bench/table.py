"""Tables: the cells of one suite arranged in rows and columns, and what a
table's JSON section holds.

Every section has the same shape, whatever the suite::

    {"title", "unit", "columns": {name: description}, "reference": text,
     "rounds", "seconds", "stopped",
     "rows": [{"name", "signature", "call",
               "cells": {column: {"value", "spread", "noisy", "loops",
                                  "ops_per_loop", "timed", "samples"}},
               "ratios": {column: {"value", "spread", "noisy"}}}],
     "geomean": {column: {"value", "spread", "noisy"}}, "notes": [...]}

``value`` is in ``unit`` (a cell's best sample), ``spread`` is relative (0.03
is 3 %), ``samples`` are every sample in ``unit``, in the order taken.  A
ratio's spread is the sum of its two cells' spreads (a ratio of overheads:
the spreads of the differences), a geomean's the mean of its ratios'.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .runner import NOISY, Cell, Measured, geomean

Number = Dict[str, Any]


def number(value: float, spread: float) -> Number:
    """A value with its relative spread, flagged when too wide to trust."""
    finite = math.isfinite(spread)
    return {
        "value": round(value, 4) if math.isfinite(value) else None,
        "spread": round(spread, 4) if finite else None,
        "noisy": (not finite) or spread > NOISY,
    }


class Table:
    """A suite's rows, columns and cells, before and after measuring."""

    def __init__(self, key: str, title: str, columns: Dict[str, str], unit: str = "ns",
                 reference: str = "") -> None:
        self.key = key
        self.title = title
        self.columns = dict(columns)
        self.unit = unit
        self.reference = reference
        self.rows: List[Dict[str, Any]] = []
        self.cells: Dict[Tuple[str, str], Cell] = {}
        self.measured = Measured()
        self.notes: List[str] = []
        self.selected = True
        self.filtered_out = 0

    def add_row(self, name: str, cells: Dict[str, Cell], **info: Any) -> None:
        self.rows.append(dict(name=name, **info))
        for column, cell in cells.items():
            if column not in self.columns:
                raise KeyError(f"{self.key}: unknown column {column!r}")
            self.cells[(name, column)] = cell

    def all_cells(self) -> List[Cell]:
        return list(self.cells.values())

    def cell(self, row: str, column: str) -> Optional[Cell]:
        return self.cells.get((row, column))

    def present_columns(self) -> List[str]:
        return [c for c in self.columns if any((r["name"], c) in self.cells for r in self.rows)]

    def section(self, ratios: Dict[str, Dict[str, Number]],
                extra_rows: Optional[Dict[str, Dict[str, Any]]] = None) -> Dict[str, Any]:
        """The JSON section: every cell, the ratios given per row, geomeans."""
        columns = self.present_columns()
        rows = []
        for row in self.rows:
            name = row["name"]
            cells = {}
            for column in columns:
                cell = self.cells.get((name, column))
                if cell is None or not cell.samples:
                    continue
                cells[column] = {
                    **number(cell.best, cell.spread),
                    "value": round(cell.best, 3),
                    "loops": cell.loops,
                    "ops_per_loop": cell.ops,
                    "timed": cell.timed,
                    "samples": [round(s, 3) for s in cell.samples],
                }
            entry = dict(row)
            entry["cells"] = cells
            entry["ratios"] = ratios.get(name, {})
            if extra_rows and name in extra_rows:
                entry.update(extra_rows[name])
            rows.append(entry)
        ratio_columns: List[str] = []
        for row in rows:
            for column in row["ratios"]:
                if column not in ratio_columns:
                    ratio_columns.append(column)
        geomeans = {}
        for column in ratio_columns:
            found = [r["ratios"][column] for r in rows if column in r["ratios"]]
            values = [n["value"] for n in found if n["value"] is not None]
            spreads = [n["spread"] if n["spread"] is not None else float("inf") for n in found]
            if values:
                geomeans[column] = number(geomean(values), sum(spreads) / len(spreads))
        return {
            "title": self.title,
            "selected": self.selected,
            "unit": self.unit,
            "columns": {c: self.columns[c] for c in columns},
            "reference": self.reference,
            "rounds": self.measured.rounds,
            "seconds": round(self.measured.seconds, 2),
            "stopped": self.measured.stopped,
            "rows_filtered_out": self.filtered_out,
            "rows": rows,
            "geomean": geomeans,
            "notes": list(self.notes),
            **self.measured.extra,
        }


def ratio(top: Optional[Cell], bottom: Optional[Cell]) -> Optional[Number]:
    """top / bottom, with the sum of the two spreads."""
    if top is None or bottom is None or not top.samples or not bottom.samples:
        return None
    return number(top.best / bottom.best, top.spread + bottom.spread)


def overhead_ratio(cell: Optional[Cell], base: Optional[Cell], bare: Optional[Cell]) -> Optional[Number]:
    """(cell - bare) / (base - bare): an overhead relative to another, with
    the spreads of the two differences."""
    if cell is None or base is None or bare is None:
        return None
    top = cell.best - bare.best
    bottom = base.best - bare.best
    if bottom <= 0:
        return number(float("nan"), float("inf"))
    err_top = (cell.best * cell.spread + bare.best * bare.spread) / max(abs(top), 1e-9)
    err_bottom = (base.best * base.spread + bare.best * bare.spread) / bottom
    return number(top / bottom, err_top + err_bottom)


def ratios_to(table: Table, reference: str, columns: Sequence[str]) -> Dict[str, Dict[str, Number]]:
    """Per row, each column over the row's ``reference`` column."""
    out: Dict[str, Dict[str, Number]] = {}
    for row in table.rows:
        name = row["name"]
        base = table.cell(name, reference)
        found = {}
        for column in columns:
            r = ratio(table.cell(name, column), base)
            if r is not None:
                found[column] = r
        out[name] = found
    return out
