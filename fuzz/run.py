"""Fuzz target: ``toolcall.run`` and ``toolcall.arun`` over the rich-typed tools of ``fuzz.tools``.

``inputs()`` draws a ``Call``: which entry point, which tool (or an unknown
name), arguments well-formed for the tool's schema (``fuzz._schema``), and
changes to them. Some changes keep the arguments well-formed: values and
keys passed as subclasses of their JSON kinds (``str``, ``int``, ``float``,
``list``, ``dict`` subclasses, ``IntEnum`` members, ``OrderedDict``, and
subclasses whose own methods raise, which must never be called). The others
make them hostile: a value swapped for one of another kind, a huge integer,
nesting past the recursion limit, lone surrogates, C1 controls and bidi
overrides, NaN and infinities, a megabyte string, a set or a tuple; an
extra key, a non-string key, a key whose ``==`` raises; a required key left
out; arguments that are not an object at all. The hostile values are drawn
by index, so a falsifying example prints even when a value's ``repr`` cannot.

``check`` makes the call and asserts the contract: nothing escapes (the
tool's own ``SystemExit`` is ``Exited``); a call finishes within ``BOUND``
seconds; well-formed arguments reach the tool (``Ok`` of the tool's result,
or its own ``Raised``/``Exited``); every value the tool received had its
annotated type exactly (``fuzz.tools.conforms``); every ``Err`` is one of
``toolcall.errors``, its ``str()`` one line of valid UTF-8 of at most
``MAX_MESSAGE_LENGTH`` characters with no control, format or separator
character shown raw, and its ``to_json()`` strict JSON.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import decimal
import enum
import json
import logging
import random
import time
import unicodedata
from typing import Any, get_args

from hypothesis import strategies as st

import toolcall
from fuzz import _schema, tools
from toolcall import Err, Ok, errors

__all__ = ["BOUND", "Call", "check", "inputs", "setup", "teardown"]

#: Seconds one call may take: far above any honest call, however hostile its arguments.
BOUND = 10.0
#: Characters no message may show raw: controls, format characters, separators, lone surrogates.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
ERROR_TYPES = frozenset(get_args(errors.ToolError))
SCHEMAS: dict[str, Any] = {d["name"]: d["inputSchema"] for d in toolcall.emit(tools, "mcp")}
#: The type of what each tool returns, to tell its result from anything else.
RETURNS: dict[str, type] = {
    "shapes": dict,
    "times": list,
    "nesting": dict,
    "unions": str,
    "echo": list,
    "awkward": object,
}


# -- subclasses of the JSON kinds ---------------------------------------------------------------------------


def _raises(*_: object) -> Any:
    raise RuntimeError("a method of the subclass was called")


class _Shown:
    """Shows a subclass instance as its class around its base's repr, so a falsifying example says what it was."""

    __slots__ = ()

    def __repr__(self) -> str:
        base = next(c for c in type(self).__mro__ if c in (str, int, float, list, dict))
        return f"{type(self).__name__}({base.__repr__(self)})"


class Text(_Shown, str):
    """A str subclass."""


class SealedText(_Shown, str):
    """A str subclass whose own methods raise (hash and ``==`` are str's, so it works as a key)."""

    __str__ = __len__ = __iter__ = __getitem__ = __format__ = encode = isascii = strip = split = _raises  # type: ignore[assignment]
    __hash__ = str.__hash__


class BrokenText(_Shown, str):
    """A str subclass whose ``==`` raises: as a key it breaks every lookup that meets it (hostile)."""

    __eq__ = __ne__ = _raises
    __hash__ = str.__hash__


class Number(_Shown, int):
    """An int subclass whose conversions raise."""

    __int__ = __index__ = __float__ = __str__ = __format__ = _raises


class Real(_Shown, float):
    """A float subclass whose conversions raise."""

    __int__ = __float__ = __str__ = __format__ = is_integer = _raises


class Items(_Shown, list):  # type: ignore[type-arg]
    """A list subclass."""


class SealedItems(_Shown, list):  # type: ignore[type-arg]
    """A list subclass whose own methods raise."""

    __iter__ = __len__ = __getitem__ = __contains__ = copy = index = count = _raises


class Fields(_Shown, dict):  # type: ignore[type-arg]
    """A dict subclass."""


class SealedFields(_Shown, dict):  # type: ignore[type-arg]
    """A dict subclass whose own methods raise, ``__missing__`` included."""

    __iter__ = __len__ = __getitem__ = __contains__ = __missing__ = keys = items = values = get = copy = _raises


class Level(enum.IntEnum):
    """An IntEnum whose members stand for the integers 0 to 3."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3


def _subclassed(value: Any, pick: random.Random, depth: int = 0) -> Any:
    """``value`` with some of its parts (and keys) as subclass instances of their kinds (the outer 50 levels)."""
    kind = type(value)
    if depth > 50 or id(value) in _HOSTILE_IDS:
        return value
    if kind is str:
        return pick.choice([value, Text(value), SealedText(value)])
    if kind is int:
        choices = [value, Number(value)] + ([Level(value)] if 0 <= value <= 3 else [])
        return pick.choice(choices)
    if kind is float:
        return pick.choice([value, Real(value)])
    if kind is list:
        items = [_subclassed(item, pick, depth + 1) for item in value]
        return pick.choice([items, Items(items), SealedItems(items)])
    if kind is dict:
        pairs = {_subclassed(k, pick, depth + 1): _subclassed(v, pick, depth + 1) for k, v in value.items()}
        return pick.choice([pairs, Fields(pairs), collections.OrderedDict(pairs), SealedFields(pairs)])
    return value


# -- hostile values, by index ------------------------------------------------------------------------------


def nested_dict(depth: int) -> dict[str, Any]:
    """A dict ``depth`` levels deep."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


class Color(enum.Enum):
    """A plain enum: its members are no JSON kind."""

    RED = "red"


HOSTILE: list[Any] = [
    10**5000,
    -(10**5000),
    2**64,
    float("nan"),
    float("inf"),
    float("-inf"),
    -0.0,
    "\ud800",
    "a\udfffb",
    "\u202eevil\u2066x\u2069",
    "\x9b31m\x1b[2J\x07",
    "\u2028\u2029\x85\r\n",
    "\ufeff\u200b\u200e\u200f\u061c",
    "\U000e0041\U000e007f",
    "x" * 1_000_000,
    "",
    True,
    None,
    1.5,
    [],
    {},
    tools.nested(100_000),
    tools.nested(1_000),
    nested_dict(5_000),
    [10**5000, "\ud800", float("nan")],
    {"k": "\ud800"},
    {1: 2},
    {None: 1, (1,): 2},
    {"\ud800\u202e": 1},
    list(range(100_000)),
    {f"k\u202e{i}": i for i in range(10_000)},
    Text("\u202e"),
    Number(10**5000),
    Real("nan"),
    SealedItems([1, "x"]),
    SealedFields(a=1),
    BrokenText("x"),
    (1, 2),
    {1, 2},
    b"bytes",
    object(),
    decimal.Decimal("1.5"),
    Color.RED,
    Level.TWO,
]
_HOSTILE_IDS = frozenset(map(id, HOSTILE))
#: Keys to add to the arguments (or to swap in for one of theirs).
HOSTILE_KEYS: list[Any] = [
    "\ud800",
    "\u202e\x9b",
    "x" * 10_000,
    1,
    None,
    1.5,
    float("nan"),
    (1,),
    10**5000,
    Text("extra"),
    BrokenText("extra"),
]
#: Tool names that are not a tool's.
ODD_NAMES: list[Any] = ["no_such_tool", "", "\u202e\ud800", "x" * 100_000, 1, None, ["shapes"], Text("shapes")]


# -- the inputs --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Call:
    """One call: ``how`` (``run`` or ``arun``), the tool name, well-formed arguments, and changes to them.

    Each change is a tuple: ``("subclass", seed)`` and ``("rekey", index, seed)`` keep the arguments
    well-formed; ``("swap", where, value)``, ``("add", key, value)``, ``("drop", index)`` and
    ``("replace", value)`` make them hostile (``value`` and ``key`` index ``HOSTILE`` and ``HOSTILE_KEYS``).
    """

    how: str
    tool: Any
    arguments: dict[str, Any]
    changes: tuple[tuple[Any, ...], ...] = ()

    @property
    def wellformed(self) -> bool:
        """Whether the tool is known and every change keeps the arguments valid."""
        return _known(self.tool) and all(change[0] in ("subclass", "rekey") for change in self.changes)

    def build(self) -> Any:
        """The arguments with the changes made (built anew for every call: a tool may keep what it gets)."""
        args: Any = json.loads(json.dumps(self.arguments))
        for change in self.changes:
            args = _CHANGES[change[0]](args, *change[1:])
        return args


def _swap(args: Any, where: int, value: int) -> Any:
    places = list(_places(args))
    if not places:
        return HOSTILE[value]
    container, key = places[where % len(places)]
    container[key] = HOSTILE[value]
    return args


def _places(value: Any, depth: int = 0) -> Any:
    """Every (container, key) in the arguments' outer 50 levels, depth first.

    Only the plain containers the schema made are walked: a hostile value swapped in is shared
    between calls and must not change (nor a list of 100,000 items be walked).
    """
    if depth > 50 or id(value) in _HOSTILE_IDS:
        return
    if type(value) is dict:
        for key in list(value):
            yield value, key
            yield from _places(value[key], depth + 1)
    elif type(value) is list:
        for index in range(len(value)):
            yield value, index
            yield from _places(value[index], depth + 1)


def _add(args: Any, key: int, value: int) -> Any:
    if type(args) is dict and id(args) not in _HOSTILE_IDS:
        # A key whose == raises may meet one equal to it: then the arguments stay as they were.
        with contextlib.suppress(RuntimeError):
            args[HOSTILE_KEYS[key]] = HOSTILE[value]
    return args


def _drop(args: Any, index: int) -> Any:
    if type(args) is dict and args and id(args) not in _HOSTILE_IDS:
        del args[list(args)[index % len(args)]]
    return args


def _rekey(args: Any, index: int, seed: int) -> Any:
    if type(args) is not dict or not args or id(args) in _HOSTILE_IDS or any(type(k) is not str for k in args):
        return args
    key = list(args)[index % len(args)]
    value = args.pop(key)
    args[random.Random(seed).choice([Text, SealedText])(key)] = value
    return args


def _subclass(args: Any, seed: int) -> Any:
    pick = random.Random(seed)
    if type(args) is not dict:
        return _subclassed(args, pick)
    out = {key: _subclassed(value, pick) for key, value in args.items()}
    return pick.choice([out, Fields(out), collections.OrderedDict(out), collections.defaultdict(list, out)])


_CHANGES: dict[str, Any] = {
    "subclass": _subclass,
    "rekey": _rekey,
    "swap": _swap,
    "add": _add,
    "drop": _drop,
    "replace": lambda args, value: HOSTILE[value],
}
_INDEX = st.integers(0, 2**16)
_CHANGE = st.one_of(
    st.tuples(st.just("subclass"), _INDEX),
    st.tuples(st.just("rekey"), _INDEX, _INDEX),
    st.tuples(st.just("swap"), _INDEX, st.integers(0, len(HOSTILE) - 1)),
    st.tuples(st.just("add"), st.integers(0, len(HOSTILE_KEYS) - 1), st.integers(0, len(HOSTILE) - 1)),
    st.tuples(st.just("drop"), _INDEX),
    st.tuples(st.just("replace"), st.integers(0, len(HOSTILE) - 1)),
)
_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {}


def _arguments(name: str) -> st.SearchStrategy[Any]:
    found = _STRATEGIES.get(name)
    if found is None:
        found = _STRATEGIES[name] = _schema.from_schema(SCHEMAS[name])
    return found


def _call(draw: Any) -> Call:
    name = draw(st.sampled_from(sorted(SCHEMAS)) | st.integers(0, len(ODD_NAMES) - 1).map(ODD_NAMES.__getitem__))
    arguments = draw(_arguments(name if _known(name) else draw(st.sampled_from(sorted(SCHEMAS)))))
    changes = draw(st.lists(_CHANGE, max_size=3).map(tuple))
    return Call(draw(st.sampled_from(["run", "arun"])), name, arguments, changes)


def inputs() -> st.SearchStrategy[Call]:
    """A call of a tool of ``fuzz.tools`` (or of an unknown name), with well-formed or hostile arguments."""
    return st.composite(_call)()


# -- the check ---------------------------------------------------------------------------------------------


def _known(name: Any) -> bool:
    """Whether ``name`` is the name of a tool (a str subclass instance is read as its str)."""
    return isinstance(name, str) and str.__str__(name) in SCHEMAS


def _dispatch(how: str, name: Any, args: Any) -> Any:
    if how == "run":
        return toolcall.run(tools, name, args)
    return asyncio.run(toolcall.arun(tools, name, args))


def check(call: Call) -> None:
    """Make the call; raise ``AssertionError`` where the dispatcher breaks its contract."""
    args = call.build()
    tools.VIOLATIONS.clear()
    started = time.monotonic()
    try:
        result = _dispatch(call.how, call.tool, args)
    except (Exception, SystemExit) as exc:
        raise AssertionError(f"{type(exc).__name__} escaped toolcall.{call.how}") from exc
    took = time.monotonic() - started
    assert took <= BOUND, f"the call took {took:.1f} s, more than {BOUND} s"
    assert not tools.VIOLATIONS, f"a tool received a value not of its annotated type: {tools.VIOLATIONS}"
    if isinstance(result, Ok):
        assert _known(call.tool), f"Ok from an unknown tool: {type(result.value).__name__}"
        expected = RETURNS[call.tool]
        assert isinstance(result.value, expected), f"Ok({type(result.value).__name__}) is not what the tool returns"
    else:
        assert isinstance(result, Err), f"run returned {type(result).__name__}, not Ok or Err"
        check_error(result.error)
        if call.wellformed:
            assert _the_tools_own(call, result.error), f"well-formed arguments were refused: {result.error}"


def _the_tools_own(call: Call, error: Any) -> bool:
    """Whether ``error`` is what the tool itself did (``awkward`` raises or exits when asked to)."""
    kind = call.arguments.get("kind")
    raised = kind == "raise" and isinstance(error, errors.Raised)
    return raised or (kind == "exit" and isinstance(error, errors.Exited))


def check_error(error: Any) -> None:
    """``error`` is one of ``toolcall.errors``, its text one bounded line showing nothing raw, its JSON strict."""
    assert type(error) in ERROR_TYPES, f"{type(error).__name__} is not a toolcall error"
    text = str(error)
    assert type(text) is str, f"the message is a {type(text).__name__}"
    assert text, "the message is empty"
    assert len(text) <= errors.MAX_MESSAGE_LENGTH, f"the message has {len(text)} characters"
    assert len(text.splitlines()) == 1, f"the message is not one line: {text!r}"
    text.encode("utf-8")  # a lone surrogate fails here
    raw = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in HIDDEN_CATEGORIES})
    assert not raw, f"the message shows {', '.join(raw)} raw: {text!r}"
    json.dumps(error.to_json(), allow_nan=False, ensure_ascii=False).encode("utf-8")


# -- the session -------------------------------------------------------------------------------------------

_LOGGER = logging.getLogger("toolcall")
_SAVED: list[Any] = []


def setup() -> None:
    """Keep the tracebacks ``run`` logs for the tools' own exceptions off the terminal."""
    _SAVED[:] = [_LOGGER.propagate, _LOGGER.level]
    _LOGGER.propagate = False
    _LOGGER.setLevel(logging.CRITICAL + 1)


def teardown() -> None:
    """Put the logger back."""
    if _SAVED:
        _LOGGER.propagate, level = _SAVED
        _LOGGER.setLevel(level)
