#!/usr/bin/env bash
# Run a command inside the root of Debian unstable that scripts/provision.sh
# made, with this checkout mounted at /mnt/src (the working directory).  The
# mounts live in a private mount namespace, so nothing stays mounted if the
# run is killed.  CI and the POSONLY_* variables are passed in.
#
#   bash scripts/debian.sh python3.15 -c 'import sys; print(sys.version)'
#   bash scripts/debian.sh --root        # print where the root is
#   bash scripts/debian.sh --exists      # exit 0 if the root is there and usable
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=${POSONLY_DEBIAN_ROOT:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/posonly/debian-sid}

case "${1:-}" in
    --root) echo "$root"; exit 0 ;;
    --exists)
        [ -e "$root/.posonly-complete" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1
        exit ;;
esac

passed=(HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 PIP_DISABLE_PIP_VERSION_CHECK=1)
[ -n "${CI:-}" ] && passed+=("CI=$CI")
while IFS='=' read -r name value; do
    passed+=("$name=$value")
done < <(env | grep '^POSONLY_' || true)

exec unshare --mount --propagation private --fork bash -c '
    root=$1 src=$2 count=$3; shift 3
    environment=("${@:1:$count}"); shift "$count"
    mount --bind /proc "$root/proc" && mount --rbind /dev "$root/dev" &&
    mount --bind "$src" "$root/mnt/src" &&
    exec chroot "$root" env -i "${environment[@]}" bash -c "cd /mnt/src && exec \"\$@\"" bash "$@"
' bash "$root" "$src" "${#passed[@]}" "${passed[@]}" "$@"
