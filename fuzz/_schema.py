"""Well-formed arguments for a tool's JSON Schema, as Hypothesis strategies.

Only the keywords toolcall emits are read (``type``, ``enum``, ``anyOf``,
``properties``, ``required``, ``additionalProperties``, ``items``,
``prefixItems``, ``minItems``, ``maxItems``, ``uniqueItems``, the bounds,
``maxLength``, ``pattern``, ``format``, ``$ref``), and strings of a format
are written the way the dispatcher documents it reads them, so every value
drawn is one the dispatcher must accept. (hypothesis-jsonschema does not
run on the Hypothesis this repository uses, and it draws forms of
``date-time`` and ``duration`` the dispatcher refuses by design.)
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import strategies as st

__all__ = ["from_schema", "json_values"]

#: Text as JSON carries it: any code point but a lone surrogate.
_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _TEXT


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value (no NaN, no lone surrogate)."""
    return st.recursive(
        _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=10
    )


def from_schema(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> st.SearchStrategy[Any]:
    """Values valid for ``schema`` that the dispatcher accepts (``defs``: the ``$defs`` of the root)."""
    defs = schema.get("$defs", {}) if defs is None else defs
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: from_schema(defs[name], defs))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([from_schema(option, defs) for option in schema["anyOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": one}, defs) for one in kind])
    build = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    return json_values() if build is None else build(schema, defs)


def _string(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[str]:
    form = schema.get("format")
    if form in _FORMATS:
        return _FORMATS[form]
    if "pattern" in schema:
        return _patterned(schema["pattern"])
    return st.text(st.characters(codec="utf-8"), max_size=schema.get("maxLength", 12))


def _patterned(pattern: str) -> st.SearchStrategy[str]:
    # The two patterns toolcall emits: Decimal and string integers (short, so within Python's limits).
    if pattern == "^-?[0-9]+$":
        return st.integers(-(10**30), 10**30).map(str)
    return st.decimals(allow_nan=False, allow_infinity=False, places=None).map(str).filter(_plain_decimal)


def _plain_decimal(text: str) -> bool:
    # ``str(Decimal)`` writes "1E+5" (the pattern takes that) but also "-0", "Infinity": only the pattern's forms.
    head, _, exponent = text.partition("E")
    return head.lstrip("-").replace(".", "", 1).isdigit() and len(exponent) < 6


def _integer(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[int]:
    low, high = schema.get("minimum"), schema.get("maximum")
    return st.integers(low, high) | st.sampled_from([2**63, -(2**64), 10**40]).filter(
        lambda n: (low is None or n >= low) and (high is None or n <= high)
    )


def _number(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[float | int]:
    low, high = schema.get("minimum"), schema.get("maximum")
    floats = st.floats(low, high, allow_nan=False, allow_infinity=False)
    integers = st.integers(-(2**60), 2**60).filter(lambda n: (low is None or n >= low) and (high is None or n <= high))
    return floats | integers


def _array(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[list[Any]]:
    prefix = schema.get("prefixItems")
    if prefix is not None:  # toolcall's fixed tuples: exactly the prefix
        return st.tuples(*(from_schema(item, defs) for item in prefix)).map(list)
    items = from_schema(schema.get("items", {}), defs)
    size = {"min_size": schema.get("minItems", 0), "max_size": schema.get("maxItems", 4)}
    if schema.get("uniqueItems"):
        return st.lists(items, unique_by=_json_key, **size)
    return st.lists(items, **size)


def _json_key(value: Any) -> Any:
    return (type(value) is bool, repr(value))


def _object(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    if not properties and isinstance(extra, dict):  # a map: dict[str, V]
        return st.dictionaries(_TEXT, from_schema(extra, defs), max_size=4)
    required = set(schema.get("required", ()))
    return st.fixed_dictionaries(
        {name: from_schema(properties[name], defs) for name in properties if name in required},
        optional={name: from_schema(sub, defs) for name, sub in properties.items() if name not in required},
    )


_OFFSETS = st.sampled_from(["", "Z", "+00:00", "-05:30", "+14:00", "-23:59"])
_DATES = st.dates().map(dt.date.isoformat)
_TIMES = st.builds(lambda t, offset: t.isoformat() + offset, st.times(), _OFFSETS)
_DATETIMES = st.builds(
    lambda day, time, sep, offset: f"{day.isoformat()}{sep}{time.isoformat()}{offset}",
    st.dates(),
    st.times(),
    st.sampled_from(["T", " "]),
    _OFFSETS,
)
_AMOUNT = st.integers(0, 10_000).map(str)
_DURATIONS = st.builds(
    lambda sign, weeks, days, clock: f"{sign}P{weeks}{days}{clock}" if weeks or days or clock else f"{sign}P0D",
    st.sampled_from(["", "-"]),
    st.sampled_from([""]) | _AMOUNT.map(lambda n: n + "W"),
    st.sampled_from([""]) | _AMOUNT.map(lambda n: n + "D"),
    st.sampled_from([""])
    | st.builds(
        lambda h, m, s: "T" + "".join(part for part in (h, m, s) if part) if h or m or s else "",
        st.sampled_from([""]) | _AMOUNT.map(lambda n: n + "H"),
        st.sampled_from([""]) | _AMOUNT.map(lambda n: n + "M"),
        st.sampled_from([""]) | st.sampled_from(["1.5S", "0,25S", "59S"]),
    ),
)
_FORMATS: dict[str, st.SearchStrategy[str]] = {
    "date": _DATES,
    "time": _TIMES,
    "date-time": _DATETIMES,
    "duration": _DURATIONS,
    "uuid": st.uuids().map(str),
    "ipv4": st.ip_addresses(v=4).map(str),
    "ipv6": st.ip_addresses(v=6).map(str),
}
_BY_TYPE: dict[str, Any] = {
    "string": _string,
    "integer": _integer,
    "number": _number,
    "boolean": lambda schema, defs: st.booleans(),
    "null": lambda schema, defs: st.none(),
    "array": _array,
    "object": _object,
}
