"""TypedDicts: totality, Required/NotRequired, inheritance, descriptions."""

from __future__ import annotations

from tests.corpus import introspected, typeddicts
from toolcall import _ir as ir

STR = ir.Primitive("str")
ADDRESS = ir.ObjectType(
    "tests.corpus.typeddicts:Address",
    "typeddict",
    (
        ir.Field("street", STR, description="Street and number."),
        ir.Field("city", STR),
        ir.Field("zip", STR, required=False, description="Postal code, if known."),
    ),
    "A postal address.",
)


def test_inherited_fields_come_first_with_their_docs() -> None:
    customer = introspected(typeddicts.create_customer).tool.parameters[0]
    assert customer.description == "the new customer"
    assert customer.type == ir.ObjectType(
        "tests.corpus.typeddicts:Customer",
        "typeddict",
        (
            # Required[] inside total=False; the class docstring's Attributes entry.
            ir.Field("email", STR, description="an email address"),
            # The attribute docstring wins over the Attributes entry.
            ir.Field("phone", STR, required=False, description="Phone in E.164 form."),
            ir.Field("name", STR),
            ir.Field("address", ADDRESS),
        ),
        "A customer with a contact and an address.",
    )


def test_typing_extensions_typeddict_without_docs() -> None:
    tags = introspected(typeddicts.create_customer).tool.parameters[1]
    assert tags.type == ir.ArrayType(
        ir.ObjectType(
            "tests.corpus.typeddicts:Tag",
            "typeddict",
            (ir.Field("label", STR), ir.Field("color", STR, required=False)),
        )
    )
    assert tags.description is None


def test_class_docstring_describes_an_undocumented_parameter() -> None:
    result = introspected(typeddicts.ship)
    to = result.tool.parameters[0]
    assert to.type == ADDRESS
    assert to.description == "A postal address."
    assert result.classes["tests.corpus.typeddicts:Address"] is typeddicts.Address
