"""``plain``: a copy of JSON data equal to decoding its JSON text, sharing nothing with what it copies.

It builds plain data itself and leaves everything else to the JSON text;
either way the result must be what ``json.loads(json.dumps(value))`` gives,
compared as ordered text, and NaN and the infinities are refused.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolcall._render import schema
from toolcall._render.schema import plain

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
json_data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=40,
)


def by_text(value: Any) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def containers(value: Any) -> list[int]:
    found: list[int] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(id(node))
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            found.append(id(node))
            stack.extend(node)
    return found


@given(json_data)
def test_plain_data_copies_as_its_json_text_decodes(value: Any) -> None:
    copied = plain(value)
    assert json.dumps(copied) == json.dumps(by_text(value))
    assert not set(containers(copied)) & set(containers(value))


class Name(str):
    pass


@pytest.mark.parametrize(
    "value",
    [
        {"enum": ("a", "b")},  # a tuple becomes a list
        {"title": Name("x")},  # a str subclass becomes a str
        {1: "one", False: "no", None: "none", 2.5: "half"},  # keys JSON text spells as strings
        [{"nested": [1.5, -0.0, 10**30]}],
        {"enum": [10**700]},  # past 600 digits: through the text, within the default limit of 4300
        {"deep": json.loads("[" * 200 + "]" * 200)},  # deeper than plain copies itself
        "text",
        None,
    ],
    ids=["tuple", "str-subclass", "keys", "numbers", "long-integer", "deep", "scalar", "none"],
)
def test_other_values_copy_as_their_json_text_decodes(value: Any) -> None:
    copied = plain(value)
    assert json.dumps(copied) == json.dumps(by_text(value))
    assert type(copied) is type(by_text(value))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("where", ["key", "item"])
def test_nan_and_the_infinities_are_refused(bad: float, where: str) -> None:
    value: Any = {"maximum": bad} if where == "key" else {"enum": [1, bad]}
    with pytest.raises(ValueError, match="JSON compliant"):
        by_text(value)
    with pytest.raises(ValueError, match="JSON compliant"):
        plain(value)


def test_plain_data_is_not_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("encoded")

    monkeypatch.setattr(schema.json, "dumps", refuse)
    value = {"type": "object", "properties": {"days": {"type": "integer", "default": 3}}, "required": ["days"]}
    assert plain(value) == value
    with pytest.raises(AssertionError, match="encoded"):
        plain({"enum": ("a",)})


def test_an_integer_past_the_int_string_limit_is_refused_as_the_text_refuses_it() -> None:
    value = {"default": 10**5000}
    with pytest.raises(ValueError, match="integer string conversion"):
        by_text(value)
    with pytest.raises(ValueError, match="integer string conversion"):
        plain(value)
