"""The exceptions toolcall raises to the programmer (never to the model, which gets ``toolcall.errors`` data).

Each subclasses the builtin exception that was raised before it existed, so
``except ValueError`` and ``except TypeError`` keep working, while a caller
that wants one problem can catch just that class.
"""

from __future__ import annotations

__all__ = [
    "CacheRequiredError",
    "MissingInjectedError",
    "ProviderError",
    "SchemaError",
    "ToolNameError",
    "UnknownProviderError",
]


class SchemaError(TypeError):
    """A tool's parameter (or a type inside it) has no JSON Schema: mark it ``Injected`` or give it a schema.

    Raised on the toolset's first use, when annotations are resolved.
    """


class ToolNameError(ValueError):
    """A tool name is not ``^[a-zA-Z0-9_-]{1,64}$``, or two tools of one toolset share a name."""


class UnknownProviderError(ValueError):
    """``emit`` (or the command line) was given a provider name toolcall does not know."""


class ProviderError(ValueError):
    """A provider cannot take a tool as it is (Gemini strict mode, a name or limit it refuses)."""


class MissingInjectedError(TypeError):
    """``run`` was not given a value for an ``Injected`` parameter: a programming error, not the model's."""


class CacheRequiredError(RuntimeError):
    """``TOOLCALL_CACHE=require`` is set and a tool has no current schema cache entry."""
