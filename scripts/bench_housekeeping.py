#!/usr/bin/env python3
"""Housekeeping off the user's time: how long the user waits for an answer when a summary is due.

Three kinds of answer, each measured as the user waits for it:

* ``ordinary``: a follow-up in a conversation with nothing due;
* ``new``: the first answer of a new conversation, with earlier conversations to brief on (once, a
  model call for the briefing came first: 44-140 s on SmolLM2);
* ``due``: an answer in a conversation due for compaction (the block became due with the turn
  before; once, `tatlock ask` waited for the compaction at its end, and a failed one was tried
  again before every answer).

Each is measured two ways: the time to the answer through the Python API in a long-lived process
(as the TUI, `chat` and MCP have it: ``butler.ask`` returning ``TurnFinished``), and the wall time
of a `tatlock ask` process (start to exit). The default model is the fake server of the tests with
every summary (compaction, briefing) taking ``--delay`` seconds (8, as issue 18 states its case),
the answers at once; ``--local-llm [URL]`` uses a real small model instead (SmolLM2 via
../shared/tools/local-llm), whose summaries are as slow as they are. The figures are medians of
``--runs`` runs; "+ms" is the difference from the ordinary answer (issue 18: within 1.5 s).

    scripts/bench housekeeping [--runs 5] [--delay 8] [--json]
    scripts/bench housekeeping --local-llm [URL] [--runs 2] [--json]

Detached housekeepers started by the `tatlock ask` runs are ended at the end (by the pid they
record). Progress goes to stderr; the table to stdout; ``--json`` adds one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake server is test support, not shipped code

from support.fake_ollama import FakeOllama  # noqa: E402
from support.replies import direct, phase_of  # noqa: E402

INTERVAL = 4  # a block is due every 4 messages (2 turns), so every run meets one
DEFAULT_LOCAL_URL = "http://127.0.0.1:18080/v1"
EXE = Path(sys.executable).parent / "tatlock"
SUMMARY = (
    "TOPICS DISCUSSED\n- the garden\n\nFACTUAL TIMELINE\n- #1: Alice spoke of the roses\n\n"
    "KEY FACTS ESTABLISHED\n- Alice: the roses need pruning in March\n\nUNRESOLVED ITEMS\n- none\n\n"
    "TECHNICAL DETAILS\n- none"
)
BRIEFING = (
    "Recent Highlights\n- Alice said the roses need pruning in March.\n\nPatterns Across Sessions\n"
    "- Alice asks about the garden.\n\nCurrent Context\n- the roses"
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def fake_model(delay: float) -> Callable[[dict], Any]:
    def reply(body: dict) -> Any:
        phase = phase_of(body)
        if phase in ("summary", "cross_summary"):
            time.sleep(
                delay
            )  # the summariser of issue 18: 8 s (the fake serves each request on a thread)
            return SUMMARY if phase == "summary" else BRIEFING
        return direct("Prune them in March, madam.", topics=("garden",))

    return reply


def environment(home: Path, args: argparse.Namespace, fake: FakeOllama | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TATLOCK_", "OLLAMA_"))}
    env.update(
        TATLOCK_HOME=str(home),
        TATLOCK_USER="alice",
        TATLOCK_TIER="low",
        TATLOCK_HOUSEKEEPING="background",
        TATLOCK_COMPACT_INTERVAL=str(INTERVAL),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    if fake is not None:
        env.update(OLLAMA_HOST=fake.url, TATLOCK_MODEL="llama3.2:3b", TATLOCK_TIMEOUT="60")
    else:
        env.update(
            TATLOCK_BACKEND="openai",
            TATLOCK_BASE_URL=args.local_llm,
            TATLOCK_MODEL="local",
            TATLOCK_TIMEOUT="300",
        )
    return env


QUESTIONS = [
    "When should I prune the roses?",
    "And the apple tree?",
    "What about the hedge?",
    "Should I feed the lawn?",
    "When do tulips go in?",
    "Is it too late for sweet peas?",
]


def api_runs(home: Path, env: dict[str, str], runs: int) -> dict[str, list[float]]:
    """Time to the answer through the Python API, in one long-lived process (its housekeeping
    thread busy with the summaries meanwhile)."""
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    import tatlock

    out: dict[str, list[float]] = {"ordinary": [], "new": [], "due": []}
    try:
        with tatlock.open() as butler:
            butler.ask("My roses need pruning in March.")  # an earlier conversation to brief on
            for i in range(runs):
                q = QUESTIONS[i % len(QUESTIONS)]
                t0 = time.perf_counter()
                first = butler.ask(
                    q, new=True
                )  # new: with earlier conversations, none prepared for it yet
                out["new"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                butler.ask(
                    "Thank you.", conversation_id=first.conversation_id
                )  # messages 3-4: a block is due
                out["ordinary"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                butler.ask(
                    "And in autumn?", conversation_id=first.conversation_id
                )  # while it is compacted
                out["due"].append(time.perf_counter() - t0)
                log(
                    f"  api run {i + 1}: new {out['new'][-1]:.2f} s, ordinary {out['ordinary'][-1]:.2f} s,"
                    f" due {out['due'][-1]:.2f} s"
                )
    finally:
        os.environ.clear()
        os.environ.update(old)
    return out


def ask(env: dict[str, str], *args: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(
        [str(EXE), "ask", *args], env=env, capture_output=True, text=True, timeout=900
    )
    took = time.perf_counter() - t0
    if p.returncode != 0:
        log(f"  ask {' '.join(args)!r} failed ({p.returncode}): {p.stderr.strip()[:200]}")
    return took, p.stderr.strip()


def cli_runs(home: Path, env: dict[str, str], runs: int) -> dict[str, list[float]]:
    """Wall time of `tatlock ask` processes, start to exit."""
    out: dict[str, list[float]] = {"ordinary": [], "new": [], "due": []}
    ask(env, "My roses need pruning in March.")
    for i in range(runs):
        took, _ = ask(
            env, "--new", QUESTIONS[i % len(QUESTIONS)]
        )  # messages 1-2 of a new conversation
        out["new"].append(took)
        took, said = ask(env, "Thank you.")  # messages 3-4: the block is due when it ends
        out["ordinary"].append(took)
        took, _ = ask(env, "And in autumn?")  # while it is compacted (or was, by a housekeeper)
        out["due"].append(took)
        log(
            f"  ask run {i + 1}: new {out['new'][-1]:.2f} s, ordinary {out['ordinary'][-1]:.2f} s,"
            f" due {out['due'][-1]:.2f} s{(' (' + said + ')') if said else ''}"
        )
    return out


def end_housekeepers(home: Path) -> None:
    for path in home.glob("users/*/housekeeping.pid"):
        try:
            pid = int(path.read_text().strip())
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"tatlock.memory.detached" in fh.read():
                    os.kill(pid, signal.SIGTERM)
        except (OSError, ValueError):
            pass


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--runs", type=int, default=None, help="runs per measurement (5; 2 with --local-llm)"
    )
    ap.add_argument(
        "--delay", type=float, default=8.0, help="seconds each summary takes on the fake server"
    )
    ap.add_argument("--local-llm", nargs="?", const=DEFAULT_LOCAL_URL, default=None, metavar="URL")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = args.runs or (2 if args.local_llm else 5)
    fake = None if args.local_llm else FakeOllama(handler=fake_model(args.delay)).start()
    results: dict[str, Any] = {
        "model": args.local_llm or f"fake server, summaries {args.delay:g} s",
        "runs": runs,
    }
    try:
        for way, measure in (("api", api_runs), ("ask", cli_runs)):
            with tempfile.TemporaryDirectory(prefix="tatlock-bench-hk-") as tmp:
                home = Path(tmp)
                log(f"{way}: {runs} runs in {home}")
                try:
                    results[way] = measure(home, environment(home, args, fake), runs)
                finally:
                    end_housekeepers(home)
    finally:
        if fake is not None:
            fake.stop()
    print(
        f"Housekeeping: the wait for an answer when a summary is due ({results['model']}; "
        f"median of {runs} runs; compaction every {INTERVAL} messages)"
    )
    print(
        f"  {'answer':<34}{'API: to the answer':>20}{'+ms':>8}{'ask: process wall':>20}{'+ms':>8}"
    )
    names = {
        "ordinary": "ordinary (nothing due)",
        "new": "first of a new conversation",
        "due": "due for compaction",
    }
    for kind in ("ordinary", "new", "due"):
        api, cli = med(results["api"][kind]), med(results["ask"][kind])
        dapi = (api - med(results["api"]["ordinary"])) * 1000
        dcli = (cli - med(results["ask"]["ordinary"])) * 1000
        print(f"  {names[kind]:<34}{api:>19.2f}s{dapi:>+8.0f}{cli:>19.2f}s{dcli:>+8.0f}")
    worst = max(
        abs(med(results[w][k]) - med(results[w]["ordinary"]))
        for w in ("api", "ask")
        for k in ("new", "due")
    )
    print(
        f"  largest difference from an ordinary answer: {worst * 1000:.0f} ms (issue 18 asks for at most 1,500 ms)"
    )
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
