"""inspect's options through the drop-in, held to the running inspect itself.

Plain functions with generated parameters and generated annotations (names
that resolve, string annotations that resolve, resolve only with the given
``globals`` or ``locals``, fail to resolve, or are not Python; under
``from __future__ import annotations`` or not; with type parameters where the
interpreter has them) are given to ``inspect.signature``,
``Signature.from_callable`` and ``posonly.signature`` with generated options
(``eval_str``, ``globals``, ``locals``, and ``annotation_format`` where the
running inspect takes it, right values and wrong), patched and not; and to
``getfullargspec`` and ``getcallargs``.  Answers must be equal, of the same
types, with equal annotations; errors the same type with the same message.
Each test runs over both cores.  Nothing here knows what inspect answers.
"""

import contextlib
import functools
import inspect
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

import posonly
from posonly import _inspect, _options

INSPECT_SIGNATURE = inspect.signature
INSPECT_FROM_CALLABLE = inspect.Signature.__dict__["from_callable"]
INSPECT_GETFULLARGSPEC = inspect.getfullargspec
INSPECT_GETCALLARGS = inspect.getcallargs
OPTION_NAMES = _options._OPTION_NAMES
HAS_FORMAT = "annotation_format" in OPTION_NAMES
TYPE_PARAMS = sys.version_info >= (3, 12)
LAZY = sys.version_info >= (3, 14)  # annotations evaluated when first read


class Value:
    pass


class Local:
    pass


NAMES = ["a", "b", "c", "d", "e", "g", "h", "k"]
ANNOTATIONS = [
    None, "int", "Value", "3", "list[int]",
    "'int'", "'list[int]'", "'Value'", "'Local'", "'GlobalOnly'", "'Undefined'",
    "'1 +'", "'a b'", "'T'",
]
if LAZY:
    ANNOTATIONS.append("Undefined")  # an unquoted name not defined: a forward reference


def fresh_globals():
    return {"Value": Value, "__name__": "generated"}


@contextlib.contextmanager
def core(impl):
    """The drop-in's core is ``impl``'s inside."""
    saved = _inspect._core
    if impl.name == "cython":
        from posonly import _bind

        _inspect._core = _bind
    else:
        from posonly import _dropin

        _inspect._core = _dropin
    try:
        yield
    finally:
        _inspect._core = saved


@contextlib.contextmanager
def patched():
    posonly.patch_inspect()
    try:
        yield
    finally:
        posonly.unpatch_inspect()


def outcome(call):
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001 - any exception is an outcome
        return ("error", type(exc), str(exc))


def assert_same(got, expected):
    assert got[0] == expected[0], (got, expected)
    if expected[0] == "error":
        assert got == expected
        return
    mine, theirs = got[1], expected[1]
    assert type(mine) is type(theirs)
    if isinstance(theirs, inspect.Signature):
        assert mine == theirs
        assert str(mine) == str(theirs)
        for ours, inspects in zip(mine.parameters.values(), theirs.parameters.values()):
            assert type(ours.annotation) is type(inspects.annotation)
            assert ours.annotation == inspects.annotation
        assert mine.return_annotation == theirs.return_annotation
    else:
        assert mine == theirs
        if isinstance(theirs, dict):
            assert list(mine) == list(theirs)


@st.composite
def functions(draw):
    """A plain function's source: parameters of every kind, defaults and
    annotations; maybe type parameters and the future import."""
    names = iter(NAMES)
    counts = [draw(st.integers(0, 2)), draw(st.integers(0, 3)), draw(st.integers(0, 2))]
    posonly_names = [next(names) for _ in range(counts[0])]
    positional = [next(names) for _ in range(counts[1])]
    keyword_only = [next(names) for _ in range(counts[2])]
    var_positional = draw(st.booleans())
    var_keyword = draw(st.booleans())
    defaults = draw(st.integers(0, len(posonly_names) + len(positional)))
    future = draw(st.booleans())
    type_params = TYPE_PARAMS and not future and draw(st.booleans())

    def annotated(name):
        annotation = draw(st.sampled_from(ANNOTATIONS))
        return name if annotation is None else f"{name}: {annotation}"

    parts = []
    first_default = len(posonly_names) + len(positional) - defaults
    for i, name in enumerate(posonly_names + positional):
        parts.append(annotated(name) + (f" = {i}" if i >= first_default else ""))
        if i == len(posonly_names) - 1:
            parts.append("/")
    if var_positional:
        parts.append("*" + annotated("args"))
    elif keyword_only:
        parts.append("*")
    for name in keyword_only:
        parts.append(annotated(name) + (" = None" if draw(st.booleans()) else ""))
    if var_keyword:
        parts.append("**" + annotated("kwargs"))
    returns = draw(st.sampled_from(ANNOTATIONS))
    head = "[T]" if type_params else ""
    source = (f"def f{head}({', '.join(parts)})"
              + ("" if returns is None else f" -> {returns}") + ":\n    pass\n")
    if future:
        source = "from __future__ import annotations\n" + source
    return source


def make(source):
    namespace = fresh_globals()
    exec(compile(source, "<generated>", "exec"), namespace)  # noqa: S102 - generated code
    return namespace["f"]


GLOBALS = [None, {"GlobalOnly": str, "int": int, "list": list, "Value": Value},
           {"Local": int}]
LOCALS = [None, {"Local": Local}, {}, {"GlobalOnly": bytes}]
FORMATS = []
if HAS_FORMAT:
    import annotationlib

    F = annotationlib.Format
    FORMATS = [F.VALUE, F.FORWARDREF, F.STRING, 1, 3, 4, F.VALUE_WITH_FAKE_GLOBALS, 99, "x"]


@st.composite
def options(draw):
    chosen = {}
    if draw(st.booleans()):
        chosen["eval_str"] = draw(st.sampled_from([True, True, False, 1, None]))
    if draw(st.booleans()):
        chosen["globals"] = draw(st.sampled_from(GLOBALS))
    if draw(st.booleans()):
        chosen["locals"] = draw(st.sampled_from(LOCALS))
    if HAS_FORMAT and draw(st.booleans()):
        chosen["annotation_format"] = draw(st.sampled_from(FORMATS))
    if draw(st.integers(0, 19)) == 0:
        chosen["no_such_option"] = True
    return chosen


def expected_signature(func, opts):
    return outcome(lambda: INSPECT_SIGNATURE(func, **opts))


def test_options_leave_the_patch_removable():
    with patched():
        assert inspect.getfullargspec is not INSPECT_GETFULLARGSPEC
        assert inspect.getcallargs is not INSPECT_GETCALLARGS
    assert inspect.getfullargspec is INSPECT_GETFULLARGSPEC
    assert inspect.getcallargs is INSPECT_GETCALLARGS
    assert inspect.signature is INSPECT_SIGNATURE


@given(source=functions(), opts=options())
def test_signature_with_options_is_inspects(impl, source, opts):
    func = make(source)
    expected = expected_signature(func, opts)
    expected_from_callable = outcome(
        lambda: INSPECT_FROM_CALLABLE.__func__(inspect.Signature, func, **opts))
    with core(impl):
        with patched():
            assert_same(outcome(lambda: inspect.signature(func, **opts)), expected)
            assert_same(outcome(lambda: inspect.Signature.from_callable(func, **opts)),
                        expected_from_callable)
        mine = outcome(lambda: posonly.signature(func, **opts))
        assert mine[0] == expected[0]
        if expected[0] == "ok":
            assert isinstance(mine[1], posonly.Signature)
            assert mine[1] == expected[1] and str(mine[1]) == str(expected[1])
        elif OPTION_NAMES.issuperset(opts):
            assert mine[1:] == expected[1:]


@given(source=functions(), opts=options(), changes=st.lists(st.sampled_from(
    ["annotations", "strings", "defaults", "kwdefaults", "none"]), min_size=1, max_size=3))
def test_a_function_changed_between_calls(impl, source, opts, changes):
    func = make(source)
    with core(impl):
        for change in changes:
            with patched():
                mine = outcome(lambda: inspect.signature(func, **opts))
                spec = outcome(lambda: inspect.getfullargspec(func))
            assert_same(mine, expected_signature(func, opts))
            assert_same(spec, outcome(lambda: INSPECT_GETFULLARGSPEC(func)))
            names = list(func.__code__.co_varnames[:func.__code__.co_argcount])
            if change == "annotations":
                func.__annotations__ = {name: Value for name in names}
            elif change == "strings":
                func.__annotations__ = {name: "Local" for name in names[:1]}
                func.__annotations__["return"] = "list[int]"
            elif change == "defaults":
                func.__defaults__ = tuple(range(len(names) // 2)) or None
            elif change == "kwdefaults":
                func.__kwdefaults__ = None
            else:
                func.__annotations__ = {}
        with patched():
            assert_same(outcome(lambda: inspect.signature(func, **opts)),
                        expected_signature(func, opts))


CALLS = st.tuples(st.integers(0, 6), st.lists(st.sampled_from(NAMES + ["args", "zz"]),
                                              max_size=4, unique=True))


@given(source=functions(), calls=st.lists(CALLS, min_size=1, max_size=6), method=st.booleans())
def test_getfullargspec_and_getcallargs_are_inspects(impl, source, calls, method):
    func = make(source)
    if method:
        func = type("Owner", (), {"f": func})().f
    with core(impl):
        expected = outcome(lambda: INSPECT_GETFULLARGSPEC(func))
        with patched():
            assert_same(outcome(lambda: inspect.getfullargspec(func)), expected)
        for count, keywords in calls:
            args = tuple(range(count))
            kwargs = {name: name.upper() for name in keywords}
            expected = outcome(lambda: INSPECT_GETCALLARGS(func, *args, **kwargs))
            with patched():
                mine = outcome(lambda: inspect.getcallargs(func, *args, **kwargs))
            assert_same(mine, expected)


@given(source=functions(), opts=options(), follow_wrapped=st.sampled_from([True, False, 0, None]),
       method=st.booleans())
def test_a_decorated_function_is_inspects(impl, source, opts, follow_wrapped, method):
    """A function with ``__wrapped__`` (what ``functools.wraps`` leaves):
    ``inspect.signature`` unwraps it unless ``follow_wrapped`` is false;
    ``getfullargspec`` and ``getcallargs`` never do."""
    func = make(source)
    func.__wrapped__ = make("def f(q, /, *r, s=1) -> int: pass")
    target = type("Owner", (), {"f": func})().f if method else func
    expected = outcome(lambda: INSPECT_SIGNATURE(target, follow_wrapped=follow_wrapped, **opts))
    expected_from_callable = outcome(lambda: INSPECT_FROM_CALLABLE.__func__(
        inspect.Signature, target, follow_wrapped=follow_wrapped, **opts))
    expected_spec = outcome(lambda: INSPECT_GETFULLARGSPEC(target))
    expected_call = outcome(lambda: INSPECT_GETCALLARGS(target, 1, 2))
    with core(impl), patched():
        assert_same(outcome(lambda: inspect.signature(
            target, follow_wrapped=follow_wrapped, **opts)), expected)
        assert_same(outcome(lambda: inspect.Signature.from_callable(
            target, follow_wrapped=follow_wrapped, **opts)), expected_from_callable)
        assert_same(outcome(lambda: inspect.getfullargspec(target)), expected_spec)
        assert_same(outcome(lambda: inspect.getcallargs(target, 1, 2)), expected_call)


def test_a_decorated_function_is_served_where_inspect_does_not_unwrap(impl):
    """``getfullargspec`` and ``follow_wrapped=False`` read the function
    itself, ``inspect.signature`` unwraps it to ``f``: all served."""
    def f(a, b=2, *, c):
        pass

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return f(*args, **kwargs)

    heard = []
    with core(impl), patched():
        _options.set_observer(lambda entry, reason: heard.append((entry, reason)))
        try:
            inspect.getfullargspec(decorated)
            inspect.getcallargs(decorated, 1)
            inspect.signature(decorated, follow_wrapped=False)
            inspect.Signature.from_callable(decorated, follow_wrapped=False)
            inspect.signature(decorated)
        finally:
            _options.set_observer(None)
    assert heard == [("inspect.getfullargspec", None), ("inspect.getcallargs", None),
                     ("inspect.signature", None), ("Signature.from_callable", None),
                     ("inspect.signature", None)]


@pytest.mark.parametrize("target", [len, dict, lambda: None, print, str.join])
def test_getfullargspec_of_other_callables_is_inspects(target):
    expected = outcome(lambda: INSPECT_GETFULLARGSPEC(target))
    with patched():
        assert_same(outcome(lambda: inspect.getfullargspec(target)), expected)
        assert_same(outcome(lambda: inspect.getfullargspec(target, no_such_option=1)),
                    outcome(lambda: INSPECT_GETFULLARGSPEC(target, no_such_option=1)))


EVAL_STR = pytest.mark.skipif("eval_str" not in OPTION_NAMES,
                              reason="inspect.signature takes eval_str from 3.10")


@EVAL_STR
def test_errors_keep_inspects_chain(impl):
    def f(a: "1 +"):
        pass

    with core(impl), patched():
        with pytest.raises(SyntaxError) as mine:
            inspect.signature(f, eval_str=True)
    with pytest.raises(SyntaxError) as theirs:
        INSPECT_SIGNATURE(f, eval_str=True)
    assert str(mine.value) == str(theirs.value)
    assert type(mine.value.__cause__) is type(theirs.value.__cause__)


@EVAL_STR
def test_options_are_served_not_handed_to_inspect(impl):
    """A plain function's signature with options is made by the core: the
    observer hears it was served."""
    def f(a: int, b: "Value" = None, *, c: "list[int]") -> "Local":
        pass

    heard = []
    cases = [{"eval_str": True}, {"eval_str": True, "globals": {}, "locals": {}},
             {"eval_str": False}]
    if HAS_FORMAT:
        cases += [{"annotation_format": F.FORWARDREF}, {"annotation_format": F.VALUE}]
    with core(impl), patched():
        _options.set_observer(lambda entry, reason: heard.append((entry, reason)))
        try:
            for opts in cases:
                expected = outcome(lambda: INSPECT_FROM_CALLABLE.__func__(inspect.Signature, f,
                                                                          **opts))
                assert_same(outcome(lambda: inspect.signature(f, **opts)), expected)
            inspect.signature(f, eval_str="yes")
        finally:
            _options.set_observer(None)
    assert heard == [("inspect.signature", None)] * len(cases) + [("inspect.signature", "option")]


@pytest.mark.skipif(not HAS_FORMAT, reason="annotation_format is 3.14's")
def test_every_format_of_future_annotations(impl):
    source = "from __future__ import annotations\ndef f(a: Value, *b: list[int]) -> Undefined: pass\n"
    func = make(source)
    with core(impl), patched():
        for fmt in (F.STRING, F.FORWARDREF, F.VALUE):
            assert_same(outcome(lambda: inspect.signature(func, annotation_format=fmt)),
                        outcome(lambda: INSPECT_FROM_CALLABLE.__func__(
                            inspect.Signature, func, annotation_format=fmt)))


def test_patched_entry_points_introspect_as_inspects():
    with patched():
        assert inspect.signature(inspect.getfullargspec) == inspect.signature(
            INSPECT_GETFULLARGSPEC)
        assert inspect.signature(inspect.getcallargs) == inspect.signature(INSPECT_GETCALLARGS)
        assert inspect.getcallargs.__doc__ == INSPECT_GETCALLARGS.__doc__
        assert inspect.getfullargspec.__name__ == "getfullargspec"


def test_a_signature_subclass_is_inspects(impl):
    class Mine(inspect.Signature):
        __slots__ = ()

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    def f(a: "int", b=1):
        pass

    opts = {"eval_str": True} if "eval_str" in OPTION_NAMES else {}
    expected = outcome(lambda: INSPECT_FROM_CALLABLE.__func__(Mine, f, **opts))
    with core(impl), patched():
        assert_same(outcome(lambda: Mine.from_callable(f, **opts)), expected)


def test_source_is_what_is_tested():
    # The generator makes functions that compile (a check of the test itself).
    source = textwrap.dedent("""\
        def f(a: 'int', /, b: Value = 0, *args: 'a b', c, **kwargs) -> 'Undefined':
            pass
    """)
    assert inspect.signature(make(source)).parameters["b"].annotation is Value
