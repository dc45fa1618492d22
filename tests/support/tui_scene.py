"""One fixed scene of the TUI, mid-conversation, for the snapshot tests and for docs/tatlock.png:
a conversation with fixed times and timings written through the store, and one turn's real
event objects (fixed numbers) handed to the Debug and Compaction panes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tatlock.events import (
    CompactionFinished,
    CompactionStarted,
    ConversationReady,
    Decision,
    MessageStored,
    ModelCall,
    PhaseFinished,
    PhaseStarted,
    QualityVerdict,
    TurnFinished,
)

NOW = dt.datetime(2026, 3, 2, 14, 5, tzinfo=dt.UTC)
TURN = "5f3a9c2e1b7d"

ANSWER = """Certainly, sir. A short itinerary for **Lisbon**:

- the *Alfama* in the morning, before the heat
- a tram up to the castle
- pastéis de nata in Belém at four

Shall I note the dates in your diary?"""


def seed(paths: Any, user: str = "tester") -> int:
    """A conversation (plus two older ones) written with fixed times: the scene's memory."""
    from tatlock.store.user import Author, UserStore
    from tatlock.timeutil import iso

    store = UserStore.open(paths, user)
    me = Author(user, user.title(), is_anchor=True)
    maria = Author("maria", "Maria")

    def at(minutes: int) -> str:
        return iso(NOW - dt.timedelta(minutes=minutes))

    def phases(ms: float, calls: int = 1) -> list[dict[str, Any]]:
        return [{"name": "assess", "ms": ms, "model_calls": calls}]

    for title, days in (("Dentist on Tuesday", 3), ("The boiler's noise", 9)):
        old = store.create_conversation("tui", "tui", title=title)
        store.add_message(old.id, "user", title, me, timestamp=iso(NOW - dt.timedelta(days=days)))
    conv = store.create_conversation("tui", "tui", title="A weekend in Lisbon")
    store.add_message(conv.id, "user", "What is the capital of Portugal?", me, timestamp=at(9))
    store.add_message(
        conv.id,
        "assistant",
        "Lisbon, sir.",
        Author.assistant(),
        timestamp=at(9),
        metadata={"route": "DIRECT", "tools": [], "phases": phases(640), "quality": "APPROVED"},
    )
    store.add_message(conv.id, "user", "Tell me everything about its history.", me, timestamp=at(7))
    store.add_message(
        conv.id,
        "assistant",
        "Lisbon is one of the oldest cities in western Europe, sir,",
        Author.assistant(),
        timestamp=at(7),
        metadata={"route": "DIRECT", "phases": phases(1800), "cancelled": True},
    )
    store.add_message(
        conv.id,
        "user",
        "Maria here: what is the weather there this weekend?",
        maria,
        timestamp=at(5),
    )
    store.add_message(
        conv.id,
        "assistant",
        "Sunny and 24 °C on Saturday, sir; a shower is likely on Sunday.",
        Author.assistant(),
        timestamp=at(5),
        metadata={
            "route": "TOOLS_NEEDED",
            "tools": ["get_weather"],
            "phases": [
                {"name": "assess", "ms": 520, "model_calls": 1},
                {"name": "tools", "ms": 310, "model_calls": 1},
                {"name": "respond", "ms": 1490, "model_calls": 1},
            ],
            "quality": "APPROVED",
        },
    )
    store.add_message(conv.id, "user", "Plan my Saturday there.", me, timestamp=at(1))
    store.add_message(
        conv.id,
        "assistant",
        ANSWER,
        Author.assistant(),
        timestamp=at(1),
        metadata={"route": "DIRECT", "phases": phases(2260), "quality": "APPROVED"},
    )
    store.close()
    return conv.id


def turn_events(conversation_id: int) -> list[Any]:
    """A turn as the Debug pane receives it (fixed numbers)."""
    prompt = [
        {"role": "system", "content": "You are Tatlock, a British butler…"},
        {"role": "user", "content": "Plan my Saturday there."},
    ]
    raw = (
        '{"decision": "DIRECT", "answer": "Certainly, sir. A short itinerary…", "topics": '
        '["travel"]}'
    )
    events = [
        ConversationReady(conversation_id, False),
        MessageStored(7, 7, "user", "Tester"),
        PhaseStarted("assess"),
        ModelCall("assess", "llama3.2:3b", prompt, raw, 2203.0, 1412, 96, schema=True),
        Decision("DIRECT", None, "model", topics=["travel"]),
        PhaseFinished("assess", 2210.4, 1, 1412, 96, {"route": "DIRECT"}),
        PhaseStarted("quality"),
        QualityVerdict("APPROVED", None, [], False),
        PhaseFinished("quality", 3.2, 0, 0, 0, {"verdict": "APPROVED"}),
        MessageStored(8, 8, "assistant", "Tatlock"),
        TurnFinished(
            conversation_id, ANSWER, "DIRECT", None, [], "APPROVED", ["travel"], [], 7, 8, 2260.0
        ),
    ]
    for ev in events:
        ev.turn_id = TURN
    return events


async def stage(app: Any, pilot: Any) -> None:
    """Wait for the app to settle on the scene, then fill the panes and stop the cursors
    blinking."""
    from support.tui import until

    await until(
        pilot,
        lambda: (
            app.ready.is_set()
            and app.sidebar.conversations
            and app.chat.transcript.messages
            and app.status is not None
        ),
        what="the scene",
    )
    cid = app.chat.conversation_id
    for ev in turn_events(cid):
        app.pane("debug").add(ev)
    for ev in (CompactionStarted(cid, 1, 4), CompactionFinished(cid, 1, 4, 3120.0, 980, 210)):
        ev.turn_id = TURN
        app.pane("compaction").add(ev)
    await pilot.pause(0.3)
    still(app)
    await pilot.pause()


def still(app: Any) -> None:
    from textual.widgets import Input, TextArea

    for widget in app.screen.query("TextArea, Input"):
        if isinstance(widget, (TextArea, Input)):
            widget.cursor_blink = False
