"""Digests of a source module that tell whether a cached schema is still current.

The schema cache records, for every source module a tool's schema depends on,
two digests: one of the file's bytes and one of its token stream with comments
and layout left out. At run time the cheap byte digest is compared first; only
a file whose bytes changed is tokenized, and the cache stays current when its
tokens did not change. So a comment, blank lines, trailing whitespace,
re-wrapped brackets, a backslash continuation, CRLF line endings, a BOM or
tabs for spaces keep the cache current, while any change to a name, number,
operator, string literal (docstrings carry descriptions) or block structure
makes it stale.

The cache is written by the mypy plugin on one Python and checked at run time
on possibly another, so the token digest is the same on Python 3.10 to 3.13
for the same file: token types are hashed by name, never by number (the
numbers differ between versions); operators are plain ``OP``; Python 3.12+
f-strings (and 3.14 t-strings), which the tokenizer splits into parts, are
hashed as the one ``STRING`` token the 3.10 and 3.11 tokenizers give, the
exact source text of the literal; identifiers the 3.10 and 3.11 tokenizers
split (combining marks) are joined again; error tokens, unknown operators and
nesting past the compiler's limits give no digest. A source that no version
compiles may get a digest on one version and none on another, which is safe:
a file without a token digest (``None``) counts as changed whenever its bytes
changed.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from tokenize import TokenInfo

__all__ = [
    "MAX_SOURCE_BYTES",
    "MAX_TOKENS",
    "SourceDigest",
    "bytes_sha256",
    "source_digest",
    "tokens_sha256",
    "unchanged",
]

MAX_SOURCE_BYTES: Final = 4 * 1024 * 1024
"""Larger sources get no token digest (``None``): they count as changed when their bytes change."""
MAX_TOKENS: Final = 500_000
"""Sources of more tokens (comments included) get no token digest either: this bounds the time taken."""

# Bumped whenever the normalization changes, so old digests never match new ones.
_FORMAT: Final = b"toolcall.source_digest tokens 1\n"
_DROPPED: Final = frozenset({"COMMENT", "NL", "ENCODING"})
_TYPE_ONLY: Final = frozenset({"NEWLINE", "INDENT", "DEDENT", "ENDMARKER"})
_TEXT_KEPT: Final = frozenset({"NAME", "NUMBER", "STRING", "OP"})
_LITERAL_STARTS: Final = frozenset({"FSTRING_START", "TSTRING_START"})
_LITERAL_ENDS: Final = frozenset({"FSTRING_END", "TSTRING_END"})
# The operators every supported tokenizer knows (Python 3.10's token.EXACT_TOKEN_TYPES).
_OPERATOR_LIST: Final = (
    "!= % %= & &= ( ) * ** **= *= + += , - -= -> . ... / // //= /= : := ; < << <<= <= = == > >= >> >>= @ @= "
    "[ ] ^ ^= { | |= } ~"
)
_OPERATORS: Final = frozenset(_OPERATOR_LIST.split())
_OPENING: Final = frozenset("([{")
_CLOSING: Final = frozenset(")]}")
# Past these the compiler refuses the source on every version; Python 3.12+ tokenizers refuse it too.
_MAX_BRACKET_DEPTH: Final = 200
_MAX_INDENT_DEPTH: Final = 99


class _Untokenizable(Exception):
    """The source has no token digest."""


class SourceDigest(NamedTuple):
    """The two digests recorded for a source file: of its bytes, and of its tokens (``None``: none)."""

    sha256: str
    tokens: str | None


def bytes_sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def tokens_sha256(data: bytes) -> str | None:
    """The hex SHA-256 of the normalized token stream of the Python source ``data``.

    Comments, blank lines, indentation widths, line endings and other layout
    are left out; everything else is kept. ``None`` when ``data`` cannot be
    tokenized (bad encoding, null bytes, a tokenizer error, pathological size
    or nesting); this never raises.
    """
    try:
        return _hash_tokens(_tokens(_decode(data)))
    except Exception:
        return None


def source_digest(data: bytes) -> SourceDigest:
    """Both digests of the source ``data``."""
    return SourceDigest(bytes_sha256(data), tokens_sha256(data))


def unchanged(data: bytes, recorded_sha256: str, recorded_tokens: str | None) -> bool:
    """Whether ``data`` is, for a schema, the source whose digests were recorded.

    The bytes are compared first; the tokens only when the bytes differ, and
    never when no token digest was recorded.
    """
    if bytes_sha256(data) == recorded_sha256:
        return True
    return recorded_tokens is not None and tokens_sha256(data) == recorded_tokens


def _decode(data: bytes) -> str:
    """The text of ``data``, decoded as Python does (BOM, coding cookie), with ``\\n`` line endings."""
    import io
    import tokenize

    if len(data) > MAX_SOURCE_BYTES or b"\0" in data:
        raise _Untokenizable
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if "\0" in text:
        raise _Untokenizable
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    """The normalized ``(type name, text)`` tokens of ``text``, each f-string as one ``STRING``."""
    import io
    import tokenize

    tokens: Iterator[tokenize.TokenInfo] = tokenize.generate_tokens(io.StringIO(text).readline)
    if sys.version_info < (3, 12):  # later tokenizers raise instead of giving ERRORTOKEN
        tokens = _identifiers_joined(tokens)
    return _normalized(text, tokens, tokenize.tok_name)


def _normalized(text: str, tokens: Iterator[TokenInfo], names: dict[int, str]) -> Iterator[tuple[str, str]]:
    """``tokens`` without layout, literals folded, checked against the limits every version enforces."""
    literal = _Literals(text)
    brackets = indents = 0
    previous = ""
    limit = MAX_TOKENS
    for count, (type_, string, start, end, _) in enumerate(tokens):
        if count >= limit:
            raise _Untokenizable
        name = names[type_]
        if literal.swallows(name, start, end):
            if literal.text is None:
                continue
            name, string = "STRING", literal.text
        if name in _DROPPED or (name == "NEWLINE" and previous in ("", "NEWLINE")):
            continue
        brackets += _bracket_step(name, string)
        indents += (name == "INDENT") - (name == "DEDENT")
        if brackets > _MAX_BRACKET_DEPTH or indents > _MAX_INDENT_DEPTH:
            raise _Untokenizable
        previous = name
        yield name, _kept_text(name, string)


def _identifiers_joined(tokens: Iterator[TokenInfo]) -> Iterator[TokenInfo]:
    """``tokens`` with each identifier as one ``NAME``, as Python 3.12+ tokenizers give it.

    The 3.10 and 3.11 tokenizers split identifiers holding characters outside
    ``\\w`` (combining marks, as in most Indic scripts; ``·``; ``℘``) into
    ``NAME`` and ``ERRORTOKEN`` pieces, with an ``ERRORTOKEN`` for the space
    before such a piece; the pieces are joined and the spaces dropped (a
    joined piece that is no identifier gives no digest later).
    """
    from token import ERRORTOKEN, NAME

    run: TokenInfo | None = None
    for token in tokens:
        if token.type == ERRORTOKEN and token.string.isspace():
            continue
        piece = token.type in (NAME, ERRORTOKEN)
        if piece and run is not None and run.end == token.start:
            run = run._replace(string=run.string + token.string, end=token.end)
            continue
        if run is not None:
            yield run
        run = token._replace(type=NAME) if piece else None
        if not piece:
            yield token
    if run is not None:
        yield run


def _bracket_step(name: str, string: str) -> int:
    """How an ``OP`` token moves the bracket depth."""
    if name != "OP":
        return 0
    return (string in _OPENING) - (string in _CLOSING)


def _kept_text(name: str, string: str) -> str:
    """The part of a token that is hashed besides its type name."""
    if name in _TYPE_ONLY:
        return ""
    if name not in _TEXT_KEPT or (name == "OP" and string not in _OPERATORS):
        raise _Untokenizable
    if name == "NAME" and not string.isidentifier():
        raise _Untokenizable
    return string


class _Literals:
    """Folds each outermost f-string (t-string) of Python 3.12+ back into its source text."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._line_starts: list[int] | None = None
        self._depth = 0
        self._start = (0, 0)
        self.text: str | None = None

    def swallows(self, name: str, start: tuple[int, int], end: tuple[int, int]) -> bool:
        """Whether the token is part of a literal; ``text`` is the literal's source once it ends."""
        self.text = None
        if name in _LITERAL_STARTS:
            self._start = start if self._depth == 0 else self._start
            self._depth += 1
        elif name in _LITERAL_ENDS and self._depth:
            self._depth -= 1
            if self._depth == 0:
                self.text = self._slice(self._start, end)
        else:
            return self._depth > 0
        return True

    def _slice(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        """The source text between two ``(row, column)`` positions."""
        if self._line_starts is None:
            self._line_starts = _line_starts(self._source)
        first = self._line_starts[start[0] - 1] + start[1]
        return self._source[first : self._line_starts[end[0] - 1] + end[1]]


def _line_starts(text: str) -> list[int]:
    """The offset in ``text`` at which each line starts."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    return starts


def _hash_tokens(tokens: Iterator[tuple[str, str]]) -> str:
    """The hex SHA-256 of the tokens, each length-prefixed so that no two streams encode alike."""
    parts = [_FORMAT]
    for name, text in tokens:
        raw = text.encode("utf-8", "surrogatepass")
        parts.append(b"%s %d:%s\n" % (name.encode("ascii"), len(raw), raw))
    return hashlib.sha256(b"".join(parts)).hexdigest()
