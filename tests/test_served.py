"""``posonly.record_served()``: what the drop-in served, and ``python -m
posonly run``.  Counts are checked against the calls the test itself makes
(each one's line read from its own frame), reasons against what inspect's
own code would have to do for the object."""

import functools
import inspect
import os
import subprocess
import sys
import textwrap
import types

import pytest

import posonly
from posonly import _inspect, _options
from posonly._dialect import FALLBACK_REASONS


@pytest.fixture
def patch():
    posonly.patch_inspect()
    try:
        yield
    finally:
        posonly.unpatch_inspect()


def here():
    """``file:line`` of the caller's line."""
    frame = sys._getframe(1)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def plain(a, b=2, *, c=3):
    pass


@functools.wraps(plain)
def wrapper(*args, **kwargs):
    return plain(*args, **kwargs)


class Klass:
    def __init__(self, x):
        pass

    def method(self, y):
        pass


@functools.wraps(len)
def wraps_a_builtin(*args, **kwargs):
    return len(*args, **kwargs)


class Made(type):
    def __call__(cls, z):
        return super().__call__()

    def __getattr__(cls, name):  # attributes read its own way: inspect's code reads them
        raise AttributeError(name)


class Metaclassed(metaclass=Made):
    pass


class Partial(functools.partial):
    pass


# Classes are served where the running inspect answered the drop-in's probes
# as it does (not on PyPy, whose object.__new__ is a staticmethod).
CLASS_REASON = None if _options._KINDS[2] else "class"
CALLABLES = [
    (plain, None), (wrapper, None), (Klass, CLASS_REASON), (Klass(1).method, None),
    (functools.partial(plain, 1), None),
    (wraps_a_builtin, "wrapped"), (Metaclassed, "class"), (types.MethodType(len, []), "method"),
    (Partial(plain, 1), "partial"), (len, None if _options._KINDS[6] else "builtin"),
    (list.index, _options.why_not(inspect.Signature, list.index)),
]
SERVED = sum(reason is None for _, reason in CALLABLES)


def test_off_by_default_and_off_again():
    assert _inspect._core.get_observer() is None
    with posonly.record_served() as served:
        assert _inspect._core.get_observer() is not None and served.recording
    assert _inspect._core.get_observer() is None
    assert not served.recording


@pytest.mark.parametrize("target, reason", CALLABLES)
def test_each_call_counted_with_its_reason_and_caller(patch, target, reason):
    with posonly.record_served() as served:
        inspect.signature(target); line = here()  # noqa: E702 - one line: the caller's
    entry = {("inspect.signature", reason, line): 1}
    calls = {(e, r, c): n for (c, e, r), n in served.by_caller().items() if e == "inspect.signature"}
    assert calls == entry
    assert served.by_entry()["inspect.signature"] == ((1, 0) if reason is None else (0, 1))
    assert served.by_reason() == ({} if reason is None else {reason: 1})
    assert reason is None or reason in FALLBACK_REASONS


def test_bind_and_friends_counted(patch):
    sig = inspect.signature(plain)
    with posonly.record_served() as served:
        for i in range(7):
            bound = sig.bind(i)
            bound.apply_defaults()
            sig.bind_partial()
        inspect.Signature.from_callable(plain)
        posonly.signature(plain)
        inspect.getfullargspec(plain)
        inspect.getcallargs(plain, 1)
        inspect.getfullargspec(Klass)
        inspect.getfullargspec(Metaclassed)
    assert served.by_entry() == {
        "Signature.bind": (7, 0), "BoundArguments.apply_defaults": (7, 0),
        "Signature.bind_partial": (7, 0), "Signature.from_callable": (1, 0),
        "posonly.signature": (1, 0),
        "inspect.getfullargspec": (2, 1) if CLASS_REASON is None else (1, 2),
        "inspect.getcallargs": (1, 0),
    }
    assert served.served + served.fell_back == 27


def test_a_signature_subclass_reported(patch):
    class Mine(inspect.Signature):
        def _bind(self, args, kwargs, *, partial=False):
            return super()._bind(args, kwargs, partial=partial)

    sig = Mine.from_callable(plain)
    with posonly.record_served() as served:
        sig.bind(1)
    assert served.by_reason() == {"signature-subclass": 1}


def test_records_overlap_and_restart(patch):
    outer = posonly.record_served().start()
    with posonly.record_served() as inner:
        inspect.signature(plain)
    inspect.signature(plain)
    outer.stop()
    inspect.signature(plain)
    assert (inner.served, outer.served) == (1, 2)
    outer.start()
    inspect.signature(plain)
    outer.stop()
    assert outer.served == 3
    outer.clear()
    assert outer.served == 0 and _inspect._core.get_observer() is None


def test_a_call_inside_inspect_is_put_down_to_its_caller(patch):
    # inspect's getcallargs calls getfullargspec: patched, it is ours, whose
    # caller is inspect's; the report names the line that called inspect.
    original = _options._INSPECT_GETCALLARGS
    with posonly.record_served() as served:
        original(plain, 1); line = here()  # noqa: E702
    assert list(served.by_caller()) == [(line, "inspect.getfullargspec", None)]


def test_inspects_own_calls_inside_a_call_are_not_counted(patch):
    """Each call counted once, however often inspect's own code calls an
    entry point to answer it; the same calls in a loop, each time."""
    calls = [(inspect.signature, functools.partial(plain, 1)), (inspect.signature, Klass),
             (inspect.signature, wrapper), (inspect.getfullargspec, Klass),
             (inspect.getcallargs, Klass(1).method, 2)]
    for entry, *args in calls:
        with posonly.record_served() as served:
            for _ in range(3):
                entry(*args); line = here()  # noqa: E702
        counted = served.by_caller()
        assert sum(counted.values()) == 3, counted
        assert {where for where, _, _ in counted} == {line}
    original = _options._INSPECT_GETCALLARGS  # inspect's own, not an entry point
    with posonly.record_served() as served:
        for _ in range(2):
            original(plain, 1); line = here()  # noqa: E702
    assert served.by_caller() == {(line, "inspect.getfullargspec", None): 2}


def test_report_reads(patch):
    with posonly.record_served() as served:
        for target, _ in CALLABLES:
            inspect.signature(target)
    text = served.report()
    # inspect's own code for a partial binds it partially (patched, ours):
    # part of the call the test made, not counted apart.
    assert served.by_entry() == {"inspect.signature": (SERVED, len(CALLABLES) - SERVED)}
    assert text.startswith(f"posonly served {SERVED} of {len(CALLABLES)} calls")
    for _, reason in CALLABLES:
        if reason is not None:
            assert f"{reason}: {FALLBACK_REASONS[reason]}" in text
    assert os.path.basename(__file__) in text
    nothing = posonly.record_served().report()
    assert "served nothing" in nothing and "is inspect patched?" not in nothing
    posonly.unpatch_inspect()
    assert "is inspect patched? posonly.patch_inspect()" in posonly.record_served().report()
    assert repr(served).startswith(f"<posonly.Served stopped: {SERVED} served")


# -- python -m posonly run -----------------------------------------------------

PROGRAM = textwrap.dedent("""\
    import inspect, sys, functools
    import posonly
    def f(a, b=1):
        pass
    for i in range(3):
        inspect.signature(f).bind(i)
    inspect.signature(list.index)
    print("name", __name__)
    print("argv", sys.argv)
    print("path0", sys.path[0])
    print("patched", inspect.signature is not posonly._inspect._INSPECT_SIGNATURE)
    sys.exit(int(sys.argv[-1]))
""")


def run(args, cwd):
    return subprocess.run([sys.executable, "-m", "posonly", "run", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def lines(stdout):
    return dict(line.split(" ", 1) for line in stdout.splitlines())


def test_run_a_script(tmp_path):
    (tmp_path / "sub").mkdir()
    script = tmp_path / "sub" / "prog.py"
    script.write_text(PROGRAM)
    done = run(["--report", "sub/prog.py", "x", "--flag", "3"], tmp_path)
    assert done.returncode == 3, done.stderr
    seen = lines(done.stdout)
    assert seen == {"name": "__main__", "argv": repr(["sub/prog.py", "x", "--flag", "3"]),
                    "path0": str(script.parent), "patched": "True"}
    assert "posonly served 6 of 7 calls" in done.stderr
    reason = _options.why_not(inspect.Signature, list.index)
    assert f"sub/prog.py:7  inspect.signature  [{reason}]" in done.stderr
    quiet = run(["sub/prog.py", "0"], tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_run_a_module(tmp_path):
    (tmp_path / "prog.py").write_text(PROGRAM)
    done = run(["--report", "-m", "prog", "-q", "0"], tmp_path)
    assert done.returncode == 0, done.stderr
    seen = lines(done.stdout)
    assert seen["name"] == "__main__"
    assert seen["argv"] == repr([str(tmp_path / "prog.py"), "-q", "0"])
    assert seen["path0"] == str(tmp_path)
    assert "posonly served 6 of 7 calls" in done.stderr


def test_run_reports_errors_as_python_does(tmp_path):
    (tmp_path / "bad.py").write_text("def g():\n    raise KeyError('boom')\ng()\n")
    done = run(["bad.py"], tmp_path)
    plain = subprocess.run([sys.executable, "bad.py"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60)
    assert done.returncode == plain.returncode == 1
    assert done.stderr == plain.stderr
    assert run(["--nope", "bad.py"], tmp_path).returncode == 2
    assert run(["missing.py"], tmp_path).returncode == 2
    assert run([], tmp_path).returncode == 2


def test_run_help_is_plain_text(tmp_path):
    done = run(["--help"], tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: python -m posonly run ")
    for markup in ("``", ":class:", ":func:", ":mod:"):
        assert markup not in done.stdout


def _python_m(module, cwd):
    return subprocess.run([sys.executable, "-m", module], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize("module", ["no_such_module_here", "pkg", "pkg.missing"])
def test_run_a_module_not_found_as_python_m_says_it(tmp_path, module):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    plain = _python_m(module, tmp_path)
    message = plain.stderr.split(": ", 1)[1]  # python's own, after its executable's name
    for args in (["-m", module], ["--report", "-m", module]):
        done = run(args, tmp_path)
        assert done.returncode == plain.returncode != 0
        assert done.stderr == f"posonly run: {message}"
        assert done.stdout == ""


def test_run_a_module_whose_import_fails_shows_the_traceback(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("import no_such_module_here\n")
    (tmp_path / "pkg" / "tool.py").write_text("")
    done = run(["-m", "pkg.tool"], tmp_path)
    plain = _python_m("pkg.tool", tmp_path)
    assert done.returncode == plain.returncode == 1
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert done.stderr.splitlines()[-1] == plain.stderr.splitlines()[-1]


def test_run_errors_are_one_line(tmp_path):
    for args in ([], ["--nope", "x.py"], ["-m"], ["missing.py"]):
        done = run(args, tmp_path)
        assert done.returncode == 2
        assert done.stderr.startswith("posonly run: ") and done.stderr.count("\n") == 1
