"""The built-in benchmark behind ``python -m posonly bench``.

- :mod:`.runner` measures: cells, interleaved rounds, adaptive stopping,
  spread;
- one module per suite, each building a table of cells and its JSON section:
  :mod:`.binding`, :mod:`.pep570`, :mod:`.wrapping`, :mod:`.creation`,
  :mod:`.clients`;
- :mod:`.report` prints the tables, writes JSON, pyperf's JSON and the plot,
  and compares two runs.
"""

from __future__ import annotations

import datetime
import json
import platform
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import posonly

from . import binding, clients, creation, pep570, wrapping
from .runner import (FULL, QUICK, TINY, Measured, Progress, Settings, cpu_model, describe_build,
                     load_average, measure)

__all__ = ["FULL", "QUICK", "SCHEMA", "SUITES", "TINY", "Settings", "catalog", "check_options",
           "run", "selector"]

SCHEMA = "posonly-bench/2"
#: The suites, in the order of the report.
SUITES = {
    "binding": binding,
    "pep570": pep570,
    "wrapping": wrapping,
    "creation": creation,
    "clients": clients,
}
SETTINGS = {"full": FULL, "quick": QUICK, "tiny": TINY}


def catalog() -> List[Tuple[str, str]]:
    """Every (table, row) the suites have, without building anything."""
    rows: List[Tuple[str, str]] = [("binding", c.name) for c in binding.CASES]
    rows += [("pep570", case.name) for _, _, case in pep570.ROWS]
    rows += [("wrapping", c.name) for c in wrapping.CASES]
    rows += [("creation", name) for name, _ in creation.SIGNATURES]
    rows += [("clients", case.name) for _, case in clients.ROWS]
    return rows


def selector(text: Optional[str]) -> Optional[Callable[[str, str], bool]]:
    """``-k TEXT``: the rows whose "table: row" contains TEXT (any case)."""
    if text is None:
        return None
    needle = text.lower()
    return lambda table, row: needle in f"{table}: {row}".lower()


def check_options(select: Optional[str], tables: Optional[Sequence[str]]) -> None:
    """Raise ValueError for options that would make the run measure nothing
    or something that does not exist; called before anything is timed."""
    chosen = list(SUITES) if tables is None else list(tables)
    unknown = [t for t in chosen if t not in SUITES]
    if unknown:
        raise ValueError(f"unknown table {', '.join(map(repr, unknown))}; "
                         f"the tables are {', '.join(SUITES)}")
    match = selector(select)
    if match is not None and not any(match(t, r) for t, r in catalog() if t in chosen):
        raise ValueError(f"no row matches -k {select!r} (in the tables {', '.join(chosen)})")


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


def _in_workers(key: str, table: Any, select: Optional[str], settings: Settings,
                progress: bool) -> Measured:
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
            input=worker.request(key, select, share, 570 + index, progress),
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
    chosen = list(SUITES) if tables is None else list(tables)
    match = selector(select)
    bar = Progress(progress)
    result: Dict[str, Any] = {"schema": SCHEMA, "meta": meta(settings, select, chosen)}
    started = time.perf_counter()
    try:
        for key, suite in SUITES.items():
            if key not in chosen:
                table = suite.build(lambda t, r: False)
                table.selected = False
                table.filtered_out = 0
                result[key] = suite.section(table)
                continue
            table = suite.build(match)
            if settings.processes and table.cells:
                bar.finish()
                table.measured = _in_workers(key, table, select, settings, progress)
            else:
                table.measured = measure(table, settings, bar)
            result[key] = suite.section(table)
    finally:
        bar.finish()
    result["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    result["meta"]["load_average_after"] = load_average()
    return result
