"""The production path: a module's schema cache is loaded, checked, and used without introspection.

Each case builds a small package in a temporary directory, writes its cache
with the same writer the mypy plugin uses (from the runtime IR here, so the
loader is tested on its own), and runs Python in a subprocess, as production
would: ``python -OO`` with the cache, stale caches, ``TOOLCALL_CACHE``.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cached_package import WRITE_CACHE, run_python, write_cached_package
from toolcall._cache import file_format as cf
from toolcall._cache.file_format import CACHE_FORMAT
from toolcall._cache.tables import unpack
from toolcall._ir import IR_VERSION

#: Left out of the fast loop (``-m "not slow"``): every case runs fresh interpreters on a package with a cache.
pytestmark = pytest.mark.slow

PROBE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import toolcall
    import pkg.tools as tools
    from toolcall._toolset.toolset import as_toolset, loaded_tools
    emitted = toolcall.emit(tools, "openai")
    loaded = [t.cached is not None for t in loaded_tools(as_toolset(tools))]
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


def test_a_changed_signature_is_caught_without_the_source(project: Path) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    content = unpack(json.loads(cache.read_text()))
    content["tools"][0]["fingerprint"] = "0" * 32
    del content["content_sha256"]
    cache.write_text(cf.dumps(content))  # sealed again: as mypy would have written it
    seen = _probe(project)
    assert seen["from_cache"] == [False, True]
    assert any("the signature of tool 'get_weather' changed" in w for w in seen["warnings"])  # type: ignore[union-attr]


def resealed(change: Callable[[dict[str, Any]], object]) -> Callable[[bytes], bytes]:
    """A corruption that keeps the seal valid: as if the writer itself had written the wrong shape."""

    def corrupt(data: bytes) -> bytes:
        content = unpack(json.loads(data))
        del content["content_sha256"]
        change(content)
        return cf.dumps(content).encode("utf-8", "surrogatepass")

    return corrupt


def resealed_tables(change: Callable[[dict[str, Any]], object]) -> Callable[[bytes], bytes]:
    """A corruption of the file's tables as written (not resolved), with a valid seal."""

    def corrupt(data: bytes) -> bytes:
        content = json.loads(data)
        del content["content_sha256"]
        change(content)
        text = json.dumps(content, indent=2, ensure_ascii=False) + "\n"
        at = text.index('\n  "format": ')
        return f'{text[:at]}\n  "content_sha256": "{hashlib.sha256(text.encode()).hexdigest()}",{text[at:]}'.encode()

    return corrupt


def _bomb(content: dict[str, Any]) -> None:
    """Schemas that each name the one before twice: 2**60 nodes from 60 lines."""
    first = len(content["schemas"])
    content["schemas"] += [{"properties": {"a": i, "b": i}} for i in range(first - 1, first + 59)]
    content["tools"][0]["describe"]["parameters"] = len(content["schemas"]) - 1


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(content: dict[str, Any]) -> None:
        *parents, last = [int(part) if part.isdigit() else part for part in path.split("/")]
        target: Any = content
        for part in parents:
            target = target[part]
        target[last] = value

    return change


def _edited(data: bytes) -> bytes:
    return data.replace(b"Get the forecast for a city.", b"Get the forecast for a town.")


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
    "rendered-list": resealed(_set("tools/0/rendered", [])),
    "variant-string": resealed(_set("tools/0/rendered/openai", "function")),
    "variant-missing": resealed(lambda content: content["tools"][0]["rendered"].pop("anthropic")),
    "ir-number": resealed(_set("tools/0/ir", 5)),
    "ir-of-another-tool": resealed(lambda content: content["tools"][0].update(ir=content["tools"][1]["ir"])),
    "describe-list": resealed(_set("tools/0/describe", [1, 2])),
    "nan": resealed(_set("tools/0/rendered/openai/function/parameters/properties/days/default", float("nan"))),
    "entry-string": resealed(_set("tools/1", "where")),
    "sources-missing": resealed(lambda content: content.pop("sources")),
    "bad-entry": resealed(_set("tools", [{"name": "x"}])),
    "schema-bomb": resealed_tables(_bomb),
    "schema-cycle": resealed_tables(lambda content: content["schemas"].append({"items": len(content["schemas"])})),
    "text-index": resealed_tables(_set("tools/0/describe/description", 10**6)),
    "texts-missing": resealed_tables(lambda content: content.pop("texts")),
}


@pytest.mark.parametrize("mode", ["auto", "require"])
@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupt_cache_is_never_served_and_never_crashes(project: Path, corruption: str, mode: str) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.write_bytes(CORRUPTIONS[corruption](cache.read_bytes()))
    _expect_unserved(project, mode)


@pytest.mark.parametrize("mode", ["auto", "require"])
@pytest.mark.parametrize("kind", ["dev-zero", "directory", "huge", "dangling"])
def test_a_cache_that_is_not_a_regular_file_is_refused(project: Path, kind: str, mode: str) -> None:
    cache = project / "pkg" / "__toolcall__" / "tools.json"
    cache.unlink()
    if kind == "dev-zero":
        cache.symlink_to("/dev/zero")
    elif kind == "directory":
        cache.mkdir()
    elif kind == "huge":
        with open(cache, "wb") as handle:
            handle.truncate(65 * 1024 * 1024)  # sparse: costs no disk
    else:
        cache.symlink_to(cache.with_name("gone.json"))
        seen = _probe(project, env={"TOOLCALL_CACHE": "off"})  # a dangling link is no file at all
        assert seen["warnings"] == []
        return
    _expect_unserved(project, mode)


def _expect_unserved(project: Path, mode: str) -> None:
    if mode == "auto":
        seen = _probe(project)
        assert seen["from_cache"] == [False, False]
        (warning,) = seen["warnings"]  # type: ignore[misc]
        assert warning.startswith("the schema cache of 1 module is not served"), warning
        assert "\n" not in warning
        assert seen["result"] == {"city": "Oslo", "days": 3, "unit": "fahrenheit"}
        return
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "toolcall._exceptions.CacheRequiredError: TOOLCALL_CACHE=require: tool 'get_weather' of 'pkg.tools': "
    ), run.stderr


def test_require_fails_loudly_on_a_stale_or_missing_cache(project: Path) -> None:
    assert _probe(project, env={"TOOLCALL_CACHE": "require"})["from_cache"] == [True, True]
    (project / "pkg" / "__toolcall__" / "tools.json").write_text("{}")
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert run.returncode != 0
    assert "TOOLCALL_CACHE=require" in run.stderr
    (project / "pkg" / "__toolcall__" / "tools.json").unlink()
    run = run_python(project, PROBE, env={"TOOLCALL_CACHE": "require"})
    assert "no schema cache" in run.stderr


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
        import toolcall._render.definitions

        def refuse(*args, **kwargs):
            raise AssertionError("rendered: emit must serve the cached schemas")

        toolcall._render.definitions.render_tool = toolcall._render.definitions.render_variants = refuse
        import pkg.tools as tools
        from toolcall._toolset.toolset import as_toolset, loaded_tools
        toolset = as_toolset(tools)
        unbuilt = [t._binder.peek() is None and t._classes.peek() is None for t in loaded_tools(toolset)]
        assert all(unbuilt), "nothing built yet"
        first = toolcall.emit(tools, "anthropic")
        assert toolcall.emit(tools, "anthropic") == first  # served again (a fresh copy), still not rendered
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
    content = unpack(json.loads(first))
    del content["content_sha256"]
    assert cf.dumps(content).encode() == first


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
    "served": [t.cached is not None for t in loaded_tools(as_toolset(tools))],
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
