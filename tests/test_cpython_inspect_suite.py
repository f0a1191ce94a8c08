"""CPython's own tests of signatures and their binding (``Signature``,
``Parameter``, ``BoundArguments``, ``bind``, the signatures of functions and
other callables), from the running interpreter's ``test`` package, run with
posonly's drop-in patched into ``inspect``.

Each implementation runs in a child process of its own (the pure twin is
chosen by ``POSONLY_PURE_PYTHON=1`` before import), so the patched functions
are the ones a user of that implementation gets.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import IMPLEMENTATIONS, extension_required

CHILD = textwrap.dedent(
    """\
    import inspect
    import sys
    import unittest

    try:  # 3.11 and later
        from test.test_inspect import test_inspect as suite_module
    except ImportError:
        from test import test_inspect as suite_module

    import posonly

    loader = unittest.defaultTestLoader
    names = [
        name
        for name in ("TestSignatureBind", "TestBoundArguments", "TestSignatureObject",
                     "TestParameterObject", "TestSignatureDefinitions",
                     "TestSignaturePrivateHelpers", "TestGetcallargsFunctions", "TestUnwrap")
        if hasattr(suite_module, name)
    ]
    assert "TestSignatureBind" in names and "TestSignatureObject" in names, names


    def run():
        suite = unittest.TestSuite(
            loader.loadTestsFromTestCase(getattr(suite_module, name)) for name in names
        )
        result = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
        failed = sorted(str(test) for test, _ in result.failures + result.errors)
        return result.testsRun, failed


    # What fails without the patch (the interpreter's own failures, if any)
    # is the baseline; the patch must add no failure.
    ran_plain, failed_plain = run()
    original = inspect.Signature.bind
    posonly.patch_inspect()
    assert inspect.Signature.bind is not original
    ran, failed = run()
    posonly.unpatch_inspect()
    assert inspect.Signature.bind is original
    print("implementation", posonly.IMPLEMENTATION)
    print("failing without the patch:", failed_plain)
    print("failing with the patch:", failed)
    print("ran", ran, "new-failures", len(set(failed) - set(failed_plain)), "baseline", ran_plain)
    """
)


def _has_cpython_suite():
    code = "import test.test_inspect"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_cpython_signature_bind_tests_pass_patched(implementation):
    if sys.implementation.name != "cpython":
        pytest.skip("CPython's test package is CPython's (PyPy's has no test_inspect)")
    if implementation == "cython" and not extension_required():
        pytest.importorskip("posonly._bind")
    if not _has_cpython_suite():
        if extension_required():
            pytest.fail("the interpreter's test package is missing (Debian: libpython3.X-testsuite)")
        pytest.skip("the interpreter's test package is not installed")
    env = dict(os.environ, POSONLY_PURE_PYTHON="1" if implementation == "python" else "0")
    result = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"implementation {implementation}" in lines, result.stdout
    summary = lines[-1].split()
    ran, new_failures, baseline = int(summary[1]), int(summary[3]), int(summary[5])
    assert ran >= 60 and ran == baseline and new_failures == 0, result.stdout + result.stderr
