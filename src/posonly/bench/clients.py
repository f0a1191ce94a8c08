"""The client table: what real clients of ``inspect`` do per call, with plain
``inspect`` and after ``posonly.patch_inspect()``.

Three patterns, each a few statements per call:

- *decorator*: a signature made once, at decoration; per call ``bind``,
  ``apply_defaults()``, ``.args`` and ``.kwargs`` (decorator libraries);
- *type checker*: ``inspect.signature(func)`` per call, then ``bind`` and
  ``.arguments`` (runtime type checkers);
- *currying*: binding as control flow: a ``bind`` that fails with
  ``TypeError``, then ``bind_partial``, whose ``.args`` and ``.kwargs`` are
  carried to the next call (currying and dispatch libraries).

The table is measured with the patch in place, and both cells of a row are
timed in the same interleaved rounds: the plain cell runs inspect's own code
through subclasses of its classes that keep inspect's methods (see
``_targets``).  The signature of a patched cell is made once, with the patch
on, as at a decoration that follows ``patch_inspect()`` at start-up.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Tuple

from . import _targets
from .case import Case
from .runner import Cell, generated_loop
from .table import Ratio, Table

PATTERNS: Dict[str, Tuple[str, str]] = {
    "decorator": (
        "signature made once; per call bind, apply_defaults(), .args, .kwargs",
        "ba = sig.bind(*args, **kwargs)\n"
        "ba.apply_defaults()\n"
        "ba.args\n"
        "ba.kwargs",
    ),
    "type checker": (
        "inspect.signature(f) per call, then bind and .arguments",
        "ba = module.signature(f).bind(*args, **kwargs)\n"
        "ba.arguments",
    ),
    "currying": (
        "bind fails (TypeError), then bind_partial; its .args and .kwargs carried on",
        "try:\n"
        "    sig.bind(*args, **kwargs)\n"
        "except TypeError:\n"
        "    ba = sig.bind_partial(*args, **kwargs)\n"
        "    carried = (ba.args, ba.kwargs)",
    ),
}

#: (pattern, case): for currying, the call leaves a required parameter out.
ROWS: List[Tuple[str, Case]] = [
    ("decorator", Case("decorator: three by position", "a, b, c", "1, 2, 3")),
    ("decorator", Case("decorator: mixed kinds", "a, b, /, c, d=4, *, e, g=7", "1, 2, 3, e=5")),
    ("type checker", Case("type checker: three by position", "a, b, c", "1, 2, 3")),
    ("type checker", Case("type checker: mixed kinds", "a, b, /, c, d=4, *, e, g=7",
                          "1, 2, 3, e=5")),
    ("currying", Case("currying: three, one given", "a, b, c", "1")),
    ("currying", Case("currying: mixed kinds, two given", "a, b, /, c, d=4, *, e, g=7",
                      "1, 2, e=5")),
]
COLUMNS = {
    "inspect": "plain inspect",
    "patched": "after posonly.patch_inspect()",
    "speedup": "speedup: plain inspect's time over the patched one's",
}
HEADS = {"inspect": "inspect", "patched": "patched"}


def pattern_cell(pattern: str, case: Case, column: str) -> Cell:
    statement = PATTERNS[pattern][1]
    f = case.function()
    args, kwargs = case.arguments()
    loop = generated_loop(statement, ["module", "f", "sig", "args", "kwargs"], unroll=1)
    if column == "inspect":
        plain = _targets.plain_inspect
        sig = plain.signature(f)

        def run_plain(n: int) -> int:
            return loop(n, plain, f, sig, args, kwargs)

        return Cell(case.name, column, run_plain, timed="inspect.Signature.bind")

    made: List[Any] = []

    def setup(n: int) -> None:
        _targets.require_patch()
        if not made:
            made.append(inspect.signature(f))  # with the patch on, as at a decoration

    def run(n: int) -> int:
        return loop(n, inspect, f, made[0], args, kwargs)

    return Cell(case.name, column, run, setup=setup, timed="inspect.Signature.bind, patched")


def check(pattern: str, case: Case) -> None:
    """The patched pattern's results equal plain inspect's."""
    f = case.function()
    args, kwargs = case.arguments()

    def outcome() -> Any:
        sig = inspect.signature(f)
        try:
            ba = sig.bind(*args, **kwargs)
        except TypeError as error:
            ba = sig.bind_partial(*args, **kwargs)
            return ("partial", str(error), ba.args, ba.kwargs, type(ba))
        ba.apply_defaults()
        return ("bound", ba.args, ba.kwargs, dict(ba.arguments), type(ba))

    plain = outcome()
    with _targets.patched():
        patched = outcome()
    if plain != patched:
        raise AssertionError(f"{case.label}: patched {patched!r} != plain {plain!r}")


def build(select: Optional[Any] = None) -> Table:
    table = Table("clients", "Client patterns: ns per client call, plain inspect against "
                  "patch_inspect()", COLUMNS,
                  reference="speedup: plain inspect's time over the patched one's")
    table.around = _targets.patched
    for pattern, case in ROWS:
        if select is not None and not select(table.key, case.name):
            table.filtered_out += 1
            continue
        check(pattern, case)
        cells = {c: pattern_cell(pattern, case, c) for c in ("inspect", "patched")}
        table.add_row(case.name, cells, pattern=pattern, does=PATTERNS[pattern][0], **case.info())
        table.add_ratio(case.name, "speedup", Ratio(cells["inspect"], cells["patched"]))
    return table


def section(table: Table) -> Dict[str, Any]:
    out = table.section()
    out["patterns"] = {name: {"does": does, "statement": statement}
                       for name, (does, statement) in PATTERNS.items()}
    return out
