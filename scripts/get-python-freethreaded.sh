#!/usr/bin/env bash
# A free-threaded CPython (PEP 703) on a Debian machine that reaches only the Debian archive and PyPI.
# Debian's orig tarball of python3.X is python.org's source release, byte for byte; it is checked
# against the sha256 in Debian's source index, then built with --disable-gil into /opt/python3.Xt.
# About 6 min on 2 cores; needs root for the build dependencies. Nothing is built when a
# `python3.Xt` that runs is already on PATH.
# usage: get-python-freethreaded.sh 3.13|3.14   -> python3.13t or python3.14t on PATH (/usr/local/bin)
set -euo pipefail
VERSION=${1:?usage: get-python-freethreaded.sh 3.13|3.14}
NAME=python${VERSION}t
if command -v "$NAME" >/dev/null 2>&1 && "$NAME" -c 'import sys, ssl, sqlite3; sys.exit(sys._is_gil_enabled())' 2>/dev/null; then
  exit 0
fi
PREFIX=${FREETHREADED_PREFIX:-/opt}/$NAME
MIRROR=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || { echo "no Debian mirror in /etc/apt/sources.list.d/debian.sources" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive

missing=()
for package in build-essential libssl-dev zlib1g-dev libbz2-dev libreadline-dev libsqlite3-dev \
  libncurses-dev xz-utils libffi-dev liblzma-dev uuid-dev curl; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The newest release of python3.X in Debian: testing first, then unstable.
for suite in forky sid; do
  curl -fsSL "$MIRROR/dists/$suite/main/source/Sources.xz" | xz -dc >"$work/Sources" || continue
  entry=$(awk -v p="python$VERSION" '$0 == "Package: " p {found = 1} found && /^$/ {exit} found' "$work/Sources")
  [ -n "$entry" ] && break
done
[ -n "${entry:-}" ] || { echo "python$VERSION is in neither Debian testing nor unstable" >&2; exit 1; }
directory=$(sed -n 's/^Directory: //p' <<<"$entry")
read -r sha256 _ tarball < <(awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on && /orig\.tar\.xz$/' <<<"$entry")
[ -n "${tarball:-}" ] || { echo "no orig tarball listed for python$VERSION" >&2; exit 1; }
curl -fsSL -o "$work/$tarball" "$MIRROR/$directory/$tarball"
echo "$sha256  $work/$tarball" | sha256sum -c --quiet - || { echo "$tarball does not match Debian's index" >&2; exit 1; }

tar -xf "$work/$tarball" -C "$work"
cd "$work"/Python-*/
./configure -q --disable-gil --prefix="$PREFIX" --with-ensurepip=install --disable-test-modules >/dev/null
nice make -s -j"$(nproc)" >/dev/null 2>"$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
make -s altinstall >/dev/null 2>&1
ln -sf "$PREFIX/bin/$NAME" "/usr/local/bin/$NAME"
"$NAME" -c 'import sys; print("Python", sys.version.split()[0], "free-threaded, GIL enabled:", sys._is_gil_enabled())'
