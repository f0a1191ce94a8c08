#!/usr/bin/env bash
# Build the compiled binder with AddressSanitizer and UndefinedBehaviorSanitizer
# (gcc's) into a venv of its own, and run the whole test suite under it.
#
#   bash scripts/sanitize.sh              # the newest CPython pyenv has (>= 3.9)
#   bash scripts/sanitize.sh 3.11         # or PYTHON=3.11 bash scripts/sanitize.sh
#   bash scripts/sanitize.sh 3.13 -k refcounts     # extra arguments go to pytest
#   POSONLY_BUILD=debug bash scripts/sanitize.sh   # the -O0 -g assert build instead
#
# The sources are copied to a scratch directory first, so the build never reuses
# (or leaves behind) an object file of the normal build in ./build.  The venv
# lives under ${SANITIZE_ROOT:-${TMPDIR:-/tmp}/posonly-sanitize}.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

want=${PYTHON:-}
if [ $# -gt 0 ] && [[ $1 =~ ^3\.[0-9]+ ]]; then
    want=$1
    shift
fi

# The newest CPython (>= 3.9) of this machine's own (pyenv's, else python3)
# whose version is $want or starts with it; else python$want on PATH.
source scripts/interpreters.sh
find_python() {
    local where implementation version python best=""
    best=$(posonly_host_cpythons | while read -r where implementation version python; do
        if [ -z "$want" ] || [[ $version == "$want" || $version == "$want".* ]]; then
            echo "$version $python"
        fi
    done | sort -V | tail -n 1 | cut -d' ' -f2-)
    if [ -z "$best" ]; then
        best=$(command -v "python${want:-3}" || true)
    fi
    echo "$best"
}

python=$(find_python)
[ -n "$python" ] || { echo "no CPython ${want:-3.9+} found" >&2; exit 1; }
version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
kind=${POSONLY_BUILD:-sanitize}
root=${SANITIZE_ROOT:-${TMPDIR:-/tmp}/posonly-sanitize}
venv="$root/$kind-$version"
src="$root/src-$kind-$version"
echo "=== $kind build on CPython $version ($python)"

started=$(date +%s)
export PIP_DISABLE_PIP_VERSION_CHECK=1
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q -r requirements-test.txt

rm -rf "$src"
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$src"

export POSONLY_REQUIRE_EXTENSION=1
case $kind in
    sanitize) export POSONLY_SANITIZE=1 ;;
    debug) export POSONLY_DEBUG_BUILD=1 ;;
    *) echo "POSONLY_BUILD is sanitize or debug, not $kind" >&2; exit 2 ;;
esac
(cd "$src" && "$venv/bin/python" -m pip install -q --force-reinstall --no-deps .)
built=$(date +%s)

run=("$venv/bin/python" -X dev -W error -m pytest -p no:cacheprovider "$@")
if [ "$kind" = sanitize ]; then
    libasan=$(gcc -print-file-name=libasan.so)
    [ -f "$libasan" ] || { echo "gcc has no libasan.so" >&2; exit 1; }
    # The interpreter is not built with ASan: its allocations go through
    # malloc (PYTHONMALLOC=malloc) so ASan sees every object, and its own
    # leaks at exit are not ours (detect_leaks=0).  Any report is fatal.
    export LD_PRELOAD="$libasan"
    export PYTHONMALLOC=malloc
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
fi
# Check the build really is the instrumented one before trusting a clean run.
(cd "$src" && "${run[0]}" -c '
import posonly, posonly._bind as b, sys
assert posonly.IMPLEMENTATION == "cython", posonly.IMPLEMENTATION
print("posonly", posonly.__version__, "from", b.__file__)
')
if [ "$kind" = sanitize ]; then
    so=$("${run[0]}" -c 'import posonly._bind as b; print(b.__file__)')
    if ! nm -D "$so" | grep __asan_ >/dev/null; then  # no -q: nm must not die of SIGPIPE
        echo "the extension is not instrumented: $so" >&2
        exit 1
    fi
fi
status=0
(cd "$src" && "${run[@]}") || status=$?
finished=$(date +%s)
echo "=== $kind on CPython $version: build $((built - started))s, tests $((finished - built))s, exit $status"
exit $status
