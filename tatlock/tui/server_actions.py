"""The app's model server and model: the top line and the banner (is the server up, does it
have the model in use), checking again, pulling a missing model, and choosing the model of a
conversation (kept in memory; a new conversation takes the one chosen before its first message).

A mixin of :class:`tatlock.tui.app.TatlockApp` (kept apart so each module stays short); every
call to the server runs on the app's slow pool."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import App
from textual.widgets import Button

from tatlock.errors import TatlockError
from tatlock.tui.jobs import Jobs
from tatlock.tui.widgets.status import ServerBanner, StatusHeader

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.config import Config
    from tatlock.services.models import ModelStatus
    from tatlock.tui.widgets.chat import ChatPanel

STATUS_RETRY = 20.0  # seconds between checks while the server is down


class ServerActions(App[int]):
    # what the app provides (tatlock.tui.app.TatlockApp)
    jobs: Jobs
    ready: asyncio.Event
    cfg: Config
    status: ModelStatus | None
    should_check_server: bool
    _butler: Butler | None

    @property
    def butler(self) -> Butler:
        raise NotImplementedError

    @property
    def chat(self) -> ChatPanel:
        raise NotImplementedError

    # -- the server ------------------------------------------------------------------------

    def show_header(self) -> None:
        tier = self.status.tier if self.status is not None else "…"
        if self._butler is not None:
            user, model = self._butler.username, self.model_in_use()
        else:
            user, model = self.cfg.user, self.cfg.model or "…"
        self.query_one(StatusHeader).show(user=user, model=model, tier=tier, status=self.status)
        self.query_one(ServerBanner).show(self.status)

    @work(exclusive=True, group="status")
    async def check_server(self) -> None:
        await self.ready.wait()
        try:
            self.status = await self.jobs.run(
                self.butler.models.status, self.model_in_use(), slow=True
            )
        except TatlockError as exc:  # a bad tier setting, say: say so, keep going
            self.notify(exc.message, severity="error")
            return
        self.show_header()
        if not self.status.reachable:
            self.set_timer(STATUS_RETRY, self.check_server)

    def action_check_server(self) -> None:
        self.status = None
        self.show_header()
        self.check_server()

    @on(Button.Pressed, "#banner-check")
    def banner_check(self) -> None:
        self.action_check_server()

    @on(Button.Pressed, "#banner-pull")
    def banner_pull(self) -> None:
        self.action_pull_model()

    def action_pull_model(self) -> None:
        from tatlock.tui.screens.pull import PullScreen

        if not self.ready.is_set():
            return
        if self.cfg.backend != "ollama":
            self.notify(
                "This server is OpenAI-compatible: load the model with the server's own tools "
                "(pulling works with Ollama only).",
                severity="warning",
            )
            return
        model = self.status.model if self.status is not None else self.model_in_use()
        self.push_screen(PullScreen(model), lambda ok: self.action_check_server())

    # -- the model of the conversation ------------------------------------------------------

    def model_changed(self) -> None:
        """The model in use may be another (a conversation with its own, or back to the
        default): the top line says which, and whether the server has it."""
        if not self.ready.is_set():
            return
        self.show_header()
        if (
            self.should_check_server
            and self.status is not None
            and self.status.model != self.model_in_use()
        ):
            self.check_server()

    def model_in_use(self) -> str:
        return self.chat.model or self.butler.model

    def action_choose_model(self) -> None:
        from tatlock.tui.screens.models import ModelScreen

        if not self.ready.is_set():
            return
        default = self.butler.model

        async def chosen(choice: str | None) -> None:
            if choice is not None:
                await self.use_model(choice or None)

        self.push_screen(
            ModelScreen(self.chat.model or default, default, new=self.chat.conversation_id is None),
            chosen,
        )

    async def use_model(self, model: str | None) -> None:
        """The model of the conversation open (None: the default again), kept in memory; a new
        conversation takes it with its first message."""
        cid = self.chat.conversation_id
        try:
            if cid is not None:
                conv = await self.jobs.run(self.butler.conversations.set_model, cid, model)
                model = conv.metadata.get("model") or None
            elif model is not None:
                from tatlock.services.models import model_name

                model = model_name(model)
        except TatlockError as exc:
            self.notify(exc.message, severity="error")
            return
        self.chat.model = model
        shown = model or f"the default, {self.butler.model}"
        self.notify(
            f"{'This' if cid is not None else 'The new'} conversation answers with {shown}."
        )
        self.model_changed()
