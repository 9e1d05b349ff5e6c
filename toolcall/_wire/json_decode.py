"""A tool call's arguments string → JSON data, with the fastest decoder installed.

OpenAI sends a tool call's arguments as JSON text. msgspec (the ``fast``
extra) decodes it about ten times faster than ``json.loads``; orjson is used
when msgspec is not installed. Either way the result is what ``json.loads``
gives: a text the fast decoder refuses (a lone surrogate escape, ``NaN``, a
number beyond a float) is decoded again by ``json.loads``, which either
accepts it as the standard library does or raises the ``JSONDecodeError``
whose position the error result names. orjson turns integers outside
-2**63 to 2**64 - 1 into floats, so a text with a run of 19 or more digits
(the shortest such integer, -9223372036854775809, has 19) goes to
``json.loads`` directly.

JSON that Python cannot hold (``json_limits``) raises ``BeyondLimits``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from toolcall._once import OnceCell
from toolcall._wire.json_limits import long_integers, too_deep

__all__ = ["decode_arguments", "fast_decoder_name"]

#: The decoder chosen on first use: (its name, its decode function or None for json.loads alone).
_CHOSEN: OnceCell[tuple[str, Callable[[str], Any] | None]] = OnceCell()
#: Each byte to "0" for a digit, to " " otherwise: 19 digits in a row, the fewest that can leave orjson's
#: integers (-2**63 to 2**64 - 1, where it answers a float instead: -9223372036854775809 has 19), become
#: ``_LONG_RUN``. Ten times faster than a regex on long texts.
_DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_LONG_RUN = b"0" * 19


def _choose() -> tuple[str, Callable[[str], Any] | None]:
    try:
        import msgspec
    except ImportError:
        pass
    else:
        return "msgspec", msgspec.json.Decoder().decode
    try:
        import orjson
    except ImportError:
        return "json", None
    loads: Callable[[str], Any] = orjson.loads

    def decode_orjson(text: str) -> Any:
        if _LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS):
            return json.loads(text)
        return loads(text)

    return "orjson", decode_orjson


def _decoder() -> tuple[str, Callable[[str], Any] | None]:
    return _CHOSEN.get(_choose)


def fast_decoder_name() -> str:
    """``"msgspec"``, ``"orjson"`` or ``"json"``: the decoder ``decode_arguments`` uses."""
    return _decoder()[0]


def decode_arguments(text: str) -> Any:
    """JSON data of ``text`` exactly as ``json.loads`` gives it, decoded by the fastest decoder installed.

    Raises ``json.JSONDecodeError`` for text that is not JSON, and
    ``json_limits.BeyondLimits`` for JSON holding an integer longer than the int-string
    limit or nested deeper than ``json.loads`` can go.
    """
    decode = _decoder()[1]
    if decode is not None:
        try:
            return decode(text)
        except Exception:  # refused: json.loads decides, and names the position if it refuses too
            pass
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer past the int-string limit: found again, with where it is
        found = long_integers(text)
        if found.places:
            raise found from None
        return found.data  # a member the text repeats replaced it, as json.loads keeps the last
    except RecursionError:
        raise too_deep(text) from None
