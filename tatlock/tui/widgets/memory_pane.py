"""The Memory pane: this conversation's topics, the summary of recent conversations it started
with (its briefing), and the personal variables, each with who it was learnt from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tatlock.text import inert
from tatlock.tui.format import ago, one_line

if TYPE_CHECKING:  # pragma: no cover
    import datetime as dt

    from tatlock.services.records import Detail
    from tatlock.store.user import Variable


class MemoryPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static("Topics", classes="pane-title")
        yield Static("", id="memory-topics", markup=False)
        yield Static("Briefing (recent conversations, as this one began)", classes="pane-title")
        yield Static("", id="memory-briefing", markup=False)
        yield Static("Personal variables", classes="pane-title")
        yield Static("", id="memory-variables", markup=False)

    def show(self, detail: Detail | None, variables: list[Variable], now: dt.datetime) -> None:
        topics = ", ".join(f"{one_line(name, 40)} ({n})" for name, n in detail.topics) if detail else ""
        self.query_one("#memory-topics", Static).update(topics or "none yet")
        briefing = (detail.briefing or "").strip() if detail else ""
        self.query_one("#memory-briefing", Static).update(
            inert(briefing) if briefing else "none (a conversation begins with one when earlier ones exist)")
        lines = []
        for v in variables:
            if v.source_message_id:
                source = f"learnt from {one_line(v.author_id or 'someone', 30)} in message {v.source_message_id}"
            else:
                source = "set by hand" + (f" by {one_line(v.author_id, 30)}" if v.author_id else "")
            lines.append(f"{one_line(v.key, 30)} = {one_line(v.value, 60)}\n  {source} · {ago(v.updated_at, now)}")
        self.query_one("#memory-variables", Static).update("\n".join(lines) or "none yet")
