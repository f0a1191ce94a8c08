"""``mypy --strict`` and pyright on the recipes and on ``tests/typing_check.py``,
and ``mypy --strict`` on the package itself and the tests' helpers.

The configuration is ``[tool.mypy]`` in ``pyproject.toml``: the package is
read from ``src/``, so the types checked are the working tree's.  A file of
deliberate mistakes is checked in the same run, to prove the public API is
typed (an ``Any`` would let every mistake through).
"""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import extension_required

ROOT = Path(__file__).resolve().parent.parent

MISTAKES = textwrap.dedent(
    """\
    import posonly
    from posonly import Layout, binder

    def f(a: int, /, b: int = 2) -> int:
        return a + b

    bind = binder(f)
    count: int = bind(1)
    bind.no_such_method()
    names: list[str] = bind.arguments(1)
    Layout.parse(3)
    pure: bool = posonly.IMPLEMENTATION
    binder(f, 1)
    posonly.wrap(f, before=1)
    posonly.wrap(f, after=print)
    posonly.wrap(f, before=print)("x")
    posonly.wrap(f, before=print)(1, 2, 3)
    text: str = posonly.wrap(f, before=print)(1)
    posonly.Wrapper(f, before=print)(1, bogus=1)
    bind(1, 2, 3)
    bind.arguments(b=2)
    missing: int = posonly.MISSING
    from typing import Any, Callable, TypeVar
    from typing_extensions import ParamSpec
    P = ParamSpec("P")
    R = TypeVar("R")
    def deco(func: Callable[P, R]) -> posonly.Wrapper[P, R]:
        return posonly.wrap(func, before=print)
    class K:
        @deco
        def m(self, x: int) -> int: return x
        @classmethod
        @deco
        def c(cls, x: int) -> int: return x
        @staticmethod
        @deco
        def s(x: int) -> int: return x
    K().m("x")
    K().m(1, 2)
    K.m(K(), "x")
    K.c("x")
    K().c(x="x")
    K().s("x")
    K.s(1, 2)
    text2: str = K().m(1)
    async def co(n: int) -> str: return ""
    async def around(proceed: Callable[[tuple[Any, ...]], Any], values: tuple[Any, ...]) -> str:
        return ""
    async_wrapper = posonly.wrap(co, around=around)
    pending = async_wrapper("x")
    layout = bind.layout
    layout.replace((1,), 2)
    count2: int = layout.arguments((1, 2))
    reveal_type(posonly.wrap(f, before=print))
    reveal_type(binder(f))
    reveal_type(K().m)
    @posonly.migrate(positional_only=("a",), keyword_only=("c",), renamed={"old": "b"})
    def mig(a: int, /, b: int = 0, *, c: int = 0) -> int: return a
    mig(a=1)
    mig(1, 2, 3)
    mig(1, old=2)
    text3: str = mig(1)
    reveal_type(mig)
    posonly.migrate(f, positional_only="a", removal=3)
    def one(values: tuple[Any, ...]) -> None: ...
    def two(values: tuple[Any, ...], form: posonly.CallForm) -> None: ...
    posonly.wrap(f, before=one, form=True)
    posonly.wrap(f, before=two)
    posonly.wrap(f, before=two, form=True)("x")
    posonly.Wrapper(f, before=one, form=True)
    """
)
# Calls through methods (instance, class and static) and an async handler:
# each wrong call is caught, the async around= handler accepted (line 49).
MISTAKE_LINES = {8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22} | {
    38, 39, 40, 41, 42, 43, 44, 45, 50, 52, 53,
} | {59, 60, 61, 62, 64} | {67, 68, 69, 70}
REVEALED = {54: "posonly.Wrapper[", 55: "posonly.Binder[", 56: "def (x: int) -> int",
            63: "def (int, b: int =, *, c: int =) -> int"}


def _mypy_available() -> bool:
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory, request):
    if not _mypy_available():
        if extension_required() and sys.implementation.name == "cpython":
            pytest.fail("mypy is not installed (pip install -r requirements-test.txt)")
        pytest.skip("mypy is not installed (nor installable on PyPy)")
    mistakes = tmp_path_factory.mktemp("typing") / "typing_mistakes.py"
    mistakes.write_text(MISTAKES)
    # mypy's cache lives in pytest's (one mypy run takes seconds when warm).
    cache_provider = getattr(request.config, "cache", None)
    if cache_provider is not None:
        cache = cache_provider.mkdir("mypy")
    else:
        cache = tmp_path_factory.mktemp("mypy-cache")
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONWARNINGS")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache),
         "--no-error-summary", "--show-error-codes",
         "examples", "tests/typing_check.py", str(mistakes)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    if result.returncode not in (0, 1) or "Traceback" in result.stderr:
        pytest.fail(f"mypy crashed:\n{result.stdout}\n{result.stderr}")
    return mistakes.name, result.stdout


def _errors(output, keep):
    found = []
    for line in output.splitlines():
        match = re.match(r"(.+?):(\d+): error: ", line)
        if match and keep(Path(match.group(1)).name):
            found.append((Path(match.group(1)).name, int(match.group(2)), line))
    return found


def test_recipes_and_typing_check_pass_mypy_strict(mypy_output):
    mistakes_name, output = mypy_output
    errors = _errors(output, lambda name: name != mistakes_name)
    assert not errors, output


def test_mypy_catches_every_misuse_of_the_public_api(mypy_output):
    mistakes_name, output = mypy_output
    errors = _errors(output, lambda name: name == mistakes_name)
    assert {line for _, line, _ in errors} == MISTAKE_LINES, output


def test_revealed_types_have_public_names(mypy_output):
    mistakes_name, output = mypy_output
    revealed = {}
    for line in output.splitlines():
        match = re.match(r"(.+?):(\d+): note: Revealed type is \"(.*)\"", line)
        if match and Path(match.group(1)).name == mistakes_name:
            revealed[int(match.group(2))] = match.group(3)
    assert set(revealed) == set(REVEALED), output
    for line, start in REVEALED.items():
        shown = revealed[line].replace("builtins.", "")  # older mypy qualifies builtins
        assert shown.startswith(start) and "._" not in shown, revealed[line]


# The package's own code and the tests' helpers, checked on one CPython: the
# code is the same on every one, and the releases of mypy that older
# interpreters get word some checks differently.
PACKAGE_CHECK_INTERPRETER = (3, 13)
HELPERS = ["tests/conftest.py", "tests/calls.py", "tests/oracle.py"]


def test_the_package_and_the_tests_helpers_pass_mypy_strict():
    if sys.implementation.name != "cpython" or sys.version_info[:2] != PACKAGE_CHECK_INTERPRETER:
        pytest.skip("the package is type-checked on CPython 3.13")
    if not (ROOT / "src" / "posonly").is_dir():
        pytest.skip("no source tree here (the tests run from a wheel's copy)")
    if not _mypy_available():
        pytest.fail("mypy is not installed (pip install -r requirements-test.txt)")
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONWARNINGS")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes",
         "src/posonly", *HELPERS],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_typing_check_holds_at_run_time(impl, monkeypatch):
    import typing_check

    monkeypatch.setattr(typing_check, "binder", impl.binder)
    typing_check.check()


# pyright, where it is installed (requirements-test.txt installs it for one
# CPython, with its own node): the same files must check clean and the same
# mistakes be caught.

PYRIGHT_INTERPRETER = (3, 13)  # the one requirements-test.txt installs it for


@pytest.fixture(scope="module")
def pyright_output(tmp_path_factory):
    try:
        import pyright  # noqa: F401
    except ImportError:
        if (extension_required() and sys.implementation.name == "cpython"
                and sys.version_info[:2] == PYRIGHT_INTERPRETER):
            pytest.fail("pyright is not installed (pip install -r requirements-test.txt)")
        pytest.skip("pyright is not installed here (requirements-test.txt installs it on 3.13)")
    folder = tmp_path_factory.mktemp("pyright")
    mistakes = folder / "typing_mistakes.py"
    mistakes.write_text(MISTAKES)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable,
         "examples", "tests/typing_check.py", str(mistakes)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    # 0: no errors, 1: errors found; anything else is pyright failing to run.
    if result.returncode not in (0, 1):
        pytest.fail(f"pyright did not run:\n{result.stdout}\n{result.stderr}")
    return mistakes.name, result.stdout


def _pyright_errors(output, keep):
    found = set()
    for line in output.splitlines():
        match = re.match(r"\s*(.+?):(\d+):\d+ - error: ", line)
        if match and keep(Path(match.group(1)).name):
            found.add(int(match.group(2)))
    return found


def test_recipes_and_typing_check_pass_pyright(pyright_output):
    mistakes_name, output = pyright_output
    assert not _pyright_errors(output, lambda name: name != mistakes_name), output


def test_pyright_catches_every_misuse_of_the_public_api(pyright_output):
    mistakes_name, output = pyright_output
    assert _pyright_errors(output, lambda name: name == mistakes_name) == MISTAKE_LINES, output
