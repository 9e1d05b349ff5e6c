"""The documentation site builds with ``mkdocs build --strict``, and strict mode catches what it must.

A broken link, a missing anchor or a public name without a docstring fails
the build (the docstring check is ``scripts/mkdocs_hooks.py``). The code
samples of the getting-started and provider pages run as written, with the
SDK clients pointed at a local replay server, and print what their comments
say.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

from tests.doc_samples import named_file
from tests.mypy_settings import INI as SKIP_SDKS
from tests.paths import ROOT
from tests.replay_server import Anthropic, Call, Conversation, OpenAI, Turn, replay

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings_handlers.python")

#: The modules whose ``__all__`` is public API, each with its reference page.
PUBLIC_MODULES: Final = (
    "toolcall",
    "toolcall.errors",
    "toolcall.openai",
    "toolcall.anthropic",
    "toolcall.gemini",
    "toolcall.langchain",
    "toolcall.openai_agents",
    "toolcall.pydantic_ai",
    "toolcall_mypy",
)


def load_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts" / "mkdocs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(project: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(project / "mkdocs.yml"), "-d", str(out)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=project,
    )


def site_copy(tmp_path: Path) -> Path:
    """A copy of the site's sources, with the packages it documents linked in."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "docs", project / "docs")
    (project / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", project / "scripts")
    shutil.copy(ROOT / "mkdocs.yml", project)
    for package in ("toolcall", "toolcall_mypy"):
        (project / package).symlink_to(ROOT / package)
    return project


def test_site_builds_strictly_with_the_api_reference(tmp_path: Path) -> None:
    run = build(ROOT, tmp_path / "site")
    assert run.returncode == 0, run.stderr
    reference = (tmp_path / "site" / "reference" / "toolcall" / "index.html").read_text(encoding="utf-8")
    for name in (
        "toolcall.tool",
        "toolcall.run",
        "toolcall.Toolset",
        "toolcall.emit",
        "toolcall.Injected",
    ):
        assert f'id="{name}"' in reference, name
    # `Injected` is documented by a `#:` comment: the reference shows its text.
    assert "keeps a parameter out of every schema" in reference
    errors = (tmp_path / "site" / "reference" / "errors" / "index.html").read_text(encoding="utf-8")
    assert 'id="toolcall.errors.InvalidArgument"' in errors
    assert 'id="toolcall.errors.SchemaError"' in errors  # the exceptions raised to the programmer


def test_every_public_module_has_a_reference_page() -> None:
    rendered = load_hooks().rendered_objects(ROOT / "docs")
    assert [module for module in PUBLIC_MODULES if module not in rendered] == []


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    project = site_copy(tmp_path)
    start = project / "docs" / "index.md"
    original = start.read_text(encoding="utf-8")
    start.write_text(original + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    run = build(project, tmp_path / "site")
    assert run.returncode != 0
    assert "no-such-page.md" in run.stderr
    start.write_text(original + "\n[gone](types.md#no-such-anchor)\n", encoding="utf-8")
    run = build(project, tmp_path / "site")
    assert run.returncode != 0
    assert "no-such-anchor" in run.stderr


THROWAWAY: Final = '''"""A package for the docstring check."""

__all__ = ["LIMIT", "Thing", "bare", "documented", "shadow"]

#: A constant documented by a doc comment.
LIMIT = 3


class Thing:
    """A class with one undocumented method."""

    def method(self) -> None:
        pass

    def _private(self) -> None:
        pass


def bare() -> None:
    pass


def documented() -> None:
    """Has a docstring."""
'''


def throwaway_package(root: Path) -> None:
    """``throwaway``, whose ``shadow`` is an undocumented function imported over a documented submodule."""
    package = root / "throwaway"
    package.mkdir()
    (package / "__init__.py").write_text(THROWAWAY + "\nfrom throwaway.shadow import shadow\n", encoding="utf-8")
    (package / "shadow.py").write_text('"""A documented submodule."""\n\n\ndef shadow() -> None:\n    pass\n')


def test_the_hook_finds_public_names_without_a_docstring(tmp_path: Path) -> None:
    hooks = load_hooks()
    assert hooks.undocumented(list(PUBLIC_MODULES), [ROOT]) == []
    throwaway_package(tmp_path)
    found = hooks.undocumented(["throwaway"], [tmp_path])
    assert found == ["throwaway.Thing.method", "throwaway.bare", "throwaway.shadow"]


def test_a_public_name_without_a_docstring_fails_the_build(tmp_path: Path) -> None:
    project = site_copy(tmp_path)
    throwaway_package(project)
    (project / "docs" / "reference" / "throwaway.md").write_text("# throwaway\n\n::: throwaway\n", encoding="utf-8")
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace(
        "      - toolcall_mypy: reference/toolcall_mypy.md\n", "&\n      - throwaway: reference/throwaway.md\n"
    )
    config.write_text(text.replace("&\n", "      - toolcall_mypy: reference/toolcall_mypy.md\n"), encoding="utf-8")
    run = build(project, tmp_path / "site")
    assert run.returncode != 0
    warned = re.findall(r"public name without a docstring: (\S+)", run.stderr)
    assert warned == ["throwaway.Thing.method", "throwaway.bare", "throwaway.shadow"]


# -- the code samples ------------------------------------------------------------------------------

SAMPLE_PAGES: Final = (
    "getting-started.md",
    "providers/openai.md",
    "providers/anthropic.md",
    "providers/mcp.md",
    "providers/gemini.md",
)
#: A fenced Python block; the group before it holds a ``<!-- not run: ... -->`` marker when there is one.
FENCE: Final = re.compile(r'(<!-- not run:[^>]*-->\n)?```python(?: title="([\w./]+)")?\n(.*?)```', re.DOTALL)
#: A sample line that says what it prints, ``print(x)  # what it prints``, or a block of what a sample prints.
EXPECTED: Final = re.compile(
    r"^[ \t]*print\([^\n]*\)  # ([^\n]+)$|^prints\n\n```text\n(.*?)```", re.MULTILINE | re.DOTALL
)
QUESTION: Final = "Weather in Oslo?"
ANSWER: Final = "It is 21.5 °C in Oslo."
CHAT: Final = Conversation(
    QUESTION,
    (
        Turn("chatcmpl-docs1", calls=(Call("call_docs1", "get_weather", '{"city":"Oslo"}'),)),
        Turn("chatcmpl-docs2", text=ANSWER),
    ),
)
MESSAGES: Final = Conversation(
    QUESTION,
    (
        Turn("msg_docs1", calls=(Call("toolu_docs1", "get_weather", {"city": "Oslo"}),)),
        Turn("msg_docs2", text=ANSWER),
    ),
)


def expected_output(page: str) -> list[str]:
    """The lines a page's samples say they print, in page order."""
    found: list[str] = []
    for line, block in EXPECTED.findall((ROOT / "docs" / page).read_text(encoding="utf-8")):
        found += [line.strip()] if line else block.splitlines()
    return found


def samples(page: str) -> tuple[dict[str, str], str]:
    """The files a page's samples write (titled or path-named blocks) and its other blocks as one script, in order."""
    files: dict[str, str] = {}
    script: list[str] = []
    for not_run, title, code in FENCE.findall((ROOT / "docs" / page).read_text(encoding="utf-8")):
        path = named_file(title, code)
        if path:
            files[path] = code
        elif not not_run:
            script.append(code)
    return files, "\n".join(script)


@pytest.mark.parametrize("page", SAMPLE_PAGES)
def test_the_code_samples_run_and_print_what_they_say(page: str, tmp_path: Path) -> None:
    files, script = samples(page)
    files.setdefault("weather.py", samples("getting-started.md")[0]["weather.py"])
    for name, code in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code, encoding="utf-8")
    (tmp_path / "sample.py").write_text(script, encoding="utf-8")
    with ExitStack() as stack:
        chat = stack.enter_context(replay(OpenAI(), CHAT))
        messages = stack.enter_context(replay(Anthropic(), MESSAGES))
        env = {name: value for name, value in os.environ.items() if not name.lower().endswith("_proxy")}
        env |= {"NO_PROXY": "127.0.0.1", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
        env |= {"OPENAI_BASE_URL": chat.url + "/v1", "OPENAI_API_KEY": "sk-test-replay"}
        env |= {"ANTHROPIC_BASE_URL": messages.url, "ANTHROPIC_API_KEY": "sk-test-replay"}
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        run = subprocess.run(
            [sys.executable, "sample.py"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120
        )
    assert run.returncode == 0, run.stderr
    printed = run.stdout.splitlines()
    expected = expected_output(page)
    assert [line for line in printed if line in expected] == expected, run.stdout


@pytest.mark.parametrize("page", SAMPLE_PAGES)
def test_the_code_samples_pass_the_plugin_with_no_code_disabled(page: str, tmp_path: Path) -> None:
    """mypy with the plugin and nothing disabled reports no error of toolcall's on a page's samples (notes pass)."""
    pytest.importorskip("mypy")
    files, script = samples(page)
    files.setdefault("weather.py", samples("getting-started.md")[0]["weather.py"])
    for name, code in {**files, "sample.py": script}.items():
        (tmp_path / name).write_text(code, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = toolcall_mypy\n" + SKIP_SDKS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            "mypy.ini",
            "--cache-dir",
            str(tmp_path / ".mc"),
            *sorted(files),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode in (0, 1), run.stderr
    assert [line for line in run.stdout.splitlines() if ": error: " in line and "[toolcall-" in line] == []
    assert (tmp_path / "__toolcall__" / "weather.json").is_file()  # the plugin ran over the tools
