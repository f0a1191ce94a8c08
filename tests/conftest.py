import importlib
import importlib.machinery
import os
import sys
import types
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, settings

import posonly

settings.register_profile(
    "default",
    max_examples=int(os.environ.get("POSONLY_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


def extension_required() -> bool:
    return any(
        os.environ.get(name, "").lower() in ("1", "true", "yes")
        for name in ("CI", "POSONLY_REQUIRE_EXTENSION")
    )


def _load(name: str) -> types.SimpleNamespace:
    if name == "cython":
        if sys.implementation.name != "cpython":
            pytest.skip("the compiled binder is built for CPython only")
        try:
            module = importlib.import_module("posonly._bind")
        except ImportError:
            if extension_required():
                raise
            pytest.skip("the compiled extension is not built")
    else:
        module = importlib.import_module("posonly._bind_py")
    twin_binder = module.binder
    return types.SimpleNamespace(
        name=name,
        Binder=module.Binder,
        binder_of_function=module.binder_of_function,
        # posonly.binder's signature, over this implementation's own binder.
        binder=lambda target, *, follow_wrapped=True: twin_binder(target, follow_wrapped),
        wrap=module.wrap,
        Wrapper=module.Wrapper,
        migrate=module.migrate,
    )


IMPLEMENTATIONS = [
    name
    for name in (["cython", "python"] if sys.implementation.name == "cpython" else ["python"])
    if name in os.environ.get("POSONLY_IMPLEMENTATIONS", "cython,python").split(",")
]
"""The binders this interpreter has (the compiled one is built for CPython
only), or those of them ``POSONLY_IMPLEMENTATIONS`` names (``cython``,
``python``, comma-separated): the sanitizer run takes the compiled one."""


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def impl(request: pytest.FixtureRequest) -> types.SimpleNamespace:
    """Each implementation of the binder in turn: the whole suite runs over both."""
    return _load(request.param)


@pytest.fixture(scope="session")
def default_impl() -> types.ModuleType:
    return posonly


# -- the installed package against the tree's sources ---------------------------

SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src", "posonly")
"""The tree's package; the tests import the installed one."""
SOURCE_SUFFIXES = (".py", ".pyx", ".pxi", ".pxd", ".h")


def _sources(top: str) -> Dict[str, str]:
    found = {}
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(folder, name)
                found[os.path.relpath(path, top)] = path
    return found


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def stale_sources(installed: str, source: str = SOURCE) -> List[str]:
    """What the installed package at ``installed`` lacks of the tree's
    ``source``: a source file missing or different there, or one the tree
    no longer has (setuptools keeps a removed module in ``build/``, and
    puts it in the wheel); or, when the package is the tree itself (an
    editable install), an extension module built before a source it is
    built from was last changed."""
    if not os.path.isdir(source):
        return []
    if os.path.realpath(installed) != os.path.realpath(source):
        there = _sources(installed)
        here = _sources(source)
        return sorted(
            [name for name, path in here.items()
             if name not in there or _read(there[name]) != _read(path)]
            + [name for name in there if name not in here]
        )
    stale = []
    for folder, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if not name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                continue
            built = os.path.join(folder, name)
            stem = name.split(".", 1)[0]
            if os.path.exists(os.path.join(folder, stem + ".py")):
                # It hides its own source: always older than what it runs.
                inputs = [os.path.join(folder, stem + ".py")]
            else:  # a .pyx with the .pxi and .h files beside it and above it
                inputs = [
                    os.path.join(where, other)
                    for where in {folder, source}
                    for other in os.listdir(where)
                    if other.endswith((".pyx", ".pxi", ".pxd", ".h"))
                ]
            if any(os.path.getmtime(path) > os.path.getmtime(built) for path in inputs):
                stale.append(os.path.relpath(built, source))
    return sorted(stale)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The tests import the installed package: one older than the tree's
    sources would test old code and pass.  Stop at once, saying so, unless
    the package is a wheel built from this tree (POSONLY_FROM_WHEEL=1, as
    scripts/test-interpreter.sh and CI install it)."""
    if os.environ.get("POSONLY_FROM_WHEEL") == "1":
        return
    installed = os.path.dirname(os.path.abspath(posonly.__file__))
    stale = stale_sources(installed)
    if stale:
        shown = ", ".join(stale[:8]) + (", ..." if len(stale) > 8 else "")
        if os.path.realpath(installed) == os.path.realpath(SOURCE):
            problem = f"an editable install whose compiled modules are older than their sources ({shown})"
            again = "pip install --no-build-isolation -e ."
        else:
            problem = f"an installed posonly ({installed}) older than src/posonly ({shown} differ)"
            again = "pip install --no-build-isolation ."
            if any(not os.path.exists(os.path.join(SOURCE, name)) for name in stale):
                # A module the tree no longer has: setuptools keeps it in build/.
                again = "rm -rf build && " + again
        pytest.exit(f"the tests would run {problem}; build it again: {again}",
                    returncode=pytest.ExitCode.USAGE_ERROR)
