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
from support import replies
from support.store import stored_messages as stored
from support.waiting import wait_until
from tatlock.events import (
    AnswerToken,
    CompactionFinished,
    CompactionStarted,
    ConversationReady,
    ErrorEvent,
    MessageStored,
    TurnCancelled,
    TurnFinished,
)

LONG = (
    "Paris is the capital of France, sir, and has been for a good many centuries, "
    "through kings, emperors, republics and a great deal of pastry."
)


direct = functools.partial(replies.direct, topics=("geography",))


def test_readme_example_runs_as_written(served, home):
    served.queue(direct("Paris, sir."), direct("You are most welcome, sir."))
    with tatlock.open(user="maria") as butler:  # a new user is registered on first use
        turn = butler.turn("What is the capital of France?")
        events = list(turn)
        turn.cancel()  # after the end: harmless
        finished = butler.ask("Thanks!")
    assert isinstance(events[0], ConversationReady) and isinstance(events[-1], TurnFinished)
    assert events[-1].answer == "Paris, sir." and finished.answer == "You are most welcome, sir."
    assert {e.turn_id for e in events} == {turn.id} and turn.id
    assert [r["content"] for r in stored(home, "maria")] == [
        "What is the capital of France?",
        "Paris, sir.",
        "Thanks!",
        "You are most welcome, sir.",
    ]


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
    assert (
        kinds[0] == "ConversationReady" and kinds[-1] == "TurnFinished" and "AnswerToken" in kinds
    )
    assert ticks > 20  # the loop kept running while the answer streamed (~1.2 s)


def test_cancel_closes_the_stream_keeps_the_partial_answer_and_the_next_turn_works(
    served, home, cli
):
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
        wait_until(lambda: served.chat_requests, what="the model to be asked")
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
            return {
                "content": "TOPICS DISCUSSED\n- tea\n\nFACTUAL TIMELINE\n- #1: talk\n\nKEY "
                "FACTS ESTABLISHED\n"
                "- Tester likes tea\n\nUNRESOLVED ITEMS\n- none\n\nTECHNICAL "
                "DETAILS\n- none"
            }
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
    turn_over = threading.Event()
    outcome: dict[str, object] = {}

    def slow(*, ctx, key, value):
        turn_over.wait(10)  # past the tool timeout: the turn goes on without it, and ends
        try:
            outcome["result"] = original(ctx=ctx, key=key, value=value)
        except Exception as exc:
            outcome["error"] = exc
        done.set()

    monkeypatch.setattr(memory_tools, "set_personal_variable", slow)
    monkeypatch.setenv("TATLOCK_TOOL_TIMEOUT", "0.3")
    served.queue(
        {
            "json": {
                "decision": "TOOLS_NEEDED",
                "guard_reason": "NONE",
                "answer": "",
                "tools": ["set_personal_variable"],
                "tool_query": "location Paris",
                "topics": [],
            }
        },
        {
            "tool_calls": [
                {
                    "name": "set_personal_variable",
                    "arguments": {"key": "location", "value": "Paris"},
                }
            ]
        },
        "I could not note it just now, sir.",
    )
    with tatlock.open() as butler:
        # a call of the model's: the extractor keeps nothing
        final = butler.ask("Please save Paris as my location")
        turn_over.set()
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
            except BaseException as exc:
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

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Python API") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    served.queue(direct("Paris, sir."), direct("You are most welcome, sir."))
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Paris, sir." in out and "You are most welcome, sir. DIRECT APPROVED" in out
    assert "What is the capital of France?" in out  # the search found the question, with a snippet


# -- issue 18: regenerate, edit-and-resend, a model per conversation --------------------------


def _prompt_text(request) -> str:
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


def test_regenerate_answers_the_last_question_again_and_marks_the_old_reply_superseded(
    served, home
):
    served.queue(direct("Lyon, sir."), direct("Paris, sir."), direct("You are welcome, sir."))
    with tatlock.open() as butler:
        first = butler.ask("Which French city should I visit first?", new=True)
        cid = first.conversation_id
        turn = butler.regenerate(cid)
        events = list(turn)
        again = turn.result()
        assert isinstance(again, TurnFinished) and again.answer == "Paris, sir."
        assert again.user_message_id == first.user_message_id  # the same question, answered again
        assert not [e for e in events if isinstance(e, MessageStored) and e.role == "user"]
        # the model saw the question, not the reply it is replacing
        prompt = _prompt_text(served.chat_requests[-1])
        assert "Which French city should I visit first?" in prompt and "Lyon" not in prompt
        butler.ask("Thanks!", conversation_id=cid)
        later = _prompt_text(served.chat_requests[-1])
        # superseded: not fed to the model again
        assert "Paris, sir." in later and "Lyon" not in later
        detail = butler.conversations.get(cid)
    rows = stored(home)
    assert [r["content"] for r in rows] == [
        "Which French city should I visit first?",
        "Lyon, sir.",
        "Paris, sir.",
        "Thanks!",
        "You are welcome, sir.",
    ]
    lyon = json.loads(rows[1]["metadata"])["superseded"]
    assert lyon["by"] == rows[2]["message_id"] and lyon["how"] == "regenerated"
    assert rows[2]["reply_to"] == rows[0]["message_id"]
    assert [m.message_number for m in detail.messages] == [1, 2, 3, 4, 5]  # nothing deleted


def test_edit_last_replaces_the_question_and_keeps_the_old_exchange_superseded(served, home):
    served.queue(direct("Rome, sir."), direct("Madrid, sir."))
    with tatlock.open() as butler:
        first = butler.ask("What is the capital of Italy?", new=True)
        turn = butler.edit_last(first.conversation_id, "What is the capital of Spain?")
        done = turn.result()
        assert isinstance(done, TurnFinished) and done.answer == "Madrid, sir."
        prompt = _prompt_text(served.chat_requests[-1])
        assert "Spain" in prompt and "Italy" not in prompt and "Rome" not in prompt
        # a second edit replaces the edited one; an empty edit is refused, nothing stored
        with pytest.raises(tatlock.UsageError):
            butler.edit_last(first.conversation_id, "   ")
    rows = stored(home)
    assert [r["content"] for r in rows] == [
        "What is the capital of Italy?",
        "Rome, sir.",
        "What is the capital of Spain?",
        "Madrid, sir.",
    ]
    marks = [json.loads(r["metadata"]).get("superseded") for r in rows]
    assert (
        marks[0]["how"] == marks[1]["how"] == "edited"
        and marks[0]["by"] == marks[1]["by"] == rows[2]["message_id"]
    )
    assert marks[2] is None and marks[3] is None
    assert json.loads(rows[2]["metadata"])["edit_of"] == rows[0]["message_id"]


def test_regenerate_that_fails_or_is_stopped_at_once_leaves_the_old_answer_standing(served, home):
    from support.fake_ollama import FakeError

    served.queue(direct("Berlin, sir."), FakeError(500, "out of memory"))
    with tatlock.open() as butler:
        first = butler.ask("What is the capital of Germany?", new=True)
        failed = butler.regenerate(first.conversation_id).result()
        assert isinstance(failed, ErrorEvent) and "out of memory" in failed.message
        served.delay = 5.0  # the server thinks; the user stops the new answer before a word of it
        asked = len(served.chat_requests)
        stopped = butler.regenerate(first.conversation_id)
        wait_until(lambda: len(served.chat_requests) > asked, what="the model to be asked again")
        stopped.cancel()
        assert isinstance(stopped.result(), TurnCancelled)
        served.delay = 0.0
    rows = stored(home)
    standing = [r["content"] for r in rows if not json.loads(r["metadata"]).get("superseded")]
    assert standing[:2] == ["What is the capital of Germany?", "Berlin, sir."]
    # only the empty, cancelled try was stored besides
    assert all(not r["content"] for r in rows[2:])


def test_regenerate_and_edit_refuse_what_they_cannot_do(served):
    served.handler = lambda body: direct("Certainly, sir.")
    with tatlock.open() as butler:
        empty = butler.conversations.create("tui", "tui")
        with pytest.raises(tatlock.UsageError, match="no question"):
            butler.regenerate(empty.id)
        with pytest.raises(tatlock.NotFound):
            butler.edit_last(99999, "hello")
        with pytest.raises(tatlock.UsageError):
            butler.regenerate("not a number")  # type: ignore[arg-type]


def test_a_conversation_keeps_the_model_chosen_for_it_and_new_ones_use_the_default(served, home):
    served.add_model("qwen2.5:7b")
    served.handler = lambda body: direct(f"Answered by {body['model']}, sir.")
    with tatlock.open() as butler:
        one = butler.ask("Hello?", new=True)
        assert one.answer == "Answered by llama3.2:3b, sir."
        butler.conversations.set_model(one.conversation_id, "qwen2.5:7b")
        assert (
            butler.ask("Again?", conversation_id=one.conversation_id).answer
            == "Answered by qwen2.5:7b, sir."
        )
        assert (
            butler.regenerate(one.conversation_id).result().answer == "Answered by qwen2.5:7b, sir."
        )
        other = butler.ask("And here?", new=True)
        assert other.answer == "Answered by llama3.2:3b, sir."  # a new conversation: the default
        started = butler.turn("Chosen first?", new=True, model="qwen2.5:7b").result()
        assert started.answer == "Answered by qwen2.5:7b, sir."
        assert (
            butler.conversations.get(started.conversation_id).conversation.metadata["model"]
            == "qwen2.5:7b"
        )
        butler.conversations.set_model(one.conversation_id, None)  # back to the default
        assert (
            butler.ask("Now?", conversation_id=one.conversation_id).answer
            == "Answered by llama3.2:3b, sir."
        )
        with pytest.raises(tatlock.UsageError):
            butler.conversations.set_model(one.conversation_id, "two words")
        with pytest.raises(tatlock.UsageError):
            butler.turn("x", new=True, model="bad model")
        assert len(butler.conversations.list()) == 3  # the refused turn made no conversation
    # the chosen model is remembered by the next process
    with tatlock.open() as butler:
        assert (
            butler.ask("Still?", conversation_id=started.conversation_id).answer
            == "Answered by qwen2.5:7b, sir."
        )
        assert butler.models.for_conversation(one.conversation_id) == "llama3.2:3b"


def test_a_superseded_answer_is_marked_in_recall_and_left_out_of_summaries(served, home):
    from tatlock.memory import context as memory_context
    from tatlock.memory.summary_format import transcript
    from tatlock.tools.base import ToolContext
    from tatlock.tools.memory import recall_memories

    served.queue(
        direct("The boiler man comes on Monday, sir."),
        direct("The boiler man comes on Friday, sir."),
    )
    with tatlock.open() as butler:
        first = butler.ask("When does the boiler man come?", new=True)
        butler.regenerate(first.conversation_id).result()
        store = butler.store
        found = recall_memories(ctx=ToolContext("tester", store), keyword="boiler man")["results"]
        by_text = {r["text"]: r.get("superseded") for r in found}
        assert (
            by_text["The boiler man comes on Monday, sir."]
            == "regenerated later: this no longer stands"
        )
        assert by_text["The boiler man comes on Friday, sir."] is None
        # what compaction and briefings read
        block = transcript(store.messages(first.conversation_id))
        assert "Friday" in block and "Monday" not in block
        # once summarised, an answer superseded later is named, so the summary's word is not taken
        # for it
        store.conn.execute(
            "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, "
            "summary,"
            " model, created_at) VALUES (?, 1, 3, 'KEY FACTS ESTABLISHED:\n- "
            "Monday', 'm', 'now')",
            (first.conversation_id,),
        )
        store.conn.execute(
            "UPDATE conversations SET compacted_up_to = 3 WHERE id = ?", (first.conversation_id,)
        )
        ctx = memory_context.build(store, first.conversation_id, budget_tokens=4096)
        assert (
            ctx.withdrawn == [2]
            and "message(s) #2 of this conversation were answered again" in ctx.summary_block()
        )
