#!/usr/bin/env bash
# Install posonly from the wheels in dist/ (scripts/dist.sh builds them) into
# a fresh venv of one interpreter and run the test suite there against the
# installed package: over both the compiled binder and the pure twin on
# CPython, over the pure twin on PyPy.  The install runs as on a machine with
# no compiler (CC=false, CXX=false, no index, wheels only), so pip must pick
# the binary wheel for this CPython out of dist/, where the pure wheel and
# the sdist lie beside it; on PyPy it picks the pure wheel.
# scripts/test.sh calls this for every interpreter it finds (inside the
# Debian root through scripts/debian.sh); extra arguments go to pytest.
#
#   bash scripts/test-interpreter.sh PYTHON VENV [pytest args]
#   POSONLY_STEP=venv bash scripts/test-interpreter.sh PYTHON VENV      # the venv and the test tools
#   POSONLY_STEP=package bash scripts/test-interpreter.sh PYTHON VENV   # posonly into that venv
#   POSONLY_STEP=install bash scripts/test-interpreter.sh PYTHON VENV   # both: ready to test
#   POSONLY_STEP=test bash scripts/test-interpreter.sh PYTHON VENV      # the suite only
set -euo pipefail
cd "$(dirname "$0")/.."
python=$1 venv=$2
shift 2
step=${POSONLY_STEP:-all}
case $step in
    all|venv|package|install|test) ;;
    *) echo "POSONLY_STEP=$step: not one of venv, package, install, test" >&2; exit 2 ;;
esac

# The compiled binder must be there on CPython: never a silent fallback.
export POSONLY_REQUIRE_EXTENSION=1
export PIP_DISABLE_PIP_VERSION_CHECK=1

case $step in all|venv|install)
"$python" -m venv --clear "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
# Wheels where there are any: a newer release may be a source package only
# (hypothesis for PyPy 3.11 needs a Rust toolchain to build).
"$venv/bin/python" -m pip install -q --prefer-binary -r requirements-test.txt
esac
[ "$step" = venv ] && exit 0
venv=$(cd "$venv" && pwd)

case $step in all|package|install)
CC=false CXX=false "$venv/bin/python" -m pip install -q --no-index --only-binary :all: \
    --find-links dist --no-deps posonly
# Run from outside the checkout: the package found is the installed one.
(cd / && "$venv/bin/python" - <<'PY'
import importlib.metadata, os, sys
import posonly
expected = "cython" if sys.implementation.name == "cpython" else "python"
assert posonly.IMPLEMENTATION == expected, (posonly.IMPLEMENTATION, expected)
assert os.path.realpath(posonly.__file__).startswith(os.path.realpath(sys.prefix)), posonly.__file__
wheel = importlib.metadata.distribution("posonly").read_text("WHEEL")
tags = [line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag: ")]
print("posonly", posonly.__version__, posonly.IMPLEMENTATION, "on", sys.implementation.name,
      sys.version.split()[0], "from the wheel", ".".join(tags))
PY
)
esac
case $step in package|install) exit 0 ;; esac
# No pytest cache: runs of several interpreters may share the checkout.
# POSONLY_FROM_WHEEL: tests/test_dist.py checks the package is the wheel's.
export POSONLY_FROM_WHEEL=1
exec "$venv/bin/python" -X dev -W error -m pytest -p no:cacheprovider "$@"
