"""NewTypes, including chains."""

from __future__ import annotations

from typing import NewType

import toolcall

UserId = NewType("UserId", int)
AdminId = NewType("AdminId", UserId)
Email = NewType("Email", str)


@toolcall.tool
def promote(user: UserId, by: AdminId, notify: list[Email]) -> bool:
    """Promote a user to admin.

    Args:
        user: who to promote
        by: the admin doing it
    """
    return True
