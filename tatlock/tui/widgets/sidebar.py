"""The conversations: title, room, last activity and message count; and a search box over all of
them (the core's full-text search, each hit with a snippet). Enter opens the highlighted one;
r renames, Delete forgets (after asking), e exports.

From the keyboard, Ctrl+F, the words, Down, Enter opens the first hit: Down (or Enter) in the
search box searches at once if the pause after typing has not run out yet, and moves to the
results with the first one highlighted; Esc there goes back to the message box."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
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
INTERFACE = "tui"  # the conversations this app starts
SEARCH_DELAY = 0.25  # seconds of quiet typing before a search runs


def hanging(mark: str, body: Text) -> Table:
    """``body`` beside a two-column gutter holding ``mark``: its wrapped lines start under its
    first, not at the list's left edge."""
    grid = Table.grid(expand=True)
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text(mark, "bold"), body)
    return grid


class SearchBox(Input):
    BINDINGS = [
        Binding("down", "results", "Results", show=False),
        Binding("escape", "app.leave_search", "Back", show=False),
    ]

    class ToResults(Message):
        """Down in the search box: to the results (searching first when a search is due)."""

    def action_results(self) -> None:
        self.post_message(self.ToResults())


class Sidebar(Vertical):
    # said by the list's title while it has the focus, not in the footer (which keeps to 80 columns)
    BINDINGS = [
        Binding("r", "app.rename_conversation", "Rename", show=False),
        Binding("delete", "app.delete_conversation", "Delete", show=False),
        Binding("e", "app.export('md')", "Export", show=False),
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
        self.searched = ""  # the query the hits shown are for
        self._timer: Timer | None = None
        self._to_results = False  # focus the results once the search due now has answered

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static("Conversations", classes="pane-title", id="list-title")
        yield Static(
            "Enter opens · r rename · Del · e export", classes="pane-title", id="list-keys"
        )
        yield SearchBox(placeholder="Search all conversations…", id="search")
        yield OptionList(id="conversations")

    def on_descendant_focus(self) -> None:
        self.set_class(self.options.has_focus, "-list-focused")

    def on_descendant_blur(self) -> None:
        self.set_class(self.options.has_focus, "-list-focused")

    @property
    def options(self) -> OptionList:
        return self.query_one("#conversations", OptionList)

    # -- the list --------------------------------------------------------------------------

    def _prompt(self, c: Conversation) -> Table:
        mark = "▸" if c.id == self.current else ""
        title = one_line(c.title or f"Conversation {c.id}", 60)
        when = ago(c.last_activity, self.tapp.butler.clock())
        count = (
            f"{c.message_count} message{'' if c.message_count == 1 else 's'}"
            if c.message_count
            else "no messages yet"
        )
        where = f"{one_line(c.room_id, 16)} · {when} · {count}"
        return hanging(mark, Text.assemble((title, "bold"), "\n", (where, "dim")))

    async def reload(self) -> None:
        """Read the list again (after a turn, a rename, a delete)."""
        await self.tapp.ready.wait()
        self.conversations = await self.tapp.jobs.run(
            self.tapp.butler.conversations.list, LIST_LIMIT
        )
        if not self.query_text:
            self._show_list()

    def on_mount(self) -> None:
        self._show_list()

    def _show_list(self, *, to_current: bool = False) -> None:
        """Show the list again, the highlight kept where it was (or on the open conversation)."""
        if not self.query("#conversations"):
            return  # not composed yet: on_mount shows the list
        options = self.options
        keep = (
            options.highlighted_option.id if options.highlighted_option and not to_current else None
        )
        # a conversation being started here joins the list with its first message (made a moment
        # before it, it would show as empty in between); one another program made empty is listed
        listed = [c for c in self.conversations if c.message_count or c.interface != INTERFACE]
        options.set_options(
            [Option(self._prompt(c), id=f"c{c.id}") for c in listed]
            or [Option(Text("No conversations yet.", "dim"), disabled=True)]
        )
        ids = [f"c{c.id}" for c in listed]
        want = keep if keep in ids else (f"c{self.current}" if f"c{self.current}" in ids else None)
        if want is not None:
            options.highlighted = ids.index(want)

    def set_current(self, conversation_id: int | None) -> None:
        self.current = conversation_id
        if not self.query_text:
            self._show_list(to_current=True)

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
            self.searched = ""
            self._show_list()
            return
        self._timer = self.set_timer(SEARCH_DELAY, self.search)

    @on(Input.Submitted, "#search")
    @on(SearchBox.ToResults)
    def to_results(self) -> None:
        """Enter or Down in the search box: the results, first one highlighted (the search runs
        now if its pause after typing has not run out: it focuses them when it answers)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.query_text and self.query_text != self.searched:
            self._to_results = True
            self.search()
            return
        self.focus_results()

    def focus_results(self) -> None:
        options = self.options
        options.focus()
        if options.highlighted is None and options.option_count:
            options.highlighted = 0  # the first enabled one
            if options.highlighted_option is not None and options.highlighted_option.disabled:
                options.action_cursor_down()

    @work(exclusive=True, group="search")
    async def search(self) -> None:
        query = self.query_text
        options = self.options
        if not query:
            return
        await self.tapp.ready.wait()
        try:
            hits = await self.tapp.jobs.run(
                self.tapp.butler.conversations.search, query, limit=SEARCH_LIMIT
            )
        except TatlockError as exc:
            options.set_options([Option(Text(one_line(exc.message, 200), "red"), disabled=True)])
            return
        if query != self.query_text:
            return
        self.hits, self.searched = hits, query
        if not hits:
            options.set_options(
                [Option(Text(f"Nothing found for {one_line(query, 40)}.", "dim"), disabled=True)]
            )
        else:
            options.set_options(
                [Option(self._hit_prompt(h), id=f"h{i}") for i, h in enumerate(hits)]
            )
        if self._to_results:
            self._to_results = False
            if hits:
                self.focus_results()

    def _hit_prompt(self, h: Hit) -> Text:
        where = (
            f"#{h.message_number}"
            if h.kind == "message" and h.message_number
            else f"summary of #{h.messages[0]}–{h.messages[1]}"
            if h.messages
            else h.kind
        )
        title = one_line(h.title or f"Conversation {h.conversation_id}", 50)
        who = f"{one_line(h.author, 20)}: " if h.author else ""
        return Text.assemble(
            (title, "bold"),
            (f" · {where} · {ago(h.timestamp, self.tapp.butler.clock())}", "dim"),
            "\n",
            (one_line(who + h.snippet, 240), ""),
        )

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
