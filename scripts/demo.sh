#!/usr/bin/env bash
# Set up toolcall, let mypy with the toolcall plugin check the bundled example and
# write its schema cache, then emit every provider format and dispatch calls from
# that cache in production mode (python -OO, TOOLCALL_CACHE=require).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
python=$(venv_for "${PYTHON_VERSION:-3.11}" "mypy,mcp")
bin=$(dirname "$python")
echo "== mypy with the toolcall plugin (examples/mypy.ini)" >&2
(cd examples && "$bin/mypy" --config-file mypy.ini weather.py emit_all.py >&2)
echo "== the schema cache it wrote: examples/__toolcall__/weather.json" >&2
echo "== python -OO, from the cache only" >&2
TOOLCALL_CACHE=require "$python" -OO examples/emit_all.py "$@"
