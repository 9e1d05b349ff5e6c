"""The tools the LangChain bridge's tests hand to a LangChain agent: sync, async, injected, and one that fails."""

from __future__ import annotations

from typing import Annotated

import toolcall
from toolcall import Injected


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
async def lookup(word: str) -> str:
    """Look a word up in the dictionary.

    Args:
        word: the word to look up
    """
    return f"{word}: a word"


@toolcall.tool
def whoami(greeting: str, user: Annotated[str, Injected]) -> str:
    """Greet the user of this conversation."""
    return f"{greeting}, {user}"


@toolcall.tool
def set_mode(config: str) -> str:
    """Switch to a configuration (a parameter named as LangChain's own keyword).

    Args:
        config: the configuration's name
    """
    return f"mode {config}"
