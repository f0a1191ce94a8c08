"""What the drop-in keeps per signature and per code object never outlives
what it describes, and never answers for a function that changed: a
function whose ``__defaults__``, ``__kwdefaults__`` or ``__code__`` change
between calls gets, from the patched ``inspect.signature``, the signature
inspect gives it now, bound as inspect binds it; a signature made before
the change keeps binding as inspect binds it.  Both cores, their caches
warm (each signature bound many times), against inspect's own code."""

import contextlib
import gc
import inspect
import sys
import types
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from posonly import _inspect

from test_inspect_dropin import (
    INSPECT_APPLY_DEFAULTS,
    INSPECT_ARGS,
    INSPECT_BIND,
    INSPECT_BIND_PARTIAL,
    INSPECT_FROM_CALLABLE,
    INSPECT_KWARGS,
    binder_class,
    outcome,
    patched,
)

class Value:
    """A default that takes weak references."""


WARM = 40  # binds per signature: past any sampling, a plan made


def inspect_signature(func):
    return INSPECT_FROM_CALLABLE.__func__(inspect.Signature, func)


def answers(sig, calls, bind, bind_partial, args, kwargs, apply_defaults):
    """What each call gives through the given members: arguments, args,
    kwargs, and arguments after apply_defaults, or the error."""
    out = []
    for call_args, call_kwargs in calls:
        for method in (bind, bind_partial):
            def run():
                ba = method(sig, *call_args, **call_kwargs)
                before = (list(ba.arguments.items()), args(ba), kwargs(ba))
                apply_defaults(ba)
                return before, list(ba.arguments.items())
            out.append(outcome(run))
    return out


def patched_answers(sig, calls):
    return answers(sig, calls, lambda s, *a, **k: s.bind(*a, **k),
                   lambda s, *a, **k: s.bind_partial(*a, **k),
                   lambda ba: ba.args, lambda ba: ba.kwargs, lambda ba: ba.apply_defaults())


def inspect_answers(sig, calls):
    return answers(sig, calls, INSPECT_BIND, INSPECT_BIND_PARTIAL, INSPECT_ARGS, INSPECT_KWARGS,
                   INSPECT_APPLY_DEFAULTS)


def warm(sig, calls):
    for _ in range(WARM):
        patched_answers(sig, calls)


CALLS = [((1,), {}), ((1, 2), {}), ((1,), {"b": 5}), ((), {"a": 1}), ((1, 2, 3), {}),
         ((1,), {"k": 3}), ((1,), {"z": 9}), ((), {})]


def template(a, b=2, *, k=3):
    return a, b, k


def fresh():
    def func(a, b=2, *, k=3):
        return a, b, k
    return func


def test_defaults_changed_between_calls(impl):
    """A function's __defaults__ and __kwdefaults__ replaced (to different
    objects, to fewer, to none) between calls: each fresh signature is
    inspect's for the function as it is now."""
    func = fresh()
    changes = [((20,), {"k": 30}), ((), None), (("x", "y"), {"k": None}), (None, {}),
               ((2,), {"k": 3})]
    with binder_class(impl), patched():
        old = inspect.signature(func)
        warm(old, CALLS)
        expected_old = inspect_answers(old, CALLS)
        for defaults, kwdefaults in changes:
            func.__defaults__ = defaults
            func.__kwdefaults__ = kwdefaults
            for _ in range(3):  # made again and again: handed plans, layouts
                sig = inspect.signature(func)
                warm(sig, CALLS)
                assert sig == inspect_signature(func)
                assert str(sig) == str(inspect_signature(func))
                assert patched_answers(sig, CALLS) == inspect_answers(sig, CALLS)
            assert patched_answers(old, CALLS) == expected_old


def test_code_changed_between_calls(impl):
    """A function's __code__ swapped between calls for code of other
    parameters (names, kinds, counts): each fresh signature is inspect's."""
    namespace = {}
    sources = ["def g(a, b=2, *, k=3): pass", "def g(x, /, y, *rest, k, **kw): pass",
               "def g(a, b, c, d, e): pass", "def g(*args, **kwargs): pass",
               "def g(b, a=1, /, *, k=3): pass"]
    codes = []
    for source in sources:
        exec(source, namespace)
        codes.append(namespace["g"].__code__)
    func = fresh()
    calls = CALLS + [((1, 2, 3, 4, 5), {}), ((1,), {"y": 2, "k": 1, "q": 0}),
                     ((), {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})]
    with binder_class(impl), patched():
        for _ in range(3):
            for code in codes:
                func.__code__ = code
                func.__defaults__ = (1,) if code.co_argcount == 2 else None
                sig = inspect.signature(func)
                warm(sig, calls)
                assert str(sig) == str(inspect_signature(func))
                assert patched_answers(sig, calls) == inspect_answers(sig, calls)


def test_a_signatures_function_changed_after_it_was_made(impl):
    """A signature keeps the defaults it was made with; the function's
    new defaults show in a new signature only."""
    func = fresh()
    with binder_class(impl), patched():
        sig = inspect.signature(func)
        warm(sig, CALLS)
        func.__defaults__ = ("new",)
        ba = sig.bind(1)
        ba.apply_defaults()
        assert ba.arguments["b"] == 2
        ba = inspect.signature(func).bind(1)
        ba.apply_defaults()
        assert ba.arguments["b"] == "new"


@pytest.mark.skipif(sys.implementation.name != "cpython",
                    reason="freed at once only with reference counting")
@pytest.mark.parametrize("maxsize", [0, 3, 4096])
def test_what_the_cache_holds_dies_with_its_owner_and_stays_bounded(impl, maxsize):
    """Bound many times, by many signatures: no signature, function or
    default is kept alive, and the pure core's cache never holds more than
    maxsize entries (the compiled core keeps none)."""
    from posonly import _inspect

    refs = []
    with binder_class(impl), patched(maxsize):
        for i in range(60):
            namespace = {"Value": Value}
            exec(f"def g(a, b=Value(), *, k_{i}=Value()): pass", namespace)
            func = namespace["g"]
            sig = inspect.signature(func)
            warm(sig, [((1,), {}), ((1, 2), {f"k_{i}": 3})])
            refs += [weakref.ref(func), weakref.ref(func.__defaults__[0]),
                     weakref.ref(func.__kwdefaults__[f"k_{i}"])]
            del namespace, func, sig
            info = getattr(_inspect._core, "cache_info", None)
            if info is not None:
                assert info()["entries"] <= maxsize
                assert info()["layouts"] <= maxsize
        gc.collect()
        assert [r for r in refs if r() is not None] == []


def varied(a, b=2, /, c=3, *rest, d, e=5, **more):
    return a


@given(edits=st.lists(st.tuples(
    st.sampled_from(["delete", "reverse", "rest-list", "rest-range", "more-items", "unknown",
                     "rest-empty", "more-empty"]),
    st.sampled_from(["a", "b", "c", "rest", "d", "e", "more"])), max_size=4),
       patch=st.booleans())
def test_arguments_the_caller_changed(impl, edits, patch):
    """``args``, ``kwargs`` and ``apply_defaults()`` of a BoundArguments
    whose ``arguments`` the caller changed (entries deleted, reordered,
    ``*args`` a list or a range, ``**kwargs`` any mapping, unknown names)
    are inspect's, from the core and through the patched members."""
    with binder_class(impl):
        sig = inspect_signature(varied)
        for _ in range(WARM):  # a plan made for the signature
            sig_bound = _inspect._core.bind_signature(sig, (1, 2, 3, 4), {"d": 6, "x": 7}, False)
        arguments = dict(sig_bound.arguments)
        for edit, name in edits:
            if edit == "delete":
                arguments.pop(name, None)
            elif edit == "reverse":
                arguments = dict(reversed(list(arguments.items())))
            elif edit == "rest-list":
                arguments["rest"] = [10, 11]
            elif edit == "rest-range":
                arguments["rest"] = range(3)
            elif edit == "rest-empty":
                arguments["rest"] = ()
            elif edit == "more-items":
                arguments["more"] = types.MappingProxyType({"y": 1, "z": 2})
            elif edit == "more-empty":
                arguments["more"] = {}
            else:
                arguments[name + "_unknown"] = name
        mine = inspect.BoundArguments(sig, dict(arguments))
        theirs = inspect.BoundArguments(sig, dict(arguments))
        core = _inspect._core
        with patched() if patch else contextlib.nullcontext():
            got = (outcome(lambda: mine.args if patch else core.bound_args(mine)),
                   outcome(lambda: mine.kwargs if patch else core.bound_kwargs(mine)),
                   outcome(lambda: mine.apply_defaults() if patch else core.apply_defaults(mine)))
        expected = (outcome(lambda: INSPECT_ARGS(theirs)), outcome(lambda: INSPECT_KWARGS(theirs)),
                    outcome(lambda: INSPECT_APPLY_DEFAULTS(theirs)))
        assert got == expected
        assert list(mine.arguments.items()) == list(theirs.arguments.items())
