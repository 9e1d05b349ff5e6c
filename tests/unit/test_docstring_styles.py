"""Which docstring styles are tried: one that cannot read an entry is skipped, and the reading does not change.

docstring_parser's choice is the style that reads the most entries (the
first on a tie). NumPy's entries need a title underlined with dashes (or
``.. deprecated::``) and Epydoc's a line starting ``@``: without those
marks, once a style has read the text, trying them cannot change the choice.
"""

from __future__ import annotations

import inspect
from typing import Any

import docstring_parser.epydoc
import docstring_parser.numpydoc
import pytest
from docstring_parser import ParseError, epydoc, numpydoc, rest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolcall._rules import docstrings

#: Lines of every style, and the marks alone, to build docstrings from.
FRAGMENTS = (
    "Get the weather.",
    "",
    "Args:",
    "    city: the city",
    "    days (int): how many days",
    "Keyword Args:",
    "    unit: C or F",
    "Returns:",
    "    the forecast",
    "Raises:",
    "    ValueError",
    "Attributes:",
    "Examples:",
    '    {"city": "Oslo"}',
    "Parameters",
    "----------",
    "city : str",
    "    the city",
    "Returns",
    "-------",
    "Notes",
    "-----",
    ".. deprecated:: 1.0",
    ":param city: the city",
    ":type city: str",
    ":returns: the forecast",
    "@param city: the city",
    "@type city: str",
    "@return: the forecast",
    "@raise ValueError: never",
    "---",
    "::",
    "@",
    "city: the city",
)


def every_style(text: str) -> Any:
    """The parse that tries all four styles, as docstring_parser's own ``parse`` does."""
    results = []
    for parse in (rest.parse, docstrings._google, numpydoc.parse, epydoc.parse):
        try:
            results.append(parse(text))
        except ParseError:
            continue
    if not results:
        return docstrings._Plain(inspect.cleandoc(text))
    return max(results, key=lambda parsed: len(parsed.meta))


def reading(parsed: Any) -> tuple[Any, ...]:
    """What toolcall takes from a parse: the description and every entry."""
    entries = [(meta.args, meta.description) for meta in parsed.meta]
    return docstrings._description(parsed), entries


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("\n".join))
def test_skipping_a_style_reads_what_every_style_reads(text: str) -> None:
    assert reading(docstrings._parse(text)) == reading(every_style(text))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Get the weather.\n\nArgs:\n    city: the city\n", id="Google"),
        pytest.param("Get the weather.\n\n:param city: the city\n", id="Sphinx"),
        pytest.param("Get the weather.", id="no entries"),
    ],
)
def test_numpy_and_epydoc_are_not_tried_without_their_marks(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> Any:
        raise AssertionError("tried")

    monkeypatch.setattr(docstring_parser.numpydoc, "parse", refuse)
    monkeypatch.setattr(docstring_parser.epydoc, "parse", refuse)
    assert reading(docstrings._parse(text))[0] == "Get the weather."


def test_numpy_is_tried_with_its_marks() -> None:
    parsed = docstrings._parse("Get the weather.\n\nParameters\n----------\ncity : str\n    the city\n")
    assert [(meta.args, meta.description) for meta in parsed.meta] == [(["param", "city"], "the city")]
