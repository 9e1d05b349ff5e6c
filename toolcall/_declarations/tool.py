"""``@tool``: marking functions as tools, and the per-module registry.

The decorator returns the function itself (its type too, for mypy and
pyright), after the checks that need no annotation: the name and ``*args``.
Annotations are resolved later, on the toolset's first use.
"""

from __future__ import annotations

import re
import threading

from toolcall._once import OnceCell

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any, Final

    from typing_extensions import TypeVar

    from toolcall._toolset.toolset import LoadedTool, Toolset

    _G = TypeVar("_G", bound=Callable[..., Any])
    # The default makes ``tool(name=...)`` a ``ToolDecorator`` without an
    # overload: mypy runs hooks on overloaded callables inside overload
    # resolution, where the plugin's messages are swallowed.
    _F = TypeVar("_F", bound=Callable[..., Any], default="ToolDecorator")

__all__ = [
    "star_args",
    "NAME_PATTERN",
    "ToolDecorator",
    "ToolDeclaration",
    "check_tool_name",
    "declaration_of",
    "module_generation",
    "module_tools",
    "publish_toolset",
    "tool",
    "registered_modules",
]

NAME_PATTERN: Final = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ATTRIBUTE: Final = "__toolcall__"
CO_VARARGS: Final = 0x04  # inspect.CO_VARARGS, without importing inspect at start-up


class ToolDeclaration:
    """What ``@tool`` records about a function (the function's ``__toolcall__``)."""

    __slots__ = ("description", "function", "loaded", "module", "name", "qualname", "thread")

    function: Callable[..., Any]
    name: str
    description: str | None
    thread: bool
    module: str
    qualname: str
    #: The loaded tool, made on first use by ``toolcall._toolset.toolset.load_tool``.
    loaded: OnceCell[LoadedTool]

    def __init__(self, function: Callable[..., Any], name: str, description: str | None, thread: bool) -> None:
        self.function = function
        self.name = name
        self.description = description
        self.thread = thread
        self.module = function.__module__
        self.qualname = function.__qualname__
        self.loaded = OnceCell()

    def __repr__(self) -> str:
        return f"<tool {self.name!r} from {self.module}.{self.qualname}>"


_REGISTRY: dict[str, dict[str, ToolDeclaration]] = {}
# Bumped on every registration in a module, so cached module toolsets can
# tell cheaply that a tool was added or redefined.
_GENERATION: dict[str, int] = {}

#: Module object → its shared toolset, filled by ``toolcall._toolset.toolset`` and read
#: by ``emit`` and ``run`` with one dictionary lookup; a module's entry is
#: dropped here whenever it gains or redefines a tool.
MODULE_TOOLSETS: dict[object, Toolset] = {}

# Guards the three tables above, so that a registration (add the tool, bump
# the generation, drop the module's toolset) and a toolset's publication
# (check the generation, store) never interleave: otherwise a toolset built
# just before a registration could be stored just after it, and stay without
# the new tool. Held only for dictionary updates, never while loading tools.
_LOCK = threading.Lock()


def check_tool_name(name: object, where: str) -> str:
    """Return ``name`` if it is a safe tool name, else raise ``ToolNameError`` (a ``ValueError``)."""
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        from toolcall._exceptions import ToolNameError  # only on this error: not at start-up

        raise ToolNameError(
            f"{where}: tool name {name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$ "
            "(letters, digits, '_' and '-', at most 64); pass @tool(name=...) with such a name"
        )
    return name


class ToolDecorator:
    """The decorator ``tool(name=..., description=...)`` returns."""

    __slots__ = ("description", "name", "thread")

    name: str | None
    description: str | None
    thread: bool

    def __init__(self, name: str | None, description: str | None, thread: bool) -> None:
        self.name = name
        self.description = description
        self.thread = thread

    def __call__(self, fn: _G, /) -> _G:
        """Mark ``fn`` as a tool and return it unchanged."""
        return _mark(fn, self.name, self.description, self.thread)


def tool(
    fn: _F | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    thread: bool = False,
) -> _F:
    """Mark a function as a tool: ``@tool`` or ``@tool(name=..., description=...)``.

    Returns the function itself. ``thread=True`` makes ``arun`` run a sync
    tool in a worker thread instead of calling it directly.
    """
    if fn is None:
        decorator: Any = ToolDecorator(name, description, thread)
        return decorator  # type: ignore[no-any-return]
    return _mark(fn, name, description, thread)


def _mark(fn: _G, name: str | None, description: str | None, thread: bool) -> _G:
    code = getattr(fn, "__code__", None)
    if code is None or not callable(fn):
        raise TypeError(f"@tool marks plain functions (def or async def), got {fn!r}")
    where = f"{fn.__module__}.{fn.__qualname__}"
    tool_name = check_tool_name(fn.__name__ if name is None else name, where)
    if code.co_flags & CO_VARARGS:
        star = _star_args(fn)
        if star is not None:
            raise TypeError(f"{where}: {star_args(star)}")
    if description is not None and not isinstance(description, str):
        raise TypeError(f"{where}: @tool(description=...) takes a str")
    declaration = ToolDeclaration(fn, tool_name, description, thread)
    setattr(fn, ATTRIBUTE, declaration)
    if "<locals>" not in declaration.qualname:
        # Only module-level functions belong to the module's toolset; a tool
        # made inside a function is used by passing the function itself.
        _register(declaration)
    return fn


def _register(declaration: ToolDeclaration) -> None:
    import sys

    module = declaration.module
    owner = sys.modules.get(module)
    with _LOCK:
        _REGISTRY.setdefault(module, {})[declaration.qualname] = declaration
        _GENERATION[module] = _GENERATION.get(module, 0) + 1
        if owner is not None:
            MODULE_TOOLSETS.pop(owner, None)


def star_args(name: str) -> str:
    """A tool with ``*args``: ``@tool`` raises this text, and the plugin reports it as ``toolcall-param``."""
    return f"*{name} cannot be sent by a model (tool arguments are named); replace it with a list parameter"


def _star_args(fn: Callable[..., Any]) -> str | None:
    """The name of ``fn``'s ``*args`` parameter, as its signature shows it, or ``None``.

    Only reached when the code object has ``*args``: a wrapper made with
    ``functools.wraps`` has them, but its signature is the wrapped function's.
    """
    import inspect

    from toolcall._annotations import signature

    for parameter in signature(fn).parameters.values():
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return parameter.name
    return None


def declaration_of(obj: object) -> ToolDeclaration | None:
    """The ``ToolDeclaration`` of a tool function, or ``None``."""
    declaration = getattr(obj, ATTRIBUTE, None)
    return declaration if isinstance(declaration, ToolDeclaration) else None


def module_generation(module: str) -> int:
    """A number that changes whenever a tool is registered in ``module``."""
    return _GENERATION.get(module, 0)


def registered_modules() -> tuple[str, ...]:
    """The modules that have defined a tool so far, in order of their first one."""
    with _LOCK:  # another thread may be registering a tool
        return tuple(_REGISTRY)


def module_tools(module: str) -> tuple[ToolDeclaration, ...]:
    """The tools defined in ``module``, in declaration order."""
    with _LOCK:  # another thread may be registering a tool in it
        return tuple(_REGISTRY.get(module, {}).values())


def publish_toolset(owner: ModuleType, generation: int, toolset: Toolset) -> None:
    """Make ``toolset`` the shared toolset of module ``owner``, unless a tool was registered there since ``generation``.

    ``generation`` is ``module_generation`` as read before the toolset's tools were.
    """
    with _LOCK:
        if _GENERATION.get(owner.__name__, 0) == generation:
            MODULE_TOOLSETS[owner] = toolset
