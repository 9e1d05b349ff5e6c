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
on possibly another, so the token digest is the same on Python 3.11 to 3.14
for the same file: token types are hashed by name, never by number (the
numbers differ between versions); operators are plain ``OP``; Python 3.12+
f-strings (and 3.14 t-strings), which the tokenizer splits into parts, are
hashed as the one ``STRING`` token the 3.11 tokenizer gives, the
exact source text of the literal; identifiers the 3.11 tokenizer
split (combining marks) are joined again; error tokens, unknown operators and
nesting past the compiler's limits give no digest. A source that no version
compiles may get a digest on one version and none on another, which is safe:
a file without a token digest (``None``) counts as changed whenever its bytes
changed.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from tokenize import TokenInfo

__all__ = [
    "MAX_SOURCE_BYTES",
    "MAX_TOKENS",
    "SourceDigest",
    "DIGEST_HEX",
    "bytes_sha256",
    "recorded_file",
    "recorded_sha256",
    "source_digest",
    "tokens_sha256",
    "unchanged",
]

MAX_SOURCE_BYTES: Final = 4 * 1024 * 1024
"""Larger sources get no token digest (``None``): they count as changed when their bytes change."""
MAX_TOKENS: Final = 500_000
"""Sources of more tokens (comments included) get no token digest either: this bounds the time taken."""

# Bumped whenever the normalization changes, so old digests never match new ones.
_FORMAT_LINE: Final = "toolcall.source_digest tokens 1\n"
_DROPPED: Final = frozenset({"COMMENT", "NL", "ENCODING"})
_LITERAL_STARTS: Final = frozenset({"FSTRING_START", "TSTRING_START"})
_LITERAL_ENDS: Final = frozenset({"FSTRING_END", "TSTRING_END"})
# The operators every supported tokenizer knows (Python 3.10's token.EXACT_TOKEN_TYPES).
_OPERATOR_LIST: Final = (
    "!= % %= & &= ( ) * ** **= *= + += , - -= -> . ... / // //= /= : := ; < << <<= <= = == > >= >> >>= @ @= "
    "[ ] ^ ^= { | |= } ~"
)
# Each operator's hashed line (``_hashed_lines``): operators are ASCII, their length is their UTF-8 length.
_OPERATOR_LINES: Final = {operator: f"OP {len(operator)}:{operator}\n" for operator in _OPERATOR_LIST.split()}
_OPENING: Final = frozenset("([{")
_CLOSING: Final = frozenset(")]}")
# Past these the compiler refuses the source on every version; Python 3.12+ tokenizers refuse it too.
_MAX_BRACKET_DEPTH: Final = 200
_MAX_INDENT_DEPTH: Final = 99


class _Untokenizable(Exception):
    """The source has no token digest."""


class _SplitName(Exception):
    """Two adjacent ``NAME`` tokens: pieces of one identifier, as the 3.10 and 3.11 tokenizers give it."""


class SourceDigest(NamedTuple):
    """The two digests recorded for a source file: of its bytes, and of its tokens (``None``: none)."""

    sha256: str
    tokens: str | None


#: Hex digits kept of each SHA-256 a cache file records (sources, its seal, toolcall's digests): 128 bits
#: tell any two texts apart; the digests protect nothing (anyone who can write a file can seal it again).
DIGEST_HEX: Final = 32


def bytes_sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data``, its first ``DIGEST_HEX`` digits."""
    return hashlib.sha256(data).hexdigest()[:DIGEST_HEX]


def tokens_sha256(data: bytes) -> str | None:
    """The hex SHA-256 (``DIGEST_HEX`` digits) of the normalized token stream of the Python source ``data``.

    Comments, blank lines, indentation widths, line endings and other layout
    are left out; everything else is kept. ``None`` when ``data`` cannot be
    tokenized (bad encoding, null bytes, a tokenizer error, pathological size
    or nesting); this never raises.
    """
    try:
        text = _decode(data)
    except Exception:
        return None
    if sys.version_info >= (3, 12):
        return _digest_or_none(text, _raw_tokens(text), unsplit=False)
    try:
        # Most sources have no identifier the 3.11 tokenizer splits: their raw tokens are the joined ones.
        return _digest(text, _raw_tokens(text), unsplit=True)
    except Exception:
        # A split identifier, or no digest at all: the joining pass decides, exactly.
        return _digest_or_none(text, _identifiers_joined(_raw_tokens(text)), unsplit=False)


def source_digest(data: bytes) -> SourceDigest:
    """Both digests of the source ``data``."""
    return SourceDigest(bytes_sha256(data), tokens_sha256(data))


def recorded_sha256(record: Any) -> str | None:
    """The byte digest of a source's record in a cache file, ``[sha256, tokens, file]``; ``None`` where malformed."""
    if type(record) is not list or len(record) != 3 or type(record[0]) is not str:
        return None
    return record[0]


def recorded_file(record: Any) -> str | None:
    """The file of a source's record in a cache file (relative to the tool module's directory), if any."""
    if type(record) is not list or len(record) != 3 or type(record[2]) is not str:
        return None
    return record[2]


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


def _raw_tokens(text: str) -> Iterator[TokenInfo]:
    """The tokenizer's tokens of ``text``."""
    import io
    import tokenize

    return tokenize.generate_tokens(io.StringIO(text).readline)


def _digest_or_none(text: str, tokens: Iterator[TokenInfo], *, unsplit: bool) -> str | None:
    try:
        return _digest(text, tokens, unsplit=unsplit)
    except Exception:
        return None


def _digest(text: str, tokens: Iterator[TokenInfo], *, unsplit: bool) -> str:
    """The hex SHA-256 of ``tokens``' hashed lines (``_hashed_lines``)."""
    hashed = "".join(_hashed_lines(text, tokens, unsplit=unsplit))
    return hashlib.sha256(hashed.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_HEX]


def _hashed_lines(text: str, tokens: Iterator[TokenInfo], *, unsplit: bool) -> list[str]:
    """``tokens`` without layout, literals folded, checked against the limits every version enforces.

    Each kept token is one ``"TYPE length:text\\n"`` line (its text's UTF-8
    length, so that no two streams encode alike), after the format line.
    ``unsplit``: raise ``_SplitName`` at two adjacent ``NAME`` tokens, pieces
    of one identifier that ``_identifiers_joined`` would join. One loop over
    token type numbers, not names: this runs for every token of every module.
    """
    kind = _token_kinds()
    lines = [_FORMAT_LINE]
    append = lines.append
    literal = _LiteralFolder(text)
    brackets = indents = count = 0
    after_newline = True  # nothing kept yet, or a NEWLINE last: a NEWLINE now is dropped
    after_name = None  # where the last NAME ended
    limit = MAX_TOKENS
    for type_, string, start, end, _ in tokens:
        count += 1
        if count > limit:
            raise _Untokenizable
        if literal.depth or type_ in kind.literal_starts:
            folded = literal.fold(type_, start, end, kind)
            if folded is None:
                continue
            type_, string = kind.STRING, folded
        if type_ == kind.OP:
            line = _OPERATOR_LINES.get(string)
            if line is None:
                raise _Untokenizable
            if string in _OPENING:
                brackets += 1
                if brackets > _MAX_BRACKET_DEPTH:
                    raise _Untokenizable
            elif string in _CLOSING:
                brackets -= 1
            append(line)
        elif type_ == kind.NAME:
            if unsplit and start == after_name:
                raise _SplitName
            after_name = end
            if not string.isidentifier():
                raise _Untokenizable
            append(f"NAME {_utf8_length(string)}:{string}\n")
        elif type_ in kind.dropped:
            continue
        elif type_ == kind.NEWLINE:
            if not after_newline:
                append("NEWLINE 0:\n")
                after_newline = True
            continue
        elif type_ == kind.STRING or type_ == kind.NUMBER:
            append(f"{kind.names[type_]} {_utf8_length(string)}:{string}\n")
        elif type_ == kind.INDENT:
            indents += 1
            if indents > _MAX_INDENT_DEPTH:
                raise _Untokenizable
            append("INDENT 0:\n")
        elif type_ == kind.DEDENT:
            indents -= 1
            append("DEDENT 0:\n")
        elif type_ == kind.ENDMARKER:
            append("ENDMARKER 0:\n")
        else:  # ERRORTOKEN, an f-string part outside an f-string, a type no supported version has
            raise _Untokenizable
        after_newline = False
    return lines


def _utf8_length(string: str) -> int:
    return len(string) if string.isascii() else len(string.encode("utf-8", "surrogatepass"))


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


class _TokenKinds:
    """This Python's token type numbers, which differ between versions."""

    def __init__(self) -> None:
        import token

        self.names: dict[int, str] = token.tok_name
        self.NAME: int = token.NAME
        self.NUMBER: int = token.NUMBER
        self.STRING: int = token.STRING
        self.OP: int = token.OP
        self.NEWLINE: int = token.NEWLINE
        self.INDENT: int = token.INDENT
        self.DEDENT: int = token.DEDENT
        self.ENDMARKER: int = token.ENDMARKER
        self.dropped = frozenset(getattr(token, name) for name in _DROPPED)
        self.literal_starts = frozenset(getattr(token, name) for name in _LITERAL_STARTS if hasattr(token, name))
        self.literal_ends = frozenset(getattr(token, name) for name in _LITERAL_ENDS if hasattr(token, name))


@functools.cache
def _token_kinds() -> _TokenKinds:
    return _TokenKinds()


class _LiteralFolder:
    """Folds each outermost f-string (t-string) of Python 3.12+ back into its source text."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._line_starts: list[int] | None = None
        self.depth = 0
        self._start = (0, 0)

    def fold(self, type_: int, start: tuple[int, int], end: tuple[int, int], kind: _TokenKinds) -> str | None:
        """The literal's source text at the token that ends it; ``None`` for any other token of it."""
        if type_ in kind.literal_starts:
            self._start = start if self.depth == 0 else self._start
            self.depth += 1
        elif type_ in kind.literal_ends:
            self.depth -= 1
            if self.depth == 0:
                return self._slice(self._start, end)
        return None

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
