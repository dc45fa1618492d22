"""One message of the transcript: its author, its text, and for a reply a quiet footer.

Two shapes of the same thing:

* ``StoredView``, for messages read back from memory and the user's own: one widget that
  renders a Rich group (head, Markdown or plain body, footer). A page of them mounts in tens
  of milliseconds, which is what makes a long conversation open at once.
* ``MessageView``, for a reply being written: Textual's Markdown fed through a MarkdownStream,
  so each token is appended, what arrives faster than it renders is batched, and only the last
  block is parsed again (never the whole text per token).

Every text shown passes through :func:`tatlock.text.inert`: an escape sequence in a message is
displayed, never obeyed by the terminal.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tatlock.text import inert
from tatlock.tui.format import one_line

if TYPE_CHECKING:  # pragma: no cover
    from textual.widgets import Markdown
    from textual.widgets._markdown import MarkdownStream

# Markdown (Rich's, Textual's widget and its parser) is imported with the first message shown,
# not with the app: an empty conversation's first frame does not wait for it

MARK_WORDS = {
    "cancelled": "cancelled: what was said is kept",
    "withdrawn": "withdrawn by the quality gate",
    "failed": "failed",
    "regenerated": "superseded: answered again below",
    "edited": "superseded: edited below",
}
SUPERSEDED = ("regenerated", "edited")  # marks that say a message no longer stands (kept in memory)


class Said:
    """What both shapes know: who, when, which number, the text, the footer and the marks."""

    role: str
    author: str
    when: str
    number: int | None
    text: str
    footer_text: str
    marks: list[str]
    streaming: bool = False

    def _init_said(
        self,
        role: str,
        author: str,
        when: str,
        number: int | None,
        text: str,
        footer: str,
        marks: tuple[str, ...] | list[str],
    ) -> None:
        self.role, self.author, self.when, self.number = role, author, when, number
        self.text, self.footer_text, self.marks = text, footer, list(marks)

    def head_text(self) -> str:
        bits = [one_line(self.author, 60)]
        if self.when:
            bits.append(self.when)
        if self.number is not None:
            bits.append(f"#{self.number}")
        if self.streaming:
            bits.append("writing…")
        return " · ".join(bits)

    def foot_text(self) -> str:
        words = [MARK_WORDS.get(m, m) for m in self.marks]
        if "cancelled" in self.marks and not self.text.strip():
            words[self.marks.index("cancelled")] = "cancelled before an answer came"
        return " · ".join([*words, *([self.footer_text] if self.footer_text else [])])

    @property
    def superseded(self) -> bool:
        return any(m in SUPERSEDED for m in self.marks)

    def set_marks(self, marks: tuple[str, ...] | list[str], footer: str | None = None) -> None:
        for mark in marks:
            if mark not in self.marks:
                self.marks.append(mark)
                self.add_class(mark)  # type: ignore[attr-defined]
        self.set_class(self.superseded, "superseded")  # type: ignore[attr-defined]
        if footer is not None:
            self.footer_text = footer
        self.relabel()

    def unmark(self, mark: str) -> None:
        if mark in self.marks:
            self.marks.remove(mark)
            self.remove_class(mark)  # type: ignore[attr-defined]
            self.relabel()

    def set_number(self, number: int) -> None:
        self.number = number
        self.relabel()

    def fail(self, message: str) -> None:
        self.streaming = False
        self.set_marks(("failed",), message)

    def relabel(self) -> None:  # pragma: no cover - each shape redraws its own way
        raise NotImplementedError


def _classes(role: str, kind: str, marks: tuple[str, ...] | list[str]) -> str:
    superseded = ["superseded"] if any(m in SUPERSEDED for m in marks) else []
    return " ".join(["message", role, kind, *marks, *superseded])


class StoredView(Said, Static):
    COMPONENT_CLASSES = {"message--head", "message--foot"}

    def __init__(
        self,
        *,
        role: str,
        author: str,
        kind: str,
        when: str = "",
        text: str = "",
        number: int | None = None,
        footer: str = "",
        marks: tuple[str, ...] | list[str] = (),
    ) -> None:
        Static.__init__(self, classes=_classes(role, kind, marks))
        self._init_said(role, author, when, number, text, footer, marks)

    def render(self) -> RenderableType:
        body: RenderableType
        if self.role == "assistant":
            from rich.markdown import Markdown as RichMarkdown

            body = RichMarkdown(inert(self.text), hyperlinks=False)
        else:
            body = Text(inert(self.text))
        parts: list[RenderableType] = [
            Text(self.head_text(), self.get_component_rich_style("message--head")),
            body,
        ]
        foot = self.foot_text()
        if foot:
            parts.append(Text(foot, self.get_component_rich_style("message--foot")))
        return Group(*parts)

    def relabel(self) -> None:
        self.refresh(layout=True)


class MessageView(Said, Vertical):
    """A reply being written (it keeps this shape once done)."""

    def __init__(
        self,
        *,
        role: str = "assistant",
        author: str = "Tatlock",
        kind: str = "tatlock",
        when: str = "",
        text: str = "",
        number: int | None = None,
        streaming: bool = True,
    ) -> None:
        Vertical.__init__(self, classes=_classes(role, kind, ()))
        self._init_said(role, author, when, number, text, "", ())
        self.streaming = streaming
        self._stream: MarkdownStream | None = None
        self._pending: list[str] = []
        self._flusher: asyncio.Task[None] | None = None

    def compose(self) -> ComposeResult:
        yield Static(self.head_text(), classes="head", markup=False)
        from tatlock.tui.widgets.markdown import AnswerMarkdown

        yield AnswerMarkdown(inert(self.text), classes="body", open_links=False)
        yield Static(self.foot_text(), classes="foot", markup=False)

    def on_mount(self) -> None:
        self.query_one(".foot", Static).display = bool(self.foot_text())

    def relabel(self) -> None:
        for head in self.query(".head").results(Static):  # none before compose, or once removed
            head.update(self.head_text())
        for foot in self.query(".foot").results(Static):
            foot.update(self.foot_text())
            foot.display = bool(self.foot_text())

    @property
    def body(self) -> Markdown:
        from textual.widgets import Markdown

        return self.query_one(".body", Markdown)

    def write(self, fragment: str) -> None:
        """Append a streamed piece of the answer. Pieces that arrive while the loop is busy are
        gathered and handed to the stream together: a fast server's hundreds of tokens become
        a few appends, not one render each."""
        if not fragment:
            return
        self.text += fragment
        self._pending.append(inert(fragment))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())

    def start_stream(self) -> None:
        if self._stream is None:
            from textual.widgets import Markdown

            self._stream = Markdown.get_stream(self.body)

    async def _flush(self) -> None:
        self.start_stream()
        assert self._stream is not None
        while self._pending:
            chunk = "".join(self._pending)
            self._pending.clear()
            await self._stream.write(chunk)

    async def end_stream(self) -> None:
        if self._flusher is not None:
            await self._flusher
            self._flusher = None
        if self._stream is not None:
            stream, self._stream = self._stream, None
            try:
                await stream.stop()
            except asyncio.CancelledError:
                # Textual's stream task is cancelled before it ever ran when nothing was written
                # (a turn that failed at once): that is not our own cancellation
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
        self.streaming = False

    async def finish(
        self, *, text: str | None, footer: str = "", marks: tuple[str, ...] = ()
    ) -> None:
        """The reply is complete (or stopped): settle its text, footer and marks."""
        await self.end_stream()
        if text is not None and text.strip() != self.text.strip():
            self.text = text  # what is stored differs from what streamed (e.g. after a revision)
            await self.body.update(inert(text))
        self.settle()
        self.set_marks(marks, footer)

    def settle(self) -> None:
        """The last block of the answer sits right above the footer (no blank line)."""
        blocks = list(self.body.children)
        if blocks:
            top, right, _, left = blocks[-1].styles.margin
            blocks[-1].styles.margin = (top, right, 0, left)

    async def replace(self, text: str) -> None:
        """The quality gate withdrew the answer: show its replacement instead."""
        await self.end_stream()
        self.text = text
        await self.body.update(inert(text))
        self.settle()
        self.set_marks(("withdrawn",), self.footer_text)


def kind_of(message: Any, anchor_id: str) -> str:
    """The colour class of a stored message's author."""
    if message.role == "assistant":
        return "tatlock"
    if message.author_is_bot:
        return "bot"
    if message.is_anchor or message.author_id == anchor_id:
        return "anchor"
    return "guest"
