"""The built-in benchmark behind ``python -m posonly bench``.

- :mod:`.runner` measures: cells, interleaved rounds, adaptive stopping,
  spread;
- :mod:`.suites` names the tables and chooses their rows (``--tables``,
  ``-k``); :mod:`.worker` measures one table in a process of its own;
- one module per table, each building its cells, its JSON section and its
  text, with one interface (:mod:`.suites` says which): :mod:`.binding`,
  :mod:`.pep570`, :mod:`.wrapping`, :mod:`.creation`, :mod:`.clients`,
  :mod:`.migration`; :mod:`.grid` lays their text out;
- :mod:`.report` prints the run, writes JSON, pyperf's JSON and the plot,
  and compares two runs.
"""

from __future__ import annotations

import datetime
import json
import platform
import sys
import time
from typing import Any, Dict, Optional, Sequence

import posonly

from .runner import (FULL, QUICK, TINY, Measured, Progress, Settings, cpu_model, describe_build,
                     load_average, measure)
from .suites import OPT_IN, SUITES, catalog, check_options, chosen_tables, selector

__all__ = ["FULL", "OPT_IN", "QUICK", "SCHEMA", "SUITES", "TINY", "Settings", "catalog",
           "check_options", "chosen_tables", "run", "selector"]

SCHEMA = "posonly-bench/2"
SETTINGS = {"full": FULL, "quick": QUICK, "tiny": TINY}


def meta(settings: Settings, select: Optional[str], tables: Sequence[str]) -> Dict[str, Any]:
    return {
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "version": sys.version,
        "executable": sys.executable,
        "build": describe_build(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": _cpu_count(),
        "load_average_before": load_average(),
        "posonly": posonly.__version__,
        "implementation": posonly.IMPLEMENTATION,
        "unit": "ns per operation (one call, one client call, or one object made)",
        "estimate": "best sample; spread = 10th percentile over best - 1",
        "settings": settings.as_dict(),
        "filter": select,
        "tables": list(tables),
        "gc": "disabled while timing",
    }


def _cpu_count() -> Optional[int]:
    import os

    return os.cpu_count()


class _Schedule:
    """Where a run stands, for the progress line: which table of how many,
    and about how long the run has left (each table to come expected to
    take its time limit, times how much longer than theirs the tables done
    so far took)."""

    def __init__(self, tables: int, settings: Settings) -> None:
        self.tables = tables
        self.settings = settings
        self.index = 0
        self.done_seconds = 0.0
        self.done_limits = 0.0

    def expected(self) -> float:
        """The time one table is expected to take."""
        stretch = self.done_seconds / self.done_limits if self.done_limits else 1.1
        return self.settings.table_seconds * max(stretch, 0.2)

    def place(self, worker: int, rounds_before: int) -> Dict[str, Any]:
        share = self.settings.share()
        workers_after = max(self.settings.processes, 1) - worker - 1
        scale = self.expected() / self.settings.table_seconds
        return {"table": self.index, "tables": self.tables, "rounds_before": rounds_before,
                "round_limit": self.settings.max_rounds,
                "seconds_after": (workers_after * share.table_seconds * scale
                                  + (self.tables - self.index) * self.expected())}

    def table_done(self, seconds: float) -> None:
        self.done_seconds += seconds
        self.done_limits += self.settings.table_seconds


def _in_workers(key: str, table: Any, select: Optional[str], settings: Settings,
                progress: bool, schedule: _Schedule) -> Measured:
    """Measure ``table`` in ``settings.processes`` fresh processes, one after
    the other, and pool their samples into its cells."""
    import subprocess

    from . import worker

    share = settings.share()
    out = Measured()
    stops = []
    for index in range(settings.processes):
        done = subprocess.run(
            [sys.executable, "-m", "posonly.bench.worker"],
            input=worker.request(key, select, share, 570 + index, progress,
                                 schedule.place(index, out.rounds)),
            stdout=subprocess.PIPE, text=True, check=True)
        part = json.loads(done.stdout)
        for entry in part["cells"]:
            cell = table.cell(entry["row"], entry["column"])
            if cell is None:
                raise RuntimeError(f"{key}: a worker measured an unknown cell {entry!r:.80}")
            cell.samples.extend(entry["samples"])
            cell.loops_per_process.append(entry["loops"])
            cell.process_rounds.append(len(entry["samples"]))
        out.rounds += part["rounds"]
        out.seconds += part["seconds"]
        stops.append(part["stopped"])
    out.stopped = ", ".join(stops)
    out.extra["processes"] = settings.processes
    return out


def run(settings: Settings = FULL, select: Optional[str] = None,
        tables: Optional[Sequence[str]] = None, progress: bool = True) -> Dict[str, Any]:
    """Build and measure the tables; return every number (what ``--json``
    writes).  Raises ValueError for a filter or table that does not exist."""
    check_options(select, tables)
    chosen = chosen_tables(select, tables)
    match = selector(select)
    result: Dict[str, Any] = {"schema": SCHEMA, "meta": meta(settings, select, chosen)}
    built = {key: suite.build(match if key in chosen else (lambda t, r: False))
             for key, suite in SUITES.items()}
    measured = [key for key in SUITES if key in chosen and built[key].cells]
    schedule = _Schedule(len(measured), settings)
    bar = Progress(progress, {"tables": len(measured)})
    started = time.perf_counter()
    try:
        for key, suite in SUITES.items():
            table = built[key]
            if key not in chosen:
                table.selected = False
                table.filtered_out = 0
                result[key] = suite.section(table)
                continue
            table_started = time.perf_counter()
            if key in measured:
                schedule.index += 1
            if settings.processes and table.cells:
                bar.finish()
                table.measured = _in_workers(key, table, select, settings, progress, schedule)
            else:
                bar.place = schedule.place(0, 0) if table.cells else {}
                table.measured = measure(table, settings, bar)
            result[key] = suite.section(table)
            if table.cells:
                schedule.table_done(time.perf_counter() - table_started)
    finally:
        bar.finish()
    result["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    result["meta"]["load_average_after"] = load_average()
    return result
