"""The pure drop-in's per-signature plans and the cache that keeps them.

A signature bound again and again gets a plan (code made for its
parameters); the plans are kept by the identity of the signature's
parameters mapping, at most ``maxsize`` of them, and keep nothing of the
signature alive.  Here: the cache stays within its bound, a default is freed
with its function, an id the allocator gives again never finds the plan of
the signature that had it, signatures of functions whose defaults change
bind as inspect binds them, and ``set_maxsize`` bounds and checks.
"""

import contextlib
import gc
import inspect
import os
import sys
import weakref

import pytest

import posonly
from posonly import _dropin, _dropin_cache, _dropin_signature, _inspect

INSPECT_BIND = inspect.Signature.bind
INSPECT_BIND_PARTIAL = inspect.Signature.bind_partial
INSPECT_ARGS = inspect.BoundArguments.args.fget
INSPECT_KWARGS = inspect.BoundArguments.kwargs.fget
INSPECT_APPLY_DEFAULTS = inspect.BoundArguments.apply_defaults

P = inspect.Parameter
BINDS = 2 * _dropin_signature.LAYOUT_SAMPLE + 8
"""Binds of one signature (or signatures of one function made per bind)
that surely give it a plan: one cold bind in ``_SAMPLE`` is noted, the next
two make the entry and the plan; one code in ``_LAYOUT_SAMPLE`` met without
a layout gets one, the next signatures set its pattern and make the plan."""


@pytest.fixture
def pure_patched():
    """inspect patched with the pure core, on an empty cache of the default
    size; everything put back after."""
    saved = _inspect._core
    _inspect._use_core(_dropin)
    _dropin.clear_cache()
    posonly.patch_inspect()
    try:
        yield _dropin
    finally:
        posonly.unpatch_inspect()
        _inspect._use_core(saved)
        _dropin.set_maxsize(4096)
        _dropin.clear_cache()


def expected(sig, args, kwargs, partial=False):
    """What plain inspect answers: (arguments, args, kwargs, after
    apply_defaults) or the error's type and message."""
    try:
        ba = (INSPECT_BIND_PARTIAL if partial else INSPECT_BIND)(sig, *args, **kwargs)
    except TypeError as error:
        return ("error", str(error))
    answer = [dict(ba.arguments), INSPECT_ARGS(ba), INSPECT_KWARGS(ba)]
    INSPECT_APPLY_DEFAULTS(ba)
    return ("ok", *answer, dict(ba.arguments))


def patched_outcome(sig, args, kwargs, partial=False):
    try:
        ba = (sig.bind_partial if partial else sig.bind)(*args, **kwargs)
    except TypeError as error:
        return ("error", str(error))
    assert type(ba) is inspect.BoundArguments
    answer = [dict(ba.arguments), ba.args, ba.kwargs]
    ba.apply_defaults()
    return ("ok", *answer, dict(ba.arguments))


def planned(core):
    return core.cache_info()["plans"]


def test_a_signature_bound_again_gets_a_plan_that_answers_as_inspect(pure_patched):
    core = pure_patched

    def f(a, b, /, c, d=4, *, e, g=7, **kw):
        pass

    sig = inspect.signature(f)
    calls = [((1, 2, 3), {"e": 5}), ((1, 2), {"c": 3, "e": 5, "z": 6}), ((1,), {}),
             ((1, 2, 3, 4, 5), {}), ((1, 2), {"a": 0, "e": 5}), ((), {"a": 1, "b": 2})]
    for _ in range(BINDS):
        sig.bind(1, 2, 3, e=5)
    assert planned(core) == 1
    for args, kwargs in calls:
        for partial in (False, True):
            assert patched_outcome(sig, args, dict(kwargs), partial) == expected(
                sig, args, dict(kwargs), partial)


def test_the_cache_stays_within_maxsize(pure_patched):
    """100,000 distinct signatures, all alive, each bound a few times: no
    more entries (nor notes) than ``maxsize``, and every answer right."""
    core = pure_patched
    maxsize = 4096
    names = [f"p{i}" for i in range(8)]
    parameters = [P(name, P.POSITIONAL_OR_KEYWORD) for name in names]
    kept = []
    largest = 0
    for i in range(100_000):
        count = 1 + i % 8
        sig = inspect.Signature(parameters[:count])
        kept.append(sig)
        args = tuple(range(count))
        for _ in range(3):
            ba = sig.bind(*args)
        assert list(ba.arguments) == names[:count]
        if i % 1000 == 0:
            info = core.cache_info()
            largest = max(largest, info["entries"])
            assert info["entries"] <= maxsize
            assert info["notes"] <= maxsize
    info = core.cache_info()
    assert info["entries"] <= maxsize and info["notes"] <= maxsize
    assert len(_dropin_cache.entries) <= 2 * maxsize
    assert len(_dropin_cache._ring) <= maxsize
    assert largest == maxsize  # it was full: the bound was reached, and held
    del kept


class Big:
    payload = None


def make_function_with_big_default():
    """A function whose defaults hold a megabyte, and a weak reference to it."""
    big = Big()
    big.payload = bytearray(10**6)
    namespace = {"big": big}
    exec("def f(a, b=big, *args, c=big, **kw): pass", namespace)
    return namespace["f"], weakref.ref(big)


def test_a_large_default_is_freed_with_its_function(pure_patched):
    """A signature made once and one made per call, both given plans: the
    default is freed with the function, and the entry with it."""
    core = pure_patched

    def run():
        # In a frame of its own, gone before the check; few binds, the
        # samplers set to keep the next signature and layout at once: a loop
        # that PyPy's JIT compiles may keep the defaults it saw as constants
        # (plain inspect's as well), whatever the cache does.
        f, big = make_function_with_big_default()
        sig = inspect.signature(f)
        core._tick = 1
        for _ in range(4):
            ba = sig.bind(1, c=2)
            ba.apply_defaults()
            ba.args, ba.kwargs  # noqa: B018
        _dropin_signature._layout_tick = 1
        for _ in range(4):
            inspect.signature(f).bind(1).apply_defaults()
        assert ba.arguments["b"] is big()
        assert planned(core) >= 1
        return big

    big = run()
    collect_everything()
    assert big() is None
    # Its entry went with it.
    assert planned(core) == 0


def make_signature(names):
    return inspect.Signature([P(name, P.POSITIONAL_OR_KEYWORD) for name in names])


def test_a_recycled_id_never_finds_a_stale_plan(pure_patched):
    """Signatures made one after another, each dropped before the next is
    made, get the same addresses again: each answers with its own names."""
    ids = set()
    recycled = 0
    for i in range(300):
        names = [f"x{i}", f"y{i}", f"z{i % 7}"][: 1 + i % 3]
        sig = make_signature(names)
        key = id(sig._parameters)
        recycled += key in ids
        ids.add(key)
        for _ in range(BINDS // 4):
            ba = sig.bind(*range(len(names)))
            assert list(ba.arguments) == names
            assert ba.args == tuple(range(len(names)))
            assert ba.kwargs == {}
        assert patched_outcome(sig, (), {names[-1]: 1}) == expected(sig, (), {names[-1]: 1})
        del sig, ba
    if sys.implementation.name == "cpython" and os.environ.get("PYTHONMALLOC", "pymalloc").startswith("pymalloc"):
        # pymalloc gives a freed object's address to the next of its size
        # (the sanitizer run's malloc holds freed memory back; the stale
        # entry test below makes the case by hand).
        assert recycled > 0  # the case this test is about did happen


def test_a_stale_entry_is_never_used(pure_patched):
    """An entry whose mapping is gone, left under its id (as if its
    callback had not run yet), is not used for the signature that got the
    id next."""
    core = pure_patched
    first = make_signature(["a", "b"])
    for _ in range(BINDS):
        first.bind(1, 2)
    key = id(first._parameters)
    entry = _dropin_cache.entries[key]
    assert entry[_dropin_cache.ENTRY_PLAN]
    second = make_signature(["p", "q"])
    # The entry now claims the second signature's id, its owner dead.
    stale = [weakref.ref(type("Gone", (), {})()), entry[_dropin_cache.ENTRY_PLAN], False, -1]
    gc.collect()
    assert stale[0]() is None
    _dropin_cache.entries[id(second._parameters)] = stale
    try:
        for _ in range(BINDS):
            ba = second.bind(1, q=2)
            assert list(ba.arguments) == ["p", "q"]
            assert ba.args == (1, 2)
            assert ba.kwargs == {}
            ba.apply_defaults()
            assert ba.arguments == {"p": 1, "q": 2}
    finally:
        _dropin_cache.entries.pop(id(second._parameters), None)


def test_changing_defaults_bind_as_inspect_binds(pure_patched):
    """A function whose ``__defaults__`` and ``__kwdefaults__`` change
    between calls: its signature made per call, and one made before the
    change, bind as inspect binds them."""

    def f(a, b=1, *, c=2):
        pass

    kept = inspect.signature(f)
    for round_ in range(6):
        for _ in range(BINDS // 2):
            sig = inspect.signature(f)
            for sig_ in (sig, kept):
                for args, kwargs in [((0,), {}), ((0, 5), {"c": 6}), ((), {"b": 1})]:
                    assert patched_outcome(sig_, args, dict(kwargs)) == expected(
                        sig_, args, dict(kwargs))
        if round_ % 3 == 2:
            f.__defaults__ = None  # b becomes required
            f.__kwdefaults__ = None
        else:
            f.__defaults__ = (object(),)
            f.__kwdefaults__ = {"c": object()}
    sig = inspect.signature(f)
    assert patched_outcome(sig, (0,), {}) == ("error", "missing a required argument: 'b'")


def test_set_maxsize_zero_keeps_nothing(pure_patched):
    core = pure_patched
    core.set_maxsize(0)
    kept = [make_signature([f"a{i}", "b"]) for i in range(50)]
    for sig in kept:
        for _ in range(BINDS):
            ba = sig.bind(1, b=2)
            ba.apply_defaults()
            assert ba.args == (1, 2)
    def f(a, b):
        pass

    for _ in range(BINDS):
        assert inspect.signature(f).bind(1, b=2).args == (1, 2)
    assert core.cache_info() == {"entries": 0, "plans": 0, "notes": 0, "layouts": 0,
                                 "maxsize": 0}
    assert _dropin_cache.entries == {} and _dropin_cache._ring == [] and _dropin_cache.layouts == {}
    assert _dropin_cache.handed is None


def test_set_maxsize_bounds_and_drops(pure_patched):
    core = pure_patched
    kept = [make_signature([f"a{i}", "b"]) for i in range(30)]
    for sig in kept:
        for _ in range(BINDS):
            sig.bind(1, 2)
    assert core.cache_info()["plans"] == 30
    core.set_maxsize(5)
    assert core.cache_info()["entries"] <= 5
    for sig in kept:
        for _ in range(BINDS):
            assert sig.bind(1, 2).args == (1, 2)
    assert 0 < core.cache_info()["entries"] <= 5


@pytest.mark.parametrize("bad, error", [("10", TypeError), (1.5, TypeError), (None, TypeError),
                                        (True, TypeError), (-1, ValueError)])
def test_set_maxsize_checks_its_argument(bad, error):
    before = _dropin.cache_info()["maxsize"]
    with pytest.raises(error, match="maxsize"):
        _dropin.set_maxsize(bad)
    assert _dropin.cache_info()["maxsize"] == before


def test_patch_inspect_maxsize_bounds_the_pure_plans(pure_patched):
    """``patch_inspect(maxsize)`` is the pure core's bound: patched again with
    a small one (after unpatching), no more entries than that are kept."""
    core = pure_patched
    posonly.unpatch_inspect()
    posonly.patch_inspect(maxsize=3)
    assert core.cache_info()["maxsize"] == 3
    kept = [make_signature([f"a{i}", "b"]) for i in range(20)]
    for sig in kept:
        for _ in range(BINDS):
            assert sig.bind(1, 2).args == (1, 2)
    assert 0 < core.cache_info()["entries"] <= 3


# -- signatures made per call: layouts and handed plans ---------------------


def plain_signature(obj):
    """``inspect.signature(obj)`` as plain inspect answers it (the patch is
    lifted for the call and put back)."""
    posonly.unpatch_inspect()
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))
    finally:
        posonly.patch_inspect()


def patched_signature(obj):
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


CALLS = [((1, 2, 3), {"e": 5}), ((1, 2), {"c": 3, "e": 5, "z": 6}), ((1,), {}),
         ((1, 2, 3, 4, 5), {}), ((1, 2), {"a": 0, "e": 5}), ((), {"a": 1, "b": 2}),
         ((1, 2, 3), {}), ((1, 2, 3, 4), {"e": 5, "g": 6})]


def assert_binds_as_inspect(f, calls=CALLS):
    """Signatures of ``f`` made per call, patched, bind every call (and
    ``bind_partial`` it) as plain inspect's signature of ``f`` does."""
    plain = plain_signature(f)
    for _ in range(3):
        sig = patched_signature(f)
        assert sig == plain
        if not isinstance(plain, inspect.Signature):
            continue
        assert str(sig) == str(plain)
        for args, kwargs in calls:
            for partial in (False, True):
                sig = inspect.signature(f)
                assert patched_outcome(sig, args, dict(kwargs), partial) == expected(
                    plain, args, dict(kwargs), partial), (args, kwargs, partial)


def test_a_signature_made_per_call_is_handed_its_plan(pure_patched, monkeypatch):
    """A function whose signature is made again and again gets a layout,
    and its signatures are handed their plan, which binds them without the
    generic code, as inspect does."""
    core = pure_patched

    def f(a, b, /, c, d=4, *, e, g=7, **kw):
        pass

    for _ in range(BINDS):
        sig = inspect.signature(f)
    handed = _dropin_cache.handed
    assert handed is not None and handed[0] == id(sig._parameters)
    assert core.cache_info()["layouts"] == 1

    def generic(*args):
        raise AssertionError("bound the generic way")

    with monkeypatch.context() as patch:
        for name in ("bind_generic", "args_generic", "kwargs_generic", "apply_defaults_generic"):
            patch.setattr(core, name, generic)
        for _ in range(3):
            ba = inspect.signature(f).bind(1, 2, 3, e=5)
            assert ba.arguments == {"a": 1, "b": 2, "c": 3, "e": 5}
            partial = inspect.signature(f).bind_partial(1, z=0)
            assert partial.arguments == {"a": 1, "kw": {"z": 0}}
            assert (partial.args, partial.kwargs) == ((1,), {"z": 0})
        # A signature made once and bound again and again (a decorator's),
        # the last one made: every operation through its handed plan.
        sig = inspect.signature(f)
        for _ in range(BINDS):
            ba = sig.bind(1, 2, 3, e=5, x=6)
            ba.apply_defaults()
            assert ba.arguments == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "g": 7, "kw": {"x": 6}}
            assert (ba.args, ba.kwargs) == ((1, 2, 3, 4), {"e": 5, "g": 7, "x": 6})
        assert _dropin_cache.handed[0] == id(sig._parameters)
    assert_binds_as_inspect(f)


def other(x, y=1, *args, z, **kw):
    pass


def test_a_handed_plan_does_not_outlive_what_it_was_made_for(pure_patched):
    """A function whose code, defaults, keyword-only defaults, annotations,
    ``__signature__`` or ``__wrapped__`` change: its signatures made per
    call, before and after each change, are plain inspect's and bind as
    its do."""

    def f(a, b, /, c, d=4, *, e, g=7):
        pass

    for _ in range(BINDS):
        inspect.signature(f)
    assert _dropin_cache.handed is not None  # its signatures are handed plans
    code = f.__code__
    changes = [
        ("__defaults__", (1, 2)),
        ("__defaults__", None),
        ("__defaults__", (inspect.Parameter.empty,)),  # a default that is no default
        ("__defaults__", (4,)),
        ("__kwdefaults__", None),
        ("__kwdefaults__", {"e": 0}),
        ("__kwdefaults__", {"e": inspect.Parameter.empty, "g": 1}),
        ("__kwdefaults__", {"g": 7}),
        ("__annotations__", {"a": int, "e": str, "return": bytes}),
        ("__annotations__", {}),
        ("__code__", other.__code__),
        ("__defaults__", None),
        ("__code__", code),
        ("__defaults__", (4,)),
        ("__signature__", inspect.signature(other)),
        ("__signature__", None),
        ("__wrapped__", other),
    ]
    assert_binds_as_inspect(f)
    for name, value in changes:
        setattr(f, name, value)
        assert_binds_as_inspect(f)
    del f.__wrapped__, f.__signature__
    assert_binds_as_inspect(f)


def test_names_that_are_not_identifiers_are_inspects_to_refuse(pure_patched):
    def f(a, b):
        pass

    assert_binds_as_inspect(f)
    for names in [("a", "b c"), ("a", "lambda"), ("a", "b")]:
        f.__code__ = f.__code__.replace(co_varnames=names)
        for _ in range(3):
            assert patched_signature(f) == plain_signature(f)
        assert_binds_as_inspect(f, [((1, 2), {}), ((1,), {"b": 2}), ((1,), {})])


def collect_everything():
    """Collect the garbage; on PyPy, first release the JIT's machine code,
    whose traces may keep objects they met as constants alive (the JIT's,
    not posonly's: plain inspect's calls are traced too)."""
    if sys.implementation.name == "pypy":
        import pypyjit

        pypyjit.releaseall()
    gc.collect()
    gc.collect()


def test_a_default_is_freed_with_its_function_made_per_call(pure_patched):
    """Signatures made per call, handed their plans: the default, the
    function and its code are freed with the function all the same."""
    core = pure_patched

    def run():
        # In a frame of its own, gone before the check; few binds, and its
        # layout kept at once: a loop that PyPy's JIT compiles may keep the
        # defaults it saw as constants (plain inspect's as well).
        f, big = make_function_with_big_default()
        _dropin_signature._layout_tick = 1
        for _ in range(4):
            ba = inspect.signature(f).bind(1, c=2)
            ba.apply_defaults()
        assert ba.arguments["b"] is big()
        return weakref.ref(f.__code__), big

    code, big = run()
    assert _dropin_cache.handed is not None and core.cache_info()["layouts"] == 1
    collect_everything()
    assert big() is None
    assert code() is None
    assert _dropin_cache.handed[1]() is None


def test_a_replaced_parameters_mapping_binds_as_inspect(pure_patched):
    """A signature handed its plan whose mapping is then replaced binds by
    the mapping it has."""

    def f(a, b):
        pass

    def g(p, q=1):
        pass

    for _ in range(BINDS):
        sig = inspect.signature(f)
    assert _dropin_cache.handed[0] == id(sig._parameters)
    other_sig = inspect.signature(g)
    sig = inspect.signature(f)
    assert _dropin_cache.handed[0] == id(sig._parameters)
    sig._parameters = other_sig._parameters
    for args, kwargs in [((1, 2), {}), ((1,), {}), ((), {"p": 1}), ((1,), {"b": 2})]:
        for partial in (False, True):
            assert patched_outcome(sig, args, dict(kwargs), partial) == expected(
                sig, args, dict(kwargs), partial)


def test_a_stale_handed_plan_is_never_used(pure_patched):
    """A handed plan whose mapping is gone, left under an id (as if the
    allocator had given it again), is not used for the signature that has
    that id now."""
    core = pure_patched

    def f(a, b):
        pass

    for _ in range(BINDS):
        inspect.signature(f)
    plan = _dropin_cache.handed[2]
    second = make_signature(["p", "q"])
    gone = weakref.ref(type("Gone", (), {})())
    gc.collect()
    assert gone() is None
    _dropin_cache.handed = (id(second._parameters), gone, plan)
    for partial in (False, True):
        ba = second.bind_partial(1, q=2) if partial else second.bind(1, q=2)
        assert list(ba.arguments) == ["p", "q"]
    assert patched_outcome(second, (1,), {"b": 2}) == expected(second, (1,), {"b": 2})


def test_layouts_stay_within_maxsize(pure_patched):
    """More functions than ``maxsize``, each's signature made per call: no
    more layouts than that, and every answer right."""
    core = pure_patched
    posonly.unpatch_inspect()
    posonly.patch_inspect(maxsize=5)
    for i in range(40):
        namespace = {}
        exec(f"def f(a{i}, b=1, *, c{i % 3}=2): pass", namespace)
        f = namespace["f"]
        for _ in range(BINDS):
            ba = inspect.signature(f).bind(1, b=3)
            assert ba.arguments == {f"a{i}": 1, "b": 3}
        assert 0 < core.cache_info()["layouts"] <= 5
    core.set_maxsize(2)
    assert core.cache_info()["layouts"] <= 2


def test_a_function_whose_signature_is_made_once_leaves_no_layout(pure_patched):
    """Most code objects are met once (a signature made at a decoration):
    only one in ``_LAYOUT_SAMPLE`` of those has its layout kept."""
    core = pure_patched
    for i in range(4 * _dropin_signature.LAYOUT_SAMPLE):
        namespace = {}
        exec(f"def f(a{i}, b=1): pass", namespace)
        assert inspect.signature(namespace["f"]).bind(1).arguments == {f"a{i}": 1}
    assert 0 < core.cache_info()["layouts"] <= 4
