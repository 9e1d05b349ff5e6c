"""``str(error)`` is one bounded line of valid UTF-8; ``to_json()`` keeps the full data.

Hostile keys and values (newlines, line separators, control characters, lone
surrogates, megabytes of text, a million keys, nesting beyond the recursion
limit) go through ``toolcall.run`` on the small tools below, and every error
that comes back must read as one line a model can take: no line break, no
lone surrogate, at most 1,000 characters, keys and values shown as JSON
writes them, long values cut with their size and long lists ending with how
many were left out; ``to_json()`` still holds everything. Each test fails on
the messages as they were before the bound (raw line breaks, a 10 MB list of
keys, "nested too deeply (nested too deeply)").
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any, TypedDict

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import toolcall
from toolcall import errors
from toolcall._dispatch.result import Err

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: The bound docs/dispatch.md promises for ``str(error)``, in characters.
MAX_MESSAGE_LENGTH = 1000

#: Characters that break a line, UTF-8 or a JSON string when echoed raw.
HOSTILE = [
    "\n",
    "\r",
    "\r\n",
    "\u2028",
    "\u2029",
    "\x85",
    "\x0b",
    "\x1e",
    "\x00",
    "\x7f",
    "\udcff",
    "\ud800",
    '"',
    "\\",
]

_PIECE = st.sampled_from(HOSTILE) | st.text(st.characters(exclude_categories=()), max_size=6)
_SHORT = st.lists(_PIECE, min_size=1, max_size=6).map("".join).filter(bool)


def texts(*sizes: int) -> st.SearchStrategy[str]:
    """Text of about one of ``sizes`` characters (at least a few), hostile characters likely."""
    return st.builds(lambda text, size: text * max(1, size // len(text)), _SHORT, st.sampled_from(sizes))


#: Text of any size up to a megabyte.
TEXT = texts(1, 100, 5000, 10**6)


def json_text(text: str) -> str:
    """``text`` as the messages show it: JSON's escapes, and every control, format or separator as ``\\uXXXX``."""
    return "".join(
        json.dumps(char)[1:-1] if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp") else char
        for char in json.dumps(text, ensure_ascii=False)
    )


def error_of(result: Any) -> Any:
    """The error of an ``Err`` (any of ``toolcall.errors``)."""
    assert isinstance(result, Err), result
    return result.error


def line_of(result: Any) -> str:
    """The error's message, checked to be one bounded line of UTF-8; its JSON is checked to encode."""
    text = str(error_of(result))
    assert text
    assert "\n" not in text
    assert "\r" not in text
    assert len(text.splitlines()) == 1, text
    text.encode("utf-8")
    assert len(text) <= MAX_MESSAGE_LENGTH, len(text)
    json.dumps(error_of(result).to_json(), ensure_ascii=False).encode("utf-8")
    return text


# -- the tools -------------------------------------------------------------------------------------------


@toolcall.tool
def tally(m: dict[str, int]) -> int:
    """Sum the scores."""
    return sum(m.values())


@toolcall.tool
def double(x: int) -> int:
    """Double a number."""
    return 2 * x


@toolcall.tool
def keep(anything: Any) -> Any:
    """Return anything."""
    return anything


@toolcall.tool
def fail(codepoints: list[int], times: int = 1) -> None:
    """Raise a ValueError whose message is the given code points, repeated."""
    raise ValueError("".join(map(chr, codepoints)) * times)


class Unprintable:
    """An object whose ``repr`` and ``str`` raise."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


#: What ``leave`` exits with, made on demand (a million items are not kept around).
ODD_CODES: dict[str, Callable[[], Any]] = {
    "newline": lambda: "bye\nnow",
    "separator": lambda: "bye\u2028now",
    "surrogate": lambda: "bye\udcff",
    "huge_int": lambda: 10**5000,
    "nan": lambda: float("nan"),
    "unprintable": Unprintable,
    "million": lambda: list(range(10**6)),
    "none": lambda: None,
}


@toolcall.tool
def leave(kind: str) -> None:
    """Exit with one of the odd codes."""
    raise SystemExit(ODD_CODES[kind]())


def run(tool: Any, args: Any) -> str:
    """``run`` on ``tool`` alone; the message of the error it returns."""
    return line_of(toolcall.run(tool, tool.__name__, args))


# -- keys and values the model sent ----------------------------------------------------------------------


@SETTINGS
@given(key=TEXT)
@example(key="a\nb")
@example(key="\udcff")
@example(key="x\u2028y")
def test_a_hostile_key_inside_an_argument(key: str) -> None:
    result = toolcall.run(tally, "tally", {"m": {key: "x"}})
    text = line_of(result)
    assert error_of(result).to_json()["reason"]["path"] == [errors.json_safe(key)]
    if len(json_text(key)) <= 40 and not re.fullmatch("[A-Za-z_][A-Za-z0-9_]*", key):
        assert f"[{json_text(key)}]" in text


@SETTINGS
@given(key=TEXT)
@example(key="a\nb")
@example(key="\udcff")
@example(key="\u2029")
def test_a_hostile_unknown_key(key: str) -> None:
    assume(key != "x")
    result = toolcall.run(double, "double", {"x": 1, key: 1})
    text = line_of(result)
    assert error_of(result).to_json()["names"] == [errors.json_safe(key)]
    if len(json_text(key)) <= 80:
        assert json_text(key) in text
    else:
        assert f"… ({len(key)} characters)" in text


@SETTINGS
@given(value=TEXT)
@example(value="a\u2028b")
@example(value="y" * 10**6)
def test_a_hostile_value(value: str) -> None:
    result = toolcall.run(double, "double", {"x": value})
    text = line_of(result)
    assert error_of(result).to_json()["reason"]["value"] == errors.json_safe(value)
    if len(json_text(value)) > 80:
        assert text.endswith(f"… ({len(value)} characters)")


def test_a_megabyte_value_is_cut_with_its_size() -> None:
    text = run(double, {"x": "y" * 10**6})
    assert text.endswith(f'got "{"y" * 79}… (1000000 characters)')


@SETTINGS
@given(key=texts(1, 100, 5000).filter(lambda text: not re.search("[\ud800-\udfff]", text)))
@example(key="k\u2028" * 40)
def test_a_long_path_of_hostile_keys(key: str) -> None:
    value: Any = "\udcff"  # refused at the bottom: the path names every key on the way
    for _ in range(50):
        value = {key: value}
    result = toolcall.run(keep, "keep", {"anything": value})
    text = line_of(result)
    assert error_of(result).reason.code == "invalid_unicode"
    assert len(error_of(result).to_json()["reason"]["path"]) == 50
    assert text.endswith(r'got "\udcff"')
    if len(key) >= 4:  # 50 steps of 5 characters or more: longer than a message shows
        assert '"anything" at …' in text


# -- the size of lists --------------------------------------------------------------------------------------


def test_a_million_unknown_keys_are_counted_not_listed() -> None:
    args = {"x": 1, **{f"key{i}": i for i in range(10**6)}}
    result = toolcall.run(double, "double", args)
    text = line_of(result)
    found = re.search(
        r', … and (\d+) more: send only the parameters the tool declares; the accepted arguments are "x"$', text
    )
    assert found is not None, text
    listed = text.count('"key')
    assert listed + int(found.group(1)) == 10**6
    names = error_of(result).to_json()["names"]
    assert names == [f"key{i}" for i in range(10**6)]  # the full data, not the message's cut


class Point(TypedDict):
    """A point on a line."""

    x: int


@toolcall.tool
def place(p: Point) -> int:
    """Place a point."""
    return p["x"]


def test_many_unknown_fields_inside_an_argument() -> None:
    result = toolcall.run(place, "place", {"p": {"x": 1, **{f"k\u2028{i}": 1 for i in range(10**5)}}})
    text = line_of(result)
    assert text.startswith(r'invalid argument "p": unknown fields, got ["k\u20280", "k\u20281", ')
    assert text.endswith('… (100000 items); the accepted fields are "x"')
    assert len(error_of(result).to_json()["reason"]["value"]) == 10**5


def test_non_string_keys_of_any_kind() -> None:
    keys: list[Any] = [1, (1, "a\u2028"), Unprintable(), 10**5000, float("nan"), None, frozenset({"\udcff"})]
    result = toolcall.run(double, "double", {"x": 1, **dict.fromkeys(keys, 1)})
    text = line_of(result)
    assert text.startswith('argument names must be strings, got 1, [1, "a\\u2028"], "<Unprintable object>"')
    many = toolcall.run(double, "double", {"x": 1, **dict.fromkeys(range(10**5), 1)})
    assert re.search(r", … and \d+ more$", line_of(many))
    assert len(error_of(many).to_json()["keys"]) == 10**5


def test_invalid_arguments_huge_deep_and_hostile() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert run(double, list(range(10**6))).endswith("… (1000000 items)")
    assert run(double, deep).endswith("… (1 item)")
    assert run(double, ["a\u2028b", {"\udcff": "\x85"}]).endswith(r'got ["a\u2028b", {"\udcff": "\u0085"}]')


def test_unknown_tool_hostile_name_and_many_tools() -> None:
    def make(index: int) -> Any:
        def tool(x: int) -> int:
            """Return x."""
            return x

        return toolcall.tool(tool, name=f"tool_{index:03d}_" + "n" * 50)

    toolset = toolcall.Toolset(*(make(i) for i in range(300)))
    result = toolcall.run(toolset, "nope\u2028\udcff\n" * 10**5, {})
    text = line_of(result)
    assert text.startswith(r'unknown tool "nope\u2028\udcff\nnope')
    found = re.search(r", … and (\d+) more$", text)
    assert found is not None, text
    assert text.count("tool_") + int(found.group(1)) == 300
    assert len(error_of(result).to_json()["known"]) == 300


# -- what the tool raised --------------------------------------------------------------------------------


@SETTINGS
@given(message=TEXT.map(lambda text: [ord(c) for c in text[:2000]]), times=st.sampled_from([1, 300]))
@example(message=[ord(c) for c in "line one\nline two\u2028\udcff"], times=1)
def test_a_raised_message_of_any_text(message: list[int], times: int) -> None:
    result = toolcall.run(fail, "fail", {"codepoints": message, "times": times})
    text = line_of(result)
    assert text.startswith("the tool failed with ValueError")
    full = "".join(map(chr, message)) * times
    assert error_of(result).message == full
    if len(full) > 300:  # longer than the free text a message shows
        assert text.endswith(f"… ({len(full)} characters)")
    assert error_of(result).to_json()["message"] == errors.json_safe(full)


def test_exited_with_odd_codes() -> None:
    texts = {kind: run(leave, {"kind": kind}) for kind in ODD_CODES}
    assert texts["newline"] == r'the tool exited with code "bye\nnow"'
    assert texts["separator"] == r'the tool exited with code "bye\u2028now"'
    assert texts["surrogate"] == r'the tool exited with code "bye\udcff"'
    assert texts["unprintable"] == 'the tool exited with code "<Unprintable object>"'
    assert texts["million"].endswith("… (1000000 items)")
    assert texts["none"] == "the tool exited with code null"


# -- every error class, and the too_deep text --------------------------------------------------------------


def test_too_deep_says_it_once() -> None:
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    text = run(keep, {"anything": deep})
    assert text.count("nested too deeply") == 1
    assert text == 'invalid argument "anything": nested too deeply'


@toolcall.tool
def gap(a: int = 0, b: int = 0, /) -> int:
    """Add two numbers."""
    return a + b


def test_every_error_class_is_one_bounded_line() -> None:
    hostile = "\u2028\udcff\n" * 1000
    texts = [
        line_of(toolcall.run(double, hostile, {})),
        run(double, {"x": 1, hostile: 1}),
        run(double, {"x": 1, (hostile,): 1}),
        run(double, [hostile]),
        run(double, {}),
        run(gap, {"b": 1}),
        run(double, {"x": hostile}),
        run(tally, {"m": {hostile: 1.5}}),
        run(fail, {"codepoints": [ord(c) for c in hostile]}),
        run(leave, {"kind": "separator"}),
    ]
    assert [t.split(" ", 2)[:2] for t in texts] == [
        ["unknown", "tool"],
        ["unknown", "arguments"],
        ["argument", "names"],
        ["the", "arguments"],
        ["missing", "required"],
        ["argument", '"a"'],
        ["invalid", "argument"],
        ["invalid", "argument"],
        ["the", "tool"],
        ["the", "tool"],
    ]
