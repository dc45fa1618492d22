"""The app's actions on conversations and answers: new, search, rename, delete (after asking),
export, compact, copy the last answer, speak as a guest, save the Debug pane.

A mixin of :class:`tatlock.tui.app.TatlockApp` (kept apart so each module stays short); every
slow call goes through the app's job pools."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App

from tatlock.errors import TatlockError
from tatlock.tui.format import one_line
from tatlock.tui.jobs import Jobs

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.tui.widgets.chat import ChatPanel
    from tatlock.tui.widgets.sidebar import Sidebar


class ConversationActions(App[int]):
    # what the app provides (tatlock.tui.app.TatlockApp)
    jobs: Jobs
    ready: asyncio.Event
    sidebar_forced: bool | None
    sidebar_before_search: tuple[bool | None] | None

    @property
    def butler(self) -> Butler:
        raise NotImplementedError

    @property
    def chat(self) -> ChatPanel:
        raise NotImplementedError

    @property
    def sidebar(self) -> Sidebar:
        raise NotImplementedError

    def pane(self, name: str) -> Any:
        raise NotImplementedError

    def arrange(self, width: int) -> None:
        raise NotImplementedError

    def action_show_pane(self, name: str) -> None:
        raise NotImplementedError

    def refresh_detail(self) -> Any:
        raise NotImplementedError

    async def open_conversation(self, cid: int | None, at_message: int | None = None) -> None:
        raise NotImplementedError

    # -- the actions -----------------------------------------------------------------------

    def target(self) -> int | None:
        """The conversation an action is about: the highlighted one while the list has the
        focus, else the one open."""
        focused = self.focused
        if (
            focused is not None
            and self.query("#sidebar")
            and self.sidebar in focused.ancestors_with_self
        ):
            return self.sidebar.highlighted_conversation()
        return self.chat.conversation_id

    def _title_of(self, cid: int) -> str:
        found = (
            [c.title for c in self.sidebar.conversations if c.id == cid]
            if self.query("#sidebar")
            else []
        )
        return (found[0] if found else None) or f"Conversation {cid}"

    async def action_new_conversation(self) -> None:
        if self.chat.streaming:
            self.notify(
                "Tatlock is still answering: wait, or press Esc to stop him.", severity="warning"
            )
            return
        await self.open_conversation(None)
        self.chat.composer.focus()
        self.notify("A new conversation starts with your next message.")

    def action_focus_search(self) -> None:
        if not self.query("#sidebar"):
            return  # the first frame: the list is mounted a moment later
        if not self.sidebar.display:
            self.sidebar_before_search = (self.sidebar_forced,)
        self.sidebar_forced = True
        self.arrange(self.size.width)
        self.query_one("#search").focus()

    def action_leave_search(self) -> None:
        """Esc in the search box: back to the message box (the list hides again if the search
        was all it was shown for)."""
        self.chat.composer.focus()
        self.hide_search_list()

    def hide_search_list(self) -> None:
        if self.sidebar_before_search is not None:
            self.sidebar_forced, self.sidebar_before_search = self.sidebar_before_search[0], None
            self.arrange(self.size.width)

    def action_rename_conversation(self) -> None:
        from tatlock.tui.screens.dialogs import AskScreen

        cid = self.target()
        if cid is None:
            self.notify("There is no conversation to rename yet.", severity="warning")
            return
        title = self._title_of(cid)

        async def answered(new: str | None) -> None:
            if new is None:
                return
            try:
                await self.jobs.run(self.butler.conversations.rename, cid, new)
            except TatlockError as exc:
                self.notify(exc.message, severity="error")
                return
            await self.sidebar.reload()

        self.push_screen(
            AskScreen(
                f"A title for conversation {cid}:",
                "" if title.startswith("Conversation ") else title,
            ),
            answered,
        )

    def action_delete_conversation(self) -> None:
        from tatlock.tui.screens.dialogs import ConfirmScreen

        cid = self.target()
        if cid is None:
            self.notify("There is no conversation to delete.", severity="warning")
            return
        if cid == self.chat.conversation_id and self.chat.streaming:
            self.notify("Stop the answer first (Esc).", severity="warning")
            return
        title = self._title_of(cid)

        async def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                gone = await self.jobs.run(self.butler.conversations.forget, cid)
            except TatlockError as exc:
                self.notify(exc.message, severity="error")
                return
            if cid == self.chat.conversation_id:
                await self.open_conversation(None)
            await self.sidebar.reload()
            self.notify(
                f"Forgot “{one_line(title, 40)}” ({gone.conversation.message_count} messages)."
            )

        self.push_screen(
            ConfirmScreen(
                f"Forget “{one_line(title, 60)}”?\n\nIts messages, summaries, topics and what was "
                f"learnt in it are "
                "deleted, with its debug log. This cannot be undone.",
                "Forget it",
            ),
            answered,
        )

    def action_export(self, fmt: str = "md", path: str | None = None) -> None:
        from tatlock.tui.screens.dialogs import AskScreen

        cid = self.target()
        if cid is None:
            self.notify("There is no conversation to export yet.", severity="warning")
            return

        async def answered(name: str | None) -> None:
            if name:
                await self.save_text(
                    name,
                    lambda: self.butler.conversations.export(cid, fmt),
                    f"Conversation {cid} written to",
                )

        if path:
            self.run_worker(answered(path))
        else:
            self.push_screen(
                AskScreen(
                    f"Export conversation {cid} ({fmt}) to the file:",
                    f"tatlock-conversation-{cid}.{fmt}",
                ),
                answered,
            )

    async def save_text(
        self, name: str, make: Callable[[], str], done: str, replace: bool = False
    ) -> None:
        """Write what ``make()`` returns to the file ``name``; asks before replacing a file."""
        from tatlock.tui.files import write_text
        from tatlock.tui.screens.dialogs import ConfirmScreen

        path = Path(name).expanduser()
        if path.exists() and not replace:

            async def answered(yes: bool | None) -> None:
                if yes:
                    await self.save_text(name, make, done, replace=True)

            self.push_screen(ConfirmScreen(f"{path} exists. Replace it?", "Replace"), answered)
            return
        try:
            text = await self.jobs.run(make)
            await self.jobs.run(write_text, path, text, self.butler.paths.folders)
        except TatlockError as exc:
            self.notify(exc.message, severity="error")
            return
        self.notify(f"{done} {path}")

    @work(group="compact")
    async def action_compact(self) -> None:
        cid = self.chat.conversation_id
        if cid is None:
            self.notify("Nothing to compact: this conversation has no messages yet.")
            return
        self.action_show_pane("compaction")
        try:
            done = await self.jobs.run(self.butler.conversations.compact, cid, slow=True)
        except TatlockError as exc:
            self.notify(exc.message, severity="error")
            return
        self.notify(
            f"Compacted {len(done)} block(s)." if done else "Nothing is due for compaction yet."
        )
        self.refresh_detail()

    def action_cancel_turn(self) -> None:
        self.chat.cancel()

    async def action_regenerate(self) -> None:
        await self.chat.regenerate()

    def action_edit_last(self) -> None:
        self.chat.edit_last()

    def action_copy_last(self) -> None:
        text = self.chat.last_answer or next(
            (
                v.text
                for v in reversed(self.chat.transcript.messages)
                if v.role == "assistant" and v.text
            ),
            "",
        )
        if not text:
            self.notify("There is no answer to copy yet.", severity="warning")
            return
        self.copy_to_clipboard(text)
        self.notify("Copied the last answer.")

    def action_speak_as(self) -> None:
        from tatlock.tui.screens.dialogs import AskScreen

        def answered(name: Any) -> None:
            if name is not None:
                self.chat.set_speaker(name)

        self.push_screen(
            AskScreen("Speak as (a guest's name; leave it empty for yourself):"), answered
        )

    def action_speak_as_anchor(self) -> None:
        self.chat.set_speaker(None)

    def action_save_debug(self) -> None:
        from tatlock.tui.screens.dialogs import AskScreen

        stamp = self.butler.clock().strftime("%Y%m%d-%H%M%S") if self.ready.is_set() else "now"

        async def answered(name: str | None) -> None:
            if name:
                text = self.pane("debug").as_text()
                await self.save_text(name, lambda: text, "Debug pane written to")

        self.push_screen(
            AskScreen("Save the Debug pane to the file:", f"tatlock-debug-{stamp}.txt"), answered
        )
