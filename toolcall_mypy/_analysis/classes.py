"""A mypy class and its source: its ``"module:qualname"`` ref, its class statement, what its bodies declare.

mypy frees class bodies once a module is checked and drops docstrings from
modules it loads from its cache, so descriptions, field annotations and
declaration order come from the class statements (``toolcall_mypy._source.names``),
following the runtime's rules (toolcall/_introspect/docs.py, structs.py).
"""

from __future__ import annotations

import ast
from typing import Final

from mypy.nodes import TypeInfo

from toolcall._rules import descriptions
from toolcall._rules.docstrings import attribute_docs
from toolcall_mypy._source.docs import class_docstring
from toolcall_mypy._source.names import ModuleSource, Sources
from toolcall_mypy._source.syntax import Bindings, Src

__all__ = [
    "Bindings",
    "ClassSource",
    "class_description",
    "class_source",
    "declaration_order",
    "defining_modules",
    "field_annotation",
    "field_docs",
    "info_ref",
    "mro_lineage",
    "typeddict_lineage",
]

ClassSource = tuple[ModuleSource, ast.ClassDef]

# Modules whose classes have no source worth reading (stubs, or the typing machinery itself).
_SKIPPED_MODULES: Final = frozenset({"builtins", "typing", "typing_extensions", "abc", "enum", "collections.abc"})


def info_ref(info: TypeInfo) -> str:
    """``"module:qualname"`` of a class, as ``toolcall._declarations.custom.class_ref`` gives it at run time."""
    module = info.module_name
    qualname = info.fullname[len(module) + 1 :] if info.fullname.startswith(module + ".") else info.name
    return f"{module}:{qualname}"


def defining_modules(info: TypeInfo) -> set[str]:
    """The modules ``info`` and its bases are defined in, those of the typing machinery left out.

    A class's node can come from each: its own fields and docstrings, and
    its bases' (inherited fields, ``__toolcall_schema__``, Enum mixins).
    """
    return {klass.module_name for klass in info.mro if klass.module_name not in _SKIPPED_MODULES}


def class_source(sources: Sources, info: TypeInfo) -> ClassSource | None:
    """The class statement of ``info`` in its module's source, or ``None``."""
    if info.module_name in _SKIPPED_MODULES:
        return None
    where = sources.module(info.module_name)
    node = where.class_def(info_ref(info).partition(":")[2]) if where is not None else None
    return None if where is None or node is None else (where, node)


def class_description(sources: Sources, info: TypeInfo) -> str | None:
    """The description of the class's own docstring (``toolcall._rules.descriptions.class_description``)."""
    source = class_source(sources, info)
    doc = class_docstring(source[1]) if source is not None else info.defn.docstring
    return descriptions.class_description(doc)


def typeddict_lineage(own: ClassSource) -> list[ClassSource]:
    """The TypedDict classes ``own`` derives from, bases first, ``own`` last (runtime ``_typeddict_lineage``).

    mypy's TypedDict classes keep no bases of their own, so they are read
    from the class statements.
    """
    lineage: list[ClassSource] = []
    where, node = own
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        dotted = where.dotted(target) or ""
        if dotted.partition(".")[0] in ("typing", "typing_extensions"):
            continue
        resolved = where.resolve(target)
        if resolved is not None and isinstance(resolved[1], ast.ClassDef) and resolved[1] is not node:
            for entry in typeddict_lineage((resolved[0], resolved[1])):
                if all(entry[1] is not known[1] for known in lineage):
                    lineage.append(entry)
    return [*lineage, own]


def mro_lineage(sources: Sources, info: TypeInfo) -> list[ClassSource]:
    """Classes of the MRO with annotations of their own, bases first (runtime ``_mro_lineage``)."""
    class_sources = (class_source(sources, klass) for klass in reversed(info.mro))
    return [entry for entry in class_sources if entry is not None and entry[0].class_body(entry[1]).has_annotations()]


def field_docs(lineage: list[ClassSource]) -> dict[str, str]:
    """Field descriptions over a class lineage, a subclass's over its bases' (runtime ``field_docs``)."""
    docs: dict[str, str] = {}
    for where, node in lineage:
        docs.update(attribute_docs(class_docstring(node)))
        docs.update(where.class_body(node).field_docs())
    return docs


def field_annotation(lineage: list[ClassSource], name: str, own: ClassSource | None, bindings: Bindings) -> Src | None:
    """The annotation of field ``name`` in the most derived class that writes one.

    ``bindings`` (the class's type parameters bound to the use site's type
    arguments) apply to the annotations of ``own`` only.
    """
    for where, node in reversed(lineage):
        statement = where.class_body(node).field(name)
        if isinstance(statement, ast.AnnAssign):
            own_class = own is not None and node is own[1]
            return Src(statement.annotation, where, bindings if own_class else ())
    return None


def declaration_order(lineage: list[ClassSource], names: list[str], annotated: bool = True) -> list[str]:
    """``names`` in the order the class bodies declare them, bases first (mypy's cache does not keep that order).

    Names no body declares keep mypy's order, after the others.
    """
    declared = [name for where, node in lineage for name in where.class_body(node).declared_names(annotated)]
    order = {name: index for index, name in reversed(list(enumerate(declared)))}
    return sorted(names, key=lambda name: order.get(name, len(order)))
