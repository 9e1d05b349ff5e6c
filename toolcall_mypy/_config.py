"""The plugin's settings: ``[tool.toolcall]`` in pyproject.toml, ``[toolcall]`` in mypy.ini or setup.cfg.

They are read from the file mypy itself uses (``options.config_file``). When
that is an ini file without a ``[toolcall]`` section, ``[tool.toolcall]`` of a
``pyproject.toml`` beside it is used, so settings kept in
pyproject.toml work for projects that keep mypy's own settings in an ini
file. Problems (unknown keys, wrong types) never stop mypy: they are
returned as messages, and the setting keeps its default.
"""

from __future__ import annotations

import configparser
import hashlib
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Final

from toolcall._providers import FAMILIES

__all__ = ["INI_SECTION", "TOML_SECTION", "Settings", "load"]

TOML_SECTION: Final = "tool.toolcall"
INI_SECTION: Final = "toolcall"
_TRUE: Final = frozenset({"1", "yes", "true", "on"})
_FALSE: Final = frozenset({"0", "no", "false", "off"})


@dataclass(frozen=True)
class Settings:
    """What the plugin does.

    ``strict``: report what each strict variant loses (``toolcall-strict``).
    ``providers``: the providers a project sends tools to (``"openai"``
    covers Chat Completions and Responses); findings about other providers
    are not reported. ``cache``: write the schema cache files.
    ``include`` / ``exclude``: module patterns (``pkg.tools``, ``pkg.*`` for a
    package and everything below it, or an ``fnmatch`` glob); a module is
    handled when it matches ``include`` (or ``include`` is empty) and does not
    match ``exclude``.
    """

    strict: bool = True
    providers: frozenset[str] = frozenset(FAMILIES)
    cache: bool = True
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def handles(self, module: str) -> bool:
        """Whether the plugin looks at the tools of ``module``."""
        if self.include and not any(_matches(module, p) for p in self.include):
            return False
        return not any(_matches(module, p) for p in self.exclude)

    def digest(self) -> str:
        """A short digest of the settings, part of every module's mypy cache metadata."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["providers"] = sorted(self.providers)
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _matches(module: str, pattern: str) -> bool:
    if pattern.endswith(".*") and not any(c in pattern[:-2] for c in "*?["):
        prefix = pattern[:-2]
        return module == prefix or module.startswith(prefix + ".")
    return fnmatchcase(module, pattern)


def load(config_file: str | None) -> tuple[Settings, tuple[str, ...]]:
    """The settings in ``config_file`` (mypy's), and messages about problems found there."""
    if not config_file:
        return Settings(), ()
    path = Path(config_file)
    try:
        section = _read(path)
        if section is None and path.suffix != ".toml":
            beside = path.with_name("pyproject.toml")
            section = _read(beside) if beside.is_file() else None
    except (OSError, ValueError, configparser.Error) as exc:
        return Settings(), (f"{path}: cannot read the toolcall settings ({exc}); using the defaults",)
    if section is None:
        return Settings(), ()
    where, values = section
    return _settings(where, values)


def _read(path: Path) -> tuple[str, Mapping[str, Any]] | None:
    """``(where, raw values)`` of the toolcall section in ``path``, or ``None`` without one."""
    if path.suffix == ".toml":
        with path.open("rb") as handle:
            section = tomllib.load(handle).get("tool", {}).get("toolcall")
        if section is None:
            return None
        if not isinstance(section, dict):
            raise ValueError(f"[{TOML_SECTION}] is not a table")
        return f"{path.name}: [{TOML_SECTION}]", section
    parser = configparser.RawConfigParser()
    parser.read(path, encoding="utf-8")
    if not parser.has_section(INI_SECTION):
        return None
    return f"{path.name}: [{INI_SECTION}]", dict(parser.items(INI_SECTION))


def _settings(where: str, values: Mapping[str, Any]) -> tuple[Settings, tuple[str, ...]]:
    known = {f.name: f for f in fields(Settings)}
    chosen: dict[str, Any] = {}
    problems: list[str] = []
    for key, raw in values.items():
        option = key.replace("-", "_")
        if option not in known:
            problems.append(f"{where}: unknown setting {key!r} (known: {', '.join(sorted(known))}); it is ignored")
            continue
        value, kind = _PARSERS[option]
        parsed = value(raw)
        if parsed is None:
            problems.append(f"{where}: {key} = {raw!r} is not {kind}; using the default")
            continue
        chosen[option] = parsed
    return Settings(**chosen), tuple(problems)


def _providers(raw: object) -> frozenset[str] | None:
    names = _patterns(raw)
    if names is None or not names or not set(names) <= set(FAMILIES):
        return None
    return frozenset(names)


def _bool(raw: object) -> bool | None:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        word = raw.strip().lower()
        return True if word in _TRUE else False if word in _FALSE else None
    return None


def _patterns(raw: object) -> tuple[str, ...] | None:
    if isinstance(raw, str):  # ini: comma or newline separated; toml: one pattern
        return tuple(p.strip() for p in raw.replace("\n", ",").split(",") if p.strip())
    if isinstance(raw, list) and all(isinstance(p, str) for p in raw):
        return tuple(p.strip() for p in raw if p.strip())
    return None


#: Each setting's parser (``None`` for a value it refuses) and what it expects, for the message.
_PARSERS: Final[dict[str, tuple[Callable[[object], object], str]]] = {
    "strict": (_bool, "true or false"),
    "cache": (_bool, "true or false"),
    "include": (_patterns, "a list of module patterns"),
    "exclude": (_patterns, "a list of module patterns"),
    "providers": (_providers, f"a non-empty list of {', '.join(map(repr, FAMILIES))}"),
}
