"""Pulling the model through Ollama, with a progress bar (bytes, percent, speed) and Cancel.

The download runs on a server-work thread (``butler.models.pull``); its progress callbacks
arrive on that thread and are posted to this screen (``post_message`` is thread-safe and never
waits for the UI)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, ProgressBar, Static

from tatlock import Cancel
from tatlock.errors import TatlockError
from tatlock.tui.format import PullMeter, one_line
from tatlock.tui.host import host

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.events import PullProgress


class PullScreen(ModalScreen[bool]):
    """Dismissed with True once the model is on the server."""

    BINDINGS = [Binding("escape", "stop", "Cancel")]

    class Progress(Message):
        def __init__(self, progress: PullProgress, at: float) -> None:
            super().__init__()
            self.progress = progress
            self.at = at

    def __init__(self, model: str) -> None:
        super().__init__(classes="dialog-screen")
        self.model = model
        self.cancel = Cancel()
        self.meter = PullMeter()
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="pull"):
            yield Static(f"Pulling {one_line(self.model, 60)}", classes="pane-title", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="pull-bar")
            yield Static("asking the server…", id="pull-status", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="pull-cancel", variant="error")

    def on_mount(self) -> None:
        self.download()

    @work(exclusive=True, group="pull")
    async def download(self) -> None:
        tapp = host(self.app)
        status = self.query_one("#pull-status", Static)
        try:
            await tapp.jobs.run(
                tapp.butler.models.pull,
                self.model,
                on_progress=self._progress,
                cancel=self.cancel,
                slow=True,
            )
        except TatlockError as exc:
            status.update(f"Could not pull: {one_line(exc.message, 200)}")
            self._finished(False)
            return
        except Exception as exc:
            if self.cancel.cancelled:
                status.update(
                    "Cancelled. Whatever was downloaded stays on the server for next time."
                )
            else:
                status.update(f"Could not pull: {one_line(str(exc), 200)}")
            self._finished(False)
            return
        if self.cancel.cancelled:
            status.update("Cancelled.")
            self._finished(False)
            return
        self.query_one("#pull-bar", ProgressBar).update(total=1, progress=1)
        status.update(f"{self.model} is ready.")
        self._finished(True)

    def _progress(self, p: PullProgress) -> None:  # on the download's thread
        self.post_message(self.Progress(p, time.monotonic()))

    @on(Progress)
    def progressed(self, event: Progress) -> None:
        line, frac = self.meter.line(event.progress, event.at)
        self.query_one("#pull-status", Static).update(line)
        bar = self.query_one("#pull-bar", ProgressBar)
        if frac is None:
            bar.update(total=None)
        else:
            bar.update(total=1000, progress=round(frac * 1000))

    def _finished(self, ok: bool) -> None:
        self.done = ok
        button = self.query_one("#pull-cancel", Button)
        button.label = "Close"
        button.variant = "primary" if ok else "default"

    def action_stop(self) -> None:
        if str(self.query_one("#pull-cancel", Button).label) == "Close":
            self.dismiss(self.done)
        else:
            self.cancel.cancel()

    @on(Button.Pressed, "#pull-cancel")
    def pressed(self) -> None:
        self.action_stop()
