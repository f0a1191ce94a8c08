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

And inspect's options and older functions, one call each:

- *options*: ``inspect.signature(f, **options)``: ``eval_str=True`` (web
  frameworks and command-line builders, per route or command at start-up),
  with annotations that need no evaluation and with string annotations
  that do; from 3.14, ``annotation_format=FORWARDREF`` and ``STRING``
  (test runners, caching decorators, property-based testing tools);
- *getfullargspec*: ``inspect.getfullargspec(f)`` (dependency-injection
  containers, per resolution);
- *getcallargs*: ``inspect.getcallargs(f, *args, **kwargs)``;
- *kinds*: ``inspect.signature(obj)`` of callables other than plain
  functions (a bound method, a class, a dataclass, a callable object, a
  ``functools.wraps`` chain, a builtin function and method, classes with
  ``object``'s constructor, with a ``__new__`` and an ``__init__``, with a
  metaclass's ``__call__``, an enum, a class whose ``__init__`` is a
  ``functools.partialmethod``), and ``getfullargspec`` of a class
  (dependency-injection containers, per object built).

The table is measured with the patch in place, and both cells of a row are
timed in the same interleaved rounds: the plain cell runs inspect's own code
through subclasses of its classes that keep inspect's methods (see
``_targets``).  The signature of a patched cell is made once, with the patch
on, as at a decoration that follows ``patch_inspect()`` at start-up.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _targets, grid
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

PATTERNS.update({
    "options": (
        "inspect.signature(f, **options) per call",
        "module.signature(f, **kwargs)",
    ),
    "getfullargspec": (
        "inspect.getfullargspec(f) per call",
        "module.getfullargspec(f)",
    ),
    "getcallargs": (
        "inspect.getcallargs(f, *args, **kwargs) per call",
        "module.getcallargs(f, *args, **kwargs)",
    ),
    "kinds": (
        "inspect.signature(obj) per call, obj a method, class, callable object, ...",
        "module.signature(f)",
    ),
})
TIMED = {
    "options": "inspect.signature",
    "kinds": "inspect.signature",
    "getfullargspec": "inspect.getfullargspec",
    "getcallargs": "inspect.getcallargs",
}
"""What a pattern's cells time, where it is not ``inspect.Signature.bind``."""


class OptionCase(Case):
    """A case whose parameters may be annotated (compiled without this
    module's ``from __future__ import annotations``); for the options
    pattern its "call" is the options (``annotation_format``'s values named
    as ``Format.X``).  ``shown`` is how the report writes the call."""

    def __init__(self, name: str, params: str, call: str,
                 shown: str = "inspect.signature(f, {call})") -> None:
        super().__init__(name, params, call)
        self.shown = shown

    def function(self) -> Callable[..., Tuple[Any, ...]]:
        names = self.parameter_names()
        source = f"def f({self.params}):\n    return ({''.join(n + ', ' for n in names)})\n"
        namespace: Dict[str, Any] = {}
        exec(compile(source, "<case>", "exec", dont_inherit=True), namespace)
        return namespace["f"]  # type: ignore[no-any-return]

    def parameter_names(self) -> List[str]:
        return [p.split("=")[0].split(":")[0].strip().lstrip("*")
                for p in self.params.split(",") if p.strip() not in ("", "/", "*")]

    def arguments(self) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
        namespace: Dict[str, Any] = {}
        if "Format" in self.call:
            import annotationlib  # type: ignore[import-not-found]

            namespace["Format"] = annotationlib.Format
        return eval(f"(lambda *a, **k: (a, k))({self.call})",  # type: ignore[no-any-return]
                    namespace)

    def info(self) -> Dict[str, str]:
        return {"signature": self.signature, "call": self.shown.format(call=self.call)}


class KindCase(OptionCase):
    """A callable of another kind than a plain function, made of the case's
    parameters: ``kind`` is ``bound method``, ``class``, ``dataclass``,
    ``callable object``, ``wraps chain``, ``class with __new__`` (and an
    ``__init__``), ``metaclass __call__``, ``partialmethod`` (an
    ``__init__`` of one), or (of no parameters of the case's) ``builtin``,
    ``builtin method``, ``bare class`` or ``enum``."""

    SOURCES = {
        "bound method": "class C:\n    def m(self, {params}):\n        pass\nf = C().m\n",
        "class": "class C:\n    def __init__(self, {params}):\n        pass\nf = C\n",
        "dataclass": ("import dataclasses\n@dataclasses.dataclass\nclass C:\n"
                      "    a: int\n    b: str = 'x'\n    c: float = 1.0\nf = C\n"),
        "callable object": "class C:\n    def __call__(self, {params}):\n        pass\nf = C()\n",
        "wraps chain": ("import functools\ndef g({params}):\n    pass\n"
                        "@functools.wraps(g)\ndef f(*args, **kwargs):\n    pass\n"),
        "builtin": "f = sorted\n",
        "builtin method": "f = 'x'.split\n",
        "bare class": "class C:\n    pass\nf = C\n",
        "class with __new__": ("class C:\n    def __new__(cls, {params}):\n"
                               "        return object.__new__(cls)\n"
                               "    def __init__(self, *args, **kwargs):\n        pass\nf = C\n"),
        "metaclass __call__": ("class M(type):\n    def __call__(cls, {params}):\n        pass\n"
                               "class C(metaclass=M):\n    pass\nf = C\n"),
        "enum": "import enum\nclass C(enum.Enum):\n    A = 1\n    B = 2\nf = C\n",
        "partialmethod": ("import functools\ndef g(self, {params}):\n    pass\n"
                          "class C:\n    __init__ = functools.partialmethod(g, 1)\nf = C\n"),
    }

    def __init__(self, name: str, kind: str, params: str, shown: str) -> None:
        super().__init__(name, params, "", shown)
        self.kind = kind

    def function(self) -> Any:
        namespace: Dict[str, Any] = {"__name__": __name__}
        source = self.SOURCES[self.kind].format(params=self.params)
        exec(compile(source, "<case>", "exec", dont_inherit=True), namespace)
        return namespace["f"]


ANNOTATED = "a: int, b: str = 'x', /, c: float = 1.0, *, d: bool = True"
STRINGS = "a: 'int', b: 'str' = 'x', /, c: 'float' = 1.0, *, d: 'list[int]' = []"

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
if sys.version_info >= (3, 10):  # inspect.signature takes options from 3.10
    ROWS += [
        ("options", OptionCase("options: eval_str, annotations", ANNOTATED, "eval_str=True")),
        ("options", OptionCase("options: eval_str, string annotations", STRINGS,
                               "eval_str=True")),
    ]
if sys.version_info >= (3, 14):
    ROWS += [
        ("options", OptionCase("options: FORWARDREF, annotations", ANNOTATED,
                               "annotation_format=Format.FORWARDREF")),
        ("options", OptionCase("options: STRING, no annotations",
                               "a, b='x', /, c=1.0, *, d=True", "annotation_format=Format.STRING")),
        ("options", OptionCase("options: STRING, annotations", ANNOTATED,
                               "annotation_format=Format.STRING")),
    ]
ROWS += [
    ("getfullargspec", OptionCase("getfullargspec: every kind",
                                  "a, b, /, c, d=4, *args, e, g=7, **kw", "",
                                  "getfullargspec(f)")),
    ("getcallargs", OptionCase("getcallargs: every kind", "a, b, /, c, d=4, *, e, g=7",
                               "1, 2, 3, e=5", "getcallargs(f, {call})")),
]
ROWS += [
    ("kinds", KindCase(f"kinds: {kind}", kind, params, f"signature({shown})"))
    for kind, params, shown in [
        ("bound method", "a, b=2, *, c=3", "obj.m"),
        ("class", "a, b=2, *, c=3", "C: its __init__"),
        ("dataclass", "a: int, b: str = 'x', c: float = 1.0", "C: a dataclass"),
        ("callable object", "a, b=2, *, c=3", "obj: its __call__"),
        ("wraps chain", "a, b=2, *, c=3", "functools.wraps(g)(f)"),
        ("builtin", "", "sorted"),
        ("builtin method", "", "'x'.split"),
        ("bare class", "", "C: object's constructor"),
        ("class with __new__", "a, b=2, *, c=3", "C: __new__ and __init__"),
        ("metaclass __call__", "a, b=2, *, c=3", "C: its metaclass's __call__"),
        ("enum", "", "C: an enum"),
        ("partialmethod", "a, b=2, *, c=3", "C: a partialmethod __init__"),
    ]
]
ROWS.append(("getfullargspec", KindCase("getfullargspec: a class", "class", "a, b=2, *, c=3",
                                        "getfullargspec(C)")))
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

        return Cell(case.name, column, run_plain, timed=TIMED.get(pattern, "inspect.Signature.bind"))

    made: List[Any] = []

    def setup(n: int) -> None:
        _targets.require_patch()
        if not made:
            made.append(inspect.signature(f))  # with the patch on, as at a decoration

    def run(n: int) -> int:
        return loop(n, inspect, f, made[0], args, kwargs)

    return Cell(case.name, column, run, setup=setup,
                timed=TIMED.get(pattern, "inspect.Signature.bind") + ", patched")


def _once(pattern: str, module: Any, f: Any, args: Any, kwargs: Any) -> Any:
    """What one call of an option pattern answers, comparably."""
    if pattern == "options" or pattern == "kinds":
        sig = module.signature(f, **kwargs)
        return (sig, str(sig), [p.annotation for p in sig.parameters.values()])
    if pattern == "getfullargspec":
        return module.getfullargspec(f)
    return module.getcallargs(f, *args, **kwargs)


def check(pattern: str, case: Case) -> None:
    """The patched pattern's results equal plain inspect's."""
    f = case.function()
    args, kwargs = case.arguments()
    if pattern in TIMED:
        plain_answer = _once(pattern, _targets.plain_inspect, f, args, kwargs)
        with _targets.patched():
            patched_answer = _once(pattern, inspect, f, args, kwargs)
        if plain_answer != patched_answer:
            raise AssertionError(f"{case.label}: patched {patched_answer!r} != plain "
                                 f"{plain_answer!r}")
        return

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


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 50


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [case.name for _, case in ROWS]


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


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    rows = section["rows"]
    labels = list(zip(("pattern", "signature", "call"),
                      grid.rows(section, "pattern", "signature", "call")))
    if section["geomean"]:
        labels = [(head, cells + (["geomean"] if head == "pattern" else [""]))
                  for head, cells in labels]
    values = [
        ("inspect ns", grid.with_geomean([f"{row['cells']['inspect']['value']:.0f}" for row in rows],
                                     section, False)),
        ("patched ns", grid.with_geomean([f"{row['cells']['patched']['value']:.0f}" for row in rows],
                                     section, False)),
        ("speedup", [grid.ratio(row["ratios"].get("speedup"), 0) for row in rows]
         + ([grid.ratio(section["geomean"].get("speedup"), 0)] if section["geomean"] else [])),
        ("+-", grid.with_geomean([grid.pct(grid.row_spread(row)) for row in rows], section, False)),
    ]
    lines = grid.title(section, width) + grid.lines(labels, values, width)
    for name, pattern in section["patterns"].items():
        lines += grid.wrap_text(f"{name}: {pattern['does']}", width)
    return lines
