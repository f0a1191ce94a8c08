"""Tables: the cells of one suite arranged in rows and columns, the ratios
that are the table's answers, and what a table's JSON section holds.

Every section has the same shape, whatever the suite::

    {"title", "unit", "columns": {name: description}, "reference": text,
     "rounds", "seconds", "stopped",
     "rows": [{"name", "signature", "call",
               "cells": {column: {"value", "spread", "noisy", "loops",
                                  "ops_per_loop", "timed", "samples"}},
               "ratios": {column: {"value", "spread", "noisy"}}}],
     "geomean": {column: {"value", "spread", "noisy"}}, "notes": [...]}

A cell's ``value`` is its best sample in ``unit``, its ``spread`` how far
the tenth percentile of its samples lies above the best, relative, and
``samples`` every sample in the order taken, one per round.

A ratio is measured round by round: each round gives one ratio from that
round's samples of the cells involved (taken moments apart, under the same
load), and the ratio's ``value`` is the median over the rounds.  Its
``spread`` is the half-width of the 95 % confidence interval of that median
(from the order statistics of the per-round ratios), relative: 0.02 means
the ratio is known within +-2 %; when the samples come from several worker
processes, the spread is at least half the range of the processes' own
medians.  (An overhead ratio is made of two such
ratios to the bare call; the creation table divides best samples, see
:class:`BestRatio`.)  A geomean is over the rows' ratios, its spread the mean
of theirs.  ``noisy`` is true when the spread is
wider than the bench trusts (``runner.NOISY``).
"""

from __future__ import annotations

import contextlib
import math
from typing import Any, Callable, ContextManager, Dict, List, Optional, Sequence, Tuple

from .runner import NOISY, Cell, Measured, geomean, spread

Number = Dict[str, Any]


def number(value: float, spread: float) -> Number:
    """A value with its relative spread, flagged when too wide to trust."""
    finite = math.isfinite(spread)
    return {
        "value": round(value, 4) if math.isfinite(value) else None,
        "spread": round(spread, 4) if finite else None,
        "noisy": (not finite) or spread > NOISY or not math.isfinite(value),
    }


def median_interval(values: Sequence[float]) -> Tuple[float, float]:
    """The median of ``values`` and the half-width of its 95 % confidence
    interval relative to it (distribution-free: order statistics)."""
    ordered = sorted(v for v in values if math.isfinite(v))
    n = len(ordered)
    if n == 0:
        return float("nan"), float("inf")
    mid = n // 2
    median = ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    if n < 3 or median <= 0:
        return median, float("inf")
    k = int(math.floor(n / 2 - 0.98 * math.sqrt(n)))
    if k < 0:
        return median, float("inf")
    low, high = ordered[k], ordered[n - 1 - k]
    return median, (high - low) / (2 * median)


def parts(values: Sequence[float], counts: Sequence[int]) -> List[Sequence[float]]:
    """``values`` cut into consecutive runs of ``counts`` (one per worker
    process), or into thirds when the samples come from one process."""
    if len(counts) >= 2 and sum(counts) == len(values):
        out: List[Sequence[float]] = []
        start = 0
        for n in counts:
            out.append(values[start:start + n])
            start += n
        return [p for p in out if p]
    size = len(values) // 3
    return [values[i * size:(i + 1) * size] for i in range(3)] if size else []


def interval(values: Sequence[float], counts: Sequence[int]) -> Tuple[float, float]:
    """The median of per-round values and its spread: the wider of the 95 %
    interval of the median and half the range of the medians of each worker
    process's rounds (relative), so that what moves from process to process
    counts as well as what moves from round to round."""
    median, spread = median_interval(values)
    pieces = [median_interval(p)[0] for p in parts(values, counts)]
    pieces = [m for m in pieces if math.isfinite(m)]
    if len(counts) >= 2 and len(pieces) >= 2 and median > 0:
        spread = max(spread, (max(pieces) - min(pieces)) / (2 * median))
    return median, spread


class Ratio:
    """A ratio between cells, measured round by round: the median over the
    rounds of ``top / bottom`` from the same round's samples."""

    def __init__(self, top: Cell, bottom: Cell) -> None:
        self.cells: Tuple[Cell, ...] = (top, bottom)

    def rounds(self) -> List[float]:
        top, bottom = self.cells
        return [a / b for a, b in zip(top.samples, bottom.samples)]

    def counts(self) -> List[int]:
        return list(self.cells[0].process_rounds)

    def estimate(self) -> Tuple[float, float]:
        return interval(self.rounds(), self.counts())


class Overhead(Ratio):
    """(cell - bare) / (base - bare): an overhead relative to another, from
    the cell's and the base's ratios to the bare call, each measured round by
    round (so that each compares samples taken moments apart)."""

    def __init__(self, cell: Cell, base: Cell, bare: Cell) -> None:
        self.cells = (cell, base, bare)

    def estimate(self) -> Tuple[float, float]:
        cell, base, bare = self.cells
        top = interval([a / b for a, b in zip(cell.samples, bare.samples)], self.counts())
        bottom = interval([a / b for a, b in zip(base.samples, bare.samples)], self.counts())
        if not bottom[0] > 1:
            return float("nan"), float("inf")
        # Each ratio's interval, carried over to the ratio minus one.
        spread = (top[1] * top[0] / max(abs(top[0] - 1), 1e-9)
                  + bottom[1] * bottom[0] / (bottom[0] - 1))
        return (top[0] - 1) / (bottom[0] - 1), spread


class BestRatio(Ratio):
    """top's best over bottom's best.  For cells whose samples are mostly
    disturbed (making objects allocates, and the allocator's state differs
    from sample to sample), the best is the one sample that is not.  Its
    spread is how far the ratio of bests moves between worker processes (or
    between the first, middle and last third of the rounds): half the range,
    relative."""

    def estimate(self) -> Tuple[float, float]:
        top, bottom = self.cells
        if not top.samples or not bottom.samples:
            return float("nan"), float("inf")
        value = top.best / bottom.best
        pieces = [min(a) / min(b) for a, b in zip(parts(top.samples, self.counts()),
                                                   parts(bottom.samples, self.counts()))]
        if len(pieces) < 2:
            return value, float("inf")
        return value, (max(pieces) - min(pieces)) / (2 * value)


def combined(numbers: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    """The geomean of estimates and its spread: the mean of theirs (what
    moves one row of a table moves the others with it, so the errors are
    not taken as independent)."""
    if not numbers:
        return float("nan"), float("inf")
    value = geomean([v for v, _ in numbers])
    spread = sum(s for _, s in numbers) / len(numbers)
    return value, spread


class Table:
    """A suite's rows, columns, cells and ratios, before and after measuring."""

    def __init__(self, key: str, title: str, columns: Dict[str, str], unit: str = "ns",
                 reference: str = "", grouped: bool = True) -> None:
        self.key = key
        self.title = title
        self.columns = dict(columns)
        self.unit = unit
        self.reference = reference
        #: True: a round samples one row's cells together, so that a ratio
        #: within a row compares samples taken moments apart.
        self.grouped = grouped
        self.rows: List[Dict[str, Any]] = []
        self.cells: Dict[Tuple[str, str], Cell] = {}
        self.ratios: Dict[str, Dict[str, Ratio]] = {}
        self.measured = Measured()
        self.notes: List[str] = []
        self.selected = True
        self.filtered_out = 0
        #: What the table's cells are measured inside, from calibration to
        #: the last round (the patch, for a table with patched cells).
        self.around: Callable[[], ContextManager[Any]] = contextlib.nullcontext

    def add_row(self, name: str, cells: Dict[str, Cell], **info: Any) -> None:
        self.rows.append(dict(name=name, **info))
        self.ratios[name] = {}
        for column, cell in cells.items():
            if column not in self.columns:
                raise KeyError(f"{self.key}: unknown column {column!r}")
            self.cells[(name, column)] = cell

    def add_ratio(self, row: str, column: str, ratio: Ratio) -> None:
        self.ratios[row][column] = ratio

    def cell(self, row: str, column: str) -> Optional[Cell]:
        return self.cells.get((row, column))

    def groups(self) -> List[List[Cell]]:
        """What a round samples together: one row's cells, or everything."""
        if not self.grouped:
            return [list(self.cells.values())] if self.cells else []
        return [[c for (r, _), c in self.cells.items() if r == row["name"]] for row in self.rows]

    def present_columns(self) -> List[str]:
        return [c for c in self.columns if any((r["name"], c) in self.cells for r in self.rows)]

    def ratio_columns(self) -> List[str]:
        columns: List[str] = []
        for row in self.rows:
            for column in self.ratios[row["name"]]:
                if column not in columns:
                    columns.append(column)
        return columns

    def geomean(self, column: str) -> Tuple[float, float]:
        """The geomean over the rows of the column's ratios, with its spread."""
        return combined([self.ratios[r["name"]][column].estimate() for r in self.rows
                         if column in self.ratios[r["name"]]])

    def unstable(self, limit: float) -> int:
        """How many ratios and geomeans are not yet known within ``limit``."""
        count = 0
        for row in self.rows:
            for ratio in self.ratios[row["name"]].values():
                count += not ratio.estimate()[1] <= limit
        if len(self.rows) > 1:
            for column in self.ratio_columns():
                count += not self.geomean(column)[1] <= limit
        return count

    def section(self, extra_rows: Optional[Dict[str, Dict[str, Any]]] = None) -> Dict[str, Any]:
        """The JSON section: every cell, every ratio, the geomeans."""
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
                    "loops": (cell.loops_per_process[0] if cell.loops_per_process
                              else cell.loops),
                    "loops_per_process": cell.loops_per_process or [cell.loops],
                    "samples_per_process": cell.process_rounds or [len(cell.samples)],
                    "ops_per_loop": cell.ops,
                    "timed": cell.timed,
                    "samples": [round(s, 3) for s in cell.samples],
                }
            entry = dict(row)
            entry["cells"] = cells
            entry["ratios"] = {column: number(*ratio.estimate())
                               for column, ratio in self.ratios[name].items()}
            if extra_rows and name in extra_rows:
                entry.update(extra_rows[name])
            rows.append(entry)
        geomeans = {}
        if len(self.rows) > 1:
            for column in self.ratio_columns():
                geomeans[column] = number(*self.geomean(column))
        return {
            "title": self.title,
            "selected": self.selected,
            "unit": self.unit,
            "columns": {c: d for c, d in self.columns.items()
                        if c in columns or c in self.ratio_columns()},
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


__all__ = ["BestRatio", "Overhead", "Ratio", "Table", "combined", "median_interval", "number",
           "spread"]
