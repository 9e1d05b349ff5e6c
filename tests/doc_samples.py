"""What the tests of the documentation's code samples share: which file a sample is, when it is one."""

from __future__ import annotations

import re
from typing import Final

#: A sample whose first line is ``# path.py`` (a relative path) is that file; an absolute path is a placeholder.
PATH_COMMENT: Final = re.compile(r"# (?P<path>\w[\w/]*\.py)")


def named_file(title: str | None, code: str) -> str | None:
    """The file a sample is: its fence's ``title``, or the path its first line names; ``None`` for a script."""
    if title:
        return title
    comment = PATH_COMMENT.fullmatch(code.split("\n", 1)[0])
    return comment["path"] if comment else None
