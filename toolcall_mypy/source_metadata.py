"""``Annotated`` metadata as written: ``Param(...)``, ``toolcall.Injected`` and ``annotated_types`` calls.

mypy strips ``Annotated`` metadata from analyzed types, so the static front
end reads it from the annotation as written (``toolcall_mypy.source_syntax``
peels the layers). A call's arguments are evaluated only when they are
literals; metadata the plugin cannot read, or the runtime would refuse,
is a problem that makes the type unusable (``Metadata.problems``).
"""

from __future__ import annotations

import ast
import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from toolcall import ir
from toolcall.bounds import param_constraints
from toolcall.params import PARAM_FIELDS, Param
from toolcall_mypy.source_names import MAX_HOPS, ModuleSource, assigned_value
from toolcall_mypy.source_syntax import Src, is_none, peel, plain_alias, union_options

__all__ = ["NO_CONSTRAINTS", "Metadata", "declared_description", "is_injected", "read_metadata"]

PARAM: Final = frozenset({"toolcall.Param", "toolcall.params.Param"})
INJECTED: Final = frozenset({"toolcall.Injected", "toolcall.params.Injected"})
# annotated_types class -> the Constraints fields its positional arguments set, in order.
_ANNOTATED_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "Gt": ("gt",),
    "Ge": ("ge",),
    "Lt": ("lt",),
    "Le": ("le",),
    "MultipleOf": ("multiple_of",),
    "MinLen": ("min_length",),
    "MaxLen": ("max_length",),
    "Len": ("min_length", "max_length"),
    "Interval": ("gt", "ge", "lt", "le"),
}
_LENGTHS: Final = frozenset({"min_length", "max_length"})


@dataclass(frozen=True)
class Metadata:
    """What the ``Annotated`` layers of one annotation add (later items winning, as at run time).

    ``problems`` are metadata the plugin cannot read or the runtime would
    refuse; each makes the type unusable, with the message saying why.
    """

    constraints: ir.Constraints = dataclasses.field(default_factory=ir.Constraints)
    description: str | None = None
    string_integer: bool = False
    injected: bool = False
    problems: tuple[str, ...] = ()


NO_CONSTRAINTS: Final = ir.Constraints()
_NO_METADATA: Final = Metadata(NO_CONSTRAINTS)


def read_metadata(levels: Sequence[Sequence[Src]]) -> Metadata:
    """Merge metadata layers given outermost first (``Annotated`` nesting flattens inner items first)."""
    items = [item for level in reversed(levels) for item in level] if levels else []
    if not items:
        return _NO_METADATA
    # Read once per tool module: a parameter's annotation is read for its schema, its description and
    # whether it is injected, a class field's for each tool that uses the class.
    record = items[0].module.sources.record
    key = ("metadata", tuple([(item.expr, item.module) for item in items]))
    return record.remembered(key, lambda: _merged_metadata(items))


def _merged_metadata(items: list[Src]) -> Metadata:
    constraints = NO_CONSTRAINTS
    description: str | None = None
    string_integer = injected = False
    problems: list[str] = []
    for item in items:
        kind, target = _metadata_kind(item)
        if kind == "injected":
            injected = True
        elif kind == "param" and isinstance(target, ast.Call):
            param = _param(item.at(target), problems)
            if param is not None:
                constraints = _merged(constraints, param_constraints(param))
                description = param.description if param.description is not None else description
                string_integer = string_integer or param.wire == "string_integer"
        elif kind is not None and isinstance(target, ast.Call):
            constraints = _merged(constraints, _annotated_types(item.at(target), kind, problems))
    return Metadata(constraints, description, string_integer, injected, tuple(problems))


def _merged(base: ir.Constraints, later: ir.Constraints) -> ir.Constraints:
    empty = base is NO_CONSTRAINTS or base == NO_CONSTRAINTS
    return later if empty else base.merged(later)  # merging onto nothing gives ``later``


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
        return (short if short in _ANNOTATED_TYPES else None), expr
    constant = plain_constant(item) if hops < MAX_HOPS else None  # POSITIVE = Param(ge=1)
    return (None, expr) if constant is None else _metadata_kind(constant, hops + 1)


def plain_constant(src: Src) -> Src | None:
    """The value of the module-level variable a ``Name``/``Attribute`` refers to."""
    if not isinstance(src.expr, (ast.Name, ast.Attribute)):
        return None
    found = src.module.resolve(src.expr)
    if found is None or isinstance(found[1], ModuleSource):
        return None
    value = assigned_value(found[1]) if isinstance(found[1], (ast.Assign, ast.AnnAssign)) else None
    return None if value is None else Src(value, found[0])


def _param(call: Src, problems: list[str]) -> Param | None:
    assert isinstance(call.expr, ast.Call)
    arguments: dict[str, object] = {}
    pairs = [*zip(PARAM_FIELDS, call.expr.args, strict=False), *((k.arg, k.value) for k in call.expr.keywords)]
    for name, node in pairs:
        if name is None:
            problems.append(f"the plugin cannot read **-arguments of Param(...) in {_text(call.expr)}; spell them out")
            return None
        try:
            arguments[name] = ast.literal_eval(node)
        except ValueError:
            problems.append(
                f"the plugin reads Param(...) arguments only when they are literals: {name}={_text(node)} "
                f"in {_text(call.expr)}; write the value itself"
            )
            return None
    try:
        return Param(**arguments)  # type: ignore[arg-type]  # checked by Param itself
    except (TypeError, ValueError) as exc:
        problems.append(f"{_text(call.expr)} is refused at run time: {exc}")
        return None


def _annotated_types(call: Src, kind: str, problems: list[str]) -> ir.Constraints:
    assert isinstance(call.expr, ast.Call)
    values: dict[str, int | float] = {}
    nodes = [
        *zip(_ANNOTATED_TYPES[kind], call.expr.args, strict=False),
        *((k.arg, k.value) for k in call.expr.keywords),
    ]
    for field_name, node in nodes:
        try:
            value = ast.literal_eval(node)
        except ValueError:
            problems.append(f"the plugin reads annotated_types.{kind}(...) only with literal arguments: {_text(node)}")
            continue
        if field_name not in _ANNOTATED_TYPES[kind] or value is None or (field_name == "min_length" and value == 0):
            continue  # unset (Len's min_length defaults to 0, which bounds nothing)
        checked = _checked_bound(kind, field_name, value)
        if isinstance(checked, str):
            problems.append(checked)
        else:
            values[field_name] = checked
    return ir.Constraints(**values)  # type: ignore[arg-type]  # keys are Constraints fields


def _checked_bound(owner: str, name: str, value: object) -> int | float | str:
    """The bound, or the runtime's message refusing it (toolcall/introspect/metadata.py)."""
    ok_types = (int,) if name in _LENGTHS else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok_types):
        return f"annotated_types.{owner}({value!r}): toolcall supports only numeric bounds here"
    if isinstance(value, float) and not math.isfinite(value):
        return f"annotated_types.{owner}({value!r}): use a finite bound"
    assert isinstance(value, (int, float))
    return value


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


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
            found = read_metadata(levels).description
            if found is not None:
                return found
        if src is None:
            return None
        options = union_options(src)
        if options is not None:
            rest = [o for o in options if not is_none(o)]
            src = rest[0] if len(rest) == 1 else None
        else:
            src = plain_alias(src)
    return None


def is_injected(src: Src | None) -> bool:
    """Whether the outermost ``Annotated`` of a parameter's annotation holds ``toolcall.Injected``."""
    levels: list[tuple[Src, ...]] = []
    for _ in range(MAX_HOPS):
        src, found = peel(src)
        levels.extend(found)
        follow = plain_alias(src)
        if follow is None:
            break
        src = follow
    return bool(levels) and read_metadata(levels).injected
