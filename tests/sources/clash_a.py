"""A tool named "lookup"."""

import toolcall


@toolcall.tool
def lookup(key: str) -> str:
    """Look a key up."""
    return key
