"""The schema cache files' bytes depend on the code alone: not on the run's history, order, mtimes or directory.

A small shop package (``pkg``: six tool modules of one to five tools with
long Google-style docstrings, and two shared type modules with nested
TypedDicts, Enums, dataclasses and optional fields; ``tools_f`` takes types
from both) is checked by ``python -m mypy`` in a subprocess, with the
plugin, in the ways a developer and a CI run do. After each, every
``pkg/__toolcall__/*.json`` must be byte for byte what a cold run writes
(a fresh ``--cache-dir`` and no cache file), and hold no trace of the
machine: no absolute path, temporary directory, user or host name.

The cold baseline is made once for the module (``baseline``). A case that
differs fails with the names of the differing files and a unified diff of
the first one.
"""

from __future__ import annotations

import contextlib
import difflib
import getpass
import itertools
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mypy")

from tests.plugin_project import MYPY, PYPROJECT, environment

TYPES = '''\
"""Types the shop's tools share: customers, addresses, money and orders."""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, NotRequired, TypedDict

from toolcall import Param


class Priority(str, Enum):
    """How urgently an order is handled.

    The warehouse picks orders of a higher priority first; within one
    priority, in the order they were placed.
    """

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Address(TypedDict):
    """A postal address, as the carrier prints it on the label."""

    street: str
    """Street name and house number, e.g. "Karl Johans gate 22"."""
    city: str
    """The city or town."""
    postcode: NotRequired[str]
    """The postal code, where the country uses one."""
    country: Annotated[str, Param(min_length=2, max_length=2)]
    """ISO 3166-1 alpha-2 country code, e.g. "NO"."""


class Customer(TypedDict):
    """A customer of the shop."""

    name: str
    """Full name, as the customer wrote it."""
    email: str | None
    """Contact e-mail address, if the customer gave one."""
    address: Address
    """Where the customer's orders are shipped by default."""
    tags: NotRequired[list[str]]
    """Free-form labels the support team attached."""


@dataclass
class Money:
    """An amount of money in one currency."""

    amount: float
    """The amount, in the currency's major unit (euros, not cents)."""
    currency: str = "EUR"
    """ISO 4217 currency code."""


class LineItem(TypedDict):
    """One line of an order: an article and how many of it."""

    sku: str
    """The article's stock keeping unit."""
    quantity: Annotated[int, Param(ge=1, le=999)]
    """How many pieces."""
    price: Money
    """The unit price agreed when the order was placed."""
    note: NotRequired[str | None]
    """A remark for the packers."""


class Order(TypedDict):
    """An order: who placed it, what is in it, and how urgent it is."""

    customer: Customer
    """Who placed the order."""
    items: list[LineItem]
    """The order's lines, at least one."""
    priority: Priority
    """How urgently the warehouse handles it."""
    shipping: NotRequired[Address | None]
    """Where to ship, when not to the customer's own address."""
'''

GEO = '''\
"""Geography the delivery tools share."""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, TypedDict

from toolcall import Param


class Region(Enum):
    """A delivery region; each has its own depots and carriers."""

    EU = "eu"
    UK = "uk"
    NORDICS = "nordics"


class Coordinates(TypedDict):
    """A point on the map (WGS 84)."""

    lat: Annotated[float, Param(ge=-90, le=90)]
    """Latitude in degrees, north positive."""
    lon: Annotated[float, Param(ge=-180, le=180)]
    """Longitude in degrees, east positive."""


@dataclass
class Area:
    """A circular delivery area."""

    center: Coordinates
    """The middle of the area."""
    radius_km: float = 10.0
    """The radius, in kilometres."""
    region: Region | None = None
    """The region the area lies in, if known."""
'''

TOOLS_A = '''\
"""Order tools: place, cancel and list orders."""

import toolcall
from pkg.types_ import Order, Priority


@toolcall.tool
def create_order(order: Order, dry_run: bool = False) -> str:
    """Place a new order for a customer.

    The order is checked against the stock first; an article that is out of
    stock makes the whole order fail, nothing is reserved. With ``dry_run``
    the checks run but nothing is stored, which is what to do when the
    customer is still deciding.

    Args:
        order: the order to place, with at least one line
        dry_run: check the order without placing it

    Returns:
        The new order's id, or "dry-run" when nothing was placed.

    Raises:
        ValueError: when an article is out of stock.
    """
    return "dry-run" if dry_run else order["customer"]["name"]


@toolcall.tool
def cancel_order(order_id: str, reason: str | None = None) -> bool:
    """Cancel an order that has not been shipped yet.

    A shipped order cannot be cancelled: start a return instead. The
    customer gets an e-mail that says the order was cancelled, with the
    reason when one is given.

    Args:
        order_id: the id create_order returned
        reason: why the order is cancelled, shown to the customer

    Returns:
        Whether the order was cancelled.
    """
    return bool(order_id) and reason != ""


@toolcall.tool
def list_orders(customer_email: str, priority: Priority | None = None, limit: int = 20) -> list[str]:
    """List a customer's orders, newest first.

    Use this before cancel_order when the customer does not know the
    order's id; the list shows each order's id, date and state.

    Args:
        customer_email: the e-mail address the customer ordered with
        priority: only orders of this priority
        limit: at most this many orders (1-100)

    Returns:
        The ids of the orders found.
    """
    return [customer_email] * min(limit, 1) if priority is None else []
'''

TOOLS_B = '''\
"""Customer tools: look customers up and change their addresses."""

from toolcall import tool
from pkg.types_ import Address, Customer


@tool
def find_customer(name: str, city: str | None = None) -> list[Customer]:
    """Find customers by name, optionally in one city.

    The match is case-insensitive and ignores accents, so "Jose" finds
    "José". Many customers share a name: narrow the search with the city
    when the first answer has more than a handful of matches.

    Args:
        name: the customer's name, or a part of it of at least three letters
        city: the city of the customer's address

    Returns:
        The customers found, at most 50.
    """
    return []


@tool(name="update_address", description="Change the address a customer's future orders ship to.")
def set_address(customer_id: str, address: Address, also_open_orders: bool = False) -> bool:
    """Change a customer's shipping address.

    Args:
        customer_id: the customer's id, as find_customer shows it
        address: the new address
        also_open_orders: change it on the orders not shipped yet too
    """
    return also_open_orders or bool(customer_id and address)
'''

TOOLS_C = '''\
"""Billing tools: charge, refund, convert and add up."""

from typing import Literal

import toolcall
from pkg.types_ import Customer, LineItem, Money


@toolcall.tool
def charge(amount: Money, customer: Customer, idempotency_key: str) -> str:
    """Charge a customer's stored payment method.

    The charge is made at most once per idempotency key: sending the same
    key again returns the first charge's receipt instead of charging again,
    so retry with the same key after a timeout.

    Args:
        amount: how much to charge, in any currency the shop accepts
        customer: whom to charge
        idempotency_key: a key unique to this charge, e.g. the order id

    Returns:
        The receipt number.
    """
    return idempotency_key


@toolcall.tool
def refund(amount: Money, order_id: str) -> str:
    """Refund an order, in full or in part.

    Args:
        amount: how much to give back; at most what the order was charged
        order_id: the order to refund

    Returns:
        The refund's receipt number.
    """
    return order_id


@toolcall.tool
def convert_currency(amount: Money, to: Literal["EUR", "USD", "GBP", "NOK"] = "EUR") -> Money:
    """Convert an amount to another currency at today's rate.

    The rate is the central bank's reference rate of the day, published
    around 16:00 CET; before that, the previous day's.

    Args:
        amount: the amount to convert
        to: the currency to convert it to
    """
    return Money(amount.amount, to)


@toolcall.tool
def invoice_total(items: list[LineItem], vat_rate: float = 0.25) -> Money:
    """Add up an invoice's lines, with VAT.

    Args:
        items: the invoice's lines; all prices in one currency
        vat_rate: the VAT rate to add, as a fraction (0.25 is 25 %)
    """
    return Money(sum(i["price"].amount * i["quantity"] for i in items) * (1 + vat_rate))
'''

TOOLS_D = '''\
"""Inventory tools."""

import toolcall
from pkg.types_ import Priority


@toolcall.tool
def restock(sku: str, quantity: int = 1, priority: Priority = Priority.NORMAL) -> int:
    """Order more of an article from its supplier.

    The supplier is the article's default one; its delivery time depends
    on the priority, and so does the price (HIGH costs 10 % more).

    Args:
        sku: the article's stock keeping unit
        quantity: how many pieces to order
        priority: how soon the pieces are needed

    Returns:
        How many pieces are in stock or on their way after this order.
    """
    return quantity
'''

TOOLS_E = '''\
"""Support tools that take no shared type."""

from typing import Literal, TypedDict

import toolcall


class Ticket(TypedDict):
    """A support ticket."""

    subject: str
    """One line that says what the problem is."""
    body: str
    """The customer's full message."""


@toolcall.tool
def ping() -> str:
    """Check that the shop's backend answers.

    Returns:
        "pong".
    """
    return "pong"


@toolcall.tool
def open_ticket(ticket: Ticket, urgent: bool = False) -> str:
    """Open a support ticket for a human to answer.

    Use this when no other tool can help the customer, or when the customer
    asks for a person. Say in the subject what the customer wants, not what
    went wrong on our side.

    Args:
        ticket: the ticket to open
        urgent: page the support team on call instead of queueing it
    """
    return ticket["subject"] if urgent else ticket["body"]


@toolcall.tool
def search_faq(query: str, language: Literal["en", "de", "no"] = "en", limit: int = 5) -> list[str]:
    """Search the frequently asked questions.

    Args:
        query: words to look for, in the customer's language
        language: the language of the answers
        limit: at most this many answers
    """
    return [query, language][:limit]


@toolcall.tool
def opening_hours(store: str) -> str:
    """The opening hours of a store this week, holidays included.

    Args:
        store: the store's name, e.g. "Oslo Storo"
    """
    return store


@toolcall.tool
def escalate(ticket_id: str, note: str) -> None:
    """Hand a ticket over to the team lead, with a note that says why.

    Args:
        ticket_id: the ticket, as open_ticket returned it
        note: what the team lead needs to know
    """
'''

TOOLS_F = '''\
"""Delivery tools: they take types from both shared modules."""

import toolcall
from pkg.geo import Area, Coordinates, Region
from pkg.types_ import Address, Order


@toolcall.tool
def plan_delivery(order: Order, area: Area) -> str:
    """Plan the delivery of an order within an area.

    The plan assigns the order to a route of the area's depot and picks the
    earliest slot the route has; an order outside the area is refused.

    Args:
        order: the order to deliver
        area: the delivery area the order's address lies in
    """
    return order["customer"]["name"] + str(area.radius_km)


@toolcall.tool
def nearest_depot(where: Coordinates, region: Region = Region.EU) -> str:
    """Find the depot nearest to a point.

    Args:
        where: the point, e.g. the customer's address geocoded
        region: the region whose depots to consider
    """
    return f"{where['lat']},{where['lon']},{region.value}"


@toolcall.tool
def delivery_window(address: Address, region: Region | None = None, days: int = 7) -> list[str]:
    """The delivery slots open for an address over the next days.

    Args:
        address: where to deliver
        region: the address's region, when the caller knows it already
        days: how many days ahead to look (1-14)
    """
    return [address["city"]] * days if region is None else []
'''

SOURCES = {
    "pyproject.toml": PYPROJECT,
    "pkg/__init__.py": '"""A small shop."""\n',
    "pkg/types_.py": TYPES,
    "pkg/geo.py": GEO,
    "pkg/tools_a.py": TOOLS_A,
    "pkg/tools_b.py": TOOLS_B,
    "pkg/tools_c.py": TOOLS_C,
    "pkg/tools_d.py": TOOLS_D,
    "pkg/tools_e.py": TOOLS_E,
    "pkg/tools_f.py": TOOLS_F,
}

#: Each tool module's cache file, and the tools it holds in declaration order.
EXPECTED = {
    "pkg/__toolcall__/tools_a.json": ["create_order", "cancel_order", "list_orders"],
    "pkg/__toolcall__/tools_b.json": ["find_customer", "update_address"],
    "pkg/__toolcall__/tools_c.json": ["charge", "refund", "convert_currency", "invoice_total"],
    "pkg/__toolcall__/tools_d.json": ["restock"],
    "pkg/__toolcall__/tools_e.json": ["ping", "open_ticket", "search_faq", "opening_hours", "escalate"],
    "pkg/__toolcall__/tools_f.json": ["plan_delivery", "nearest_depot", "delivery_window"],
}

MODULE_FILES = sorted(name for name in SOURCES if name.endswith(".py"))

_CACHE_DIRS = itertools.count()

Files = dict[str, bytes]


class Checkout:
    """A copy of the project in ``root``; ``mypy`` runs there with a persistent cache beside it (warm runs)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        for name, text in SOURCES.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        # Outside the project, so "every file of the project" is the project's own.
        self.mypy_cache = root.parent / f"{root.name}.mypy_cache"

    def mypy(self, *targets: str, cold: bool = False) -> subprocess.CompletedProcess[str]:
        """``mypy -v --cache-dir ... TARGETS`` (default ``-p pkg``); ``cold``: a fresh mypy cache of its own."""
        cache = self.root.parent / f"{self.root.name}.cold-{next(_CACHE_DIRS)}" if cold else self.mypy_cache
        command = [sys.executable, "-m", "mypy", "-v", "--cache-dir", str(cache), *(targets or ("-p", "pkg"))]
        result = subprocess.run(
            command, cwd=self.root, env=environment(), capture_output=True, text=True, timeout=600, check=False
        )
        assert result.returncode in (0, 1), result.stdout + _plugin_log(result)
        assert "INTERNAL ERROR" not in result.stderr, result.stderr[-5000:]
        assert "Traceback" not in result.stderr, result.stderr[-5000:]
        return result

    def cold(self, *targets: str) -> Files:
        """The cache files of a cold run: no cache file, a fresh mypy cache."""
        self.drop_cache_files()
        self.mypy(*targets, cold=True)
        return self.cache_files()

    def cache_files(self) -> Files:
        """Each ``__toolcall__/*.json`` of the project (by ``/``-separated relative path) and its bytes."""
        return {
            path.relative_to(self.root).as_posix(): path.read_bytes()
            for path in sorted(self.root.rglob("__toolcall__/*.json"))
        }

    def drop_cache_files(self) -> None:
        for directory in self.root.rglob("__toolcall__"):
            shutil.rmtree(directory)

    def edit(self, name: str, old: str, new: str) -> None:
        """Replace ``old`` by ``new`` in a file, moving its mtime on (mypy's whole-second check)."""
        path = self.root / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} in {name}"
        before = path.stat().st_mtime_ns
        path.write_text(text.replace(old, new), encoding="utf-8")
        later = max(path.stat().st_mtime_ns, before + 2_000_000_000)
        os.utime(path, ns=(later, later))


def _plugin_log(result: subprocess.CompletedProcess[str]) -> str:
    return "\n".join(line for line in result.stderr.splitlines() if "toolcall" in line)[-5000:]


def _diff(name: str, expected: bytes, actual: bytes, limit: int = 60) -> str:
    """A unified diff of one file's two versions, at most ``limit`` lines.

    Re-indented (key order kept) when a differing line is too long to read:
    the file writes each schema and IR compactly on one line.
    """

    def lines(data: bytes, *, indent: bool) -> list[str]:
        text = data.decode("utf-8", "replace")
        if indent:
            with contextlib.suppress(ValueError):
                text = json.dumps(json.loads(text), indent=1, ensure_ascii=False) + "\n"
        return text.splitlines()

    def unified(indent: bool) -> list[str]:
        before, after = lines(expected, indent=indent), lines(actual, indent=indent)
        return list(difflib.unified_diff(before, after, f"{name} (cold run)", f"{name} (this run)", n=2, lineterm=""))

    diff = unified(indent=False)
    if diff and max(map(len, diff)) > 240:
        diff = unified(indent=True) or diff  # the same data laid out otherwise: the raw diff it is
    if not diff:
        return "(the texts differ in their bytes only: encoding or line ends)"
    shown = [line if len(line) <= 400 else line[:400] + " [...]" for line in diff[:limit]]
    if len(diff) > limit:
        shown.append(f"[... {len(diff) - limit} more diff lines]")
    return "\n".join(shown)


def assert_same(actual: Files, expected: Files, case: str) -> None:
    """Every cache file byte for byte as in ``expected``, else which differ and a diff of the first."""
    if actual == expected:
        return
    missing = sorted(expected.keys() - actual.keys())
    extra = sorted(actual.keys() - expected.keys())
    differing = [name for name in sorted(expected.keys() & actual.keys()) if expected[name] != actual[name]]
    message = [f"{case}: the cache files are not the cold run's bytes"]
    if missing:
        message.append(f"missing: {missing}")
    if extra:
        message.append(f"not written by the cold run: {extra}")
    if differing:
        message.append(f"differing: {differing}")
        message.append(_diff(differing[0], expected[differing[0]], actual[differing[0]]))
    pytest.fail("\n".join(message))


def assert_no_trace_of_the_machine(files: Files, *roots: Path) -> None:
    """No absolute path, temporary directory, user or host name in any cache file."""
    forbidden = {str(tempfile.gettempdir()), str(Path.home()), os.path.expanduser("~")}
    for root in roots:
        forbidden |= {str(root), str(root.resolve()), root.as_posix()}
        temporary = Path(tempfile.gettempdir()).resolve()
        if root.resolve().is_relative_to(temporary):  # the names of the temporary directories
            forbidden |= {part for part in root.resolve().relative_to(temporary).parts if len(part) >= 4}
    words = {getpass.getuser(), socket.gethostname(), socket.gethostname().split(".")[0]}
    for name, data in files.items():
        text = data.decode("utf-8")
        for needle in sorted(forbidden):
            assert needle not in text, f"{name} holds {needle!r}"
        for word in sorted(w for w in words if w):
            assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), f"{name} holds the name {word!r}"
        for value in _strings(json.loads(text)):
            assert not value.startswith(("/", "\\", "~")), f"{name} holds the absolute path {value!r}"
            assert not re.match(r"[A-Za-z]:[\\/]", value), f"{name} holds the absolute path {value!r}"
            assert "/tmp" not in value, f"{name} holds {value!r}"
            assert "pytest-of" not in value, f"{name} holds {value!r}"


def _strings(value: object) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Files:
    """The cache files of a cold run of ``mypy -p pkg`` over a fresh checkout."""
    checkout = Checkout(tmp_path_factory.mktemp("baseline") / "ck-q7z")
    files = checkout.cold()
    assert list(files) == sorted(EXPECTED), list(files)
    assert_no_trace_of_the_machine(files, checkout.root)
    return files


@pytest.fixture
def checkout(tmp_path: Path) -> Checkout:
    return Checkout(tmp_path / "ck-q7z")


def _tool_name(entry: dict[str, Any]) -> str:
    """A cache entry's tool name: a described tool's is in its IR, a refused one's beside it."""
    name = entry["name"] if "name" in entry else entry["ir"][0]  # a Tool's first field
    assert isinstance(name, str), entry
    return name


def test_the_cold_run_writes_each_tool_module_its_tools_in_order(baseline: Files) -> None:
    for name, tools in EXPECTED.items():
        content = json.loads(baseline[name])
        assert [_tool_name(entry) for entry in content["tools"]] == tools, name
    sources = json.loads(baseline["pkg/__toolcall__/tools_f.json"])["sources"]
    assert list(sources) == ["pkg.geo", "pkg.tools_f", "pkg.types_"]


def test_cold_runs_give_the_same_bytes(checkout: Checkout, baseline: Files) -> None:
    first = checkout.cold()
    assert_same(first, baseline, "a second cold run")
    assert_same(checkout.cold(), first, "a cold run again in the same checkout")


def test_a_cold_mypy_cache_over_current_files_keeps_them(checkout: Checkout, baseline: Files) -> None:
    # A CI checkout that commits the files: a fresh mypy cache, the cache files there.
    checkout.cold()
    checkout.mypy(cold=True)
    assert_same(checkout.cache_files(), baseline, "a cold mypy cache over current cache files")


def test_a_warm_run_changes_nothing(checkout: Checkout, baseline: Files) -> None:
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "the first run with a persistent mypy cache")
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "a warm run, nothing changed")


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        ("tools_c", "Refund an order, in full or in part.", "Refund an order, to the card it was paid with."),
        # The module's other tools take types from pkg.geo and pkg.types_: their entries are kept.
        ("tools_f", "Plan the delivery of an order within an area.", "Plan an order's delivery in an area."),
    ],
    ids=["tools_c", "tools_f"],
)
def test_a_tool_docstring_edited_then_reverted(
    checkout: Checkout, baseline: Files, module: str, old: str, new: str
) -> None:
    checkout.mypy()
    checkout.edit(f"pkg/{module}.py", old, new)
    checkout.mypy()
    assert checkout.cache_files()[f"pkg/__toolcall__/{module}.json"] != baseline[f"pkg/__toolcall__/{module}.json"]
    checkout.edit(f"pkg/{module}.py", new, old)
    checkout.mypy()
    assert_same(
        checkout.cache_files(), baseline, f"a docstring of a tool of {module} edited, then reverted (warm runs)"
    )


def test_a_shared_type_edited_then_reverted(checkout: Checkout, baseline: Files) -> None:
    checkout.mypy()
    # The field's docstring is its schema's description: every module that takes an Address changes.
    old, new = '"""The city or town."""', '"""The city, town or village."""'
    checkout.edit("pkg/types_.py", old, new)
    checkout.mypy()
    edited = checkout.cache_files()
    for name in ("tools_b", "tools_f"):
        assert edited[f"pkg/__toolcall__/{name}.json"] != baseline[f"pkg/__toolcall__/{name}.json"], name
    checkout.edit("pkg/types_.py", new, old)
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "a shared type's field docstring edited, then reverted (warm runs)")


def test_a_shared_type_changed_then_reverted(checkout: Checkout, baseline: Files) -> None:
    # A change mypy sees (the interface of types_ changes): every importer is checked again.
    checkout.mypy()
    old, new = '    currency: str = "EUR"\n', '    currency: str = "EUR"\n    rounding: int = 2\n'
    checkout.edit("pkg/types_.py", old, new)
    checkout.mypy()
    assert checkout.cache_files()["pkg/__toolcall__/tools_c.json"] != baseline["pkg/__toolcall__/tools_c.json"]
    checkout.edit("pkg/types_.py", new, old)
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "a field added to a shared dataclass, then removed (warm runs)")


@pytest.mark.parametrize("order", ["reversed", "shuffled"])
def test_the_order_of_the_files_given_to_mypy(checkout: Checkout, baseline: Files, order: str) -> None:
    files = (
        MODULE_FILES[::-1] if order == "reversed" else random.Random(20240501).sample(MODULE_FILES, len(MODULE_FILES))
    )
    assert files != MODULE_FILES
    assert_same(checkout.cold(*files), baseline, f"a cold run given the module files {order}: {files}")


@pytest.mark.skipif(MYPY < (2, 0), reason="--num-workers is new in mypy 2.0")
def test_parallel_workers(checkout: Checkout, baseline: Files) -> None:
    # mypy 2.4's --num-workers: modules checked in other processes, finished in another order.
    assert_same(checkout.cold("--num-workers", "2", "-p", "pkg"), baseline, "a cold run with two mypy workers")


def test_a_warm_run_after_every_file_is_touched(checkout: Checkout, baseline: Files) -> None:
    checkout.mypy()
    later = max(p.stat().st_mtime_ns for p in checkout.root.rglob("*")) + 5_000_000_000
    for path in checkout.root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(later, later))
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "a warm run after touching every file (contents unchanged)")


def test_one_module_checked_first_then_the_package(checkout: Checkout, baseline: Files) -> None:
    checkout.mypy("pkg/tools_a.py")
    assert list(checkout.cache_files()) == ["pkg/__toolcall__/tools_a.json"]
    checkout.mypy()
    assert_same(checkout.cache_files(), baseline, "mypy pkg/tools_a.py, then mypy -p pkg (one mypy cache)")


def test_two_checkouts_in_different_directories(tmp_path: Path, baseline: Files) -> None:
    short = Checkout(tmp_path / "c7")
    long = Checkout(tmp_path / "a-much-longer-directory-name" / "nested" / "deeper" / "ck-another-q7z")
    near, far = short.cold(), long.cold()
    assert_no_trace_of_the_machine(near, short.root)
    assert_no_trace_of_the_machine(far, long.root)
    assert_same(far, near, f"a cold run in {long.root} against one in {short.root}")
    assert_same(near, baseline, "a cold run in another directory")


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("pkg/tools_e.py", "Check that the shop's backend answers.", "Check that the shop's backend is up."),
        ("pkg/geo.py", '"""The radius, in kilometres."""', '"""The radius in km."""'),
        ("pkg/types_.py", "    tags: NotRequired[list[str]]\n", "    tags: NotRequired[list[str]]\n    vip: bool\n"),
        # Layout only: no schema changes, every tool of the importers keeps its IR (and its entry).
        ("pkg/types_.py", '"""Types the shop', '# Shared by the tools.\n"""Types the shop'),
    ],
    ids=["tool-docstring", "shared-field-docstring", "shared-field-added", "shared-comment"],
)
def test_a_warm_run_after_an_edit_is_a_cold_run(checkout: Checkout, name: str, old: str, new: str) -> None:
    checkout.mypy()
    checkout.edit(name, old, new)
    checkout.mypy()
    warm = checkout.cache_files()
    assert_same(warm, checkout.cold(), f"a warm run after editing {name} (not reverted), against a cold run")


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("pkg/tools_f.py", "Find the depot nearest to a point.", "Find the nearest depot."),
        ("pkg/types_.py", '"""The city or town."""', '"""The city, town or village."""'),
    ],
    ids=["tool-docstring", "shared-field-docstring"],
)
def test_a_cold_mypy_cache_over_stale_files_is_a_cold_run(checkout: Checkout, name: str, old: str, new: str) -> None:
    # A CI run over a commit whose sources moved on without its cache files: the unchanged tools'
    # records are replayed from the files, the changed ones analysed again.
    checkout.cold()
    checkout.edit(name, old, new)
    checkout.mypy(cold=True)
    over_stale = checkout.cache_files()
    assert_same(over_stale, checkout.cold(), f"a cold mypy cache over the files from before editing {name}")
