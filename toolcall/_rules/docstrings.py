"""Docstring rules: the description and the per-name entries a docstring gives.

Pure text in, data out (no live objects), so the runtime front end and the
mypy plugin read docstrings the same way. Google (``Args:``), NumPy
(``Parameters``) and Sphinx (``:param x:``) styles are recognised by
``docstring_parser``; the style is detected per docstring.

* The **description** is the text before the first section, cleaned like
  ``inspect.cleandoc``; paragraphs are kept (separated by one blank line).
* An **entry** (a parameter's or an attribute's text) has its continuation
  lines joined with single spaces; blank-line-separated paragraphs inside an
  entry stay separate paragraphs.
* The **examples** (``examples_of``) are the JSON objects of arguments in a
  function's ``Examples:`` section, read one after another.
* Google docstrings also have the sections Sphinx's napoleon reads and
  docstring_parser does not: parameters under ``Keyword Args:`` /
  ``Keyword Arguments:`` / ``Other Parameters:`` are entries like those under
  ``Args:``, and notes for readers (``Note:``, ``Warning:``, ``Todo:``...) are
  sections, so they end the description instead of joining it.
* The description never holds a section: it ends at the first line that
  heads one (a Google ``Title:``, a NumPy title over a dashed line, a reST
  admonition such as ``.. note::``), also where a section could not be read
  and docstring_parser left its text in the description.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from toolcall._records import Record, record, set_field

if TYPE_CHECKING:
    import ast

__all__ = [
    "DocExamples",
    "NOTE_TITLES",
    "ParsedDocstring",
    "attribute_docs",
    "clean_entry",
    "description_of",
    "examples_of",
    "field_docstrings",
    "kept_texts",
    "parse_docstring",
    "section_titles",
]

# docstring_parser's kinds (the first word of ``meta.args``) for parameters
# and for class attributes; anything else (returns, raises, ...) is ignored.
_PARAM_KINDS: Final = frozenset({"param", "parameter", "arg", "argument", "key", "keyword", "other_param"})
_ATTRIBUTE_KINDS: Final = frozenset({"attribute", "ivar", "var", "cvar"})

# Google sections napoleon reads and docstring_parser does not: more parameters (kept as entries)...
_GOOGLE_PARAM_TITLES: Final = (
    "Keyword Args",
    "Keyword Arguments",
    "Kwargs",
    "Other Parameters",
    "Other Params",
    "Other Args",
    "Other Arguments",
)
#: Sections of notes for a docstring's readers (Google, NumPy, reST admonitions): never in a description.
NOTE_TITLES: Final = (
    "Note",
    "Notes",
    "Warning",
    "Warnings",
    "Todo",
    "See Also",
    "References",
    "Attention",
    "Caution",
    "Danger",
    "Error",
    "Hint",
    "Important",
    "Tip",
)
_ADMONITION: Final = re.compile(
    r"\.\. (?:note|warning|todo|seealso|attention|caution|danger|error|hint|important|tip|admonition)::", re.I
)
_UNDERLINE: Final = re.compile(r"-{3,}\s*")


@record(frozen=True, slots=True)
class ParsedDocstring(Record):
    """What a function's docstring says.

    ``description`` is ``""`` when there is none. ``params`` maps each
    documented parameter name (without ``*``/``**``) to its entry, in the
    docstring's order.
    """

    description: str
    params: Mapping[str, str]

    def __init__(self, description: str, params: Mapping[str, str]) -> None:
        set_field(self, "description", description)
        set_field(self, "params", params)


def clean_entry(text: str | None) -> str | None:
    """Normalise one entry: lines joined with single spaces, paragraphs kept; ``None`` if empty."""
    if not text:
        return None
    if "\n" not in text:  # one line, one paragraph (most entries): cleandoc would change nothing split() does not
        return " ".join(text.split()) or None
    paragraphs = [" ".join(part.split()) for part in inspect.cleandoc(text).split("\n\n")]
    joined = "\n\n".join(p for p in paragraphs if p)
    return joined or None


def parse_docstring(text: str | None) -> ParsedDocstring:
    """Parse a function docstring into its description and parameter entries."""
    read = _read(text)
    return ParsedDocstring(read.description, dict(read.params))


def attribute_docs(text: str | None) -> dict[str, str]:
    """The attribute entries of a class docstring (Google/NumPy ``Attributes``, Sphinx ``:ivar x:``)."""
    return dict(_read(text).attributes)


def description_of(text: str | None) -> str:
    """Only the description of a docstring (``""`` when there is none)."""
    return _read(text).description


@record(frozen=True, slots=True)
class _Read(Record):
    """Everything the rules take from one docstring text, as immutable pairs in the docstring's order."""

    description: str = ""
    params: tuple[tuple[str, str], ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()
    examples: str | None = None

    def __init__(
        self,
        description: str = "",
        params: tuple[tuple[str, str], ...] = (),
        attributes: tuple[tuple[str, str], ...] = (),
        examples: str | None = None,
    ) -> None:
        set_field(self, "description", description)
        set_field(self, "params", params)
        set_field(self, "attributes", attributes)
        set_field(self, "examples", examples)


_NOTHING: Final = _Read()


def _read(text: str | None) -> _Read:
    if not text or not text.strip():
        return _NOTHING
    return _read_text(text)


@functools.lru_cache(maxsize=4096)
def _read_text(text: str) -> _Read:
    # Cached by text: a class docstring is read for each tool that uses the class, and once
    # parsed, it gives the description, the parameters and the attributes alike.
    parsed = _parse(text)
    params: dict[str, str] = {}
    attributes: dict[str, str] = {}
    examples: str | None = None
    for meta in parsed.meta:
        kind = meta.args[0] if meta.args else None
        if kind in _PARAM_KINDS:
            _add_entry(params, meta)
        elif kind in _ATTRIBUTE_KINDS:
            _add_entry(attributes, meta)
        elif kind == "examples" and examples is None:
            examples = meta.description
    return _Read(_description(parsed), tuple(params.items()), tuple(attributes.items()), examples)


#: What an entry of a style needs in the text: NumPy's a title underlined with dashes (or ``.. deprecated::``),
#: Epydoc's a line starting ``@``. A text without them cannot give that style an entry.
_NUMPY_MARKS: Final = ("---", "::")
_EPYDOC_MARKS: Final = ("@",)


def _parse(text: str) -> Any:
    """docstring_parser's parse in the style that reads the most entries, with toolcall's Google sections."""
    from docstring_parser import ParseError, epydoc, numpydoc, rest  # only the introspection path pays for it

    results: list[Any] = []
    # docstring_parser.parse's styles and order (the first with the most entries wins), Google's sections added.
    # A style that cannot read an entry is skipped once one has been read: it could not win (ties go to the first).
    for parse, marks in (
        (rest.parse, ()),
        (_google, ()),
        (numpydoc.parse, _NUMPY_MARKS),
        (epydoc.parse, _EPYDOC_MARKS),
    ):
        if marks and results and not any(mark in text for mark in marks):
            continue
        try:
            results.append(parse(text))
        except ParseError:
            continue
    if not results:
        # A docstring no style understands still has a description: all of it.
        return _Plain(inspect.cleandoc(text))
    return max(results, key=lambda parsed: len(parsed.meta))


def _google(text: str) -> Any:
    """The Google style's parse; where a ``Raises:`` entry has no colon, with each such section read whole.

    docstring_parser fails the whole docstring on one such entry, which
    would lose every parameter entry with it.
    """
    from docstring_parser import ParseError

    try:
        return _google_parser(lenient=False).parse(text)
    except ParseError:
        return _google_parser(lenient=True).parse(text)


@functools.cache
def _google_parser(*, lenient: bool) -> Any:
    from docstring_parser import google

    sections = [*google.DEFAULT_SECTIONS]
    sections += [google.Section(title, "keyword", google.SectionType.MULTIPLE) for title in _GOOGLE_PARAM_TITLES]
    sections += [
        google.Section("Return", "returns", google.SectionType.SINGULAR_OR_MULTIPLE),
        google.Section("Yield", "yields", google.SectionType.SINGULAR_OR_MULTIPLE),
        google.Section("Raise", "raises", google.SectionType.MULTIPLE),
        google.Section("Warns", "warns", google.SectionType.MULTIPLE),  # like Raises: for Python callers
    ]
    sections += [google.Section(title, title.lower(), google.SectionType.SINGULAR) for title in NOTE_TITLES]
    if lenient:  # a section about exceptions is one text: no entry of it can fail the parse
        kinds = {"raises", "warns"}
        sections = [
            google.Section(s.title, s.key, google.SectionType.SINGULAR) if s.key in kinds else s for s in sections
        ]
    return google.GoogleParser(sections)


@functools.cache
def section_titles() -> tuple[frozenset[str], frozenset[str]]:
    """The section titles toolcall reads: Google's (a line ``Title:``) and NumPy's (a title over dashes)."""
    from docstring_parser import numpydoc

    google = frozenset(_google_parser(lenient=False).sections)
    numpy = frozenset(section.title for section in numpydoc.DEFAULT_SECTIONS) | frozenset(NOTE_TITLES)
    return google, numpy


def _without_sections(description: str) -> str:
    """``description`` up to the first line that heads a section (left there when a section could not be read)."""
    if "\n" not in description:
        return description
    google, numpy = section_titles()
    lines = description.split("\n")
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if (
            (line.endswith(":") and line[:-1] in google)
            or (line.strip() in numpy and _UNDERLINE.fullmatch(following) is not None)
            or _ADMONITION.match(line)
        ):
            return "\n".join(lines[:index]).strip()
    return description


class _Plain:
    """Stands in for a parse result when docstring_parser gives up."""

    def __init__(self, text: str) -> None:
        self.short_description: str | None = text
        self.long_description: str | None = None
        self.blank_after_short_description = False
        self.meta: list[Any] = []


def _description(parsed: Any) -> str:
    short: str | None = parsed.short_description
    long: str | None = parsed.long_description
    if not short:
        return _without_sections((long or "").strip())
    if not long:
        return short.strip()
    separator = "\n\n" if parsed.blank_after_short_description else "\n"
    return _without_sections(f"{short.strip()}{separator}{long.strip()}")


def kept_texts(text: str) -> tuple[str, ...]:
    """Every text the parser takes from a docstring: its description, each entry's name, type and text.

    What a docstring holds beyond these (and its section headings) is lost.
    """
    parsed = _parse(text)
    kept = [_description(parsed)]
    for meta in parsed.meta:
        kept.extend(str(arg) for arg in meta.args)
        kept.extend(value for value in (getattr(meta, "type_name", None), meta.description) if isinstance(value, str))
    return tuple(kept)


def _add_entry(entries: dict[str, str], meta: Any) -> None:
    # docstring_parser keeps Sphinx's type word in args (":param int x:"), so
    # the name is the last word; NumPy/Google give "x (int)" as arg_name.
    raw_name = getattr(meta, "arg_name", None) or meta.args[-1]
    name = raw_name.split()[0].lstrip("*") if raw_name.split() else ""
    text = clean_entry(meta.description)
    if name and text is not None and name not in entries:
        entries[name] = text


def field_docstrings(body: list[ast.stmt]) -> dict[str, str]:
    """Attribute docstrings in a class body: a string literal right after an annotated field (PEP 257).

    Cleaned as a docstring entry, by field name. Both front ends read them
    from source: the runtime from ``inspect.getsource``, the plugin from the
    module's file.
    """
    import ast
    import itertools

    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            text = clean_entry(following.value.value) if isinstance(following.value.value, str) else None
            if text is not None:
                docs[statement.target.id] = text
    return docs


@record(frozen=True, slots=True)
class DocExamples(Record):
    """The argument examples of a tool's ``Examples:`` section.

    ``examples`` holds each example as compact JSON text, keys in the order
    written; ``problem`` says why the text after the last one could not be
    read (``None`` when all of it was), naming that example's position.
    """

    examples: tuple[str, ...] = ()
    problem: str | None = None

    def __init__(self, examples: tuple[str, ...] = (), problem: str | None = None) -> None:
        set_field(self, "examples", examples)
        set_field(self, "problem", problem)


def examples_of(text: str | None) -> DocExamples:
    """The examples of a function docstring's ``Examples:`` section (Google, or NumPy ``Examples``).

    The section holds JSON values one after another, separated by
    whitespace: one object per line, or objects spread over several lines
    (blank lines between them read well). A section whose text does not
    start with ``{`` (a doctest, prose) is not argument examples and gives
    nothing. Reading stops at the first text that is not JSON.
    """
    section = _read(text).examples
    if section is None or not section.lstrip().startswith("{"):
        return DocExamples()
    return _decoded(section)


def _decoded(section: str) -> DocExamples:
    """Decode the JSON values of an ``Examples:`` section's text in sequence (``examples_of``)."""
    import json

    decoder = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_not_json)
    found: list[str] = []
    at, end = 0, len(section)
    while True:
        while at < end and section[at].isspace():
            at += 1
        if at == end:
            return DocExamples(tuple(found))
        try:
            value, at = decoder.raw_decode(section, at)
            if _depth(value) > _MAX_EXAMPLE_DEPTH:
                raise RecursionError  # some Pythons' decoders take any depth: the bound is the same everywhere
            found.append(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
        except (ValueError, RecursionError) as exc:
            # ValueError covers bad syntax, a repeated key, an int past the digit limit and 1e400 (inf).
            return DocExamples(tuple(found), f"example {len(found) + 1} is not JSON: {_why_not_json(exc)}")


#: How deep an example may nest (arrays and objects): far past any argument a tool takes.
_MAX_EXAMPLE_DEPTH: Final = 100


def _depth(value: object) -> int:
    """How deeply ``value`` nests arrays and objects (a scalar is 0), without recursion."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, level = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level + 1)
            if deepest > _MAX_EXAMPLE_DEPTH:
                return deepest
            pending.extend((child, level + 1) for child in children)
    return deepest


def _why_not_json(exc: Exception) -> str:
    """The reason, in the same words on every Python (the json module's own texts change between versions)."""
    import json

    if isinstance(exc, RecursionError):
        return "it nests too deeply"
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON on line {exc.lineno} of the section"
    return str(exc)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        repeated = next(key for index, (key, _) in enumerate(pairs) if key in dict(pairs[:index]))
        raise ValueError(f"the key {repeated!r} appears twice")
    return made


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
