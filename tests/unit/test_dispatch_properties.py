"""Property tests: the dispatcher accepts what a tool's schema accepts, and refuses what it refuses.

For every tool of the corpus (``tests.corpus.MODULES``) and of
``tests.semantics_samples``, and for two schemas of it — the canonical one
(``toolcall.describe``) and the OpenAI strict one (``emit(fn, "openai",
strict=True)``, when the tool stayed strict) — hypothesis-jsonschema
generates argument objects, and ``jsonschema``'s Draft 2020-12 validator with
its format checker is the oracle:

- **accepted**: every value the schema accepts is accepted by ``run``: the
  result is ``Ok``, or ``Raised``/``Exited`` from the tool's own code, never
  an argument error;
- **mutated**: a valid value with one perturbation (a leaf of another type, a
  dropped key, an unknown key, a list wrapped around a value, a null, a
  duplicated item, a tuple of another length, a string with a trailing
  newline or a lone surrogate, ...) is refused by ``run`` exactly when the
  schema refuses it.

Where the two differ by design, the difference must be explained by one of
``EXCEPTIONS`` below (each one a precise predicate, and a bullet in
docs/dispatch-vs-schema.md); any other disagreement fails the test.
``test_each_exception_is_real`` pins one concrete case per exception, so the
list cannot outlive the behaviour it excuses.

Recursive schemas (``$ref`` cycles) are beyond hypothesis-jsonschema, so
their values are generated from the schema unrolled two levels deep (the
oracle still uses the real schema); ``GENERATION_GAPS`` lists the tools
skipped outright (none at present).
"""

from __future__ import annotations

import copy
import importlib
import json
import logging
import os
import re
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cached_property
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as _conjecture_utils
from hypothesis_jsonschema import _from_schema as _hjs_from_schema
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator, ValidationError

import toolcall
from tests.corpus import MODULES
from tests.paths import ROOT
from tests.tool_errors import ToolErrors
from toolcall import ToolcallWarning, errors
from toolcall import _ir as ir
from toolcall._dispatch.result import Err, Ok
from toolcall._render.definitions import render_tool
from toolcall._toolset.toolset import LoadedTool, as_toolset, loaded_tools
from toolcall._wire import isotime
from toolcall._wire.scalars import OUT_OF_PYTHON_RANGE

#: Left out of the fast loop (``-m "not slow"``): hypothesis over every tool of the corpus, in every variant.
pytestmark = pytest.mark.slow

# -- hypothesis-jsonschema on current Hypothesis, and faster ------------------------------------------------
#
# hypothesis-jsonschema 0.23.1 (the latest) draws object properties with
# ``while elements.more():`` on Hypothesis's private ``many`` helper, which
# newer Hypothesis releases replaced by ``with many(...) as e: for _ in e:``.
# This restores ``more()`` on top of the new protocol until upstream catches
# up; on a Hypothesis that still has it, nothing changes.

if not hasattr(_conjecture_utils.many, "more"):

    def _more(self: Any) -> bool:
        steps = self.__dict__.get("_compat_steps")
        if steps is None:
            self.__enter__()
            steps = self.__dict__["_compat_steps"] = iter(self)
        try:
            next(steps)
        except StopIteration:
            self.__exit__(None)
            return False
        return True

    _conjecture_utils.many.more = _more  # type: ignore[attr-defined]

# hypothesis-jsonschema builds a fresh strategy for each property of each
# object it draws (``merged_as_strategies``, canonicalising the schemas every
# time): most of this module's run time. The strategies are immutable, so
# they are built once per distinct schema list here.
_MERGED: dict[tuple[str, int, int], tuple[Any, Any, Any]] = {}
_merged_as_strategies = _hjs_from_schema.merged_as_strategies


def _cached_merged_as_strategies(schemas: list[Any], *, alphabet: Any, custom_formats: Any) -> Any:
    key = (json.dumps(schemas, sort_keys=True), id(alphabet), id(custom_formats))
    found = _MERGED.get(key)
    if found is None:  # the key's objects are kept alive with the strategy, so their ids stay theirs
        strategy = _merged_as_strategies(schemas, alphabet=alphabet, custom_formats=custom_formats)
        found = _MERGED[key] = (alphabet, custom_formats, strategy)
    return found[2]


_hjs_from_schema.merged_as_strategies = _cached_merged_as_strategies

# -- the tools and their schemas ----------------------------------------------------------------

FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER
SOURCES = [*MODULES, "tests.semantics_samples"]
MODES = ("canonical", "openai-strict")

#: Tools whose schema hypothesis-jsonschema cannot generate from at all, with the reason.
#: (Recursive ones are unrolled instead, see ``unrolled``.)
GENERATION_GAPS: dict[str, str] = {}

ARGUMENT_ERRORS = (
    errors.ArgumentErrors,
    errors.UnknownArguments,
    errors.NonStringArguments,
    errors.InvalidArguments,
    errors.MissingArgument,
    errors.ArgumentGap,
    errors.InvalidArgument,
)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class Target:
    """One tool under one of its schemas."""

    module: str
    loaded: LoadedTool = field(repr=False)
    mode: str
    schema: dict[str, Any] = field(repr=False)
    canonical: dict[str, Any] = field(repr=False)
    #: The strict rendering moved rules it cannot carry into description text (``toolcall-strict``).
    lossy: bool = False

    @property
    def id(self) -> str:
        return f"{self.module.rsplit('.', 1)[-1]}.{self.loaded.name}-{self.mode}"

    @cached_property
    def validator(self) -> Draft202012Validator:
        Draft202012Validator.check_schema(self.schema)
        return Draft202012Validator(self.schema, format_checker=FORMAT_CHECKER)

    @cached_property
    def canonical_validator(self) -> Draft202012Validator:
        return Draft202012Validator(self.canonical, format_checker=FORMAT_CHECKER)

    @cached_property
    def context(self) -> dict[str, Any]:
        """A value for each injected parameter (the tools do not look at them)."""
        return {p.name: f"<{p.name}>" for p in self.loaded.ir.parameters if p.injected}

    @cached_property
    def custom_parameters(self) -> frozenset[str]:
        """Parameters whose type has a custom (``__toolcall_schema__`` / TypeProvider) part."""
        defs = {d.name: d.type for d in self.loaded.ir.defs}
        return frozenset(p.name for p in self.loaded.ir.parameters if _has_custom(p.type, defs, set()))

    @cached_property
    def valid_values(self) -> st.SearchStrategy[Any]:
        return from_schema(unrolled(self.schema), custom_formats=CUSTOM_FORMATS)

    def require_format_checkers(self) -> None:
        """Skip when the oracle cannot check a ``format`` the schema uses (its checker package is missing)."""
        used = set(re.findall(r'"format": "([^"]+)"', json.dumps(self.schema)))
        missing = sorted(used - set(FORMAT_CHECKER.checkers))
        if missing:
            pytest.skip(f"jsonschema has no checker for {missing} here (the dev extra's rfc3339-validator/isoduration)")


def _has_custom(node: Any, defs: dict[str, Any], seen: set[str]) -> bool:
    if isinstance(node, ir.CustomType):
        return True
    if isinstance(node, ir.RefType):
        if node.name in seen:
            return False
        seen.add(node.name)
        return _has_custom(defs[node.name], defs, seen)
    if isinstance(node, tuple):
        return any(_has_custom(n, defs, seen) for n in node)
    if is_dataclass(node) and not isinstance(node, type):
        return any(_has_custom(getattr(node, f.name), defs, seen) for f in fields(node))
    return False


def _targets() -> list[Target]:
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ToolcallWarning)  # strict losses and toolcall-type findings are expected
        for module_name in SOURCES:
            for loaded in loaded_tools(as_toolset(importlib.import_module(module_name))):
                if loaded.name in GENERATION_GAPS:
                    continue
                canonical = _plain(toolcall.describe(loaded.function)[0]["parameters"])
                found.append(Target(module_name, loaded, "canonical", canonical, canonical))
                function = toolcall.emit(loaded.function, "openai", strict=True)[0]["function"]
                if function.get("strict") is True:
                    findings = render_tool(loaded.ir, "openai", strict=True).findings
                    lossy = any(f.code == "toolcall-strict" for f in findings)
                    found.append(
                        Target(module_name, loaded, "openai-strict", _plain(function["parameters"]), canonical, lossy)
                    )
    return found


TARGETS = _targets()


def unrolled(schema: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """``schema`` with its ``$ref``s inlined ``depth`` levels deep and ``false`` below (a subset of its values)."""
    defs = schema.get("$defs", {})

    def walk(node: Any, budget: int) -> Any:
        if isinstance(node, list):
            return [walk(n, budget) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].removeprefix("#/$defs/")
            return walk(defs[name], budget - 1) if budget > 0 else False
        return {k: walk(v, budget) for k, v in node.items() if k != "$defs"}

    result: dict[str, Any] = walk(schema, depth)
    return result


# Formats hypothesis-jsonschema does not know: RFC 3339 Appendix A durations (years and
# months included, as the ``duration`` checker allows them) and dashed UUIDs.
_NUMBER = st.integers(0, 400).map(str)
_DURATION = st.builds(
    lambda sign, date, time: f"{sign}P{date}{'T' + time if time else ''}",
    st.sampled_from(["", "", "-"]),
    st.sampled_from(["", "W", "D", "YMD", "Y", "M", "MD"]).flatmap(
        lambda units: st.tuples(*(_NUMBER.map(lambda n, u=u: n + u) for u in units)).map("".join)
    ),
    st.sampled_from(["", "H", "M", "S", "HMS", "MS"]).flatmap(
        lambda units: st.tuples(*(_NUMBER.map(lambda n, u=u: n + u) for u in units)).map("".join)
    ),
).filter(lambda text: FORMAT_CHECKER.conforms(text, "duration"))
CUSTOM_FORMATS = {"duration": _DURATION, "uuid": st.uuids().map(str)}

# -- calling the dispatcher ---------------------------------------------------------------------


_TOOL_ERRORS = ToolErrors()


@pytest.fixture(scope="module", autouse=True)
def _capture_tool_errors() -> Iterator[None]:
    logger = logging.getLogger("toolcall")
    logger.addHandler(_TOOL_ERRORS)
    try:
        yield
    finally:
        logger.removeHandler(_TOOL_ERRORS)
        if os.environ.get("TOOLCALL_SHOW_DIFFERENCES"):
            print("\ndifferences seen:", dict(SEEN.most_common()))


def _raised_in_tool(target: Target) -> bool:
    code = target.loaded.function.__code__
    for record in _TOOL_ERRORS.records:
        tb = record.exc_info[2] if record.exc_info else None
        while tb is not None:
            if tb.tb_frame.f_code is code:
                return True
            tb = tb.tb_next
    return False


def dispatch(target: Target, args: Any) -> tuple[bool, Ok[Any] | Err]:
    """``run`` the tool; ``True`` when it accepted the arguments (the tool ran)."""
    _TOOL_ERRORS.records.clear()
    result = toolcall.run(target.loaded.function, target.loaded.name, args, context=target.context)
    if isinstance(result, Ok):
        return True, result
    error = result.error
    if isinstance(error, ARGUMENT_ERRORS):
        return False, result
    assert isinstance(error, (errors.Raised, errors.Exited)), f"{target.id}: {error!r} is not an outcome of a call"
    if isinstance(error, errors.Raised):
        assert _raised_in_tool(target), f"{target.id}: {error!r} was raised by the dispatcher, not by the tool"
    return True, result


def schema_accepts(validator: Draft202012Validator, value: Any) -> bool | None:
    """The validator's verdict; ``None`` where the validator itself breaks (then the example says nothing)."""
    try:
        return bool(validator.is_valid(value))
    except (OverflowError, ValueError):  # jsonschema's multipleOf divides huge ints as floats
        return None


# -- the deliberate differences -----------------------------------------------------------------


@dataclass
class Case:
    """One disagreement between the schema and the dispatcher."""

    target: Target
    args: Any
    schema_ok: bool
    dispatched_ok: bool
    result: Ok[Any] | Err
    #: Where the mutation happened (``None`` for a generated value).
    mutated_at: tuple[str | int, ...] | None = None

    @cached_property
    def schema_errors(self) -> list[ValidationError]:
        return list(self.target.validator.iter_errors(self.args))

    @cached_property
    def normalized(self) -> Any:
        """The args with each null meaning "use the default" left out (the dispatcher's null rule)."""
        return without_default_nulls(self.args, self.target.canonical, self.target.canonical_validator)

    @cached_property
    def leaves(self) -> list[tuple[tuple[str | int, ...], errors.Reason]]:
        """The innermost reasons of the dispatcher's ``InvalidArgument`` with their full paths."""
        if not isinstance(self.result, Err) or not isinstance(self.result.error, errors.InvalidArgument):
            return []
        out: list[tuple[tuple[str | int, ...], errors.Reason]] = []

        def walk(reason: errors.Reason, prefix: tuple[str | int, ...]) -> None:
            path = prefix + reason.path
            if reason.branches:
                for branch in reason.branches:
                    walk(branch, path)
            else:
                out.append((path, reason))

        walk(self.result.error.reason, (self.result.error.name,))
        return out

    def refused_for(self, test: Callable[[errors.Reason], bool]) -> bool:
        return not self.dispatched_ok and any(test(reason) for _, reason in self.leaves)

    def describe(self) -> str:
        shown = [e.message[:200] for e in self.schema_errors[:3]]
        return (
            f"{self.target.id}: the schema {'accepts' if self.schema_ok else 'refuses'} and the dispatcher "
            f"{'accepts' if self.dispatched_ok else 'refuses'}\n  args: {self.args!r:.600}\n"
            f"  mutated at: {self.mutated_at}\n  result: {self.result!r:.600}\n  schema errors: {shown}"
        )


def _resolve(schema: Any, root: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    return schema


def without_default_nulls(value: Any, schema: Any, validator: Draft202012Validator) -> Any:
    """``value`` without the nulls of optional properties whose schema does not accept null.

    The dispatcher reads such a null as "use the default" (docs/dispatch.md, in every
    mode); the canonical schema, which leaves those properties out of
    ``required``, has no way to say it.
    """
    schema = _resolve(schema, validator.schema)
    if not isinstance(schema, dict):
        return value
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            candidate = without_default_nulls(value, branch, validator)
            if validator.evolve(schema=branch).is_valid(candidate):
                return candidate
        return value
    if isinstance(value, dict):
        properties, required = schema.get("properties", {}), schema.get("required", [])
        extra = schema.get("additionalProperties")
        out = {}
        for key, item in value.items():
            sub = properties.get(key, extra)
            optional = key in properties and key not in required
            if optional and item is None and not _accepts_null(validator, properties[key]):
                continue
            out[key] = without_default_nulls(item, sub, validator) if isinstance(sub, dict) else item
        return out
    if isinstance(value, list):
        prefix, items = schema.get("prefixItems", []), schema.get("items")
        return [
            without_default_nulls(item, prefix[i] if i < len(prefix) else items, validator)
            if i < len(prefix) or isinstance(items, dict)
            else item
            for i, item in enumerate(value)
        ]
    return value


def _accepts_null(validator: Draft202012Validator, schema: Any) -> bool:
    return bool(validator.evolve(schema=schema).is_valid(None))


def explained(errors_: Iterable[ValidationError], leaf_ok: Callable[[ValidationError], bool]) -> bool:
    """Every schema error is one ``leaf_ok`` excuses (for ``anyOf``: every error of some branch is)."""
    found = list(errors_)
    return bool(found) and all(_excused(e, leaf_ok) for e in found)


def _excused(error: ValidationError, leaf_ok: Callable[[ValidationError], bool]) -> bool:
    if leaf_ok(error):
        return True
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[ValidationError]] = defaultdict(list)
        for sub in error.context:
            branches[sub.relative_schema_path[0]].append(sub)
        return any(all(_excused(sub, leaf_ok) for sub in subs) for subs in branches.values())
    return False


def _replaced(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return out


def _at(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


_ISO_PARSERS = {"date-time": isotime.parse_datetime, "time": isotime.parse_time}


def _parses(parse: Callable[[str], Any], text: Any) -> bool:
    try:
        parse(text)
    except (ValueError, OverflowError, TypeError):
        return False
    return True


def _iso_broader(e: ValidationError) -> bool:
    parse = _ISO_PARSERS.get(e.validator_value) if e.validator == "format" else None
    return parse is not None and _parses(parse, e.instance)


def _strict_only_rule(e: ValidationError) -> bool:
    return e.validator == "uniqueItems" or "prefixItems" in e.absolute_schema_path


def _trailing_newline(case: Case) -> bool:
    if case.dispatched_ok or not case.schema_ok:
        return False
    for path, reason in case.leaves:
        if isinstance(reason.value, str) and reason.value.endswith("\n"):
            try:
                fixed = _replaced(case.args, path, reason.value[:-1])
            except (KeyError, IndexError, TypeError):
                continue
            # Without the newline the two agree, or differ only for another documented reason.
            schema_ok = schema_accepts(case.target.validator, fixed)
            dispatched_ok, result = dispatch(case.target, fixed)
            if schema_ok is None or schema_ok == dispatched_ok:
                return True
            again = Case(case.target, fixed, schema_ok, dispatched_ok, result, case.mutated_at)
            return explanation(again) is not None
    return False


def _in_custom_parameter(case: Case) -> bool:
    custom = case.target.custom_parameters
    if not case.dispatched_ok:
        error = case.result.error if isinstance(case.result, Err) else None
        return isinstance(error, errors.InvalidArgument) and error.name in custom
    return case.mutated_at is not None and case.mutated_at[:1] in {(name,) for name in custom}


def _beyond_python(reason: errors.Reason) -> bool:
    if reason.code == "expected_number":
        return "too large for a float" in reason.detail
    if reason.code == "expected_integer":
        return "too many digits" in reason.detail
    return reason.code.startswith("invalid_") and reason.detail == OUT_OF_PYTHON_RANGE


def _years_or_months(reason: errors.Reason) -> bool:
    value = reason.value
    return reason.code == "invalid_duration" and isinstance(value, str) and bool(re.search(r"P[^T]*[YM]", value))


@dataclass(frozen=True)
class Difference:
    """A documented, deliberate difference between the schema and the dispatcher."""

    name: str
    direction: str  # which side accepts: "dispatcher" (accepts more) or "schema" (accepts more)
    applies: Callable[[Case], bool]


EXCEPTIONS: list[Difference] = [
    Difference(
        "null-means-default",
        "dispatcher",
        lambda c: (
            c.target.mode == "canonical"
            and c.normalized != c.args
            and bool(c.target.canonical_validator.is_valid(c.normalized))
        ),
    ),
    Difference(
        "strict-requires-every-property",
        "dispatcher",
        lambda c: (
            c.target.mode == "openai-strict"
            and explained(c.schema_errors, lambda e: e.validator == "required")
            and bool(c.target.canonical_validator.is_valid(c.normalized))
        ),
    ),
    Difference(
        "strict-moves-rules-to-text",
        "schema",
        lambda c: (
            c.target.lossy and explained(c.target.canonical_validator.iter_errors(c.normalized), _strict_only_rule)
        ),
    ),
    Difference("iso8601-broader-than-rfc3339", "dispatcher", lambda c: explained(c.schema_errors, _iso_broader)),
    Difference("ecma262-dollar", "schema", _trailing_newline),
    Difference("lone-surrogates", "schema", lambda c: c.refused_for(lambda r: r.code == "invalid_unicode")),
    Difference(
        "bounds-on-string-numbers",
        "schema",
        lambda c: c.refused_for(lambda r: r.code == "out_of_range" and isinstance(r.value, str)),
    ),
    Difference("custom-types-check-themselves", "either", lambda c: _in_custom_parameter(c)),
    Difference("beyond-python-ranges", "schema", lambda c: c.refused_for(_beyond_python)),
    Difference("durations-without-years-or-months", "schema", lambda c: c.refused_for(_years_or_months)),
    Difference(
        "uuid-checker-is-lax",
        "schema",
        lambda c: c.refused_for(lambda r: r.code == "invalid_uuid" and FORMAT_CHECKER.conforms(r.value, "uuid")),
    ),
]


#: How often each difference explained a case in this run (``TOOLCALL_SHOW_DIFFERENCES=1`` prints it).
SEEN: Counter[str] = Counter()


def explanation(case: Case) -> str | None:
    """The name of the first documented difference that explains ``case`` (each of its problems, if several)."""
    error = case.result.error if isinstance(case.result, Err) else None
    if isinstance(error, errors.ArgumentErrors):
        names = [explanation(replace(case, result=Err(problem))) for problem in error.errors]
        return None if None in names else " + ".join(dict.fromkeys(name for name in names if name))
    for difference in EXCEPTIONS:
        if difference.direction == "dispatcher" and not case.dispatched_ok:
            continue
        if difference.direction == "schema" and case.dispatched_ok:
            continue
        if difference.applies(case):
            SEEN[difference.name] += 1
            return difference.name
    return None


def check(target: Target, args: Any, mutated_at: tuple[str | int, ...] | None = None) -> None:
    schema_ok = schema_accepts(target.validator, args)
    if schema_ok is None:
        return
    dispatched_ok, result = dispatch(target, args)
    if schema_ok != dispatched_ok:
        case = Case(target, args, schema_ok, dispatched_ok, result, mutated_at)
        assert explanation(case) is not None, case.describe()


# -- mutations ----------------------------------------------------------------------------------

_OTHER_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    7,
    1.5,
    -0.25,
    2**63,
    "",
    "x",
    "5",
    "1.5",
    "true",
    "2024-05-01",
    "12:30:00Z",
    "123e4567-e89b-12d3-a456-426614174000",
    "P1D",
    [],
    [1],
    ["x"],
    {},
    {"a": 1},
]
_UNICODE_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def _path_nodes(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _path_nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _path_nodes(item, (*path, index))


def _mutants(draw: Any, node: Any) -> list[Any]:
    """Every perturbation of one node of a valid value (each still a JSON value)."""
    out: list[Any] = [None, [node]]  # a null; the value wrapped in a list
    out += draw(st.lists(st.sampled_from(_OTHER_VALUES), min_size=3, max_size=3))  # leaves of other types
    if isinstance(node, str):
        out += [
            node + "\n",
            node + "\udc80",
            "\ud83d" + node,
            node * 3 + "x",
            node[:-1],
            node.upper(),
            " " + node,
            node.translate(_UNICODE_DIGITS),
        ]
    elif isinstance(node, bool):
        out += [int(node), not node]
    elif isinstance(node, int):
        out += [node + 1, node - 1, -node, node * 10, node + 0.5, 2**1100]
        if abs(node) < 2**53:
            out.append(float(node))
    elif isinstance(node, float):
        out += [node + 0.5, -node, node * 3, round(node), 2**1100, 1e308]
    elif isinstance(node, dict):
        key = draw(st.sampled_from(["zz_unknown", "db", "user", "x", "\udc80k"]) | st.text(max_size=4))
        out.append(Keyed(key, {**node, key: draw(st.sampled_from(_OTHER_VALUES))}))  # an unknown (or another) key
        if node:
            dropped = draw(st.sampled_from(sorted(node, key=repr)))
            out.append(Keyed(dropped, {k: v for k, v in node.items() if k != dropped}))  # a key left out
            out.append(Keyed(dropped, {**node, dropped: None}))
    elif isinstance(node, list):
        out += [[], node[::-1], [*node, draw(st.sampled_from(_OTHER_VALUES))]]  # other lengths, other order
        if node:
            out += [[*node, copy.deepcopy(draw(st.sampled_from(node)))], node[:-1]]  # a duplicate; one fewer
    return out


@dataclass(frozen=True)
class Keyed:
    """A perturbed object whose change is at one key (so the mutation's path goes on to that key)."""

    key: str
    value: dict[str, Any]


@st.composite
def mutated(draw: Any, valid: st.SearchStrategy[Any]) -> list[tuple[Any, tuple[str | int, ...]]]:
    """Every perturbation of one node of a valid value, each with the path of what changed."""
    value = draw(valid)
    path, node = draw(st.sampled_from(list(_path_nodes(value))))
    out = []
    for mutant in _mutants(draw, node):
        if isinstance(mutant, Keyed):
            out.append((_replaced(value, path, mutant.value), (*path, mutant.key)))
        else:
            out.append((_replaced(value, path, mutant), path))
    return out


# -- the properties -----------------------------------------------------------------------------

SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def _examples(target: Target) -> int:
    # Big nested schemas make big values (slow to generate and validate): fewer of them.
    return 10 if len(json.dumps(target.schema)) < 1000 else 4


@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
def test_schema_valid_values_are_accepted(target: Target) -> None:
    target.require_format_checkers()

    @settings(SETTINGS, max_examples=_examples(target))
    @given(args=target.valid_values)
    def accepted(args: Any) -> None:
        if schema_accepts(target.validator, args) is True:  # generated, then checked (formats included)
            check(target, args)

    accepted()


@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
def test_mutated_values_are_refused_exactly_when_the_schema_refuses(target: Target) -> None:
    target.require_format_checkers()

    @settings(SETTINGS, max_examples=_examples(target))
    @given(cases=mutated(target.valid_values))
    def mutated_agrees(cases: list[tuple[Any, tuple[str | int, ...]]]) -> None:
        for args, path in cases:
            check(target, args, path)

    mutated_agrees()


# -- the list of differences itself -------------------------------------------------------------

_BY_NAME = {t.loaded.name: t for t in TARGETS if t.mode == "canonical"}
_STRICT_BY_NAME = {t.loaded.name: t for t in TARGETS if t.mode == "openai-strict"}

#: One real case per documented difference: (difference, tool, mode, args).
EXAMPLES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("null-means-default", "t_optional_plain", "canonical", {"x": None}),
    ("null-means-default", "t_namedtuple", "canonical", {"x": {"lat": 1, "lon": 2, "label": None}}),
    ("strict-requires-every-property", "t_optional_plain", "openai-strict", {}),
    ("strict-moves-rules-to-text", "t_tuple_int_str", "openai-strict", {"x": ["a", 1]}),
    ("strict-moves-rules-to-text", "t_set_str", "openai-strict", {"x": ["a", "a"]}),
    ("iso8601-broader-than-rfc3339", "t_datetime", "canonical", {"x": "2024-05-01T12:30:00"}),
    ("iso8601-broader-than-rfc3339", "t_datetime", "canonical", {"x": "2024-05-01 12:30+0200"}),
    ("iso8601-broader-than-rfc3339", "t_time", "canonical", {"x": "12:30"}),
    ("ecma262-dollar", "t_str_bounds", "canonical", {"x": "abc\n"}),
    ("ecma262-dollar", "t_decimal", "canonical", {"x": "1.5\n"}),
    ("ecma262-dollar", "t_string_integer", "canonical", {"x": "12\n"}),
    ("ecma262-dollar", "t_datetime", "canonical", {"x": "2024-05-01T12:30:00Z\n"}),
    ("lone-surrogates", "t_str", "canonical", {"x": "\ud800"}),
    ("lone-surrogates", "t_dict_any", "canonical", {"x": {"\udc80": 1}}),
    # Two problems at once (ArgumentErrors): each is explained.
    ("lone-surrogates", "t_kwargs_str", "canonical", {"resource_id": "\ud800", "k": "\udc80"}),
    ("bounds-on-string-numbers", "t_string_integer_bounded", "canonical", {"x": "-1"}),
    ("bounds-on-string-numbers", "t_decimal_bounded", "canonical", {"x": "100.5"}),
    ("custom-types-check-themselves", "paint", "canonical", {"color": "#aabbcc", "share": "1/0"}),
    ("beyond-python-ranges", "t_float", "canonical", {"x": 2**1100}),
    ("beyond-python-ranges", "t_timedelta", "canonical", {"x": "P1000000000D"}),
    ("beyond-python-ranges", "t_string_integer", "canonical", {"x": "1" * 5000}),
    ("beyond-python-ranges", "t_decimal", "canonical", {"x": "0E1000000000000000000"}),
    ("durations-without-years-or-months", "t_timedelta", "canonical", {"x": "P1Y2M"}),
    ("uuid-checker-is-lax", "t_uuid", "canonical", {"x": "1234567٨-1234-1234-1234-1234567890ab"}),
    ("uuid-checker-is-lax", "t_uuid", "canonical", {"x": " 2345678-1234-1234-1234-1234567890ab"}),
]
# A mutation-only case: the dispatcher takes whatever the custom hook takes.
MUTATION_EXAMPLES: list[tuple[str, str, str, dict[str, Any], tuple[str | int, ...]]] = [
    ("custom-types-check-themselves", "paint", "canonical", {"color": "red", "share": "1/2"}, ("color",)),
]


@pytest.mark.parametrize(
    ("name", "tool", "mode", "args", "mutated_at"),
    [*((*e, None) for e in EXAMPLES), *MUTATION_EXAMPLES],
    ids=[f"{e[0]}-{e[1]}" for e in [*EXAMPLES, *MUTATION_EXAMPLES]],
)
def test_each_exception_is_real(
    name: str, tool: str, mode: str, args: dict[str, Any], mutated_at: tuple[str | int, ...] | None
) -> None:
    target = (_BY_NAME if mode == "canonical" else _STRICT_BY_NAME)[tool]
    target.require_format_checkers()
    schema_ok = schema_accepts(target.validator, args)
    dispatched_ok, result = dispatch(target, args)
    assert schema_ok is not None
    assert schema_ok != dispatched_ok, f"no difference any more: schema {schema_ok}, dispatcher {result!r}"
    assert explanation(Case(target, args, schema_ok, dispatched_ok, result, mutated_at)) == name


def test_every_exception_has_an_example_and_a_bullet() -> None:
    doc = (ROOT / "docs" / "dispatch-vs-schema.md").read_text(encoding="utf-8")
    names = [d.name for d in EXCEPTIONS]
    assert {e[0] for e in [*EXAMPLES, *MUTATION_EXAMPLES]} == set(names)
    for name in names:
        assert f"`{name}`" in doc, f"docs/dispatch-vs-schema.md has no bullet for {name}"


def test_the_targets_cover_the_corpus() -> None:
    modes = {t.mode for t in TARGETS}
    assert modes == set(MODES)
    assert len({t.loaded.name for t in TARGETS}) >= 100
