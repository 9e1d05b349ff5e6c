#!/usr/bin/env bash
# Python 3.14 on a Debian machine that reaches only the Debian archive and PyPI (no python.org, no pyenv
# downloads): Debian testing's python3.14 is unpacked into a debootstrap tree, and a copy of its
# interpreter, patched to load the tree's own glibc, runs on the host. The host's libc, packages and apt
# sources are left as they are. About 45 s and 250 MB; needs root. Nothing is installed when a
# `python3.14` that runs is already on PATH.
# usage: get-python3.14.sh   -> python3.14 on PATH (a wrapper in /usr/local/bin)
set -euo pipefail
if command -v python3.14 >/dev/null 2>&1 && python3.14 -c 'import ssl, sqlite3, ctypes, venv' 2>/dev/null; then
  exit 0
fi
ROOT=${PY314_ROOT:-/opt/py314root}
SUITE=${PY314_SUITE:-forky} # Debian testing; sid has python3.14 too
MIRROR=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || { echo "no Debian mirror in /etc/apt/sources.list.d/debian.sources" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive

if ! command -v debootstrap >/dev/null || ! command -v patchelf >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends debootstrap patchelf >/dev/null
fi
if [ ! -x "$ROOT/usr/bin/python3.14" ]; then
  rm -rf "$ROOT"
  # Older debootstrap releases have no script for the testing suite's name; sid's fits it.
  debootstrap --variant=minbase --include=python3.14,python3.14-venv \
    "$SUITE" "$ROOT" "$MIRROR" /usr/share/debootstrap/scripts/sid >/dev/null
  rm -f "$ROOT"/var/cache/apt/archives/*.deb
  # pip run by this interpreter reads the tree's CA bundle: give it the host's (and its proxy CA, if any).
  cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
fi

# The same binary, with the loader and libraries taken from the tree.
HOSTPY="$ROOT/usr/bin/python3.14-host"
cp "$ROOT/usr/bin/python3.14" "$HOSTPY"
patchelf --set-interpreter "$ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
  --force-rpath --set-rpath "$ROOT/usr/lib/x86_64-linux-gnu" "$HOSTPY"
# A wrapper, not a symlink: through a symlink in another folder, Python looks for its standard library
# beside the link and fails ("No module named 'encodings'").
printf '#!/bin/sh\nexec "%s" "$@"\n' "$HOSTPY" >/usr/local/bin/python3.14
chmod +x /usr/local/bin/python3.14
python3.14 -c 'import sys, ssl, sqlite3, ctypes; print("Python", sys.version.split()[0], "at", sys.executable)'
