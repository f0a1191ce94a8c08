"""Layout: construction, validation, value semantics, rendering."""

import copy
import functools
import inspect
import os
import pickle
import re
import subprocess
import sys

import pytest

from oracle import make_function
from posonly import Layout


def sample(a, b, /, c, d=4, *args, e, g=7, **kw):
    pass


def test_from_callable_reads_the_code_object():
    lay = Layout.from_callable(sample)
    assert lay.posonly == ("a", "b")
    assert lay.positional == ("c", "d")
    assert lay.varargs == "args"
    assert lay.kwonly == ("e", "g")
    assert lay.varkw == "kw"
    assert lay.defaults == (4,)
    assert dict(lay.kwdefaults) == {"g": 7}
    assert lay.names == sample.__code__.co_varnames[: len(lay.names)]
    assert lay.names == ("a", "b", "c", "d", "e", "g", "args", "kw")


def test_names_are_interned_exact_str():
    class S(str):
        pass

    lay = Layout(posonly=[S("alpha")], positional=["".join(["be", "ta"])])
    for name in lay.names:
        assert type(name) is str
        assert name is sys.intern(name)


@pytest.mark.parametrize(
    "func",
    [
        sample,
        lambda x, *, y=1: None,
        functools.partial(sample, 1),
        len,
        dict.get,
        type("K", (), {"__init__": lambda self, p, q=2: None}),
    ],
)
def test_str_renders_as_inspect(func):
    expected = str(inspect.signature(func).replace(
        parameters=[p.replace(annotation=p.empty) for p in inspect.signature(func).parameters.values()],
        return_annotation=inspect.Signature.empty,
    ))
    assert str(Layout.from_callable(func)) == expected


def test_from_callable_names_as_the_interpreter_does():
    class Owner:
        def method(self, x):
            pass

    def outer():
        def inner(q):
            pass

        return inner

    renamed = make_function(Layout(positional=["z"]))
    renamed.__qualname__ = "Other.name"
    for func in (Owner.method, outer(), renamed, lambda v: v):
        with pytest.raises(TypeError) as real:
            func()
        assert f"{Layout.from_callable(func).name}() missing" in str(real.value)


def test_repr_shows_name_and_signature():
    assert repr(Layout.parse("a, /, b=2", name="C.m")) == "<Layout C.m(a, /, b=2)>"


def test_value_semantics():
    one = Layout.from_callable(sample)
    two = Layout.parse("a, b, /, c, d=4, *args, e, g=7, **kw", name="sample")
    assert one == two and hash(one) == hash(two)
    assert one != Layout.parse("a, b, /, c, d=5, *args, e, g=7, **kw", name="sample")
    assert one != Layout.parse("a, b, /, c, d=4, *args, e, g=7, **kw", name="other")
    assert one != Layout.parse("a, b, c, d=4, *args, e, g=7, **kw", name="sample")
    assert len({one, two}) == 1
    assert copy.copy(one) is one
    assert copy.deepcopy(one) == one
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(one, protocol)) == one


def test_unhashable_defaults_still_hash():
    lay = Layout(positional=["a"], defaults=[[]], kwonly=["k"], kwdefaults={"k": {}})
    assert hash(lay) == hash(Layout(positional=["a"], defaults=[[]], kwonly=["k"], kwdefaults={"k": {}}))


def test_immutable():
    lay = Layout.parse("a")
    with pytest.raises(AttributeError):
        lay.name = "g"
    with pytest.raises(AttributeError):
        del lay.posonly
    with pytest.raises(TypeError):
        lay.kwdefaults["a"] = 1


def test_pickle_loads_under_the_other_implementation():
    data = pickle.dumps(Layout.parse("a, /, b=(1, 'x'), *, c=None", name="f"))
    code = (
        "import pickle, sys, posonly; "
        "lay = pickle.loads(sys.stdin.buffer.read()); "
        "print(posonly.IMPLEMENTATION, posonly.binder(lay)(1, c=2))"
    )
    for pure in ("0", "1"):
        out = subprocess.run(
            [sys.executable, "-c", code], input=data, capture_output=True, check=True,
            env=dict(os.environ, POSONLY_PURE_PYTHON=pure),
        ).stdout.decode()
        assert out.split(" ", 1)[1].strip() == "(1, (1, 'x'), 2)"
        if pure == "1":
            assert out.startswith("python ")


def test_parse_matches_from_callable_of_the_same_def():
    text = "p, q=-1.5, /, r=b'x', *rest, s, t=(1, {'k': [None]}), **opts"
    namespace = {}
    exec(f"def f({text}): pass", namespace)
    assert Layout.parse(text) == Layout.from_callable(namespace["f"])


def test_parse_drops_annotations():
    assert Layout.parse("a: int, *, b: 'str' = 'x'") == Layout.parse("a, *, b='x'")


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a, a", "duplicate parameter name 'a'"),
        ("a=1, b", "parameter without a default|non-default argument|default"),
        ("a=len", "not a Python literal"),
        ("a b", "invalid parameter list"),
        ("): pass\ndef g(", "invalid parameter list"),
    ],
)
def test_parse_rejects_bad_text(text, problem):
    with pytest.raises(ValueError, match=problem):
        Layout.parse(text)


def _reason(text):
    """What ``Layout.parse(text)`` says is wrong: the message after the text."""
    with pytest.raises(ValueError) as refused:
        Layout.parse(text)
    message = str(refused.value)
    assert message.startswith(f"invalid parameter list {text!r}: "), message
    return message[len(f"invalid parameter list {text!r}: "):]


@pytest.mark.parametrize("text", ["): pass\ndef g(", "a): pass\nclass C(", "a) -> (\n"])
def test_parse_says_when_a_parenthesis_ends_the_list(text):
    # The interpreter takes the text in a def as more than a parameter list.
    tree = compile(f"def f({text}): pass", "<text>", "exec", flags=0x400)  # PyCF_ONLY_AST
    assert len(tree.body) > 1 or tree.body[0].returns is not None
    assert _reason(text) == "a ')' closes the list before the text ends"


@pytest.mark.parametrize("text", ["a\x00", "a=" + "-" * 100_000 + "1", "a, b c", "*"])
def test_parse_gives_a_reason_wherever_the_interpreter_refuses(text):
    try:
        compile(f"def f({text}): pass", "<text>", "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        assert _reason(text).strip()
    else:  # the interpreter compiles it: a default nested too deeply for literal_eval
        with pytest.raises(ValueError, match="cannot be made|not a Python literal"):
            Layout.parse(text)


def test_parse_comments_end_at_their_line():
    text = "a,  # the first\n b=1  # the second"
    namespace = {}
    exec(f"def f(\n{text}\n): pass", namespace)
    assert Layout.parse(text) == Layout.from_callable(namespace["f"])


@pytest.mark.parametrize("default", ["{[]: 1}", "{1, []}"])
def test_parse_a_default_the_interpreter_cannot_make(default):
    with pytest.raises(TypeError) as interpreter:
        eval(default)
    with pytest.raises(ValueError) as refused:
        Layout.parse(f"a={default}")
    assert str(refused.value) == f"default {default!r} cannot be made: {interpreter.value}"


def _qualnames():
    def outer():
        def inner():
            pass

        return inner

    class Klass:
        def method(self):
            pass

    return [outer.__qualname__, outer().__qualname__, Klass.method.__qualname__,
            (lambda: None).__qualname__, "f", "_private", "ünïcode"]


@pytest.mark.parametrize("name", _qualnames())
def test_parse_takes_a_function_s_name(name):
    assert Layout.parse("a", name=name).name == name


@pytest.mark.parametrize("name", ["not valid", "", "1x", "class", "a..b", "f.", "<>", "f(x)"])
def test_parse_refuses_a_name_no_function_has(name):
    with pytest.raises(ValueError, match=f"name {re.escape(repr(name))} is not a function's name"):
        Layout.parse("a", name=name)
    with pytest.raises(TypeError, match="name must be a str"):
        Layout.parse("a", name=3)


@pytest.mark.parametrize(
    "kwargs, problem",
    [
        ({"posonly": ["a"], "positional": ["a"]}, "duplicate parameter name 'a'"),
        ({"positional": ["a"], "varkw": "a"}, "duplicate parameter name 'a'"),
        ({"positional": ["1a"]}, "'1a' is not an identifier"),
        ({"positional": ["class"]}, "'class' is not an identifier"),
        ({"kwonly": [""]}, "'' is not an identifier"),
        ({"positional": ["a"], "defaults": [1, 2]}, "2 defaults given for 1 positional parameter$"),
        ({"defaults": [1]}, "1 default given for 0 positional parameters$"),
        ({"positional": ["a"], "kwdefaults": {"a": 1}}, "'a', which is not a keyword-only"),
        ({"kwonly": ["a"], "kwdefaults": {"b": 1}}, "'b', which is not a keyword-only"),
    ],
)
def test_invalid_layouts_raise_value_error(kwargs, problem):
    with pytest.raises(ValueError, match=problem):
        Layout(**kwargs)


@pytest.mark.parametrize(
    "kwargs, problem",
    [
        ({"name": 3}, "name must be a str"),
        ({"posonly": "ab"}, "posonly must be a sequence of names, not a str"),
        ({"positional": 5}, "positional must be a sequence of names, not int"),
        ({"kwonly": [1]}, "a name in kwonly must be a str, not int"),
        ({"varargs": 1}, "varargs must be a str"),
        ({"defaults": 1}, "defaults must be a sequence"),
        ({"kwonly": ["a"], "kwdefaults": [("a", 1)]}, "kwdefaults must be a mapping"),
        ({"kwonly": ["a"], "kwdefaults": {1: 1}}, "a kwdefaults key must be a str"),
    ],
)
def test_wrong_types_raise_type_error(kwargs, problem):
    with pytest.raises(TypeError, match=problem):
        Layout(**kwargs)


def test_from_signature_needs_a_signature():
    with pytest.raises(TypeError, match="needs an inspect.Signature"):
        Layout.from_signature("(a, b)")
    with pytest.raises(TypeError, match="not callable"):
        Layout.from_callable(42)


def test_from_signature_round_trip():
    lay = Layout.from_callable(sample)
    assert Layout.from_signature(lay.to_signature(), name="sample") == lay


def test_from_callable_of_other_callables():
    assert Layout.from_callable(len) == Layout.from_signature(inspect.signature(len), name="len")
    if sys.implementation.name == "cpython":
        assert Layout.from_callable(len).posonly == ("obj",)
    assert Layout.from_callable(len).name == "len"
    bound = Layout.from_callable(functools.partial(sample, 1, 2))
    assert bound.posonly == () and bound.positional == ("c", "d")
    method = Layout.from_callable(type("K", (), {"m": lambda self, x: x})().m)
    assert method.names == ("x",)


def test_from_callable_ignores_foreign_kwdefaults():
    def f(a, *, b):
        return a, b

    f.__kwdefaults__ = {"b": 1, "a": 2, "zz": 3}
    assert dict(Layout.from_callable(f).kwdefaults) == {"b": 1}
