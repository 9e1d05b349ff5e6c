"""The mypy plugin's settings: where they are read from, what a bad one does."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mypy")

from toolcall_mypy import _config as config
from toolcall_mypy._config import Settings


def test_defaults_without_a_config_file_or_section(tmp_path: Path) -> None:
    assert config.load(None) == (Settings(), ())
    ini = tmp_path / "mypy.ini"
    ini.write_text("[mypy]\nplugins = toolcall_mypy\n")
    assert config.load(str(ini)) == (Settings(), ())
    assert Settings().strict
    assert Settings().cache


def test_pyproject_section(tmp_path: Path) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[tool.toolcall]\nstrict = false\ninclude = ["app.*"]\nexclude = "app.legacy.*"\n')
    assert config.load(str(toml)) == (Settings(strict=False, include=("app.*",), exclude=("app.legacy.*",)), ())


def test_ini_section_and_the_pyproject_beside_it(tmp_path: Path) -> None:
    cfg = tmp_path / "setup.cfg"
    cfg.write_text("[mypy]\n[toolcall]\ncache = off\nexclude =\n  app.gen\n  app.legacy.*\n")
    assert config.load(str(cfg)) == (Settings(cache=False, exclude=("app.gen", "app.legacy.*")), ())
    ini = tmp_path / "mypy.ini"
    ini.write_text("[mypy]\n")
    (tmp_path / "pyproject.toml").write_text("[tool.toolcall]\nstrict = false\n")
    assert config.load(str(ini)) == (Settings(strict=False), ())


def test_unknown_keys_and_bad_values_warn_and_keep_the_default(tmp_path: Path) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[tool.toolcall]\nstritc = true\ncache = "maybe"\ninclude = 3\n')
    settings, problems = config.load(str(toml))
    assert settings == Settings()
    assert problems == (
        "pyproject.toml: [tool.toolcall]: unknown setting 'stritc' "
        "(known: cache, exclude, include, providers, strict); it is ignored",
        "pyproject.toml: [tool.toolcall]: cache = 'maybe' is not true or false; using the default",
        "pyproject.toml: [tool.toolcall]: include = 3 is not a list of module patterns; using the default",
    )


def test_unreadable_file_keeps_the_defaults(tmp_path: Path) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text("[tool.toolcall\n")
    settings, (problem,) = config.load(str(toml))
    assert settings == Settings()
    assert "cannot read the toolcall settings" in problem


@pytest.mark.parametrize(
    ("module", "handled"),
    [
        ("app", True),
        ("app.tools", True),
        ("apple", False),
        ("app.legacy", False),
        ("app.legacy.old", False),
        ("app.gen_users", False),
        ("other", False),
    ],
)
def test_include_and_exclude_patterns(module: str, handled: bool) -> None:
    settings = Settings(include=("app.*",), exclude=("app.legacy.*", "*.gen_*"))
    assert settings.handles(module) is handled


def test_the_digest_follows_the_settings() -> None:
    assert Settings().digest() == Settings().digest()
    assert Settings(strict=False).digest() != Settings().digest()


def test_providers_name_the_families_a_project_sends_tools_to(tmp_path: Path) -> None:
    toml = tmp_path / "pyproject.toml"
    assert Settings().providers == {"openai", "anthropic", "mcp", "gemini"}
    toml.write_text('[tool.toolcall]\nproviders = ["openai", "gemini"]\n')
    assert config.load(str(toml)) == (Settings(providers=frozenset({"openai", "gemini"})), ())
    ini = tmp_path / "mypy.ini"
    ini.write_text("[mypy]\n[toolcall]\nproviders = anthropic, mcp\n")
    assert config.load(str(ini)) == (Settings(providers=frozenset({"anthropic", "mcp"})), ())
    for bad in ('["openai-responses"]', '["bedrock"]', "[]", "3"):
        toml.write_text(f"[tool.toolcall]\nproviders = {bad}\n")
        settings, (problem,) = config.load(str(toml))
        assert settings == Settings()
        assert problem.endswith("is not a non-empty list of 'openai', 'anthropic', 'mcp', 'gemini'; using the default")
    assert Settings(providers=frozenset({"openai"})).digest() != Settings().digest()
