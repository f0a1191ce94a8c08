"""What patch_inspect() leaves behind, and what it hides: every replaced
object comes back by identity, a later patch is left alone, introspection
sees inspect's own methods, nothing the patch touched is kept alive by it,
a signature made per call holds memory flat, and a failed bind raises as
inspect raises and leaves nothing for the cyclic collector."""

import gc
import inspect
import sys
import weakref
from unittest import mock

import pytest

import posonly
from posonly import _inspect, _options
from test_inspect_dropin import (
    INSPECT_BIND,
    INSPECT_BIND_PARTIAL,
    INSPECT_FROM_CALLABLE,
    binder_class,
    outcome,
    patched,
)

REPLACED = [
    (inspect, "signature"),
    (inspect.Signature, "bind"),
    (inspect.Signature, "bind_partial"),
    (inspect.Signature, "from_callable"),
    (inspect.BoundArguments, "args"),
    (inspect.BoundArguments, "kwargs"),
    (inspect.BoundArguments, "apply_defaults"),
]


def _ask_twice(obj):
    """Ask for ``obj``'s signature and spec each way, twice (what the
    patch could keep of it)."""
    for _ in range(2):
        outcome(lambda: inspect.signature(obj))
        outcome(lambda: posonly.signature(obj))
        outcome(lambda: inspect.getfullargspec(obj))


def originals():
    return {(owner, name): owner.__dict__[name] for owner, name in REPLACED}


def test_patch_replaces_and_unpatch_restores_every_object_by_identity(impl):
    before = originals()
    assert before[(inspect.Signature, "from_callable")] is INSPECT_FROM_CALLABLE
    with binder_class(impl):
        posonly.patch_inspect()
        try:
            for key, original in before.items():
                assert key[0].__dict__[key[1]] is not original, key
        finally:
            posonly.unpatch_inspect()
    assert originals() == before
    for key, original in before.items():
        assert key[0].__dict__[key[1]] is original, key


def test_unpatch_leaves_a_later_patch_alone():
    before = originals()

    def later_bind(self, /, *args, **kwargs):
        return "later"

    later_args = property(lambda self: "later args")
    posonly.patch_inspect()
    try:
        inspect.Signature.bind = later_bind
        inspect.BoundArguments.args = later_args
    finally:
        posonly.unpatch_inspect()
    try:
        assert inspect.Signature.__dict__["bind"] is later_bind
        assert inspect.BoundArguments.__dict__["args"] is later_args
        for key, original in before.items():
            if key not in ((inspect.Signature, "bind"), (inspect.BoundArguments, "args")):
                assert key[0].__dict__[key[1]] is original, key
        posonly.unpatch_inspect()  # again: still leaves it alone
        assert inspect.Signature.__dict__["bind"] is later_bind
    finally:
        inspect.Signature.bind = before[(inspect.Signature, "bind")]
        inspect.BoundArguments.args = before[(inspect.BoundArguments, "args")]


def introspection():
    """What introspection says of inspect's binding members right now."""

    def plain(a, b=2, *, c):
        pass

    answers = {}
    for owner, name in REPLACED:
        member = getattr(owner, name)
        if callable(member):
            answers[name] = outcome(lambda: str(inspect.signature(member)))
            answers[name + " doc"] = member.__doc__
            answers[name + " name"] = (member.__name__, member.__qualname__, member.__module__)
        else:
            answers[name + " doc"] = member.__doc__
    spec_sig = mock.create_autospec(inspect.Signature, instance=True)
    answers["autospec bind(1)"] = outcome(lambda: spec_sig.bind(1, x=2) is not None)
    answers["autospec bind()"] = outcome(lambda: spec_sig.bind() is not None)
    answers["autospec bind_partial(self=1)"] = outcome(lambda: spec_sig.bind_partial(self=1) is not None)
    answers["autospec from_callable(plain)"] = outcome(lambda: spec_sig.from_callable(plain) is not None)
    answers["autospec from_callable()"] = outcome(lambda: spec_sig.from_callable() is not None)
    spec_bound = mock.create_autospec(inspect.BoundArguments, instance=True)
    answers["autospec apply_defaults()"] = outcome(lambda: spec_bound.apply_defaults() is not None)
    answers["autospec apply_defaults(1)"] = outcome(lambda: spec_bound.apply_defaults(1))
    spec_function = mock.create_autospec(inspect.signature)
    answers["autospec signature(plain)"] = outcome(lambda: spec_function(plain) is not None)
    answers["autospec signature()"] = outcome(lambda: spec_function())
    answers["help"] = [
        line for line in _help_text(inspect.Signature).splitlines() if "bind" in line or "from_callable" in line
    ]
    return answers


def _help_text(obj):
    import pydoc

    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def test_patched_members_introspect_as_inspects_own(impl):
    expected = introspection()
    with binder_class(impl), patched():
        got = introspection()
    assert got == expected


def test_the_drop_in_methods_introspect_as_inspects_own():
    for name in ("bind", "bind_partial"):
        mine, theirs = getattr(posonly.Signature, name), getattr(inspect.Signature, name)
        assert str(inspect.signature(mine)) == str(inspect.signature(theirs))
        assert mine.__doc__ == theirs.__doc__
    assert str(inspect.signature(posonly.Signature.from_callable)) == str(
        inspect.signature(inspect.Signature.from_callable)
    )


class Big:
    """A default value large enough to notice, that says when it is freed."""

    def __init__(self):
        self.payload = bytearray(8 * 1024 * 1024)


@pytest.mark.parametrize("how", ["patched", "drop-in"])
def test_a_large_default_is_freed_once_its_function_is_gone(impl, how):
    namespace = {"Big": Big}
    exec("def f(a, b=Big(), *, c=Big(), **kw): pass", namespace)
    func = namespace.pop("f")
    refs = [weakref.ref(func.__defaults__[0]), weakref.ref(func.__kwdefaults__["c"])]
    with binder_class(impl), patched():
        make = inspect.signature if how == "patched" else posonly.signature
        for _ in range(3):
            sig = make(func)
            ba = sig.bind(1, x=2)
            ba.apply_defaults()
            assert ba.args == (1, func.__defaults__[0]) and ba.kwargs["x"] == 2
            assert outcome(lambda: sig.bind()) [0] == "error"
            sig.bind_partial(c=3).kwargs  # noqa: B018
        del func, sig, ba
        gc.collect()
        assert [ref() for ref in refs] == [None, None]


@pytest.mark.skipif(not hasattr(sys, "getallocatedblocks"), reason="PyPy does not count its blocks")
def test_a_signature_made_per_call_holds_memory_flat(impl):
    """100,000 calls each making its signature afresh, binding it, failing a
    bind and reading the members: no growth beyond noise."""

    def func(a, b, /, c=3, *args, d, e=5, **kw):
        pass

    def run(count):
        for i in range(count):
            ba = inspect.signature(func).bind(i, 2, d=4, x=5)
            ba.apply_defaults()
            ba.args, ba.kwargs  # noqa: B018
            try:
                inspect.signature(func).bind(i)
            except TypeError:
                pass

    with binder_class(impl), patched():
        run(2000)
        gc.collect()
        before = sys.getallocatedblocks()
        run(100_000)
        gc.collect()
        after = sys.getallocatedblocks()
    assert after - before < 200, after - before


@pytest.mark.skipif(not hasattr(sys, "getrefcount"), reason="PyPy has no reference counts")
def test_references_stay_flat_on_every_new_path(impl):
    """Making signatures, binding (every error too), and the members of the
    result: no reference gained or lost by the defaults, the annotations,
    the values or the names."""
    from oracle import Value

    default, kwdefault, annotation, value = Value("d"), Value("k"), Value("ann"), Value("v")
    namespace = {"D": default, "K": kwdefault, "A": annotation}
    exec("def f(a: A, b=D, /, c: A = D, *args: A, d, e=K, **kw: A) -> A: pass", namespace)
    func = namespace["f"]
    key = "".join(["c"])  # equal to a name, not identical
    calls = [
        lambda s: s.bind(value, value, d=value),
        lambda s: s.bind(value, value, value, value, value, d=value, zz=value),
        lambda s: s.bind(value, **{key: value}, d=value),
        lambda s: s.bind_partial(value, e=value),
        lambda s: s.bind_partial(),
        lambda s: s.bind(value),  # missing d
        lambda s: s.bind(),  # missing a
        lambda s: s.bind(value, c=value, **{key: value}),  # duplicate keyword
        lambda s: s.bind(value, value, value, c=value, d=value),  # multiple values
        lambda s: s.bind(a=value, d=value),  # PEP 570 corner
        lambda s: s.bind(**{1: value}),  # not a string
    ]

    def g(x, /, *, y):
        pass

    def run(count):
        for _ in range(count):
            for sig in (posonly.signature(func), inspect.signature(func)):
                for call in calls:
                    result = outcome(lambda: call(sig))
                    if result[0] == "ok":
                        ba = result[1]
                        ba.args, ba.kwargs  # noqa: B018
                        ba.apply_defaults()
                        ba.args, ba.kwargs  # noqa: B018
            try:
                inspect.signature(g).bind(value, value)
            except TypeError:
                inspect.signature(g).bind_partial(value).kwargs  # noqa: B018

    watched = (default, kwdefault, annotation, value, key, func)
    with binder_class(impl), patched():
        # Warm enough for the pure core to have made its layouts and plans,
        # which hold names ("c", the one-character key, is the interpreter's
        # shared string) before the counts are taken.
        run(100)
        gc.collect()
        before = [sys.getrefcount(obj) for obj in watched]
        run(1000)
        gc.collect()
        after = [sys.getrefcount(obj) for obj in watched]
    assert after == before


BOTH = ("bind", "bind_partial")
FAILING = {
    "too many positionals": ("def f(a, b, c): pass", "(1, 2, 3, 4)", BOTH),
    "too many positionals, keyword-only next": ("def f(a, /, b, *, c): pass", "(1, 2, 3)", BOTH),
    "missing required": ("def f(a, b, c): pass", "(1)", ("bind",)),
    "missing keyword-only": ("def f(a, /, b, *args, c, **kw): pass", "(1, 2, 3)", ("bind",)),
    "unexpected keyword": ("def f(a, b, c): pass", "(1, 2, 3, d=4)", BOTH),
    "multiple values": ("def f(a, b, c): pass", "(1, 2, a=3)", BOTH),
    "positional-only by keyword": ("def f(a, /, b=2): pass", "(a=1)", BOTH),
}
"""Calls that every supported inspect refuses, by kind of failure: the
signature, the call, and the methods that refuse it."""


@pytest.mark.skipif(sys.implementation.name != "cpython",
                    reason="no reference counting on PyPy: everything is the collector's")
@pytest.mark.parametrize("how", ["patched", "drop-in"])
def test_a_failed_bind_leaves_nothing_for_the_collector(impl, how):
    """A refused bind is freed by reference counting alone: its error, the
    traceback and the frames in it form no cycle (the collector finds
    nothing, where inspect's own failure leaves nothing either)."""
    calls = {}
    with binder_class(impl), patched():
        make = inspect.signature if how == "patched" else posonly.signature
        for kind, (source, call, methods) in FAILING.items():
            namespace = {}
            exec(source, namespace)
            sig = make(namespace["f"])
            for method in methods:
                run = eval(f"lambda: sig.{method}{call}", {"sig": sig})
                assert outcome(run)[0] == "error", (kind, method)
                calls[f"{kind}, {method}"] = run
        left = {}
        gc.collect()
        gc.disable()
        try:
            for name, run in calls.items():
                for _ in range(200):
                    try:
                        run()
                    except TypeError:
                        pass
                left[name] = gc.collect()
        finally:
            gc.enable()
    assert left == dict.fromkeys(calls, 0)
    assert gc.garbage == []


def _chain(error, outer):
    """What a traceback shows of ``error``'s chain, link by link: type,
    message, how it is chained, and whether the link is ``outer`` itself.
    A context an error suppresses (inspect's ``from None``) is not shown."""
    links = []
    while error is not None:
        links.append(
            (
                type(error),
                str(error),
                error.__cause__,
                error.__suppress_context__,
                error is outer,
            )
        )
        if error.__cause__ is not None:
            error = error.__cause__
        elif error.__suppress_context__:
            error = None
        else:
            error = error.__context__
    return links


def _raised(call, outer):
    """What ``call()`` returns or raises, called where ``outer`` (if any) is
    being handled."""
    try:
        if outer is None:
            return ("ok", call())
        try:
            raise outer
        except ValueError:
            return ("ok", call())
    except TypeError as error:
        return ("error", _chain(error, outer))


REFUSALS = [
    ("def f(a, b, c): pass", "(1, 2, 3, 4)"),
    ("def f(a, b, c): pass", "(1)"),
    ("def f(a, b, c): pass", "()"),
    ("def f(a, b, c): pass", "(1, 2, 3, d=4)"),
    ("def f(a, b, c): pass", "(1, 2, a=3)"),
    ("def f(a, b, c): pass", "(1, 2, c=3, d=4, e=5)"),
    ("def f(a, /, b, *args, c, **kw): pass", "()"),
    ("def f(a, /, b, *args, c, **kw): pass", "(1, 2, 3)"),
    ("def f(a, /, b, *args, c, **kw): pass", "(1, 2, b=3, c=4)"),
    ("def f(a, /, b, *args, c, **kw): pass", "(1, c=3)"),
    ("def f(a, /, *, b): pass", "(1, 2)"),
    ("def f(a, /, *, b): pass", "(1)"),
    ("def f(a, /, *, b): pass", "(1, b=2, c=3)"),
    ("def f(*, a, b=2): pass", "(1)"),
    ("def f(*, a, b=2): pass", "(b=1)"),
    ("def f(a=1, /, b=2): pass", "(b=1, a=2)"),
    ("def f(a=1, /, **kw): pass", "(1, 2)"),
    ("def f(): pass", "(x=1)"),
    ("def f(a, /): pass", "(a=1)"),
    ("def f(a, /, b=2): pass", "(b=1, a=2)"),
]
"""Refused calls (by bind; bind_partial refuses most), every kind of
parameter and of failure.  A positional-only parameter named by keyword has
the cases of its own: the one failure whose chain differs on some versions."""


@pytest.mark.parametrize("source, call", REFUSALS)
def test_a_failed_bind_raises_as_inspect_does(impl, source, call):
    """The patched bind and bind_partial, and the drop-in's, raise inspect's
    very error: its type, its message, its cause, its suppressed context,
    and the context it shows (none, the exception being handled where bind
    was called, or, from 3.14, the StopIteration inside whose handler inspect
    raises a missing positional-only argument, with its own context).  The
    context inspect suppresses (its own StopIteration or KeyError) is never
    shown, and is not compared."""
    namespace = {}
    exec(source, namespace)
    func = namespace["f"]
    outer = ValueError("being handled")
    expected = {}
    sig = inspect.signature(func)
    for name, method in (("bind", INSPECT_BIND), ("bind_partial", INSPECT_BIND_PARTIAL)):
        for handling in (None, outer):
            expected[name, handling] = _raised(
                lambda: eval(f"method{call[0]}sig, {call[1:]}", {"method": method, "sig": sig}), handling
            )
    assert expected["bind", None][0] == "error"
    with binder_class(impl), patched():
        for make in (inspect.signature, posonly.signature):
            sig = make(func)
            for (name, handling), want in expected.items():
                got = _raised(lambda: eval(f"sig.{name}{call}", {"sig": sig}), handling)
                if want[0] == "ok":
                    assert got[0] == "ok", (make, name, handling, got)
                    assert type(got[1]) is inspect.BoundArguments
                    assert got[1].arguments == want[1].arguments
                else:
                    assert got == want, (make, name, handling)


class Items(list):
    """A builtin type's subclass: its instances' builtin methods are bound
    to an object of the user's, which can die."""


def test_a_builtin_asked_about_keeps_nothing_alive(impl):
    """The signatures of builtins bound to objects of the user's are made
    from the text signatures kept, which hold no object: the objects die
    with their last reference, and their reference counts stay flat; the
    kept texts are at most ``maxsize``."""
    with binder_class(impl), patched():
        refs = []
        for _ in range(3):
            items = Items()
            for method in (items.append, items.__len__, items.index, items.__init__):
                _ask_twice(method)
            refs.append(weakref.ref(items))
            del items, method
        gc.collect()
        assert [ref() for ref in refs] == [None] * len(refs)
        items = Items()
        if hasattr(sys, "getrefcount"):
            before = sys.getrefcount(items)
            for _ in range(100):
                inspect.signature(items.append)
                inspect.getfullargspec(items.pop)
            assert sys.getrefcount(items) == before
        posonly.patch_inspect(maxsize=2)
        for method in (len, items.append, str.split, divmod, dict.fromkeys, items.pop):
            outcome(lambda: inspect.signature(method))
        assert _options.builtin_cache_info() == {"texts": min(2, len(_options._texts)),
                                                 "maxsize": 2}
        assert all(type(text) is str for text, _ in _options._texts)
        posonly.patch_inspect(maxsize=0)
        assert _options.builtin_cache_info() == {"texts": 0, "maxsize": 0}
        assert outcome(lambda: inspect.signature(len)) == outcome(
            lambda: _inspect._INSPECT_FROM_CALLABLE(inspect.Signature, len))
        posonly.patch_inspect()


KINDS = """
import enum, functools

class Colour(enum.Enum):
    RED = 1

Named = enum.Enum("Named", "A B")
"""


def test_an_enum_asked_about_keeps_nothing_alive(impl):
    """Enums (of classes, and made by the functional API) asked about die
    with their last reference, and their reference counts stay flat."""
    with binder_class(impl), patched():
        refs = []
        for _ in range(3):
            namespace = {}
            exec(KINDS, namespace)  # noqa: S102 - a constant source
            for name in ("Colour", "Named"):
                obj = namespace[name]
                _ask_twice(obj)
                refs.append(weakref.ref(obj))
            del namespace, obj
        gc.collect()
        assert [ref() for ref in refs] == [None] * len(refs)
        if hasattr(sys, "getrefcount"):
            namespace = {}
            exec(KINDS, namespace)  # noqa: S102 - a constant source
            watched = [namespace["Colour"], namespace["Named"]]

            def ask(count):
                for _ in range(count):
                    for obj in watched:
                        inspect.signature(obj)
                        inspect.getfullargspec(obj)

            ask(1)
            before = [sys.getrefcount(obj) for obj in watched]
            ask(100)
            assert [sys.getrefcount(obj) for obj in watched] == before
