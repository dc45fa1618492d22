"""The top line (Tatlock, user, model, tier, server state) and the banner shown when the model
server is down or lacks the model: it says what to run, and offers to pull a missing model.
Reading, searching and editing go on working meanwhile."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Button, Static

from tatlock.tui.format import one_line

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.services.models import ModelStatus


class StatusHeader(Static):
    def show(self, *, user: str, model: str, tier: str, status: ModelStatus | None) -> None:
        if status is None:
            state = ("◌ checking the server…", "dim")
        elif status.ok:
            state = (f"● server up{server_label(status)}", "green")
        elif status.reachable:
            state = ("● server up · model missing", "yellow")
        else:
            state = ("○ server down", "bold red")
        self.update(
            Text.assemble(
                ("Tatlock", "bold"),
                "  ·  ",
                f"user {one_line(user, 32)}",
                "  ·  ",
                f"model {one_line(model, 40)}",
                "  ·  ",
                f"tier {tier}",
                "  ·  ",
                state,
            )
        )


def server_label(status: ModelStatus) -> str:
    """ " (ollama 0.12.6)"; an OpenAI-compatible server's version already says what it is, so
    it is not said twice ("openai openai-compatible")."""
    version = one_line(status.version or "", 40)
    if not version:
        return f" ({status.backend})"
    return (
        f" ({version})"
        if status.backend.lower() in version.lower()
        else f" ({status.backend} {version})"
    )


class ServerBanner(Horizontal):
    """Hidden while all is well; its text and buttons are made the first time it shows (most
    starts never need them, and the first frame does not wait for them)."""

    def on_mount(self) -> None:
        self.display = False

    def show(self, status: ModelStatus | None) -> None:
        if status is None or status.ok:
            self.display = False
            return
        if not self.query("#banner-text"):
            self.run_worker(self._build(status), group="banner", exclusive=True)
            return
        pull = self.query_one("#banner-pull", Button)
        if not status.reachable:
            what = f"The model server is not reachable at {status.where}"
            todo = status.hint or "start it"
            text = (
                f"{what}: {todo}, then press Ctrl+R. "
                "Meanwhile you can read, search and edit; a message you send is kept."
            )
            pull.display = False
        else:
            text = (
                f"{status.problem or 'the model is missing'}: {status.hint or 'pull it'}. "
                "Pull it from here, or choose another model with F4."
            )
            pull.label = f"Pull {one_line(status.model, 30)}"
            pull.display = status.backend == "ollama"
        self.query_one("#banner-text", Static).update(one_line(text, 400))
        self.display = True

    async def _build(self, status: ModelStatus) -> None:
        if not self.query("#banner-text"):
            await self.mount_all(
                [
                    Static("", id="banner-text", markup=False),
                    Button("Pull the model", id="banner-pull", variant="warning"),
                    Button("Check again", id="banner-check"),
                ]
            )
        self.show(status)
