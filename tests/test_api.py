"""The Python API every interface stands on: tatlock.open(), Butler, Turn (iterable,
async-iterable, cancellable from any thread), background events, and thread safety.

Against the fake Ollama server over real loopback HTTP with the real ollama client."""

from __future__ import annotations

import asyncio
import functools
import json
import threading
import time

import pytest

import tatlock
from tatlock.events import (
    AnswerToken, CompactionFinished, CompactionStarted, ConversationReady, ErrorEvent, MessageStored, TurnCancelled,
    TurnFinished,
)
from support import replies
from support.store import stored_messages as stored

LONG = ("Paris is the capital of France, sir, and has been for a good many centuries, "
        "through kings, emperors, republics and a great deal of pastry.")


direct = functools.partial(replies.direct, topics=("geography",))


def test_readme_example_runs_as_written(served, home):
    served.queue(direct("Paris, sir."), direct("You are most welcome, sir."))
    with tatlock.open(user="maria") as butler:      # a new user is registered on first use
        turn = butler.turn("What is the capital of France?")
        events = list(turn)
        turn.cancel()                               # after the end: harmless
        finished = butler.ask("Thanks!")
    assert isinstance(events[0], ConversationReady) and isinstance(events[-1], TurnFinished)
    assert events[-1].answer == "Paris, sir." and finished.answer == "You are most welcome, sir."
    assert {e.turn_id for e in events} == {turn.id} and turn.id
    assert [r["content"] for r in stored(home, "maria")] == [
        "What is the capital of France?", "Paris, sir.", "Thanks!", "You are most welcome, sir."]


def test_open_uses_home_and_refuses_unknown_users_when_asked(served, tmp_path):
    other = tmp_path / "elsewhere"
    with tatlock.open(home=other) as butler:
        assert butler.paths.data_dir == other and (other / "system.db").exists()
    with pytest.raises(tatlock.NotFound) as info:
        tatlock.open(user="nobody", home=other, create=False)
    assert info.value.kind == "user"
    with pytest.raises(tatlock.UsageError):
        tatlock.open(user="../evil", home=other)


def test_every_event_carries_its_turn_id_and_turns_differ(served):
    served.queue(direct("One, sir."), direct("Two, sir."))
    with tatlock.open() as butler:
        a, b = butler.turn("first"), None
        first = list(a)
        b = butler.turn("second")
        second = list(b)
    assert a.id != b.id
    assert all(e.turn_id == a.id for e in first) and all(e.turn_id == b.id for e in second)
    assert a.final is first[-1] and a.done and not a.cancelled


def test_a_turn_starts_at_once_and_streams_while_generated(served):
    """The first answer token arrives while the server is still sending the rest."""
    served.token_delay = 0.15
    served.queue(direct(LONG))
    with tatlock.open() as butler:
        t0 = time.monotonic()
        turn = butler.turn("What is the capital of France?")
        assert time.monotonic() - t0 < 1.0  # returned before the model answered
        first_token_at = None
        for ev in turn:
            if isinstance(ev, AnswerToken) and first_token_at is None:
                first_token_at = time.monotonic()
                assert not turn.done
        finished_at = time.monotonic()
    assert first_token_at is not None
    assert finished_at - first_token_at > 1.0  # ~25 pieces at 0.15 s each were still to come


async def test_async_iteration_does_not_block_the_loop(served):
    served.token_delay = 0.05
    served.queue(direct(LONG))
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    with tatlock.open() as butler:
        task = asyncio.create_task(ticker())
        turn = butler.turn("What is the capital of France?")
        kinds = [type(ev).__name__ async for ev in turn]
        stop.set()
        await task
    assert kinds[0] == "ConversationReady" and kinds[-1] == "TurnFinished" and "AnswerToken" in kinds
    assert ticks > 20  # the loop kept running while the answer streamed (~1.2 s)


def test_cancel_closes_the_stream_keeps_the_partial_answer_and_the_next_turn_works(served, home, cli):
    served.token_delay = 0.3
    served.queue(direct(LONG), direct("Quite so, sir."))
    with tatlock.open() as butler:
        turn = butler.turn("Tell me about Paris")
        shown = ""
        cancelled_at = None
        for ev in turn:
            if isinstance(ev, AnswerToken):
                shown += ev.text
                if cancelled_at is None:
                    cancelled_at = time.monotonic()
                    threading.Thread(target=turn.cancel).start()  # from another thread
        ended_at = time.monotonic()
        final = turn.final
        assert isinstance(final, TurnCancelled)
        assert ended_at - cancelled_at < 0.5
        assert served.wait_hangup(2.0)  # the server saw the stream closed early
        assert final.partial == shown.strip() and 0 < len(final.partial) < len(LONG)
        served.token_delay = 0
        assert butler.ask("Thank you").answer == "Quite so, sir."
    rows = stored(home)
    assert [r["role"] for r in rows] == ["user", "assistant", "user", "assistant"]
    meta = json.loads(rows[1]["metadata"])
    assert rows[1]["content"] == final.partial and meta["cancelled"] is True
    assert "cancelled" not in json.loads(rows[3]["metadata"])
    shown_cli = cli("memory", "show", str(final.conversation_id)).out
    assert "[cancelled]" in shown_cli and final.partial in shown_cli


def test_cancel_while_the_server_is_still_thinking(served, home):
    """Before the first byte (a slow prompt evaluation) a cancel ends the turn at once too."""
    served.delay = 5.0
    served.queue(direct("Too late, sir."))
    with tatlock.open() as butler:
        turn = butler.turn("Slow question")
        time.sleep(0.3)
        t0 = time.monotonic()
        turn.cancel()
        assert turn.wait(1.0) and time.monotonic() - t0 < 0.5
        assert isinstance(turn.final, TurnCancelled) and turn.final.partial == ""
        served.delay = 0
        served.queue(direct("Here now, sir."))
        butler.ask("Are you there?")
        prompt = served.chat_requests[-1]["messages"][-1]["content"]
        assert "Assistant: (the reply was cancelled before it began)" in prompt
    rows = stored(home)
    assert rows[0]["content"] == "Slow question"  # the question is kept
    assert json.loads(rows[1]["metadata"])["cancelled"] is True


def test_a_call_deadline_is_honoured(served, monkeypatch):
    monkeypatch.setenv("TATLOCK_TIMEOUT", "1")
    served.token_delay = 0.4  # every read arrives in time, the whole call does not
    served.queue(direct(LONG))
    with tatlock.open() as butler:
        t0 = time.monotonic()
        final = butler.turn("Slow answer").result()
    assert isinstance(final, ErrorEvent) and final.kind == "timeout"
    assert time.monotonic() - t0 < 2.5


def test_background_compaction_reaches_subscribers_as_it_happens(served, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")

    def model(body):
        if body["messages"][0]["content"].startswith("You are the record keeper"):
            return {"content": "TOPICS DISCUSSED\n- tea\n\nFACTUAL TIMELINE\n- #1: talk\n\nKEY FACTS ESTABLISHED\n"
                               "- Tester likes tea\n\nUNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none"}
        return direct("Indeed, sir.")

    served.handler = model
    seen: list[tuple[str, float]] = []
    with tatlock.open() as butler:
        butler.subscribe(lambda ev: seen.append((type(ev).__name__, time.monotonic())))
        butler.ask("I like tea")
        t = butler.turn("Earl Grey especially")
        last = t.result()
        assert butler.wait_background(10)
    names = [n for n, _ in seen]
    assert "CompactionStarted" in names and "CompactionFinished" in names
    assert names.index("CompactionStarted") > names.index("TurnFinished")
    compaction = [ev for ev in t.events if isinstance(ev, (CompactionStarted, CompactionFinished))]
    assert compaction == []  # background events are not part of the turn's own stream
    assert isinstance(last, TurnFinished)


def test_a_tool_that_times_out_cannot_write_after_its_turn(served, monkeypatch, home):
    import tatlock.tools.memory as memory_tools

    original = memory_tools.set_personal_variable
    done = threading.Event()
    outcome: dict[str, object] = {}

    def slow(*, ctx, key, value):
        time.sleep(1.0)  # past the tool timeout: the turn goes on without it
        try:
            outcome["result"] = original(ctx=ctx, key=key, value=value)
        except Exception as exc:  # noqa: BLE001 - what the late write met
            outcome["error"] = exc
        done.set()

    monkeypatch.setattr(memory_tools, "set_personal_variable", slow)
    monkeypatch.setenv("TATLOCK_TOOL_TIMEOUT", "0.3")
    served.queue(
        {"json": {"decision": "TOOLS_NEEDED", "guard_reason": "NONE", "answer": "", "tools": ["set_personal_variable"],
                  "tool_query": "location Paris", "topics": []}},
        {"tool_calls": [{"name": "set_personal_variable", "arguments": {"key": "location", "value": "Paris"}}]},
        "I could not note it just now, sir.",
    )
    with tatlock.open() as butler:
        final = butler.ask("Please save Paris as my location")  # a call of the model's: the extractor keeps nothing
        assert "could not" in final.answer
        assert done.wait(3)
        assert "error" in outcome and "ended" in str(outcome["error"])
        assert butler.variables.value("location") is None


def test_store_is_used_from_several_threads_during_a_turn(served):
    served.token_delay = 0.05
    served.queue(direct(LONG))
    with tatlock.open() as butler:
        butler.variables.set("location", "Rotterdam")
        turn = butler.turn("Tell me about Paris")
        errors: list[BaseException] = []

        def reader() -> None:
            try:
                for _ in range(30):
                    butler.conversations.list()
                    butler.variables.list()
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for th in threads:
            th.start()
        final = turn.result()
        for th in threads:
            th.join()
    assert errors == [] and isinstance(final, TurnFinished)


def test_message_stored_first_even_when_the_server_is_down(served, home):
    served.stop()
    with tatlock.open() as butler:
        turn = butler.turn("Anyone home?")
        events = list(turn)
        with pytest.raises(tatlock.BackendError):
            butler.ask("Hello?")
    assert isinstance(events[-1], ErrorEvent) and events[-1].hint == "start it with `ollama serve`"
    assert any(isinstance(e, MessageStored) and e.role == "user" for e in events)
    assert [r["content"] for r in stored(home)] == ["Anyone home?", "Hello?"]


def test_empty_or_unknown_input_raises_clear_errors(served):
    with tatlock.open() as butler:
        with pytest.raises(tatlock.UsageError):
            butler.turn("   ")
        with pytest.raises(tatlock.NotFound) as info:
            butler.turn("hi", conversation_id=99999999999999999999)
        assert info.value.kind == "conversation"
        with pytest.raises(tatlock.NotFound):
            butler.conversations.get(424242)


def test_a_huge_message_is_cut_for_the_model_but_stored_whole(served, home):
    served.queue(direct("A long read, sir."))
    big = "word " * 200_000  # 1 MB
    with tatlock.open() as butler:
        turn = butler.turn(big)
        final = turn.result()
        notices = [e for e in turn.events if type(e).__name__ == "Notice" and e.kind == "truncated"]
    assert isinstance(final, TurnFinished) and notices
    prompt = "\n".join(m["content"] for m in served.chat_requests[0]["messages"])
    assert len(prompt) < 20_000 and "message cut here for length" in prompt
    assert stored(home)[0]["content"] == big


def test_the_readme_python_example_runs_verbatim(served, home, capsys):
    """The example in README.md, extracted and run as written."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme[readme.index("## Python API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    served.queue(direct("Paris, sir."), direct("You are most welcome, sir."))
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Paris, sir." in out and "You are most welcome, sir. DIRECT APPROVED" in out
    assert "What is the capital of France?" in out  # the search found the question, with a snippet
