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
# Every source release of python3.X that Debian testing or unstable lists, newest first. The archive keeps
# only the current sources, so an index that lags behind may name a tarball that is gone: try the next.
for suite in forky sid; do
  curl -fsSL "$MIRROR/dists/$suite/main/source/Sources.xz" | xz -dc || true
done | awk -v p="python$VERSION" '
  /^Package: / {mine = ($2 == p); tarball = ""; dir = ""} mine && /^Directory: / {dir = $2}
  /^Checksums-Sha256:/ {sums = 1; next} /^[^ ]/ {sums = 0}
  mine && sums && /orig\.tar\.xz$/ {tarball = $3; sha = $1}
  /^$/ && mine && tarball != "" {print tarball, dir, sha; mine = 0}' | sort -u -V -r >"$work/releases"
fetched=
while read -r tarball directory sha256; do
  curl -fsSL -o "$work/$tarball" "$MIRROR/$directory/$tarball" 2>/dev/null || continue
  echo "$sha256  $work/$tarball" | sha256sum -c --quiet - || { echo "$tarball does not match Debian's index" >&2; exit 1; }
  fetched=$tarball
  break
done <"$work/releases"
[ -n "$fetched" ] || { echo "no source release of python$VERSION found in Debian testing or unstable" >&2; exit 1; }
echo "building $fetched with --disable-gil" >&2

tar -xf "$work/$tarball" -C "$work"
cd "$work"/Python-*/
./configure -q --disable-gil --prefix="$PREFIX" --with-ensurepip=install --disable-test-modules >/dev/null
nice make -s -j"$(nproc)" >/dev/null 2>"$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
make -s altinstall >/dev/null 2>&1
ln -sf "$PREFIX/bin/$NAME" "/usr/local/bin/$NAME"
"$NAME" -c 'import sys; print("Python", sys.version.split()[0], "free-threaded, GIL enabled:", sys._is_gil_enabled())'
