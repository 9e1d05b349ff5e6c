"""Python 3.14's lazy annotations at run time: names not yet defined, and names never defined.

The tools below are defined inside the tests, so their annotations are
evaluated only on 3.14, lazily: a name they use that is never defined is
no error until something reads it. Below 3.14 these tests are skipped.
tests/plugin/test_lazy_annotations.py compares both front ends and the
served cache on the tool modules of tests/lazy.
"""

import importlib
import inspect
import sys

import pytest

import toolcall
from toolcall._annotations import signature
from toolcall._exceptions import SchemaError

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 14), reason="lazy annotations (PEP 649/749) are Python 3.14's: tests/lazy fails before it"
)

RESOLVED_LATER = "(annotations are resolved on the toolset's first use, so it may be defined later in the module)"


def _schema_error(source: object) -> str:
    with pytest.raises(SchemaError) as info:
        toolcall.describe(source)  # type: ignore[arg-type]
    return str(info.value)


def test_an_unresolvable_name_names_the_tool_the_parameter_and_the_name() -> None:
    unresolved = importlib.import_module("tests.lazy.unresolved")
    assert _schema_error(unresolved.send) == (
        "tool 'send' (tests.lazy.unresolved.send), parameter 'parcels': cannot resolve the annotation: "
        f"name 'Parcel' is not defined; define or import it in the module {RESOLVED_LATER}"
    )
    assert _schema_error(unresolved.measure).startswith(
        "tool 'measure' (tests.lazy.unresolved.measure), the return annotation: cannot resolve the annotation: "
        "name 'Size' is not defined;"
    )
    assert _schema_error(unresolved.weigh).startswith(
        "tool 'weigh' (tests.lazy.unresolved.weigh), parameter 'box': field 'size' of tests.lazy.unresolved.Box: "
        "cannot resolve the annotation: name 'Size' is not defined;"
    )


def test_star_args_are_refused_at_definition_whatever_their_annotation_names() -> None:
    def pack(box: str, *items: Undefined) -> None:  # type: ignore[name-defined]  # noqa: F821
        """Pack."""

    with pytest.raises(TypeError, match=r"\*items cannot be sent by a model"):
        toolcall.tool(pack)


def test_signature_reads_names_kinds_and_defaults_without_evaluating_annotations() -> None:
    def later(a: Nowhere, /, b: int = 2, *, c: list[Nowhere] = []) -> Nowhere:  # type: ignore[name-defined]  # noqa: F821, B006
        pass

    with pytest.raises(NameError):
        inspect.signature(later)
    found = signature(later)
    assert [(p.name, p.kind.name, p.default) for p in found.parameters.values()] == [
        ("a", "POSITIONAL_ONLY", inspect.Parameter.empty),
        ("b", "POSITIONAL_OR_KEYWORD", 2),
        ("c", "KEYWORD_ONLY", []),
    ]
