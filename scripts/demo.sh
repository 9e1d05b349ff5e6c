#!/usr/bin/env bash
# Set up toolcall and emit the bundled example toolset in every provider format.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
python=$(venv_for "${PYTHON_VERSION:-3.11}" mcp)
"$python" examples/emit_all.py "$@"
