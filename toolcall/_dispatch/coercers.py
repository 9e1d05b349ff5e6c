"""IR type nodes → generated coercer functions (wire value → Python value).

``Coercers(tool, classes, source)`` writes one Python function per distinct
structural node (array, tuple, map, object, union, ...) into a ``CodeBuilder``;
scalar checks are inlined where a node's value is used, so a list of
TypedDicts of strings and ints runs as one loop of type checks. Each
function raises ``Fail`` with a reason code (``docs/dispatch.md`` lists them), and containers add
their index or key to ``Fail.rpath`` on the way out, which becomes the JSON
path of ``InvalidArgument``.

Strict, not lax: only the JSON kind a type asks for is accepted, except that
an integral float is an integer (``5.0`` → ``5``) and an integer is a float
(``1`` → ``1.0``). A union tries the branches whose native JSON kind is the
value's own first, then the others, in declaration order.

Every check tests the exact type a JSON decoder makes first; a subclass
instance of a JSON kind takes the slow path (``toolcall._dispatch.kinds``),
is read as its kind and comes out as the exact type.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

from toolcall import _ir as ir
from toolcall._declarations.custom import provider_instance
from toolcall._dispatch.codegen import CodeBuilder
from toolcall._dispatch.kinds import EXACT_KINDS, as_dict, as_list, object_key, plain
from toolcall._rules import bounds
from toolcall._rules.json_literals import json_kind
from toolcall._wire import scalars
from toolcall._wire.scalars import Fail

__all__ = [
    "Coercers",
    "ObjectFields",
    "accepts_null",
    "json_key",
    "no_match",
    "object_failure",
    "resolve_union_orders",
]

# The JSON kind of a decoded value; a subclass instance is read as its base's
# kind (``json_kind``), and anything else is "other", trying every union
# branch in order.
_KIND_OF: Final[dict[type, str]] = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    type(None): "null",
    list: "array",
    dict: "object",
}
_ALL_KINDS: Final = frozenset(_KIND_OF.values()) | {"other"}
_PRIMITIVE_KINDS: Final[dict[str, frozenset[str]]] = {
    "str": frozenset({"string"}),
    "int": frozenset({"integer"}),
    "float": frozenset({"number"}),
    "bool": frozenset({"boolean"}),
    "none": frozenset({"null"}),
}
_STRING: Final = frozenset({"string"})

# Inline fast paths: the exact JSON type is accepted as is, anything else
# goes to the full coercer (which converts or fails).
_INLINE: Final[dict[str, str]] = {
    "str": "if type({v}) is not str or not {v}.isascii(): {v} = coerce_str({v})",
    # An int of more bits than the int-string limit surely allows (only a Python caller can pass one) is
    # checked exactly by coerce_int: a bit count is the cheapest test of size.
    "int": "if type({v}) is not int or {v}.bit_length() > int_bits: {v} = coerce_int({v})",
    "float": "if type({v}) is not float: {v} = coerce_float({v})",
    "bool": "if {v} is not True and {v} is not False: {v} = coerce_bool({v})",
    "none": "if {v} is not None: coerce_none({v})",
}
# The same checks the other way round: true when the value passes as it is.
_UNCHANGED: Final[dict[str, str]] = {
    "str": "type({v}) is str and {v}.isascii()",
    "int": "(type({v}) is int and {v}.bit_length() <= int_bits)",
    "float": "type({v}) is float",
    "bool": "({v} is True or {v} is False)",
    "none": "{v} is None",
}


def json_key(value: Any) -> tuple[int, Any]:
    """A key under which JSON-equal scalars meet: ``1`` and ``1.0`` match, ``True`` and ``1`` do not."""
    kind = type(value)
    if kind is bool:
        return (1, value)
    if kind is int or kind is float:
        return (2, value)
    if kind is str:
        return (3, value)
    if value is None:
        return (0, None)
    if isinstance(value, (int, float, str)):  # a subclass instance (an IntEnum member): its plain value
        return json_key(plain(value))
    raise TypeError("not a JSON scalar")


def accepts_null(node: ir.TypeNode, defs: Mapping[str, ir.TypeNode], seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``null`` is a valid value of ``node`` (then a null is passed on as ``None``)."""
    if isinstance(node, ir.Primitive):
        return node.name == "none"
    if isinstance(node, ir.AnyType):
        return True
    if isinstance(node, (ir.LiteralType, ir.EnumType)):
        return None in node.values
    if isinstance(node, ir.UnionType):
        return any(accepts_null(option, defs, seen) for option in node.options)
    if isinstance(node, ir.Constrained):
        return accepts_null(node.base, defs, seen)
    if isinstance(node, ir.RefType):
        return node.name not in seen and accepts_null(defs[node.name], defs, seen | {node.name})
    if isinstance(node, ir.CustomType):
        kinds = node.schema_value.get("type")
        return kinds == "null" or (isinstance(kinds, list) and "null" in kinds) or kinds is None
    return False


class Coercers:
    """Generates the coercer functions of one tool into ``source``."""

    tool: ir.Tool
    classes: Mapping[str, Any]
    source: CodeBuilder
    defs: dict[str, ir.TypeNode]

    def __init__(self, tool: ir.Tool, classes: Mapping[str, Any], source: CodeBuilder) -> None:
        self.tool = tool
        self.classes = classes
        self.source = source
        self.defs = {d.name: d.type for d in tool.defs}
        self._functions: dict[ir.TypeNode, str] = {}
        self._pending_defs: list[tuple[str, ir.TypeNode]] = []
        self._def_names: dict[str, str] = {}
        source.namespace.update(
            Fail=Fail,
            coerce_str=scalars.coerce_str,
            coerce_int=scalars.coerce_int,
            int_bits=scalars.int_bits(),
            coerce_float=scalars.coerce_float,
            coerce_bool=scalars.coerce_bool,
            coerce_none=scalars.coerce_none,
            coerce_any=scalars.coerce_any,
            check_unicode=scalars.check_unicode,
            json_key=json_key,
            violation=bounds.violation,
            no_match=no_match,
            object_failure=object_failure,
            as_list=as_list,
            as_dict=as_dict,
            object_key=object_key,
            json_kind=json_kind,
            plain=plain,
            EXACT_KINDS=EXACT_KINDS,
            _ABSENT=_ABSENT,
        )

    # -- what callers use -------------------------------------------------

    def inline(self, node: ir.TypeNode, var: str, indent: int) -> None:
        """Emit statements that coerce the variable ``var`` in place."""
        if isinstance(node, ir.Primitive) and node.name in _INLINE:
            self.source.add(indent, _INLINE[node.name].format(v=var))
        elif isinstance(node, ir.AnyType):
            self.source.add(indent, f"if type({var}) is not str or not {var}.isascii(): {var} = coerce_any({var})")
        else:
            self.source.add(indent, f"{var} = {self.function(node)}({var})")

    def function(self, node: ir.TypeNode) -> str:
        """The name of a generated function that coerces ``node``'s values."""
        generated = self._functions.get(node)
        if generated is not None:
            return generated
        if isinstance(node, ir.RefType):
            return self._named_type(node.name)
        name = self._generate(node)
        self._functions[node] = name
        return name

    def finish(self) -> None:
        """Generate the bodies of referenced named types."""
        while self._pending_defs:
            name, node = self._pending_defs.pop()
            self.source.begin()
            self._emit_wrapper(name, node)
            self.source.end()

    def null_is_default(self, node: ir.TypeNode) -> bool:
        """Whether a null for an optional value of type ``node`` means "use the default" (its type has no null)."""
        return not accepts_null(node, self.defs)

    def native_kinds(self, node: ir.TypeNode, seen: frozenset[str] = frozenset()) -> frozenset[str]:
        """The JSON kinds a node accepts without conversion (for union branch order)."""
        if isinstance(node, ir.Primitive):
            return _PRIMITIVE_KINDS.get(node.name, _STRING)
        if isinstance(node, (ir.LiteralType, ir.EnumType)):
            return frozenset(_KIND_OF.get(type(v), "other") for v in node.values)
        if isinstance(node, (ir.ArrayType, ir.TupleType)):
            return frozenset({"array"})
        if isinstance(node, (ir.MapType, ir.ObjectType)):
            return frozenset({"object"})
        if isinstance(node, ir.UnionType):
            return frozenset().union(*(self.native_kinds(o, seen) for o in node.options))
        if isinstance(node, ir.Constrained):
            return self.native_kinds(node.base, seen)
        if isinstance(node, ir.RefType):
            return _ALL_KINDS if node.name in seen else self.native_kinds(self.defs[node.name], seen | {node.name})
        return _ALL_KINDS

    # -- generation ---------------------------------------------------------

    def _named_type(self, def_name: str) -> str:
        function_name = self._def_names.get(def_name)
        if function_name is None:
            function_name = self._def_names[def_name] = self.source.fresh("def")
            self._pending_defs.append((function_name, self.defs[def_name]))
        return function_name

    def _emit_wrapper(self, name: str, node: ir.TypeNode) -> None:
        # A named (recursive) type calls itself through the namespace, so it is
        # a plain wrapper around the node's own function.
        self.source.add(0, f"def {name}(v):")
        self.inline(node, "v", 1)
        self.source.add(1, "return v", "")

    def _generate(self, node: ir.TypeNode) -> str:
        generate: Callable[[Any, str], None] = getattr(self, f"_gen_{node.kind}")
        name = self.source.fresh(node.kind)
        self.source.begin()
        generate(node, name)
        self.source.end()
        return name

    def _gen_primitive(self, node: ir.Primitive, name: str) -> None:
        self.source.namespace[name] = scalars.SCALARS[node.name]

    def _gen_any(self, node: ir.AnyType, name: str) -> None:
        self.source.namespace[name] = scalars.coerce_any

    def _gen_literal(self, node: ir.LiteralType, name: str) -> None:
        self._choice(name, {json_key(v): v for v in node.values}, node.values)

    def _gen_enum(self, node: ir.EnumType, name: str) -> None:
        cls = self.classes[node.ref]
        members = {json_key(m.value): m for m in cls if isinstance(m, enum.Enum) and m.value in node.values}
        self._choice(name, members, node.values)

    def _choice(self, name: str, table: dict[tuple[int, Any], Any], values: tuple[ir.JsonScalar, ...]) -> None:
        table_name = self.source.constant(table, "table")
        detail = self.source.constant("one of " + ", ".join(_json(v) for v in values), "detail")
        self.source.add(
            0,
            f"def {name}(v):",
            "    try:",
            f"        return {table_name}[json_key(v)]",
            "    except (KeyError, TypeError):",
            f'        raise Fail("not_in_enum", v, {detail}) from None',
            "",
        )

    def _gen_array(self, node: ir.ArrayType, name: str) -> None:
        add = self.source.add
        add(0, f"def {name}(v):", "    if type(v) is not list:", "        v = as_list(v)")
        if node.container == "list":
            self._list_body(node.items)
            return
        add(1, "out = []", "i = 0", "try:", "    for x in v:")
        self.inline(node.items, "x", 3)
        add(3, "out.append(x)", "i += 1")
        add(1, "except Fail as f:", "    f.rpath.append(i)", "    raise")
        if node.container in ("set", "frozenset"):
            container = node.container
            add(1, "try:", f"    made = {container}(out)", "except TypeError:")
            add(2, 'raise Fail("invalid_value", v, "the items of a set must be hashable") from None')
            add(1, "if len(made) != len(out):", '    raise Fail("duplicate_items", v)', "return made", "")
        else:
            add(1, "return tuple(out)" if node.container == "tuple" else "return out", "")

    def _list_body(self, items: ir.TypeNode) -> None:
        # While every item comes out as it went in, nothing is built: the list
        # as sent is the list received. The first item that changes starts a
        # copy, and the rest of the items go into it.
        add = self.source.add
        add(1, "i = 0", "try:", "    for x in v:")
        self._unchanged_item(items)
        add(3, "y = x")
        self.inline(items, "y", 3)
        add(3, "if y is not x:", "    break", "i += 1")
        add(2, "else:", "    return v")
        add(2, "out = v[:i]", "out.append(y)", "i += 1", "for x in v[i:]:")
        self.inline(items, "x", 3)
        add(3, "out.append(x)", "i += 1")
        add(1, "except Fail as f:", "    f.rpath.append(i)", "    raise")
        add(1, "return out", "")

    def _unchanged_item(self, items: ir.TypeNode) -> None:
        """For a TypedDict of scalars: the checks of an item that passes as sent, inline, skipping the call."""
        if not isinstance(items, ir.ObjectType) or items.shape != "typeddict":
            return
        required = [f for f in items.fields if f.required]
        if not required or not all(isinstance(f.type, ir.Primitive) and f.type.name in _UNCHANGED for f in required):
            return
        add = self.source.add
        # Exactly the required keys, each value of its exact type: the object's coercer would return it as is.
        add(3, f"if type(x) is dict and len(x) == {len(required)}:", "    try:")
        for index, field in enumerate(required):
            add(5, f"g{index} = x[{self.source.literal(field.name)}]")
        add(4, "except KeyError:", "    pass", "else:")
        same = " and ".join(
            _UNCHANGED[f.type.name].format(v=f"g{i}")
            for i, f in enumerate(required)
            if isinstance(f.type, ir.Primitive)
        )
        add(5, f"if {same or 'True'}:", "    i += 1", "    continue")

    def _gen_tuple(self, node: ir.TupleType, name: str) -> None:
        add = self.source.add
        count = len(node.items)
        add(0, f"def {name}(v):", "    if type(v) is not list:", "        v = as_list(v)")
        add(1, f"if len(v) != {count}:", f'    raise Fail("wrong_length", v, "exactly {count} items")')
        for index, item in enumerate(node.items):
            add(1, f"x{index} = v[{index}]", "try:")
            self.inline(item, f"x{index}", 2)
            add(1, "except Fail as f:", f"    f.rpath.append({index})", "    raise")
        add(1, "return (" + "".join(f"x{i}, " for i in range(count)) + ")", "")

    def _gen_map(self, node: ir.MapType, name: str) -> None:
        add = self.source.add
        add(0, f"def {name}(v):", "    if type(v) is not dict:", "        v = as_dict(v)")
        add(1, "out = {}", "for k, x in v.items():", "    try:")
        add(3, "if type(k) is not str:", "    k = object_key(k)")
        add(3, "if not k.isascii():", "    check_unicode(k)")
        self.inline(node.values, "x", 3)
        add(2, "except Fail as f:", "    f.rpath.append(k if type(k) is str else repr(k))", "    raise")
        add(2, "out[k] = x")
        add(1, "return out", "")

    def _gen_object(self, node: ir.ObjectType, name: str) -> None:
        # Required fields are read by indexing (a KeyError is the rare path) and
        # counted with the optional ones present; a key count that differs from
        # len(v) means undeclared keys. Refusals go through ``object_failure``,
        # which reports undeclared keys first.
        add = self.source.add
        order = tuple(f.name for f in node.fields)
        fields = self.source.constant(ObjectFields(frozenset(order), order), "fields")
        add(0, f"def {name}(v):", "    if type(v) is not dict:", "        v = as_dict(v)")
        add(1, "n = 0")
        variables = []
        for index, field in enumerate(node.fields):
            variables.append((field, f"x{index}"))
            self._object_field(field, f"x{index}", fields)
        required = sum(1 for f in node.fields if f.required)
        add(1, f"if n + {required} != len(v):", f"    raise object_failure(v, {fields}, None, None)")
        if node.shape == "typeddict":
            # Every field as it was sent: the dict as sent is the dict received.
            same = " and ".join(f"{var} is o{var}" for _, var in variables) or "True"
            add(1, f"if {same}:", "    return v")
        present = ", ".join(f"{self.source.literal(f.name)}: {var}" for f, var in variables if f.required)
        add(1, f"out = {{{present}}}")
        for field, var in variables:
            if not field.required:
                add(1, f"if {var} is not _ABSENT:", f"    out[{self.source.literal(field.name)}] = {var}")
        if node.shape == "typeddict":
            add(1, "return out", "")
            return
        cls = self.source.constant(self.classes[node.ref], "cls")
        add(1, "try:", f"    return {cls}(**out)", "except Exception as exc:")
        add(2, 'raise Fail("invalid_value", v, f"{type(exc).__name__}: {exc}") from None', "")

    def _object_field(self, field: ir.Field, var: str, fields: str) -> None:
        add, key = self.source.add, self.source.literal(field.name)
        if field.required:
            add(1, "try:", f"    {var} = o{var} = v[{key}]", "except KeyError:")
            add(2, f"raise object_failure(v, {fields}, {key}, None) from None")
            add(1, "try:")
            self.inline(field.type, var, 2)
            add(1, "except Fail as f:", f"    raise object_failure(v, {fields}, {key}, f) from None")
            return
        add(1, f"{var} = o{var} = _ABSENT", f"if {key} in v:", "    n += 1", f"    {var} = o{var} = v[{key}]")
        body = 2
        if self.null_is_default(field.type):
            add(2, f"if {var} is None:", f"    {var} = _ABSENT", "else:")  # null: "use the default"
            body = 3
        add(body, "try:")
        self.inline(field.type, var, body + 1)
        add(body, "except Fail as f:", f"    raise object_failure(v, {fields}, {key}, f) from None")

    def _gen_union(self, node: ir.UnionType, name: str) -> None:
        options = [(self.function(o), self.native_kinds(o)) for o in node.options]
        order: dict[str, tuple[str, ...]] = {}
        for kind in _ALL_KINDS:
            first = [n for n, kinds in options if kind in kinds]
            rest = [n for n, kinds in options if kind not in kinds]
            order[kind] = tuple(first + rest)  # function names; ``resolve_union_orders`` swaps in the functions
        orders = self.source.constant(order, "order")
        kinds = self.source.constant(_KIND_OF, "kinds")
        self.source.namespace.setdefault("_resolve_orders", []).append(orders)
        self.source.add(
            0,
            f"def {name}(v):",
            "    failures = []",
            f"    for option in {orders}[{kinds}.get(type(v)) or json_kind(v)]:",
            "        try:",
            "            return option(v)",
            "        except Fail as f:",
            "            failures.append(f)",
            "    raise no_match(v, failures)",
            "",
        )

    def _gen_custom(self, node: ir.CustomType, name: str) -> None:
        hook = self.source.constant(self._custom_hook(node), "hook")
        self.source.add(
            0,
            f"def {name}(v):",
            "    coerce_any(v)",
            "    try:",
            f"        return {hook}(v)",
            "    except Exception as exc:",
            '        raise Fail("invalid_value", v, f"{type(exc).__name__}: {exc}") from None',
            "",
        )

    def _custom_hook(self, node: ir.CustomType) -> Callable[[Any], Any]:
        if not node.coerce:
            return _identity
        if node.provider is None:
            return self.classes[node.ref].__toolcall_coerce__  # type: ignore[no-any-return]
        provider = provider_instance(self.classes[node.provider])
        fullname = node.ref.replace(":", ".")
        return lambda value: provider.coerce(fullname, value)

    def _gen_constrained(self, node: ir.Constrained, name: str) -> None:
        constraints = self.source.constant(node.constraints, "bounds")
        # Lengths and patterns are checked on the value as sent, read as its kind.
        self.source.add(0, f"def {name}(v):", "    w = v if type(v) in EXACT_KINDS else plain(v)")
        self.inline(node.base, "v", 1)
        self.source.add(
            1,
            f"broken = violation(v, w, {constraints})",
            "if broken is not None:",
            "    raise Fail(broken[0], w, broken[1])",
            "return v",
            "",
        )


_ABSENT: Final = object()


class ObjectFields(NamedTuple):
    """An object's field names: a set to test keys against, and a tuple in declaration order for messages."""

    names: frozenset[str]
    order: tuple[str, ...]


def object_failure(value: dict[Any, Any], fields: ObjectFields, key: str | None, fail: Fail | None) -> Fail:
    """The failure of an object: undeclared keys first (naming the declared ones), then the field ``key``."""
    unknown = [k for k in value if k not in fields.names]
    if unknown:
        return Fail("unknown_fields", unknown, "", (), fields.order)
    if fail is None:
        fail = Fail("missing_field", None, f"field {key!r} is required")
    fail.rpath.append(key)  # type: ignore[arg-type]
    return fail


def no_match(value: Any, failures: list[Fail]) -> Fail:
    """The failure of a union: the one branch that applies, or ``no_match`` with every branch's reason.

    A non-null value cannot fail only for not being null, so the ``expected_null``
    branch is left out; ``X | None`` then reports X's own reason and path.
    """
    relevant = [f for f in failures if f.code != "expected_null"] if value is not None else failures
    if len(relevant) == 1:
        return relevant[0]
    return Fail("no_match", value, "", tuple(relevant))


def resolve_union_orders(namespace: dict[str, Any]) -> None:
    """Replace the function names in the union branch orders by the compiled functions."""
    for orders_name in namespace.pop("_resolve_orders", []):
        orders = namespace[orders_name]
        for kind, names in orders.items():
            orders[kind] = tuple(namespace[n] for n in names)


def _identity(value: Any) -> Any:
    return value


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
