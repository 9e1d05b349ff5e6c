"""Fuzz target: whatever sits where a tool module's schema cache belongs, first use stays safe.

Each input puts something at the cache file's path of one small tool
package: arbitrary bytes, the valid file the writer wrote with bytes
mutated (which breaks its seal), the valid file with one value replaced and
sealed again (as a forger would: the seal holds, so the deep shape checks
run), or a FIFO, a directory or a symlink to ``/dev/zero``. Then the
module's first use (``toolcall.emit``) runs in a thread joined with a bound,
under ``TOOLCALL_CACHE=auto`` or ``require``, and must keep the contract:

- it returns within ``HANG_BOUND`` and raises nothing, but under
  ``require`` the documented ``RuntimeError`` naming the command that fixes it;
- it serves the cache only when the file is the one the writer wrote (a
  file sealed again may be served: the seal only catches accidents);
- a tool not served is introspected, with one one-line ``ToolcallWarning``
  naming the module and the command that refreshes it, and then the
  emitted schema equals the one introspection gives.

One package directory serves every example: the file is rewritten, the
module reloaded (fresh tool declarations), and the loader's per-process
memo of the module and its warning forgotten.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from hypothesis import strategies as st

import toolcall
from tests import cached_package
from toolcall._cache import file_format, loader, report
from toolcall._warning import ToolcallWarning
from toolcall.errors import MAX_MESSAGE_LENGTH

#: How long one first use may take before it counts as hung (a hang bound, not a timing).
HANG_BOUND: Final = 10.0
PACKAGE: Final = "toolcall_fuzz_cache"
MODULE: Final = f"{PACKAGE}.tools"
#: The cache tests' two tools: schemas with an enum, a TypedDict and constraints, and no finding to warn.
TOOLS: Final = cached_package.TOOLS
#: What stands at the cache's path instead of a file of bytes.
SPECIAL_KINDS: Final = ("fifo", "directory", "dev-zero")
#: Pieces a mutation inserts: JSON's edges, versions, what the loader refuses.
PIECES: Final = (
    b'"format": 999',
    b'"ir": 0',
    b"[",
    b"{",
    b"}",
    b'"',
    b"\\ud800",
    b"\xff",
    b"NaN",
    b"1e999",
    b"-0",
    b"null",
    b'"content_sha256": "',
    b"\n",
    b"[" * 300,
)


class _State:
    """The package directory, the valid cache file's bytes and the introspected schema, made by ``setup``."""

    root: Path | None = None
    cache: Path = Path()
    valid: bytes = b""
    introspected: str = ""


_STATE = _State()


def setup() -> None:
    """Write the package and its cache (with the writer the plugin uses), and record what introspection emits."""
    if _STATE.root is not None:
        return
    root = Path(tempfile.mkdtemp(prefix="toolcall-fuzz-cache-"))
    package = root / PACKAGE
    (package / file_format.CACHE_DIR).mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(TOOLS)
    sys.path.insert(0, str(root))
    _STATE.root, _STATE.cache = root, file_format.cache_path(package / "tools.py")
    _STATE.valid = _valid_cache(package / "tools.py")
    _STATE.cache.write_bytes(_STATE.valid)
    outcome = _first_use("off")
    assert outcome.error is None, outcome
    assert not any(outcome.served), outcome
    _STATE.introspected = outcome.emitted
    assert _first_use("require").served == [True, True], "the valid file is not served"


def teardown() -> None:
    """Remove the package directory."""
    if _STATE.root is not None:
        sys.path.remove(str(_STATE.root))
        shutil.rmtree(_STATE.root, ignore_errors=True)
        _STATE.root = None


def _valid_cache(source: Path) -> bytes:
    """The module's cache file as the plugin writes it, from the runtime IR (so the loader is fuzzed on its own)."""
    from toolcall._toolset.toolset import as_toolset, loaded_tools

    tools = importlib.import_module(MODULE)
    with _mode("off"):
        entries = [file_format.tool_entry(t.ir, [MODULE]) for t in loaded_tools(as_toolset(tools))]
    record = file_format.source_record(source.read_bytes(), source.name)
    content = file_format.module_content(MODULE, {MODULE: record}, entries, {})
    return file_format.dumps(content).encode("utf-8", "surrogatepass")


# -- inputs ------------------------------------------------------------------------------------------------

_POSITION = st.integers(min_value=0, max_value=1 << 16)
_MUTATION = st.one_of(
    st.tuples(st.just("replace"), _POSITION, st.integers(0, 255)),
    st.tuples(st.just("delete"), _POSITION, st.integers(1, 64)),
    st.tuples(st.just("insert"), _POSITION, st.one_of(st.sampled_from(PIECES), st.binary(min_size=1, max_size=8))),
    st.tuples(st.just("truncate"), _POSITION),
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def inputs() -> st.SearchStrategy[Any]:
    """``(what stands at the cache's path, TOOLCALL_CACHE)``: bytes, byte mutations, a resealed edit, or a kind."""
    content = st.one_of(
        st.tuples(st.just("bytes"), st.binary(max_size=2048)),
        st.tuples(st.just("mutated"), st.lists(_MUTATION, max_size=4)),
        st.tuples(st.just("resealed"), _POSITION, _JSON),
        st.tuples(st.just("special"), st.sampled_from(SPECIAL_KINDS)),
    )
    return st.tuples(content, st.sampled_from(("auto", "require")))


def _mutated(data: bytes, mutations: list[tuple[Any, ...]]) -> bytes:
    for mutation in mutations:
        at = mutation[1] % (len(data) + 1)
        if mutation[0] == "replace":
            data = data[:at] + bytes([mutation[2]]) + data[at + 1 :] if at < len(data) else data
        elif mutation[0] == "delete":
            data = data[:at] + data[at + mutation[2] :]
        elif mutation[0] == "insert":
            data = data[:at] + mutation[2] + data[at:]
        else:
            data = data[:at]
    return data


def _resealed(position: int, value: Any) -> bytes:
    """The valid file with its ``position``-th value (depth first) replaced by ``value``, sealed again."""
    content = json.loads(_STATE.valid)
    del content["content_sha256"]
    slots = list(_slots(content))
    container, key = slots[position % len(slots)]
    container[key] = value
    try:
        return file_format.dumps(content).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, UnicodeError, RecursionError):  # the writer's own limits: an unsealed file
        return json.dumps(content).encode("utf-8", "surrogatepass")


def _slots(value: Any) -> Any:
    """Every ``(container, key)`` under ``value``, depth first."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield value, key
        yield from _slots(child)


# -- one example ---------------------------------------------------------------------------------------------


def check(value: Any) -> None:
    """Put ``value``'s content at the cache's path and check one first use under its mode."""
    setup()
    (kind, *arguments), mode = value
    data = _place(kind, arguments)
    outcome = _first_use(mode)
    if mode == "require":
        _check_required(outcome, data)
    else:
        _check_auto(outcome, data)


def _place(kind: str, arguments: list[Any]) -> bytes | None:
    """Put the content at the cache's path; its bytes, or ``None`` for a FIFO, a directory or a device."""
    _clear(_STATE.cache)
    if kind == "special":
        if arguments[0] == "fifo":
            os.mkfifo(_STATE.cache)
        elif arguments[0] == "directory":
            _STATE.cache.mkdir()
        else:
            _STATE.cache.symlink_to("/dev/zero")
        return None
    if kind == "bytes":
        data: bytes = arguments[0]
    elif kind == "mutated":
        data = _mutated(_STATE.valid, arguments[0])
    else:
        data = _resealed(*arguments)
    _STATE.cache.write_bytes(data)
    return data


def _clear(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)


def _check_auto(outcome: _Outcome, data: bytes | None) -> None:
    assert outcome.error is None, f"first use raised {outcome.error}"
    _check_served(outcome, data)
    if all(outcome.served):
        assert outcome.warnings == [], f"a served cache warned: {outcome.warnings}"
        return
    assert len(outcome.warnings) == 1, f"not one warning but {outcome.warnings}"
    (warning,) = outcome.warnings
    assert warning.startswith("the schema cache of 1 module is not served"), warning
    damaged = data is None or not file_format.seal_holds(data, any_version=True)
    assert f"{MODULE} ({'its schema cache is unusable: ' if damaged else ''}" in warning, warning
    assert report.WRITE_COMMAND in warning, warning
    _check_line(warning)
    if not any(outcome.served):
        assert outcome.emitted == _STATE.introspected, "the introspected schema differs"


def _check_required(outcome: _Outcome, data: bytes | None) -> None:
    if outcome.error is None:
        assert all(outcome.served), "TOOLCALL_CACHE=require introspected"
        _check_served(outcome, data)
        return
    assert outcome.error.startswith("CacheRequiredError: TOOLCALL_CACHE=require: tool "), outcome.error
    damaged = data is None or not file_format.seal_holds(data, any_version=True)
    assert f"of {MODULE!r}: {'its schema cache is unusable: ' if damaged else ''}" in outcome.error, outcome.error
    assert report.WRITE_COMMAND in outcome.error, outcome.error
    _check_line(outcome.error)
    assert data != _STATE.valid, "the valid file was refused"


def _check_served(outcome: _Outcome, data: bytes | None) -> None:
    """Served only what the writer wrote; a file sealed again may be served, but the valid file must be."""
    if data == _STATE.valid:
        assert outcome.served == [True, True], "the valid file was not served"
        assert outcome.emitted == _STATE.introspected, "what the cache serves differs from introspection"
    elif data is None or not file_format.seal_holds(data):
        assert not any(outcome.served), "a damaged file was served"


def _check_line(text: str) -> None:
    assert "\n" not in text, f"not one line: {text!r}"
    assert len(text) <= MAX_MESSAGE_LENGTH, f"too long ({len(text)}): {text[:200]!r}..."


class _Outcome:
    """What one first use gave: the emitted schema's text, which tools came from the cache, warnings, an error."""

    def __init__(self) -> None:
        self.emitted = ""
        self.served: list[bool] = []
        self.warnings: list[str] = []
        self.error: str | None = None

    def __repr__(self) -> str:
        return f"_Outcome(served={self.served}, warnings={self.warnings}, error={self.error})"


def _first_use(mode: str) -> _Outcome:
    """The module's first use under ``TOOLCALL_CACHE=mode``, in a thread joined with ``HANG_BOUND``."""
    tools = _fresh_module()
    outcome = _Outcome()
    thread = threading.Thread(target=_use, args=(tools, mode, outcome), daemon=True)
    thread.start()
    thread.join(HANG_BOUND)
    assert not thread.is_alive(), f"first use hung for {HANG_BOUND} s under TOOLCALL_CACHE={mode}"
    return outcome


def _use(tools: Any, mode: str, outcome: _Outcome) -> None:
    from toolcall._toolset.toolset import as_toolset, loaded_tools

    try:
        with _mode(mode), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            outcome.emitted = json.dumps(toolcall.emit(tools, "openai"))
            outcome.served = [t.cached for t in loaded_tools(as_toolset(tools))]
        outcome.warnings = [str(w.message) for w in caught if issubclass(w.category, ToolcallWarning)]
        others = [f"{w.category.__name__}: {w.message}" for w in caught if not issubclass(w.category, ToolcallWarning)]
        assert not others, f"unexpected warnings: {others}"
    except BaseException as exc:  # reported by check, which runs in the calling thread
        outcome.error = f"{type(exc).__name__}: {exc}"


def _fresh_module() -> Any:
    """The tool module as on its first use: reloaded (new declarations), its cache and its warning forgotten."""
    loader._MODULES.discard_where(lambda name: name == MODULE)
    loader._SOURCES.clear()
    report._WARNED.discard(MODULE)
    return importlib.reload(importlib.import_module(MODULE))


@contextlib.contextmanager
def _mode(mode: str) -> Iterator[None]:
    """``TOOLCALL_CACHE=mode`` for the block (first use reads it then)."""
    saved = os.environ.get("TOOLCALL_CACHE")
    os.environ["TOOLCALL_CACHE"] = mode
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TOOLCALL_CACHE", None)
        else:
            os.environ["TOOLCALL_CACHE"] = saved
