"""The mypy hooks: find the tools, report their findings, keep their cache files current.

mypy type-checks each decorator application as a call, so the plugin hooks
the decorator itself (``ctx.context`` is the ``Decorator`` node, with the
``FuncDef`` and its analyzed types):

* ``toolcall._declarations.tool.tool`` (function hook) for a bare ``@tool``; the
  factory call ``tool(name=...)`` hits the same hook with a ``CallExpr``
  context and is ignored: its arguments are read from the decorator when
  the method hook below runs;
* ``toolcall._declarations.tool.ToolDecorator.__call__`` (method hook), the
  application of ``tool(name=..., description=...)``;
* ``toolcall._declarations.custom.use_types`` (function hook), which names the module's
  ``TypeProvider`` classes.

None of the targets is overloaded: mypy runs hooks of overloaded callables
inside overload resolution, where their messages are dropped. Only this
module and ``report`` (one reporting function per code) use mypy's plugin
API; ``decorator`` reads the decorator arguments from the nodes,
``collect`` builds the IR and its findings, ``store`` writes the cache,
``reuse`` says which tools a module's file has rendered already.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, final

from mypy.checker import TypeChecker
from mypy.nodes import ARG_STAR2, Argument, CallExpr, Context, Decorator, FuncDef, FuncItem, MypyFile
from mypy.options import Options
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import Type

from toolcall_mypy import _config as config
from toolcall_mypy import _report as report
from toolcall_mypy._cache.files import Orphans, cache_file, installed
from toolcall_mypy._cache.tokens import Tokens
from toolcall_mypy._targets import TOOL, TOOL_CALL, USE_TYPES

# A warm run checks no tool: what only a checked tool needs (the IR, the cache
# format, the analysis, the renderers) is imported on the first one.
if TYPE_CHECKING:
    from toolcall import _ir as ir
    from toolcall._findings import Finding
    from toolcall_mypy._analysis.decorator import Arguments
    from toolcall_mypy._analysis.sites import FieldSite
    from toolcall_mypy._analysis.tool import Located
    from toolcall_mypy._cache import reuse
    from toolcall_mypy._cache.writer import Store
    from toolcall_mypy._source.names import RunShared, Sources

    _Reach = tuple[int, str | None, str | None, tuple[str | int, ...]]  # line, tool, parameter, path

__all__ = ["TOOL", "TOOL_CALL", "USE_TYPES", "ToolcallPlugin"]

_HAS_FINISH_HOOK: Final = hasattr(Plugin, "get_additional_indirect_deps")
_REFUSALS: Final = frozenset({"toolcall-type", "toolcall-param"})
_OWN_PACKAGES: Final = frozenset({"toolcall", "toolcall_mypy"})
_WARNED: set[str] = set()  # warnings already printed by this process


@final
class ToolcallPlugin(Plugin):
    """toolcall's static front end: diagnostics with ``toolcall-*`` codes and the schema cache."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        # Descriptions come from docstrings, which mypy drops unless asked (the
        # option is copied into every module's options, and workers run this too).
        options.include_docstrings = True
        self._settings, problems = config.load(options.config_file)
        if not _in_build_worker():  # --num-workers: the coordinator says it, as mypy does for its own settings
            for problem in problems:
                _warn(problem)
        log = _stderr if options.verbosity >= 1 else None
        # mypy 2.4+ calls get_additional_indirect_deps once a module is checked, in every mode.
        self._digest = self._settings.digest()
        # dmypy's daemon writes a file between the rechecks of one edit: only a fresh process replays.
        self._replays = not options.fine_grained_incremental
        self._log = log
        self._tokens = Tokens(options.cache_dir)
        self._orphans = Orphans(log)
        self._providers: dict[str, tuple[str, ...]] = {}
        self._sources: dict[str, Sources] = {}  # module -> the sources its tools read
        self._checked_modules: set[str] = set()  # modules mypy has checked in this run (``_settled``)
        self._mypy_modules: dict[str, MypyFile] = {}  # mypy's modules in this run, once a tool is checked
        self._trees: dict[str, MypyFile] = {}  # parsed modules that have a cache file
        self._silenced: set[str] = set()  # modules with tools whose errors mypy silences: not ours
        # module -> each finding about another module's class field its tools reported, and which reached it first
        self._foreign_fields: dict[str, dict[tuple[FieldSite, str, str], _Reach]] = {}
        self._function_hooks: dict[str, Callable[[FunctionContext], Type]] = {
            TOOL: self._bare_tool,
            USE_TYPES: self._use_types,
        }
        self._method_hooks: dict[str, Callable[[MethodContext], Type]] = {TOOL_CALL: self._tool_call}

    @functools.cached_property
    def _run_shared(self) -> RunShared | None:
        """The class nodes tool modules share with the later ones of the run (``Sources.reused``).

        None for dmypy's daemon, which analyzes a module again in place
        (a module a deleted one imports) without parsing a file; nor without
        mypy 2.4's hook that says a module was checked.
        """
        if self.options.fine_grained_incremental or not _HAS_FINISH_HOOK:
            return None
        from toolcall_mypy._source.names import RunShared

        return RunShared(self._settled)

    def _settled(self, module: str) -> bool:
        """Whether mypy is done analyzing ``module`` in this run: it was checked, or loaded from mypy's cache.

        mypy says a module was checked once its whole import cycle is.
        """
        if module in self._checked_modules:
            return True
        tree = self._mypy_modules.get(module)
        return tree is not None and tree.is_cache_skeleton

    def _needs_store(self, path: str) -> bool:
        """Whether the module at ``path`` concerns the cache writer: a tool was seen, or the module has a file.

        mypy before 2.4 parses and writes some modules again on a warm run;
        without this, each such module would load the writer (and the IR).
        """
        return "_store" in self.__dict__ or os.path.exists(cache_file(path))

    @functools.cached_property
    def _store(self) -> Store:
        """The cache writer, made when a module is first parsed or checked (a warm run has none)."""
        from toolcall_mypy._cache.writer import Store

        write, tokens, log = self._settings.cache, self._tokens, self._log
        return Store(write=write, deferred=_HAS_FINISH_HOOK, tokens=tokens, settings=self._digest, log=log)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._function_hooks.get(fullname)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._method_hooks.get(fullname)

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """A module was parsed (again, under dmypy): its tools start afresh."""
        if "_store" in self.__dict__:  # made on first need (a warm run never needs it): else nothing to restart
            self._store.parsed(file.fullname)
        self._sources.clear()  # a file was read again: so may be every module parsed for its sources
        self._checked_modules.discard(file.fullname)
        if self._run_shared is not None:
            self._run_shared.clear()
        self._providers.pop(file.fullname, None)
        self._silenced.discard(file.fullname)
        self._foreign_fields.pop(file.fullname, None)
        if self._needs_store(file.path) and self._store.stale_file(file.fullname, file.path):
            self._trees[file.fullname] = file
        return []

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """A module was checked (mypy 2.4+, every mode): a module left without tools loses its file."""
        self._checked_modules.add(file.fullname)
        self._finish(file.fullname, file.path, file)
        return set()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Per module: the settings, and for a tool module the digest of its cache file.

        Checking a warm cache (``is_check``), a cache file that was deleted
        or edited no longer matches, so mypy checks that module again and
        the hooks write the file anew. Writing the cache (after the module
        was checked), the file is brought up to date first.
        """
        if not ctx.path.endswith(".py"):
            return None
        handled = self._settings.handles(ctx.id)
        writes = handled and self._settings.cache
        if writes and not installed(ctx.path):
            self._orphans.sweep(ctx.path, self._settings.handles, ctx.id)
        if handled and not ctx.is_check:
            self._finish(ctx.id, ctx.path, self._trees.get(ctx.id))
        token = self._tokens.token(ctx.path) if writes else None
        return [self._digest, *(token or ())]

    def _bare_tool(self, ctx: FunctionContext) -> Type:
        if isinstance(ctx.context, Decorator):  # not the factory call tool(name=...)
            from toolcall_mypy._analysis.decorator import bare_tool

            self._tool(ctx.api, ctx.context, bare_tool(ctx.context))
        return ctx.default_return_type

    def _tool_call(self, ctx: MethodContext) -> Type:
        if isinstance(ctx.context, Decorator):
            from toolcall_mypy._analysis.decorator import tool_call

            self._tool(ctx.api, ctx.context, tool_call(ctx.context))
        return ctx.default_return_type

    def _use_types(self, ctx: FunctionContext) -> Type:
        checker = _checker(ctx.api)
        if checker is None or not isinstance(ctx.context, CallExpr) or not self._handles(checker):
            return ctx.default_return_type
        from toolcall_mypy._analysis.decorator import provider_refs

        module = checker.tree.fullname
        refs, readable = provider_refs(ctx.context)
        if not readable:
            report.type_(
                ctx.api,
                "the plugin reads use_types() statically: pass the TypeProvider classes themselves, "
                "e.g. use_types(MoneyTypes, GeoTypes)",
                ctx.context,
            )
        earlier = self._store.tools(module)
        if earlier:
            first = min(earlier.values(), key=lambda q: self._store.line_of(module, q) or 0)
            report.type_(
                ctx.api,
                f"use_types() comes after the tool {first!r} (line {self._store.line_of(module, first)}); "
                "the plugin reads the providers before the tools that use them: move this call above the first @tool",
                ctx.context,
            )
        self._providers[module] = self._providers.get(module, ()) + refs
        return ctx.default_return_type

    def _tool(self, api: CheckerPluginInterface, decorator: Decorator, arguments: Arguments) -> None:
        checker = _checker(api)
        if checker is None or not self._handles(checker):
            return
        module = checker.tree.fullname
        func = decorator.func
        for problem in arguments.problems:
            report.name(api, problem, arguments.expression)
        doc_providers = _doc_providers(checker, self._settings.providers)
        if doc_providers is None and self._replayed(api, checker, decorator.func, arguments):
            return  # a record holds no toolcall-doc findings: where the code is on, the tool is analysed
        from toolcall_mypy._analysis.tool import collect_tool

        collected = collect_tool(
            func,
            name=func.name if arguments.name is None else arguments.name,
            description=arguments.description,
            module=module,
            path=api.path,
            providers=self._providers.get(module, ()),
            context=arguments.expression,
            sources=self._module_sources(checker, api.path),
            doc_providers=doc_providers,
        )
        for located in (*collected.findings, *collected.documentation):
            self._report(api, module, located)
        if arguments.name is None:
            return  # the runtime refuses this name at definition; it has no cache entry
        local = _in_function(checker)  # a local tool belongs to no module's cache
        tool = collected.tool
        if tool is None:
            if not local:
                self._put_refused(module, api.path, func, arguments.name, collected.findings)
            return
        self._report_duplicate(api, module, (tool.name, tool.qualname), arguments.expression)
        files = _source_files(checker, module, api.path, collected.dependencies)
        checked, entry = self._checked(module, api.path, tool, tuple(sorted(files)), local, collected.findings)
        # A parameter already reported (no annotation, no schema) is not reported again for a provider.
        reported = {f.finding.parameter for f in collected.findings if f.finding.parameter is not None}
        self._report_variants(api, func, arguments.expression, checked.variants, reported)
        if not local:
            self._store.put(module, api.path, func.line, (tool.name, tool.qualname), checked, entry, files)

    def _replayed(self, api: CheckerPluginInterface, checker: TypeChecker, func: FuncDef, arguments: Arguments) -> bool:
        """Take the tool's record from its module's file, without analysis, where ``Store.replay`` allows it.

        A cold run over committed files then costs a digest of each source
        file per tool module, not an analysis per tool. Only a tool the
        analysis found clean is replayed, so there is nothing to report but
        its recorded strict findings.
        """
        module = checker.tree.fullname
        if not self._replays or arguments.name is None or not self._settings.cache or _in_function(checker):
            return False
        named = (arguments.name, _qualname(func, module))
        replayed = self._store.replay(module, api.path, named[1])
        if replayed is None:
            return False
        checked, files = replayed
        self._report_duplicate(api, module, named, arguments.expression)
        self._report_variants(api, func, arguments.expression, checked.variants, set())
        self._store.put(module, api.path, func.line, named, checked, None, files)
        return True

    def _put_refused(self, module: str, path: str, func: FuncDef, name: str, findings: tuple[Located, ...]) -> None:
        """Record a tool no schema describes, and why: the runtime then says so instead of "stale"."""
        from toolcall._cache import file_format
        from toolcall_mypy._cache import reuse

        reasons = [report.text(f.finding) for f in findings if f.finding.code in _REFUSALS]
        message = reasons[0] if reasons else "a parameter has no JSON schema"
        qualname = _qualname(func, module)
        entry = file_format.refused_entry(name, qualname, _shape(func), message)
        digest = hashlib.sha256(repr(entry).encode()).hexdigest()
        recorded = self._store.recorded(module, path, qualname, digest)
        checked = reuse.Checked(digest, (module,), ())
        keep = recorded is not None and self._settings.cache
        self._store.put(module, path, func.line, (name, qualname), checked, None if keep else entry, {module: path})

    def _report(self, api: CheckerPluginInterface, module: str, located: Located) -> None:
        """Report one finding at its node; a finding about a class's field once, where it can be.

        mypy reports a module's errors once it has checked it, before it
        checks the modules that import it, and replays them from its cache
        while the module is unchanged: an error can only be about the module
        being checked. So a field of a class of this module is reported at
        the field's line (each tool that reaches it reports the same message
        there, which mypy shows once); a field of another module's class, at
        the first tool of this module that reaches it, naming the field
        (docs/decisions.md, "Findings about class fields").
        """
        finding, site = located.finding, located.site
        if site is None or site.line < 1:
            report.at_node(api, finding, located.context)
        elif site.module == module:
            report.field(api, finding, site)
        else:
            reached = (located.context.line, finding.tool, finding.parameter, finding.path)
            first = self._foreign_fields.setdefault(module, {}).setdefault(
                (site, finding.code, finding.message), reached
            )
            if first == reached:  # the first tool to reach it, or its hook run again (mypy defers and re-checks)
                report.foreign_field(api, finding, site, located.context)

    def _report_variants(
        self, api: CheckerPluginInterface, func: FuncDef, at: Context, findings: tuple[Finding, ...], reported: set[str]
    ) -> None:
        """What the provider variants lose, as far as the settings ask, each at the parameter it concerns."""
        from toolcall_mypy._analysis.variant_findings import in_scope

        for recorded in findings:
            finding = in_scope(recorded, self._settings.providers, self._settings.strict)
            if finding is not None and finding.parameter not in reported:
                report.at_node(api, finding, _parameter(func, finding.parameter) or at)

    def _report_duplicate(self, api: CheckerPluginInterface, module: str, named: tuple[str, str], at: Context) -> None:
        name, qualname = named
        other = self._store.tools(module).get(name)
        if other is not None and other != qualname:
            report.name(
                api,
                f"tool name {name!r} is already used by {other} (line {self._store.line_of(module, other)}) "
                'in this module; give one of them another name with @tool(name="...")',
                at,
            )

    def _checked(
        self, module: str, path: str, tool: ir.Tool, sources: tuple[str, ...], local: bool, found: tuple[Located, ...]
    ) -> tuple[reuse.Checked, dict[str, Any] | None]:
        """The tool's variant findings (as its module's file records them, or rendered) and its cache entry.

        ``found``: what the analysis reported about the tool; the entry
        records those introspection warns too, for the runtime to warn.
        """
        from toolcall_mypy._cache import reuse
        from toolcall_mypy._cache.warned import warned_findings

        clean = not found
        warned = warned_findings((located.finding for located in found), tool.name)
        digest = reuse.ir_sha256(tool, warned)
        entry = None
        if self._settings.cache and not local:
            from toolcall._cache import file_format

            entry = file_format.tool_entry(tool, sources, warned)
        recorded = None if local else self._store.recorded(module, path, tool.qualname, digest)
        if recorded is not None:
            return reuse.Checked(digest, sources, recorded, clean), entry
        from toolcall_mypy._analysis.variant_findings import CHECKED_VARIANTS, any_asked, variant_findings

        if (local or entry is None) and not any_asked(self._settings.providers, self._settings.strict):
            return reuse.Checked(digest, sources, (), clean), entry  # no record, no report: nothing reads them
        from toolcall._render.definitions import render_variants  # not imported where every file is current

        rendered = render_variants(tool, CHECKED_VARIANTS, copies=False)  # for the findings only
        return reuse.Checked(digest, sources, variant_findings(tool, rendered), clean), entry

    def _module_sources(self, checker: TypeChecker, path: str) -> Sources:
        """The parsed sources the checked module's tools read, shared by them until mypy parses a file again."""
        from toolcall_mypy._source.names import Sources

        module = checker.tree.fullname
        sources = self._sources.get(module)
        if sources is None:
            self._mypy_modules = checker.modules
            sources = self._sources[module] = Sources(module, path, run=self._run_shared)
        return sources

    def _handles(self, checker: TypeChecker) -> bool:
        """Whether this module's tools are ours: configured in, and not silenced (an installed package's).

        mypy silences installed packages and ``follow_imports = silent``
        modules: their tools are neither reported nor cached, and their
        cache files (a wheel ships them) are left alone.
        """
        module = checker.tree.fullname
        if not self._settings.handles(module):
            return False
        if checker.path in checker.msg.errors.ignored_files and not checker.options.ignore_errors:
            self._silenced.add(module)
            return False
        return True

    def _finish(self, module: str, path: str, tree: MypyFile | None) -> None:
        if not self._settings.handles(module) or module in self._silenced:
            return
        self._trees.pop(module, None)
        self._sources.pop(module, None)  # its tools are analysed: the parsed sources go (memory, on large projects)
        if not self._needs_store(path):
            return
        from toolcall_mypy._analysis.decorator import unresolved_toolcall

        # Deleting a file needs proof that the module really has no tools: mypy
        # resolved its toolcall imports, and it is not an installed package's module.
        blind = tree is not None and unresolved_toolcall(tree)
        if blind and self._store.stale_file(module, path):
            _warn(
                f"{path}: mypy cannot resolve this module's toolcall imports, so the toolcall plugin sees no "
                "tools there and keeps its schema cache as it is (is toolcall installed where mypy looks, and "
                "not under follow_imports = skip?)"
            )
        self._store.finish(module, path, may_delete=tree is not None and not blind and not installed(path))


def _source_files(checker: TypeChecker, module: str, path: str, modules: tuple[str, ...]) -> dict[str, str]:
    """The files of the modules a tool's schema comes from: its own, and each other with Python source.

    A stub (typeshed's standard library, a stub package) is not what runs,
    so the runtime could not check it; toolcall's own modules change only
    with its version, which the file records already.
    """
    files = {module: path}
    for name in modules:
        tree = checker.modules.get(name)
        if tree is not None and tree.path.endswith(".py") and name.partition(".")[0] not in _OWN_PACKAGES:
            files.setdefault(name, tree.path)
    return files


def _qualname(func: FuncDef, module: str) -> str:
    """The function's qualified name within its module."""
    return func.fullname[len(module) + 1 :] if func.fullname.startswith(module + ".") else func.name


def _shape(func: FuncDef) -> list[tuple[str, str, bool]]:
    """The signature shape ``file_format.fingerprint`` takes, from mypy's view of the function."""
    shape = []
    for argument in func.arguments:
        kind = argument.kind
        if kind == ARG_STAR2:
            shape.append((argument.variable.name, "var_keyword", True))
        elif kind.is_named() and not kind.is_positional():
            shape.append((argument.variable.name, "keyword_only", kind.is_optional()))
        elif kind.is_positional():
            where = "positional_only" if argument.pos_only else "positional_or_keyword"
            shape.append((argument.variable.name, where, kind.is_optional()))
    return shape


def _checker(api: CheckerPluginInterface) -> TypeChecker | None:
    return api if isinstance(api, TypeChecker) else None


def _doc_providers(checker: TypeChecker, providers: frozenset[str]) -> frozenset[str] | None:
    """The providers whose limits ``toolcall-doc`` checks here; ``None`` where the module has the code off.

    The code is off unless enabled (in the config, for the module, or inline).
    """
    from toolcall_mypy._codes import DOC

    return providers if checker.msg.errors.is_error_code_enabled(DOC) else None


def _in_function(checker: TypeChecker) -> bool:
    """Whether the checker is inside a function body (its scope API differs across versions; the stack does not)."""
    return any(isinstance(scope, FuncItem) for scope in checker.scope.stack)


def _parameter(func: FuncDef, name: str | None) -> Argument | None:
    if name is None:
        return None
    return next((argument for argument in func.arguments if argument.variable.name == name), None)


def _in_build_worker() -> bool:
    """Whether this process is a ``--num-workers`` worker (``python -m mypy.build_worker``)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return str(getattr(spec, "name", "")).startswith("mypy.build_worker")


def _warn(message: str) -> None:
    """Print a warning to stderr, once per process (mypy has no warning severity)."""
    if message not in _WARNED:
        _WARNED.add(message)
        _stderr(f"toolcall: warning: {message}")


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
