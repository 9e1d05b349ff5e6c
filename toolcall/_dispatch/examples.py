"""A tool's docstring examples, checked by the dispatcher's own rules from the IR alone.

Both front ends call ``check_examples`` on the tool they built: the mypy
plugin, which has no live function or class, and introspection, so that the
two agree and a cache holds what introspection would give. The check is the
dispatcher's generated ``bind`` (``toolcall._dispatch.binder.generate``),
with coercers that need no live class: an Enum's value is matched against
the values the IR lists (the member is not looked up), a dataclass or
NamedTuple is not built, and a custom type's coercion hook is not run. What
those would reject (a ``__post_init__`` check, a hook's own refusal) is left
to the call itself: checking a docstring never runs the tool's code. One
rule is the schema's rather than the call's: a null for an optional value
whose type has no null is refused (a call may send it for "use the
default"), since the provider checks examples against the schema.

An example the dispatcher rejects is a ``toolcall-example`` finding naming
its position and the dispatcher's error line, and it is left out of the IR,
so no provider sees it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import Any, Final

from toolcall import _ir as ir
from toolcall._dispatch.binder import Rejected, generate
from toolcall._dispatch.coercers import Coercers, json_key
from toolcall._findings import EXAMPLE, Finding

__all__ = ["check_examples"]

_FIX: Final = "fix it to match the parameters or remove it from the Examples: section"


def check_examples(tool: ir.Tool) -> tuple[ir.Tool, tuple[Finding, ...]]:
    """``tool`` without the examples the dispatcher rejects, and a finding for each of them."""
    if not tool.examples:
        return tool, ()
    bind = _bind(tool)
    kept: list[str] = []
    findings: list[Finding] = []
    for position, example in enumerate(tool.examples, 1):
        try:
            bind(json.loads(example), _ANY_CONTEXT)
        except Rejected as rejected:
            message = f"example {position} is rejected: {rejected.error}; {_FIX}"
            findings.append(Finding(EXAMPLE, message, tool.name))
        else:
            kept.append(example)
    if len(kept) == len(tool.examples):
        return tool, ()
    return dataclasses.replace(tool, examples=tuple(kept)), tuple(findings)


def _bind(tool: ir.Tool) -> Any:
    """The dispatcher's ``bind`` for ``tool``, built from the IR: every optional parameter defaults to ``None``."""
    defaults = {p.name: None for p in tool.parameters if not p.required and p.kind != "var_keyword"}
    return generate(tool, _never_called, _IrCoercers, _BUILD_NOTHING, defaults)["bind"]


class _IrCoercers(Coercers):
    """The dispatcher's coercers, with what needs a live class answered from the IR."""

    def _gen_enum(self, node: ir.EnumType, name: str) -> None:
        # The same table as the dispatcher's, of the values instead of the members they select.
        self._choice(name, {json_key(value): value for value in node.values}, node.values)

    def _custom_hook(self, node: ir.CustomType) -> Any:
        return _unchanged

    def null_is_default(self, node: ir.TypeNode) -> bool:
        # A call may send null for "use the default"; an example is checked as the schema reads it, where a
        # type without null has none (Anthropic refuses a request whose examples do not fit the schema).
        return False


class _BuildNothing(Mapping[str, Any]):
    """Stands in for the classes of the IR's references: a dataclass or NamedTuple is "built" as a dict."""

    def __getitem__(self, ref: str) -> Any:
        return dict

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class _AnyContext:
    """The context of a check: an injected parameter gets ``None`` (the examples cannot name one)."""

    def __getitem__(self, name: str) -> None:
        return None


_BUILD_NOTHING: Final = _BuildNothing()
_ANY_CONTEXT: Final = _AnyContext()


def _unchanged(value: Any) -> Any:
    return value


def _never_called(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("an example check binds the arguments, it never calls the tool")
