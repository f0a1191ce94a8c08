"""Scale: huge calls, wide layouts and the empty layout, against the interpreter."""

import pytest

from oracle import assert_same_outcome, interpreter_vectorcall, make_function, outcome
from posonly import MISSING, Layout

MANY_POSITIONAL = 100_000
MANY_KEYWORDS = 20_000


def check_entry_points(bind, func, args, kwargs):
    """The call, bind(), vectorcall() and partial() all answer as ``func``."""
    expected = outcome(lambda: func(*args, **kwargs))
    kwnames = tuple(kwargs)
    stack = args + tuple(kwargs.values())
    assert_same_outcome(outcome(lambda: bind(*args, **kwargs)), expected)
    assert_same_outcome(outcome(lambda: bind.bind(args, kwargs)), expected)
    assert_same_outcome(outcome(lambda: bind.vectorcall(stack, kwnames)), expected)
    assert_same_outcome(
        outcome(lambda: interpreter_vectorcall(bind, stack, kwnames)), expected
    )
    if expected[0] == "ok" or " missing " not in expected[2]:
        assert_same_outcome(outcome(lambda: bind.partial(*args, **kwargs)), expected)
    return expected


def test_many_positionals_into_star_args(impl):
    layout = Layout.parse("a, /, b, *rest, c=1, **kw")
    func = make_function(layout)
    args = tuple(object() for _ in range(MANY_POSITIONAL))
    expected = check_entry_points(impl.binder(layout), func, args, {})
    assert expected[0] == "ok" and len(expected[1][3]) == MANY_POSITIONAL - 2


def test_many_positionals_without_star_args(impl):
    layout = Layout.parse("a, b=2", name="g")
    args = tuple(range(MANY_POSITIONAL))
    expected = check_entry_points(impl.binder(layout), make_function(layout), args, {})
    assert "but 100000 were given" in expected[2]


def test_many_keywords_into_star_kwargs(impl):
    layout = Layout.parse("a, /, b, *, c, **extra")
    func = make_function(layout)
    kwargs = {f"k{i}": object() for i in range(MANY_KEYWORDS)}
    kwargs["c"] = object()
    kwargs["a"] = object()  # PEP 570: into **extra
    expected = check_entry_points(impl.binder(layout), func, (1, 2), kwargs)
    assert expected[0] == "ok" and len(expected[1][-1]) == MANY_KEYWORDS + 1
    bind = impl.binder(layout)
    assert list(bind.arguments(1, 2, **kwargs)["extra"]) == list(expected[1][-1])
    assert_same_outcome(outcome(lambda: bind.apply(func, expected[1])), expected)


def test_many_unexpected_keywords(impl):
    layout = Layout.parse("a, /, b, *, c", name="narrow")
    kwargs = {f"k{i}": i for i in range(MANY_KEYWORDS)}
    expected = check_entry_points(impl.binder(layout), make_function(layout), (1,), kwargs)
    assert "unexpected keyword argument" in expected[2]  # PyPy: "got 20000 unexpected ..."
    kwargs = dict(kwargs, a=0)
    expected = check_entry_points(impl.binder(layout), make_function(layout), (1,), kwargs)
    assert "positional-only" in expected[2]


def wide_layout(count):
    return Layout(
        name="wide",
        posonly=[f"p{i}" for i in range(count)],
        positional=[f"q{i}" for i in range(count)],
        varargs="rest",
        kwonly=[f"k{i}" for i in range(count)],
        varkw="extra",
        defaults=[object() for _ in range(count // 2)],
        kwdefaults={f"k{i}": object() for i in range(0, count, 2)},
    )


@pytest.mark.parametrize("count", [100, 300])
def test_layouts_with_hundreds_of_parameters(impl, count):
    layout = wide_layout(count)
    func = make_function(layout)
    bind = impl.binder(layout)
    positional = tuple(object() for _ in range(2 * count + 5))
    required_kwonly = {f"k{i}": object() for i in range(1, count, 2)}
    calls = [
        (positional, required_kwonly),
        (positional[: 2 * count - 3], required_kwonly),
        (positional[:count], dict(required_kwonly, **{f"q{i}": i for i in range(count)})),
        (positional[:count], {f"q{i}": i for i in range(count)}),  # keyword-only missing
        (positional[: count - 1], required_kwonly),  # a positional-only missing
        (positional[:count], dict(required_kwonly, q5=1, k0=2, zz=3, p0=4)),
        (positional, dict(required_kwonly, q0=1)),  # multiple values
        ((), {}),
    ]
    for args, kwargs in calls:
        check_entry_points(bind, func, args, kwargs)
    narrow = Layout(name="wide", positional=layout.positional, kwonly=layout.kwonly)
    check_entry_points(impl.binder(narrow), make_function(narrow), (), {"q_": 1})


def test_the_empty_layout(impl):
    layout = Layout(name="nothing")
    func = make_function(layout)
    bind = impl.binder(layout)
    for args, kwargs in [((), {}), ((1,), {}), ((), {"a": 1}), ((1, 2), {"a": 1})]:
        check_entry_points(bind, func, args, kwargs)
    assert bind() == ()
    assert bind.vectorcall((), None) == bind.vectorcall([], ()) == ()
    assert bind.partial() == ()
    assert bind.arguments() == {}
    assert bind.apply(func, ()) == ()
    assert str(layout) == "()" and layout.names == ()
    assert impl.binder(Layout.parse("")).layout == Layout(name="f")
    assert bind.partial() is not MISSING
