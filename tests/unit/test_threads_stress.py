"""Every public entry point from 32 threads at once, on tool modules used for the first time, over several rounds.

Each round writes fresh tool modules (new names, so every use is a first
use) from three templates, each in five cache states: no cache file, a
current cache, a stale one (the source changed since it was written), and
two corrupt ones (cut short, and bytes that are not a cache at all). The
caches are written with toolcall's own cache writer from the runtime IR,
the way ``tests/cached_package.py`` writes them, so no mypy is needed. 32
threads wait at one barrier, then import the modules and call ``emit``,
``describe``, ``tool_names``, ``Toolset``, ``run`` and every adapter on
them, each thread in its own order; every fourth thread does it in an event
loop of its own, through ``arun`` and the async adapters. Every thread must
see no exception and exactly what a single-threaded run gave on modules of
the same template and cache state, and each unusable cache must be warned
about exactly once.

``test_gil_state`` shows whether the GIL is on, and fails where it must not be.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
import sysconfig
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import toolcall
import toolcall.anthropic
import toolcall.gemini
import toolcall.openai
from tests.unit.test_first_use_threads import problems
from toolcall import ToolcallWarning
from toolcall._cache import file_format
from toolcall._providers import VARIANTS
from toolcall._toolset.toolset import as_toolset, loaded_tools

pytestmark = pytest.mark.threads

THREADS = 32
ROUNDS = 5
#: Every this many threads, one runs its calls in an event loop of its own (through ``arun`` and the async adapters).
LOOP_EVERY = 4

WEATHER = '''
"""Weather tools: nested classes whose field descriptions come from their source."""

import asyncio
import dataclasses
import enum
from typing import Annotated, TypedDict

from toolcall import Param, tool


class Unit(enum.Enum):
    """A temperature unit."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@dataclasses.dataclass
class Place:
    """Where to look.

    Attributes:
        city: The city's name.
    """

    city: str
    country: str = "NO"
    """Its ISO 3166 country code."""


class Window(TypedDict):
    """How far ahead to look."""

    days: Annotated[int, Param(ge=1, le=14)]
    """Days ahead."""
    unit: Unit


@tool
def forecast(place: Place, window: Window, tags: list[str] | None = None) -> dict[str, object]:
    """Get the forecast for a place.

    Args:
        place: The place.
        window: How many days, in which unit.
        tags: Labels to echo back.
    """
    return {"city": place.city, "country": place.country, "days": window["days"], "tags": tags or []}


@tool
async def later(place: Place, days: int = 1) -> str:
    """The forecast's headline, after a pause."""
    await asyncio.sleep(0)
    return f"{place.city}: {days} days"


@tool(thread=True)
def slow_days(window: Window) -> int:
    """Count the days (in a worker thread, under arun)."""
    return window["days"] * (2 if window["unit"] is Unit.FAHRENHEIT else 1)
'''

GEOMETRY = '''
"""Geometry tools: a NamedTuple, a class defined twice, an IntEnum that Gemini sends as text, dates, literals."""

import datetime
import enum
from typing import Literal, NamedTuple, TypedDict

from toolcall import tool

FLAG = False

if FLAG:

    class Box(TypedDict):
        """Not this one."""

        side: int
        """Not this field."""

else:

    class Box(TypedDict):
        """A box."""

        width: int
        """Its width."""


class Level(enum.IntEnum):
    """How precise to be."""

    LOW = 1
    HIGH = 2


class Span(NamedTuple):
    """A span of integers."""

    start: int
    end: int = 10


@tool
def measure(
    span: Span, box: Box | None = None, level: Level = Level.LOW, mode: Literal["fast", "exact"] = "fast"
) -> dict[str, object]:
    """Measure a span.

    Args:
        span: The span.
        box: What it fits in.
        level: How precise.
        mode: How to measure.
    """
    fits = box is None or box["width"] >= span.end - span.start
    return {"width": span.end - span.start, "fits": fits, "level": level.name, "mode": mode}


@tool
def weekday(day: datetime.date, shift: datetime.timedelta = datetime.timedelta(days=1)) -> int:
    """The ISO weekday of a day, shifted."""
    return (day + shift).isoweekday()
'''

ORDERS = '''
"""Order tools: TypedDicts in a list, keyword arguments, an injected parameter, a pattern."""

from typing import Annotated, NotRequired, TypedDict

from toolcall import Injected, Param, tool


class Line(TypedDict):
    """One line of an order."""

    sku: Annotated[str, Param(pattern="^[A-Z]{3}-[0-9]+$")]
    """The stock-keeping unit."""
    qty: Annotated[int, Param(ge=1)]
    note: NotRequired[str]


@tool
def total(lines: list[Line], user: Annotated[str, Injected] = "", **discounts: int) -> dict[str, object]:
    """Total an order.

    Args:
        lines: The order's lines.
        discounts: Amounts off, by reason.
    """
    return {"user": user, "items": sum(line["qty"] for line in lines), "off": sum(discounts.values())}


@tool(name="sku-count")
def sku_count(lines: list[Line]) -> int:
    """How many distinct SKUs an order has."""
    return len({line["sku"] for line in lines})
'''

#: Each template: its source and the calls made on it, ``(tool name, arguments)``, refusals and an unknown tool too.
TEMPLATES: dict[str, tuple[str, list[tuple[str, Any]]]] = {
    "weather": (
        WEATHER,
        [
            ("forecast", {"place": {"city": "Oslo"}, "window": {"days": 3, "unit": "celsius"}, "tags": ["a"]}),
            ("forecast", {"place": {"city": "Oslo"}, "window": {"days": 30, "unit": "kelvin"}}),
            ("later", {"place": {"city": "Bergen", "country": "NO"}, "days": 2}),
            ("slow_days", {"window": {"days": 4, "unit": "fahrenheit"}}),
            ("slow_days", {"window": {"days": "x"}}),
            ("nope", {}),
        ],
    ),
    "geometry": (
        GEOMETRY,
        [
            ("measure", {"span": {"start": 2, "end": 9}, "box": {"width": 5}, "level": 2}),
            ("measure", {"span": {"start": 2}, "level": "2", "mode": "slow"}),
            ("weekday", {"day": "2024-02-28"}),
            ("weekday", {"day": "2024-02-28", "shift": "P2D"}),
            ("weekday", {"day": "2024-02-30"}),
        ],
    ),
    "orders": (
        ORDERS,
        [
            ("total", {"lines": [{"sku": "ABC-1", "qty": 2}, {"sku": "XYZ-9", "qty": 1, "note": "gift"}], "vip": 3}),
            ("total", {"lines": [{"sku": "bad", "qty": 0}]}),
            ("sku-count", {"lines": [{"sku": "ABC-1", "qty": 2}, {"sku": "ABC-1", "qty": 5}]}),
            ("sku-count", {"lines": "nope"}),
        ],
    ),
}

#: Cache states: no file, a current cache, one whose source changed since, and two that are not caches.
KINDS = ("missing", "fresh", "stale", "truncated", "garbage")
UNUSABLE = ("stale", "truncated", "garbage")
#: What a stale module's source gains after its cache was written: its digest no longer matches.
STALE_LINE = "\nSTALE = 1\n"
GARBAGE = bytes((i * 37 + 11) % 256 for i in range(700))
CONTEXT = {"user": "ada"}
#: Module names start with a prefix of their own: the templates', the one-thread run's, each round's.
TEMPLATE_PREFIX = "stresstplx"


# ----------------------------------------------------------------------------------------------------------------
# Tool modules and their caches


def module_name(prefix: str, template: str, kind: str) -> str:
    """The module of ``template`` in cache state ``kind``."""
    return f"{prefix}{template}_{kind}"


def reseal(text: str) -> str:
    """A cache text whose content changed, sealed again as the writer seals it."""
    content = json.loads(text)
    del content["content_sha256"]
    return file_format.dumps(content)


@pytest.fixture(scope="module")
def cache_texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each template's current cache text, for a module named ``module_name(TEMPLATE_PREFIX, template, "fresh")``.

    Written once from the runtime IR of a module of that name, then renamed for every module of a round.
    """
    directory = tmp_path_factory.mktemp("templates")
    texts: dict[str, str] = {}
    with _on_path(directory):
        for template, (source, _) in TEMPLATES.items():
            name = module_name(TEMPLATE_PREFIX, template, "fresh")
            (directory / f"{name}.py").write_text(source, encoding="utf-8")
            module = importlib.import_module(name)
            tools = loaded_tools(as_toolset(module))
            entries = [file_format.tool_entry(t.ir, [name], t.findings) for t in tools]
            record = file_format.source_record(source.encode(), f"{name}.py")
            texts[template] = file_format.dumps(file_format.module_content(name, {name: record}, entries, {}))
    return texts


def write_modules(directory: Path, prefix: str, cache_texts: dict[str, str]) -> dict[str, str]:
    """Every template in every cache state as a module of ``directory``; module name → its cache state."""
    cache_dir = directory / file_format.CACHE_DIR
    cache_dir.mkdir()
    modules: dict[str, str] = {}
    for template, (source, _) in TEMPLATES.items():
        for kind in KINDS:
            name = module_name(prefix, template, kind)
            modules[name] = kind
            (directory / f"{name}.py").write_text(source + (STALE_LINE if kind == "stale" else ""), encoding="utf-8")
            cache = reseal(cache_texts[template].replace(module_name(TEMPLATE_PREFIX, template, "fresh"), name))
            if kind in ("fresh", "stale"):
                (cache_dir / f"{name}.json").write_text(cache, encoding="utf-8")
            elif kind == "truncated":
                (cache_dir / f"{name}.json").write_bytes(cache.encode()[: len(cache) // 2])
            elif kind == "garbage":
                (cache_dir / f"{name}.json").write_bytes(GARBAGE)
    return modules


class _on_path:
    """``directory`` first on ``sys.path`` for the ``with`` block."""

    def __init__(self, directory: Path) -> None:
        self.directory = str(directory)

    def __enter__(self) -> None:
        sys.path.insert(0, self.directory)
        importlib.invalidate_caches()

    def __exit__(self, *_: object) -> None:
        sys.path.remove(self.directory)


# ----------------------------------------------------------------------------------------------------------------
# What each thread does: operations on one module (or on a round's three modules of one cache state)


def plain(outcome: Any) -> Any:
    return {"ok": outcome.value} if outcome.ok else {"err": outcome.to_json()}


def chat_completion(calls: list[tuple[str, Any]]) -> dict[str, Any]:
    tool_calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(calls)
    ]
    tool_calls.append({"id": "call_bad", "type": "function", "function": {"name": calls[0][0], "arguments": "{"}})
    return {"choices": [{"message": {"role": "assistant", "tool_calls": tool_calls}}]}


def responses_output(calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"type": "function_call", "call_id": f"fc_{i}", "name": name, "arguments": json.dumps(args)}
        for i, (name, args) in enumerate(calls)
    ]


def anthropic_message(calls: list[tuple[str, Any]]) -> dict[str, Any]:
    blocks = [
        {"type": "tool_use", "id": f"tu_{i}", "name": name, "input": args} for i, (name, args) in enumerate(calls)
    ]
    return {"role": "assistant", "content": [{"type": "text", "text": "calling"}, *blocks]}


def gemini_response(calls: list[tuple[str, Any]]) -> dict[str, Any]:
    parts = [{"function_call": {"id": f"g_{i}", "name": name, "args": args}} for i, (name, args) in enumerate(calls)]
    return {"candidates": [{"content": {"role": "model", "parts": parts}}]}


#: An operation: ``(name, sync form, async form)``; each form takes the module(s) it works on.
Operation = tuple[str, Callable[[Any], Any], Callable[[Any], Any]]


def module_operations(template: str) -> list[Operation]:
    """Every public entry point on one module of ``template``."""
    calls = TEMPLATES[template][1]
    first = calls[0][0]
    ops: list[Operation] = []
    for provider, strict in VARIANTS:
        emit = _emit(provider, strict)
        ops.append((f"emit:{provider}:{strict}", emit, _async(emit)))
    ops += [
        ("describe", toolcall.describe, _async(toolcall.describe)),
        ("tool_names", toolcall.tool_names, _async(toolcall.tool_names)),
        ("toolset", _toolset_view, _async(_toolset_view)),
        ("function", _function_view(first), _async(_function_view(first))),
    ]
    for index, (name, args) in enumerate(calls):
        ops.append((f"call:{index}", _run(name, args), _arun(name, args)))
    completion, output = chat_completion(calls), responses_output(calls)
    message, response = anthropic_message(calls), gemini_response(calls)
    adapters = [
        ("openai.tool_messages", toolcall.openai.tool_messages, toolcall.openai.atool_messages, completion),
        (
            "openai.function_call_outputs",
            toolcall.openai.function_call_outputs,
            toolcall.openai.afunction_call_outputs,
            output,
        ),
        ("anthropic.tool_results", toolcall.anthropic.tool_results, toolcall.anthropic.atool_results, message),
        (
            "gemini.function_responses",
            toolcall.gemini.function_responses,
            toolcall.gemini.afunction_responses,
            response,
        ),
    ]
    for name, sync, asynchronous, turn in adapters:
        ops.append((name, _adapter(sync, turn), _aadapter(asynchronous, turn)))
    return ops


def _emit(provider: str, strict: bool) -> Callable[[Any], Any]:
    return lambda module: toolcall.emit(module, provider, strict=strict)


def _toolset_view(source: Any) -> Any:
    toolset = toolcall.Toolset(*source) if isinstance(source, tuple) else toolcall.Toolset(source)
    return [list(toolset.names), len(toolset), toolcall.emit(toolset, "mcp"), toolcall.describe(toolset)]


def _function_view(name: str) -> Callable[[Any], Any]:
    """A tool function as the source: its definition and its names."""

    def view(module: Any) -> Any:
        function = getattr(module, name)
        return [toolcall.emit(function, "gemini"), toolcall.tool_names(function)]

    return view


def _run(name: str, args: Any) -> Callable[[Any], Any]:
    return lambda source: plain(toolcall.run(source, name, args, context=CONTEXT))


def _arun(name: str, args: Any) -> Callable[[Any], Any]:
    async def call(source: Any) -> Any:
        return plain(await toolcall.arun(source, name, args, context=CONTEXT))

    return call


def _adapter(adapter: Callable[..., Any], turn: Any) -> Callable[[Any], Any]:
    return lambda module: adapter(module, turn, context=CONTEXT)


def _aadapter(adapter: Callable[..., Any], turn: Any) -> Callable[[Any], Any]:
    async def call(module: Any) -> Any:
        return await adapter(module, turn, context=CONTEXT)

    return call


def combined_operations() -> list[Operation]:
    """A ``Toolset`` of a round's three modules of one cache state: built, emitted, dispatched."""
    ops: list[Operation] = []
    ops.append(("combined:toolset", _toolset_view, _async(_toolset_view)))
    for template, (_, calls) in TEMPLATES.items():
        name, args = calls[0]
        ops.append((f"combined:call:{template}", _combined_run(name, args), _combined_arun(name, args)))
    return ops


def _async(sync: Callable[[Any], Any]) -> Callable[[Any], Any]:
    async def call(source: Any) -> Any:
        return sync(source)

    return call


def _combined_run(name: str, args: Any) -> Callable[[Any], Any]:
    return lambda modules: plain(toolcall.run(toolcall.Toolset(*modules), name, args, context=CONTEXT))


def _combined_arun(name: str, args: Any) -> Callable[[Any], Any]:
    async def call(modules: Any) -> Any:
        return plain(await toolcall.arun(toolcall.Toolset(*modules), name, args, context=CONTEXT))

    return call


#: A unit of work: ``(the names of the modules it takes, kind for the report, operation)``.
Work = tuple[tuple[str, ...], str, Operation]


def round_work(prefix: str) -> list[list[Work]]:
    """Per module (and per cache state's combination), the work on it; module names carry ``prefix``."""
    groups: list[list[Work]] = []
    for template in TEMPLATES:
        ops = module_operations(template)
        for kind in KINDS:
            names = (module_name(prefix, template, kind),)
            groups.append([(names, f"{template}_{kind}/{op[0]}", op) for op in ops])
    for kind in KINDS:
        names = tuple(module_name(prefix, template, kind) for template in TEMPLATES)
        groups.append([(names, f"combined_{kind}/{op[0]}", op) for op in combined_operations()])
    return groups


def thread_order(groups: list[list[Work]], index: int) -> list[Work]:
    """Thread ``index``'s work: the groups and each group's operations rotated by ``index``."""
    start = index % len(groups)
    order: list[Work] = []
    for group in groups[start:] + groups[:start]:
        at = (index // len(groups) * 5 + index) % len(group)
        order += group[at:] + group[:at]
    return order


def _source(names: tuple[str, ...]) -> Any:
    modules = tuple(importlib.import_module(name) for name in names)  # the first thread here imports it
    return modules[0] if len(modules) == 1 else modules


def _text(result: Any, prefix: str) -> str:
    """The result as JSON text, with the round's module prefix left out (each round names its modules afresh)."""
    return json.dumps(result).replace(prefix, "")


def run_sync(work: list[Work], prefix: str) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = []
    for names, kind, (_, sync, _) in work:
        try:
            seen.append({"kind": kind, "result": _text(sync(_source(names)), prefix)})
        except BaseException:
            seen.append({"kind": kind, "error": traceback.format_exc()})
    return seen


async def run_async(work: list[Work], prefix: str) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = []
    for names, kind, (_, _, asynchronous) in work:
        try:
            seen.append({"kind": kind, "result": _text(await asynchronous(_source(names)), prefix)})
        except BaseException:
            seen.append({"kind": kind, "error": traceback.format_exc()})
    return seen


# ----------------------------------------------------------------------------------------------------------------
# The reference (one thread) and the rounds (32)


@pytest.fixture(autouse=True)
def caches_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLCALL_CACHE", raising=False)


@pytest.fixture(scope="module")
def one_thread(tmp_path_factory: pytest.TempPathFactory, cache_texts: dict[str, str]) -> dict[str, str]:
    """Each kind of work's result, from one thread: sync calls first, then the async forms in one event loop."""
    prefix = "stressrefx"
    directory = tmp_path_factory.mktemp("reference")
    modules = write_modules(directory, prefix, cache_texts)
    work = [item for group in round_work(prefix) for item in group]
    with _on_path(directory), warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)
        synchronous = run_sync(work, prefix)
        asynchronous = asyncio.run(run_async(work, prefix))
    assert [entry for entry in synchronous if "error" in entry] == []
    for name, kind in modules.items():  # only the current cache is served
        assert {t.cached for t in loaded_tools(as_toolset(sys.modules[name]))} == {kind == "fresh"}, name
    assert asynchronous == synchronous, "the async forms give what the sync ones give"
    return {entry["kind"]: entry["result"] for entry in synchronous}


def run_round(prefix: str) -> tuple[dict[str, Any], list[str]]:
    """32 threads at one barrier on the round's modules; what each saw, and the warnings toolcall issued.

    The warnings are recorded as ``warnings.warn`` is called, not as ``catch_warnings(record=True)`` keeps
    them: the Python documentation calls that not thread-safe, and a record lost there is not toolcall's.
    The caught ones must be among them.
    """
    groups = round_work(prefix)
    barrier = threading.Barrier(THREADS)
    seen: list[list[dict[str, str]]] = [[] for _ in range(THREADS)]

    def worker(index: int) -> None:
        work = thread_order(groups, index)
        try:
            if index % LOOP_EVERY == 0:

                async def in_loop() -> list[dict[str, str]]:
                    barrier.wait()
                    return await run_async(work, prefix)

                seen[index] = asyncio.run(in_loop())
            else:
                barrier.wait()
                seen[index] = run_sync(work, prefix)
        except BaseException:
            seen[index] = [{"kind": "thread", "error": traceback.format_exc()}]

    issued: list[str] = []
    real_warn = warnings.warn

    def recording_warn(message: Any, category: Any = None, *args: Any, **kwargs: Any) -> None:
        if category is ToolcallWarning:
            issued.append(str(message))  # list.append: atomic, with or without the GIL
        real_warn(message, category, *args, **kwargs)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ToolcallWarning)
        warnings.warn = recording_warn  # type: ignore[assignment]
        try:
            threads = [threading.Thread(target=worker, args=(index,)) for index in range(THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            warnings.warn = real_warn
    kept = [str(w.message) for w in caught if issubclass(w.category, ToolcallWarning)]
    assert all(text in issued for text in kept), "a warning caught that toolcall did not issue"
    return {"seen": seen}, issued


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """With the GIL, switch threads as often as possible, so that first uses interleave."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.slow  # half a minute: left out of the fast loop, run by ``-m threads`` and the whole suite
@pytest.mark.usefixtures("fast_switching")
def test_first_uses_from_32_threads_see_what_one_thread_sees(
    tmp_path: Path, cache_texts: dict[str, str], one_thread: dict[str, str]
) -> None:
    for round_number in range(ROUNDS):
        prefix = f"stress{round_number}x"
        directory = tmp_path / f"round{round_number}"
        directory.mkdir()
        modules = write_modules(directory, prefix, cache_texts)
        with _on_path(directory):
            report, warned = run_round(prefix)
        assert problems(report) == [], f"round {round_number}"
        for index, seen in enumerate(report["seen"]):
            assert sorted(entry["kind"] for entry in seen) == sorted(one_thread), f"thread {index} did all its work"
            wrong = [entry["kind"] for entry in seen if entry["result"] != one_thread[entry["kind"]]]
            assert wrong == [], f"round {round_number}, thread {index}: results differ from one thread's"
        for name, kind in modules.items():
            times = sum(name in text for text in warned)
            expected = 1 if kind in UNUSABLE else 0
            assert times == expected, f"{name} ({kind}) named in {times} issued warnings: {warned}"


# ----------------------------------------------------------------------------------------------------------------
# The GIL


def gil_problem(free_threaded: bool, gil_enabled: bool, required: bool) -> str | None:
    """Why this interpreter may not run the thread tests, or ``None``."""
    if free_threaded and gil_enabled:
        return "a free-threaded build runs with the GIL on (an extension module enabled it, or PYTHON_GIL=1)"
    if required and not free_threaded:
        return "TOOLCALL_REQUIRE_FREE_THREADING=1, but this is not a free-threaded build"
    return None


def test_gil_state() -> None:
    is_gil_enabled = getattr(sys, "_is_gil_enabled", None)
    gil_enabled = True if is_gil_enabled is None else bool(is_gil_enabled())
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    shown = "absent (before 3.13)" if is_gil_enabled is None else gil_enabled
    print(f"\nsys._is_gil_enabled() = {shown} (free-threaded build: {free_threaded})")
    required = os.environ.get("TOOLCALL_REQUIRE_FREE_THREADING") == "1"
    problem = gil_problem(free_threaded, gil_enabled, required)
    assert problem is None, problem


@pytest.mark.parametrize(
    ("free_threaded", "gil_enabled", "required", "refused"),
    [
        (True, False, True, False),
        (True, False, False, False),
        (True, True, False, True),
        (True, True, True, True),
        (False, True, False, False),
        (False, True, True, True),
    ],
)
def test_gil_problems(free_threaded: bool, gil_enabled: bool, required: bool, refused: bool) -> None:
    assert (gil_problem(free_threaded, gil_enabled, required) is not None) is refused
