# A typed example both mypy and pyright check: @tool keeps exact signatures.
from __future__ import annotations

import toolcall


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    return {"city": city, "days": days}


@toolcall.tool(name="search-docs", description="Search the docs.")
def search(query: str, /, *, limit: int = 10) -> list[str]:
    return [query] * limit


@toolcall.tool
async def fetch(url: str) -> bytes:
    return url.encode()


reveal_type(get_weather)
reveal_type(search)
reveal_type(fetch)
reveal_type(toolcall.tool(name="x"))
get_weather(1)
search("q", limit="many")
