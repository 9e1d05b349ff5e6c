"""A rules checker for tool schemas, from the provider research (docs/rendering.md, docs/providers/).

``check_schema(mode, schema)`` returns the violations (empty when the schema is
fine). It is deliberately independent of ``toolcall._render``: it encodes what
each provider accepts, not what the renderers do, so a renderer bug cannot
hide in both places. Modes: ``openai``, ``openai-strict``, ``anthropic``,
``anthropic-strict``, ``mcp``, ``gemini``.

Where the table says "?" the checker takes the conservative side (a keyword
of unknown support counts as rejected in the strict modes). Decisions for
Gemini's ``parameters`` (an OpenAPI 3.0 subset, not JSON Schema): ``type`` is
one upper-case name (the REST reference's enum spelling); ``additionalProperties``,
``$ref``/``defs``, ``const``, ``exclusive*`` and ``$schema`` count as rejected
(each has a reported 400 or is inlined by toolcall); ``properties`` may not be
empty ("should be non-empty for OBJECT type").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema

__all__ = ["MODES", "assert_valid", "check_schema"]

MODES = ("openai", "openai-strict", "anthropic", "anthropic-strict", "mcp", "gemini")

Node = dict[str, Any]

# Subschema-bearing keywords of JSON Schema 2020-12.
_ONE = (
    *("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"),
    *("unevaluatedItems", "unevaluatedProperties"),
)
_MANY = ("anyOf", "oneOf", "allOf", "prefixItems")
_NAMED = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")

_TYPED = ("type", "anyOf", "$ref", "enum", "const")

# OpenAI strict: documented as unsupported, rejected in threads docs/providers/openai.md cites, or "?" (avoided).
_OPENAI_STRICT_FORBIDDEN = frozenset(
    {"prefixItems", "uniqueItems", "oneOf", "allOf", "not", "if", "then", "else", "default"}
    | {"dependentRequired", "dependentSchemas", "patternProperties", "propertyNames", "contains"}
    | {"unevaluatedProperties", "unevaluatedItems", "minProperties", "maxProperties"}
)
_OPENAI_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})

# Anthropic strict: "Not supported (400)", "not on either list" and "?" rows.
_ANTHROPIC_STRICT_FORBIDDEN = frozenset(
    {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"}
    | {"maxItems", "uniqueItems", "prefixItems", "oneOf", "not", "if", "then", "else", "patternProperties"}
    | {"propertyNames", "contains", "unevaluatedProperties", "unevaluatedItems", "dependentSchemas"}
    | {"dependentRequired", "minProperties", "maxProperties"}
)
_ANTHROPIC_FORMATS = _OPENAI_FORMATS | {"uri"}

# Gemini Schema proto fields (docs/providers/gemini.md) minus the decided exclusions.
_GEMINI_FIELDS = frozenset(
    {"type", "format", "title", "description", "nullable", "enum", "default", "example", "items"}
    | {"minItems", "maxItems", "minLength", "maxLength", "pattern", "minProperties", "maxProperties"}
    | {"minimum", "maximum", "properties", "required", "propertyOrdering", "anyOf"}
)
_GEMINI_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})
_GEMINI_FORMATS = {
    "STRING": {"date", "date-time", "enum"},
    "INTEGER": {"int32", "int64"},
    "NUMBER": {"float", "double"},
}
_GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def check_schema(mode: str, schema: Any) -> list[str]:
    """The ways ``schema`` breaks ``mode``'s rules, as readable strings."""
    if mode not in _CHECKS:
        raise ValueError(f"unknown mode {mode!r}; known: {MODES}")
    if not isinstance(schema, dict):
        return ["#: the schema is not an object"]
    return _CHECKS[mode](schema)


def assert_valid(mode: str, schema: Any) -> None:
    """Fail unless ``schema`` is valid 2020-12 (JSON modes) and breaks none of ``mode``'s rules."""
    if mode != "gemini":
        jsonschema.Draft202012Validator.check_schema(schema)
    violations = check_schema(mode, schema)
    assert not violations, violations


# -- walking ---------------------------------------------------------------------------------


def _walk(schema: Any, path: str = "#") -> Iterator[tuple[str, Node]]:
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key, value in schema.items():
        if key in _ONE:
            yield from _walk(value, f"{path}/{key}")
        elif key in _MANY and isinstance(value, list):
            for i, item in enumerate(value):
                yield from _walk(item, f"{path}/{key}/{i}")
        elif key in _NAMED and isinstance(value, dict):
            for name, item in value.items():
                yield from _walk(item, f"{path}/{key}/{name}")


def _types(node: Node) -> set[str]:
    declared = node.get("type")
    if isinstance(declared, str):
        return {declared}
    return set(declared) if isinstance(declared, list) else set()


def _is_object(node: Node) -> bool:
    return "object" in _types(node) or "properties" in node


# -- rules shared by the JSON Schema modes ---------------------------------------------------------


def _metaschema(schema: Node) -> list[str]:
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"#: not valid JSON Schema 2020-12: {exc.message}"]
    return []


def _root_object(schema: Node, combinators: tuple[str, ...]) -> list[str]:
    out = [] if schema.get("type") == "object" else ["#: the root must be type object"]
    out += [f"#: {k} at the root" for k in combinators if k in schema]
    return out


def _forbidden(schema: Node, forbidden: frozenset[str]) -> list[str]:
    return [f"{p}: {k} is not accepted" for p, n in _walk(schema) for k in sorted(forbidden & n.keys())]


def _closed(schema: Node) -> list[str]:
    return [
        f"{p}: additionalProperties must be false"
        for p, n in _walk(schema)
        if _is_object(n) and n.get("additionalProperties") is not False
    ]


def _formats(schema: Node, allowed: frozenset[str]) -> list[str]:
    return [
        f"{p}: format {n['format']!r} is not accepted"
        for p, n in _walk(schema)
        if n.get("format", None) not in (None, *allowed)
    ]


def _recursion(schema: Node) -> list[str]:
    defs = schema.get("$defs", {})
    edges = {name: {_ref_name(n["$ref"]) for _, n in _walk(body) if "$ref" in n} for name, body in defs.items()}
    out = []
    for name in defs:
        seen, todo = set(), list(edges[name])
        while todo:
            current = todo.pop()
            if current == name:
                out.append(f"#/$defs/{name}: recursive")
                break
            if current in edges and current not in seen:
                seen.add(current)
                todo.extend(edges[current])
    return out


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")


def _object_depth(node: Any) -> int:
    if not isinstance(node, dict):
        return 0
    inner = [_object_depth(v) for p, v in _children(node) if p != "$defs"]
    return (1 if _is_object(node) else 0) + max(inner, default=0)


def _children(node: Node) -> Iterator[tuple[str, Any]]:
    for key, value in node.items():
        if key in _ONE:
            yield key, value
        elif key in _MANY and isinstance(value, list):
            yield from ((key, v) for v in value)
        elif key in _NAMED and isinstance(value, dict):
            yield from ((key, v) for v in value.values())


# -- one function per mode ---------------------------------------------------------------------


def _openai(schema: Node) -> list[str]:
    out = _metaschema(schema) + _root_object(schema, ("anyOf", "oneOf", "allOf", "enum", "not"))
    out += [f"{p}: array schema missing items" for p, n in _walk(schema) if "array" in _types(n) and "items" not in n]
    return out


def _openai_strict(schema: Node) -> list[str]:
    out = _metaschema(schema) + _root_object(schema, ("anyOf", "oneOf", "allOf", "enum", "not"))
    out += _closed(schema) + _forbidden(schema, _OPENAI_STRICT_FORBIDDEN) + _formats(schema, _OPENAI_FORMATS)
    for p, n in _walk(schema):
        if not any(k in n for k in _TYPED):
            out.append(f"{p}: schema must have a 'type' key")
        if _is_object(n) and set(n.get("properties", {})) != set(n.get("required", ())):
            out.append(f"{p}: every property must be required")
        if "array" in _types(n) and not (isinstance(n.get("items"), dict) and any(k in n["items"] for k in _TYPED)):
            out.append(f"{p}: array items missing or untyped")
        if "$ref" in n and len(n) > 1:
            out.append(f"{p}: $ref cannot have keywords {sorted(set(n) - {'$ref'})}")
        if "$ref" in n and not re.fullmatch(r"#(/(\$defs|definitions)/[^/]+)?", n["$ref"]):
            out.append(f"{p}: $ref must be '#' or '#/$defs/...'")
    out += _openai_strict_limits(schema)
    return out


def _openai_strict_limits(schema: Node) -> list[str]:
    nodes = [n for _, n in _walk(schema)]
    out = []
    if _object_depth(schema) > 10:
        out.append("#: more than 10 levels of nesting")
    if sum(len(n.get("properties", {})) for n in nodes) > 5000:
        out.append("#: more than 5000 properties")
    if sum(len(n.get("enum", ())) for n in nodes) > 1000:
        out.append("#: more than 1000 enum values")
    return out


def _anthropic(schema: Node) -> list[str]:
    return _metaschema(schema) + _root_object(schema, ("anyOf", "oneOf", "allOf"))


def _anthropic_strict(schema: Node) -> list[str]:
    out = _anthropic(schema) + _closed(schema) + _recursion(schema)
    out += _forbidden(schema, _ANTHROPIC_STRICT_FORBIDDEN) + _formats(schema, _ANTHROPIC_FORMATS)
    for p, n in _walk(schema):
        if "minItems" in n and n["minItems"] not in (0, 1):
            out.append(f"{p}: minItems must be 0 or 1")
        if "pattern" in n and _complex_regex(n["pattern"]):
            out.append(f"{p}: pattern uses backreferences, lookaround or word boundaries")
        if any(isinstance(v, (dict, list)) for v in n.get("enum", ())):
            out.append(f"{p}: complex enum values")
        if "$ref" in n and not str(n["$ref"]).startswith("#"):
            out.append(f"{p}: external $ref")
    return out


def _complex_regex(pattern: str) -> bool:
    # Literal backslashes first, so r"\\b" is a backslash and a "b", not a word boundary.
    bare = re.sub(r"\\\\", "", pattern)
    bare = re.sub(r"\\[()]", "", bare)
    return re.search(r"\(\?<?[=!]|\(\?P=|\\[1-9bBk]", bare) is not None


def _mcp(schema: Node) -> list[str]:
    return _metaschema(schema) + _root_object(schema, ())


def _gemini(schema: Node) -> list[str]:
    out = [] if schema.get("type") == "OBJECT" else ["#: parameters must be type OBJECT"]
    return out + [v for p, n in _gemini_walk(schema, "#") for v in _gemini_node(p, n)]


def _gemini_walk(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, node
    if not isinstance(node, dict):
        return
    if isinstance(node.get("properties"), dict):
        for name, sub in node["properties"].items():
            yield from _gemini_walk(sub, f"{path}/properties/{name}")
    if "items" in node:
        yield from _gemini_walk(node["items"], f"{path}/items")
    for i, sub in enumerate(node.get("anyOf", ()) if isinstance(node.get("anyOf"), list) else ()):
        yield from _gemini_walk(sub, f"{path}/anyOf/{i}")


def _gemini_node(p: str, n: Any) -> list[str]:
    if not isinstance(n, dict):
        return [f"{p}: not a Schema object"]
    out = [f"{p}: unknown field {k!r}" for k in sorted(set(n) - _GEMINI_FIELDS)]
    kind = n.get("type")
    if kind is not None and (not isinstance(kind, str) or kind not in _GEMINI_TYPES):
        out.append(f"{p}: type must be one of {sorted(_GEMINI_TYPES)}, got {kind!r}")
    if "nullable" in n and not isinstance(n["nullable"], bool):
        out.append(f"{p}: nullable must be a boolean")
    if "enum" in n and (kind != "STRING" or not all(isinstance(v, str) for v in n["enum"])):
        out.append(f"{p}: enum must be strings on a STRING")
    if "format" in n and n["format"] not in _GEMINI_FORMATS.get(str(kind), ()):
        out.append(f"{p}: format {n['format']!r} is not accepted on {kind}")
    out += _gemini_object(p, n)
    if kind == "ARRAY" and not isinstance(n.get("items"), dict):
        out.append(f"{p}: ARRAY needs items")
    return out


def _gemini_object(p: str, n: Node) -> list[str]:
    out = []
    properties = n.get("properties")
    if properties is not None and (not isinstance(properties, dict) or not properties):
        out.append(f"{p}: properties should be non-empty for OBJECT type")
    names = properties if isinstance(properties, dict) else {}
    out += [f"{p}: property name {k!r} is not accepted" for k in names if not _GEMINI_NAME.fullmatch(k)]
    out += [f"{p}: required {k!r} is not a property" for k in n.get("required", ()) if k not in names]
    return out


_CHECKS: dict[str, Callable[[Node], list[str]]] = {
    "openai": _openai,
    "openai-strict": _openai_strict,
    "anthropic": _anthropic,
    "anthropic-strict": _anthropic_strict,
    "mcp": _mcp,
    "gemini": _gemini,
}
