"""mkdocs hooks for the documentation site: every public name must have a docstring.

mkdocstrings renders a name without a docstring as a bare signature and says
nothing. Before each build, this hook loads the modules that the API
reference pages render (their ``::: module`` lines) with griffe, and logs a
warning for each name in a module's ``__all__`` that has no docstring, so
``mkdocs build --strict`` fails.

``DocComments`` is a griffe extension (mkdocs.yml loads it for mkdocstrings
too): the project documents constants with ``#:`` comments, as Sphinx does,
and griffe reads only string literals, so the comment becomes the docstring.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import Any

import griffe

log = logging.getLogger("mkdocs.plugins.toolcall_docstrings")

#: A line of a reference page that renders an object: ``::: toolcall.errors``.
_DIRECTIVE = re.compile(r"^:::\s+([\w.]+)\s*$", re.MULTILINE)
#: The marker of a Sphinx-style doc comment.
_DOC_COMMENT = "#:"


class DocComments(griffe.Extension):
    """Read the ``#:`` comment lines right above an attribute as its docstring."""

    def on_attribute_instance(self, *, node: Any, attr: griffe.Attribute, agent: Any, **kwargs: Any) -> None:
        """Give ``attr`` the text of its ``#:`` comments when it has no docstring."""
        code = getattr(agent, "code", None)
        if attr.docstring is not None or not isinstance(code, str) or not isinstance(node, ast.AST):
            return
        text = _comment_above(code.splitlines(), attr.lineno)
        if text:
            attr.docstring = griffe.Docstring(text, lineno=attr.lineno, parent=attr)


def _comment_above(lines: list[str], lineno: int | None) -> str:
    """The ``#:`` comment block that ends on the line before ``lineno`` (1-based), without its markers."""
    if lineno is None:
        return ""
    block: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].lstrip().startswith(_DOC_COMMENT):
        block.insert(0, lines[index].lstrip()[len(_DOC_COMMENT) :].strip())
        index -= 1
    return "\n".join(block).strip()


def rendered_objects(docs_dir: Path) -> list[str]:
    """The objects the pages under ``docs_dir`` render with ``:::``, in page order."""
    found: list[str] = []
    for page in sorted(docs_dir.rglob("*.md")):
        found += _DIRECTIVE.findall(page.read_text(encoding="utf-8"))
    return found


def undocumented(modules: list[str], search_paths: list[Path]) -> list[str]:
    """``module.name`` for each name in ``__all__`` of ``modules`` that has no docstring (or no ``__all__``)."""
    loader = griffe.GriffeLoader(
        search_paths=[str(path) for path in search_paths],
        extensions=griffe.load_extensions(DocComments()),
    )
    for package in dict.fromkeys(module.split(".")[0] for module in modules):
        loader.load(package)
    loader.resolve_aliases(implicit=False, external=False)
    missing: list[str] = []
    for path in modules:
        module = loader.modules_collection.get_member(path)
        if not isinstance(module, griffe.Module):
            continue  # a single object rendered on its own: its module is checked where that is rendered
        if not _has_docstring(module):
            missing.append(f"{path} (the module)")
        if module.exports is None:
            missing.append(f"{path}.__all__ (the public names are not declared)")
            continue
        for name in module.exports:
            name = name if isinstance(name, str) else name.name
            missing += _missing_in(f"{path}.{name}", _exported(loader, module, name))
    return missing


def _missing_in(path: str, obj: griffe.Object | griffe.Alias | None) -> list[str]:
    """``path`` if ``obj`` has no docstring, and each public method of a class that has none.

    A class's fields are described in its docstring (``Attributes:``), so only
    its methods need their own.
    """
    if not _has_docstring(obj):
        return [path]
    assert obj is not None
    target = obj.final_target if obj.is_alias else obj
    if not target.is_class:
        return []
    return [
        f"{path}.{name}"
        for name, member in target.members.items()
        if not name.startswith("_") and member.is_function and not _has_docstring(member)
    ]


def _exported(loader: griffe.GriffeLoader, module: griffe.Module, name: str) -> griffe.Object | griffe.Alias | None:
    """What ``module.name`` is at run time: an import of that name replaces a submodule of that name."""
    imported = module.imports.get(name)
    if imported is not None:
        try:
            return loader.modules_collection.get_member(imported)  # type: ignore[no-any-return]
        except KeyError:
            pass
    return module.members.get(name)


def _has_docstring(obj: griffe.Object | griffe.Alias | None) -> bool:
    if obj is None:
        return False
    try:
        docstring = obj.docstring
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return docstring is not None and bool(docstring.value.strip())


def on_pre_build(config: Any) -> None:
    """Warn for each public name, on the API reference pages, without a docstring."""
    docs_dir = Path(config["docs_dir"])
    base = Path(config["config_file_path"]).parent
    handler = config["plugins"]["mkdocstrings"].config["handlers"].get("python", {})
    search_paths = [base / path for path in handler.get("paths", ["."])]
    for name in undocumented(rendered_objects(docs_dir), search_paths):
        log.warning("public name without a docstring: %s", name)
