"""A signature and a call, both as source text, shared by the suites."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from .runner import UNROLL, Cell, generated_loop


class Case:
    """A signature and a call, both as source text."""

    def __init__(self, name: str, params: str, call: str) -> None:
        self.name = name
        self.params = params
        self.call = call

    @property
    def signature(self) -> str:
        return f"({self.params})"

    @property
    def label(self) -> str:
        return f"({self.params}) <- f({self.call})"

    def parameter_names(self) -> List[str]:
        return [
            p.split("=")[0].strip().lstrip("*")
            for p in self.params.split(",")
            if p.strip() not in ("", "/", "*")
        ]

    def function(self) -> Callable[..., Tuple[Any, ...]]:
        """The floor: a plain def with this signature returning its locals."""
        names = self.parameter_names()
        namespace: Dict[str, Any] = {}
        exec(f"def f({self.params}):\n    return ({''.join(n + ', ' for n in names)})\n", namespace)
        return namespace["f"]  # type: ignore[no-any-return]

    def arguments(self) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
        """The call's positional tuple and keyword dict."""
        return eval(f"(lambda *a, **k: (a, k))({self.call})", {})  # type: ignore[no-any-return]

    def info(self) -> Dict[str, str]:
        return {"signature": self.signature, "call": f"f({self.call})"}


def timed_name(obj: Any) -> str:
    """What a cell times, as the type of the object called (so a reader, and
    a test, can see which implementation a column ran)."""
    kind = type(obj)
    name = f"{kind.__module__}.{kind.__qualname__}"
    if kind.__module__ == "builtins" and hasattr(obj, "__code__"):
        name += f" {obj.__module__}.{obj.__qualname__}"
    return name


def call_cell(case: Case, column: str, statement: str, fn: Any, **options: Any) -> Cell:
    """A cell that runs ``statement`` (``fn`` called, ``{call}`` standing for
    the case's literal arguments) in a generated, unrolled loop.  ``args``,
    ``kwargs``, ``stack`` and ``kwnames`` are the call's arguments in the
    other conventions."""
    args, kwargs = case.arguments()
    context = (fn, args, kwargs, args + tuple(kwargs.values()), tuple(kwargs) or None)
    loop = generated_loop(statement.format(call=case.call),
                          ["fn", "args", "kwargs", "stack", "kwnames"])

    def run(n: int) -> int:
        return loop(n, *context)

    options.setdefault("timed", timed_name(fn))
    return Cell(case.name, column, run, ops=UNROLL, **options)
