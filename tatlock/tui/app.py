"""The Textual app: chat in the middle, conversations on the left, Debug, Compaction and Memory
panes on the right (from 120 columns; Ctrl+T toggles them), the server's state on top.

It stands on the core API only (``tatlock.open(interface="tui")``, turns, ``butler.subscribe``
and the services). Blocking calls run in :mod:`tatlock.tui.jobs`' pools, turns on the butler's
own threads, so typing, scrolling and switching panes never wait for the model or the disk.

Start-up paints first and opens the rest after: the header, the chat and the footer are on
screen before the butler (its databases and the pipeline's modules) is opened on a pool thread
and before the side widgets are mounted. ``ready`` is set once the butler is there; whatever
needs it waits for it, and the composer takes typing from the first frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from tatlock.errors import TatlockError
from tatlock.events import (
    CompactionFailed,
    CompactionFinished,
    CompactionStarted,
    ConversationReady,
    ErrorEvent,
    Event,
    MessageStored,
    TurnCancelled,
    TurnFinished,
)
from tatlock.tui.actions import ACTIONS, in_footer_order
from tatlock.tui.conversation_actions import ConversationActions
from tatlock.tui.format import one_line
from tatlock.tui.jobs import Jobs
from tatlock.tui.server_actions import ServerActions
from tatlock.tui.widgets.chat import ChatPanel
from tatlock.tui.widgets.status import ServerBanner, StatusHeader

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.config import Config
    from tatlock.services.models import ModelStatus
    from tatlock.tui.widgets.sidebar import Sidebar

PANES_FROM = 120  # columns from which the side panes show without asking
SIDEBAR_FROM = 140
ROOM = "tui"
AFTER_TURN = 0.25  # seconds after a turn ends before the sidebar and panes reload
# seconds between looks for what others wrote (another process, MCP, a turn's thread)
LIVE_EVERY = 1.0


class TatlockApp(ConversationActions, ServerActions):
    CSS_PATH = "tatlock.tcss"
    TITLE = "Tatlock"
    BINDINGS = [
        Binding(
            a.key, a.action, a.footer or a.title, show=a.footer is not None, priority=a.priority
        )
        for a in in_footer_order()
        if a.key
    ]

    class Background(Message):
        """An event of the background work (compaction), handed over from its thread."""

        def __init__(self, event: Event) -> None:
            super().__init__()
            self.event = event

    def __init__(
        self,
        butler: Butler | None = None,
        *,
        opener: Callable[[], Butler] | None = None,
        cfg: Config | None = None,
        new: bool = False,
        check_server: bool = True,
    ) -> None:
        super().__init__()
        if butler is None and opener is None:
            raise ValueError("give a butler or a function that opens one")
        self._butler = butler
        self.opener = opener
        self.cfg = cfg if cfg is not None else butler.cfg  # type: ignore[union-attr]
        self.jobs = Jobs()
        self.start_new = new
        self.should_check_server = check_server
        self.status: ModelStatus | None = None
        self.panes_forced: bool | None = None
        self.sidebar_forced: bool | None = None
        # Ctrl+F showed the list: as it was
        self.sidebar_before_search: tuple[bool | None] | None = None
        self.saved_theme = self.cfg.theme
        self.failure: BaseException | None = None  # why the butler could not be opened
        self.seen_version: int | None = None  # the memory's data version the list was last read at
        self.ready = asyncio.Event()
        self._theme_ready = False
        self._unsubscribe: Any = None

    @property
    def butler(self) -> Butler:
        if self._butler is None:
            raise TatlockError("Tatlock is still starting")
        return self._butler

    @property
    def opened(self) -> Butler | None:
        """The butler this app opened itself (the caller closes it), if any."""
        return self._butler if self.opener is not None else None

    # -- building: the whole screen in the first frame, the butler after it ----------------

    def compose(self) -> ComposeResult:
        from tatlock.tui.widgets.panes import SidePanes
        from tatlock.tui.widgets.sidebar import Sidebar

        yield StatusHeader(id="header", markup=False)
        yield ServerBanner(id="banner")
        with Horizontal(id="body"):
            # shown or not by the width from the first frame (one layout pass: mounting them after
            # it cost a second pass, and the Debug tab came a third of a second later)
            sidebar, panes = Sidebar(id="sidebar"), SidePanes(id="panes")
            sidebar.display, panes.display = (
                self.shows_sidebar(self.size.width),
                self.shows_panes(self.size.width),
            )
            yield sidebar
            yield ChatPanel(self.turn_event, id="chat")
            yield panes
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.saved_theme and self.saved_theme in self.available_themes:
            self.theme = self.saved_theme
        self._theme_ready = True
        self.show_header()
        self.chat.composer.focus()
        self.call_after_refresh(lambda: self.run_worker(self.start(), group="startup"))

    async def start(self) -> None:
        await self.whole_screen_painted()
        if self._butler is None:
            try:
                self._butler = await self.jobs.run(self.opener)  # type: ignore[arg-type]
            except Exception as exc:
                self.failure = exc
                self.exit(1)
                return
        self._unsubscribe = self.butler.subscribe(self._from_background)
        self.ready.set()
        self.show_header()
        self.chat.show_speaker()
        if self.should_check_server:
            self.check_server()
        try:
            # the memory's version before the list is first read: whatever another process writes
            # from here on is a change the live list sees (a first look later could take it as the
            # start)
            # unreadable now: the first look takes its place
            with contextlib.suppress(TatlockError):
                self.seen_version = await self.jobs.run(self.butler.conversations.version)
            cid = None
            if not self.start_new:
                latest = await self.jobs.run(self.butler.conversations.in_room, ROOM, ROOM)
                cid = latest[0].id if latest else None
            await self.open_conversation(cid)
            await self.sidebar.reload()
        except NoMatches:
            if self.is_running and not self._closing:
                raise
            return  # quit while starting: the widgets are gone, and nothing is left to show
        self.set_interval(LIVE_EVERY, self.follow_changes)

    async def whole_screen_painted(self, limit: float = 1.0) -> None:
        """Wait (at most ``limit`` seconds) until the panes' tabs and the footer's keys, composed
        in the frames after the first, are laid out (and so drawn with that layout): the butler's
        modules, loaded next on a pool thread, hold the interpreter lock for a while, and loaded
        at once they held those frames back by a fifth of a second."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and not (
            self.query("ContentTab") and any(key.region for key in self.query("FooterKey"))
        ):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.02)  # the frame with them goes out to the terminal

    @work(exclusive=True, group="live")
    async def follow_changes(self) -> None:
        """The list follows the memory: a conversation another process or an MCP client starts
        or writes to, a title changed elsewhere, the counts as a turn stores its messages."""
        try:
            version = await self.jobs.run(self.butler.conversations.version)
        except TatlockError:
            return  # the memory cannot be read just now: the next look tries again
        if version != self.seen_version:
            if self.seen_version is not None:
                try:
                    await self.sidebar.reload()
                    shown = [
                        c for c in self.sidebar.conversations if c.id == self.chat.conversation_id
                    ]
                    if shown:
                        await self.chat.catch_up(shown[0].message_count)
                except NoMatches:
                    # another screen is shown, or the app is closing: the next look catches up
                    return
            self.seen_version = version

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for chat in self.query(ChatPanel):  # gone already when the app failed to start
            chat.cancel()
        self.jobs.close()

    @property
    def chat(self) -> ChatPanel:
        return self.query_one(ChatPanel)

    @property
    def sidebar(self) -> Sidebar:
        from tatlock.tui.widgets.sidebar import Sidebar

        return self.query_one(Sidebar)

    def pane(self, name: str) -> Any:
        return self.query_one(f"#{name}-pane")

    def panes_mounted(self) -> bool:
        """The hidden tabs' panes are mounted a moment after the first frame (see panes.py)."""
        return bool(self.query("#compaction-pane")) and bool(self.query("#memory-pane"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc's "Stop" is in the footer only while an answer is being written, in the place of
        "New" (which waits for the answer anyway): the footer keeps to 80 columns."""
        streaming = bool(self.query(ChatPanel)) and self.chat.streaming
        if action == "cancel_turn":
            return streaming
        if action == "new_conversation":
            return not streaming
        return True

    # -- typing anywhere -------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """A printable key typed where nothing takes text (the transcript, the list, a pane)
        goes to the message box, as if typed there. Keys bound where they were typed (r, e, s
        in the list and the Debug pane) keep their meaning; other screens keep their keys.
        (This runs before Textual checks those bindings, hence the look at them here.)"""
        if not event.is_printable or self.screen is not self.screen_stack[0] or not event.character:
            return
        from textual.widgets import Input, TextArea

        if isinstance(self.focused, (Input, TextArea)):
            return
        bound = self.screen.active_bindings
        if any(key in bound for key in event.aliases):
            return
        composer = self.chat.composer
        composer.focus()
        composer.insert(event.character)
        event.stop()
        event.prevent_default()

    # -- layout ----------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        # the event's size: this handler runs before Textual's own, which is what updates self.size
        self.arrange(event.size.width)

    def shows_panes(self, width: int) -> bool:
        return self.panes_forced if self.panes_forced is not None else width >= PANES_FROM

    def shows_sidebar(self, width: int) -> bool:
        return self.sidebar_forced if self.sidebar_forced is not None else width >= SIDEBAR_FROM

    def arrange(self, width: int) -> None:
        for panes in self.query("#panes"):
            panes.display = self.shows_panes(width)
        for sidebar in self.query("#sidebar"):
            sidebar.display = self.shows_sidebar(width)

    def action_toggle_panes(self) -> None:
        self.panes_forced = not self.query_one("#panes").display
        self.arrange(self.size.width)

    def action_toggle_sidebar(self) -> None:
        self.sidebar_before_search = None
        self.sidebar_forced = not self.sidebar.display
        self.arrange(self.size.width)

    def action_show_pane(self, name: str) -> None:
        from textual.widgets import TabbedContent

        self.panes_forced = True
        self.arrange(self.size.width)
        self.query_one("#pane-tabs", TabbedContent).active = name

    # -- events from the turns and the background ------------------------------------------

    def turn_event(self, ev: Event) -> None:
        self.pane("debug").add(ev)
        if isinstance(ev, ConversationReady):
            self.sidebar.set_current(ev.conversation_id)
        # a new conversation appears with its first message, counts go up
        elif isinstance(ev, MessageStored):
            self.run_worker(self.sidebar.reload(), group="sidebar")
        elif isinstance(ev, (TurnFinished, TurnCancelled, ErrorEvent)):
            # the sidebar and the panes catch up a moment later: their queries and layout would
            # otherwise land in the frame that shows the answer's last words
            self.set_timer(AFTER_TURN, self._after_turn)
            if isinstance(ev, ErrorEvent) and ev.kind in ("unreachable", "model", "timeout"):
                self.check_server()

    def _after_turn(self) -> None:
        try:
            self.run_worker(self.sidebar.reload(), group="sidebar")
            self.refresh_detail()
        except NoMatches:
            if self.is_running and not self._closing:
                raise
            # the timer fired while the app closed: the widgets are gone, nothing is left to show

    def _from_background(self, ev: Event) -> None:  # on the thread that produced it
        if isinstance(ev, (CompactionStarted, CompactionFinished, CompactionFailed)):
            self.post_message(self.Background(ev))

    @on(Background)
    async def background(self, message: Background) -> None:
        ev = message.event
        while not self.panes_mounted():
            await asyncio.sleep(0.02)
        self.pane("compaction").add(ev)
        if isinstance(ev, CompactionFinished) and ev.conversation_id == self.chat.conversation_id:
            self.refresh_detail()

    @work(exclusive=True, group="detail")
    async def refresh_detail(self) -> None:
        """The panes' view of this conversation: its summaries, topics, briefing, variables."""
        await self.ready.wait()
        cid = self.chat.conversation_id
        detail = (
            await self.jobs.run(self.butler.conversations.get, cid, limit=0)
            if cid is not None
            else None
        )
        variables = await self.jobs.run(self.butler.variables.list)
        while not self.panes_mounted():
            await asyncio.sleep(0.02)
        self.pane("compaction").show(detail)
        self.pane("memory").show(detail, variables, self.butler.clock())

    async def open_conversation(self, cid: int | None, at_message: int | None = None) -> None:
        await self.chat.open(cid, at_message=at_message)
        self.sidebar.set_current(cid)
        self.refresh_detail()
        self.model_changed()

    async def on_sidebar_open(self, event: Sidebar.Open) -> None:
        if self.chat.streaming and event.conversation_id != self.chat.conversation_id:
            self.notify(
                "Tatlock is still answering here: wait, or press Esc to stop him.",
                severity="warning",
            )
            return
        await self.open_conversation(event.conversation_id, event.message_number)
        self.chat.composer.focus()
        self.hide_search_list()

    # -- screens, commands -----------------------------------------------------------------

    def action_persona(self) -> None:
        from tatlock.tui.screens.persona import PersonaScreen

        self.push_screen(PersonaScreen())

    def action_tools(self) -> None:
        from tatlock.tui.screens.tools import ToolsScreen

        self.push_screen(ToolsScreen())

    def action_help(self) -> None:
        from tatlock.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.cfg.backend))

    async def action_quit(self) -> None:
        self.chat.cancel()
        self.exit(0)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for a in ACTIONS:
            if a.offered(self.cfg.backend):
                yield SystemCommand(a.title, a.help, lambda a=a: self.run_action(a.action))
        for cmd in super().get_system_commands(screen):
            if cmd.title != "Quit":
                yield cmd

    async def slash(self, text: str) -> None:
        """/new, /compact, /export [md|json] [FILE], /as [NAME], /retry, /edit, /model [NAME],
        /help, /quit."""
        try:
            words = shlex.split(text[1:])
        except ValueError:
            words = text[1:].split()
        name, args = (words[0].lower(), words[1:]) if words else ("", [])
        if name == "new":
            await self.action_new_conversation()
        elif name == "compact":
            self.action_compact()
        elif name == "export":
            fmt = args[0].lower() if args and args[0].lower() in ("md", "json") else "md"
            rest = args[1:] if args and args[0].lower() in ("md", "json") else args
            self.action_export(fmt, " ".join(rest) or None)
        elif name == "as":
            self.chat.set_speaker(" ".join(args) or None)
        elif name in ("retry", "regenerate"):
            await self.action_regenerate()
        elif name == "edit":
            self.action_edit_last()
        elif name == "model":
            if args:
                name = " ".join(args)
                await self.use_model(None if name.lower() == "default" else name)
            else:
                self.action_choose_model()
        elif name in ("help", "?"):
            self.action_help()
        elif name in ("quit", "exit"):
            await self.action_quit()
        else:
            self.notify(
                f"Unknown command /{one_line(name, 30)}: see /help (start with // to send a "
                f"slash).",
                severity="warning",
            )

    # -- the theme, remembered -------------------------------------------------------------

    def watch_theme(self, theme: str) -> None:
        if self._theme_ready and theme != self.saved_theme:
            self.saved_theme = theme
            self.run_worker(self._save_theme(theme), group="theme", exclusive=True)

    async def _save_theme(self, theme: str) -> None:
        from tatlock import config

        try:
            await self.jobs.run(config.save_setting, self.cfg.paths, "theme", theme)
        except TatlockError as exc:
            self.notify(f"The theme is not remembered: {exc.message}", severity="warning")
