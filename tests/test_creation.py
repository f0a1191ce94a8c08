"""Binders and wrappers of plain functions, made straight from the code object.

``binder(f)`` and ``wrap(f, ...)`` of a plain Python function take a short
way: the parameters are read from the code object, nothing the compiler
guarantees is checked again, and the layout is built only when asked for.
Here that way is held to the interpreter (every call, right and wrong, gives
the real function's results and messages), to the general way (the layout it
builds later equals ``Layout.from_callable``'s), and to ``functools.wraps``;
functions that are not plain take the general way; and making and dropping
thousands of binders and wrappers frees everything they held.
"""

import copy
import functools
import gc
import inspect
import pickle
import random
import sys
import types
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calls import generate_call, layouts
from oracle import Value, assert_same_outcome, make_function, outcome
from posonly import Layout
from posonly._plan import parameter_list
from test_differential import assert_entry_points_answer_as

CALLS_PER_LAYOUT = 30


def with_body_locals(func):
    """``func`` again, with two locals of its own after the parameters (so
    its ``co_varnames`` is longer than its parameter list)."""
    code = func.__code__
    params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount
                              + bool(code.co_flags & 4) + bool(code.co_flags & 8)]
    body = "".join(n + ", " for n in params)
    source = (
        f"def outer():\n    def inner({parameter_list(Layout.from_callable(func))}):\n"
        f"        zz_one = zz_two = None\n        return ({body})\n    return inner\n"
    )
    namespace = {}
    exec(source, namespace)
    copied = namespace["outer"]()
    copied.__defaults__ = func.__defaults__
    copied.__kwdefaults__ = func.__kwdefaults__
    copied.__qualname__ = func.__qualname__
    if sys.version_info < (3, 10):
        copied.__code__ = copied.__code__.replace(co_name=func.__code__.co_name)
        copied.__name__ = func.__name__
    assert len(copied.__code__.co_varnames) == len(params) + 2
    return copied


# On PyPy the function itself words some messages (keywords must be
# strings), so every binder and wrapper is made the general way there.
FROM_CODE = sys.implementation.name == "cpython"


def made_directly(impl, func):
    """Whether ``impl`` makes a binder of ``func`` from its code object."""
    made = impl.binder_of_function(func)
    return made is not None and type(made) is impl.Binder


@given(layout=layouts(), seed=st.integers(0, 2**32), body_locals=st.booleans())
def test_binder_of_a_function_answers_as_the_function(impl, layout, seed, body_locals):
    rng = random.Random(seed)
    func = make_function(layout)
    if body_locals:
        func = with_body_locals(func)
    assert made_directly(impl, func) is FROM_CODE
    bind = impl.binder(func)
    assert_entry_points_answer_as(func, bind, layout, rng)
    # The layout built on first use is the general path's, and equal
    # binders come out of both ways.
    general = Layout(layout.name, layout.posonly, layout.positional, layout.varargs,
                     layout.kwonly, layout.varkw, func.__defaults__ or (),
                     func.__kwdefaults__ or {})
    assert bind.layout == general == Layout.from_callable(func)
    assert hash(bind.layout) == hash(general)
    assert bind.layout is bind.layout
    assert repr(bind) == repr(impl.Binder(general))
    assert repr(pickle.loads(pickle.dumps(bind)).layout) == repr(general)


@given(layout=layouts(), seed=st.integers(0, 2**32))
def test_partial_of_a_binder_of_a_function(impl, layout, seed):
    """partial() first, before anything else was built."""
    rng = random.Random(seed)
    func = make_function(layout)
    general = impl.Binder(Layout.from_callable(func))
    for _ in range(CALLS_PER_LAYOUT // 3):
        bind = impl.binder(func)
        args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
        kwargs = dict(zip(kwnames, kwvalues))
        assert_same_outcome(
            outcome(lambda: bind.partial(*args, **kwargs)),
            outcome(lambda: general.partial(*args, **kwargs)),
        )


@given(layout=layouts(), seed=st.integers(0, 2**32), around=st.booleans())
def test_wrapper_of_a_function_answers_as_the_function(impl, layout, seed, around):
    rng = random.Random(seed)
    func = make_function(layout)
    seen = []
    if around:
        wrapper = impl.wrap(func, around=lambda proceed, values: (seen.append(values), proceed(values))[1])
    else:
        wrapper = impl.wrap(func, before=seen.append)
    for _ in range(CALLS_PER_LAYOUT):
        args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
        kwargs = dict(zip(kwnames, kwvalues))
        expected = outcome(lambda: func(*args, **kwargs))
        del seen[:]
        got = outcome(lambda: wrapper(*args, **kwargs))
        try:
            assert_same_outcome(got, expected)
            if expected[0] == "ok":
                assert len(seen) == 1
                assert_same_outcome(("ok", seen[0]), expected)
            else:
                assert seen == []
        except AssertionError as exc:
            raise AssertionError(f"{layout!r} wrapped, {args}, {kwargs}: {exc}") from None
    assert inspect.signature(wrapper) == inspect.signature(func)
    assert wrapper.__wrapped__ is func


class _Attributes:
    """An object with a ``__dict__``, for functools.update_wrapper to fill."""


def annotated(a: int, /, b: "str" = "x", *args, c, d=4, **kw) -> list:
    """The docstring."""


annotated.custom = ["an attribute"]


async def coroutine_function(a, b=1):
    return a + b


@pytest.mark.parametrize("func", [annotated, coroutine_function, make_function(Layout.parse("a, b=1"))])
def test_wrapper_looks_as_functools_wraps_makes_it(impl, func):
    wrapper = impl.wrap(func, before=len)
    reference = functools.update_wrapper(_Attributes(), func)
    attributes = functools.WRAPPER_ASSIGNMENTS + ("__wrapped__",)
    if impl.name == "python" and func is coroutine_function and sys.version_info < (3, 12):
        # The pure twin's partial-like wrapper copies these alone.
        attributes = ("__module__", "__name__", "__qualname__", "__doc__", "__wrapped__")
    for attr in attributes:
        assert getattr(wrapper, attr) is getattr(reference, attr), attr
    assert wrapper.custom is func.custom if func is annotated else True
    if impl.name == "cython":
        # Besides update_wrapper's, a coroutine function's wrapper has its
        # mark (3.12+) or the func inspect looks through (before).
        own = {k: v for k, v in vars(wrapper).items() if k not in ("func", "_is_coroutine_marker")}
        assert own == vars(reference)
        assert list(own) == list(vars(reference))
    assert inspect.iscoroutinefunction(wrapper) == inspect.iscoroutinefunction(func)


def test_functions_that_are_not_plain_take_the_general_way(impl):
    def f(a, b=1):
        return a, b

    def advertised(x, y):
        pass

    f.__wrapped__ = advertised
    assert impl.binder_of_function(f) is None

    def g(a, b=1):
        pass

    g.__signature__ = inspect.signature(advertised)
    assert impl.binder_of_function(g) is None

    def h(a):
        pass

    h.__defaults__ = (1, 2, 3)  # more defaults than parameters: refused, as before
    assert impl.binder_of_function(h) is None
    with pytest.raises(ValueError, match="3 defaults given for 1 positional parameter$"):
        impl.binder(h)

    class Defaults(tuple):
        pass

    def k(a, b=None):
        return a, b

    k.__defaults__ = Defaults((Value("d"),))
    if type(k.__defaults__) is not tuple:  # CPython keeps the subclass (PyPy copies it)
        assert impl.binder_of_function(k) is None
    assert impl.binder(k)(1) == (1, k.__defaults__[0])

    class Name(str):
        pass

    def n(a):
        pass

    n.__qualname__ = Name("the.name")
    if sys.version_info >= (3, 10) and type(n.__qualname__) is not str:  # PyPy copies it
        assert impl.binder_of_function(n) is None
    with pytest.raises(TypeError) as info:
        impl.binder(n)()
    with pytest.raises(TypeError) as expected:
        n()
    assert str(info.value) == str(expected.value)


def test_other_attributes_keep_a_function_plain(impl):
    def f(a, *, b):
        return a, b

    f.tag = "kept"
    assert made_directly(impl, f) is FROM_CODE
    assert impl.binder(f)(1, b=2) == (1, 2)
    with pytest.raises(TypeError) as info:
        impl.binder(f)(1)
    with pytest.raises(TypeError) as expected:
        f(1)
    assert str(info.value) == str(expected.value)


def test_a_binder_keeps_the_defaults_it_was_made_with(impl):
    def f(a, b=1, *, c=2):
        return a, b, c

    bind = impl.binder(f)
    name = Layout.from_callable(f).name
    f.__defaults__ = (10,)
    f.__kwdefaults__["c"] = 20
    assert bind(0) == (0, 1, 2)
    assert bind.layout == Layout(name, (), ("a", "b"), None, ("c",), None, (1,), {"c": 2})


def test_binder_of_a_function_copies_and_deep_copies(impl):
    def f(a, b=[]):
        return a, b

    bind = impl.binder(f)
    assert copy.copy(bind)(1) == (1, [])
    assert copy.deepcopy(bind).layout == bind.layout


# -- memory: making and dropping binders and wrappers frees what they held ----

def _fresh_function(i):
    namespace = {}
    exec(
        f"def f{i}(a{i}, b{i}=None, /, *args{i}, c{i}, d{i}=None, **kw{i}):\n    pass\n",
        namespace,
    )
    return namespace[f"f{i}"]


MAKERS = {
    "binder": lambda impl, f: impl.binder(f),
    "wrap(before=)": lambda impl, f: impl.wrap(f, before=len),
    "wrap(around=)": lambda impl, f: impl.wrap(f, around=lambda proceed, values: None),
}


@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_made_objects_free_the_function_and_its_defaults(impl, maker):
    make = MAKERS[maker]
    refs = []
    for i in range(50):
        f = _fresh_function(i)
        default, kwdefault = Value("default"), Value("kwdefault")
        f.__defaults__ = (None, default)
        f.__kwdefaults__ = {f"d{i}": kwdefault}
        made = make(impl, f)
        made.layout if maker == "binder" else made(1, **{f"c{i}": 2})
        refs.append((weakref.ref(f), weakref.ref(default), weakref.ref(kwdefault)))
        del f, default, kwdefault, made
    gc.collect()
    gc.collect()
    assert all(ref() is None for triple in refs for ref in triple)


@pytest.mark.skipif(not hasattr(sys, "getrefcount"), reason="PyPy has no tracemalloc")
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_making_and_dropping_leaves_memory_flat(impl, maker):
    import tracemalloc

    make = MAKERS[maker]
    functions = [_fresh_function(i) for i in range(3_000)]
    for f in functions[:500]:  # warm the shapes' templates and caches
        made = make(impl, f)
        made.layout if maker == "binder" else made(1, **{"c" + f.__name__[1:]: 2})
    for f in functions:
        # What functools.update_wrapper leaves on the function (an empty
        # __dict__, and __annotations__ before 3.14), as a wraps-def does:
        # the function's, not the binder's or wrapper's.  (Nothing reads
        # co_varnames, which from 3.12 on makes a tuple the code object keeps.)
        functools.update_wrapper(_Attributes(), f)
    del made
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for f in functions:
            made = make(impl, f)
            if maker == "binder":
                made.layout
            del made
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # A leak of one small object (16 bytes or more) per binder or wrapper
    # would be 48 KB; what stays is about 1.5 KB, whatever the count.
    assert after - before <= 24 * 1024, (after - before) / len(functions)


def _closure_function():
    z = Value("z")

    def f(a, b=2, /, *args, c, d=Value("d"), **kw):
        def inner():
            return a, c, kw, z  # a, c and kw are cells of f

        return (a, b, c, d, args, kw)

    return f


def test_parameters_that_are_cells(impl):
    """Parameters an inner function closes over, and the body's cells and
    free variables after them, leave the parameter names where they were."""
    f = _closure_function()
    assert made_directly(impl, f) is FROM_CODE
    bind = impl.binder(f)
    for args, kwargs in [((1,), {"c": 3}), ((1, 2, 5), {"c": 3, "x": 4}), ((), {"c": 1}),
                         ((1,), {"a": 1}), ((1,), {"c": 1, "d": 2})]:
        assert_same_outcome(outcome(lambda: bind(*args, **kwargs)), outcome(lambda: f(*args, **kwargs)))
    assert bind.layout == Layout.from_callable(f)
    assert bind.layout.names == ("a", "b", "c", "d", "args", "kw")
    wrapper = impl.wrap(f, before=len)
    assert_same_outcome(outcome(lambda: wrapper(1, c=2)), outcome(lambda: f(1, c=2)))
    assert_same_outcome(outcome(lambda: wrapper(1, cc=2)), outcome(lambda: f(1, cc=2)))


def _own_dict(func):
    """``func.__dict__`` if it has been made, else None (reading the
    attribute would make it)."""
    shared = (func.__globals__, getattr(func, "__builtins__", None), func.__kwdefaults__)  # (3.10+)
    found = [r for r in gc.get_referents(func)
             if type(r) is dict and not any(r is d for d in shared)]
    assert len(found) <= 1
    return found[0] if found else None


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="referents are CPython's")
def test_a_binder_leaves_the_function_without_a_dict(impl):
    """Whether a function advertises another signature is looked up, not
    read from a ``__dict__`` made for the purpose and kept by the function."""
    f = _fresh_function(0)
    assert _own_dict(f) is None
    bind = impl.binder(f)
    assert _own_dict(f) is None
    f.tag = 1
    assert _own_dict(f) == {"tag": 1}  # (the probe sees a dict that is there)
    assert bind(1, c0=2) == (1, None, 2, None, (), {})



def test_parameter_names_are_the_first_locals():
    from posonly._create import parameter_names

    f = _closure_function()
    code = f.__code__
    for n in range(len(code.co_varnames) + 1):
        assert parameter_names(code, n) == code.co_varnames[:n]
    assert parameter_names(code, 6) == ("a", "b", "c", "d", "args", "kw")


def test_a_binder_has_no_dict(impl):
    if impl.name == "python" and sys.implementation.name != "cpython":
        pytest.skip("on PyPy the pure binder names its messages in a __dict__")
    bind = impl.binder(_fresh_function(0))
    for made in (bind, impl.Binder(Layout.parse("a, b=1"))):
        assert not hasattr(made, "__dict__")
        with pytest.raises(TypeError):
            vars(made)
        made.layout  # built on first use, where it is kept is not shown
        assert not hasattr(made, "__dict__")


@pytest.mark.skipif(not FROM_CODE, reason="made the general way")
def test_a_pure_binder_of_a_function_is_a_partial_alone():
    """Nothing per binder but the partial, its function (with its code) and
    a snapshot of keyword-only defaults: no keywords dict of its own, no
    layout until asked."""
    from posonly._create import binder_of_function

    binders = [binder_of_function(_fresh_function(i)) for i in range(3)]
    keywords = [functools.partial.keywords.__get__(b) for b in binders]
    assert keywords[0] == {} and all(k is keywords[0] for k in keywords)
    for b in binders:
        assert functools.partial.args.__get__(b) == ()
        function = functools.partial.func.__get__(b)
        assert type(function) is types.FunctionType
        assert b._function is function
        dicts = [r for r in gc.get_referents(b) if type(r) is dict]
        assert len(dicts) == 1 and dicts[0] is keywords[0]
        layout = b.layout
        state = [r for r in gc.get_referents(b) if type(r) is dict and r is not keywords[0]]
        assert len(state) == 1 and state[0]["layout"] is layout
    assert binders[0](1, c0=2) == (1, None, 2, None, (), {})
