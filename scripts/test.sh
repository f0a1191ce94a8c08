#!/usr/bin/env bash
# Build the release artifacts once (scripts/dist.sh: the sdist, the pure
# wheel and a repaired binary wheel per CPython tested; dist/ is reused while
# the sources are unchanged), then install them and run the test suite on
# every interpreter this machine has, each in a fresh venv with no compiler:
#   - pyenv's CPython from 3.9 up (else python3);
#   - Debian's pypy3 (PyPy, Python 3.9), when installed;
#   - CPython 3.14 and 3.15 and PyPy (Python 3.11) of the Debian unstable
#     root that scripts/provision.sh makes, when it is there.
# On CPython pip must pick that CPython's binary wheel, and the suite runs
# over both the compiled binder and the pure twin; on PyPy it picks the pure
# wheel, and the suite runs over the pure twin; then the whole suite once
# more under AddressSanitizer and UndefinedBehaviorSanitizer (a build of its
# own).  The venvs are made one after the other while the wheels build, then
# the suites run POSONLY_JOBS at a time (default: one per core), each one's
# output printed when all are done (and kept in .venvs/logs).  Extra
# arguments go to pytest.
#
#   bash scripts/test.sh                  # every interpreter, and the sanitizer run
#   PYTHONS="3.12 3.14 pypy3.11" bash scripts/test.sh -k vectorcall
#   POSONLY_SANITIZE_RUN=0 POSONLY_JOBS=1 bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# posonly_interpreters, posonly_selected: the interpreters this machine has.
source scripts/interpreters.sh

found=$(posonly_interpreters)
# Under CI every interpreter the project supports must be here (provisioned
# by scripts/provision.sh), so that none can drop out of the run unseen.
if [ "${CI:-}" = true ] && [ -z "${PYTHONS:-}" ]; then
    for implementation in cpython pypy; do
        for version in $(posonly_matrix $implementation); do
            if ! grep -q " $implementation $version\." <<<"$found"; then
                echo "missing interpreter: $implementation $version (scripts/provision.sh provides 3.14, 3.15 and PyPy)" >&2
                exit 1
            fi
        done
    done
fi

# The wheels of the CPythons selected, built once; every venv installs them.
cpythons=$(while read -r where implementation version python; do
    if [ "$implementation" = cpython ] && posonly_selected "$implementation" "$version"; then
        echo "${version%.*}"
    fi
done <<<"$found" | sort -uV | tr '\n' ' ')
# The binary wheels dist/ must hold, for tests/test_packaging.py.
dist_pythons=$(echo $cpythons | tr ' ' ',')
jobs=${POSONLY_JOBS:-$(nproc 2>/dev/null || echo 1)}
logs=.venvs/logs
mkdir -p "$logs"

# The wheels build while the venvs are made (with the test tools, one venv
# at a time: they share pip's cache); dist.sh's output is printed when it is
# done.  Then posonly goes into each venv from dist/, and the suites run,
# $POSONLY_JOBS at a time (default: one per core), the sanitizer run among
# them (it builds in a scratch copy of its own); each one's output is
# printed when all are done.
echo "=== scripts/dist.sh (CPython ${cpythons:-none}), in the background"
PYTHONS="$cpythons" bash scripts/dist.sh >"$logs/dist.log" 2>&1 &
dist=$!

failed=()
made=()
while read -r -u 3 where implementation version python; do
    posonly_selected "$implementation" "$version" || continue
    label="$implementation-$version"
    if [ "$where" = debian ]; then
        echo "=== $label, Debian unstable ($python): making the venv"
        run="bash scripts/debian.sh bash scripts/test-interpreter.sh $python .venvs/debian-$label"
    else
        echo "=== $label ($python): making the venv"
        run="bash scripts/test-interpreter.sh $python .venvs/$label"
    fi
    if POSONLY_STEP=venv $run; then
        made+=("$label" "$implementation" "$run")
    else
        failed+=("$label (venv)")
    fi
done 3<<<"$found"

status=0
wait "$dist" || status=$?
echo "=== scripts/dist.sh"
cat "$logs/dist.log"
if [ "$status" != 0 ]; then
    echo "FAILED: scripts/dist.sh (exit $status)" >&2
    exit 1
fi

labels=()
commands=()
packaged=
for ((i = 0; i < ${#made[@]}; i += 3)); do
    label=${made[i]} implementation=${made[i + 1]} run=${made[i + 2]}
    echo "=== $label: installing posonly from dist/"
    if ! POSONLY_STEP=package $run; then
        failed+=("$label (install)")
        continue
    fi
    # The slow packaging test (the sdist, dist/'s artifacts, installs with
    # and without a compiler) runs with the first CPython only.
    packaging=0
    if [ "$implementation" = cpython ] && [ -z "$packaged" ]; then
        packaging=1
        packaged=$label
    fi
    labels+=("$label")
    commands+=("POSONLY_STEP=test POSONLY_PACKAGING_TESTS=$packaging POSONLY_DIST_PYTHONS=$dist_pythons $run")
done

if [ ${#labels[@]} -eq 0 ] && [ ${#failed[@]} -eq 0 ]; then
    echo "no interpreter found (CPython >= 3.9 or PyPy)" >&2
    exit 1
fi
ran=${#labels[@]}
# The whole suite once more, on the newest pyenv interpreter, with the
# extension built under AddressSanitizer and UndefinedBehaviorSanitizer.
# It is the longest, so it starts first.
if [ "${POSONLY_SANITIZE_RUN:-1}" != 0 ]; then
    labels=("sanitizer" "${labels[@]}")
    # It looks for memory errors in compiled code, not for more cases: the
    # compiled binder only (the compiled modules the pure twin's tests
    # reach run under its tests too), and fewer generated examples than the other suites
    # (POSONLY_SANITIZE_EXAMPLES, default 100), keep it off the critical path.
    commands=("POSONLY_PACKAGING_TESTS=0 POSONLY_IMPLEMENTATIONS=cython POSONLY_EXAMPLES=${POSONLY_SANITIZE_EXAMPLES:-100} bash scripts/sanitize.sh" "${commands[@]}")
fi

run_one() {  # label command [pytest args]: its output to its log, its status beside it
    local label=$1 command=$2 started=$SECONDS status=0
    shift 2
    env $command "$@" >"$logs/$label.log" 2>&1 || status=$?
    echo "--- $label: $((SECONDS - started)) s, exit $status" >>"$logs/$label.log"
    echo "$status" >"$logs/$label.status"
}

echo "=== running ${#labels[@]} suites, $jobs at a time"
running=0
for i in "${!labels[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    rm -f "$logs/${labels[$i]}.status"
    run_one "${labels[$i]}" "${commands[$i]}" "$@" &
    running=$((running + 1))
done
wait || true

for label in "${labels[@]}"; do
    echo "=== $label"
    cat "$logs/$label.log"
    if [ "$(cat "$logs/$label.status" 2>/dev/null)" != 0 ]; then
        failed+=("$label")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED on: ${failed[*]}" >&2
    exit 1
fi
echo "all $ran interpreters passed ($SECONDS s)"
