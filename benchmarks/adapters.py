"""toolcall's provider adapters against the same work done by hand with pydantic, msgspec and the anthropic SDK.

``python benchmarks/adapters.py [--quick] [--check-only] [--breakdown] [--cases oia]``

Cases:
  (o) OpenAI Chat Completions, the README's weather tool: an assistant
      message with one tool call, arguments '{"city": "Oslo", "days": 5}',
      in; the list of ``{"role": "tool", "tool_call_id", "content"}``
      messages out
  (i) the same for the tool taking a list of 10 TypedDicts of 3 fields
  (a) Anthropic: a message with three ``tool_use`` blocks (two weather
      calls and the items call) in; the user message of ``tool_result``
      blocks out

Contenders of (o) and (i):
  toolcall                 ``toolcall.openai.tool_messages(module, message)``, message a plain dict,
                           with the decoder ``toolcall._wire.json_decode`` chooses here
  toolcall SDK object      the same with an ``openai.types.chat.ChatCompletionMessage``
  toolcall [<decoder>]     the plain-dict form with msgspec, orjson or json.loads forced
  pydantic TypeAdapter     ``TypeAdapter(fn).validate_json(arguments)`` (a function's adapter validates
                           the JSON object as its keyword arguments and calls it), the message by hand
  msgspec Struct           ``msgspec.json.Decoder(Struct of the parameters)``, the call, the message by hand

A decoder is forced by setting ``toolcall._wire.json_decode._CHOSEN`` (the
once-cell the module reads its decoder from) to a cell holding what the
module's own ``_choose`` returns while the faster decoders are hidden from
``import`` (``sys.modules[name] = None``): the very closure a machine without
them would use. Every toolcall row sets ``_CHOSEN`` in its timed statement
(the default row too: ``setattr(...) or tool_messages(...)``, an
expression, since ``timing.verify`` evaluates the statement), so all pay
the same ~40 ns store and share one process. Each row's check also asks
``fast_decoder_name()``, so a row that stops forcing its decoder fails
before it is timed.
The hand-built peers encode the result with ``json.dumps``, whose text is
the content toolcall sends; ``msgspec.json.encode`` writes no spaces, so its
content would differ.

Contenders of (a):
  toolcall, toolcall (SDK Message)          ``toolcall.anthropic.tool_results(module, message)``, over a
                                            plain dict and over an ``anthropic.types.Message``
  anthropic beta_tool (dict / SDK Message)  the SDK tool runner's step: ``beta_tool(fn).call(input)`` per
                                            block, each result ``json.dumps``-ed into a ``tool_result``
                                            block, the user message built by hand

Every contender's output is compared, as ``json.dumps`` text (key order
included), with the expected messages before any timing; ``--check-only``
does only that. ``--breakdown`` times the stages of toolcall's OpenAI path
one by one. Contenders run interleaved round-robin in one process
(``timing.py``); medians are printed. The exit status is 1 when a target
is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the sibling modules, also under ``python -m`` or an IDE
    sys.path.insert(0, str(HERE))

import peers  # noqa: E402
import run  # noqa: E402
import seed_tools  # noqa: E402
from timing import Contender, Stats, measure, verify  # noqa: E402

import toolcall  # noqa: E402
import toolcall.anthropic  # noqa: E402
import toolcall.openai  # noqa: E402
from toolcall import _tool_calls as tool_calls  # noqa: E402
from toolcall._once import OnceCell  # noqa: E402
from toolcall._wire import json_decode  # noqa: E402
from toolcall._wire.return_values import json_text, plain  # noqa: E402

Results = dict[str, Stats]
Decoder = tuple[str, Callable[[str], Any] | None]


@dataclass(frozen=True)
class Settings:
    """How long to sample: rounds per case and the length of one sample."""

    rounds: int
    sample_ns: float


#: Short samples, many rounds: on a shared machine a sample that the scheduler interrupts is an outlier
#: the median ignores, where with run.py's 2 ms samples most samples of a contender can be interrupted.
FULL = Settings(rounds=401, sample_ns=2.5e5)
QUICK = Settings(rounds=101, sample_ns=2.5e5)

#: The peers of these cases (``peers.PEERS``): each one missing here is printed with its reason.
ADAPTER_PEERS = ("pydantic", "msgspec", "orjson", "openai", "anthropic")

#: The decoders that can be forced, fastest first, and the modules hidden to get each.
DECODERS = {"msgspec": (), "orjson": ("msgspec",), "json.loads": ("msgspec", "orjson")}

#: The module's own once-cell, put back after each case: the forced rows leave theirs behind, and the
#: breakdown's stages must decode with the default decoder.
OWN_CELL = json_decode._CHOSEN

WEATHER_TEXT = '{"city": "Oslo", "days": 5}'
ITEMS_TEXT = json.dumps(seed_tools.ITEMS_ARGS)


# -- the turns ---------------------------------------------------------------------------


def chat_message(name: str, arguments: str) -> dict[str, Any]:
    """A Chat Completions assistant message with one call of tool ``name``, as the API sends it."""
    call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"role": "assistant", "content": None, "refusal": None, "tool_calls": [call]}


def chat_expected(result: Any) -> str:
    """The tool messages answering ``chat_message``, as JSON text."""
    return json.dumps([{"role": "tool", "tool_call_id": "call_1", "content": json.dumps(result)}])


#: (id, tool, input, the tool's result) of each ``tool_use`` block of the Anthropic turn.
TOOL_USES = (
    ("toolu_01", "get_weather", {"city": "Oslo", "days": 5}, seed_tools.WEATHER_RESULT),
    ("toolu_02", "get_weather", {"city": "Bergen"}, {"city": "Bergen", "days": 3, "temp": 21.5}),
    ("toolu_03", "add_items", seed_tools.ITEMS_ARGS, seed_tools.ITEMS_RESULT),
)


def anthropic_message() -> dict[str, Any]:
    """A Messages API response with a text block and the three ``tool_use`` blocks, as the API sends it."""
    blocks = [{"type": "tool_use", "id": id_, "name": name, "input": args} for id_, name, args, _ in TOOL_USES]
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Let me look that up.", "citations": None}, *blocks],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 412, "output_tokens": 96},
    }


def anthropic_expected() -> str:
    """The user message answering ``anthropic_message``, as JSON text."""
    blocks = [
        {"type": "tool_result", "tool_use_id": id_, "content": json.dumps(result)} for id_, _, _, result in TOOL_USES
    ]
    return json.dumps({"role": "user", "content": blocks})


def same_json(expected: str) -> Callable[[Any], None]:
    """A check that the statement's value is ``expected`` as ``json.dumps`` text (key order included)."""

    def check(value: Any) -> None:
        found = json.dumps(value)
        if found != expected:
            raise AssertionError(f"expected {expected}, got {found}")

    return check


# -- forcing a decoder -----------------------------------------------------------------------


@contextlib.contextmanager
def hidden(names: Sequence[str]) -> Iterator[None]:
    """``import`` of each of ``names`` fails inside the block, as if it were not installed."""
    saved = {name: sys.modules[name] for name in names if name in sys.modules}  # None too: already hidden
    sys.modules.update(dict.fromkeys(names))
    try:
        yield
    finally:
        for name in names:
            del sys.modules[name]
        sys.modules.update(saved)


def forced(chosen: Decoder) -> OnceCell[Decoder]:
    """A once-cell already holding ``chosen``: set as ``json_decode._CHOSEN``, every decode uses it."""
    cell: OnceCell[Decoder] = OnceCell()
    cell.get(lambda: chosen)
    return cell


def decoding_with(label: str, check: Callable[[Any], None]) -> Callable[[Any], None]:
    """``check``, after making sure the statement decoded with ``label``'s decoder (not a stale default)."""

    def checked(value: Any) -> None:
        if json_decode.fast_decoder_name() != label:
            raise AssertionError(f"expected the {label} decoder, got {json_decode.fast_decoder_name()}")
        check(value)

    return checked


def decoders() -> dict[str, Decoder]:
    """Each decoder ``json_decode`` can use on this machine, built by its own ``_choose``."""
    found = {}
    for label, absent in DECODERS.items():
        with hidden(absent):
            chosen = json_decode._choose()
        if chosen[0] == label.split(".")[0]:  # else that decoder is not installed: _choose fell back
            found[label] = chosen
    return found


# -- (o), (i): OpenAI ----------------------------------------------------------------------


def hand_tool_messages(message: Any, answers: dict[str, Callable[[str], Any]]) -> list[dict[str, Any]]:
    """The tool messages a careful person builds: each call's JSON arguments validated, run and the value dumped."""
    out = []
    for tool_call in message["tool_calls"]:
        function = tool_call["function"]
        try:
            content = json.dumps(answers[function["name"]](function["arguments"]))
        except Exception as exc:  # bad arguments or a failing tool: the model reads the error
            content = f"Error: {exc}"
        out.append({"role": "tool", "tool_call_id": tool_call["id"], "content": content})
    return out


def pydantic_answers() -> dict[str, Callable[[str], Any]]:
    """Each tool's ``TypeAdapter(fn).validate_json``: validates the JSON object as keyword arguments and calls."""
    from pydantic import TypeAdapter

    return {
        name: TypeAdapter(cast(Any, getattr(seed_tools, name))).validate_json for name in ("get_weather", "add_items")
    }


def msgspec_answers() -> dict[str, Callable[[str], Any]]:
    """Each tool behind a ``msgspec.json.Decoder`` of a Struct of its parameters (unknown fields refused)."""
    import msgspec

    weather = msgspec.json.Decoder(
        msgspec.defstruct("GetWeather", [("city", str), ("days", int, 3)], forbid_unknown_fields=True)
    ).decode
    items = msgspec.json.Decoder(
        msgspec.defstruct("AddItems", [("items", list[seed_tools.Item])], forbid_unknown_fields=True)
    ).decode

    def get_weather(text: str) -> Any:
        args = weather(text)
        return seed_tools.get_weather(args.city, args.days)

    def add_items(text: str) -> Any:
        return seed_tools.add_items(items(text).items)

    return {"get_weather": get_weather, "add_items": add_items}


def openai_contenders(name: str, arguments: str, result: Any) -> list[Contender]:
    """toolcall (default, SDK object, each decoder forced) and the hand-built peers answering one call of ``name``."""
    message = chat_message(name, arguments)
    base = {"message": message, "module": seed_tools, "tool_messages": toolcall.openai.tool_messages}
    stmt = "setattr(json_decode, '_CHOSEN', cell) or tool_messages(module, message)"
    check = same_json(chat_expected(result))
    default = json_decode._choose()
    ours = {**base, "json_decode": json_decode, "cell": forced(default)}
    by_default = decoding_with(default[0], check)
    found = [Contender("toolcall", stmt, ours, by_default)]
    if peers.installed("openai"):
        from openai.types.chat import ChatCompletionMessage

        sdk = ChatCompletionMessage.model_validate(message)
        found.append(Contender("toolcall SDK object", stmt, {**ours, "message": sdk}, by_default))
    for label, chosen in decoders().items():
        namespace = {**ours, "cell": forced(chosen)}
        found.append(Contender(f"toolcall [{label}]", stmt, namespace, decoding_with(chosen[0], check)))
    hand = {"message": message, "hand": hand_tool_messages}
    if peers.installed("pydantic"):
        answers = pydantic_answers()
        found.append(Contender("pydantic TypeAdapter", "hand(message, answers)", {**hand, "answers": answers}, check))
    if peers.installed("msgspec"):
        answers = msgspec_answers()
        found.append(Contender("msgspec Struct", "hand(message, answers)", {**hand, "answers": answers}, check))
    return found


def weather_contenders() -> list[Contender]:
    """(o): the weather tool."""
    return openai_contenders("get_weather", WEATHER_TEXT, seed_tools.WEATHER_RESULT)


def items_contenders() -> list[Contender]:
    """(i): the tool taking 10 TypedDicts."""
    return openai_contenders("add_items", ITEMS_TEXT, seed_tools.ITEMS_RESULT)


# -- (a): Anthropic ------------------------------------------------------------------------------


def sdk_tool_results(message: Any, tools: dict[str, Any]) -> dict[str, Any] | None:
    """The SDK tool runner's step over an SDK ``Message``: each ``tool_use`` run by ``beta_tool(fn).call``."""
    results = []
    for block in message.content:
        if block.type == "tool_use":
            results.append(sdk_result(block.id, tools[block.name], block.input))
    return {"role": "user", "content": results} if results else None


def dict_tool_results(message: Any, tools: dict[str, Any]) -> dict[str, Any] | None:
    """``sdk_tool_results`` over a plain-dict message."""
    results = []
    for block in message["content"]:
        if block["type"] == "tool_use":
            results.append(sdk_result(block["id"], tools[block["name"]], block["input"]))
    return {"role": "user", "content": results} if results else None


def sdk_result(tool_use_id: str, tool: Any, arguments: Any) -> dict[str, Any]:
    """One ``tool_result`` block: the value as JSON text, or the error flagged as the SDK's runner does."""
    try:
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": json.dumps(tool.call(arguments))}
    except Exception as exc:
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": repr(exc), "is_error": True}


def anthropic_contenders() -> list[Contender]:
    """(a): toolcall and the SDK's tool-runner step, each over a plain dict and over an SDK ``Message``."""
    message = anthropic_message()
    base = {"module": seed_tools, "tool_results": toolcall.anthropic.tool_results}
    stmt = "tool_results(module, message)"
    found = [Contender("toolcall", stmt, {**base, "message": message})]
    sdk: Any = None
    if peers.installed("anthropic"):
        from anthropic.lib.tools import beta_tool
        from anthropic.types import Message

        sdk = Message.model_validate(message)
        found.append(Contender("toolcall (SDK Message)", stmt, {**base, "message": sdk}))
        tools = {name: beta_tool(getattr(seed_tools, name)) for name in ("get_weather", "add_items")}
        peer = {"tools": tools, "message": message, "by_dict": dict_tool_results, "by_sdk": sdk_tool_results}
        found.append(Contender("anthropic beta_tool (dict)", "by_dict(message, tools)", peer))
        found.append(Contender("anthropic beta_tool (SDK Message)", "by_sdk(message, tools)", {**peer, "message": sdk}))
    check = same_json(anthropic_expected())
    return [Contender(c.name, c.stmt, c.namespace, check) for c in found]


# -- the stages of toolcall's OpenAI path ------------------------------------------------------------


def breakdown_contenders(name: str, arguments: str) -> list[Contender]:
    """toolcall's ``tool_messages`` for one call of ``name`` and each of its stages alone (default decoder)."""
    data = json_decode.decode_arguments(arguments)
    value = toolcall.run(seed_tools, name, data).value
    reply = plain(value)
    names = {
        "message": chat_message(name, arguments),
        "module": seed_tools,
        "name": name,
        "arguments": arguments,
        "data": data,
        "value": value,
        "reply": reply,
        "result": toolcall.Ok(value),
        "toolcall": toolcall,
        "tool_calls": tool_calls,
        "decode": json_decode.decode_arguments,
        "plain": plain,
        "json_text": json_text,
    }
    stages = {
        "whole tool_messages": "toolcall.openai.tool_messages(module, message)",
        "decode the arguments": "decode(arguments)",
        "run (bind, validate, call)": "toolcall.run(module, name, data)",
        "plain(value)": "plain(value)",
        "text_reply (plain + encode)": "tool_calls.text_reply(name, result)",
        "json_text (encode)": "json_text(reply)",
    }
    return [Contender(label, stmt, names) for label, stmt in stages.items()]


def breakdown_rows(case: str, results: Results) -> list[str]:
    """One row per stage, and what the stages leave of the whole: reading the message and building the reply."""
    whole = results["whole tool_messages"].median
    parts = ("decode the arguments", "run (bind, validate, call)", "text_reply (plain + encode)")
    rest = whole - sum(results[part].median for part in parts)
    rows = [f"| {case} | {label} | {run.duration(s.median)} | {s.median / whole:.0%} |" for label, s in results.items()]
    label = "the rest (reading the message, the message dict)"
    rows.append(f"| {case} | {label} | {run.duration(rest)} | {rest / whole:.0%} |")
    return rows


# -- targets and the command line ------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A case: its title, its contenders, and the contender its second ratio column is taken to."""

    title: str
    contenders: Callable[[], list[Contender]]
    reference: str


CASES = {
    "o": Case("(o) OpenAI weather", weather_contenders, "msgspec Struct"),
    "i": Case("(i) OpenAI 10 TypedDicts", items_contenders, "msgspec Struct"),
    "a": Case("(a) Anthropic 3 tool_use", anthropic_contenders, "anthropic beta_tool (SDK Message)"),
}


def at_most(text: str, results: Results, ours: str, other: str) -> run.Target:
    """Contender ``ours``'s median is at most ``other``'s."""
    if ours not in results or other not in results:
        return run.Target(text, None, f"{ours if ours not in results else other} not installed")
    mine, theirs = results[ours].median, results[other].median
    detail = f"{ours} {run.duration(mine)} vs {other} {run.duration(theirs)} ({mine / theirs:.2f}x)"
    return run.Target(text, mine <= theirs, detail)


def figure(results: Results, ours: str, other: str) -> str | None:
    """``ours``'s median as a multiple of ``other``'s, a figure with no target; None when one is missing."""
    if ours not in results or other not in results:
        return None
    mine, theirs = results[ours].median, results[other].median
    return f"{ours} / {other}: {mine / theirs:.2f}x ({run.duration(mine)} vs {run.duration(theirs)})"


def targets(results: dict[str, Results]) -> list[run.Target]:
    """With msgspec or orjson in use, toolcall is no slower than the pydantic path (each OpenAI case)."""
    found = []
    default = json_decode._choose()[0]
    for key in ("o", "i"):
        if key in results:
            case, title = results[key], CASES[key].title
            if default != "json":
                text = f"{title}: toolcall ({default}) no slower than pydantic"
                found.append(at_most(text, case, "toolcall", "pydantic TypeAdapter"))
            text = f"{title}: toolcall with orjson alone no slower than pydantic"
            found.append(at_most(text, case, "toolcall [orjson]", "pydantic TypeAdapter"))
    return found


FIGURES = {
    "o": (("toolcall", "msgspec Struct"), ("toolcall [json.loads]", "pydantic TypeAdapter")),
    "i": (("toolcall", "msgspec Struct"), ("toolcall [json.loads]", "pydantic TypeAdapter")),
    "a": (("toolcall", "anthropic beta_tool (dict)"), ("toolcall (SDK Message)", "anthropic beta_tool (SDK Message)")),
}


def figures(results: dict[str, Results]) -> list[str]:
    """The ratios reported without a target: to msgspec, json.loads alone to pydantic, toolcall to the SDK."""
    found = []
    for key, pairs in FIGURES.items():
        if key in results:
            lines = (figure(results[key], ours, other) for ours, other in pairs)
            found += [f"{CASES[key].title}: {line}" for line in lines if line is not None]
    return found


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds (CI size)")
    parser.add_argument("--check-only", action="store_true", help="only check every contender's output; no timing")
    parser.add_argument("--breakdown", action="store_true", help="also time the stages of toolcall's OpenAI path")
    parser.add_argument("--cases", default="oia", help="which cases to run, e.g. 'oi' (default: oia)")
    parser.add_argument(
        "--rounds-factor", type=run.rounds_factor, default=1, help="N times the rounds (a loaded machine)"
    )
    return parser.parse_args(argv)


def check_only(keys: str) -> int:
    """Run and check every contender once; 0 when all gave the expected messages."""
    for key, case in CASES.items():
        if key in keys:
            for contender in case.contenders():
                verify(contender)
                print(f"ok  {case.title}: {contender.name}")
            json_decode._CHOSEN = OWN_CELL
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen cases, print the tables and the targets."""
    options = parse(argv)
    warnings.simplefilter("ignore", toolcall.ToolcallWarning)  # findings are not what is timed
    for line in peers.skipped_peers(ADAPTER_PEERS):
        print(line)
    if options.check_only:
        return check_only(options.cases)
    settings = QUICK if options.quick else FULL
    rounds = settings.rounds * options.rounds_factor
    started = time.perf_counter()
    print(f"{run.machine_note()}; toolcall {run.revision()}; default decoder {json_decode._choose()[0]}")
    print(f"{'--quick' if options.quick else 'full run'}: {rounds} rounds of {run.duration(settings.sample_ns)}")
    results: dict[str, Results] = {}
    for key, case in CASES.items():
        if key in options.cases:
            results[key] = measure(case.contenders(), rounds, settings.sample_ns)
            json_decode._CHOSEN = OWN_CELL
            print(f"\n| case | implementation | median | IQR | x toolcall | x {case.reference} |")
            print("|---|---|---|---|---|---|")
            print("\n".join(run.table_rows(case.title, results[key], case.reference)), flush=True)
    if options.breakdown:
        print("\n| case | stage | median | of the whole |\n|---|---|---|---|")
        for title, name, arguments in (("(o)", "get_weather", WEATHER_TEXT), ("(i)", "add_items", ITEMS_TEXT)):
            found = measure(breakdown_contenders(name, arguments), rounds, settings.sample_ns)
            print("\n".join(breakdown_rows(title, found)), flush=True)
    print()
    for line in figures(results):
        print(f"      {line}")
    return run.report(targets(results), started)


if __name__ == "__main__":
    raise SystemExit(main())
