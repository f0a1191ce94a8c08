"""Generated layouts and calls, right and wrong, for the differential tests."""

import random
from typing import Any, Tuple

from hypothesis import strategies as st

from oracle import Str, Value
from posonly import Layout

NAMES = ["a", "b", "c", "d", "e", "name", "kw", "args", "value", "self", "x1"]
FUNCTION_NAMES = ["f", "C.m", "outer.<locals>.inner", "_private"]
EXTRA_KEYWORDS = ["zz", "nam", "valeu", "kwargs", "b2"]


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    names = iter(draw(st.permutations(NAMES)))
    count = st.integers(0, 3)
    posonly = [next(names) for _ in range(draw(count))]
    positional = [next(names) for _ in range(draw(count))]
    varargs = next(names) if draw(st.booleans()) else None
    kwonly = [next(names) for _ in range(draw(count))]
    varkw = next(names) if draw(st.booleans()) else None
    argcount = len(posonly) + len(positional)
    defaults = [Value(f"default{i}") for i in range(draw(st.integers(0, argcount)))]
    kwdefaults = {n: Value(f"kwdefault:{n}") for n in kwonly if draw(st.booleans())}
    return Layout(
        name=draw(st.sampled_from(FUNCTION_NAMES)),
        posonly=posonly,
        positional=positional,
        varargs=varargs,
        kwonly=kwonly,
        varkw=varkw,
        defaults=defaults,
        kwdefaults=kwdefaults,
    )


def keyword_variant(rng: random.Random, name: str) -> str:
    """The name as a call might spell it: interned, equal but not identical, or
    a str subclass."""
    kind = rng.random()
    if kind < 0.6:
        return name
    if kind < 0.85:
        return "".join(list(name))
    return Str(name)


def generate_call(rng: random.Random, layout: Layout,
                  allow_odd_names: bool) -> Tuple[Tuple[Any, ...], Tuple[Any, ...], Tuple[Any, ...]]:
    nargs = rng.randint(0, layout.argcount + 2)
    args = tuple(Value(f"arg{i}") for i in range(nargs))
    pool = list(layout.names) + EXTRA_KEYWORDS
    kwnames: list[Any] = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
        name = rng.choice(pool)
        if not allow_odd_names and name in kwnames:
            continue
        kwnames.append(keyword_variant(rng, name))
    if allow_odd_names and rng.random() < 0.05:
        kwnames.insert(rng.randint(0, len(kwnames)), rng.choice([1, b"a", None]))
    kwvalues = tuple(Value(f"kw:{n}") for n in kwnames)
    return args, tuple(kwnames), kwvalues
