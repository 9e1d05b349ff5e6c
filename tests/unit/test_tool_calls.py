"""What the adapters share: result encoding, argument decoding, and importing no SDK."""

from __future__ import annotations

import datetime as dt
import json
import logging
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import toolcall
import toolcall.anthropic
from tests import adapter_tools
from tests.paths import ROOT
from toolcall._tool_calls import outcome, text_reply
from toolcall._wire import json_decode
from toolcall._wire.json_limits import BeyondLimits
from toolcall._wire.return_values import NotJSON, plain

REPORT_TEXT = json.dumps(
    {
        "mood": "stormy",
        "at": "2024-05-01T12:30:00+00:00",
        "day": "2024-05-01",
        "alarm": "07:15:00",
        "wait": "PT1H30M",
        "ticket": "123e4567-e89b-12d3-a456-426614174000",
        "price": "12.50",
        "where": "/srv/data",
        "point": {"x": 3, "y": 4},
        "tags": ["wind"],
        "pair": [1, "one"],
        "stats": {"count": 2, "mean": 1.5},
    },
    ensure_ascii=False,
)


def answer(name: str, arguments: Any) -> str:
    return text_reply(name, outcome(adapter_tools, name, arguments, None))[1]


def test_the_encoding_table() -> None:
    assert answer("report", {}) == REPORT_TEXT


@pytest.mark.parametrize(
    ("kind", "what"),
    [
        ("object", "an object of type object"),
        ("nan", "the number nan"),
        ("surrogate", "a string that is not valid Unicode (a lone surrogate)"),
        ("key", "a dict key of type tuple"),
        ("bytes", "an object of type bytes"),
    ],
)
def test_a_value_json_cannot_carry_is_an_error_reply_and_a_log(
    kind: str, what: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="toolcall"):
        ok, text = text_reply("opaque", outcome(adapter_tools, "opaque", {"kind": kind}, None))
    assert not ok
    assert text == f"the tool returned {what}, which JSON cannot carry"
    assert [r.getMessage() for r in caplog.records] == [f"tool 'opaque' returned {what}, which JSON cannot carry"]


def test_a_dict_of_plain_scalars_is_passed_on_as_it_is() -> None:
    flat = {"city": "Oslo", "days": 5, "temp": 21.5, "ok": True, "note": None}
    assert plain(flat) is flat  # checked, not copied: the common result costs no new dict


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({1: "one", "b": "x"}, {"1": "one", "b": "x"}),
        ({"é": "ü", "n": [1]}, {"é": "ü", "n": [1]}),
        ({"when": dt.date(2024, 5, 1)}, {"when": "2024-05-01"}),
    ],
)
def test_a_dict_that_is_not_plain_json_is_converted(value: dict[Any, Any], expected: dict[str, Any]) -> None:
    converted = plain(value)
    assert converted is not value
    assert json.dumps(converted) == json.dumps(expected)


@pytest.mark.parametrize(
    "value", [{"x": float("nan")}, {"x": "\ud800"}, {"\ud800": 1}, {"x": float("-inf")}, {(1,): 2}]
)
def test_a_dict_json_cannot_carry_is_refused(value: dict[Any, Any]) -> None:
    with pytest.raises(NotJSON):
        plain(value)


def test_a_value_containing_itself_is_an_error_reply(caplog: pytest.LogCaptureFixture) -> None:
    loop: list[Any] = []
    loop.append(loop)

    @toolcall.tool
    def cyclic() -> list[Any]:
        """Return a list that contains itself."""
        return loop

    with caplog.at_level(logging.ERROR, logger="toolcall"):
        ok, text = text_reply("cyclic", outcome(cyclic, "cyclic", {}, None))
    assert not ok
    assert text.startswith("the tool returned a value nested too deeply")
    assert caplog.records


def test_adapters_import_no_sdk() -> None:
    code = (
        "import sys, toolcall.openai, toolcall.anthropic, toolcall.gemini\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openai', 'anthropic', 'google', 'msgspec')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- decoding ---------------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def texts() -> st.SearchStrategy[str]:
    """JSON texts, and JSON texts with a piece cut out or a character put in (mostly not JSON)."""
    valid = json_values.map(json.dumps)
    broken = st.tuples(valid, st.integers(0, 50), st.sampled_from(["", ",", "}", "\\", "\udcff", "NaN", "1e999"]))
    return valid | broken.map(lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]) | st.text(max_size=30)


def loads_outcome(text: str) -> Any:
    """What ``json.loads`` makes of ``text``: its value as JSON text, or the error and its position."""
    try:
        return ("value", json.dumps(json.loads(text)))
    except json.JSONDecodeError as exc:
        return ("error", exc.msg, exc.pos)
    except RecursionError:
        return ("too deep",)


def decoded(text: str) -> Any:
    try:
        return ("value", json.dumps(json_decode.decode_arguments(text)))
    except json.JSONDecodeError as exc:
        return ("error", exc.msg, exc.pos)
    except BeyondLimits as exc:
        return ("too deep",) if [code for _, code, _ in exc.places] == ["too_deep"] else ("beyond", exc.places)


# The fixture only chooses the decoder, which every example shares.
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts())
# The edges of orjson's integers (-2**63 to 2**64 - 1): one past either end is a float to orjson.
@example(text="-9223372036854775808")
@example(text="-9223372036854775809")
@example(text="18446744073709551615")
@example(text="18446744073709551616")
@example(text='{"n": [1, -9223372036854775809]}')
def test_every_decoder_gives_what_json_loads_gives(decoder: str, text: str) -> None:
    assert decoded(text) == loads_outcome(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"n": 123456789012345678901234567890}',  # orjson would answer a float
        '{"n": -18446744073709551616}',
        '{"s": "\\udcff"}',  # a lone surrogate escape: json.loads keeps it, the dispatcher reports it
        '{"x": NaN, "y": Infinity}',
        '{"x": 1e400}',
        '{"a": 1, "a": 2}',
        "[" * 5000 + "]" * 5000,
        '{"a": 1',
        "\ufeff{}",
    ],
)
def test_texts_the_fast_decoders_get_wrong_or_refuse(decoder: str, text: str) -> None:
    assert decoded(text) == loads_outcome(text)


def test_a_big_integer_reaches_the_tool_exactly(decoder: str) -> None:
    completion = {
        "tool_calls": [
            {
                "id": "c",
                "function": {
                    "name": "get_weather",
                    "arguments": '{"city": "x", "days": 123456789012345678901234567890}',
                },
            }
        ]
    }
    import toolcall.openai

    (message,) = toolcall.openai.tool_messages(adapter_tools, completion)
    assert message["content"] == '{"city": "x", "days": 123456789012345678901234567890, "temp": 21.5}'


# -- the documentation ------------------------------------------------------------------------------------------


def documented_replies() -> list[tuple[Any, str]]:
    """The rows of docs/providers.md's table of what the model reads for the weather tool: (arguments, text)."""

    text = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    table = text.split("| the call | what the model reads |")[1].split("\n\n")[0]
    rows = []
    for line in table.splitlines()[2:]:
        call, read = (cell.strip() for cell in line.strip("|").split(" | "))
        if call.startswith("`"):
            rows.append((json.loads(call.strip("`")), read.strip("`")))
        elif call.startswith("arguments `"):
            rows.append((call.removeprefix("arguments ").strip("`"), read.strip("`")))
    return rows


@pytest.mark.parametrize(("arguments", "read"), documented_replies())
def test_the_documented_error_results_are_what_the_model_reads(arguments: Any, read: str) -> None:
    found = answer("get_weather", arguments)
    if read.endswith("..."):
        assert found.startswith(read.removesuffix("..."))
    else:
        assert found == read
