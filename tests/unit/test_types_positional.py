"""Parameter kinds in signature order."""

from __future__ import annotations

from tests.corpus import introspected, positional


def test_kinds_in_order() -> None:
    params = introspected(positional.resize).tool.parameters
    assert [(p.name, p.kind, p.required) for p in params] == [
        ("width", "positional_only", True),
        ("height", "positional_only", False),
        ("scale", "positional_or_keyword", False),
        ("keep_ratio", "keyword_only", False),
    ]
    assert params[1].description == "new height (0 keeps the ratio)"
