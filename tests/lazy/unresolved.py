"""Tools naming what the module never defines (Python 3.14 only: no ``__future__`` import)."""

import dataclasses

import toolcall


@toolcall.tool
def send(to: str, parcels: list[Parcel] | None = None) -> None:  # type: ignore[name-defined]  # noqa: F821
    """Send parcels."""


@toolcall.tool
def weigh(box: Box) -> None:
    """Weigh a box."""


@toolcall.tool
def measure(box: Box) -> Size:  # type: ignore[name-defined]  # noqa: F821
    """Measure a box."""


@dataclasses.dataclass
class Box:
    label: str
    size: Size  # type: ignore[name-defined]  # noqa: F821
