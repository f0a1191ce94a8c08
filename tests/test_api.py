"""The binder's API, over both implementations, beyond what the generated
differential tests cover."""

import functools
import inspect
import os
import subprocess
import sys

import pytest

import posonly
from conftest import IMPLEMENTATIONS, extension_required
from oracle import HAS_VECTORCALL, interpreter_vectorcall, make_function, outcome
from posonly import MISSING, Layout

HAVE_VECTORCALL = 1 << 11  # Py_TPFLAGS_HAVE_VECTORCALL


def test_the_extension_is_loaded_where_it_is_required():
    if extension_required() and sys.implementation.name == "cpython":
        assert posonly.IMPLEMENTATION == "cython"
    assert posonly.IMPLEMENTATION in ("cython", "python")


def test_the_environment_switches_to_the_pure_twin():
    code = "import posonly; print(posonly.IMPLEMENTATION, posonly.Binder.__module__)"
    env = dict(os.environ, POSONLY_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["python", "posonly._bind_py"]


def test_the_twins_export_the_same_names_of_the_same_kinds():
    """The compiled module and its pure twin each list their public names in
    ``__all__``: the same names, each a class in both or a callable in both
    (the selector, ``_impl``, takes them by name from either)."""
    if sys.implementation.name != "cpython" or "cython" not in IMPLEMENTATIONS:
        pytest.skip("the compiled module is built for CPython only")
    import posonly._bind as compiled
    import posonly._bind_py as pure

    assert sorted(compiled.__all__) == sorted(pure.__all__)
    for name in pure.__all__:
        ours, theirs = getattr(compiled, name), getattr(pure, name)
        assert isinstance(ours, type) == isinstance(theirs, type), name
        assert callable(ours) == callable(theirs), name


def test_the_binder_is_a_vectorcall_type(impl):
    # The pure twin is a functools.partial subclass, which keeps partial's
    # vectorcall where the interpreter lets a Python subclass inherit it.
    if not HAS_VECTORCALL:
        pytest.skip("PyPy has no vectorcall protocol")
    if impl.name == "python" and sys.version_info < (3, 12):
        assert not impl.Binder.__flags__ & HAVE_VECTORCALL
        return
    assert impl.Binder.__flags__ & HAVE_VECTORCALL
    import _testcapi

    bind = impl.binder(Layout.parse("a, /, b=2"))
    assert callable(bind)
    assert interpreter_vectorcall(bind, (1, 3), None) == (1, 3)
    if hasattr(_testcapi, "has_vectorcall_flag"):
        assert _testcapi.has_vectorcall_flag(impl.Binder)


def test_pep_570_corner(impl):
    def f(name, /, **kw):
        return name, kw

    bind = impl.binder(f)
    assert bind(1, name=2) == f(1, name=2) == (1, {"name": 2})
    assert bind.bind((1,), {"name": 2}) == (1, {"name": 2})
    assert bind.vectorcall((1, 2), ("name",)) == (1, {"name": 2})


def test_defaults_are_the_objects_themselves(impl):
    default, kwdefault = [], {}

    def f(a, b=default, *, c=kwdefault):
        pass

    _, b, c = impl.binder(f)(1)
    assert b is default and c is kwdefault


def test_containers_are_new_and_exact(impl):
    def f(*args, **kwargs):
        pass

    given = {"x": 1, "y": 2}
    args, kwargs = impl.binder(f).bind((1, 2), given)
    assert type(args) is tuple and type(kwargs) is dict
    assert kwargs == given and kwargs is not given
    assert list(kwargs) == ["x", "y"]
    assert impl.binder(f)() == ((), {})


def test_bound_methods_count_self_and_leave_it_out(impl):
    class Owner:
        def method(self, x, /, *, flag=False):
            pass

    owner = Owner()
    bind = impl.binder(owner.method)
    assert bind(1) == (1, False)
    assert bind(1, flag=True) == (1, True)
    for call in (lambda m: m(), lambda m: m(1, 2), lambda m: m(x=1)):
        assert outcome(lambda: call(bind)) == outcome(lambda: call(owner.method))
    assert bind.arguments(5) == {"x": 5, "flag": False}
    assert bind.partial() == (MISSING, False)


def test_partial_leaves_missing_and_raises_the_rest(impl):
    def f(a, b, /, c, *, d, e=5):
        pass

    bind = impl.binder(f)
    assert bind.partial() == (MISSING, MISSING, MISSING, MISSING, 5)
    assert bind.partial(1, d=4) == (1, MISSING, MISSING, 4, 5)
    with pytest.raises(TypeError, match=r"f\(\) takes 3 positional arguments but 4 were given"):
        bind.partial(1, 2, 3, 4)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        bind.partial(z=1)
    assert repr(MISSING) == "posonly.MISSING"


def test_arguments_in_signature_order_with_defaults(impl):
    def f(a, /, b=2, *rest, c, d=4, **extra):
        pass

    assert impl.binder(f).arguments(1, c=3, z=9) == {
        "a": 1, "b": 2, "rest": (), "c": 3, "d": 4, "extra": {"z": 9}
    }
    assert list(impl.binder(f).arguments(1, 2, 3, c=3)) == ["a", "b", "rest", "c", "d", "extra"]


def test_apply_calls_back_from_values(impl):
    def f(a, /, b, *rest, c, **extra):
        return a, b, rest, c, extra

    bind = impl.binder(f)
    values = bind(1, 2, 3, 4, c=5, z=6)
    assert bind.apply(f, values) == (1, 2, (3, 4), 5, {"z": 6})

    def g(name, /, **kw):
        return name, kw

    assert impl.binder(g).apply(g, impl.binder(g)(1, name=2)) == (1, {"name": 2})
    with pytest.raises(ValueError, match="MISSING"):
        bind.apply(f, bind.partial())
    with pytest.raises(ValueError, match="needs 5 values"):
        bind.apply(f, (1, 2))
    with pytest.raises(TypeError, match="needs a tuple"):
        bind.apply(f, [1, 2, (), 3, {}])


def test_binder_of_other_callables(impl):
    bind = impl.binder(len)
    assert bind.layout == Layout.from_signature(inspect.signature(len), name="len")
    assert bind([1]) == ([1],)
    # The messages of a Python function with len's signature: positional-only
    # on CPython; PyPy 3.9's len takes obj by keyword too.
    expected = outcome(lambda: make_function(bind.layout)(obj=[1]))
    assert outcome(lambda: bind(obj=[1])) == expected
    if sys.implementation.name == "cpython":
        assert expected[2] == (
            "len() got some positional-only arguments passed as keyword arguments: 'obj'"
        )
    assert impl.binder(functools.partial(pow, 2))(5) == (5, None)
    with pytest.raises(TypeError, match="binder\\(\\) needs a callable or a Layout, not int"):
        impl.binder(3)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="suggestions came with 3.13")
def test_suggestions_on_313(impl):
    def f(alpha, *, beta):
        pass

    with pytest.raises(TypeError) as real:
        f(1, bta=2)
    with pytest.raises(TypeError) as ours:
        impl.binder(f)(1, bta=2)
    assert str(ours.value) == str(real.value)
    assert str(ours.value).endswith("Did you mean 'beta'?")


def test_entry_point_argument_types(impl):
    def f(a, b=2, **kw):
        pass

    bind = impl.binder(f)
    assert bind.bind([1], None) == (1, 2, {})
    assert bind.bind(iter([1, 3])) == (1, 3, {})
    func = make_function(bind.layout)  # f, but in no module, as a layout is
    expected = outcome(lambda: func(*1))
    assert "after * must be an iterable, not int" in expected[2]  # 3.15: "Value after *"
    assert outcome(lambda: bind.bind(1)) == expected
    expected = outcome(lambda: func(**[1]))
    assert "after ** must be a mapping, not list" in expected[2]
    assert outcome(lambda: bind.bind((), [1])) == expected
    kwargs = {"x": 1, 2: 3}
    # PyPy names the callee here: a binder of f answers as f does.
    expected = outcome(lambda: f(1, **kwargs))
    assert "keywords must be strings" in expected[2]
    assert outcome(lambda: bind.bind((1,), kwargs)) == expected
    assert bind.vectorcall((1, 2), ()) == (1, 2, {})
    assert bind.vectorcall([1, 2], None) == (1, 2, {})
    with pytest.raises(ValueError, match="2 keyword names for a stack of 1"):
        bind.vectorcall((1,), ("a", "b"))
    with pytest.raises(TypeError, match="kwnames must be a tuple or None, not list"):
        bind.vectorcall((1,), ["a"])
    with pytest.raises(TypeError, match="stack must be a tuple or a list, not int"):
        bind.vectorcall(1)
    if HAS_VECTORCALL:  # a non-str keyword name: only a raw vectorcall can pass one
        assert outcome(lambda: bind.vectorcall((1, 2), (3,))) == outcome(
            lambda: interpreter_vectorcall(f, (1, 2), (3,))
        )


def test_binders_are_immutable_and_shareable(impl):
    bind = impl.binder(Layout.parse("a"))
    with pytest.raises(AttributeError):
        bind.layout = None
    assert bind.layout == Layout.parse("a")
    assert repr(bind) == "<posonly.Binder f(a)>"
    # Nothing reaches the state a call uses: the pure twin's partial base
    # keeps its function, arguments and (mutable) keywords out of reach.
    for attr in ("func", "args", "keywords"):
        assert not hasattr(bind, attr)
    with pytest.raises((TypeError, AttributeError)):
        bind.__setstate__((len, (), {}, None))
    assert bind(1) == (1,)


def test_a_binder_on_a_class_is_an_attribute_not_a_method(impl):
    bind = impl.binder(Layout.parse("a, b=2"))
    owner = type("Owner", (), {"bind": bind})
    assert owner.bind is bind
    assert owner().bind is bind
    assert owner().bind(1) == (1, 2)


def test_a_non_str_key_is_refused_before_any_binding_error(impl):
    """The interpreter refuses a non-str ``**`` key before binding anything,
    so it wins over an unexpected keyword, a duplicate or a positional-only
    keyword that comes earlier in the dict."""

    def f(a, /, b=1):
        pass

    bind = impl.binder(f)
    for args, kwargs in [((), {"zz": 1, 2: 3}), ((1,), {"b": 1, "b2": 2, 3: 4}),
                         ((1, 2), {"b": 1, None: 2}), ((), {"a": 1, 5: 1})]:
        # PyPy names the callee here: a binder of f answers as f does.
        expected = outcome(lambda: f(*args, **kwargs))
        assert expected[:2] == ("error", TypeError)
        assert "keywords must be strings" in expected[2]
        assert outcome(lambda: bind.bind(args, kwargs)) == expected
