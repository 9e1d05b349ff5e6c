"""Small tools for tests/unit/test_semantics.py: one parameter ``x`` per annotation under test.

Each tool's name says its annotation, so a failing test id reads as the type
it is about. Structured classes come from the corpus where it has them.
"""

import dataclasses
import datetime
import enum
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, NewType, Optional, TypedDict, TypeVar, Union

import annotated_types as at
from typing_extensions import NotRequired, Required, TypeAliasType

import toolcall
from tests.corpus.dataclasses_ import Order, RushOrder
from tests.corpus.enums import Mood, Priority, Unit
from tests.corpus.namedtuples import Coordinate
from tests.corpus.recursive import Category, Comment
from tests.corpus.typeddicts import Address, Contact, Customer
from toolcall import Injected, Param

# -- scalars -------------------------------------------------------------------------------------


@toolcall.tool
def t_str(x: str) -> None:
    """str."""


@toolcall.tool
def t_int(x: int) -> None:
    """int."""


@toolcall.tool
def t_float(x: float) -> None:
    """float."""


@toolcall.tool
def t_bool(x: bool) -> None:
    """bool."""


@toolcall.tool
def t_none(x: None) -> None:
    """None (required: only null)."""


@toolcall.tool
def t_any(x: Any) -> None:
    """Any."""


@toolcall.tool
def t_object(x: object) -> None:
    """object."""


@toolcall.tool
def t_path(x: Path) -> None:
    """Path."""


# -- Literal and Enum ----------------------------------------------------------------------------


class Level(enum.Enum):
    """A plain Enum with int values (not an IntEnum)."""

    LOW = 1
    HIGH = 2


@toolcall.tool
def t_literal_str(x: Literal["s", "m", "l"]) -> None:
    """Literal of str."""


@toolcall.tool
def t_literal_int(x: Literal[0, 1]) -> None:
    """Literal of int (a bool is not an int)."""


@toolcall.tool
def t_literal_mixed(x: Literal[1, "one", True, None]) -> None:
    """Literal of mixed JSON kinds."""


@toolcall.tool
def t_enum_str(x: Unit) -> None:
    """A str-mixin Enum."""


@toolcall.tool
def t_enum_int(x: Priority) -> None:
    """An IntEnum."""


@toolcall.tool
def t_enum_plain_int(x: Level) -> None:
    """A plain Enum with int values."""


@toolcall.tool
def t_enum_plain_mixed(x: Mood) -> None:
    """A plain Enum with str and float values (and an alias member)."""


# -- containers ----------------------------------------------------------------------------------


@toolcall.tool
def t_list_int(x: list[int]) -> None:
    """list[int]."""


@toolcall.tool
def t_sequence_str(x: Sequence[str]) -> None:
    """Sequence[str]."""


@toolcall.tool
def t_tuple_int_str(x: tuple[int, str]) -> None:
    """tuple[int, str]."""


@toolcall.tool
def t_tuple_variadic(x: tuple[int, ...]) -> None:
    """tuple[int, ...]."""


@toolcall.tool
def t_tuple_empty(x: tuple[()]) -> None:
    """tuple[()]."""


@toolcall.tool
def t_set_str(x: set[str]) -> None:
    """set[str]."""


@toolcall.tool
def t_frozenset_int(x: frozenset[int]) -> None:
    """frozenset[int]."""


@toolcall.tool
def t_frozenset_pairs(x: frozenset[tuple[int, int]]) -> None:
    """frozenset of pairs (uniqueness on arrays)."""


@toolcall.tool
def t_dict_int(x: dict[str, int]) -> None:
    """dict[str, int]."""


@toolcall.tool
def t_mapping_list(x: Mapping[str, list[str]]) -> None:
    """Mapping[str, list[str]]."""


@toolcall.tool
def t_dict_any(x: dict[str, Any]) -> None:
    """dict[str, Any]."""


# -- structured ----------------------------------------------------------------------------------


@toolcall.tool
def t_typeddict_total(x: Address) -> None:
    """TypedDict, total, one NotRequired key."""


@toolcall.tool
def t_typeddict_partial(x: Contact) -> None:
    """TypedDict, total=False, one Required key."""


@toolcall.tool
def t_typeddict_inherited(x: Customer) -> None:
    """TypedDict inheriting a total=False base, with a nested TypedDict."""


class Booking(TypedDict, total=False):
    """Bounds on TypedDict keys, through the Required/NotRequired qualifiers."""

    guests: Required[Annotated[int, Param(ge=1, le=8)]]
    name: Annotated[Required[str], Param(min_length=1)]
    note: NotRequired[Annotated[str, Param(max_length=5)]]


@toolcall.tool
def t_typeddict_bounds(x: Booking) -> None:
    """TypedDict with Annotated bounds on its keys."""


@toolcall.tool
def t_dataclass(x: Order) -> None:
    """dataclass with defaults, a default_factory and an init=False field."""


@toolcall.tool
def t_dataclass_inherited(x: RushOrder) -> None:
    """dataclass inheriting one."""


@dataclass
class Window:
    """A dataclass with an InitVar and a keyword-only field."""

    start: int
    scale: dataclasses.InitVar[int]
    end: int = field(default=10, kw_only=True)
    span: int = field(default=0, init=False)

    def __post_init__(self, scale: int) -> None:
        self.span = (self.end - self.start) * scale


@toolcall.tool
def t_dataclass_initvar(x: Window) -> None:
    """dataclass with an InitVar (an __init__ parameter) and a field not in __init__."""


@toolcall.tool
def t_namedtuple(x: Coordinate) -> None:
    """NamedTuple with a default."""


# -- string-carried scalars ----------------------------------------------------------------------


@toolcall.tool
def t_datetime(x: datetime.datetime) -> None:
    """datetime."""


@toolcall.tool
def t_date(x: datetime.date) -> None:
    """date."""


@toolcall.tool
def t_time(x: datetime.time) -> None:
    """time."""


@toolcall.tool
def t_timedelta(x: datetime.timedelta) -> None:
    """timedelta."""


@toolcall.tool
def t_uuid(x: uuid.UUID) -> None:
    """UUID."""


@toolcall.tool
def t_decimal(x: Decimal) -> None:
    """Decimal."""


@toolcall.tool
def t_string_integer(x: Annotated[int, Param(wire="string_integer")]) -> None:
    """An int sent as a decimal string."""


@toolcall.tool
def t_string_integer_bounded(x: Annotated[int, Param(wire="string_integer", ge=0)]) -> None:
    """A bounded string integer (the bound is a description note)."""


@toolcall.tool
def t_decimal_bounded(x: Annotated[Decimal, Param(ge=0, le=100)]) -> None:
    """A bounded Decimal (the bounds are a description note)."""


# -- unions, optional, nullable ------------------------------------------------------------------


@toolcall.tool
def t_optional_nullable(x: Optional[int] = None) -> None:
    """Optional and nullable: may be absent or null."""


@toolcall.tool
def t_required_nullable(x: int | None) -> None:
    """Required but nullable: must be present, may be null."""


@toolcall.tool
def t_optional_plain(x: int = 3) -> None:
    """Optional, not nullable."""


@toolcall.tool
def t_union(x: Union[int, str]) -> None:
    """int | str."""


@toolcall.tool
def t_union_nested(x: Union[int, Union[str, None], int]) -> None:  # noqa: RUF036 - the nesting is the test
    """A nested union with a repeat and None."""


@toolcall.tool
def t_union_containers(x: list[int] | dict[str, int]) -> None:
    """A union of two containers."""


# -- NewType, TypeVar, aliases -------------------------------------------------------------------

UserId = NewType("UserId", int)
AdminId = NewType("AdminId", UserId)
Email = NewType("Email", str)


@toolcall.tool
def t_newtype(x: UserId) -> None:
    """NewType of int."""


@toolcall.tool
def t_newtype_chain(x: list[AdminId]) -> None:
    """A NewType of a NewType, in a list."""


Number = TypeVar("Number", int, float)
Text = TypeVar("Text", bound=str)
Unbounded = TypeVar("Unbounded")
BoundedBy = TypeVar("BoundedBy", bound=Coordinate)


@toolcall.tool
def t_typevar_constraints(x: Number) -> None:
    """TypeVar with constraints: anyOf."""


@toolcall.tool
def t_typevar_bound(x: Text) -> None:
    """TypeVar bound to str."""


@toolcall.tool
def t_typevar_bound_class(x: BoundedBy) -> None:
    """TypeVar bound to a NamedTuple."""


@toolcall.tool
def t_typevar_unbounded(x: Unbounded) -> None:
    """Unbounded TypeVar: any JSON value (with a toolcall-type finding)."""


T = TypeVar("T")
Pair = TypeAliasType("Pair", tuple[T, T], type_params=(T,))
Matrix = list[list[T]]
Id = TypeAliasType("Id", Union[int, str])
Scores = dict[str, float]


@toolcall.tool
def t_alias_generic(x: Pair[int]) -> None:
    """A generic TypeAliasType."""


@toolcall.tool
def t_alias_plain_generic(x: Matrix[float]) -> None:
    """A plain generic alias."""


@toolcall.tool
def t_alias_union(x: Id) -> None:
    """A TypeAliasType of a union."""


@toolcall.tool
def t_alias_map(x: Scores) -> None:
    """A plain alias of a dict."""


# -- recursive -----------------------------------------------------------------------------------

Tree = Union[int, list["Tree"]]


@toolcall.tool
def t_recursive_alias(x: Tree) -> None:
    """A recursive alias via a string forward reference."""


@toolcall.tool
def t_recursive_typeddict(x: Category) -> None:
    """A recursive TypedDict."""


@toolcall.tool
def t_recursive_dataclass(x: Comment) -> None:
    """A recursive dataclass with a default_factory."""


@toolcall.tool
def t_recursive_optional(x: Optional[Tree] = None) -> None:
    """An optional recursive alias (a $ref beside null)."""


# -- Annotated bounds ----------------------------------------------------------------------------


@toolcall.tool
def t_int_range(x: Annotated[int, Param(ge=1, le=12)]) -> None:
    """ge/le on int."""


@toolcall.tool
def t_float_open(x: Annotated[float, Param(gt=0, lt=1)]) -> None:
    """gt/lt on float."""


@toolcall.tool
def t_int_multiple(x: Annotated[int, Param(multiple_of=5)]) -> None:
    """multiple_of on int."""


@toolcall.tool
def t_float_multiple(x: Annotated[float, Param(multiple_of=0.5)]) -> None:
    """multiple_of on float."""


@toolcall.tool
def t_str_bounds(x: Annotated[str, Param(min_length=2, max_length=4, pattern=r"^[a-z]+$")]) -> None:
    """Lengths and a pattern on str."""


@toolcall.tool
def t_str_pattern_unanchored(x: Annotated[str, Param(pattern="[0-9]")]) -> None:
    """An unanchored pattern: JSON Schema searches, it does not full-match."""


@toolcall.tool
def t_list_length(x: Annotated[list[int], Param(min_length=1, max_length=2)]) -> None:
    """Lengths on a list."""


@toolcall.tool
def t_set_length(x: Annotated[set[str], Param(max_length=2)]) -> None:
    """Lengths on a set."""


@toolcall.tool
def t_tuple_length(x: Annotated[tuple[int, ...], Param(min_length=2)]) -> None:
    """Lengths on a variadic tuple."""


@toolcall.tool
def t_dict_length(x: Annotated[dict[str, int], Param(min_length=1, max_length=2)]) -> None:
    """Lengths on a dict: property counts."""


@toolcall.tool
def t_list_item_bounds(x: list[Annotated[int, Param(ge=0)]]) -> None:
    """Bounds on list items."""


@toolcall.tool
def t_dict_value_bounds(x: dict[str, Annotated[str, Param(max_length=3)]]) -> None:
    """Bounds on dict values."""


@toolcall.tool
def t_optional_bounded(x: Annotated[Optional[int], Param(ge=0)] = None) -> None:
    """Bounds through X | None (null stays allowed)."""


@toolcall.tool
def t_bounded_optional(x: Optional[Annotated[int, Param(ge=0)]] = None) -> None:
    """Bounds inside X | None."""


@toolcall.tool
def t_stacked_bounds(x: Annotated[Annotated[int, Param(ge=0)], Param(le=10)]) -> None:
    """Two Annotated layers: both bounds apply."""


Percent = Annotated[float, Param(ge=0, le=100)]


@toolcall.tool
def t_bounded_alias_items(x: list[Percent]) -> None:
    """A bounded alias used as list items."""


@toolcall.tool
def t_at_gt_multiple(x: Annotated[int, at.Gt(0), at.MultipleOf(5)]) -> None:
    """annotated_types Gt and MultipleOf."""


@toolcall.tool
def t_at_interval(x: Annotated[float, at.Interval(ge=0, lt=1)]) -> None:
    """annotated_types Interval."""


@toolcall.tool
def t_at_len_optional(x: Annotated[str, at.Len(2, 4)] | None) -> None:
    """annotated_types Len on str, nullable."""


@toolcall.tool
def t_at_nested_lengths(x: Annotated[list[Annotated[str, at.MaxLen(2)]], at.MinLen(1)]) -> None:
    """annotated_types MinLen on a list and MaxLen on its items."""


@toolcall.tool
def t_at_ge_le_lt(a: Annotated[int, at.Ge(1)], b: Annotated[int, at.Le(1)], c: Annotated[float, at.Lt(1)]) -> None:
    """annotated_types Ge, Le, Lt."""


# -- root-level: required, unknown keys, **kwargs, Injected ----------------------------------------


@toolcall.tool
def t_root(city: str, days: int = 3) -> None:
    """A required and an optional parameter."""


@toolcall.tool
def t_no_params() -> None:
    """No parameters at all."""


@toolcall.tool
def t_kwargs_str(resource_id: str, **tags: str) -> None:
    """**kwargs: str."""


@toolcall.tool
def t_kwargs_union(*, verbose: bool = False, **options: int | bool) -> None:
    """**kwargs: int | bool beside a keyword-only parameter."""


@toolcall.tool
def t_kwargs_bounded(**limits: Annotated[int, Param(ge=0)]) -> None:
    """**kwargs with a bound."""


@toolcall.tool
def t_injected(table: str, db: Annotated[str, Injected], user: Annotated[str, Injected] = "") -> None:
    """Two injected parameters."""


@toolcall.tool
def t_injected_kwargs(table: str, db: Annotated[str, Injected], **extra: str) -> None:
    """An injected parameter beside **kwargs: the model must not be able to send it."""


@toolcall.tool
def t_positional(width: int, height: int = 0, /, scale: float = 1.0, *, keep: bool = True) -> None:
    """Positional-only, keyword and keyword-only parameters: all are properties."""


# -- nested at depth -----------------------------------------------------------------------------


class Leg(NamedTuple):
    """One leg of a route."""

    to: Coordinate
    mode: Literal["walk", "bus"] = "walk"


@dataclass
class Route:
    """A route of legs."""

    legs: Annotated[list[Leg], Param(min_length=1)]
    day: Optional[datetime.date] = None
    tags: set[str] = field(default_factory=set)


class Trip(TypedDict):
    """A trip: a route, a budget per currency, a priority."""

    route: Route
    budget: NotRequired[dict[str, Decimal]]
    priority: NotRequired[Priority]


@toolcall.tool
def t_nested_deep(x: list[Trip]) -> None:
    """list > TypedDict > dataclass > list > NamedTuple > NamedTuple."""


@toolcall.tool
def t_nested_map(x: dict[str, list[tuple[int, Address]]]) -> None:
    """dict > list > tuple > TypedDict."""


@toolcall.tool
def t_nested_optional_items(x: list[Optional[Annotated[Address, Param(description="a stop")]]]) -> None:
    """list of optional TypedDicts."""


# -- strict-mode samples -------------------------------------------------------------------------


@toolcall.tool
def t_strict_bounds(
    guests: Annotated[int, Param(ge=1, le=12)],
    name: Annotated[str, Param(min_length=2, max_length=4, pattern="^[a-z]+$")],
    step: Annotated[int, Param(multiple_of=5)] = 5,
    tags: Annotated[list[str], Param(min_length=2, max_length=3)] = ["a", "b"],  # noqa: B006
) -> None:
    """Bounds each strict mode carries or moves."""


@toolcall.tool
def t_strict_shapes(
    pair: tuple[int, str],
    words: set[str],
    fit: Literal["slim", "regular"] = "regular",
    when: Optional[datetime.date] = None,
    to: Optional[Address] = None,
) -> None:
    """Tuples, sets, optional literals, optional objects."""


@toolcall.tool
def t_strict_nested(order: Order, where: Coordinate) -> None:
    """Nested objects with optional fields."""
