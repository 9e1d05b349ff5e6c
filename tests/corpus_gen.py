"""A generated package of tool modules shaped like real code, for differential tests and benchmarks.

``write_corpus(root, modules=N, seed=S)`` writes the package ``acme_tools``
under ``root`` and returns a ``Corpus`` (its modules and tool count). The
same arguments always write the same bytes.

The package has one subpackage per business domain (``billing``,
``shipping``, ...) holding the tool modules, and ``acme_tools.types_``
with the types they share, imported by most tool modules: ``common`` and
one module per domain (str and int Enums with members in no particular
order, TypedDicts with ``NotRequired`` fields and attribute docstrings,
nested two and three levels deep (an order holds its customer, who holds a
``Contact`` and an address, and its lines, which hold ``Money``),
dataclasses with a ``default_factory``, with ``X | None = None`` fields
and nesting another dataclass, NamedTuples, ``Annotated`` aliases with
``Param`` bounds and a ``Literal`` alias). Each tool module has 1 to 5
tools (2.6 on average, about 2.9 KB of source per module, 1.1 KB per
tool), some with a module-local str or int Enum or TypedDict, half of them
under ``from __future__ import annotations``.
Tools have long Google-style docstrings (several paragraphs, an ``Args:``
section with continuation lines, ``Returns:``, sometimes ``Raises:``; a
few parameters left undocumented so their class docstring is used),
parameters declared in no alphabetical order, ``Literal`` enums in shuffled
orders, ``Literal[...] | None`` and ``Optional[Literal[...]]``, ``Annotated``
constraints (direct and through imported aliases), ``Param(description=)``,
defaults of every JSON kind (str, int, float, bool, lists, dicts, Enum
members, None), an optional parameter before a required keyword-only one,
``list[...]``, ``dict[str, ...]``, unions, dates, datetimes, timedeltas,
UUIDs and Decimals.

``write_large_module(root, tools=N, seed=S)`` writes the same type modules
and one module of ``N`` such tools, over every domain
(``benchmarks/cache_large_module.py``).

Value sets that ``Literal[...] | None`` (and ``Optional[Literal[...]]``)
use are declared in one order everywhere, except in the ``order_clashes``
pairs: two modules declaring the same values, used nowhere else, in two
orders. CPython's typing cache keys such a union on the ``Literal``, whose
equality ignores order, so an interpreter that imports both modules hands
the second the first one's order (``docs/static-vs-runtime.md``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

T = TypeVar("T")

__all__ = ["LARGE_MODULE", "PACKAGE", "Corpus", "LargeModule", "OrderClash", "write_corpus", "write_large_module"]

PACKAGE: Final = "acme_tools"

#: One pair of order-clashing modules for this many modules (at least one pair from two modules on).
CLASH_EVERY: Final = 40


@dataclass(frozen=True)
class OrderClash:
    """Two modules whose first tool's ``stage`` parameter lists the same values in two orders."""

    first: str
    second: str
    #: The values as each module declares them.
    first_order: tuple[str, ...]
    second_order: tuple[str, ...]
    #: Spelled ``Optional[Literal[...]]`` (else ``Literal[...] | None``), alike in both modules.
    optional: bool


@dataclass(frozen=True)
class Corpus:
    """What ``write_corpus`` wrote."""

    root: Path
    #: The package's name (a directory under ``root``).
    package: str
    #: Every tool module, in the order they were generated.
    modules: tuple[str, ...]
    #: The modules of shared types (no tools).
    type_modules: tuple[str, ...]
    #: How many ``@tool`` functions the tool modules hold.
    tools: int
    #: Module pairs that declare the same ``Literal[...] | None`` values in different orders.
    order_clashes: tuple[OrderClash, ...]
    #: Bytes of Python source written, all files included.
    source_bytes: int


# -- vocabulary ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Domain:
    name: str
    nouns: tuple[str, ...]
    #: The values of the domain's ``Literal`` alias ``<Domain>Kind`` (no two domains share one).
    kinds: tuple[str, ...]

    @property
    def camel(self) -> str:
        return self.name.title().replace("_", "")


_DOMAINS: Final = (
    _Domain("billing", ("invoice", "payment", "refund", "credit_note", "subscription"), ("card", "wire", "wallet")),
    _Domain("shipping", ("shipment", "parcel", "carrier", "label", "pickup"), ("ground", "air", "sea", "courier")),
    _Domain("inventory", ("stock_item", "warehouse", "transfer", "reservation"), ("raw", "finished", "returned")),
    _Domain("crm", ("contact", "account", "lead", "deal", "note"), ("inbound", "outbound", "referral")),
    _Domain("support", ("ticket", "response", "macro", "escalation", "survey"), ("question", "incident", "request")),
    _Domain("analytics", ("report", "metric", "dashboard", "segment", "export"), ("daily", "weekly", "adhoc")),
    _Domain("calendar", ("event", "booking", "room", "reminder"), ("meeting", "focus", "travel", "leave")),
    _Domain("people", ("employee", "leave_request", "payslip", "review"), ("permanent", "contractor", "intern")),
    _Domain("documents", ("document", "folder", "template", "signature"), ("draft", "final", "scanned")),
    _Domain("search", ("collection", "synonym", "ranking", "facet"), ("keyword", "semantic", "hybrid")),
)

_VERBS: Final = (
    "list",
    "get",
    "create",
    "update",
    "archive",
    "search",
    "export",
    "sync",
    "estimate",
    "schedule",
    "cancel",
    "approve",
    "merge",
    "tag",
    "summarize",
    "restore",
    "count",
    "preview",
)

_SUMMARIES: Final = {
    "list": "List the {noun}s that match the given filters.",
    "get": "Fetch one {noun} with everything the {domain} service knows about it.",
    "create": "Create a {noun} from the given details.",
    "update": "Change selected fields of an existing {noun}.",
    "archive": "Archive a {noun} so it no longer shows up in everyday lists.",
    "search": "Search {noun}s by free text and structured filters.",
    "export": "Export {noun}s to a file the user can download.",
    "sync": "Bring the {noun}s of an external system in line with this one.",
    "estimate": "Estimate what a {noun} would cost before creating it.",
    "schedule": "Schedule work on a {noun} for a later time.",
    "cancel": "Cancel a pending {noun} and release what it holds.",
    "approve": "Approve a {noun} that waits for a decision.",
    "merge": "Merge duplicate {noun}s into one record.",
    "tag": "Add or remove tags on a {noun}.",
    "summarize": "Summarize the {noun}s of a period in a few numbers.",
    "restore": "Restore an archived {noun}.",
    "count": "Count the {noun}s that match the given filters.",
    "preview": "Show what a change to a {noun} would do, without doing it.",
}

_SENTENCES: Final = (
    "The {noun} is read from the {domain} service of record, never from a replica, so the answer "
    "reflects writes made a moment ago.",
    "Results come in pages; ask for the next page with the cursor of the previous answer rather "
    "than by raising the limit.",
    "Only records the caller may see are considered: the access rules of the {domain} team apply "
    "exactly as they do in the web interface.",
    "When nothing matches, an empty result is returned instead of an error, so the model can relax "
    "the filters and try again.",
    "Amounts are in the account's currency unless one is given; they are rounded half to even at the last step only.",
    "Dates are read in the time zone of the {noun}'s owner, and a date without a time means the whole day.",
    "Use this before changing a {noun}: it shows what the change would touch, and it costs nothing.",
    "The operation is idempotent: sending the same request twice within a day has the effect of sending it once.",
    "Large requests are split into batches behind the scenes; the answer arrives once every batch is done.",
    "Archived {noun}s are skipped unless they are asked for, but they still count towards quotas.",
    "Every change is written to the audit log with the caller's identity and the reason given, if any.",
    "Prefer the narrowest filter that answers the question: broad searches are slow and may be cut short.",
    "The {domain} service may refuse the request during maintenance windows; try again a few minutes later.",
    "Fields that are not sent keep their current values; send an explicit empty value to clear one.",
    "Linked records (notes, attachments, history) are not copied; they stay with the original "
    "{noun} and can be fetched separately.",
    "Numbers in the answer are computed when the request arrives and are not cached, so two calls "
    "a second apart may differ.",
)

#: Value sets of ``Literal[...] | None`` parameters, each always in this order (outside the clashes).
_OPTIONAL_SETS: Final = (
    ("format", ("csv", "json", "xlsx")),
    ("severity", ("low", "medium", "high", "critical")),
    ("visibility", ("private", "team", "public")),
    ("region_hint", ("eu", "us", "apac")),
    ("rounding", ("up", "down", "nearest")),
)
#: Words of the clash pairs' value sets (used by no other parameter).
_CLASH_WORDS: Final = (
    "intake",
    "triage",
    "review",
    "legal",
    "signoff",
    "handover",
    "dispatch",
    "closure",
    "audit",
    "rework",
    "hold",
    "release",
)
#: Value sets of plain ``Literal[...]`` parameters, shuffled per use.
_LITERAL_SETS: Final = (
    ("sort", ("newest", "oldest", "relevance", "price")),
    ("granularity", ("hour", "day", "week", "month", "quarter")),
    ("mode", ("fast", "balanced", "thorough")),
    ("view", ("summary", "full", "minimal")),
    ("direction", ("asc", "desc")),
    ("match", ("exact", "prefix", "fuzzy")),
)
_LITERAL_DOCS: Final = {
    "sort": "how to order the results",
    "granularity": "the width of each bucket in the answer",
    "mode": "how much effort to spend; thorough is slower but finds more",
    "view": "how much of each record to return",
    "direction": "ascending or descending",
    "match": "how the text must match",
    "format": "the file format, when a file is wanted",
    "severity": "the lowest severity to include",
    "visibility": "who may see the result",
    "region_hint": "where the data should be processed, if it matters",
    "rounding": "how amounts are rounded",
    "stage": "the workflow stage to restrict to",
}


# -- the shared types -----------------------------------------------------------------------------

_COMMON = '''\
"""Types every domain shares: money, paging and contact details.

They are kept small on purpose: a tool that needs more defines its own
type in its domain module and embeds these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, TypedDict

from typing_extensions import NotRequired

from toolcall import Param

PageSize = Annotated[int, Param(ge=1, le=200)]
CurrencyCode = Annotated[str, Param(min_length=3, max_length=3, pattern="^[A-Z]{{3}}$")]


class Region(str, Enum):
    """A data region.

    Records are stored and processed in exactly one region.
    """

{region_members}


class Money(TypedDict):
    """An amount of money.

    Attributes:
        amount: the amount in minor units (cents), never negative
        currency: ISO 4217 currency code
    """

    amount: Annotated[int, Param(ge=0)]
    currency: CurrencyCode
    note: NotRequired[str]
    """A short remark printed next to the amount."""


@dataclass
class Paging:
    """Which page of a long answer to return."""

    size: PageSize = 50
    """How many records per page."""
    cursor: str | None = None
    """The cursor a previous page returned; none for the first page."""


class Contact(TypedDict, total=False):
    """How to reach a person.

    Attributes:
        email: an email address
        phone: a phone number in E.164 form,
            with the country code
    """

    name: str
    email: str
    phone: str


@dataclass
class Audit:
    """Who asks for a change and why, as the audit log records it.

    Attributes:
        actor: the user name of the person asking
    """

    actor: str
    reason: str | None = None
    """Why the change is made, in a sentence."""
    ticket: int | None = None
    """The number of a ticket that tracks the change."""
    region: Region | None = None
    """The region whose rules apply; the actor's own when not given."""
'''

_DOMAIN_TYPES = '''\
"""Types of the {domain} domain.

These types travel between the {domain} tools and the services behind
them; each one mirrors a resource of the {domain} API.
"""
{future}
import datetime as dt
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Annotated, Literal, NamedTuple, TypedDict

from typing_extensions import NotRequired

from toolcall import Param

from {package}.types_.common import Contact, Money, Region

{camel}Count = Annotated[int, Param(ge=0, le=5000)]
{camel}Code = Annotated[str, Param(min_length=2, max_length=16, pattern="^[A-Z0-9-]+$")]
{camel}Kind = Literal[{kinds}]


class {camel}Status(str, Enum):
    """Where a {domain} record is in its life cycle."""

{status_members}


class {camel}Priority(IntEnum):
    """How urgent a {domain} request is.

    Higher numbers are handled first.
    """

{priority_members}


class {camel}Address(TypedDict):
    """A postal address as the {domain} service stores it.

    Attributes:
        street: street and house number
        city: the city or town
    """

{address_fields}


class {camel}Line(TypedDict):
    """One line of a {domain} request."""

{line_fields}


@dataclass
class {camel}Window:
    """A period of time, both ends included."""

    start: dt.date
    """The first day."""
    end: dt.date
    """The last day."""
    timezone: str = "UTC"
    """IANA time zone the days are read in."""


@dataclass
class {camel}Filter:
    """Which {domain} records to consider.

    Attributes:
        text: words that must all appear
        statuses: the statuses to include; all when empty
    """

    text: str = ""
    statuses: list[{camel}Status] = field(default_factory=list)
    region: Region | None = None
    """Only records stored in this region."""


class {camel}Customer(TypedDict):
    """The customer a {domain} order is for.

    Attributes:
        id: the customer's account number
        contact: how to reach the customer
    """

    id: Annotated[int, Param(ge=1)]
    contact: Contact
    address: NotRequired[{camel}Address]
    """Where the customer is; the account's address when missing."""
    tier: NotRequired[{camel}Priority]


class {camel}Order(TypedDict):
    """A {domain} order: who it is for and what it holds.

    Attributes:
        reference: the order's reference, as printed on documents
        customer: who the order is for
        lines: the ordered lines, in the order they are printed
    """

    reference: {camel}Code
    customer: {camel}Customer
    lines: list[{camel}Line]
    total: NotRequired[Money]
    """The expected total; checked against the lines when given."""
    status: NotRequired[{camel}Status]


@dataclass
class {camel}Schedule:
    """When and how often a {domain} job runs.

    Attributes:
        window: the days the job may run on
        every: the time between two runs; once when not given
    """

    window: {camel}Window
    every: dt.timedelta | None = None
    priority: {camel}Priority | None = None
    """How urgent the job is; the account's default when not given."""
    status: {camel}Status | None = None
    """The state the job starts in."""
    note: str | None = None


class {camel}Point(NamedTuple):
    """A position on Earth.

    Attributes:
        lat: latitude in degrees
        lon: longitude in degrees
    """

    lat: float
    lon: float
    label: str = ""
    """A name for the place."""
'''

_STATUS = (
    ("PENDING", "pending"),
    ("ACTIVE", "active"),
    ("ON_HOLD", "on_hold"),
    ("CLOSED", "closed"),
    ("ARCHIVED", "archived"),
)
_PRIORITY = (("LOW", 1), ("NORMAL", 2), ("HIGH", 3), ("URGENT", 4))
_REGIONS = (("EU", "eu"), ("US", "us"), ("APAC", "apac"), ("LATAM", "latam"))

_ADDRESS_FIELDS = (
    "    street: str",
    "    city: str",
    '    postal_code: NotRequired[str]\n    """Postal code, where the country uses one."""',
    '    country: Annotated[str, Param(min_length=2, max_length=2)]\n    """ISO 3166-1 alpha-2 code."""',
)
_LINE_FIELDS = (
    '    sku: Annotated[str, Param(min_length=3, max_length=32)]\n    """The stock keeping unit."""',
    "    quantity: Annotated[int, Param(ge=1, le=10000)]",
    "    price: Money",
    "    note: NotRequired[str]",
    "    status: NotRequired[{camel}Status]",
)


def _shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


def _quote(value: str) -> str:
    return f'"{value}"'


def _members(rng: random.Random, members: Sequence[tuple[str, object]]) -> str:
    return "\n".join(
        f"    {name} = {_quote(value) if isinstance(value, str) else value}" for name, value in _shuffled(rng, members)
    )


def _domain_types(rng: random.Random, domain: _Domain, future: bool) -> str:
    address = [*_ADDRESS_FIELDS[:2], *_shuffled(rng, _ADDRESS_FIELDS[2:])]
    lines = [_LINE_FIELDS[0], *_shuffled(rng, _LINE_FIELDS[1:])]
    return _DOMAIN_TYPES.format(
        domain=domain.name,
        camel=domain.camel,
        package=PACKAGE,
        future="\nfrom __future__ import annotations\n" if future else "",
        kinds=", ".join(_quote(k) for k in _shuffled(rng, domain.kinds)),
        status_members=_members(rng, _STATUS),
        priority_members=_members(rng, _PRIORITY),
        address_fields="\n".join(address),
        line_fields="\n".join(lines).replace("{camel}", domain.camel),
    )


# -- parameters -----------------------------------------------------------------------------------


@dataclass
class _Param:
    name: str
    annotation: str
    default: str | None  # source text; None: required
    doc: str | None  # the Args entry; None: left undocumented
    imports: tuple[str, ...] = ()  # keys of _IMPORTS
    types: tuple[str, ...] = ()  # names imported from the domain's types module
    common: tuple[str, ...] = ()  # names imported from types_.common


_IMPORTS: Final = {
    "Annotated": "from typing import Annotated",
    "Literal": "from typing import Literal",
    "Optional": "from typing import Optional",
    "TypedDict": "from typing import TypedDict",
    "dt": "import datetime as dt",
    "Decimal": "from decimal import Decimal",
    "UUID": "from uuid import UUID",
    "Enum": "from enum import Enum",
    "Param": "from toolcall import Param",
}


class _Builder:
    """Builds one tool module's text."""

    def __init__(self, rng: random.Random, domain: _Domain, noun: str, index: int) -> None:
        self.rng = rng
        self.domain = domain
        self.noun = noun
        self.index = index
        self.imports: set[str] = set()
        self.types: set[str] = set()
        self.common: set[str] = set()
        self.other: dict[str, set[str]] = {}  # another domain's types module -> names
        self.local: list[str] = []  # module-local class definitions
        self.local_enum: str | None = None  # the first member of the module's Channel enum, once written
        self.local_int_enum: str | None = None  # likewise for its int-valued Tier enum
        self.local_dict = False  # whether the module's Change TypedDict is written

    # Each kind returns a parameter named from ``name`` options; the caller keeps names unique.
    def kinds(self) -> list[tuple[int, Callable[[], _Param]]]:
        return [
            (6, self.p_text),
            (4, self.p_str_default),
            (5, self.p_bounded_int),
            (2, self.p_float),
            (5, self.p_bool),
            (5, self.p_literal),
            (3, self.p_optional_literal),
            (4, self.p_status),
            (2, self.p_priority),
            (3, self.p_address),
            (3, self.p_lines),
            (2, self.p_window),
            (2, self.p_filter),
            (1, self.p_point),
            (2, self.p_money),
            (2, self.p_paging),
            (3, self.p_str_list),
            (2, self.p_ids),
            (2, self.p_mapping),
            (2, self.p_union),
            (4, self.p_dates),
            (2, self.p_alias),
            (2, self.p_described),
            (2, self.p_kind),
            (1, self.p_other_domain),
            (2, self.p_local_enum),
            (1, self.p_local_int_enum),
            (1, self.p_local_dict),
            (2, self.p_order),
            (2, self.p_schedule),
            (2, self.p_audit),
        ]

    def pick(self, options: tuple[str, ...]) -> str:
        return options[self.rng.randrange(len(options))]

    def p_text(self) -> _Param:
        name = self.pick(("query", "title", "reference", "subject", "owner", "customer_name", "reason"))
        example = f"{self.domain.camel[:3].upper()}-2024-0042"
        doc = {
            "query": "words to look for; quotes group a phrase",
            "title": "a short title, shown in lists",
            "reference": f"the {self.noun}'s reference as printed on documents, e.g. ``{example}``",
            "subject": "what the request is about, in one line",
            "owner": "the user name of the person responsible",
            "customer_name": "the customer's full name as written on the account",
            "reason": "why this is done; kept in the audit log",
        }[name]
        return _Param(name, "str", None, doc)

    def p_str_default(self) -> _Param:
        name, default, doc = self.rng.choice(
            (
                ("locale", '"en-US"', "the language and region of any text in the answer"),
                ("currency", '"EUR"', "the currency amounts are shown in"),
                ("timezone", '"Europe/Oslo"', "the IANA time zone used to read and show dates"),
                ("label", '""', "an optional label shown next to the record"),
                ("separator", '","', "the field separator of text output"),
            )
        )
        return _Param(name, "str", default, doc)

    def p_bounded_int(self) -> _Param:
        name, low, high, default = self.rng.choice(
            (("limit", 1, 500, 50), ("page_size", 1, 200, 25), ("max_results", 1, 1000, 100), ("retries", 0, 10, 3))
        )
        doc = {
            "limit": f"the most {self.noun}s to return",
            "page_size": "how many records per page",
            "max_results": "stop after this many results",
            "retries": "how often to retry a failed call to the backend",
        }[name]
        return _Param(name, f"Annotated[int, Param(ge={low}, le={high})]", str(default), doc, ("Annotated", "Param"))

    def p_float(self) -> _Param:
        if self.rng.random() < 0.5:
            return _Param("threshold", "float", "0.75", "the lowest score a match may have")
        return _Param(
            "min_score",
            "Annotated[float, Param(gt=0, le=1)]",
            "0.5",
            "the lowest relevance, between 0 and 1",
            ("Annotated", "Param"),
        )

    def p_bool(self) -> _Param:
        name, default, doc = self.rng.choice(
            (
                ("include_archived", "False", f"whether archived {self.noun}s count too"),
                ("dry_run", "False", "only report what would change;\n    nothing is written"),
                ("notify", "True", "send the usual notifications to the people involved"),
                ("exact", "False", "match the text exactly instead of by words"),
                ("with_totals", "True", "add a totals row at the end"),
            )
        )
        return _Param(name, "bool", default, doc)

    def p_literal(self) -> _Param:
        name, values = self.rng.choice(_LITERAL_SETS)
        order = _shuffled(self.rng, values)
        text = f"Literal[{', '.join(map(_quote, order))}]"
        default = _quote(self.rng.choice(order)) if self.rng.random() < 0.7 else None
        return _Param(name, text, default, _LITERAL_DOCS[name], ("Literal",))

    def p_optional_literal(self) -> _Param:
        name, values = self.rng.choice(_OPTIONAL_SETS)
        return self.optional_literal(name, values, optional=self.rng.random() < 0.3)

    def optional_literal(self, name: str, values: tuple[str, ...] | list[str], *, optional: bool) -> _Param:
        listed = ", ".join(map(_quote, values))
        if optional:
            return _Param(name, f"Optional[Literal[{listed}]]", "None", _LITERAL_DOCS[name], ("Literal", "Optional"))
        return _Param(name, f"Literal[{listed}] | None", "None", _LITERAL_DOCS[name], ("Literal",))

    def p_status(self) -> _Param:
        camel = self.domain.camel
        self.types.add(f"{camel}Status")
        roll = self.rng.random()
        if roll < 0.4:
            return _Param("status", f"{camel}Status", f"{camel}Status.ACTIVE", f"only {self.noun}s in this state")
        if roll < 0.7:
            return _Param("status", f"{camel}Status | None", "None", None)  # the Enum's docstring describes it
        return _Param("statuses", f"list[{camel}Status]", None, "the states to include")

    def p_priority(self) -> _Param:
        camel = self.domain.camel
        self.types.add(f"{camel}Priority")
        return _Param("priority", f"{camel}Priority", f"{camel}Priority.NORMAL", "how urgent this is")

    def p_address(self) -> _Param:
        camel = self.domain.camel
        self.types.add(f"{camel}Address")
        if self.rng.random() < 0.5:
            return _Param("address", f"{camel}Address", None, None)
        return _Param(
            "ship_to", f"{camel}Address | None", "None", "where to send it; the account's address if not given"
        )

    def p_lines(self) -> _Param:
        self.types.add(f"{self.domain.camel}Line")
        return _Param("lines", f"list[{self.domain.camel}Line]", None, "the lines, in the order they\n    are printed")

    def p_window(self) -> _Param:
        self.types.add(f"{self.domain.camel}Window")
        if self.rng.random() < 0.5:
            return _Param("period", f"{self.domain.camel}Window", None, "the period to cover")
        return _Param("window", f"{self.domain.camel}Window | None", "None", None)

    def p_filter(self) -> _Param:
        self.types.add(f"{self.domain.camel}Filter")
        return _Param("filters", f"{self.domain.camel}Filter | None", "None", "narrows the records considered")

    def p_point(self) -> _Param:
        self.types.add(f"{self.domain.camel}Point")
        return _Param("near", f"{self.domain.camel}Point", None, "the place to search around")

    def p_money(self) -> _Param:
        self.common.add("Money")
        return _Param(self.pick(("amount", "budget", "price_cap")), "Money", None, "the amount, in minor units")

    def p_paging(self) -> _Param:
        self.common.add("Paging")
        return _Param("paging", "Paging | None", "None", None)

    def p_str_list(self) -> _Param:
        name, default, doc = self.rng.choice(
            (
                ("fields", '["id", "name", "status"]', "the fields to return, in this order"),
                ("tags", "[]", "tags to attach; existing tags stay"),
                ("recipients", None, "email addresses that receive a copy"),
                ("exclude", '["internal"]', "tags whose records are left out"),
            )
        )
        return _Param(name, "list[str]", default, doc)

    def p_ids(self) -> _Param:
        return _Param(f"{self.noun}_ids", "list[int]", None, f"the ids of the {self.noun}s, at most 100")

    def p_mapping(self) -> _Param:
        roll = self.rng.random()
        if roll < 0.4:
            return _Param("metadata", "dict[str, str] | None", "None", "free key-value pairs stored with the record")
        if roll < 0.7:
            return _Param("weights", "dict[str, float]", '{"recency": 0.5, "popularity": 0.25}', "ranking weights")
        return _Param("counts_by_tag", "dict[str, list[int]]", None, "numbers grouped by tag")

    def p_union(self) -> _Param:
        if self.rng.random() < 0.5:
            return _Param("identifier", "int | str", None, f"the {self.noun}'s numeric id or its reference")
        return _Param("external_id", "UUID | str", None, "the id in the external system", ("UUID",))

    def p_dates(self) -> _Param:
        roll = self.rng.randrange(6)
        if roll == 0:
            return _Param("since", "dt.date | None", "None", "only records changed on or after this day", ("dt",))
        if roll == 1:
            return _Param("due", "dt.datetime", None, "when it is due, with a time zone offset", ("dt",))
        if roll == 2:
            return _Param(
                "request_id", "UUID", None, "an id chosen by the caller; a retry\n    sends the same one", ("UUID",)
            )
        if roll == 3:
            return _Param("timeout", "dt.timedelta | None", "None", "give up after this long", ("dt",))
        if roll == 4:
            return _Param("rate", "Decimal", None, "an exact decimal rate, e.g. ``0.0825``", ("Decimal",))
        return _Param("at", "dt.time", None, "the time of day, local to the record", ("dt",))

    def p_alias(self) -> _Param:
        camel = self.domain.camel
        if self.rng.random() < 0.5:
            self.types.add(f"{camel}Count")
            return _Param("count", f"{camel}Count", "10", "how many to take")
        self.types.add(f"{camel}Code")
        return _Param("code", f"{camel}Code", None, f"the {self.noun}'s short code")

    def p_described(self) -> _Param:
        note = "Free text shown to the customer; plain text, no markup."
        return _Param(
            "note",
            f'Annotated[str, Param(description="{note}", max_length=500)]',
            '""',
            None,
            ("Annotated", "Param"),
        )

    def p_kind(self) -> _Param:
        camel = self.domain.camel
        self.types.add(f"{camel}Kind")
        if self.rng.random() < 0.5:
            return _Param("kind", f"{camel}Kind", _quote(self.domain.kinds[0]), f"the kind of {self.noun}")
        return _Param("kind", f"{camel}Kind | None", "None", f"the kind of {self.noun}, any when not given")

    def p_other_domain(self) -> _Param:
        other = _DOMAINS[(_DOMAINS.index(self.domain) + 1 + self.rng.randrange(len(_DOMAINS) - 1)) % len(_DOMAINS)]
        self.other.setdefault(other.name, set()).add(f"{other.camel}Address")
        return _Param("billing_address", f"{other.camel}Address | None", "None", "the address on the invoice")

    def p_local_enum(self) -> _Param:
        if self.local_enum is None:
            self.imports.add("Enum")
            members = _shuffled(self.rng, ["EMAIL", "SMS", "PUSH", "LETTER", "WEBHOOK"])[: 3 + self.rng.randrange(3)]
            body = "\n".join(f'    {m} = "{m.lower()}"' for m in members)
            self.local.append(
                f'class Channel(str, Enum):\n    """How a notice about the {self.noun} is delivered."""\n\n{body}\n'
            )
            self.local_enum = members[0]
        return _Param("channel", "Channel", f"Channel.{self.local_enum}", "how to deliver the notice")

    def p_local_int_enum(self) -> _Param:
        if self.local_int_enum is None:
            self.imports.add("Enum")
            members = [("BRONZE", 1), ("SILVER", 2), ("GOLD", 3), ("PLATINUM", 4)][: 2 + self.rng.randrange(3)]
            body = _members(self.rng, members)
            self.local.append(
                "class Tier(int, Enum):\n"
                f'    """The service tier of a {self.noun.replace("_", " ")}.\n\n'
                '    Higher tiers get faster answers and longer retention.\n    """\n\n'
                f"{body}\n"
            )
            self.local_int_enum = members[0][0]
        if self.rng.random() < 0.5:
            return _Param("tier", "Tier", f"Tier.{self.local_int_enum}", "the service tier to apply")
        return _Param("tier", "Tier | None", "None", "the service tier; the account's own when not given")

    def p_order(self) -> _Param:
        self.types.add(f"{self.domain.camel}Order")
        if self.rng.random() < 0.6:
            return _Param("order", f"{self.domain.camel}Order", None, "the order, with its customer and\n    lines")
        return _Param("orders", f"list[{self.domain.camel}Order]", None, "the orders to process, at most 50")

    def p_schedule(self) -> _Param:
        self.types.add(f"{self.domain.camel}Schedule")
        if self.rng.random() < 0.5:
            return _Param("schedule", f"{self.domain.camel}Schedule", None, "when the job runs")
        return _Param("schedule", f"{self.domain.camel}Schedule | None", "None", None)  # its docstring describes it

    def p_audit(self) -> _Param:
        self.common.add("Audit")
        return _Param("audit", "Audit | None", "None", "who asks for this and why; recorded with the\n    change")

    def p_local_dict(self) -> _Param:
        if not self.local_dict:
            self.imports.add("TypedDict")
            self.local_dict = True
            self.types.add(f"{self.domain.camel}Status")
            self.local.append(
                "class Change(TypedDict, total=False):\n"
                f'    """Fields of a {self.noun} to change; others keep their values."""\n\n'
                "    title: str\n"
                '    """The new title."""\n'
                f"    status: {self.domain.camel}Status\n"
                "    owner: str\n"
            )
        return _Param("change", "Change", None, "what to change")


def _paragraphs(rng: random.Random, domain: _Domain, noun: str, count: int) -> list[str]:
    out = []
    for _ in range(count):
        sentences = rng.sample(_SENTENCES, 2 + rng.randrange(2))
        text = " ".join(s.format(noun=noun.replace("_", " "), domain=domain.name) for s in sentences)
        out.append(_fill(text, "    "))
    return out


def _fill(text: str, indent: str, width: int = 76) -> str:
    """``textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent)`` for plain prose, faster."""
    lines: list[str] = []
    line = indent
    for word in text.split():
        if len(line) + len(word) + (len(line) > len(indent)) > width and len(line) > len(indent):
            lines.append(line)
            line = indent
        line = f"{line} {word}" if len(line) > len(indent) else line + word
    lines.append(line)
    return "\n".join(lines)


def _tool(builder: _Builder, name: str, verb: str, extra: list[_Param], decorator: str) -> tuple[str, list[_Param]]:
    rng = builder.rng
    choices = builder.kinds()
    weights = [w for w, _ in choices]
    makers = [m for _, m in choices]
    params: list[_Param] = [*extra]
    seen = {p.name for p in params}
    wanted = len(extra) + 2 + rng.randrange(4)
    attempts = 0
    while len(params) < wanted and attempts < 40:
        attempts += 1
        made = rng.choices(makers, weights)[0]()
        if made.name not in seen:
            seen.add(made.name)
            params.append(made)
    rng.shuffle(params)
    required = [p for p in params if p.default is None]
    optional = [p for p in params if p.default is not None]
    signature: list[str]
    if required and optional and rng.random() < 0.35:
        # an optional parameter before a required keyword-only one: def f(a: int = 1, *, b: str)
        head = optional[: 1 + rng.randrange(len(optional))]
        keyword = _shuffled(rng, [required[0], *optional[len(head) :]])
        positional = [*required[1:], *head]
        signature = [*map(_declare, positional), "*", *map(_declare, keyword)]
        order = [*positional, *keyword]
    else:
        order = [*required, *optional]
        signature = list(map(_declare, order))
    for p in order:
        builder.imports.update(p.imports)
    returns, body = rng.choice(
        (
            ("dict[str, object]", f'return {{"status": "queued", "tool": "{name}"}}'),
            ("list[str]", "return []"),
            ("str", 'return "ok"'),
            ("None", "return None"),
            ("int", "return 0"),
        )
    )
    noun = builder.noun.replace("_", " ")
    summary = _SUMMARIES[verb].format(noun=noun, domain=builder.domain.name)
    doc = ["    " + summary, ""]
    doc += "\n\n".join(_paragraphs(rng, builder.domain, builder.noun, 1 + (rng.random() < 0.35))).split("\n")
    documented = [p for p in order if p.doc is not None and rng.random() < 0.92]
    if documented:
        doc += ["", "    Args:"]
        for p in documented:
            assert p.doc is not None
            doc.append(f"        {p.name}: " + p.doc.replace("\n    ", "\n            "))
    if returns != "None":
        doc += ["", "    Returns:", f"        what the {builder.domain.name} service answered, as JSON-ready data"]
    if rng.random() < 0.3:
        doc += ["", "    Raises:", f"        PermissionError: the caller may not touch this {noun}"]
    if len(signature) > 2 or sum(map(len, signature)) > 60:
        args = "".join(f"\n    {s}," for s in signature) + "\n"
    else:
        args = ", ".join(signature)
    text = (
        f"\n\n{decorator}\ndef {name}({args}) -> {returns}:\n"
        + '    """'
        + "\n".join(doc).lstrip()
        + '\n    """\n'
        + f"    {body}\n"
    )
    return text, order


def _declare(p: _Param) -> str:
    return f"{p.name}: {p.annotation}" if p.default is None else f"{p.name}: {p.annotation} = {p.default}"


_TOOL_COUNTS: Final = (1, 2, 3, 4, 5)
_TOOL_WEIGHTS: Final = (20, 32, 25, 15, 8)


def _decorator(rng: random.Random, verb: str, noun: str, index: int, domain: _Domain) -> str:
    roll = rng.random()
    if roll < 0.6:
        return "@toolcall.tool"
    if roll < 0.8:
        return "@tool"
    if roll < 0.93:
        return f'@toolcall.tool(name="{verb}-{noun.replace("_", "-")}-{index}")'
    return f'@toolcall.tool(description="{_SUMMARIES[verb].format(noun=noun, domain=domain.name)}")'


def _tool_name(verb: str, noun: str, index: int) -> str:
    return f"{verb}_{noun}{'s' if verb in ('list', 'search', 'export', 'count', 'summarize') else ''}_{index}"


def _module(
    rng: random.Random, domain: _Domain, noun: str, index: int, clash: tuple[list[str], bool] | None
) -> tuple[str, int]:
    """One tool module's text and its number of tools.

    ``clash``: the values its first tool's ``stage`` declares, in order, and whether as ``Optional[...]``.
    """
    builder = _Builder(rng, domain, noun, index)
    future = rng.random() < 0.5
    count = rng.choices(_TOOL_COUNTS, _TOOL_WEIGHTS)[0]
    verbs = rng.sample(_VERBS, count)
    parts = []
    for position, verb in enumerate(verbs):
        extra: list[_Param] = []
        if clash is not None and position == 0:
            extra.append(builder.optional_literal("stage", clash[0], optional=clash[1]))
        decorator = _decorator(rng, verb, noun, index, domain)
        text, _ = _tool(builder, _tool_name(verb, noun, index), verb, extra, decorator)
        parts.append(text)
    own = {name: set(names) for name, names in builder.other.items()}
    own.setdefault(domain.name, set()).update(builder.types)
    title = f"Tools for {domain.name} {noun.replace('_', ' ')}s."
    about = (
        f"Each tool here talks to the {domain.name} service on the caller's behalf. "
        "Errors from the service are returned to the model as data, never raised past the dispatcher."
    )
    return _assemble(builder, title, about, future, own, parts), count


def _assemble(
    builder: _Builder, title: str, about: str, future: bool, own: dict[str, set[str]], parts: list[str]
) -> str:
    """A tool module's text: docstring, imports (``own``: names from each ``types_`` module), local classes, tools."""
    imports = sorted(_IMPORTS[key] for key in builder.imports)
    stdlib = [line for line in imports if not line.startswith("from toolcall")]
    typing_names = sorted(line.rpartition(" ")[2] for line in stdlib if line.startswith("from typing import"))
    stdlib = [line for line in stdlib if not line.startswith("from typing import")]
    if typing_names:
        stdlib.append(f"from typing import {', '.join(typing_names)}")
    stdlib.sort(key=lambda line: (line.startswith("from"), line.split()[1]))
    toolcall_lines = ["import toolcall"]
    names = sorted({"tool"} | ({"Param"} if "Param" in builder.imports else set()))
    toolcall_lines.append(f"from toolcall import {', '.join(names)}")
    lines = []
    if builder.common:
        lines.append(f"from {PACKAGE}.types_.common import {', '.join(sorted(builder.common))}")
    for module in sorted(own):
        if own[module]:
            lines.append(f"from {PACKAGE}.types_.{module} import {', '.join(sorted(own[module]))}")
    lines.sort()
    head = [f'"""{title}', "", _fill(about, ""), '"""', ""]
    if future:
        head += ["from __future__ import annotations", ""]
    if stdlib:
        head += [*stdlib, ""]
    head += toolcall_lines
    if lines:
        head += ["", *lines]
    text = "\n".join(head) + "\n"
    for local in builder.local:
        text += "\n\n" + local
    return text + "".join(parts)


def _write_types(write: Callable[[str, str], None], rng: random.Random) -> list[str]:
    """The package's ``__init__`` files and shared type modules; the type modules' names."""
    write("__init__.py", '"""Generated tools of a fictional company, for tests and benchmarks."""\n')
    write("types_/__init__.py", '"""Types the tool modules share."""\n')
    write("types_/common.py", _COMMON.format(region_members=_members(rng, _REGIONS)))
    type_modules = [f"{PACKAGE}.types_.common"]
    for position, domain in enumerate(_DOMAINS):
        write(f"types_/{domain.name}.py", _domain_types(rng, domain, future=position % 2 == 0))
        type_modules.append(f"{PACKAGE}.types_.{domain.name}")
    return type_modules


def write_corpus(root: Path, *, modules: int, seed: int = 0) -> Corpus:
    """Write the package ``acme_tools`` with ``modules`` tool modules under ``root``; deterministic in ``seed``."""
    if modules < 1:
        raise ValueError("modules must be at least 1")
    rng = random.Random(seed)
    package = root / PACKAGE
    written = 0

    def write(relative: str, text: str) -> None:
        nonlocal written
        path = package / relative
        path.write_text(text, encoding="utf-8")
        written += len(text.encode())

    (package / "types_").mkdir(parents=True, exist_ok=True)
    type_modules = _write_types(write, rng)
    for domain in _DOMAINS:
        (package / domain.name).mkdir(exist_ok=True)
        write(f"{domain.name}/__init__.py", f'"""Tools of the {domain.name} domain."""\n')

    # Pairs of modules declaring one value set, used nowhere else, in two orders.
    # Both modules of a pair spell the union alike: CPython caches `X | None` and `Optional[X]` apart.
    pairs = [(p * CLASH_EVERY, min(p * CLASH_EVERY + 21, modules - 1)) for p in range(max(1, modules // CLASH_EVERY))]
    if modules < 2:
        pairs = []
    spellings = (list(itertools.combinations(_CLASH_WORDS, 3)), list(itertools.combinations(_CLASH_WORDS, 4)))
    clash_of: dict[int, tuple[list[str], bool]] = {}
    for number, (first, second) in enumerate(pairs):
        optional = number % 2 == 1  # the odd pairs as Optional[Literal[...]]
        sets = spellings[optional]
        values = list(sets[(number // 2) % len(sets)])
        clash_of[first] = (values, optional)
        clash_of[second] = (values[1:] + values[:1], optional)

    names: list[str] = []
    tools = 0
    for index in range(modules):
        domain = _DOMAINS[index % len(_DOMAINS)]
        noun = domain.nouns[(index // len(_DOMAINS)) % len(domain.nouns)]
        module = f"{noun}s_{index}"
        text, count = _module(rng, domain, noun, index, clash_of.get(index))
        write(f"{domain.name}/{module}.py", text)
        names.append(f"{PACKAGE}.{domain.name}.{module}")
        tools += count
    clashes = tuple(
        OrderClash(names[a], names[b], tuple(clash_of[a][0]), tuple(clash_of[b][0]), clash_of[a][1]) for a, b in pairs
    )
    return Corpus(root, PACKAGE, tuple(names), tuple(type_modules), tools, clashes, written)


@dataclass(frozen=True)
class LargeModule:
    """What ``write_large_module`` wrote."""

    root: Path
    #: The package's name (a directory under ``root``).
    package: str
    #: The tool module's dotted name.
    module: str
    #: The tool module's file.
    path: Path
    #: How many ``@tool`` functions the module holds.
    tools: int
    #: The modules of shared types the tools use.
    type_modules: tuple[str, ...]
    #: Bytes of the tool module's source.
    source_bytes: int


#: The module name of ``write_large_module``'s tool module, in the package.
LARGE_MODULE: Final = "catalog"


def write_large_module(root: Path, *, tools: int, seed: int = 0) -> LargeModule:
    """Write ``acme_tools`` with one tool module of ``tools`` tools under ``root``; deterministic in ``seed``.

    The package has the shared type modules of ``write_corpus`` and one
    module, ``acme_tools.catalog``, whose tools go round the domains and
    their nouns: each tool is made as a ``write_corpus`` tool of that
    domain (the same parameter kinds, docstrings and decorators), so the
    module imports the types of every domain, and its module-local
    ``Channel``, ``Tier`` and ``Change`` classes are shared by all its tools.
    """
    if tools < 1:
        raise ValueError("tools must be at least 1")
    rng = random.Random(seed)
    package = root / PACKAGE
    (package / "types_").mkdir(parents=True, exist_ok=True)

    def write(relative: str, text: str) -> None:
        (package / relative).write_text(text, encoding="utf-8")

    type_modules = _write_types(write, rng)
    builder = _Builder(rng, _DOMAINS[0], _DOMAINS[0].nouns[0], 0)
    own: dict[str, set[str]] = {}
    parts = []
    for index in range(tools):
        domain = _DOMAINS[index % len(_DOMAINS)]
        noun = domain.nouns[(index // len(_DOMAINS)) % len(domain.nouns)]
        builder.domain, builder.noun, builder.index = domain, noun, index
        verb = rng.choice(_VERBS)
        text, _ = _tool(builder, _tool_name(verb, noun, index), verb, [], _decorator(rng, verb, noun, index, domain))
        parts.append(text)
        own.setdefault(domain.name, set()).update(builder.types)
        builder.types.clear()
    for name, names in builder.other.items():
        own.setdefault(name, set()).update(names)
    about = (
        f"{tools:,} tools over every domain, in one module: each talks to its domain's service on the caller's "
        "behalf. Errors from a service are returned to the model as data, never raised past the dispatcher."
    )
    text = _assemble(builder, "The whole tool catalog of the company.", about, rng.random() < 0.5, own, parts)
    path = package / f"{LARGE_MODULE}.py"
    write(path.name, text)
    return LargeModule(root, PACKAGE, f"{PACKAGE}.{LARGE_MODULE}", path, tools, tuple(type_modules), len(text.encode()))
