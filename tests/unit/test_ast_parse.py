"""Parses on first use hold one lock: CPython 3.11's AST construction fails when two threads build at once.

3.11 keeps the recursion depth of AST object construction per interpreter,
so a thread switch during one thread's parse (here a garbage collection that
runs Python code, with the switch interval at its smallest) lets another
thread's parse change it: ``SystemError: AST constructor recursion depth
mismatch``. Each thread starts its parses at its own stack depth.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.paths import ROOT

RACE = """
import ast, gc, sys, threading
from toolcall._ast_parse import parse_module

sys.setswitchinterval(1e-6)
gc.set_threshold(50)
gc.callbacks.append(lambda phase, info: sum(range(50)))
parse = ast.parse if sys.argv[1] == "ast.parse" else parse_module
fields = [f"    f{i}: list[dict[str, int | None]]\\n    '''Field {i}.'''\\n" for i in range(30)]
source = "class A(TypedDict):\\n" + "".join(fields)
errors = []


def at_depth(depth):
    if depth:
        return at_depth(depth - 1)
    for _ in range(100):
        parse(source)


def work(index):
    try:
        at_depth(index * 7)
    except Exception as exc:
        errors.append(repr(exc))


threads = [threading.Thread(target=work, args=(index,)) for index in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(errors), errors[:1])
"""


def race(parse: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", RACE, parse], cwd=ROOT, capture_output=True, text=True, check=False, timeout=300
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.mark.threads
def test_parses_from_many_threads_all_succeed() -> None:
    assert race("parse_module") == "0 []"


@pytest.mark.threads
@pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the race is 3.11's: later versions keep the depth per thread"
)
def test_the_race_is_there_without_the_lock() -> None:
    assert "AST constructor recursion depth mismatch" in race("ast.parse")
