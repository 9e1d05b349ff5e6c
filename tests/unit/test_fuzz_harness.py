"""``python -m fuzz``: runs each target for its budget, reports failures with a replay, reports hangs, exits 0/1/2.

The ``run`` target runs for a tiny budget and passes. Small targets written
here show the rest: a failing one prints its shrunk input and a command that
replays it (and the replay fails the same way), a hanging one is reported
with its input and stacks instead of being waited on, an unknown target or a
bad budget is a usage error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

#: Left out of the fast loop (``-m "not slow"``): each case starts a Python with Hypothesis.
pytestmark = pytest.mark.slow

#: Seconds before a run counts as hung: a guard against hanging, never a measurement.
GUARD = 300

TARGETS = {
    "__init__.py": "",
    "failing.py": """
from hypothesis import strategies as st

def setup():
    print("SETUP")

def teardown():
    print("TEARDOWN")

def inputs():
    return st.integers()

def check(value):
    assert value < 1000, f"{value} is too big"
""",
    "hanging.py": """
import threading
from hypothesis import strategies as st

def inputs():
    return st.just("the hanging input")

def check(value):
    threading.Event().wait()
""",
    "holding.py": """
import re
from hypothesis import strategies as st

def inputs():
    return st.just("holds the GIL")

def check(value):
    re.match("(a+)+$", "a" * 60 + "b")  # backtracks for ages inside the regex engine, which keeps the GIL
""",
    "broken.py": "raise ImportError('this target cannot be imported')\n",
}


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the package ``probe`` of small targets."""
    folder = tmp_path_factory.mktemp("targets")
    (folder / "probe").mkdir()
    for name, text in TARGETS.items():
        (folder / "probe" / name).write_text(text)
    return folder


def fuzz(*arguments: str, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m fuzz ...`` from the repository root, this checkout (and ``path``) first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (ROOT, path, env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "fuzz", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=GUARD,
    )


def test_the_run_target_passes_a_short_run() -> None:
    done = fuzz("run", "--seconds", "3")
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.fullmatch(r"run: (\d+) examples, 0 failures, \d+\.\d s\n", done.stdout)
    assert found, done.stdout
    assert int(found.group(1)) > 0


def test_a_failure_shows_the_shrunk_input_and_a_replay_that_fails_the_same_way(probe: Path) -> None:
    done = fuzz("probe.failing", "--seconds", "30", path=probe)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["SETUP", "TEARDOWN"]  # once around the session
    assert re.fullmatch(r"probe\.failing: \d+ examples, 1 failure, \d+\.\d s", lines[2]), lines[2]
    assert "AssertionError: 1000 is too big" in done.stdout
    assert "value=1000" in done.stdout  # Hypothesis's shrunk example
    replay = re.search(r"^replay: python -m fuzz (probe\.failing --seed \d+ --examples \d+)$", done.stdout, re.M)
    assert replay, done.stdout
    again = fuzz(*replay.group(1).split(), path=probe)
    assert again.returncode == 1
    assert "value=1000" in again.stdout
    assert f"replay: python -m fuzz {replay.group(1)}" in again.stdout


def test_a_hang_is_reported_with_its_input_and_stacks(probe: Path) -> None:
    done = fuzz("probe.hanging", "--seconds", "30", "--hang", "1", path=probe)
    assert done.returncode == 1
    assert "HANG: one example ran longer than 1 s" in done.stdout
    assert "input: 'the hanging input'" in done.stdout
    assert re.search(r"^replay: python -m fuzz probe\.hanging --seed \d+ --examples \d+$", done.stdout, re.M)
    assert "hanging.py" in done.stdout  # the hung thread's stack


def test_a_hang_that_holds_the_gil_is_still_ended(probe: Path) -> None:
    done = fuzz("probe.holding", "--seconds", "30", "--hang", "1", path=probe)
    assert done.returncode != 0
    assert "holding.py" in done.stderr  # faulthandler's dump of the stacks


def test_a_target_that_cannot_be_imported_fails_the_run(probe: Path) -> None:
    done = fuzz("probe.broken", "--seconds", "1", path=probe)
    assert done.returncode == 1
    assert "probe.broken: 0 examples, 1 failure, 0.0 s; cannot import: ImportError" in done.stdout


@pytest.mark.parametrize(
    "arguments",
    [["no_such_target"], ["run", "--seconds", "0"], ["run", "--seconds", "soon"], ["run", "--examples", "0"]],
)
def test_a_usage_error_exits_2(arguments: list[str]) -> None:
    done = fuzz(*arguments)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "usage: python -m fuzz" in done.stderr
    if arguments == ["no_such_target"]:
        assert "the targets are: " in done.stderr
        assert "run" in done.stderr
