"""Default rules: a parameter's or field's default → the JSON default a schema shows.

Two steps, so the mypy plugin can reuse the second with the JSON values it
reads from source:

1. ``json_of(value)`` turns a live Python default into JSON (str, int,
   finite float, bool, lists and tuples as arrays, str-keyed dicts, Enum
   members as their values; dates, times, timedeltas, UUIDs and Decimals as
   the ``wire_strings.WireString`` the dispatcher parses back), or says why
   JSON cannot carry it: an int longer than the int-string limit (Python
   cannot write it), a container that holds itself, or one nested deeper
   than ``type_rules.MAX_DEPTH``, which the plugin does not read either.
2. ``fit_default(json_value, node, defs)`` checks that JSON value against the
   parameter's IR type (a Literal it does not list, an enum value not in the
   enum, a broken bound, the wrong JSON kind; a wire string fits only its own
   primitive) and converts it to its wire spelling (a ``string_integer``
   travels as its decimal string, a wire string as a plain string).

``default_for`` runs both and returns the ``ir.Default`` (or ``None``) with
the ``toolcall-default`` findings. ``None`` defaults are never emitted and
never reported; the parameter is optional either way.
"""

from __future__ import annotations

import enum
import math
import sys
from collections.abc import Callable, Mapping
from types import FunctionType
from typing import Final, Union

from toolcall import _ir as ir
from toolcall._findings import DEFAULT, Finding
from toolcall._records import Record, record, set_field
from toolcall._rules import bounds, messages
from toolcall._rules.type_rules import MAX_DEPTH
from toolcall._wire.scalars import SCALARS
from toolcall._wire.strings import NoOffset, NoWireString, WireString, wire_string

__all__ = [
    "MAX_SAFE_INTEGER",
    "Defaulted",
    "Fit",
    "Misfit",
    "NotJson",
    "default_for",
    "fit_default",
    "json_default",
    "json_of",
    "non_str_key",
]

#: Integers beyond ±(2**53 - 1) lose precision in JavaScript-based clients.
MAX_SAFE_INTEGER: Final = 2**53 - 1
#: Ints strictly between -this and this have at most 640 digits, the lowest int-string limit Python allows.
_SHORT_INT: Final = 10**640

_STRING_INTEGER_HINT: Final = 'use Annotated[int, Param(wire="string_integer")] to send it as a decimal string'


class NotJson(ValueError):
    """A default JSON cannot carry: ``str()`` says what it is, ``finding`` is the ``toolcall-default`` text."""

    def __init__(self, what: str, finding: str | None = None) -> None:
        super().__init__(what)
        self.finding: str = messages.default_not_json(what) if finding is None else finding


@record(frozen=True, slots=True)
class Defaulted(Record):
    """The outcome of the default rules for one default."""

    default: ir.Default | None
    findings: tuple[Finding, ...] = ()

    def __init__(self, default: ir.Default | None, findings: tuple[Finding, ...] = ()) -> None:
        set_field(self, "default", default)
        set_field(self, "findings", findings)


@record(frozen=True, slots=True)
class _Where(Record):
    tool: str | None
    parameter: str | None
    path: tuple[str | int, ...]

    def __init__(self, tool: str | None, parameter: str | None, path: tuple[str | int, ...]) -> None:
        set_field(self, "tool", tool)
        set_field(self, "parameter", parameter)
        set_field(self, "path", path)

    def finding(self, message: str) -> Finding:
        return Finding(DEFAULT, message, self.tool, self.parameter, self.path)


def default_for(
    value: object,
    node: ir.TypeNode,
    defs: Mapping[str, ir.TypeNode] | None = None,
    *,
    tool: str | None = None,
    parameter: str | None = None,
    path: tuple[str | int, ...] = (),
) -> Defaulted:
    """Apply the default rules to a live Python default ``value`` of type ``node``."""
    if value is None:
        return Defaulted(None)
    where = _Where(tool, parameter, path)
    try:
        converted = json_of(value)
    except NotJson as exc:
        return Defaulted(None, (where.finding(exc.finding),))
    return _fit_and_report(converted, node, defs or {}, where)


def json_default(
    value: ir.JsonValue,
    node: ir.TypeNode,
    defs: Mapping[str, ir.TypeNode] | None = None,
    *,
    tool: str | None = None,
    parameter: str | None = None,
    path: tuple[str | int, ...] = (),
) -> Defaulted:
    """Apply the default rules to a default already read as JSON (the mypy plugin's entry)."""
    if value is None:
        return Defaulted(None)
    where = _Where(tool, parameter, path)
    try:
        json_of(value)  # an int the plugin folded may be too long to write (``X: Final = 10**5000``)
    except NotJson as exc:
        return Defaulted(None, (where.finding(exc.finding),))
    return _fit_and_report(value, node, defs or {}, where)


def json_of(value: object) -> ir.JsonValue:
    """Convert a live default to JSON, or raise ``NotJson`` naming what it is.

    JSON values pass unchanged, so the plugin's values are checked by it too.
    """
    return _json_of(value, ())


def _json_of(value: object, holders: tuple[int, ...]) -> ir.JsonValue:
    """``json_of`` of a value inside the containers whose ids are ``holders`` (outermost first)."""
    if len(holders) > MAX_DEPTH:  # the plugin reads no deeper: both front ends drop the default
        raise NotJson(f"<a value nested more than {MAX_DEPTH} levels deep>")
    if isinstance(value, enum.Enum):
        return _json_of(value.value, holders)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return _writable(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(repr(value))
        return float(value)
    if isinstance(value, (list, tuple)):
        inside = _inside(value, holders)
        return [_json_of(item, inside) for item in value]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise non_str_key(_shown(key))
        inside = _inside(value, holders)
        return {key: _json_of(item, inside) for key, item in value.items()}
    return _wire_string(value)


def _inside(container: object, holders: tuple[int, ...]) -> tuple[int, ...]:
    """``holders`` with ``container`` added; ``NotJson`` if it holds itself (JSON has no cycles)."""
    if id(container) in holders:
        raise NotJson(f"<a {type(container).__name__} that contains itself>")
    return (*holders, id(container))


def _writable(value: int) -> int:
    """An int JSON text can show: Python writes no int longer than the int-string limit."""
    if -_SHORT_INT < value < _SHORT_INT:
        return value
    try:
        str(value)  # bounded work: Python refuses an int past the limit
    except ValueError:
        raise NotJson(_too_long_int()) from None
    return value


def _too_long_int() -> str:
    return f"<an int of more than {sys.get_int_max_str_digits()} digits>"


def _shown(value: object) -> str:
    """``repr(value)``, or what it is when that fails (an int too long to write, a tuple nested too deeply)."""
    try:
        return repr(value)
    except (ValueError, RecursionError):
        return _too_long_int() if isinstance(value, int) else f"<a {type(value).__qualname__}>"


def _wire_string(value: object) -> ir.JsonValue:
    """A default of another class: the wire string of a date, UUID, Decimal, ..., or ``NotJson``."""
    try:
        wire = wire_string(value)
    except NoOffset as exc:
        what = _short_repr(value)
        raise NotJson(what, messages.default_without_offset(what, exc.format_name)) from None
    except NoWireString as exc:
        raise NotJson(f"{_short_repr(value)} ({exc})") from None
    if wire is None:
        # A function by its name: its repr holds an address, which differs run to run (the plugin shows the name).
        shown = messages.shorten(value.__name__) if isinstance(value, FunctionType) else _short_repr(value)
        raise NotJson(f"{shown} (a {type(value).__qualname__})")
    return wire


def non_str_key(key_text: str) -> NotJson:
    """A dict default whose key JSON cannot carry; ``key_text`` is the first such key's ``repr``.

    Only the key is shown, as both front ends see it alike: the runtime the
    live key, the mypy plugin the key it read (the dict as written shows
    other spellings, ``date(...)`` for ``datetime.date(...)``).
    """
    return NotJson(f"dict (its key {messages.shorten(key_text)} is not a str)")


def _short_repr(value: object) -> str:
    return messages.shorten(_shown(value))


def _fit_and_report(
    value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode], where: _Where
) -> Defaulted:
    fitted = fit_default(value, node, defs)
    if isinstance(fitted, Misfit):
        message = (
            f"the default {_short_repr(value)} {fitted.reason}, so the schema omits it; fix the default or the type"
        )
        return Defaulted(None, (where.finding(message),))
    findings: tuple[Finding, ...] = ()
    if _has_unsafe_int(fitted.value):
        findings = (where.finding(f"the default {_short_repr(value)} is beyond ±(2**53 - 1); {_STRING_INTEGER_HINT}"),)
    return Defaulted(ir.Default.of(fitted.value), findings)


@record(frozen=True, slots=True)
class Fit(Record):
    """A default that fits its type; ``value`` is its wire spelling."""

    value: ir.JsonValue

    def __init__(self, value: ir.JsonValue) -> None:
        set_field(self, "value", value)


@record(frozen=True, slots=True)
class Misfit(Record):
    """A default outside its type's domain; ``reason`` completes "the default X ..."."""

    reason: str

    def __init__(self, reason: str) -> None:
        set_field(self, "reason", reason)


_Result = Union[Fit, Misfit]


def fit_default(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> Fit | Misfit:
    """Check ``value`` against ``node``: a ``Fit`` with its wire spelling, or a ``Misfit`` saying why not.

    ``defs`` resolves ``RefType`` names (``Tool.defs`` as a mapping).
    """
    return _FITTERS[node.kind](value, node, defs)


def _fit_primitive(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.Primitive)
    name = node.name
    if isinstance(value, WireString):
        # Only the primitive it spells parses it back to the default (a str
        # parameter would receive the string, a datetime one refuses a date).
        return Fit(str(value)) if value.kind == name else Misfit(f"is a {value.kind} value, not {_word(name)}")
    if name == "string_integer":
        return Fit(str(value)) if _is_int(value) else Misfit("is not an int")
    accepts = _PRIMITIVE_KINDS.get(name)
    if accepts is None:
        # datetime, UUID, Decimal, Path, ...: a fitting default is an instance of
        # that class (a wire string above); a plain JSON default is the wrong kind.
        return Misfit(_not_a(name))
    return Fit(value) if accepts(value) else Misfit(_not_a(name))


def _not_a(name: str) -> str:
    return f"is not {_word(name)}"


def _word(name: str) -> str:
    return _KIND_WORDS.get(name, f"a {name} value")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_PRIMITIVE_KINDS: Final[dict[str, Callable[[object], bool]]] = {
    "str": lambda v: isinstance(v, str),
    "int": _is_int,
    # An int default for a float parameter is fine (PEP 484's numeric tower).
    "float": lambda v: _is_int(v) or isinstance(v, float),
    "bool": lambda v: isinstance(v, bool),
    "none": lambda v: v is None,
}
_KIND_WORDS: Final = {"str": "a str", "int": "an int", "float": "a number", "bool": "a bool", "none": "None"}


def _same_scalar(a: object, b: object) -> bool:
    # 1 == True and 1 == 1.0 in Python, but they are different JSON values here.
    return type(a) is type(b) and a == b


def _fit_choice(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, (ir.LiteralType, ir.EnumType))
    if any(_same_scalar(value, allowed) for allowed in node.values):
        return Fit(value)
    listed = ", ".join(repr(v) for v in node.values)
    return Misfit(f"is not one of {listed}")


def _fit_array(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.ArrayType)
    if not isinstance(value, list):
        return Misfit("is not a list")
    items: list[ir.JsonValue] = []
    for index, item in enumerate(value):
        fitted = fit_default(item, node.items, defs)
        if isinstance(fitted, Misfit):
            return Misfit(f"has an item {_short_repr(item)} (at {index}) that {fitted.reason}")
        items.append(fitted.value)
    if node.container in ("set", "frozenset") and len({ir.canonical_json(i) for i in items}) != len(items):
        return Misfit("has duplicate items")
    return Fit(items)


def _fit_tuple(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.TupleType)
    if not isinstance(value, list) or len(value) != len(node.items):
        return Misfit(f"is not a tuple of {len(node.items)}")
    items: list[ir.JsonValue] = []
    for index, (item, item_type) in enumerate(zip(value, node.items, strict=True)):
        fitted = fit_default(item, item_type, defs)
        if isinstance(fitted, Misfit):
            return Misfit(f"has an item {_short_repr(item)} (at {index}) that {fitted.reason}")
        items.append(fitted.value)
    return Fit(items)


def _fit_map(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.MapType)
    if not isinstance(value, dict):
        return Misfit("is not a dict")
    out: dict[str, ir.JsonValue] = {}
    for key, item in value.items():
        fitted = fit_default(item, node.values, defs)
        if isinstance(fitted, Misfit):
            return Misfit(f"has a value at {key!r} that {fitted.reason}")
        out[key] = fitted.value
    return Fit(out)


def _fit_object(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.ObjectType)
    if node.shape != "typeddict":
        # A dataclass or NamedTuple default is an instance, never JSON.
        return Misfit(f"is not a {node.ref.rpartition(':')[2]} instance")
    if not isinstance(value, dict):
        return Misfit("is not a dict")
    fields = {f.name: f for f in node.fields}
    unknown = [key for key in value if key not in fields]
    if unknown:
        return Misfit(f"has unknown keys {', '.join(map(repr, unknown))}")
    missing = [f.name for f in node.fields if f.required and f.name not in value]
    if missing:
        return Misfit(f"lacks the required keys {', '.join(map(repr, missing))}")
    out: dict[str, ir.JsonValue] = {}
    for key, item in value.items():
        fitted = fit_default(item, fields[key].type, defs)
        if isinstance(fitted, Misfit):
            return Misfit(f"has a value at {key!r} that {fitted.reason}")
        out[key] = fitted.value
    return Fit(out)


def _fit_union(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.UnionType)
    reasons: list[str] = []
    for option in node.options:
        fitted = fit_default(value, option, defs)
        if isinstance(fitted, Fit):
            return fitted
        if isinstance(value, WireString) and _takes_text(str(value), option, defs):
            # The dispatcher tries a union's string-taking options in written order:
            # this one would get the string first (``str | date``), not its own option.
            return Misfit(f"would not arrive as itself: an earlier option of the union takes {str(value)!r}")
        reasons.append(fitted.reason)
    return Misfit(" and ".join(dict.fromkeys(reasons)))


def _takes_text(text: str, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> bool:
    """Whether the dispatcher accepts the string ``text`` for ``node``."""
    if isinstance(fit_default(text, node, defs), Fit):  # str, a Literal or Enum listing it, Any, ...
        return True
    base = node.base if isinstance(node, ir.Constrained) else node
    if not isinstance(base, ir.Primitive):
        return False
    try:  # a string-carried primitive: what its coercer makes of the text
        parsed = SCALARS[base.name](text)
    except Exception:
        return False
    return not isinstance(node, ir.Constrained) or bounds.violation(parsed, text, node.constraints) is None


def _fit_ref(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.RefType)
    target = defs.get(node.name)
    # An unknown name cannot be checked; keep the default rather than guess.
    return Fit(_as_sent(value)) if target is None else fit_default(value, target, defs)


def _as_sent(value: ir.JsonValue) -> ir.JsonValue:
    """``value`` with each wire string as the plain string it is sent as."""
    if isinstance(value, WireString):
        return str(value)
    if isinstance(value, list):
        return [_as_sent(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_sent(item) for key, item in value.items()}
    return value


def _fit_any(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    # Any JSON value fits ``Any``; a custom schema is opaque to these rules. A
    # wire string does not: such a parameter would receive the plain string.
    wire = _first_wire_string(value)
    if wire is not None:
        verb = "is" if wire is value else "holds"
        return Misfit(f"{verb} a {wire.kind} value, which this type would receive as a plain string")
    return Fit(value)


def _first_wire_string(value: ir.JsonValue) -> WireString | None:
    if isinstance(value, WireString):
        return value
    items = value if isinstance(value, list) else value.values() if isinstance(value, dict) else ()
    return next((w for w in map(_first_wire_string, items) if w is not None), None)


def _fit_constrained(value: ir.JsonValue, node: ir.TypeNode, defs: Mapping[str, ir.TypeNode]) -> _Result:
    assert isinstance(node, ir.Constrained)
    fitted = fit_default(value, node.base, defs)
    if isinstance(fitted, Misfit):
        return fitted
    # Bounds apply to the Python value (an int for a string_integer, the Decimal
    # a wire string stands for); lengths and patterns to the value as sent,
    # exactly as the dispatcher checks them.
    python = value.value if isinstance(value, WireString) else value
    broken = bounds.violation(python, fitted.value, node.constraints)
    return fitted if broken is None else Misfit(f"breaks the constraint: {broken[1]}")


def _has_unsafe_int(value: ir.JsonValue) -> bool:
    if _is_int(value):
        assert isinstance(value, int)
        return abs(value) > MAX_SAFE_INTEGER
    if isinstance(value, list):
        return any(_has_unsafe_int(item) for item in value)
    if isinstance(value, dict):
        return any(_has_unsafe_int(item) for item in value.values())
    return False


_FITTERS: Final[dict[str, Callable[[ir.JsonValue, ir.TypeNode, Mapping[str, ir.TypeNode]], _Result]]] = {
    "primitive": _fit_primitive,
    "any": _fit_any,
    "literal": _fit_choice,
    "enum": _fit_choice,
    "array": _fit_array,
    "tuple": _fit_tuple,
    "map": _fit_map,
    "object": _fit_object,
    "union": _fit_union,
    "ref": _fit_ref,
    "custom": _fit_any,
    "constrained": _fit_constrained,
}
