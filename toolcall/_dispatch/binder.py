"""A tool's IR → its generated call function: wire arguments in, the tool's result out.

``prepare(loaded)`` runs once per tool, on its first dispatch. It writes one
function, ``call(args, context)``, that checks and coerces every argument
with inline code (``toolcall._dispatch.coercers``), fills injected parameters from
``context`` and calls the tool with positional and keyword arguments in the
right slots; every refusal is raised as ``Rejected(error)``. A second
function, ``bind``, does the same but returns the arguments instead of
calling, for tools that run in a worker thread.

Binding rules: keys must be strings and declared (or go to
``**kwargs``); a missing required argument is ``MissingArgument``; a null
for an optional parameter whose type does not accept ``None`` means "use the
default"; an optional positional-only parameter left out while a later
positional-only one is sent is ``ArgumentGap``.

Every problem of a call is reported at once (``ArgumentErrors`` when there
is more than one), yet the success path checks each argument only once:
``call`` and ``bind`` stop at the first problem, and only then a third
generated function, ``problems``, checks what they had not reached yet and
collects what is wrong instead of raising. The checks are numbered in the
order they run (each parameter, the ``**kwargs`` extras, each gap), and a
refusal resumes after the one that failed, so no value is coerced twice (a
custom coercion hook or a dataclass ``__init__`` runs once per call).
The order of the problems: non-string keys, unknown keys, parameters in
declaration order, extras as sent, gaps.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, Final

from toolcall import _ir as ir
from toolcall import errors
from toolcall._annotations import signature
from toolcall._dispatch.codegen import CodeBuilder, is_safe_identifier
from toolcall._dispatch.coercers import Coercers, resolve_union_orders
from toolcall._dispatch.kinds import as_dict
from toolcall._dispatch.result import Err, Ok
from toolcall._exceptions import MissingInjectedError
from toolcall._records import Record, record, set_field
from toolcall._wire.scalars import Fail

__all__ = ["MissingInjectedError", "Binder", "Rejected", "generate", "prepare", "reason_of"]


class Rejected(Exception):
    """The arguments were refused; ``error`` is what ``run`` returns in ``Err``."""

    __slots__ = ("error",)

    error: errors.ToolError

    def __init__(self, error: errors.ToolError) -> None:
        self.error = error


@record(frozen=True, slots=True)
class Binder(Record):
    """The generated functions of one tool."""

    #: ``run(args, context) -> Ok | Err``, the whole sync dispatch; ``None`` for an ``async def`` tool.
    run: Callable[[Any, Any], Ok[Any] | Err] | None
    #: ``bind(args, context) -> (positional, keywords)``; refusals raise ``Rejected``.
    bind: Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]
    is_async: bool
    thread: bool
    source: str

    def __init__(
        self,
        run: Callable[[Any, Any], Ok[Any] | Err] | None,
        bind: Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]],
        is_async: bool,
        thread: bool,
        source: str,
    ) -> None:
        set_field(self, "run", run)
        set_field(self, "bind", bind)
        set_field(self, "is_async", is_async)
        set_field(self, "thread", thread)
        set_field(self, "source", source)


def reason_of(fail: Fail) -> errors.Reason:
    """The public ``Reason`` of an internal ``Fail`` (its path read from the outside in)."""
    branches = tuple(reason_of(b) for b in fail.branches)
    return errors.Reason(fail.code, fail.value, tuple(reversed(fail.rpath)), fail.detail, branches, fail.accepted)


def prepare(tool: ir.Tool, function: Callable[..., Any], classes: dict[str, Any], thread: bool) -> Binder:
    """Generate the run and bind functions of ``tool``."""
    compiled = generate(tool, function, Coercers, classes, _defaults(function))
    return Binder(
        run=compiled.get("run"),
        bind=compiled["bind"],
        is_async=inspect.iscoroutinefunction(function),
        thread=thread,
        source=compiled["__source__"],
    )


def generate(
    tool: ir.Tool,
    function: Callable[..., Any],
    coercers: type[Coercers],
    classes: Mapping[str, Any],
    defaults: dict[str, Any],
) -> dict[str, Any]:
    """Compile ``tool``'s ``run``, ``bind`` and ``problems``; the namespace that holds them.

    ``coercers`` writes the type checks (``Coercers``, or a subclass that
    needs no live class: ``toolcall._dispatch.examples``); ``defaults`` has
    the object each optional parameter gets when it is left out.
    """
    source = CodeBuilder(f"<toolcall {tool.name}>", _namespace(tool, function))
    writer = coercers(tool, classes, source)
    _Writer(tool, source, writer, defaults).write()
    writer.finish()
    compiled = source.compile()
    resolve_union_orders(compiled)
    compiled["_checks"].problems = compiled["problems"]
    return compiled


_UNSET: Final = object()
#: The mutable defaults each call gets its own copy of (subclasses included).
_REBUILT: Final = (list, dict, set)
#: An empty default of exactly these types is written as a display: a new object for the cost of a literal.
_EMPTY_DISPLAYS: Final = {list: "[]", dict: "{}", set: "set()"}


def _defaults(function: Callable[..., Any]) -> dict[str, Any]:
    # The tool's own default objects, passed explicitly when an argument is left out.
    return {
        name: p.default
        for name, p in signature(function).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def _namespace(tool: ir.Tool, function: Callable[..., Any]) -> dict[str, Any]:
    wire = tuple(p.name for p in tool.parameters if not p.injected and p.kind != "var_keyword")
    injected = frozenset(p.name for p in tool.parameters if p.injected)
    has_kwargs = any(p.kind == "var_keyword" for p in tool.parameters)
    checks = _ArgumentChecks(wire, injected, has_kwargs)
    return {
        "__builtins__": __builtins__,
        "_fn": function,
        "_deepcopy": copy.deepcopy,
        "Fail": Fail,
        "Rejected": Rejected,
        "_checks": checks,
        "_unknown": checks.unknown,
        "_invalid": checks.invalid,
        "_missing": checks.missing,
        "_broken": checks.broken,
        "_gap": checks.gap,
        "_invalid_error": _invalid_error,
        "_broken_error": _broken_error,
        "_MissingArgument": errors.MissingArgument,
        "_ArgumentGap": errors.ArgumentGap,
        "_NOT_SENT": _NOT_SENT,
        "_UNREADABLE": _UNREADABLE,
        "MissingInjectedError": MissingInjectedError,
        "_injected": _injected,
        "_arguments": _arguments,
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
        raise MissingInjectedError(
            f"the injected parameter {name!r} needs a value: pass run(..., context={{{name!r}: ...}})"
        ) from None


#: What ``problems`` reads for a parameter that was not sent.
_NOT_SENT: Final = object()
#: What ``problems`` reads for a parameter whose lookup raised (a key that breaks comparison).
_UNREADABLE: Final = object()


def _arguments(args: Any) -> dict[Any, Any]:
    """Arguments that are not exactly a dict: a dict subclass read as a plain dict, anything else refused."""
    try:
        return as_dict(args)
    except Fail:
        raise Rejected(errors.InvalidArguments(args)) from None


def _invalid_error(name: str, fail: Fail) -> errors.InvalidArgument:
    """The error of a value that failed coercion."""
    return errors.InvalidArgument(name, reason_of(fail))


def _broken_error(exc: Exception, name: str) -> errors.InvalidArgument:
    """The error of a value that broke a check instead of failing it.

    Input nested beyond the recursion limit (``too_deep``), too large to
    check, or holding objects no JSON decoder makes (a value whose ``__eq__``
    or ``__hash__`` raises) ends as an argument error, never as ``Raised``:
    the tool did not run.
    """
    if isinstance(exc, RecursionError):
        reason = errors.Reason("too_deep")  # no detail: it would only repeat what the code says
    elif isinstance(exc, MemoryError):
        reason = errors.Reason("invalid_value", None, (), "too large to check")
    else:
        reason = errors.Reason("invalid_value", None, (), f"not a JSON value ({type(exc).__name__} while checking)")
    return errors.InvalidArgument(name, reason)


def _copyable(value: Any) -> bool:
    """Whether ``copy.deepcopy`` can copy ``value`` (a default nested past the recursion limit cannot)."""
    try:
        copy.deepcopy(value)
    except RecursionError:
        return False
    return True


def _no_problems(args: dict[Any, Any], start: int, after: str | None) -> list[errors.ToolError]:
    return []


class _ArgumentChecks:
    """The failure paths of a generated binder (never on the success path).

    Each method takes the problem the generated code met and the number of
    the check to resume at, and returns the refusal with every problem of
    the call: the key problems, that one, and what ``problems`` finds from
    there on.
    """

    def __init__(self, wire: tuple[str, ...], injected: frozenset[str], has_kwargs: bool) -> None:
        #: The wire parameter names in declaration order, as ``UnknownArguments.accepted``.
        self.accepted = wire
        self.wire = frozenset(wire)
        self.injected = injected
        self.has_kwargs = has_kwargs
        #: The tool's generated ``problems(args, start, after)``, set once it is compiled.
        self.problems: Callable[[dict[Any, Any], int, str | None], list[errors.ToolError]] = _no_problems

    def key_errors(self, args: dict[Any, Any]) -> list[errors.ToolError]:
        """Non-string keys, then undeclared ones (a ``str`` subclass key compared as its plain ``str``)."""
        problems: list[errors.ToolError] = []
        bad_keys = [k for k in args if not isinstance(k, str)]
        if bad_keys:
            problems.append(errors.NonStringArguments(tuple(bad_keys)))
        keys = (str.__str__(k) for k in args if isinstance(k, str))
        names = [k for k in keys if k not in self.wire and (not self.has_kwargs or k in self.injected)]
        if names:
            problems.append(errors.UnknownArguments(tuple(names), self.accepted))
        return problems

    def unknown(self, args: dict[Any, Any], resume: int) -> Rejected:
        """The refusal for keys the tool does not declare."""
        return _rejected(self._problems(args, None, resume))

    def invalid(self, args: dict[Any, Any], name: str, fail: Fail, resume: int, after: str | None = None) -> Rejected:
        """The refusal for a value that failed coercion."""
        return _rejected(self._problems(args, _invalid_error(name, fail), resume, after))

    def missing(self, args: dict[Any, Any], name: str, resume: int) -> Rejected:
        """The refusal for a missing required argument."""
        return _rejected(self._problems(args, errors.MissingArgument(name), resume))

    def gap(self, args: dict[Any, Any], missing: str, sent: tuple[str, ...], resume: int) -> Rejected:
        """The refusal for an optional positional-only argument left out before later ones."""
        return _rejected(self._problems(args, errors.ArgumentGap(missing, sent), resume))

    def broken(
        self, args: dict[Any, Any], exc: Exception, name: str | None, resume: int, after: str | None = None
    ) -> Rejected:
        """The refusal for input that broke a check (see ``_broken_error``).

        ``name`` is the parameter being checked; ``None`` when the break
        came from reading the arguments themselves (a key whose ``__eq__``
        raises), and then every check runs again.
        """
        if name is not None:
            return _rejected(self._problems(args, _broken_error(exc, name), resume, after))
        problems = self._problems(args, None, 0)
        if not problems:  # nothing else to blame: the first parameter sent
            problems.append(_broken_error(exc, next((k for k in args if type(k) is str and k in self.wire), "")))
        return _rejected(problems)

    def _problems(
        self, args: dict[Any, Any], known: errors.ToolError | None, resume: int, after: str | None = None
    ) -> list[errors.ToolError]:
        """The key problems, ``known`` (the one the generated code met), and the rest from check ``resume`` on."""
        problems = self.key_errors(args)
        if known is not None:
            problems.append(known)
        with contextlib.suppress(Exception):  # a check that breaks even here: what was found so far stands
            problems += self.problems(args, resume, after)
        return problems


def _rejected(problems: list[errors.ToolError]) -> Rejected:
    return Rejected(problems[0] if len(problems) == 1 else errors.ArgumentErrors(tuple(problems)))


class _Writer:
    """Writes ``call`` and ``bind`` for one tool (the same checks, two endings), and ``problems``.

    The checks are numbered in the order they run: parameter slot ``i`` is
    check ``i`` (injected slots have no check), the ``**kwargs`` extras are
    check ``len(slots)``, and gap ``g`` is check ``len(slots) + 1 + g``.
    """

    def __init__(self, tool: ir.Tool, source: CodeBuilder, coercers: Coercers, defaults: dict[str, Any]) -> None:
        self.tool = tool
        self.source = source
        self.coercers = coercers
        self.defaults = defaults
        self.defs = {d.name: d.type for d in tool.defs}
        #: Each non-``**kwargs`` parameter with the local variable that holds its value.
        self.slots = [(p, f"a{i}") for i, p in enumerate(tool.parameters) if p.kind != "var_keyword"]
        self.extras = next((p for p in tool.parameters if p.kind == "var_keyword"), None)
        self.is_async = inspect.iscoroutinefunction(source.namespace["_fn"])
        #: The number of the extras check (the first after the parameters).
        self.extras_check = len(self.slots)
        #: Each gap check: the optional positional-only parameter and the later positional-only names.
        self.gaps = self._gaps()

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
        self._problems()

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
        add(1, "if type(args) is not dict:", "    args = _arguments(args)")
        add(1, "try:", f"    n = {required}")
        for check, (parameter, variable) in enumerate(self.slots):
            if parameter.injected:
                add(2, f"{variable} = _injected(context, {self.source.literal(parameter.name)})")
            else:
                self._wire_parameter(parameter, variable, check)
        self._leftover_keys()
        # Not Fail, not a refusal already made: the input broke a check (too deep, a hostile object).
        add(1, "except (Rejected, MissingInjectedError):", "    raise", "except Exception as exc:")
        add(2, "raise _broken(args, exc, None, 0) from None")
        self._gap_checks()

    def _wire_parameter(self, parameter: ir.Parameter, variable: str, check: int) -> None:
        add, key = self.source.add, self.source.literal(parameter.name)
        default = self._default_expression(parameter)
        if default is None:  # required: one lookup, and a KeyError only on the rare path
            add(2, "try:", f"    v = args[{key}]", "except KeyError:")
            add(3, f"raise _missing(args, {key}, {check + 1}) from None")
            self._checked(parameter, key, 2, check)
            add(2, f"{variable} = v")
            return
        add(2, f"if {key} in args:", f"    v = args[{key}]", "    n += 1")
        body = 3
        if self.coercers.null_is_default(parameter.type):
            add(3, f"if v is None: v = {default}", "else:")  # a null for an optional parameter: its default
            body = 4
        self._checked(parameter, key, body, check)
        add(3, f"{variable} = v")
        add(2, "else:", f"    {variable} = {default}")

    def _checked(self, parameter: ir.Parameter, key: str, indent: int, check: int) -> None:
        """Coerce ``v``, the value sent for ``parameter``; a failure is that argument's error."""
        add = self.source.add
        add(indent, "try:")
        self.coercers.inline(parameter.type, "v", indent + 1)
        add(indent, "except Fail as f:", f"    raise _invalid(args, {key}, f, {check + 1}) from None")
        add(indent, "except Exception as exc:", f"    raise _broken(args, exc, {key}, {check + 1}) from None")

    def _default_expression(self, parameter: ir.Parameter) -> str | None:
        """The code that gives the parameter's default (``None``: it is required).

        A list, dict or set default is built anew for each call, so nothing one
        call puts in it reaches the next: an empty one as a display, any other
        as a deep copy. Every other default is the tool's own object, and so is
        one nested too deeply to copy.
        """
        if parameter.required:
            return None
        value = self.defaults.get(parameter.name, _UNSET)
        if value is _UNSET:
            raise TypeError(f"tool {self.tool.name!r}: parameter {parameter.name!r} is optional but has no default")
        if not isinstance(value, _REBUILT):
            return self.source.constant(value, "default")
        if not value and type(value) in _EMPTY_DISPLAYS:
            return _EMPTY_DISPLAYS[type(value)]
        if not _copyable(value):  # nested past what a copy can go: passed as Python passes it
            return self.source.constant(value, "default")
        return f"_deepcopy({self.source.constant(value, 'default')})"

    def _leftover_keys(self) -> None:
        add, extras = self.source.add, self.extras_check
        if self.extras is None:
            add(2, "if n != len(args):", f"    raise _unknown(args, {extras})")
            return
        add(2, "extra = None", "if n != len(args):")
        add(3, "if _checks.key_errors(args):", f"    raise _unknown(args, {extras})", "extra = {}")
        wire = self.source.constant(frozenset(p.name for p, _ in self.slots if not p.injected), "wire")
        # Every key is a str here (``key_errors`` found none that is not); a subclass's is read as its str.
        add(3, "for k, v in args.items():", "    name = k if type(k) is str else plain(k)")
        add(4, f"if name in {wire}:", "    continue", "try:")
        add(5, "if not name.isascii(): check_unicode(name)")  # an extra argument's name is model text too
        self.coercers.inline(self.extras.type, "v", 5)
        # The check resumes at the extras, after ``k``.
        add(4, "except Fail as f:", f"    raise _invalid(args, name, f, {extras}, k) from None")
        add(4, "except Exception as exc:", f"    raise _broken(args, exc, name, {extras}, k) from None")
        add(4, "extra[name] = v")

    def _gaps(self) -> list[tuple[str, str]]:
        """Each optional positional-only parameter's name (a literal) and the later ones' names (a constant)."""
        positional = [p for p, _ in self.slots if p.kind == "positional_only"]
        return [
            (self.source.literal(p.name), self.source.constant(tuple(q.name for q in positional[index + 1 :]), "later"))
            for index, p in enumerate(positional)
            if not p.required and index + 1 < len(positional)
        ]

    def _gap_checks(self) -> None:
        for number, (key, later) in enumerate(self.gaps):
            self.source.add(
                1,
                f"if {key} not in args:",
                f"    sent = tuple(k for k in {later} if k in args)",
                "    if sent:",
                f"        raise _gap(args, {key}, sent, {self.extras_check + 2 + number})",
            )

    # -- the failure path: every problem, from a given check on ---------------------------------------

    def _problems(self) -> None:
        """Emit ``problems(args, start, after)``: the errors of checks ``start`` on, as a list.

        It runs only after ``call`` or ``bind`` met a problem, so ``args`` is
        a dict. For the extras check, ``after`` is the key whose value
        already failed: the extras sent before it, and it, are skipped.
        """
        add = self.source.add
        self.source.begin()
        add(0, "def problems(args, start, after):", "    problem_list = []")
        for check, (parameter, _) in enumerate(self.slots):
            if not parameter.injected:
                self._parameter_problems(parameter, check)
        if self.extras is not None:
            self._extra_problems()
        for number, (key, later) in enumerate(self.gaps):
            add(1, f"if start <= {self.extras_check + 1 + number}:", "    try:", f"        if {key} not in args:")
            add(
                4,
                f"sent = tuple(k for k in {later} if k in args)",
                f"if sent: problem_list.append(_ArgumentGap({key}, sent))",
            )
            add(2, "except Exception:", "    pass")  # a key that breaks comparison is reported as a non-string key
        add(1, "return problem_list", "")
        self.source.end()

    def _parameter_problems(self, parameter: ir.Parameter, check: int) -> None:
        add, key = self.source.add, self.source.literal(parameter.name)
        add(1, f"if start <= {check}:", "    try:", f"        v = args.get({key}, _NOT_SENT)")
        # A lookup that raises met a key that breaks comparison: that key is reported as a non-string key.
        add(2, "except Exception:", "    v = _UNREADABLE")
        if parameter.required:
            add(2, "if v is _NOT_SENT:", f"    problem_list.append(_MissingArgument({key}))")
            add(2, "elif v is not _UNREADABLE:")
        elif not self.coercers.null_is_default(parameter.type):
            add(2, "if v is not _NOT_SENT and v is not _UNREADABLE:")
        else:  # a null means "use the default"
            add(2, "if v is not _NOT_SENT and v is not _UNREADABLE and v is not None:")
        self._collected(parameter.type, key, 3)

    def _extra_problems(self) -> None:
        assert self.extras is not None
        add = self.source.add
        declared = self.source.constant(frozenset(p.name for p, _ in self.slots), "declared")
        add(1, f"if start <= {self.extras_check}:", "    skip = after is not None", "    for k, v in args.items():")
        add(3, "if skip:", "    skip = k is not after", "    continue")
        # Non-string keys and injected names are key problems, already reported.
        add(3, "if not isinstance(k, str):", "    continue", "name = plain(k)")
        add(3, f"if name in {declared}:", "    continue")
        self._collected(self.extras.type, "name", 3, extra=True)

    def _collected(self, node: ir.TypeNode, key: str, indent: int, extra: bool = False) -> None:
        """Coerce ``v``, the value sent for ``key``; a failure is added to ``problem_list``."""
        add = self.source.add
        add(indent, "try:")
        if extra:
            add(indent + 1, "if not name.isascii(): check_unicode(name)")  # an extra argument's name is model text too
        self.coercers.inline(node, "v", indent + 1)
        add(indent, "except Fail as f:", f"    problem_list.append(_invalid_error({key}, f))")
        add(indent, "except Exception as exc:", f"    problem_list.append(_broken_error(exc, {key}))")
