"""IP addresses from the schema cache: served as introspection renders them, and dispatched.

A temporary project with a tool module that takes ``ipaddress.IPv4Address``
and ``IPv6Address`` is checked by mypy with the plugin, which writes the
module's schema cache. The helpers of ``tests/plugin/test_cache_differential.py``
then compare, in two fresh interpreters, what ``TOOLCALL_CACHE=require``
serves with what ``TOOLCALL_CACHE=off`` introspects: ``json.dumps`` of every
provider variant and of ``describe``, for the module and each tool. A third
interpreter dispatches from the cache alone (no introspection imported).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Final

import pytest

pytest.importorskip("mypy")

from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.plugin.test_cache_differential import both_sides, compare, report, run_mypy
from tests.plugin_project import environment
from toolcall._cache import file_format

MODULE: Final = "net.tools"

TOOLS: Final = '''\
"""Network tools."""

import ipaddress
from ipaddress import IPv4Address, IPv6Address

import toolcall


@toolcall.tool
def connect(host: IPv4Address, peer: ipaddress.IPv6Address, fallback: IPv4Address | None = None) -> str:
    """Open a connection to a host.

    Args:
        host: the host's IPv4 address
        peer: the peer's IPv6 address
    """
    return f"{host!r} {peer!r} {fallback!r}"


@toolcall.tool
def route(hops: list[IPv6Address], via: IPv4Address = IPv4Address("127.0.0.1")) -> str:
    """Route through IPv6 hops."""
    return " ".join(repr(hop) for hop in hops) + f" {via!r}"
'''

# Runs in the project with TOOLCALL_CACHE=require: dispatch each call, print the results as JSON.
DISPATCH: Final = r"""
import json, sys
import toolcall
import net.tools as tools

calls = [
    ("connect", {"host": "192.0.2.1", "peer": "2001:db8::1"}),
    ("connect", {"host": "192.0.2.1", "peer": "::1", "fallback": "10.0.0.1"}),
    ("connect", {"host": "192.0.2", "peer": "::1"}),
    ("connect", {"host": "192.0.2.1", "peer": "fe80::1%eth0"}),
    ("connect", {"host": 3232235777, "peer": "::1"}),
    ("route", {"hops": ["::1", "2001:db8::2"]}),
    ("route", {"hops": ["::1", "10.0.0.1"]}),
]
out = []
for name, args in calls:
    result = toolcall.run(tools, name, args)
    if isinstance(result, toolcall.Ok):
        out.append({"ok": result.value})
    else:
        reason = result.error.reason
        out.append({"code": reason.code, "path": [result.error.name, *reason.path], "text": str(result.error)})
print(json.dumps({"results": out, "introspected": "toolcall._introspect" in sys.modules}))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project, checked once by mypy with the plugin (which writes the cache)."""
    root = tmp_path_factory.mktemp("addresses")
    (root / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["toolcall_mypy"]\n' + PYPROJECT_OVERRIDES)
    (root / "net").mkdir()
    (root / "net" / "__init__.py").write_text("")
    (root / "net" / "tools.py").write_text(TOOLS, encoding="utf-8")
    result = run_mypy(root, "net")
    # The one finding: the address default is not JSON (as at run time); no type is refused.
    assert "[toolcall-type]" not in result.stdout, result.stdout
    assert "route.via: the default IPv4Address('127.0.0.1') (a IPv4Address) is not JSON" in result.stdout
    assert file_format.cache_path(root / "net" / "tools.py").is_file(), result.stdout
    return root


def test_the_cache_serves_what_introspection_renders(project: Path) -> None:
    served, introspected = both_sides(project, [MODULE])
    assert served[MODULE]["tools"] == ["connect", "route"]
    mismatches = compare(served, introspected)
    assert not mismatches, report(mismatches)
    openai = json.loads(served[MODULE]["module"]["openai"])
    connect, route = (tool["function"]["parameters"]["properties"] for tool in openai)
    assert connect["host"] == {"type": "string", "format": "ipv4", "description": "the host's IPv4 address"}
    assert connect["peer"] == {"type": "string", "format": "ipv6", "description": "the peer's IPv6 address"}
    assert route == {
        "hops": {"type": "array", "items": {"type": "string", "format": "ipv6"}},
        "via": {"type": "string", "format": "ipv4"},  # no default: an address is not JSON
    }
    gemini = json.loads(served[MODULE]["module"]["gemini"])
    assert gemini[0]["parameters"]["properties"]["host"] == {
        "type": "STRING",
        "description": "the host's IPv4 address. Format: ipv4.",
    }


def test_dispatch_from_the_cache(project: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(DISPATCH)],
        cwd=project,
        env=environment() | {"TOOLCALL_CACHE": "require"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = json.loads(result.stdout)
    assert found["introspected"] is False  # served from the cache: no introspection
    good, with_fallback, bad_v4, zoned_v6, not_a_string, hops, bad_hop = found["results"]
    assert good == {"ok": "IPv4Address('192.0.2.1') IPv6Address('2001:db8::1') None"}
    assert with_fallback == {"ok": "IPv4Address('192.0.2.1') IPv6Address('::1') IPv4Address('10.0.0.1')"}
    assert bad_v4 == {
        "code": "invalid_ipv4",
        "path": ["host"],
        "text": 'invalid argument "host": expected an IPv4 address such as 192.0.2.1, got "192.0.2"',
    }
    assert (zoned_v6["code"], zoned_v6["path"]) == ("invalid_ipv6", ["peer"])
    assert (not_a_string["code"], not_a_string["path"]) == ("invalid_ipv4", ["host"])
    assert hops == {"ok": "IPv6Address('::1') IPv6Address('2001:db8::2') IPv4Address('127.0.0.1')"}
    assert (bad_hop["code"], bad_hop["path"]) == ("invalid_ipv6", ["hops", 1])
