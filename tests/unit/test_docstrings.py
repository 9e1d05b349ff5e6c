"""toolcall._rules.docstrings: pure text rules for descriptions and entries."""

from __future__ import annotations

import pytest

from toolcall._rules.docstrings import attribute_docs, clean_entry, description_of, parse_docstring

GOOGLE = """Get the forecast.

    More text here
    spanning lines.

    Second paragraph.

    Args:
        city: city name,
            continued here
        days (int): how many days
        **extra: anything else

    Returns:
        the forecast
    """
NUMPY = """Get the forecast.

    Parameters
    ----------
    city : str
        city name,
        continued here
    days
        how many days
    """
SPHINX = """Get the forecast.

    :param city: city name,
        continued here
    :param int days: how many days
    :returns: the forecast
    """


def test_google_description_keeps_paragraphs() -> None:
    parsed = parse_docstring(GOOGLE)
    assert parsed.description == "Get the forecast.\n\nMore text here\nspanning lines.\n\nSecond paragraph."


@pytest.mark.parametrize("text", [GOOGLE, NUMPY, SPHINX], ids=["google", "numpy", "sphinx"])
def test_parameter_entries_join_continuation_lines(text: str) -> None:
    params = parse_docstring(text).params
    assert params["city"] == "city name, continued here"
    assert params["days"] == "how many days"


def test_star_names_are_stripped() -> None:
    assert parse_docstring(GOOGLE).params["extra"] == "anything else"


def test_sections_other_than_parameters_are_ignored() -> None:
    parsed = parse_docstring(SPHINX)
    assert parsed.description == "Get the forecast."
    assert list(parsed.params) == ["city", "days"]


def test_no_docstring() -> None:
    assert parse_docstring(None).description == ""
    assert parse_docstring("   \n ").params == {}
    assert description_of(None) == ""


def test_summary_directly_followed_by_text() -> None:
    assert description_of("Just text\n    over lines.") == "Just text\nover lines."


@pytest.mark.parametrize(
    "text",
    [
        "A thing.\n\n    Attributes:\n        name: the name,\n            in full\n        age (int): years\n",
        "A thing.\n\n    Attributes\n    ----------\n"
        "    name : str\n        the name,\n        in full\n    age\n        years\n",
        "A thing.\n\n    :ivar name: the name,\n        in full\n    :ivar int age: years\n",
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_attribute_entries(text: str) -> None:
    assert attribute_docs(text) == {"name": "the name, in full", "age": "years"}
    assert description_of(text) == "A thing."


def test_attribute_entries_are_not_parameters() -> None:
    assert parse_docstring("A thing.\n\nAttributes:\n    name: the name\n").params == {}


def test_clean_entry_keeps_paragraphs() -> None:
    assert clean_entry("first line\n   second line\n\n   next paragraph") == "first line second line\n\nnext paragraph"
    assert clean_entry("   ") is None
    assert clean_entry(None) is None
