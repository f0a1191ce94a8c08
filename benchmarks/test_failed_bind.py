"""A bind that fails, beside one that succeeds, through ``patch_inspect()``.

Binding as control flow (currying, dispatch) fails as often as it succeeds,
so a refused bind should cost about what a bound one does.  Each group is a
signature and a kind of failure; its members, timed side by side in one run:

- ``patched success``: ``sig.bind(...)`` of a call the signature accepts,
  with the patch on;
- ``patched failure``: ``sig.bind(...)`` of a call it refuses (the
  ``TypeError`` caught), with the patch on;
- ``inspect failure``: the same refused call with plain ``inspect``;
- ``function success`` and ``function failure``: the two calls made to the
  function itself, the interpreter's own binding: what raising and catching
  a call's ``TypeError`` costs at the floor.  A patched failure's extra time
  over its success compares with the function's.

The implementation is the one this process uses (``POSONLY_PURE_PYTHON=1``
for the pure twin).  Each round performs ``extra_info["ops_per_round"]``
binds.  ``pytest benchmarks/test_failed_bind.py`` runs them all.
"""

from typing import Any, Dict, Tuple

import pytest

import posonly

LOOPS = 1000
ROUNDS = 30

Call = Tuple[Tuple[Any, ...], Dict[str, Any]]


def call(*args: Any, **kwargs: Any) -> Call:
    return args, kwargs


SIGNATURES: Dict[str, Tuple[str, Call, Dict[str, Call]]] = {
    "(a, b, c)": (
        "def f(a, b, c): pass",
        call(1, 2, 3),
        {
            "missing": call(1, 2),
            "too many positionals": call(1, 2, 3, 4),
            "unexpected keyword": call(1, 2, 3, d=4),
        },
    ),
    "(a, /, b, *args, c, **kw)": (
        "def f(a, /, b, *args, c, **kw): pass",
        call(1, 2, c=3),
        {
            "missing": call(1),
            "missing keyword-only": call(1, 2, 3),
            "multiple values": call(1, 2, b=3, c=4),
        },
    ),
}


MEMBERS = (
    "patched success", "patched failure", "inspect failure", "function success", "function failure",
)


def _cases():
    for name, (_, _, failures) in SIGNATURES.items():
        for failure in failures:
            for member in MEMBERS:
                yield pytest.param(name, failure, member, id=f"{name}: {failure}: {member}")


def _loop(target: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    """``LOOPS`` calls of ``target`` (a signature's ``bind`` or the function
    itself), each in the same ``try``, caught or not."""

    def run() -> None:
        for _ in range(LOOPS):
            try:
                target(*args, **kwargs)
            except TypeError:
                pass

    return run


@pytest.mark.parametrize("signature, failure, member", list(_cases()))
def test_failed_bind(benchmark, signature, failure, member):
    import inspect

    source, success, failures = SIGNATURES[signature]
    namespace: Dict[str, Any] = {}
    exec(source, namespace)
    args, kwargs = success if member.endswith("success") else failures[failure]
    patch = member.startswith("patched")
    if patch:
        posonly.patch_inspect()
    try:
        function = namespace["f"]
        target = function if member.startswith("function") else inspect.signature(function).bind
        try:
            target(*args, **kwargs)
            refused = False
        except TypeError:
            refused = True
        assert refused is member.endswith("failure"), (signature, failure, member)
        benchmark.group = f"failed bind: {signature}: {failure}"
        benchmark.extra_info["ops_per_round"] = LOOPS
        benchmark.pedantic(_loop(target, args, kwargs), rounds=ROUNDS, warmup_rounds=1)
    finally:
        if patch:
            posonly.unpatch_inspect()
