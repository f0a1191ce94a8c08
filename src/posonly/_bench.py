"""The built-in benchmark suite behind ``python -m posonly bench``.

Every way of binding a call is timed against the *floor*: the interpreter's
own binding of the same call, i.e. a plain ``def`` with the same signature
whose body returns its locals as a tuple, called with the same literal
arguments.  Each timer is generated source (``exec``), so a literal call in the
suite is a literal call in the timing loop: the floor pays no tuple or dict
unpacking, and neither does the binder called the same way.

Timers are interleaved (every implementation of a case runs once per round,
rounds are repeated) and the minimum over the rounds is kept, so the ratios
hold on a noisy machine.  The garbage collector is off while timing, as in
``timeit``.
"""

from __future__ import annotations

import gc
import inspect
import math
import os
import platform
import random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import posonly
from posonly._common import make_binder

__all__ = ["CASES", "PEP570_CASES", "WRAP_CASES", "Case", "main_suite", "run", "wrapping_suite"]

UNROLL = 10  # calls per loop iteration: the loop's own cost is spread thin


class Case:
    """A signature and a call, both as source text."""

    def __init__(self, name: str, params: str, call: str) -> None:
        self.name = name
        self.params = params
        self.call = call

    @property
    def label(self) -> str:
        return f"({self.params}) <- f({self.call})"

    def function(self) -> Callable[..., tuple]:
        """The floor: a plain def with this signature returning its locals."""
        names = [
            p.split("=")[0].strip().lstrip("*")
            for p in self.params.split(",")
            if p.strip() not in ("", "/", "*")
        ]
        namespace: Dict[str, Any] = {}
        exec(f"def f({self.params}):\n    return ({''.join(n + ', ' for n in names)})\n", namespace)
        return namespace["f"]  # type: ignore[no-any-return]

    def arguments(self) -> Tuple[tuple, dict]:
        """The call's positional tuple and keyword dict."""
        return eval(f"(lambda *a, **k: (a, k))({self.call})", {})  # type: ignore[no-any-return]


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

# PEP 570's question: what a call costs by parameter kind and by how it is passed.
PEP570_CASES: List[Tuple[str, str, Case]] = [
    ("positional-only", "by position", Case("posonly/pos", "a, b, c, /", "1, 2, 3")),
    ("positional-or-keyword", "by position", Case("pos/pos", "a, b, c", "1, 2, 3")),
    ("positional-or-keyword", "by keyword", Case("pos/kw", "a, b, c", "a=1, b=2, c=3")),
    ("keyword-only", "by keyword", Case("kwonly/kw", "*, a, b, c", "a=1, b=2, c=3")),
]

# (column, statement template, title) in the order of the table.  ``fn`` is
# the column's callable, ``{call}`` the case's literal arguments.
COLUMNS: List[Tuple[str, str, str]] = [
    ("floor", "fn({call})", "plain def, literal call"),
    ("c-floor", "fn({call})", "a C callable that builds the same tuple with no matching"),
    ("binder", "fn({call})", "binder(f)(...)"),
    ("bind", "fn.bind(args, kwargs)", "binder(f).bind(args, kwargs)"),
    ("vectorcall", "fn.vectorcall(stack, kwnames)", "binder(f).vectorcall(stack, kwnames)"),
    ("pure", "fn({call})", "pure-Python binder(f)(...)"),
    ("exec", "fn(*args, **kwargs)", "exec-generated def, f(*args, **kwargs)"),
    ("drop-in", "fn.bind({call})", "posonly.signature(f).bind(...)"),
    ("patched", "fn.bind({call})", "inspect.signature(f).bind(...) after patch_inspect()"),
    ("inspect", "fn.bind({call})", "inspect.signature(f).bind(...)"),
]


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


def _compiled_module() -> Any:
    try:
        from posonly import _bind
    except ImportError:
        return None
    return _bind


def _callables(case: Case) -> Dict[str, Any]:
    """The callable behind each column available here."""
    from posonly import _bind_py

    f = case.function()
    out: Dict[str, Any] = {"floor": f}
    compiled = _compiled_module()
    if compiled is not None:
        b = make_binder(compiled.Binder, f)
        out.update(binder=b, bind=b, vectorcall=b)
        args, kwargs = case.arguments()
        out["c-floor"] = compiled.TupleFloor(f(*args, **kwargs))
    out["pure"] = make_binder(_bind_py.Binder, f)
    out["exec"] = f
    if hasattr(posonly, "signature"):
        out["drop-in"] = posonly.signature(f)
        out["patched"] = _PatchedSignature.from_callable(f)
    out["inspect"] = inspect.signature(f)
    return out


class _PatchedSignature(inspect.Signature):
    """An inspect.Signature whose bind is the one patch_inspect() installs:
    the patched path, timed without patching inspect for everyone."""

    __slots__ = ()
    if hasattr(posonly, "patch_inspect"):
        from posonly._inspect import bind


def _timer(statement: str) -> Callable[..., int]:
    body = "\n".join("        " + statement for _ in range(UNROLL))
    source = (
        "def timer(n, fn, args, kwargs, stack, kwnames):\n"
        "    loop = _range(n)\n"
        "    t0 = _clock()\n"
        "    for _ in loop:\n"
        f"{body}\n"
        "    return _clock() - t0\n"
    )
    namespace: Dict[str, Any] = {"_range": range, "_clock": time.perf_counter_ns}
    exec(source, namespace)
    return namespace["timer"]  # type: ignore[no-any-return]


class Timer:
    """One column of one case: a generated loop and its samples (ns per call)."""

    def __init__(self, case: Case, column: str, statement: str, fn: Any) -> None:
        self.case = case
        self.column = column
        self.fn = fn
        args, kwargs = case.arguments()
        self.context = (args, kwargs, args + tuple(kwargs.values()), tuple(kwargs) or None)
        self.code = _timer(statement.format(call=case.call))
        self.n = 1
        self.samples: List[float] = []

    def check(self, expected: tuple) -> None:
        """Run the statement once; binders must give the floor's locals."""
        self.code(1, self.fn, *self.context)
        if self.column in ("binder", "bind", "vectorcall", "pure"):
            args, kwargs, stack, kwnames = self.context
            got = {
                "binder": lambda: self.fn(*args, **kwargs),
                "pure": lambda: self.fn(*args, **kwargs),
                "bind": lambda: self.fn.bind(args, kwargs),
                "vectorcall": lambda: self.fn.vectorcall(stack, kwnames),
            }[self.column]()
            if got != expected:
                raise AssertionError(f"{self.column} {self.case.label}: {got!r} != {expected!r}")

    def calibrate(self, target_ns: float) -> None:
        n = 1
        while True:
            elapsed = self.code(n, self.fn, *self.context)
            if elapsed >= target_ns / 4 or n >= 1 << 24:
                self.n = max(1, int(n * target_ns / max(elapsed, 1)))
                return
            n *= 4

    def sample(self) -> None:
        elapsed = self.code(self.n, self.fn, *self.context)
        self.samples.append(elapsed / (self.n * UNROLL))

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def spread(self) -> float:
        """How far the median sample lies above the best one, relative."""
        ordered = sorted(self.samples)
        return ordered[len(ordered) // 2] / ordered[0] - 1.0


def geomean(values: Sequence[float]) -> float:
    values = [v for v in values if v > 0]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


class Progress:
    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last = ""

    def step(self, what: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        line = f"posonly bench: {100 * self.done // self.total:3d}%  {what}"
        if self.tty:
            sys.stderr.write("\r" + line[:79].ljust(79))
            sys.stderr.flush()
        elif what != self.last:
            sys.stderr.write(line + "\n")
        self.last = what

    def finish(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\r" + " " * 79 + "\r")
            sys.stderr.flush()


def _measure(groups: List[Tuple[str, List[Timer]]], repeats: int, target_ns: float,
             progress: Progress) -> None:
    """Calibrate, then take ``repeats`` interleaved rounds of every group."""
    rng = random.Random(570)
    for label, timers in groups:
        for timer in timers:
            timer.calibrate(target_ns)
        for _ in range(repeats):
            order = list(timers)
            rng.shuffle(order)
            for timer in order:
                timer.sample()
            progress.step(label)


# -- the suites ---------------------------------------------------------------


def _validating_decorators() -> Dict[str, Callable[..., Any]]:
    """A typical validating decorator written three ways, and the bare function."""
    rules: Dict[str, Callable[[Any], bool]] = {
        "user": lambda v: isinstance(v, str) and v != "",
        "count": lambda v: isinstance(v, int) and v >= 0,
        "verbose": lambda v: isinstance(v, bool),
    }

    def with_signature(signature_of: Callable[..., Any]) -> Callable[..., Any]:
        """The decorator written on Signature.bind, the usual way."""

        def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
            sig = signature_of(func)

            def wrapper(*args: Any, **kwargs: Any) -> Any:
                for name, value in sig.bind(*args, **kwargs).arguments.items():
                    rule = rules.get(name)
                    if rule is not None and not rule(value):
                        raise ValueError(f"bad {name}: {value!r}")
                return func(*args, **kwargs)

            return wrapper

        return decorate

    def with_posonly(func: Callable[..., Any]) -> Callable[..., Any]:
        bind = posonly.binder(func)
        checks = tuple(
            (i, name, rules[name]) for i, name in enumerate(bind.layout.names) if name in rules
        )

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = bind.bind(args, kwargs)
            for i, name, rule in checks:
                if not rule(values[i]):
                    raise ValueError(f"bad {name}: {values[i]!r}")
            return func(*args, **kwargs)

        return wrapper

    def target(user, count=1, *, verbose=False):  # type: ignore[no-untyped-def]
        return count

    out = {
        "undecorated": target,
        "inspect": with_signature(inspect.signature)(target),
        "posonly": with_posonly(target),
    }
    if hasattr(posonly, "signature"):
        out["drop-in"] = with_signature(posonly.signature)(target)
    return out


DECORATOR_CALL = Case("validating decorator", "user, count=1, *, verbose=False", '"ann", 3, verbose=True')


# The wrapping table: what a wrapper that sees each call's values adds to a
# call, against the plain ``functools.wraps`` pass-through ``def``.
WRAP_CASES: List[Case] = [
    Case("one positional-only", "a, /", "1"),
    Case("three by position", "a, b, c", "1, 2, 3"),
    Case("mixed kinds", "a, b, /, c, d=4, *, e, g=7", "1, 2, 3, e=5"),
    Case("five by keyword", "a, b, c, d, e", "a=1, b=2, c=3, d=4, e=5"),
    Case("*args, **kwargs", "*args, **kwargs", "1, 2, x=3"),
]

# (column, title) in the order of the table.
WRAP_COLUMNS: List[Tuple[str, str]] = [
    ("bare", "the function itself, unwrapped"),
    ("def", "functools.wraps pass-through def (*args, **kwargs)"),
    ("wrapt", "wrapt pass-through @wrapt.decorator"),
    ("recipe", "def + binder(f).bind(args, kwargs) + handler + bind.apply"),
    ("before", "posonly.wrap(f, before=handler)"),
    ("around", "posonly.wrap(f, around=handler), proceed(values)"),
    ("pure before", "pure-Python wrap(f, before=handler)"),
    ("pure around", "pure-Python wrap(f, around=handler)"),
    ("inspect", "def + inspect.signature(f).bind(...) + handler"),
]


def _before_handler(values: tuple) -> None:
    """A handler that looks at nothing: what is timed is the wrapping."""


def _around_handler(proceed: Callable[[tuple], Any], values: tuple) -> Any:
    return proceed(values)


def _wrapped(f: Callable[..., Any]) -> Dict[str, Callable[..., Any]]:
    """``f`` wrapped each way available here, each wrapper seeing the values."""
    import functools

    from posonly import _bind_py

    @functools.wraps(f)
    def pass_through(*args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs)

    out: Dict[str, Callable[..., Any]] = {"bare": f, "def": pass_through}
    try:
        import wrapt  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        pass
    else:
        @wrapt.decorator  # type: ignore[misc,unused-ignore]
        def wrapt_pass_through(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
            return wrapped(*args, **kwargs)

        out["wrapt"] = wrapt_pass_through(f)

    compiled = _compiled_module()
    bind = make_binder(compiled.Binder if compiled is not None else _bind_py.Binder, f)

    @functools.wraps(f)
    def recipe(*args: Any, **kwargs: Any) -> Any:
        values = bind.bind(args, kwargs)
        _before_handler(values)
        return bind.apply(f, values)

    out["recipe"] = recipe
    if compiled is not None and hasattr(compiled, "wrap"):
        out["before"] = compiled.wrap(f, before=_before_handler)
        out["around"] = compiled.wrap(f, around=_around_handler)
    out["pure before"] = _bind_py.wrap(f, before=_before_handler)
    out["pure around"] = _bind_py.wrap(f, around=_around_handler)
    signature = inspect.signature(f)

    @functools.wraps(f)
    def with_inspect(*args: Any, **kwargs: Any) -> Any:
        _before_handler(signature.bind(*args, **kwargs))
        return f(*args, **kwargs)

    out["inspect"] = with_inspect
    return out


def wrapping_suite(cases: Optional[Sequence[Case]] = None) -> List[Tuple[Case, Dict[str, Timer]]]:
    """The timers of the wrapping table, case by case (columns present here only)."""
    suite = []
    for case in cases if cases is not None else WRAP_CASES:
        f = case.function()
        args, kwargs = case.arguments()
        expected = f(*args, **kwargs)
        timers = {}
        for column, fn in _wrapped(f).items():
            if fn(*args, **kwargs) != expected:
                raise AssertionError(f"{column} {case.label}: not the function's result")
            timers[column] = Timer(case, column, "fn({call})", fn)
        suite.append((case, timers))
    return suite


def _wrapping_result(suite: List[Tuple[Case, Dict[str, Timer]]]) -> Dict[str, Any]:
    """ns per call, overhead over the bare call, and overhead relative to the
    pass-through def's, per case and as geometric means."""
    columns = [c for c, _ in WRAP_COLUMNS if any(c in t for _, t in suite)]
    cases = []
    for case, timers in suite:
        bare = timers["bare"].best
        overhead = {c: t.best - bare for c, t in timers.items() if c != "bare"}
        base = overhead["def"]
        cases.append({
            "name": case.name,
            "signature": f"({case.params})",
            "call": f"f({case.call})",
            "ns": {c: round(t.best, 2) for c, t in timers.items()},
            "overhead_ns": {c: round(v, 2) for c, v in overhead.items()},
            "ratio": {c: round(v / base, 4) for c, v in overhead.items()},
        })
    return {
        "columns": {c: title for c, title in WRAP_COLUMNS if c in columns},
        "cases": cases,
        "geomean": {
            c: round(geomean([case["ratio"][c] for case in cases if c in case["ratio"]]), 4)
            for c in columns if c != "bare"
        },
    }


def main_suite(cases: Optional[Sequence[Case]] = None) -> List[Tuple[Case, Dict[str, Timer]]]:
    """The timers of the main table, case by case (columns present here only)."""
    suite = []
    for case in cases if cases is not None else CASES:
        fns = _callables(case)
        expected = fns["floor"](*case.arguments()[0], **case.arguments()[1])
        timers = {}
        for column, statement, _title in COLUMNS:
            if column in fns:
                timers[column] = Timer(case, column, statement, fns[column])
                timers[column].check(expected)
        suite.append((case, timers))
    return suite


def _pep570_suite() -> List[Tuple[str, str, Case, Dict[str, Timer]]]:
    suite = []
    statements = {name: statement for name, statement, _ in COLUMNS}
    for kind, passing, case in PEP570_CASES:
        fns = _callables(case)
        timers = {
            column: Timer(case, column, statements[column], fns[column])
            for column in ("floor", "binder", "bind", "pure")
            if column in fns
        }
        suite.append((kind, passing, case, timers))
    return suite


def _decorator_suite() -> Dict[str, Timer]:
    return {
        name: Timer(DECORATOR_CALL, name, "fn({call})", fn)
        for name, fn in _validating_decorators().items()
    }


def run(quick: bool = False, select: Optional[str] = None, progress: bool = True) -> Dict[str, Any]:
    """Run the suite; return every number (what ``--json`` writes)."""
    repeats, target_ns = (10, 2.5e6) if quick else (30, 1.0e7)
    cases = [c for c in CASES if select is None or select.lower() in c.name.lower()]
    main = main_suite(cases)
    pep570 = _pep570_suite() if select is None else []
    decorator = _decorator_suite() if select is None else {}
    wrapping = wrapping_suite() if select is None else []

    groups: List[Tuple[str, List[Timer]]] = [(case.name, list(t.values())) for case, t in main]
    groups += [(f"PEP 570: {kind} {passing}", list(t.values())) for kind, passing, _, t in pep570]
    if decorator:
        groups.append(("validating decorator", list(decorator.values())))
    groups += [(f"wrapping: {case.name}", list(t.values())) for case, t in wrapping]
    bar = Progress(len(groups) * repeats, progress)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    started = time.perf_counter()
    try:
        _measure(groups, repeats, target_ns, bar)
    finally:
        if was_enabled:
            gc.enable()
        bar.finish()
    elapsed = time.perf_counter() - started

    all_timers = [t for _, ts in groups for t in ts]
    columns = [c for c, _, _ in COLUMNS if any(c in t for _, t in main)]
    result: Dict[str, Any] = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "build": describe_build(),
        "implementation": posonly.IMPLEMENTATION,
        "posonly": posonly.__version__,
        "quick": quick,
        "repeats": repeats,
        "seconds": round(elapsed, 2),
        "noise": geomean([1.0 + t.spread for t in all_timers]) - 1.0,
        "columns": {c: title for c, _, title in COLUMNS if c in columns},
        "cases": [],
        "geomean": {},
        "worst": {},
    }
    for case, timers in main:
        floor = timers["floor"].best
        result["cases"].append({
            "name": case.name,
            "signature": f"({case.params})",
            "call": f"f({case.call})",
            "ns": {c: round(t.best, 2) for c, t in timers.items()},
            "ratio": {c: round(t.best / floor, 4) for c, t in timers.items()},
        })
    for column in columns:
        ratios = [c["ratio"][column] for c in result["cases"] if column in c["ratio"]]
        result["geomean"][column] = round(geomean(ratios), 4)
        result["worst"][column] = round(max(ratios), 4)
    if "c-floor" in columns:
        # Over the cases whose locals hold no *args or **kwargs container:
        # the C copy makes none, so it is the same tuple only there.
        plain = [c for c in result["cases"] if "*" not in c["signature"].replace("*,", "")]
        result["binder_vs_c_floor"] = round(
            geomean([c["ns"]["binder"] / c["ns"]["c-floor"] for c in plain]), 4)
    for column in ("binder", "drop-in", "patched"):
        if column in columns and "inspect" in columns:
            result[f"{column}_vs_inspect"] = round(
                geomean([c["ns"]["inspect"] / c["ns"][column] for c in result["cases"]]), 2)
    result["pep570"] = [
        {
            "parameters": kind,
            "passed": passing,
            "signature": f"({case.params})",
            "call": f"f({case.call})",
            "ns": {c: round(t.best, 2) for c, t in timers.items()},
        }
        for kind, passing, case, timers in pep570
    ]
    if decorator:
        bare = decorator["undecorated"].best
        result["decorator"] = {
            "signature": f"({DECORATOR_CALL.params})",
            "call": f"f({DECORATOR_CALL.call})",
            "ns": {name: round(t.best, 2) for name, t in decorator.items()},
            "overhead_ns": {
                name: round(t.best - bare, 2) for name, t in decorator.items() if name != "undecorated"
            },
        }
    if wrapping:
        result["wrapping"] = _wrapping_result(wrapping)
    return result


# -- reporting ------------------------------------------------------------------

_HEADS = {
    "floor": "floor", "c-floor": "C copy", "binder": "binder", "bind": ".bind",
    "vectorcall": ".vcall",
    "pure": "pure", "exec": "exec", "drop-in": "drop-in", "patched": "patched",
    "inspect": "inspect",
}


def format_report(result: Dict[str, Any]) -> str:
    lines = []
    columns = list(result["columns"])
    lines.append(
        f"posonly {result['posonly']} bench: {result['python']}, implementation: "
        f"{result['implementation']}, noise {100 * result['noise']:.1f}% "
        f"(median vs best of {result['repeats']} interleaved rounds), gc off"
    )
    if "build" in result:
        lines.append(f"interpreter: {result['build']}")
    lines.append("")
    lines.append("ns per call (best of the rounds), and each way of binding relative to the floor:")
    width = max(len(c["signature"]) for c in result["cases"]) + 2
    width = min(max(width, 24), 44)
    head = f"{'signature':<{width}}{'call':<28}{'floor ns':>9}" + "".join(
        f"{_HEADS[c]:>9}" for c in columns if c != "floor")
    lines.append(head)
    for case in result["cases"]:
        sig = case["signature"]
        if len(sig) > width - 1:
            sig = sig[: width - 5] + "...)"
        row = f"{sig:<{width}}{case['call']:<28}{case['ns']['floor']:>9.1f}"
        for c in columns:
            if c == "floor":
                continue
            r = case["ratio"].get(c)
            row += f"{'-':>9}" if r is None else f"{r:>8.2f}x"
        lines.append(row)
    row = f"{'geomean':<{width}}{'':<28}{'':>9}"
    for c in columns:
        if c != "floor":
            row += f"{result['geomean'][c]:>8.2f}x"
    lines.append(row)
    row = f"{'worst':<{width}}{'':<28}{'':>9}"
    for c in columns:
        if c != "floor":
            row += f"{result['worst'][c]:>8.2f}x"
    lines.append(row)
    lines.append("")
    lines.append("columns: " + "; ".join(f"{_HEADS[c]} = {t}" for c, t in result["columns"].items()))
    faster = [("binder", "binder(f)(...)"), ("drop-in", "posonly.signature(f).bind(...)"),
              ("patched", "inspect's bind after patch_inspect()")]
    if "binder_vs_c_floor" in result:
        lines.append(
            f"binder(f)(...) costs {result['binder_vs_c_floor']:.2f}x what the C copy does "
            "(geomean over the cases without *args or **kwargs)")
    for column, title in faster:
        if f"{column}_vs_inspect" in result:
            lines.append(
                f"{title} is {result[f'{column}_vs_inspect']:.1f}x faster than "
                "inspect.Signature.bind (geomean over the cases)")

    if result.get("pep570"):
        lines.append("")
        lines.append("PEP 570: the cost of a call by parameter kind, ns per call (ratio to the first row)")
        cols = [c for c in ("floor", "binder", "bind", "pure") if c in result["pep570"][0]["ns"]]
        names = {"floor": "plain def", "binder": "binder", "bind": ".bind", "pure": "pure"}
        lines.append(f"{'parameters':<24}{'passed':<13}{'call':<22}" + "".join(
            f"{names[c]:>16}" for c in cols))
        first = result["pep570"][0]["ns"]
        for row in result["pep570"]:
            text = f"{row['parameters']:<24}{row['passed']:<13}{row['call']:<22}"
            for c in cols:
                text += f"{row['ns'][c]:>8.1f} ({row['ns'][c] / first[c]:.2f})"
            lines.append(text)

    if result.get("decorator"):
        d = result["decorator"]
        lines.append("")
        lines.append(
            f"validating decorator: f{d['signature']} called {d['call']}, "
            f"undecorated {d['ns']['undecorated']:.0f} ns")
        base = d["overhead_ns"].get("inspect")
        for name, overhead in d["overhead_ns"].items():
            note = ""
            if base and name != "inspect" and overhead > 0:
                note = f"  ({base / overhead:.1f}x less than with inspect)"
            lines.append(f"  overhead per wrapped call with {name:<8}{overhead:>9.1f} ns{note}")
    if result.get("wrapping"):
        lines.append("")
        lines.extend(_format_wrapping(result["wrapping"]))
    lines.append("")
    lines.append(f"({result['seconds']:.1f} s)")
    return "\n".join(lines)


def _format_wrapping(wrapping: Dict[str, Any]) -> List[str]:
    columns = [c for c in wrapping["columns"] if c != "bare"]
    lines = [
        "Wrapping: overhead per call (wrapped minus bare, ns), each relative to the "
        "pass-through def's; every handler is a no-op",
    ]
    head = f"{'signature':<30}{'call':<28}{'bare ns':>8}{'def ns':>8}" + "".join(
        f"{c:>12}" for c in columns if c != "def")
    lines.append(head)
    for case in wrapping["cases"]:
        sig = case["signature"]
        if len(sig) > 29:
            sig = sig[:25] + "...)"
        row = (f"{sig:<30}{case['call']:<28}{case['ns']['bare']:>8.1f}"
               f"{case['overhead_ns']['def']:>8.1f}")
        for c in columns:
            if c != "def":
                r = case["ratio"].get(c)
                row += f"{'-':>12}" if r is None else f"{r:>11.2f}x"
        lines.append(row)
    row = f"{'geomean':<30}{'':<28}{'':>8}{'':>8}"
    for c in columns:
        if c != "def":
            row += f"{wrapping['geomean'][c]:>11.2f}x"
    lines.append(row)
    lines.append("columns: " + "; ".join(f"{c} = {t}" for c, t in wrapping["columns"].items()))
    return lines


def plot(result: Dict[str, Any], path: str) -> None:
    """A grouped bar chart of the ratios to the floor, one group per case."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = [c for c in result["columns"] if c != "floor"]
    cases = result["cases"]
    fig, ax = plt.subplots(figsize=(max(8.0, 1.1 * len(cases)), 5.0))
    width = 0.8 / max(1, len(columns))
    for k, column in enumerate(columns):
        xs = [i + (k - (len(columns) - 1) / 2) * width for i in range(len(cases))]
        ys = [c["ratio"].get(column, float("nan")) for c in cases]
        ax.bar(xs, ys, width, label=result["columns"][column])
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--", label="floor (plain def)")
    ax.set_yscale("log")
    ax.set_ylabel("time per call / floor (log scale)")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([c["name"] for c in cases], rotation=30, ha="right", fontsize=8)
    ax.set_title(f"posonly bench: {result['python']}, {result['implementation']}")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
