#!/usr/bin/env bash
# Get the interpreters the tests run on beyond pyenv's CPython 3.9-3.13:
#
#   - Debian's own PyPy (pypy3, Python 3.9), installed on this machine;
#   - Debian unstable's CPython 3.14 and 3.15 (with -dev, -venv and the
#     `test` package) and PyPy (Python 3.11), in a root of Debian unstable
#     made with debootstrap beside the system, outside the checkout.
#
# Idempotent: what is already there is reused (a package missing from the
# root is installed into it).  Needs root and apt; under CI=true, not having
# them is an error, elsewhere a notice.  scripts/test.sh picks up whatever
# is there; scripts/debian.sh runs a command inside the root.
#
#   bash scripts/provision.sh
#   POSONLY_DEBIAN_ROOT=/somewhere/else bash scripts/provision.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(bash scripts/debian.sh --root)

packages=(
    python3.14 python3.14-dev python3.14-venv libpython3.14-testsuite
    python3.15 python3.15-dev python3.15-venv libpython3.15-testsuite
    pypy3 pypy3-venv gcc libc6-dev git ca-certificates
)

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then
        echo "provision: needs root, apt-get and unshare" >&2
        exit 1
    fi
    echo "provision: needs root, apt-get and unshare; skipping (tests run on what is here)" >&2
    exit 0
fi

apt_updated=0
apt_install() {  # apt-get install on the host, updating the lists once
    if [ "$apt_updated" = 0 ]; then
        apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The host's own PyPy.
if ! command -v pypy3 >/dev/null 2>&1 || ! pypy3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "provision: installing the host's pypy3"
    apt_install pypy3 pypy3-venv
fi

# The root of Debian unstable.  It is made under a marker of its own, so
# that only a directory this script made is ever removed.
if [ -e "$root/.posonly-complete" ]; then
    echo "provision: reusing $root"
    missing=$(bash scripts/debian.sh sh -c 'for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done' sh "${packages[@]}")
    if [ -n "$missing" ]; then
        echo "provision: installing into the root:" $missing
        bash scripts/debian.sh sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null' sh $missing
    fi
else
    if [ -e "$root" ] && [ ! -e "$root/.posonly-partial" ]; then
        echo "provision: $root exists and is not a root this script made; not touching it" >&2
        exit 1
    fi
    command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap
    # Debian's mirror as the host reaches it (deb822 sources or sources.list).
    mirror=$( { grep -h -m1 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } \
        | awk '$2 ~ /debian\/?$/ {print $2; exit}')
    if [ -z "$mirror" ]; then
        mirror=$( { grep -h '^deb ' /etc/apt/sources.list 2>/dev/null || true; } \
            | awk '$2 ~ /debian\/?$/ {print $2; exit}')
    fi
    mirror=${mirror:-http://deb.debian.org/debian}
    echo "provision: debootstrap of unstable from $mirror into $root (about two minutes)"
    # A debootstrap killed half-way may have left its mounts behind.
    for mounted in "$root/proc" "$root/sys" "$root/dev"; do
        umount -R "$mounted" 2>/dev/null || true
    done
    rm -rf --one-file-system "$root"
    mkdir -p "$root"
    touch "$root/.posonly-partial"
    debootstrap --variant=minbase --include="$(IFS=,; echo "${packages[*]}")" \
        sid "$root" "$mirror" >"$root.log" 2>&1 || {
        echo "provision: debootstrap failed; the end of $root.log:" >&2
        tail -n 20 "$root.log" >&2
        exit 1
    }
    mkdir -p "$root/mnt/src"
    mv "$root/.posonly-partial" "$root/.posonly-complete"
fi
# Name resolution, and the package index reached as the host reaches it.
cp /etc/resolv.conf "$root/etc/"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
fi

bash scripts/debian.sh sh -c 'for p in python3.14 python3.15 pypy3; do printf "provision: %s " "$p"; "$p" -c "import sys; print(sys.version.split()[0], sys.implementation.name)"; done'
