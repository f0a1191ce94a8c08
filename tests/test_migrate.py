"""posonly.migrate: a function written in its future signature keeps its
legacy calls working, each legacy form with one warning at the caller's line.

The differential test generates future signatures, declarations and calls,
and compares each call of the migrated function with real functions made by
``exec``: a call in the future form with the future ``def`` (no warning), a
call in a legacy form with a ``def`` of the legacy signature (what the call
meant; its errors are the interpreter's for that signature).
"""

import asyncio
import functools
import gc
import inspect
import pickle
import sys
import textwrap
import warnings
from typing import Any, Dict, List, Optional, Tuple

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import posonly
from conftest import IMPLEMENTATIONS, _load
from oracle import outcome
from posonly import CallForm, Layout

THIS_FILE = __file__


# -- generated signatures, declarations and calls ------------------------------


class Spec:
    """A future signature and a declaration that fits it."""

    def __init__(self, posonly: List[str], positional: List[str], varargs: bool,
                 kwonly: List[str], varkw: bool, n_defaults: int, kwdefaults: List[str],
                 positional_only: List[str], keyword_only: List[str],
                 renamed: Dict[str, str]) -> None:
        self.posonly, self.positional, self.varargs = posonly, positional, varargs
        self.kwonly, self.varkw = kwonly, varkw
        self.n_defaults, self.kwdefaults = n_defaults, kwdefaults
        self.positional_only, self.keyword_only, self.renamed = positional_only, keyword_only, renamed

    @property
    def by_position(self) -> List[str]:
        return self.posonly + self.positional

    def _default(self, name: str) -> str:
        return f"={name!r}"  # each default is its parameter's name

    def _positional_text(self, names: List[str], first_default: int) -> List[str]:
        return [name + (self._default(name) if i >= first_default else "")
                for i, name in enumerate(names)]

    def _returns(self) -> str:
        names = self.by_position + (["args"] if self.varargs else []) + self.kwonly
        names += ["kw"] if self.varkw else []
        return "(" + "".join(name + ", " for name in names) + ")"

    def future_source(self) -> str:
        first_default = len(self.by_position) - self.n_defaults
        params = self._positional_text(self.by_position, first_default)
        if self.posonly:
            params.insert(len(self.posonly), "/")
        params.append("*args" if self.varargs else "*" if self.kwonly else "")
        params += [k + (self._default(k) if k in self.kwdefaults else "") for k in self.kwonly]
        params += ["**kw"] if self.varkw else []
        return f"def f({', '.join(p for p in params if p)}):\n    return {self._returns()}\n"

    def legacy_source(self) -> str:
        kept = self.posonly[: len(self.posonly) - len(self.positional_only)]
        moved = self.kwonly[: len(self.keyword_only)]
        by_position = self.by_position + moved
        first_default = len(self.by_position) - self.n_defaults
        params = []
        for i, name in enumerate(by_position):
            has_default = (i >= first_default if i < len(self.by_position)
                           else name in self.kwdefaults)
            params.append(name + (self._default(name) if has_default else ""))
        if kept:
            params.insert(len(kept), "/")
        rest = self.kwonly[len(moved):]
        params.append("*args" if self.varargs else "*" if rest else "")
        params += [k + (self._default(k) if k in self.kwdefaults else "") for k in rest]
        params += ["**kw"] if self.varkw else []
        return f"def f({', '.join(p for p in params if p)}):\n    return {self._returns()}\n"

    def declaration(self) -> Dict[str, Any]:
        return {"positional_only": tuple(self.positional_only),
                "keyword_only": tuple(self.keyword_only), "renamed": dict(self.renamed)}


def define(source: str) -> Any:
    namespace: Dict[str, Any] = {}
    exec(source, namespace)
    return namespace["f"]


@st.composite
def specs(draw: Any) -> Spec:
    posonly = [f"p{i}" for i in range(draw(st.integers(0, 3)))]
    positional = [f"q{i}" for i in range(draw(st.integers(0, 2)))]
    kwonly = [f"k{i}" for i in range(draw(st.integers(0, 3)))]
    varargs, varkw = draw(st.booleans()), draw(st.booleans())
    n_positional = len(posonly) + len(positional)
    n_defaults = draw(st.integers(0, n_positional))
    kwdefaults = [k for k in kwonly if draw(st.booleans())]
    first_default = n_positional - n_defaults
    n_depr = draw(st.integers(0, len(posonly)))
    positional_only = posonly[len(posonly) - n_depr:]
    if varkw:  # a deprecated positional-only parameter with a default would be ambiguous
        positional_only = [p for p in positional_only if posonly.index(p) < first_default]
        positional_only = positional_only if positional_only == posonly[
            len(posonly) - len(positional_only):] else []
    keyword_only: List[str] = []
    if not varargs:
        has_default = n_defaults > 0
        for k in kwonly[: draw(st.integers(0, len(kwonly)))]:
            if k not in kwdefaults and has_default:
                break
            has_default = has_default or k in kwdefaults
            keyword_only.append(k)
    renamed: Dict[str, str] = {}
    if not varkw:
        targets = positional_only + positional + kwonly
        for target in draw(st.lists(st.sampled_from(targets), unique=True)) if targets else []:
            renamed["o" + target] = target
    assume(positional_only or keyword_only or renamed)
    return Spec(posonly, positional, varargs, kwonly, varkw, n_defaults, kwdefaults,
                positional_only, keyword_only, renamed)


def legacy_forms(spec: Spec, nargs: int, kwargs: Dict[str, Any]) -> Tuple[List[str], List[str], List[str]]:
    """What the call uses of the legacy signature, by the declaration's
    definition: a deprecated positional-only parameter by keyword (where no
    positional argument fills it), deprecated keyword-only parameters by
    position, old names."""
    by_keyword = [p for p in spec.positional_only if p in kwargs and spec.posonly.index(p) >= nargs]
    extra = nargs - len(spec.by_position)
    by_position = spec.keyword_only[: max(0, extra)] if spec.keyword_only else []
    old = [name for name in kwargs if name in spec.renamed]
    return by_keyword, by_position, old


def words(names: List[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def expected_messages(spec: Spec, nargs: int, kwargs: Dict[str, Any], name: str = "f",
                      removal: str = "in version 3.0") -> List[str]:
    """Argument Clinic's wording, with the function's qualified name and
    the library's release."""
    by_keyword, by_position, old = legacy_forms(spec, nargs, kwargs)
    messages = []
    if by_keyword:
        s = "s" if len(by_keyword) > 1 else ""
        messages.append(f"Passing keyword argument{s} {words(by_keyword)} to {name}() is "
                        f"deprecated. Parameter{s} {words(by_keyword)} will become "
                        f"positional-only {removal}.")
    if by_position:
        n = len(spec.by_position)
        preamble = (f"Passing more than {n} positional argument{'s' if n != 1 else ''} to "
                    f"{name}() is deprecated." if n else
                    f"Passing positional arguments to {name}() is deprecated.")
        change = (f"Parameter {words(by_position)} will become a keyword-only parameter"
                  if len(by_position) == 1 else
                  f"Parameters {words(by_position)} will become keyword-only parameters")
        messages.append(f"{preamble} {change} {removal}.")
    for o in old:
        messages.append(f"Passing keyword argument {o!r} to {name}() is deprecated. Parameter "
                        f"{o!r} was renamed {spec.renamed[o]!r}; {o!r} will stop working "
                        f"{removal}.")
    return messages


@st.composite
def calls(draw: Any, spec: Spec) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
    nargs = draw(st.integers(0, len(spec.by_position) + len(spec.keyword_only) + 1))
    candidates = spec.by_position + spec.kwonly + list(spec.renamed) + ["zz"]
    names = draw(st.lists(st.sampled_from(candidates), unique=True, max_size=4))
    return tuple(range(100, 100 + nargs)), {name: f"v_{name}" for name in names}


@given(data=st.data())
def test_differential(impl, data):
    spec = data.draw(specs())
    args, kwargs = data.draw(calls(spec))
    assume(not any(old in kwargs and new in kwargs for old, new in spec.renamed.items()))
    _check_call(impl, spec, args, kwargs)


def test_old_and_new_name_together(impl):
    @impl.migrate(renamed={"old": "new"})
    def f(a, new=None):
        return a, new

    with pytest.raises(TypeError) as info:
        f(1, new=2, old=3)
    legacy = define("def f(a, new=None): pass\n")
    with pytest.raises(TypeError) as same:
        legacy(1, 2, new=3)  # the interpreter's words for a parameter given twice
    # (named as the interpreter names f: by its qualified name from 3.10)
    assert str(info.value).endswith(str(same.value))


# -- warnings filters ---------------------------------------------------------


def _migrated(impl):
    @impl.migrate(positional_only=("a",), keyword_only=("c",), removal="3.0")
    def g(a, /, b=0, *, c=0):
        return a, b, c
    return g


def test_filter_error(impl):
    g = _migrated(impl)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning, match=r"Passing keyword argument 'a' to "):
            g(a=1)
        with pytest.raises(DeprecationWarning, match=r"Passing more than 2 positional"):
            g(1, 2, 3)
        assert g(1, 2, c=3) == (1, 2, 3)


def test_filter_error_calls_nothing(impl):
    seen = []

    @impl.migrate(keyword_only=("c",))
    def g(*, c=0):
        seen.append(c)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeprecationWarning):
            g(1)
    assert seen == []


def _count(g, action, lines):
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter(action)
        for _ in range(3):
            g(a=1)  # one call site
        if lines:
            g(a=2)  # another
    return [(str(w.message), w.lineno) for w in caught]


def test_filter_default_once_per_call_site(impl):
    g = _migrated(impl)
    got = _count(g, "default", lines=True)
    assert len(got) == 2 and got[0][1] != got[1][1]


def test_filter_once(impl):
    g = _migrated(impl)
    assert len(_count(g, "once", lines=True)) == 1


def test_filter_ignore(impl):
    g = _migrated(impl)
    assert _count(g, "ignore", lines=True) == []


def test_module_registry_is_the_callers(impl):
    g = _migrated(impl)
    registry = globals().setdefault("__warningregistry__", {})
    registry.clear()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("default")
        g(a=1)
    assert any(key[0].startswith("Passing keyword argument 'a'") for key in registry
               if isinstance(key, tuple))


def test_category(impl):
    @impl.migrate(keyword_only=("c",), category=FutureWarning)
    def g(*, c=0):
        return c

    with pytest.warns(FutureWarning):
        assert g(5) == 5


# -- what the migrated function is -------------------------------------------


def test_looks_like_the_function(impl):
    def f(a, /, b=1, *, c=2):
        """Docs of f."""
        return a, b, c

    f.extra = "kept"
    g = impl.migrate(f, positional_only=("a",), keyword_only=("c",), since="2.3", removal="3.0")
    assert g.__wrapped__ is f
    assert (g.__name__, g.__qualname__, g.__module__) == (f.__name__, f.__qualname__, f.__module__)
    assert g.extra == "kept"
    assert inspect.signature(g) == inspect.signature(f)
    assert inspect.signature(g, follow_wrapped=False) == inspect.signature(f)
    assert g.__doc__.startswith("Docs of f.\n\nNote: Passing keyword argument 'a' to")
    assert "(Deprecated since version 2.3.)" in " ".join(g.__doc__.split())
    assert g.__doc__.count("Note: ") == 2
    assert f.__doc__ == "Docs of f."


def test_no_docstring(impl):
    def f(a, /):
        return a

    g = impl.migrate(f, positional_only=("a",))
    assert g.__doc__ == textwrap.fill(
        f"Note: Passing keyword argument 'a' to {f.__qualname__}() is deprecated. "
        "Parameter 'a' will become positional-only in a future version.")


class Service:
    def __init__(self, x, /, *, scale=1):
        self.x, self.scale = x, scale

    __init__ = posonly.migrate(__init__, positional_only=("x",), keyword_only=("scale",))

    @posonly.migrate(renamed={"factor": "scale"}, keyword_only=("scale",))
    def compute(self, value, *, scale=2):
        return self.x * value * scale

    @classmethod
    @posonly.migrate(keyword_only=("scale",))
    def make(cls, x, *, scale=1):
        return cls(x, scale=scale)

    @posonly.migrate(keyword_only=("scale",))
    @staticmethod
    def twice(x, *, scale=2):
        return x * scale


def test_methods():
    with pytest.warns(DeprecationWarning) as caught:
        s = Service(x=3, scale=2)
    assert (s.x, s.scale) == (3, 2)
    assert [str(w.message) for w in caught] == [
        "Passing keyword argument 'x' to Service.__init__() is deprecated. Parameter 'x' will "
        "become positional-only in a future version."]
    with pytest.warns(DeprecationWarning, match=r"more than 2 positional arguments to "
                                               r"Service.compute\(\)"):
        assert s.compute(1, 5) == 15
    with pytest.warns(DeprecationWarning, match="'factor' was renamed 'scale'"):
        assert s.compute(1, factor=5) == 15
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert s.compute(1, scale=5) == 15
        assert Service.compute(s, 1) == 6
        assert Service.make(2).x == 2 and Service.twice(4) == 8
    with pytest.warns(DeprecationWarning, match=r"Service.make\(\)"):
        assert Service.make(2, 3).scale == 3
    with pytest.warns(DeprecationWarning, match=r"Service.twice\(\)"):
        assert Service.twice(4, 3) == 12
    # self is counted as the interpreter counts it
    with pytest.raises(TypeError, match=r"compute\(\) takes from 2 to 3 positional arguments "
                                        r"but 4 were given"):
        s.compute(1, 2, 3)


def test_both_twins_on_methods(impl):
    class C:
        @impl.migrate(keyword_only=("b",))
        def m(self, a, *, b=0):
            return self, a, b

    c = C()
    with pytest.warns(DeprecationWarning) as caught:
        line = sys._getframe().f_lineno + 1
        assert c.m(1, 2) == (c, 1, 2)
    assert [(w.filename, w.lineno) for w in caught] == [(THIS_FILE, line)]
    assert C.m(c, 1, b=2) == (c, 1, 2)
    with pytest.raises(TypeError, match=r"m\(\) takes from 2 to 3 positional arguments but 4"):
        c.m(1, 2, 3)


def test_classmethod_and_staticmethod_objects(impl):
    class C:
        @impl.migrate(keyword_only=("b",))
        @classmethod
        def cm(cls, a, *, b=0):
            return cls, a, b

        @impl.migrate(keyword_only=("b",))
        @staticmethod
        def sm(a, *, b=0):
            return a, b

    assert isinstance(C.__dict__["cm"], classmethod) and isinstance(C.__dict__["sm"], staticmethod)
    with pytest.warns(DeprecationWarning) as caught:
        line = sys._getframe().f_lineno + 1
        assert C.cm(1, 2) == (C, 1, 2) and C().sm(1, 2) == (1, 2)
    assert [(w.filename, w.lineno) for w in caught] == [(THIS_FILE, line)] * 2


def test_coroutine_function(impl):
    @impl.migrate(keyword_only=("b",))
    async def f(a, *, b=0):
        return a, b

    assert inspect.iscoroutinefunction(f)
    with pytest.warns(DeprecationWarning) as caught:
        line = sys._getframe().f_lineno + 1
        coroutine = f(1, 2)
    assert [(w.filename, w.lineno) for w in caught] == [(THIS_FILE, line)]
    assert asyncio.run(coroutine) == (1, 2)
    assert asyncio.run(f(1, b=3)) == (1, 3)

    class C:
        @impl.migrate(keyword_only=("b",))
        async def m(self, a, *, b=0):
            return a, b

    assert inspect.iscoroutinefunction(C.m) and inspect.iscoroutinefunction(C().m)
    with pytest.warns(DeprecationWarning) as caught:
        line = sys._getframe().f_lineno + 1
        coroutine = C().m(1, 2)
    assert [(w.filename, w.lineno) for w in caught] == [(THIS_FILE, line)]
    assert asyncio.run(coroutine) == (1, 2)


def test_generator_function(impl):
    @impl.migrate(renamed={"count": "n"})
    def f(n):
        yield from range(n)

    with pytest.warns(DeprecationWarning):
        assert list(f(count=3)) == [0, 1, 2]
    assert list(f(n=2)) == [0, 1]


def test_stacks_with_functools_wraps(impl):
    def logged(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper

    @impl.migrate(positional_only=("a",))
    @logged
    def f(a, /, b=0):
        return a, b

    with pytest.warns(DeprecationWarning) as caught:
        line = sys._getframe().f_lineno + 1
        assert f(a=1, b=2) == (1, 2)
    assert [(w.filename, w.lineno) for w in caught] == [(THIS_FILE, line)]
    assert inspect.signature(f) == inspect.signature(f.__wrapped__)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'a'"):
        f(b=2)

    g = logged(impl.migrate(lambda a, /: a, positional_only=("a",)))
    with pytest.warns(DeprecationWarning):
        assert g(a=4) == 4


def test_stacks_with_wrap(impl):
    seen = []

    def f(a, /, b=0, *, c=0):
        return a, b, c

    # migrate(wrap(f)): legacy calls are put in the future form, then wrapped.
    g = impl.migrate(impl.wrap(f, before=seen.append), positional_only=("a",),
                     keyword_only=("c",))
    with pytest.warns(DeprecationWarning) as caught:
        assert g(a=1, b=2) == (1, 2, 0)
        assert g(1, 2, 3) == (1, 2, 3)
    assert len(caught) == 2 and seen == [(1, 2, 0), (1, 2, 3)]
    # wrap(migrate(f)): the wrapper binds the future signature, so a legacy
    # call is refused with the interpreter's error before it reaches migrate.
    h = impl.wrap(impl.migrate(f, positional_only=("a",)), before=seen.append)
    with pytest.raises(TypeError, match="positional-only argument"):
        h(a=1)
    assert h(1, b=2) == (1, 2, 0)


def test_pep570_corner_case(impl):
    @impl.migrate(positional_only=("a",))
    def f(a, /, **kw):
        return a, kw

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(1, a=2) == (1, {"a": 2})  # a new-form call: a goes into kw
    with pytest.warns(DeprecationWarning):
        assert f(a=2) == (2, {})


def test_pickles_by_reference(impl):
    assert pickle.loads(pickle.dumps(Service.compute)) is Service.compute
    assert pickle.loads(pickle.dumps(module_level)) is module_level


@posonly.migrate(keyword_only=("b",))
def module_level(a, *, b=0):
    return a, b


def test_twins_share_the_types():
    if posonly.IMPLEMENTATION == "cython":
        assert type(module_level).__name__ == "Migrated"
    assert inspect.isfunction(module_level)


# -- declarations that do not fit ---------------------------------------------


@pytest.mark.parametrize("source, declaration, message", [
    ("def f(a, /): pass", {}, "needs something to deprecate"),
    ("def f(a, /): pass", {"positional_only": ("x",)}, "'x', which is not a parameter of f()"),
    ("def f(a): pass", {"positional_only": ("a",)}, "'a', which is not positional-only"),
    ("def f(a, b, /): pass", {"positional_only": ("a",)}, "the last positional-only"),
    ("def f(a=1, /, **kw): pass", {"positional_only": ("a",)}, "would mean two things"),
    ("def f(*, a): pass", {"positional_only": "a"}, "not a str"),
    ("def f(a, *, b): pass", {"keyword_only": ("a",)}, "'a', which is not keyword-only"),
    ("def f(*, a, b): pass", {"keyword_only": ("b",)}, "the first keyword-only"),
    ("def f(*args, a): pass", {"keyword_only": ("a",)}, "takes *args"),
    ("def f(a=1, *, b): pass", {"keyword_only": ("b",)}, "could not have been passed by position"),
    ("def f(*, a=1, b): pass", {"keyword_only": ("a", "b")}, "could not have been passed"),
    ("def f(a): pass", {"renamed": {"a": "b"}}, "'a', which is still a parameter"),
    ("def f(a): pass", {"renamed": {"x": "b"}}, "'b', which is not a parameter"),
    ("def f(a, /): pass", {"renamed": {"x": "a"}}, "positional-only in f() and not in"),
    ("def f(a, **kw): pass", {"renamed": {"x": "a"}}, "would mean two things"),
    ("def f(*args): pass", {"renamed": {"x": "args"}}, "not a parameter of f() that takes"),
    ("def f(a): pass", {"renamed": ["x"]}, "must be a mapping"),
    ("def f(*, a): pass", {"keyword_only": ("a",), "category": int}, "Warning subclass"),
    ("def f(*, a): pass", {"keyword_only": ("a",), "removal": 3}, "removal must be a str"),
])
def test_declaration_errors(impl, source, declaration, message):
    with pytest.raises(TypeError) as info:
        impl.migrate(define(source), **declaration)
    assert message in str(info.value)


def test_wrong_usage(impl):
    with pytest.raises(TypeError, match="must be callable"):
        impl.migrate(1, keyword_only=("a",))
    with pytest.raises(TypeError, match=r"migrate\(\) got an unexpected keyword argument 'x'"):
        impl.migrate(len, x=1)


# -- CallForm ---------------------------------------------------------------


@st.composite
def valid_calls(draw: Any, spec: Spec) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
    """A call the future signature accepts: positional arguments (extra
    ones where it takes *args), then each other parameter by keyword or
    left to its default, and extra keywords where it takes **kwargs."""
    by_position = spec.by_position
    first_default = len(by_position) - spec.n_defaults
    nargs = draw(st.integers(len(spec.posonly) if len(spec.posonly) <= first_default
                             else first_default, len(by_position)))
    if nargs < len(spec.posonly):
        nargs = max(nargs, min(len(spec.posonly), first_default))
    args = list(range(100, 100 + nargs))
    if spec.varargs and nargs == len(by_position):
        args += [-1] * draw(st.integers(0, 2))
    kwargs: Dict[str, Any] = {}
    for i, name in enumerate(by_position[nargs:], nargs):
        required = i < first_default
        if name in spec.positional and (required or draw(st.booleans())):
            kwargs[name] = f"v_{name}"
    for name in spec.kwonly:
        if name not in spec.kwdefaults or draw(st.booleans()):
            kwargs[name] = f"v_{name}"
    if spec.varkw and draw(st.booleans()):
        kwargs[draw(st.sampled_from(spec.posonly + ["zz"]))] = "extra"
    return tuple(args), dict(draw(st.permutations(list(kwargs.items()))))


@given(data=st.data())
def test_call_form_against_the_interpreter(data):
    spec = data.draw(specs())
    args, kwargs = data.draw(valid_calls(spec))
    future = define(spec.future_source())
    layout = Layout.from_callable(future)
    result = outcome(lambda: future(*args, **kwargs))
    assert result[0] == "ok", result
    form = CallForm(layout, len(args), tuple(kwargs))
    values = dict(zip(spec.by_position + (["args"] if spec.varargs else []) + spec.kwonly,
                      result[1]))
    for i, name in enumerate(form.positional):
        assert values[name] == args[i]
    for name, given_as in form.keywords.items():
        assert values[name] == kwargs[given_as]
    for name in form.defaulted:
        assert values[name] == name  # its default
    assert form.extra_positional == max(0, len(args) - len(spec.by_position))
    assert set(form.extra_keywords) == set(kwargs) - set(form.keywords.values())
    assert set(form.positional) | set(form.keywords) | set(form.defaulted) == set(
        spec.by_position + spec.kwonly)


def test_call_form_renamed():
    layout = Layout(name="f", posonly=("a",), positional=("b",), kwonly=("c",), varkw="kw")
    form = CallForm(layout, 1, ("old", "a", "x"), renamed={"old": "c"})
    assert form.positional == ("a",)
    assert form.keywords == {"c": "old"}
    assert form.extra_keywords == ("a", "x")
    assert form.defaulted == ("b",)
    with pytest.raises(TypeError):
        CallForm(object(), 0)  # type: ignore[arg-type]


@given(data=st.data())
def test_a_wrapper_hands_its_handler_the_form_of_each_call(data):
    """wrap(..., form=True) in both twins, over generated signatures and
    calls (valid or not): the handler gets the values a binder gives and the
    CallForm made from the call itself, its number of positional arguments
    and keyword names; the call returns (or raises) what the function's
    call does, and a call that does not bind reaches no handler."""
    spec = data.draw(specs())
    args, kwargs = data.draw(st.one_of(valid_calls(spec), calls(spec)))
    around = data.draw(st.booleans())
    future = define(spec.future_source())
    expected = outcome(lambda: future(*args, **kwargs))
    form = CallForm(Layout.from_callable(future), len(args), tuple(kwargs))
    for impl in [_load(name) for name in IMPLEMENTATIONS]:
        seen: List[Any] = []
        if around:
            wrapper = impl.wrap(future, form=True, around=lambda proceed, values, form: (
                seen.append((values, form)), proceed(values))[1])
        else:
            wrapper = impl.wrap(future, form=True, before=lambda values, form: seen.append(
                (values, form)))
        assert outcome(lambda: wrapper(*args, **kwargs)) == expected, impl.name
        values = [impl.binder(future)(*args, **kwargs)] if expected[0] == "ok" else []
        assert seen == [(v, form) for v in values], (impl.name, spec.future_source(), args, kwargs)


# -- reference counts -----------------------------------------------------------


@pytest.mark.skipif(not hasattr(sys, "getrefcount"), reason="no reference counts")
def test_refcounts_flat(impl):
    @impl.migrate(positional_only=("a",), keyword_only=("c",), renamed={"old": "b"})
    def f(a, /, b=None, *, c=None):
        return a

    value = object()
    name = "".join(["o", "ld"])  # not the interned name
    calls = [
        lambda: f(value, b=value, c=value),
        lambda: f(a=value),
        lambda: f(value, value, value),
        lambda: f(value, **{name: value}),
    ]
    errors = [lambda: f(value, value, value, value), lambda: f(b=value)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for call in calls + errors:
            outcome(call)
        _assert_flat(calls + errors, (value, name, f), 1000)


def _assert_flat(calls, watched, rounds):
    """Reference counts of ``watched`` and the allocated blocks stay flat
    over ``rounds`` of ``calls``."""
    gc.collect()
    before = [sys.getrefcount(o) for o in watched]
    blocks = sys.getallocatedblocks()
    for _ in range(rounds):
        for call in calls:
            outcome(call)
    gc.collect()
    assert [sys.getrefcount(o) for o in watched] == before
    assert sys.getallocatedblocks() - blocks < 200


@pytest.mark.skipif(not hasattr(sys, "getrefcount"), reason="no reference counts")
def test_refcounts_flat_future_calls(impl):
    """The legacy path's future call in every shape: a default filled in
    before a parameter given, *args, **kwargs, more arguments than the
    compiled path keeps on the C stack, more deprecated parameters than
    its mask holds; and its errors (a name given twice, a default taken
    away since)."""
    value = object()

    @impl.migrate(positional_only=("b", "c"), renamed={"old": "q"})
    def f(a, b=1, c=2, /, q=3, *args, k=4):
        return a

    @impl.migrate(positional_only=("a",))
    def g(a, /, **kw):
        return a

    many = define("def f(%s, /, *, k0=0, k1=1):\n    return p0\n"
                  % ", ".join(f"p{i}" for i in range(70)))
    h = impl.migrate(many, positional_only=tuple(f"p{i}" for i in range(70)),
                     keyword_only=("k0", "k1"))
    taken = impl.migrate(define("def f(a, b=1, c=2, /):\n    return a\n"),
                         positional_only=("b", "c"))
    taken.__wrapped__.__defaults__ = (2,)
    calls = [
        lambda: f(value, c=value),
        lambda: f(value, b=value, old=value, k=value),
        lambda: g(a=value, x=value),
        lambda: h(*[value] * 72),
        lambda: h(value, **{f"p{i}": value for i in range(1, 70)}),
    ]
    errors = [lambda: f(value, value, value, value, value, old=value),
              lambda: f(value, q=value, old=value), lambda: taken(value, c=value)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for call in calls:
            assert call() is value
        for call in errors:
            assert outcome(call)[0] == "error"
        _assert_flat(calls + errors, (value, f, h), 300)


def _check_call(impl: Any, spec: Spec, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
    """One call of the migrated future function against the real legacy
    (or future) function, its warnings against Argument Clinic's words."""
    future, legacy = define(spec.future_source()), define(spec.legacy_source())
    migrated = impl.migrate(future, **spec.declaration(), removal="3.0")
    forms = legacy_forms(spec, len(args), kwargs)
    if any(forms):
        expected = outcome(lambda: legacy(*args, **{spec.renamed.get(k, k): v
                                                    for k, v in kwargs.items()}))
    else:
        expected = outcome(lambda: future(*args, **kwargs))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        got = outcome(lambda: migrated(*args, **kwargs))
    assert got == expected, (spec.future_source(), spec.legacy_source(), args, kwargs)
    messages = expected_messages(spec, len(args), kwargs) if expected[0] == "ok" else []
    assert [str(w.message) for w in caught] == messages
    for w in caught:
        assert (w.category, w.filename, w.lineno) == (DeprecationWarning, THIS_FILE, line)


def test_many_parameters(impl):
    """More arguments than the compiled path's future call keeps on the C
    stack, more deprecated positional-only parameters than its mask holds."""
    posonly = [f"p{i}" for i in range(70)]
    kwonly = [f"k{i}" for i in range(20)]
    spec = Spec(posonly, [], False, kwonly, False, 0, kwonly, posonly, kwonly[:19], {})
    _check_call(impl, spec, tuple(range(75)), {"k19": 19})
    _check_call(impl, spec, (0, 1, 2), {name: name for name in reversed(posonly[3:])})
    _check_call(impl, spec, (0,), {"p69": 69})
    _check_call(impl, spec, tuple(range(90)), {})


def test_legacy_call_reads_defaults_at_the_call(impl):
    """A parameter not given before one given gets the function's default
    as it is at the call; one whose default was taken away since gets the
    interpreter's error for the legacy signature as it now is."""
    def f(a, b=1, c=2, /):
        return a, b, c

    g = impl.migrate(f, positional_only=("b", "c"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert g(0, c=5) == (0, 1, 5)
        f.__defaults__ = (10, 20)
        assert g(0, c=5) == (0, 10, 5)
        f.__defaults__ = (20,)
        legacy = define("def f(a, b, c=20): pass\n")
        with pytest.raises(TypeError) as same:
            legacy(0, c=5)
        with pytest.raises(TypeError) as info:
            g(0, c=5)
    assert str(info.value).endswith(str(same.value))  # (f named as the interpreter names it)


@given(data=st.data())
def test_legacy_forms_as_call_form_tells_them(data):
    """A handler of its own reads a call's legacy forms from its CallForm
    over the future layout, as migrate's legacy path does."""
    spec = data.draw(specs())
    args, kwargs = data.draw(calls(spec))
    layout = Layout.from_callable(define(spec.future_source()))
    form = CallForm(layout, len(args), tuple(kwargs), spec.renamed)
    by_keyword = [p for p in spec.positional_only
                  if p in form.extra_keywords and p not in form.positional]
    by_position = list(spec.keyword_only[: form.extra_positional]) if spec.keyword_only else []
    old = [name for name in kwargs if name in spec.renamed]
    assert (by_keyword, by_position, old) == legacy_forms(spec, len(args), kwargs)
