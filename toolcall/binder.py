"""A tool's IR → its generated call function: wire arguments in, the tool's result out.

``prepare(loaded)`` runs once per tool, on its first dispatch. It writes one
function, ``call(args, context)``, that checks and coerces every argument
with inline code (``toolcall.coercers``), fills injected parameters from
``context`` and calls the tool with positional and keyword arguments in the
right slots; every refusal is raised as ``Rejected(error)``. A second
function, ``bind``, does the same but returns the arguments instead of
calling, for tools that run in a worker thread.

Binding rules (SPEC §1, §4): keys must be strings and declared (or go to
``**kwargs``); a missing required argument is ``MissingArgument``; a null
for an optional parameter whose type does not accept ``None`` means "use the
default"; an optional positional-only parameter left out while a later
positional-only one is sent is ``ArgumentGap``. When several things are
wrong, unknown keys are reported first, then parameters in declaration order.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from toolcall import errors, ir
from toolcall.codegen import Source, is_safe_identifier
from toolcall.coercers import Coercers, accepts_null, resolve_union_orders
from toolcall.result import Err, Ok
from toolcall.scalars import Fail

__all__ = ["MissingInjected", "Prepared", "Rejected", "prepare", "reason_of"]


class Rejected(Exception):
    """The arguments were refused; ``error`` is what ``run`` returns in ``Err``."""

    __slots__ = ("error",)

    error: errors.ToolError

    def __init__(self, error: errors.ToolError) -> None:
        self.error = error


class MissingInjected(TypeError):
    """An injected parameter has no value in ``context`` (a programming error, not bad input)."""


@dataclass(frozen=True)
class Prepared:
    """The generated functions of one tool."""

    #: ``run(args, context) -> Ok | Err``, the whole sync dispatch; ``None`` for an ``async def`` tool.
    run: Callable[[Any, Any], Ok[Any] | Err] | None
    #: ``bind(args, context) -> (positional, keywords)``; refusals raise ``Rejected``.
    bind: Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]
    is_async: bool
    thread: bool
    source: str


def reason_of(fail: Fail) -> errors.Reason:
    """The public ``Reason`` of an internal ``Fail`` (its path read from the outside in)."""
    branches = tuple(reason_of(b) for b in fail.branches)
    return errors.Reason(fail.code, fail.value, tuple(reversed(fail.rpath)), fail.detail, branches)


def prepare(tool: ir.Tool, function: Callable[..., Any], classes: dict[str, Any], thread: bool) -> Prepared:
    """Generate the run and bind functions of ``tool``."""
    namespace = _namespace(tool, function)
    source = Source(f"<toolcall {tool.name}>", namespace)
    coercers = Coercers(tool, classes, source)
    _Writer(tool, source, coercers, _defaults(function)).write()
    coercers.finish()
    compiled = source.compile()
    resolve_union_orders(compiled)
    return Prepared(
        run=compiled.get("run"),
        bind=compiled["bind"],
        is_async=inspect.iscoroutinefunction(function),
        thread=thread,
        source=compiled["__source__"],
    )


_UNSET: Final = object()


def _defaults(function: Callable[..., Any]) -> dict[str, Any]:
    # The tool's own default objects, passed explicitly when an argument is left out.
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def _namespace(tool: ir.Tool, function: Callable[..., Any]) -> dict[str, Any]:
    wire = frozenset(p.name for p in tool.parameters if not p.injected and p.kind != "var_keyword")
    injected = frozenset(p.name for p in tool.parameters if p.injected)
    has_kwargs = any(p.kind == "var_keyword" for p in tool.parameters)
    checks = _ArgumentChecks(wire, injected, has_kwargs)
    return {
        "__builtins__": __builtins__,
        "_fn": function,
        "Fail": Fail,
        "Rejected": Rejected,
        "_checks": checks,
        "_unknown": checks.unknown,
        "_invalid": checks.invalid,
        "_missing": checks.missing,
        "_broken": checks.broken,
        "MissingInjected": MissingInjected,
        "_injected": _injected,
        "_InvalidArguments": errors.InvalidArguments,
        "_new": tuple.__new__,
        "_Ok": Ok,
        "_Err": Err,
        "_Exited": errors.Exited,
        "_raised": functools.partial(tool_failed, tool.name),
    }


def tool_failed(name: str, exc: Exception) -> Err:
    """``Raised`` for an exception from the tool, logged with its traceback on logger ``toolcall``."""
    import logging

    logging.getLogger("toolcall").error("tool %r raised %s", name, type(exc).__name__, exc_info=exc)
    try:
        message = str(exc)
    except Exception:  # an exception whose __str__ raises still gets reported
        message = f"<{type(exc).__name__} with an unprintable message>"
    return Err(errors.Raised(type(exc).__name__, message))


def _injected(context: Any, name: str) -> Any:
    try:
        return context[name]
    except (KeyError, TypeError):
        raise MissingInjected(
            f"the injected parameter {name!r} needs a value: pass run(..., context={{{name!r}: ...}})"
        ) from None


class _ArgumentChecks:
    """The failure paths of a generated binder (never on the success path)."""

    def __init__(self, wire: frozenset[str], injected: frozenset[str], has_kwargs: bool) -> None:
        self.wire = wire
        self.injected = injected
        self.has_kwargs = has_kwargs

    def unknown_error(self, args: dict[Any, Any]) -> errors.ToolError | None:
        """Non-string keys, then undeclared ones; ``None`` when every key is fine."""
        bad_keys = [k for k in args if type(k) is not str]
        if bad_keys:
            return errors.NonStringArguments(tuple(bad_keys))
        names = [k for k in args if k not in self.wire and (not self.has_kwargs or k in self.injected)]
        return errors.UnknownArguments(tuple(names)) if names else None

    def unknown(self, args: dict[Any, Any]) -> Rejected:
        """The refusal for keys the tool does not declare."""
        found = self.unknown_error(args)
        assert found is not None
        return Rejected(found)

    def invalid(self, args: dict[Any, Any], name: str, fail: Fail) -> Rejected:
        """The refusal for a value that failed coercion (unknown keys are reported first)."""
        return Rejected(self.unknown_error(args) or errors.InvalidArgument(name, reason_of(fail)))

    def missing(self, args: dict[Any, Any], name: str) -> Rejected:
        """The refusal for a missing required argument (unknown keys are reported first)."""
        return Rejected(self.unknown_error(args) or errors.MissingArgument(name))

    def broken(self, args: dict[Any, Any], exc: Exception, name: str | None) -> Rejected:
        """The refusal for input that broke a check instead of failing it.

        Input nested beyond the recursion limit (``too_deep``), too large to
        check, or holding objects no JSON decoder makes (a key or value whose
        ``__eq__`` or ``__hash__`` raises) ends as an argument error, never as
        ``Raised``: the tool did not run. ``name`` is the parameter being
        checked, if known.
        """
        try:
            found = self.unknown_error(args)
        except Exception:  # keys that cannot even be compared
            found = None
        if found is not None:
            return Rejected(found)
        if name is None:
            name = next((k for k in args if type(k) is str and k in self.wire), "")
        if isinstance(exc, RecursionError):
            reason = errors.Reason("too_deep")  # no detail: it would only repeat what the code says
        elif isinstance(exc, MemoryError):
            reason = errors.Reason("invalid_value", None, (), "too large to check")
        else:
            reason = errors.Reason("invalid_value", None, (), f"not a JSON value ({type(exc).__name__} while checking)")
        return Rejected(errors.InvalidArgument(name, reason))


class _Writer:
    """Writes ``call`` and ``bind`` for one tool (the same checks, two endings)."""

    def __init__(self, tool: ir.Tool, source: Source, coercers: Coercers, defaults: dict[str, Any]) -> None:
        self.tool = tool
        self.source = source
        self.coercers = coercers
        self.defaults = defaults
        self.defs = {d.name: d.type for d in tool.defs}
        #: Each non-``**kwargs`` parameter with the local variable that holds its value.
        self.slots = [(p, f"a{i}") for i, p in enumerate(tool.parameters) if p.kind != "var_keyword"]
        self.extras = next((p for p in tool.parameters if p.kind == "var_keyword"), None)
        self.is_async = inspect.iscoroutinefunction(source.namespace["_fn"])

    def write(self) -> None:
        """Emit ``run`` (sync tools only) and ``bind``."""
        positional = "".join(f"{v}, " for p, v in self.slots if p.kind != "keyword_only")
        keywords = [(p.name, v) for p, v in self.slots if p.kind == "keyword_only"]
        call_keywords = "".join(
            f"{name}={v}, " if is_safe_identifier(name) else f"**{{{self.source.literal(name)}: {v}}}, "
            for name, v in keywords
        )
        bind_keywords = "".join(f"{self.source.literal(name)}: {v}, " for name, v in keywords)
        if self.extras is not None:
            call_keywords += "**(extra or {})"
            bind_keywords += "**(extra or {})"
        if not self.is_async:
            self._run(f"_fn({positional}{call_keywords})")
        self.source.begin()
        self.source.add(0, "def bind(args, context):")
        self._body()
        self.source.add(1, f"return ({positional}), {{{bind_keywords}}}", "")
        self.source.end()

    def _run(self, call: str) -> None:
        # ``run``'s whole path in one frame: refusals end as Err, the tool's
        # exceptions as Raised or Exited, the result in an Ok.
        add = self.source.add
        self.source.begin()
        add(0, "def run(args, context):", "    try:")
        self.source.base = 1
        self._body()
        self.source.base = 0
        add(1, "except Rejected as rejected:", "    return _new(_Err, (rejected.error,))")
        add(1, "try:", f"    return _new(_Ok, ({call},))", "except Exception as exc:", "    return _raised(exc)")
        add(1, "except SystemExit as exc:", "    return _new(_Err, (_Exited(exc.code),))", "")
        self.source.end()

    def _body(self) -> None:
        add = self.source.add
        # ``n`` counts the keys read: the required ones from the start, the optional ones as found.
        required = sum(1 for p, _ in self.slots if not p.injected and p.required)
        add(1, "if type(args) is not dict:", "    raise Rejected(_InvalidArguments(args))")
        add(1, "try:", f"    n = {required}")
        for parameter, variable in self.slots:
            if parameter.injected:
                add(2, f"{variable} = _injected(context, {self.source.literal(parameter.name)})")
            else:
                self._wire_parameter(parameter, variable)
        self._leftover_keys()
        # Not Fail, not a refusal already made: the input broke a check (too deep, a hostile object).
        add(1, "except (Rejected, MissingInjected):", "    raise", "except Exception as exc:")
        add(2, "raise _broken(args, exc, None) from None")
        self._gap_check()

    def _wire_parameter(self, parameter: ir.Parameter, variable: str) -> None:
        add, key = self.source.add, self.source.literal(parameter.name)
        default = self._default_constant(parameter)
        if default is None:  # required: one lookup, and a KeyError only on the rare path
            add(2, "try:", f"    v = args[{key}]", "except KeyError:", f"    raise _missing(args, {key}) from None")
            self._checked(parameter, key, 2)
            add(2, f"{variable} = v")
            return
        add(2, f"if {key} in args:", f"    v = args[{key}]", "    n += 1")
        body = 3
        if not accepts_null(parameter.type, self.defs):
            add(3, f"if v is None: v = {default}", "else:")  # a null for an optional parameter: its default
            body = 4
        self._checked(parameter, key, body)
        add(3, f"{variable} = v")
        add(2, "else:", f"    {variable} = {default}")

    def _checked(self, parameter: ir.Parameter, key: str, indent: int) -> None:
        """Coerce ``v``, the value sent for ``parameter``; a failure is that argument's error."""
        add = self.source.add
        add(indent, "try:")
        self.coercers.inline(parameter.type, "v", indent + 1)
        add(indent, "except Fail as f:", f"    raise _invalid(args, {key}, f) from None")
        add(indent, "except Exception as exc:", f"    raise _broken(args, exc, {key}) from None")

    def _default_constant(self, parameter: ir.Parameter) -> str | None:
        if parameter.required:
            return None
        value = self.defaults.get(parameter.name, _UNSET)
        if value is _UNSET:
            raise TypeError(f"tool {self.tool.name!r}: parameter {parameter.name!r} is optional but has no default")
        return self.source.constant(value, "default")

    def _leftover_keys(self) -> None:
        add = self.source.add
        if self.extras is None:
            add(2, "if n != len(args):", "    raise _unknown(args)")
            return
        add(2, "extra = None", "if n != len(args):")
        add(3, "if _checks.unknown_error(args) is not None:", "    raise _unknown(args)", "extra = {}")
        wire = self.source.constant(frozenset(p.name for p, _ in self.slots if not p.injected), "wire")
        add(3, "for k, v in args.items():", f"    if k in {wire}:", "        continue", "    try:")
        add(5, "if not k.isascii(): check_unicode(k)")  # an extra argument's name is model text too
        self.coercers.inline(self.extras.type, "v", 5)
        add(4, "except Fail as f:", "    raise _invalid(args, k, f) from None")
        add(4, "except Exception as exc:", "    raise _broken(args, exc, k) from None", "extra[k] = v")

    def _gap_check(self) -> None:
        positional = [p for p, _ in self.slots if p.kind == "positional_only"]
        for index, parameter in enumerate(positional):
            later = [p.name for p in positional[index + 1 :]]
            if parameter.required or not later:
                continue
            names = self.source.constant(tuple(later), "later")
            key = self.source.literal(parameter.name)
            self.source.add(
                1,
                f"if {key} not in args:",
                f"    sent = tuple(k for k in {names} if k in args)",
                "    if sent:",
                f"        raise Rejected(_ArgumentGap({key}, sent))",
            )
            self.source.namespace["_ArgumentGap"] = errors.ArgumentGap
