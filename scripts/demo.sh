#!/usr/bin/env bash
# The story in under 40 lines: mypy with the toolcall plugin checks the example
# tools and writes their schema cache (and reports a deliberately flawed tool);
# then, under python -OO with TOOLCALL_CACHE=require, the tools are emitted and
# dispatched from that cache, exported with `toolcall export`, and served over
# MCP by `toolcall serve`. `bash scripts/demo.sh --full` also prints every
# provider format in full.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
# mypy for the plugin, mcp for `toolcall serve` and the client that talks to it.
# DEMO_PYTHON: an interpreter that already has toolcall[mypy,mcp], used as it is.
python=${DEMO_PYTHON:-$(venv_for "${PYTHON_VERSION:-3.11}" "mypy,mcp")}
bin=$(dirname "$python")
out=build/demo/openai-strict.json
mkdir -p "$(dirname "$out")"
step() { printf '== %s\n' "$*"; }
# Production mode: docstrings stripped, every definition from the cache or an error.
production() { (cd examples && TOOLCALL_CACHE=require "$python" -OO "$@"); }

# Each check has its own mypy cache: their plugin settings differ (the flawed one writes no schema cache).
mypy() { "$bin/mypy" --config-file "$1/mypy.ini" --cache-dir "$1/.mypy_cache" "${@:2}"; }

step "1. mypy with the toolcall plugin: examples/weather.py, the example tools"
report=$(mypy examples examples/weather.py) || { echo "$report"; exit 1; }
grep -v ': note: ' <<<"$report"
echo "   ($(grep -c ': note: ' <<<"$report") notes, which pass: Anthropic strict mode moves bounds into descriptions)"
step "   examples/demo/flawed.py, a deliberately flawed tool (mypy exits 1: each error names its code and fix)"
status=0
mypy examples/demo examples/demo/flawed.py || status=$?
[ "$status" -eq 1 ] || { echo "demo: mypy should have found the flaws (exit 1), got exit $status"; exit 1; }
step "2. the schema cache mypy wrote for the example"
production demo/steps.py cache
step "3. python -OO, TOOLCALL_CACHE=require: definitions from the cache only"
production demo/steps.py emit
step "4. dispatch: a good call, and a bad call with the error the model sees"
production demo/steps.py dispatch
step "5. toolcall export weather --format openai --strict --out $out"
production -m toolcall export weather --format openai --strict --out "../$out"
production demo/steps.py exported "../$out"
step "6. MCP round trip: the official mcp client <-> toolcall serve weather (stdio)"
production demo/steps.py mcp
if [ "${1:-}" = "--full" ]; then
  step "every provider format, in full (examples/emit_all.py)"
  production emit_all.py
else
  step "the full JSON: bash scripts/demo.sh --full (every provider format), or cat $out"
fi
