"""Folding: subtrees equal to a recursive definition's body become a ``RefType``.

Both front ends fold a tool's types once its walk is done. A plain
recursive alias (``Json = ... list["Json"]``) reaches a walker unrolled
once (``typing.get_type_hints`` expands it at run time); folding turns the
unrolled copies back into the reference, so the IR says what the code says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from toolcall import _ir as ir

__all__ = ["fold", "fold_defs"]


def fold(node: ir.TypeNode, bodies: Mapping[ir.TypeNode, str]) -> ir.TypeNode:
    """``node`` with every subtree found in ``bodies`` (body → name) replaced by its reference."""
    rebuilt = _fold_children(node, bodies)
    name = bodies.get(rebuilt)
    return ir.RefType(name) if name is not None else rebuilt


def fold_defs(defs: Mapping[str, ir.TypeNode]) -> dict[str, ir.TypeNode]:
    """The definitions with their own inner copies of each other folded (never a body into itself)."""
    bodies = {body: name for name, body in defs.items()}
    return {name: _fold_children(body, bodies) for name, body in defs.items()}


def _fold_children(node: ir.TypeNode, bodies: Mapping[ir.TypeNode, str]) -> ir.TypeNode:
    if isinstance(node, ir.ArrayType):
        return dataclasses.replace(node, items=fold(node.items, bodies))
    if isinstance(node, ir.MapType):
        return ir.MapType(fold(node.values, bodies))
    if isinstance(node, ir.TupleType):
        return ir.TupleType(tuple(fold(item, bodies) for item in node.items))
    if isinstance(node, ir.UnionType):
        return ir.UnionType(tuple(fold(option, bodies) for option in node.options))
    if isinstance(node, ir.Constrained):
        return ir.Constrained(fold(node.base, bodies), node.constraints)
    if isinstance(node, ir.ObjectType):
        fields = tuple(dataclasses.replace(f, type=fold(f.type, bodies)) for f in node.fields)
        return dataclasses.replace(node, fields=fields)
    return node
