"""Fuzzing ``run``: whatever the caller passes, it returns ``Ok`` or ``Err`` and never raises.

Arguments, argument values and tool names are drawn from arbitrary JSON-like
data (None, bools, ints of any size, floats with nan and infinities, strings
with lone surrogates, lists, dicts with non-string keys) and from Python
objects no JSON decoder makes: sets, tuples, bytes, cycles, subclasses of
the JSON types, objects whose ``__eq__``, ``__hash__``, ``__str__`` and
``__repr__`` raise, integers too long for ``str()``, lists nested 100000
deep. Every ``Err`` must survive ``json.dumps(err.error.to_json())`` and
``str(err.error)``.

The tools are the whole corpus and ``tests.semantics_samples``: none of their
bodies raises a ``BaseException`` (``KeyboardInterrupt`` and friends are
meant to propagate).
"""

from __future__ import annotations

import importlib
import json
import logging
import sys
import warnings
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolcall
from tests.corpus import MODULES
from tests.tool_errors import ToolErrors
from toolcall import ToolcallWarning, errors
from toolcall._dispatch.result import Err, Ok
from toolcall._toolset.toolset import as_toolset, loaded_tools

SOURCES: list[ModuleType] = [importlib.import_module(m) for m in [*MODULES, "tests.semantics_samples"]]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ToolcallWarning)  # the corpus's findings are not the point here
    #: (module, tool name, its wire parameter names), for every tool.
    TOOLS: list[tuple[ModuleType, str, tuple[str, ...]]] = [
        (module, loaded.name, tuple(p.name for p in loaded.ir.parameters if not p.injected))
        for module in SOURCES
        for loaded in loaded_tools(as_toolset(module))
    ]
#: Each tool's own code object, to tell a ``Raised`` of the tool from one of the dispatcher.
CODES = {loaded.name: loaded.function.__code__ for module in SOURCES for loaded in loaded_tools(as_toolset(module))}
#: A value for every injected parameter of the corpus.
CONTEXT = {"db": "<db>", "user": "<user>"}

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


_TOOL_ERRORS = ToolErrors()


@pytest.fixture(autouse=True, scope="module")
def _capture_tool_errors() -> Iterator[None]:
    logger = logging.getLogger("toolcall")
    logger.addHandler(_TOOL_ERRORS)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(_TOOL_ERRORS)


def _raised_by(code: Any) -> bool:
    """Whether the last logged exception went through the tool's own frame (not only the dispatcher's)."""
    record = _TOOL_ERRORS.records[-1] if _TOOL_ERRORS.records else None
    tb = record.exc_info[2] if record is not None and record.exc_info else None
    while tb is not None:
        if tb.tb_frame.f_code is code:
            return True
        tb = tb.tb_next
    return False


# -- hostile objects ----------------------------------------------------------------------------


class HostileError(Exception):
    """What the hostile objects raise."""


def _hostile(*_: object) -> Any:
    raise HostileError("hostile")


class Hostile:
    """Raises from every special method a dispatcher might touch."""

    __eq__ = __ne__ = __lt__ = __hash__ = __str__ = __repr__ = __bool__ = __len__ = __iter__ = _hostile  # type: ignore[assignment]
    __int__ = __index__ = __float__ = __format__ = __getitem__ = __contains__ = _hostile  # type: ignore[assignment]


class HostileKey:
    """Hashes like a real parameter name (so a dict lookup of that name compares), then raises on ``==``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __hash__(self) -> int:
        return hash(self.name)

    __eq__ = __str__ = __repr__ = _hostile  # type: ignore[assignment]


class HostileStr(str):
    """A str whose comparison, hash (after construction), str and repr raise."""

    __eq__ = __ne__ = __str__ = __repr__ = __format__ = _hostile  # type: ignore[assignment]

    def __hash__(self) -> int:
        return str.__hash__(self)


class HostileInt(int):
    __str__ = __repr__ = __int__ = __index__ = __float__ = __eq__ = _hostile  # type: ignore[assignment]
    __hash__ = int.__hash__


class HostileFloat(float):
    __str__ = __repr__ = __int__ = __float__ = __eq__ = is_integer = _hostile  # type: ignore[assignment]
    __hash__ = float.__hash__


class HostileDict(dict):  # type: ignore[type-arg]
    __repr__ = __iter__ = __len__ = __getitem__ = __contains__ = items = keys = _hostile  # type: ignore[assignment]


class HostileList(list):  # type: ignore[type-arg]
    __repr__ = __iter__ = __len__ = __getitem__ = _hostile  # type: ignore[assignment]


def nested(depth: int, leaf: Any = 1) -> Any:
    """A list ``depth`` levels deep (built iteratively)."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_dict(depth: int) -> Any:
    value: Any = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def _cycle() -> list[Any]:
    loop: list[Any] = [1]
    loop.append(loop)
    return loop


def _dict_cycle() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    return loop


DEEP = nested(100_000)
HUGE_INT = 10**5000  # beyond ``str()``'s default 4300-digit limit

PYTHON_OBJECTS: list[Any] = [
    {1, 2},
    frozenset({"a"}),
    (1, "a"),
    (),
    b"bytes",
    bytearray(b"x"),
    memoryview(b"m"),
    1j,
    Decimal("1.5"),
    Decimal("NaN"),
    Fraction(1, 3),
    object(),
    Hostile(),
    HostileStr("x"),
    HostileInt(5),
    HostileFloat(1.5),
    HostileDict(a=1),
    HostileList([1]),
    int,
    len,
    lambda: None,
    range(3),
    Ellipsis,
    NotImplemented,
    _cycle(),
    _dict_cycle(),
    HUGE_INT,
    -HUGE_INT,
    "\ud800" * 3,
    "x" * 100_000,
    DEEP,
    nested_dict(5_000),
]

# -- strategies ---------------------------------------------------------------------------------

_TEXT = st.text(st.characters(exclude_categories=()), max_size=8) | st.sampled_from(["\ud800", "a\udfff", "ok"])
_INTEGERS = st.integers() | st.sampled_from([2**53 + 1, 2**63, -(2**63) - 1, 2**1100, -(10**400)])
JSON_SCALARS = st.none() | st.booleans() | _INTEGERS | st.floats() | _TEXT
_KEYS = _TEXT | st.integers() | st.none() | st.booleans() | st.floats() | st.tuples(st.integers())
JSON_LIKE = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=12,
)
# By index: Hypothesis shows a strategy's elements in its repr, and some of these raise from repr.
_OBJECTS = st.integers(0, len(PYTHON_OBJECTS) - 1).map(lambda i: PYTHON_OBJECTS[i])
ANYTHING = st.recursive(
    JSON_SCALARS | _OBJECTS,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(_KEYS, children, max_size=3)
        | st.tuples(children, children)
        | st.frozensets(JSON_SCALARS.filter(lambda x: x == x), max_size=3)  # nan != nan: not hashable as meant
    ),
    max_leaves=8,
)
_TOOLS = st.sampled_from(TOOLS)


@st.composite
def named_arguments(draw: Any, parameters: tuple[str, ...]) -> dict[Any, Any]:
    """Some of the tool's own names with arbitrary values, sometimes with extra (or hostile) keys."""
    names = draw(st.lists(st.sampled_from(parameters), unique=True)) if parameters else []
    args: dict[Any, Any] = {name: draw(ANYTHING) for name in names}
    extra = draw(st.sampled_from(["none", "none", "unknown", "non-str", "hostile-key", "injected"]))
    if extra == "unknown":
        args[draw(_TEXT)] = draw(ANYTHING)
    elif extra == "non-str":
        args[draw(_KEYS.filter(lambda k: not isinstance(k, str) and k == k))] = 1
    elif extra == "hostile-key":  # (a dict cannot hold it beside the name it collides with)
        name = parameters[0] if parameters else "x"
        args.pop(name, None)
        args[HostileKey(name)] = 1
    elif extra == "injected":
        args["db"] = "from the model"
    return args


# -- the checks ---------------------------------------------------------------------------------


#: The order of the problems ``ArgumentErrors`` holds (the class of anything else is a KeyError).
PROBLEM_RANKS: dict[type, int] = {
    errors.NonStringArguments: 0,
    errors.UnknownArguments: 1,
    errors.MissingArgument: 2,
    errors.InvalidArgument: 2,
    errors.ArgumentGap: 3,
}


def outcome(module: Any, name: Any, args: Any) -> Ok[Any] | Err:
    """``run``, which must return ``Ok`` or a well-formed ``Err`` and never raise."""
    _TOOL_ERRORS.records.clear()
    result = toolcall.run(module, name, args, context=CONTEXT)
    assert isinstance(result, (Ok, Err)), result
    if isinstance(result, Err):
        error = result.error
        assert isinstance(error, errors.ToolError.__args__), error  # type: ignore[attr-defined]
        if isinstance(error, errors.Raised):  # only the tool's own code may raise: bad input is never "Raised"
            assert _raised_by(CODES[name]), f"the dispatcher raised {error} for {name}"
        if isinstance(error, errors.ArgumentErrors):  # several problems, each one of its own, in order
            ranks = [PROBLEM_RANKS[type(problem)] for problem in error.errors]
            assert len(ranks) >= 2
            assert ranks == sorted(ranks), error
        text = json.dumps(error.to_json())
        assert json.loads(text)["error"]
        line = str(error)
        assert isinstance(line, str)
        assert line
        assert isinstance(str(result), str)
    return result


@SETTINGS
@given(tool=_TOOLS, args=ANYTHING | JSON_LIKE)
def test_any_arguments_object(tool: tuple[Any, str, tuple[str, ...]], args: Any) -> None:
    module, name, _ = tool
    result = outcome(module, name, args)
    if type(args) is not dict:
        assert isinstance(result, Err)
        assert isinstance(result.error, errors.InvalidArguments)


@SETTINGS
@given(data=st.data())
def test_any_argument_values(data: st.DataObject) -> None:
    module, name, parameters = data.draw(_TOOLS, label="tool")
    outcome(module, name, data.draw(named_arguments(parameters), label="args"))


@SETTINGS
@given(data=st.data())
def test_json_argument_values(data: st.DataObject) -> None:
    module, name, parameters = data.draw(_TOOLS, label="tool")
    args = {p: data.draw(JSON_LIKE, label=p) for p in parameters}
    outcome(module, name, args)


@SETTINGS
@given(name=ANYTHING | st.integers(0, 1).map(lambda i: [HostileKey, HostileStr][i]("get_weather")))
def test_any_tool_name(name: Any) -> None:
    result = outcome(SOURCES[0], name, {"city": "Oslo"})
    if isinstance(result, Err):
        assert isinstance(result.error, errors.UnknownTool)


@pytest.mark.parametrize("value", PYTHON_OBJECTS, ids=lambda v: type(v).__name__)
def test_each_python_object_everywhere(value: Any) -> None:
    """Each object as the arguments, as every argument of every tool, and as the tool name."""
    for module, name, parameters in TOOLS:
        outcome(module, name, value)
        outcome(module, name, dict.fromkeys(parameters, value))
    outcome(SOURCES[0], value, {})


# -- deep input: the recursion limit ends as an error ----------------------------------------------


@pytest.mark.parametrize(
    ("module", "name", "argument"),
    [
        ("tests.semantics_samples", "t_any", "x"),
        ("tests.semantics_samples", "t_recursive_alias", "x"),
        ("tests.semantics_samples", "t_dict_any", "x"),
        ("tests.corpus.recursive", "save_document", "doc"),
    ],
)
def test_deep_nesting_is_too_deep(module: str, name: str, argument: str) -> None:
    value = nested(100_000) if name != "t_dict_any" else {"k": nested(100_000)}
    result = outcome(importlib.import_module(module), name, {argument: value})
    assert isinstance(result, Err)
    error = result.error
    assert isinstance(error, errors.InvalidArgument)
    assert error.name == argument
    assert error.reason.code == "too_deep"


def test_deep_dicts_are_too_deep() -> None:
    module = importlib.import_module("tests.corpus.recursive")
    result = outcome(module, "save_document", {"doc": nested_dict(100_000)})
    assert isinstance(result, Err)
    assert isinstance(result.error, errors.InvalidArgument)
    assert result.error.reason.code == "too_deep"


def test_recursion_limit_is_restored() -> None:
    limit = sys.getrecursionlimit()
    outcome(importlib.import_module("tests.semantics_samples"), "t_any", {"x": DEEP})
    assert sys.getrecursionlimit() == limit
    # and the dispatcher still works afterwards, at normal depth
    assert toolcall.run(importlib.import_module("tests.semantics_samples"), "t_int", {"x": 1}) == Ok(None)


def test_lone_surrogates_never_reach_a_tool() -> None:
    samples = importlib.import_module("tests.semantics_samples")
    for name, args in [
        ("t_str", {"x": "\ud800"}),
        ("t_any", {"x": {"k": ["\udfff"]}}),
        ("t_any", {"x": {"\udc80": 1}}),
        ("t_dict_int", {"x": {"\udc80": 1}}),
        ("t_kwargs_str", {"resource_id": "r", "\udc80": "v"}),
        ("t_kwargs_str", {"resource_id": "r", "k": "\udc80"}),
        ("t_path", {"x": "a\ud800"}),
    ]:
        result = outcome(samples, name, args)
        assert isinstance(result, Err), (name, args, result)
        assert isinstance(result.error, errors.InvalidArgument), (name, args, result)
        assert result.error.reason.code == "invalid_unicode"
