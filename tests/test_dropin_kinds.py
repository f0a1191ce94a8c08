"""Every kind of callable through the drop-in, held to the running inspect.

Generated classes (bases with and without ``__init__``/``__new__``,
exceptions, ABCs, ``Generic``, metaclasses with and without ``__call__``,
``__signature__``, slots, dataclasses, ``NamedTuple``, enums, partialmethods
as ``__init__``, ``__new__`` or metaclass ``__call__``), bound, class
and static methods, callable objects, ``functools.wraps`` chains (cycles,
``__signature__`` on a link, a builtin at the end) and partials are given to
``inspect.signature``, ``Signature.from_callable``, ``posonly.signature`` and
``getfullargspec``, patched, with generated options, over both cores, and
compared with what inspect's own code answers for the same object: equal
signatures of the same type with the same parameters, or the same error.
Nothing here knows what inspect answers.
"""

import gc
import inspect
import sys
import types
import weakref

from hypothesis import assume, given
from hypothesis import strategies as st

import posonly
from posonly import _options
from test_options import (
    INSPECT_FROM_CALLABLE,
    INSPECT_GETCALLARGS,
    INSPECT_GETFULLARGSPEC,
    INSPECT_SIGNATURE,
    OPTION_NAMES,
    assert_same,
    core,
    options,
    outcome,
    patched,
)

HEADER = """\
import abc, dataclasses, enum, functools, inspect, typing
T = typing.TypeVar("T")

class Value:
    pass

class Made(type):
    def __call__(cls, made, *rest):
        return super().__call__(*rest)

class Quiet(type):
    pass

class WithInit:
    def __init__(self, i, j: int = 1):
        pass

class WithNew:
    def __new__(cls, n, *, m=2):
        return object.__new__(cls)

class Called:
    def __call__(self, x, /, y: 'Value' = None):
        pass

def target(a, b: int = 1, *args, c: 'Value', **kwargs) -> 'Value':
    pass

def taking(self, p, q=2, *, r=3):
    pass

def starred(*args, k=1):
    pass

class Partial(type):
    __call__ = functools.partialmethod(taking, 1)

def deco(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper
"""

PARAMETERS = [
    "self, a, b=1", "self, a: int, /, b: 'Value' = 2, *args, c, **kw", "*args, **kwargs",
    "self, *, k", "", "self, x: 'Undefined' = 3", "cls_or_self, /, *rest", "**only",
]
BASES = ["", "WithInit", "WithNew", "Exception", "abc.ABC", "typing.Generic[T]", "Called",
         "WithInit, WithNew", "WithNew, WithInit", "ValueError"]
METACLASSES = ["", "Made", "Quiet", "abc.ABCMeta", "Partial"]
PARTIALMETHODS = ["taking, 1", "taking, r=4", "taking, 1, 2, r=4", "taking, x=1", "target",
                  "starred, 1", "deco(taking), 1"]
"""The arguments of a generated class's ``functools.partialmethod``."""


@st.composite
def classes(draw):
    """A class's source: bases, metaclass, its own __init__/__new__/__call__,
    __signature__, slots, a decorator."""
    base = draw(st.sampled_from(BASES))
    meta = draw(st.sampled_from(METACLASSES))
    if base in ("abc.ABC",) and meta not in ("", "abc.ABCMeta"):
        meta = ""
    head = ", ".join(part for part in (base, f"metaclass={meta}" if meta else "") if part)
    body = []
    if draw(st.booleans()):
        init = draw(st.sampled_from(PARAMETERS))
        decorated = draw(st.sampled_from(["", "", "@deco\n    "]))
        if draw(st.integers(0, 3)) == 0:
            partial = draw(st.sampled_from(PARTIALMETHODS))
            body.append(f"__init__ = functools.partialmethod({partial})")
        else:
            body.append(f"{decorated}def __init__({init}):\n        pass")
    if draw(st.integers(0, 3)) == 0:
        new = draw(st.sampled_from(PARAMETERS))
        if draw(st.integers(0, 3)) == 0:
            partial = draw(st.sampled_from(PARTIALMETHODS))
            body.append(f"__new__ = functools.partialmethod({partial})")
        else:
            body.append(f"def __new__({new}):\n        return object.__new__(C)")
    if draw(st.booleans()):
        call = draw(st.sampled_from(PARAMETERS))
        body.append(f"def __call__({call}):\n        pass")
    extra = draw(st.sampled_from(["", "", "", "signature", "slots", "wrapped", "text"]))
    if extra == "signature":
        body.append("__signature__ = inspect.Signature()")
    elif extra == "slots":
        body.append("__slots__ = ()")
    elif extra == "wrapped":
        body.append("__wrapped__ = target")
    elif extra == "text":
        body.insert(0, '"""C(p, q)\n--\n\n"""')
    decorator = draw(st.sampled_from(["", "", "@dataclasses.dataclass\n"]))
    if decorator:
        body.append("field: int = 0")
        if extra != "text":  # else dataclass asks inspect.signature for a docstring
            body.insert(0, '"""A generated class."""')
    source = f"{decorator}class C({head}):\n    " + ("\n    ".join(body) or "pass") + "\n"
    return source


SPECIAL = [
    "class C(typing.NamedTuple):\n    a: int\n    b: str = 'x'\n",
    "class C(enum.Enum):\n    A = 1\n",
    "@dataclasses.dataclass(frozen=True)\nclass C:\n    a: int\n    b: 'Value' = None\n",
    "class C(typing.Generic[T]):\n    def __init__(self, v: T):\n        pass\n",
    "class C(Exception):\n    pass\n",
    "class C:\n    pass\n",
    "class C(bytearray):\n    pass\n",
    "class C(int):\n    pass\n",
    "class C(ValueError):\n    __slots__ = ()\n",
    "class C(dict):\n    'C(a, /, b=1)\\n--\\n\\n'\n",
]


ENUM_BASES = {"enum.Enum": "object", "enum.IntEnum": "int", "enum.Flag": "object",
              "enum.IntFlag": "int", "str, enum.Enum": "str"}
ENUM_VALUES = {"object": ["1", "2"], "int": ["1", "2"], "str": ["'a'", "'b'"]}


@st.composite
def enums(draw):
    """An enum's source: of each kind, functional or not, with members or
    none, a Python ``__new__``/``__init__``, a metaclass of its own, a
    member named as what inspect reads, a ``__signature__``."""
    base = draw(st.sampled_from(sorted(ENUM_BASES)))
    data = ENUM_BASES[base]
    values = ENUM_VALUES[data][:draw(st.integers(0, 2))]
    if draw(st.integers(0, 4)) == 0:
        kind = base.split(", ")[-1]
        mixin = f", type={data}" if data == "str" else ""
        names = " ".join(f"M{i}" for i in range(len(values))) or "M0"
        return f"C = {kind}('C', {names!r}{mixin})\n"
    meta = draw(st.sampled_from(["", "", "Quiet", "Counting"]))
    head = base + (f", metaclass={meta}" if meta else "")
    body = [f"M{i} = {value}" for i, value in enumerate(values)]
    if draw(st.booleans()):
        made = "object.__new__(cls)" if data == "object" else f"{data}.__new__(cls, value)"
        body.append(f"def __new__(cls, value):\n        obj = {made}\n"
                    "        obj._value_ = value\n        return obj")
    if draw(st.booleans()):
        body.append("def __init__(self, *args):\n        pass")
    extra = draw(st.sampled_from(["", "", "", "partialmethod", "signature", "method"]))
    if extra == "partialmethod" and values:
        body.append(f"_partialmethod = {values[0]}")
    elif extra == "signature":
        body.append("__signature__ = inspect.Signature()")
    elif extra == "method":
        body.append("def describe(self, detail, /):\n        pass")
    source = (f"class Quiet(enum.EnumMeta):\n    pass\n\n"
              f"class Counting(enum.EnumMeta):\n"
              f"    def __call__(cls, value, *more, **kw):\n"
              f"        return super().__call__(value, *more, **kw)\n\n"
              f"class C({head}):\n    " + ("\n    ".join(body) or "pass") + "\n")
    return source


def build(source):
    namespace = {"__name__": __name__}
    exec(compile(HEADER + source, "<generated>", "exec"), namespace)  # noqa: S102 - generated
    return namespace


@st.composite
def targets(draw):
    """A callable of some kind, and the namespace it lives in."""
    kind = draw(st.sampled_from(["class", "special", "instance", "method", "classmethod",
                                 "staticmethod", "wraps", "partial", "signed-instance",
                                 "enum"]))
    if kind == "special":
        return build(draw(st.sampled_from(SPECIAL)))["C"]
    if kind == "enum":
        namespace = build(draw(enums()))
        return draw(st.sampled_from([namespace["C"], namespace["C"], namespace["enum"].Enum,
                                     namespace["enum"].IntFlag]))
    if kind == "wraps":
        depth = draw(st.integers(1, 3))
        ending = draw(st.sampled_from(["target", "target", "len", "cycle", "signature"]))
        namespace = build("")
        func = namespace["target"] if ending != "len" else len
        for _ in range(depth):
            func = namespace["deco"](func)
        if ending == "cycle":
            func.__wrapped__ = func
        elif ending == "signature":
            func.__wrapped__.__signature__ = inspect.Signature()
        return func
    if kind == "partial":
        namespace = build("")
        import functools
        return functools.partial(namespace["target"], draw(st.integers(0, 2)))
    params = draw(st.sampled_from(PARAMETERS))
    if kind in ("method", "classmethod", "staticmethod"):
        decorator = "" if kind == "method" else f"@{kind}\n    "
        namespace = build(f"class C:\n    {decorator}def m({params}):\n        pass\n")
        owner = namespace["C"]
        holder = owner if kind != "method" or draw(st.booleans()) is False else object.__new__(owner)
        return getattr(holder, "m")
    if kind == "instance" or kind == "signed-instance":
        slots = draw(st.booleans())
        source = ("class C:\n" + ("    __slots__ = ()\n" if slots else "")
                  + f"    def __call__({params}):\n        pass\n")
        instance = build(source)["C"]()
        if kind == "signed-instance" and not slots:
            instance.__signature__ = inspect.Signature()
        return instance
    namespace = build(draw(classes()))
    return namespace["C"]


CALLS = [((), {}), ((1, 2), {}), ((1,), {"c": 3, "k": 4})]
"""Calls given to ``getcallargs``: none, by position, by keyword."""


def spec_outcome(call):
    got = outcome(call)
    if got[0] == "error":
        return got
    return ("ok", got[1])


@given(target=targets(), opts=options(), follow_wrapped=st.sampled_from([True, True, False]))
def test_every_kind_is_inspects(impl, target, opts, follow_wrapped):
    # inspect's get_annotations follows __wrapped__ with no end: a cycle
    # with eval_str never returns, from inspect's own code too.
    assume(not (opts.get("eval_str") and getattr(target, "__wrapped__", None) is target))
    expected = outcome(lambda: INSPECT_SIGNATURE(target, follow_wrapped=follow_wrapped, **opts))
    expected_from_callable = outcome(lambda: INSPECT_FROM_CALLABLE.__func__(
        inspect.Signature, target, follow_wrapped=follow_wrapped, **opts))
    expected_spec = spec_outcome(lambda: INSPECT_GETFULLARGSPEC(target))
    expected_callargs = [outcome(lambda: INSPECT_GETCALLARGS(target, *args, **kwargs))
                         for args, kwargs in CALLS]
    with core(impl):
        with patched():
            for (args, kwargs), expected_call in zip(CALLS, expected_callargs):
                assert outcome(lambda: inspect.getcallargs(target, *args, **kwargs)) == (
                    expected_call)
            assert_same(outcome(lambda: inspect.signature(
                target, follow_wrapped=follow_wrapped, **opts)), expected)
            assert_same(outcome(lambda: inspect.Signature.from_callable(
                target, follow_wrapped=follow_wrapped, **opts)), expected_from_callable)
            assert_same(spec_outcome(lambda: inspect.getfullargspec(target)), expected_spec)
        mine = outcome(lambda: posonly.signature(target, follow_wrapped=follow_wrapped, **opts))
    assert mine[0] == expected[0], (mine, expected)
    if expected[0] == "ok":
        assert isinstance(mine[1], posonly.Signature)
        assert mine[1] == expected[1] and str(mine[1]) == str(expected[1])
        assert list(mine[1].parameters) == list(expected[1].parameters)
    elif OPTION_NAMES.issuperset(opts):
        assert mine[1:] == expected[1:]


@given(source=classes())
def test_a_class_changed_between_calls_is_inspects(impl, source):
    """A class whose ``__init__`` is replaced, given ``__signature__`` or a
    ``__new__`` later gets inspect's new answer at once."""
    namespace = build(source)
    cls = namespace["C"]
    changes = [
        lambda: setattr(cls, "__init__", namespace["WithInit"].__dict__["__init__"]),
        lambda: setattr(cls, "__new__", namespace["WithNew"].__dict__["__new__"]),
        lambda: setattr(cls, "__signature__", inspect.Signature()),
    ]
    with core(impl):
        for change in changes:
            expected = outcome(lambda: INSPECT_SIGNATURE(cls))
            with patched():
                assert_same(outcome(lambda: inspect.signature(cls)), expected)
            try:
                change()
            except (TypeError, AttributeError):  # an enum, a slotted class
                return


@given(source=enums())
def test_an_enum_changed_between_calls_is_inspects(impl, source):
    """An enum whose members come or go, that gains a member named as what
    inspect reads, or that is given a ``__signature__`` gets inspect's new
    answer at once."""
    cls = build(source)["C"]

    def members():
        names = cls._member_names_
        names.append("LATE") if not names else names.clear()

    changes = [
        members,
        lambda: cls._member_map_.__setitem__("_partialmethod", None),
        members,
        lambda: setattr(cls, "__signature__", inspect.Signature()),
    ]
    with core(impl):
        for change in changes:
            expected = outcome(lambda: INSPECT_SIGNATURE(cls))
            expected_spec = spec_outcome(lambda: INSPECT_GETFULLARGSPEC(cls))
            with patched():
                assert_same(outcome(lambda: inspect.signature(cls)), expected)
                assert_same(spec_outcome(lambda: inspect.getfullargspec(cls)), expected_spec)
            try:
                change()
            except AttributeError:  # the metaclass's __signature__ has no setter
                return


def test_a_method_of_a_changed_class_is_inspects(impl):
    namespace = build("class C:\n    def m(self, a, b=2):\n        pass\n")
    cls = namespace["C"]
    instance = cls()
    with core(impl), patched():
        for new in ["def m(self, z, /): pass", "def m(*args): pass", "def m(self, *, k): pass"]:
            assert inspect.signature(instance.m) == INSPECT_SIGNATURE(instance.m)
            assert inspect.signature(cls) == INSPECT_SIGNATURE(cls)
            scope = {}
            exec(new, scope)  # noqa: S102 - constant sources
            cls.m = scope["m"]
            cls.__init__ = scope["m"]
        assert inspect.signature(instance.m) == INSPECT_SIGNATURE(instance.m)
        assert outcome(lambda: inspect.signature(cls)) == outcome(lambda: INSPECT_SIGNATURE(cls))


def test_nothing_asked_about_is_kept_alive(impl):
    """A class, a bound method's instance, a callable object and a wraps
    chain asked about die with their last reference."""
    with core(impl), patched():
        refs = []
        for _ in range(3):
            namespace = build(
                "class C(WithInit):\n    def m(self, a):\n        pass\n"
                "    def __call__(self, q):\n        pass\n")
            cls = namespace["C"]
            instance = cls(1)
            wrapped = namespace["deco"](namespace["deco"](namespace["target"]))
            bare = build("class C:\n    pass\n")["C"]
            for obj in (cls, instance.m, instance, wrapped, bare):
                inspect.signature(obj)
                posonly.signature(obj)
                inspect.getfullargspec(obj)
            refs += [weakref.ref(cls), weakref.ref(instance), weakref.ref(wrapped),
                     weakref.ref(bare)]
            del namespace, cls, instance, wrapped, obj, bare
        gc.collect()
        assert [ref() for ref in refs] == [None] * len(refs)


def test_the_running_inspect_was_learned():
    """Each kind is served only where the running inspect answered its probe
    as the drop-in does; on the interpreters tested, all of them."""
    if sys.implementation.name == "cpython":
        assert all(_options._KINDS)
        # A partialmethod as __init__, __new__ and metaclass __call__.
        assert all(_options._PARTIALMETHOD_WAYS)
    # A class made by object's constructor is answered alike everywhere.
    assert _options._KINDS[7]


# -- builtins ------------------------------------------------------------------

EXTENSION_MODULES = ["builtins", "math", "_operator", "itertools", "_io", "_json", "zlib",
                     "_collections", "_functools", "_struct", "binascii", "_heapq", "time"]
BUILTIN_TYPES = [str, bytes, bytearray, list, dict, set, frozenset, int, float, complex,
                 tuple, object, type, range, memoryview]
INSTANCES = ["", b"", bytearray(), [], {}, set(), frozenset(), 1, 1.5, 1j, (), object(),
             range(3), sys]


def real_builtins():
    """Builtins of every kind, as programs meet them: the functions of the
    builtins module and of extension modules, the methods and slot wrappers
    of builtin types, unbound, bound to instances (method-wrappers too) and
    class methods bound to their type.  Those a module or type lacks on the
    running interpreter are not there."""
    import importlib

    found = []
    for name in EXTENSION_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found += [value for value in vars(module).values() if callable(value)]
    for kind in BUILTIN_TYPES:
        found += list(vars(kind).values())
        found += [getattr(kind, name, None) for name in vars(kind)]
    for instance in INSTANCES:
        found += [getattr(instance, name, None) for name in dir(instance)]
    seen = set()
    unique = []
    for value in found:
        # Not a Python function put there by a library (exceptiongroup's
        # sys.excepthook before 3.11): function is a type of builtins too.
        if (type(value).__module__ == "builtins" and not isinstance(value, type)
                and not isinstance(value, (types.FunctionType, types.MethodType))
                and callable(value) and id(value) not in seen):
            seen.add(id(value))
            unique.append(value)
    return unique


BUILTINS = real_builtins()
EVAL_STR = {"eval_str": True} if "eval_str" in OPTION_NAMES else {}


def test_builtins_are_inspects(impl):
    """Every real builtin gets the running inspect's signature, or its error,
    with and without the bound argument, from the text signatures kept when
    asked again and after they were dropped (a small ``maxsize``), and
    nothing but strings is kept."""
    expected = {}
    for obj in BUILTINS:
        expected[id(obj)] = (
            outcome(lambda: INSPECT_SIGNATURE(obj)),
            outcome(lambda: INSPECT_FROM_CALLABLE.__func__(inspect.Signature, obj,
                                                           follow_wrapped=False)),
            spec_outcome(lambda: INSPECT_GETFULLARGSPEC(obj)),
            outcome(lambda: INSPECT_GETCALLARGS(obj, 1)),
        )
    served = 0
    with core(impl):
        try:
            for maxsize in (4096, 16):
                posonly.patch_inspect(maxsize=maxsize)
                for obj in BUILTINS:
                    plain, unwrapped, spec, callargs = expected[id(obj)]
                    for _ in range(2):  # parsed, then kept
                        assert_same(outcome(lambda: inspect.signature(obj)), plain)
                        assert_same(outcome(lambda: inspect.Signature.from_callable(
                            obj, follow_wrapped=False)), unwrapped)
                        assert_same(spec_outcome(lambda: inspect.getfullargspec(obj)), spec)
                        assert outcome(lambda: inspect.getcallargs(obj, 1)) == callargs
                    # inspect ignores the options for builtins (3.10 on has them).
                    mine = outcome(lambda: posonly.signature(obj, **EVAL_STR))
                    assert mine[0] == plain[0]
                    if mine[0] == "ok":
                        assert type(mine[1]) is posonly.Signature and mine[1] == plain[1]
                    info = _options.builtin_cache_info()
                    assert info["texts"] <= maxsize == info["maxsize"]
                served = sum(type(key[0]) is str and type(key[1]) is bool
                             for key in _options._texts)
                posonly.unpatch_inspect()
        finally:
            posonly.unpatch_inspect()
            posonly.patch_inspect()
            posonly.unpatch_inspect()
    assert served or not _options._KINDS[6]
