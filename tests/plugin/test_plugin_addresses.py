"""The mypy plugin recognizes ``ipaddress.IPv4Address`` / ``IPv6Address`` as the runtime does.

mypy checks the corpus module with the test-only plugin of
``tests/plugin/test_plugin_analysis.py`` (which calls the plugin's ``collect_tool``);
the static IR must name the ``ipv4`` / ``ipv6`` primitives, equal the
runtime's, and render to the same text (``json.dumps``, dict order counts)
as ``toolcall._toolset.emit`` of the live function in every provider variant. The
default rule is the same too: a constant address default is dropped with the
runtime's ``toolcall-default`` message.
"""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("mypy")

import toolcall
from tests.corpus import dates
from tests.corpus import defaults as corpus_defaults
from tests.plugin.test_plugin_analysis import analyze, module_path, runtime
from tests.unit.test_types_addresses import EXPECTED, IPV4, IPV6, NONE
from toolcall import _ir as ir
from toolcall._findings import DEFAULT
from toolcall._render.definitions import render_tool


def test_the_plugin_schema_equals_the_runtime_schema() -> None:
    module = dates.__name__
    collected, errors = analyze([(module_path(module), module)])
    assert not [e for e in errors if "toolcall" in e], errors
    static = collected[module, "connect"]
    assert static.tool is not None, [str(f.finding) for f in static.findings]
    assert [p.type for p in static.tool.parameters] == [IPV4, IPV6, ir.UnionType((IPV4, NONE))]
    assert ir.to_json(static.tool) == ir.to_json(runtime(module, "connect").tool)
    for (provider, strict), text in EXPECTED.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", toolcall.ToolcallWarning)
            live = json.dumps(toolcall.emit(dates.connect, provider, strict=strict))
        assert json.dumps([render_tool(static.tool, provider, strict=strict).definition]) == live == text


def test_the_plugin_drops_an_address_default_with_the_runtime_finding() -> None:
    module = corpus_defaults.__name__
    collected, _ = analyze([(module_path(module), module)])
    static = collected[module, "dropped_defaults"]
    assert static.tool is not None
    (host,) = [p for p in static.tool.parameters if p.name == "host"]
    assert (host.type, host.default, host.required) == (IPV4, None, False)
    (found,) = [f.finding for f in static.findings if f.finding.parameter == "host"]
    (expected,) = [f for f in runtime(module, "dropped_defaults").findings if f.parameter == "host"]
    assert (found.code, found.message) == (DEFAULT, expected.message)
