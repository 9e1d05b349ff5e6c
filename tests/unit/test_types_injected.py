"""Injected parameters: any type, marked, no description or default."""

from __future__ import annotations

from tests.corpus import injected, introspected
from toolcall import _ir as ir


def test_injected_parameters_are_marked_and_not_walked() -> None:
    result = introspected(injected.count_rows)
    table, db, user = result.tool.parameters
    assert not table.injected
    # A sqlite3.Connection has no schema; injected, it needs none.
    assert db == ir.Parameter("db", "positional_or_keyword", ir.AnyType("any"), injected=True)
    assert user == ir.Parameter("user", "positional_or_keyword", ir.AnyType("any"), required=False, injected=True)
    assert result.findings == ()
