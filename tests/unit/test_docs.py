"""The documentation's generated parts match what toolcall really does."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT


def test_type_table_in_docs_is_current() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_types_doc.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
