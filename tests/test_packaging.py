"""The distributions, built and installed as a user would.

``python -m build --sdist`` on a copy of the working tree; the sdist must hold
the Cython source and ``py.typed`` and none of the generated C, the annotated
HTML or a built module.  Installing it into a fresh venv builds the extension
(a wheel with the compiled module and ``py.typed``); installing it with no
working C compiler (``CC=false``) still succeeds, after a real attempt, and
gives the pure-Python twin.

Slow (builds and venvs), so it runs only when ``POSONLY_PACKAGING_TESTS=1``,
or under ``CI=true`` unless ``POSONLY_PACKAGING_TESTS=0``.  It runs on the
interpreter that runs the tests.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest


def _enabled():
    flag = os.environ.get("POSONLY_PACKAGING_TESTS", "").lower()
    if flag:
        return flag in ("1", "true", "yes")
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


pytestmark = [
    pytest.mark.packaging,
    pytest.mark.skipif(
        not _enabled(), reason="slow: set POSONLY_PACKAGING_TESTS=1 (on by default under CI=true)"
    ),
]

ROOT = Path(__file__).resolve().parent.parent
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venvs", ".nox", ".tox", "build", "dist", "*.egg-info", "__pycache__",
    ".hypothesis", ".pytest_cache", ".benchmarks", ".mypy_cache",
)
# Run as a user would: a switch of the test run must not reach the builds.
NOT_INHERITED = (
    "CI", "POSONLY_REQUIRE_EXTENSION", "POSONLY_PURE_PYTHON", "POSONLY_DEBUG_BUILD",
    "POSONLY_SANITIZE", "POSONLY_ANNOTATE", "PYTHONPATH", "PYTHONWARNINGS", "PYTHONDEVMODE",
    "VIRTUAL_ENV",
)
CHECK_INSTALL = """\
import posonly
def f(a, /, b=2, *, c):
    pass
assert posonly.binder(f)(1, c=3) == (1, 2, 3)
print(posonly.IMPLEMENTATION, posonly.__version__, posonly.__file__)
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("packaging")


@pytest.fixture(scope="module")
def env(workdir):
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    # A cache of its own, so no wheel built by an earlier install is reused.
    env["PIP_CACHE_DIR"] = str(workdir / "pip-cache")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(command, env, cwd, timeout=240):
    result = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=timeout,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{output}"
    return output


@pytest.fixture(scope="module")
def sdist(workdir, env):
    source = workdir / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    # Leftovers of an in-place build, which must not reach the sdist.
    package = source / "src" / "posonly"
    (package / "_bind.html").write_text("<html></html>")
    (package / f"_bind{EXT_SUFFIX}").write_bytes(b"")
    _run([sys.executable, "-m", "build", "--sdist", "--outdir", workdir / "dist", source], env, workdir)
    (built,) = (workdir / "dist").glob("posonly-*.tar.gz")
    return built


def _fresh_venv(path, env):
    _run([sys.executable, "-m", "venv", path], env, path.parent)
    return path / "bin" / "python"


def _check_install(python, env, workdir):
    return _run([python, "-c", CHECK_INSTALL], env, workdir).split()


def test_sdist_holds_the_cython_source_and_nothing_generated(sdist):
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for wanted in ("src/posonly/_bind.pyx", "src/posonly/_bind_py.py", "src/posonly/py.typed",
                   "src/posonly/__init__.py", "setup.py", "pyproject.toml", "MANIFEST.in"):
        assert wanted in names
    generated = [n for n in names if re.search(r"\.(c|html|so|pyd)$", n)]
    assert generated == []


def test_sdist_builds_the_extension_in_a_fresh_venv(sdist, workdir, env):
    python = _fresh_venv(workdir / "venv-compiled", env)
    wheels = workdir / "wheels"
    _run([python, "-m", "pip", "wheel", "--no-deps", "-w", wheels, sdist], env, workdir)
    (wheel,) = wheels.glob("posonly-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert f"posonly/_bind{EXT_SUFFIX}" in names
    assert "posonly/py.typed" in names
    assert not [n for n in names if n.endswith((".c", ".html"))]
    _run([python, "-m", "pip", "install", "--no-deps", wheel], env, workdir)
    implementation, version, location = _check_install(python, env, workdir)
    assert implementation == "cython"
    assert sdist.name == f"posonly-{version}.tar.gz"
    assert location.startswith(str(workdir / "venv-compiled"))


def test_sdist_without_a_compiler_installs_the_pure_twin(sdist, workdir, env):
    python = _fresh_venv(workdir / "venv-no-compiler", env)
    output = _run(
        [python, "-m", "pip", "install", "-v", "--no-deps", sdist], dict(env, CC="false"), workdir
    )
    # The build really tried the compiler, and fell back when it failed.
    assert "building 'posonly._bind' extension" in output
    assert re.search(r"^\s*false .*_bind\.c", output, re.MULTILINE), output
    assert 'building extension "posonly._bind" failed' in output
    assert "Cython is not available" not in output
    implementation, _, location = _check_install(python, env, workdir)
    assert implementation == "python"
    assert location.startswith(str(workdir / "venv-no-compiler"))
    assert not list(Path(location).parent.glob("_bind*.so"))
