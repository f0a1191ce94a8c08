"""What the release is made of, checked where it is cheap to check.

- The package under test is the installed wheel, not the source tree, when
  scripts/test-interpreter.sh installed it (``POSONLY_FROM_WHEEL=1``).
- The interpreter matrix is written once (``[tool.posonly.matrix]``): the
  classifiers, ``requires-python`` and cibuildwheel's build list follow it.
- ``[tool.cibuildwheel]`` builds exactly the matrix's CPythons on Linux, macOS
  and Windows: no free-threaded (``t``) builds, no PyPy builds.
- The compiled module does not declare itself free-threading compatible:
  the C that setup.py has Cython generate leaves the module's ``Py_mod_gil``
  slot at ``Py_MOD_GIL_USED``.
"""

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import posonly

ROOT = Path(__file__).resolve().parent.parent
CPYTHON = sys.implementation.name == "cpython"
FROM_WHEEL = os.environ.get("POSONLY_FROM_WHEEL") == "1"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest's own dependency there
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MATRIX = PYPROJECT["tool"]["posonly"]["matrix"]["cpython"]
"""The CPythons supported, written once (scripts/interpreters.sh reads them too)."""


# -- the package under test ------------------------------------------------------

@pytest.mark.skipif(not FROM_WHEEL, reason="posonly was not installed from dist/ (POSONLY_FROM_WHEEL=1)")
def test_the_package_under_test_is_the_installed_wheel():
    location = Path(posonly.__file__).resolve()
    assert Path(sys.prefix).resolve() in location.parents
    assert (ROOT / "src").resolve() not in location.parents
    distribution = importlib.metadata.distribution("posonly")
    assert distribution.version == posonly.__version__
    # Installed from a folder of wheels by name, not from a path or the tree.
    assert distribution.read_text("direct_url.json") is None
    wheel = distribution.read_text("WHEEL")
    tags = re.findall(r"^Tag: (\S+)$", wheel, re.M)
    files = {str(f) for f in distribution.files}
    compiled = f"posonly/_bind{sysconfig.get_config_var('EXT_SUFFIX')}"
    if CPYTHON:
        abi = f"cp{sys.version_info[0]}{sys.version_info[1]}"
        assert tags and all(re.fullmatch(rf"{abi}-{abi}-manylinux\w+", tag) for tag in tags), tags
        assert "Root-Is-Purelib: false" in wheel
        assert compiled in files
        assert posonly.IMPLEMENTATION == "cython"
    else:
        assert tags == ["py3-none-any"]
        assert "Root-Is-Purelib: true" in wheel
        assert not [f for f in files if f.endswith((".so", ".pyd"))]
        assert posonly.IMPLEMENTATION == "python"


# -- the interpreter matrix, written once ------------------------------------------

def test_the_classifiers_and_the_hosted_builds_name_the_matrix():
    classifiers = PYPROJECT["project"]["classifiers"]
    versions = [c.rsplit(" :: ", 1)[1] for c in classifiers
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert versions == MATRIX
    assert ("Programming Language :: Python :: Implementation :: PyPy" in classifiers) == bool(
        PYPROJECT["tool"]["posonly"]["matrix"]["pypy"])
    builds = PYPROJECT["tool"]["cibuildwheel"]["build"]
    assert builds == [f"cp{version.replace('.', '')}-*" for version in MATRIX]
    assert PYPROJECT["project"]["requires-python"] == f">={MATRIX[0]}"


# -- the hosted CI's build list ---------------------------------------------------

def _cibuildwheel_required():
    # test-interpreter.sh's venvs have it on CPython 3.11+ (requirements-test.txt).
    return FROM_WHEEL and CPYTHON and sys.version_info >= (3, 11)


EXPECTED_PLATFORMS = {
    "linux": [f"{libc}linux_{arch}" for libc in ("many", "musl") for arch in ("x86_64", "aarch64")],
    "macos": ["macosx_x86_64", "macosx_arm64"],
    "windows": ["win_amd64"],
}


@pytest.mark.parametrize("platform", sorted(EXPECTED_PLATFORMS))
def test_cibuildwheel_builds_the_matrix_and_nothing_else(platform):
    if importlib.util.find_spec("cibuildwheel") is None:
        if _cibuildwheel_required():
            pytest.fail("cibuildwheel is not installed (requirements-test.txt)")
        pytest.skip("cibuildwheel is not installed (CPython 3.11+ only)")
    result = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("CIBW_")},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    identifiers = result.stdout.split()
    expected = {
        f"cp{version.replace('.', '')}-{tail}"
        for version in MATRIX for tail in EXPECTED_PLATFORMS[platform]
    }
    assert sorted(identifiers) == sorted(expected)
    assert not [i for i in identifiers if re.match(r"cp\d+t-", i)]  # no free-threaded builds


# -- free-threading ---------------------------------------------------------------

SETUP_CAPTURE = """\
import runpy, setuptools
captured = {}
setuptools.setup = lambda **kwargs: captured.update(kwargs)
runpy.run_path("setup.py", run_name="__main__")
for extension in captured["ext_modules"]:
    print("EXTENSION", extension.name, extension.define_macros, extension.extra_compile_args)
"""


@pytest.mark.skipif(not CPYTHON, reason="setup.py builds the extension for CPython only")
def test_the_compiled_module_does_not_declare_free_threading_compatibility(tmp_path):
    """setup.py, run as a build runs it, has Cython generate the module's C:
    the module's ``Py_mod_gil`` slot must say the GIL is used unless a macro
    says otherwise, and no macro does."""
    pytest.importorskip("Cython", reason="Cython is what generates the module")
    shutil.copy(ROOT / "setup.py", tmp_path)
    shutil.copytree(ROOT / "src", tmp_path / "src",
                    ignore=shutil.ignore_patterns("*.c", "*.html", "*.so", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("POSONLY_")}
    env["POSONLY_REQUIRE_EXTENSION"] = "1"
    result = subprocess.run([sys.executable, "-c", SETUP_CAPTURE], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    extensions = [line for line in result.stdout.splitlines() if line.startswith("EXTENSION")]
    (extension,) = [line for line in extensions if line.startswith("EXTENSION posonly._bind ")]
    assert "FREETHREADING" not in extension  # no -DCYTHON_FREETHREADING_COMPATIBLE
    generated = (tmp_path / "src" / "posonly" / "_bind.c").read_text(encoding="utf-8")
    assert "{Py_mod_gil, __Pyx_FREETHREADING_COMPATIBLE}" in generated
    # Without a CYTHON_FREETHREADING_COMPATIBLE macro the slot's value is
    # the directive's: Py_MOD_GIL_NOT_USED where the module declares itself
    # free-threading compatible.
    default = re.search(
        r"#ifdef CYTHON_FREETHREADING_COMPATIBLE\n"
        r"#if CYTHON_FREETHREADING_COMPATIBLE\n.*?\n#else\n.*?\n#endif\n"
        r"#else\n#define __Pyx_FREETHREADING_COMPATIBLE (\w+)\n#endif\n",
        generated,
    )
    assert default is not None, "Cython's Py_mod_gil block changed: read the generated C again"
    assert default.group(1) == "Py_MOD_GIL_USED"
