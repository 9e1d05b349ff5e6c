"""The production path: a module's schema cache is loaded, checked, and used without introspection.

Each case builds a small package in a temporary directory, writes its cache
with the same writer the mypy plugin uses (from the runtime IR here, so the
loader is tested on its own), and runs Python in a subprocess, as production
would: ``python -OO`` with the cache, stale caches, ``TOOLCALL_CACHE``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.cached_package import WRITE_CACHE, entry_tool, run_python, write_cached_package
from toolcall import _ir as ir
from toolcall._cache import file_format as cf
from toolcall._cache.constants import IR_VERSION
from toolcall._cache.file_format import CACHE_FORMAT

#: Left out of the fast loop (``-m "not slow"``): every case runs fresh interpreters on a package with a cache.
pytestmark = pytest.mark.slow

#: The end of every ``require`` error about a cache that can be written.
WRITES_IT = (
    "run mypy with the toolcall plugin (or `toolcall check`) to write it, "
    "and ship the module's __toolcall__ directory with the module"
)

PROBE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import toolcall
    import pkg.tools as tools
    from toolcall._toolset.toolset import as_toolset, loaded_tools
    emitted = toolcall.emit(tools, "openai")
    loaded = [t.cached for t in loaded_tools(as_toolset(tools))]
    introspected = "toolcall._introspect" in sys.modules
    result = toolcall.run(tools, "get_weather", {"city": "Oslo", "unit": "fahrenheit"})
print(json.dumps({
    "docstring": tools.get_weather.__doc__,
    "description": emitted[0]["function"]["description"],
    "city": emitted[0]["function"]["parameters"]["properties"]["city"].get("description"),
    "lat": emitted[1]["function"]["parameters"]["properties"]["place"]["properties"]["lat"].get("description"),
    "from_cache": loaded,
    "introspected": introspected,
    "result": result.value if result.ok else str(result.error),
    "warnings": [str(w.message) for w in caught],
}))
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_cached_package(tmp_path)
    return tmp_path


def replaced(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def _probe(cwd: Path, *flags: str, env: dict[str, str] | None = None) -> dict[str, object]:
    run = run_python(cwd, PROBE, *flags, env=env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def test_optimized_python_keeps_every_description_from_the_cache(project: Path) -> None:
    seen = _probe(project, "-OO")
    assert seen["docstring"] is None  # -OO stripped it ...
    assert seen["description"] == "Get the forecast for a city."  # ... the cache kept it
    assert seen["city"] == 'city name, e.g. "Oslo"'
    assert seen["lat"] == "Latitude in degrees."
    assert seen["from_cache"] == [True, True]
    assert seen["introspected"] is False
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}
    assert seen["warnings"] == []


def test_without_a_cache_toolcall_introspects_quietly(project: Path) -> None:
    (project / "pkg" / "__toolcall__" / "tools.json").unlink()
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert seen["introspected"] is True
    assert seen["warnings"] == []
    assert seen["description"] == "Get the forecast for a city."


def test_an_edited_module_makes_the_cache_stale(project: Path) -> None:
    tools = project / "pkg" / "tools.py"
    tools.write_text(tools.read_text().replace("days: int = 3", "days: int = 4"))
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert seen["warnings"] == [
        "the schema cache of 1 module is not served, so its tools are introspected instead: "
        "pkg.tools (pkg.tools changed); run mypy with the toolcall plugin (or `toolcall check`) to refresh them"
    ]
    assert seen["result"] == {"city": "Oslo", "days": 4, "unit": "fahrenheit"}


def resealed(change: Callable[[dict[str, Any]], object]) -> Callable[[bytes], bytes]:
    """A change that keeps the seal valid: as if the writer itself had written it."""

    def corrupt(data: bytes) -> bytes:
        content = json.loads(data)
        del content["content_sha256"]
        change(content)
        return cf.dumps(content).encode("utf-8", "surrogatepass")

    return corrupt


def _reseal(cache: Path, change: Callable[[dict[str, Any]], object]) -> None:
    cache.write_bytes(resealed(change)(cache.read_bytes()))


def _edit_ir(index: int, change: Callable[[ir.Tool], ir.Tool]) -> Callable[[dict[str, Any]], None]:
    """A change to the IR of tool entry ``index``, as a writer would make it: decoded, replaced, encoded again."""

    def edit(content: dict[str, Any]) -> None:
        entry = content["tools"][index]
        changed = change(entry_tool(content, entry))
        # Encoded whole (its classes inline, which a reader takes too), with a module only when not the file's.
        entry["ir"] = ir.to_json(dataclasses.replace(changed, module="") if changed.module == "pkg.tools" else changed)

    return edit


def _days_required(tool: ir.Tool) -> ir.Tool:
    days = tool.parameters[1]
    assert (days.name, days.required) == ("days", False)
    return dataclasses.replace(
        tool, parameters=(tool.parameters[0], dataclasses.replace(days, required=True), *tool.parameters[2:])
    )


#: The warning when the live ``get_weather``'s signature is not the one its cache entry holds.
SIGNATURE_CHANGED = (
    "the schema cache of 1 module is not served, so its tools are introspected instead: "
    "pkg.tools (the signature of tool 'get_weather' changed); run mypy with the toolcall plugin "
    "(or `toolcall check`) to refresh them"
)


def test_a_changed_signature_is_caught_without_the_source(project: Path) -> None:
    """The source is as recorded; the IR the cache holds is not the live function's signature."""
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    _reseal(cache, _edit_ir(0, _days_required))  # sealed again: as mypy would have written it
    seen = _probe(project)
    assert seen["from_cache"] == [False, True]
    assert seen["warnings"] == [SIGNATURE_CHANGED]
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}


def test_a_live_function_whose_signature_changed_is_stale(project: Path) -> None:
    """The fingerprint check takes the IR's signature: a changed function is caught where its source is trusted."""
    tools = project / "pkg" / "tools.py"
    tools.write_text(replaced(tools.read_text(), "days: int = 3,", "days: int = 3, hours: int = 0,"))
    record = cf.source_record(tools.read_bytes(), "tools.py")  # the module's record says it is current

    def current_source(content: dict[str, Any]) -> None:
        content["sources"]["pkg.tools"] = record

    _reseal(project / "pkg" / "__toolcall__" / "tools.json", current_source)
    seen = _probe(project)
    assert seen["from_cache"] == [False, True]
    assert seen["warnings"] == [SIGNATURE_CHANGED]
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}


def _encoded_fields(cls: type[Any]) -> list[tuple[str, Any]]:
    """The fields of ``cls`` in the order ``ir.to_json`` writes them, each with its encoding default."""
    layout = ir._layout(cls)
    assert layout is not None
    return list(layout[1])


def _slot(cls: type[Any], field: str) -> int:
    """Where ``ir.to_json`` puts ``field`` of a ``cls``: its encoding position, after a type node's kind."""
    names = [name for name, _ in _encoded_fields(cls)]
    return names.index(field) + (1 if isinstance(getattr(cls, "kind", None), str) else 0)


#: Where ``where``'s ``place`` is: the IR's parameters, the first one's type (a position in "types").
PLACE_TYPE = ("tools", 1, "ir", _slot(ir.Tool, "parameters"), 0, _slot(ir.Parameter, "type"))
#: The lower bound of ``place.lat``, by position: the class (shared), its first field's type (a
#: constrained float, shared too), its constraints, their ``ge``.
LAT_GE = (
    *PLACE_TYPE,
    _slot(ir.ObjectType, "fields"),
    0,
    _slot(ir.Field, "type"),
    _slot(ir.Constrained, "constraints"),
    _slot(ir.Constraints, "ge"),
)


def _follow(content: dict[str, Any], parts: Sequence[str | int]) -> Any:
    """What ``parts`` lead to in ``content``; a node written in "types" is followed there by its position."""
    target: Any = content
    for part in parts:
        if type(target) is int:
            target = content["types"][target]
        target = target[part]
    return target


def _set(path: str | tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    """A change of the value at ``path`` (keys and positions, or ``"a/0/b"``), whatever its type."""

    def change(content: dict[str, Any]) -> None:
        parts = path if isinstance(path, tuple) else [int(p) if p.isdigit() else p for p in path.split("/")]
        *parents, last = parts
        target = _follow(content, parents)
        if type(target) is int:
            target = content["types"][target]
        target[last] = value

    return change


def _edited(data: bytes) -> bytes:
    return data.replace(b"Get the forecast for a city.", b"Get the forecast for a town.")


def _add_source(content: dict[str, Any], sources: list[int] | None = None) -> None:
    """``pkg.a_types`` in the sources table, which stays sorted (every entry's indexes follow); the first entry's
    ``sources`` then as given: indexes into the new table (0 ``pkg.a_types``, 1 ``pkg.tools``)."""
    table = content["sources"]
    names = sorted([*table, "pkg.a_types"])
    moved = {index: names.index(name) for index, name in enumerate(table)}
    content["sources"] = {name: list(table.get(name, table["pkg.tools"])) for name in names}
    for entry in content["tools"]:
        if "sources" in entry:
            entry["sources"] = [moved[index] for index in entry["sources"]]
    assert content["tools"][0]["sources"] == [1]
    if sources is not None:
        content["tools"][0]["sources"] = sources


def _unsorted_sources(content: dict[str, Any]) -> None:
    """Another module after ``pkg.tools`` in the table, which sorts before it; the entries' indexes still right."""
    content["sources"]["pkg.a_types"] = list(content["sources"]["pkg.tools"])


def _longer_than_a_tool(content: dict[str, Any]) -> None:
    """The first IR with every field of a tool written out (``defs``, ``returns``, ``providers``), then one more."""
    tool = content["tools"][0]["ir"]
    tool.extend(ir.to_json(default) for _, default in _encoded_fields(ir.Tool)[len(tool) :])
    assert len(tool) == len(dataclasses.fields(ir.Tool))
    tool.append("extra")


CORRUPTIONS = {
    "truncated": lambda data: data[: len(data) // 2],
    "empty": lambda data: b"",
    "junk": lambda data: b"junk \x00\xff",
    "not-utf-8": lambda data: data.replace(b"Oslo", b"Osl\xff"),
    "not-an-object": lambda data: b"[]",
    "deep": lambda data: b"[" * 100_000,
    "hand-edited": _edited,
    "wrong-format": lambda data: data.replace(f'"format": {CACHE_FORMAT}'.encode(), b'"format": 999'),
    "wrong-ir-version": lambda data: data.replace(f'"ir": {IR_VERSION}'.encode(), b'"ir": 999'),
    "ir-number": resealed(_set("tools/0/ir", 5)),
    "ir-an-object": resealed(_set("tools/0/ir", {"name": "get_weather", "module": "pkg.tools", "qualname": "q"})),
    "ir-longer-than-a-tool": resealed(_longer_than_a_tool),
    "ir-of-another-tool": resealed(lambda content: content["tools"][0].update(ir=content["tools"][1]["ir"])),
    "ir-of-another-module": resealed(_edit_ir(0, lambda tool: dataclasses.replace(tool, module="pkg.other"))),
    "described-extra-key": resealed(_set("tools/0/describe", {})),
    "described-with-fingerprint": resealed(_set("tools/0/fingerprint", "0" * 32)),
    "described-missing-sources": resealed(lambda content: content["tools"][0].pop("sources")),
    "described-missing-ir": resealed(lambda content: content["tools"][0].pop("ir")),
    "sources-unsorted": resealed(_unsorted_sources),
    "entry-sources-unsorted": resealed(lambda content: _add_source(content, [1, 0])),
    "entry-sources-duplicate": resealed(_set("tools/0/sources", [0, 0])),
    "entry-sources-out-of-range": resealed(_set("tools/0/sources", [0, 1])),
    "entry-sources-a-name": resealed(_set("tools/0/sources", ["pkg.tools"])),
    "entry-sources-without-the-module": resealed(lambda content: _add_source(content, [0])),
    "nan": resealed(_set(LAT_GE, float("nan"))),
    "entry-string": resealed(_set("tools/1", "where")),
    "sources-missing": resealed(lambda content: content.pop("sources")),
    "bad-entry": resealed(_set("tools", [{"name": "x"}])),
}
#: What an edit the seal does not cover is refused as, whichever field it changed.
BROKEN_SEAL = "its seal (content_sha256) does not match its content: it was edited after mypy wrote it"
#: Why the file is refused, for the corruptions of the format's own rules.
REASONS = {
    "hand-edited": BROKEN_SEAL,
    "wrong-format": BROKEN_SEAL,  # an edit to a version is damage, not another toolcall's file
    "wrong-ir-version": BROKEN_SEAL,
    "ir-an-object": (
        "tool entry 0: 'ir' does not decode (ValueError: cannot decode "
        "{'name': 'get_weather', 'module': 'pkg.tools', 'qualname': 'q'} as Tool)"
    ),
    "ir-longer-than-a-tool": (
        "tool entry 0 ('get_weather'): 'ir' does not decode (ValueError: cannot decode "
        "['get_weather', 'get_weather', 'Get the forecast for a city.', [['city', 'str... as Tool)"
    ),
    "ir-of-another-tool": "tool entry 1 ('where'): qualname 'where' has an entry already",
    "ir-of-another-module": (
        "tool entry 0 ('get_weather'): 'ir' names a module ('pkg.other'): an entry's IR leaves it to the file"
    ),
    "described-extra-key": "tool entry 0 ('get_weather') has unexpected keys: 'describe'",
    "described-with-fingerprint": "tool entry 0 ('get_weather') has unexpected keys: 'fingerprint'",
    "described-missing-sources": "tool entry 0 ('get_weather') has no 'sources'",
    "described-missing-ir": "tool entry 0 has no 'ir'",
    "sources-unsorted": "the cache's 'sources' is not sorted by module name",
    "entry-sources-unsorted": "tool entry 0 ('get_weather'): 'sources' is not sorted, each module once",
    "entry-sources-duplicate": "tool entry 0 ('get_weather'): 'sources' is not sorted, each module once",
    "entry-sources-out-of-range": (
        "tool entry 0 ('get_weather'): 'sources' holds 1, not an index into the cache's 'sources'"
    ),
    "entry-sources-a-name": (
        "tool entry 0 ('get_weather'): 'sources' holds 'pkg.tools', not an index into the cache's 'sources'"
    ),
    "entry-sources-without-the-module": (
        "tool entry 0 ('get_weather'): 'sources' leaves out the module itself ('pkg.tools')"
    ),
}


def test_a_source_added_to_the_table_keeps_the_file_usable(project: Path) -> None:
    """What ``_add_source`` leaves, before it gives the first entry other indexes: a file the loader serves."""
    _reseal(project / "pkg" / "__toolcall__" / "tools.json", _add_source)
    content = json.loads((project / "pkg" / "__toolcall__" / "tools.json").read_bytes())
    assert list(content["sources"]) == ["pkg.a_types", "pkg.tools"]
    assert [entry["sources"] for entry in content["tools"]] == [[1], [1]]
    seen = _probe(project)
    assert seen["from_cache"] == [True, True]
    assert seen["warnings"] == []


@pytest.mark.parametrize("mode", ["auto", "require"])
@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupt_cache_is_never_served_and_never_crashes(project: Path, corruption: str, mode: str) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.write_bytes(CORRUPTIONS[corruption](cache.read_bytes()))
    _expect_unserved(project, mode, REASONS.get(corruption))


def _sealed_whole(data: bytes) -> bytes:
    """The file as cache formats 2 to 5 sealed it: with the whole SHA-256 of the rest, not its first 128 bits."""
    start = data.index(b'\n  "content_sha256": "')
    end = data.index(b"\n", start + 1)
    rest = data[:start] + data[end:]
    return data[:start] + f'\n  "content_sha256": "{hashlib.sha256(rest).hexdigest()}",'.encode() + data[end:]


ANOTHER_VERSION = {
    "format": resealed(_set("format", 999)),
    "ir": resealed(_set("ir", 999)),
    "older-format-whole-digest": lambda data: _sealed_whole(resealed(_set("format", 5))(data)),
}


@pytest.mark.parametrize("version", list(ANOTHER_VERSION))
def test_a_file_another_toolcall_sealed_is_said_to_be_of_another_version(project: Path, version: str) -> None:
    """The seal holds, so the file is whole: it is another version's, not damaged."""
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.write_bytes(ANOTHER_VERSION[version](cache.read_bytes()))
    seen = _probe(project)
    assert seen["from_cache"] == [False, False]
    assert seen["warnings"] == [
        "the schema cache of 1 module is not served, so its tools are introspected instead: "
        "pkg.tools (its schema cache was written by another toolcall version); "
        "run mypy with the toolcall plugin (or `toolcall check`) to refresh them"
    ]
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.stderr.strip().splitlines()[-1] == (
        "toolcall._exceptions.CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': "
        f"its schema cache was written by another toolcall version; {WRITES_IT}"
    )


@pytest.mark.parametrize("mode", ["auto", "require"])
@pytest.mark.parametrize("kind", ["dev-zero", "directory", "huge", "dangling", "fifo"])
def test_a_cache_that_is_not_a_regular_file_is_refused(project: Path, kind: str, mode: str) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.unlink()
    if kind == "dev-zero":
        cache.symlink_to("/dev/zero")
    elif kind == "directory":
        cache.mkdir()
    elif kind == "fifo":
        os.mkfifo(cache)
    elif kind == "huge":
        with open(cache, "wb") as handle:
            handle.truncate(65 * 1024 * 1024)  # sparse: costs no disk
    else:
        cache.symlink_to(cache.with_name("gone.json"))
        seen = _probe(project, env={"TOOLCALL_CACHE": "off"})  # a dangling link is no file at all
        assert seen["warnings"] == []
        return
    _expect_unserved(project, mode)


def _expect_unserved(project: Path, mode: str, reason: str | None = None) -> None:
    """Neither tool is served from the cache; ``reason``: why the file is unusable, if given."""
    unusable = "its schema cache is unusable: " + (reason or "")
    if mode == "auto":
        seen = _probe(project)
        assert seen["from_cache"] == [False, False]
        warnings = seen["warnings"]
        assert isinstance(warnings, list)
        (warning,) = warnings
        assert warning.startswith("the schema cache of 1 module is not served"), warning
        assert "\n" not in warning
        assert reason is None or f"pkg.tools ({unusable});" in warning, warning
        assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}
        return
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "toolcall._exceptions.CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': "
    ), run.stderr
    assert reason is None or last.endswith(f"{unusable}; {WRITES_IT}"), run.stderr


def test_require_fails_loudly_on_a_stale_or_missing_cache(project: Path) -> None:
    assert _probe(project, env={"TOOLCALL_CACHE": "require"})["from_cache"] == [True, True]
    (project / "pkg" / "__toolcall__" / "tools.json").write_text("{}")
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    assert "TOOLCALL_CACHE=require" in run.stderr
    (project / "pkg" / "__toolcall__" / "tools.json").unlink()
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.stderr.strip().splitlines()[-1] == (  # what is wrong, and the command that fixes it
        "toolcall._exceptions.CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': "
        f"no schema cache for module 'pkg.tools'; {WRITES_IT}"
    )


def test_off_ignores_the_cache(project: Path) -> None:
    seen = _probe(project, env={"TOOLCALL_CACHE": "off"})
    assert seen["from_cache"] == [False, False]
    assert seen["warnings"] == []


def test_an_unknown_mode_is_an_error(project: Path) -> None:
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "sometimes"})
    assert "TOOLCALL_CACHE='sometimes'" in run.stderr


def test_loading_a_cache_builds_nothing_until_first_use(project: Path) -> None:
    code = textwrap.dedent(
        """
        import sys, toolcall
        import toolcall._render.definitions as definitions

        rendered = []
        render_tool = definitions.render_tool

        def counted(tool, provider, **kwargs):
            rendered.append((tool.name, provider, kwargs.get("strict", False)))
            return render_tool(tool, provider, **kwargs)

        def refuse(*args, **kwargs):
            raise AssertionError("every variant rendered: only the plugin renders them all")

        definitions.render_tool, definitions.render_variants = counted, refuse
        import pkg.tools as tools
        from toolcall._toolset.toolset import as_toolset, loaded_tools
        toolset = as_toolset(tools)
        unbuilt = [t._binder.peek() is None for t in loaded_tools(toolset)]
        assert all(unbuilt), "nothing built yet"
        assert rendered == [], "nothing rendered yet"
        first = toolcall.emit(tools, "anthropic")
        assert rendered == [("get_weather", "anthropic", False), ("where", "anthropic", False)], rendered
        assert toolcall.emit(tools, "anthropic") == first  # served again (a fresh copy), not rendered again
        assert len(rendered) == 2, rendered
        assert "toolcall._introspect" not in sys.modules
        assert "toolcall._dispatch.binder" not in sys.modules
        toolcall.run(tools, "where", {"place": {"lat": 1.5}})
        built = [t._binder.peek() is not None for t in loaded_tools(toolset)]
        assert built == [False, True], built
        print("ok")
        """
    )
    run = run_python(project, code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_cache_files_are_deterministic(project: Path) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    first = cache.read_bytes()
    cache.unlink()
    run_python(project, WRITE_CACHE, env={"PYTHONHASHSEED": "99"})
    assert cache.read_bytes() == first
    assert first.endswith(b"\n")
    content = json.loads(first)
    del content["content_sha256"]
    assert cf.dumps(content).encode() == first


def test_a_cache_file_holds_each_tools_sources_and_ir_only(project: Path) -> None:
    content = json.loads((project / "pkg" / "__toolcall__" / "tools.json").read_bytes())
    assert list(content) == ["checked", "content_sha256", "format", "ir", "module", "sources", "tools", "types"]
    assert [list(entry) for entry in content["tools"]] == [["sources", "ir"], ["sources", "ir"]]
    assert list(content["sources"]) == ["pkg.tools"]
    assert [entry["sources"] for entry in content["tools"]] == [[0], [0]]  # indexes into the sources table
    assert [entry_tool(content, entry).qualname for entry in content["tools"]] == ["get_weather", "where"]
    place = _follow(content, PLACE_TYPE)
    assert type(place) is int, "the class written once, in types"
    assert content["types"][place][:2] == ["object", "pkg.tools:Place"]
    assert _follow(content, LAT_GE) == -90  # the position the "nan" corruption replaces


SERVED = """
import json, sys
import toolcall
import pkg.tools as tools
from toolcall._providers import VARIANTS
from toolcall._toolset.toolset import as_toolset, loaded_tools

out = {}
for provider, strict in VARIANTS:
    try:
        out[f"{provider}:{strict}"] = toolcall.emit(tools, provider, strict=strict)
    except ValueError as error:
        out[f"{provider}:{strict}"] = f"ValueError: {error}"
out["describe"] = toolcall.describe(tools)
print(json.dumps(out))
print(json.dumps([t.cached for t in loaded_tools(as_toolset(tools))]))
"""


def test_what_the_cache_serves_equals_what_introspection_renders(project: Path) -> None:
    """Every provider variant and ``describe``, byte for byte in ``json.dumps``: rendered from the cached IR."""
    served, introspected = (run_python(project, SERVED, env={"TOOLCALL_CACHE": mode}) for mode in ("require", "off"))
    assert served.returncode == 0, served.stderr
    assert introspected.returncode == 0, introspected.stderr
    served_text, served_from = served.stdout.splitlines()
    introspected_text, introspected_from = introspected.stdout.splitlines()
    assert (served_from, introspected_from) == ("[true, true]", "[false, false]")
    assert len(json.loads(served_text)) > 2  # every variant and describe
    assert served_text == introspected_text


def _refuse_where(content: dict[str, Any]) -> None:
    tool = entry_tool(content, content["tools"][1])
    assert tool.qualname == "where"
    shape = cf.ir_parameters(tool)
    content["tools"][1] = cf.refused_entry("where", "where", shape, "toolcall-type: no schema for Place")


def test_a_refused_entry_is_introspected_and_says_why(project: Path) -> None:
    _reseal(project / "pkg" / "__toolcall__" / "tools.json", _refuse_where)
    seen = _probe(project)
    assert seen["from_cache"] == [True, False]
    assert seen["warnings"] == [
        "the schema cache of 1 module is not served, so its tools are introspected instead: "
        "pkg.tools (the mypy plugin could not describe tool 'where' (toolcall-type: no schema for Place)); "
        "a tool the plugin could not describe needs its finding fixed, not silenced"
    ]
    assert seen["lat"] == "Latitude in degrees."  # introspected: the tool works
    assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    assert run.stderr.strip().splitlines()[-1] == (
        "toolcall._exceptions.CacheRequiredError: TOOLCALL_CACHE=require: tool 'where' of 'pkg.tools': "
        "the mypy plugin could not describe tool 'where' (toolcall-type: no schema for Place); "
        "fix the finding mypy reports for it: a silenced one leaves the tool out of the cache"
    )


THREADED = """
import json, sys, threading, warnings
sys.setswitchinterval(1e-6)
warnings.simplefilter("always")
import toolcall
import pkg.tools as tools
from toolcall._toolset.toolset import as_toolset, loaded_tools

barrier = threading.Barrier(16)
seen, errors = [], []


def work():
    barrier.wait()
    try:
        result = toolcall.run(tools, "where", {"place": {"lat": 1.5}})
        seen.append(json.dumps([toolcall.emit(tools, "openai"), toolcall.describe(tools), result.value]))
    except BaseException as exc:
        errors.append(repr(exc))


with warnings.catch_warnings(record=True) as caught:
    threads = [threading.Thread(target=work) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
print(json.dumps({
    "distinct": len(set(seen)),
    "errors": errors,
    "warnings": [str(w.message) for w in caught],
    "served": [t.cached for t in loaded_tools(as_toolset(tools))],
}))
"""


@pytest.mark.parametrize("state", ["current", "stale"])
def test_first_use_from_many_threads_loads_and_warns_once(project: Path, state: str) -> None:
    if state == "stale":
        tools = project / "pkg" / "tools.py"
        tools.write_text(tools.read_text().replace("days: int = 3", "days: int = 4"))
    for _ in range(3):  # a race shows only sometimes: a few fresh processes
        run = run_python(project, THREADED)
        assert run.returncode == 0, run.stderr
        seen = json.loads(run.stdout)
        assert seen["errors"] == []
        assert seen["distinct"] == 1
        assert seen["served"] == ([True, True] if state == "current" else [False, False])
        assert len(seen["warnings"]) == (0 if state == "current" else 1), seen["warnings"]
