"""Where the user writes: several lines, Enter sends, Shift+Enter or Ctrl+J adds a line,
Up/Down on the first/last line recall earlier inputs, Esc stops an answer being written."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip
from textual.widgets import TextArea

HISTORY = 200


class Composer(TextArea):
    # F6 is the app's "edit your last message" (TextArea's own F6 selects the line)
    BINDINGS = [Binding("f6", "app.edit_last", "Edit", show=False)]

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class CancelRequested(Message):
        pass

    def __init__(self, **kw: Any) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kw)
        self.inputs: list[str] = []
        self._recall: int | None = None  # index into history while browsing it
        self._draft = ""

    def render_line(self, y: int) -> Strip:
        # Textual wraps the placeholder at the content width, and a width of 0 (a frame laid out
        # while the window shrinks, or a window narrower than the borders) raises ValueError:
        # such a frame shows nothing, the next one the placeholder again
        if self.content_size.width < 1:
            return Strip.blank(self.size.width, self.rich_style)
        return super().render_line(y)

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if key == "enter":
            event.stop()
            event.prevent_default()
            self.submit()
            return
        if key in ("shift+enter", "ctrl+j"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if key == "escape":
            event.stop()
            event.prevent_default()
            self.post_message(self.CancelRequested())
            return
        if key == "up" and self.cursor_location[0] == 0 and self.inputs:
            event.stop()
            event.prevent_default()
            self.recall(-1)
            return
        if (
            key == "down"
            and self._recall is not None
            and self.cursor_location[0] == self.document.line_count - 1
        ):
            event.stop()
            event.prevent_default()
            self.recall(+1)
            return
        await super()._on_key(event)

    def submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        if not self.inputs or self.inputs[-1] != text:
            self.inputs.append(text)
            del self.inputs[:-HISTORY]
        self._recall = None
        self._draft = ""
        self.clear()
        self.post_message(self.Submitted(text))

    def recall(self, step: int) -> None:
        """Up: an earlier input; Down: a later one, and past the newest, what was being typed."""
        if self._recall is None:
            if step > 0:
                return
            self._draft = self.text
            index = len(self.inputs) - 1
        else:
            index = self._recall + step
        if index < 0:
            return
        if index >= len(self.inputs):
            self._recall = None
            self.load_text(self._draft)
        else:
            self._recall = index
            self.load_text(self.inputs[index])
        self.move_cursor(self.document.end)
