"""Docstring styles as tools see them: descriptions, parameter entries, overrides, stray entries."""

from __future__ import annotations

import pytest

from tests.corpus import docstyles, introspected
from toolcall._findings import PARAM


@pytest.mark.parametrize("fn", [docstyles.google_style, docstyles.numpy_style, docstyles.sphinx_style])
def test_every_style_gives_the_same_entries(fn: object) -> None:
    city, days = introspected(fn).tool.parameters
    assert city.description == "city name, as the post office spells it"
    assert days.description == "days ahead"


def test_description_keeps_paragraphs_and_stops_at_the_first_section() -> None:
    tool = introspected(docstyles.google_style).tool
    assert tool.description == "Forecast, Google style.\n\nThe forecast comes from the national\nweather service."


def test_explicit_name_and_description_win() -> None:
    tool = introspected(docstyles.overridden).tool
    assert (tool.name, tool.qualname, tool.description) == ("renamed", "overridden", "An explicit description wins.")
    assert tool.parameters[0].description == "still documented"


def test_entry_for_a_missing_parameter_is_a_finding() -> None:
    (finding,) = introspected(docstyles.stray_entry).findings
    assert (finding.code, finding.tool, finding.parameter) == (PARAM, "stray_entry", None)
    assert "'country'" in finding.message


def test_no_docstring_gives_an_empty_description() -> None:
    tool = introspected(docstyles.undocumented).tool
    assert tool.description == ""
    assert tool.parameters[0].description is None
