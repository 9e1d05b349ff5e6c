"""The public API line: what users see of ``Toolset``, the exception classes they can catch, per-tool state."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest

import toolcall
from toolcall import Injected, Param, errors
from toolcall._declarations.tool import ToolDeclaration, declaration_of
from toolcall._introspect import introspect
from toolcall._toolset.toolset import LoadedTool, Toolset, as_toolset, loaded_tools


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city."""
    return {"city": city, "days": days, "temp": 21.5}


BUILTINS = {
    errors.SchemaError: TypeError,
    errors.ToolNameError: ValueError,
    errors.UnknownProviderError: ValueError,
    errors.ProviderError: ValueError,
    errors.MissingInjectedError: TypeError,
    errors.CacheRequiredError: RuntimeError,
}


def test_toolset_shows_users_only_its_names() -> None:
    public = sorted(name for name in dir(Toolset) if not name.startswith("_"))
    assert public == ["names"]
    toolset = Toolset(get_weather)
    assert list(toolset.names) == ["get_weather"]
    assert len(toolset) == 1
    assert "get_weather" in toolset
    assert "nope" not in toolset
    assert [] not in toolset  # an unhashable name is simply not there
    assert repr(toolset) == "Toolset(get_weather)"


def test_per_tool_state_is_typed() -> None:
    """No slot of a loaded tool or a declaration is a bare ``Any`` for other modules to fill in."""
    for cls in (LoadedTool, ToolDeclaration):
        bare = [name for name, hint in cls.__annotations__.items() if str(hint).strip("'\"") in ("Any", "object")]
        assert bare == [], cls


def test_exception_classes_refine_the_builtins() -> None:
    for cls, builtin in BUILTINS.items():
        assert issubclass(cls, builtin), cls
        assert cls.__module__ == "toolcall._exceptions"
        assert cls.__doc__


def test_an_unsafe_tool_name_is_a_tool_name_error() -> None:
    def f() -> None: ...

    with pytest.raises(errors.ToolNameError, match="must match"):
        toolcall.tool(name="no spaces")(f)


def test_a_name_used_twice_is_a_tool_name_error() -> None:
    @toolcall.tool(name="same")
    def a() -> None: ...

    @toolcall.tool(name="same")
    def b() -> None: ...

    with pytest.raises(errors.ToolNameError, match="used twice"):
        Toolset(a, b)


def test_an_unknown_provider_is_an_unknown_provider_error() -> None:
    with pytest.raises(errors.UnknownProviderError, match="known providers"):
        toolcall.emit(get_weather, "bard")


def test_gemini_strict_is_a_provider_error() -> None:
    with pytest.raises(errors.ProviderError, match="strict"):
        toolcall.emit(get_weather, "gemini", strict=True)


class Opaque:
    """A class no schema describes."""


def test_a_type_without_a_schema_is_a_schema_error() -> None:
    @toolcall.tool
    def uses(thing: Opaque) -> None: ...

    with pytest.raises(errors.SchemaError, match="thing") as raised:
        toolcall.emit(uses, "openai")
    assert type(raised.value) is errors.SchemaError


def test_a_missing_injected_value_is_a_missing_injected_error() -> None:
    @toolcall.tool
    def needs(user: Annotated[str, Injected], text: str) -> str:
        return user + text

    with pytest.raises(errors.MissingInjectedError, match="context="):
        toolcall.run(needs, "needs", {"text": "x"})


def test_a_required_cache_that_is_missing_is_a_cache_required_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "required_cache_tools.py").write_text(
        textwrap.dedent(
            """
            import toolcall

            @toolcall.tool
            def ping() -> str:
                return "pong"
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TOOLCALL_CACHE", "require")
    module = importlib.import_module("required_cache_tools")
    try:
        with pytest.raises(errors.CacheRequiredError, match="TOOLCALL_CACHE=require"):
            toolcall.emit(module, "openai")
    finally:
        sys.modules.pop("required_cache_tools", None)


class _Item(TypedDict):
    qty: Annotated[int, Param(description="how many", ge=1)]


@toolcall.tool
def _annotated(
    limit: Annotated[int, Param(description="at most this many", ge=1, le=50)],
    items: list[_Item],
    note: Annotated[str, Param(max_length=10)] | None = None,
) -> None: ...


def test_each_annotated_metadata_is_read_once_per_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter's metadata serves its injected check, its walk and its description from one reading."""
    import toolcall._introspect.metadata as metadata

    reads: list[tuple[Any, ...]] = []
    real = metadata.read_metadata

    def counting(items: tuple[Any, ...]) -> Any:
        reads.append(items)
        return real(items)

    monkeypatch.setattr(metadata, "read_metadata", counting)
    declaration = declaration_of(_annotated)
    assert declaration is not None
    tool = introspect(declaration).tool
    assert [p.description for p in tool.parameters] == ["at most this many", None, None]
    # limit's Annotated, _Item.qty's, note's: each once
    assert len(reads) == 3, reads


def test_loaded_tools_are_the_internal_view() -> None:
    (loaded,) = loaded_tools(as_toolset(get_weather))
    assert loaded.name == "get_weather"
    assert loaded.function is get_weather
    assert loaded.run is None  # the binder is built on first dispatch, by the tool itself
    assert toolcall.run(get_weather, "get_weather", {"city": "Oslo"}).value["days"] == 3  # type: ignore[union-attr]
    assert loaded.run is not None
    assert loaded.binder() is loaded.binder()
