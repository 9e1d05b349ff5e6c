"""NewTypes resolve to their underlying type, through chains."""

from __future__ import annotations

from tests.corpus import introspected, newtypes
from toolcall import _ir as ir


def test_newtype_chains() -> None:
    user, by, notify = introspected(newtypes.promote).tool.parameters
    assert user.type == by.type == ir.Primitive("int")
    assert notify.type == ir.ArrayType(ir.Primitive("str"))
    assert by.description == "the admin doing it"
