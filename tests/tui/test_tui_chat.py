"""The TUI's chat, driven as a user would (Textual's pilot) against the fake model server over
real loopback HTTP and real SQLite files: a turn streams and is stored, Esc stops an answer,
the composer's keys, slash commands, speaking as a guest, copying, inert escape sequences."""

from __future__ import annotations

import json

import tatlock
from support.store import stored_messages as rows
from support.tui import LONG, direct, running, said, send, until
from tatlock.tui.widgets.message import MessageView, StoredView


async def test_a_question_streams_into_the_transcript_and_is_stored(served, home):
    served.queue(direct("Paris, sir. **Quite** so."))
    async with running() as (app, pilot):
        await pilot.press(*"Hi")  # typed key by key
        assert app.chat.composer.text == "Hi"
        app.chat.composer.load_text("What is the capital of France?")
        await pilot.press("enter")
        assert app.chat.composer.text == ""  # sent
        await until(
            pilot,
            lambda: (
                app.chat.turn is not None
                and app.chat.turn.done
                and not app.chat.transcript.messages[-1].streaming
            ),
        )
        await pilot.pause(0.3)
        user, reply = app.chat.transcript.messages
        assert isinstance(user, StoredView) and user.text == "What is the capital of France?"
        assert user.number == 1 and user.author == app.butler.anchor().name
        assert isinstance(reply, MessageView) and reply.text == "Paris, sir. **Quite** so."
        assert reply.body.source == "Paris, sir. **Quite** so."  # streamed into the Markdown widget
        assert reply.number == 2 and reply.author == "Tatlock"
        assert reply.footer_text.startswith("DIRECT · 1 model call · ")
        debug = [text for text, _, _ in app.pane("debug").lines]
        assert any(t.startswith("decision DIRECT (model)") for t in debug)
        assert any(t.startswith("✓ assess") and "1 call" in t for t in debug)
        assert any(t.startswith("» model call: assess") for t in debug)
        cid = app.chat.conversation_id
        assert app.sidebar.conversations[0].id == cid  # listed at once
        assert app.chat.last_answer == "Paris, sir. **Quite** so."
    assert [r["content"] for r in rows(home)] == [
        "What is the capital of France?",
        "Paris, sir. **Quite** so.",
    ]


async def test_esc_stops_a_streaming_answer_keeps_it_marked_and_stores_it_cancelled(served, home):
    served.token_delay = 0.2
    served.queue(direct(LONG), direct("Quite so, sir."))
    async with running() as (app, pilot):
        await send(app, pilot, "Tell me about Paris", wait=False)
        await until(
            pilot,
            lambda: (
                len(app.chat.transcript.messages) == 2
                and len(app.chat.transcript.messages[-1].text) > 10
            ),
            what="the first words",
        )
        await pilot.press("escape")
        await until(
            pilot, lambda: app.chat.turn.done and not app.chat.transcript.messages[-1].streaming
        )
        await pilot.pause(0.2)
        reply = app.chat.transcript.messages[-1]
        assert "cancelled" in reply.marks and reply.has_class("cancelled")
        assert "cancelled: what was said is kept" in reply.foot_text()
        partial = app.chat.turn.final.partial
        assert partial and len(partial) < len(LONG) and reply.text.strip() == partial
        assert served.wait_hangup(2.0)  # the model's stream was closed, not left running
        served.token_delay = 0
        await send(app, pilot, "Thank you")  # the chat goes on
        assert said(app)[-1] == ("assistant", "Quite so, sir.")
    stored = rows(home)
    assert (
        stored[1]["content"] == partial and json.loads(stored[1]["metadata"])["cancelled"] is True
    )
    assert "cancelled" not in json.loads(stored[3]["metadata"])


async def test_composer_keys_newlines_and_recalling_earlier_inputs(served):
    served.handler = lambda body: direct("Noted, sir.")
    async with running() as (app, pilot):
        composer = app.chat.composer
        composer.focus()
        await pilot.press("a", "shift+enter", "b", "ctrl+j", "c")
        assert composer.text == "a\nb\nc"
        await pilot.press("enter")
        await until(pilot, lambda: app.chat.turn is not None and app.chat.turn.done)
        await send(app, pilot, "second")
        assert [t for r, t in said(app) if r == "user"] == ["a\nb\nc", "second"]
        composer.focus()
        await pilot.press("x", "up")  # the draft is kept while browsing
        assert composer.text == "second"
        await pilot.press("up")
        assert composer.text == "a\nb\nc"
        await pilot.press("down", "down", "down")
        assert composer.text == "x"


async def test_speaking_as_a_guest_and_back(served, home):
    served.handler = lambda body: direct("Good day.")
    async with running() as (app, pilot):
        await send(app, pilot, "/as Maria Lopez", wait=False)
        await until(pilot, lambda: "speaking as Maria Lopez" in str(app.chat.composer.border_title))
        await send(app, pilot, "Hello from Maria")
        assert app.chat.transcript.messages[-2].author == "Maria Lopez"
        assert app.chat.transcript.messages[-2].has_class("guest")
        await send(app, pilot, "/as", wait=False)
        await until(pilot, lambda: "a guest" not in str(app.chat.composer.border_title))
        await send(app, pilot, "Hello again")
        assert app.chat.transcript.messages[-2].author == app.butler.anchor().name
    authors = [(r["author_name"], r["is_anchor"]) for r in rows(home) if r["role"] == "user"]
    assert authors[0] == ("Maria Lopez", 0) and authors[1][1] == 1


async def test_slash_commands_new_help_export_and_unknown(served, tmp_path):
    served.handler = lambda body: direct("Certainly, sir.")
    async with running() as (app, pilot):
        await send(app, pilot, "First question")
        first = app.chat.conversation_id
        out = tmp_path / "talk.md"
        await send(app, pilot, f"/export md {out}", wait=False)
        await until(pilot, lambda: out.exists())
        assert (
            out.read_text().startswith("# First question") and "Certainly, sir." in out.read_text()
        )
        await send(app, pilot, f"/export json {tmp_path / 'talk.json'}", wait=False)
        await until(pilot, lambda: (tmp_path / "talk.json").exists())
        assert json.loads((tmp_path / "talk.json").read_text())["conversation"]["id"] == first
        await send(app, pilot, "/new", wait=False)
        await until(
            pilot, lambda: app.chat.conversation_id is None and app.chat.transcript.messages == []
        )
        await send(app, pilot, "Second question")
        assert app.chat.conversation_id not in (None, first)
        await send(app, pilot, "/help", wait=False)
        await until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await pilot.press("escape")
        await send(app, pilot, "/frobnicate", wait=False)
        await until(
            pilot,
            lambda: any(
                "Unknown command /frobnicate" in str(n.message) for n in app._notifications
            ),
        )
        assert said(app)[-1] == ("assistant", "Certainly, sir.")  # nothing was sent


async def test_copy_the_last_answer(served):
    served.queue(direct("Forty-two, sir."))
    async with running() as (app, pilot):
        await pilot.press("ctrl+l")
        await send(app, pilot, "What is six times seven?")
        await pilot.press("ctrl+l")
        assert app.clipboard == "Forty-two, sir."


async def test_escape_sequences_in_any_text_are_shown_not_obeyed(served, home):
    evil = "Done\x1b[2J\x1b]52;c;ZXZpbA==\x07 sir\r"
    served.queue(direct(evil))
    async with running() as (app, pilot):
        await send(app, pilot, "Clear\x1b[2J my screen")
        user, reply = app.chat.transcript.messages
        shown_user = user.render().renderables[1].plain
        assert "\x1b" not in shown_user and "\\x1b[2J" in shown_user
        assert (
            "\x1b" not in reply.body.source
            and "\\x1b]52;c;" in reply.body.source
            and "\\x07" in reply.body.source
        )
    # read back from memory, the same
    async with running() as (app, pilot):
        await until(pilot, lambda: len(app.chat.transcript.messages) == 2)
        for view in app.chat.transcript.messages:
            plain = view.render().renderables[1]
            text = plain.plain if hasattr(plain, "plain") else plain.markup
            assert "\x1b" not in text and "\\x1b" in text


async def test_a_failed_turn_says_so_and_keeps_the_message(served, home):
    async with running() as (app, pilot):
        served.stop()  # the model server goes away
        await send(app, pilot, "Are you there?")
        reply = app.chat.transcript.messages[-1]
        assert "failed" in reply.marks and "your message is saved" in reply.footer_text
        assert "ollama serve" in reply.footer_text
    assert next(r["content"] for r in rows(home)) == "Are you there?"


def test_the_app_opens_the_butler_after_its_first_frame(served, home):
    """Built with an opener, the app paints before the butler exists, then opens it."""
    import asyncio

    from tatlock import config
    from tatlock.tui.app import TatlockApp

    opened = []

    def opener():
        opened.append(tatlock.open(interface="tui"))
        return opened[0]

    async def main():
        app = TatlockApp(opener=opener, cfg=config.load(), check_server=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.ready.is_set())
            assert app.opened is opened[0]

    try:
        asyncio.run(main())
    finally:
        for b in opened:
            b.close()


# -- issue 18: regenerate, edit-and-resend, the model of a conversation ----------------------


def turn_done(app):
    return (
        app.chat.turn is not None
        and app.chat.turn.done
        and not app.chat.busy
        and not app.chat.transcript.messages[-1].streaming
    )


async def test_regenerate_from_its_key_adds_a_new_answer_and_marks_the_old_one(served, home):
    served.queue(direct("Lyon, sir."), direct("Paris, sir."), direct("Marseille, sir."))
    async with running() as (app, pilot):
        await send(app, pilot, "Which French city should I visit first?")
        await pilot.press("f5")
        await until(pilot, lambda: turn_done(app) and said(app)[-1] == ("assistant", "Paris, sir."))
        views = app.chat.transcript.messages
        assert [(v.role, v.text, v.number) for v in views] == [
            ("user", "Which French city should I visit first?", 1),
            ("assistant", "Lyon, sir.", 2),
            ("assistant", "Paris, sir.", 3),
        ]
        assert views[1].superseded and views[1].has_class("superseded")
        assert (
            "superseded: answered again below" in views[1].foot_text() and not views[2].superseded
        )
        # /retry does the same; the conversation read back from memory shows the marks
        app.chat.composer.load_text("/retry")
        await pilot.press("enter")
        await until(
            pilot, lambda: turn_done(app) and said(app)[-1] == ("assistant", "Marseille, sir.")
        )
        await app.open_conversation(app.chat.conversation_id)
        await pilot.pause(0.2)
        assert [(v.text, v.superseded) for v in app.chat.transcript.messages] == [
            ("Which French city should I visit first?", False),
            ("Lyon, sir.", True),
            ("Paris, sir.", True),
            ("Marseille, sir.", False),
        ]
    stored = rows(home)
    assert [json.loads(r["metadata"]).get("superseded", {}).get("how") for r in stored] == [
        None,
        "regenerated",
        "regenerated",
        None,
    ]


async def test_edit_the_last_message_and_send_it_again(served, home):
    served.queue(direct("Rome, sir."), direct("Madrid, sir."))
    async with running() as (app, pilot):
        await send(app, pilot, "What is the capital of Italy?")
        composer = app.chat.composer
        composer.load_text("a draft")
        await pilot.press("f6")  # the last message in the box, the box says so
        assert (
            composer.text == "What is the capital of Italy?"
            and "editing your message #1" in composer.border_title
        )
        await pilot.press("escape")  # not now: the draft is back
        assert composer.text == "a draft" and "speaking as" in composer.border_title
        app.chat.composer.load_text("/edit")
        await pilot.press("enter")
        assert composer.text == "What is the capital of Italy?"
        composer.load_text("What is the capital of Spain?")
        await pilot.press("enter")
        await until(
            pilot, lambda: turn_done(app) and said(app)[-1] == ("assistant", "Madrid, sir.")
        )
        views = app.chat.transcript.messages
        assert [(v.text, v.number, v.superseded) for v in views] == [
            ("What is the capital of Italy?", 1, True),
            ("Rome, sir.", 2, True),
            ("What is the capital of Spain?", 3, False),
            ("Madrid, sir.", 4, False),
        ]
        assert "superseded: edited below" in views[0].foot_text()
        # not fed to the model
        assert "Italy" not in json.dumps(served.chat_requests[-1]["messages"])
    assert [r["content"] for r in rows(home)] == [
        "What is the capital of Italy?",
        "Rome, sir.",
        "What is the capital of Spain?",
        "Madrid, sir.",
    ]


async def test_regenerate_or_edit_with_nothing_to_redo_says_so(served):
    async with running() as (app, pilot):
        await pilot.press("f5")
        await pilot.press("f6")
        await pilot.pause(0.2)
        notes = [n.message for n in app._notifications]
        assert any("no answer to give again" in n for n in notes) and any(
            "nothing" in n.lower() or "no message" in n for n in notes
        )
        assert app.chat.editing is None and app.chat.turn is None


async def test_choosing_a_model_for_a_conversation_from_the_servers_list(served, home):
    served.add_model("qwen2.5:7b")
    served.handler = lambda body: direct(f"Answered by {body['model']}, sir.")
    async with running(check_server=True) as (app, pilot):
        await until(pilot, lambda: app.status is not None and app.status.ok)
        await send(app, pilot, "Hello?")
        assert said(app)[-1] == ("assistant", "Answered by llama3.2:3b, sir.")
        first = app.chat.conversation_id
        await pilot.press("f4")
        await until(pilot, lambda: type(app.screen).__name__ == "ModelScreen" and app.screen.models)
        assert app.screen.models == ["llama3.2:3b", "qwen2.5:7b"]  # the server's own list
        await pilot.press("down", "enter")  # from the one in use to the next
        await until(pilot, lambda: app.chat.model == "qwen2.5:7b")
        assert "model qwen2.5:7b" in str(app.query_one("#header").render())
        await send(app, pilot, "And now?")
        assert said(app)[-1] == ("assistant", "Answered by qwen2.5:7b, sir.")
        # a new conversation uses the default; the first keeps its model when opened again
        await pilot.press("ctrl+n")
        await send(app, pilot, "Fresh start?")
        assert said(app)[-1] == ("assistant", "Answered by llama3.2:3b, sir.")
        assert "model llama3.2:3b" in str(app.query_one("#header").render())
        await app.open_conversation(first)
        await send(app, pilot, "Still you?")
        assert said(app)[-1] == ("assistant", "Answered by qwen2.5:7b, sir.")
        # chosen before a new conversation's first message: it starts with it and keeps it
        await pilot.press("ctrl+n")
        app.chat.composer.load_text("/model qwen2.5:7b")
        await pilot.press("enter")
        await send(app, pilot, "Chosen first?")
        assert said(app)[-1] == ("assistant", "Answered by qwen2.5:7b, sir.")
        latest = app.chat.conversation_id
        app.chat.composer.load_text("/model default")
        await pilot.press("enter")
        await until(pilot, lambda: app.chat.model is None)
        await send(app, pilot, "Back?")
        assert said(app)[-1] == ("assistant", "Answered by llama3.2:3b, sir.")
        app.chat.composer.load_text("/model two words")
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.chat.model is None  # refused, with a one-line notice
    with tatlock.open() as butler:  # remembered by the memory, for the next process too
        assert butler.models.for_conversation(first) == "qwen2.5:7b"
        assert butler.models.for_conversation(latest) == "llama3.2:3b"


async def test_the_model_list_on_an_openai_compatible_server(served, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", served.url + "/v1")
    served.add_model("qwen2.5:7b")
    async with running() as (app, pilot):
        await pilot.press("f4")
        await until(pilot, lambda: type(app.screen).__name__ == "ModelScreen" and app.screen.models)
        assert app.screen.models == ["llama3.2:3b", "qwen2.5:7b"]
        await pilot.press("escape")
        assert app.chat.model is None


async def test_the_model_list_when_the_server_is_down_says_so(served, monkeypatch, closed_port_url):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    async with running() as (app, pilot):
        await pilot.press("f4")
        await until(
            pilot,
            lambda: (
                type(app.screen).__name__ == "ModelScreen"
                and "did not list its models"
                in str(app.screen.query_one("#models-status").render())
            ),
        )
        await pilot.press("escape")
        assert type(app.screen).__name__ == "Screen"


async def test_a_withdrawn_answer_is_marked_only_when_nothing_stands_in_its_place(served):
    # garbage from the model: for a plain question the apology stands, marked withdrawn; for a
    # statement that was kept, the acknowledgement stands in its place and is not marked
    served.handler = lambda body: "}}}{{{ ### ]]]"
    async with running() as (app, pilot):
        await send(app, pilot, "What is the meaning of life?")
        await until(pilot, lambda: not app.chat.transcript.messages[-1].streaming)
        assert "withdrawn" in app.chat.transcript.messages[-1].marks
        await send(app, pilot, "remember that my dentist is Dr Okafor in Salford")
        await until(pilot, lambda: not app.chat.transcript.messages[-1].streaming)
        reply = app.chat.transcript.messages[-1]
        assert reply.text.startswith("Very good, sir: noted that your dentist is Dr Okafor")
        assert "withdrawn" not in reply.marks
