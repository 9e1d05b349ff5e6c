"""Folding: subtrees equal to a named type's body become a ``RefType``.

Both front ends fold a tool's types once its walk is done. A plain
recursive alias (``Json = ... list["Json"]``) reaches a walker unrolled
once (``typing.get_type_hints`` expands it at run time); folding turns the
unrolled copies back into the reference, so the IR says what the code says.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolcall import _ir as ir

__all__ = ["fold", "fold_defs"]


def fold(node: ir.TypeNode, bodies: Mapping[ir.TypeNode, str]) -> ir.TypeNode:
    """``node`` with every subtree found in ``bodies`` (body → name) replaced by its reference."""
    rebuilt = _fold_children(node, bodies)
    name = bodies.get(rebuilt)
    return ir.RefType(name) if name is not None else rebuilt


def fold_defs(defs: Mapping[str, ir.TypeNode]) -> dict[str, ir.TypeNode]:
    """The named types with their own inner copies of each other folded (never a body into itself)."""
    bodies = {body: name for name, body in defs.items()}
    return {name: _fold_children(body, bodies) for name, body in defs.items()}


def _fold_children(node: ir.TypeNode, bodies: Mapping[ir.TypeNode, str]) -> ir.TypeNode:
    return ir.replace_child_types(node, lambda child: fold(child, bodies))
