"""``toolcall-doc`` rules on docstring texts, and what the docstring rules keep instead of dropping.

Both front ends read docstrings with ``toolcall._rules.docstrings`` and judge
them with ``toolcall._rules.doc_findings``, so these texts cover Google,
NumPy and Sphinx layouts once for both.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from typing import Annotated

import pytest

import toolcall
from tests.corpus import introspected
from toolcall import _ir as ir
from toolcall._findings import DOC
from toolcall._render.limits import OPENAI_MAX_DESCRIPTION
from toolcall._rules.doc_findings import DescriptionLimit, doc_findings
from toolcall._rules.docstrings import parse_docstring

STR = ir.Primitive("str")
OPENAI = DescriptionLimit("openai", "OpenAI Chat Completions", OPENAI_MAX_DESCRIPTION)


def described(docstring: str) -> ir.Tool:
    """The tool ``search(query, limit)`` as the docstring describes it."""
    parsed = parse_docstring(docstring)
    parameters = tuple(
        ir.Parameter(name, "positional_or_keyword", STR, description=parsed.params.get(name))
        for name in ("query", "limit")
    )
    return ir.Tool("search", "app", "search", parsed.description, parameters)


def messages(
    docstring: str, *, explicit_description: bool = False, limits: Sequence[DescriptionLimit] = ()
) -> list[str]:
    """The ``toolcall-doc`` findings of ``described(docstring)``, as text."""
    findings = doc_findings(described(docstring), docstring, explicit_description=explicit_description, limits=limits)
    assert all(finding.code == DOC for finding in findings)
    return [str(finding) for finding in findings]


# -- what the parser keeps ---------------------------------------------------------------------------

GOOGLE_KEYWORDS = """Search the catalogue.

Args:
    query: What to find.

Keyword Args:
    limit (int): How many results,
        at most.
"""


@pytest.mark.parametrize("heading", ["Keyword Args:", "Keyword Arguments:", "Other Parameters:", "Kwargs:"])
def test_google_keyword_args_are_parameter_entries(heading: str) -> None:
    parsed = parse_docstring(GOOGLE_KEYWORDS.replace("Keyword Args:", heading))
    assert json.dumps(parsed.params) == json.dumps({"query": "What to find.", "limit": "How many results, at most."})
    assert parsed.description == "Search the catalogue."


def test_numpy_other_parameters_and_sphinx_keywords_are_parameter_entries() -> None:
    numpy = (
        "Search.\n\nParameters\n----------\nquery : str\n    What.\n\n"
        "Other Parameters\n----------------\nlimit : int\n    How many.\n"
    )
    sphinx = "Search.\n\n:param query: What.\n:keyword limit: How many.\n"
    for text in (numpy, sphinx):
        assert json.dumps(parse_docstring(text).params) == json.dumps({"query": "What.", "limit": "How many."})


def test_a_keyword_args_entry_describes_the_parameter_at_run_time() -> None:
    @toolcall.tool
    def search(query: str, limit: int = 10) -> str:
        """Search the catalogue.

        Args:
            query: What to find.

        Keyword Args:
            limit: How many results.
        """
        return query

    query, limit = introspected(search).tool.parameters
    assert (query.description, limit.description) == ("What to find.", "How many results.")


@pytest.mark.parametrize(
    "docstring",
    [
        "Search.\n\nNote:\n    Slow.\n\nArgs:\n    query: What.\n",  # a Google note before Args
        "Search.\n\nWarning:\n    Slow.\n",  # the only section
        "Search.\n\nTodo:\n    Faster.\n\nArgs:\n    query: What.\n",
        "Search.\n\nNotes\n-----\nSlow.\n\nParameters\n----------\nquery : str\n    What.\n",
        "Search.\n\n.. note:: Slow.\n\n:param query: What.\n",  # a reST admonition
        "Search.\n\nArgs:\n    query What, with no colon\n\nRaises:\n    ValueError: bad\n",  # Args unreadable
    ],
)
def test_the_description_never_holds_a_section(docstring: str) -> None:
    assert parse_docstring(docstring).description == "Search."


def test_a_raises_entry_without_a_colon_loses_no_parameter_entry() -> None:
    text = "Search.\n\nArgs:\n    query: What.\n    limit: How many.\n\nRaises:\n    ValueError when empty\n"
    parsed = parse_docstring(text)
    assert (parsed.description, json.dumps(parsed.params)) == ("Search.", '{"query": "What.", "limit": "How many."}')
    assert messages(text) == []  # the Raises text is read whole, not lost


def test_a_description_keeps_its_own_colons_and_paragraphs() -> None:
    text = "Search: the catalogue.\n\nResults come sorted:\nnewest first.\n\nArgs:\n    query: What.\n"
    assert parse_docstring(text).description == "Search: the catalogue.\n\nResults come sorted:\nnewest first."


# -- what toolcall-doc reports -----------------------------------------------------------------------

CLEAN = {
    "google": """Search the catalogue.

    Longer text, on
    two lines.

    Args:
        query (str): What to find,
            continued.
        limit: How many. Defaults to 10.

    Returns:
        str: the results.

    Raises:
        ValueError: when the query is empty.

    Examples:
        >>> search("boots")
    """,
    "numpy": """Search the catalogue.

    Parameters
    ----------
    query : str
        What to find.
    limit : int, optional
        How many,
        at most.

    Returns
    -------
    str
        The results.
    """,
    "numpy-warns": """Search the catalogue.

    Parameters
    ----------
    query : str
        What to find.
    limit : int
        How many.

    Warns
    -----
    UserWarning
        When the catalogue is stale.
    """,
    "sphinx": """Search the catalogue.

    :param query: What to find.
    :type query: str
    :param limit: How many,
        at most.
    :returns: the results
    :rtype: str
    :raises ValueError: when the query is empty
    """,
}


@pytest.mark.parametrize("style", sorted(CLEAN))
def test_a_complete_docstring_has_no_findings(style: str) -> None:
    assert messages(CLEAN[style]) == []


def test_a_tool_and_a_parameter_without_description() -> None:
    assert messages("Search.\n\nArgs:\n    query: What.\n") == [
        "search.limit: has no description: document it in the docstring (Args:, Parameters, :param name:) "
        "or with Param(description=...) [toolcall-doc]"
    ]
    tool = ir.Tool("search", "app", "search", "", (ir.Parameter("query", "positional_or_keyword", STR),))
    assert [str(f) for f in doc_findings(tool, None)] == [
        "search: has no description, so a model sees only its name: add a docstring (its text before the first "
        "section describes the tool) or @tool(description=...) [toolcall-doc]",
        "search.query: has no description: document it in the docstring (Args:, Parameters, :param name:) "
        "or with Param(description=...) [toolcall-doc]",
    ]


def test_an_injected_parameter_needs_no_description() -> None:
    injected = ir.Parameter("conn", "keyword_only", ir.AnyType("any"), injected=True)
    tool = ir.Tool("ping", "app", "ping", "Ping.", (injected,))
    assert doc_findings(tool, "Ping.") == []

    @toolcall.tool
    def ping(conn: Annotated[object, toolcall.Injected]) -> str:
        """Ping."""
        return ""

    assert doc_findings(introspected(ping).tool, "Ping.") == []


@pytest.mark.parametrize(
    ("docstring", "title"),
    [
        ("Search.\n\nArgs:\n    query: What.\n    limit: How many.\n\nNote:\n    Slow.\n", "Note:"),
        ("Search.\n\nWarnings:\n    Slow.\n\nArgs:\n    query: What.\n    limit: How many.\n", "Warnings:"),
        (
            "Search.\n\nParameters\n----------\nquery : str\n    What.\nlimit : int\n    How many.\n\n"
            "See Also\n--------\nfind\n",
            "See Also",
        ),
        ("Search.\n\n.. warning:: Slow.\n\n:param query: What.\n:param limit: How many.\n", ".. warning::"),
    ],
)
def test_a_section_of_notes_is_not_in_the_description(docstring: str, title: str) -> None:
    assert messages(docstring) == [
        f"search: the docstring's {title!r} section is not part of the tool's description: a model never sees "
        "it; move what the model needs into the description (the text before the first section) [toolcall-doc]"
    ]
    assert messages(docstring, explicit_description=True) == []  # @tool(description=...) says what the tool does


def test_an_unknown_google_section_loses_its_text() -> None:
    text = "Search.\n\nArgs:\n    query: What.\n    limit: How many.\nUsage:\n    Call it often.\n"
    assert parse_docstring(text).description == "Search."
    assert messages(text) == [
        "search: the docstring's 'Usage:' section is not one toolcall reads: its text is lost; move it into the "
        "description, or under a section toolcall reads (Args:, Keyword Args:, Returns:...) [toolcall-doc]"
    ]


def test_an_unknown_numpy_section_loses_its_text() -> None:
    text = (
        "Search.\n\nParameters\n----------\nquery : str\n    What.\nlimit : int\n    How many.\n\n"
        "Usage\n-----\nOften.\n"
    )
    found = messages(text)
    assert found[0] == (
        "search: the docstring's 'Usage' section is not one toolcall reads: its text is lost; move it into the "
        "description, or under a section toolcall reads (Parameters, Returns...) [toolcall-doc]"
    )


def test_a_heading_inside_the_description_is_kept() -> None:
    text = "Search.\n\nDetails\n-------\nNewest first.\n\nArgs:\n    query: What.\n    limit: How many.\n"
    assert parse_docstring(text).description == "Search.\n\nDetails\n-------\nNewest first."
    assert messages(text) == []


def test_an_entry_the_parser_cannot_read() -> None:
    text = "Search.\n\nArgs:\n    query What to find, no colon\n    limit: How many.\n"
    assert parse_docstring(text) == parse_docstring("Search.")  # the whole section is lost
    assert messages(text)[0] == (
        "search: docstring text under 'Args:' is lost ('query What to find, no colon'): the parser cannot read "
        "it; write each entry as 'name: text' (Google) or 'name : type' over its indented text (NumPy), indented "
        "under the heading, and indent continuation lines deeper [toolcall-doc]"
    )


def test_text_outside_any_section_is_lost() -> None:
    text = "Search.\n\nArgs:\n    query: What.\n    limit: How many.\nAnd this line, not indented.\n"
    assert messages(text) == [
        "search: docstring text is lost ('And this line, not indented.'): move it into the description or "
        "indent it under its section [toolcall-doc]"
    ]


def test_a_description_over_a_providers_limit() -> None:
    long = "Search. " + "x" * OPENAI_MAX_DESCRIPTION + "\n\nArgs:\n    query: What.\n    limit: How many.\n"
    length = len(parse_docstring(long).description)
    assert messages(long) == []  # no provider's limit to check
    assert messages(long, limits=[OPENAI]) == [
        f"search: its description has {length} characters; OpenAI Chat Completions accepts at most "
        f"{OPENAI_MAX_DESCRIPTION}: shorten the docstring's description or pass @tool(description=...) "
        "[toolcall-doc]"
    ]
    at_limit = "x" * OPENAI_MAX_DESCRIPTION + "\n\nArgs:\n    query: What.\n    limit: How many.\n"
    assert messages(at_limit, limits=[OPENAI]) == []


def test_introspection_never_warns_toolcall_doc() -> None:
    # The code is off unless enabled, and a runtime warning has no switch: only the plugin reports it.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @toolcall.tool
        def bare(x: int) -> int:
            return x

        found = introspected(bare)
    assert [f for f in found.findings if f.code == DOC] == []
    assert [str(w.message) for w in caught if "toolcall-doc" in str(w.message)] == []
