"""The measuring part of the bench: cells, interleaved rounds, statistics.

A *cell* is one thing timed (one column of one row of a table).  A sample of
a cell runs its operation ``loops`` times in a generated loop and records the
time per operation.  A *table* is measured round by round: every round takes
one sample of every cell, in a shuffled order, so that whatever else the
machine is doing falls on all cells alike.  Rounds continue until every
ratio of the table is stable, or the table's time limit is reached.

A cell's own number is its best (smallest) sample, and its spread how far
the tenth percentile of its samples lies above the best.  The answers of a
table are ratios, each measured round by round from samples taken moments
apart and summarised by their median and its confidence interval (see
:mod:`.table`); a ratio whose interval stays wide is flagged as noisy, and the
report does not print it as a clean number.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import random
import sys
import time
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

#: A cell whose spread is wider than this is flagged as noisy.
NOISY = 0.05
#: Operations per loop iteration in generated call loops: the loop's own
#: cost is spread over this many operations.
UNROLL = 10


@dataclass(frozen=True)
class Settings:
    """How long and how often to sample.

    ``sample_ns`` is the target duration of one sample, ``min_rounds`` and
    ``max_rounds`` bound the rounds of a table, ``table_seconds`` is each
    table's time limit, ``stable`` the spread (half-width of a ratio's 95 %
    confidence interval, relative) under which every ratio of a table must
    be for the table to stop early; it is checked every ``check_every``
    rounds.  Before its calibration, each cell is run until it has performed
    ``warmup_ops`` operations or for ``warmup_seconds``, whichever comes
    first: a JIT compiles only what it has seen run (PyPy traces a loop after
    about a thousand iterations), so that the calibration, and every sample,
    time what the compiled code does.  ``processes`` > 0 measures each table
    in that many fresh processes, one after the other, each taking its share
    of the rounds and of the time, and pools their samples: a process's own
    state (its hash seed, where its objects lie in memory, what earlier
    tables left behind) then weighs on no table's answer more than its share.
    """

    name: str
    sample_ns: float
    min_rounds: int
    max_rounds: int
    table_seconds: float
    stable: float = 0.015
    check_every: int = 5
    processes: int = 0
    warmup_ops: int = 3000
    warmup_seconds: float = 0.3

    def as_dict(self) -> Dict[str, Any]:
        return {
            "name": self.name, "sample_ns": self.sample_ns, "min_rounds": self.min_rounds,
            "max_rounds": self.max_rounds, "table_seconds": self.table_seconds,
            "stable_spread": self.stable, "check_every": self.check_every,
            "processes": self.processes, "warmup_ops": self.warmup_ops,
            "warmup_seconds": self.warmup_seconds,
            "noisy_spread": NOISY,
        }

    def share(self) -> "Settings":
        """What one of ``processes`` worker processes does."""
        n = max(1, self.processes)
        return dataclasses.replace(
            self, min_rounds=max(3, self.min_rounds // n), max_rounds=max(3, self.max_rounds // n),
            table_seconds=self.table_seconds / n, processes=0)


FULL = Settings("full", sample_ns=1.0e6, min_rounds=80, max_rounds=2000, table_seconds=30.0,
                processes=4)
QUICK = Settings("quick", sample_ns=5.0e5, min_rounds=30, max_rounds=600, table_seconds=7.0,
                 processes=3, warmup_seconds=0.15)
#: For the test suite: a handful of tiny samples (numbers meaningless).
TINY = Settings("tiny", sample_ns=2.0e4, min_rounds=3, max_rounds=3, table_seconds=0.5,
                check_every=1, processes=1, warmup_ops=0)



def _clock() -> int:
    return time.perf_counter_ns()


class Cell:
    """One timed operation and its samples (ns per operation).

    ``run(n)`` performs the operation ``n`` times and returns the elapsed
    nanoseconds.  ``setup(n)`` and ``teardown()``, when given, run around each
    sample, outside the timed region (a check that the patch is on, a batch of
    fresh inputs made and dropped).  ``ops`` is the number of operations per
    unit of ``n`` (an unrolled loop makes several per iteration).
    """

    def __init__(self, row: str, column: str, run: Callable[[int], int], *, ops: int = 1,
                 setup: Optional[Callable[[int], None]] = None,
                 teardown: Optional[Callable[[], None]] = None,
                 warmup: bool = True, timed: str = "") -> None:
        self.row = row
        self.column = column
        self.run = run
        self.ops = ops
        self.setup = setup
        self.teardown = teardown
        self.warmup = warmup
        self.timed = timed
        self.loops = 1
        self.samples: List[float] = []
        #: The loops per sample each worker process calibrated, when the
        #: samples come from workers.
        self.loops_per_process: List[int] = []
        #: How many of the samples each worker process took, in order.
        self.process_rounds: List[int] = []

    def measure(self, n: int) -> float:
        """One sample: ns per operation over ``n`` loops."""
        if self.setup is not None:
            self.setup(n + (1 if self.warmup else 0))
        try:
            if self.warmup:
                self.run(1)
            elapsed = self.run(n)
        finally:
            if self.teardown is not None:
                self.teardown()
        return elapsed / (n * self.ops)

    def warm_up(self, ops: int, seconds: float) -> None:
        """Perform the operation ``ops`` times, or for ``seconds`` if that
        comes first, in samples of doubling length."""
        done, n = 0, 1
        deadline = time.perf_counter() + seconds
        while done < ops and time.perf_counter() < deadline:
            self.measure(n)
            done += n * self.ops
            n *= 2

    def calibrate(self, sample_ns: float) -> None:
        """Choose the loops per sample that make a sample last ``sample_ns``.
        The loops that first take an eighth of that are timed three times
        and the fastest taken: one slow sample (a page fault, another
        process) would otherwise make every sample of the cell short."""
        n = 1
        while True:
            per_op = self.measure(n)
            elapsed = per_op * n * self.ops
            if elapsed >= sample_ns / 8 or n >= 1 << 22:
                elapsed = min(elapsed, *(self.measure(n) * n * self.ops for _ in range(2)))
                self.loops = max(1, int(n * sample_ns / max(elapsed, 1.0)))
                return
            n *= 4

    def sample(self) -> None:
        self.samples.append(self.measure(self.loops))

    # -- statistics ----------------------------------------------------------

    @property
    def best(self) -> float:
        return estimate(self.samples)

    @property
    def spread(self) -> float:
        return spread(self.samples)


def estimate(samples: Sequence[float]) -> float:
    """A cell's estimate: its best sample."""
    return min(samples)


def spread(samples: Sequence[float]) -> float:
    """How far the tenth percentile of the samples lies above the best one,
    relative to it (at least the second-best sample is used)."""
    ordered = sorted(samples)
    if len(ordered) < 2:
        return float("inf")
    k = max(2, math.ceil(0.1 * len(ordered))) - 1
    k = min(k, len(ordered) - 1)
    return ordered[k] / ordered[0] - 1.0


def geomean(values: Sequence[float]) -> float:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


class Progress:
    """A progress line on stderr: "table k/n (Title) · round r/R · about N s
    left", rewritten in place on a terminal (carriage return, cut to its
    width), a plain line every few seconds otherwise.

    ``place`` says where a worker process's rounds fall in the whole run:
    ``table`` and ``tables`` (k of n), ``rounds_before`` (the table's rounds
    that earlier workers took), ``round_limit`` (the table's, all workers
    together) and ``seconds_after`` (the run's time expected after this
    worker's share).  Without it, the line speaks of this table alone."""

    def __init__(self, enabled: bool, place: Optional[Dict[str, Any]] = None) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.place = dict(place or {})
        encoding = getattr(sys.stderr, "encoding", None) or "ascii"
        try:
            "\u00b7".encode(encoding)
        except (LookupError, UnicodeEncodeError):
            self.separator = " - "
        else:
            self.separator = " \u00b7 "

    def rounds(self, title: str, done: int, elapsed: float, settings: "Settings",
               force: bool = False) -> None:
        """Where a table's measuring stands: ``done`` rounds after
        ``elapsed`` seconds under ``settings``."""
        if not self.enabled:
            return
        place = self.place
        where = title
        if place.get("tables"):
            where = f"table {place['table']}/{place['tables']} ({title})"
        rounds = place.get("rounds_before", 0) + done
        limit = place.get("round_limit", settings.max_rounds)
        left = max(settings.table_seconds - elapsed, 0.0) + place.get("seconds_after", 0.0)
        self.show(self.separator.join(
            [where, f"round {rounds}/{limit}", f"about {left:.0f} s left"]), force)

    def show(self, text: str, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last > 0.2:
                width = _columns() - 1
                sys.stderr.write("\r" + ("posonly bench: " + text)[:width].ljust(width))
                sys.stderr.flush()
                self.last = now
        elif force or now - self.last > 5.0:
            sys.stderr.write("posonly bench: " + text + "\n")
            sys.stderr.flush()
            self.last = now

    def finish(self) -> None:
        if self.enabled and self.tty:
            width = _columns() - 1
            sys.stderr.write("\r" + " " * width + "\r")
            sys.stderr.flush()


def _columns() -> int:
    """The terminal's width (``COLUMNS`` when set), at least 40."""
    import shutil

    return max(40, shutil.get_terminal_size((100, 24)).columns)


@dataclass
class Measured:
    """What measuring a table took."""

    rounds: int = 0
    seconds: float = 0.0
    stopped: str = ""
    extra: Dict[str, Any] = field(default_factory=dict)


def measure(table: Any, settings: Settings, progress: Progress, seed: int = 570) -> Measured:
    """Calibrate every cell of ``table``, then take rounds of one sample per
    cell until every ratio of the table is known within ``settings.stable``
    (or a limit is hit).  A round visits the table's groups (its rows) in a
    shuffled order, and each group's cells in a shuffled order, so the cells
    a ratio compares are sampled moments apart."""
    rng = random.Random(seed)
    out = Measured()
    groups = [list(g) for g in table.groups() if g]
    if not groups:
        out.stopped = "no cells"
        return out
    title = table.title.split(":")[0]
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    started = time.perf_counter()
    try:
        with table.around():
            _rounds(table, groups, settings, progress, rng, out, title, started)
    finally:
        if was_enabled:
            gc.enable()
    out.seconds = time.perf_counter() - started
    return out


def _rounds(table: Any, groups: List[List[Cell]], settings: Settings, progress: Progress,
            rng: random.Random, out: Measured, title: str, started: float) -> None:
    """``measure``'s calibration and rounds, into ``out``."""
    progress.rounds(title, 0, 0.0, settings, force=True)
    for group in groups:
        for cell in group:
            cell.warm_up(settings.warmup_ops, settings.warmup_seconds)
            cell.calibrate(settings.sample_ns)
    unstable = -1
    while True:
        rng.shuffle(groups)
        for group in groups:
            rng.shuffle(group)
            for cell in group:
                cell.sample()
        out.rounds += 1
        elapsed = time.perf_counter() - started
        if out.rounds >= settings.min_rounds and (
                out.rounds % settings.check_every == 0 or out.rounds >= settings.max_rounds
                or elapsed >= settings.table_seconds):
            unstable = table.unstable(settings.stable)
        progress.rounds(title, out.rounds, elapsed, settings)
        if out.rounds < settings.min_rounds or unstable < 0:
            continue
        if unstable == 0:
            out.stopped = "stable"
            break
        if out.rounds >= settings.max_rounds:
            out.stopped = "round limit"
            break
        if elapsed >= settings.table_seconds:
            out.stopped = "time limit"
            break
        if out.rounds % 20 == 0:
            gc.enable()
            gc.collect()
            gc.disable()


def generated_loop(statement: str, names: Sequence[str], unroll: int = UNROLL,
                   namespace: Optional[Dict[str, Any]] = None) -> Callable[..., int]:
    """A function ``timer(n, *names)`` that runs ``statement`` ``n * unroll``
    times and returns the elapsed ns.  Generated source, so that a literal
    call in the statement is a literal call in the loop."""
    lines = statement.splitlines() or [statement]
    body = "\n".join("        " + line for _ in range(unroll) for line in lines)
    source = (
        f"def timer(n, {', '.join(names)}):\n"
        "    loop = _range(n)\n"
        "    t0 = _clock()\n"
        "    for _ in loop:\n"
        f"{body}\n"
        "    return _clock() - t0\n"
    )
    ns: Dict[str, Any] = dict(namespace or {})
    ns.update(_range=range, _clock=time.perf_counter_ns)
    exec(source, ns)
    return ns["timer"]  # type: ignore[no-any-return]


# -- where the numbers come from ----------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            for line in stream:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe_build() -> str:
    """Which build of the interpreter runs the bench: ratios to the
    interpreter's own call depend on whether it was built optimised."""
    import sysconfig

    executable = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    configured = sysconfig.get_config_var("CONFIG_ARGS") or ""
    if sys.implementation.name != "cpython":
        origin = f"{sys.implementation.name}, JIT on"
    elif "--enable-optimizations" in configured:
        origin = "configured --enable-optimizations (PGO)" + (
            " --with-lto" if "--with-lto" in configured else "")
    elif "/.pyenv/" in executable:
        origin = "pyenv's build, configured without --enable-optimizations (no PGO/LTO)"
    elif executable.startswith("/usr/bin/") and os.path.exists("/etc/debian_version"):
        # Debian's packaging builds with PGO and LTO outside CONFIG_ARGS.
        origin = "Debian's package (built with PGO and LTO)"
    else:
        origin = "build options unknown"
    return f"{executable}: {origin}"


def load_average() -> Optional[List[float]]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None
