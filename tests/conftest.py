import importlib
import os
import sys
import types

import pytest
from hypothesis import HealthCheck, settings

import posonly
from posonly._common import make_binder

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
    Binder, Wrapper, wrap = module.Binder, module.Wrapper, module.wrap
    of_function = module.binder_of_function
    return types.SimpleNamespace(
        name=name,
        Binder=Binder,
        binder_of_function=of_function,
        binder=lambda target, follow_wrapped=True: make_binder(
            Binder, of_function, target, follow_wrapped),
        wrap=wrap,
        Wrapper=Wrapper,
        migrate=module.migrate,
    )


IMPLEMENTATIONS = ["cython", "python"] if sys.implementation.name == "cpython" else ["python"]
"""The binders this interpreter has: the compiled one is built for CPython only."""


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def impl(request: pytest.FixtureRequest) -> types.SimpleNamespace:
    """Each implementation of the binder in turn: the whole suite runs over both."""
    return _load(request.param)


@pytest.fixture(scope="session")
def default_impl() -> types.ModuleType:
    return posonly
