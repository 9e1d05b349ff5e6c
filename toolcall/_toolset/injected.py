"""Which tools take ``Injected`` parameters, and the refusal a bridge raises when it has no context for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolcall._toolset.toolset import Toolset

__all__ = ["injected_parameters", "refuse_without_context"]


def injected_parameters(toolset: Toolset) -> dict[str, tuple[str, ...]]:
    """Each tool with ``Injected`` parameters → their names, both in declaration order."""
    from toolcall._toolset.toolset import loaded_tools

    found: dict[str, tuple[str, ...]] = {}
    for loaded in loaded_tools(toolset):
        names = tuple(parameter.name for parameter in loaded.ir.parameters if parameter.injected)
        if names:
            found[loaded.name] = names
    return found


def refuse_without_context(injected: dict[str, tuple[str, ...]], how: str) -> None:
    """Raise ``MissingInjectedError`` naming every tool in ``injected``, if any: no call of one could succeed.

    ``how`` says how to pass the context, e.g. ``toolcall.langchain.tools(source, context=...), a function ...``.
    """
    if not injected:
        return
    from toolcall._exceptions import MissingInjectedError

    needing = ", ".join(f"{name!r} ({', '.join(names)})" for name, names in injected.items())
    which = f"tool {needing} has" if len(injected) == 1 else f"tools {needing} have"
    raise MissingInjectedError(f"{which} Injected parameters and no context: pass {how}")
