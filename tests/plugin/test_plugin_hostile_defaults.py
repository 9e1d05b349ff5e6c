"""Defaults JSON text cannot show, read by the mypy plugin: a ``toolcall-default`` finding, never a crash.

mypy folds ``BIG: Final = 10**5000`` into an int longer than the int-string
limit; a hex literal can be one too. The plugin used to crash on them
(mypy's INTERNAL ERROR) and write no cache. Each is now dropped with the
finding the runtime warns, and the cache it writes serves exactly what
introspection gives.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.paths import ROOT

MYPY = tuple(int(part) for part in version("mypy").split("+")[0].split(".")[:2])

pytestmark = [
    pytest.mark.slow,
    # mypy 1.15 itself fails on this module, with or without the plugin: it crashes writing its JSON cache of
    # the folded 10**5000, and checks the whole module for longer than any bound. mypy 2 reads it.
    pytest.mark.skipif(MYPY < (2, 0), reason="mypy before 2 fails on a Final folded past the int-string limit"),
]

HEX = "0x" + "f" * 4000  # 16,000 bits: more than 4,300 decimal digits
DEEP = "[" * 40 + "]" * 40

TOOLS = f'''\
"""Tools whose defaults JSON text cannot show."""

from typing import Any, Final

from toolcall import tool

BIG: Final = 10**5000
SHIFTED = (1 << 4096) * (1 << 4096) * (1 << 4096) * (1 << 4096)
DEEP: Final[list[Any]] = {DEEP}


@tool
def folded(x: int = BIG) -> int:
    """A Final constant mypy folds."""
    return 1


@tool
def written(x: int = 10**5000) -> int:
    """A power written in the def."""
    return 1


@tool
def hexed(x: int = {HEX}) -> int:
    """A hex literal."""
    return 1


@tool
def product(x: int = SHIFTED) -> int:
    """A module variable assigned once."""
    return 1


@tool
def nested(x: list[int] = [1, BIG]) -> int:
    """A list holding the Final constant."""
    return 1


@tool
def deep(x: list[Any] = DEEP) -> int:
    """A Final constant nested 40 levels."""
    return 1
'''

NOT_JSON = (
    "the default <an int of more than 4300 digits> is not JSON, so the schema omits it; "
    "use a str, int, float, bool, list or str-keyed dict default, or None and set the value in the body"
)
UNREADABLE = "cannot be read statically, so the schema omits it; use a literal, a Final constant or an Enum member"


def run_python(root: Path, *arguments: str, **environ: str) -> subprocess.CompletedProcess[str]:
    unset = ("MYPY_CACHE_DIR", "MYPY_NUM_WORKERS", "GITHUB_WORKSPACE", "TOOLCALL_CACHE")
    env = {key: value for key, value in os.environ.items() if key not in unset} | environ
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), str(root), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, *arguments], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_check_reports_toolcall_default_and_writes_a_cache_that_serves_what_introspection_gives(
    tmp_path: Path,
) -> None:
    if sys.get_int_max_str_digits() != 4300:
        pytest.skip("the messages name the default int-string limit")
    (tmp_path / ".git").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/tools.py").write_text(TOOLS, encoding="utf-8")

    result = run_python(tmp_path, "-m", "toolcall", "check")
    assert result.stderr == ""
    assert result.returncode == 1
    found = {line.split(": ")[2].split(".")[0]: line for line in result.stdout.splitlines()}
    assert list(found) == ["folded", "written", "hexed", "product", "nested", "deep"]
    for name, line in found.items():
        assert line.endswith("[toolcall-default]"), line
        expected = UNREADABLE if name in ("written", "deep") else NOT_JSON
        assert expected in line, line
    assert (tmp_path / "app/__toolcall__/tools.json").is_file()

    served = run_python(tmp_path, "-m", "toolcall", "export", "app.tools", TOOLCALL_CACHE="require")
    introspected = run_python(tmp_path, "-m", "toolcall", "export", "app.tools", TOOLCALL_CACHE="off")
    assert (served.returncode, introspected.returncode) == (0, 0), served.stderr + introspected.stderr
    assert served.stdout == introspected.stdout
    assert '"default"' not in served.stdout
