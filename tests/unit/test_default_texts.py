"""How the shared default rule shows a default JSON cannot carry: the same text from the live value and from source.

The mypy plugin reads a default from source and the runtime has the value;
a served tool warns the plugin's text where an introspected one warns the
runtime's, so the rule shows only what both see alike.
"""

from __future__ import annotations

import datetime as dt

from toolcall import _ir as ir
from toolcall._rules.defaults import default_for

ANY = ir.AnyType("any")


def message(value: object) -> str:
    (finding,) = default_for(value, ANY, tool="t", parameter="p").findings
    return finding.message


def test_a_function_default_shows_its_name_not_its_address() -> None:
    assert message(lambda: 1).startswith("the default <lambda> (a function) is not JSON")

    def helper() -> None:
        pass

    assert message(helper).startswith("the default helper (a function) is not JSON")
    assert " at 0x" not in message(helper)


def test_a_dict_with_a_key_json_cannot_carry_shows_that_key() -> None:
    expected = "the default dict (its key datetime.date(2024, 1, 1) is not a str) is not JSON"
    assert message({"a": 1, dt.date(2024, 1, 1): 1, 2: 3}).startswith(expected)
    assert message({(1, 2): 3}).startswith("the default dict (its key (1, 2) is not a str) is not JSON")


def test_a_complex_default_shows_its_repr() -> None:
    assert message(1j).startswith("the default 1j (a complex) is not JSON")
