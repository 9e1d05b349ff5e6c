"""``serve --context MODULE:FACTORY``: the values of ``Injected`` parameters, made anew for each call.

An MCP client cannot send an ``Injected`` parameter (it is in no schema), so
``serve`` refuses such tools unless the command line names a factory: a
callable taking no arguments, sync or async, that returns the ``context``
dict ``arun`` fills those parameters from. It is called once per call of a
tool that has ``Injected`` parameters (never for the others, so a broken
factory breaks only the tools that need it), on the event loop: a factory
that waits for I/O should be ``async def``.

A factory that raises, returns anything but a dict, or a dict without a value
for one of the tool's ``Injected`` parameters makes that call an ``isError``
result with one line of text (the exception is logged on logger
``toolcall``); the server goes on. A bad ``--context`` (no colon, a module
that does not import, a missing attribute, not callable, needing arguments)
is a ``UsageError`` at start-up.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any

from toolcall._cli.modules import UsageError, import_module_quietly, module_name

__all__ = ["ContextFactory", "resolve"]


class ContextFactory:
    """The factory ``--context`` names, and how a call's context is made from it."""

    def __init__(self, spec: str, factory: Callable[[], Any]) -> None:
        self.spec = spec
        self._factory = factory

    async def context(self, injected: Iterable[str]) -> dict[str, Any] | str:
        """A fresh context dict holding every name of ``injected``, or the one-line reason there is none."""
        try:
            value = self._factory()
            if inspect.isawaitable(value):
                value = await value
        except Exception as exc:
            logging.getLogger("toolcall").error("the context factory %s raised", self.spec, exc_info=exc)
            return f"the server's context factory failed with {type(exc).__name__}: {_message(exc)}"
        if not isinstance(value, dict):
            return f"the server's context factory returned an object of type {type(value).__qualname__}, not a dict"
        missing = [name for name in injected if name not in value]
        if missing:
            return f"the server's context factory gave no value for {', '.join(map(repr, missing))}"
        return value


def resolve(spec: str) -> ContextFactory:
    """The factory ``spec`` (``MODULE:FACTORY``) names; ``UsageError`` when it names none."""
    module_part, colon, attribute = spec.rpartition(":")
    if not colon or not module_part or not attribute:
        raise UsageError(f"--context {spec}: expected MODULE:FACTORY, e.g. myapp.context:make_context")
    try:
        name = module_name(module_part)
    except UsageError as missing:
        raise UsageError(f"--context {spec}: {missing}") from None
    module, problem = import_module_quietly(name)
    if module is None:
        raise UsageError(f"--context {spec}: cannot import {module_part}: {problem}")
    factory: Any = module
    for part in attribute.split("."):
        try:
            factory = getattr(factory, part)
        except AttributeError:
            raise UsageError(f"--context {spec}: {module_part} has no attribute {attribute}") from None
    if not callable(factory):
        raise UsageError(f"--context {spec}: {attribute} is not callable (it is {type(factory).__qualname__})")
    try:
        inspect.signature(factory).bind()
    except TypeError:
        raise UsageError(f"--context {spec}: {attribute} must be callable with no arguments") from None
    except ValueError:
        pass  # no signature to read (some builtins): the first call will tell
    return ContextFactory(spec, factory)


def _message(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # an exception whose __str__ raises still gets reported
        return ""
