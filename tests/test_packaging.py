"""The distributions, built and installed as a user would.

``python -m build --sdist`` on a copy of the working tree; the sdist must hold
the Cython source and ``py.typed`` and none of the generated C, the annotated
HTML or a built module.  Installing it with no working C compiler
(``CC=false``) still succeeds, after a real attempt, and gives the pure-Python
twin, also where the generic ``CI=true`` is set (only ``POSONLY_*`` switches
change the build).

The release artifacts in ``dist/`` (``bash scripts/dist.sh``, which
scripts/test.sh runs first; ``POSONLY_DIST_DIR`` names another folder): one
sdist, one pure ``py3-none-any`` wheel, and binary wheels whose manylinux tag
is the lowest their symbols allow, each holding the compiled module.  A fresh
venv with no compiler, given the folder, installs the binary wheel (pip
prefers it to the pure one and to the sdist) and comes up compiled; given
the pure wheel alone it comes up pure.  (scripts/test-interpreter.sh installs
the wheels into every interpreter's venv and runs the suite on them.)

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
    for wanted in ("src/posonly/_bind.pyx", "src/posonly/_binder.pxi", "src/posonly/_binder.h",
                   "src/posonly/_bind_py.py", "src/posonly/py.typed",
                   "src/posonly/bench/_floor.pyx", "src/posonly/bench/_floor.h",
                   "src/posonly/__init__.py", "setup.py", "pyproject.toml", "MANIFEST.in"):
        assert wanted in names
    generated = [n for n in names if re.search(r"\.(c|html|so|pyd)$", n)]
    assert generated == []


def test_sdist_without_a_compiler_installs_the_pure_twin(sdist, workdir, env):
    python = _fresh_venv(workdir / "venv-no-compiler", env)
    # CI=true, as every hosted CI sets it, changes nothing: the build still
    # falls back to the pure twin.
    output = _run(
        [python, "-m", "pip", "install", "-v", "--no-deps", sdist],
        dict(env, CC="false", CI="true"), workdir,
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


# -- the release artifacts of scripts/dist.sh --------------------------------------

DIST = Path(os.environ.get("POSONLY_DIST_DIR") or ROOT / "dist")
CP_TAG = f"cp{sys.version_info[0]}{sys.version_info[1]}"
# The manylinux policies and the glibc each allows, oldest first.
MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def _wheel_tags(path):
    # name-version-python-abi-platform.whl; the platform part may hold several.
    _, _, python, abi, platforms = path.name[: -len(".whl")].split("-")
    return python, abi, platforms.split(".")


@pytest.fixture(scope="module")
def artifacts():
    sdists = sorted(DIST.glob("posonly-*.tar.gz"))
    wheels = sorted(DIST.glob("posonly-*.whl"))
    assert sdists and wheels, f"no release artifacts in {DIST}: run bash scripts/dist.sh"
    return sdists, wheels


def test_dist_holds_one_sdist_one_pure_wheel_and_a_binary_wheel_per_cpython(artifacts):
    sdists, wheels = artifacts
    assert len(sdists) == 1
    version = sdists[0].name[len("posonly-"):-len(".tar.gz")]
    assert version == posonly_version()
    assert all(w.name.startswith(f"posonly-{version}-") for w in wheels)
    pure = [w for w in wheels if _wheel_tags(w) == ("py3", "none", ["any"])]
    binary = [w for w in wheels if w not in pure]
    assert len(pure) == 1
    pythons = sorted(_wheel_tags(w)[0] for w in binary)
    assert len(pythons) == len(set(pythons))  # one per CPython
    assert CP_TAG in pythons  # this interpreter's, at least
    # scripts/test.sh names the CPythons it tests, whose wheels must be here
    # (under CI, the whole matrix, 3.9 to 3.15); dist/ may keep others.
    expected = os.environ.get("POSONLY_DIST_PYTHONS")
    if expected:
        assert {"cp" + v.replace(".", "") for v in expected.split(",")} <= set(pythons)
    assert set(pythons) <= {f"cp3{minor}" for minor in range(9, 16)}
    with zipfile.ZipFile(pure[0]) as archive:
        names = archive.namelist()
        assert "Root-Is-Purelib: true" in archive.read(f"posonly-{version}.dist-info/WHEEL").decode()
    assert "posonly/py.typed" in names and "posonly/_bind_py.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".html"))]


def _glibc_versions(shared_object):
    """The GLIBC_x.y versions a shared object's dynamic symbols require."""
    output = subprocess.run(["objdump", "-T", str(shared_object)], capture_output=True,
                            text=True, check=True).stdout
    return {tuple(map(int, v.split("."))) for v in re.findall(r"\bGLIBC_([0-9.]+)\b", output)}


@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) reads the symbols")
def test_each_binary_wheel_holds_its_modules_and_the_lowest_manylinux_tag(artifacts, tmp_path):
    _, wheels = artifacts
    for wheel in wheels:
        python, abi, platforms = _wheel_tags(wheel)
        if python == "py3":
            continue
        assert abi == python and re.fullmatch(r"cp3\d+", python), wheel.name
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            # The binder, the drop-in's options path, the bench's floor.
            modules = sorted(n for n in names if n.endswith(".so"))
            assert [m.split(".")[0] for m in modules] == [
                "posonly/_bind", "posonly/_options", "posonly/bench/_floor"], modules
            for module in modules:
                assert f".cpython-{python[2:]}-" in module, module
            assert "posonly/_options.py" in names  # its source, as the pure wheel has it
            assert "posonly/py.typed" in names
            assert not [n for n in names if n.endswith((".c", ".html"))]
            assert "Root-Is-Purelib: false" in archive.read(
                next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
            for module in modules:
                archive.extract(module, tmp_path / wheel.name)
        needed = max(max(_glibc_versions(tmp_path / wheel.name / module)) for module in modules)
        glibc = set()
        for platform in platforms:
            legacy = re.fullmatch(r"(manylinux\d+)_x86_64", platform)
            modern = re.fullmatch(r"manylinux_(\d+)_(\d+)_x86_64", platform)
            assert legacy or modern, platform
            glibc.add(MANYLINUX[legacy.group(1)] if legacy else (int(modern[1]), int(modern[2])))
        # Every tag of a wheel names the same policy; it allows the newest
        # symbol the module needs, and the policy before it would not.
        (allowed,) = glibc
        assert needed <= allowed
        older = [g for g in MANYLINUX.values() if g < allowed]
        assert not older or needed > max(older), (wheel.name, needed)


def _pip_install(python, arguments, env, workdir):
    return _run([python, "-m", "pip", "install", "--no-index", "--no-deps", *arguments],
                dict(env, CC="false", CXX="false"), workdir)


def test_with_every_artifact_in_one_folder_pip_picks_the_binary_wheel(artifacts, workdir, env):
    python = _fresh_venv(workdir / "venv-dist", env)
    _pip_install(python, ["--find-links", DIST, "posonly"], env, workdir)
    implementation, version, location = _check_install(python, env, workdir)
    assert implementation == "cython"
    assert version == posonly_version()
    assert location.startswith(str(workdir / "venv-dist"))


def test_the_pure_wheel_alone_gives_the_pure_twin(artifacts, workdir, env):
    _, wheels = artifacts
    (pure,) = [w for w in wheels if w.name.endswith("-py3-none-any.whl")]
    python = _fresh_venv(workdir / "venv-pure-wheel", env)
    _pip_install(python, [pure], env, workdir)
    implementation, _, location = _check_install(python, env, workdir)
    assert implementation == "python"
    assert not list(Path(location).parent.glob("_bind*.so"))


def posonly_version():
    text = (ROOT / "src" / "posonly" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)
