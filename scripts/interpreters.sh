# Interpreter discovery, written once: sourced by scripts/test.sh,
# scripts/dist.sh and scripts/sanitize.sh (from the checkout's root), never
# run on its own.  Where the interpreters come from:
#   - pyenv's CPython from 3.9 up (its versions/3.X.Y), else python3 on PATH;
#   - Debian's pypy3 on this machine, when installed;
#   - CPython 3.14 and 3.15 and PyPy (Python 3.11) inside the root of Debian
#     unstable that scripts/provision.sh makes (scripts/debian.sh runs them).
#
#   posonly_version_of CMD...      "cpython 3.13.0"; fails for one older than 3.9
#   posonly_host_cpythons          "host cpython 3.13.0 /path/to/python", one a line
#   posonly_interpreters           the same lines for every interpreter found,
#                                  "debian ... python3.14" for the Debian root's
#   posonly_find_cpython 3.M       "host /path" (pyenv's newest 3.M.x, else
#                                  python3.M on PATH) or "debian python3.M";
#                                  fails when there is none
#   posonly_selected IMPL VERSION  whether $PYTHONS ("3.14", "pypy3.11") names
#                                  it; true when PYTHONS is unset or empty
#   posonly_matrix IMPL            the versions of IMPL (cpython, pypy) the
#                                  project supports, "3.9 3.10 ...": from
#                                  pyproject.toml's [tool.posonly.matrix]

posonly_matrix() {
    local line
    line=$(grep -E "^$1 = \[" pyproject.toml) || { echo "pyproject.toml: no $1 in [tool.posonly.matrix]" >&2; return 1; }
    line=${line#*[}
    line=${line%]*}
    echo $line | tr -d '",'
}

posonly_version_of() {
    "$@" -c 'import sys; assert sys.version_info >= (3, 9); print(sys.implementation.name, "%d.%d.%d" % sys.version_info[:3])' 2>/dev/null
}

# The pythons of pyenv's versions, in the order of their directories' names:
# only plain X.Y.Z builds (no free-threaded "t" or other variants).
_posonly_pyenv_pythons() {
    local root dir
    command -v pyenv >/dev/null 2>&1 && root=$(pyenv root 2>/dev/null) && [ -d "$root/versions" ] || return 0
    for dir in "$root"/versions/*; do
        [[ $(basename "$dir") =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && [ -x "$dir/bin/python" ] && echo "$dir/bin/python"
    done
    return 0
}

posonly_host_cpythons() {
    local python version pythons
    pythons=$(_posonly_pyenv_pythons)
    if [ -n "$pythons" ]; then
        for python in $pythons; do
            version=$(posonly_version_of "$python") || continue
            case $version in
                cpython*) echo "host $version $python" ;;
            esac
        done
    elif command -v python3 >/dev/null 2>&1 && version=$(posonly_version_of python3); then
        case $version in
            cpython*) echo "host $version $(command -v python3)" ;;
        esac
    fi
    return 0
}

posonly_debian_exists() {
    bash scripts/debian.sh --exists
}

posonly_interpreters() {
    posonly_host_cpythons
    if command -v pypy3 >/dev/null 2>&1 && posonly_version_of pypy3 >/dev/null; then
        echo "host $(posonly_version_of pypy3) $(command -v pypy3)"
    fi
    if posonly_debian_exists; then
        bash scripts/debian.sh sh -c '
            for p in python3.14 python3.15 pypy3; do
                command -v "$p" >/dev/null && "$p" -c "import sys; print(\"debian\", sys.implementation.name, \"%d.%d.%d\" % sys.version_info[:3], \"$p\")"
            done; true'
    fi
    return 0
}

posonly_find_cpython() {
    local minor=$1 python best=""
    for python in $(_posonly_pyenv_pythons | sort -V); do
        [[ $python =~ /$minor\.[0-9]+/bin/python$ ]] && best=$python
    done
    if [ -n "$best" ]; then
        echo "host $best"
    elif posonly_debian_exists && bash scripts/debian.sh sh -c "command -v python$minor" >/dev/null 2>&1; then
        echo "debian python$minor"
    elif command -v "python$minor" >/dev/null 2>&1; then
        echo "host $(command -v "python$minor")"
    else
        return 1
    fi
}

posonly_selected() {
    local implementation=$1 version=$2 short want
    [ -z "${PYTHONS:-}" ] && return 0
    short=${version%.*}
    [ "$implementation" = pypy ] && short="pypy$short"
    for want in $PYTHONS; do [ "$want" = "$short" ] && return 0; done
    return 1
}
