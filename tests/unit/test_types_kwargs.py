"""``**kwargs: T`` becomes a var_keyword parameter of type T."""

from __future__ import annotations

from tests.corpus import introspected, kwargs
from toolcall import _ir as ir


def test_var_keyword_parameter() -> None:
    resource_id, tags = introspected(kwargs.tag_resource).tool.parameters
    assert resource_id.kind == "positional_or_keyword"
    assert tags == ir.Parameter("tags", "var_keyword", ir.Primitive("str"), False, None, "tag names and values")


def test_keyword_only_and_union_kwargs() -> None:
    verbose, options = introspected(kwargs.configure).tool.parameters
    assert (verbose.kind, verbose.default) == ("keyword_only", ir.Default.of(False))
    assert options.type == ir.UnionType((ir.Primitive("int"), ir.Primitive("bool")))
    assert not options.required
