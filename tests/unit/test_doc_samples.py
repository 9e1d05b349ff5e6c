"""Every ``python`` sample of the README, of ``docs/`` and of ``examples/`` passes ``mypy --strict`` and pyright.

Each page's samples are written into one folder, in the page's order: a
sample whose fence says ``title="path.py"``, or whose first line is the
comment ``# path.py``, is written at that path (with ``__init__.py`` files
for its packages), so the page's later samples import it; any other sample
is ``sample_N.py``. A page that does not write its own ``weather.py`` gets
the one of Getting started, the tool module every page refers to.

mypy runs without the toolcall plugin: the plugin's findings, which
``docs/mypy-plugin.md`` shows on purpose, are the plugin's business, while
every sample must still be valid typed Python. pyright runs in its
standard mode.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from tests.doc_samples import named_file
from tests.paths import ROOT

#: Left out of the fast loop (``-m "not slow"``): each case runs mypy and pyright in subprocesses.
pytestmark = pytest.mark.slow

#: The pages whose samples are checked; the others have their own owners and tests.
PAGES: Final = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs" / "providers").glob("*.md")),
]
#: A fenced ``python`` block: its attributes (``title="weather.py"``) and its code.
SAMPLE: Final = re.compile(r"^```python(?P<attributes>[^\n]*)\n(?P<code>.*?)^```", re.DOTALL | re.MULTILINE)
TITLE: Final = re.compile(r'title="(?P<path>[\w/]+\.py)"')
IGNORE_COMMENT: Final = re.compile(r"#\s*(type|pyright):\s*ignore")
PYRIGHT: Final = Path(sys.executable).parent / "pyright"


def samples(page: Path) -> list[tuple[str, str]]:
    """The page's ``python`` samples as (file path, code), in order."""
    found = []
    for index, match in enumerate(SAMPLE.finditer(page.read_text(encoding="utf-8"))):
        code = match["code"]
        title = TITLE.search(match["attributes"])
        path = named_file(title["path"] if title else None, code) or f"sample_{index}.py"
        found.append((path, code))
    return found


def write_samples(page: Path, folder: Path) -> None:
    """Write the page's samples into ``folder`` as modules, with the shared ``weather.py`` if the page has none."""
    folder.mkdir(parents=True)
    for path, code in samples(page):
        target = folder / path
        for package in target.relative_to(folder).parents:
            if package != Path():
                (folder / package).mkdir(exist_ok=True)
                (folder / package / "__init__.py").touch()
        target.write_text(code, encoding="utf-8")
    if not (folder / "weather.py").exists():
        shared = dict(samples(ROOT / "docs" / "getting-started.md"))["weather.py"]
        (folder / "weather.py").write_text(shared, encoding="utf-8")


def type_errors(folder: Path) -> str:
    """What mypy --strict and pyright report on the folder's modules, or "" when both pass."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "", "."],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    pyright = subprocess.run(
        [str(PYRIGHT), "--pythonpath", sys.executable, "."],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    report = ""
    if mypy.returncode != 0:
        report += f"mypy --strict:\n{mypy.stdout}{mypy.stderr}"
    if pyright.returncode != 0:
        report += f"pyright:\n{pyright.stdout}{pyright.stderr}"
    return report


@pytest.mark.parametrize("page", [page for page in PAGES if samples(page)], ids=lambda page: page.stem)
def test_the_samples_of_a_page_pass_mypy_strict_and_pyright(page: Path, tmp_path: Path) -> None:
    write_samples(page, tmp_path / "samples")
    report = type_errors(tmp_path / "samples")
    assert not report, f"{page.relative_to(ROOT)}:\n{report}"


def test_the_examples_pass_mypy_strict_and_pyright(tmp_path: Path) -> None:
    folder = tmp_path / "examples"
    for example in (ROOT / "examples").rglob("*.py"):
        copy = folder / example.relative_to(ROOT / "examples")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    report = type_errors(folder)
    assert not report, f"examples/:\n{report}"


def test_no_sample_silences_a_type_checker() -> None:
    silenced = [
        f"{page.relative_to(ROOT)}: {path}"
        for page in PAGES
        for path, code in samples(page)
        if IGNORE_COMMENT.search(code)
    ]
    silenced += [
        str(path.relative_to(ROOT))
        for path in (ROOT / "examples").rglob("*.py")
        if IGNORE_COMMENT.search(path.read_text(encoding="utf-8"))
    ]
    assert not silenced


def test_a_wrong_sample_fails_the_check(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '```python title="weather.py"\nimport toolcall\n\n\n@toolcall.tool\ndef get_weather(city: str) -> str:\n'
        '    """The weather."""\n    return city\n```\n\n```python\nimport weather\n\nweather.get_weather(3)\n```\n',
        encoding="utf-8",
    )
    write_samples(page, tmp_path / "samples")
    report = type_errors(tmp_path / "samples")
    assert "mypy --strict:" in report
    assert "pyright:" in report
    assert "sample_1.py" in report
