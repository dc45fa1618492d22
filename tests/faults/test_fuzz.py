"""Fuzzing the core's turn (issue 11, deliverable 10): hypothesis scripts what the model says in
every phase (valid, odd, truncated, garbage, huge, errors, tool calls of anything) and what the
user says (any text: control characters, surrogates, escapes), and every turn goes through
``tatlock.open(...).turn(...)`` against the fake Ollama server over loopback HTTP.

Whatever happens: no crash (no "internal" error, nothing logged as an exception), every turn ends
with an answer or a typed error, every question is stored as said, message numbers stay
contiguous, and the database stays sound. One butler and one home per test keep it fast.

The example counts are set here (1,050 in all); TATLOCK_FUZZ_SCALE=10 runs ten times as many,
with fresh random data each run (TATLOCK_FUZZ_RANDOM=1), for a longer hunt.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tatlock
from support.fake_ollama import FakeError, MidStreamError
from support.replies import CROSS, SUMMARY, phase_of
from tatlock.events import AnswerToken, ErrorEvent, TurnCancelled, TurnFinished
from tatlock.text import valid_text
from tatlock.tools.registry import BUILTIN_TOOLS

SCALE = int(os.environ.get("TATLOCK_FUZZ_SCALE", "1"))
RANDOM = os.environ.get("TATLOCK_FUZZ_RANDOM") == "1"
TOOLS = [t.key for t in BUILTIN_TOOLS]
PHASES = ("assess", "select_tools", "respond", "quality", "summary", "cross_summary")
TYPED_ERRORS = {"backend", "model", "timeout", "unreachable"}
# a longer hunt takes longer than the suite's per-test limit
pytestmark = pytest.mark.timeout(180 * SCALE)


def fuzz_settings(examples: int):
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


# -- what the user says -------------------------------------------------------------------------

nasty = st.sampled_from(
    [
        "\x00",
        "\x1b[2J",
        "\x1b]52;c;AAAA\x07",
        "\x9b",
        "\u202e",
        "\r",
        "\ud800",
        "\udcff",
        "\ufeff",
        "\u2028",
        "'",
        '"',
        "--",
        ";",
        "*",
        "NEAR(",
        "$(rm -rf ~)",
        "{{x}}",
        "$memory",
        "%s",
        "\\",
        "🍵",
    ]
)
user_text = st.lists(st.text(max_size=40) | nasty, min_size=1, max_size=8).map("".join)

# -- what the model says ------------------------------------------------------------------------

words = (
    st.text(max_size=120)
    | nasty
    | st.sampled_from(
        [
            "Very good, sir.",
            "",
            " ",
            "I am an AI language model.",
            "the password is hunter2!",
            "DIRECT: Paris, sir.",
        ]
    )
)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | words,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=8,
)
ROUTE_WORDS = st.sampled_from(
    [
        "DIRECT",
        "DIRECT",
        "TOOLS_NEEDED",
        "TOOLS_NEEDED",
        "TOOLS_NEEDED",
        "CAPABILITY_GUARD",
        "direct",
        "TOOLS",
        "GUARD",
        "",
        "MAYBE",
    ]
)
GUARD_WORDS = st.sampled_from(
    ["NONE", "IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY", "MIXED", "[SECURITY]", "BOGUS"]
)
tool_names = st.lists(st.sampled_from([*TOOLS, "no_such_tool", ""]), max_size=4)
# Phase 1's object as the schema asks for it, with any values...
assessment = st.fixed_dictionaries(
    {
        "decision": ROUTE_WORDS,
        "guard_reason": GUARD_WORDS,
        "answer": words,
        "tools": tool_names,
        "tool_query": words,
        "topics": st.lists(words, max_size=4),
    }
)
# ... or with fields missing and of the wrong types
odd_assessment = st.fixed_dictionaries(
    {},
    optional={
        "decision": ROUTE_WORDS | json_value,
        "guard_reason": GUARD_WORDS | json_value,
        "answer": words | json_value,
        "tools": tool_names | json_value,
        "tool_query": words | json_value,
        "topics": json_value,
    },
)
tool_calls = st.lists(
    st.fixed_dictionaries(
        {
            "name": st.sampled_from([*TOOLS, "no_such_tool", "", "__import__"]),
            "arguments": st.dictionaries(
                st.sampled_from(
                    [
                        "keyword",
                        "key",
                        "value",
                        "path",
                        "limit",
                        "days",
                        "location",
                        "start",
                        "end",
                        "topic",
                        "query",
                        "conversation_id",
                        "x",
                    ]
                ),
                json_value,
                max_size=4,
            ),
        }
    ),
    min_size=1,
    max_size=4,
)
LONG = " ".join(f"word{i}" for i in range(150))  # (megabytes per phase: tests/test_hostile.py)
broken = st.one_of(  # what any phase may meet
    words,
    json_value.map(lambda v: {"json": v}),
    st.sampled_from([LONG, SUMMARY[:60], "KEY FACTS ESTABLISHED:\n" + "- x\n" * 100]),
    st.builds(FakeError, st.sampled_from([400, 404, 500, 503]), words),
    st.builds(MidStreamError, words, st.integers(0, 4)),
)
by_phase = {  # what each phase is asked for, well or badly formed, or anything at all
    "assess": st.one_of(
        assessment.map(lambda o: {"json": o}),
        odd_assessment.map(lambda o: {"json": o}),
        st.tuples(assessment, st.integers(0, 200)).map(lambda t: json.dumps(t[0])[: t[1]]),
        broken,
    ),
    "select_tools": st.one_of(
        st.tuples(tool_calls, words).map(lambda t: {"tool_calls": t[0], "content": t[1]}),
        st.tuples(tool_calls, words).map(lambda t: {"tool_calls": t[0], "content": t[1]}),
        broken,
    ),
    "respond": st.one_of(
        words,
        words,
        broken,
        st.tuples(tool_calls, words).map(lambda t: {"tool_calls": t[0], "content": t[1]}),
    ),
    "quality": st.one_of(
        st.fixed_dictionaries(
            {
                "verdict": st.sampled_from(["APPROVED", "FALLBACK", "maybe"]),
                "fallback_type": GUARD_WORDS,
                "reason": words,
            }
        ).map(lambda o: {"json": o}),
        broken,
    ),
    "summary": st.one_of(st.just(SUMMARY), st.just(SUMMARY), broken),
    "cross_summary": st.one_of(st.just(CROSS), st.just(CROSS), broken),
}
script = st.fixed_dictionaries({p: st.lists(by_phase[p], max_size=3) for p in PHASES})


class Scripted:
    """The fake server's handler: each phase says the next thing its script holds (then "OK")."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queues: dict[str, deque] = {}
        self.met: Counter[str] = Counter()

    def load(self, phases: dict[str, list[Any]]) -> None:
        with self.lock:
            self.queues = {p: deque(v) for p, v in phases.items()}

    def __call__(self, body: dict) -> Any:
        p = phase_of(body)
        with self.lock:
            self.met[p] += 1
            q = self.queues.get(p)
            return q.popleft() if q else None


class Errors(logging.Handler):
    """Anything tatlock logs as an error (a turn that failed inside, a subscriber that raised)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def fuzz_env(served, fake_server, monkeypatch, tmp_path):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "6")  # compaction runs beside the turns
    from tatlock.memory import detached, housekeeping

    # on its thread, making way for the turns
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    monkeypatch.setattr(housekeeping, "SETTLE", 0.05)  # briefings between turns too
    monkeypatch.setattr(housekeeping, "COMPACT_SETTLE", 0.02)
    # what is left stays in this test's home
    monkeypatch.setattr(detached, "spawn", lambda *a, **kw: None)
    from tatlock.memory.summarise import TrackRecord

    # every summary's output is fuzzed
    monkeypatch.setattr(TrackRecord, "worth_asking", lambda self: True)
    monkeypatch.setenv("TATLOCK_TOOL_TIMEOUT", "2")
    monkeypatch.setenv("TATLOCK_TIMEOUT", "10")
    monkeypatch.setenv("TATLOCK_GEOCODING_URL", fake_server.url)
    monkeypatch.setenv("TATLOCK_OPEN_METEO_URL", fake_server.url)
    monkeypatch.setenv("TATLOCK_WEB_SEARCH_URL", fake_server.url + "/search")
    monkeypatch.chdir(tmp_path)  # analyze_file reads only here
    handler = Scripted()
    served.handler = handler
    errors = Errors()
    logging.getLogger("tatlock").addHandler(errors)
    yield handler
    logging.getLogger("tatlock").removeHandler(errors)
    # nothing crashed, not even in the background
    assert [r.getMessage() for r in errors.records] == []


def messages(butler, conversation_id: int):
    return butler.conversations.get(conversation_id).messages


def check_turn(butler, turn, text: str, final) -> None:
    """The invariants every turn keeps, whatever the model said."""
    assert final is not None, "the turn never ended"
    if isinstance(final, TurnFinished):
        assert final.answer.strip()
    elif isinstance(final, ErrorEvent):
        assert final.kind in TYPED_ERRORS, (final.kind, final.message)
        assert final.message and "\n" not in final.message
    else:
        assert isinstance(final, TurnCancelled)
    msgs = messages(butler, turn.conversation_id)
    assert [m.message_number for m in msgs] == list(range(1, len(msgs) + 1))  # contiguous
    question = next(m for m in reversed(msgs) if m.role == "user")
    assert question.content == valid_text(text)  # stored as said (a lone surrogate becomes U+FFFD)
    replies = [m for m in msgs if m.reply_to == question.message_id]
    if isinstance(final, TurnFinished):
        assert [r.content for r in replies] == [final.answer]


def finish(butler, home: Path, interval: int = 6) -> None:
    assert butler.wait_background(60)
    db = home / "users" / "tester_longterm.db"
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for (cid,) in conn.execute("SELECT id FROM conversations"):
            ranges = conn.execute(
                "SELECT from_message, up_to_message FROM conversation_compacts"
                " WHERE conversation_id = ? ORDER BY from_message",
                (cid,),
            ).fetchall()
            expected = 1
            # contiguous from 1; a block of text too dense for one request is split
            for lo, hi in ranges:
                assert lo == expected and lo <= hi <= lo + interval - 1, (ranges, expected)
                expected = hi + 1
    finally:
        conn.close()


def test_fuzz_what_the_model_says_in_every_phase(fuzz_env, home):
    count = Counter()
    with tatlock.open() as butler:

        @fuzz_settings(650)
        @given(phases=script, text=user_text, new=st.booleans())
        def one(phases, text, new):
            if not text.strip():
                text = "Tell me about tea."
            fuzz_env.load(phases)
            turn = butler.turn(text, new=new)
            final = turn.result(timeout=60)
            check_turn(butler, turn, text, final)
            count[type(final).__name__] += 1

        one()
        finish(butler, home)
    assert sum(count.values()) >= 650 * SCALE
    assert count["TurnFinished"] > 100 and count["ErrorEvent"] > 20, count  # both ends were reached
    assert all(
        fuzz_env.met[p] for p in ("assess", "select_tools", "respond", "summary", "cross_summary")
    ), fuzz_env.met


def test_fuzz_what_the_user_says(fuzz_env, home, monkeypatch):
    # (compaction is fuzzed above; here it would only slow)
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "200")
    count = Counter()
    fuzz_env.load({})
    with tatlock.open() as butler:

        @fuzz_settings(300)
        @given(text=user_text, guest=st.none() | user_text, material=st.none() | user_text)
        def one(text, guest, material):
            author = None
            if guest is not None:
                if not " ".join(valid_text(guest).split()):
                    with pytest.raises(tatlock.UsageError):
                        butler.guest(guest)
                    return
                author = butler.guest(guest)
            if not text.strip():
                before = butler.conversations.stats().messages
                with pytest.raises(tatlock.UsageError):
                    butler.turn(text)
                assert butler.conversations.stats().messages == before  # nothing stored
                count["refused"] += 1
                return
            turn = butler.turn(text, author=author, material=material)
            final = turn.result(timeout=60)
            check_turn(butler, turn, text, final)
            assert isinstance(final, TurnFinished)  # the model is well-behaved here ("OK")
            count["answered"] += 1

        one()
        finish(butler, home, 200)
    assert sum(count.values()) >= 250 * SCALE and count["answered"] > 100, count


def test_fuzz_cancelling_at_any_moment(fuzz_env, home, served):
    served.token_delay = 0.002
    count = Counter()
    with tatlock.open() as butler:

        @fuzz_settings(100)
        @given(phases=script, after=st.integers(0, 40))
        def one(phases, after):
            fuzz_env.load(phases)
            turn = butler.turn("Tell me a long story about tea, sir.")
            for i, _ev in enumerate(turn):
                if i == after:
                    turn.cancel()
                    break
            final = turn.result(timeout=30)
            check_turn(butler, turn, "Tell me a long story about tea, sir.", final)
            if isinstance(final, TurnCancelled):  # what was shown is what was kept
                shown = "".join(e.text for e in turn.events if isinstance(e, AnswerToken))
                kept = [
                    m for m in messages(butler, turn.conversation_id) if m.metadata.get("cancelled")
                ]
                assert kept and kept[-1].content == valid_text(final.partial)
                assert not shown or final.partial
            count[type(final).__name__] += 1

        one()
        finish(butler, home)
    assert sum(count.values()) >= 100 * SCALE and count["TurnCancelled"] > 10, count
