"""Another tool named "lookup", through name=."""

import toolcall


@toolcall.tool(name="lookup")
def find(key: str) -> str:
    """Find a key."""
    return key
