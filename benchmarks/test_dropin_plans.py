"""The three client patterns of ``inspect``, plain against patched, for each
drop-in core this interpreter has (the pure one always, the compiled one on
CPython when it is built), in one run.

Groups: ``plans: <pattern>: <signature>``; members ``inspect`` (plain),
``patched: pure`` and ``patched: compiled``.  Patterns:

- ``decorator``: a signature made once; per call ``bind``,
  ``apply_defaults()``, ``.args``, ``.kwargs``;
- ``type checker``: ``inspect.signature(f)`` per call, then ``bind`` and
  ``.arguments`` (a signature bound once: the pure core's cold path);
- ``currying``: a ``bind`` that fails with ``TypeError``, then
  ``bind_partial``, whose ``.args`` and ``.kwargs`` are carried on.

The patch (with the chosen core) is applied before the first round and
removed after the last, outside the timed region, and the signature is made
once, with the patch on: the steady state of a process that patched at
start-up (switching the patch per round would time a signature's first
binds, and on PyPy the JIT compiling again after each switch).  Each round performs ``extra_info["ops_per_round"]``
client calls.  ``pytest benchmarks/test_dropin_plans.py`` runs it.
"""

import importlib
import inspect
import sys
from typing import Any, Callable, Dict, List, Tuple

import pytest

import posonly
from posonly import _inspect

INSPECT_BIND = inspect.Signature.bind
LOOPS = 200
ROUNDS = 30


def decorator(sig: Any, f: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], n: int) -> None:
    for _ in range(n):
        ba = sig.bind(*args, **kwargs)
        ba.apply_defaults()
        ba.args  # noqa: B018
        ba.kwargs  # noqa: B018


def type_checker(sig: Any, f: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], n: int) -> None:
    signature = inspect.signature  # looked up once, as the patch leaves it
    for _ in range(n):
        ba = signature(f).bind(*args, **kwargs)
        ba.arguments  # noqa: B018


def currying(sig: Any, f: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any], n: int) -> None:
    for _ in range(n):
        try:
            sig.bind(*args, **kwargs)
        except TypeError:
            ba = sig.bind_partial(*args, **kwargs)
            carried = (ba.args, ba.kwargs)  # noqa: F841


def three(a, b, c):  # type: ignore[no-untyped-def]
    pass


def mixed(a, b, /, c, d=4, *, e, g=7):  # type: ignore[no-untyped-def]
    pass


def variadic(a, b=2, *args, k, **kw):  # type: ignore[no-untyped-def]
    pass


PATTERNS: Dict[str, Callable[..., None]] = {
    "decorator": decorator, "type checker": type_checker, "currying": currying,
}
#: (pattern, signature name, function, args, kwargs); currying's calls leave
#: a required parameter out.
ROWS: List[Tuple[str, str, Any, Tuple[Any, ...], Dict[str, Any]]] = [
    ("decorator", "three by position", three, (1, 2, 3), {}),
    ("decorator", "mixed kinds", mixed, (1, 2, 3), {"e": 5}),
    ("decorator", "variadic", variadic, (1, 2, 3, 4), {"k": 5, "z": 6}),
    ("type checker", "three by position", three, (1, 2, 3), {}),
    ("type checker", "mixed kinds", mixed, (1, 2, 3), {"e": 5}),
    ("currying", "three, one given", three, (1,), {}),
    ("currying", "mixed kinds, two given", mixed, (1, 2), {"e": 5}),
]


def _cores() -> List[str]:
    cores = ["pure"]
    if sys.implementation.name == "cpython":
        try:
            importlib.import_module("posonly._bind")
        except ImportError:
            pass
        else:
            cores.append("compiled")
    return cores


def _core(name: str) -> Any:
    return importlib.import_module("posonly._dropin" if name == "pure" else "posonly._bind")


@pytest.mark.parametrize("member", ["inspect"] + [f"patched: {c}" for c in _cores()])
@pytest.mark.parametrize("pattern, label, f, args, kwargs", ROWS,
                         ids=[f"{p}: {label}" for p, label, *_ in ROWS])
def test_client_pattern(benchmark, member, pattern, label, f, args, kwargs):
    run_pattern = PATTERNS[pattern]
    benchmark.group = f"plans: {pattern}: {label}"
    benchmark.extra_info.update(ops_per_round=LOOPS, pattern=pattern)
    saved = _inspect._core
    state: Dict[str, Any] = {}

    def setup() -> None:
        if not state:
            if member != "inspect":
                _inspect._use_core(_core(member.split(": ")[1]))
                posonly.patch_inspect()
            state["sig"] = inspect.signature(f)
        run_pattern(state["sig"], f, args, dict(kwargs), 2)  # warm

    def run(n: int) -> None:
        run_pattern(state["sig"], f, args, kwargs, n)

    try:
        benchmark.pedantic(run, args=(LOOPS,), setup=setup, rounds=ROUNDS)
    finally:
        if member != "inspect":
            posonly.unpatch_inspect()
            _inspect._use_core(saved)
    assert inspect.Signature.bind is INSPECT_BIND
