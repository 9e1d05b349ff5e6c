"""Emit the example toolset in every provider format (the README's first command)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import weather

import toolcall

VARIANTS = [
    ("openai", False),
    ("openai", True),
    ("openai-responses", True),
    ("anthropic", False),
    ("anthropic", True),
    ("mcp", False),
    ("gemini", False),
]


def main() -> None:
    """Print each variant's tool definitions as JSON."""
    for provider, strict in VARIANTS:
        print(f"# {provider}{' (strict)' if strict else ''}")
        print(json.dumps(toolcall.emit(weather, provider, strict=strict), indent=2))


if __name__ == "__main__":
    main()
