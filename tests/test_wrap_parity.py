"""One behaviour, two implementations: what a user can observe of a binder
or a wrapper is the same compiled and pure (weak references, copies,
subclassing, wrong usage, names, reference cycles)."""

import copy
import functools
import gc
import inspect
import re
import sys
import weakref

import pytest
from conftest import IMPLEMENTATIONS, _load
from oracle import outcome
from posonly import Layout
from posonly._wrapper import _FILENAME


def f(a, b=2, *, c=3):
    return a, b, c


class Account:
    def __init__(self):
        self.history = []

    def deposit(self, amount, note=""):
        self.history.append(amount)
        return amount


def test_binders_take_weak_references(impl):
    bind = impl.binder(f)
    ref = weakref.ref(bind)
    assert ref() is bind
    del bind
    gc.collect()
    assert ref() is None


def test_a_bound_methods_binder_deep_copies_as_the_method_does(impl):
    account = Account()
    bind = impl.binder(account.deposit)
    copied = copy.deepcopy(bind)
    assert copied(5) == bind(5) == (5, "")
    assert copy.copy(bind) is bind
    assert outcome(lambda: copied(1, 2, 3)) == outcome(lambda: account.deposit(1, 2, 3))
    # The copy is bound to a copy of the object, as copy.deepcopy(method) is.
    method_copy = copy.deepcopy(account.deposit)
    assert type(method_copy.__self__) is Account and method_copy.__self__ is not account
    assert copy.deepcopy(impl.binder(f))(1) == (1, 2, 3)
    partial = functools.partial(f, b=[1])
    partial_copy = copy.deepcopy(impl.binder(partial))
    assert partial_copy(1) == impl.binder(partial)(1)


@pytest.mark.parametrize("name", ["Binder", "Wrapper"])
def test_neither_class_can_be_subclassed(impl, name):
    base = getattr(impl, name)
    with pytest.raises(TypeError) as info:
        type("Sub", (base,), {})
    message = str(info.value)
    assert re.fullmatch(f"type 'posonly\\._(bind|bind_py)\\.{name}' is not an acceptable base type", message)


WRONG_USES = [
    ("Wrapper", (), {}),
    ("Wrapper", (f,), {"after": print}),
    ("Wrapper", (f, print), {}),
    ("Wrapper", (f,), {}),
    ("Wrapper", (f,), {"before": 1}),
    ("Wrapper", (1,), {"before": print}),
    ("Wrapper", (f,), {"before": print, "around": print}),
    ("wrap", (), {}),
    ("wrap", (f, print), {}),
    ("wrap", (f,), {"after": print}),
    ("wrap", (f,), {}),
    ("wrap", (f,), {"around": 1}),
    ("wrap", (None,), {"before": print}),
    ("wrap", (classmethod(f),), {}),
    ("Binder", (), {}),
    ("Binder", (1,), {}),
    ("Binder", (Layout(), None, 3), {}),
    ("Binder", (Layout(),), {"layout": Layout()}),
    ("binder", (), {}),
    ("binder", (3,), {}),
]


@pytest.mark.skipif(len(IMPLEMENTATIONS) < 2, reason="one implementation on this interpreter")
@pytest.mark.parametrize("name, args, kwargs", WRONG_USES)
def test_wrong_usage_gets_the_same_python_message_in_both(name, args, kwargs):
    compiled, pure = _load("cython"), _load("python")

    def attempt(impl):
        return outcome(lambda: getattr(impl, name)(*args, **kwargs))

    got = attempt(compiled)
    assert got[0] == "error"
    assert got == attempt(pure)
    assert "__cinit__" not in got[2] and "positional argument (" not in got[2]


def test_wrong_usage_messages_are_pythons(impl):
    assert outcome(lambda: impl.Wrapper())[2] == "Wrapper() missing 1 required positional argument: 'func'"
    assert outcome(lambda: impl.wrap())[2] == "wrap() missing 1 required positional argument: 'func'"
    assert outcome(lambda: impl.Binder())[2] == "Binder() missing 1 required positional argument: 'layout'"


@pytest.mark.skipif(len(IMPLEMENTATIONS) < 2, reason="one implementation on this interpreter")
def test_wrappers_are_named_alike_in_both():
    compiled, pure = _load("cython"), _load("python")

    class CI:
        def __call__(self, a):
            return a

    def logged(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    for func in (f, functools.partial(f, 1), CI(), Account().deposit, logged(f), functools.partial(logged(f), c=1)):
        names = [
            {attr: getattr(impl.wrap(func, before=print), attr, None)
             for attr in ("__name__", "__qualname__", "__module__", "__doc__")}
            for impl in (compiled, pure)
        ]
        assert names[0] == names[1], func
        assert names[0]["__name__"] is not None


def test_a_partials_wrapper_is_named_as_the_function_bound(impl):
    wrapper = impl.wrap(functools.partial(f, 1), before=print)
    assert (wrapper.__name__, wrapper.__qualname__) == ("f", "f")
    assert inspect.signature(wrapper) == inspect.signature(functools.partial(f, 1))


@pytest.mark.skipif(
    sys.implementation.name != "cpython", reason="PyPy frees every object by its collector"
)
@pytest.mark.parametrize("kind", ["function", "bound method", "partial", "wraps", "around"])
def test_a_wrapper_lives_in_no_reference_cycle(impl, kind):
    func = {
        "function": f,
        "bound method": Account().deposit,
        "partial": functools.partial(f, 1),
        "wraps": functools.wraps(f)(lambda *a, **k: f(*a, **k)),
        "around": f,
    }[kind]
    gc.collect()
    gc.disable()
    try:
        if kind == "around":
            wrapper = impl.wrap(func, around=lambda proceed, values: proceed(values))
        else:
            wrapper = impl.wrap(func, before=lambda values: None)
        target = wrapper.__func__ if isinstance(wrapper, type(Account().deposit)) else wrapper
        target = target.func if isinstance(target, functools.partial) else target
        ref = weakref.ref(target)
        wrapper(1)
        del wrapper, target
        assert ref() is None, gc.get_referrers(ref())
        bind = impl.binder(func)
        ref = weakref.ref(bind)
        bind(1)
        del bind
        assert ref() is None
    finally:
        gc.enable()


def test_layout_parse_shows_the_default_as_written():
    with pytest.raises(ValueError) as info:
        Layout.parse("a=x")
    assert str(info.value) == "default 'x' is not a Python literal"
    with pytest.raises(ValueError) as info:
        Layout.parse("a, /, b=1, *, c=f(2)")
    assert str(info.value) == "default 'f(2)' is not a Python literal"


def test_tools_see_a_wrapper_as_they_see_a_functools_wraps_one(impl):
    from unittest import mock

    def logged(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    for kind, make in (("posonly", lambda func: impl.wrap(func, before=lambda values: None)),
                       ("functools", logged)):
        wrapper = make(f)
        if kind == "posonly":  # a functools one's own is (*args, **kwargs)
            assert inspect.signature(wrapper, follow_wrapped=False) == inspect.signature(f)
        assert inspect.getsourcelines(wrapper) == inspect.getsourcelines(f), kind
        # getfile names the file of the function the wrapper is: functools'
        # def, the pure twin's generated code, the function the compiled
        # wrapper lends its code from.
        assert inspect.getfile(wrapper) == {
            "functools": __file__, "posonly": _FILENAME if impl.name == "python"
            else inspect.getfile(f)}[kind], kind
        assert inspect.getsource(wrapper) == inspect.getsource(f), kind
        spec = mock.create_autospec(wrapper)
        spec(1, b=2)
        spec.assert_called_once_with(1, b=2)
        with pytest.raises(TypeError):
            spec(1, 2, 3)
        with pytest.raises(TypeError):
            spec(1, d=4)
    bound = impl.wrap(Account().deposit, before=lambda values: None)
    assert inspect.signature(bound, follow_wrapped=False) == inspect.signature(Account().deposit)
    with pytest.raises(TypeError):
        mock.create_autospec(bound)(1, 2, 3)


def test_a_generator_functions_wrapper_is_none_as_a_wraps_def_is_none(impl):
    # Both implementations answer as for a functools.wraps def: the
    # wrapper is a function that returns the generator.
    def numbers(n):
        yield from range(n)

    w = impl.wrap(numbers, before=lambda values: None)
    assert list(w(3)) == [0, 1, 2]
    assert inspect.isgeneratorfunction(w) is False


def test_before_reads_a_plain_functions_defaults_at_the_call(impl):
    # Both implementations: the handler's values and the function's call
    # have the defaults the function has at the call.
    def g(a, b=1, *, c=2):
        return a, b, c

    seen = []
    w = impl.wrap(g, before=seen.append)
    g.__defaults__ = (10,)
    g.__kwdefaults__ = {"c": 20}
    assert w(0) == g(0) == (0, 10, 20)
    assert seen == [(0, 10, 20)]


def test_before_hands_anything_else_the_callers_own_arguments(impl):
    received = []

    def forward(*args, **kwargs):
        received.append((args, kwargs))
        return args, kwargs

    forward.__signature__ = inspect.signature(lambda a, b=2, *, c=3: None)
    seen = []
    w = impl.wrap(forward, before=seen.append)
    assert w(0, c=5) == ((0,), {"c": 5})
    assert received == [((0,), {"c": 5})]
    assert seen == [(0, 2, 5)]
    assert outcome(lambda: w(0, 1, 2)) == outcome(lambda: impl.binder(forward)(0, 1, 2))
    assert inspect.signature(w, follow_wrapped=False) == inspect.signature(forward)


class _Callable:
    def __call__(self, y, z=1):
        return y


def _targets():
    return [f, functools.partial(f, 1), _Callable(), Account().deposit]


def _looks(impl, target, kind):
    """What a decorator author sees of a wrapper: repr (the address
    left out), dir, and the help text."""
    import pydoc

    handler = (lambda values: None) if kind == "before" else (lambda proceed, values: proceed(values))
    w = impl.wrap(target, **{kind: handler})
    text = re.sub(r" at 0x[0-9a-f]+>$", "", repr(w))  # PyPy's address is not id()
    return text, set(dir(w)), pydoc.render_doc(w, renderer=pydoc.plaintext)


@pytest.mark.parametrize("kind", ["before", "around"])
def test_a_wrapper_looks_alike_in_both_twins(kind):
    # repr names it as a function (as the pure twin's is one), dir lists
    # its layout, help reads the same, for any callable wrapped.
    # Of a before= wrapper of anything else, repr and the names dir lists
    # but the dunders (a function's differ by version: __type_params__ from
    # 3.12, __annotate__ from 3.14): help names the compiled one a Wrapper,
    # the pure one a function, and the pure around= wrapper of a bound
    # method or a partial is a method or a partial (docs/wrappers.md).
    impls = [_load(name) for name in IMPLEMENTATIONS]
    for i, target in enumerate(_targets()):
        looks = [_looks(impl, target, kind) for impl in impls]
        assert "layout" in looks[0][1]
        assert all(not name.startswith(("_posonly", "__pyx")) for name in looks[0][1])
        if i == 0:
            assert looks[0][0] == f"<function {f.__qualname__}"
            assert all(look == looks[0] for look in looks), target
        elif kind == "before":
            named = [(look[0], {n for n in look[1] if not n.startswith("__")}) for look in looks]
            assert all(look == named[0] for look in named), target
            assert all("__annotations__" in look[1] for look in looks), target


@pytest.mark.parametrize("kind", ["before", "around"])
def test_every_wrapper_lists_its_layout(impl, kind):
    for target in _targets():
        _, names, _ = _looks(impl, target, kind)
        assert "layout" in names, target


def test_generator_wrappers_answer_as_a_wraps_def_does(impl):
    # A wrapper returns what the function returns: it is a generator (or
    # async generator) function no more than a functools.wraps def is, and
    # a coroutine function when the function is one, as
    # inspect.iscoroutinefunction answers for a functools.wraps def of a
    # coroutine function marked as one (3.12+).
    def numbers(n):
        yield from range(n)

    async def later(n):
        yield n

    async def coroutine(n):
        return n

    def wraps_def(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    for func in (numbers, later, coroutine):
        w = impl.wrap(func, before=lambda values: None)
        reference = wraps_def(func)
        assert inspect.isgeneratorfunction(w) is inspect.isgeneratorfunction(reference) is False
        assert inspect.isasyncgenfunction(w) is inspect.isasyncgenfunction(reference) is False
        assert inspect.iscoroutinefunction(w) is inspect.iscoroutinefunction(func)
    assert list(impl.wrap(numbers, before=lambda values: None)(2)) == [0, 1]
