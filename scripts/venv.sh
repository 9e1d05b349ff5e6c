# Sourced by the other scripts: find a Python and make (or reuse) its venv.
# usage: venv_for VERSION EXTRAS [NAME REQUIREMENT]  -> prints the venv's python
# VERSION is what follows "python" in the interpreter's name: 3.14, or 3.13t for a free-threaded build.
# NAME and REQUIREMENT make a second venv for that Python, .venv-VERSION-NAME,
# with REQUIREMENT (e.g. mypy==1.15.0) installed over the extras.
set -euo pipefail

find_python() {
  local version=$1 candidate
  for candidate in "python$version" "$(pyenv root 2>/dev/null)/versions/$version"*/bin/python; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

# The Pythons pyenv cannot fetch here, taken from the Debian archive instead (on a Debian machine).
obtain_python() {
  local version=$1 scripts
  scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  [ -f /etc/debian_version ] || return 1
  case $version in
    3.14) bash "$scripts/get-python3.14.sh" >&2 ;;
    3.1[3-9]t) bash "$scripts/get-python-freethreaded.sh" "${version%t}" >&2 ;;
    *) return 1 ;;
  esac
}

# A Debian-built Python whose ensurepip reads the host's older pip wheel (scripts/get-python3.14.sh):
# make the venv without pip, then install pip from the wheel that came with that Python.
bootstrap_pip() {
  local python=$1 venv=$2 wheel
  wheel=$(ls "$("$python" -c 'import sys; print(sys.base_prefix)')"/share/python-wheels/pip-*.whl 2>/dev/null | tail -1)
  [ -n "$wheel" ] || { echo "no pip for the venv of $python" >&2; return 1; }
  rm -rf "$venv"
  "$python" -m venv --without-pip "$venv" >&2
  "$venv/bin/python" "$wheel/pip" install -q --no-index "$wheel" >&2
}

venv_for() {
  local version=$1 extras=$2 name=${3:-} requirement=${4:-} root python venv
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  python=$(find_python "$version") || { obtain_python "$version" && python=$(find_python "$version"); } \
    || { echo "Python $version not found (pyenv install $version)" >&2; return 1; }
  venv="$root/.venv-$version${name:+-$name}"
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" >&2 || bootstrap_pip "$python" "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip >&2
  fi
  "$venv/bin/python" -m pip install -q -e "$root${extras:+[$extras]}" ${requirement:+"$requirement"} >&2
  echo "$venv/bin/python"
}
