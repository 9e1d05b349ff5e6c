"""Run the YAML cases (pytest-mypy-plugins) with the plugin enabled, wherever pytest starts.

``pytest test-data`` collects ``test-*.yml``: each case is one mypy run in a
fresh directory, with ``mypy.ini`` here as the base config (a case's
``mypy_config`` is merged into it). mypy runs in a subprocess with a clean
environment; the ``PYTHONPATH`` pytest runs with is passed on (after the
case's own ``env`` entry), so mypy imports what the tests import.

Not ``--mypy-modify-pythonpath``: it puts each case's directory on the path,
which makes mypy treat the case's ``files`` as installed packages, whose
errors it silences. A case that needs its own modules importable by the
plugin (a ``TypeProvider``) sets ``PYTHONPATH=.`` in its ``env``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if getattr(option, "mypy_ini_file", None) is None and getattr(option, "mypy_pyproject_toml_file", None) is None:
        option.mypy_ini_file = str(Path(__file__).with_name("mypy.ini"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    inherited = os.environ.get("PYTHONPATH")
    if not inherited:
        return
    for item in items:
        variables = getattr(item, "environment_variables", None)
        if isinstance(variables, dict):
            own = variables.get("PYTHONPATH")
            variables["PYTHONPATH"] = f"{own}{os.pathsep}{inherited}" if own else inherited
