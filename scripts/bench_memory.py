#!/usr/bin/env python3
"""Prompt size as a conversation grows: compaction keeps the context bounded.

A scripted conversation (the Anchor, a guest and the assistant; facts with names, dates and
numbers) is written through the real store, one message at a time. After every assistant
reply compaction runs as the product runs it (``compact_due`` with the context budget, so
the archive is built too), against the fake Ollama server answering at once with a
realistic conservative summary. At each checkpoint the context is built as Phase 1 would
build it and its size is estimated: summary block + transcript, next to what the whole
raw transcript would cost. Then the cost of compaction itself: model calls, prompt and eval
tokens per compaction (as the server counted them) and milliseconds per compaction (with a
model that answers at once this is tatlock's own overhead: SQLite, claims and HTTP).

    scripts/bench memory [--messages 20,100,300] [--interval N] [--budget TOKENS]

With ``--month PATH``: the end-to-end part instead (``scripts/memory_month.py``): a month of
conversations in which facts are told (some corrected later), then questions in new
conversations; facts captured, facts in the answering prompt, right answers, with the fake
server or a real model (``--local-llm [URL]``).

    scripts/bench memory --month [PATH] [--local-llm [URL]] [-v] [--json] [--questions A-B --save FILE]
    scripts/bench memory --month [PATH] --merge FILE... [-v]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake servers are test support, not shipped code

from support.fake_ollama import FakeOllama  # noqa: E402
from tatlock.butler import Butler  # noqa: E402
from tatlock.config import Config, Paths  # noqa: E402
from tatlock.events import CompactionFailed, CompactionFinished  # noqa: E402
from tatlock.hardware import TIERS  # noqa: E402
from tatlock.llm.ollama import OllamaBackend  # noqa: E402
from tatlock.memory import context  # noqa: E402
from tatlock.memory.compaction import compact_due  # noqa: E402
from tatlock.memory.context import history_line  # noqa: E402
from tatlock.memory.tokens import Estimator  # noqa: E402
from tatlock.store.user import Author  # noqa: E402
from tatlock.timeutil import iso  # noqa: E402

ALICE = Author("alice", "Alice", is_anchor=True)
MARIA = Author("maria", "Maria")
BUTLER = Author.assistant()

CITIES = ["Lyon", "Porto", "Vienna", "Oslo", "Seville", "Krakow", "Ghent", "Turin"]
NAMES = ["Maria", "Tom", "Priya", "Jonas", "Aiko", "Lena", "Omar", "Ruth"]
FACTS = {
    "travel": [
        "My flight {code} to {city} leaves on {date} at {time}.",
        "I booked the Hotel {name} in {city} for {n} nights at {price} EUR a night.",
        "Can you remind me to check in for {code} the day before {date}?",
    ],
    "family": [
        "My sister {name} turns {age} on {date}; she wants a {thing}.",
        "{name}'s school play is on {date} at {time}, at the town hall.",
        "Should I order the cake for {name} from the bakery on Rue {city}?",
    ],
    "work": [
        "The {project} deadline moved to {date}; {name} is reviewing it.",
        "My manager {name} wants the quarterly report ({n} pages) by {date}.",
        "Could you draft the agenda for the {project} meeting on {date}?",
    ],
    "health": [
        "My dentist appointment is on {date} at {time} with Dr {name}.",
        "I ran {n} km this morning in {mins} minutes.",
        "What was the dose Dr {name} prescribed, {n} mg twice a day?",
    ],
    "home": [
        "The boiler service costs {price} EUR; the engineer {name} comes on {date}.",
        "My locker code at the gym is {code4}.",
        "Remind me to pay the {price} EUR council tax before {date}?",
    ],
    "tech": [
        "My laptop runs Python 3.{n} and the backup goes to /mnt/backup/{project}.",
        "The NAS is a model DS{code4} with {n} TB; firmware 7.{mins}.",
        "Why does `rsync -av /home /mnt/backup` fail with 'permission denied' on {date}?",
    ],
}
GUEST = [
    "Hello, Maria here. I will pick Alice up at {time} on {date}.",
    "The restaurant {name}'s table is booked for {n} people.",
    "I lent Alice {price} EUR for the {city} trip.",
]
REPLIES = [
    "Very good, sir. I have noted that {gist}.",
    "Noted, sir: {gist}. Shall I set a reminder?",
    "Certainly, sir. {gist}, as you say.",
    "I shall remember that {gist}, sir.",
]


def fill(template: str, rng: random.Random, day: dt.date) -> str:
    return template.format(
        code=f"{rng.choice(['AF', 'LH', 'TP', 'OS'])}{rng.randint(100, 999)}",
        city=rng.choice(CITIES),
        date=(day + dt.timedelta(days=rng.randint(2, 60))).isoformat(),
        time=f"{rng.randint(6, 21):02d}:{rng.choice(['00', '15', '30', '45'])}",
        name=rng.choice(NAMES),
        n=rng.randint(2, 14),
        price=rng.randint(40, 900),
        age=rng.randint(20, 70),
        thing=rng.choice(["telescope", "kayak", "cookbook", "record player"]),
        mins=rng.randint(20, 70),
        project=rng.choice(["Atlas", "Heron", "Juniper"]),
        code4=rng.randint(1000, 9999),
    )


def script(n: int, seed: int = 7) -> list[tuple[Author, str, str]]:
    """n messages alternating user / assistant: (author, role, text)."""
    rng = random.Random(seed)
    day = dt.date(2026, 11, 2)
    out: list[tuple[Author, str, str]] = []
    topic = "travel"
    for i in range(1, n + 1):
        if i % 2:
            if i % 12 == 1:
                topic = rng.choice(list(FACTS))
            if i % 11 == 0:
                out.append((MARIA, "user", fill(rng.choice(GUEST), rng, day)))
            else:
                out.append((ALICE, "user", fill(rng.choice(FACTS[topic]), rng, day)))
        else:
            said = out[-1][2].rstrip("?.")
            gist = said[0].lower() + said[1:] if said else said
            out.append((BUTLER, "assistant", rng.choice(REPLIES).format(gist=gist)))
    return out


# -- the fake model's summaries --------------------------------------------------------------

LINE_RE = re.compile(r"^\[#(\d+) (\S+) [^\]]+\] (Anchor \((\w+)\)|Assistant|[^:]+): (.*)$", re.M)


def _cap(lines: list[str], words: int) -> list[str]:
    out, used = [], 0
    for line in lines:
        n = len(line.split())
        if used + n > words:
            break
        out.append(line)
        used += n
    return out


def fake_summary(prompt: str) -> str:
    """A conservative summary of about 150-250 words, built from the transcript it was given."""
    m = re.search(r"Summarise messages (\d+) to (\d+)", prompt)
    if m:
        transcript = prompt[prompt.rindex("Transcript (") :]
        rows = LINE_RE.findall(transcript)
        user = [
            (num, date, name or speaker, text)
            for num, date, speaker, name, text in rows
            if speaker != "Assistant"
        ]
        topics = sorted(
            {
                t
                for t, templates in FACTS.items()
                for _, _, _, text in user
                for tpl in templates
                if tpl.split("{")[0][:12] in text
            }
        )[:5]
        facts = [f"- {who}: {text}" for _, _, who, text in user if not text.endswith("?")]
        open_items = [
            f"- [UNRESOLVED] {who} asked: {text} (#{num})"
            for num, _, who, text in user
            if text.endswith("?")
        ]
        timeline = [
            f"- #{num} ({date}): {who} {text[:60].rstrip()}"
            for num, date, who, text in user[:: max(1, len(user) // 4)]
        ]
        tech = [line for line in facts if re.search(r"`|/mnt|Python|firmware|DS\d", line)]
        body = {
            "TOPICS DISCUSSED": [f"- {t}" for t in topics] or ["- none"],
            "FACTUAL TIMELINE": _cap(timeline, 45) or ["- none"],
            "KEY FACTS ESTABLISHED": _cap(facts, 120) or ["- none"],
            "UNRESOLVED ITEMS": _cap(open_items, 40) or ["- none"],
            "TECHNICAL DETAILS": _cap(tech, 25) or ["- none"],
        }
        return "\n\n".join(f"{k}\n" + "\n".join(v) for k, v in body.items())
    m = re.search(r"Aim for at most (\d+) words", prompt)
    if (
        m
    ):  # archive: merge the records, keeping the newest lines of each section within the word limit
        words = int(m.group(1))
        records = prompt[prompt.rindex("Records to merge") :]
        sections: dict[str, list[str]] = {}
        current = None
        for line in records.splitlines():
            if line.strip() in (
                "TOPICS DISCUSSED",
                "FACTUAL TIMELINE",
                "KEY FACTS ESTABLISHED",
                "UNRESOLVED ITEMS",
                "TECHNICAL DETAILS",
            ):
                current = line.strip()
                sections.setdefault(current, [])
            elif (
                current
                and line.startswith("- ")
                and line != "- none"
                and line not in sections[current]
            ):
                sections[current].append(line)
        share = {
            "TOPICS DISCUSSED": 0.05,
            "FACTUAL TIMELINE": 0.15,
            "KEY FACTS ESTABLISHED": 0.55,
            "UNRESOLVED ITEMS": 0.15,
            "TECHNICAL DETAILS": 0.1,
        }
        return "\n\n".join(
            f"{k}\n"
            + "\n".join(_cap(sections.get(k, [])[::-1], int(words * s))[::-1] or ["- none"])
            for k, s in share.items()
        )
    return "OK"


# -- the run ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    low = TIERS["low"]
    ap = argparse.ArgumentParser(
        prog="scripts/bench memory",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--messages",
        default="20,100,300",
        help="checkpoints: conversation lengths at which the context is measured (default 20,100,300)",
    )
    ap.add_argument(
        "--interval",
        type=int,
        default=low.compact_interval,
        help=f"compaction interval in messages (default {low.compact_interval}, the low tier's)",
    )
    ap.add_argument(
        "--budget",
        type=int,
        default=low.context_size,
        help=f"context budget in tokens (default {low.context_size}, the low tier's)",
    )
    ap.add_argument("--seed", type=int, default=7, help="seed of the scripted conversation")
    ap.add_argument(
        "--month",
        nargs="?",
        type=Path,
        const=ROOT / "tests" / "data" / "facts" / "facts_month_train.json",
        metavar="PATH",
        help="the end-to-end month instead (default tests/data/facts/facts_month_train.json)",
    )
    ap.add_argument(
        "--local-llm",
        nargs="?",
        const="http://127.0.0.1:18080/v1",
        metavar="URL",
        help="with --month: ask the questions of a real model (an OpenAI-compatible /v1 URL, or an "
        "Ollama host; default http://127.0.0.1:18080/v1)",
    )
    ap.add_argument(
        "--model", default="local", help="with --local-llm: the model's name (default local)"
    )
    ap.add_argument(
        "--timeout", type=float, default=180, help="with --local-llm: seconds per model call"
    )
    ap.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="with --month: every kept fact, question and answer",
    )
    ap.add_argument("--json", action="store_true", help="with --month: the results as JSON")
    ap.add_argument(
        "--questions",
        metavar="A-B",
        help="with --month: ask only questions A to B (e.g. 1-10: a slow "
        "model asked in parts, each --save'd, then --merge'd)",
    )
    ap.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="with --month: also write the results as JSON to FILE",
    )
    ap.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="with --month: report the parts saved with --save together (nothing is run)",
    )
    args = ap.parse_args(argv)
    if args.month is not None:
        import memory_month

        return memory_month.run(
            args.month,
            url=args.local_llm,
            model=args.model,
            timeout=args.timeout,
            verbose=args.verbose,
            as_json=args.json,
            questions=args.questions,
            save=args.save,
            merge=args.merge,
        )
    try:
        checkpoints = sorted({int(x) for x in args.messages.split(",") if x.strip()})
    except ValueError:
        ap.error(f"--messages must be numbers separated by commas, not {args.messages!r}")
    if not checkpoints or checkpoints[0] < 1 or args.interval < 1 or args.budget < 256:
        ap.error("--messages, --interval must be positive and --budget at least 256")

    est = Estimator()
    finished: list[CompactionFinished] = []
    failed: list[CompactionFailed] = []

    def emit(event) -> None:
        if isinstance(event, CompactionFinished):
            finished.append(event)
        elif isinstance(event, CompactionFailed):
            failed.append(event)

    rows = []
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tatlock-bench-") as tmp, FakeOllama() as fake:
        fake.handler = lambda body: fake_summary(body["messages"][-1]["content"])
        root = Path(tmp)
        paths = Paths(root, root, root / "logs")
        backend = OllamaBackend(fake.url, low.model, timeout=30)
        cfg = Config(
            paths=paths, user="alice", model=low.model, tier="low", context_size=args.budget
        )
        butler = Butler(cfg, backend=backend)
        store = butler.store
        conv = store.create_conversation("bench", "cli").id
        t0 = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)
        raw_tokens = 0
        for i, (author, role, text) in enumerate(script(checkpoints[-1], args.seed), start=1):
            m = store.add_message(
                conv, role, text, author, timestamp=iso(t0 + dt.timedelta(minutes=3 * i))
            )
            raw_tokens += est.text(history_line(m)) + 1
            if role == "assistant":  # after each reply, as the butler schedules it
                compact_due(
                    store,
                    backend,
                    conv,
                    interval=args.interval,
                    emit=emit,
                    budget_tokens=args.budget,
                    estimator=est,
                )
            if i in checkpoints:
                ctx = context.build(store, conv, budget_tokens=args.budget, estimator=est)
                summary = est.text(ctx.summary_block()) if ctx.summary_block() else 0
                transcript = est.text(ctx.transcript()) if ctx.messages else 0
                # the whole Phase 1 request the butler would send for the latest user message
                last_user = next(x for x in reversed(store.messages(conv)) if x.role == "user")
                phase1 = est.messages(butler.assess_request(last_user))
                rows.append(
                    (
                        i,
                        len(store.compacts(conv)),
                        ctx.archive_up_to,
                        len(ctx.compacts),
                        len(ctx.messages),
                        summary,
                        transcript,
                        phase1,
                        raw_tokens,
                    )
                )
        requests = [b["messages"][-1]["content"] for b in fake.chat_requests]
        archive_calls = sum("Records to merge" in p for p in requests)
        butler.close()
    elapsed = time.perf_counter() - t_start

    print(
        f"tatlock memory bench: {checkpoints[-1]} messages, compaction every {args.interval}, "
        f"context budget {args.budget} tokens (summary share {context.SUMMARY_SHARE:.0%} = "
        f"{int(args.budget * context.SUMMARY_SHARE)} tokens)"
    )
    print()
    head = (
        "messages",
        "compacts",
        "archive",
        "in ctx",
        "raw msgs",
        "summary tok",
        "transcript tok",
        "phase1 tok",
        "no compaction",
    )
    print("{:>8} {:>8} {:>8} {:>6} {:>8} {:>11} {:>14} {:>10} {:>13}".format(*head))
    for n, total, archive, shown, raw, s, t, p, full in rows:
        print(
            f"{n:>8} {total:>8} {('1-' + str(archive)) if archive else '-':>8} {shown:>6} {raw:>8} {s:>11} "
            f"{t:>14} {p:>10} {full:>13}"
        )
    print(
        "  (compacts: stored; archive: messages merged into the archive; in ctx: compacts shown verbatim;"
    )
    print(
        "   raw msgs: uncompacted messages in the prompt; phase1 tok = the whole Phase 1 request (persona,"
    )
    print("   guard instructions, tools, summaries, transcript, question) as the butler builds it;")
    print("   no compaction = the raw transcript alone)")
    print()
    n = len(finished)
    print(
        f"compaction cost: {n} compactions, {n + len(failed)} compaction calls + {archive_calls} archive calls "
        f"= {len(requests)} model calls, {len(failed)} failed"
    )
    if n:
        pt = [e.prompt_tokens or 0 for e in finished]
        et = [e.eval_tokens or 0 for e in finished]
        ms = [e.ms for e in finished]
        print(
            f"  prompt tokens per compaction: mean {statistics.mean(pt):.0f} (min {min(pt)}, max {max(pt)})"
        )
        print(
            f"  eval tokens per compaction:   mean {statistics.mean(et):.0f} (min {min(et)}, max {max(et)})"
        )
        print(
            f"  ms per compaction (model answers at once: tatlock's overhead): mean {statistics.mean(ms):.1f} "
            f"(min {min(ms):.1f}, max {max(ms):.1f})"
        )
    print(f"total run: {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
