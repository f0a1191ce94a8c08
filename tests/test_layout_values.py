"""Layout's methods on a call's values (``arguments``, ``values``, ``replace``,
``key``, ``instance``), in both implementations, against a real function
with the layout's signature and :class:`inspect.BoundArguments`."""

import functools
import importlib
import inspect
import pickle
import sys

import pytest
from calls import EXTRA_KEYWORDS, generate_call, layouts
from conftest import IMPLEMENTATIONS, extension_required
from hypothesis import given
from hypothesis import strategies as st
from oracle import Value, make_function, same_object_tree

import posonly
from posonly import Layout

METHODS = ("arguments", "values", "replace", "key", "instance")


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def methods(request):
    """Each implementation's Layout methods, called as ``methods.key(layout, values)``."""
    name = {"cython": "posonly._bind", "python": "posonly._bind_py"}[request.param]
    try:
        module = importlib.import_module(name)
    except ImportError:
        if extension_required():
            raise
        pytest.skip("the compiled extension is not built")
    table = module.LAYOUT_METHODS
    assert sorted(table) == sorted(METHODS)

    class Methods:
        pass

    for method in METHODS:
        setattr(Methods, method, staticmethod(table[method]))
    Methods.name = request.param
    return Methods


def _call(layout, rng):
    """A call that binds, made by ``generate_call``: (func, args, kwargs,
    values); None if the call does not bind."""
    func = make_function(layout)
    args, kwnames, kwvalues = generate_call(rng, layout, allow_odd_names=False)
    kwargs = dict(zip(kwnames, kwvalues))
    try:
        values = func(*args, **kwargs)
    except TypeError:
        return None
    return func, args, kwargs, values


def _bound(func, args, kwargs):
    """inspect's binding of the call, defaults applied; None where inspect
    and the interpreter disagree on it (PEP 570's corner: a positional-only
    name passed by keyword, which each version of inspect binds its way)."""
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    if func(*bound.args, **bound.kwargs) != func(*args, **kwargs):
        return None
    return bound


def _same_arguments(layout, got, expected):
    """Equal as argument dicts: the same names in the same order, the same
    objects, ``*args``/``**kwargs`` containers alike item by item."""
    assert list(got) == list(expected)
    for name in got:
        if name in (layout.varargs, layout.varkw):
            assert same_object_tree(got[name], expected[name]), (name, got, expected)
        else:
            assert got[name] is expected[name], (name, got, expected)


def _reference_key(layout, values, ignore):
    """The key as a memoizer writes it by hand."""
    return tuple(
        frozenset(value.items()) if name == layout.varkw else value
        for name, value in zip(layout.names, values)
        if name not in ignore
    )


# -- the public methods are the implementation's ----------------------------


def test_layout_has_the_methods_of_the_implementation_in_use():
    module = importlib.import_module(
        "posonly._bind" if posonly.IMPLEMENTATION == "cython" else "posonly._bind_py"
    )
    for method in METHODS:
        assert getattr(Layout, method) is module.LAYOUT_METHODS[method]


def test_both_implementations_document_the_methods_alike():
    pure = importlib.import_module("posonly._bind_py").LAYOUT_METHODS
    for method in METHODS:
        assert pure[method].__doc__ and len(pure[method].__doc__) > 200
        assert getattr(Layout, method).__doc__ == pure[method].__doc__
        assert getattr(Layout, method).__name__ == method
        assert getattr(Layout, method).__qualname__ == f"Layout.{method}"
        assert inspect.signature(getattr(Layout, method)) == inspect.signature(pure[method])
        layout = Layout.parse("a")
        assert inspect.signature(getattr(layout, method)) == inspect.signature(
            pure[method].__get__(layout)
        )


# -- differential: generated layouts and calls ------------------------------


@given(layouts(), st.randoms(use_true_random=False))
def test_arguments_are_inspects_bound_arguments(methods, layout, rng):
    call = _call(layout, rng)
    if call is None:
        return
    func, args, kwargs, values = call
    got = methods.arguments(layout, values)
    assert type(got) is dict
    bound = _bound(func, args, kwargs)
    if bound is not None:
        _same_arguments(layout, got, bound.arguments)
    # Every parameter, in the signature's order, each value the local's.
    assert list(got) == list(inspect.signature(func).parameters)
    assert all(got[name] is value for name, value in zip(layout.names, values))


@given(layouts(), st.randoms(use_true_random=False))
def test_values_is_the_way_back(methods, layout, rng):
    call = _call(layout, rng)
    if call is None:
        return
    func, args, kwargs, values = call
    assert same_object_tree(methods.values(layout, methods.arguments(layout, values)), values)
    bound = _bound(func, args, kwargs)
    if bound is None:
        return
    # From inspect's arguments before apply_defaults: the defaults are filled.
    partial = inspect.signature(func).bind(*args, **kwargs)
    got = methods.values(layout, partial.arguments)
    assert got == values  # **kwargs: an equal new dict where none was given
    for name, got_value, value in zip(layout.names, got, values):
        if name in (layout.varargs, layout.varkw):
            assert same_object_tree(got_value, value) or name not in partial.arguments
        else:
            assert got_value is value


@given(layouts(), st.randoms(use_true_random=False), st.data())
def test_replace_is_a_call_with_the_arguments_changed(methods, layout, rng, data):
    call = _call(layout, rng)
    if call is None:
        return
    func, args, kwargs, values = call
    bound = _bound(func, args, kwargs)
    if bound is None:
        return
    changed = data.draw(st.lists(st.sampled_from(layout.names), unique=True)) if layout.names else []
    changes = {}
    for name in changed:
        if name == layout.varargs:
            changes[name] = (Value("new *"),)
        elif name == layout.varkw:
            changes[name] = {EXTRA_KEYWORDS[0]: Value("new **")}
        else:
            changes[name] = Value(f"new {name}")
    got = methods.replace(layout, values, **changes)
    # The oracle: the real function called with inspect's arguments changed.
    for name, value in changes.items():
        bound.arguments[name] = value
    expected = func(*bound.args, **bound.kwargs)
    assert got == expected
    for name, got_value, value in zip(layout.names, got, values):
        assert got_value is changes.get(name, value)
    assert got is not values or not changes


@given(layouts(), st.randoms(use_true_random=False), st.data())
def test_key_is_the_same_however_the_call_is_made(methods, layout, rng, data):
    call = _call(layout, rng)
    if call is None:
        return
    func, args, kwargs, values = call
    ignore = tuple(data.draw(st.lists(st.sampled_from(layout.names), unique=True))) if layout.names else ()
    key = methods.key(layout, values, ignore=ignore)
    assert key == _reference_key(layout, values, ignore)
    hash(key)
    if not ignore and layout.varkw is None:
        assert key is values
    bound = _bound(func, args, kwargs)
    if bound is None:
        return
    # The same call made otherwise: every parameter passed the way inspect
    # passes it, the keywords in the reverse order.
    again = func(*bound.args, **dict(reversed(list(bound.kwargs.items()))))
    other = methods.key(layout, again, ignore=ignore)
    assert other == key and hash(other) == hash(key)
    # A call that differs in a value kept: another key.
    kept = [name for name in layout.names if name not in ignore and name not in (layout.varargs, layout.varkw)]
    if kept:
        changed = methods.replace(layout, values, **{kept[0]: Value("other")})
        assert methods.key(layout, changed, ignore=ignore) != key


@given(layouts(), st.randoms(use_true_random=False))
def test_instance_is_the_first_positional_value(methods, layout, rng):
    call = _call(layout, rng)
    if call is None:
        return
    func, args, kwargs, values = call
    bound = _bound(func, args, kwargs)
    if bound is None:
        return
    if bound.args:
        assert methods.instance(layout, values) is bound.args[0]
    else:
        with pytest.raises(TypeError, match="no positional value"):
            methods.instance(layout, values)


# -- the same answers from both implementations, errors too ------------------


def _outcome(call):
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001 - the outcome is the comparison
        return ("error", type(exc), str(exc))


def _all_methods():
    loaded = []
    for name in IMPLEMENTATIONS:
        try:
            module = importlib.import_module(
                {"cython": "posonly._bind", "python": "posonly._bind_py"}[name]
            )
        except ImportError:
            continue
        loaded.append(module.LAYOUT_METHODS)
    return loaded


BAD_VALUES = [None, [1, 2], (1,), (1, 2, 3, 4, 5, 6, 7, 8), "ab"]


@pytest.mark.parametrize("method", ["arguments", "replace", "key", "instance"])
@pytest.mark.parametrize("bad", BAD_VALUES, ids=repr)
def test_values_of_the_wrong_shape_are_refused_alike(method, bad):
    layout = Layout.parse("a, /, b=2, *args, c, **kw", name="C.m")
    outcomes = [_outcome(lambda: table[method](layout, bad)) for table in _all_methods()]
    assert outcomes[0][:2] == ("error", TypeError), outcomes[0]
    assert method in outcomes[0][2]
    assert all(o == outcomes[0] for o in outcomes)


@pytest.mark.parametrize(
    "call",
    [
        lambda m, lay, v: m["replace"](lay, v, zz=1),
        lambda m, lay, v: m["key"](lay, v, ignore=("self", "zz")),
        lambda m, lay, v: m["key"](lay, v, ignore="a"),
        lambda m, lay, v: m["key"](lay, v, ignore=[1]),
        lambda m, lay, v: m["values"](lay, {"b": 1}),
        lambda m, lay, v: m["values"](lay, {"a": 1, "c": 2, "zz": 3}),
        lambda m, lay, v: m["values"](lay, [("a", 1), ("c", 2)]),
        lambda m, lay, v: m["values"](lay, 5),
        lambda m, lay, v: m["instance"](Layout.parse("*args"), ((),)),
        lambda m, lay, v: m["instance"](Layout.parse("*, k"), (1,)),
        lambda m, lay, v: m["key"](lay, (1, 2, 3, (), {"x": []})),
    ],
)
def test_other_answers_and_errors_are_the_same_in_both(call):
    layout = Layout.parse("a, /, b=2, *args, c, **kw", name="C.m")
    values = (1, 2, 3, (4,), {"x": 5})
    outcomes = [_outcome(lambda: call(table, layout, values)) for table in _all_methods()]
    assert all(o == outcomes[0] for o in outcomes), outcomes


def test_key_ignores_names_equal_but_not_identical():
    layout = Layout.parse("self, a, b=2")
    name = "".join(["se", "lf"])
    for table in _all_methods():
        assert table["key"](layout, (object, 1, 2), ignore=(name,)) == (1, 2)
        assert table["replace"](layout, (0, 1, 2), **{"".join(["a"]): 9}) == (0, 9, 2)


def test_a_string_subclass_kwargs_key_and_unhashable_values():
    layout = Layout.parse("a, **kw")
    for table in _all_methods():
        with pytest.raises(TypeError, match="unhashable"):
            hash(table["key"](layout, ([], {})))
        with pytest.raises(TypeError, match="unhashable"):
            table["key"](layout, (1, {"x": []}))


# -- wrapper.layout ------------------------------------------------------------


class Account:
    def deposit(self, amount, /, note="", *, fee=0):
        return amount - fee


def _plain(a, b=2, *args, c, d=4, **kw):
    return a


CALLABLES = {
    "function": (_plain, (1,), {"c": 3, "x": 5}),
    "method on an instance": (Account().deposit, (10,), {"fee": 1}),
    "function of a method": (Account.deposit, (Account(), 10), {}),
    "partial": (functools.partial(_plain, 1, 2), (3,), {"c": 4}),
    "builtin": (len, ([1, 2],), {}),
}


@pytest.mark.parametrize("handler", ["before", "around"])
@pytest.mark.parametrize("target", CALLABLES)
def test_wrapper_layout_names_the_values_a_handler_gets(impl, target, handler):
    func, args, kwargs = CALLABLES[target]
    seen = []
    if handler == "before":
        wrapper = impl.wrap(func, before=lambda values: seen.append(values))
    else:
        wrapper = impl.wrap(func, around=lambda proceed, values: seen.append(values) or proceed(values))
    wrapper(*args, **kwargs)
    layout = wrapper.layout
    assert isinstance(layout, Layout)
    assert layout == Layout.from_callable(func)
    assert layout == impl.binder(func).layout
    expected = inspect.signature(func).bind(*args, **kwargs)
    expected.apply_defaults()
    _same_arguments(layout, layout.arguments(seen[0]), expected.arguments)
    assert layout is wrapper.layout or layout == wrapper.layout


def test_wrapper_layout_of_a_method_looked_up_on_an_instance(impl):
    seen = []

    class Shop:
        buy = impl.wrap(Account.deposit, before=seen.append)

    shop = Shop()
    shop.buy(5, fee=1)
    layout = Shop.buy.layout
    assert layout.names == ("self", "amount", "note", "fee")
    assert layout.instance(seen[0]) is shop
    assert layout.key(seen[0], ignore=("self",)) == (5, "", 1)
    assert shop.buy.layout == layout  # through the bound method


def _layout_holders(impl):
    """(what, object with a layout, a call of it, the values it gives)"""
    account = Account()

    class Shop:
        buy = impl.wrap(Account.deposit, before=len)
        spend = impl.wrap(Account.deposit, around=lambda proceed, values: proceed(values))

    shop = Shop()
    partial = functools.partial(_plain, 1, 2)
    made = []
    for what, target, args, kwargs in [
        ("bound method", account.deposit, (10,), {"fee": 1}),
        ("function of a method", Account.deposit, (account, 10), {}),
        ("partial", partial, (3,), {"c": 4}),
        ("callable instance", Account().deposit.__func__.__get__(account), (7,), {}),
        ("wrapper looked up on an instance", shop.buy, (5,), {"fee": 1}),
        ("around wrapper looked up on an instance", shop.spend, (5,), {}),
    ]:
        seen = []
        binder = impl.binder(target)
        made.append((what + ": binder", binder, binder(*args, **kwargs), target))
        for handler in ("before", "around"):
            if handler == "before":
                wrapper = impl.wrap(target, before=seen.append)
            else:
                wrapper = impl.wrap(target, around=lambda proceed, values: seen.append(values) or proceed(values))
            wrapper(*args, **kwargs)
            made.append((f"{what}: {handler} wrapper", wrapper, seen[-1], target))
    # A wrapper used as a method: its handler gets the instance first.
    seen = []
    Shop.watch = impl.wrap(Account.deposit, before=seen.append)
    shop.watch(3)
    made.append(("wrapper as a method", shop.watch, seen[-1], Account.deposit))
    made.append(("wrapper as a method, on the class", Shop.watch, seen[-1], Account.deposit))
    return made


def test_a_layout_describes_exactly_the_values_its_object_gives(impl):
    # One rule for binders and wrappers alike: what a call puts first (a
    # bound method's self, a partial's arguments) is in neither the values
    # nor the layout; self a handler gets (a wrapper used as a method) is in both.
    for what, holder, values, called in _layout_holders(impl):
        layout = holder.layout
        assert len(layout.names) == len(values), what
        arguments = layout.arguments(values)
        # The parameters of what the call reached, as inspect names them.
        assert tuple(arguments) == tuple(inspect.signature(called).parameters), what
        assert layout.values(arguments) == values, what


def test_binder_and_wrapper_layouts_agree_over_the_twins(impl):
    account = Account()
    partial = functools.partial(_plain, 1, 2)
    for target in (account.deposit, partial, Account.deposit, _plain):
        for handler in ({"before": len}, {"around": lambda proceed, values: proceed(values)}):
            assert impl.wrap(target, **handler).layout == impl.binder(target).layout
    assert impl.binder(account.deposit).layout.names == ("amount", "note", "fee")
    assert impl.binder(partial).layout.names == ("c", "d", "args", "kw")


def test_a_wrapper_layout_is_read_when_first_asked_for(impl):
    def f(a, b=2, *, c=3):
        return a

    wrapper = impl.wrap(f, before=len)
    f.__defaults__ = (20,)  # before the layout is first asked for
    layout = wrapper.layout
    assert layout.names == ("a", "b", "c")
    assert dict(layout.kwdefaults) == {"c": 3}
    assert layout == pickle.loads(pickle.dumps(layout))
    assert hash(layout) == hash(Layout.parse("a, b=2, *, c=3", name=layout.name)) or hash(layout) == hash(
        Layout.from_callable(f)
    )


def test_a_deferred_layout_is_a_layout_in_every_way():
    def f(a, /, b=2, *args, c, d=4, **kw):
        return a

    for table in _all_methods():
        deferred = Layout._deferred(f)
        assert table["key"](deferred, (1, 2, 3, 4, (), {})) == (1, 2, 3, 4, (), frozenset())
        assert deferred == Layout.from_callable(f) and hash(deferred) == hash(Layout.from_callable(f))
        assert repr(Layout._deferred(f)) == repr(Layout.from_callable(f))
        assert Layout.from_callable(f) == Layout._deferred(f)
        with pytest.raises(AttributeError):
            Layout._deferred(f).no_such_field
        with pytest.raises(AttributeError):
            Layout._deferred(f).name = "g"


@pytest.mark.skipif(sys.version_info < (3, 8), reason="positional-only parameters")
def test_replace_and_key_take_parameters_named_like_their_own():
    layout = Layout.parse("values, ignore, self, /, layout=1")
    for table in _all_methods():
        assert table["replace"](layout, (1, 2, 3, 4), values=0, self=5, layout=6) == (0, 2, 5, 6)
        assert table["key"](layout, (1, 2, 3, 4), ignore=("ignore",)) == (1, 3, 4)
