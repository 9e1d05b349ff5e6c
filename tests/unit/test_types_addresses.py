"""``ipaddress.IPv4Address`` and ``IPv6Address``: string primitives with ``format: ipv4`` / ``ipv6``.

They take the path every string-with-format primitive takes (``uuid.UUID``,
``datetime.date``): a row of ``ir.PRIMITIVE_CLASSES``, a ``wire`` format, a
coercer in ``toolcall._wire.scalars``. The schema text is compared as ``json.dumps``
(no ``sort_keys``: dict order counts) for every provider variant.
"""

from __future__ import annotations

import ipaddress
import json
import warnings
from typing import Any, Final

import pytest

import toolcall
from tests.corpus import dates, introspected
from tests.corpus import defaults as corpus_defaults
from toolcall import Err, Ok
from toolcall import _ir as ir
from toolcall._findings import DEFAULT, STRICT
from toolcall._render.definitions import render_tool
from toolcall.errors import InvalidArgument

IPV4, IPV6, NONE = ir.Primitive("ipv4"), ir.Primitive("ipv6"), ir.Primitive("none")

_OBJECT: Final = (
    '{"type": "object", "properties": {"host": {"type": "string", "format": "ipv4"}, '
    '"peer": {"type": "string", "format": "ipv6"}, '
    '"fallback": {"anyOf": [{"type": "string", "format": "ipv4"}, {"type": "null"}]}}, '
    '"required": ["host", "peer"], "additionalProperties": false}'
)
_STRICT_OBJECT: Final = _OBJECT.replace('["host", "peer"]', '["host", "peer", "fallback"]')
_STR_OUTPUT: Final = (
    '{"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"], '
    '"additionalProperties": false}'
)
_HEAD: Final = '"name": "connect", "description": "Open a connection to a host."'

#: ``json.dumps(toolcall.emit(dates.connect, provider, strict=strict))`` for each variant.
EXPECTED: Final[dict[tuple[str, bool], str]] = {
    ("openai", False): f'[{{"type": "function", "function": {{{_HEAD}, "parameters": {_OBJECT}}}}}]',
    ("openai", True): (
        f'[{{"type": "function", "function": {{{_HEAD}, "parameters": {_STRICT_OBJECT}, "strict": true}}}}]'
    ),
    ("openai-responses", False): f'[{{"type": "function", {_HEAD}, "parameters": {_OBJECT}, "strict": false}}]',
    ("openai-responses", True): f'[{{"type": "function", {_HEAD}, "parameters": {_STRICT_OBJECT}, "strict": true}}]',
    ("anthropic", False): f'[{{{_HEAD}, "input_schema": {_OBJECT}}}]',
    # Anthropic strict keeps optional properties optional, and carries both formats.
    ("anthropic", True): f'[{{{_HEAD}, "input_schema": {_OBJECT}, "strict": true}}]',
    # MCP wraps the str return type in an object root.
    ("mcp", False): f'[{{{_HEAD}, "inputSchema": {_OBJECT}, "outputSchema": {_STR_OUTPUT}}}]',
    ("mcp", True): f'[{{{_HEAD}, "inputSchema": {_STRICT_OBJECT}, "outputSchema": {_STR_OUTPUT}}}]',
    # Gemini's format hints do not include ipv4/ipv6: the format moves to the description, as uuid's does.
    ("gemini", False): (
        f'[{{{_HEAD}, "parameters": {{"type": "OBJECT", "properties": {{'
        '"host": {"type": "STRING", "description": "Format: ipv4."}, '
        '"peer": {"type": "STRING", "description": "Format: ipv6."}, '
        '"fallback": {"type": "STRING", "description": "Format: ipv4.", "nullable": true}}, '
        '"required": ["host", "peer"]}}]'
    ),
}


def test_ip_addresses_are_primitives() -> None:
    assert [p.type for p in introspected(dates.connect).tool.parameters] == [
        IPV4,
        IPV6,
        ir.UnionType((IPV4, NONE)),
    ]


@pytest.mark.parametrize(("provider", "strict"), list(EXPECTED), ids=[f"{p}-{s}" for p, s in EXPECTED])
def test_schema_text_in_every_variant(provider: str, strict: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolcall.ToolcallWarning)
        assert json.dumps(toolcall.emit(dates.connect, provider, strict=strict)) == EXPECTED[provider, strict]


def test_gemini_reports_the_moved_format_as_for_uuid() -> None:
    findings = render_tool(introspected(dates.connect).tool, "gemini").findings
    assert [(f.code, f.parameter, f.message) for f in findings] == [
        (STRICT, "host", "cannot carry format; moved to the description ('format: ipv4')"),
        (STRICT, "peer", "cannot carry format; moved to the description ('format: ipv6')"),
        (STRICT, "fallback", "cannot carry format; moved to the description ('format: ipv4')"),
    ]


def run(args: dict[str, Any]) -> Ok[Any] | Err:
    result: Ok[Any] | Err = toolcall.run(dates.connect, "connect", args)
    return result


def test_good_addresses_arrive_as_ipaddress_objects() -> None:
    received: list[Any] = []

    def spy(host: Any, peer: Any, fallback: Any = None) -> str:
        received.extend([host, peer, fallback])
        return "ok"

    @toolcall.tool(name="connect")
    def connect(
        host: ipaddress.IPv4Address, peer: ipaddress.IPv6Address, fallback: ipaddress.IPv4Address | None = None
    ) -> str:
        """Open a connection to a host."""
        return spy(host, peer, fallback)

    result = toolcall.run(connect, "connect", {"host": "192.0.2.1", "peer": "2001:db8::1", "fallback": "10.0.0.1"})
    assert result == Ok("ok")
    assert received == [
        ipaddress.IPv4Address("192.0.2.1"),
        ipaddress.IPv6Address("2001:db8::1"),
        ipaddress.IPv4Address("10.0.0.1"),
    ]
    assert [type(value) for value in received] == [ipaddress.IPv4Address, ipaddress.IPv6Address, ipaddress.IPv4Address]
    mapped = ipaddress.IPv6Address("::ffff:192.0.2.1")  # an IPv4-mapped address (str() differs by Python version)
    assert run({"host": "192.0.2.1", "peer": "::ffff:192.0.2.1"}) == Ok(f"192.0.2.1 {mapped} None")


BAD: Final = [
    ("host", "192.0.2", "invalid_ipv4"),
    ("host", "192.0.2.256", "invalid_ipv4"),
    ("host", "01.2.3.4", "invalid_ipv4"),  # leading zeros: ambiguous (octal), refused by ipaddress
    ("host", "192.0.2.1\n", "invalid_ipv4"),
    ("host", "2001:db8::1", "invalid_ipv4"),
    ("peer", "2001:db8:::1", "invalid_ipv6"),
    ("peer", "192.0.2.1", "invalid_ipv6"),
    ("peer", "fe80::1%eth0", "invalid_ipv6"),  # a zone is not part of the JSON Schema ipv6 format
    ("fallback", "localhost", "invalid_ipv4"),
]


@pytest.mark.parametrize(("name", "value", "code"), BAD, ids=[f"{n}-{v!r}" for n, v, _ in BAD])
def test_bad_strings_are_refused_as_data(name: str, value: str, code: str) -> None:
    args = {"host": "192.0.2.1", "peer": "::1"} | {name: value}
    result = run(args)
    assert isinstance(result, Err), result
    assert isinstance(result.error, InvalidArgument), result.error
    assert (result.error.name, result.error.reason.code, result.error.reason.value) == (name, code, value)
    assert result.error.reason.path == ()
    example = "192.0.2.1" if code == "invalid_ipv4" else "2001:db8::1"
    assert str(result.error).startswith(f'invalid argument "{name}": expected an IPv')
    assert example in str(result.error)


@pytest.mark.parametrize(("name", "code"), [("host", "invalid_ipv4"), ("peer", "invalid_ipv6")])
@pytest.mark.parametrize("value", [5, 3232235777, True, ["192.0.2.1"], {"ip": "::1"}])
def test_non_strings_are_refused_as_for_uuid(name: str, code: str, value: Any) -> None:
    # As for every string-with-format primitive, the format's own code, with the value sent.
    result = run({"host": "192.0.2.1", "peer": "::1"} | {name: value})
    assert isinstance(result, Err), result
    assert isinstance(result.error, InvalidArgument), result.error
    assert (result.error.name, result.error.reason.code, result.error.reason.value) == (name, code, value)


def test_a_lone_surrogate_is_invalid_unicode_as_for_other_strings() -> None:
    result = run({"host": "192.0.2.1", "peer": "::\udc80"})
    assert isinstance(result, Err), result
    assert isinstance(result.error, InvalidArgument), result.error
    assert result.error.reason.code == "invalid_unicode"


def test_a_constant_address_default_is_dropped_as_a_uuid_default_is() -> None:
    # Defaults of string-carried types (datetime, UUID, Decimal, Path, IP addresses) are not JSON.
    result = introspected(corpus_defaults.dropped_defaults)
    (host,) = [p for p in result.tool.parameters if p.name == "host"]
    assert host.type == IPV4
    assert (host.default, host.required) == (None, False)
    (finding,) = [f for f in result.findings if f.parameter == "host"]
    assert finding.code == DEFAULT
    assert finding.message.startswith("the default IPv4Address('127.0.0.1') (a IPv4Address) is not JSON")
