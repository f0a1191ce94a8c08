"""Bad input: every wrong thing the API can be handed.

The answer is a clean TypeError or ValueError naming the problem, or the very
exception the interpreter propagates for the same call of a real function
with the same signature; never a crash, a SystemError or a wrong result.
Risky cases run in a child interpreter, so a crash fails the test instead of
ending the run.
"""

import gc
import inspect
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import IMPLEMENTATIONS
from oracle import (
    NosyName,
    assert_same_outcome,
    interpreter_vectorcall,
    make_function,
    outcome,
    requires_vectorcall,
)
from posonly import MISSING, Layout

LAYOUT = Layout.parse("a, b, /, c, d=4, *rest, e, g=7, **extra", name="f")


def no_system_error(result):
    assert result[0] == "ok" or result[1] is not SystemError, result
    return result


# -- binder() and Binder() of the wrong things -------------------------------


@pytest.mark.parametrize(
    "target", [None, 3, "f", b"f", [], {}, object(), Layout, MISSING],
    ids=lambda t: type(t).__name__,
)
def test_binder_of_non_callables_or_odd_callables(impl, target):
    got = no_system_error(outcome(lambda: impl.binder(target)))
    if isinstance(target, Layout):
        assert got[0] == "ok"
    elif not callable(target):
        assert got[:2] == ("error", TypeError)
        assert type(target).__name__ in got[2]
    else:
        # A callable: what inspect.signature says decides.
        sig = outcome(lambda: inspect.signature(target))
        assert got[0] == sig[0]


@pytest.mark.parametrize("target", [print, type, dict.get, int, iter, max],
                         ids=lambda t: t.__name__)
def test_binder_of_builtins_agrees_with_inspect(impl, target):
    sig = outcome(lambda: inspect.signature(target))
    got = no_system_error(outcome(lambda: impl.binder(target)))
    if sig[0] == "error":
        assert got[:2] == sig[:2]
    else:
        assert got[0] == "ok"
        assert got[1].layout == Layout.from_signature(sig[1], name=got[1].layout.name)


def test_a_kwdefaults_key_whose_eq_is_python_code(impl):
    """Looking up a keyword-only default can run Python code: a key of the
    function's ``__kwdefaults__`` that is a str subclass with an ``__eq__``
    of its own.  Whatever that code reads (here every tuple the collector
    tracks), making a binder or a wrapper and calling them stays sound."""
    def f(a, *, k=1, m=2):
        return a, k, m

    f.__kwdefaults__ = {NosyName("k"): 5, "m": 3}
    assert impl.binder(f)(0) == f(0) == (0, 5, 3)
    seen = []
    for handler in ({"before": seen.append}, {"around": lambda proceed, values: proceed(values)}):
        assert impl.wrap(f, **handler)(0) == (0, 5, 3)
    assert seen == [(0, 5, 3)]


@pytest.mark.parametrize("args", [(), (None,), (3,), ("a, b",), (LAYOUT, 1, 2),
                                  (inspect.signature(lambda a: a),)],
                         ids=["nothing", "None", "int", "str", "extra", "signature"])
def test_binder_class_of_the_wrong_things(impl, args):
    got = no_system_error(outcome(lambda: impl.Binder(*args)))
    assert got[:2] == ("error", TypeError)


# -- Layout ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(name=5), ["name", "int"]),
        (dict(posonly="ab"), ["posonly", "str"]),
        (dict(posonly=5), ["posonly", "int"]),
        (dict(positional=[5]), ["positional", "int"]),
        (dict(kwonly=[None]), ["kwonly", "NoneType"]),
        (dict(varargs=5), ["varargs", "int"]),
        (dict(varkw=["kw"]), ["varkw", "list"]),
        (dict(positional=["a"], defaults=5), ["defaults", "int"]),
        (dict(kwonly=["a"], kwdefaults=[("a", 1)]), ["kwdefaults", "list"]),
        (dict(kwonly=["a"], kwdefaults={5: 1}), ["kwdefaults", "int"]),
    ],
)
def test_layout_wrong_types_are_type_errors(kwargs, words):
    got = no_system_error(outcome(lambda: Layout(**kwargs)))
    assert got[:2] == ("error", TypeError), got
    for word in words:
        assert word in got[2]


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(posonly=["a"], positional=["a"]), "'a'"),
        (dict(positional=["a"], varargs="a"), "'a'"),
        (dict(kwonly=["a"], varkw="a"), "'a'"),
        (dict(varargs="a", varkw="a"), "'a'"),
        (dict(positional=["1a"]), "'1a'"),
        (dict(positional=[""]), "''"),
        (dict(positional=["a b"]), "'a b'"),
        (dict(kwonly=["if"]), "'if'"),
        (dict(varargs="None"), "'None'"),
        (dict(positional=["a"], defaults=[1, 2]), "defaults"),
        (dict(kwonly=["a"], kwdefaults={"b": 1}), "'b'"),
        (dict(positional=["a"], kwdefaults={"a": 1}), "'a'"),
    ],
)
def test_invalid_layouts_are_value_errors_naming_the_problem(kwargs, word):
    got = no_system_error(outcome(lambda: Layout(**kwargs)))
    assert got[:2] == ("error", ValueError), got
    assert word in got[2]


def test_a_layout_never_holds_what_no_function_can_have():
    """Every valid layout is one a real ``def`` can have, so every binder can
    be checked against one: the names are identifiers as the parser reads
    them (NFKC-normalised), each a parameter name."""
    for name in ("\ufb01", "\u212b", "x\u0301"):  # the ligature fi, the angstrom sign, decomposed
        got = no_system_error(outcome(lambda: Layout(positional=[name])))
        if got[0] == "error":
            assert got[1] is ValueError
            continue
        layout = got[1]
        func = make_function(layout)
        assert layout.names == func.__code__.co_varnames[: len(layout.names)], (
            f"Layout accepted {name!r}, which a def spells {func.__code__.co_varnames[0]!r}"
        )


def test_both_binders_agree_on_unnormalised_names():
    from posonly import _bind_py

    try:
        from posonly import _bind
    except ImportError:
        pytest.skip("the compiled extension is not built")
    got = outcome(lambda: Layout(positional=["\ufb01"]))
    if got[0] == "error":
        return
    layout = got[1]
    for key in ("\ufb01", "fi"):
        compiled = outcome(lambda: _bind.Binder(layout).bind((), {key: 1}))
        pure = outcome(lambda: _bind_py.Binder(layout).bind((), {key: 1}))
        assert compiled == pure, key


@pytest.mark.parametrize(
    "text",
    ["a, a", "a=1, b", "*", "a, *, ", "**kw, a", "a=f()", "a=[x for x in y]",
     "a): pass\ndef g(b", "a=1):\n    import os\ndef g(", "/", "1", "a, /, /", ")"],
)
def test_parse_rejects_what_is_not_a_parameter_list(text):
    got = no_system_error(outcome(lambda: Layout.parse(text)))
    assert got[:2] == ("error", ValueError), got


@pytest.mark.parametrize("bad", [None, 5, b"a", ["a"]])
def test_constructors_of_the_wrong_types(bad):
    for make in (Layout.parse, Layout.from_signature):
        got = no_system_error(outcome(lambda: make(bad)))
        assert got[:2] == ("error", TypeError)
        assert type(bad).__name__ in got[2]
    got = no_system_error(outcome(lambda: Layout.from_callable(bad)))
    assert got[:2] == ("error", TypeError)
    got = no_system_error(outcome(lambda: Layout.parse("a", name=bad)))
    assert got[:2] == ("error", TypeError)


class Key(str):
    """A str subclass used as a kwdefaults key or a name; hashing it raises
    once armed, comparing it can raise."""

    armed = False

    def __hash__(self):
        if Key.armed:
            raise ArithmeticError("hash")
        return str.__hash__(self)

    def __eq__(self, other):
        if Key.armed:
            raise LookupError("eq")
        return str.__eq__(self, other)


def test_str_subclass_names_in_layouts_become_exact_strs():
    layout = Layout(posonly=[Key("a")], kwonly=[Key("b")], varkw=Key("kw"),
                    kwdefaults={Key("b"): 1})
    assert all(type(n) is str for n in layout.names)
    Key.armed = True
    try:
        assert layout.names == ("a", "b", "kw")
        assert hash(layout) == hash(Layout(posonly=["a"], kwonly=["b"], varkw="kw",
                                           kwdefaults={"b": 1}))
    finally:
        Key.armed = False


def test_layouts_are_immutable():
    layout = Layout.parse("a, b=2, *, c")
    copy = Layout.parse("a, b=2, *, c")
    for attr in ("name", "posonly", "positional", "names", "defaults", "kwdefaults", "new"):
        with pytest.raises(AttributeError):
            setattr(layout, attr, ())
        with pytest.raises(AttributeError):
            delattr(layout, attr)
    kwdefaults = layout.kwdefaults
    with pytest.raises(TypeError):
        kwdefaults["c"] = 1  # type: ignore[index]
    # Calling __init__ again must not change a layout in place.
    outcome(lambda: layout.__init__(name="g", positional=("x",)))
    assert layout == copy and layout.names == ("a", "b", "c") and layout.name == "f"
    assert hash(layout) == hash(copy)


def test_binders_are_immutable(impl):
    bind = impl.binder(LAYOUT)
    for attr in ("layout", "anything"):
        with pytest.raises(AttributeError):
            setattr(bind, attr, None)
    outcome(lambda: bind.__init__(Layout.parse("x")))
    assert bind.layout is LAYOUT
    assert bind(1, 2, 3, e=5) == make_function(LAYOUT)(1, 2, 3, e=5)


# -- the entry points' arguments ----------------------------------------------


class OldSequence:
    items = ("item0", "item1", "item2")

    def __getitem__(self, i):
        return self.items[i]


class IterRaises:
    def __iter__(self):
        raise TypeError("iter raised")


class DictOverridingGetitem(dict):
    def __getitem__(self, key):
        return "from __getitem__"


class DictOverridingKeys(dict):
    def keys(self):
        return ["e"]


class DictOverridingIter(dict):
    def __iter__(self):
        return iter(["e"])

    def keys(self):
        return ["e"]


class Mapping:
    def __init__(self, keys):
        self._keys = keys
        self._values = {key: f"value of {key}" for key in keys}

    def keys(self):
        return self._keys

    def __getitem__(self, key):
        return self._values[key]


class KeysOnly:
    def keys(self):
        return ["e"]


class KeysRaisesAttributeError:
    def keys(self):
        raise AttributeError("raised inside keys()")

    def __getitem__(self, key):
        return 1


class KeysNotIterable:
    def keys(self):
        return 5

    def __getitem__(self, key):
        return 1


STAR_ARGS = {
    "int": 1, "None": None, "str": "xyz", "dict": {"p": 1}, "list": [1, 2, 3],
    "old sequence": OldSequence(), "iter raises": IterRaises(), "set": frozenset(),
}

STAR_KWARGS = {
    "int": 1, "list": [("e", 1)], "str": "e",
    "dict overriding __getitem__": DictOverridingGetitem(e=1, z=2),
    "dict overriding keys": DictOverridingKeys(e=1, z=2),
    "dict overriding __iter__": DictOverridingIter(e=1, z=2),
    "mapping": Mapping(["z", "e"]),
    "mapping with repeated keys": Mapping(["e", "e"]),
    "mapping with a non-str key": Mapping(["e", 1]),
    "mapping naming a positional-only": Mapping(["e", "a"]),
    "keys only": KeysOnly(),
    "keys raises AttributeError": KeysRaisesAttributeError(),
    "keys not iterable": KeysNotIterable(),
}


@pytest.mark.parametrize("name", sorted(STAR_ARGS))
def test_bind_args_of_any_type_as_the_interpreter_reads_star_args(impl, name):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    value = STAR_ARGS[name]
    expected = outcome(lambda: func(*value, e=0))
    assert_same_outcome(no_system_error(outcome(lambda: bind.bind(value, {"e": 0}))), expected)


@pytest.mark.parametrize("name", sorted(STAR_KWARGS))
def test_bind_kwargs_of_any_type_as_the_interpreter_reads_star_star_kwargs(impl, name):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    value = STAR_KWARGS[name]
    expected = outcome(lambda: func(1, 2, 3, **value))
    got = no_system_error(outcome(lambda: bind.bind((1, 2, 3), value)))
    assert_same_outcome(got, expected)


@pytest.mark.parametrize(
    "stack, kwnames, error",
    [
        (5, None, TypeError),
        (None, None, TypeError),
        ("ab", None, TypeError),
        ({1: 2}, None, TypeError),
        (iter((1, 2)), None, TypeError),
        ((1, 2, 3), ["e"], TypeError),
        ((1, 2, 3), "e", TypeError),
        ((1, 2, 3), 5, TypeError),
        ((1,), ("c", "e"), ValueError),
        ((), ("e",), ValueError),
    ],
)
def test_vectorcall_arguments_of_the_wrong_shape(impl, stack, kwnames, error):
    bind = impl.binder(LAYOUT)
    got = no_system_error(outcome(lambda: bind.vectorcall(stack, kwnames)))
    assert got[:2] == ("error", error), got
    assert "stack" in got[2] or "kwnames" in got[2] or "keyword names" in got[2]


@pytest.mark.parametrize(
    "stack, kwnames",
    [
        ((1, 2, 3), ()),
        ((1, 2, 3), None),
        ((1, 2, 3, 4), (1,)),
        ((1, 2, 3, 4), (b"e",)),
        ((1, 2, 3, 4), (None,)),
        ((1, 2, 3, 4, 5), ("e", "e")),
        ((1, 2, 3, 4, 5), ("e", 5)),
        ((1, 2, 3, 4, 5), ("a", "b")),
        ((1, 2, 3, 4), ("c", "e", "d")),
        ((1, 2, 3, 4), ("", "e", "\udcff")),
    ],
)
@requires_vectorcall
def test_vectorcall_odd_names_as_the_interpreter(impl, stack, kwnames):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    if kwnames is not None and len(kwnames) > len(stack):
        stack = stack + (0,) * (len(kwnames) - len(stack))
    expected = outcome(lambda: interpreter_vectorcall(func, stack, kwnames))
    got = no_system_error(outcome(lambda: bind.vectorcall(stack, kwnames)))
    assert_same_outcome(got, expected)
    assert_same_outcome(no_system_error(outcome(lambda: bind.vectorcall(list(stack), kwnames))),
                        expected)


def test_apply_with_the_wrong_things(impl):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    values = bind(1, 2, 3, 4, 5, e=6, z=7)
    assert bind.apply(func, values) == values
    index_of = {n: i for i, n in enumerate(LAYOUT.names)}
    bad_star = list(values)
    bad_star[index_of["rest"]] = [5]
    bad_kw = list(values)
    bad_kw[index_of["extra"]] = 5
    for func_, values_ in (
        (func, None), (func, list(values)), (func, values[:-1]), (func, values + (1,)),
        (func, bind.partial()), (None, values), (5, values), (func, tuple(bad_kw)),
    ):
        got = no_system_error(outcome(lambda: bind.apply(func_, values_)))
        assert got[0] == "error" and got[1] in (TypeError, ValueError), (values_, got)
    # The *args slot is spread as a call spreads it: any iterable will do.
    assert bind.apply(func, tuple(bad_star)) == bind(1, 2, 3, 4, 5, e=6, z=7)


# -- keyword names that are str subclasses with odd __eq__ and __hash__ -------


class Truthless:
    def __bool__(self):
        raise RuntimeError("bool of an __eq__ result")


def named(name, eq=None, hash_=None):
    """A str subclass instance spelling ``name``, its __eq__ and __hash__ replaced."""
    namespace = {}
    if eq is not None:
        namespace["__eq__"] = eq
    namespace["__hash__"] = hash_ if hash_ is not None else str.__hash__
    return type("Name", (str,), namespace)(name)


def _raise(exc):
    def method(self, other=None):
        raise exc
    return method


ODD_NAMES = {
    "eq raises": lambda n: named(n, eq=_raise(LookupError("eq raised"))),
    "eq returns a str": lambda n: named(n, eq=lambda self, other: "yes"),
    "eq returns 0": lambda n: named(n, eq=lambda self, other: 0),
    "eq returns NotImplemented": lambda n: named(n, eq=lambda self, other: NotImplemented),
    "eq returns an untruthable": lambda n: named(n, eq=lambda self, other: Truthless()),
    "eq is reversed": lambda n: named(n, eq=lambda self, other: not str.__eq__(self, other)),
    "hash raises": lambda n: named(n, hash_=_armed_hash),
}


class Armed:
    on = False


def _armed_hash(self):
    if Armed.on:
        raise ArithmeticError("hash raised")
    return str.__hash__(self)


def _calls(spell):
    """Keyword sets where an odd name is compared, matched, or stored in **extra."""
    return [
        ((1, 2), {spell("c"): "c", "e": "e"}),
        ((1, 2, 3), {spell("e"): "e"}),
        ((1, 2, 3), {"e": "e", spell("zz"): "zz"}),
        ((1, 2, 3), {spell("a"): "a", "e": "e"}),
        ((1, 2, 3), {"e": "e", spell("c"): "c"}),
    ]


@pytest.mark.parametrize("odd", sorted(ODD_NAMES))
@pytest.mark.parametrize("layout", [LAYOUT, Layout.parse("a, b, /, c, d=4, *, e, g=7")],
                         ids=["with-extra", "without-extra"])
def test_odd_keyword_names_as_the_interpreter(impl, odd, layout):
    func = make_function(layout)
    bind = impl.binder(layout)
    for args, kwargs in _calls(ODD_NAMES[odd]):
        kwnames = tuple(kwargs)
        stack = args + tuple(kwargs.values())
        Armed.on = True
        try:
            expected = outcome(lambda: func(*args, **kwargs))
            got = [
                outcome(lambda: bind(*args, **kwargs)),
                outcome(lambda: bind.bind(args, kwargs)),
            ]
            partial = no_system_error(outcome(lambda: bind.partial(*args, **kwargs)))
            if odd == "hash raises":
                # partial(**kwargs) collects the keywords in a dict of its own,
                # as any Python-level **kwargs does: the hash may run there.
                assert partial in (expected, ("error", ArithmeticError, "hash raised"))
            elif expected[0] == "ok" or " missing " not in expected[2]:
                got.append(partial)
            for result in got:
                assert_same_outcome(no_system_error(result), expected)
            expected = outcome(lambda: interpreter_vectorcall(func, stack, kwnames))
            got = outcome(lambda: bind.vectorcall(stack, kwnames))
            assert_same_outcome(no_system_error(got), expected)
        finally:
            Armed.on = False


def test_an_eq_that_changes_the_keywords_dict_under_the_binder(impl):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    kwargs = {}

    def eq(self, other):
        kwargs.clear()
        kwargs.update({f"k{i}": i for i in range(50)})
        return str.__eq__(self, other)

    def fill():
        kwargs.clear()
        kwargs.update({"e": "e", named("c", eq=eq): "c", "zz": "zz"})
        return kwargs

    expected = outcome(lambda: func(1, 2, **fill()))
    assert_same_outcome(outcome(lambda: bind(1, 2, **fill())), expected)
    assert_same_outcome(outcome(lambda: bind.bind((1, 2), fill())), expected)


def test_an_eq_that_calls_the_binder_again(impl):
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    inner = []

    def eq(self, other):
        inner.append(bind(10, 20, 30, 40, 50, e="inner", y="y"))
        return str.__eq__(self, other)

    name = named("zz", eq=eq)
    assert_same_outcome(outcome(lambda: bind(1, 2, e="e", **{name: "zz"})),
                        outcome(lambda: func(1, 2, e="e", **{name: "zz"})))
    # PyPy matches keywords without calling a str subclass's __eq__ here.
    assert inner or sys.implementation.name != "cpython"
    assert all(v == func(10, 20, 30, 40, 50, e="inner", y="y") for v in inner)


# -- never a crash: code that runs while a binder is half-way through -------------


def run_child(code):
    env = dict(os.environ)
    result = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error", "-c", textwrap.dedent(code)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert result.returncode == 0, (
        f"child exited with {result.returncode}\n{result.stdout}\n{result.stderr[-3000:]}"
    )
    return result.stdout


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_half_built_results_are_never_seen_by_python_code(implementation):
    """A keyword's __eq__ runs Python code while the binder fills its result;
    the garbage collector must never hand that code a tuple with holes."""
    if implementation == "cython":
        pytest.importorskip("posonly._bind")
    module = {"cython": "_bind", "python": "_bind_py"}[implementation]
    out = run_child(f"""
        import gc
        from posonly import Layout
        from posonly.{module} import Binder

        marker = object()
        seen = []

        class Name(str):
            __hash__ = str.__hash__
            def __eq__(self, other):
                for referrer in gc.get_referrers(marker):
                    if type(referrer) is tuple:
                        seen.append([item for item in referrer])
                for obj in gc.get_objects():
                    if type(obj) is tuple and any(item is marker for item in obj):
                        seen.append(list(obj))
                return str.__eq__(self, other)

        bind = Binder(Layout.parse("a, b, *rest, c=3, **kw"))
        for _ in range(3):
            result = bind(marker, **{{Name("b"): 2, Name("zz"): 9}})
            assert result == (marker, 2, 3, (), {{"zz": 9}}), result
            assert bind.partial(marker, **{{Name("b"): 2}})[:2] == (marker, 2)
        print("ok", len(seen))
    """)
    assert out.startswith("ok")


def test_gc_during_binding_with_a_low_threshold(impl):
    """Collections triggered inside binding (finalizers running Python code)
    leave every result right."""
    func = make_function(LAYOUT)
    bind = impl.binder(LAYOUT)
    finalized = []

    class Cycle:
        def __init__(self):
            self.me = self

        def __del__(self):
            finalized.append(1)
            gc.get_objects()

    if not hasattr(gc, "get_threshold"):
        pytest.skip("PyPy's collector has no generation thresholds to lower")
    old = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        for i in range(300):
            Cycle()
            args = tuple(range(i % 7))
            kwargs = {"e": i, f"x{i % 5}": i}
            assert_same_outcome(outcome(lambda: bind(*args, **kwargs)),
                                outcome(lambda: func(*args, **kwargs)))
    finally:
        gc.set_threshold(*old)
        gc.collect()
    assert finalized
