"""Many threads share one binder and one layout; every result is checked.

A binder holds no per-call state, so concurrent calls through every entry
point must each get exactly the interpreter's answer.  The switch interval is
made tiny so that threads interleave inside the binding as often as they can.
"""

import random
import sys
import threading

import pytest

from oracle import interpreter_vectorcall, make_function, outcome, same_object_tree
from posonly import Layout

THREADS = 8
CALLS_PER_THREAD = 1500


class Str(str):
    """A keyword name whose comparison runs Python code (a switch point)."""

    def __eq__(self, other):
        return str.__eq__(self, other)

    __hash__ = str.__hash__


LAYOUT = Layout(
    name="shared", posonly=("a", "b"), positional=("c", "d"), varargs="rest",
    kwonly=("e", "g"), varkw="extra", defaults=(object(),), kwdefaults={"g": object()},
)
STRICT = Layout.parse("a, /, b, c=3, *, d", name="strict")


def make_calls(layout, rng, count):
    names = list(layout.names) + ["zz", "e2"]
    calls = []
    for i in range(count):
        args = tuple(object() for _ in range(rng.randint(0, layout.argcount + 2)))
        keywords = {}
        for name in rng.sample(names, rng.randint(0, 4)):
            spelled = rng.choice([name, "".join(list(name)), Str(name)])
            keywords[spelled] = object()
        calls.append((args, keywords))
    return calls


def expected_outcomes(layout, calls):
    func = make_function(layout)
    return [outcome(lambda: func(*args, **kw)) for args, kw in calls]


def same(got, expected):
    if expected[0] == "ok":
        return got[0] == "ok" and same_object_tree(got[1], expected[1])
    return got == expected


def run_in_threads(worker):
    """``worker(seed)`` in THREADS threads at once, seeds 0 to THREADS - 1."""
    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@pytest.fixture
def busy_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


@pytest.mark.parametrize("layout", [LAYOUT, STRICT], ids=["star", "strict"])
def test_threads_share_one_binder(impl, layout, busy_switching):
    bind = impl.binder(layout)
    func = make_function(layout)
    rng = random.Random(5)
    calls = make_calls(layout, rng, 200)
    expected = expected_outcomes(layout, calls)
    entry_points = [
        lambda a, k: bind(*a, **k),
        lambda a, k: bind.bind(a, k),
        lambda a, k: bind.vectorcall(a + tuple(k.values()), tuple(k)),
        lambda a, k: interpreter_vectorcall(bind, a + tuple(k.values()), tuple(k)),
    ]
    failures = []
    barrier = threading.Barrier(THREADS)

    def worker(seed):
        local = random.Random(seed)
        barrier.wait()
        for _ in range(CALLS_PER_THREAD):
            i = local.randrange(len(calls))
            args, kw = calls[i]
            entry = local.randrange(len(entry_points))
            got = outcome(lambda: entry_points[entry](args, kw))
            if not same(got, expected[i]):
                failures.append((i, entry, got, expected[i]))
            if expected[i][0] == "ok" and local.random() < 0.1:
                if not same(outcome(lambda: bind.apply(func, got[1])), expected[i]):
                    failures.append((i, "apply", got))

    run_in_threads(worker)
    assert not failures, failures[:5]


def test_threads_share_one_layout_and_make_binders(impl, busy_switching):
    """Layouts are analysed, hashed, compared and turned into binders from
    many threads at once; each thread's binders answer right."""
    func = make_function(LAYOUT)
    failures = []
    barrier = threading.Barrier(THREADS)
    reference = Layout.from_callable(func)

    def worker(seed):
        local = random.Random(seed)
        barrier.wait()
        for _ in range(60):
            layout = Layout.from_callable(func)
            if layout != reference or hash(layout) != hash(reference):
                failures.append(("layout", layout))
            bind = impl.binder(LAYOUT if local.random() < 0.5 else layout)
            args = tuple(range(local.randint(2, 6)))
            got = outcome(lambda: bind(*args, e=seed))
            expected = outcome(lambda: func(*args, e=seed))
            if not same(got, expected):
                failures.append((args, got, expected))
            got = outcome(lambda: bind.partial(*args[:1]))
            if got[0] != "ok" or got[1][0] is not args[0]:
                failures.append(("partial", got))

    run_in_threads(worker)
    assert not failures, failures[:5]


def test_threads_share_one_bound_method_binder(impl, busy_switching):
    owner = type("Owner", (), {"method": make_function(STRICT)})()
    method = owner.method
    bind = impl.binder(method)
    failures = []

    def worker(seed):
        for i in range(300):
            args = (seed, i)[: i % 3]
            got = outcome(lambda: bind(*args, d=i))
            expected = outcome(lambda: method(*args, d=i))
            if expected[0] == "ok":
                expected = ("ok", expected[1][1:])
            if got[0] != expected[0] or (got[0] == "ok" and got[1] != expected[1]) or (
                got[0] == "error" and got != expected
            ):
                failures.append((args, got, expected))

    run_in_threads(worker)
    assert not failures, failures[:5]


def test_threads_share_the_patched_inspect_and_its_cache(busy_switching):
    """Threads binding many signatures through the patched inspect at once;
    every answer must be inspect's own."""
    import inspect

    import posonly

    inspect_bind = inspect.Signature.bind
    P = inspect.Parameter
    signatures = [
        inspect.Signature([P(f"p{i}", P.POSITIONAL_ONLY), P("q", P.KEYWORD_ONLY, default=i)])
        for i in range(40)
    ]
    errors = []

    def work(seed):
        rng = random.Random(seed)
        try:
            for _ in range(600):
                sig = rng.choice(signatures)
                if rng.random() < 0.5:
                    got, expected = sig.bind(1, q=2), inspect_bind(sig, 1, q=2)
                    assert got == expected and list(got.arguments) == list(expected.arguments)
                else:
                    assert outcome(lambda: sig.bind(q=2)) == outcome(lambda: inspect_bind(sig, q=2))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    posonly.patch_inspect(maxsize=8)
    try:
        run_in_threads(work)
        from posonly import _inspect

        assert inspect.Signature.bind is _inspect.bind  # the patch was in use
    finally:
        posonly.unpatch_inspect()
    assert not errors, errors[:3]
    assert inspect.Signature.bind is inspect_bind
