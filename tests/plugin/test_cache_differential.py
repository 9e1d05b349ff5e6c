"""What the schema cache serves equals what introspection renders, byte for byte.

The tool modules of the test corpus (``tests/corpus``, ``tests/analysis_cases``,
``tests/sources``, ``examples``) and a generated package of a few hundred
modules (``tests/corpus_gen.py``) are copied into a temporary project that
enables the plugin; ``mypy`` runs there once, cold, and writes every schema
cache file. Then two fresh interpreters import every tool module: one with
``TOOLCALL_CACHE=require`` (each definition comes from the cache, or it
raises), one with ``TOOLCALL_CACHE=off`` (each is introspected). For each
module, each of its tools alone, and each provider variant in
``VARIANTS`` plus ``describe``, both write ``json.dumps`` of
the result (no ``sort_keys``: dict order counts), or the ``ValueError`` text
for a variant the provider cannot take; the texts must be equal.

Modules the runtime cannot load are listed here with the reason
(``REFUSED``, ``UNLOADABLE``); both sides must fail on them the same way.
The one difference allowed is the typing cache's (docs/static-vs-runtime.md,
"Allowed differences between served and introspected output"): when two
modules write the same ``Literal[...]`` values in two orders inside a union,
an interpreter that imports both may introspect the second in the first
one's order. Such a mismatch passes only when it differs in nothing but
the order of ``enum`` lists, each served in an order the project declares
and introspected in another order the project declares for the same values,
and when the module, introspected alone in a fresh interpreter, gives
exactly what the cache serves.
"""

from __future__ import annotations

import ast
import difflib
import itertools
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Optional, get_args

import pytest

from tests.cached_package import entry_tool
from tests.corpus_gen import Corpus, write_corpus
from tests.mypy_settings import PYPROJECT_OVERRIDES
from tests.paths import ROOT
from tests.plugin_project import environment
from toolcall._cache import file_format
from toolcall._providers import VARIANTS, variant_key

#: The directories whose tool modules are compared, relative to the repository.
CORPUS_DIRS: Final = ("tests/corpus", "tests/analysis_cases", "tests/sources", "examples")


#: Modules whose tools the runtime refuses (TypeError on first use), and why. The plugin refuses
#: the same tools: served with TOOLCALL_CACHE=require, each raises CacheRequiredError naming the finding.
REFUSED: Final = {
    "tests.analysis_cases.refused": "every tool takes a type no schema describes (the module exists to test that)",
    "tests.sources.bad_type": "connect takes a socket.socket, which no schema describes",
}

#: Modules this Python cannot import, and why (both sides then fail alike, with a SyntaxError).
UNLOADABLE: Final = {
    **(
        {
            "tests.corpus.pep695": "PEP 695 syntax needs Python 3.12",
            "tests.analysis_cases.generics695": "PEP 695 syntax needs Python 3.12",
        }
        if sys.version_info < (3, 12)
        else {}
    ),
    **({"tests.corpus.pep696": "type parameter defaults need Python 3.13"} if sys.version_info < (3, 13) else {}),
}

#: Generated modules: enough for over 1,000 tools.
GENERATED_MODULES: Final = 410
OUTPUTS: Final = (*(variant_key(p, s) for p, s in VARIANTS), "describe")
SHOWN: Final = 4  # mismatches shown with a diff
LISTED: Final = 15  # modules listed by name

# Runs in a fresh interpreter in the project directory: argv[1] a JSON list of module names,
# argv[2] where to write the results. For each module: its tool names, the outputs of the module
# and of each tool alone (json.dumps, or "ValueError: ..." where the provider cannot take it;
# any other exception as "raised <type>: ..."), or why it could not be imported.
CHILD: Final = r"""
import importlib, json, sys, warnings
from pathlib import Path

import toolcall
from toolcall._declarations.tool import module_tools
from toolcall._providers import VARIANTS, variant_key

warnings.simplefilter("ignore")  # findings the runtime repeats as ToolcallWarning; not compared
project = Path.cwd().resolve()


def outputs(source):
    found = {}
    for provider, strict in VARIANTS:
        key = variant_key(provider, strict)
        try:
            found[key] = json.dumps(toolcall.emit(source, provider, strict=strict))
        except ValueError as exc:
            found[key] = f"ValueError: {exc}"
        except Exception as exc:
            found[key] = f"raised {type(exc).__name__}: {exc}"
    try:
        found["describe"] = json.dumps(toolcall.describe(source))
    except Exception as exc:
        found["describe"] = f"raised {type(exc).__name__}: {exc}"
    return found


results = {}
for name in json.loads(Path(sys.argv[1]).read_text()):
    try:
        module = importlib.import_module(name)
    except Exception as exc:
        results[name] = {"unloadable": f"{type(exc).__name__}: {exc}"}
        continue
    origin = Path(module.__file__).resolve()
    if project not in origin.parents:
        results[name] = {"unloadable": f"imported from outside the project: {origin}"}
        continue
    definitions = module_tools(name)
    results[name] = {
        "tools": [d.name for d in definitions],
        "module": outputs(module),
        "each": {d.name: outputs(d.function) for d in definitions},
    }
Path(sys.argv[2]).write_text(json.dumps(results))
"""

Results = dict[str, dict[str, Any]]


# -- running mypy and the two sides ---------------------------------------------------------------


def run_mypy(project: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    """``mypy`` over ``targets`` in ``project``, cold (a cache directory of its own); it must not crash."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(project / ".mypy_cache"), *targets],
        cwd=project,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode in (0, 1), result.stdout + result.stderr
    assert "INTERNAL ERROR" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result


def start(project: Path, modules: list[str], mode: str) -> tuple[subprocess.Popen[str], Path]:
    request = project / f".differential-request-{mode}.json"
    request.write_text(json.dumps(modules))
    out = project / f".differential-results-{mode}.json"
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(request), str(out)],
        cwd=project,
        env=environment() | {"TOOLCALL_CACHE": mode},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return process, out


def finish(process: subprocess.Popen[str], out: Path) -> Results:
    output, _ = process.communicate(timeout=600)
    assert process.returncode == 0, output
    results: Results = json.loads(out.read_text())
    return results


def run_side(project: Path, modules: list[str], mode: str) -> Results:
    """``TOOLCALL_CACHE=mode`` in one fresh interpreter that imports ``modules`` in this order."""
    return finish(*start(project, modules, mode))


def both_sides(project: Path, modules: list[str]) -> tuple[Results, Results]:
    """(served, introspected), each in one fresh interpreter importing every module; both run at once."""
    served = start(project, modules, "require")
    introspected = start(project, modules, "off")
    return finish(*served), finish(*introspected)


# -- comparing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mismatch:
    module: str
    tool: str | None  # None: the module's toolset
    output: str  # a variant key, or "describe"
    served: str
    introspected: str

    @property
    def where(self) -> str:
        return f"{self.module} [{self.output}]" if self.tool is None else f"{self.module}:{self.tool} [{self.output}]"


def outputs_of(module: str, served: dict[str, Any], introspected: dict[str, Any]) -> Iterator[Mismatch]:
    """Every (served, introspected) pair of outputs of one module, equal or not."""
    for output in OUTPUTS:
        yield Mismatch(module, None, output, served["module"][output], introspected["module"][output])
    for tool in served["tools"]:
        for output in OUTPUTS:
            yield Mismatch(module, tool, output, served["each"][tool][output], introspected["each"][tool][output])


def compare(served: Results, introspected: Results, refused: Iterable[str] = ()) -> list[Mismatch]:
    """Every output that differs, or raised. A module in ``refused`` must be refused alike on both sides."""
    refused = set(refused)
    found: list[Mismatch] = []
    assert list(served) == list(introspected)
    for module in served:
        ours, theirs = served[module], introspected[module]
        if "unloadable" in ours or "unloadable" in theirs:
            assert ours == theirs, (module, ours, theirs)
            continue
        assert ours["tools"] == theirs["tools"], module
        assert ours["tools"], f"{module} has no tools"
        for pair in outputs_of(module, ours, theirs):
            if module in refused and pair.served.startswith("raised "):
                check_refused_alike(pair)
            elif pair.served != pair.introspected or pair.served.startswith("raised "):
                found.append(pair)
    return found


def check_refused_alike(pair: Mismatch) -> None:
    """A tool the plugin refused: require mode says so; introspection raises the ``SchemaError`` a refusal is."""
    assert pair.served.startswith("raised CacheRequiredError: TOOLCALL_CACHE=require: "), pair
    assert "the mypy plugin could not describe tool" in pair.served, pair
    assert pair.introspected.startswith("raised SchemaError: "), pair


def readable(text: str) -> list[str]:
    try:
        return json.dumps(json.loads(text), indent=1, ensure_ascii=False).splitlines()  # dict order kept
    except ValueError:
        return [text]


def report(mismatches: list[Mismatch]) -> str:
    """All mismatches by module, then a diff of the first few."""
    modules: dict[str, list[str]] = {}
    for found in mismatches:
        modules.setdefault(found.module, []).append(
            found.output if found.tool is None else f"{found.tool}/{found.output}"
        )
    lines = [f"{len(mismatches)} outputs differ between served (cache) and introspected, in {len(modules)} modules:"]
    for module, where in list(modules.items())[:LISTED]:
        lines.append(f"  {module}: {', '.join(where[:6])}{' ...' if len(where) > 6 else ''}")
    if len(modules) > LISTED:
        lines.append(f"  ... and {len(modules) - LISTED} more modules")
    for found in mismatches[:SHOWN]:
        diff = list(
            difflib.unified_diff(
                readable(found.served),
                readable(found.introspected),
                "served (TOOLCALL_CACHE=require)",
                "introspected (TOOLCALL_CACHE=off)",
                n=3,
                lineterm="",
            )
        )
        if not diff:  # the same JSON value, written differently
            diff = [f"- {found.served}", f"+ {found.introspected}"]
        lines += ["", f"== {found.where}", *diff[:60]]
    return "\n".join(lines)


# -- the one allowed difference: CPython's typing cache --------------------------------------------

Values = tuple[Any, ...]
ValueSet = frozenset[tuple[str, Any]]


def literal_value_sets(path: Path) -> list[Values]:
    """The values of every ``Literal[...]`` written in a module, each in its written order."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:  # PEP 695 syntax on 3.11: such a module is not imported either
        return []
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and getattr(node.value, "id", getattr(node.value, "attr", None)) == "Literal"
        ):
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            try:
                found.append(tuple(ast.literal_eval(item) for item in items))
            except ValueError:  # an enum member or an alias inside: not compared here
                continue
    return found


def value_set(values: Iterable[Any]) -> ValueSet:
    """What ``Literal`` equality compares: the values with their types, in no order."""
    return frozenset((type(value).__name__, value) for value in values)


def declared_orders(project: Path) -> dict[ValueSet, set[Values]]:
    """Every order in which some module of the project writes each Literal value set."""
    orders: dict[ValueSet, set[Values]] = {}
    for path in project.rglob("*.py"):
        for values in literal_value_sets(path):
            orders.setdefault(value_set(values), set()).add(values)
    return orders


def enum_reorders(served: str, introspected: str) -> list[tuple[Values, Values]] | None:
    """The (served, introspected) ``enum`` lists that differ in order only; None if anything else differs.

    Everything but those lists must be equal, dict order included.
    """
    found: list[tuple[Values, Values]] = []

    def same(ours: Any, theirs: Any, key: str | None = None) -> bool:
        if type(ours) is not type(theirs):
            return False
        if isinstance(ours, dict):
            return list(ours) == list(theirs) and all(same(ours[k], theirs[k], k) for k in ours)
        if isinstance(ours, list):
            if key == "enum" and ours != theirs:
                if sorted(map(json.dumps, ours)) != sorted(map(json.dumps, theirs)):
                    return False
                found.append((tuple(ours), tuple(theirs)))
                return True
            return len(ours) == len(theirs) and all(map(same, ours, theirs))
        return bool(ours == theirs)

    try:
        documents = json.loads(served), json.loads(introspected)
    except ValueError:
        return [] if served == introspected else None
    return found if same(*documents) else None


def settle_literal_order(
    project: Path, mismatches: list[Mismatch], served: Results
) -> tuple[dict[str, str], list[Mismatch]]:
    """Split mismatches into the typing cache's (module -> what differs) and the rest.

    A module's mismatches are the typing cache's only when each differs in nothing but the order of
    ``enum`` lists, each list served in an order the project declares and introspected in another
    order the project declares for the same values, and when the module, introspected alone in a
    fresh interpreter, gives exactly what the cache serves, for every output.
    """
    orders = declared_orders(project)
    by_module: dict[str, list[Mismatch]] = {}
    for found in mismatches:
        by_module.setdefault(found.module, []).append(found)
    settled: dict[str, str] = {}
    rest: list[Mismatch] = []
    for module, found in by_module.items():
        reorders = [enum_reorders(m.served, m.introspected) for m in found]
        if not all(
            pairs and all({ours, theirs} <= orders.get(value_set(ours), set()) for ours, theirs in pairs)
            for pairs in reorders
        ):
            rest += found
            continue
        if compare({module: served[module]}, run_side(project, [module], "off")):
            rest += found
            continue
        seen = sorted({f"{list(ours)} as {list(theirs)}" for pairs in reorders for ours, theirs in pairs or ()})
        settled[module] = f"{len(found)} outputs introspected with another module's order: {'; '.join(seen)}"
    return settled, rest


def typing_cache_reorders(spelling: Literal["|", "Optional"]) -> bool:
    """Whether this Python's typing cache hands a Literal union the order of an equal one made before."""
    values = ("differential-probe-a", "differential-probe-b", spelling)
    if spelling == "|":
        Literal[values] | None
        later = Literal[values[::-1]] | None
    else:
        Optional[Literal[values]]
        later = Optional[Literal[values[::-1]]]
    return get_args(get_args(later)[0]) != values[::-1]


# -- the projects ---------------------------------------------------------------------------------

TOOL_DECORATOR: Final = re.compile(r"^\s*@(?:toolcall\.)?tool\b", re.MULTILINE)


@dataclass(frozen=True)
class Checked:
    project: Path
    modules: list[str]


@pytest.fixture(scope="module")
def corpus_project(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """The corpus directories copied into a project of their own, checked once by mypy with the plugin."""
    project = tmp_path_factory.mktemp("differential")
    (project / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["toolcall_mypy"]\nexplicit_package_bases = true\n' + PYPROJECT_OVERRIDES
    )
    (project / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", project / "tests" / "__init__.py")
    for directory in CORPUS_DIRS:
        shutil.copytree(
            ROOT / directory,
            project / directory,
            ignore=shutil.ignore_patterns("__pycache__", file_format.CACHE_DIR, ".mypy_cache"),
        )
    modules = sorted(
        ".".join(path.relative_to(project).with_suffix("").parts)
        for directory in CORPUS_DIRS
        for path in (project / directory).glob("*.py")
        if path.name != "__init__.py" and TOOL_DECORATOR.search(path.read_text(encoding="utf-8"))
    )
    run_mypy(project, "tests", "examples")
    return Checked(project, modules)


@dataclass(frozen=True)
class Generated:
    corpus: Corpus
    mypy: subprocess.CompletedProcess[str]


GENERATED_PYPROJECT: Final = (
    """\
[tool.mypy]
plugins = ["toolcall_mypy"]
"""
    + PYPROJECT_OVERRIDES
)


def generate(root: Path, modules: int, seed: int) -> tuple[Corpus, subprocess.CompletedProcess[str]]:
    corpus = write_corpus(root, modules=modules, seed=seed)
    (root / "pyproject.toml").write_text(GENERATED_PYPROJECT)
    return corpus, run_mypy(root, "-p", corpus.package)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return Generated(*generate(tmp_path_factory.mktemp("generated"), GENERATED_MODULES, seed=7))


# -- the tests ------------------------------------------------------------------------------------


def test_corpus_modules_serve_what_introspection_renders(corpus_project: Checked) -> None:
    project, modules = corpus_project.project, corpus_project.modules
    assert {"tests.corpus.scalars", "tests.analysis_cases.tricky", "tests.sources.ordered", "examples.weather"} <= set(
        modules
    )
    for module in set(modules) - set(UNLOADABLE):
        path = project.joinpath(*module.split(".")).with_suffix(".py")
        assert file_format.cache_path(path).is_file(), f"mypy wrote no cache file for {module}"
    served, introspected = both_sides(project, modules)
    unloadable = {module: found["unloadable"] for module, found in served.items() if "unloadable" in found}
    assert sorted(unloadable) == sorted(UNLOADABLE), unloadable
    assert all(reason.startswith("SyntaxError") for reason in unloadable.values()), unloadable
    refused = {m for m, found in served.items() if found.get("module", {}).get("openai", "").startswith("raised ")}
    assert refused == set(REFUSED), refused
    mismatches = compare(served, introspected, refused=REFUSED)
    settled, rest = settle_literal_order(project, mismatches, served)
    assert not rest, report(rest)
    assert not settled, settled  # no two corpus modules write one Literal union in two orders


#: The generator's parameters that no strict mode can express without loss: open maps (``dict[str, ...]``).
OPEN_MAPS: Final = ("metadata", "weights", "counts_by_tag")


def test_generated_corpus_type_checks_with_errors_only_where_a_provider_loses_something(generated: Generated) -> None:
    """With the default settings, the plugin's only errors are the open maps strict modes cannot express.

    Everything else the generator writes every provider takes, at most with
    a rule moved into a description (a note, which passes). And mypy writes
    a cache file per module.
    """
    lines = generated.mypy.stdout.splitlines()
    errors = [line for line in lines if ": error: " in line]
    notes = [line for line in lines if ": note: " in line]
    assert generated.corpus.tools >= 1000
    open_maps = {f"{name}: OpenAI, Anthropic and MCP strict mode: cannot express dict[str, " for name in OPEN_MAPS}
    unexpected = [line for line in errors if not any(f".{where}" in line for where in open_maps)]
    assert not unexpected, unexpected[:5]
    assert errors, "the generator writes open maps; each is an error"
    assert all(line.endswith("[toolcall-strict]") for line in errors)
    assert notes, "the generator writes bounded ints; Anthropic strict mode moves their bounds (notes)"
    assert generated.mypy.returncode == 1
    for module in generated.corpus.modules:
        path = generated.corpus.root.joinpath(*module.split(".")).with_suffix(".py")
        assert file_format.cache_path(path).is_file(), f"mypy wrote no cache file for {module}"


def test_generated_corpus_serves_what_introspection_renders(generated: Generated) -> None:
    corpus = generated.corpus
    served, introspected = both_sides(corpus.root, list(corpus.modules))
    assert sum(len(found["tools"]) for found in served.values()) == corpus.tools
    mismatches = compare(served, introspected)
    settled, rest = settle_literal_order(corpus.root, mismatches, served)
    assert not rest, report(rest)
    # What the typing cache reorders is planted clashes only: modules are imported in corpus order, so
    # the second module of a pair gets the first one's order. The cache is an LRU (128 entries per
    # special form in CPython): a pair's second module sees the first one's union only while it is still
    # cached, which holds for the close pairs the generator plants (21 modules apart) but is not asserted.
    expected = {c.second for c in corpus.order_clashes if typing_cache_reorders("Optional" if c.optional else "|")}
    assert set(settled) <= expected, (settled, expected)
    assert bool(settled) == bool(expected), (settled, expected)  # the allowance was exercised, where it applies


def test_the_typing_cache_difference_and_which_side_is_right(tmp_path: Path) -> None:
    """Two modules write ``stage`` with the same values in two orders; the cache keeps each module's own.

    Introspected in one interpreter, the second module gets the first one's order when this
    Python's typing cache reorders (as every CPython the project supports does); alone, it gets its
    own. The declared order is what the developer wrote, so the cache (the plugin) is right.
    """
    corpus, _ = generate(tmp_path, 2, seed=3)
    (clash,) = corpus.order_clashes
    assert (clash.first, clash.second) == corpus.modules
    assert sorted(clash.first_order) == sorted(clash.second_order)
    assert clash.first_order != clash.second_order
    served, together = both_sides(tmp_path, list(corpus.modules))

    def stage(found: dict[str, Any]) -> Values:
        tool = json.loads(found["module"]["describe"])[0]
        (branch,) = [option for option in tool["parameters"]["properties"]["stage"]["anyOf"] if "enum" in option]
        return tuple(branch["enum"])

    for module, order in ((clash.first, clash.first_order), (clash.second, clash.second_order)):
        assert order in literal_value_sets(tmp_path.joinpath(*module.split(".")).with_suffix(".py"))  # as written
        assert stage(served[module]) == order  # what the cache serves
        assert stage(run_side(tmp_path, [module], "off")[module]) == order  # introspected on its own
    assert stage(together[clash.first]) == clash.first_order
    reordered = typing_cache_reorders("Optional" if clash.optional else "|")
    assert stage(together[clash.second]) == (clash.first_order if reordered else clash.second_order)
    mismatches = compare(served, together)
    assert bool(mismatches) == reordered
    settled, rest = settle_literal_order(tmp_path, mismatches, served)
    assert not rest, report(rest)
    assert set(settled) == ({clash.second} if reordered else set())


def test_only_the_typing_cache_difference_is_settled(tmp_path: Path) -> None:
    """Reordered properties, or an enum order the project never declares, are reported, with a diff."""
    corpus, _ = generate(tmp_path, 2, seed=3)
    (clash,) = corpus.order_clashes
    module = clash.second
    served = run_side(tmp_path, [module], "require")
    text = served[module]["module"]["openai"]

    def changed(edit: Any) -> str:
        document = json.loads(text)
        edit(document[0]["function"]["parameters"]["properties"])
        return json.dumps(document)

    def reverse_properties(properties: dict[str, Any]) -> None:
        items = list(properties.items())
        properties.clear()
        properties.update(reversed(items))

    def undeclared_order(properties: dict[str, Any]) -> None:
        (branch,) = [option for option in properties["stage"]["anyOf"] if "enum" in option]
        orders = itertools.permutations(branch["enum"])
        branch["enum"] = list(next(o for o in orders if o not in (clash.first_order, clash.second_order)))

    def declared_order(properties: dict[str, Any]) -> None:
        (branch,) = [option for option in properties["stage"]["anyOf"] if "enum" in option]
        branch["enum"] = list(clash.first_order)

    for edit in (reverse_properties, undeclared_order):
        mismatch = Mismatch(module, None, "openai", text, changed(edit))
        settled, rest = settle_literal_order(tmp_path, [mismatch], served)
        assert (settled, rest) == ({}, [mismatch])
        assert "+++ introspected (TOOLCALL_CACHE=off)" in report(rest)
    # The typing cache's own difference passes, since introspected alone the module equals the cache.
    mismatch = Mismatch(module, None, "openai", text, changed(declared_order))
    settled, rest = settle_literal_order(tmp_path, [mismatch], served)
    assert (list(settled), rest) == ([module], [])


def test_the_generator_is_deterministic_and_writes_every_feature(tmp_path: Path) -> None:
    first = write_corpus(tmp_path / "a", modules=60, seed=1)
    second = write_corpus(tmp_path / "b", modules=60, seed=1)
    files = sorted(path.relative_to(first.root) for path in first.root.rglob("*.py"))
    assert files == sorted(path.relative_to(second.root) for path in second.root.rglob("*.py"))
    assert all((first.root / f).read_bytes() == (second.root / f).read_bytes() for f in files)
    assert (first.modules, first.tools, first.order_clashes) == (second.modules, second.tools, second.order_clashes)
    assert write_corpus(tmp_path / "c", modules=60, seed=2).tools != first.tools or any(
        (first.root / f).read_bytes() != (tmp_path / "c" / f).read_bytes() for f in files
    )
    text = "".join((first.root / f).read_text(encoding="utf-8") for f in files)
    for feature in (
        "Optional[Literal[",
        "] | None = None",
        "(str, Enum)",
        "(IntEnum)",
        "(TypedDict)",
        "(TypedDict, total=False)",
        "NotRequired[",
        "@dataclass",
        "field(default_factory=list)",
        "(NamedTuple)",
        "Param(ge=",
        "Param(min_length=",
        'Param(description="',
        "dict[str, ",
        "list[",
        "int | str",
        "dt.date",
        "dt.datetime",
        "UUID",
        "Decimal",
        "from __future__ import annotations",
        "    Args:",
        "    Returns:",
        "    Raises:",
        "@toolcall.tool(name=",
        "@tool\n",
    ):
        assert feature in text, feature
    functions = [
        node
        for f in files
        for node in ast.walk(ast.parse((first.root / f).read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef)
    ]
    assert sum(map(len, (ast.get_docstring(fn) or "" for fn in functions))) / len(functions) > 400
    # an optional parameter before a required keyword-only one
    assert any(fn.args.defaults and None in fn.args.kw_defaults for fn in functions)
    defaults = [ast.unparse(d) for fn in functions for d in (*fn.args.defaults, *fn.args.kw_defaults) if d]
    for kind in ("'", "0.", "True", "False", "None", "[", "{", "Status.", "Priority."):
        assert any(d.startswith(kind) or kind in d for d in defaults), kind
    assert any(d.isdigit() for d in defaults)
    # plain Literals written in different orders by different modules
    orders: dict[ValueSet, set[Values]] = {}
    for module in first.modules:
        for values in literal_value_sets(first.root.joinpath(*module.split(".")).with_suffix(".py")):
            orders.setdefault(value_set(values), set()).add(values)
    assert any(len(found) > 1 for found in orders.values())
    assert first.order_clashes


def test_the_allowed_difference_is_documented() -> None:
    doc = (ROOT / "docs" / "static-vs-runtime.md").read_text(encoding="utf-8")
    assert "## Allowed differences between served and introspected output" in doc
    assert "tests/plugin/test_cache_differential.py" in doc


#: What the cache files of the generated corpus may cost on disk, per tool on average: 2 KB. Format 6
#: holds the IR only, positionally encoded, each class a file's tools share once, and measures about
#: 1,990 bytes a tool on this corpus, whose tools carry long docstrings and nested shared types (2,024
#: since IR version 5 also writes once each other type a file holds twice, so its tools share one node);
#: format 5, each class inline in every tool, measured 2.5 KB, format 4, with every rendered variant,
#: 6.3 KB, format 3 34 KB. docs/performance.md has what each part costs.
CACHE_BYTES_PER_TOOL: Final = 2_048


def test_generated_corpus_cache_files_hold_each_description_once_and_stay_small(generated: Generated) -> None:
    corpus = generated.corpus
    files = sorted(corpus.root.rglob(f"{file_format.CACHE_DIR}/*.json"))
    assert len(files) == len(corpus.modules)
    total = 0
    for path in files:
        data = path.read_bytes()
        total += len(data)
        lines = [line for line in data.splitlines() if line.startswith(b'    {"sources":')]  # one per tool
        content = json.loads(data)
        shared = [json.dumps(item) for item in content["types"]]
        assert len(set(shared)) == len(shared), f"{path}: a class written twice"
        for entry, line in zip(content["tools"], lines, strict=True):
            description = entry_tool(content, entry).description
            if description is not None and len(description) >= 40:  # a long text is in the entry once
                assert line.count(json.dumps(description, ensure_ascii=False).encode()) == 1, (path, description)
    per_tool = total / corpus.tools
    assert per_tool <= CACHE_BYTES_PER_TOOL, f"{per_tool:.0f} bytes per tool"
