"""The chat column: the transcript, who is speaking, and the composer; it runs the turns.

A turn starts on the butler's own thread; this widget reads its events with ``async for``
(which never blocks the event loop), streams the answer into the transcript and hands every
event to ``report`` (the app's panes). Esc calls ``turn.cancel()``: the partial answer stays
on screen, marked cancelled, as the core stores it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical

from tatlock.errors import TatlockError
from tatlock.events import (
    AnswerReplaced,
    AnswerToken,
    ConversationReady,
    ErrorEvent,
    Event,
    MessageStored,
    TurnCancelled,
    TurnFinished,
)
from tatlock.tui.format import clock_time, one_line, reply_footer, stored_footer, stored_marks
from tatlock.tui.host import Host, host
from tatlock.tui.widgets.composer import Composer
from tatlock.tui.widgets.message import SUPERSEDED, MessageView, StoredView, kind_of
from tatlock.tui.widgets.transcript import PAGE, Transcript

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.store.user import Author, Message
    from tatlock.turn import Turn

EMPTY = (
    "A new conversation. Write below; Enter sends, Shift+Enter (or Ctrl+J) starts a new line, /help "
    "lists commands."
)
MAX_FOUND = 500  # messages loaded to reach a search hit far back


class ChatPanel(Vertical):
    def __init__(self, report: Callable[[Event], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.report = report
        self.conversation_id: int | None = None
        self.author: Author | None = None  # a guest speaker (/as NAME); None: the Anchor
        self.turn: Turn | None = None
        self.sending = False  # from Enter until the turn is under way
        self.following = False  # a turn's events are being shown
        self.editing: int | None = None  # the number of the message being edited in the composer
        self._draft = ""  # what the composer held before an edit began
        self.model: str | None = None  # the model chosen for this conversation (None: the default)
        self.last_answer = ""
        # monotonic time the last answer token arrived (the bench reads it)
        self.last_event_at = 0.0
        self.rendered_at = 0.0  # and when its final render was done

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Transcript(id="transcript")
        yield Composer(
            id="composer",
            placeholder="Message Tatlock…  (Enter sends · Shift+Enter new line · /help)",
        )

    def on_mount(self) -> None:
        if self.tapp.ready.is_set():
            self.show_speaker()

    @property
    def transcript(self) -> Transcript:
        return self.query_one(Transcript)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    @property
    def streaming(self) -> bool:
        return self.turn is not None and not self.turn.done

    @property
    def busy(self) -> bool:
        """A turn of ours is being sent, runs, or its events are still being shown (a turn that
        failed at once is done before its stored question has its number on screen)."""
        return self.sending or self.following or self.streaming

    # -- conversations ---------------------------------------------------------------------

    def views(self, messages: list[Message]) -> list[StoredView]:
        butler = self.tapp.butler
        anchor_id = butler.anchor().id
        now = butler.clock()
        out = []
        for message in messages:
            meta = message.metadata or {}
            assistant = message.role == "assistant"
            out.append(
                StoredView(
                    role="assistant" if assistant else "user",
                    kind=kind_of(message, anchor_id),
                    author="Tatlock"
                    if assistant
                    else message.author_name + (" (bot)" if message.author_is_bot else ""),
                    when=clock_time(message.timestamp, now),
                    text=message.content,
                    number=message.message_number,
                    footer=stored_footer(meta) if assistant else "",
                    marks=stored_marks(meta),
                )
            )
        return out

    async def open(self, conversation_id: int | None, *, at_message: int | None = None) -> None:
        """Show a conversation (None: a new one starts with the next message, with the default
        model unless one is chosen for it before)."""
        self.conversation_id, self.model = conversation_id, None
        if self.editing is not None:
            self.editing, self._draft = None, ""
            self.show_speaker()
        if conversation_id is None:
            await self.transcript.show([], more_before=False, empty=EMPTY)
            return
        await self.tapp.ready.wait()
        conversations = self.tapp.butler.conversations
        detail = await self.tapp.jobs.run(conversations.get, conversation_id, limit=PAGE)
        if self.conversation_id != conversation_id:
            return  # another was opened meanwhile
        chosen = detail.conversation.metadata.get("model")
        self.model = chosen if isinstance(chosen, str) and chosen else None
        messages = detail.messages
        if at_message is not None and messages and at_message < messages[0].message_number:
            want = min(MAX_FOUND, detail.conversation.message_count - at_message + 5)
            messages = await self.tapp.jobs.run(conversations.messages, conversation_id, limit=want)
        await self.transcript.show(
            self.views(messages),
            more_before=bool(messages) and messages[0].message_number > 1,
            empty=EMPTY,
        )
        if at_message is not None:
            self.highlight(at_message)

    async def catch_up(self, count: int) -> None:
        """Messages stored in this conversation from elsewhere (another process, an MCP client)
        join the transcript; not while a turn of ours is under way (its own are on screen)."""
        cid = self.conversation_id
        shown = [v.number for v in self.transcript.messages if v.number is not None]
        last = max(shown, default=0)
        if cid is None or self.busy or count <= last:
            return
        new = await self.tapp.jobs.run(
            self.tapp.butler.conversations.messages, cid, limit=min(count - last, PAGE)
        )
        if cid != self.conversation_id or self.busy:
            return
        for view in self.views([m for m in new if m.message_number > last]):
            await self.transcript.add(view)

    def highlight(self, number: int) -> None:
        for view in self.transcript.messages:
            if view.number == number:
                self.transcript.release_anchor()
                self.transcript.scroll_to_widget(view, animate=False, top=True)
                view.add_class("found")
                self.set_timer(3.0, lambda v=view: v.remove_class("found"))
                return

    @on(Transcript.LoadOlder)
    async def load_older(self, event: Transcript.LoadOlder) -> None:
        cid = self.conversation_id
        if cid is None:
            return
        older = await self.tapp.jobs.run(
            self.tapp.butler.conversations.messages, cid, limit=PAGE, before=event.before
        )
        if cid == self.conversation_id:
            await self.transcript.prepend(
                self.views(older), more_before=bool(older) and older[0].message_number > 1
            )

    # -- who speaks ------------------------------------------------------------------------

    def set_speaker(self, name: str | None) -> None:
        """``/as NAME``: the next messages are a guest's; ``/as`` alone: the Anchor's again."""
        if not self.tapp.ready.is_set():
            self.notify("Tatlock is still starting: try again in a moment.", severity="warning")
            return
        if name and name.strip():
            self.author = self.tapp.butler.guest(name)
            self.notify(f"Your next messages are {self.author.name}'s (/as alone returns to you).")
        else:
            self.author = None
            self.notify("Your next messages are yours again.")
        self.show_speaker()

    def show_speaker(self) -> None:
        butler = self.tapp.butler
        who = self.author or butler.anchor()
        label = f"speaking as {one_line(who.name, 40)}" + (
            "" if self.author is None else " (a guest · /as returns)"
        )
        if self.editing is not None:
            label = (
                f"editing your message #{self.editing} · Enter sends it in its place · Esc: not now"
            )
        self.composer.border_title = label
        self.composer.set_class(self.author is not None, "guest")

    # -- turns -----------------------------------------------------------------------------

    @on(Composer.Submitted)
    async def submitted(self, event: Composer.Submitted) -> None:
        text = event.text
        if text.startswith("/") and not text.startswith("//"):
            await self.tapp.slash(text)
            return
        await self.send(text[1:] if text.startswith("//") else text)

    @on(Composer.CancelRequested)
    def cancel_requested(self) -> None:
        if not self.cancel() and self.editing is not None:
            self.stop_editing()

    def cancel(self) -> bool:
        if self.turn is not None and not self.turn.done:
            self.turn.cancel()
            return True
        return False

    def refuse_while_busy(self) -> bool:
        if self.busy:
            self.notify(
                "Tatlock is still answering: wait, or press Esc to stop him.", severity="warning"
            )
        return self.busy

    async def send(self, text: str) -> None:
        # typing starts with the first frame, sending once the butler is open
        await self.tapp.ready.wait()
        if self.refuse_while_busy():
            self.composer.load_text(text)
            return
        self.sending = True
        try:
            if self.editing is not None:
                await self._resend(text)
            else:
                await self._send(text)
        finally:
            self.sending = False

    async def _send(self, text: str) -> None:
        butler = self.tapp.butler
        user_view = await self._add_question(
            text, (self.author or butler.anchor()).name, guest=self.author is not None
        )
        cid = self.conversation_id
        # a new conversation takes the model chosen for it before its first message
        await self._start(
            lambda: butler.turn(
                text,
                conversation_id=cid,
                new=cid is None,
                room_id="tui",
                author=self.author,
                model=self.model if cid is None else None,
            ),
            user_view,
        )

    async def _add_question(self, text: str, author: str, *, guest: bool) -> StoredView:
        now = self.tapp.butler.clock()
        view = await self.transcript.add(
            StoredView(
                role="user",
                kind="guest" if guest else "anchor",
                author=author,
                when=clock_time(now.isoformat(), now),
                text=text,
            )
        )
        self.transcript.anchor()
        return view

    async def _start(
        self, start: Callable[[], Turn], user_view: StoredView | None, how: str = ""
    ) -> None:
        """Start a turn (on the memory pool: it reads the conversation) and follow it."""
        try:
            turn = await self.tapp.jobs.run(start)
        except TatlockError as exc:
            if user_view is not None:
                user_view.fail(one_line(exc.message, 200))
            self.notify(exc.message, severity="error")
            return
        self.turn = turn
        self.following = True
        self.app.refresh_bindings()  # Esc's "Stop" in the footer
        self.run_worker(self._follow(turn, user_view, how), group="turn", name=f"turn {turn.id}")

    # -- answering again, editing the last message ------------------------------------------

    def last_question(self) -> StoredView | None:
        """On screen, as in memory: the last question that stands (what an edit replaces)."""
        for view in reversed(self.transcript.messages):
            if view.role == "user" and not view.superseded and isinstance(view, StoredView):
                return view
        return None

    async def regenerate(self) -> None:
        """Answer the last question again: a new reply below; the old one stays, marked."""
        await self.tapp.ready.wait()
        cid = self.conversation_id
        if self.refuse_while_busy():
            return
        if cid is None:
            self.notify("There is no answer to give again yet.", severity="warning")
            return
        self.sending = True
        try:
            await self._start(lambda: self.tapp.butler.regenerate(cid), None, "regenerated")
        finally:
            self.sending = False

    def edit_last(self) -> None:
        """Put the last question in the message box to edit; Enter sends it in its place."""
        question = self.last_question()
        if self.refuse_while_busy():
            return
        if question is None or question.number is None or self.conversation_id is None:
            self.notify("There is no message of yours to edit yet.", severity="warning")
            return
        self.editing, self._draft = question.number, self.composer.text
        self.composer.load_text(question.text)
        self.composer.move_cursor(self.composer.document.end)
        self.composer.focus()
        self.show_speaker()

    def stop_editing(self) -> None:
        self.editing = None
        self.composer.load_text(self._draft)
        self._draft = ""
        self.show_speaker()

    async def _resend(self, text: str) -> None:
        question = self.last_question()
        cid, self.editing = self.conversation_id, None
        self.show_speaker()
        if question is None or cid is None:
            return
        user_view = await self._add_question(
            text, question.author, guest="guest" in question.classes
        )
        await self._start(lambda: self.tapp.butler.edit_last(cid, text), user_view, "edited")

    async def show_marks(self) -> None:
        """The superseded marks of the messages on screen, as memory has them (the core decides
        what an answer given again or an edit replaced; another program may have written too)."""
        cid, views = self.conversation_id, self.transcript.messages
        numbers = [v.number for v in views if v.number is not None]
        if cid is None or not numbers:
            return
        stored = await self.tapp.jobs.run(
            self.tapp.butler.conversations.messages,
            cid,
            limit=max(numbers) - min(numbers) + 1,
            before=max(numbers) + 1,
        )
        marks = {m.message_number: stored_marks(m.metadata or {}) for m in stored}
        for view in views:
            superseded = [m for m in marks.get(view.number or 0, []) if m in SUPERSEDED]
            if superseded and not view.superseded:
                view.set_marks(superseded)

    async def _follow(self, turn: Turn, user_view: StoredView | None, how: str) -> None:
        try:
            await self._show_turn(turn, user_view, how)
        finally:
            self.following = False

    async def _show_turn(self, turn: Turn, user_view: StoredView | None, how: str) -> None:
        # the reply is on screen (writing…) before its first token, its stream ready: the first
        # tokens then cost an append, not a mount
        reply = await self.transcript.add(
            MessageView(when=clock_time(self.tapp.butler.clock().isoformat()))
        )
        reply.start_stream()
        pieces = 0
        stored_reply = False
        async for ev in turn:
            if isinstance(ev, AnswerToken):
                reply.write(ev.text)
                self.last_event_at = time.monotonic()
                pieces += 1
                if pieces % 64 == 0:  # a burst of tokens still lets the screen refresh now and then
                    await asyncio.sleep(0)
                continue
            if isinstance(ev, ConversationReady):
                self.conversation_id = ev.conversation_id
            elif isinstance(ev, MessageStored):
                if ev.role == "user" and user_view is not None:
                    user_view.set_number(ev.message_number)
                    # the edited question replaces the old one and its answers now
                    if how == "edited":
                        await self.show_marks()
                elif ev.role == "assistant":
                    reply.number = ev.message_number
                    stored_reply = True
            elif isinstance(ev, AnswerReplaced):
                await reply.replace(ev.text)
            elif isinstance(ev, TurnFinished):
                footer = reply_footer(
                    route=ev.route,
                    guard=ev.guard,
                    tools=ev.tools,
                    phases=ev.phases,
                    ms=ev.ms,
                    quality=ev.quality,
                )
                await reply.finish(text=ev.answer, footer=footer)
                if not str(ev.quality or "").startswith("FALLBACK"):
                    # what replaced the model's words stands (answered from the facts in hand,
                    # or what was kept acknowledged): the reply is not marked withdrawn
                    reply.unmark("withdrawn")
                self.last_answer = ev.answer
            elif isinstance(ev, TurnCancelled):
                await reply.finish(
                    text=ev.partial,
                    footer=f"stopped after {ev.ms / 1000:.1f} s",
                    marks=("cancelled",),
                )
                if ev.partial:
                    self.last_answer = ev.partial
            elif isinstance(ev, ErrorEvent):
                hint = f" ({ev.hint})" if ev.hint else ""
                await reply.end_stream()
                reply.fail(one_line(f"{ev.message}{hint}; your message is saved", 300))
            self.report(ev)
        if how and stored_reply:
            await self.show_marks()
        self.app.refresh_bindings()
        self.call_after_refresh(self._rendered)

    def _rendered(self) -> None:
        self.rendered_at = time.monotonic()
