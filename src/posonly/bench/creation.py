"""The creation table: what making a binder, a wrapper, a layout or a
signature costs, against making a ``functools.wraps`` pass-through ``def``.

Every object is made from a function made for the purpose: its own code
object and its own parameter names, so that no cache keyed on a function, a
code object or a name can hide the cost.  The functions are made in
batches before each sample, outside the timed region; a sample makes one
object per function and keeps it alive until the sample is over (what is
timed is making, not freeing).  Bytes kept per object are measured apart,
with ``tracemalloc``, over many fresh functions.
"""

from __future__ import annotations

import functools
import gc
import inspect
import itertools
import sys
import time
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

import posonly

from . import grid
from .runner import Cell
from .table import BestRatio, Table

#: (name, parameters with ``{u}`` where each function's own suffix goes)
SIGNATURES: List[Tuple[str, str]] = [
    ("three by position", "a{u}, b{u}, c{u}"),
    ("mixed kinds", "a{u}, b{u}, /, c{u}, d{u}=4, *, e{u}, g{u}=7"),
    ("*args, **kwargs", "*args{u}, **kwargs{u}"),
    ("twenty with defaults", ", ".join(["p0{u}", "p1{u}", "p2{u}"]
                                       + [f"p{i}{{u}}={i}" for i in range(3, 20)])),
]


def make_wraps_def(f: Callable[..., Any]) -> Callable[..., Any]:
    """What a decorator that wraps without looking at arguments makes."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs)

    return wrapper


def handler(values: Any) -> None:
    """The before= wrappers' no-op handler."""


def around_handler(proceed: Callable[[Any], Any], values: Any) -> Any:
    """The around= wrappers' pass-through handler."""
    return proceed(values)


# (column, expression making one object from ``f``, description)
COLUMNS: List[Tuple[str, str, str]] = [
    ("wraps-def", "make_wraps_def(f)", "a decorator making a functools.wraps pass-through def"),
    ("binder", "binder(f)", "posonly.binder(f)"),
    ("wrap", "wrap(f, before=handler)", "posonly.wrap(f, before=handler)"),
    ("wrap-around", "wrap(f, around=around_handler)", "posonly.wrap(f, around=around_handler)"),
    ("layout", "from_callable(f)", "posonly.Layout.from_callable(f)"),
    ("inspect.signature", "inspect_signature(f)", "inspect.signature(f)"),
    ("posonly.signature", "posonly_signature(f)", "posonly.signature(f)"),
]
NAMESPACE: Dict[str, Any] = {
    "make_wraps_def": make_wraps_def,
    "binder": posonly.binder,
    "wrap": posonly.wrap,
    "handler": handler,
    "around_handler": around_handler,
    "from_callable": posonly.Layout.from_callable,
    "inspect_signature": inspect.signature,
    "posonly_signature": posonly.signature,
}
HEADS = {"wraps-def": "wraps def", "binder": "binder", "wrap": "wrap", "wrap-around": "wrap around",
         "layout": "Layout",
         "inspect.signature": "inspect.sig", "posonly.signature": "posonly.sig", "signature speedup": "sig speedup"}
#: Fresh functions per tracemalloc measurement.
MEMORY_OBJECTS = 400


class FreshFunctions:
    """Functions of one signature, each with its own code object and its own
    parameter names, made on demand: one template is compiled, and each
    function gets a copy of its code object with names of its own
    (``code.replace``, interned as the compiler interns them) and a
    defaults tuple and dict of its own.  Compiling each function from
    source costs 10-15x as much and left the table's time to the
    compiler."""

    _serial = itertools.count()

    def __init__(self, params: str) -> None:
        self.params = params
        namespace: Dict[str, Any] = {"__name__": "posonly_bench_fresh"}
        source = f"def f({params.format(u='')}):\n    return None\n"
        exec(compile(source, "<posonly bench: fresh functions>", "exec", dont_inherit=True),
             namespace)
        self.template: Callable[..., Any] = namespace["f"]
        self.globals = namespace

    def take(self, n: int) -> List[Callable[..., Any]]:
        template = self.template
        code = template.__code__
        varnames = code.co_varnames
        defaults = template.__defaults__
        kwdefaults = template.__kwdefaults__
        qualified = sys.version_info >= (3, 11)
        out: List[Callable[..., Any]] = []
        for _ in range(n):
            u = f"_{next(self._serial)}"
            name = sys.intern(f"f{u}")
            names = tuple(sys.intern(v + u) for v in varnames)
            fresh = (code.replace(co_varnames=names, co_name=name, co_qualname=name)
                     if qualified else code.replace(co_varnames=names, co_name=name))
            f = types.FunctionType(fresh, self.globals, name,
                                   None if defaults is None else tuple(list(defaults)))
            if kwdefaults:
                f.__kwdefaults__ = {k + u: v for k, v in kwdefaults.items()}
            out.append(f)
        return out


def _loop(expression: str) -> Callable[..., int]:
    source = (
        "def timer(functions, keep):\n"
        "    t0 = _clock()\n"
        "    for f in functions:\n"
        f"        keep({expression})\n"
        "    return _clock() - t0\n"
    )
    namespace = dict(NAMESPACE, _clock=time.perf_counter_ns)
    exec(source, namespace)
    return namespace["timer"]  # type: ignore[no-any-return]


def creation_cell(row: str, column: str, expression: str, fresh: FreshFunctions) -> Cell:
    loop = _loop(expression)
    state: Dict[str, Any] = {}

    def setup(n: int) -> None:
        state["functions"] = fresh.take(n)
        state["kept"] = []

    def run(n: int) -> int:
        functions = state["functions"][:n]
        del state["functions"][:n]
        return loop(functions, state["kept"].append)

    def teardown() -> None:
        state.clear()

    probe = NAMESPACE[expression.split("(")[0]]
    return Cell(row, column, run, setup=setup, teardown=teardown, warmup=False,
                timed=f"{getattr(probe, '__module__', '?')}.{getattr(probe, '__qualname__', probe)}")


def bytes_per_object(expression: str, fresh: FreshFunctions, count: int) -> Optional[float]:
    """Bytes still allocated per object made, kept alive, from ``count``
    fresh functions (tracemalloc; the functions themselves not counted), or
    None where the interpreter has no tracemalloc (PyPy)."""
    try:
        import tracemalloc
    except ImportError:
        return None
    make = eval(f"lambda f: {expression}", dict(NAMESPACE))
    functions = fresh.take(count)
    kept: List[Any] = [None] * count
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i, f in enumerate(functions):
            kept[i] = make(f)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return (after - before) / count


def check(expression: str, fresh: FreshFunctions) -> None:
    """The two signatures agree; every object is made without error."""
    (f,) = fresh.take(1)
    made = eval(expression, dict(NAMESPACE, f=f))
    if expression.startswith("posonly_signature") and made != inspect.signature(f):
        raise AssertionError(f"posonly.signature({f.__name__}) != inspect.signature")


#: Loops per round when pytest-benchmark times a cell (benchmarks/): the
#: same for every cell of the table, so that their round times compare.
LOOPS = 100


def row_names() -> List[str]:
    """The table's rows, by name, without building anything."""
    return [name for name, _ in SIGNATURES]


def build(select: Optional[Any] = None) -> Table:
    table = Table(
        "creation", "Creation: making one object from a fresh function, time relative to "
        "making a functools.wraps pass-through def", {c: d for c, _, d in COLUMNS},
        unit="ns", reference="each column's best time over the wraps-def's; "
        "posonly.signature also over inspect.signature's")
    table.columns["signature speedup"] = "inspect.signature's time over posonly.signature's"
    for name, params in SIGNATURES:
        if select is not None and not select(table.key, name):
            table.filtered_out += 1
            continue
        fresh = FreshFunctions(params)
        cells = {}
        for column, expression, _ in COLUMNS:
            check(expression, fresh)
            cells[column] = creation_cell(name, column, expression, fresh)
        table.add_row(name, cells, signature="(" + params.replace("{u}", "") + ")",
                      call="")
        for column, timed in cells.items():
            if column != "wraps-def":
                table.add_ratio(name, column, BestRatio(timed, cells["wraps-def"]))
        table.add_ratio(name, "signature speedup",
                        BestRatio(cells["inspect.signature"], cells["posonly.signature"]))
    return table


def memory(table: Table, count: int) -> Dict[str, Dict[str, float]]:
    """Bytes per object, row by row; empty where tracemalloc is missing."""
    out: Dict[str, Dict[str, float]] = {}
    for row in table.rows:
        params = dict(SIGNATURES)[row["name"]]
        fresh = FreshFunctions(params)
        found = {}
        for column, expression, _ in COLUMNS:
            size = bytes_per_object(expression, fresh, count)
            if size is None:
                return {}
            found[column] = round(size, 1)
        out[row["name"]] = found
    return out


def section(table: Table, memory_count: int = MEMORY_OBJECTS) -> Dict[str, Any]:
    bytes_kept = memory(table, memory_count) if table.rows else {}
    extra = {}
    for name, columns in bytes_kept.items():
        base = columns["wraps-def"]
        extra[name] = {
            "bytes": columns,
            "bytes_ratio": {c: round(v / base, 3) for c, v in columns.items()
                            if c != "wraps-def" and base > 0},
        }
    out = table.section(extra)
    out["memory"] = {"method": "tracemalloc: bytes still allocated per object kept alive",
                     "objects_per_measurement": memory_count,
                     "measured": bool(bytes_kept) or not table.rows}
    return out


def format_section(section: Dict[str, Any], width: int = grid.WIDTH) -> List[str]:
    """The table's section of a run, as lines at most ``width`` characters."""
    columns = [c for c in section["columns"] if c not in ("wraps-def", "signature speedup")]
    rows = section["rows"]
    names = grid.with_geomean([row["name"] for row in rows], section, True)
    values = [("wraps def ns", grid.with_geomean(
        [f"{row['cells']['wraps-def']['value']:.0f}" for row in rows], section, False))]
    for c in columns + ["signature speedup"]:
        cells = [grid.ratio(row["ratios"].get(c), 0) for row in rows]
        if section["geomean"]:
            cells.append(grid.ratio(section["geomean"].get(c), 0))
        values.append((HEADS[c], cells))
    values.append(("+-", grid.with_geomean([grid.pct(grid.row_spread(row)) for row in rows], section, False)))
    lines = grid.title(section, width) + grid.lines([("signature", names)], values, width)
    if not section["memory"]["measured"]:
        lines += grid.wrap_text("bytes kept per object: not measured (this interpreter has no "
                       "tracemalloc)", width)
    else:
        lines += grid.wrap_text(f"bytes kept per object (tracemalloc, "
                       f"{section['memory']['objects_per_measurement']} fresh functions), and "
                       "relative to a wraps def's:", width)
        memory = [("wraps def B", [f"{row['bytes']['wraps-def']:.0f}" for row in rows])]
        memory += [(HEADS[c], [f"{row['bytes_ratio'][c]:.2f}x " for row in rows])
                   for c in columns]
        lines += grid.lines([("signature", [row["name"] for row in rows])], memory, width)
    return lines + grid.legend(((HEADS[c], t) for c, t in section["columns"].items()), width)
