"""``Annotated`` metadata as written: ``Param(...)``, ``toolcall.Injected`` and ``annotated_types`` calls.

mypy strips ``Annotated`` metadata from analyzed types, so the static front
end reads it from the annotation as written (``toolcall_mypy._source.syntax``
peels the layers) and merges the items it finds by the runtime's rules
(``toolcall._rules.annotated``). A call's arguments are evaluated only when they
are literals; metadata the plugin cannot read, or the runtime would refuse,
is a problem that makes the type unusable (``Metadata.problems``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Final

from toolcall._declarations.params import PARAM_FIELDS, Param
from toolcall._rules.annotated import ANNOTATED_TYPES, NO_METADATA, Metadata, MetadataMerge
from toolcall._rules.descriptions import sole_option
from toolcall._rules.messages import shorten
from toolcall_mypy._source.names import MAX_HOPS, ModuleSource, assigned_value
from toolcall_mypy._source.syntax import Src, is_none, peel, plain_alias, union_options

__all__ = ["Metadata", "declared_description", "is_injected", "read_metadata"]

PARAM: Final = frozenset({"toolcall.Param", "toolcall._declarations.params.Param"})
INJECTED: Final = frozenset({"toolcall.Injected", "toolcall._declarations.params.Injected"})


def read_metadata(levels: Sequence[Sequence[Src]]) -> Metadata:
    """Merge metadata layers given outermost first (``Annotated`` nesting flattens inner items first)."""
    items = [item for level in reversed(levels) for item in level] if levels else []
    if not items:
        return NO_METADATA
    # Read once per tool module: a parameter's annotation is read for its schema, its description and
    # whether it is injected, a class field's for each tool that uses the class.
    record = items[0].module.sources.record
    key = ("metadata", tuple([(item.expr, item.module) for item in items]))
    return record.remembered(key, lambda: _merged_metadata(items))


def _merged_metadata(items: list[Src]) -> Metadata:
    merge = MetadataMerge()
    for item in items:
        kind, target = _metadata_kind(item)
        if kind == "injected":
            merge.add_injected()
        elif kind == "param" and isinstance(target, ast.Call):
            param = _param(item.at(target), merge)
            if param is not None:
                merge.add_param(param)
        elif kind is not None and isinstance(target, ast.Call):
            _annotated_types(item.at(target), kind, merge)
    return merge.result()


def _metadata_kind(item: Src, hops: int = 0) -> tuple[str | None, ast.expr]:
    """What a metadata item is: ``"injected"``, ``"param"``, an annotated_types class name, or ``None``."""
    expr = item.expr
    name = item.module.dotted(expr.func if isinstance(expr, ast.Call) else expr)
    if name in INJECTED and not isinstance(expr, ast.Call):
        return "injected", expr
    if isinstance(expr, ast.Call) and name in PARAM:
        return "param", expr
    if isinstance(expr, ast.Call) and name is not None and name.startswith("annotated_types."):
        short = name.rpartition(".")[2]
        return (short if short in ANNOTATED_TYPES else None), expr
    constant = plain_constant(item) if hops < MAX_HOPS else None  # POSITIVE = Param(ge=1)
    return (None, expr) if constant is None else _metadata_kind(constant, hops + 1)


def plain_constant(src: Src) -> Src | None:
    """The value of the module-level variable a ``Name``/``Attribute`` refers to."""
    if not isinstance(src.expr, (ast.Name, ast.Attribute)):
        return None
    resolved = src.module.resolve(src.expr)
    if resolved is None or isinstance(resolved[1], ModuleSource):
        return None
    value = assigned_value(resolved[1]) if isinstance(resolved[1], (ast.Assign, ast.AnnAssign)) else None
    return None if value is None else Src(value, resolved[0])


def _param(call: Src, merge: MetadataMerge) -> Param | None:
    """The ``Param`` a call with literal arguments makes; ``None`` (a problem noted in ``merge``) for another."""
    assert isinstance(call.expr, ast.Call)
    arguments: dict[str, object] = {}
    pairs = [*zip(PARAM_FIELDS, call.expr.args, strict=False), *((k.arg, k.value) for k in call.expr.keywords)]
    for name, node in pairs:
        if name is None:
            written = _text(call.expr)
            merge.add_problem(f"the plugin cannot read **-arguments of Param(...) in {written}; spell them out")
            return None
        try:
            arguments[name] = ast.literal_eval(node)
        except ValueError:
            merge.add_problem(
                f"the plugin reads Param(...) arguments only when they are literals: {name}={_text(node)} "
                f"in {_text(call.expr)}; write the value itself"
            )
            return None
    try:
        return Param(**arguments)  # type: ignore[arg-type]  # checked by Param itself
    except (TypeError, ValueError) as exc:
        merge.add_problem(f"{_text(call.expr)} is refused at run time: {exc}")
        return None


def _annotated_types(call: Src, kind: str, merge: MetadataMerge) -> None:
    """Merge the literal arguments of an ``annotated_types`` call (class ``kind``); another is a problem."""
    assert isinstance(call.expr, ast.Call)
    nodes = [
        *zip(ANNOTATED_TYPES[kind], call.expr.args, strict=False),
        *((k.arg, k.value) for k in call.expr.keywords),
    ]
    for field_name, node in nodes:
        try:
            value = ast.literal_eval(node)
        except ValueError:
            written = _text(node)
            merge.add_problem(f"the plugin reads annotated_types.{kind}(...) only with literal arguments: {written}")
            continue
        if field_name is not None:  # a **-argument names no field
            merge.add_bound(kind, field_name, value)


def _text(node: ast.AST) -> str:
    return shorten(ast.unparse(node))


def declared_description(src: Src | None) -> str | None:
    """The ``Param(description=...)`` on an annotation's outer layers (runtime ``declared_description``).

    Looked for on the annotation, through ``Annotated``, TypedDict qualifiers,
    plain aliases and a union with one non-``None`` option; ``""`` means none.
    """
    if src is None:
        return None
    # A class field's annotation is read again for each tool using the class.
    key = ("description", src.module, src.expr, src.bindings)
    return src.module.sources.record.remembered(key, lambda: _declared_description(src))


def _declared_description(src: Src | None) -> str | None:
    for _ in range(MAX_HOPS):
        if src is None:
            return None
        src, levels = peel(src)
        if levels:
            description = read_metadata(levels).description
            if description is not None:
                return description
        if src is None:
            return None
        options = union_options(src)
        src = sole_option(options, is_none) if options is not None else plain_alias(src)
    return None


def is_injected(src: Src | None) -> bool:
    """Whether the outermost ``Annotated`` of a parameter's annotation holds ``toolcall.Injected``."""
    levels: list[tuple[Src, ...]] = []
    for _ in range(MAX_HOPS):
        src, layers = peel(src)
        levels.extend(layers)
        follow = plain_alias(src)
        if follow is None:
            break
        src = follow
    return bool(levels) and read_metadata(levels).injected
