"""Custom types: __toolcall_schema__ classes and TypeProviders."""

from __future__ import annotations

from fractions import Fraction

import pytest

import toolcall
from tests.corpus import custom, introspected
from toolcall import _ir as ir
from toolcall._declarations import custom as registry


def test_self_described_class() -> None:
    result = introspected(custom.paint)
    color = result.tool.parameters[0]
    assert color.type == ir.CustomType(
        "tests.corpus.custom:Color", ir.canonical_json(custom.Color.__toolcall_schema__), None, coerce=True
    )
    assert result.classes["tests.corpus.custom:Color"] is custom.Color
    extra = result.tool.parameters[2]
    assert extra.type == ir.UnionType(
        (ir.CustomType("tests.corpus.custom:Opaque", '{"type":"object"}'), ir.Primitive("none"))
    )


def test_provider_described_class() -> None:
    result = introspected(custom.paint)
    share = result.tool.parameters[1]
    assert share.type == ir.CustomType(
        "fractions:Fraction",
        '{"pattern":"^-?[0-9]+/[0-9]+$","type":"string"}',
        provider="tests.corpus.custom:FractionTypes",
        coerce=True,
    )
    assert share.description == "how much of the wall"
    assert result.tool.providers == ("tests.corpus.custom:FractionTypes",)
    assert result.classes["fractions:Fraction"] is Fraction
    assert result.classes["tests.corpus.custom:FractionTypes"] is custom.FractionTypes


class FirstTypes(toolcall.TypeProvider):
    def resolve(self, fullname: str, args: tuple[str, ...]) -> None:
        return None


class SecondTypes(FirstTypes):
    pass


def _register(module: str, provider: type[toolcall.TypeProvider]) -> None:
    """``use_types(provider)`` at the top level of module ``module``."""
    exec("use_types(provider)", {"__name__": module, "use_types": toolcall.use_types, "provider": provider})


@pytest.mark.threads
@pytest.mark.parametrize("at", [1, 2, 3])
def test_a_registration_made_during_another_is_kept(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """Another thread's ``use_types`` for the same module, run at any step of this one's, is not lost.

    The step is the ``at``-th time the registry hashes the module's name: there another thread could run.
    """
    monkeypatch.setattr(registry, "_MODULE_PROVIDERS", {})
    hashed = 0

    class Name(str):
        __slots__ = ()

        def __hash__(self) -> int:
            nonlocal hashed
            hashed += 1
            if hashed == at:
                _register("tools", SecondTypes)
            return str.__hash__(self)

    _register(Name("tools"), FirstTypes)
    assert set(registry.providers_for("tools")) == {FirstTypes} | ({SecondTypes} if hashed >= at else set())
