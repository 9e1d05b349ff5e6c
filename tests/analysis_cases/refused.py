"""Tools the runtime refuses on first use (TypeError); the plugin must refuse the same parameter."""

from __future__ import annotations

import enum
import socket
from collections.abc import Callable
from typing import Annotated, TypedDict

import pydantic
from typing_extensions import Unpack

import toolcall
from toolcall import Injected, Param


class Keys(TypedDict):
    a: int


class Pairs(enum.Enum):
    A = (1, 2)


class Model(pydantic.BaseModel):
    """A dataclass_transform class mypy sees fields in; no dataclass at run time."""

    a: int


@toolcall.tool
def transformed(model: Model) -> None:
    """A pydantic model has no schema of its own."""


@toolcall.tool
def no_schema(ok: int, sock: socket.socket) -> None:
    """A socket has no schema."""


@toolcall.tool
def callable_param(fn: Callable[[int], int]) -> None:
    """A callable has no schema."""


@toolcall.tool
def class_object(cls: type[int]) -> None:
    """A class object has no schema."""


@toolcall.tool
def unpacked(**kw: Unpack[Keys]) -> None:
    """Unpack[TypedDict] kwargs."""


@toolcall.tool
def injected_inside(items: list[Annotated[int, Injected]]) -> None:
    """Injected marks a parameter, not a type inside one."""


@toolcall.tool
def misplaced_bound(name: Annotated[str, Param(ge=1)]) -> None:
    """A numeric bound on a str."""


@toolcall.tool
def non_scalar_enum(pair: Pairs) -> None:
    """An enum whose values are tuples."""


@toolcall.tool
def int_keys(counts: dict[int, str]) -> None:
    """Mapping keys must be str."""


@toolcall.tool
def wire_on_str(text: Annotated[str, Param(wire="string_integer")]) -> None:
    """string_integer applies to int."""
