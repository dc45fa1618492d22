"""The Memory pane: this conversation's topics, the summary of recent conversations it started
with (its briefing), and what tatlock knows: the kept facts (personal variables), each with
whom it is about and who it was learnt from."""

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
        yield Static("What I know (kept facts)", classes="pane-title")
        yield Static("", id="memory-variables", markup=False)

    def show(self, detail: Detail | None, variables: list[Variable], now: dt.datetime) -> None:
        topics = (
            ", ".join(f"{one_line(name, 40)} ({n})" for name, n in detail.topics) if detail else ""
        )
        self.query_one("#memory-topics", Static).update(topics or "none yet")
        briefing = (detail.briefing or "").strip() if detail else ""
        self.query_one("#memory-briefing", Static).update(
            inert(briefing)
            if briefing
            else "none (a conversation begins with one when earlier ones exist)"
        )
        lines = []
        for v in sorted(variables, key=lambda v: (v.about != "owner", v.about, v.key)):
            who = v.author_name or v.author_id
            if v.source_message_id:
                source = (
                    f"learnt from {one_line(who or 'someone', 30)} in message {v.source_message_id}"
                )
            else:
                source = "set by hand" + (f" by {one_line(who, 30)}" if who else "")
            # whom it is about: yours (by its key), your sister's, a guest's ("Tom's allergy")
            whose = "your " + v.about[8:] if v.about.startswith("owner's ") else v.about
            label = v.key if v.about == "owner" else f"{whose}'s {v.attribute or v.key}"
            lines.append(
                f"{one_line(label, 40)} = {one_line(v.value, 60)}\n  {source} · "
                f"{ago(v.updated_at, now)}"
            )
        self.query_one("#memory-variables", Static).update("\n".join(lines) or "none yet")
