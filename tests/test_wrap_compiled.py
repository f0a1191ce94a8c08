"""The compiled wrapper, ``posonly._bind.wrap``: what its C parts must get
right beyond the shared suite (proceed's checks, the kwargs merge, method
calls without a bound method, reference counts, the collector)."""

import asyncio
import functools
import gc
import inspect
import pickle
import sys
import threading
import types

import pytest

from conftest import extension_required

if sys.implementation.name != "cpython":
    pytest.skip("the compiled wrapper is built for CPython only", allow_module_level=True)
try:
    from posonly import _bind
except ImportError:  # pragma: no cover - the pure-only build
    if extension_required():
        raise
    pytest.skip("the compiled extension is not built", allow_module_level=True)

from posonly import MISSING

wrap = _bind.wrap
Wrapper = _bind.Wrapper


def f(a, b, /, c, d=4, *, e, g=7):
    """f's doc."""
    return (a, b, c, d, e, g)


def v(a, *args, k, m=2, **kw):
    return (a, args, k, m, kw)


def _seen(values):
    _seen.last = values


module_level = wrap(f, before=_seen)
module_level.__qualname__ = module_level.__name__ = "module_level"


def through(proceed, values):
    return proceed(values)


CALLS = [
    ((1, 2, 3), {"e": 5}),
    ((1, 2), {"c": 3, "e": 5, "g": 8}),
    ((1, 2, 3, 9), {"e": 5}),
]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_before_sees_the_locals_and_calls_with_the_callers_arguments(args, kwargs):
    seen = []
    w = wrap(f, before=seen.append)
    assert w(*args, **kwargs) == f(*args, **kwargs)
    assert seen == [f(*args, **kwargs)]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_around_returns_what_the_handler_returns(args, kwargs):
    w = wrap(f, around=lambda proceed, values: ("x", proceed(values)))
    assert w(*args, **kwargs) == ("x", f(*args, **kwargs))


@pytest.mark.parametrize(
    "args, kwargs",
    [((1,), {"k": 3}), ((1, 2, 3), {"k": 3, "z": 4, "y": 5}), ((1,), {"k": 3, "m": 0, "a2": 1})],
)
def test_proceed_spreads_args_and_merges_kwargs(args, kwargs):
    assert wrap(v, around=through)(*args, **kwargs) == v(*args, **kwargs)


def test_proceed_with_changed_values():
    # v's frame order: a, k, m, *args, **kw
    w = wrap(v, around=lambda proceed, values: proceed((10, 30, 40, (20,), {"q": 50})))
    assert w(1, k=2) == (10, (20,), 30, 40, {"q": 50})


def test_proceed_refuses_what_is_not_a_locals_tuple():
    def handler(proceed, values):
        for bad in ([1, 2, 3, 4, 5, 7], None, (1, 2, 3), values + (1,)):
            with pytest.raises(TypeError, match="proceed"):
                proceed(bad)
        with pytest.raises(TypeError, match="exactly one argument"):
            proceed()
        with pytest.raises(TypeError, match="exactly one argument"):
            proceed(values, values)
        with pytest.raises(TypeError, match="exactly one argument"):
            proceed(values=values)
        with pytest.raises(ValueError, match="MISSING"):
            proceed((1, 2, 3, MISSING, 5, 7))
        return "checked"

    assert wrap(f, around=handler)(1, 2, 3, e=5) == "checked"


def test_a_call_that_does_not_bind_raises_before_any_handler():
    def handler(*values):
        raise AssertionError("ran")

    for w in (wrap(f, before=handler), wrap(f, around=handler)):
        with pytest.raises(TypeError) as caught:
            w(1)
        with pytest.raises(TypeError) as expected:
            f(1)
        assert str(caught.value) == str(expected.value)


def test_handler_exceptions_propagate():
    def boom(*values):
        raise KeyError("boom")

    for w in (wrap(f, before=boom), wrap(f, around=boom)):
        with pytest.raises(KeyError):
            w(1, 2, 3, e=5)


def test_wrap_refuses_bad_arguments():
    with pytest.raises(TypeError):
        wrap(1, before=print)
    with pytest.raises(TypeError):
        wrap(f)
    with pytest.raises(TypeError):
        wrap(f, before=print, around=print)
    with pytest.raises(TypeError):
        wrap(f, before=1)
    with pytest.raises(TypeError):
        wrap(f, around="x")


def test_looks_as_functools_wraps_makes_it():
    g = functools.wraps(f)(lambda: None)
    g.x = 1
    f.extra = 2
    try:
        w = wrap(f, before=_seen)
    finally:
        del f.extra
    assert type(w) is Wrapper
    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        assert getattr(w, name) == getattr(f, name)
    assert w.__wrapped__ is f
    assert w.extra == 2
    assert inspect.signature(w) == inspect.signature(f)
    w.note = 3
    assert w.__dict__["note"] == 3


class C:
    def m(self, x, y=2):
        return (self, x, y)

    seen = []
    wm = wrap(m, before=seen.append)
    am = wrap(m, around=through)

    @functools.partial(wrap, before=_seen)
    def pm(self):
        pass


def test_on_a_class_it_is_a_method():
    c = C()
    C.seen.clear()
    assert c.wm(1) == (c, 1, 2)  # LOAD_METHOD/CALL: no bound method made
    assert C.seen == [(c, 1, 2)]
    bound = c.wm
    assert bound.__self__ is c and bound.__func__ is C.__dict__["wm"]
    assert bound(5, y=6) == (c, 5, 6)
    assert C.wm is C.__dict__["wm"]
    assert C.wm(c, 7) == (c, 7, 2)
    assert c.am(1, 3) == (c, 1, 3)
    with pytest.raises(TypeError, match=r"m\(\) missing 1 required positional argument: 'x'"):
        c.wm()


async def coro(a, b=2):
    return a + b


class Coroutines:
    async def m(self, a, b=2):
        return a + b


def test_a_coroutine_functions_wrapper_is_one():
    for w in (wrap(coro, before=_seen), wrap(coro, around=through)):
        assert inspect.iscoroutinefunction(w)
        assert asyncio.run(w(1)) == 3
        assert type(w) is Wrapper
    assert not inspect.iscoroutinefunction(wrap(f, before=_seen))
    # What makes inspect see it before 3.12: a function's wrapper says it
    # is a function (by __class__) with the function's code ...
    w = wrap(coro, before=_seen)
    assert w.__class__ is types.FunctionType and w.__code__ is coro.__code__
    # ... and a bound method's says it is a partial of the function.
    bound = wrap(Coroutines().m, before=_seen)
    assert inspect.iscoroutinefunction(bound)
    assert asyncio.run(bound(1)) == 3
    if sys.version_info < (3, 12):
        assert bound.__class__ is functools.partial and bound.func is Coroutines.m
    else:
        assert bound.__class__ is Wrapper
    assert wrap(C().m, before=_seen).__class__ is Wrapper

    class A:
        m = wrap(coro, before=_seen)

    assert inspect.iscoroutinefunction(A().m)


def test_the_handler_runs_at_call_time_for_a_coroutine_function():
    seen = []
    w = wrap(coro, before=seen.append)
    c = w(1, 5)
    assert seen == [(1, 5)]
    assert asyncio.run(c) == 6


def test_pickles_by_reference():
    assert pickle.loads(pickle.dumps(module_level)) is module_level
    assert pickle.loads(pickle.dumps(C.pm)) is C.pm


def test_shared_by_threads():
    w = wrap(f, around=through)
    errors = []

    def run(i):
        try:
            for _ in range(2000):
                assert w(i, 2, 3, e=i) == (i, 2, 3, 4, i, 7)
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_reference_counts_stay_flat():
    arg, kwarg, extra = object(), object(), object()

    def before(values):
        pass

    def raising(*values):
        raise ValueError

    def around(proceed, values):
        return proceed(values)

    wrappers = [wrap(v, before=before), wrap(v, around=around), wrap(v, before=raising),
                wrap(v, around=raising)]
    handlers = [before, around, raising]

    def loop():
        for w in wrappers:
            for _ in range(200):
                try:
                    w(arg, extra, k=kwarg, z=extra)
                except ValueError:
                    pass
                try:
                    w(arg, kk=kwarg)  # does not bind
                except TypeError:
                    pass

    loop()
    gc.collect()
    counts = [sys.getrefcount(o) for o in (arg, kwarg, extra, *handlers, *wrappers)]
    blocks = sys.getallocatedblocks()
    for _ in range(5):
        loop()
    gc.collect()
    assert [sys.getrefcount(o) for o in (arg, kwarg, extra, *handlers, *wrappers)] == counts
    assert sys.getallocatedblocks() - blocks < 50


def test_a_cycle_through_a_wrapper_is_collected():
    import weakref

    def g(x):
        return x

    w = wrap(g, around=through)
    g.w = w  # g -> w (its __wrapped__ and its dict) -> g
    w.self = w
    ref = weakref.ref(w)
    del w, g
    gc.collect()
    assert ref() is None


def test_many_arguments_go_through_proceed():
    ns = {}
    exec("def big(" + ", ".join(f"a{i}" for i in range(30)) + ", *, k=1, **kw):\n"
         "    return locals()\n", ns)
    big = ns["big"]
    args = tuple(range(30))
    assert wrap(big, around=through)(*args, k=2, z=3) == big(*args, k=2, z=3)


def test_a_functions_wrapper_lends_the_tools_its_functions_code():
    # inspect.getfile accepts only functions (by isinstance), methods,
    # classes, modules and code objects: a function's wrapper says it is
    # one and answers with the function's code, as wrapt's proxies do.
    w = wrap(f, before=_seen)
    assert isinstance(w, types.FunctionType) and inspect.isfunction(w)
    assert type(w) is Wrapper and isinstance(w, Wrapper)
    assert inspect.getfile(w) == inspect.getfile(f) == __file__
    assert inspect.getsourcefile(w) == inspect.getsourcefile(f)
    for name in ("__code__", "__globals__", "__closure__", "__defaults__", "__kwdefaults__"):
        assert getattr(w, name) is getattr(f, name), name
    # Stacked, the outer wrapper reads the inner's, which reads f's.
    assert wrap(w, around=through).__code__ is f.__code__
    assert inspect.signature(w) == inspect.signature(f)
    # Anything else's wrapper is no function and has no code.
    for func in (C().m, functools.partial(f, 1), len):
        other = wrap(func, before=_seen)
        assert other.__class__ is Wrapper and not inspect.isfunction(other)
        for name in ("__code__", "__globals__", "__defaults__"):
            with pytest.raises(AttributeError, match=name):
                getattr(other, name)
        with pytest.raises(TypeError):
            inspect.getfile(other)


def test_proceed_reads_a_kwargs_dict_that_grows_while_it_is_read():
    # proceed sizes its arguments from **kwargs, then makes the names tuple;
    # on 3.9-3.11 making it may run the cyclic collector, whose finalizers
    # may add to the dict. The call then goes the general way, and passes
    # the dict as it is when the call is made (before, the walk wrote past
    # the arguments it had made room for: heap corruption).
    def func(a, **kwargs):
        return kwargs

    extra = {}

    class Grows:
        def __del__(self):
            grown = extra["values"][-1]
            grown[f"late{len(grown)}"] = True

    def around(proceed, values):
        extra["values"] = values
        for _ in range(50):  # garbage for the collector to find
            cycle = Grows()
            cycle.self = cycle
            del cycle
        return proceed(values)

    w = wrap(func, around=around)
    threshold = gc.get_threshold()
    gc.set_threshold(1)
    try:
        for _ in range(500):
            result = w(1, **{f"k{i}": i for i in range(20)})
            assert {f"k{i}": i for i in range(20)}.items() <= result.items()
            assert all(key.startswith(("k", "late")) for key in result)
    finally:
        gc.set_threshold(*threshold)
        gc.collect()
