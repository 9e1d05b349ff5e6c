#!/usr/bin/env bash
# Set up and run the whole test suite: lint, types, and pytest on each supported Python (3.11 to 3.14, and the
# thread-safety tests on a free-threaded build with the GIL off). A Python this machine lacks is obtained first
# (scripts/get-python3.14.sh, scripts/get-python-freethreaded.sh).
#
# The steps run in two lanes at once, one per core: the first in this checkout, the second in a copy of it
# (its tracked and untracked files, none that git ignores), so no two pytest runs share a tree. Each lane
# stops at its first failing step; the suite fails when either lane does. TEST_LANES=1 runs every step in
# this checkout, one after another.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
started=$SECONDS
versions=${PYTHON_VERSIONS:-"3.11 3.12 3.13 3.14"}
free_threaded=${FREE_THREADED_PYTHON:-3.13t}
first=${versions%% *}
last=${versions##* }
# mypy's lowest supported release predates Python 3.14: it runs on the newest Python before it.
mypy_python=3.13

# pytest, then the mypy plugin's test-data cases, on one Python. The first and the last Python run every test;
# those between leave out the packaging and documentation-site tests (tests/packaging), which check what is
# built and published rather than how the code runs.
suite() {
  local version=$1 python status=0 scope=()
  python=$(venv_for "$version" dev)
  if [ "$version" != "$first" ] && [ "$version" != "$last" ]; then scope=(--ignore=tests/packaging); fi
  echo "== pytest on Python $version${scope:+ (all but tests/packaging)}"
  PATH="$(dirname "$python"):$PATH" "$python" -m pytest tests ${scope[@]+"${scope[@]}"} || status=$?
  # pytest exits 5 when it collected no tests: that is a failure here.
  [ "$status" -eq 0 ] || { echo "pytest failed on Python $version (exit $status)"; return 1; }
  echo "== mypy plugin cases (test-data) on Python $version"
  PATH="$(dirname "$python"):$PATH" "$python" -m pytest test-data || { echo "plugin cases failed on Python $version"; return 1; }
}

# The README's first command from this checkout (tests/packaging/test_demo.py checks what it says). Its set-up is
# done first and not counted: pip's warnings about a machine's own index settings are not the demo's lines.
demo() {
  local log python lines
  echo "== the demo (scripts/demo.sh): under 40 lines"
  log=$(mktemp)
  python=$(venv_for "$first" "mypy,mcp" 2>"$log") || { cat "$log"; echo "the demo's set-up failed"; return 1; }
  DEMO_PYTHON=$python bash scripts/demo.sh >"$log" 2>&1 || { cat "$log"; echo "the demo failed"; return 1; }
  lines=$(wc -l <"$log")
  rm -f "$log"
  [ "$lines" -lt 40 ] || { echo "the demo printed $lines lines (40 or more)"; return 1; }
  echo "the demo: $lines lines"
}

# The plugin on the lowest mypy that pyproject.toml admits (the suites ran the newest). Its tests take as long as
# a whole suite, so each lane runs a part: "1/2" is the first of two parts, split by the durations recorded in
# tests/lowest_mypy_durations.json (pytest-split; a test missing there counts as an average one).
lowest_mypy() {
  local part=$1 lowest python
  lowest=$(sed -n 's/^mypy = \["mypy>=\([0-9.]*\),.*/\1/p' pyproject.toml)
  echo "== the plugin on mypy $lowest (the lowest supported), Python $mypy_python, part $part"
  python=$(venv_for "$mypy_python" dev "mypy$lowest" "mypy==$lowest")
  PATH="$(dirname "$python"):$PATH" "$python" -m pytest -q tests/plugin test-data \
    --durations-path tests/lowest_mypy_durations.json --splits "${part#*/}" --group "${part%/*}" \
    || { echo "the plugin failed on mypy $lowest (part $part)"; return 1; }
}

# The thread-safety tests (marker "threads") on a free-threaded build with the GIL off. The venv holds the
# runtime and the test runner only: the SDKs and mypy are not what these tests exercise, and msgspec (the
# fast extra) builds for free-threading from Python 3.14 on.
threads() {
  local version=$1 python
  python=$(venv_for "$version" "")
  # Wheels only: hypothesis's newest releases build a Rust part from source where they ship no wheel.
  "$python" -m pip install -q --only-binary=:all: "pytest>=8" "hypothesis>=6.100" >&2
  echo "== thread-safety tests on Python $version, PYTHON_GIL=0"
  # -s shows the GIL's state, which test_gil_state prints (and fails on, if the GIL is on).
  PYTHON_GIL=0 TOOLCALL_REQUIRE_FREE_THREADING=1 "$python" -m pytest -m threads -s tests/unit || { echo "the thread-safety tests failed on Python $version"; return 1; }
}

# Each fuzz target (fuzz/) for a short budget on the first Python; fuzz/README.md gives the long run.
fuzz() {
  local python seconds=${FUZZ_SECONDS:-15}
  python=$(venv_for "$first" dev)
  echo "== fuzz targets, $seconds s each"
  "$python" -m fuzz --seconds "$seconds" || { echo "a fuzz target failed"; return 1; }
}

# ruff, mypy --strict and pyright's completeness check, with the first Python's tools.
lint() {
  local bin
  bin=$(dirname "$(venv_for "$first" dev)")
  # A step runs on the left of ||, where bash ignores set -e: each command says when it failed.
  echo "== ruff"
  "$bin/ruff" check . || return 1
  "$bin/ruff" format --check . || return 1
  echo "== mypy --strict"
  "$bin/mypy" --strict toolcall toolcall_mypy || return 1
  echo "== pyright --verifytypes"
  # pyright finds the installed package through the active environment's python.
  PATH="$bin:$PATH" VIRTUAL_ENV="$(dirname "$bin")" pyright --verifytypes toolcall --ignoreexternal \
    | grep "completeness score" || return 1
  PATH="$bin:$PATH" VIRTUAL_ENV="$(dirname "$bin")" pyright --verifytypes toolcall --ignoreexternal --outputjson \
    | "$bin/python" -c 'import json, sys; s = json.load(sys.stdin)["typeCompleteness"]["completenessScore"]; sys.exit(s < 1)' \
    || { echo "pyright: the completeness score is below 100%"; return 1; }
}

# Each step is "function:argument" or "function"; a lane runs its steps in order and stops at a failure.
run_steps() {
  local step
  for step in "$@"; do
    if [[ $step == *:* ]]; then "${step%%:*}" "${step#*:}" || return 1; else "$step" || return 1; fi
  done
}

# The two full suites start the lanes, the others alternate between them; then the demo, lint, the fuzz targets
# and half the lowest mypy's tests in the first lane, the other half and the free-threaded build in the second.
lane_one=("suite:$first")
lane_two=()
[ "$last" = "$first" ] || lane_two+=("suite:$last")
index=0
for version in $versions; do
  [ "$version" != "$first" ] && [ "$version" != "$last" ] || continue
  if [ $((index % 2)) -eq 0 ]; then lane_two+=("suite:$version"); else lane_one+=("suite:$version"); fi
  index=$((index + 1))
done
lane_one+=(demo lint fuzz lowest_mypy:1/2)
lane_two+=(lowest_mypy:2/2)
[ -z "$free_threaded" ] || lane_two+=("threads:$free_threaded")

if [ "${TEST_LANES:-2}" = 1 ] || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  run_steps "${lane_one[@]}" "${lane_two[@]}"
else
  copy=$(mktemp -d)
  git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$copy"
  log="$copy.log"
  # Sourced again there: venv_for makes each venv in the checkout its own copy of venv.sh is in.
  (cd "$copy" && . scripts/venv.sh && run_steps "${lane_two[@]}") >"$log" 2>&1 &
  second=$!
  status=0
  run_steps "${lane_one[@]}" || status=1
  wait "$second" || status=1
  echo "== the second lane (in a copy of the checkout)"
  cat "$log"
  rm -rf "$copy" "$log"
  [ "$status" -eq 0 ] || { echo "a lane failed"; exit 1; }
fi
echo "all checks passed in $((SECONDS - started)) s"
