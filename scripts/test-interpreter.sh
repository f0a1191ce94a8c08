#!/usr/bin/env bash
# Build posonly into a venv of one interpreter and run the test suite there:
# over both the compiled binder and the pure twin on CPython, over the pure
# twin on PyPy.  scripts/test.sh calls this for every interpreter it finds
# (inside the Debian root through scripts/debian.sh); extra arguments go to
# pytest.
#
#   bash scripts/test-interpreter.sh PYTHON VENV [pytest args]
#   POSONLY_STEP=install bash scripts/test-interpreter.sh PYTHON VENV   # the venv only
#   POSONLY_STEP=test bash scripts/test-interpreter.sh PYTHON VENV      # the suite only
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1 venv=$2
shift 2
step=${POSONLY_STEP:-all}

# The extension must build: a broken .pyx must never pass by falling back.
export POSONLY_REQUIRE_EXTENSION=1
export PIP_DISABLE_PIP_VERSION_CHECK=1

if [ "$step" != test ]; then
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip setuptools
# Wheels where there are any: a newer release may be a source package only
# (hypothesis for PyPy 3.11 needs a Rust toolchain to build).
"$venv/bin/python" -m pip install -q --prefer-binary -r requirements-test.txt
"$venv/bin/python" -m pip install -q --force-reinstall --no-deps .
"$venv/bin/python" - <<'PY'
import sys
import posonly
expected = "cython" if sys.implementation.name == "cpython" else "python"
assert posonly.IMPLEMENTATION == expected, (posonly.IMPLEMENTATION, expected)
print("posonly", posonly.__version__, posonly.IMPLEMENTATION, "on", sys.implementation.name,
      sys.version.split()[0])
PY
fi
[ "$step" = install ] && exit 0
# No pytest cache: runs of several interpreters may share the checkout.
exec "$venv/bin/python" -X dev -W error -m pytest -p no:cacheprovider "$@"
