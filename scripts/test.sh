#!/usr/bin/env bash
# Set up and run the whole test suite: lint, types, and pytest on each supported Python (3.11 to 3.13).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
versions=${PYTHON_VERSIONS:-"3.11 3.12 3.13"}
first=""
for version in $versions; do
  python=$(venv_for "$version" dev)
  first=${first:-$python}
  echo "== pytest on Python $version"
  status=0
  PATH="$(dirname "$python"):$PATH" "$python" -m pytest tests || status=$?
  # pytest exits 5 when it collected no tests: that is a failure here.
  [ "$status" -eq 0 ] || { echo "pytest failed on Python $version (exit $status)"; exit 1; }
  echo "== mypy plugin cases (test-data) on Python $version"
  PATH="$(dirname "$python"):$PATH" "$python" -m pytest test-data || { echo "plugin cases failed on Python $version"; exit 1; }
done
# The README's first command from this checkout (tests/packaging/test_demo.py checks what it says). Its set-up is
# done first and not counted: pip's warnings about a machine's own index settings are not the demo's lines.
echo "== the demo (scripts/demo.sh): under 40 lines"
demo_log=$(mktemp)
demo_python=$(venv_for "${versions%% *}" "mypy,mcp" 2>"$demo_log") || { cat "$demo_log"; echo "the demo's set-up failed"; exit 1; }
DEMO_PYTHON=$demo_python bash scripts/demo.sh >"$demo_log" 2>&1 || { cat "$demo_log"; echo "the demo failed"; exit 1; }
demo_lines=$(wc -l <"$demo_log")
rm -f "$demo_log"
[ "$demo_lines" -lt 40 ] || { echo "the demo printed $demo_lines lines (40 or more)"; exit 1; }
echo "the demo: $demo_lines lines"
# The plugin on the lowest mypy that pyproject.toml admits (the loop above ran the newest).
lowest=$(sed -n 's/^mypy = \["mypy>=\([0-9.]*\),.*/\1/p' pyproject.toml)
lowest_python=${PYTHON_VERSIONS:-"3.11 3.12 3.13"}
lowest_python=${lowest_python##* }
echo "== the plugin on mypy $lowest (the lowest supported), Python $lowest_python"
python=$(venv_for "$lowest_python" dev "mypy$lowest" "mypy==$lowest")
PATH="$(dirname "$python"):$PATH" "$python" -m pytest -q tests/plugin test-data \
  || { echo "the plugin failed on mypy $lowest"; exit 1; }
bin=$(dirname "$first")
echo "== ruff"
"$bin/ruff" check .
"$bin/ruff" format --check .
echo "== mypy --strict"
"$bin/mypy" --strict toolcall toolcall_mypy
echo "== pyright --verifytypes"
# pyright finds the installed package through the active environment's python.
export PATH="$bin:$PATH" VIRTUAL_ENV="$(dirname "$bin")"
pyright --verifytypes toolcall --ignoreexternal | grep "completeness score"
pyright --verifytypes toolcall --ignoreexternal --outputjson \
  | "$bin/python" -c 'import json, sys; s = json.load(sys.stdin)["typeCompleteness"]["completenessScore"]; sys.exit(s < 1)'
echo "all checks passed"
