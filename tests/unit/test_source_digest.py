"""toolcall._cache.freshness: a token digest that ignores layout, sees every code change, and agrees across Pythons.

The schema cache is written by the mypy plugin on one Python and checked at
run time on another, so one fixture is digested by every Python 3.11 to 3.13
found here (the checkout's ``.venv-3.1x``, ``python3.1x`` on PATH, pyenv) and
its digest is pinned, so a CI run on any one version catches drift too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from tokenize import TokenInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.paths import ROOT
from toolcall._cache import freshness as source_digest_module
from toolcall._cache.freshness import SourceDigest, bytes_sha256, source_digest, tokens_sha256, unchanged

VERSIONS = ("3.11", "3.12", "3.13")

BASE = '''"""Weather tools."""

from typing import Annotated


def get_forecast(city: Annotated[str, "The city"], days: int = 3) -> dict[str, object]:
    """Get the forecast.

    Args:
        city: the city name.
        days: how many days.
    """
    if days > 7:
        days = 7
        days += 0
    return {"label": f"{city!r}: {days:>2} days", "days": days}
'''

INDENTED = "def f(x):\n    if x:\n        return [1,\n                2]\n    return 2\n"


def _edit(old: str, new: str, source: str = BASE) -> str:
    assert old in source
    return source.replace(old, new, 1)


LAYOUT_EDITS = {
    "comment added": _edit("    if days > 7:\n", "    # at most a week\n    if days > 7:\n"),
    "comment at a line's end": _edit("days = 7\n", "days = 7  # a week\n"),
    "comment changed": _edit("# at", "# never more than", _edit("    if", "    # at most a week\n    if")),
    "comment last, no final newline": BASE + "# the end",
    "coding cookie added": "# -*- coding: utf-8 -*-\n" + BASE,
    "blank lines": _edit("\n\ndef", "\n\n\n\n\ndef", _edit("    if", "\n    if")),
    "no final newline": BASE.rstrip("\n"),
    "trailing whitespace": _edit("days = 7\n", "days = 7   \n", _edit("Annotated\n", "Annotated \t\n")),
    "reflowed arguments": _edit(
        '(city: Annotated[str, "The city"], days: int = 3)',
        '(\n    city: Annotated[\n        str, "The city"\n    ],\n    days: int = 3\n)',
    ),
    "backslash continuation": _edit("if days > 7:", "if days \\\n            > 7:"),
    "indentation width": _edit("        days = 7\n        days +=", "            days = 7\n            days +="),
}


@pytest.mark.parametrize("edited", LAYOUT_EDITS.values(), ids=LAYOUT_EDITS.keys())
def test_a_layout_edit_keeps_the_token_digest(edited: str) -> None:
    assert bytes_sha256(edited.encode()) != bytes_sha256(BASE.encode())
    assert tokens_sha256(edited.encode()) == tokens_sha256(BASE.encode()) is not None


SAME_TOKENS = {
    "CRLF line endings": (BASE.encode(), BASE.replace("\n", "\r\n").encode()),
    "CR line endings": (BASE.encode(), BASE.replace("\n", "\r").encode()),
    "a BOM": (BASE.encode(), b"\xef\xbb\xbf" + BASE.encode()),
    "tabs for spaces": (INDENTED.encode(), INDENTED.replace("    ", "\t").encode()),
    "an indented comment at the end": (b"if x:\n    y = 1\n", b"if x:\n    y = 1\n    # c"),
    "an identifier with combining marks": ("नमस्ते = 1\n".encode(), "नमस्ते = 1  # hello\n".encode()),
}


@pytest.mark.parametrize(("before", "after"), SAME_TOKENS.values(), ids=SAME_TOKENS.keys())
def test_line_endings_bom_and_indentation_characters_keep_the_token_digest(before: bytes, after: bytes) -> None:
    assert bytes_sha256(before) != bytes_sha256(after)
    assert tokens_sha256(before) == tokens_sha256(after) is not None


CODE_EDITS = {
    "identifier": _edit("days: int = 3", "nights: int = 3"),
    "number": _edit("days > 7", "days > 8"),
    "operator": _edit("days > 7", "days >= 7"),
    "string literal": _edit('"The city"', '"The town"'),
    "docstring word": _edit("Get the forecast.", "Get the weather forecast."),
    "docstring layout": _edit("    Args:", "  Args:"),
    "f-string text": _edit('days", ', 'nights", '),
    "f-string format spec": _edit("{days:>2}", "{days:>3}"),
    "f-string conversion": _edit("{city!r}", "{city!s}"),
    "f-string expression": _edit("{city!r}", "{city.upper()!r}"),
    "statement moved out of the if": _edit("        days += 0", "    days += 0"),
    "trailing comma": _edit("days = 7\n", "days = 7,\n"),
    "strings joined": _edit('"The city"', '"The" " city"'),
}


@pytest.mark.parametrize("edited", CODE_EDITS.values(), ids=CODE_EDITS.keys())
def test_a_code_or_string_edit_changes_the_token_digest(edited: str) -> None:
    assert tokens_sha256(edited.encode()) is not None
    assert tokens_sha256(edited.encode()) != tokens_sha256(BASE.encode())


def test_token_texts_are_delimited() -> None:
    assert tokens_sha256(b"ab c\n") != tokens_sha256(b"a bc\n")
    assert tokens_sha256(b"x = 'a', 'b'\n") != tokens_sha256(b"x = 'a', 'b',\n")


UNTOKENIZABLE = {
    "unterminated string": b"x = 'abc\n",
    "unclosed bracket": b"x = (1,\n",
    "inconsistent dedent": b"if x:\n        y = 1\n    z = 2\n",
    "unknown character": b"x = $\n",
    "backslash at the end": b"x = 1 + \\",
    "backslash continuing past the end": b"x = 1 + \\\n",
    "not UTF-8, no cookie": b"x = '\xe9'\n",
    "unknown coding cookie": b"# -*- coding: no-such-codec -*-\nx = 1\n",
    "BOM with a latin-1 cookie": b"\xef\xbb\xbf# -*- coding: latin-1 -*-\nx = 1\n",
    "null byte": b"x = 1\x00\n",
    "null byte in a string": b"x = '\x00'\n",
    "not an identifier": "x = \u0663\n".encode(),
    "201 nested brackets": b"x = " + b"(" * 201 + b"1" + b")" * 201 + b"\n",
    "100 nested blocks": b"".join(b" " * i + b"if x:\n" for i in range(100)) + b" " * 100 + b"pass\n",
}


@pytest.mark.parametrize("data", UNTOKENIZABLE.values(), ids=UNTOKENIZABLE.keys())
def test_a_source_that_cannot_be_tokenized_has_no_token_digest(data: bytes) -> None:
    assert tokens_sha256(data) is None


def test_nesting_up_to_the_compilers_limits_has_a_token_digest() -> None:
    brackets = b"x = " + b"(" * 200 + b"1" + b")" * 200 + b"\n"
    blocks = b"".join(b" " * i + b"if x:\n" for i in range(99)) + b" " * 99 + b"pass\n"
    compile(brackets, "brackets", "exec")
    compile(blocks, "blocks", "exec")
    assert tokens_sha256(brackets) is not None
    assert tokens_sha256(blocks) is not None


def test_a_source_over_the_size_limit_has_no_token_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"x = 1\n" * 20
    monkeypatch.setattr(source_digest_module, "MAX_SOURCE_BYTES", len(data))
    assert tokens_sha256(data) is not None
    assert tokens_sha256(data + b"\n") is None


def test_a_source_of_too_many_tokens_has_no_token_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"x = 1\n" * 20  # 4 tokens a line, and the end marker
    monkeypatch.setattr(source_digest_module, "MAX_TOKENS", 81)
    assert tokens_sha256(data) is not None
    assert tokens_sha256(data + b"# a comment\n") is None


def test_a_coding_cookie_decodes_the_source() -> None:
    latin1 = b"# -*- coding: latin-1 -*-\nx = '\xe9'\n"
    assert tokens_sha256(latin1) == tokens_sha256("# -*- coding: utf-8 -*-\nx = 'é'\n".encode())
    assert tokens_sha256(latin1) != tokens_sha256(b"# -*- coding: latin-1 -*-\nx = '\xe8'\n")


def test_bytes_sha256_is_the_hex_sha256() -> None:
    assert bytes_sha256(b"") == "e3b0c44298fc1c149afbf4c8996fb924"  # its first 128 bits
    assert bytes_sha256(BASE.encode()) == hashlib.sha256(BASE.encode()).hexdigest()[:32]


def test_source_digest_holds_both_digests() -> None:
    data = BASE.encode()
    digest = source_digest(data)
    assert digest == SourceDigest(sha256=bytes_sha256(data), tokens=tokens_sha256(data))
    assert (digest.sha256, digest.tokens) == (bytes_sha256(data), tokens_sha256(data))
    assert source_digest(b"x = $\n").tokens is None


def test_unchanged_compares_tokens_only_when_the_bytes_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    data = BASE.encode()
    recorded = source_digest(data)
    assert unchanged(LAYOUT_EDITS["comment added"].encode(), *recorded)
    assert not unchanged(CODE_EDITS["docstring word"].encode(), *recorded)
    assert not unchanged(b"x = $\n", *recorded)
    assert not unchanged(LAYOUT_EDITS["comment added"].encode(), recorded.sha256, None)

    def untokenized(data: bytes) -> str | None:
        raise AssertionError("tokenized")

    monkeypatch.setattr(source_digest_module, "tokens_sha256", untokenized)
    assert unchanged(data, *recorded)
    assert unchanged(b"x = $\n", bytes_sha256(b"x = $\n"), None)


STATEMENTS = st.sampled_from(
    [
        "x = 1\n",
        "import os\n",
        'def f(a: int = 2) -> str:\n    """Doc."""\n    return f"{a!r:>4}"\n',
        "class C:\n    y: int = 0\n\n    def m(self):\n        pass\n",
        "if x:\n    y = [1,\n         2]\nelse:\n    y = 3\n",
        "@decorator\nasync def g():\n    await h()\n",
        "z = (x := 3) \\\n    + 4\n",
        '"""A string statement."""\n',
    ]
)
COMMENTS = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00"))


@given(
    statements=st.lists(STATEMENTS, min_size=2, max_size=6),
    data=st.data(),
    indent=st.sampled_from(["", "  ", "    ", "\t", " \t "]),
    comment=COMMENTS,
)
def test_a_comment_line_between_top_level_statements_keeps_the_token_digest(
    statements: list[str], data: st.DataObject, indent: str, comment: str
) -> None:
    where = data.draw(st.integers(1, len(statements) - 1), label="after statement")
    with_comment = [*statements[:where], f"{indent}#{comment}\n", *statements[where:]]
    before = tokens_sha256("".join(statements).encode())
    assert before is not None
    assert tokens_sha256("".join(with_comment).encode()) == before


# Only what Python 3.10 parses: no PEP 701 f-strings, no `type` statements.
FIXTURE = r'''# -*- coding: utf-8 -*-
"""A module every supported Python tokenizes alike."""

import asyncio
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int = 0
    y: int = 0


def describe(x: object, y: object, width: int = 10) -> str:
    """Nested f-strings, conversions, format specs, ``=``."""
    label = f"{x!r:>{width}} {f'{y}'}"
    debug = f"{x = }{y=!s:<{width}.{width - 2}}{width=:#06x}"
    braces = f"{{literal}} {x:{{}}>{width}}" f'{"quoted"}' rf"\d{x}" Rf'{y}\n' F""
    block = f"""
    first {x}
      second {
        y
      }
    third {{ }} {'é'}
    """
    return label + debug + braces + block


async def fetch(queue, lock):
    async with lock:
        async for item in queue:
            if (n := len(item)) > 2:
                await asyncio.sleep(n)
    return [await step(i) async for i in queue]


def classify(point):
    match point:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0) | Point(y=0) if point:
            return "axis"
        case [first, *rest]:
            return f"seq {first} {rest}"
        case {"k": value, **others}:
            return str(value)
        case _:
            return "other"


total = 1 + \
    2 + \
    3
surrogates = "\udcff" + f"\udcff{total}" + '\N{BULLET}' + b"\xff".decode("latin-1")
नमस्ते = "namaste"  # an identifier with combining marks
café = [0x1F, 0o17, 0b101, 1_000_000, 1.5e-3, 3j, .5, ...]
joined = ('a'
          'b')
lam = lambda *a, **k: (a, k)


def positional(a, /, b, *, c): ...
'''

FIXTURE_SHA256 = "4b654d3e5646661816baa6bf99bb771c"

# The digest of each input, on every version; null bytes cannot occur in them.
CROSS_VERSION_INPUTS = [
    FIXTURE.encode(),
    b"\xef\xbb\xbf" + FIXTURE.replace("\n", "\r\n").encode(),
    FIXTURE.rstrip("\n").encode(),
    b"x = $\n",
    b"x = 'abc\n",
    b"x = " + b"(" * 201 + b"1" + b")" * 201 + b"\n",
    b"".join(b" " * i + b"if x:\n" for i in range(100)) + b" " * 100 + b"pass\n",
]
# Loads the module by its path, so an interpreter without the project's dependencies serves too.
DIGEST_SCRIPT = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("source_digest", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
for data in sys.stdin.buffer.read().split(b"\\0"):
    print(module.tokens_sha256(data))
"""


def test_the_fixture_digest_is_pinned() -> None:
    compile(FIXTURE, "fixture", "exec")
    assert tokens_sha256(FIXTURE.encode()) == FIXTURE_SHA256


def test_every_python_gives_the_same_digests() -> None:
    pythons = _pythons()
    assert len(pythons) >= 2, f"need two of Python {', '.join(VERSIONS)}; found {sorted(pythons)}"
    expected = [str(tokens_sha256(data)) for data in CROSS_VERSION_INPUTS]
    assert expected[:3] == [FIXTURE_SHA256] * 3
    assert expected[3:] == ["None"] * 4
    for version, python in sorted(pythons.items()):
        assert _digests(python) == expected, f"Python {version}"


def _digests(python: str) -> list[str]:
    """The token digests ``python`` gives for the cross-version inputs."""
    done = subprocess.run(
        [python, "-I", "-c", DIGEST_SCRIPT, str(ROOT / "toolcall" / "_cache" / "freshness.py")],
        input=b"\0".join(CROSS_VERSION_INPUTS),
        capture_output=True,
        timeout=120,
        check=True,
    )
    return done.stdout.decode().split()


def _pythons() -> dict[str, str]:
    """One interpreter for each of Python 3.11 to 3.13 that can be found, by version."""
    found: dict[str, str] = {}
    pyenv = os.environ.get("PYENV_ROOT") or _pyenv_root()
    for version in VERSIONS:
        for candidate in _candidates(version, pyenv):
            if version not in found and _version_of(candidate) == version:
                found[version] = candidate
    return found


def _candidates(version: str, pyenv: str | None) -> list[str]:
    """Where Python ``version`` may be: this interpreter, the checkout's venv, PATH, pyenv."""
    candidates = [sys.executable, str(ROOT / f".venv-{version}" / "bin" / "python")]
    candidates += [path for path in [shutil.which(f"python{version}")] if path]
    if pyenv:
        candidates += sorted(str(path) for path in Path(pyenv).glob(f"versions/{version}*/bin/python"))
    return candidates


def _pyenv_root() -> str | None:
    """``pyenv root``, if pyenv is installed."""
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    done = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=60, check=False)
    return done.stdout.strip() or None


def _version_of(python: str) -> str | None:
    """The ``major.minor`` version of the interpreter ``python``, or None if it does not run."""
    if not Path(python).is_file():
        return None
    try:
        done = subprocess.run(
            [python, "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


# Sources on which the one pass over the raw tokens could go wrong; the joining pass is the reference.
TRICKY = [
    FIXTURE,
    "नमस्ते = क्षि + 1\nx.नमस्ते()\n",
    "a\u0301b\u0301 = 1  # combining acute accents\n",
    "a·b = ℘ + 1\n",
    "é = f'{é!r:>{w}}' f\"{'नमस्ते'}\" rf'\\d{x}'\n",
    "x = 1\ry = f'{x}'\r",
    "if x:\r\n\ty = 1\r\n",
    "x = 1\v\n",  # a whitespace ERRORTOKEN on 3.11
    "x = $\n",
    "x = `a`\n",
    "1if x else 2\n",
    "x = \u0663\n",
    "s = 'abc\n",
]


@pytest.mark.parametrize("source", TRICKY)
def test_the_one_pass_digest_equals_the_joining_passs(source: str) -> None:
    text = source_digest_module._decode(source.encode())
    tokens = source_digest_module._identifiers_joined(source_digest_module._raw_tokens(text))
    exact = source_digest_module._digest_or_none(text, tokens, unsplit=False)
    assert tokens_sha256(source.encode()) == exact


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="only the 3.10 and 3.11 tokenizers split identifiers")
def test_only_a_source_with_a_split_identifier_takes_the_joining_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    joined: list[bool] = []
    join = source_digest_module._identifiers_joined

    def counted(tokens: Iterator[TokenInfo]) -> Iterator[TokenInfo]:
        joined.append(True)
        return join(tokens)

    monkeypatch.setattr(source_digest_module, "_identifiers_joined", counted)
    assert tokens_sha256(FIXTURE.replace("नमस्ते", "namaste").encode()) is not None
    assert tokens_sha256(BASE.encode()) is not None
    assert not joined
    assert tokens_sha256("नमस्ते = 1\n".encode()) is not None
    assert joined == [True]
