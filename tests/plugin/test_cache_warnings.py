"""A tool warns the same ``ToolcallWarning``s whether its IR comes from the schema cache or from introspection.

The corpus project of ``test_cache_differential`` (every tool module of
``tests/corpus``, ``tests/analysis_cases``, ``tests/sources`` and
``examples``, checked once by mypy with the plugin) is imported by two fresh
interpreters, one with ``TOOLCALL_CACHE=require`` (each tool served from its
cache entry, or it raises) and one with ``TOOLCALL_CACHE=off`` (each
introspected). Each records, per module, the text of every ``ToolcallWarning``
that loading the module's tools and emitting every provider variant raises,
in order; the two ordered lists must be equal for every module.
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Final

from tests.plugin.test_cache_differential import REFUSED, UNLOADABLE, Checked, corpus_project, run_mypy
from tests.plugin_project import Project, environment, wrote
from tests.unit.test_cli_export import toolcall
from toolcall._cache import file_format

__all__ = ["corpus_project"]  # the fixture, shared with the differential test

# Runs in a fresh interpreter in the project directory: argv[1] a JSON list of module names, argv[2]
# where to write, per module, the ToolcallWarning texts of its first use in order (or why it failed).
CHILD: Final = r"""
import importlib, json, sys, warnings
from pathlib import Path

import toolcall
from toolcall._providers import VARIANTS

results = {}
for name in json.loads(Path(sys.argv[1]).read_text()):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # every warning, not once per place: a repeat would show
        try:
            module = importlib.import_module(name)
            for provider, strict in VARIANTS:
                try:
                    toolcall.emit(module, provider, strict=strict)
                except ValueError:  # a variant the provider cannot take: both sides alike (the other test)
                    pass
        except Exception as exc:
            results[name] = {"raised": type(exc).__name__}
            continue
    results[name] = {"warnings": [str(w.message) for w in caught if w.category is toolcall.ToolcallWarning]}
Path(sys.argv[2]).write_text(json.dumps(results))
"""


def warnings_of(project: Path, modules: list[str], mode: str) -> dict[str, dict[str, Any]]:
    """Each module's ``ToolcallWarning`` texts under ``TOOLCALL_CACHE=mode``, in one fresh interpreter."""
    request, out = project / f".warnings-request-{mode}.json", project / f".warnings-results-{mode}.json"
    request.write_text(json.dumps(modules))
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(request), str(out)],
        cwd=project,
        env=environment() | {"TOOLCALL_CACHE": mode},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found: dict[str, dict[str, Any]] = json.loads(out.read_text())
    return found


def test_corpus_modules_warn_alike_served_and_introspected(corpus_project: Checked) -> None:
    project, modules = corpus_project.project, corpus_project.modules
    served = warnings_of(project, modules, "require")
    introspected = warnings_of(project, modules, "off")
    failed = {module for module, found in served.items() if "raised" in found}
    assert failed == set(REFUSED) | set(UNLOADABLE), failed
    assert failed == {module for module, found in introspected.items() if "raised" in found}
    differing = {
        module: (served[module]["warnings"], introspected[module]["warnings"])
        for module in modules
        if module not in failed and served[module] != introspected[module]
    }
    assert not differing, "\n".join(
        line
        for module, (ours, theirs) in differing.items()
        for line in difflib.unified_diff(ours, theirs, f"{module} served", f"{module} introspected", lineterm="")
    )
    warned = {module for module in modules if module not in failed and introspected[module]["warnings"]}
    # The corpus warns on first use: the comparison is of something (defaults, docstrings, unbound TypeVars).
    assert {"tests.corpus.defaults", "tests.corpus.docstyles", "tests.corpus.typevars"} <= warned, sorted(warned)


DROPPED_DEFAULT: Final = '''\
"""Tools whose defaults the schema cannot show."""

from datetime import date
from typing import Any

from toolcall import tool


@tool
def count(
    big: int = 2**60,
    *,
    limit: int = 5,
    wild: Any = 1j,
    call: Any = lambda: 1,
    keyed: dict[str, int] = {date(2024, 1, 1): 1},  # type: ignore[dict-item]
) -> int:
    """Count up.

    Args:
        big: where to start
        limt: a misspelt entry
    """
    return big + limit
'''


def test_export_prints_the_same_warnings_from_the_cache(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["toolcall_mypy"]\n')
    (tmp_path / "counting.py").write_text(textwrap.dedent(DROPPED_DEFAULT))
    checked = run_mypy(tmp_path, "counting.py")
    assert "toolcall-default" in checked.stdout, checked.stdout
    assert file_format.cache_path(tmp_path / "counting.py").is_file()
    arguments = ("export", "counting", "--format", "openai", "--strict")
    served = toolcall(tmp_path, *arguments, env={"TOOLCALL_CACHE": "require"})
    introspected = toolcall(tmp_path, *arguments, env={"TOOLCALL_CACHE": "off"})
    assert served.returncode == introspected.returncode == 0, served.stderr + introspected.stderr
    assert served.stdout == introspected.stdout
    lines = served.stderr.splitlines()
    assert lines == introspected.stderr.splitlines()
    not_json = "is not JSON, so the schema omits it; use a str, int, float, bool, list or str-keyed dict default, "
    not_json += "or None and set the value in the body [toolcall-default]"
    # Each finding the analysis makes of the tool, in its order, then what strict OpenAI loses of it.
    assert lines[:5] == [
        "toolcall: warning: count.big: the default 1152921504606846976 is beyond ±(2**53 - 1); use "
        'Annotated[int, Param(wire="string_integer")] to send it as a decimal string [toolcall-default]',
        f"toolcall: warning: count.wild: the default 1j (a complex) {not_json}",
        f"toolcall: warning: count.call: the default <lambda> (a function) {not_json}",
        f"toolcall: warning: count.keyed: the default dict (its key datetime.date(2024, 1, 1) is not a str) {not_json}",
        "toolcall: warning: count: the docstring documents 'limt', which is not a parameter; fix or remove "
        "the entry [toolcall-param]",
    ]


STATIC_ONLY: Final = '''\
"""A tool with findings only the plugin makes, and one both make."""

import time

from toolcall import tool


@tool
def sample(loose: list, started: float = time.time(), plain=1) -> int:  # type: ignore[type-arg,no-untyped-def]
    """Take a sample."""
    return len(loose)
'''


def test_the_entry_records_only_what_introspection_warns(tmp_path: Path) -> None:
    """An implicit Any and a default the plugin cannot evaluate are the plugin's own findings: not recorded."""
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["toolcall_mypy"]\n')
    (tmp_path / "sampling.py").write_text(STATIC_ONLY)
    checked = run_mypy(tmp_path, "sampling.py")
    assert "toolcall-type" in checked.stdout, checked.stdout  # implicit Any: reported by mypy ...
    assert "cannot be read statically" in checked.stdout, checked.stdout
    content = json.loads(file_format.cache_path(tmp_path / "sampling.py").read_text(encoding="utf-8"))
    (entry,) = content["tools"]
    # ... but only the unannotated parameter is a finding introspection warns too.
    assert entry["findings"] == [
        ["toolcall-param", "plain", [], "has no annotation, so its schema is {} (any JSON value); annotate it"]
    ]


def test_a_later_run_records_the_findings_as_they_are_now(tmp_path: Path) -> None:
    """mypy's next run (its cache warm) writes a changed finding, and keeps the file while nothing changed."""
    project = Project(tmp_path)
    project.write("app/tools.py", DROPPED_DEFAULT)

    def recorded() -> list[str]:
        content: dict[str, Any] = json.loads(project.cache.read_text(encoding="utf-8"))
        (entry,) = content["tools"]
        return [message for _, _, _, message in entry["findings"]]

    project.mypy()
    assert recorded()[-1] == "the docstring documents 'limt', which is not a parameter; fix or remove the entry"
    project.edit("limt:", "lmit:")
    project.mypy()
    assert recorded()[-1] == "the docstring documents 'lmit', which is not a parameter; fix or remove the entry"
    written = project.cache.read_bytes()
    again = project.mypy()
    assert project.cache.read_bytes() == written
    assert not wrote(again)
