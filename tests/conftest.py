"""Fixtures shared by the plugin's cache tests (``tests/plugin_project.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.pep517 import build_distribution
from tests.plugin_project import Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "project")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The cache file a cold run writes, in a project of its own."""
    cold = Project(tmp_path_factory.mktemp("reference") / "project")
    cold.mypy()
    return cold.cache.read_bytes()


@pytest.fixture(scope="session")
def toolcall_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of this repository's toolcall built from the tree (``--wheel``), once per session."""
    outdir = tmp_path_factory.mktemp("toolcall-wheel")
    build_distribution(ROOT, outdir, "--wheel")
    (wheel,) = outdir.glob("*.whl")
    return wheel
