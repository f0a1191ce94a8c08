"""The recipes in ``examples/``: each decorator's behaviour, in its posonly
version over both implementations and in its ``inspect`` version, and the
interface the benchmarks use (``make_decorated``, ``SAMPLE_ARGS``,
``SAMPLE_KWARGS``)."""

import functools
import importlib.util
import runpy
import sys
from pathlib import Path

import pytest
from conftest import _load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECIPES = ["validate", "trace", "memoize"]


def _load_example(name):
    # Loaded under a name of its own: examples/trace.py must not stand in
    # for the standard library's trace module.
    spec = importlib.util.spec_from_file_location(f"posonly_example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


validate, trace, memoize = (_load_example(name) for name in RECIPES)


class Version:
    """Picks a recipe module's decorator: ``version(validate)``."""

    def __init__(self, kind):
        self.kind = kind

    def __call__(self, module):
        return getattr(module, f"{self.kind}_version")


@pytest.fixture(params=["posonly-cython", "posonly-python", "inspect"])
def version(request, monkeypatch):
    kind, _, implementation = request.param.partition("-")
    if implementation:
        wrap = _load(implementation).wrap
        for module in (validate, trace, memoize):
            monkeypatch.setattr(module, "wrap", wrap)
    return Version(kind)


def _type_error(func, *args, **kwargs):
    with pytest.raises(TypeError) as info:
        func(*args, **kwargs)
    return str(info.value)


# -- validate -----------------------------------------------------------------


def test_validate_checks_each_argument_however_it_was_passed(version):
    seen = []

    def positive(v):
        seen.append(v)
        return v > 0

    @version(validate)(a=positive, c=positive, rest=lambda v: len(v) < 2)
    def f(a, /, b, c=3, *rest, d=4):
        return a + b + c + d + sum(rest)

    assert f(1, 2) == 10
    assert f(1, b=2, c=5) == 12
    assert f(1, 2, 3, 4, d=0) == 10
    assert seen == [1, 3, 1, 5, 1, 3]
    with pytest.raises(validate.ValidationError) as info:
        f(1, 2, 0)
    assert (info.value.parameter, info.value.value) == ("c", 0)
    assert str(info.value) == f"{f.__qualname__}() argument 'c' failed its check: 0"
    with pytest.raises(validate.ValidationError, match="'rest' failed its check: \\(4, 5\\)"):
        f(1, 2, 3, 4, 5)


def test_validate_checks_defaults_too(version):
    @version(validate)(unit=str.isupper)
    def f(x, unit="m"):
        return x

    with pytest.raises(validate.ValidationError) as info:
        f(1)
    assert info.value.parameter == "unit"
    assert f(1, unit="M") == 1


def test_validate_is_a_value_error_and_keeps_the_function(version):
    @version(validate)(x=lambda v: v != 0)
    def reciprocal(x):
        """One over x."""
        return 1 / x

    assert reciprocal.__name__ == "reciprocal"
    assert reciprocal.__doc__ == "One over x."
    assert reciprocal.__wrapped__(4) == 0.25
    with pytest.raises(ValueError):
        reciprocal(0)


def test_validate_rejects_rules_for_unknown_parameters(version):
    def f(a, b):
        pass

    with pytest.raises(TypeError, match="has no parameter 'c'"):
        version(validate)(a=bool, c=bool)(f)


def test_validate_works_on_methods(version):
    class Account:
        @version(validate)(amount=lambda v: v > 0)
        def deposit(self, amount):
            return amount

    assert Account().deposit(5) == 5
    with pytest.raises(validate.ValidationError):
        Account().deposit(amount=-5)


def test_validate_raises_a_type_error_for_a_call_that_does_not_bind(version):
    def f(a, /, b, *, c):
        pass

    checked = version(validate)(a=bool)(f)
    for args, kwargs in [((), {}), ((1,), {"a": 1, "b": 2, "c": 3}), ((1, 2, 3), {}), ((1, 2), {"c": 3, "d": 4})]:
        message = _type_error(checked, *args, **kwargs)
        if version.kind == "posonly":  # the interpreter's own message
            assert message == _type_error(f, *args, **kwargs)


# -- trace --------------------------------------------------------------------


def test_trace_records_every_parameter_in_signature_order(version):
    calls = []

    @version(trace)(calls.append)
    def f(a, /, b=2, *args, c, d=4, **kwargs):
        return a

    assert f(1, c=3) == 1
    f(1, 5, 6, 7, c=3, e=8)
    name = f.__qualname__
    assert calls == [
        trace.Call(name, {"a": 1, "b": 2, "args": (), "c": 3, "d": 4, "kwargs": {}}),
        trace.Call(name, {"a": 1, "b": 5, "args": (6, 7), "c": 3, "d": 4, "kwargs": {"e": 8}}),
    ]
    assert [list(call.arguments) for call in calls] == [["a", "b", "args", "c", "d", "kwargs"]] * 2


def test_trace_records_the_same_call_the_same_way(version):
    calls = []

    @version(trace)(calls.append)
    def f(a, b=2, *, c=3):
        pass

    f(1, 2)
    f(1, b=2)
    f(b=2, a=1, c=3)
    f(1)
    assert len(calls) == 4 and all(call == calls[0] for call in calls)


def test_trace_does_not_record_a_call_that_does_not_bind(version):
    calls = []

    def f(a, /, b):
        pass

    traced = version(trace)(calls.append)(f)
    message = _type_error(traced, 1, 2, 3)
    if version.kind == "posonly":
        assert message == _type_error(f, 1, 2, 3)
    assert calls == []


def test_trace_posonly_and_inspect_versions_agree():
    def f(a, b=2, /, c=3, *args, d, e=5, **kwargs):
        pass

    posonly_calls, inspect_calls = [], []
    by_posonly = trace.posonly_version(posonly_calls.append)(f)
    by_inspect = trace.inspect_version(inspect_calls.append)(f)
    for args, kwargs in [((1,), {"d": 4}), ((1, 2, 3, 4, 5), {"d": 4, "x": 6}), ((1,), {"c": 0, "d": 1, "e": 2})]:
        by_posonly(*args, **kwargs)
        by_inspect(*args, **kwargs)
    assert posonly_calls == inspect_calls


# -- memoize ------------------------------------------------------------------


def _counting(version, **options):
    calls = []

    @version(memoize)(**options)
    def f(a, b=2, *, log=None):
        calls.append((a, b))
        return a * 10 + b

    return f, calls


def test_memoize_shares_one_entry_between_every_way_of_passing_a_call(version):
    f, calls = _counting(version)
    assert {f(1, 2), f(1, b=2), f(b=2, a=1), f(1)} == {12}
    assert calls == [(1, 2)]
    assert f(1, 3) == 13
    assert calls == [(1, 2), (1, 3)]


def test_lru_cache_keeps_those_calls_apart():
    calls = []

    @functools.lru_cache(maxsize=None)
    def f(a, b=2):
        calls.append((a, b))

    f(1, 2)
    f(1, b=2)
    f(1)
    assert len(calls) == 3


def test_memoize_leaves_ignored_parameters_out_of_the_key(version):
    f, calls = _counting(version, ignore=("log",))
    f(1, log=print)
    f(1, log=None)
    f(1, 2, log=repr)
    assert calls == [(1, 2)]
    g, g_calls = _counting(version)
    g(1, log=print)
    g(1, log=repr)
    assert len(g_calls) == 2


def test_memoize_keys_varargs_and_kwargs_by_value(version):
    calls = []

    @version(memoize)()
    def f(*args, **kwargs):
        calls.append(1)
        return args, kwargs

    assert f(1, x=1, y=2) == ((1,), {"x": 1, "y": 2})
    f(1, y=2, x=1)
    assert len(calls) == 1
    f(1, 2, x=1, y=2)
    f(1, x=1, y=3)
    f(x=1, y=2)
    assert len(calls) == 4


def test_memoize_rejects_unknown_ignored_names_and_unhashable_values(version):
    def f(a):
        return a

    with pytest.raises(TypeError, match="has no parameter 'b'"):
        version(memoize)(ignore=("b",))(f)
    with pytest.raises(TypeError, match="unhashable"):
        version(memoize)()(f)([1])


def test_memoize_does_not_cache_exceptions(version):
    calls = []

    @version(memoize)()
    def f(a):
        calls.append(a)
        raise KeyError(a)

    for _ in range(2):
        with pytest.raises(KeyError):
            f(1)
    assert calls == [1, 1]


def test_memoize_raises_a_type_error_for_a_call_that_does_not_bind(version):
    def f(a, /, b):
        pass

    cached = version(memoize)()(f)
    for args, kwargs in [((1,), {}), ((1, 2, 3), {}), ((), {"a": 1, "b": 2})]:
        message = _type_error(cached, *args, **kwargs)
        if version.kind == "posonly":
            assert message == _type_error(f, *args, **kwargs)


# -- the interface the benchmarks use, and the demos ---------------------------


@pytest.mark.parametrize("recipe", [validate, trace, memoize], ids=RECIPES)
def test_every_kind_of_decorated_sample_gives_the_same_result(recipe):
    results = {
        kind: recipe.make_decorated(kind)(*recipe.SAMPLE_ARGS, **recipe.SAMPLE_KWARGS)
        for kind in ("posonly", "inspect", "plain")
    }
    assert results["posonly"] == results["inspect"] == results["plain"]
    assert recipe.make_decorated("posonly") is not recipe.make_decorated("posonly")
    assert recipe.posonly_version is not recipe.inspect_version
    with pytest.raises(KeyError):
        recipe.make_decorated("lru_cache")


@pytest.mark.parametrize("name", RECIPES)
def test_each_recipe_runs_as_a_script(name, capsys):
    runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 2
    expected = {
        "validate": "ValidationError: pay() argument 'amount' failed its check: -3",
        "trace": "Call(function='fetch', arguments={'url': 'https://example.org', 'timeout': 10, "
        "'headers': (), 'retries': 3, 'options': {}})",
        "memoize": "computing area(2, 3)",
    }[name]
    assert expected in lines


# -- over a function already decorated with functools.wraps ----------------------


def _logged(func):
    calls = []

    @functools.wraps(func)
    def logged(*args, **kwargs):
        calls.append(args)
        return func(*args, **kwargs)

    logged.calls = calls
    return logged


def test_validate_over_a_functools_wraps_decorator(version):
    @_logged
    def pay(amount, currency="EUR"):
        return amount, currency

    checked = version(validate)(amount=lambda v: v > 0, currency=str.isupper)(pay)
    assert checked(5) == (5, "EUR")
    assert checked(amount=5, currency="USD") == (5, "USD")
    with pytest.raises(validate.ValidationError) as info:
        checked(5, "usd")
    assert info.value.parameter == "currency"
    assert len(pay.calls) == 2  # the decorator still runs, once per call
    message = _type_error(checked, 1, "USD", 3)
    assert len(pay.calls) == 2  # a call that does not bind does not get there
    if version.kind == "posonly":
        assert message == _type_error(pay, 1, "USD", 3)


def test_memoize_over_a_functools_wraps_decorator(version):
    @_logged
    def area(w, h=1):
        return w * h

    cached = version(memoize)()(area)
    assert {cached(2, 3), cached(2, h=3), cached(w=2, h=3)} == {6}
    assert len(area.calls) == 1


def test_trace_over_a_functools_wraps_decorator(version):
    calls = []

    @_logged
    def fetch(url, /, timeout=10, *, retries=3):
        return url

    traced = version(trace)(calls.append)(fetch)
    assert traced("x", retries=1) == "x"
    assert calls == [trace.Call(fetch.__qualname__, {"url": "x", "timeout": 10, "retries": 1})]
