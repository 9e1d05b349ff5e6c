"""Twenty realistic tools: the module that the ``emit`` and definition benchmarks use.

Every other library under test must accept these signatures too, so the
types stay within what pydantic, the MCP SDK and the anthropic SDK all
handle: bounds come from ``annotated_types`` (which toolcall and pydantic
both read) and ``TypedDict`` from ``typing_extensions`` (pydantic refuses
``typing.TypedDict`` before Python 3.12). ``run.py`` also execs this source
with ``@toolcall.tool`` swapped for another library's decorator, so each
tool is marked with exactly that line.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from typing import Annotated, Literal, NotRequired

from annotated_types import Ge, Interval, Le, Len
from typing_extensions import TypedDict

import toolcall


class Priority(str, Enum):
    """How urgent an issue is."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Attendee(TypedDict):
    """Someone invited to an event."""

    email: str
    optional: NotRequired[bool]


class LineItem(TypedDict):
    """One line of an order."""

    sku: str
    qty: Annotated[int, Ge(1)]
    unit_price: float


class Location(TypedDict):
    """A point on the map."""

    lat: Annotated[float, Interval(ge=-90, le=90)]
    lon: Annotated[float, Interval(ge=-180, le=180)]


@toolcall.tool
def get_weather(city: str, days: int = 3) -> dict[str, object]:
    """Get the forecast for a city.

    Args:
        city: city name, e.g. "Oslo"
        days: how many days ahead (1-7)
    """
    return {"city": city, "days": days, "temp": 21.5}


@toolcall.tool
def search_web(query: str, max_results: Annotated[int, Interval(ge=1, le=50)] = 10, safe: bool = True) -> list[str]:
    """Search the web and return result URLs.

    Args:
        query: what to search for
        max_results: how many results to return
        safe: filter explicit results
    """
    return [f"https://example.com/?q={query}"][:max_results]


@toolcall.tool
def convert_currency(amount: float, source: str, target: str) -> float:
    """Convert an amount between currencies at today's rate.

    Args:
        amount: the amount in the source currency
        source: ISO 4217 code, e.g. "EUR"
        target: ISO 4217 code, e.g. "NOK"
    """
    return amount * 11.5


@toolcall.tool
def create_event(title: str, start: datetime, minutes: int, attendees: list[Attendee]) -> str:
    """Create a calendar event and invite people.

    Args:
        title: the event's title
        start: when it starts (ISO 8601)
        minutes: how long it lasts
        attendees: who is invited
    """
    return f"event:{title}"


@toolcall.tool
def send_email(to: list[str], subject: str, body: str, cc: list[str] | None = None) -> bool:
    """Send an email.

    Args:
        to: recipient addresses
        subject: the subject line
        body: the message, plain text
        cc: addresses to copy
    """
    return True


@toolcall.tool
def list_files(directory: str, pattern: str = "*", recursive: bool = False) -> list[str]:
    """List files in a directory of the workspace.

    Args:
        directory: path relative to the workspace root
        pattern: a glob pattern
        recursive: include subdirectories
    """
    return []


@toolcall.tool
def read_file(path: str, offset: Annotated[int, Ge(0)] = 0, limit: Annotated[int, Ge(1)] = 4000) -> str:
    """Read part of a text file.

    Args:
        path: path relative to the workspace root
        offset: the first character to read
        limit: how many characters to read
    """
    return ""


@toolcall.tool
def create_issue(title: str, body: str, priority: Priority = Priority.NORMAL, labels: list[str] | None = None) -> int:
    """Open an issue in the tracker.

    Args:
        title: a one-line summary
        body: the details, Markdown
        priority: how urgent it is
        labels: labels to attach
    """
    return 1


@toolcall.tool
def lookup_user(user_id: int | None = None, email: str | None = None) -> dict[str, object]:
    """Find a user by id or email.

    Args:
        user_id: the numeric id
        email: the primary email address
    """
    return {"id": user_id, "email": email}


@toolcall.tool
def translate_text(text: str, target_language: Literal["en", "de", "fr", "es", "no", "ja"]) -> str:
    """Translate text into another language.

    Args:
        text: the text to translate
        target_language: the language to translate into
    """
    return text


@toolcall.tool
def book_table(restaurant: str, day: date, party_size: Annotated[int, Interval(ge=1, le=20)], time: str) -> str:
    """Book a restaurant table.

    Args:
        restaurant: the restaurant's name
        day: the date of the booking
        party_size: how many guests
        time: local time, "HH:MM"
    """
    return "confirmed"


@toolcall.tool
def get_stock_quote(symbol: Annotated[str, Len(1, 8)], exchange: Literal["NYSE", "NASDAQ", "OSE"] = "NYSE") -> float:
    """Get the latest price of a stock.

    Args:
        symbol: the ticker symbol
        exchange: where it trades
    """
    return 101.25


@toolcall.tool
def schedule_reminder(message: str, at: datetime, repeat: Literal["never", "daily", "weekly"] = "never") -> str:
    """Remind the user of something later.

    Args:
        message: what to say
        at: when to say it
        repeat: how often to repeat
    """
    return "scheduled"


@toolcall.tool
def query_database(
    sql: str, parameters: list[str] | None = None, row_limit: Annotated[int, Le(1000)] = 100
) -> list[dict[str, object]]:
    """Run a read-only SQL query.

    Args:
        sql: one SELECT statement
        parameters: values for the statement's placeholders
        row_limit: the most rows to return
    """
    return []


@toolcall.tool
def resize_image(
    path: str, width: Annotated[int, Ge(1)], height: Annotated[int, Ge(1)], keep_aspect: bool = True
) -> str:
    """Resize an image in the workspace.

    Args:
        path: the image file
        width: the new width in pixels
        height: the new height in pixels
        keep_aspect: fit inside the box instead of stretching
    """
    return path


@toolcall.tool
def get_directions(
    origin: Location, destination: Location, mode: Literal["driving", "walking", "transit"] = "driving"
) -> list[str]:
    """Directions between two points.

    Args:
        origin: where to start
        destination: where to go
        mode: how to travel
    """
    return []


@toolcall.tool
def rate_product(product_id: str, stars: Annotated[int, Interval(ge=1, le=5)], review: str = "") -> bool:
    """Rate a product.

    Args:
        product_id: the product's id
        stars: from 1 to 5
        review: an optional review text
    """
    return True


@toolcall.tool
def search_flights(
    origin: str, destination: str, depart: date, return_date: date | None = None, passengers: int = 1
) -> list[str]:
    """Search for flights.

    Args:
        origin: IATA airport code
        destination: IATA airport code
        depart: the departure date
        return_date: the return date, for a round trip
        passengers: how many travellers
    """
    return []


@toolcall.tool
def set_thermostat(
    room: str, celsius: Annotated[float, Interval(ge=5, le=30)], mode: Literal["heat", "cool", "auto"] = "auto"
) -> str:
    """Set a room's thermostat.

    Args:
        room: the room's name
        celsius: the target temperature
        mode: heating, cooling or automatic
    """
    return room


@toolcall.tool
def place_order(customer_id: str, items: list[LineItem], express: bool = False) -> float:
    """Place an order and return its total.

    Args:
        customer_id: who is ordering
        items: what is ordered
        express: ship by express delivery
    """
    return sum(item["qty"] * item["unit_price"] for item in items)
