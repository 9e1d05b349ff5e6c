"""toolcall's own distribution: the sdist and wheels that `python -m build` makes, read as real archives.

The session builds twice, without isolation (the dev environment has the backend, so no network):
`python -m build` makes the sdist and then, as it does by default, the wheel from the unpacked
sdist; `python -m build --wheel` makes a second wheel straight from the source tree.
"""

from __future__ import annotations

import ast
import configparser
import email.message
import email.parser
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from packaging.requirements import Requirement

from tests.paths import ROOT
from tests.pep517 import build_distribution

PACKAGES = ("toolcall", "toolcall_mypy")
# What the sdist holds besides the packages and the user docs (docs/decisions.md); hatchling adds
# PKG-INFO, and .gitignore so a wheel built from the sdist leaves out what the tree's wheel leaves out.
SDIST_TOP_FILES = {"PKG-INFO", ".gitignore", "pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE"}
JUNK_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "dist", "build", "results"}


@dataclass(frozen=True)
class Built:
    """The artifacts of one session's builds."""

    sdist: Path
    wheel: Path  # built by `python -m build` from the unpacked sdist
    tree_wheel: Path  # built by `python -m build --wheel` from the source tree


def pyproject() -> dict[str, Any]:
    """The project's pyproject.toml, parsed."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def project() -> dict[str, Any]:
    """pyproject.toml's [project] table."""
    table: dict[str, Any] = pyproject()["project"]
    return table


def only(directory: Path, pattern: str) -> Path:
    """The single file in directory that matches pattern."""
    found = sorted(directory.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {directory}, found {[p.name for p in found]}"
    return found[0]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory, toolcall_wheel: Path) -> Built:
    """Build the sdist and the wheel from it, once per session; the tree's wheel is the shared fixture's."""
    from_sdist = tmp_path_factory.mktemp("dist-from-sdist")
    build_distribution(ROOT, from_sdist)
    return Built(sdist=only(from_sdist, "*.tar.gz"), wheel=only(from_sdist, "*.whl"), tree_wheel=toolcall_wheel)


def dist_info() -> str:
    """The wheel's .dist-info directory name."""
    return f"toolcall-{project()['version']}.dist-info"


def wheel_text(built: Built, name: str) -> str:
    """A member of the wheel (built from the sdist), as text."""
    with zipfile.ZipFile(built.wheel) as wheel:
        return wheel.read(name).decode("utf-8")


def wheel_metadata(built: Built) -> email.message.Message:
    """The wheel's METADATA, parsed as the core metadata spec says (an email message)."""
    return email.parser.Parser().parsestr(wheel_text(built, f"{dist_info()}/METADATA"))


def sdist_top() -> str:
    """The sdist's top directory."""
    return f"toolcall-{project()['version']}"


def sdist_text(built: Built, name: str) -> str:
    """A member of the sdist, by path below its top directory, as text."""
    with tarfile.open(built.sdist) as sdist:
        file = sdist.extractfile(f"{sdist_top()}/{name}")
        assert file is not None, name
        return file.read().decode("utf-8")


def sdist_members(built: Built) -> dict[str, tarfile.TarInfo]:
    """The sdist's members by path below its top directory (`toolcall-<version>/`)."""
    top = sdist_top()
    with tarfile.open(built.sdist) as sdist:
        members = sdist.getmembers()
    assert all(PurePosixPath(m.name).parts[0] == top for m in members), [m.name for m in members]
    return {str(PurePosixPath(*PurePosixPath(m.name).parts[1:])): m for m in members if m.name != top}


def package_files_in_tree() -> set[str]:
    """Every file of the packages in the source tree, bytecode caches excepted (they are gitignored)."""
    return {
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def requirement_texts(texts: list[str]) -> list[str]:
    """Requirements in packaging's normal form (names, sorted specifiers, double-quoted markers), sorted."""
    return sorted(str(Requirement(text)) for text in texts)


def test_build_makes_an_sdist_and_a_wheel_named_for_this_version(built: Built) -> None:
    version = project()["version"]
    assert built.sdist.name == f"toolcall-{version}.tar.gz"
    assert built.wheel.name == f"toolcall-{version}-py3-none-any.whl"
    assert built.tree_wheel.name == built.wheel.name


def test_twine_check_passes_on_the_sdist_and_the_wheel(built: Built) -> None:
    # --strict turns twine's warnings (no long description, no content type) into failures.
    command = [sys.executable, "-m", "twine", "check", "--strict", str(built.sdist), str(built.wheel)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_wheel_holds_the_packages_files_and_only_them(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        names = wheel.namelist()
    info = dist_info()
    assert {n for n in names if not n.startswith(f"{info}/")} == package_files_in_tree()
    assert {n for n in names if n.startswith(f"{info}/")} == {
        f"{info}/{n}" for n in ("METADATA", "WHEEL", "entry_points.txt", "licenses/LICENSE", "RECORD")
    }
    assert len(names) == len(set(names))


@pytest.mark.parametrize("package", PACKAGES)
def test_wheel_marks_each_package_typed(built: Built, package: str) -> None:
    # PEP 561: without py.typed, mypy and pyright ignore an installed package's annotations.
    with zipfile.ZipFile(built.wheel) as wheel:
        assert f"{package}/py.typed" in wheel.namelist()


def test_wheel_metadata_names_the_project_and_its_version(built: Built) -> None:
    metadata = wheel_metadata(built)
    assert metadata["Name"] == project()["name"]
    assert metadata["Version"] == project()["version"]
    assert metadata["Requires-Python"] == project()["requires-python"]
    assert metadata.get_all("Classifier") == project()["classifiers"]
    # The version the package reports is the one it is published as.
    init = ast.parse(wheel_text(built, "toolcall/__init__.py"))
    versions = [
        node.value.value
        for node in init.body
        if isinstance(node, ast.Assign)
        and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__version__"]
        and isinstance(node.value, ast.Constant)
    ]
    assert versions == [project()["version"]]


def with_extra(requirement: str, extra: str) -> str:
    """``requirement`` as the wheel lists it under ``extra``: its own marker, if any, and the extra's."""
    text, _, marker = requirement.partition(";")
    both = f"({marker.strip()}) and " if marker else ""
    return f'{text.strip()}; {both}extra == "{extra}"'


def test_wheel_extras_are_pyprojects_optional_dependencies(built: Built) -> None:
    metadata = wheel_metadata(built)
    extras: dict[str, list[str]] = project()["optional-dependencies"]
    assert sorted(metadata.get_all("Provides-Extra") or []) == sorted(extras)
    assert sorted(extras) == ["dev", "docs", "fast", "langchain", "mcp", "mypy", "openai-agents", "pydantic-ai"]
    expected = list(project()["dependencies"]) + [
        with_extra(requirement, extra) for extra, requirements in extras.items() for requirement in requirements
    ]
    assert requirement_texts(metadata.get_all("Requires-Dist") or []) == requirement_texts(expected)


def test_wheel_installs_the_toolcall_console_script(built: Built) -> None:
    entry_points = configparser.ConfigParser()
    entry_points.optionxform = str  # script names are case-sensitive
    entry_points.read_string(wheel_text(built, f"{dist_info()}/entry_points.txt"))
    scripts = dict(entry_points["console_scripts"])
    assert scripts == {"toolcall": "toolcall.__main__:main"} == project()["scripts"]
    # The target exists in the wheel: a module-level `main` in toolcall/__main__.py.
    module, function = scripts["toolcall"].split(":")
    tree = ast.parse(wheel_text(built, module.replace(".", "/") + ".py"))
    assert function in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


class Headings(HTMLParser):
    """The text of each heading in an HTML page, and how many <pre> blocks it has."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.pre_blocks = 0
        self._inside: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self._inside = tag
            self.headings.append("")
        elif tag == "pre":
            self.pre_blocks += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == self._inside:
            self._inside = None

    def handle_data(self, data: str) -> None:
        if self._inside is not None:
            self.headings[-1] += data


def markdown_outline(text: str) -> tuple[list[str], int]:
    """A Markdown text's ATX headings (outside fenced code) and its number of fenced blocks."""
    headings: list[str] = []
    fences = 0
    in_fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fences += not in_fence
            in_fence = not in_fence
        elif not in_fence and (match := re.match(r"#{1,6} (.*)", line)):
            headings.append(match.group(1).strip())
    return headings, fences


def test_readme_is_the_long_description_and_renders_on_the_index(built: Built) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    metadata = wheel_metadata(built)
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload() == readme
    # twine check does not render Markdown; the package index renders it with readme_renderer
    # (its "md" extra). Every heading and code block of the README must come through.
    from readme_renderer.markdown import render

    html = render(metadata.get_payload())
    assert html is not None, "readme_renderer[md] is needed to render Markdown"
    page = Headings()
    page.feed(html)
    assert (page.headings, page.pre_blocks) == markdown_outline(readme)


def test_wheel_carries_the_mit_license(built: Built) -> None:
    metadata = wheel_metadata(built)
    assert project()["license"] == "MIT"
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the toolcall authors" in license_text
    assert wheel_text(built, f"{dist_info()}/licenses/LICENSE") == license_text


def test_sdist_holds_what_builds_the_wheel_and_the_user_docs(built: Built) -> None:
    members = sdist_members(built)
    files = {name for name, member in members.items() if member.isfile()}
    docs = {path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md")}
    assert files == SDIST_TOP_FILES | package_files_in_tree() | docs
    assert all(member.isfile() or member.isdir() for member in members.values())
    # What it holds is what the wheel is built from: the same pyproject, README and license.
    for name in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md"):
        assert sdist_text(built, name) == (ROOT / name).read_text(encoding="utf-8"), name
    assert email.parser.Parser().parsestr(sdist_text(built, "PKG-INFO"))["Version"] == project()["version"]


def test_sdist_holds_no_junk(built: Built) -> None:
    # The tree has virtual envs, tool caches, bytecode, build output and the examples' generated files.
    for name in sdist_members(built):
        parts = PurePosixPath(name).parts
        assert not JUNK_PARTS.intersection(parts), name
        assert not any(part.startswith(".venv") for part in parts), name
        assert not name.endswith((".pyc", ".pyo")), name
        assert parts[0] in {*PACKAGES, "docs"} or name in SDIST_TOP_FILES, name


def test_wheel_from_the_sdist_is_the_wheel_from_the_tree(built: Built) -> None:
    # Every member is compared, RECORD and WHEEL included: RECORD lists each file's hash, so it is
    # equal exactly when every file is; WHEEL names the backend's version, and both builds ran the
    # same backend. Hatchling writes fixed timestamps and modes, so the archives match byte for byte.
    with zipfile.ZipFile(built.wheel) as from_sdist, zipfile.ZipFile(built.tree_wheel) as from_tree:
        assert from_sdist.namelist() == from_tree.namelist()
        for name in from_tree.namelist():
            assert from_sdist.read(name) == from_tree.read(name), name
            left, right = from_sdist.getinfo(name), from_tree.getinfo(name)
            assert (left.date_time, left.external_attr) == (right.date_time, right.external_attr), name
    assert built.wheel.read_bytes() == built.tree_wheel.read_bytes()


def test_changelog_records_this_version_first() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)
    assert versions, "CHANGELOG.md has no version sections"
    assert versions[0] == project()["version"]
    assert len(versions) == len(set(versions))
    # Each version section has at least one entry under a Keep a Changelog heading.
    sections = re.split(r"^## ", changelog, flags=re.MULTILINE)[1:]
    for section in sections:
        assert re.search(r"^### (Added|Changed|Deprecated|Removed|Fixed|Security)\n\n- ", section, re.M), section
