"""A cache entry's ``findings``: written only where there are some, read back exactly, refused when malformed.

The entry records what introspecting its tool warns (``toolcall-param``,
``toolcall-type``, ``toolcall-default``), in order, so a tool served from the
cache warns the same ``ToolcallWarning``s. The findings here are the ones
introspection makes of the tools of this module.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import toolcall
from toolcall import _ir as ir
from toolcall._cache import file_format
from toolcall._cache.constants import CACHE_FORMAT, MalformedCacheError
from toolcall._cache.shapes import check_entries, check_sources
from toolcall._declarations.tool import declaration_of
from toolcall._findings import DEFAULT, PARAM, STRICT, Finding
from toolcall._introspect import Introspected, introspect
from toolcall_mypy._cache import reuse

MODULE = __name__


@toolcall.tool
def count(big: int = 2**60, *, limit: int = 5) -> int:
    """Count up.

    Args:
        big: where to start
        limt: a misspelt entry
    """
    return big + limit


@toolcall.tool
def quiet(city: str) -> str:
    """Say a city."""
    return city


def introspected(function: Callable[..., Any]) -> Introspected:
    declaration = declaration_of(function)
    assert declaration is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return introspect(declaration)


def file_text(findings: dict[str, tuple[Finding, ...]] | None = None) -> str:
    """The sealed text of a cache file of ``count`` and ``quiet``, each with ``findings`` (else introspection's)."""
    entries = []
    for function in (count, quiet):
        found = introspected(function)
        recorded = found.findings if findings is None else findings.get(function.__name__, ())
        entries.append(file_format.tool_entry(found.tool, [MODULE], recorded))
    content = file_format.module_content(MODULE, {MODULE: ["a" * 32, None, None]}, entries)
    return file_format.dumps(content)


def read(text: str) -> dict[str, Any]:
    """The content of a file's text, as the loader parses it."""
    content: dict[str, Any] = json.loads(text.encode().decode("utf-8"))
    return content


def checked(content: dict[str, Any]) -> dict[str, tuple[Finding, ...]]:
    return {entry.name: entry.findings for entry in check_entries(content, MODULE, check_sources(content))}


def test_introspection_finds_what_the_entry_records() -> None:
    assert [str(f) for f in introspected(count).findings] == [
        "count.big: the default 1152921504606846976 is beyond ±(2**53 - 1); use "
        'Annotated[int, Param(wire="string_integer")] to send it as a decimal string [toolcall-default]',
        "count: the docstring documents 'limt', which is not a parameter; fix or remove the entry [toolcall-param]",
    ]
    assert introspected(quiet).findings == ()


def test_the_findings_read_back_as_introspection_made_them_in_order() -> None:
    content = read(file_text())
    assert CACHE_FORMAT == content["format"] == 7
    assert checked(content) == {"count": introspected(count).findings, "quiet": ()}
    assert content["tools"][0]["findings"] == [
        [DEFAULT, "big", [], introspected(count).findings[0].message],
        [PARAM, None, [], introspected(count).findings[1].message],
    ]


def test_a_tool_without_findings_costs_no_byte() -> None:
    text = file_text()
    assert list(read(text)["tools"][1]) == ["sources", "ir"]
    assert text.count('"findings"') == 1
    plain = file_text({})
    assert '"findings"' not in plain
    assert len(plain) < len(text)


def test_a_finding_keeps_its_path() -> None:
    inside = Finding(DEFAULT, "the default 1 is not a str", "count", "big", ("items", 0, "name"))
    assert checked(read(file_text({"count": (inside,)})))["count"] == (inside,)


HOSTILE = (
    "line one\nline two\r\n\ttabbed",
    "a lone surrogate \udcff and \ud800 here",
    "long " * 20_000,
    'quotes " and \\ backslashes \\u0000 \x00 nul',
    "",
)


@pytest.mark.parametrize("message", HOSTILE, ids=["newlines", "surrogates", "long", "escapes", "empty"])
def test_any_message_is_written_as_valid_utf8_and_read_back_exactly(message: str) -> None:
    finding = Finding(PARAM, message, "count", None)
    text = file_text({"count": (finding,)})
    assert text == file_text({"count": (finding,)})  # deterministic
    data = text.encode("utf-8")  # valid UTF-8: a lone surrogate is written as its escape
    assert file_format.seal_holds(data)
    assert checked(read(data.decode("utf-8")))["count"] == (finding,)
    # One line per tool entry still: a line break in a message is escaped.
    assert sum(1 for line in text.splitlines() if line.startswith('    {"sources":')) == 2


def corrupt(change: Callable[[list[Any]], Any]) -> str:
    """The reason the check gives for a content whose ``count`` findings were changed by ``change``."""
    content = read(file_text())
    content["tools"][0]["findings"] = change(content["tools"][0]["findings"])
    with pytest.raises(MalformedCacheError) as info:
        checked(content)
    reason = str(info.value)
    assert reason.isprintable(), reason
    assert 0 < len(reason) <= 400, reason
    return reason


def replaced(index: int, value: Any) -> Callable[[list[Any]], Any]:
    def change(findings: list[Any]) -> Any:
        findings[0][index] = value
        return findings

    return change


MALFORMED: list[tuple[str, Callable[[list[Any]], Any], str]] = [
    ("empty", lambda f: [], "'findings' is an array, not a non-empty array"),
    ("an object", lambda f: {"a": f}, "'findings' is an object, not a non-empty array"),
    ("a string", lambda f: "toolcall-param", "'findings' is 'toolcall-param'"),
    ("null", lambda f: None, "'findings' is None"),
    ("an item not an array", lambda f: [f[0], "x"], "finding 1 is 'x', not [code, parameter, path, message]"),
    ("too short", lambda f: [f[0][:3]], "finding 0 is an array, not [code"),
    ("too long", lambda f: [[*f[0], "x"]], "finding 0 is an array, not [code"),
    ("unknown code", replaced(0, "toolcall-nope"), "its code is 'toolcall-nope', not one introspection warns"),
    ("strict code", replaced(0, STRICT), "its code is 'toolcall-strict'"),
    ("name code", replaced(0, "toolcall-name"), "its code is 'toolcall-name'"),
    ("code not a string", replaced(0, 1), "its code is 1"),
    ("unknown parameter", replaced(1, "nope"), "'nope' is not a parameter of the tool"),
    ("parameter not a string", replaced(1, 3), "3 is not a parameter of the tool"),
    ("parameter an array", replaced(1, ["big"]), "an array is not a parameter of the tool"),
    ("path not an array", replaced(2, "items"), "its path is 'items', not an array"),
    ("path with a boolean", replaced(2, [True]), "its path is an array, not an array of names and indexes"),
    ("path with a float", replaced(2, [1.5]), "its path is an array, not an array of names and indexes"),
    ("path with null", replaced(2, [None]), "its path is an array, not an array of names and indexes"),
    ("message not a string", replaced(3, None), "its message is None, not a string"),
    ("message an array", replaced(3, ["x"]), "its message is an array, not a string"),
    ("hostile code", replaced(0, "\udcff\n" * 100), "its code is '\\udcff\\n"),
]


@pytest.mark.parametrize(("change", "expected"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_a_malformed_findings_field_makes_the_file_unusable(change: Callable[[list[Any]], Any], expected: str) -> None:
    reason = corrupt(change)
    assert "'count'" in reason, reason  # names the entry
    assert expected in reason, reason


def test_findings_on_a_refused_entry_are_unexpected() -> None:
    content = read(file_text())
    content["tools"].append(
        {
            "name": "b",
            "qualname": "b",
            "fingerprint": "d" * 32,
            "refused": "no schema",
            "findings": [[PARAM, None, [], "x"]],
        }
    )
    with pytest.raises(MalformedCacheError, match="unexpected keys: 'findings'"):
        checked(content)


def test_the_plugin_takes_a_recorded_entry_with_its_findings() -> None:
    """The plugin's reuse of a file's entry (``reuse.Previous.entry``) carries the findings into the next file."""
    data = file_text().encode()
    previous = reuse.previous_of(data, MODULE)
    assert previous is None  # no ``checked`` record: nothing to reuse from the head ...
    entries = reuse._entries(data, MODULE)  # ... but an entry read back is whole
    found = introspected(count)
    assert entries["count"] == file_format.tool_entry(found.tool, [MODULE], found.findings)
    assert entries["quiet"] == file_format.tool_entry(introspected(quiet).tool, [MODULE])


def test_a_changed_finding_alone_changes_the_entry_digest() -> None:
    tool = introspected(count).tool
    stray = introspected(count).findings[1]
    renamed = Finding(PARAM, stray.message.replace("limt", "lmit"), stray.tool, stray.parameter)
    assert reuse.ir_sha256(tool) != reuse.ir_sha256(tool, (stray,)) != reuse.ir_sha256(tool, (renamed,))
    assert reuse.ir_sha256(tool, (stray,)) == reuse.ir_sha256(tool, (stray,))


def test_a_served_entry_warns_its_findings_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a tool from its entry warns what the entry records, as introspection warns it, once."""
    from tests.cached_package import run_python

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = Path(__file__).read_text(encoding="utf-8")
    start, end = source.index("@toolcall.tool\ndef count"), source.index("def introspected")
    (package / "tools.py").write_text("import toolcall\n\n\n" + source[start:end])
    write = (
        "import json, warnings, pkg.tools as tools\n"
        "from toolcall._cache import file_format as cf\n"
        "from toolcall._declarations.tool import module_tools\n"
        "from toolcall._introspect import introspect\n"
        "warnings.simplefilter('ignore')\n"
        "found = [introspect(d) for d in module_tools(tools.__name__)]\n"
        "entries = [cf.tool_entry(f.tool, [tools.__name__], f.findings) for f in found]\n"
        "record = cf.source_record(open(tools.__file__, 'rb').read(), 'tools.py')\n"
        "content = cf.module_content(tools.__name__, {tools.__name__: record}, entries)\n"
        "cf.cache_path(tools.__file__).parent.mkdir()\n"
        "cf.cache_path(tools.__file__).write_text(cf.dumps(content), encoding='utf-8')\n"
    )
    assert run_python(tmp_path, write).returncode == 0
    emit = (
        "import json, warnings, toolcall, pkg.tools as tools\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    toolcall.emit(tools, 'openai')\n"
        "    toolcall.emit(tools, 'anthropic')\n"
        "print(json.dumps([str(w.message) for w in caught]))\n"
    )
    served = run_python(tmp_path, emit, env={"TOOLCALL_CACHE": "require"})
    off = run_python(tmp_path, emit, env={"TOOLCALL_CACHE": "off"})
    assert served.returncode == off.returncode == 0, served.stderr + off.stderr
    assert json.loads(served.stdout) == json.loads(off.stdout) == [str(f) for f in introspected(count).findings]


def test_a_tool_entry_without_findings_has_no_findings_key() -> None:
    tool = introspected(quiet).tool
    assert list(file_format.tool_entry(tool, [MODULE])) == ["sources", "tool"]
    assert list(file_format.tool_entry(tool, [MODULE], ())) == ["sources", "tool"]
    assert isinstance(tool, ir.Tool)
