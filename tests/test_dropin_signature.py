"""Signatures made by the drop-in, held to the running inspect's.

Functions are generated (every parameter kind, defaults, annotations); each
gets its signature from ``posonly.signature``, from the patched
``inspect.signature`` and ``Signature.from_callable``, and from inspect's own
originals, with the function's attributes changed between calls (defaults,
keyword defaults, annotations, ``__signature__``, ``__wrapped__``, the code
itself).  The answers must be equal in every public use: parameters (the
same default and annotation objects), kinds, return annotation, ``str``,
``==``, ``hash``, ``replace``, pickling, binding.
"""

import inspect
import pickle
import random
import sys

from hypothesis import given
from hypothesis import strategies as st

import posonly
from oracle import Value
from test_inspect_dropin import (
    INSPECT_FROM_CALLABLE,
    binder_class,
    compare_call,
    functions,
    generate_call,
    outcome,
    patched,
)

INSPECT_SIGNATURE = inspect.signature


def inspect_from_callable(cls, obj, **options):
    return INSPECT_FROM_CALLABLE.__func__(cls, obj, **options)


def assert_same_signature(mine, theirs, cls, fresh_annotations=False):
    """``fresh_annotations``: inspect makes the annotations anew for each
    signature (3.14's STRING and FORWARDREF formats): equal, not identical."""
    same = (lambda a, b: a == b and type(a) is type(b)) if fresh_annotations else (lambda a, b: a is b)
    assert type(mine) is cls
    assert mine == theirs and theirs == mine and not (mine != theirs)
    assert str(mine) == str(theirs) and repr(mine).split()[0] == repr(theirs).split()[0]
    assert same(mine.return_annotation, theirs.return_annotation)
    assert type(mine.parameters) is type(theirs.parameters)
    assert type(mine.parameters.copy()) is type(theirs.parameters.copy())
    assert list(mine.parameters) == list(theirs.parameters)
    for name, param in theirs.parameters.items():
        got = mine.parameters[name]
        assert type(got) is type(param)
        assert got.name == param.name and got.kind is param.kind
        assert got.default is param.default and same(got.annotation, param.annotation)
        assert got == param and hash(got) == hash(param) and str(got) == str(param)
    assert hash(mine) == hash(theirs)
    assert mine.replace(return_annotation=int) == theirs.replace(return_annotation=int)
    shorter = list(mine.parameters.values())[:1]
    assert mine.replace(parameters=shorter) == theirs.replace(parameters=shorter)
    copy = pickle.loads(pickle.dumps(mine, protocol=4))  # defaults are copied too
    assert type(copy) is cls and str(copy) == str(theirs)


def assert_same_outcome(got, expected, cls, fresh_annotations=False):
    if expected[0] == "error":
        assert got == expected
    else:
        assert got[0] == "ok", got
        assert_same_signature(got[1], expected[1], cls, fresh_annotations)


def every_way(func, **options):
    """(made by the drop-in, made by inspect, class) for each way."""
    yield (
        outcome(lambda: posonly.signature(func, **options)),
        outcome(lambda: inspect_from_callable(posonly.Signature, func, **options)),
        posonly.Signature,
    )
    yield (
        outcome(lambda: posonly.Signature.from_callable(func, **options)),
        outcome(lambda: inspect_from_callable(posonly.Signature, func, **options)),
        posonly.Signature,
    )
    with patched():
        yield (
            outcome(lambda: inspect.signature(func, **options)),
            outcome(lambda: INSPECT_SIGNATURE(func, **options)),
            inspect.Signature,
        )
        yield (
            outcome(lambda: inspect.Signature.from_callable(func, **options)),
            outcome(lambda: inspect_from_callable(inspect.Signature, func, **options)),
            inspect.Signature,
        )


def check(func, **options):
    for mine, theirs, cls in every_way(func, **options):
        if theirs[0] == "ok" and type(theirs[1]) is not cls:
            # An object's own __signature__: posonly.signature converts it.
            assert mine[0] == "ok" and mine[1] == theirs[1]
            continue
        fresh = options.get("annotation_format", 1) != 1  # not Format.VALUE
        assert_same_outcome(mine, theirs, cls, fresh)


@given(func=functions())
def test_signatures_of_generated_functions_are_inspects(impl, func):
    with binder_class(impl):
        check(func)
        sig = posonly.signature(func)
        rng = random.Random(str(sig))
        for _ in range(10):
            args, kwargs = generate_call(rng, sig)
            compare_call(INSPECT_SIGNATURE(func), sig, args, kwargs)


def other(x, /, y: "other" = 1, *, z) -> "changed":
    pass


@st.composite
def changes(draw, func):
    """A change to one of ``func``'s attributes that decide its signature."""
    code = func.__code__
    argcount = code.co_argcount
    kwonly = code.co_varnames[argcount : argcount + code.co_kwonlyargcount]
    which = draw(
        st.sampled_from(
            ["__defaults__", "__kwdefaults__", "__annotations__", "__signature__", "__wrapped__",
             "__code__", "__text_signature__", "delete"]
        )
    )
    if which == "__defaults__":
        count = draw(st.integers(0, argcount + 2))  # more than the positionals, too
        value = tuple(Value(f"new{i}") for i in range(count)) if count or draw(st.booleans()) else None
    elif which == "__kwdefaults__":
        names = draw(st.lists(st.sampled_from(list(kwonly) + ["stray"]), unique=True))
        value = {name: Value(f"kw{name}") for name in names} if names or draw(st.booleans()) else None
    elif which == "__annotations__":
        names = list(code.co_varnames[: argcount + len(kwonly)]) + ["return", "stray"]
        value = {name: Value(f"ann{name}") for name in draw(st.lists(st.sampled_from(names), unique=True))}
    elif which == "__signature__":
        value = draw(st.sampled_from([None, inspect.signature(other), posonly.signature(other)]))
    elif which == "__wrapped__":
        value = other
    elif which == "__code__":
        value = other.__code__
    elif which == "__text_signature__":
        value = draw(st.sampled_from([None, "", "(a, b=1)"]))
    else:
        value = draw(st.sampled_from(["__signature__", "__wrapped__", "__text_signature__"]))
    return which, value


@given(data=st.data(), func=functions())
def test_signatures_follow_changed_attributes(impl, data, func):
    with binder_class(impl):
        check(func)
        for _ in range(3):
            which, value = data.draw(changes(func))
            if which == "delete":
                func.__dict__.pop(value, None)
            else:
                setattr(func, which, value)
            check(func)
            if sys.version_info >= (3, 14):
                import annotationlib

                for format in (annotationlib.Format.STRING, annotationlib.Format.FORWARDREF, 1):
                    check(func, annotation_format=format)
            if sys.version_info >= (3, 10):
                check(func, eval_str=False, globals={}, locals={})


def test_a_signature_whose_annotations_lookup_empties_the_defaults(impl):
    """Looking a parameter's annotation up runs Python code where a key of
    ``__annotations__`` has an ``__eq__`` of its own: here it empties
    ``__kwdefaults__``, freeing the default unless the signature being made
    holds it, as inspect's own code does."""
    for _ in range(20):
        def f(*, k=None):
            pass

        class Emptying(str):
            __hash__ = str.__hash__

            def __eq__(self, other):
                f.__kwdefaults__.clear()
                garbage = [[i] for i in range(100)]  # reuses freed memory
                return str.__eq__(self, other) and bool(garbage)

        def fresh():
            f.__kwdefaults__ = {"k": ["default"] * 3}
            f.__annotations__ = {Emptying("k"): int}
            return f

        expected = inspect_from_callable(inspect.Signature, fresh())
        with binder_class(impl):
            got = posonly.signature(fresh())
        assert got == expected
        assert got.parameters["k"].default == ["default"] * 3


def test_signatures_the_drop_in_leaves_to_inspect(impl):
    """Names a code object may hold that are not parameter names, and
    options: inspect answers, word for word."""

    def f(a, b=1, *args, c, **kw):
        pass

    with binder_class(impl):
        for names in (("a", "class", "args", "c", "kw"), (".0", "b", "args", "c", "kw")):
            g = type(f)(f.__code__.replace(co_varnames=names), {})
            g.__defaults__ = f.__defaults__
            check(g)
        check(f, follow_wrapped=False)
        check(f, bogus=1)
        if sys.version_info >= (3, 10):
            namespace = {}
            exec("from __future__ import annotations\ndef h(a: int) -> Missing: pass", namespace)
            check(namespace["h"], eval_str=True)
            check(namespace["h"])
        namespace = {}
        # Evaluated when the signature is made: NameError (3.14 and later),
        # or when the function is defined (before).
        exec("def late():\n    def h(a: Missing) -> int: pass\n    return h", namespace)
        made = outcome(namespace["late"])
        if made[0] == "ok":
            check(made[1])
            assert outcome(lambda: posonly.signature(made[1]))[1] is NameError


@given(func=functions())
def test_non_string_keywords_are_refused_as_inspect_refuses_them(impl, func):
    """The interpreter's message names the method called: inspect's own
    (on PyPy with its module, ``inspect.Signature.bind()``)."""
    theirs = INSPECT_SIGNATURE(func)
    with binder_class(impl):
        mine = posonly.signature(func)
        expected = [outcome(lambda: theirs.bind(**{1: 2})),
                    outcome(lambda: theirs.bind_partial(1, **{2: 3}))]
        assert [outcome(lambda: mine.bind(**{1: 2})),
                outcome(lambda: mine.bind_partial(1, **{2: 3}))] == expected
        with patched():
            assert [outcome(lambda: theirs.bind(**{1: 2})),
                    outcome(lambda: theirs.bind_partial(1, **{2: 3}))] == expected
