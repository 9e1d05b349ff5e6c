"""Emit the example toolset in every provider format, then dispatch two calls (the README's first command).

``scripts/demo.sh`` runs it under ``python -OO`` with ``TOOLCALL_CACHE=require``
after mypy wrote the schema cache: the definitions, descriptions included,
come from ``examples/__toolcall__/weather.json``, not from the docstrings
``-OO`` removes.
"""

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


CALLS = [
    ("get_weather", {"city": "Oslo"}),
    ("forecast_at", {"place": {"lat": 59.9, "lon": 10.7}, "unit": "fahrenheit", "hours": 2}),
    ("get_weather", {"city": "Oslo", "days": "5"}),
]


def main() -> None:
    """Print each variant's tool definitions as JSON, then what two model calls return."""
    for provider, strict in VARIANTS:
        print(f"# {provider}{' (strict)' if strict else ''}")
        print(json.dumps(toolcall.emit(weather, provider, strict=strict), indent=2))
    print("# dispatch")
    for name, args in CALLS:
        result = toolcall.run(weather, name, args)
        shown = result.value if isinstance(result, toolcall.Ok) else result.to_json()
        print(f"{name}({json.dumps(args)}) -> {type(result).__name__}: {json.dumps(shown, default=str)}")


if __name__ == "__main__":
    main()
