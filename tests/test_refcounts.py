"""Reference counts and memory stay flat over thousands of calls.

Every entry point (the call, ``bind``, ``vectorcall``, ``partial``,
``arguments``, ``apply``, and the ``inspect`` drop-in when it is there) is run
on every success path and every error path.  The reference counts of the
arguments, the defaults, the keyword names (interned, equal but not interned,
``str`` subclasses), the layout and the binder must not move, and the number
of allocated memory blocks must stay flat: a leak of one reference or one
object per call fails.
"""

import gc
import sys

import pytest

if not hasattr(sys, "getrefcount"):
    pytest.skip("no reference counts to watch: PyPy's collector moves and frees objects "
                "itself", allow_module_level=True)

import tracemalloc  # noqa: E402 - PyPy has none

import posonly
from oracle import (
    NosyName,
    Str,
    Value,
    interpreter_vectorcall,
    make_function,
    outcome,
    requires_vectorcall,
    same_object_tree,
)
from posonly import Layout

CALLS = 1000
WARMUP = 100


def _tolerance(calls, unit):
    # Blocks or bytes that may come and go between two measurements (free
    # lists, caches warmed by the first calls).  A leak of one object per call
    # is ``calls`` blocks, or at least 16 bytes a call.
    return max(100, calls // 10) if unit == "blocks" else calls * 16



def fresh(name):
    """An exact str equal to ``name`` but not the interned object."""
    return "".join(list(name))


def _memory():
    blocks = sys.getallocatedblocks()
    if blocks:
        return blocks, "blocks"
    # The interpreter was started with a malloc that pymalloc does not count
    # (PYTHONMALLOC=malloc, as under the sanitizer): trace bytes instead.
    return tracemalloc.get_traced_memory()[0], "bytes"


def assert_flat(run, watched, calls=CALLS):
    """Run ``run`` (which may raise) ``calls`` times; nothing may leak."""
    watched = list(watched)
    tracing = sys.getallocatedblocks() == 0 and not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    try:
        for _ in range(WARMUP):
            try:
                run()
            except Exception:  # noqa: BLE001 - error paths are exercised too
                pass
        gc.collect()
        refs_before = [sys.getrefcount(o) for o in watched]
        memory_before, unit = _memory()
        for _ in range(calls):
            try:
                run()
            except Exception:  # noqa: BLE001
                pass
        gc.collect()
        memory_after, _ = _memory()
        refs_after = [sys.getrefcount(o) for o in watched]
    finally:
        if tracing:
            tracemalloc.stop()
    moved = [
        (o, before, after)
        for o, before, after in zip(watched, refs_before, refs_after)
        if before != after
    ]
    assert not moved, f"reference counts moved over {calls} calls: {moved}"
    assert memory_after - memory_before <= _tolerance(calls, unit), (
        f"{memory_after - memory_before} {unit} more after {calls} calls"
    )


# -- the layouts ------------------------------------------------------------

D_B, D_D, D_G = Value("default b"), Value("default d"), Value("kwdefault g")

LAYOUTS = {
    # positional-only, positional-or-keyword with defaults, keyword-only
    "mixed": Layout(
        name="mixed", posonly=("a", "b"), positional=("c", "d"), kwonly=("e", "g"),
        defaults=(Value("default c"), D_D), kwdefaults={"g": D_G},
    ),
    "star": Layout(
        name="star", posonly=("a",), positional=("b",), varargs="rest",
        kwonly=("e",), varkw="extra", defaults=(D_B,), kwdefaults={"e": D_G},
    ),
    # PEP 570's corner: a positional-only name may go into **kw
    "corner": Layout(name="corner", posonly=("name",), varkw="kw"),
    "empty": Layout(name="empty"),
}


def _names(layout):
    return list(layout.names)


# Each case: layout key, positional args, keywords as (name, kind) pairs where
# kind spells the name: "interned", "fresh" (equal, not identical), "sub".
CASES = {
    "ok-positional": ("mixed", 4, [("e", "interned")]),
    "ok-keywords": ("mixed", 2, [("c", "fresh"), ("e", "sub"), ("g", "interned")]),
    "ok-defaults": ("mixed", 2, [("e", "fresh")]),
    "ok-star": ("star", 5, [("e", "sub"), ("x", "fresh"), ("y", "sub"), ("z", "interned")]),
    "ok-star-empty": ("star", 1, []),
    "ok-corner": ("corner", 1, [("name", "fresh"), ("other", "sub")]),
    "ok-empty": ("empty", 0, []),
    "too-many": ("mixed", 5, [("e", "interned")]),
    "too-many-with-kwonly": ("mixed", 6, [("e", "fresh"), ("g", "sub")]),
    "too-many-empty": ("empty", 2, []),
    "missing-positional": ("mixed", 1, [("e", "interned")]),
    "missing-keyword-only": ("mixed", 2, [("c", "fresh")]),
    "unexpected": ("mixed", 2, [("zzzz", "fresh"), ("e", "interned")]),
    "unexpected-suggested": ("mixed", 2, [("ee", "sub"), ("e", "interned")]),
    "unexpected-empty": ("empty", 0, [("x", "fresh")]),
    "posonly-as-keyword": ("mixed", 0, [("a", "fresh"), ("b", "sub"), ("e", "interned")]),
    "multiple-values": ("mixed", 3, [("c", "sub"), ("e", "interned")]),
    "multiple-values-star": ("star", 2, [("b", "fresh")]),
}


def spell(name, kind):
    if kind == "interned":
        return sys.intern(name)
    if kind == "fresh":
        return fresh(name)
    return Str(name)


class Call:
    """One call's arguments, made once and reused, so their counts can be watched."""

    def __init__(self, layout_key, nargs, keywords):
        self.layout = LAYOUTS[layout_key]
        self.args = tuple(Value(f"arg{i}") for i in range(nargs))
        self.kwnames = tuple(spell(name, kind) for name, kind in keywords)
        self.kwvalues = tuple(Value(f"kw:{name}") for name, _ in keywords)
        self.kwargs = dict(zip(self.kwnames, self.kwvalues))
        self.stack = self.args + self.kwvalues

    def watched(self):
        return (
            list(self.args) + list(self.kwnames) + list(self.kwvalues)
            + [self.kwargs, self.stack, self.layout]
            + list(self.layout.defaults) + [v for _, v in self.layout._kwdefaults]
            + list(self.layout.names)
        )


ENTRY_POINTS = {
    "call": lambda b, c: b(*c.args, **c.kwargs),
    "bind": lambda b, c: b.bind(c.args, c.kwargs),
    "vectorcall": lambda b, c: b.vectorcall(c.stack, c.kwnames),
    "partial": lambda b, c: b.partial(*c.args, **c.kwargs),
    "arguments": lambda b, c: b.arguments(*c.args, **c.kwargs),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_entry_points_do_not_leak(impl, case, entry):
    call = Call(*CASES[case])
    bind = impl.binder(call.layout)
    run = ENTRY_POINTS[entry]
    # The path under test is the one the interpreter takes for this call.
    func = make_function(call.layout)
    expected = outcome(lambda: func(*call.args, **call.kwargs))
    got = outcome(lambda: run(bind, call))
    if expected[0] == "error" and not (entry == "partial" and " missing " in expected[2]):
        assert got == expected
    elif entry in ("call", "bind", "vectorcall"):
        assert got[0] == "ok" and got[1] == expected[1]
    assert_flat(lambda: run(bind, call), call.watched() + [bind])


def test_the_vectorcall_path_of_the_call_does_not_leak(impl):
    """The interpreter's own vectorcall into the binder, kwnames and all."""
    for case in ("ok-keywords", "ok-star", "unexpected", "multiple-values", "missing-keyword-only"):
        call = Call(*CASES[case])
        bind = impl.binder(call.layout)
        assert_flat(
            lambda: interpreter_vectorcall(bind, call.stack, call.kwnames),
            call.watched() + [bind],
        )


@pytest.mark.parametrize("case", ["ok-positional", "ok-keywords", "ok-star", "ok-corner", "ok-empty"])
def test_apply_does_not_leak(impl, case):
    call = Call(*CASES[case])
    bind = impl.binder(call.layout)
    func = make_function(call.layout)
    values = bind(*call.args, **call.kwargs)
    assert bind.apply(func, values) == values
    assert_flat(lambda: bind.apply(func, values), call.watched() + [bind, func, values])


def test_apply_error_paths_do_not_leak(impl):
    call = Call(*CASES["ok-keywords"])
    bind = impl.binder(call.layout)
    func = make_function(call.layout)
    values = bind(*call.args, **call.kwargs)
    missing = bind.partial()
    short = values[:-1]
    as_list = list(values)
    not_callable = Value("not callable")

    def raising(*args, **kwargs):
        raise KeyError("raised by the function")

    for bad in (
        lambda: bind.apply(func, missing),
        lambda: bind.apply(func, short),
        lambda: bind.apply(func, as_list),
        lambda: bind.apply(not_callable, values),
        lambda: bind.apply(raising, values),
    ):
        assert outcome(bad)[0] == "error"
        assert_flat(bad, call.watched() + [bind, func, values, missing, short, not_callable])


@requires_vectorcall
def test_non_str_keyword_names_do_not_leak(impl):
    layout = LAYOUTS["star"]
    bind = impl.binder(layout)
    func = make_function(layout)
    arg, value, other = Value("arg"), Value("value"), Value("other")
    name = fresh("x")
    for key in (1, b"x", None, Value("key")):
        stack, kwnames = (arg, value, other), (name, key)
        expected = outcome(lambda: interpreter_vectorcall(func, stack, kwnames))
        assert outcome(lambda: bind.vectorcall(stack, kwnames)) == expected
        kwargs = {name: value, key: other}
        expected = outcome(lambda: func(arg, **kwargs))
        assert outcome(lambda: bind.bind((arg,), kwargs)) == expected
        watched = [arg, value, other, name, key, stack, kwnames, kwargs, bind]
        assert_flat(lambda: bind.vectorcall(stack, kwnames), watched)
        assert_flat(lambda: bind.bind((arg,), kwargs), watched)


def test_bad_entry_point_arguments_do_not_leak(impl):
    layout = LAYOUTS["mixed"]
    bind = impl.binder(layout)
    arg, number = Value("arg"), Value("not iterable")
    stack = (arg, arg)
    names_list = ["a"]
    too_many_names = ("c", "d", "e")

    class Mapping:
        def keys(self):
            return ["e"]

        def __getitem__(self, key):
            return arg

    mapping = Mapping()
    for bad in (
        lambda: bind.bind(number),
        lambda: bind.bind((arg,), number),
        lambda: bind.bind([arg, arg], mapping),
        lambda: bind.bind(iter(stack), None),
        lambda: bind.vectorcall(number),
        lambda: bind.vectorcall(stack, names_list),
        lambda: bind.vectorcall(stack, too_many_names),
        lambda: bind.vectorcall(list(stack), ("e",)),
    ):
        outcome(bad)
        assert_flat(bad, [arg, number, stack, names_list, too_many_names, mapping, bind])


class RaisingEq(str):
    def __eq__(self, other):
        raise ZeroDivisionError("eq")

    __hash__ = str.__hash__


def test_a_raising_keyword_eq_does_not_leak(impl):
    layout = LAYOUTS["mixed"]
    bind = impl.binder(layout)
    name = RaisingEq("c")
    arg, value = Value("arg"), Value("value")
    kwargs = {name: value}
    for run in (
        lambda: bind(arg, **kwargs),
        lambda: bind.bind((arg,), kwargs),
        lambda: bind.vectorcall((arg, value), (name,)),
        lambda: bind.partial(arg, **kwargs),
    ):
        assert outcome(run)[:2] == ("error", ZeroDivisionError)
        assert_flat(run, [name, arg, value, kwargs, bind])


def _bound_method(layout):
    func = make_function(layout)
    owner = type("Owner", (), {"method": func})()
    return owner, owner.method


@pytest.mark.parametrize("case", ["ok-positional", "ok-keywords", "too-many", "missing-positional",
                                  "unexpected", "multiple-values", "ok-star", "multiple-values-star"])
def test_bound_method_binders_do_not_leak(impl, case):
    call = Call(*CASES[case])
    # The method's function has the layout; its first parameter is self.
    owner, method = _bound_method(call.layout)
    bind = impl.binder(method)
    args = call.args[1:]
    stack = args + call.kwvalues
    expected = outcome(lambda: method(*args, **call.kwargs))
    got = outcome(lambda: bind(*args, **call.kwargs))
    assert got[0] == expected[0]
    if expected[0] == "error":
        assert got == expected
    watched = call.watched() + [owner, bind, stack]
    for run in (
        lambda: bind(*args, **call.kwargs),
        lambda: bind.bind(args, call.kwargs),
        lambda: bind.vectorcall(stack, call.kwnames),
        lambda: bind.partial(*args, **call.kwargs),
        lambda: bind.arguments(*args, **call.kwargs),
    ):
        assert_flat(run, watched)


def test_making_binders_does_not_leak(impl):
    layout = LAYOUTS["mixed"]
    func = make_function(layout)
    owner, method = _bound_method(layout)
    for make in (lambda: impl.binder(layout), lambda: impl.binder(func),
                 lambda: impl.binder(method), lambda: impl.Binder(Value("not a layout"))):
        assert_flat(make, [layout, func, owner] + list(layout.defaults), calls=500)


@pytest.mark.skipif(not hasattr(posonly, "signature"), reason="the inspect drop-in is not there")
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_inspect_drop_in_does_not_leak(case):
    call = Call(*CASES[case])
    sig = posonly.signature(make_function(call.layout))
    watched = call.watched() + [sig]
    for run in (
        lambda: sig.bind(*call.args, **call.kwargs),
        lambda: sig.bind_partial(*call.args, **call.kwargs),
    ):
        assert_flat(run, watched, calls=CALLS // 2)


# -- wrappers ---------------------------------------------------------------------

def _handlers(kind, raising):
    if kind == "before":
        if raising:
            def before(values):
                raise LookupError("handler")
            return {"before": before}
        return {"before": lambda values: None}
    if raising:
        def around(proceed, values):
            raise LookupError("handler")
        return {"around": around}
    return {"around": lambda proceed, values: proceed(values)}


@pytest.mark.parametrize("raising", [False, True], ids=["handler-ok", "handler-raises"])
@pytest.mark.parametrize("kind", ["before", "around"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_wrapped_calls_do_not_leak(impl, case, kind, raising):
    call = Call(*CASES[case])
    func = make_function(call.layout)
    handlers = _handlers(kind, raising)
    wrapper = impl.wrap(func, **handlers)
    expected = outcome(lambda: func(*call.args, **call.kwargs))
    got = outcome(lambda: wrapper(*call.args, **call.kwargs))
    if expected[0] == "error":
        assert got == expected
    elif raising:
        assert got[:2] == ("error", LookupError)
    else:
        assert got[0] == "ok" and same_object_tree(got[1], expected[1])
    watched = call.watched() + [func, wrapper] + list(handlers.values())
    assert_flat(lambda: wrapper(*call.args, **call.kwargs), watched)


@pytest.mark.parametrize("kind", ["before", "around"])
@pytest.mark.parametrize("case", ["ok-keywords", "missing-positional"])
def test_wrapped_calls_with_their_form_do_not_leak(impl, case, kind):
    call = Call(*CASES[case])
    func = make_function(call.layout)
    forms = []
    handler = ({"before": lambda values, form: forms.append(form)} if kind == "before" else
               {"around": lambda proceed, values, form: (forms.append(form), proceed(values))[1]})
    wrapper = impl.wrap(func, form=True, **handler)
    assert outcome(lambda: wrapper(*call.args, **call.kwargs)) == outcome(
        lambda: func(*call.args, **call.kwargs))
    forms.clear()
    watched = call.watched() + [func, wrapper] + list(handler.values())
    assert_flat(lambda: (wrapper(*call.args, **call.kwargs), forms.clear()), watched)


@pytest.mark.parametrize("kind", ["before", "around"])
def test_keyword_only_defaults_read_at_the_call_do_not_leak(impl, kind):
    """A wrapper looks keyword-only defaults up in the function's own dict at
    each call: found, missing (deleted in place), and behind a key whose
    ``__eq__`` is Python code, which runs while the values are half-built."""
    def f(a, *, k=Value("k"), m=Value("m")):
        return a, k, m

    wrapper = impl.wrap(f, **_handlers(kind, False))
    a, m = Value("a"), Value("m2")
    watched = [a, m, f, wrapper, *f.__kwdefaults__.values()]
    assert_flat(lambda: wrapper(a), watched)
    f.__kwdefaults__["m"] = m  # in place
    assert wrapper(a) == f(a) == (a, f.__kwdefaults__["k"], m)
    assert_flat(lambda: wrapper(a, k=a), watched)
    nosy = NosyName("k")
    f.__kwdefaults__ = {nosy: a, "m": m}  # replaced: read again, then at each call
    assert wrapper(a) == f(a) == (a, a, m)
    nosy.walks = False  # the loops look for leaks, not for half-built tuples
    assert_flat(lambda: wrapper(a), watched, calls=CALLS // 4)
    del f.__kwdefaults__["m"]
    nosy.walks = True
    assert outcome(lambda: wrapper(a)) == outcome(lambda: f(a))
    assert outcome(lambda: wrapper(a))[:2] == ("error", TypeError)
    nosy.walks = False
    assert_flat(lambda: outcome(lambda: wrapper(a)), watched, calls=CALLS // 4)


def test_proceed_errors_do_not_leak(impl):
    call = Call(*CASES["ok-star"])
    func = make_function(call.layout)
    bad = [Value("x")], (Value("y"),), None
    wrapper = impl.wrap(func, around=lambda proceed, values: [outcome(lambda: proceed(b)) for b in bad])
    assert all(o[:2] == ("error", TypeError) for o in wrapper(*call.args, **call.kwargs))
    assert_flat(lambda: wrapper(*call.args, **call.kwargs), call.watched() + [func, wrapper, *bad])


def test_making_wrappers_does_not_leak(impl):
    call = Call(*CASES["ok-keywords"])
    func = make_function(call.layout)
    handler = print
    assert_flat(lambda: impl.wrap(func, before=handler), [func, handler, call.layout], calls=300)
    assert_flat(lambda: impl.wrap(func, before=3), [func], calls=300)


def test_binders_of_partials_and_callable_instances_do_not_leak(impl):
    """The general path with a prefix and a partial's keywords: the merged
    keywords, the stack with the prefix, the values taken from the locals."""
    import functools

    def g(a, b, c=3, *rest, d, **kw):
        return a

    class CI:
        def __call__(self, a, *, b=2):
            return a

    first, keyword, value = Value("first"), Value("keyword"), Value("value")
    cases = [
        (functools.partial(g, first, d=keyword), [((value,), {}), ((value, value, value), {"e": value}),
                                                 ((), {}), ((value,), {"b": value}), ((value,), {1: value})]),
        (functools.partial(g, first, value, value, value), [((), {"d": value}), ((), {})]),
        (CI(), [((value,), {}), ((value, value), {}), ((), {"b": value})]),
    ]
    for target, calls in cases:
        bind = impl.binder(target)
        wrapper = impl.wrap(target, around=lambda proceed, values: proceed(values))

        def run():
            for args, kwargs in calls:
                outcome(lambda: bind(*args, **kwargs))
                outcome(lambda: bind.partial(*args, **kwargs))
                outcome(lambda: bind.arguments(*args, **kwargs))
                outcome(lambda: bind.bind(args, kwargs))
                outcome(lambda: wrapper(*args, **kwargs))

        assert_flat(run, [first, keyword, value, bind, target], calls=300)


def test_resolving_what_a_callable_advertises_does_not_leak(impl):
    import functools

    def inner(a, b=2):
        return a

    @functools.wraps(inner)
    def outer(*args, **kwargs):
        return inner(*args, **kwargs)

    def run():
        impl.binder(outer)(1)
        impl.binder(functools.partial(inner, 1))()
        impl.wrap(outer, before=lambda values: None)(1)

    assert_flat(run, [inner, outer], calls=200)
