"""``wrap``: wrappers that hand each call's locals to a handler.

Differential tests first: generated layouts and calls through both kinds of
handler, against the function itself and its binder.  Then what a wrapper
looks like from outside (``functools.wraps``, ``inspect.signature``, pickle),
methods, coroutine functions, handlers that raise or change the values,
threads, the arguments of ``wrap`` itself, and reference counts.
"""

import asyncio
import collections
import functools
import inspect
import pickle
import random
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calls import generate_call, layouts
from oracle import Value, assert_same_outcome, make_function, outcome, same_object_tree
from posonly import MISSING, Layout
from posonly._plan import MISSING_VALUE

CALLS_PER_LAYOUT = 30


def _kwargs(kwnames, kwvalues):
    return dict(zip(kwnames, kwvalues))


def _same(got, expected, where):
    try:
        assert_same_outcome(got, expected)
    except AssertionError as exc:
        raise AssertionError(f"{where}: {exc}") from None


# -- differential: every call as the function itself answers it -----------------


def _recording_handler(kind, seen):
    """A handler of ``kind`` that records the values it sees; ``around``
    proceeds with them unchanged."""
    if kind == "before":
        return {"before": seen.append}

    def around(proceed, values):
        seen.append(values)
        return proceed(values)

    return {"around": around}


def _check_a_call(rng, layout, func, wrapper, seen, bind, what):
    """One generated call: the wrapper answers as ``func``, and its handler
    (recording into ``seen``) saw what ``bind`` returns, or nothing."""
    args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
    kwargs = _kwargs(kwnames, kwvalues)
    expected = outcome(lambda: func(*args, **kwargs))
    seen.clear()
    got = outcome(lambda: wrapper(*args, **kwargs))
    where = f"{what} called with {args}, {kwargs}"
    _same(got, expected, where)
    if expected[0] == "ok":
        assert len(seen) == 1, where
        assert same_object_tree(seen[0], bind(*args, **kwargs)), where
    else:
        assert seen == [], where


@pytest.mark.parametrize("kind", ["before", "around"])
@given(layout=layouts(), seed=st.integers(0, 2**32))
def test_the_handler_sees_the_binders_values_and_the_call_is_the_functions(
    impl, kind, layout, seed
):
    rng = random.Random(seed)
    func = make_function(layout)
    bind = impl.binder(func)
    seen = []
    wrapper = impl.wrap(func, **_recording_handler(kind, seen))
    for _ in range(CALLS_PER_LAYOUT):
        _check_a_call(rng, layout, func, wrapper, seen, bind, f"{layout!r}")


@pytest.mark.parametrize("kind", ["before", "around"])
@given(layout=layouts(), seed=st.integers(0, 2**32))
def test_a_kwdefaults_dict_changed_in_place_is_seen_as_by_the_function(impl, kind, layout, seed):
    """Keyword-only defaults set, changed and deleted in the function's own
    ``__kwdefaults__`` dict between calls: each call of the wrapper answers
    as the function does then, and its handler sees what a binder made then
    returns (a binder reads the defaults once, when it is made)."""
    rng = random.Random(seed)
    func = make_function(layout)
    if func.__kwdefaults__ is None:
        func.__kwdefaults__ = {}
    kwdefaults = func.__kwdefaults__
    seen = []
    wrapper = impl.wrap(func, **_recording_handler(kind, seen))
    names = list(layout.kwonly) + ["not_a_parameter"]
    for step in range(CALLS_PER_LAYOUT):
        name = rng.choice(names)
        if rng.random() < 0.4 and name in kwdefaults:
            del kwdefaults[name]
        else:
            kwdefaults[name] = Value(f"{name} at step {step}")
        _check_a_call(rng, layout, func, wrapper, seen, impl.binder(func),
                      f"{layout!r} with {kwdefaults}")


@given(layout=layouts(), seed=st.integers(0, 2**32))
def test_methods_answer_as_the_functions_methods(impl, layout, seed):
    """On a class, a wrapper is a method (the instance first in the values);
    a wrapper of a bound method leaves ``self`` out, as its binder does."""
    rng = random.Random(seed)
    func = make_function(layout)
    seen = []
    owner = type("Owner", (), {"plain": func, "wrapped": impl.wrap(func, before=seen.append)})()
    method = owner.plain
    of_bound = impl.wrap(method, around=lambda proceed, values: (seen.append(values), proceed(values))[1])
    bind_function, bind_method = impl.binder(func), impl.binder(method)
    for _ in range(CALLS_PER_LAYOUT // 2):
        args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
        kwargs = _kwargs(kwnames, kwvalues)
        expected = outcome(lambda: method(*args, **kwargs))
        where = f"{layout!r} method called with {args}, {kwargs}"
        for wrapper, bind, values_of in (
            (owner.wrapped, bind_function, lambda: bind_function(owner, *args, **kwargs)),
            (of_bound, bind_method, lambda: bind_method(*args, **kwargs)),
        ):
            seen.clear()
            _same(outcome(lambda: wrapper(*args, **kwargs)), expected, where)
            if expected[0] == "ok":
                assert len(seen) == 1 and same_object_tree(seen[0], values_of()), where
            else:
                assert seen == [], where


def test_parameters_named_like_the_wrappers_helpers(impl):
    names = ["func", "_func", "__func", "before", "_handler", "_proceed", "values", "_values",
             "_type", "_tuple", "_len", "_invalid", "type", "tuple", "len", "proceed"]
    layout = Layout(name="f", posonly=names[:4], positional=names[4:8], kwonly=names[8:12],
                    varargs="_args", varkw="_kw", defaults=(0,))
    func = make_function(layout)
    args = tuple(range(8))
    kwargs = {name: name for name in names[8:]}
    expected = func(*args, **kwargs)
    seen = []
    assert impl.wrap(func, before=seen.append)(*args, **kwargs) == expected
    assert impl.wrap(func, around=lambda proceed, values: proceed(values))(*args, **kwargs) == expected
    assert seen == [expected]


# -- the handlers -----------------------------------------------------------------


def test_before_runs_first_and_its_result_is_ignored(impl):
    log = []

    def f(a, b=2):
        log.append(("f", a, b))
        return a + b

    w = impl.wrap(f, before=lambda values: log.append(("before", values)) or "ignored")
    assert w(1) == 3
    assert w(b=5, a=1) == 6
    assert log == [("before", (1, 2)), ("f", 1, 2), ("before", (1, 5)), ("f", 1, 5)]


def test_before_cannot_change_the_callers_arguments(impl):
    """``func`` gets the caller's arguments, whatever ``before`` does with the
    values it was given (here, the ``**kwargs`` dict)."""

    def f(a, **kw):
        return a, kw

    def before(values):
        values[1].clear()
        values[1]["injected"] = True

    assert impl.wrap(f, before=before)(1, x=2, y=3) == (1, {"x": 2, "y": 3})


def test_handler_exceptions_propagate(impl):
    calls = []

    def f(a):
        calls.append(a)
        return a

    def failing(*args):
        raise LookupError("from the handler")

    for wrapper in (impl.wrap(f, before=failing), impl.wrap(f, around=failing)):
        with pytest.raises(LookupError, match="from the handler"):
            wrapper(1)
    assert calls == []

    def raising(a):
        raise KeyError(a)

    with pytest.raises(KeyError):
        impl.wrap(raising, before=calls.append)(7)
    with pytest.raises(KeyError):
        impl.wrap(raising, around=lambda proceed, values: proceed(values))(8)
    assert calls == [(7,)]


def test_around_returns_what_it_returns_and_may_change_the_values(impl):
    def f(a, /, b, *rest, c=3, **kw):
        return a, b, rest, c, kw

    def around(proceed, values):
        a, b, c, rest, kw = values
        return "result", proceed((a * 10, b, c + 1, rest + (0,), {**kw, "added": 1}))

    w = impl.wrap(f, around=around)
    assert w(1, 2, 9, z=5) == ("result", (10, 2, (9, 0), 4, {"z": 5, "added": 1}))
    assert impl.wrap(f, around=lambda proceed, values: None)(1, 2) is None
    # proceed may be called more than once, or kept and called later.
    kept = []
    twice = impl.wrap(f, around=lambda proceed, values: kept.append(proceed) or (proceed(values), proceed(values)))
    assert twice(1, 2) == ((1, 2, (), 3, {}),) * 2
    assert kept[0]((5, 6, 7, (), {})) == (5, 6, (), 7, {})


def test_proceed_is_made_once_per_wrapper(impl):
    kept = []
    w = impl.wrap(lambda a: a, around=lambda proceed, values: kept.append(proceed) or proceed(values))
    w(1)
    w(2)
    assert kept[0] is kept[1]


def test_proceed_refuses_what_is_not_a_locals_tuple(impl):
    def f(a, b=2, *, c):
        return a, b, c

    errors = []

    def around(proceed, values):
        for bad in ([1, 2, 3], (1, 2), (1, 2, 3, 4), (), None):
            with pytest.raises(TypeError) as info:
                proceed(bad)
            errors.append(str(info.value))
        return proceed(values)

    assert impl.wrap(f, around=around)(1, c=3) == (1, 2, 3)
    assert "tuple" in errors[0] and "list" in errors[0]
    assert all("3" in message for message in errors[1:4]), errors
    assert "NoneType" in errors[4]


def _star(a, *args, k, m=2, **kw):
    return (a, args, k, m, kw)


@pytest.mark.parametrize(
    "values, expected",
    [
        # frame order: a, k, m, *args, **kw
        ((10, 30, 40, (20,), {"q": 50}), ("ok", (10, (20,), 30, 40, {"q": 50}))),
        ((1, 3, 4, [2], {}), ("ok", (1, (2,), 3, 4, {}))),  # *args any iterable
        ((1, 3, 4, (), collections.OrderedDict(z=1)), ("ok", (1, (), 3, 4, {"z": 1}))),
        ((1, 3, 4, (), {"k": 9}),
         ("error", TypeError, "got multiple values for keyword argument 'k'")),
        ((1, 3, 4, (), {1: 2}), ("error", TypeError, "keywords must be strings")),
        ((1, MISSING, 4, (), {}), ("error", ValueError, MISSING_VALUE)),
        ((1, 3, 4, 5, {}), ("error", TypeError, "iterable")),  # PyPy: "not iterable"
    ],
    ids=["changed", "list-args", "mapping-kwargs", "repeated-keyword", "non-str-key",
         "missing", "bad-args"],
)
def test_proceed_calls_as_apply_does(impl, values, expected):
    """proceed(values) is Binder.apply(func, values): the interpreter spreads
    *args and merges **kwargs, and MISSING is refused."""
    wrapper = impl.wrap(_star, around=lambda proceed, _: proceed(values))
    got = outcome(lambda: wrapper(1, k=2))
    applied = outcome(lambda: impl.binder(_star).apply(_star, values))
    if expected[0] == "ok":
        assert got == applied == expected
    else:
        assert got[:2] == applied[:2] == expected[:2]
        assert expected[2] in got[2] and got[2] == applied[2]


def test_a_failed_bind_raises_the_functions_error_before_any_handler(impl):
    def f(a, /, b, *, c):
        pass

    called = []
    for wrapper in (impl.wrap(f, before=called.append), impl.wrap(f, around=called.append)):
        for args, kwargs in [((), {}), ((1,), {"a": 1, "b": 2, "c": 3}), ((1, 2, 3), {}),
                             ((1, 2), {"c": 3, "d": 4}), ((1,), {"b": 2, "c": 3, "cc": 1})]:
            assert outcome(lambda: wrapper(*args, **kwargs)) == outcome(lambda: f(*args, **kwargs))
    assert called == []


# -- what a wrapper looks like ------------------------------------------------------


def _sample(a, b=2, *, c=3):
    """The sample's docstring."""
    return a, b, c


_sample.attribute = "kept"


def test_a_wrapper_looks_as_functools_wraps_makes_it(impl):
    @functools.wraps(_sample)
    def reference(*args, **kwargs):
        return _sample(*args, **kwargs)

    for kind in ("before", "around"):
        handler = (lambda values: None) if kind == "before" else (lambda proceed, values: proceed(values))
        w = impl.wrap(_sample, **{kind: handler})
        assert isinstance(w, impl.Wrapper)
        assert w.__wrapped__ is _sample
        for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
            assert getattr(w, attr) == getattr(reference, attr), attr
        assert w.__dict__["attribute"] == "kept" and w.attribute == "kept"
        assert {k: v for k, v in w.__dict__.items() if k in _sample.__dict__} == _sample.__dict__
        assert inspect.signature(w) == inspect.signature(_sample)
        assert str(inspect.signature(w)) == "(a, b=2, *, c=3)"
        assert callable(w)
        assert w(1, c=5) == (1, 2, 5)
    assert not isinstance(_sample, impl.Wrapper)
    assert not isinstance(reference, impl.Wrapper)


def test_a_wrapper_of_a_wrapper(impl):
    seen = []
    inner = impl.wrap(_sample, before=lambda values: seen.append(("inner", values)))
    outer = impl.wrap(inner, before=lambda values: seen.append(("outer", values)))
    assert outer(1, 5) == (1, 5, 3)
    assert seen == [("outer", (1, 5, 3)), ("inner", (1, 5, 3))]
    assert outer.__wrapped__ is inner and inspect.unwrap(outer) is _sample
    assert inspect.signature(outer) == inspect.signature(_sample)


def test_wrap_takes_callables_that_are_not_functions(impl):
    seen = []
    w = impl.wrap(functools.partial(_sample, 1), before=seen.append)
    assert w(5, c=6) == (1, 5, 6)
    assert seen == [(5, 6)]

    class Point:
        def __init__(self, x, y=0):
            self.x, self.y = x, y

    p = impl.wrap(Point, before=seen.append)(3)
    assert (type(p), p.x, p.y) == (Point, 3, 0) and seen[-1] == (3, 0)


# -- methods ------------------------------------------------------------------------


def test_on_a_class_a_wrapper_is_a_method(impl):
    seen = []

    class Account:
        def deposit(self, amount, /, note=""):
            return self, amount, note

        deposit = impl.wrap(deposit, before=seen.append)

        def plain(self, x):
            return x

        of_class = impl.wrap(plain, around=lambda proceed, values: ("around", proceed(values)))

    account = Account()
    assert account.deposit(5, note="rent") == (account, 5, "rent")
    assert seen == [(account, 5, "rent")]
    # Through the class attribute, the instance is passed as it is to a function.
    assert Account.deposit(account, 6) == (account, 6, "")
    assert seen[-1] == (account, 6, "")
    assert account.of_class(1) == ("around", 1)
    assert Account.of_class(account, 2) == ("around", 2)
    bound = account.deposit
    assert bound.__self__ is account and bound.__func__ is Account.__dict__["deposit"]
    with pytest.raises(TypeError) as info:
        account.deposit(1, 2, 3)
    with pytest.raises(TypeError) as expected:
        Account.deposit.__wrapped__(account, 1, 2, 3)
    assert str(info.value) == str(expected.value)


def test_a_wrapper_of_a_bound_method_leaves_self_out(impl):
    class Counter:
        def add(self, n=1, *more):
            return self, n, more

    counter = Counter()
    seen = []
    w = impl.wrap(counter.add, before=seen.append)
    assert w(2, 3) == (counter, 2, (3,))
    assert seen == [(2, (3,))]
    assert inspect.signature(w) == inspect.signature(counter.add)
    assert w.__wrapped__ == counter.add
    with pytest.raises(TypeError) as info:
        w(n=1, self=2)
    assert str(info.value) == outcome(lambda: counter.add(n=1, self=2))[2]


# -- coroutine functions -----------------------------------------------------------


async def _fetch(url, *, retries=3):
    await asyncio.sleep(0)
    return url, retries


def test_a_wrapper_of_a_coroutine_function_is_one(impl):
    log = []
    for kind, handler in (("before", log.append),
                          ("around", lambda proceed, values: log.append(values) or proceed(values))):
        w = impl.wrap(_fetch, **{kind: handler})
        assert inspect.iscoroutinefunction(w), kind
        if sys.version_info < (3, 14):  # deprecated from 3.14 on, for inspect's
            assert asyncio.iscoroutinefunction(w), kind
        assert isinstance(w, impl.Wrapper)
        log.clear()
        coroutine = w("u", retries=1)
        assert log == [("u", 1)]  # the handler ran at call time
        assert inspect.iscoroutine(coroutine)
        assert asyncio.run(coroutine) == ("u", 1)
        # A call that does not bind fails at call time, as the function's does.
        assert outcome(lambda: w()) == outcome(lambda: _fetch())
        assert outcome(lambda: w("u", 2)) == outcome(lambda: _fetch("u", 2))
        assert log == [("u", 1)]
        assert w.__wrapped__ is _fetch and w.__name__ == "_fetch"
        assert inspect.signature(w) == inspect.signature(_fetch)


def test_an_async_around_handler_awaits_proceed(impl):
    async def around(proceed, values):
        url, retries = values
        return "wrapped", await proceed((url.upper(), retries))

    assert asyncio.run(impl.wrap(_fetch, around=around)("u")) == ("wrapped", ("U", 3))


def test_a_wrapped_async_method(impl):
    seen = []

    class Client:
        async def get(self, path):
            return self, path

        get = impl.wrap(get, before=seen.append)

    client = Client()
    assert inspect.iscoroutinefunction(client.get)
    assert inspect.iscoroutinefunction(Client.get)
    assert asyncio.run(client.get("/")) == (client, "/")
    assert asyncio.run(Client.get(client, "/x")) == (client, "/x")
    assert seen == [(client, "/"), (client, "/x")]
    of_bound = impl.wrap(client.get, around=lambda proceed, values: proceed(values))
    assert inspect.iscoroutinefunction(of_bound)
    assert asyncio.run(of_bound("/y")) == (client, "/y")


def test_a_wrapper_of_a_plain_function_is_not_a_coroutine_function(impl):
    assert not inspect.iscoroutinefunction(impl.wrap(_sample, before=print))


# -- pickle ---------------------------------------------------------------------------


def test_a_module_level_wrapper_pickles_by_reference(impl):
    for kind, target in (("sync", _sample), ("async", _fetch)):
        name = f"pickled_{impl.name}_{kind}"

        def function(*args, **kwargs):
            return target(*args, **kwargs)

        function.__qualname__ = function.__name__ = name
        function.__module__ = __name__
        function.__signature__ = inspect.signature(target)
        wrapper = impl.wrap(function, before=lambda values: None)
        globals()[name] = wrapper
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(wrapper, protocol)) is wrapper


def test_a_local_wrapper_does_not_pickle_as_a_local_function_does_not(impl):
    def local(a):
        return a

    expected = outcome(lambda: pickle.dumps(local))
    got = outcome(lambda: pickle.dumps(impl.wrap(local, before=print)))
    assert got[0] == expected[0] == "error"
    assert issubclass(got[1], (pickle.PicklingError, AttributeError))


# -- threads ---------------------------------------------------------------------------


def test_one_wrapper_is_shared_by_threads(impl):
    def f(a, /, b, *rest, c=3, **kw):
        return a, b, rest, c, kw

    seen = []

    def before(values):
        seen.append(values)

    def around(proceed, values):
        a, b, c, rest, kw = values
        return proceed((a, b, c + 1, rest, kw))

    wrappers = [impl.wrap(f, before=before), impl.wrap(f, around=around)]
    failures = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)

    def work(seed):
        rng = random.Random(seed)
        for _ in range(1500):
            a, b = object(), object()
            rest = tuple(object() for _ in range(rng.randint(0, 2)))
            kw = {f"k{i}": object() for i in range(rng.randint(0, 2))}
            which = rng.randint(0, 2)
            if which == 2:
                got = outcome(lambda: wrappers[0](a))
                if got != ("error", TypeError, outcome(lambda: f(a))[2]):
                    failures.append(got)
                continue
            got = wrappers[which](a, b, *rest, c=1, **kw)
            if got != (a, b, rest, 1 + which, kw) or type(got[4]) is not dict:
                failures.append(got)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    assert failures == []
    assert seen and all(len(values) == 5 and values[2] == 1 for values in seen)


# -- the arguments of wrap ---------------------------------------------------------------


def test_wrap_refuses_bad_arguments(impl):
    def f(a):
        return a

    for call, words in [
        (lambda: impl.wrap(f), "before= or around="),
        (lambda: impl.wrap(f, before=None, around=None), "before= or around="),
        (lambda: impl.wrap(f, before=print, around=print), "before= or around="),
        (lambda: impl.wrap(1, before=print), "callable, not int"),
        (lambda: impl.wrap(f, before=3), "callable, not int"),
        (lambda: impl.wrap(f, around="x"), "callable, not str"),
        (lambda: impl.wrap(f, print), ""),
        (lambda: impl.wrap(f, after=print), ""),
    ]:
        with pytest.raises(TypeError) as info:
            call()
        assert words in str(info.value)


def test_a_handler_that_asks_gets_the_form_of_each_call(impl):
    # form=True: the CallForm of the call as the caller made it, over the
    # wrapper's layout: a method called on an instance counts the instance
    # (its layout has self), a classmethod the class; a bound method's or a
    # partial's call leaves out what it puts first, as its layout does.
    import warnings

    from posonly import CallForm

    forms = []

    def told(values, form):
        forms.append(form)
        warnings.warn("told", UserWarning, stacklevel=2)

    class K:
        def m(self, a, b=2, *, c=3):
            return a + b + c

        @classmethod
        def k(cls, a, b=2):
            return a + b

    K.m = impl.wrap(K.m, before=told, form=True)
    K.k = impl.wrap(classmethod(K.k.__func__), around=lambda proceed, values, form: (
        forms.append(form), proceed(values))[1], form=True)
    obj = K()
    m = K.m.__wrapped__
    bound = impl.Wrapper(m.__get__(obj), before=told, form=True)
    partial = impl.wrap(functools.partial(m, obj, 1), before=told, form=True)
    calls = [  # (whose layout, what is called, args, kwargs, nargs as the wrapper sees it)
        (K.m, obj.m, (1,), {"c": 4}, 2, m(obj, 1, c=4)),
        (K.m, K.m, (obj,), {"a": 1}, 1, m(obj, a=1)),
        (K.k, K.k, (1,), {"b": 5}, 2, 6),
        (bound, bound, (1,), {"b": 5}, 1, m(obj, 1, b=5)),
        (partial, partial, (), {"c": 5}, 0, m(obj, 1, c=5)),
    ]
    for owner, target, args, kwargs, nargs, expected in calls:
        forms.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            line = sys._getframe().f_lineno + 1
            result = target(*args, **kwargs)
        assert result == expected
        assert forms == [CallForm(owner.layout, nargs, tuple(kwargs))], (impl.name, forms)
        warned = target != K.k  # (the classmethod's handler does not warn)
        assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)] * warned
    with pytest.raises(TypeError, match=r"^wrap\(\) form= must be True or False, not int$"):
        impl.wrap(len, before=told, form=1)
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'forms'"):
        impl.wrap(len, before=told, forms=True)
