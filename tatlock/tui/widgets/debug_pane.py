"""The Debug pane: each turn's events as they happen (phases with ms and tokens, the decision
and its source, guards, tool calls and results, the quality verdict). Enter on a model call
shows its prompt and raw output; s saves the pane to a file."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tatlock.events import AnswerToken, ErrorEvent, Event, ModelCall, TurnCancelled, TurnFinished
from tatlock.tui.format import event_line, model_call_text
from tatlock.tui.host import Host, host

MAX_LINES = 3000  # older lines are dropped (the conversation's debug log on disk keeps everything)
STYLES = {
    "ErrorEvent": "bold red",
    "TurnCancelled": "yellow",
    "GuardFired": "magenta",
    "AnswerReplaced": "yellow",
    "Decision": "bold",
    "TurnFinished": "green",
    "ModelCall": "cyan",
    "Notice": "yellow",
}


class DebugPane(Vertical):
    BINDINGS = [Binding("s", "app.save_debug", "Save", show=False)]  # the pane's hint says it

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.lines: list[tuple[str, Event | None, str]] = []
        self._turn = ""
        self._tokens = 0

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(
            "Each turn's events, live. Enter on a » model call: its prompt and output. s: save.",
            classes="pane-hint",
            markup=False,
        )
        yield OptionList(id="debug-events")

    @property
    def options(self) -> OptionList:
        return self.query_one("#debug-events", OptionList)

    def add(self, ev: Event) -> None:
        """One event of a turn (tokens are counted, not listed)."""
        if isinstance(ev, AnswerToken):
            self._tokens += 1
            return
        new: list[tuple[str, Event | None, str]] = []
        if ev.turn_id and ev.turn_id != self._turn:
            self._turn = ev.turn_id
            self._tokens = 0
            stamp = self.tapp.butler.clock().strftime("%H:%M:%S")
            new.append((f"── turn {ev.turn_id} · {stamp} ──", None, "bold reverse"))
        if isinstance(ev, (TurnFinished, TurnCancelled, ErrorEvent)) and self._tokens:
            new.append((f"answer streamed in {self._tokens} pieces", None, "dim"))
        line = event_line(ev)
        if line is not None:
            new.append((line, ev if isinstance(ev, ModelCall) else None, STYLES.get(ev.type, "")))
        if not new:
            return
        options = self.options
        at_end = options.highlighted is None or options.highlighted >= options.option_count - 1
        if len(self.lines) + len(new) > MAX_LINES:
            self.lines = (self.lines + new)[-(MAX_LINES - MAX_LINES // 5) :]
            options.set_options(self._option(i, *line) for i, line in enumerate(self.lines))
        else:
            start = len(self.lines)
            self.lines += new
            options.add_options(self._option(start + i, *line) for i, line in enumerate(new))
        if at_end:
            options.scroll_end(animate=False)

    @staticmethod
    def _option(index: int, text: str, ev: Event | None, style: str) -> Option:
        return Option(Text(text, style=style), id=f"d{index}" if ev is not None else None)

    @on(OptionList.OptionSelected, "#debug-events")
    def selected(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id
        if not oid:
            return
        try:
            ev = self.lines[int(oid[1:])][1]
        except (IndexError, ValueError):
            return
        if isinstance(ev, ModelCall):
            from tatlock.tui.screens.dialogs import TextScreen

            self.app.push_screen(TextScreen(f"Model call: {ev.phase}", model_call_text(ev)))

    def as_text(self) -> str:
        """The pane as a file: every line, then each model call in full."""
        out = [text for text, _, _ in self.lines]
        calls = [ev for _, ev, _ in self.lines if isinstance(ev, ModelCall)]
        for ev in calls:
            out += ["", "=" * 72, model_call_text(ev)]
        return "\n".join(out) + "\n"
