"""Wheels that carry their schema caches, built, installed and loaded as production does.

The example project in ``tests/wheel_project`` (a package with tools in it
and in a subpackage) is copied to a temporary directory; mypy with the
toolcall plugin writes its caches there; ``build`` (PEP 517) makes a wheel
with hatchling and one with setuptools, each configured as
docs/mypy-plugin.md says. Each wheel is installed into a fresh virtual
environment, next to a wheel of toolcall itself, with no source tree on the
path, and ``tests/wheel_project/probe.py`` runs there under ``python -OO``
and ``TOOLCALL_CACHE=require``: from the installed package, then from the
package zipped (``zipimport``). What it prints must equal, as text, what
introspection gives in the development environment under plain python.

Slow by nature (mypy, five builds, one virtual environment, pip): about
20 seconds. Skipped only where ``build``, ``hatchling`` or ``setuptools``
is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT, TESTS
from tests.pep517 import build_distribution

PROJECT = TESTS / "wheel_project"
BACKENDS = ("hatchling", "setuptools")
CACHES = (
    "shopkit/__toolcall__/__init__.json",
    "shopkit/__toolcall__/orders.json",
    "shopkit/stock/__toolcall__/levels.json",
)
# Every description the project's docstrings give: tools, parameters and the fields of Line and Address.
DESCRIPTIONS = {
    "Check that the shop service answers.",
    "the text the service echoes back",
    "Place an order for delivery.",
    "what to order, one entry per article",
    "One line of an order.",
    'The article number, e.g. "A-100".',
    "How many pieces to order.",
    "the delivery address",
    "street and house number",
    'the city, e.g. "Oslo"',
    "the postal code, digits only",
    "ship by courier the same day",
    "Look up where an order is.",
    "the number on the order confirmation",
    "how much of the history to include",
    "How many pieces of an article are in stock.",
    'the article number, e.g. "A-100"',
    "the warehouse to count in",
}
# Settings of the calling environment that would put another tree on the path or change the runs.
_UNSET = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONOPTIMIZE", "PYTHONSAFEPATH", "VIRTUAL_ENV", "MYPYPATH")

pytestmark = pytest.mark.skipif(
    not all(find_spec(name) for name in ("build", "hatchling", "setuptools")),
    reason="building wheels needs build, hatchling and setuptools (the dev extra)",
)


@dataclass(frozen=True)
class Built:
    """A backend's wheels of the example: built from the tree, and built from its sdist (``python -m build``)."""

    wheel: Path
    wheel_from_sdist: Path


@dataclass(frozen=True)
class Venv:
    """A fresh virtual environment with toolcall installed from its wheel."""

    python: Path
    site_packages: Path


def _env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _UNSET and not key.startswith("TOOLCALL_")}
    env.update(extra)
    return env


def _run(command: list[str | Path], cwd: Path, env: Mapping[str, str] | None = None) -> str:
    """Run a command; on failure, fail the test with its output."""
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env or _env(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} exited {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _build(source: Path, outdir: Path, *options: str) -> Path:
    build_distribution(source, outdir, *options)
    (wheel,) = outdir.glob("*.whl")
    return wheel


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example project, copied, with the caches mypy and the plugin write."""
    copy = tmp_path_factory.mktemp("wheel-project") / "shopkit"
    shutil.copytree(PROJECT, copy, ignore=shutil.ignore_patterns("__pycache__", "__toolcall__", ".mypy_cache"))
    _run([sys.executable, "-m", "mypy"], cwd=copy)
    assert sorted(str(path.relative_to(copy / "src")) for path in copy.glob("src/**/__toolcall__/*.json")) == sorted(
        CACHES
    )
    return copy


@pytest.fixture(scope="module")
def wheels(project: Path) -> dict[str, Built]:
    """Each backend's wheels, its pyproject.toml copied into place in turn."""
    built: dict[str, Built] = {}
    for backend in BACKENDS:
        shutil.copyfile(project / f"pyproject.{backend}.toml", project / "pyproject.toml")
        for leftover in (*project.glob("build"), *project.glob("src/*.egg-info")):
            shutil.rmtree(leftover)  # setuptools' working files would carry over to the next build
        out = project.parent / f"dist-{backend}"
        wheel = _build(project, out / "wheel", "--wheel")
        built[backend] = Built(wheel, _build(project, out / "sdist"))
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, toolcall_wheel: Path) -> Venv:
    """One fresh environment for every backend's wheel; toolcall's dependencies come from the package index."""
    home = tmp_path_factory.mktemp("venv") / "env"
    # pip comes from this environment's pip: a Debian-built Python's ensurepip may offer one too old for it.
    _run([sys.executable, "-m", "venv", "--without-pip", home], cwd=home.parent)
    python = home / "bin" / "python"
    _run([sys.executable, "-m", "pip", "-q", "--python", python, "install", "pip"], cwd=home.parent)
    _run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", toolcall_wheel], cwd=home.parent)
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=home.parent)
    return Venv(python, Path(purelib.strip()))


@pytest.fixture(scope="module", params=BACKENDS)
def installed(request: pytest.FixtureRequest, venv: Venv, wheels: dict[str, Built]) -> Iterator[str]:
    """The backend's wheel installed into the shared environment (and uninstalled after its tests)."""
    backend: str = request.param
    pip = [venv.python, "-m", "pip", "-q", "--disable-pip-version-check"]
    _run([*pip, "install", wheels[backend].wheel], cwd=venv.site_packages)
    yield backend
    _run([*pip, "uninstall", "-y", "shopkit"], cwd=venv.site_packages)


@pytest.fixture(scope="module")
def reference(project: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """What introspection gives in the development environment, plain python, caches off."""
    where, report = _probe(sys.executable, tmp_path_factory.mktemp("reference"), project / "src", "off")
    assert where["optimize"] == 0
    return report


def _probe(python: str | Path, cwd: Path, path: Path | None, cache: str, *flags: str) -> tuple[dict[str, Any], str]:
    """Run probe.py from an otherwise empty working directory: where it imported things from, and its report."""
    shutil.copyfile(PROJECT / "probe.py", cwd / "probe.py")
    extra = {"TOOLCALL_CACHE": cache} | ({"PYTHONPATH": str(path)} if path is not None else {})
    where, report = _run([python, *flags, "-W", "error", "probe.py"], cwd=cwd, env=_env(**extra)).splitlines()
    return json.loads(where), report


def _descriptions(node: object) -> set[str]:
    """Every ``description`` string anywhere in a JSON value."""
    if isinstance(node, list):
        return set().union(*map(_descriptions, node))
    if isinstance(node, dict):
        own = {node["description"]} if isinstance(node.get("description"), str) else set()
        return own.union(*map(_descriptions, node.values()))
    return set()


def _check_report(report: str, reference: str) -> None:
    """The -OO report has every description, equals introspection's as text, and dispatches as docs/dispatch.md says."""
    content = json.loads(report)
    assert _descriptions(content["describe"]) == DESCRIPTIONS
    assert _descriptions([variants["openai"] for variants in content["emit"].values()]) == DESCRIPTIONS
    assert report == reference
    calls = content["calls"]
    assert calls[1] == {"ok": True, "value": {"pieces": 3, "city": "Oslo", "express": False}}
    assert calls[6] == {
        "ok": False,
        "error": {
            "error": "argument_errors",
            "errors": [
                {"error": "missing_argument", "name": "sku"},
                {
                    "error": "invalid_argument",
                    "name": "warehouse",
                    "reason": {"code": "not_in_enum", "value": "east", "path": [], "detail": 'one of "north", "south"'},
                },
            ],
        },
        "text": '2 problems with the arguments: missing required argument "sku"; invalid argument "warehouse": '
        'not one of the allowed values (one of "north", "south"), got "east"',
    }


def test_wheel_holds_the_caches(installed: str, wheels: dict[str, Built], project: Path) -> None:
    built = wheels[installed]
    with zipfile.ZipFile(built.wheel) as wheel, zipfile.ZipFile(built.wheel_from_sdist) as from_sdist:
        for name in CACHES:
            assert wheel.read(name) == (project / "src" / name).read_bytes(), name
        # ``python -m build`` makes the wheel from the sdist: it must carry the caches too.
        assert sorted(from_sdist.namelist()) == sorted(wheel.namelist())
        for name in CACHES:
            assert from_sdist.read(name) == wheel.read(name), name


def test_installed_wheel_serves_every_description_under_OO(
    installed: str, venv: Venv, reference: str, tmp_path: Path
) -> None:
    where, report = _probe(venv.python, tmp_path, None, "require", "-OO")
    assert where["optimize"] == 2
    package = venv.site_packages / "shopkit"
    assert where["files"] == {
        "shopkit": str(package / "__init__.py"),
        "shopkit.orders": str(package / "orders.py"),
        "shopkit.stock.levels": str(package / "stock" / "levels.py"),
    }
    assert where["toolcall"] == str(venv.site_packages / "toolcall" / "__init__.py")
    assert not [entry for entry in where["path"] if entry and Path(entry).resolve().is_relative_to(ROOT)]
    _check_report(report, reference)


def test_zipped_package_serves_every_description_under_OO(
    installed: str, venv: Venv, reference: str, tmp_path: Path
) -> None:
    archive = tmp_path / "shopkit.zip"
    _zip_package(venv.site_packages / "shopkit", archive)
    work = tmp_path / "work"
    work.mkdir()
    where, report = _probe(venv.python, work, archive, "require", "-OO")
    assert where["files"] == {
        "shopkit": str(archive / "shopkit" / "__init__.py"),
        "shopkit.orders": str(archive / "shopkit" / "orders.py"),
        "shopkit.stock.levels": str(archive / "shopkit" / "stock" / "levels.py"),
    }
    _check_report(report, reference)


def _zip_package(package: Path, archive: Path) -> None:
    """The installed package folder as a zip, its caches included (compiled files left out)."""
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out.write(path, path.relative_to(package.parent).as_posix())
