"""Model text in ``str(error)`` is shown escaped; numbers are shown as JSON writes them.

Every character that could reorder, hide or break the line a reader sees
(controls C0 and C1, bidi overrides, isolates and marks, zero-width and
other format characters, the BOM, tag characters, line and paragraph
separators, lone surrogates) is shown as its ``\\uXXXX`` escape wherever a
message echoes text: a value, a key, a path, the message of an exception
the tool raised. Other non-ASCII text is shown as is, and ``to_json()``
keeps the raw data. A number is never quoted: ``got NaN``, ``got
Infinity``, ``got 5``, while a string always is: ``got "nan"``.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import toolcall
from toolcall import Err, errors

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@toolcall.tool
def double(x: int) -> int:
    """Double a number."""
    return 2 * x


@toolcall.tool
def greet(name: str) -> str:
    """Greet someone."""
    return f"hello {name}"


@toolcall.tool
def tally(m: dict[str, int]) -> int:
    """Sum the scores."""
    return sum(m.values())


@toolcall.tool
def echo_failure(text: str) -> None:
    """Raise a ValueError that quotes the text."""
    raise ValueError(f"cannot use {text}")


@toolcall.tool
def leave(code: float) -> None:
    """Exit with the code."""
    raise SystemExit(code)


def message(tool: Any, args: Any) -> str:
    """The message of the error ``run`` returns, checked to be one bounded line of UTF-8."""
    result = toolcall.run(tool, tool.__name__, args)
    assert isinstance(result, Err), result
    text = str(result.error)
    assert len(text.splitlines()) == 1, text
    assert len(text) <= errors.MAX_MESSAGE_LENGTH
    text.encode("utf-8")
    json.dumps(result.error.to_json())
    return text


def escape(char: str) -> str:
    """``char`` as JSON's ``\\uXXXX`` escape (a surrogate pair beyond the BMP)."""
    return json.dumps(char, ensure_ascii=True)[1:-1]


#: Characters that must never reach a message raw.
HIDDEN = [
    *map(chr, range(0x80, 0xA0)),  # C1 controls, U+009B is the terminal's CSI
    *map(chr, range(0x202A, 0x202F)),  # bidi embeddings and overrides
    *map(chr, range(0x2066, 0x206A)),  # bidi isolates
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\u200b",  # zero-width space
    "\u2028",  # line separator
    "\u2029",  # paragraph separator
    "\ufeff",  # byte order mark
    "\U000e0041",  # tag latin capital letter A
    "\x7f",
    "\x1b",
]


@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_a_hidden_character_is_escaped_in_every_echo(char: str) -> None:
    text = f"a{char}b"
    shown = escape(char)
    assert message(double, {"x": text}) == f'invalid argument "x": expected an integer, got "a{shown}b"'
    assert message(double, {"x": 1, text: 1}).startswith(f'unknown arguments "a{shown}b"')
    assert message(tally, {"m": {text: "1"}}).startswith(f'invalid argument "m" at ["a{shown}b"]:')
    assert message(echo_failure, {"text": text}) == f"the tool failed with ValueError: cannot use a{shown}b"
    unknown = toolcall.run(toolcall.Toolset(double), text, {})
    assert isinstance(unknown, Err)
    assert str(unknown.error).startswith(f'unknown tool "a{shown}b"')


def test_to_json_keeps_the_raw_text() -> None:
    result = toolcall.run(double, "double", {"x": "\u202eevil\x9b"})
    assert isinstance(result, Err)
    assert json.dumps(result.error.to_json()["reason"]["value"]) == json.dumps("\u202eevil\x9b")


def test_other_non_ascii_text_is_shown_as_is() -> None:
    text = "Zürich 東京 😀 مرحبا"
    assert message(double, {"x": text}) == f'invalid argument "x": expected an integer, got "{text}"'


@SETTINGS
@given(text=st.text(st.characters(exclude_categories=()), max_size=40))
@example(text="\u202e\u2066\x9b\ufeff\U000e0001")
def test_no_control_format_or_separator_character_reaches_a_message(text: str) -> None:
    for line in (message(double, {"x": text}), message(echo_failure, {"text": text})):
        raw = [c for c in line if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
        assert not raw, line


# -- numbers -------------------------------------------------------------------------------------------


NUMBERS = [
    (float("nan"), "NaN"),
    (float("inf"), "Infinity"),
    (float("-inf"), "-Infinity"),
    (1.5, "1.5"),
    (-0.0, "-0.0"),
    (5, "5"),
    (True, "true"),
    (None, "null"),
    ("nan", '"nan"'),
    ("5", '"5"'),
    ([float("nan"), "nan", 1], '[NaN, "nan", 1]'),
    ([{"a": float("inf")}], '[{"a": Infinity}]'),
]


@pytest.mark.parametrize(("value", "shown"), NUMBERS, ids=[repr(v) for v, _ in NUMBERS])
def test_a_number_is_unquoted_and_a_string_quoted(value: Any, shown: str) -> None:
    assert message(tally, {"m": value}) == f'invalid argument "m": expected an object, got {shown}'


def test_a_float_subclass_nan_is_a_number_too() -> None:
    class Measured(float):
        pass

    assert message(greet, {"name": Measured("nan")}).endswith("got NaN")


def test_a_huge_integer_is_unquoted() -> None:
    shown = message(greet, {"name": 10**5000})
    assert shown == 'invalid argument "name": expected a string, got <an integer of 5001 digits>'
    long = message(greet, {"name": 10**100})
    assert long.endswith(f"got 1{'0' * 79}… (101 digits)")


def test_the_exit_code_nan_is_unquoted() -> None:
    assert message(leave, {"code": float("nan")}) == "the tool exited with code NaN"
