"""Hand-built IR tools for the renderer tests: together they use every IR node kind.

The renderers are tested from IR alone, so these do not depend on either
front end. ``SAMPLES`` maps a short name to each tool.
"""

from __future__ import annotations

from typing import Any

from toolcall import _ir as ir

P = ir.Primitive


def param(name: str, node: ir.TypeNode, **kwargs: Any) -> ir.Parameter:
    """A keyword-capable parameter (``kind`` may be overridden)."""
    kwargs.setdefault("kind", "positional_or_keyword")
    return ir.Parameter(name=name, type=node, **kwargs)


def optional(name: str, node: ir.TypeNode, default: ir.JsonValue = None, **kwargs: Any) -> ir.Parameter:
    """A parameter with a default (``None`` means a default JSON cannot carry, so none is emitted)."""
    value = None if default is None else ir.Default.of(default)
    return param(name, node, required=False, default=value, **kwargs)


def tool(name: str, *parameters: ir.Parameter, description: str = "A sample tool.", **kwargs: Any) -> ir.Tool:
    """A tool of module ``samples``."""
    return ir.Tool(name=name, module="samples", qualname=name, description=description, parameters=parameters, **kwargs)


def constrained(node: ir.TypeNode, **constraints: Any) -> ir.Constrained:
    """``node`` with ``Param``-style constraints."""
    return ir.Constrained(node, ir.Constraints(**constraints))


def nullable(node: ir.TypeNode) -> ir.UnionType:
    """``node | None``."""
    return ir.UnionType((node, P("none")))


ADDRESS = ir.ObjectType(
    ref="samples:Address",
    shape="typeddict",
    fields=(
        ir.Field("street", P("str"), description="street and number"),
        ir.Field("zip", constrained(P("str"), pattern=r"^[0-9]{5}$"), required=False),
        ir.Field("country", P("str"), required=False, default=ir.Default.of("NO")),
    ),
    description="A postal address.",
)
POINT = ir.ObjectType(
    ref="samples:Point", shape="namedtuple", fields=(ir.Field("x", P("float")), ir.Field("y", P("float")))
)
ORDER = ir.ObjectType(
    ref="samples:Order",
    shape="dataclass",
    fields=(
        ir.Field("ship_to", ADDRESS),
        ir.Field("lines", ir.ArrayType(ir.TupleType((P("str"), constrained(P("int"), ge=1))))),
        ir.Field("note", nullable(P("str")), required=False),
    ),
)
COLOR = ir.EnumType(ref="samples:Color", values=("red", "green"), description="A color.")
LEVEL = ir.EnumType(ref="samples:Level", values=(1, 2, 3), description="A level.")
NODE = ir.ObjectType(
    ref="samples:Node",
    shape="typeddict",
    fields=(ir.Field("label", P("str")), ir.Field("children", ir.ArrayType(ir.RefType("Node")))),
)
MONEY = ir.CustomType(
    ref="samples:Money",
    schema=ir.canonical_json({"type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$", "description": "An amount."}),
)

WEATHER = tool(
    "get_weather",
    param("city", P("str"), description='city name, e.g. "Oslo"'),
    optional("days", constrained(P("int"), ge=1, le=7), 3, description="how many days ahead (1-7)"),
    description="Get the forecast for a city.",
)
PRIMITIVES = tool(
    "primitives",
    *(param(name, P(name)) for name in ("str", "int", "float", "bool", "none", "datetime", "date", "time")),
    *(param(name, P(name)) for name in ("timedelta", "uuid", "decimal", "path", "string_integer")),
)
CONTAINERS = tool(
    "containers",
    param("names", ir.ArrayType(P("str"))),
    param("tags", ir.ArrayType(P("str"), container="set")),
    param("frozen", ir.ArrayType(P("int"), container="frozenset")),
    param("many", ir.ArrayType(P("float"), container="tuple")),
    param("pair", ir.TupleType((P("str"), P("int")))),
    param("same", ir.TupleType((P("int"), P("int")))),
    param("nothing", ir.TupleType(())),
)
OBJECTS = tool(
    "objects",
    param("order", ORDER, description="the order to place"),
    param("where", POINT),
    optional("home", nullable(ADDRESS)),
)
CHOICES = tool(
    "choices",
    param("mode", ir.LiteralType(("fast", "slow"))),
    param("size", ir.LiteralType((1, 2, 3))),
    param("mixed", ir.LiteralType(("auto", 0, True))),
    param("color", COLOR),
    param("level", LEVEL, description="how loud"),
    optional("maybe", nullable(ir.LiteralType(("a", "b")))),
)
UNIONS = tool(
    "unions",
    param("id", ir.UnionType((P("int"), P("str")))),
    optional("limit", nullable(P("int")), description="at most this many"),
    param("when", ir.UnionType((P("date"), P("datetime"), P("none")))),
)
RECURSIVE = tool(
    "tree",
    param("root", ir.RefType("Node"), description="the root node"),
    defs=(ir.NamedType("Node", NODE),),
)
CUSTOM = tool("pay", param("amount", MONEY), optional("tip", MONEY, "0.00", description="the tip"))
CONSTRAINED = tool(
    "constrained",
    param("score", constrained(P("float"), gt=0, lt=1)),
    param("step", constrained(P("int"), multiple_of=5, ge=0)),
    param("code", constrained(P("str"), min_length=2, max_length=8, pattern="^[A-Z]+$")),
    param("items", constrained(ir.ArrayType(P("int")), min_length=2, max_length=4)),
    param("one_or_more", constrained(ir.ArrayType(P("str")), min_length=1)),
    param("big", constrained(P("string_integer"), ge=1, le=10**30)),
    param("price", constrained(P("decimal"), pattern="^[0-9]+$")),
    param("ratio", constrained(nullable(P("float")), ge=0)),
)
OPEN = tool(
    "open",
    param("counts", ir.MapType(P("int"))),
    param("anything", ir.AnyType()),
    param("extra", P("str"), kind="var_keyword", description="extra labels"),
)
INJECTED = tool(
    "injected",
    param("query", P("str"), kind="positional_only"),
    param("db", ir.AnyType(origin="object"), injected=True),
    param("limit", P("int"), kind="keyword_only", required=False, default=ir.Default.of(10)),
)
NO_PARAMS = tool("ping", description="")

SAMPLES: dict[str, ir.Tool] = {
    t.name: t
    for t in (
        WEATHER,
        PRIMITIVES,
        CONTAINERS,
        OBJECTS,
        CHOICES,
        UNIONS,
        RECURSIVE,
        CUSTOM,
        CONSTRAINED,
        OPEN,
        INJECTED,
        NO_PARAMS,
    )
}
