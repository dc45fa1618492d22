"""Housekeeping off the user's time (issue 18, items 1-2): compaction and the next briefing run
beside the turns and make way for them, one housekeeper per user across processes, and what a
closing process cannot finish goes to a detached, locked, time-bounded process. Real SQLite
files, the fake model server over loopback HTTP, real processes where a process is under test."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import tatlock
from support.replies import CROSS, SUMMARY, direct, phase_of
from support.store import rows, user_db
from support.waiting import wait_until
from tatlock.config import load
from tatlock.events import CompactionFailed, CompactionFinished
from tatlock.memory import detached, housekeeping, locks, runner
from tatlock.memory.detached import spawn
from tatlock.memory.housekeeping import Housekeeper
from tatlock.memory.locks import Lock


class SlowSummaries:
    """A model whose summaries wait at a gate (the test opens it); everything else answers at
    once."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.summaries = 0
        self.lock = threading.Lock()

    def __call__(self, body):
        phase = phase_of(body)
        if phase == "summary":
            with self.lock:
                self.summaries += 1
            self.gate.wait(30)
            return SUMMARY.replace("the user likes tea", "Tester talked about message 1")
        if phase == "cross_summary":
            return CROSS
        return direct("Very good, sir.")


@pytest.fixture
def background(served, monkeypatch):
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    monkeypatch.setattr(detached, "spawn", lambda *a, **kw: None)  # nothing outlives the test here
    monkeypatch.setattr(housekeeping, "COMPACT_SETTLE", 0.1)
    model = SlowSummaries()
    served.handler = model
    return model


def test_a_turn_during_a_summary_is_not_held_up_and_the_summary_resumes_after_it(
    background, served, home
):
    events: list = []
    with tatlock.open() as butler:
        butler.subscribe(events.append)
        butler.ask("The boiler code is 4417.")
        # message 4: a block is due, the housekeeping starts on it
        butler.ask("The gate code is 2291.")
        wait_until(lambda: background.summaries == 1, what="the summary call")
        answer = butler.ask("Thank you, that is all.")  # answered while the summary still waits
        assert answer.answer == "Very good, sir." and not background.gate.is_set()
        # after the turn
        wait_until(lambda: background.summaries == 2, what="the summary to be asked again")
        background.gate.set()
        assert served.wait_hangup(5)  # the first call was closed to make way for the turn
        assert butler.wait_background(20)
        assert rows(
            user_db(home), "SELECT from_message, up_to_message FROM conversation_compacts"
        ) == [(1, 4)]
    assert background.summaries == 2  # paused once, then done
    paused = [e for e in events if isinstance(e, CompactionFailed)]
    assert len(paused) == 1 and "paused to make way for a new message" in paused[0].reason
    assert any(isinstance(e, CompactionFinished) and e.how == "model" for e in events)


def test_a_block_that_made_way_twice_is_extracted_so_no_answer_waits_and_it_is_still_done(
    background, served, home
):
    with tatlock.open() as butler:
        butler.ask("The boiler code is 4417.")
        butler.ask("The gate code is 2291.")
        for n in (1, 2):
            wait_until(lambda n=n: background.summaries == n, what=f"summary call {n}")
            butler.ask(f"Thank you, number {n}.")  # each pauses it; it asks again after the turn
        # made way twice: the block is summarised without the model, while the summary calls hang
        wait_until(
            lambda: rows(user_db(home), "SELECT count(*) FROM conversation_compacts")[0][0] >= 1,
            what="the compact",
        )
        assert not background.gate.is_set()  # (the next block, 5-8, may be at the gate by now)
        assert rows(
            user_db(home),
            "SELECT from_message, up_to_message, model FROM "
            "conversation_compacts"
            " ORDER BY from_message",
        )[0] == (1, 4, "extract")
        assert (
            "4417"
            in rows(
                user_db(home), "SELECT summary FROM conversation_compacts ORDER BY from_message"
            )[0][0]
        )
        background.gate.set()
        assert butler.wait_background(20)
    wait_until(lambda: len(served.hangups) == 2, what="the two calls it left")


def test_the_briefing_waits_until_the_conversation_is_quiet(background, served, home, monkeypatch):
    monkeypatch.setattr(housekeeping, "SETTLE", 30.0)
    background.gate.set()
    with tatlock.open() as butler:
        for i in range(3):
            butler.ask(f"Thank you, number {i}.")
        time.sleep(0.5)  # a chance for the briefing that must not come yet (its quiet is 30 s)
        # not while it goes on
        assert "cross_summary" not in [phase_of(b) for b in served.chat_requests]
        assert butler.wait_background(20)  # asked to finish now: it does not wait for quiet
    assert [phase_of(b) for b in served.chat_requests].count("cross_summary") == 1
    assert rows(
        user_db(home),
        "SELECT count(*) FROM cross_conversation_summaries WHERE conversation_id IS NULL",
    ) == [(1,)]


def test_one_housekeeper_at_a_time_for_a_user(served, home, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    served.handler = lambda body: (
        SUMMARY if phase_of(body) == "summary" else direct("Very good, sir.")
    )
    with tatlock.open() as butler:
        for i in range(2):
            butler.ask(f"Question {i}?")
    cfg = load()
    hk = Housekeeper(
        cfg.paths, "tester", backend=lambda: pytest.fail("no model call"), interval=4, budget=4096
    )
    other = Lock(cfg.paths.user_dir("tester") / locks.LOCK_NAME)
    assert other.acquire()  # another housekeeper (a process, say) is at work
    try:
        left = hk.run(hurry=True)
        # it leaves the work to the one at work
        assert hk.busy_elsewhere and left.compactions == [1]
    finally:
        other.release()
    assert rows(user_db(home), "SELECT count(*) FROM conversation_compacts") == [(0,)]


def test_closing_hands_what_is_left_to_a_detached_housekeeper_and_says_so_once(
    served, home, monkeypatch
):
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    started: list = []
    monkeypatch.setattr(detached, "spawn", lambda *a, **kw: started.append((a, kw)) or 4242)
    model = SlowSummaries()
    served.handler = model
    butler = tatlock.open()
    butler.ask("The boiler code is 4417.")
    butler.ask("The gate code is 2291.")
    wait_until(lambda: model.summaries == 1, what="the summary call")
    t0 = time.monotonic()
    note = butler.close()  # the summary is stuck at the gate: close waits a moment, no more
    assert time.monotonic() - t0 < runner.HANDOFF_WAIT + 10
    assert note == (
        "the summary of conversation 1, and the briefing for your next conversation, go on in the "
        "background (process 4242); it is safe to stop it"
    )
    assert len(started) == 1 and started[0][1]["username"] == "tester"
    # its claim was let go
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]
    assert rows(user_db(home), "SELECT count(*) FROM conversation_compacts") == [(0,)]
    model.gate.set()


def test_a_detached_housekeeper_does_the_work_and_ends(served, home, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    model = SlowSummaries()
    served.handler = model
    with tatlock.open() as butler:  # (the "off" mode: nothing is done here)
        for i in range(2):
            butler.ask(f"Question {i}?")
    cfg = load()
    pid = spawn(cfg.paths, "tester", model="llama3.2:3b", budget=4096, settle=0.1)
    assert pid and (cfg.paths.user_dir("tester") / locks.PID_NAME).read_text().strip() == str(pid)
    presence = Lock(cfg.paths.user_dir("tester") / locks.PRESENCE_NAME)
    wait_until(lambda: model.summaries == 1, what="its summary call")
    assert presence.holder() == pid
    # one alive: no second one
    assert spawn(cfg.paths, "tester", model="llama3.2:3b", budget=4096) == 0
    model.gate.set()
    # nothing left: it ends
    wait_until(lambda: not _alive(pid), timeout=60, what="the housekeeper to end")
    assert rows(user_db(home), "SELECT from_message, up_to_message FROM conversation_compacts") == [
        (1, 4)
    ]
    assert rows(
        user_db(home),
        "SELECT count(*) FROM cross_conversation_summaries WHERE conversation_id IS NULL",
    ) == [(1,)]
    assert presence.holder() is None


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def test_a_detached_housekeeper_ends_at_its_lifetime_even_mid_call(served, home, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    model = SlowSummaries()
    served.handler = model
    with tatlock.open() as butler:
        for i in range(2):
            butler.ask(f"Question {i}?")
    env = {**os.environ}
    t0 = time.monotonic()
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tatlock.memory.detached",
            "--user",
            "tester",
            "--model",
            "llama3.2:3b",
            "--budget",
            "4096",
            "--lifetime",
            "2",
            "--compact-settle",
            "0",
        ],
        env=env,
        timeout=60,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and model.summaries == 1 and not model.gate.is_set()
    # cut at its lifetime, not at the call's 15 s timeout or later
    assert time.monotonic() - t0 < 30
    # the claim was let go
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]
    log = (home / "logs" / "housekeeping.log").read_text()
    assert "left the summary of conversation 1" in log
    model.gate.set()


def test_a_detached_housekeeper_fits_its_requests_to_a_server_with_a_smaller_window(
    served, home, monkeypatch
):
    """The detached process's backend is fitted as the butler's are (memory/fit.py): a server
    whose window is smaller than believed refuses the summary's request for its length, and the
    request is made again to fit, instead of the work being left for ever."""
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", served.url + "/v1")
    served.handler = lambda body: (
        "TOPICS DISCUSSED\n- tulips\n\nKEY FACTS ESTABLISHED\n- Tester: the tulips are red\n"
        if phase_of(body) == "summary"
        else CROSS
        if phase_of(body) == "cross_summary"
        else direct("Noted, sir.")
    )
    with tatlock.open() as butler:
        for _ in range(2):
            butler.ask("The tulips are red. " + "Tulips grow in my garden. " * 200)
    served.reset()
    # llama-server loaded with a smaller window than the 4,096 the tier believes
    served.n_ctx = 2000
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tatlock.memory.detached",
            "--user",
            "tester",
            "--model",
            "llama3.2:3b",
            "--budget",
            "4096",
            "--lifetime",
            "30",
            "--compact-settle",
            "0",
            "--settle",
            "0",
        ],
        env={**os.environ},
        timeout=60,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    assert rows(
        user_db(home), "SELECT from_message, up_to_message, model FROM conversation_compacts"
    ) == [(1, 4, "llama3.2:3b")]
    summaries = [b for b in served.chat_requests if phase_of(b) == "summary"]
    assert len(summaries) >= 2  # refused for its length, then made to fit


def test_what_is_left_is_said_in_plain_words():
    from tatlock.memory.housekeeping import Work

    assert Work([3]).describe() == "the summary of conversation 3"
    assert Work([3, 2], True).describe() == (
        "the summaries of conversations 3 and 2, and the briefing for your next conversation,"
    )
    assert (
        Work([], True).describe() == "the briefing for your next conversation"
        and not Work([], True).many
    )
    assert Work([9, 8, 7, 6, 5]).describe() == "the summaries of conversations 9, 8, 7, 6 and more"


def test_a_model_that_cannot_write_summaries_is_not_asked_every_time(
    served, home, monkeypatch, tmp_path
):
    """SmolLM2 wrote no usable briefing in 53 tries; each try costs minutes of a small machine's
    processor. After three unusable summaries in a row the extract is written straight away, and
    the model is asked again once in ten."""
    from tatlock.memory.summarise import TrackRecord

    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "2")
    asked: list[str] = []

    def model(body):
        if phase_of(body) == "summary":
            asked.append("summary")
            return "I cannot do that."
        return direct("Very good, sir.")

    served.handler = model
    with tatlock.open() as butler:
        for i in range(14):
            butler.ask(f"The code of locker {i} is {1000 + i}.")
            assert butler.wait_background(20)
    compacts = rows(
        user_db(home), "SELECT from_message, model FROM conversation_compacts ORDER BY from_message"
    )
    assert len(compacts) == 14 and {m for _, m in compacts} == {"extract"}  # every block summarised
    # asked (with its one repair) for the first three, then once in ten: the thirteenth block
    assert len(asked) == 2 * 4
    record = TrackRecord(home / "summary_record.json", "llama3.2:3b")
    assert not record.worth_asking()
    record.note("repaired", asked=True)  # a model that does better is asked every time again
    assert record.worth_asking()
