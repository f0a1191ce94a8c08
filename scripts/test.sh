#!/usr/bin/env bash
# Install posonly and run the test suite on every CPython from 3.9 up that
# this machine has (pyenv's, else python3), each in its own venv with its own
# build of the extension.  The suite runs over both the compiled binder and
# the pure-Python twin.  Extra arguments go to pytest.
#
#   bash scripts/test.sh                  # every interpreter, then the sanitizer run
#   PYTHONS="3.12 3.13" bash scripts/test.sh -k vectorcall
#   POSONLY_SANITIZE_RUN=0 bash scripts/test.sh    # without the sanitizer run
set -euo pipefail
cd "$(dirname "$0")/.."

# The extension must build: a broken .pyx must never pass by falling back.
export POSONLY_REQUIRE_EXTENSION=1
export PIP_DISABLE_PIP_VERSION_CHECK=1

interpreters() {
    local root
    if command -v pyenv >/dev/null 2>&1 && root=$(pyenv root 2>/dev/null) && [ -d "$root/versions" ]; then
        for dir in "$root"/versions/*; do
            [ -x "$dir/bin/python" ] || continue
            "$dir/bin/python" -c 'import sys; sys.exit(not (sys.version_info >= (3, 9) and sys.implementation.name == "cpython"))' 2>/dev/null \
                && echo "$dir/bin/python"
        done
    else
        command -v python3
    fi
}

selected() {  # keep only the versions named in $PYTHONS, if set
    local python=$1 version
    [ -z "${PYTHONS:-}" ] && return 0
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    for want in $PYTHONS; do [ "$want" = "$version" ] && return 0; done
    return 1
}

failed=()
ran=0
for python in $(interpreters); do
    selected "$python" || continue
    version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
    venv=".venvs/$version"
    echo "=== CPython $version ($python)"
    if [ ! -x "$venv/bin/python" ]; then
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q --upgrade pip setuptools
    "$venv/bin/python" -m pip install -q -r requirements-test.txt
    "$venv/bin/python" -m pip install -q --force-reinstall --no-deps .
    "$venv/bin/python" -c 'import posonly; assert posonly.IMPLEMENTATION == "cython", posonly.IMPLEMENTATION; print("posonly", posonly.__version__, posonly.IMPLEMENTATION)'
    ran=$((ran + 1))
    # The slow packaging test (sdist, installs with and without a compiler)
    # runs with the first interpreter only.
    packaging=$([ "$ran" -eq 1 ] && echo 1 || echo 0)
    if ! POSONLY_PACKAGING_TESTS=$packaging "$venv/bin/python" -X dev -W error -m pytest "$@"; then
        failed+=("$version")
    fi
done

if [ "$ran" -eq 0 ]; then
    echo "no CPython >= 3.9 found" >&2
    exit 1
fi
# The whole suite once more, on the newest interpreter, with the extension
# built under AddressSanitizer and UndefinedBehaviorSanitizer.
if [ "${POSONLY_SANITIZE_RUN:-1}" != 0 ]; then
    if ! bash scripts/sanitize.sh "$@"; then
        failed+=("sanitizer")
    fi
fi

if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED on: ${failed[*]}" >&2
    exit 1
fi
echo "all $ran interpreters passed"
