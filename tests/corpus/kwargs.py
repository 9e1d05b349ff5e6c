"""``**kwargs: T``: extra properties of type T."""

from __future__ import annotations

import toolcall


@toolcall.tool
def tag_resource(resource_id: str, **tags: str) -> dict[str, str]:
    """Tag a cloud resource.

    Args:
        resource_id: the resource
        **tags: tag names and values
    """
    return dict(tags)


@toolcall.tool
def configure(*, verbose: bool = False, **options: int | bool) -> None:
    """Configure the service."""
