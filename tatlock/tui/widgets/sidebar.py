"""The conversations: title, room, last activity and message count; and a search box over all of
them (the core's full-text search, each hit with a snippet). Enter opens the highlighted one;
r renames, Delete forgets (after asking), e exports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tatlock.errors import TatlockError
from tatlock.tui.format import ago, one_line
from tatlock.tui.host import Host, host

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.services.records import Hit
    from tatlock.store.user import Conversation

LIST_LIMIT = 200
SEARCH_LIMIT = 30
SEARCH_DELAY = 0.25  # seconds of quiet typing before a search runs


class Sidebar(Vertical):
    BINDINGS = [
        Binding("r", "app.rename_conversation", "Rename"),
        Binding("delete", "app.delete_conversation", "Delete"),
        Binding("e", "app.export('md')", "Export"),
    ]

    class Open(Message):
        def __init__(self, conversation_id: int, message_number: int | None = None) -> None:
            super().__init__()
            self.conversation_id = conversation_id
            self.message_number = message_number

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.conversations: list[Conversation] = []
        self.hits: list[Hit] = []
        self.current: int | None = None
        self.query_text = ""
        self._timer: Timer | None = None

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static("Conversations", classes="pane-title")
        yield Input(placeholder="Search all conversations…", id="search")
        yield OptionList(id="conversations")

    @property
    def options(self) -> OptionList:
        return self.query_one("#conversations", OptionList)

    # -- the list --------------------------------------------------------------------------

    def _prompt(self, c: Conversation) -> Text:
        mark = "▸ " if c.id == self.current else "  "
        title = one_line(c.title or f"Conversation {c.id}", 60)
        when = ago(c.last_activity, self.tapp.butler.clock())
        count = f"{c.message_count} message{'' if c.message_count == 1 else 's'}"
        return Text.assemble((mark, "bold"), (title, "bold"), "\n",
                             (f"  {one_line(c.room_id, 16)} · {when} · {count}", "dim"))

    async def reload(self) -> None:
        """Read the list again (after a turn, a rename, a delete)."""
        await self.tapp.ready.wait()
        self.conversations = await self.tapp.jobs.run(self.tapp.butler.conversations.list, LIST_LIMIT)
        if not self.query_text:
            self._show_list()

    def on_mount(self) -> None:
        self._show_list()

    def _show_list(self) -> None:
        if not self.query("#conversations"):
            return  # not composed yet: on_mount shows the list
        options = self.options
        keep = options.highlighted_option.id if options.highlighted_option else None
        options.set_options([Option(self._prompt(c), id=f"c{c.id}") for c in self.conversations] or
                            [Option(Text("No conversations yet.", "dim"), disabled=True)])
        ids = [f"c{c.id}" for c in self.conversations]
        want = keep if keep in ids else (f"c{self.current}" if f"c{self.current}" in ids else None)
        if want is not None:
            options.highlighted = ids.index(want)

    def set_current(self, conversation_id: int | None) -> None:
        self.current = conversation_id
        if not self.query_text:
            self._show_list()

    def highlighted_conversation(self) -> int | None:
        opt = self.options.highlighted_option
        if opt is None or not opt.id:
            return None
        if opt.id.startswith("c"):
            return int(opt.id[1:])
        hit = self.hits[int(opt.id[1:])]
        return hit.conversation_id

    # -- search ----------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def typed(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip()
        if self._timer is not None:
            self._timer.stop()
        if not self.query_text:
            self.hits = []
            self._show_list()
            return
        self._timer = self.set_timer(SEARCH_DELAY, self.search)

    @on(Input.Submitted, "#search")
    def search_now(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        if self.query_text:
            self.search()
        self.options.focus()

    @work(exclusive=True, group="search")
    async def search(self) -> None:
        query = self.query_text
        options = self.options
        if not query:
            return
        await self.tapp.ready.wait()
        try:
            hits = await self.tapp.jobs.run(self.tapp.butler.conversations.search, query, limit=SEARCH_LIMIT)
        except TatlockError as exc:
            options.set_options([Option(Text(one_line(exc.message, 200), "red"), disabled=True)])
            return
        if query != self.query_text:
            return
        self.hits = hits
        if not hits:
            options.set_options([Option(Text(f"Nothing found for {one_line(query, 40)}.", "dim"), disabled=True)])
            return
        options.set_options([Option(self._hit_prompt(h), id=f"h{i}") for i, h in enumerate(hits)])

    def _hit_prompt(self, h: Hit) -> Text:
        where = (f"#{h.message_number}" if h.kind == "message" and h.message_number
                 else f"summary of #{h.messages[0]}–{h.messages[1]}" if h.messages else h.kind)
        title = one_line(h.title or f"Conversation {h.conversation_id}", 50)
        who = f"{one_line(h.author, 20)}: " if h.author else ""
        return Text.assemble((title, "bold"), (f" · {where} · {ago(h.timestamp, self.tapp.butler.clock())}", "dim"),
                             "\n", (one_line(who + h.snippet, 240), ""))

    # -- opening ---------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#conversations")
    def selected(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id
        if not oid:
            return
        if oid.startswith("c"):
            self.post_message(self.Open(int(oid[1:])))
        else:
            hit = self.hits[int(oid[1:])]
            self.post_message(self.Open(hit.conversation_id, hit.message_number))
