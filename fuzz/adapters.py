"""Fuzz target: a turn of tool calls through the OpenAI, Anthropic and Gemini adapters, sync and async.

``inputs()`` makes one turn as the plain dicts the provider APIs send: an
OpenAI Chat Completions assistant message or Responses API output list,
whose arguments are JSON text (valid for the tool, cut or spliced, holding
integers past the int-string limit, nesting past the recursion limit, lone
surrogate escapes, invalid UTF-8 read with ``surrogateescape``, ...), or
Anthropic ``tool_use`` blocks and Gemini ``function_call`` parts, whose
arguments are data (valid for the tool, or with one value swapped for a
hostile one). The tools are ``fuzz.tools``.

``check`` runs the turn through the sync and the async adapter and asserts
the contract: nothing escapes, each reply has the provider's shape and the
calls' order, every error text is one line of at most
``toolcall.errors.MAX_MESSAGE_LENGTH`` characters, each call finishes within
``BOUND`` seconds, and every value that reached a tool had its annotated
type.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import toolcall
import toolcall.anthropic
import toolcall.gemini
import toolcall.openai
from fuzz import tools
from toolcall.errors import MAX_MESSAGE_LENGTH

__all__ = ["BOUND", "check", "inputs", "setup", "teardown"]

#: Seconds one turn may take through one adapter: a hang bound, far above any honest call.
BOUND = 20.0
APIS = ("chat", "responses", "anthropic", "gemini")
NAMES = [*toolcall.tool_names(tools), "no_such_tool", ""]

#: Integers around and past the int-string limit, as text.
_DIGITS = [4299, 4300, 4301, 5000, 100_000]
_DEPTHS = [10, 200, 999, 1000, 1001, 5000, 100_000]
#: Hostile values as JSON text, to splice into arguments text.
_TEXT_PIECES = [
    *(sign + "7" * n for n in _DIGITS for sign in ("", "-")),
    *("[" * n + "]" * n for n in _DEPTHS),
    '{"a": ' * 3000 + "1" + "}" * 3000,
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\udc00\\ud800"',
    '"\ud800"',
    '"\u202e\u009b\u2028"',
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    "1" * 400 + ".5",
    '"' + "x" * 100_000 + '"',
    "true",
    "null",
    "5.0",
]
#: Hostile values as data, for the adapters that get decoded arguments (built once: some are large).
_DATA_PIECES: list[Any] = [
    10**5000,
    -(10**5000),
    [1, 10**5000],
    {"k": 10**5000},
    *(tools.nested(n) for n in (10, 200, 999, 1000, 1001, 5000)),
    "\ud800",
    {"\udcff": 1},
    float("nan"),
    float("inf"),
    True,
    5.0,
    2**63,
    "x" * 100_000,
    None,
    [],
    {},
]
#: Stands in for a value in JSON text until a piece replaces it.
_HOLE = "\x00hole\x00"
_HOLE_TEXT = json.dumps(_HOLE)


_INTS = st.integers(-(2**70), 2**70)
_FLOATS = st.floats(allow_nan=False, allow_infinity=False) | _INTS
_TEXT = st.text(max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | _INTS | _FLOATS | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_POINT = st.fixed_dictionaries({"x": _INTS}, optional={"y": _FLOATS})
_ITEM = st.fixed_dictionaries({"sku": _TEXT, "qty": st.integers(1, 99)}, optional={"tags": st.lists(_TEXT, max_size=3)})
_PAIR = st.fixed_dictionaries({"a": _INTS, "b": _TEXT})
_AWKWARD = ["nan", "surrogate", "huge", "huge_key", "loop", "deep", "object", "bytes", "raise", "exit", "ok"]
#: Arguments each tool accepts (and, for unions and Any, some it may not); any small object for another name.
_VALID: dict[str, st.SearchStrategy[Any]] = {
    "shapes": st.fixed_dictionaries(
        {"point": _POINT, "items": st.lists(_ITEM, max_size=3)},
        optional={
            "color": st.sampled_from(["red", "green"]),
            "size": st.sampled_from([1, 2]),
            "mode": st.sampled_from(["a", "b", 3]),
            "pair": _PAIR | st.none(),
        },
    ),
    "times": st.fixed_dictionaries(
        {
            "at": st.datetimes(timezones=st.just(dt.UTC)).map(dt.datetime.isoformat),
            "day": st.dates().map(dt.date.isoformat),
        },
        optional={
            "wait": st.sampled_from(["PT1H30M", "P1D", "PT0S", "-PT5M", "P2W", "PT1.5S", None]),
            "ticket": st.uuids().map(str) | st.none(),
            "price": st.decimals(allow_nan=False, allow_infinity=False, places=2).map(str),
            "alarm": st.times().map(dt.time.isoformat) | st.none(),
        },
    ),
    "nesting": st.fixed_dictionaries(
        {
            "grid": st.lists(st.lists(_INTS, max_size=3), max_size=3),
            "table": st.dictionaries(_TEXT, st.dictionaries(_TEXT, _FLOATS, max_size=2), max_size=2),
        },
        optional={
            "pair": st.tuples(_INTS, _TEXT).map(list),
            "tags": st.lists(_TEXT, max_size=3, unique=True) | st.none(),
            "anything": _JSON,
            "rest": st.lists(_FLOATS, max_size=3),
        },
    ),
    "unions": st.fixed_dictionaries(
        {"value": _INTS | _TEXT | st.lists(_INTS, max_size=3)},
        optional={
            "maybe": _POINT | st.none(),
            "big": _INTS.map(str),
            "bounded": st.integers(-1, 11),
            "text": st.text(max_size=22),
            "flag": st.booleans(),
            "ratio": _FLOATS,
        },
    ),
    "echo": st.fixed_dictionaries({"text": _TEXT}, optional={"count": st.integers(-1, 4)}),
    "awkward": st.fixed_dictionaries({"kind": st.sampled_from(_AWKWARD)}),
}
_ANY_OBJECT = st.dictionaries(_TEXT, _INTS, max_size=3)


def _valid(name: str) -> st.SearchStrategy[Any]:
    return _VALID.get(name, _ANY_OBJECT)


def _with_piece(data: Any, pieces: list[Any]) -> st.SearchStrategy[Any]:
    """``data`` (an object) with one member's value, or a new member, swapped for one of ``pieces``."""
    if type(data) is not dict:
        return st.sampled_from(pieces)
    keys = [*data, "extra"]
    return st.tuples(st.sampled_from(keys), st.sampled_from(pieces)).map(lambda kv: {**data, kv[0]: kv[1]})


def _arguments_data(name: str) -> st.SearchStrategy[Any]:
    valid = _valid(name)
    return st.one_of(valid, valid.flatmap(lambda data: _with_piece(data, _DATA_PIECES)), st.none())


def _spliced(data: Any) -> st.SearchStrategy[str]:
    """Valid arguments with one value replaced by a hostile piece of JSON text."""
    return _with_piece(data, [_HOLE]).flatmap(
        lambda holed: st.sampled_from(_TEXT_PIECES).map(lambda piece: json.dumps(holed).replace(_HOLE_TEXT, piece))
    )


def _mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a piece cut out or a character put in (mostly not JSON)."""
    inserts = st.sampled_from(["", ",", "}", "]", "\\", '"', "\udcff", "\ud800", "NaN", "7" * 5000, "["])
    return st.tuples(st.integers(0, max(len(text), 1)), st.integers(0, 3), inserts).map(
        lambda t: text[: t[0]] + t[2] + text[t[0] + t[1] :]
    )


def _arguments_text(name: str) -> st.SearchStrategy[Any]:
    valid = _valid(name)
    invalid_utf8 = st.binary(max_size=40).map(lambda raw: raw.decode("utf-8", "surrogateescape"))
    return st.one_of(
        valid.map(json.dumps),
        valid.map(lambda data: json.dumps(data, ensure_ascii=False)),
        valid.flatmap(_spliced),
        valid.map(json.dumps).flatmap(_mutated),
        st.sampled_from(_TEXT_PIECES),
        invalid_utf8,
        invalid_utf8.map(lambda text: '{"text": "' + text + '"}'),
        st.text(max_size=30),
        st.just(""),
    )


def _call(api: str) -> st.SearchStrategy[tuple[str, Any]]:
    arguments = _arguments_text if api in ("chat", "responses") else _arguments_data
    return st.sampled_from(NAMES).flatmap(lambda name: st.tuples(st.just(name), arguments(name)))


def _turn(api: str, calls: list[tuple[str, Any]]) -> Any:
    """The plain dicts a provider sends for ``calls``."""
    if api == "chat":
        tool_calls = [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": arguments}}
            for i, (name, arguments) in enumerate(calls)
        ]
        return {"role": "assistant", "content": None, "tool_calls": tool_calls}
    if api == "responses":
        return [
            {"type": "function_call", "call_id": f"call_{i}", "name": name, "arguments": arguments}
            for i, (name, arguments) in enumerate(calls)
        ]
    if api == "anthropic":
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "Let me check."}]
        blocks += [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
        return {"role": "assistant", "content": blocks}
    parts = [{"function_call": {"id": f"fc_{i}", "name": n, "args": a}} for i, (n, a) in enumerate(calls)]
    return {"candidates": [{"content": {"role": "model", "parts": parts}}]}


def inputs() -> st.SearchStrategy[Any]:
    """One turn: ``(api, calls, the provider's plain dicts)``."""
    return st.sampled_from(APIS).flatmap(
        lambda api: st.lists(_call(api), max_size=3).map(lambda calls: (api, calls, _turn(api, calls)))
    )


# -- the checks ----------------------------------------------------------------------------------------------------


def _error_line(text: Any, where: str) -> None:
    assert type(text) is str, f"{where}: the error is {type(text).__name__}, not a str"
    assert not {"\n", "\r"} & set(text), f"{where}: the error is not one line: {text[:200]!r}"
    assert len(text) <= MAX_MESSAGE_LENGTH, f"{where}: the error has {len(text)} characters"
    text.encode("utf-8")  # valid UTF-8: a lone surrogate raises here


def _count(found: Any, count: int) -> None:
    assert type(found) is list, f"{type(found).__name__}, not a list"
    assert len(found) == count, f"{count} calls gave {found!r:.300}"


def _check_chat(found: Any, count: int) -> None:
    _count(found, count)
    for i, message in enumerate(found):
        assert list(message) == ["role", "tool_call_id", "content"], f"message {i}: {message!r:.300}"
        assert (message["role"], message["tool_call_id"]) == ("tool", f"call_{i}"), f"message {i}: {message!r:.300}"
        _content(message["content"], f"message {i}")


def _check_responses(found: Any, count: int) -> None:
    _count(found, count)
    for i, item in enumerate(found):
        assert list(item) == ["type", "call_id", "output"], f"item {i}: {item!r:.300}"
        assert (item["type"], item["call_id"]) == ("function_call_output", f"call_{i}"), f"item {i}: {item!r:.300}"
        _content(item["output"], f"item {i}")


def _content(content: Any, where: str) -> None:
    assert type(content) is str, f"{where}: content is {type(content).__name__}"
    if content.startswith(toolcall.openai.ERROR_PREFIX):
        _error_line(content.removeprefix(toolcall.openai.ERROR_PREFIX), where)
    else:
        content.encode("utf-8")


def _check_anthropic(found: Any, count: int) -> None:
    if count == 0:
        assert found is None, f"no tool_use gave {found!r:.300}"
        return
    assert list(found) == ["role", "content"], f"{found!r:.300}"
    assert found["role"] == "user", f"{found!r:.300}"
    assert len(found["content"]) == count, f"{count} calls gave {len(found['content'])} blocks"
    for i, block in enumerate(found["content"]):
        assert (block["type"], block["tool_use_id"]) == ("tool_result", f"toolu_{i}"), f"block {i}: {block!r:.300}"
        if block.get("is_error"):
            assert list(block) == ["type", "tool_use_id", "content", "is_error"], f"block {i}: {block!r:.300}"
            _error_line(block["content"], f"block {i}")
        else:
            assert list(block) == ["type", "tool_use_id", "content"], f"block {i}: {block!r:.300}"
            block["content"].encode("utf-8")


def _check_gemini(found: Any, count: int) -> None:
    _count(found, count)
    for i, part in enumerate(found):
        response = part["function_response"]
        assert response["id"] == f"fc_{i}", f"part {i}: {part!r:.300}"
        body = response["response"]
        assert list(body) in (["output"], ["error"]), f"part {i}: {body!r:.300}"
        if "error" in body:
            _error_line(body["error"], f"part {i}")
        else:
            json.dumps(body["output"], allow_nan=False).encode("utf-8")  # plain JSON data


_ADAPTERS: dict[str, tuple[Callable[..., Any], Callable[..., Any], Callable[[Any, int], None]]] = {
    "chat": (toolcall.openai.tool_messages, toolcall.openai.atool_messages, _check_chat),
    "responses": (toolcall.openai.function_call_outputs, toolcall.openai.afunction_call_outputs, _check_responses),
    "anthropic": (toolcall.anthropic.tool_results, toolcall.anthropic.atool_results, _check_anthropic),
    "gemini": (toolcall.gemini.function_responses, toolcall.gemini.afunction_responses, _check_gemini),
}


def _timed(run: Callable[[], Any], what: str) -> Any:
    start = time.monotonic()
    try:
        found = run()
    except Exception as exc:
        raise AssertionError(f"{what} raised {type(exc).__name__}: {str(exc)[:300]}") from exc
    took = time.monotonic() - start
    assert took <= BOUND, f"{what} took {took:.1f} s (bound {BOUND} s)"
    return found


def check(value: Any) -> None:
    """Run one turn through the sync and the async adapter of its API; ``AssertionError`` if the contract breaks."""
    api, calls, turn = value
    sync, run_async, shape = _ADAPTERS[api]
    for form, run in (("sync", lambda: sync(tools, turn)), ("async", lambda: asyncio.run(run_async(tools, turn)))):
        tools.VIOLATIONS.clear()
        found = _timed(run, f"{api} {form}")
        shape(found, len(calls))
        assert not tools.VIOLATIONS, f"{api} {form}: a tool received a wrong value: {tools.VIOLATIONS[0]}"


_LOGGER = logging.getLogger("toolcall")
_saved: list[bool] = []


def setup() -> None:
    """Keep the ERROR records of tools that raise or return what JSON cannot carry out of the output."""
    _saved.append(_LOGGER.disabled)
    _LOGGER.disabled = True


def teardown() -> None:
    """Restore the logger."""
    _LOGGER.disabled = _saved.pop() if _saved else False
