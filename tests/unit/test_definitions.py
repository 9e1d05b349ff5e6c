"""@tool, Toolset and sources: what happens at definition and at first use."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import toolcall
from tests.sources import clash_a, clash_b, ordered
from toolcall._declarations.tool import declaration_of, module_tools


def test_tool_returns_the_function_itself() -> None:
    def f(x: int) -> int:
        return x

    assert toolcall.tool(f) is f
    assert toolcall.tool(name="g")(f) is f
    assert f(2) == 2


def test_bare_and_factory_forms_record_name_and_description() -> None:
    assert declaration_of(ordered.zeta).name == "zeta"
    assert declaration_of(ordered.alpha).name == "alpha-tool"
    assert declaration_of(ordered.alpha).description == "Overridden description."
    assert declaration_of(ordered.helper) is None


@pytest.mark.parametrize("name", ["has space", "", "x" * 65, "dot.ted", "ünïcode", "new\nline", "trailing\n"])
def test_unsafe_names_raise_at_definition(name: str) -> None:
    def f() -> None:
        """Doc."""

    with pytest.raises(ValueError, match=r"must match \^\[a-zA-Z0-9_-\]\{1,64\}\$"):
        toolcall.tool(name=name)(f)


def test_function_name_is_checked_too() -> None:
    with pytest.raises(ValueError, match="<lambda>"):
        toolcall.tool(lambda: None)


def test_star_args_raise_type_error_with_a_fix() -> None:
    def f(a: int, *rest: int) -> None:
        """Doc."""

    with pytest.raises(TypeError, match=r"\*rest cannot be sent by a model.*list parameter"):
        toolcall.tool(f)


def test_a_wrapper_is_judged_by_the_signature_it_shows() -> None:
    import functools

    def logged(fn):  # type: ignore[no-untyped-def]
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            return fn(*args, **kwargs)

        return wrapper

    @logged
    def wrapped(city: str) -> str:
        """Doc."""
        return city

    assert toolcall.tool(wrapped) is wrapped
    (described,) = toolcall.describe(wrapped)
    assert list(described["parameters"]["properties"]) == ["city"]


def test_non_functions_are_refused() -> None:
    with pytest.raises(TypeError, match="plain functions"):
        toolcall.tool(print)  # type: ignore[type-var]


def test_module_toolset_keeps_declaration_order() -> None:
    assert toolcall.tool_names(ordered) == ["zeta", "alpha-tool", "middle"]
    assert [d.qualname for d in module_tools(ordered.__name__)] == ["zeta", "alpha", "middle"]


def test_forward_references_resolve_on_first_use() -> None:
    (middle,) = [d for d in toolcall.describe(ordered) if d["name"] == "middle"]
    assert middle["parameters"]["properties"]["c"]["type"] == "object"


def test_duplicate_names_across_modules_name_both_definitions() -> None:
    with pytest.raises(ValueError, match=r"'lookup' is used twice.*clash_a\.lookup.*clash_b\.find"):
        toolcall.Toolset(clash_a, clash_b)


def test_toolset_combines_modules_functions_and_toolsets() -> None:
    combined = toolcall.Toolset(toolcall.Toolset(clash_a), ordered.zeta, ordered)
    assert toolcall.tool_names(combined) == ["lookup", "zeta", "alpha-tool", "middle"]


def test_bad_sources_say_what_a_source_is() -> None:
    with pytest.raises(TypeError, match="not a tool source"):
        toolcall.emit(ordered.helper, "openai")
    with pytest.raises(ValueError, match=r"has no @toolcall\.tool functions"):
        toolcall.emit(warnings, "openai")


def test_undescribable_type_raises_on_first_use_not_at_import() -> None:
    sys.modules.pop("tests.sources.bad_type", None)
    bad_type = importlib.import_module("tests.sources.bad_type")  # defining it is fine
    with pytest.raises(TypeError, match=r"(?s)socket.*Injected"):
        toolcall.emit(bad_type, "openai")


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"openai.*openai-responses.*anthropic.*mcp.*gemini"):
        toolcall.emit(ordered, "bedrock")


def test_unannotated_parameter_warns() -> None:
    def untyped(x) -> None:  # type: ignore[no-untyped-def]
        """Doc."""

    toolcall.tool(untyped)
    with pytest.warns(toolcall.ToolcallWarning, match="toolcall-param"):
        (schema,) = toolcall.describe(untyped)
    assert schema["parameters"]["properties"]["x"] == {}


def test_warnings_point_at_the_caller_not_at_toolcall() -> None:
    def loose(x) -> None:  # type: ignore[no-untyped-def]
        """Doc."""

    toolcall.tool(loose)
    with pytest.warns(toolcall.ToolcallWarning) as caught:
        toolcall.describe(loose)
    assert {w.filename for w in caught} == {__file__}
