"""``python -m fuzz [TARGET ...] --seconds N``: drive each target's ``check`` over its ``inputs()``.

Run from the repository root. A target is a module ``fuzz/<name>.py`` that
defines ``inputs()`` and ``check(value)`` (a dotted name imports a module
from elsewhere); with no target named, every such module in ``fuzz/`` runs.
Hypothesis generates the inputs in batches, each with its own seed, until
the target's ``--seconds`` are spent. Each target gets one line: examples
run, failures, seconds. A failure shows the shrunk falsifying input, the
traceback and the command that replays the batch; an example that runs
longer than ``--hang`` seconds is reported with every thread's stack, and
the run stops there. Exit status: 0 when every target passed, 1 on any
failure or hang, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import os
import pkgutil
import random
import reprlib
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.strategies import SearchStrategy

#: Seconds a batch aims to take, so the budget is kept to within about that much.
_BATCH_SECONDS = 2.0
#: Characters of one line of a failure report (a falsifying input can be megabytes).
_LINE_LIMIT = 4000
#: Lines kept from each end of a long failure report.
_REPORT_LINES = 60


@dataclass
class Outcome:
    """What one target's session did."""

    examples: int = 0
    failures: int = 0
    seconds: float = 0.0
    report: str = ""


@dataclass(frozen=True)
class Options:
    """The command line, as the session uses it."""

    seconds: float
    seed: int
    examples: int | None
    hang: float
    database: ExampleDatabase | None


class Watchdog:
    """Ends the run when one example takes longer than ``bound`` seconds, showing what it was.

    A thread checks the running example's age and reports the target, the
    input, the command to replay it and every thread's stack, then exits 1.
    ``faulthandler`` backs it up for a hang that holds the GIL (and so stops
    that thread too): it dumps the stacks and exits a little later.
    """

    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.started: float | None = None
        self.value: Any = None
        self.replay = ""
        self._backstop_armed = 0.0
        threading.Thread(target=self._watch, name="fuzz-watchdog", daemon=True).start()

    def arm(self, value: Any, replay: str) -> None:
        """Start timing one example."""
        self.value, self.replay = value, replay
        now = self.started = time.monotonic()
        if now - self._backstop_armed > self.bound / 2:  # re-arming starts a thread: not for every example
            faulthandler.dump_traceback_later(2 * self.bound + 5, exit=True)
            self._backstop_armed = now

    def disarm(self) -> None:
        """The example finished."""
        self.started = None

    def stop(self) -> None:
        """No more examples: the backstop is cancelled (the next example arms it again)."""
        self.started = None
        self._backstop_armed = 0.0
        faulthandler.cancel_dump_traceback_later()

    def _watch(self) -> None:
        while True:
            time.sleep(min(0.25, self.bound / 4))
            started = self.started
            if started is not None and time.monotonic() - started > self.bound:
                self._report()
                os._exit(1)

    def _report(self) -> None:
        print(f"HANG: one example ran longer than {self.bound:g} s", flush=True)
        print(f"input: {_clip(_short_repr(self.value))}", flush=True)
        print(f"replay: {self.replay}", flush=True)
        faulthandler.dump_traceback(sys.stdout, all_threads=True)
        sys.stdout.flush()


def _short_repr(value: Any) -> str:
    shortened = reprlib.Repr()
    shortened.maxlevel, shortened.maxstring, shortened.maxother = 8, 400, 400
    shortened.maxlist = shortened.maxdict = shortened.maxtuple = shortened.maxset = 20
    try:
        return shortened.repr(value)
    except Exception as exc:  # a value whose repr fails even so
        return f"<{type(value).__name__}: repr raised {type(exc).__name__}>"


def _clip(line: str) -> str:
    return line if len(line) <= _LINE_LIMIT else f"{line[:_LINE_LIMIT]}… ({len(line)} characters)"


# -- one target ---------------------------------------------------------------------------------------------


def fuzz(name: str, target: ModuleType, options: Options, watchdog: Watchdog) -> Outcome:
    """Run ``target`` for its budget (or its fixed number of examples); what it did."""
    outcome = Outcome()
    start = time.monotonic()
    deadline = start + options.seconds
    batch, batch_seed = options.examples or 10, options.seed
    while outcome.failures == 0:
        took = time.monotonic()
        ran, failure = _batch(name, target, batch, batch_seed, options, watchdog, deadline)
        outcome.examples += ran
        if failure:
            outcome.failures, outcome.report = 1, failure
        took = time.monotonic() - took
        if options.examples is not None or time.monotonic() >= deadline:
            break
        if ran == batch:  # the next batch aims at the time a batch should take
            batch = max(1, min(10_000, int(batch * _BATCH_SECONDS / max(took, 1e-3))))
        batch_seed += 1
    outcome.seconds = time.monotonic() - start
    return outcome


def _batch(
    name: str,
    target: ModuleType,
    size: int,
    batch_seed: int,
    options: Options,
    watchdog: Watchdog,
    deadline: float,
) -> tuple[int, str]:
    """One Hypothesis run of ``size`` examples: how many were checked, and the failure report ("" if none)."""
    replay = f"python -m fuzz {name} --seed {batch_seed} --examples {size}"
    state = {"ran": 0, "failing": False}
    check: Callable[[Any], None] = target.check
    inputs: Callable[[], SearchStrategy[Any]] = target.inputs

    def check_one(value: Any) -> None:
        # Past the deadline the rest of the batch is skipped, unless a failure is being shrunk.
        if options.examples is None and not state["failing"] and time.monotonic() >= deadline:
            return
        watchdog.arm(value, replay)
        try:
            check(value)
        except BaseException:
            state["failing"] = True
            raise
        finally:
            watchdog.disarm()
            state["ran"] += 1

    test = given(inputs())(check_one)
    run: Callable[[], None] = seed(batch_seed)(_settings(size, options.database)(test))
    try:
        run()
    except Exception as exc:
        return int(state["ran"]), _failure_report(exc, replay)
    return int(state["ran"]), ""


def _settings(size: int, database: ExampleDatabase | None) -> settings:
    return settings(
        max_examples=size,
        database=database,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
        report_multiple_bugs=False,
        print_blob=True,
        verbosity=Verbosity.normal,
    )


def _failure_report(exc: BaseException, replay: str) -> str:
    lines = [_clip(line) for line in "".join(traceback.format_exception(exc)).splitlines()]
    if len(lines) > 2 * _REPORT_LINES:  # a recursion's thousand frames: the start and the end say enough
        lines[_REPORT_LINES:-_REPORT_LINES] = [f"  … {len(lines) - 2 * _REPORT_LINES} lines left out …"]
    return "\n".join([*lines, f"replay: {replay}"])


# -- the command line ------------------------------------------------------------------------------------------


def targets_here() -> list[str]:
    """The names of the modules in ``fuzz/`` (those that define ``inputs`` and ``check`` are the targets)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return sorted(m.name for m in pkgutil.iter_modules([here]) if not m.name.startswith("_"))


def load(name: str) -> ModuleType:
    """The target ``name``: ``fuzz.<name>``, or the module a dotted name names."""
    return importlib.import_module(name if "." in name else f"fuzz.{name}")


def is_target(module: ModuleType) -> bool:
    """Whether ``module`` defines ``inputs`` and ``check``."""
    return callable(getattr(module, "inputs", None)) and callable(getattr(module, "check", None))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="targets to run (default: every one in fuzz/)")
    parser.add_argument("--seconds", type=_positive, default=60.0, help="the budget of each target (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="the first batch's seed (default: random)")
    parser.add_argument("--examples", type=_count, default=None, help="run one batch of this many examples")
    parser.add_argument("--hang", type=_positive, default=60.0, help="seconds one example may take (default 60)")
    parser.add_argument("--database", default=None, help="a directory to keep failing examples in, replayed first")
    return parser


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a positive count: {text}")
    return value


def _resolve(parser: argparse.ArgumentParser, names: list[str]) -> list[tuple[str, ModuleType | str]]:
    """Each target with its module, or with why it cannot run; an unknown name is a usage error."""
    known = targets_here()
    unknown = [n for n in names if "." not in n and n not in known]
    if unknown:
        parser.error(f"no such target: {', '.join(unknown)} (the targets are: {', '.join(known)})")
    found: list[tuple[str, ModuleType | str]] = []
    for name in names or known:
        try:
            module = load(name)
        except Exception as exc:
            found.append((name, f"cannot import: {type(exc).__name__}: {exc}"))
            continue
        if is_target(module):
            found.append((name, module))
        elif names:
            parser.error(f"{name} defines no inputs() and check()")
    return found


def _session(name: str, target: ModuleType, options: Options, watchdog: Watchdog) -> Outcome:
    setup, teardown = getattr(target, "setup", None), getattr(target, "teardown", None)
    if callable(setup):
        setup()
    try:
        return fuzz(name, target, options, watchdog)
    finally:
        if callable(teardown):
            teardown()


def _summary(outcome: Outcome) -> str:
    failures = "1 failure" if outcome.failures == 1 else f"{outcome.failures} failures"
    return f"{outcome.examples} examples, {failures}, {outcome.seconds:.1f} s"


def main(argv: list[str] | None = None) -> int:
    """Run the targets; the exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    database = DirectoryBasedExampleDatabase(arguments.database) if arguments.database else None
    first_seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(2**32)
    options = Options(arguments.seconds, first_seed, arguments.examples, arguments.hang, database)
    watchdog = Watchdog(options.hang)
    failed = False
    for name, target in _resolve(parser, arguments.targets):
        if isinstance(target, str):
            print(f"{name}: {_summary(Outcome(failures=1))}; {target}", flush=True)
            failed = True
            continue
        outcome = _session(name, target, options, watchdog)
        watchdog.stop()
        print(f"{name}: {_summary(outcome)}", flush=True)
        if outcome.report:
            print(outcome.report, flush=True)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
