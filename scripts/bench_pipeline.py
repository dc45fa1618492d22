#!/usr/bin/env python3
"""What one message costs in tatlock's pipeline beside the model itself, and what a real small model adds.

Default mode (no network beyond loopback; a temporary TATLOCK_HOME per history size): the
fake Ollama server answers every call at once, scripted per request kind (Phase 1 JSON,
tool calls, answers, compaction and cross-conversation summaries). For each history size
(messages already stored for the user: one big conversation and three smaller ones, written
through the store with varied text from the Anchor, two guests, a calendar bot and the
assistant) the bench runs N DIRECT turns in the big conversation and N in fresh ones (``new``,
which also adopts the briefing prepared in the background; each is deleted after its turn so every one
starts after the same history) and reports the turn's wall time minus the time spent inside
model calls (``backend.chat`` wrapped; the time spent in the pipeline's own per-token callbacks
is counted as overhead, not model time), split by time window (before the first call, between
calls, after the last, inside the token callback) and by component (a few pipeline functions
wrapped from the bench: storing messages, the memory context, adopting the briefing,
the quality rules, the debug log, the compaction check, the tools). Then, per route (DIRECT,
CAPABILITY_GUARD identity, TOOLS_NEEDED with get_current_datetime, MIXED with the weather tool
against a loopback fake Open-Meteo): model calls per message and prompt tokens per call, from
the fake server's recorded requests and from the pipeline's own phase counts.

``--history compacted`` (default) gives every conversation the state compaction keeps it in:
a compact for every full block (the low tier's interval, 40) and an archive of all but the
newest compact. ``--history raw`` stores only the messages and disables compaction while
measuring, so every uncompacted message goes into every prompt.

``--local-llm [URL]``: the same pipeline against a real small model (SmolLM2-135M served by
llama.cpp, OpenAI-compatible API; see ../shared/tools/local-llm), per route: prompt tokens,
tokens the server actually evaluated, JSON tokens before the answer, time to the first answer
token, a follow-up turn's evaluated tokens; then the first-byte race of `tatlock ask` against a
bare streaming client (see scripts/bench_local.py).

    scripts/bench pipeline [--sizes 0,10000,100000] [--turns 30] [--where both|big|new] [--json]
    scripts/bench pipeline --local-llm [URL] [--runs 2] [--race 5] [--json]

Progress goes to stderr; results to stdout as tables; with ``--json`` the last stdout line is
one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import itertools
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake servers are test support, not shipped code

from support.fake_ollama import FakeOllama, estimate_prompt_tokens  # noqa: E402
from tatlock import config as tconfig  # noqa: E402
from tatlock.butler import Butler  # noqa: E402
from tatlock.events import (  # noqa: E402
    AnswerReplaced,
    AnswerToken,
    ConversationReady,
    ErrorEvent,
    ToolResult,
    TurnFinished,
)
from tatlock.hardware import TIERS  # noqa: E402
from tatlock.memory.context import SUMMARY_SHARE  # noqa: E402
from tatlock.store import db  # noqa: E402
from tatlock.store.user import Author, UserStore, _title  # noqa: E402
from tatlock.timeutil import iso  # noqa: E402

USER = "alice"
LOW = TIERS["low"]
FAKE_MODEL = "llama3.2:3b"
DEFAULT_LOCAL_URL = "http://127.0.0.1:18080/v1"
_SCRUB = ("TATLOCK_", "OLLAMA_")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float | None:
    """The p-th percentile (nearest rank, linear between ranks); None for no values."""
    if not values:
        return None
    xs = sorted(values)
    k = (len(xs) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def f1(x: float | None, nd: int = 1) -> str:
    return "-" if x is None else f"{x:.{nd}f}"


def table(headers: list[str], rows: list[list[Any]], left: int = 1) -> None:
    """Print an aligned table: the first ``left`` columns left-aligned, the rest right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
        ).rstrip()

    print(line(cells[0]))
    print("  ".join("-" * w for w in widths))
    for r in cells[1:]:
        print(line(r))


# -- the environment: an isolated TATLOCK_HOME, none of the developer's settings ----------------


def isolate_env(home: Path, **extra: str) -> None:
    for key in list(os.environ):
        if key.startswith(_SCRUB):
            del os.environ[key]
    os.environ.update(
        {
            "TATLOCK_HOME": str(home),
            "TATLOCK_USER": USER,
            "TATLOCK_TIER": "low",  # the defaults of a 2-core box, whatever the machine
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            **extra,
        }
    )


# -- model time: backend.chat wrapped -------------------------------------------------------------


@dataclass
class CallTiming:
    start: float
    end: float
    callbacks_s: float  # time inside the pipeline's on_token callback during this call
    first_piece: float | None


class TimedBackend:
    """Passes every call through; records when each call of a turn ran. Calls from the
    background compactor threads are not the turn's and are kept apart."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.model = inner.model
        self.where = inner.where
        self._lock = threading.Lock()
        self.calls: list[CallTiming] = []
        self.background_calls = 0

    def reset(self) -> None:
        with self._lock:
            self.calls = []

    def chat(self, messages, **kw):
        background = threading.current_thread().name.startswith("tatlock-compactor")
        on_token = kw.get("on_token")
        spent = [0.0]
        first: list[float] = []
        if on_token is not None:

            def timed(piece: str) -> None:
                t = time.perf_counter()
                if not first:
                    first.append(t)
                try:
                    on_token(piece)
                finally:
                    spent[0] += time.perf_counter() - t

            kw["on_token"] = timed
        t0 = time.perf_counter()
        try:
            return self.inner.chat(messages, **kw)
        finally:
            t1 = time.perf_counter()
            with self._lock:
                if background:
                    self.background_calls += 1
                else:
                    self.calls.append(CallTiming(t0, t1, spent[0], first[0] if first else None))

    @property
    def model_s(self) -> float:
        return sum(c.end - c.start - c.callbacks_s for c in self.calls)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Probes:
    """Times a few pipeline functions from the bench (wrapped in place, restored by ``undo``), so
    the overhead can be split by component. Only the turn's threads count (not the compactor's)."""

    COMPONENTS = ("store", "context", "cross", "quality", "debuglog", "compaction_check")

    def __init__(self) -> None:
        self.spans: dict[str, list[tuple[float, float]]] = {}
        self._undo: list[tuple[Any, str, Any]] = []
        self._lock = threading.Lock()

    def wrap(self, owner: Any, attr: str, name: str) -> None:
        orig = getattr(owner, attr, None)
        if orig is None:  # renamed since this bench was written: that component reads 0
            log(f"bench: cannot time {getattr(owner, '__name__', owner)}.{attr} (not found)")
            return
        probes = self

        def timed(*a: Any, **k: Any) -> Any:
            if threading.current_thread().name.startswith(
                ("tatlock-compactor", "tatlock-housekeeping")
            ):
                return orig(*a, **k)
            t0 = time.perf_counter()
            try:
                return orig(*a, **k)
            finally:
                t1 = time.perf_counter()
                with probes._lock:
                    probes.spans.setdefault(name, []).append((t0, t1))

        setattr(owner, attr, timed)
        self._undo.append((owner, attr, orig))

    def install(self) -> Probes:
        from tatlock import butler as butler_mod
        from tatlock.debuglog import DebugLog
        from tatlock.memory import context as context_mod
        from tatlock.memory import cross as cross_mod
        from tatlock.pipeline.gate import checks as gate_checks

        self.wrap(UserStore, "add_message", "store")
        self.wrap(context_mod, "build", "context")
        self.wrap(cross_mod, "adopt_briefing", "cross")
        self.wrap(gate_checks, "run", "quality")  # every check of an answer, whole or streamed
        self.wrap(DebugLog, "write", "debuglog")
        self.wrap(butler_mod.Butler, "schedule_compaction", "compaction_check")
        return self

    def undo(self) -> None:
        for owner, attr, orig in reversed(self._undo):
            setattr(owner, attr, orig)
        self._undo.clear()

    def reset(self) -> None:
        with self._lock:
            self.spans = {}

    def split(self, calls: list[CallTiming]) -> dict[str, float]:
        """Milliseconds per component, exclusive: the briefing's adoption without any model call and
        the debug-log writes inside it."""
        with self._lock:
            spans = {k: list(v) for k, v in self.spans.items()}

        def total(name: str) -> float:
            return sum(b - a for a, b in spans.get(name, ()))

        def inside(items: list[tuple[float, float]], a: float, b: float) -> float:
            return sum(y - x for x, y in items if x >= a and y <= b)

        out = {k: total(k) for k in self.COMPONENTS}
        model = [(c.start, c.end) for c in calls]
        for a, b in spans.get("cross", ()):
            out["cross"] -= inside(model, a, b) + inside(spans.get("debuglog", []), a, b)
        return {k: v * 1000 for k, v in out.items()}


@dataclass
class Turn:
    wall_ms: float
    model_ms: float
    overhead_ms: float
    pre_ms: float  # turn start -> first model call (store the message, build the context, prompts)
    between_ms: float  # between model calls (parsing, routing, tools, next prompt)
    post_ms: float  # last model call -> the end of handle() (quality gate, store reply, compaction check)
    callbacks_ms: float  # inside the per-token callback (streamer, AnswerToken events, debug log)
    calls: int
    first_token_ms: float | None
    route: str | None
    guard: str | None
    quality: str | None
    answer: str
    phases: list[dict[str, Any]]
    error: str | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    replaced: bool = False
    tool_ms: float = 0.0  # inside the tools themselves (part of the overhead)
    conversation_id: int | None = None
    components: dict[str, float] = field(default_factory=dict)  # ms per pipeline component (Probes)


def run_turn(
    butler: Butler, backend: TimedBackend, text: str, probes: Probes | None = None, **kw: Any
) -> Turn:
    """One turn through ``handle``, timed from the call to the end of the event stream."""
    backend.reset()
    if probes:
        probes.reset()
    t0 = time.perf_counter()
    first_token = None
    finished: TurnFinished | None = None
    error = None
    tools: list[dict[str, Any]] = []
    replaced = False
    conv_id = None
    for ev in butler.handle(text, **kw):
        if isinstance(ev, ConversationReady):
            conv_id = ev.conversation_id
        elif isinstance(ev, AnswerToken) and first_token is None:
            first_token = time.perf_counter()
        elif isinstance(ev, TurnFinished):
            finished = ev
        elif isinstance(ev, ErrorEvent):
            error = f"{ev.kind}: {ev.message}"
        elif isinstance(ev, ToolResult):
            res = ev.result
            tools.append(
                {
                    "name": ev.name,
                    "ok": ev.ok and not (isinstance(res, dict) and "error" in res),
                    "error": res.get("error") if isinstance(res, dict) else None,
                    "ms": ev.ms,
                }
            )
        elif isinstance(ev, AnswerReplaced):
            replaced = True
    t1 = time.perf_counter()
    calls = list(backend.calls)
    model = backend.model_s
    cb = sum(c.callbacks_s for c in calls)
    if calls:
        pre = calls[0].start - t0
        between = sum(max(0.0, b.start - a.end) for a, b in itertools.pairwise(calls))
        post = t1 - calls[-1].end
    else:
        pre, between, post = t1 - t0, 0.0, 0.0
    wall = t1 - t0
    tool_ms = sum(t["ms"] for t in tools)
    components: dict[str, float] = {}
    if probes:
        components = probes.split(calls)
        components["tools"] = tool_ms
        components["rest"] = (wall - model) * 1000 - sum(components.values())
    return Turn(
        wall * 1000,
        model * 1000,
        (wall - model) * 1000,
        pre * 1000,
        between * 1000,
        post * 1000,
        cb * 1000,
        len(calls),
        (first_token - t0) * 1000 if first_token else None,
        finished.route if finished else None,
        finished.guard if finished else None,
        finished.quality if finished else None,
        finished.answer if finished else "",
        finished.phases if finished else [],
        error,
        tools,
        replaced,
        tool_ms,
        conv_id,
        components,
    )


# -- synthetic history ----------------------------------------------------------------------------

ANCHOR = Author(USER, USER.title(), is_anchor=True)
GUESTS = [Author("maria", "Maria"), Author("tom", "Tom")]
BOT = Author("calendar-bot", "Calendar", is_bot=True)
ASSISTANT = Author.assistant()

CITIES = [
    "Lyon",
    "Porto",
    "Vienna",
    "Oslo",
    "Seville",
    "Krakow",
    "Ghent",
    "Turin",
    "Bruges",
    "Bergen",
]
NAMES = ["Maria", "Tom", "Priya", "Jonas", "Aiko", "Lena", "Omar", "Ruth", "Felix", "Ines"]
THINGS = ["telescope", "kayak", "cookbook", "record player", "bicycle", "sketchbook", "tent"]
PROJECTS = ["Atlas", "Heron", "Juniper", "Kestrel"]
TEMPLATES = {
    "travel": [
        "My flight {code} to {city} leaves on {date} at {time}.",
        "I booked the Hotel {name} in {city} for {n} nights at {price} EUR a night.",
        "Can you remind me to check in for {code} the day before {date}?",
        "What should I pack for {n} days in {city} in late autumn?",
    ],
    "family": [
        "My sister {name} turns {age} on {date}; she wants a {thing}.",
        "{name}'s school play is on {date} at {time}, at the town hall.",
        "Should I order the cake for {name} from the bakery near the station?",
        "Grandma called: she arrives on {date} and stays {n} days.",
    ],
    "work": [
        "The {project} deadline moved to {date}; {name} is reviewing it.",
        "My manager {name} wants the quarterly report ({n} pages) by {date}.",
        "Could you draft the agenda for the {project} meeting on {date}?",
        "The {project} budget is {price}k EUR this year, up {n} percent.",
    ],
    "health": [
        "My dentist appointment is on {date} at {time} with Dr {name}.",
        "I ran {n} km this morning in {mins} minutes.",
        "What was the dose Dr {name} prescribed, {n} mg twice a day?",
        "I slept badly again, about {n} hours; too much coffee after {time}?",
    ],
    "home": [
        "The boiler service costs {price} EUR; the engineer {name} comes on {date}.",
        "My locker code at the gym is {code4}.",
        "Remind me to pay the {price} EUR council tax before {date}?",
        "The kitchen tap drips again; the plumber said {n} weeks for the part.",
    ],
    "tech": [
        "My laptop runs Python 3.{n} and the backup goes to /mnt/backup/{project}.",
        "The NAS is a model DS{code4} with {n} TB; firmware 7.{mins}.",
        "Why does `rsync -av /home /mnt/backup` fail with 'permission denied'?",
        "The router's Wi-Fi drops every {mins} minutes since the update on {date}.",
    ],
}
GUEST_LINES = [
    "Hello, {guest} here. I will pick {anchor} up at {time} on {date}.",
    "The table at {name}'s restaurant is booked for {n} people on {date}.",
    "I lent {anchor} {price} EUR for the {city} trip, just so it is written down.",
    "{guest} again: the {thing} for {name} is wrapped and hidden in the garage.",
]
BOT_LINES = [
    "Reminder: {project} review at {time} on {date}.",
    "Dentist with Dr {name} on {date} at {time}.",
    "Flight {code} to {city} on {date}; check-in opens 24 hours before.",
]
REPLIES = [
    "Very good, sir. I have noted that {gist}.",
    "Noted, sir: {gist}. Shall I set a reminder?",
    "Certainly, sir. {gist}, as you say; I shall keep it in mind.",
    "I shall remember that {gist}, sir.",
    "Of course, sir. As for {gist}: I would allow a little extra time, just in case.",
]


class History:
    """Deterministic varied messages: (role, author, content, timestamp, metadata_json)."""

    def __init__(self, seed: int = 11):
        self.rng = random.Random(seed)
        self.meta_user = json.dumps({"interface": "cli"})
        self.meta_assistant = [
            json.dumps(
                {
                    "route": route,
                    "guard": None,
                    "tools": tools,
                    "topics": [topic],
                    "quality": "APPROVED",
                    "quality_checks": [],
                    "phases": [
                        {
                            "name": "assess",
                            "ms": 812.4,
                            "model_calls": 1,
                            "prompt_tokens": 1190,
                            "eval_tokens": 71,
                        },
                        {
                            "name": "quality",
                            "ms": 0.3,
                            "model_calls": 0,
                            "prompt_tokens": 0,
                            "eval_tokens": 0,
                        },
                    ],
                    "model": FAKE_MODEL,
                    "decision_source": "model",
                }
            )
            for route, tools in (("DIRECT", []), ("TOOLS_NEEDED", ["recall_memories"]))
            for topic in TEMPLATES
        ]

    def fill(self, template: str, day: dt.date, guest: str = "") -> str:
        r = self.rng
        return template.format(
            code=f"{r.choice(['AF', 'LH', 'TP', 'OS', 'KL'])}{r.randint(100, 999)}",
            city=r.choice(CITIES),
            date=(day + dt.timedelta(days=r.randint(2, 60))).isoformat(),
            time=f"{r.randint(6, 21):02d}:{r.choice(['00', '15', '30', '45'])}",
            name=r.choice(NAMES),
            n=r.randint(2, 14),
            price=r.randint(40, 900),
            age=r.randint(20, 70),
            thing=r.choice(THINGS),
            mins=r.randint(10, 70),
            project=r.choice(PROJECTS),
            code4=r.randint(1000, 9999),
            guest=guest,
            anchor=ANCHOR.name,
        )

    def messages(
        self, n: int, start: dt.datetime, step_s: float
    ) -> list[tuple[str, Author, str, str, str]]:
        out: list[tuple[str, Author, str, str, str]] = []
        r = self.rng
        topic = "travel"
        for i in range(n):
            when = start + dt.timedelta(seconds=i * step_s)
            ts = iso(when)
            if i % 2 == 0:
                if i % 24 == 0:
                    topic = r.choice(list(TEMPLATES))
                roll = r.random()
                if roll < 0.08:
                    g = r.choice(GUESTS)
                    out.append(
                        (
                            "user",
                            g,
                            self.fill(r.choice(GUEST_LINES), when.date(), g.name),
                            ts,
                            self.meta_user,
                        )
                    )
                elif roll < 0.12:
                    out.append(
                        (
                            "user",
                            BOT,
                            self.fill(r.choice(BOT_LINES), when.date()),
                            ts,
                            self.meta_user,
                        )
                    )
                else:
                    text = self.fill(r.choice(TEMPLATES[topic]), when.date())
                    if r.random() < 0.15:  # now and then a longer message
                        text += " " + self.fill(
                            r.choice(TEMPLATES[r.choice(list(TEMPLATES))]), when.date()
                        )
                    out.append(("user", ANCHOR, text, ts, self.meta_user))
            else:
                said = out[-1][2].rstrip("?.")
                gist = said[0].lower() + said[1:] if said else said
                meta = self.meta_assistant[r.randrange(len(self.meta_assistant))]
                out.append(("assistant", ASSISTANT, r.choice(REPLIES).format(gist=gist), ts, meta))
        return out


def summary_of(block: list[tuple[str, Author, str, str, str]], first: int) -> tuple[str, list[str]]:
    """A compact in the canonical section layout, built from the block (as a careful model would)."""
    said = [
        (first + i, a, text, ts) for i, (role, a, text, ts, _) in enumerate(block) if role == "user"
    ]
    topics = sorted(
        {
            t
            for t, tpls in TEMPLATES.items()
            for _, _, text, _ in said
            for tpl in tpls
            if tpl.split("{")[0][:14] in text
        }
    )[:4] or ["everyday matters"]
    facts = [f"- {a.name}: {text}" for _, a, text, _ in said if not text.endswith("?")][:9]
    unresolved = [
        f"- [UNRESOLVED] {a.name} asked: {text} (#{num})"
        for num, a, text, _ in said
        if text.endswith("?")
    ][:3]
    timeline = [
        f"- #{num} ({ts[:10]}): {a.name}: {text[:60].rstrip()}" for num, a, text, ts in said[::5]
    ][:4]
    tech = [ln for ln in facts if "/mnt" in ln or "Python" in ln or "firmware" in ln][:2]
    body = {
        "TOPICS DISCUSSED": [f"- {t}" for t in topics],
        "FACTUAL TIMELINE": timeline or ["- none"],
        "KEY FACTS ESTABLISHED": facts or ["- none"],
        "UNRESOLVED ITEMS": unresolved or ["- none"],
        "TECHNICAL DETAILS": tech or ["- none"],
    }
    return "\n\n".join(f"{k}\n" + "\n".join(v) for k, v in body.items()), topics


def archive_of(summaries: list[str], max_words: int) -> str:
    """An archive in the canonical layout: the newest lines of each section within ``max_words``."""
    sections: dict[str, list[str]] = {}
    for s in summaries[-12:]:
        current = None
        for line in s.splitlines():
            if line and not line.startswith("-"):
                current = line
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
    parts = []
    for name, s in share.items():
        kept, used = [], 0
        for line in reversed(sections.get(name, [])):
            n = len(line.split())
            if used + n > max_words * s:
                break
            kept.append(line)
            used += n
        parts.append(name + "\n" + "\n".join(reversed(kept) or ["- none"]))
    return "\n\n".join(parts)


def nesting_allowed(store: UserStore) -> bool:
    """Can add_message run inside an outer transaction (so batches could share one commit)?"""
    conn = store.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        conv = store.create_conversation("probe", "bench")
        store.add_message(conv.id, "user", "probe", ANCHOR)
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.execute("ROLLBACK")


def insert_executemany(
    store: UserStore, conv_id: int, msgs: list[tuple[str, Author, str, str, str]]
) -> None:
    """What add_message does for each message, for a whole batch in one transaction: contiguous
    message numbers after the conversation's last, reply_to the previous user message,
    participants and the conversation's counters and title (the FTS index follows by trigger)."""
    conn = store.conn
    with db.transaction(conn):
        row = conn.execute(
            "SELECT message_count, title FROM conversations WHERE id = ?", (conv_id,)
        ).fetchone()
        last_number = conn.execute(
            "SELECT coalesce(max(message_number), 0) FROM conversation_messages"
            " WHERE conversation_id = ?",
            (conv_id,),
        ).fetchone()[0]
        next_id = (
            conn.execute(
                "SELECT coalesce(max(message_id), 0) FROM conversation_messages"
            ).fetchone()[0]
            + 1
        )
        rows = []
        parts: dict[str, list[Any]] = {}
        last_user_id = None
        title = row["title"]
        for i, (role, a, text, ts, meta) in enumerate(msgs):
            mid = next_id + i
            reply_to = last_user_id if role == "assistant" else None
            if role == "user":
                last_user_id = mid
                if title is None:
                    title = _title(text)
            rows.append(
                (
                    mid,
                    conv_id,
                    last_number + i + 1,
                    role,
                    a.id,
                    a.name,
                    int(a.is_bot),
                    int(a.is_anchor),
                    reply_to,
                    text,
                    ts,
                    meta,
                )
            )
            p = parts.get(a.id)
            if p is None:
                parts[a.id] = [a.name, int(a.is_bot), ts, ts, 1]
            else:
                p[0], p[3], p[4] = a.name, max(p[3], ts), p[4] + 1
        conn.executemany(
            "INSERT INTO conversation_messages (message_id, conversation_id, message_number, role, author_id,"
            " author_name, author_is_bot, is_anchor, reply_to, content, timestamp, metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.execute(
            "UPDATE conversations SET message_count = ?, last_activity = max(last_activity, ?), title = ?"
            " WHERE id = ?",
            (last_number + len(msgs), max(m[3] for m in msgs), title, conv_id),
        )
        conn.executemany(
            "INSERT INTO participants (conversation_id, author_id, name, is_bot, first_seen, last_seen, message_count)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(conversation_id, author_id) DO UPDATE SET"
            " name = excluded.name, is_bot = excluded.is_bot, last_seen = max(last_seen, excluded.last_seen),"
            " message_count = message_count + excluded.message_count",
            [(conv_id, aid, *p) for aid, p in parts.items()],
        )


def insert_add_message(
    store: UserStore, conv_id: int, msgs: list[tuple[str, Author, str, str, str]], outer: bool
) -> None:
    """The real write path, one add_message per message (in outer transactions of 2000 if allowed)."""
    last_user = None
    for start in range(0, len(msgs), 2000):
        ctx = db.transaction(store.conn) if outer else contextlib.nullcontext()
        with ctx:
            for role, a, text, ts, meta in msgs[start : start + 2000]:
                m = store.add_message(
                    conv_id,
                    role,
                    text,
                    a,
                    timestamp=ts,
                    metadata=json.loads(meta),
                    reply_to=last_user if role == "assistant" else None,
                )
                if role == "user":
                    last_user = m.message_id


def add_compacts(
    store: UserStore,
    conv_id: int,
    msgs: list[tuple[str, Author, str, str, str]],
    interval: int,
    budget: int,
) -> tuple[int, int]:
    """The state compaction keeps a conversation in: a compact per full block and an archive of
    all but the newest compact (as maybe_archive leaves it). Returns (compacts, archived up to)."""
    conn = store.conn
    blocks = len(msgs) // interval
    if not blocks:
        return 0, 0
    summaries, topics_all = [], []
    with db.transaction(conn):
        covered = conn.execute(
            "SELECT coalesce(max(up_to_message), 0) FROM conversation_compacts"
            " WHERE conversation_id = ?",
            (conv_id,),
        ).fetchone()[0]
        assert covered == 0, "compacts are added once, to a conversation without any"
        rows = []
        for b in range(blocks):
            first = b * interval + 1
            block = msgs[b * interval : (b + 1) * interval]
            summary, topics = summary_of(block, first)
            summaries.append(summary)
            topics_all.append(topics)
            rows.append(
                (
                    conv_id,
                    first,
                    first + interval - 1,
                    summary,
                    json.dumps(topics),
                    FAKE_MODEL,
                    block[-1][3],
                )
            )
        conn.executemany(
            "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, summary,"
            " topics, model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        ids = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM conversation_compacts WHERE conversation_id = ?"
                " ORDER BY from_message",
                (conv_id,),
            )
        ]
        up_to = blocks * interval
        conn.execute("UPDATE conversations SET compacted_up_to = ? WHERE id = ?", (up_to, conv_id))
        archived = 0
        if blocks >= 2:
            archived = (blocks - 1) * interval
            limit = SUMMARY_SHARE * budget / 2
            max_words = max(120, int(limit * 0.75 * 4.0 / 5.5))  # as maybe_archive asks the model
            meta = json.loads(
                conn.execute(
                    "SELECT metadata FROM conversations WHERE id = ?", (conv_id,)
                ).fetchone()[0]
            )
            meta["archive"] = {
                "up_to_message": archived,
                "summary": archive_of(summaries[:-1], max_words),
                "created_at": iso(),
                "merged_compacts": ids[:-1],
            }
            conn.execute(
                "UPDATE conversations SET metadata = ? WHERE id = ?", (json.dumps(meta), conv_id)
            )
    for topics in topics_all[
        -50:
    ]:  # what compact_once indexes (the recent ones suffice for the counters)
        store.add_topics(conv_id, topics)
    return blocks, archived


@dataclass
class Prepared:
    home: Path
    big_id: int
    conversations: list[tuple[int, int]]  # (id, messages)
    ingest_path: str
    ingest_s: float
    compact_s: float
    compacts: int
    db_mb: float
    add_message_us: float | None


def prepare_home(
    home: Path, size: int, history_mode: str, ingest: str, interval: int, budget: int, seed: int
) -> Prepared:
    paths = tconfig.Paths(home, home, home / "logs")
    store = UserStore.open(paths, USER)
    try:
        allowed = nesting_allowed(store)
        # add_message batched in outer transactions when its own transaction nests; else executemany
        path = ingest if ingest != "auto" else ("add_message" if allowed else "executemany")
        if path == "add_message" and allowed:
            path = "add_message+outer"
        # one big conversation (the most recent, where `tatlock ask` continues) and three older ones
        small = min(size // 20, 2000) if size else 0
        layout = (
            [("cli", small), ("cli-old", small), ("telegram", small), ("cli", size - 3 * small)]
            if size
            else []
        )
        hist = History(seed)
        now = dt.datetime.now(dt.UTC)
        step = 180.0
        start = now - dt.timedelta(days=1) - dt.timedelta(seconds=step * max(1, size))
        t_ingest = t_compact = 0.0
        convs: list[tuple[int, int]] = []
        n_compacts = 0
        done = 0
        for room, n in layout:
            if n <= 0:
                continue
            msgs = hist.messages(n, start + dt.timedelta(seconds=step * done), step)
            conv = store.create_conversation(
                room, "cli" if room != "telegram" else "telegram", started_at=msgs[0][3]
            )
            t0 = time.perf_counter()
            if path == "executemany":
                insert_executemany(store, conv.id, msgs)
            else:
                insert_add_message(store, conv.id, msgs, outer=path == "add_message+outer")
            t_ingest += time.perf_counter() - t0
            if history_mode == "compacted":
                t0 = time.perf_counter()
                c, _ = add_compacts(store, conv.id, msgs, interval, budget)
                n_compacts += c
                t_compact += time.perf_counter() - t0
            convs.append((conv.id, n))
            done += n
            log(f"  conversation {conv.id} ({room}): {n} messages")
        if not convs:  # an empty history: the big conversation is a fresh one
            conv = store.create_conversation("cli", "cli")
            convs.append((conv.id, 0))
        check_consistency(store)
        # the real path's speed, on a throwaway conversation (deleted again)
        add_us = None
        if path == "executemany":
            probe = hist.messages(400, now - dt.timedelta(hours=2), 1.0)
            c = store.create_conversation("probe", "bench")
            t0 = time.perf_counter()
            insert_add_message(store, c.id, probe, outer=False)
            add_us = (time.perf_counter() - t0) / len(probe) * 1e6
            store.delete_conversation(c.id)  # its messages, participants and index rows go with it
        store.conn.execute(
            "PRAGMA wal_checkpoint(TRUNCATE)"
        )  # a long-lived database has no huge WAL
    finally:
        store.close()
    db_mb = paths.user_db(USER).stat().st_size / 1e6
    return Prepared(home, convs[-1][0], convs, path, t_ingest, t_compact, n_compacts, db_mb, add_us)


def check_consistency(store: UserStore) -> None:
    """Numbers contiguous from 1, counters and participants as add_message would leave them."""
    conn = store.conn
    for r in conn.execute(
        "SELECT c.id, c.message_count, count(m.message_id) AS n, coalesce(max(m.message_number), 0) AS top,"
        " coalesce(min(m.message_number), 1) AS low FROM conversations c"
        " LEFT JOIN conversation_messages m ON m.conversation_id = c.id GROUP BY c.id"
    ):
        if not (r["message_count"] == r["n"] == r["top"] and r["low"] == 1):
            raise SystemExit(
                f"bench: conversation {r['id']} is inconsistent after ingestion: {dict(r)}"
            )
        part = conn.execute(
            "SELECT coalesce(sum(message_count), 0) FROM participants WHERE conversation_id = ?",
            (r["id"],),
        ).fetchone()[0]
        if part != r["n"]:
            raise SystemExit(
                f"bench: participants of conversation {r['id']} count {part}, not {r['n']}"
            )
    # the index's own per-row table (counting messages_fts itself would read the content view)
    fts = conn.execute("SELECT count(*) FROM messages_fts_docsize").fetchone()[0]
    total = conn.execute("SELECT count(*) FROM conversation_messages").fetchone()[0]
    if fts != total:
        raise SystemExit(f"bench: the search index holds {fts} rows for {total} messages")


# -- the scripted fake model ----------------------------------------------------------------------

DIRECT_QA = [
    (
        "What is the capital of France?",
        "Paris, sir. Even the croissants would tell you so.",
        "geography",
    ),
    (
        "How many minutes should I boil an egg for a soft yolk?",
        "About six minutes from boiling water, sir, then straight into cold water; seven if you prefer it jammy.",
        "cooking",
    ),
    (
        "Who wrote Pride and Prejudice?",
        "Jane Austen, sir, published in 1813. Mr Darcy has been misunderstood ever since.",
        "books",
    ),
    (
        "What is a good stretch for a stiff lower back?",
        "The child's pose, sir: kneel, sit back on your heels and stretch your arms forward for thirty seconds. "
        "If the pain persists, do see a physiotherapist.",
        "health",
    ),
    (
        "Convert 180 degrees Celsius to Fahrenheit, please.",
        "That is 356 degrees Fahrenheit, sir, a moderate oven.",
        "cooking",
    ),
    (
        "Why is the sky blue?",
        "Rayleigh scattering, sir: air molecules scatter the short blue wavelengths of sunlight far more than the "
        "red ones, so blue reaches your eye from every direction of the sky.",
        "science",
    ),
]
CROSS_REPLY = (
    "Recent Highlights\n- Alice booked a trip to Lyon and asked about the boiler service.\n"
    "Patterns Across Sessions\n- Travel and family birthdays come up often.\n"
    "Current Context\n- The Atlas deadline and a dentist appointment are pending."
)


def assess_json(
    decision="DIRECT", guard="NONE", answer="", tools=(), query="", topics=("general",)
) -> dict:
    return {
        "json": {
            "decision": decision,
            "guard_reason": guard,
            "tools": list(tools),
            "tool_query": query,
            "answer": answer,
            "topics": list(topics),
        }
    }


@dataclass
class Scenario:
    route: str
    question: str
    assess: dict
    tool_call: dict | None = None
    reply: str = "Very good, sir."


ROUTES: dict[str, Scenario] = {
    "DIRECT": Scenario(
        "DIRECT", DIRECT_QA[0][0], assess_json(answer=DIRECT_QA[0][1], topics=[DIRECT_QA[0][2]])
    ),
    "CAPABILITY_GUARD": Scenario(
        "CAPABILITY_GUARD",
        "What's your name?",
        assess_json("CAPABILITY_GUARD", "IDENTITY", topics=["identity"]),
        reply="I am Tatlock, sir, your butler: I keep your appointments, your notes and your memories in order.",
    ),
    "TOOLS_NEEDED": Scenario(
        # not "How many days are left until Christmas?": the time guard answers that from the clock now
        "TOOLS_NEEDED",
        "Which day of the week is 25 December 2027?",
        assess_json(
            "TOOLS_NEEDED", tools=["get_current_datetime"], query="today's date", topics=["dates"]
        ),
        tool_call={"name": "get_current_datetime", "arguments": {}},
        # an answer that uses the clock tool's date (the gate withdraws one that ignores it)
        reply="Saturday, sir: 25 December 2027 falls on a Saturday, a little over a year from today, 23 November "
        "2026.",
    ),
    "MIXED": Scenario(
        "MIXED",
        "What's your name and what's the weather in London?",
        assess_json(
            "CAPABILITY_GUARD",
            "MIXED",
            tools=["get_weather_forecast"],
            query="weather London",
            topics=["weather"],
        ),
        tool_call={"name": "get_weather_forecast", "arguments": {"location": "London", "days": 2}},
        reply="I am Tatlock, sir, and London has light rain today at about 10 degrees: an umbrella day.",
    ),
}


def request_kind(body: dict) -> str:
    """Which phase a recorded chat request belongs to (Ollama native or OpenAI-compatible body)."""
    schema = body.get("format")
    if schema is None:
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
    props = schema.get("properties", {}) if isinstance(schema, dict) else {}
    if "decision" in props:
        return "assess"
    if "verdict" in props:
        return "quality"
    if body.get("tools"):
        return "select_tools"
    msgs = body.get("messages") or []
    first = str((msgs[0] or {}).get("content") or "") if msgs else ""
    if "Summarise messages" in first:
        return "compaction"
    if "Records to merge" in first:
        return "archive"
    if "memory of a personal assistant" in first:
        return "cross_summary"
    return "respond"


class FakeModel:
    """The fake server's handler: a reply for each request kind, per the current scenario."""

    def __init__(self) -> None:
        self.scenario = ROUTES["DIRECT"]
        self.kinds: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, body: dict) -> Any:
        kind = request_kind(body)
        with self._lock:
            self.kinds.append(kind)
        sc = self.scenario
        if kind == "assess":
            return sc.assess
        if kind == "quality":
            return {
                "json": {
                    "verdict": "APPROVED",
                    "fallback_type": "NONE",
                    "reason": "answers the question",
                }
            }
        if kind == "select_tools":
            return {"tool_calls": [sc.tool_call]} if sc.tool_call else "No tool is needed."
        if kind in ("compaction", "archive"):
            return compaction_reply(str(body["messages"][0]["content"]))
        if kind == "cross_summary":
            return CROSS_REPLY
        return sc.reply


def compaction_reply(prompt: str) -> str:
    lines = [ln for ln in prompt.splitlines() if ln.startswith("[#")][:8]
    facts = [f"- {ln.split('] ', 1)[-1][:140]}" for ln in lines] or ["- none"]
    return (
        "TOPICS DISCUSSED\n- everyday matters\n\nFACTUAL TIMELINE\n- none\n\nKEY FACTS ESTABLISHED\n"
        + "\n".join(facts)
        + "\n\nUNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none"
    )


# -- a loopback Open-Meteo for the weather tool ---------------------------------------------------


@contextlib.contextmanager
def fake_weather() -> Iterator[str]:
    from support.fake_web import FakeWeb

    with FakeWeb() as web:
        yield web.url


# -- default mode ---------------------------------------------------------------------------------


def make_butler(fake: FakeOllama) -> tuple[Butler, TimedBackend]:
    from tatlock.llm.ollama import OllamaBackend

    cfg = tconfig.load()
    backend = TimedBackend(
        OllamaBackend(fake.url, FAKE_MODEL, timeout=60, keep_alive=cfg.keep_alive)
    )
    return Butler(cfg, USER, backend=backend), backend


def summarise_turns(turns: list[Turn]) -> dict[str, Any]:
    ok = [t for t in turns if t.error is None]
    ov = [t.overhead_ms for t in ok]
    return {
        "turns": len(turns),
        "errors": len(turns) - len(ok),
        "wall_p50_ms": pct([t.wall_ms for t in ok], 50),
        "wall_p95_ms": pct([t.wall_ms for t in ok], 95),
        "model_p50_ms": pct([t.model_ms for t in ok], 50),
        "overhead_p50_ms": pct(ov, 50),
        "overhead_p95_ms": pct(ov, 95),
        "overhead_mean_ms": statistics.mean(ov) if ov else None,
        "overhead_max_ms": max(ov) if ov else None,
        "pre_p50_ms": pct([t.pre_ms for t in ok], 50),
        "between_p50_ms": pct([t.between_ms for t in ok], 50),
        "post_p50_ms": pct([t.post_ms for t in ok], 50),
        "callbacks_p50_ms": pct([t.callbacks_ms for t in ok], 50),
        "tool_p50_ms": pct([t.tool_ms for t in ok], 50),
        "components_p50_ms": {
            k: pct([t.components[k] for t in ok if k in t.components], 50)
            for k in (*Probes.COMPONENTS, "tools", "rest")
        }
        if any(t.components for t in ok)
        else {},
        "calls_per_message": statistics.mean([t.calls for t in ok]) if ok else None,
        "routes": sorted({t.route or "?" for t in ok}),
        "quality": sorted({t.quality or "?" for t in ok}),
        "first_error": next((t.error for t in turns if t.error), None),
    }


def profile_turns(butler: Butler, backend: TimedBackend, where: str, n: int, **kw: Any) -> None:
    """cProfile of the turn thread (model calls included, as socket waits) for n turns, to stderr."""
    import cProfile
    import io
    import pstats

    from tatlock.pipeline.turn_runner import TurnRunner

    prof = cProfile.Profile()
    inner = TurnRunner.run

    def profiled(self: TurnRunner) -> Any:
        prof.enable()
        try:
            return inner(self)
        finally:
            prof.disable()

    TurnRunner.run = profiled  # type: ignore[method-assign]
    try:
        for i in range(n):
            q, _a, _topic = DIRECT_QA[i % len(DIRECT_QA)]
            run_turn(butler, backend, q, **kw)
            butler.wait_background()
    finally:
        TurnRunner.run = inner  # type: ignore[method-assign]
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(35)
    log(f"profile of {n} turns ({where} conversation; turn thread, cumulative):")
    log(out.getvalue())


def measure_size(size: int, args: argparse.Namespace, wheres: list[str]) -> dict[str, Any]:
    interval = LOW.compact_interval
    with (
        tempfile.TemporaryDirectory(prefix="tatlock-bench-pipeline-") as tmp,
        FakeOllama(models={FAKE_MODEL: {"context_length": 8192}}) as fake,
        fake_weather() as weather_url,
    ):
        home = Path(tmp)
        extra = {
            "TATLOCK_GEOCODING_URL": weather_url,
            "TATLOCK_OPEN_METEO_URL": weather_url + "/",
            "TATLOCK_TIMEOUT": "60",
        }
        if args.history == "raw":
            extra["TATLOCK_COMPACT_INTERVAL"] = str(
                10**9
            )  # keep the history uncompacted while measuring
        isolate_env(home, **extra)
        log(f"size {size}: writing the history ({args.history}, {args.ingest})")
        prep = prepare_home(
            home, size, args.history, args.ingest, interval, LOW.context_size, args.seed
        )
        rate = f"{prep.ingest_s / size * 1e6:.0f} us/message" if size else "-"
        log(
            f"size {size}: ingested by {prep.ingest_path} in {prep.ingest_s:.1f} s ({rate});"
            f" {prep.compacts} compacts in {prep.compact_s:.1f} s; database {prep.db_mb:.1f} MB"
        )
        model = FakeModel()
        fake.handler = model
        butler, backend = make_butler(fake)
        probes = Probes().install()
        result: dict[str, Any] = {
            "size": size,
            "history": args.history,
            "ingest_path": prep.ingest_path,
            "ingest_s": round(prep.ingest_s, 2),
            "ingest_us_per_message": round(prep.ingest_s / size * 1e6, 1) if size else None,
            "add_message_us_per_message": round(prep.add_message_us, 1)
            if prep.add_message_us
            else None,
            "compacts": prep.compacts,
            "compact_setup_s": round(prep.compact_s, 2),
            "db_mb": round(prep.db_mb, 1),
            "conversations": [{"id": c, "messages": n} for c, n in prep.conversations],
            "where": {},
        }
        try:
            for where in wheres:
                kw: dict[str, Any] = (
                    {"conversation_id": prep.big_id} if where == "big" else {"new": True}
                )
                turns: list[Turn] = []
                prompt_tok: list[int] = []
                for i in range(args.warmup + args.turns):
                    q, a, topic = DIRECT_QA[i % len(DIRECT_QA)]
                    model.scenario = Scenario("DIRECT", q, assess_json(answer=a, topics=[topic]))
                    n_before = len(fake.chat_requests)
                    turn = run_turn(butler, backend, q, probes, **kw)
                    butler.wait_background()  # a due compaction runs between turns, not during the next
                    if where == "new" and turn.conversation_id is not None:
                        # every fresh conversation starts after the same stored history (the last five
                        # conversations feed its cross-conversation summary), not after the previous ones
                        butler.store.delete_conversation(turn.conversation_id)
                    if i < args.warmup:
                        continue
                    turns.append(turn)
                    reqs = [b for b in fake.chat_requests[n_before:] if request_kind(b) == "assess"]
                    prompt_tok += [estimate_prompt_tokens(b.get("messages")) for b in reqs]
                    if turn.error:
                        log(f"  turn error: {turn.error}")
                s = summarise_turns(turns)
                s["assess_prompt_tokens_p50"] = pct(prompt_tok, 50)
                result["where"][where] = s
                log(
                    f"size {size} {where:>3}: overhead p50 {f1(s['overhead_p50_ms'])} ms,"
                    f" p95 {f1(s['overhead_p95_ms'])} ms (wall p50 {f1(s['wall_p50_ms'])} ms)"
                )
            if args.profile and size == max(args.sizes_list):
                for where in wheres:
                    kw = {"conversation_id": prep.big_id} if where == "big" else {"new": True}
                    profile_turns(butler, backend, where, args.profile, **kw)
            result["background_model_calls"] = backend.background_calls
            result["background_kinds"] = {
                k: model.kinds.count(k) for k in ("compaction", "archive")
            }
        finally:
            probes.undo()
            butler.close()
    return result


def measure_routes(args: argparse.Namespace) -> dict[str, Any]:
    """Each route in a fresh conversation of an empty history: calls and prompt tokens per call."""
    out: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="tatlock-bench-routes-") as tmp,
        FakeOllama(models={FAKE_MODEL: {"context_length": 8192}}) as fake,
        fake_weather() as weather_url,
    ):
        home = Path(tmp)
        isolate_env(
            home,
            TATLOCK_GEOCODING_URL=weather_url,
            TATLOCK_OPEN_METEO_URL=weather_url + "/",
            TATLOCK_TIMEOUT="60",
        )
        model = FakeModel()
        fake.handler = model
        butler, backend = make_butler(fake)
        probes = Probes().install()
        try:
            for name, sc in ROUTES.items():
                model.scenario = sc
                turns: list[Turn] = []
                calls: list[dict[str, Any]] = []
                for i in range(args.warmup + args.route_turns):
                    conv = butler.store.create_conversation("cli", "cli")
                    n_before = len(fake.chat_requests)
                    turn = run_turn(butler, backend, sc.question, probes, conversation_id=conv.id)
                    butler.wait_background()
                    if i < args.warmup:
                        continue
                    turns.append(turn)
                    for b in fake.chat_requests[n_before:]:
                        kind = request_kind(b)
                        if kind in (
                            "compaction",
                            "archive",
                            "cross_summary",
                        ):  # housekeeping, not the turn's
                            continue
                        calls.append(
                            {
                                "kind": kind,
                                "prompt_tokens_est": estimate_prompt_tokens(b.get("messages")),
                                "tools_chars": len(json.dumps(b["tools"])) if b.get("tools") else 0,
                                "schema_chars": len(json.dumps(b["format"]))
                                if b.get("format")
                                else 0,
                                "prompt_chars": sum(
                                    len(str(m.get("content") or ""))
                                    for m in b.get("messages") or []
                                ),
                            }
                        )
                n = len(turns)
                per_kind: dict[str, list[int]] = {}
                for c in calls:
                    per_kind.setdefault(c["kind"], []).append(c["prompt_tokens_est"])
                phase_tok: dict[str, list[float]] = {}
                for t in turns:
                    for p in t.phases:
                        if p["model_calls"]:
                            phase_tok.setdefault(p["name"], []).append(
                                p["prompt_tokens"] / p["model_calls"]
                            )
                s = summarise_turns(turns)
                last = turns[-1] if turns else None
                out[name] = {
                    "question": sc.question,
                    "route": last.route if last else None,
                    "guard": last.guard if last else None,
                    "quality": last.quality if last else None,
                    "tools_ok": all(x["ok"] for t in turns for x in t.tools),
                    "calls_per_message": len(calls) / n if n else None,
                    "calls": [c["kind"] for c in calls[: len(calls) // n]] if n else [],
                    "prompt_tokens_per_call_est": {
                        k: statistics.mean(v) for k, v in per_kind.items()
                    },
                    "prompt_tokens_per_message_est": sum(c["prompt_tokens_est"] for c in calls) / n
                    if n
                    else None,
                    "tool_definition_tokens_per_message": sum(c["tools_chars"] for c in calls)
                    / 4
                    / n
                    if n
                    else None,
                    "schema_chars_per_message": sum(c["schema_chars"] for c in calls) / n
                    if n
                    else None,
                    "pipeline_prompt_tokens_per_call": {
                        k: statistics.mean(v) for k, v in phase_tok.items()
                    },
                    "pipeline_prompt_tokens_per_message": statistics.mean(
                        sum(p["prompt_tokens"] for p in t.phases) for t in turns
                    )
                    if turns
                    else None,
                    "eval_tokens_per_message": statistics.mean(
                        sum(p["eval_tokens"] for p in t.phases) for t in turns
                    )
                    if turns
                    else None,
                    **{
                        k: s[k]
                        for k in (
                            "overhead_p50_ms",
                            "overhead_p95_ms",
                            "tool_p50_ms",
                            "wall_p50_ms",
                            "errors",
                            "first_error",
                        )
                    },
                }
                out[name]["components_p50_ms"] = s["components_p50_ms"]
                log(
                    f"route {name}: {out[name]['calls_per_message']} calls/message, overhead p50 "
                    f"{f1(s['overhead_p50_ms'])} ms"
                )
        finally:
            probes.undo()
            butler.close()
    return out


def print_default(
    sizes: list[dict[str, Any]], routes: dict[str, Any], args: argparse.Namespace, elapsed: float
) -> None:
    print(
        f"tatlock pipeline bench: non-model overhead per message (fake model answering at once; "
        f"{args.turns} turns per cell after {args.warmup} warm-up; history {args.history}; low tier: "
        f"context {LOW.context_size} tokens, compaction every {LOW.compact_interval} messages)"
    )
    la = args.load_average
    print(
        f"(load average {la[0]:.2f} at the start, {la[1]:.2f} at the end, on {os.cpu_count()} CPUs)"
    )
    print()
    ing = next((s for s in sizes if s["size"]), None)
    if ing:
        if ing["ingest_path"] == "executemany":
            note = (
                f"executemany into conversation_messages with contiguous message numbers, participants and "
                f"counters, in one transaction per conversation: add_message opens its own BEGIN IMMEDIATE, "
                f"which cannot nest in an outer transaction (the real path alone costs "
                f"{f1(ing['add_message_us_per_message'], 0)} us/message, measured on 400 messages)"
            )
        else:
            note = f"{ing['ingest_path']} (the real write path)"
        print(f"history ingestion: {note}")
        print()
    rows = []
    for s in sizes:
        for where, w in s["where"].items():
            rows.append(
                [
                    s["size"],
                    where,
                    w["turns"],
                    f1(w["wall_p50_ms"]),
                    f1(w["model_p50_ms"]),
                    f1(w["overhead_p50_ms"]),
                    f1(w["overhead_p95_ms"]),
                    f1(w["pre_p50_ms"]),
                    f1(w["between_p50_ms"]),
                    f1(w["post_p50_ms"]),
                    f1(w["callbacks_p50_ms"]),
                    f1(w["calls_per_message"], 2),
                    f1(w["assess_prompt_tokens_p50"], 0),
                    w["errors"],
                ]
            )
    table(
        [
            "stored",
            "conv",
            "turns",
            "wall p50",
            "model p50",
            "ovh p50",
            "ovh p95",
            "pre",
            "between",
            "post",
            "in-stream",
            "calls",
            "assess tok",
            "err",
        ],
        rows,
        left=2,
    )
    print(
        "  (ms per DIRECT message. ovh = wall - time inside model calls; pre = turn start to the first model"
    )
    print(
        "   call: store the message, build the memory context, render prompts; between = between calls;"
    )
    print(
        "   post = after the last call: quality gate, store the reply, compaction check, thread hand-back;"
    )
    print(
        "   in-stream = inside the per-token callback while the answer streams. conv big = the conversation"
    )
    print(
        "   holding most of the history; new = a fresh conversation per message, deleted after the turn so that"
    )
    print(
        "   each starts after the same stored history (and adopts the briefing prepared in the background: no"
    )
    print("   model call). assess tok = Phase 1 prompt tokens as the fake server estimates them)")
    print()
    rows = []
    names = (*Probes.COMPONENTS, "tools", "rest")
    for s in sizes:
        for where, w in s["where"].items():
            c = w.get("components_p50_ms") or {}
            rows.append(
                [s["size"], where, f1(w["overhead_p50_ms"]), *[f1(c.get(k)) for k in names]]
            )
    for name, r in routes.items():
        c = r.get("components_p50_ms") or {}
        rows.append(
            [f"route {name}", "fresh", f1(r["overhead_p50_ms"]), *[f1(c.get(k)) for k in names]]
        )
    table(
        [
            "stored",
            "conv",
            "ovh p50",
            "store msgs",
            "context",
            "cross",
            "quality",
            "debug log",
            "compact chk",
            "tools",
            "rest",
        ],
        rows,
        left=2,
    )
    print(
        "  (p50 ms per message of each component, timed by wrapping it from the bench: store msgs ="
    )
    print(
        "   UserStore.add_message for the question and the reply; context = memory.context.build; cross ="
    )
    print(
        "   cross.adopt_briefing (a new conversation's briefing, no model call); quality = the rules of quality.check; debug log ="
    )
    print(
        "   DebugLog.write for every event, the per-token ones included; compact chk = Butler.schedule_compaction;"
    )
    print(
        "   rest = the overhead left: prompt rendering, persona and tool registry reads, the turn thread and"
    )
    print(
        "   event queue, HTTP client work outside the wrapped chat() call. p50s of parts do not add up exactly)"
    )
    print()
    rows = []
    for s in sizes:
        rows.append(
            [
                s["size"],
                len(s["conversations"]),
                s["compacts"],
                s["ingest_path"] if s["size"] else "-",
                f1(s["ingest_s"]),
                f1(s["ingest_us_per_message"], 0),
                f1(s["compact_setup_s"]),
                f1(s["db_mb"]),
                s["background_kinds"].get("compaction", 0),
                s["background_kinds"].get("archive", 0),
            ]
        )
    table(
        [
            "stored",
            "convs",
            "compacts",
            "ingest",
            "ingest s",
            "us/msg",
            "compacts s",
            "db MB",
            "bg compactions",
            "bg archives",
        ],
        rows,
        left=1,
    )
    print(
        "  (bg = compaction / archive model calls made in the background between the measured turns)"
    )
    print()
    rows = []
    for name, r in routes.items():
        per_call = ", ".join(f"{k} {v:.0f}" for k, v in r["prompt_tokens_per_call_est"].items())
        pipe = ", ".join(f"{k} {v:.0f}" for k, v in r["pipeline_prompt_tokens_per_call"].items())
        rows.append(
            [
                name,
                f"{r['route']}/{r['guard'] or '-'}",
                r["quality"],
                f1(r["calls_per_message"], 1),
                " > ".join(r["calls"]),
                per_call,
                f1(r["prompt_tokens_per_message_est"], 0),
                f1(r["tool_definition_tokens_per_message"], 0),
                pipe,
                f1(r["eval_tokens_per_message"], 0),
                f1(r["overhead_p50_ms"]),
                f1(r["tool_p50_ms"]),
                r["errors"],
            ]
        )
    table(
        [
            "route",
            "taken",
            "quality",
            "calls",
            "phases",
            "prompt tok/call (fake est)",
            "tok/msg",
            "+tools tok",
            "prompt tok/call (pipeline)",
            "eval tok",
            "ovh p50",
            "in tools",
            "err",
        ],
        rows,
        left=6,
    )
    print(
        f"  (each route {args.route_turns} times, each in a fresh conversation of an empty history. prompt tokens:"
    )
    print(
        "   the fake's estimate len(content)//4 + 4 per message, from its recorded requests, and the pipeline's"
    )
    print(
        "   own phase counts (the server's reported counts, per call). +tools tok = tool definitions sent beside"
    )
    print(
        "   the messages (~chars/4), which a chat template puts into the prompt too; the Phase 1 / quality"
    )
    print(
        "   JSON schema goes to Ollama as `format`, a grammar, not prompt text. ovh p50 includes the tools'"
    )
    print("   own time, shown as 'in tools' (the weather tool calls a loopback fake Open-Meteo))")
    print()
    print(f"total run: {elapsed:.1f} s")


# -- main -----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="scripts/bench pipeline",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--sizes",
        default="0,10000,100000",
        help="messages already stored for the user, one measurement each (default 0,10000,100000)",
    )
    ap.add_argument(
        "--turns",
        type=int,
        default=30,
        help="measured turns per size and conversation (default 30)",
    )
    ap.add_argument(
        "--warmup", type=int, default=1, help="unmeasured turns before each series (default 1)"
    )
    ap.add_argument(
        "--where",
        choices=("both", "big", "new"),
        default="both",
        help="measure in the big conversation, in a fresh conversation per message, or both (default)",
    )
    ap.add_argument("--new", action="store_true", help="shorthand for --where new")
    ap.add_argument(
        "--route-turns",
        type=int,
        default=5,
        help="turns per route in the per-route table (default 5)",
    )
    ap.add_argument(
        "--history",
        choices=("compacted", "raw"),
        default="compacted",
        help="compacted (default): compacts and an archive as compaction leaves them; raw: messages "
        "only, compaction off while measuring (every message goes into every prompt)",
    )
    ap.add_argument(
        "--ingest",
        choices=("auto", "executemany", "add_message"),
        default="auto",
        help="how the history is written: auto (add_message batched in outer transactions if its own "
        "transaction nests, else executemany), or force one (add_message is ~0.3 ms a message)",
    )
    ap.add_argument("--no-routes", action="store_true", help="skip the per-route table")
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="after the largest size, profile N more turns of each conversation kind (cProfile, to stderr)",
    )
    ap.add_argument("--seed", type=int, default=11, help="seed of the synthetic history")
    ap.add_argument(
        "--local-llm",
        nargs="?",
        const=DEFAULT_LOCAL_URL,
        default=None,
        metavar="URL",
        help=f"measure against a real OpenAI-compatible server instead (default URL {DEFAULT_LOCAL_URL})",
    )
    ap.add_argument(
        "--runs", type=int, default=2, help="--local-llm: runs per question (default 2)"
    )
    ap.add_argument(
        "--race",
        type=int,
        default=5,
        help="--local-llm: runs of the first-byte race, `tatlock ask` against a bare client (default 5)",
    )
    ap.add_argument(
        "--call-timeout", type=float, default=120.0, help="--local-llm: seconds per model call"
    )
    ap.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object with every figure as the last line",
    )
    args = ap.parse_args(argv)
    if args.local_llm is not None:
        if args.runs < 1 or args.race < 1:
            ap.error("--runs and --race must be at least 1")
        from bench_local import run as run_local

        return run_local(
            args.local_llm.rstrip("/"),
            runs=args.runs,
            race=args.race,
            timeout=args.call_timeout,
            as_json=args.json,
        )
    try:
        args.sizes_list = [int(x) for x in args.sizes.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--sizes must be numbers separated by commas, not {args.sizes!r}")
    if not args.sizes_list or min(args.sizes_list) < 0 or args.turns < 1 or args.warmup < 0:
        ap.error("--sizes must be non-negative, --turns at least 1, --warmup not negative")
    if any(0 < s < 4 for s in args.sizes_list):
        ap.error("a non-zero size must be at least 4 (one big and three smaller conversations)")
    wheres = ["new"] if args.new else (["big", "new"] if args.where == "both" else [args.where])
    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    saved_env = dict(os.environ)
    try:
        sizes = [measure_size(size, args, wheres) for size in args.sizes_list]
        routes = {} if args.no_routes else measure_routes(args)
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
    elapsed = time.perf_counter() - t0
    args.load_average = (load0, os.getloadavg()[0])
    print_default(sizes, routes, args, elapsed)
    if args.json:
        print(
            json.dumps(
                {
                    "mode": "fake",
                    "history": args.history,
                    "turns": args.turns,
                    "warmup": args.warmup,
                    "tier": "low",
                    "load_average": args.load_average,
                    "sizes": sizes,
                    "routes": routes,
                    "elapsed_s": round(elapsed, 1),
                },
                default=str,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
