"""One worker process of the bench: measures one table and writes its cells'
samples as JSON on stdout.  ``python -m posonly.bench.worker`` reads its
request (table, filter, settings, seed) as JSON on stdin; the bench starts
it, the user does not."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any, Dict, Optional

from .runner import Progress, Settings, measure
from .suites import SUITES, selector


def measure_table(key: str, select: Any, settings: Settings, seed: int,
                  progress: bool, place: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    table = SUITES[key].build(selector(select))
    measured = measure(table, settings, Progress(progress, place), seed=seed)
    return {
        "rounds": measured.rounds,
        "seconds": measured.seconds,
        "stopped": measured.stopped,
        "cells": [
            {"row": row, "column": column, "loops": cell.loops, "samples": cell.samples}
            for (row, column), cell in table.cells.items()
        ],
    }


def main() -> int:
    request = json.load(sys.stdin)
    settings = Settings(**request["settings"])
    out = measure_table(request["table"], request["select"], settings, request["seed"],
                        request["progress"], request.get("place"))
    json.dump(out, sys.stdout)
    return 0


def request(key: str, select: Any, settings: Settings, seed: int, progress: bool,
            place: Optional[Dict[str, Any]] = None) -> str:
    """The JSON a worker reads: ``place`` is where its rounds fall in the
    whole run, for the progress line (see ``runner.Progress``)."""
    return json.dumps({"table": key, "select": select, "settings": dataclasses.asdict(settings),
                       "seed": seed, "progress": progress, "place": place or {}})


if __name__ == "__main__":
    sys.exit(main())
