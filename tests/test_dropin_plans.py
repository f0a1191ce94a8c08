"""The compiled drop-in's per-signature plans.

A signature bound again and again gets a plan (its parameters' names, kinds
and which must be given), found on the weak references of the dict under
its parameters mapping.  Here, differentially against plain inspect: plans
answer as inspect does (bind and bind_partial, errors too), stay within
``maxsize``, keep nothing of the signature or its function alive, are
dropped with their mapping, are never found by a mapping made where a
dead one was, and signatures of functions that change between calls
(``__defaults__``, ``__kwdefaults__``, ``__code__``) bind as inspect binds
them.
"""

import gc
import importlib
import inspect
import sys
import weakref

import pytest

import posonly
from posonly import _inspect

INSPECT_BIND = inspect.Signature.bind
INSPECT_BIND_PARTIAL = inspect.Signature.bind_partial
INSPECT_ARGS = inspect.BoundArguments.args.fget
INSPECT_KWARGS = inspect.BoundArguments.kwargs.fget
INSPECT_APPLY_DEFAULTS = inspect.BoundArguments.apply_defaults

P = inspect.Parameter
BINDS = 20
"""Binds of one signature that surely give it a plan (one bind in eight of
signatures without one makes it)."""


@pytest.fixture
def core():
    """inspect patched with the compiled core, on an empty cache of the
    default size; everything put back after."""
    if sys.implementation.name != "cpython":
        pytest.skip("the compiled core is built for CPython only")
    try:
        compiled = importlib.import_module("posonly._bind")
    except ImportError:
        pytest.skip("the compiled extension is not built")
    saved = _inspect._core
    _inspect._use_core(compiled)
    compiled.clear_cache()
    posonly.patch_inspect()
    try:
        yield compiled
    finally:
        posonly.unpatch_inspect()
        _inspect._use_core(saved)
        compiled.set_maxsize(4096)
        compiled.clear_cache()


def expected(sig, args, kwargs, partial=False):
    try:
        ba = (INSPECT_BIND_PARTIAL if partial else INSPECT_BIND)(sig, *args, **kwargs)
    except TypeError as error:
        return ("error", str(error))
    answer = [dict(ba.arguments), list(ba.arguments), INSPECT_ARGS(ba), INSPECT_KWARGS(ba)]
    INSPECT_APPLY_DEFAULTS(ba)
    return ("ok", *answer, dict(ba.arguments))


def outcome(sig, args, kwargs, partial=False):
    try:
        ba = (sig.bind_partial if partial else sig.bind)(*args, **kwargs)
    except TypeError as error:
        return ("error", str(error))
    assert type(ba) is inspect.BoundArguments
    answer = [dict(ba.arguments), list(ba.arguments), ba.args, ba.kwargs]
    ba.apply_defaults()
    return ("ok", *answer, dict(ba.arguments))


def plans(core):
    return core.cache_info()["plans"]


CALLS = [((1, 2, 3), {"e": 5}), ((1, 2), {"c": 3, "e": 5, "z": 6}), ((1,), {}),
         ((1, 2, 3, 4, 5), {}), ((1, 2), {"a": 0, "e": 5}), ((), {"a": 1, "b": 2}),
         ((1, 2, 3, 4), {"e": 5, "g": 8, "d": 9}), ((1, 2, 3), {"e": 5, "kw": 1, "y": 2}),
         ((1, 2, 3), {}), ((1, 2, 3, 4, 5, 6), {"e": 1})]


def test_a_signature_bound_again_gets_a_plan_that_answers_as_inspect(core):
    def f(a, b, /, c, d=4, *args, e, g=7, **kw):
        pass

    def h(a, b, /, c, d=4, *, e, g=7):
        pass

    for function in (f, h):
        core.clear_cache()
        sig = inspect.signature(function)
        for _ in range(BINDS):
            sig.bind(1, 2, 3, e=5)
        assert plans(core) == 1
        for args, kwargs in CALLS:
            for partial in (False, True):
                assert outcome(sig, args, dict(kwargs), partial) == expected(
                    sig, args, dict(kwargs), partial), (function, args, kwargs, partial)


def test_signatures_of_every_shape_bind_as_inspect_with_plans(core):
    shapes = ["", "a", "a, /", "*args", "**kw", "*args, **kw", "a, b=2, *, c, d=4",
              "a=1, /, b=2, *args, c=3, **kw", "*, a", "a, b, c, d, e"]
    calls = [((), {}), ((1,), {}), ((1, 2), {}), ((), {"a": 1}), ((1,), {"a": 1}),
             ((1,), {"c": 3}), ((1, 2, 3), {"c": 3, "x": 4}), ((), {"a": 1, "c": 3, "b": 2}),
             ((1, 2, 3, 4, 5), {}), ((1,), {"b": 2, "c": 3, "d": 4, "e": 5})]
    for shape in shapes:
        namespace = {}
        exec(f"def f({shape}): pass", namespace)
        sig = inspect.signature(namespace["f"])
        for _ in range(BINDS):
            outcome(sig, (), {})
        for args, kwargs in calls:
            for partial in (False, True):
                assert outcome(sig, args, dict(kwargs), partial) == expected(
                    sig, args, dict(kwargs), partial), (shape, args, kwargs, partial)
    assert plans(core) >= 1


def test_the_plans_stay_within_maxsize(core):
    core.set_maxsize(5)
    functions = []
    for i in range(30):
        namespace = {}
        exec(f"def f(a, b{i}=1): pass", namespace)
        functions.append(namespace["f"])
    signatures = [inspect.signature(f) for f in functions]
    for sig in signatures:
        for _ in range(BINDS):
            sig.bind(1)
        assert core.cache_info()["entries"] <= 5
    assert 0 < plans(core) <= 5
    for sig in signatures:
        for args, kwargs in [((1,), {}), ((1, 2), {}), ((), {"a": 1, "x": 2})]:
            assert outcome(sig, args, kwargs) == expected(sig, args, kwargs)
    core.set_maxsize(2)
    assert core.cache_info()["entries"] <= 2
    assert core.cache_info()["maxsize"] == 2


def test_maxsize_zero_keeps_no_plan(core):
    core.set_maxsize(0)

    def f(a, b=2):
        pass

    sig = inspect.signature(f)
    for _ in range(BINDS):
        assert outcome(sig, (1,), {}) == expected(sig, (1,), {})
    assert core.cache_info()["entries"] == 0


def test_patch_inspect_maxsize_bounds_the_plans(core):
    posonly.unpatch_inspect()
    posonly.patch_inspect(maxsize=3)
    assert core.cache_info()["maxsize"] == 3
    for bad, error in [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("3", TypeError)]:
        with pytest.raises(error):
            core.set_maxsize(bad)
    assert core.cache_info()["maxsize"] == 3


class Big:
    pass


def test_a_plan_keeps_nothing_alive_and_goes_with_its_signature(core):
    def run():
        big = Big()
        namespace = {"big": big}
        exec("def f(a, b=big, *args, c=big, **kw): pass", namespace)
        f = namespace["f"]
        sig = inspect.signature(f)
        for _ in range(BINDS):
            ba = sig.bind(1, c=2)
        ba.apply_defaults()
        assert ba.arguments["b"] is big
        assert plans(core) == 1
        return weakref.ref(big), weakref.ref(f)

    big, f = run()
    gc.collect()
    assert big() is None and f() is None
    assert core.cache_info()["entries"] == 0


def make_signature(names, kind=P.POSITIONAL_OR_KEYWORD):
    return inspect.Signature([P(name, kind) for name in names])


def test_a_mapping_made_where_a_dead_one_was_never_finds_its_plan(core):
    """Signatures made one after another, each dropped before the next is
    made (the allocator gives the same addresses again), each bound enough
    to have a plan: each binds as inspect binds it."""
    shapes = [("a", "b"), ("x",), ("a", "b", "c"), ("b", "a")]
    kinds = [P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY, P.POSITIONAL_ONLY]
    for i in range(60):
        sig = make_signature(shapes[i % 4], kinds[i % 3])
        for _ in range(BINDS):
            sig.bind_partial()
        for args, kwargs in [((1, 2), {}), ((), {"a": 1, "b": 2}), ((1,), {"b": 2}),
                             ((), {"x": 1}), ((1,), {})]:
            assert outcome(sig, args, kwargs) == expected(sig, args, kwargs)
        del sig
    assert core.cache_info()["entries"] <= 1


def test_signatures_of_a_function_that_changes_bind_as_inspect(core):
    def f(a, b=2, *, c=3):
        pass

    def g(x, /, y, *args, z, **kw):
        pass

    calls = [((1,), {}), ((1, 2), {"c": 4}), ((), {"a": 1}), ((1, 2), {"z": 3}),
             ((1, 2, 3), {"z": 3, "w": 4}), ((1,), {"y": 2, "z": 3})]
    codes = [f.__code__, g.__code__]
    for round_ in range(BINDS * 3):
        f.__code__ = codes[round_ // 7 % 2]
        f.__defaults__ = None if round_ % 5 == 0 else (round_,) if round_ % 2 else (round_, 1)
        f.__kwdefaults__ = None if round_ % 3 == 0 else {"c": round_, "z": 1}
        try:
            sig = inspect.signature(f)
        except Exception as error:  # as inspect raises it
            with pytest.raises(type(error)):
                posonly._inspect._INSPECT_SIGNATURE(f)
            continue
        for args, kwargs in calls:
            for partial in (False, True):
                assert outcome(sig, args, dict(kwargs), partial) == expected(
                    sig, args, dict(kwargs), partial)
        # The same signature, made once, bound again after the function changed.
        once = inspect.signature(f)
        for _ in range(BINDS):
            once.bind_partial()
        f.__defaults__ = (0, 0)
        for args, kwargs in calls:
            assert outcome(once, args, dict(kwargs)) == expected(once, args, dict(kwargs))


def test_a_mapping_shared_with_another_owner_gets_no_plan(core):
    sig = make_signature(("a", "b"))
    mapping = gc.get_referents(sig.parameters)[0]
    for _ in range(BINDS):
        sig.bind(1, 2)
    assert plans(core) == 0
    # Changed under the signature: still inspect's answers.
    mapping.pop("b")
    for args, kwargs in [((1, 2), {}), ((1,), {}), ((), {"a": 1})]:
        assert outcome(sig, args, kwargs) == expected(sig, args, kwargs)


def test_clear_cache_drops_every_plan(core):
    def f(a):
        pass

    sig = inspect.signature(f)
    for _ in range(BINDS):
        sig.bind(1)
    assert plans(core) == 1
    core.clear_cache()
    assert core.cache_info()["entries"] == 0
    assert outcome(sig, (1,), {}) == expected(sig, (1,), {})
