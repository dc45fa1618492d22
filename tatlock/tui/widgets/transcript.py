"""The conversation: the latest messages at once, older ones loaded as you scroll up.

Opening a long conversation mounts one page (the latest messages) and stays at the bottom;
reaching the top asks the owner (``LoadOlder``) for the page before, which is mounted above
without moving what is on screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from tatlock.tui.widgets.message import MessageView, StoredView

W = TypeVar("W", MessageView, StoredView)

PAGE = 30  # messages per page: a screenful or two, and quick to mount


class Transcript(VerticalScroll):
    can_focus = True

    class LoadOlder(Message):
        def __init__(self, before: int) -> None:
            super().__init__()
            self.before = before

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.more_before = False
        self.loading_older = False

    # -- contents --------------------------------------------------------------------------

    @property
    def messages(self) -> list[MessageView | StoredView]:
        return [w for w in self.children if isinstance(w, (MessageView, StoredView))]

    @property
    def first_number(self) -> int | None:
        for view in self.messages:
            if view.number is not None:
                return view.number
        return None

    async def show(
        self, views: Iterable[StoredView], *, more_before: bool, empty: str = ""
    ) -> None:
        """Replace everything with ``views`` (oldest first) and go to the bottom."""
        await self.remove_children()
        views = list(views)
        self.more_before = more_before
        self.loading_older = False
        if views:
            await self.mount_all(views)
        elif empty:
            await self.mount(Static(empty, classes="empty", markup=False))
        self.scroll_end(animate=False, immediate=True)
        self.anchor()

    async def add(self, view: W) -> W:
        for placeholder in self.query(".empty"):
            await placeholder.remove()
        await self.mount(view)
        if self.is_anchored or self.max_scroll_y - self.scroll_y < 3:
            self.anchor()
        return view

    async def prepend(self, views: list[StoredView], *, more_before: bool) -> None:
        """Older messages above the first, keeping the view where it was."""
        self.more_before = more_before
        self.loading_older = False
        if not views:
            return
        first = self.messages[0] if self.messages else None
        offset = (first.virtual_region.y - self.scroll_y) if first is not None else 0
        await self.mount_all(views, before=0)

        last_new = views[-1]

        def keep_place(tries: int = 0) -> None:
            if first is None or not first.is_mounted:
                return
            target = first.virtual_region.y - offset
            # On a busy machine the refresh can come before the layout has placed the new
            # page: the old first message still sits at the top and the scroll range has
            # not grown. Scrolling then would leave the reader at the top of the new page,
            # so wait for the layout (a few refreshes at most) before keeping the place.
            laid_out = first.virtual_region.y >= last_new.virtual_region.bottom > 0
            short = target > self.max_scroll_y  # the range grows in the same pass, or never
            if (not laid_out and tries < 20) or (short and tries < 3):
                self.call_after_refresh(keep_place, tries + 1)
                return
            self.scroll_to(y=target, animate=False, immediate=True)

        self.call_after_refresh(keep_place)

    # -- older pages as you scroll up ------------------------------------------------------

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 1 and new_value < old_value:
            self.want_older()

    def want_older(self) -> None:
        first = self.first_number
        if self.more_before and not self.loading_older and first is not None and first > 1:
            self.loading_older = True
            self.post_message(self.LoadOlder(first))

    def key_home(self) -> None:
        self.scroll_home(animate=False)
        self.want_older()
