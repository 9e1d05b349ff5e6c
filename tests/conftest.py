"""Fixtures shared by the plugin's cache tests (``tests/plugin_project.py``), and what ``-m threads`` collects."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.paths import ROOT
from tests.pep517 import build_distribution

if TYPE_CHECKING:
    # Imported where used: it needs mypy, and the thread tests run on builds without it (``-m threads``).
    from tests.plugin_project import Project


@pytest.fixture(params=["msgspec", "orjson", "json"])
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each decoder the adapters can choose for arguments text, chosen as if only it were installed."""
    import sys

    from toolcall._once import OnceCell
    from toolcall._wire import json_decode

    name: str = request.param
    blocked = {"msgspec": (), "orjson": ("msgspec",), "json": ("msgspec", "orjson")}[name]
    for module in blocked:
        monkeypatch.setitem(sys.modules, module, None)  # an import of it raises ImportError
    monkeypatch.setattr(json_decode, "_CHOSEN", OnceCell())  # chosen afresh
    assert json_decode.fast_decoder_name() == name
    return name


@pytest.fixture
def project(tmp_path: Path) -> Project:
    from tests.plugin_project import Project

    return Project(tmp_path / "project")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The cache file a cold run writes, in a project of its own."""
    from tests.plugin_project import Project

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


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m threads``, leave unimported the test files that mark no test ``threads``.

    The thread tests run on the free-threaded build with only pytest, hypothesis and toolcall's own
    dependencies installed: other files import the SDKs, mypy and the extras, and would fail to collect.
    """
    if config.getoption("markexpr") != "threads" or not collection_path.name.startswith("test_"):
        return None
    if collection_path.suffix != ".py" or "mark.threads" in collection_path.read_text(encoding="utf-8"):
        return None  # pytest decides, as it would without ``-m threads``
    return True
