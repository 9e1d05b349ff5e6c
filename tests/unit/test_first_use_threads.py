"""First use from many threads at once: every public name, in a fresh interpreter.

Everything public is safe to use from many threads at once, first
use included. A first use only happens once per process, so each scenario
runs a child interpreter (several times, at once) in which 16 threads wait
at a barrier and then make the first touch: ``toolcall.run``,
``toolcall.arun``, ``toolcall.Ok``, ``toolcall.errors``, ``emit``,
``describe``, ``Toolset(...)``, or all of them in a different order per
thread. The child switches threads as often as it can, checks that nothing
was loaded before the barrier, and prints what each thread saw as JSON
text; every thread must see no exception and exactly the same text. One
more scenario adds tools to the module while other threads use it: once
they are all added, every thread must see every one of them.
``TOOLCALL_CACHE=off``: no cache file takes part.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

#: Left out of the fast loop (``-m "not slow"``): every case runs child interpreters, several times.
pytestmark = [pytest.mark.slow, pytest.mark.threads]

THREADS = 16
REPETITIONS = 5

TOOLS = '''
"""Tools for the first-use test: nested types, so a first use has real work to do."""

import asyncio
import dataclasses
import enum
from typing import Annotated, TypedDict

from toolcall import Param, tool


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@dataclasses.dataclass
class Place:
    """Where to look."""

    city: str
    country: str = "NO"


class Window(TypedDict):
    days: Annotated[int, Param(ge=1, le=14)]
    unit: Unit


@tool
def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


@tool
def forecast(place: Place, window: Window, tags: list[str] | None = None) -> dict[str, object]:
    """Get the forecast for a place.

    Args:
        place: The place.
        window: How many days, in which unit.
        tags: Labels to echo back.
    """
    return {"city": place.city, "days": window["days"], "unit": window["unit"].value, "tags": tags or []}


@tool
async def wait_add(a: int, b: int = 1) -> int:
    """Add two integers, after a pause."""
    await asyncio.sleep(0)
    return a + b
'''

CHILD = r'''
import asyncio
import json
import sys
import threading
import traceback

sys.setswitchinterval(1e-6)

import toolcall
import first_use_tools as mod

scenario = sys.argv[1]
THREADS = int(sys.argv[2])
FORECAST = {"place": {"city": "Oslo"}, "window": {"days": 3, "unit": "celsius"}, "tags": ["a"]}
LAZY = ("toolcall._toolset.run", "toolcall._dispatch.result", "toolcall.errors", "toolcall._dispatch.binder")
before = {name: name in sys.modules for name in LAZY}


def plain(outcome):
    return {"ok": outcome.value} if outcome.ok else {"err": outcome.to_json()}


def touch(kind, index):
    if kind == "run":
        return [plain(toolcall.run(mod, "forecast", FORECAST)), plain(toolcall.run(mod, "add", {"a": "x"}))]
    if kind == "run_unknown":
        return plain(toolcall.run(mod, "nope", {}))
    if kind == "arun":
        return [
            plain(asyncio.run(toolcall.arun(mod, "wait_add", {"a": 2}))),
            plain(asyncio.run(toolcall.arun(mod, "add", {"a": 2, "b": 3}))),
        ]
    if kind == "ok":
        ok, err = toolcall.Ok, toolcall.Err
        return [ok.__qualname__, err.__qualname__, repr(ok(5)), ok(5) == ok(5), ok(5) == err(5)]
    if kind == "errors":
        error = toolcall.errors.UnknownTool("x", ("add",))
        return [type(error).__qualname__, error.to_json(), str(error)]
    if kind == "emit":
        return toolcall.emit(mod, "openai")
    if kind == "emit_strict":
        return toolcall.emit(mod, "anthropic", strict=True)
    if kind == "describe":
        return toolcall.describe(mod)
    if kind == "tool_names":
        return toolcall.tool_names(mod)
    if kind == "toolset":
        toolset = toolcall.Toolset(mod)
        return [list(toolset.names), toolcall.emit(toolset, "mcp")]
    if kind == "shared":  # the module's one toolset (internal), built once however many threads use it first
        toolcall.emit(mod, "openai")
        return id(toolcall._toolset.toolset.as_toolset(mod))
    if kind == "function":
        return [toolcall.emit(mod.forecast, "gemini"), plain(toolcall.run(mod.add, "add", {"a": 1}))]
    raise AssertionError(kind)


KINDS = (
    "run", "run_unknown", "arun", "ok", "errors", "emit", "emit_strict", "describe", "tool_names", "toolset", "shared",
    "function",
)
EXTRA = 4  # tools each decorating thread adds in the "decorate" scenario


def decorate(index):
    """Add tools to the module while other threads use it."""
    for k in range(EXTRA):
        name = f"extra_{index}_{k}"
        exec(f"def {name}(x: int) -> int:\n    return x + {k}\n", mod.__dict__)
        toolcall.tool(mod.__dict__[name])


def use_while_decorating(done):
    while not done.is_set():
        toolcall.emit(mod, "openai")
        toolcall.run(mod, "add", {"a": 1})
        toolcall.tool_names(mod)


def final_view():
    names = list(toolcall.tool_names(mod))
    fresh = list(toolcall.Toolset(mod).names)
    calls = [plain(toolcall.run(mod, name, {"x": 1})) for name in sorted(names) if name.startswith("extra_")]
    emitted = [entry["function"]["name"] for entry in toolcall.emit(mod, "openai")]
    return {"names": sorted(names), "same_as_fresh": names == fresh == emitted, "calls": calls}


barrier = threading.Barrier(THREADS)
settled = threading.Barrier(THREADS)
done = threading.Event()
decorated = []
seen = [[] for _ in range(THREADS)]


def worker(index):
    barrier.wait()
    try:
        if scenario == "mixed":
            kinds = KINDS[index % len(KINDS):] + KINDS[: index % len(KINDS)]
        elif scenario == "decorate":
            if index % 2 == 0:
                decorate(index)
                decorated.append(index)
                if len(decorated) == THREADS // 2:
                    done.set()
            else:
                use_while_decorating(done)
            kinds = ()
        else:
            kinds = (scenario,)
        for kind in kinds:
            seen[index].append({"kind": kind, "result": json.dumps(touch(kind, index))})
    except BaseException:
        seen[index].append({"kind": scenario, "error": traceback.format_exc()})
        done.set()
    if scenario == "decorate":
        settled.wait()
        try:
            seen[index].append({"kind": "final", "result": json.dumps(final_view())})
        except BaseException:
            seen[index].append({"kind": "final", "error": traceback.format_exc()})


threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({
    "before": before,
    "hook_left": "__getattr__" in vars(toolcall),
    "gil": getattr(sys, "_is_gil_enabled", lambda: True)(),
    "seen": seen,
}))
'''

SCENARIOS = [
    "run",
    "run_unknown",
    "arun",
    "ok",
    "errors",
    "emit",
    "emit_strict",
    "describe",
    "tool_names",
    "toolset",
    "function",
    "shared",
    "mixed",
]


def run_children(tmp_path: Path, scenario: str) -> list[dict[str, Any]]:
    """Run the child ``REPETITIONS`` times at once; each report, checked to have completed."""
    (tmp_path / "first_use_tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "child.py").write_text(CHILD, encoding="utf-8")
    inherited = os.environ.get("PYTHONPATH")
    env = {**os.environ, "TOOLCALL_CACHE": "off"}
    env["PYTHONPATH"] = os.pathsep.join(path for path in (inherited, str(tmp_path)) if path)
    command = [sys.executable, str(tmp_path / "child.py"), scenario, str(THREADS)]
    children = [
        subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(REPETITIONS)
    ]
    reports = []
    for child in children:
        out, err = child.communicate()
        assert child.returncode == 0, err
        reports.append(json.loads(out))
    return reports


def entries(report: dict[str, Any]) -> list[dict[str, str]]:
    """What every thread saw, one entry per first touch."""
    return [entry for seen in report["seen"] for entry in seen]


def problems(report: dict[str, Any]) -> list[str]:
    """Exceptions any thread saw, and kinds whose results differ between threads."""
    found = [entry["error"] for entry in entries(report) if "error" in entry]
    by_kind: dict[str, set[str]] = defaultdict(set)
    for entry in entries(report):
        if "result" in entry:
            by_kind[entry["kind"]].add(entry["result"])
    found += [
        f"{kind}: threads saw {len(texts)} different results" for kind, texts in by_kind.items() if len(texts) > 1
    ]
    return found


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_first_use_from_many_threads(tmp_path: Path, scenario: str) -> None:
    for report in run_children(tmp_path, scenario):
        assert not any(report["before"].values()), f"loaded before the first use: {report['before']}"
        assert problems(report) == []
        per_thread = [len(seen) for seen in report["seen"]]
        assert per_thread == [12 if scenario == "mixed" else 1] * THREADS
        if scenario == "mixed" and report["gil"]:
            # Every lazy name is loaded: the hook is gone, for the fast attribute lookup.
            assert report["hook_left"] is False


def test_tools_added_while_in_use_all_show_up(tmp_path: Path) -> None:
    extra = {f"extra_{i}_{k}" for i in range(0, THREADS, 2) for k in range(4)}
    for report in run_children(tmp_path, "decorate"):
        assert problems(report) == []
        (final,) = {entry["result"] for entry in entries(report)}
        view = json.loads(final)
        assert set(view["names"]) == {"add", "forecast", "wait_add"} | extra
        assert view["same_as_fresh"] is True
        assert len(view["calls"]) == len(extra)
        assert all("ok" in call for call in view["calls"])
