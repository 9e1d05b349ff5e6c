"""``toolcall-doc`` rules: descriptions a model would miss, and docstring text the parser loses.

Pure data in, findings out, so the mypy plugin and ``toolcall check`` (which
runs it) judge a tool alike. The code is off unless a project enables it:
the runtime never reports it (it has no switch to turn a warning on).

A tool is reported when it has no description or one over a provider's
documented limit; a parameter a model sees (not an injected one) when it has
no description; a docstring when it has a section of notes (``Note:``,
``Warning:``...) that never reaches the description, or text the parser
loses: a section toolcall does not read, a section it cannot read, a line
outside any section. A line is lost when it is neither a section heading
nor part of what the parser kept (``docstrings.kept_texts``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from toolcall import _ir as ir
from toolcall._findings import DOC, Finding
from toolcall._rules.docstrings import NOTE_TITLES, kept_texts, section_titles

__all__ = ["DescriptionLimit", "doc_findings"]


class DescriptionLimit(NamedTuple):
    """A provider's documented limit on a tool description (the renderers' limits give the numbers)."""

    provider: str  # as a project lists it: "openai"
    api: str  # the API that has the limit, for the message: "OpenAI Chat Completions"
    characters: int


_GOOGLE_HEADING: Final = re.compile(r"([A-Za-z][\w ]*):\s*")
_UNDERLINE: Final = re.compile(r"-{3,}\s*")
_ADMONITION: Final = re.compile(r"\.\. ([a-z]+)::")
_NOTE_DIRECTIVES: Final = frozenset(
    {"note", "warning", "todo", "seealso", "attention", "caution", "danger", "error", "hint", "important", "tip"}
)
_FIELD: Final = re.compile(r":([^:]+):\s*(.*)")
_WORDS: Final = re.compile(r"[\s,()\[\]:\0]+")
# Words of a field or an entry that docstring_parser reads as syntax, not as text it keeps.
_SYNTAX_WORDS: Final = frozenset(
    {"param", "parameter", "arg", "argument", "key", "keyword", "type", "optional", "returns", "return", "rtype"}
    | {"raises", "raise", "yields", "yield", "ytype", "ivar", "var", "vartype"}
)
_EXCERPT: Final = 60  # characters of a lost line a message quotes


def doc_findings(
    tool: ir.Tool,
    docstring: str | None,
    *,
    explicit_description: bool = False,
    limits: Sequence[DescriptionLimit] = (),
) -> list[Finding]:
    """The ``toolcall-doc`` findings of ``tool``, whose function has ``docstring``.

    ``explicit_description``: the description is ``@tool(description=...)``,
    so the docstring's notes are not what it lacks. ``limits``: the
    description limits of the providers the project sends tools to.
    """
    findings = [Finding(DOC, message, tool.name) for message in _tool_messages(tool, limits)]
    if docstring and docstring.strip():
        text = inspect.cleandoc(docstring)
        if not explicit_description:
            findings += [Finding(DOC, message, tool.name) for message in _note_messages(text)]
        findings += [Finding(DOC, message, tool.name) for message in _lost_messages(text)]
    for parameter in tool.parameters:
        if not parameter.injected and not parameter.description:
            message = (
                "has no description: document it in the docstring (Args:, Parameters, :param name:) "
                "or with Param(description=...)"
            )
            findings.append(Finding(DOC, message, tool.name, parameter.name))
    return findings


def _tool_messages(tool: ir.Tool, limits: Sequence[DescriptionLimit]) -> Iterator[str]:
    if not tool.description.strip():
        yield (
            "has no description, so a model sees only its name: add a docstring (its text before the "
            "first section describes the tool) or @tool(description=...)"
        )
    for limit in limits:
        if len(tool.description) > limit.characters:
            yield (
                f"its description has {len(tool.description)} characters; {limit.api} accepts at most "
                f"{limit.characters}: shorten the docstring's description or pass @tool(description=...)"
            )


def _note_messages(text: str) -> Iterator[str]:
    """One message per section of notes: its text is for the docstring's readers, never in the description."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        title = _note_title(line, lines[index + 1] if index + 1 < len(lines) else "")
        if title is not None:
            yield (
                f"the docstring's {title!r} section is not part of the tool's description: a model never sees "
                "it; move what the model needs into the description (the text before the first section)"
            )


def _note_title(line: str, following: str) -> str | None:
    """The heading of a section of notes that ``line`` starts (Google, NumPy over ``following``, reST), or ``None``."""
    heading = _GOOGLE_HEADING.fullmatch(line)
    if heading is not None and heading[1] in NOTE_TITLES:
        return f"{heading[1]}:"
    if line.strip() in NOTE_TITLES and _UNDERLINE.fullmatch(following):
        return line.strip()
    admonition = _ADMONITION.match(line)
    if admonition is not None and admonition[1] in _NOTE_DIRECTIVES:
        return f".. {admonition[1]}::"
    return None


def _lost_messages(text: str) -> Iterator[str]:
    """One message per run of lost lines, naming the section it is under or its first words."""
    kept = _Kept(kept_texts(text))
    google, numpy = section_titles()
    lines = text.split("\n")
    heading: str | None = None  # the section heading above the line (None: the description)
    in_run = in_note = False  # a section of notes has its own finding, whatever became of its text
    for index, raw in enumerate(lines):
        line = " ".join(raw.split())
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        previous = lines[index - 1].strip() if index else ""
        if not line:
            continue
        if _note_title(raw, following) is not None:
            in_note = True
            continue
        if in_note and (raw[:1].isspace() or (_UNDERLINE.fullmatch(line) and previous in NOTE_TITLES)):
            continue
        in_note = False
        matched = _GOOGLE_HEADING.fullmatch(raw)
        if matched is not None and matched[1] in google:
            heading, in_run = f"{matched[1]}:", False
            continue
        if line in numpy and _UNDERLINE.fullmatch(following):
            heading, in_run = line, False
            continue
        if _UNDERLINE.fullmatch(line):  # a heading's underline
            continue
        if _UNDERLINE.fullmatch(following) and not raw[:1].isspace() and f"{line} {following}" not in kept.description:
            # NumPy reads an unknown section's lines as entries (for no parameter): its text is lost all the same.
            heading, in_run = line, True
            yield _lost_message(raw, heading, following)
            continue
        if _kept(line, kept):
            in_run = False
            continue
        if not in_run:
            yield _lost_message(raw, heading, following)
        in_run = True


def _kept(line: str, kept: _Kept) -> bool:
    """Whether the parser kept ``line`` (whitespace collapsed): whole, or as a field or entry it read."""
    if line in kept.text:
        return True
    field = _FIELD.fullmatch(line)
    if field is not None:  # reST ":param int x: text": the field's words, then its text
        return _words_kept(field[1], kept) and (not field[2] or field[2] in kept.text)
    if ":" not in line:
        return False
    # Google "x (int): text", NumPy "x : int, optional": a name and a type the parser split, then text.
    name, text = (part.strip() for part in line.split(":", 1))
    return _words_kept(name, kept) and (not text or text in kept.text or _words_kept(text, kept))


def _words_kept(text: str, kept: _Kept) -> bool:
    return all(word in kept.words or word in _SYNTAX_WORDS for word in _WORDS.split(text) if word)


class _Kept:
    """What the parser kept of a docstring: its texts (whitespace collapsed, ``\\0`` between) and their words.

    ``description`` is the first text, the docstring's description.
    """

    def __init__(self, texts: tuple[str, ...]) -> None:
        self.text = "\0".join(" ".join(piece.split()) for piece in texts)
        self.words = frozenset(_WORDS.split(self.text))
        self.description = " ".join(texts[0].split()) if texts else ""


def _lost_message(line: str, heading: str | None, following: str) -> str:
    google = _GOOGLE_HEADING.fullmatch(line)
    if google is not None and not line[0].isspace():
        return (
            f"the docstring's {google[1] + ':'!r} section is not one toolcall reads: its text is lost; "
            "move it into the description, or under a section toolcall reads (Args:, Keyword Args:, Returns:...)"
        )
    if _UNDERLINE.fullmatch(following):
        return (
            f"the docstring's {line.strip()!r} section is not one toolcall reads: its text is lost; "
            "move it into the description, or under a section toolcall reads (Parameters, Returns...)"
        )
    excerpt = " ".join(line.split())
    excerpt = excerpt if len(excerpt) <= _EXCERPT else excerpt[: _EXCERPT - 3] + "..."
    if heading is not None and (line[:1].isspace() or not heading.endswith(":")):  # a Google entry is indented
        return (
            f"docstring text under {heading!r} is lost ({excerpt!r}): the parser cannot read it; write each "
            "entry as 'name: text' (Google) or 'name : type' over its indented text (NumPy), indented under "
            "the heading, and indent continuation lines deeper"
        )
    return f"docstring text is lost ({excerpt!r}): move it into the description or indent it under its section"
