"""The texts of the errors and findings both front ends write, each saying what is wrong and how to fix it.

Each front end finds the facts in its own world (how it spells a type, the
value, the member) and words the problem here, so a user reads the same
message whether the runtime or the mypy plugin reports it. A type is named
as the front end spells it (``type_name`` in ``toolcall._introspect.types``
and in ``toolcall_mypy._analysis.types``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from toolcall._declarations.tool import star_args  # @tool raises this text at definition
from toolcall._findings import FIX_HINT
from toolcall._rules.type_rules import MAX_DEPTH

if TYPE_CHECKING:
    from toolcall import _ir as ir

__all__ = [
    "INJECTED_INSIDE_TYPE",
    "UNANNOTATED_FIELD",
    "UNANNOTATED_PARAMETER",
    "bound_not_finite",
    "bound_not_numeric",
    "constraints_misfit",
    "default_not_json",
    "default_without_offset",
    "enum_value_not_scalar",
    "literal_not_scalar",
    "mapping_key_not_str",
    "nests_too_deep",
    "no_schema",
    "not_carried",
    "not_json_schema",
    "shorten",
    "star_args",
    "stray_entry",
    "string_integer_misfit",
    "unbound_typevar",
]

#: ``Injected`` written inside a type rather than on a tool parameter.
INJECTED_INSIDE_TYPE: Final = "Injected marks a tool parameter; it cannot appear inside a type"

#: A tool parameter without an annotation (``toolcall-param``).
UNANNOTATED_PARAMETER: Final = "has no annotation, so its schema is {} (any JSON value); annotate it"

#: A NamedTuple field without an annotation (``toolcall-type``).
UNANNOTATED_FIELD: Final = "this field has no annotation, so any JSON value is accepted; annotate it"

_FITS: Final = "numeric bounds fit int and float, lengths fit str, lists, sets and dicts, pattern fits str"
_CONSTRAINT_NAMES: Final = ("ge", "le", "gt", "lt", "multiple_of", "min_length", "max_length", "pattern")
_JSON_SCHEMA: Final = "must be a JSON-literal dict (str keys; str, int, float, bool, None, lists and dicts)"
_NOT_JSON_FIX: Final = (
    "use a str, int, float, bool, list or str-keyed dict default, or None and set the value in the body"
)
_SHORT: Final = 60


def shorten(text: str) -> str:
    """A value's text as messages show it: cut to 60 characters, ending in ``...`` when cut."""
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


def no_schema(type_name: str) -> str:
    """A type no schema describes (``toolcall-type``)."""
    return f"{type_name} has no JSON schema; {FIX_HINT}"


def not_carried(type_name: str, what: Literal["a class object", "a callable"]) -> str:
    """A class object (``type[X]``) or a callable: values JSON cannot carry."""
    return f"{type_name} is {what}, which JSON cannot carry; {FIX_HINT}"


def nests_too_deep(type_name: str) -> str:
    """A type nested deeper than ``type_rules.MAX_DEPTH`` (a generic that recurs with ever-growing arguments)."""
    return f"{type_name} nests more than {MAX_DEPTH} levels deep; simplify the type"


def mapping_key_not_str(key_type_name: str) -> str:
    """A mapping whose keys are not ``str``."""
    return f"mapping keys must be str (JSON object keys are strings), not {key_type_name}"


def literal_not_scalar(value: object) -> str:
    """A ``Literal[...]`` value that is no JSON scalar (bytes, ...)."""
    return f"Literal value {value!r} is not a JSON scalar; use str, int, float, bool or None"


def enum_value_not_scalar(enum_name: str, value_text: str, member: str) -> str:
    """An Enum member whose value is no JSON scalar; ``value_text`` shows the value."""
    return (
        f"enum {enum_name} has the value {value_text} ({member}), which is not a JSON scalar; "
        "give its members str or int values (e.g. a StrEnum)"
    )


def unbound_typevar(name: str) -> str:
    """A TypeVar with neither a bound nor constraints (``toolcall-type``)."""
    return f"TypeVar {name} has no bound, so any JSON value is accepted; give it a bound or constraints"


def string_integer_misfit(type_name: str) -> str:
    """``Param(wire="string_integer")`` on a type without ``int``."""
    return f'Param(wire="string_integer") applies to int, not {type_name}'


def constraints_misfit(where: str, constraints: ir.Constraints) -> str:
    """Constraints that fit no part of the annotation ``where`` names."""
    shown = (f"{name}={getattr(constraints, name)!r}" for name in _CONSTRAINT_NAMES)
    listed = ", ".join(text for text in shown if not text.endswith("=None"))
    return f"{where}: {listed} cannot apply to this type; {_FITS}"


def bound_not_numeric(owner: str, value: object) -> str:
    """An ``annotated_types`` bound that is no number (no int, for a length)."""
    return f"annotated_types.{owner}({value!r}): toolcall supports only numeric bounds here"


def bound_not_finite(owner: str, value: object) -> str:
    """An ``annotated_types`` bound that is ``inf`` or ``nan``."""
    return f"annotated_types.{owner}({value!r}): use a finite bound"


def not_json_schema(where: str, got: str) -> str:
    """A custom schema (``__toolcall_schema__``, a provider's answer) that is no JSON-literal dict; ``got`` shows it."""
    return f"{where} {_JSON_SCHEMA}, got {got}"


def stray_entry(name: str) -> str:
    """A docstring entry that names no parameter of the tool (``toolcall-param``)."""
    return f"the docstring documents {name!r}, which is not a parameter; fix or remove the entry"


def default_not_json(what: str) -> str:
    """A default JSON cannot carry (``toolcall-default``); ``what`` shows it and says what it is.

    ``toolcall._rules.defaults`` words the runtime's finding the same way.
    """
    return f"the default {what} is not JSON, so the schema omits it; {_NOT_JSON_FIX}"


def default_without_offset(what: str, format_name: str) -> str:
    """A naive datetime or time default (``toolcall-default``): the schema's format needs a UTC offset."""
    return (
        f"the default {what} has no UTC offset, which the {format_name!r} format of its schema requires, "
        "so the schema omits it; give it tzinfo=datetime.timezone.utc"
    )
