"""The two implementations of ``wrap`` side by side, over every kind of
wrapped callable and both handlers: each call, a change of defaults after
wrapping, ``inspect.is*function`` and pickling agree between the twins, and
with the reference: the callable itself, and a decorator that binds with
``inspect.signature`` at the call (``functools.wraps`` for ``inspect``'s
questions).

The rule tested: a wrapper binds each call with the defaults the function has
then, as a call of the function does (its ``__defaults__`` and
``__kwdefaults__`` as they are at the call, a ``__kwdefaults__`` dict changed in
place included); ``wrapper.layout`` describes the defaults as they were read
when the wrapper was made, and again at the first call after either object
was replaced, as a binder made then does (a dict changed in place does not
change it); ``inspect.iscoroutinefunction`` answers as for the function,
``isgeneratorfunction`` and ``isasyncgenfunction`` as for a
``functools.wraps`` def (False); a wrapper pickles by reference and loads as
itself, or raises ``pickle.PicklingError``.
"""

import asyncio
import functools
import inspect
import itertools
import pickle
import sys
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import IMPLEMENTATIONS, _load

TWINS = [_load(name) for name in IMPLEMENTATIONS] if IMPLEMENTATIONS else []
KINDS = [
    "function", "method", "classmethod", "staticmethod", "bound method", "callable instance",
    "partial", "stacked", "generator", "coroutine", "async generator",
]
HANDLERS = ["before", "around"]
_serial = itertools.count()

# Each kind's source: a module-level object as a decorator would leave it,
# and how it is called.  {w} is the wrap function, {h} the handler, {u} the
# names' own suffix.
_SOURCE = {
    "function": """
def f{u}(a, b=10, *, c=1):
    return (a, b, c)
source = f{u}
f{u} = {w}(f{u}, {h}=handler)
wrapped, reference = f{u}, source
""",
    "method": """
class K{u}:
    def m(self, a, b=10, *, c=1):
        return (a, b, c)
    source = m
    m = {w}(m, {h}=handler)
source = K{u}.source
instance = K{u}()
wrapped, reference = instance.m, source.__get__(instance)
first = (instance,)
""",
    "classmethod": """
class K{u}:
    def m(cls, a, b=10, *, c=1):
        return (a, b, c)
    source = m
    m = {w}(classmethod(m), {h}=handler)
source = K{u}.source
wrapped, reference = K{u}.m, classmethod(source).__get__(None, K{u})
first = (K{u},)
""",
    "staticmethod": """
class K{u}:
    def m(a, b=10, *, c=1):
        return (a, b, c)
    source = m
    m = {w}(staticmethod(m), {h}=handler)
source = K{u}.source
wrapped, reference = K{u}.m, source
""",
    "bound method": """
class K{u}:
    def m(self, a, b=10, *, c=1):
        return (a, b, c)
source = K{u}.m
instance = K{u}()
w{u} = {w}(instance.m, {h}=handler)
wrapped, reference = w{u}, instance.m
""",
    "callable instance": """
class K{u}:
    def __call__(self, a, b=10, *, c=1):
        return (a, b, c)
source = K{u}.__call__
instance = K{u}()
w{u} = {w}(instance, {h}=handler)
wrapped, reference = w{u}, instance
""",
    "stacked": """
def f{u}(a, b=10, *, c=1):
    return (a, b, c)
source = f{u}
f{u} = {w}({w}(f{u}, before=lambda values: None), {h}=handler)
wrapped, reference = f{u}, source
""",
    "partial": """
def g{u}(z, a, b=10, *, c=1):
    return (a, b, c)
source = g{u}
p{u} = functools.partial(g{u}, 0)
w{u} = {w}(p{u}, {h}=handler)
wrapped, reference = w{u}, p{u}
""",
    "generator": """
def f{u}(a, b=10, *, c=1):
    yield (a, b, c)
source = f{u}
f{u} = {w}(f{u}, {h}=handler)
wrapped, reference = f{u}, source
""",
    "coroutine": """
async def f{u}(a, b=10, *, c=1):
    return (a, b, c)
source = f{u}
f{u} = {w}(f{u}, {h}=handler)
wrapped, reference = f{u}, source
""",
    "async generator": """
async def f{u}(a, b=10, *, c=1):
    yield (a, b, c)
source = f{u}
f{u} = {w}(f{u}, {h}=handler)
wrapped, reference = f{u}, source
""",
}


class Made:
    """One kind made with one twin and one handler: the wrapper as code
    reaches it, the unwrapped reference, the function whose defaults the
    call uses, and the values the handler saw."""

    def __init__(self, twin, kind, handler_kind):
        self.seen = []
        seen = self.seen

        def before(values):
            seen.append(values)

        def around(proceed, values):
            seen.append(values)
            return proceed(values)

        handler = before if handler_kind == "before" else around
        suffix = f"_{twin.name}_{next(_serial)}"
        module = sys.modules[__name__]
        namespace = {"__name__": __name__, "functools": functools, "handler": handler,
                     twin.name + "_wrap": twin.wrap, "first": ()}
        code = _SOURCE[kind].format(u=suffix, w=twin.name + "_wrap", h=handler_kind)
        exec(compile(code, __file__, "exec"), namespace)
        for name, value in namespace.items():
            if name.endswith(suffix):  # reachable by reference, as a module's names are
                setattr(module, name, value)
        self.kind = kind
        self.twin = twin
        self.suffix = suffix
        self.wrapped = namespace["wrapped"]
        self.reference = namespace["reference"]
        self.source = namespace["source"]
        self.first = namespace["first"]
        self.handler = handler


def run(kind, callable_, *args, **kwargs):
    """What a call gives, whatever kind of function made it: its result
    (a generator's items, a coroutine's value) or its error."""
    try:
        result = callable_(*args, **kwargs)
        if kind == "generator":
            return "ok", list(result)
        if kind == "coroutine":
            return "ok", asyncio.run(result)
        if kind == "async generator":
            async def drain():
                return [item async for item in result]

            return "ok", asyncio.run(drain())
        return "ok", result
    except TypeError as error:
        return "error", str(error)


def expected_values(made, *args, **kwargs):
    """The values an inspect-based decorator finds, binding at the call:
    frame order, which is signature order here (no *args or **kwargs)."""
    if made.first:  # a method on a class: self (or cls) is in the values
        bound = inspect.signature(made.source).bind(*made.first, *args, **kwargs)
    else:  # a bound method's and a partial's leave out what the call puts first
        bound = inspect.signature(made.reference).bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.arguments.values())


CALLS = [((1,), {}), ((1, 2), {}), ((1,), {"c": 3}), ((1, 10), {}), ((1,), {"b": 10, "c": 1})]


def observe(made):
    """Each call's outcome and the handler's values, against the reference's."""
    out = []
    for args, kwargs in CALLS:
        del made.seen[:]
        got = run(made.kind, made.wrapped, *args, **kwargs)
        want = run(made.kind, made.reference, *args, **kwargs)
        if want[0] == "error":
            if got[0] != "error":  # (messages may name self differently: compared twin to twin)
                raise AssertionError((made.kind, args, kwargs, got, want))
        else:
            assert got == want, (made.kind, args, kwargs)
            assert made.seen == [expected_values(made, *args, **kwargs)], (made.kind, args)
        if got[0] == "error":  # each twin's function has a name of its own
            got = ("error", got[1].replace(made.suffix, ""))
        # each twin's method has an instance (or class) of its own
        seen = [tuple("<first>" if v is made.first[0] else v for v in values)
                for values in made.seen] if made.first else list(made.seen)
        out.append((got, seen))
    out.append(layout_of(made))
    return out


def layout_of(made):
    """``wrapper.layout`` after the calls: the layout of the values the
    handler got, as a binder made when the defaults were last replaced gives
    it (with ``self`` where the values hold it: a wrapper looked up on a
    class or instance)."""
    layout = made.wrapped.layout
    expected = made.expected_layout
    assert layout == expected, (made.kind, layout, expected)
    assert dict(layout.kwdefaults) == dict(expected.kwdefaults), made.kind
    assert len(layout.names) == len(made.seen[-1]) if made.seen else True, made.kind
    return str(layout).replace(made.suffix, "")


def change_defaults(made, step):
    function = made.source
    if step == "replaced":
        function.__defaults__ = (20,)
        function.__kwdefaults__ = {"c": 5}
    elif step == "kwonly replaced":
        function.__kwdefaults__ = {"c": 7}
    elif step == "same objects, new tuple":
        function.__defaults__ = tuple(function.__defaults__)
    elif step == "b required":
        function.__defaults__ = None
    elif step == "restored":
        function.__defaults__ = (10,)
        function.__kwdefaults__ = {"c": 1}
    elif step == "kwonly changed in place":
        function.__kwdefaults__["c"] = 9
    elif step == "kwonly deleted in place":
        del function.__kwdefaults__["c"]
    elif step == "kwonly added in place":
        function.__kwdefaults__["c"] = 4
    if step not in IN_PLACE:  # wrapper.layout: the defaults read again
        made.expected_layout = made.twin.binder(
            made.source if made.first else made.reference).layout


STEPS = ["made", "replaced", "kwonly replaced", "same objects, new tuple", "b required", "restored",
         "kwonly changed in place", "kwonly deleted in place", "kwonly added in place"]
IN_PLACE = {"kwonly changed in place", "kwonly deleted in place", "kwonly added in place"}


@pytest.mark.skipif(not TWINS, reason="no implementation")
@pytest.mark.parametrize("handler_kind", HANDLERS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_twins_bind_with_the_defaults_the_function_has_at_the_call(kind, handler_kind):
    made = [Made(twin, kind, handler_kind) for twin in TWINS]
    for step in STEPS:
        for one in made:
            change_defaults(one, step)
        seen = [observe(one) for one in made]
        assert all(s == seen[0] for s in seen), (kind, step)


@pytest.mark.skipif(not TWINS, reason="no implementation")
@pytest.mark.parametrize("handler_kind", HANDLERS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_twins_answer_inspects_function_kinds_alike(kind, handler_kind):
    for twin in TWINS:
        made = Made(twin, kind, handler_kind)
        wraps_def = functools.wraps(made.reference)(lambda *a, **k: made.reference(*a, **k))
        w = made.wrapped
        assert inspect.iscoroutinefunction(w) is inspect.iscoroutinefunction(made.reference)
        assert inspect.isgeneratorfunction(w) is inspect.isgeneratorfunction(wraps_def) is False
        assert inspect.isasyncgenfunction(w) is inspect.isasyncgenfunction(wraps_def) is False


def pickled(made):
    """'same' where the wrapper loads as what was dumped, with its handler
    still running; 'refused' where dumping raised PicklingError."""
    try:
        data = pickle.dumps(made.wrapped)
    except pickle.PicklingError:
        return "refused"
    loaded = pickle.loads(data)
    same = loaded is made.wrapped or (
        isinstance(loaded, types.MethodType) and isinstance(made.wrapped, types.MethodType)
        and loaded.__func__ is made.wrapped.__func__
    )
    assert same, (made.kind, loaded, made.wrapped)
    del made.seen[:]
    run(made.kind, loaded, 1)
    assert len(made.seen) == 1, made.kind  # the handler ran
    return "same"


@pytest.mark.skipif(not TWINS, reason="no implementation")
@pytest.mark.parametrize("handler_kind", HANDLERS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_twins_pickle_alike_and_load_as_what_was_dumped(kind, handler_kind):
    outcomes = {twin.name: pickled(Made(twin, kind, handler_kind)) for twin in TWINS}
    assert len(set(outcomes.values())) == 1, outcomes
    # A module-level function, method, class- or static method pickles by
    # reference as a function does.
    if kind in ("function", "method", "classmethod", "staticmethod", "stacked", "generator",
                "coroutine", "async generator"):
        assert set(outcomes.values()) == {"same"}


@pytest.mark.skipif(not TWINS, reason="no implementation")
@pytest.mark.parametrize("handler_kind", HANDLERS)
def test_only_the_defaults_a_function_has_are_read_again(handler_kind):
    # A function with positional defaults only, or keyword-only ones only:
    # replacing the ones it has is seen by both twins, as by the function.
    outcomes = []
    for twin in TWINS:
        seen = []

        def handler(*arguments):
            seen.append(arguments[-1])
            return arguments[0](arguments[-1]) if handler_kind == "around" else None

        def positional(a, b=10):
            return a, b

        def keyword(a, *, c=1):
            return a, c

        p = twin.wrap(positional, **{handler_kind: handler})
        k = twin.wrap(keyword, **{handler_kind: handler})
        got = [p(1), k(1)]
        positional.__defaults__ = (20,)
        keyword.__kwdefaults__ = {"c": 5}
        got += [p(1), k(1), p(1, 10), k(1, c=1)]
        assert got == [(1, 10), (1, 1), (1, 20), (1, 5), (1, 10), (1, 1)]
        assert seen == got
        outcomes.append(got)
    assert all(o == outcomes[0] for o in outcomes)


@pytest.mark.skipif(not TWINS, reason="no implementation")
@pytest.mark.parametrize("handler_kind", HANDLERS)
def test_a_default_given_back_by_a_replaced_dict(handler_kind):
    """The documented limit of the pure wrapper (docs/limits.md): a
    keyword-only default deleted in place, then given back by a replaced
    ``__kwdefaults__`` dict, stays required there until a call passes it
    (the interpreter refuses the call to the generated function before its
    code can see the change); the compiled wrapper binds as the function."""
    for twin in TWINS:
        handler = {"before": lambda values: None,
                   "around": lambda proceed, values: proceed(values)}[handler_kind]

        def f(a, *, c=1):
            return a, c

        w = twin.wrap(f, **{handler_kind: handler})
        del f.__kwdefaults__["c"]
        assert run("function", w, 0) == run("function", f, 0)
        f.__kwdefaults__ = {"c": 2}
        if twin.name == "python":
            assert run("function", w, 0)[0] == "error"
            assert w(0, c=3) == f(0, c=3)  # a call that passes it: read again
        assert w(0) == f(0) == (0, 2)


@pytest.mark.parametrize("handler_kind", HANDLERS)
def test_a_kwdefaults_dict_changed_cleared_replaced_and_freed_under_live_wrappers(handler_kind):
    # Where the compiled wrapper keeps the defaults it read until the dict
    # changes (dict watchers, CPython 3.12+), every change reaches every
    # wrapper of the function, a freed wrapper or dict included; each call
    # is compared with the function's own.
    import gc

    def handler_of(seen):
        if handler_kind == "before":
            return {"before": seen.append}
        return {"around": lambda proceed, values: (seen.append(values), proceed(values))[1]}

    for twin in TWINS:
        def g(a, *, k=1, j=[2]):  # noqa: B006 - the default object itself is compared
            return a, k, j

        def outcome(call):
            try:
                return call()
            except TypeError as error:
                return str(error)

        seen = []
        wrappers = [twin.wrap(g, **handler_of(seen)) for _ in range(3)]

        def check():
            for w in wrappers:
                assert outcome(lambda: w(0)) == outcome(lambda: g(0)), twin.name
                assert outcome(lambda: w(0, k=3)) == outcome(lambda: g(0, k=3)), twin.name

        for _ in range(3):  # calls with the defaults as read
            check()
        g.__kwdefaults__["k"] = 10  # changed in place
        check()
        del wrappers[1]  # a wrapper freed while the dict is watched for others
        gc.collect()
        g.__kwdefaults__["j"] = "j"
        check()
        g.__kwdefaults__.clear()  # now required
        check()
        g.__kwdefaults__.update(k=5, j=6)  # given back
        check()
        wrappers.append(twin.wrap(g, **handler_of(seen)))  # made after a change
        check()
        g.__kwdefaults__["k"] = 7
        check()
        old = g.__kwdefaults__
        g.__kwdefaults__ = {"k": 100, "j": 200}  # replaced
        check()
        old["k"] = "old"  # no longer the function's
        check()
        del old
        gc.collect()  # the dict that was replaced is freed
        g.__kwdefaults__["j"] = 300
        check()
        assert seen and all(values[0] == 0 for values in seen)
        del wrappers
        if hasattr(sys, "getrefcount"):
            # Wrappers made, called, their dict changed, and freed, over and
            # over: the function's dict is held no more after than before.
            def churn():
                for i in range(100):
                    w = twin.wrap(g, **handler_of(seen))
                    w(0)
                    if i % 25 == 0:
                        g.__kwdefaults__["k"] = i
                        w(0)
                gc.collect()
                return sys.getrefcount(g.__kwdefaults__)

            assert churn() == churn() == churn(), twin.name


class _Rewriting(str):
    """A keyword whose comparison with a parameter name sets the function's
    ``j`` default (to the one object ``value``) before it answers: a change
    of the dict in the middle of binding, after the keywords' check and
    before the keyword-only defaults are filled."""

    def __new__(cls, name, function, value):
        self = super().__new__(cls, name)
        self.function, self.value = function, value
        return self

    def __eq__(self, other):
        if self.function.__kwdefaults__ is not None:
            self.function.__kwdefaults__["j"] = self.value
        return str.__eq__(self, other)

    __hash__ = str.__hash__


# Changes of a function's keyword-only defaults: in place, by every method of
# dict that changes one (or stores what is there already), and by
# replacing the dict; and wrappers made anew after them.
_KWDEFAULTS_CHANGES = [
    "set k", "set j", "store k again", "del k", "pop j", "popitem", "setdefault k",
    "update", "clear", "|=", "__init__", "replaced", "replaced by a subclass", "new wrappers",
]


@pytest.mark.skipif(not TWINS, reason="no implementation")
@given(changes=st.lists(st.sampled_from(_KWDEFAULTS_CHANGES), max_size=6))
def test_every_change_of_the_kwdefaults_dict_is_seen_at_the_next_call(changes):
    # The compiled wrapper keeps the defaults it read while the dict stays as
    # it was: a dict watcher tells it of a change on CPython 3.12+, the dict's
    # version tag before.  Each call of each wrapper (both twins, both
    # handlers) returns the very objects the function's own call returns,
    # and its handler saw them; a call the function refuses, the wrapper
    # refuses with the same message.
    objects = iter(itertools.count())

    def new():
        return [next(objects)]  # a new object each time: compared by identity

    def g(a, b=2, *, k=1, j=None):
        return a, b, k, j

    g.__kwdefaults__ = {"k": new(), "j": new()}

    def handlers(seen):
        return [{"before": seen.append},
                {"around": lambda proceed, values: (seen.append(values), proceed(values))[1]}]

    def made():
        return [(twin.name, twin.wrap(g, **handler), seen)
                for twin in TWINS for seen in [[]] for handler in handlers(seen)]

    def outcome(call, args, kwargs):  # (no keywords of its own for the __eq__ to see)
        try:
            return call(*args, **kwargs)
        except TypeError as error:
            return str(error)

    def check(wrappers):
        # First a call that passes every keyword-only argument: after a
        # replaced dict, the pure wrapper reads it at the first call that
        # reaches its code (test_a_default_given_back_by_a_replaced_dict).
        # The last changes the dict as the wrapper binds it: the function's
        # call is made after the wrapper's, and changes it alike.
        for args, kwargs in [((0,), {"k": 3, "j": 4}), ((0,), {}), ((0, 1), {}),
                             ((0,), {"k": 3}), ((0, 1), {"j": 4}), ((0,), None)]:
            for name, w, seen in wrappers:
                given = kwargs if kwargs is not None else {_Rewriting("k", g, new()): 5}
                del seen[:]
                got = outcome(w, args, given)
                expected = outcome(g, args, given)
                if isinstance(expected, str):
                    assert got == expected and not seen, (name, changes, args, given)
                else:
                    assert type(got) is tuple and len(seen) == 1, (name, changes, got)
                    assert all(x is y for x, y in zip(got, expected)), (name, changes, got, expected)
                    assert all(x is y for x, y in zip(seen[0], expected)), (name, changes, seen)

    wrappers = made()
    check(wrappers)
    for change in changes:
        d = g.__kwdefaults__
        if change == "new wrappers":  # beside those made before the last ones
            wrappers = wrappers[-4:] + made()
        elif change in ("replaced", "replaced by a subclass"):
            cls = type("D", (dict,), {}) if change == "replaced by a subclass" else dict
            g.__kwdefaults__ = cls(k=new(), j=new())
        elif change == "set k":
            d["k"] = new()
        elif change == "set j":
            d["j"] = new()
        elif change == "store k again":
            if "k" in d:
                d["k"] = d["k"]
        elif change == "del k":
            d.pop("k", None)
        elif change == "pop j":
            d.pop("j", None)
        elif change == "popitem":
            if d:
                d.popitem()
        elif change == "setdefault k":
            d.setdefault("k", new())
        elif change == "update":
            d.update(k=new())
        elif change == "clear":
            d.clear()
        elif change == "|=":
            d |= {"j": new()}
        elif change == "__init__":
            d.__init__(k=new())
        check(wrappers)
