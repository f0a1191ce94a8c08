"""posonly over the callables real code hands it: the differential test.

Each case builds a real function of a generated layout, then dresses it as
code in the wild does (``functools.wraps`` decorators, ``__signature__``,
bound methods, callable instances, ``functools.partial``, ``classmethod`` and
``staticmethod``, and posonly's own wrappers, stacked), and checks, for both
implementations, that every generated call gives:

- with ``binder``: an error exactly when calling the object directly raises,
  with the same message; otherwise the values ``inspect.signature(obj).bind``
  gives (defaults applied), by identity;
- with ``wrap(before=...)`` and ``wrap(around=...)``: the direct call's result
  or error, the handler seeing the binder's values;
- with ``Layout.from_callable``: the signature ``inspect`` gives;
- a wrapper's ``inspect.signature`` (following ``__wrapped__`` or not) equal
  to the object's.
"""

import functools
import inspect
import random
import sys
import types

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from calls import generate_call, layouts
from oracle import Value, make_function, outcome, same_object_tree
from posonly import MISSING, Layout


# What each (*args, **kwargs) layer below received, in call order: a wrapper
# must hand such an object the caller's own arguments, as a direct call does.
RECEIVED = []


def logged(func):
    """A decorator as users write them."""

    @functools.wraps(func)
    def logged_wrapper(*args, **kwargs):
        RECEIVED.append((args, kwargs))
        return func(*args, **kwargs)

    return logged_wrapper


def with_signature(func):
    """A ``(*args, **kwargs)`` function that advertises ``func``'s signature
    by ``__signature__`` (and is named as it), without ``__wrapped__``."""

    def forward(*args, **kwargs):
        RECEIVED.append((args, kwargs))
        return func(*args, **kwargs)

    forward.__signature__ = inspect.signature(func)
    forward.__qualname__ = func.__qualname__
    forward.__name__ = func.__name__
    return forward


PLACEHOLDER = getattr(functools, "Placeholder", None)  # 3.14+


def _method_holder(func, kind):
    namespace = {"m": kind(func) if kind is not None else func}
    return type("Holder", (), namespace)


def dress(func, how, draw, impl):
    """``func`` as ``how`` says; ``None`` where that cannot be done."""
    layout = Layout.from_callable(func)
    if how == "wraps":
        return logged(func)
    if how == "wraps twice":
        return logged(logged(func))
    if how == "signature":
        return with_signature(func)
    if how == "wraps over signature":
        return logged(with_signature(func))
    if how in ("bound method", "bound wrapped method", "callable instance", "classmethod"):
        if not layout.argcount and layout.varargs is None:
            return None  # a method needs somewhere to put self
        if how == "callable instance":
            return type("Callable", (), {"__call__": func})()
        if how == "classmethod":
            return _method_holder(func, classmethod).m
        inner = logged(func) if how == "bound wrapped method" else func
        return _method_holder(inner, None)().m
    if how == "staticmethod":
        return _method_holder(func, staticmethod)().m
    if how in ("partial", "partial of wrapped"):
        n_args = draw(st.integers(0, layout.argcount + 1))
        keywords = draw(st.lists(st.sampled_from(layout.names + ("zz",)), unique=True, max_size=2))
        target = logged(func) if how == "partial of wrapped" else func
        args = [Value(f"p{i}") for i in range(n_args)]
        if PLACEHOLDER is not None:
            # Holes the caller's first positionals fill (not the last).
            for i in range(n_args - 1):
                if draw(st.booleans()):
                    args[i] = PLACEHOLDER
        partial = functools.partial(target, *args, **{k: Value(f"pk:{k}") for k in keywords})
        try:
            inspect.signature(partial)
        except ValueError:  # a partial inspect itself calls invalid
            return None
        if any(name in layout.posonly for name in keywords):
            # Before 3.13 inspect calls such a partial invalid; from 3.13 its
            # signature leaves the parameter out, while the interpreter
            # still binds it by position (the keyword goes to **kwargs):
            # there is no advertised signature the call follows.
            return None
        return partial
    if how == "posonly wrap":
        return impl.wrap(func, before=lambda values: None)
    if how == "posonly wrap over wraps":
        return impl.wrap(logged(func), around=lambda proceed, values: proceed(values))
    if how == "wraps over posonly wrap":
        return logged(impl.wrap(func, before=lambda values: None))
    raise AssertionError(how)


HOW = [
    "wraps",
    "wraps twice",
    "signature",
    "wraps over signature",
    "bound method",
    "bound wrapped method",
    "callable instance",
    "classmethod",
    "staticmethod",
    "partial",
    "partial of wrapped",
    "posonly wrap",
    "posonly wrap over wraps",
    "wraps over posonly wrap",
]


def _expected_values(signature, args, kwargs):
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


@pytest.mark.parametrize("how", HOW)
@given(layout=layouts(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_posonly_binds_what_the_object_advertises(impl, how, layout, seed, data):
    func = make_function(layout)
    obj = dress(func, how, data.draw, impl)
    assume(obj is not None)
    signature = inspect.signature(obj)
    bind = impl.binder(obj)
    advertised = Layout.from_callable(obj)
    assert advertised.to_signature() == Layout.from_signature(signature).to_signature()
    assert bind.layout is not None

    seen = []
    before = impl.wrap(obj, before=seen.append)
    around = impl.wrap(obj, around=lambda proceed, values: proceed(values))
    for wrapper in (before, around):
        assert inspect.signature(wrapper) == signature
        assert inspect.signature(wrapper, follow_wrapped=False) == signature

    rng = random.Random(seed)
    for _ in range(12):
        args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
        kwargs = dict(zip(kwnames, kwvalues))
        del RECEIVED[:]
        direct = outcome(lambda: obj(*args, **kwargs))
        received_directly = RECEIVED[:]
        got = outcome(lambda: bind(*args, **kwargs))
        if direct[0] == "error":
            assert got == direct, (args, kwargs)
        else:
            assert got[0] == "ok", (got, direct, args, kwargs)
            arguments = bind.arguments(*args, **kwargs)
            assert same_object_tree(got[1], tuple(arguments[n] for n in advertised.names))
            # Each value is the one the function itself received.
            received = dict(zip(layout.names, direct[1]))
            for name, value in arguments.items():
                if name != layout.varargs:
                    assert value is received[name] or (
                        name == layout.varkw and same_object_tree(value, received[name])
                    ), name
            # In PEP 570's corner (a positional-only name also given by
            # keyword, into **kwargs) inspect refuses the call or, on some
            # versions, binds the keyword to the parameter: there the values
            # are the interpreter's, checked above.
            if not any(name in layout.posonly for name in kwargs):
                expected = _expected_values(signature, args, kwargs)
                assert list(arguments) == list(expected)
                for name in expected:
                    if name == layout.varkw and isinstance(obj, functools.partial):
                        # The partial's keywords are in **kwargs as the
                        # function receives them; inspect leaves them out.
                        preset = obj.keywords
                        assert {k: v for k, v in arguments[name].items()
                                if k not in preset or k in kwargs} == expected[name]
                    else:
                        assert same_object_tree(arguments[name], expected[name]), name
        del seen[:]
        del RECEIVED[:]
        through_before = outcome(lambda: before(*args, **kwargs))
        assert through_before == direct or (
            direct[0] == "ok" and through_before[0] == "ok"
            and same_object_tree(through_before[1], direct[1])
        )
        if direct[0] == "ok":
            assert same_object_tree(seen[0], got[1])
            # The object gets the caller's own arguments, no defaults added.
            assert same_object_tree(tuple(RECEIVED), tuple(received_directly)), RECEIVED
        else:
            assert seen == []
        wrapped = outcome(lambda: around(*args, **kwargs))
        if direct[0] == "ok":
            assert wrapped[0] == "ok" and same_object_tree(wrapped[1], direct[1])
        else:
            assert wrapped == direct


def test_follow_wrapped_false_binds_the_outer_code(impl):
    def pay(amount, currency="EUR"):
        return amount, currency

    decorated = logged(pay)
    assert impl.binder(decorated)(1) == (1, "EUR")
    plain = impl.binder(decorated, follow_wrapped=False)
    assert plain(1, "USD", 3) == ((1, "USD", 3), {})
    assert Layout.from_callable(decorated, follow_wrapped=False).names == ("args", "kwargs")
    assert Layout.from_callable(decorated).names == ("amount", "currency")


def test_messages_name_the_function_bound(impl):
    class Service:
        def compute(self, a, b=2):
            return a + b

        @logged
        def logged_compute(self, a, b=2):
            return a + b

    class CI:
        def __call__(self, a):
            return a

    def g(a, b, *, c):
        return a, b, c

    cases = [
        (CI(), (1, 2), {}),
        (Service().compute, (1, 2, 3), {}),
        (Service().logged_compute, (1, 2, 3), {}),
        (functools.partial(g, 1), (2, 3), {"c": 4}),
        (functools.partial(g, b=1), (2, 3), {}),
        (functools.partial(g, c=1), (), {}),
    ]
    for obj, args, kwargs in cases:
        message = outcome(lambda: obj(*args, **kwargs))
        assert message[0] == "error"
        assert outcome(lambda: impl.binder(obj)(*args, **kwargs)) == message
        assert outcome(lambda: impl.wrap(obj, before=print)(*args, **kwargs)) == message
    expected = "CI.__call__()" if sys.version_info >= (3, 10) else "__call__()"
    assert outcome(lambda: impl.binder(CI())(1, 2))[2].endswith(
        f"{expected} takes 2 positional arguments but 3 were given"
    )


@pytest.mark.skipif(PLACEHOLDER is None, reason="functools.Placeholder came with 3.14")
def test_a_placeholder_partial_binds_as_the_interpreter_calls_it(impl):
    def f(a, b, /, c, d=4, *, e=5):
        return a, b, c, d, e

    p = functools.partial(f, PLACEHOLDER, 2, PLACEHOLDER, 4, e=7)  # (a, c, /, *, e=7)
    bind = impl.binder(p)
    seen = []
    before = impl.wrap(p, before=seen.append)
    around = impl.wrap(p, around=lambda proceed, values: proceed(values))
    for args, kwargs in [((), {}), ((1,), {}), ((1, 3), {}), ((1, 3, 5), {}),
                         ((1, 3), {"e": 8}), ((1, 3), {"d": 9}), ((1, 3), {"b": 0}),
                         ((1,), {"c": 3})]:
        direct = outcome(lambda: p(*args, **kwargs))
        for way in (lambda: bind(*args, **kwargs),
                    lambda: bind.bind(args, kwargs),
                    lambda: bind.vectorcall(args + tuple(kwargs.values()), tuple(kwargs) or None),
                    lambda: bind.arguments(*args, **kwargs),
                    lambda: before(*args, **kwargs),
                    lambda: around(*args, **kwargs)):
            got = outcome(way)
            assert got[0] == direct[0] and (direct[0] == "ok" or got == direct), (args, kwargs, got)
        if direct[0] == "ok":
            a, b, c, d, e = direct[1]
            assert bind(*args, **kwargs) == (a, c, e)
            assert around(*args, **kwargs) == direct[1]
            assert seen[-1] == (a, c, e)
    # A partial binding leaves a hole no argument fills MISSING.
    assert bind.partial() == (MISSING, MISSING, 7)
    assert bind.partial(1) == (1, MISSING, 7)


def test_descriptors_wrapped_before_or_after_they_are_applied(impl):
    seen = []

    def record(values):
        seen.append(values)

    class K:
        @functools.partial(impl.wrap, before=record)
        @classmethod
        def made_after(cls, x, y=2):
            return cls, x, y

        @classmethod
        @functools.partial(impl.wrap, before=record)
        def made_before(cls, x, y=2):
            return cls, x, y

        @staticmethod
        @functools.partial(impl.wrap, before=record)
        def static_before(x, y=2):
            return x, y

        @functools.partial(impl.wrap, before=record)
        @staticmethod
        def static_after(x, y=2):
            return x, y

    assert isinstance(K.__dict__["made_after"], classmethod)
    assert isinstance(K.__dict__["static_after"], staticmethod)
    for owner in (K, K()):
        for name in ("made_after", "made_before"):
            del seen[:]
            assert getattr(owner, name)(1) == (K, 1, 2)
            assert seen == [(K, 1, 2)]
            # The function itself, called as the interpreter calls a
            # classmethod's function (PyPy words a method's errors apart).
            function = K.__dict__[name].__func__.__wrapped__
            direct = outcome(lambda: types.MethodType(function, K)(1, 2, 3))
            assert outcome(lambda: getattr(owner, name)(1, 2, 3))[0] == "error"
            if name == "made_before":
                assert outcome(lambda: getattr(owner, name)(1, 2, 3))[1:] == direct[1:]
        for name in ("static_before", "static_after"):
            del seen[:]
            assert getattr(owner, name)(1, y=3) == (1, 3)
            assert seen == [(1, 3)]
            assert outcome(lambda: getattr(owner, name)(1, 2, 3))[0] == "error"
    with pytest.raises(TypeError, match="wrap\\(\\) returns a classmethod"):
        impl.Wrapper(classmethod(lambda cls: None), before=record)
