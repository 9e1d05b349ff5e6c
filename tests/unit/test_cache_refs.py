"""A cached tool's refs resolve only to classes of the kind their nodes declare, importing only the tool's package.

The cache is data: a forged file (its seal is an unkeyed digest) must not be
able to name ``os:system`` or make the loader import a module of its choice.
These build IR directly; no cache file is involved.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import importlib
import sys
import textwrap
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

import pytest
import typing_extensions as te

from tests import corpus
from toolcall import TypeProvider
from toolcall import _ir as ir
from toolcall._cache.constants import MalformedCacheError
from toolcall._cache.refs import resolve_refs
from toolcall._declarations.custom import class_ref

HERE = __name__
#: The tool module the IR claims; a package other than this test module's, so only imported modules resolve.
TOOL_MODULE = "app.tools"
STR = ir.Primitive("str")


class Movie(TypedDict):
    title: str


class ExtMovie(te.TypedDict):
    title: str


@dataclasses.dataclass
class Point:
    x: int


class Pair(NamedTuple):
    left: int


OldPair = collections.namedtuple("OldPair", "left")


class Color(enum.Enum):
    RED = "red"


class Plain:
    pass


class Hex:
    __toolcall_schema__ = {"type": "string"}

    @classmethod
    def __toolcall_coerce__(cls, value: Any) -> Hex:
        return cls()


class Opaque:
    __toolcall_schema__ = {"type": "object"}


class InheritsSchema(Hex):
    pass


class Provider(TypeProvider):
    def resolve(self, fullname: str, args: tuple[str, ...]) -> dict[str, Any] | None:
        return {"type": "string"} if fullname.endswith("Plain") else None


class Outer:
    @dataclasses.dataclass
    class Inner:
        y: int

    @classmethod
    def made(cls) -> type[Point]:
        return Point


def ref(obj: Any) -> str:
    return class_ref(obj)


def tool(*types: ir.TypeNode, providers: tuple[str, ...] = (), defs: tuple[ir.NamedType, ...] = ()) -> ir.Tool:
    """A tool with one parameter per type node."""
    parameters = tuple(ir.Parameter(f"p{i}", "positional_or_keyword", t) for i, t in enumerate(types))
    return ir.Tool("t", TOOL_MODULE, "t", "", parameters, defs, None, providers)


def obj(target: str, shape: Any = "dataclass") -> ir.ObjectType:
    return ir.ObjectType(target, shape, ())


def enum_node(target: str) -> ir.EnumType:
    return ir.EnumType(target, ("red",))


def custom(target: str, provider: str | None = None, coerce: bool = False) -> ir.CustomType:
    return ir.CustomType(target, '{"type":"string"}', provider, coerce)


def refused(node_or_tool: ir.TypeNode | ir.Tool, match: str, module: str = TOOL_MODULE) -> MalformedCacheError:
    t = node_or_tool if isinstance(node_or_tool, ir.Tool) else tool(node_or_tool)
    with pytest.raises(MalformedCacheError, match=match) as caught:
        resolve_refs(t, module)
    return caught.value


# -- accepted ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (obj(ref(Movie), "typeddict"), Movie),
        (obj(ref(ExtMovie), "typeddict"), ExtMovie),
        (obj(ref(Point), "dataclass"), Point),
        (obj(ref(Outer.Inner), "dataclass"), Outer.Inner),
        (obj(ref(Pair), "namedtuple"), Pair),
        (obj(ref(OldPair), "namedtuple"), OldPair),
        (enum_node(ref(Color)), Color),
        (custom(ref(Hex), coerce=True), Hex),
        (custom(ref(Opaque)), Opaque),
        (custom(ref(InheritsSchema), coerce=True), InheritsSchema),
    ],
    ids=lambda v: v.__qualname__ if isinstance(v, type) else v.kind,
)
def test_each_kind_resolves_to_its_class(node: ir.TypeNode, expected: type[Any]) -> None:
    assert resolve_refs(tool(node), TOOL_MODULE) == {node.ref: expected}  # type: ignore[union-attr]


def test_a_provider_described_type_and_its_provider() -> None:
    node = custom(ref(Plain), provider=ref(Provider), coerce=True)
    resolved = resolve_refs(tool(node, providers=(ref(Provider),)), TOOL_MODULE)
    assert resolved == {ref(Plain): Plain, ref(Provider): Provider}


def test_every_ref_of_the_tool_is_resolved_sorted_as_the_loader_collects_them() -> None:
    nested = ir.UnionType((ir.ArrayType(enum_node(ref(Color))), ir.MapType(obj(ref(Movie), "typeddict"))))
    defs = (ir.NamedType("P", obj(ref(Point), "dataclass")),)
    with_field = ir.ObjectType(ref(Pair), "namedtuple", (ir.Field("f", custom(ref(Opaque))),))
    t = tool(nested, with_field, providers=(ref(Provider),), defs=defs)
    t = dataclasses.replace(t, returns=enum_node("os:system"))  # the loader leaves the return type out
    resolved = resolve_refs(t, TOOL_MODULE)
    assert list(resolved) == sorted(resolved)
    assert resolved == {
        ref(Color): Color,
        ref(Movie): Movie,
        ref(Point): Point,
        ref(Pair): Pair,
        ref(Opaque): Opaque,
        ref(Provider): Provider,
    }


@pytest.mark.parametrize("module_name", corpus.MODULES)
def test_the_refs_the_runtime_front_end_makes_resolve_and_dispatch(module_name: str) -> None:
    """Every corpus tool: the same classes introspection found, and the dispatcher builds with them."""
    from toolcall._declarations.tool import module_tools
    from toolcall._dispatch.binder import prepare
    from toolcall._introspect import introspect

    importlib.import_module(module_name)
    for declaration in module_tools(module_name):
        found = introspect(declaration)
        resolved = resolve_refs(found.tool, module_name)
        assert all(found.classes[r] is cls for r, cls in resolved.items())
        prepare(found.tool, declaration.function, resolved, declaration.thread)


# -- refused: the wrong kind of object ---------------------------------------


@pytest.mark.parametrize(
    ("node", "noun"),
    [
        (obj("os:system", "typeddict"), "a TypedDict"),
        (obj("os:system", "dataclass"), "a dataclass"),
        (obj("os:system", "namedtuple"), "a NamedTuple"),
        (enum_node("os:system"), "an Enum"),
        (custom("os:system"), "a class with __toolcall_schema__"),
        (custom("os:system", provider=ref(Provider)), "a class"),
    ],
    ids=lambda v: v if isinstance(v, str) else v.kind,
)
def test_a_function_is_refused_as_any_kind(node: ir.TypeNode, noun: str) -> None:
    error = refused(node, f"names a function, not {noun}$")
    assert str(error).startswith("ref 'os:system' ")


@pytest.mark.parametrize(
    ("node", "message"),
    [
        (obj(ref(Point), "typeddict"), "names a dataclass, not a TypedDict"),
        (obj(ref(Movie), "dataclass"), "names a TypedDict, not a dataclass"),
        (obj(ref(Point), "namedtuple"), "names a dataclass, not a NamedTuple"),
        (enum_node(ref(Plain)), "names a plain class, not an Enum"),
        (custom(ref(Color)), "names an Enum, not a class with __toolcall_schema__"),
        (custom(ref(Opaque), coerce=True), "not a class with __toolcall_coerce__"),
        (custom(ref(Color) + ".RED", provider=ref(Provider)), "names a Color object, not a class"),
        (obj("os:path", "dataclass"), "names a module, not a dataclass"),
        (obj(ref(Point), "evil"), r"has an unknown object shape 'evil'$"),
    ],
)
def test_a_class_of_another_kind_is_refused(node: ir.TypeNode, message: str) -> None:
    refused(node, message)


@pytest.mark.parametrize("provider", [ref(Plain), ref(Color), f"{TypeProvider.__module__}:TypeProvider", "os:system"])
def test_a_provider_must_be_a_type_provider_subclass(provider: str) -> None:
    refused(tool(providers=(provider,)), "not a TypeProvider subclass")
    refused(custom(ref(Plain), provider=provider), "not a TypeProvider subclass")


def test_one_ref_declared_as_two_kinds_must_be_both() -> None:
    refused(tool(obj(ref(Point), "dataclass"), enum_node(ref(Point))), "names a dataclass, not an Enum")


def test_a_descriptor_is_returned_as_stored_not_called() -> None:
    # Outer.made() would return Point, a dataclass; the classmethod object itself is what is found.
    refused(obj(f"{HERE}:Outer.made", "dataclass"), "names a classmethod object, not a dataclass")


# -- refused: the name itself ------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (f"{HERE}:Point.__init__.__globals__", r"dunder part \('__init__'\)"),
        (f"{HERE}:__builtins__", "dunder part"),
        (f"{HERE}.Point", "not of the form 'module:qualname'"),
        (f"{HERE}:", "empty or malformed part"),
        (f"{HERE}:Outer..Inner", "empty or malformed part"),
        (f"{HERE}:f.<locals>.Point", "empty or malformed part"),
        (f"{HERE}:Point:x", "empty or malformed part"),
        (":Point", "malformed module name"),
        (".tests:Point", "malformed module name"),
        (f"{HERE}:Missing", "names nothing: there is no 'Missing'"),
        (f"{HERE}:Point.x", "names nothing: there is no 'x'"),
        (f"{HERE}:Color.RED.value", "reaches a Color object before 'value'"),
    ],
)
def test_a_malformed_or_dunder_name_is_refused(bad: str, message: str) -> None:
    refused(obj(bad), message)


def test_a_placeholder_in_sys_modules_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "app.placeholder", Point(1))
    refused(obj("app.placeholder:Point"), r"sys.modules\['app.placeholder'\] is not a module")


def test_a_ref_that_is_not_a_string_is_refused() -> None:
    refused(tool(obj(ref(Point)), obj(42)), "a ref is not a string: 42")  # type: ignore[arg-type]
    refused(tool(obj({"a": 1})), "a ref is not a string")  # type: ignore[arg-type]
    refused(tool(providers=[ref(Provider)]), "providers are not a list")  # type: ignore[arg-type]


# -- imports -----------------------------------------------------------------


#: A module body with a dataclass ``Thing``: what a ref may name, were its module allowed.
THING = """
import dataclasses

@dataclasses.dataclass
class Thing:
    x: int
"""


class Package:
    """A throwaway top-level package on ``sys.path`` (and a name for a module beside it, outside it).

    Each module it writes writes ``markers/<module>`` when imported.
    """

    def __init__(self, root: Path) -> None:
        self.name = f"refs_pkg_{uuid.uuid4().hex[:10]}"
        self.outside = f"refs_outside_{uuid.uuid4().hex[:10]}"
        self.root = root
        self.markers = root / "markers"
        self.markers.mkdir()
        self.write("__init__", "")

    def write(self, module: str, body: str) -> str:
        """Write ``module`` of the package (``"__init__"`` is the package itself); its full name."""
        full = self.name if module == "__init__" else f"{self.name}.{module}"
        return self._write(self.root / self.name / f"{module}.py", full, body)

    def write_outside(self, body: str) -> str:
        """Write the top-level module ``self.outside``, beside the package; its name."""
        return self._write(self.root / f"{self.outside}.py", self.outside, body)

    def _write(self, path: Path, full: str, body: str) -> str:
        path.parent.mkdir(exist_ok=True)
        marker = f"from pathlib import Path\nPath({str(self.markers / full)!r}).write_text('imported')\n"
        path.write_text(marker + textwrap.dedent(body))
        return full

    def imported(self, full: str) -> bool:
        return (self.markers / full).exists()


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Package]:
    made = Package(tmp_path)
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    try:
        yield made
    finally:
        sys.path.remove(str(tmp_path))
        for name in list(sys.modules):
            if name.partition(".")[0] in (made.name, made.outside):
                del sys.modules[name]


def test_a_module_outside_the_package_is_not_imported(package: Package) -> None:
    outside = package.write_outside(THING)
    error = refused(obj(f"{outside}:Thing"), "outside package", module=f"{package.name}.tools")
    assert str(error) == (
        f"ref '{outside}:Thing': module '{outside}' is outside package '{package.name}' and not imported"
    )
    assert not package.imported(outside)
    assert outside not in sys.modules


def test_a_module_of_the_package_not_yet_imported_is_imported(package: Package) -> None:
    models = package.write("models", THING)
    assert models not in sys.modules
    resolved = resolve_refs(tool(obj(f"{models}:Thing")), f"{package.name}.tools")
    assert resolved[f"{models}:Thing"] is sys.modules[models].Thing
    assert package.imported(models)


def test_a_module_of_the_package_that_fails_to_import_is_refused(package: Package) -> None:
    broken = package.write("broken", "raise RuntimeError('no database')\n")
    refused(
        obj(f"{broken}:Thing"),
        rf"^ref '{broken}:Thing': importing '{broken}' failed: RuntimeError: no database$",
        module=f"{package.name}.tools",
    )
    assert broken not in sys.modules


def test_a_missing_module_of_the_package_is_refused(package: Package) -> None:
    refused(obj(f"{package.name}.gone:Thing"), "failed: ModuleNotFoundError", module=f"{package.name}.tools")


def test_a_dunder_name_is_refused_before_anything_is_imported(package: Package) -> None:
    models = package.write("models", "class Cls:\n    def __init__(self): pass\n")
    refused(obj(f"{models}:Cls.__init__.__globals__"), "dunder part", module=f"{package.name}.tools")
    assert not package.imported(models)
    refused(obj(f"{package.name}.__init__:Cls"), "has a dunder part", module=f"{package.name}.tools")
    assert not package.imported(package.name)


def test_a_module_getattr_is_never_asked(package: Package) -> None:
    lazy = package.write(
        "lazy",
        """
        import dataclasses
        from pathlib import Path

        def __getattr__(name):
            Path(__file__).with_name("asked").write_text(name)
            @dataclasses.dataclass
            class Made:
                x: int
            return Made
        """,
    )
    refused(obj(f"{lazy}:Made"), "names nothing: there is no 'Made'", module=f"{package.name}.tools")
    assert package.imported(lazy)
    assert not (package.root / package.name / "asked").exists()


def test_an_imported_module_outside_the_package_resolves_without_importing(package: Package) -> None:
    # This test module is imported and of package "tests", not the tool's: taken from sys.modules as it is.
    assert resolve_refs(tool(obj(ref(Point))), f"{package.name}.tools") == {ref(Point): Point}
