"""The Compaction pane: compaction as it happens in the background (started, finished with its
range, tokens and time, failed with why), and this conversation's archive and summaries;
Enter on one shows the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tatlock.events import CompactionFailed, CompactionFinished, Event
from tatlock.text import inert
from tatlock.tui.format import compaction_line, one_line

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.services.records import Detail

MAX_EVENTS = 500


class CompactionPane(Vertical):
    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.summaries: list[tuple[str, str]] = []  # (title, summary) for the viewer

    def compose(self) -> ComposeResult:
        yield Static("Live", classes="pane-title")
        yield OptionList(
            Option(Text("Nothing compacted since Tatlock started.", "dim"), id="none"),
            id="compaction-events",
        )
        yield Static("This conversation's summaries (Enter: read)", classes="pane-title")
        yield OptionList(id="compacts")

    def add(self, ev: Event) -> None:
        line = compaction_line(ev)
        if line is None:
            return
        events = self.query_one("#compaction-events", OptionList)
        if events.option_count == 1 and events.get_option_at_index(0).id == "none":
            events.clear_options()
        style = (
            "red"
            if isinstance(ev, CompactionFailed)
            else "green"
            if isinstance(ev, CompactionFinished)
            else ""
        )
        events.add_option(Option(Text(line, style=style)))
        if events.option_count > MAX_EVENTS:
            events.remove_option_at_index(0)
        events.scroll_end(animate=False)

    def show(self, detail: Detail | None) -> None:
        """This conversation's archive and compacts (None: a new conversation)."""
        options = self.query_one("#compacts", OptionList)
        self.summaries = []
        rows: list[Option] = []
        if detail is not None and detail.archive:
            upto = detail.archive.get("up_to_message")
            self.summaries.append(
                (f"Archive of messages 1–{upto}", str(detail.archive.get("summary") or ""))
            )
            rows.append(Option(Text.assemble(("archive ", "bold"), f"#1–{upto}"), id="s0"))
        for c in detail.compacts if detail is not None else []:
            topics = ", ".join(c.topics) if c.topics else "no topics"
            self.summaries.append(
                (f"Summary of messages {c.from_message}–{c.up_to_message}", c.summary)
            )
            rows.append(
                Option(
                    Text.assemble(
                        (f"#{c.from_message}–{c.up_to_message}", "bold"),
                        " · ",
                        (one_line(topics, 60), "dim"),
                    ),
                    id=f"s{len(self.summaries) - 1}",
                )
            )
        if not rows:
            rows.append(
                Option(
                    Text(
                        "No summaries yet: messages are compacted in blocks as the talk goes on.",
                        "dim",
                    ),
                    disabled=True,
                )
            )
        options.set_options(rows)

    @on(OptionList.OptionSelected, "#compacts")
    def selected(self, event: OptionList.OptionSelected) -> None:
        if not event.option.id:
            return
        title, summary = self.summaries[int(event.option.id[1:])]
        from tatlock.tui.screens.dialogs import TextScreen

        self.app.push_screen(TextScreen(title, inert(summary)))
