"""Choosing the model of a conversation: the server's own list (Ollama's pulled models, or an
OpenAI-compatible server's /v1/models), the one in use marked; Enter picks, the first line
goes back to the default. The choice is the conversation's, kept in memory: it answers with
that model from then on, here and in `tatlock ask --conversation`."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tatlock.errors import TatlockError
from tatlock.tui.format import one_line
from tatlock.tui.host import Host, host

DEFAULT = ""  # what the screen returns for "the default again" (None: closed without a choice)


class ModelScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, current: str, default: str, *, new: bool = False) -> None:
        super().__init__(classes="dialog-screen")
        self.current, self.default, self.new = current, default, new
        self.models: list[str] = []

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        whose = "the new conversation" if self.new else "this conversation"
        with Vertical(classes="dialog", id="models"):
            yield Static(f"The model for {whose}", classes="pane-title")
            yield Static("Asking the server for its models…", id="models-status", markup=False)
            yield OptionList(id="models-list")
            yield Static("Enter chooses · Esc keeps the one in use", classes="pane-hint")

    def on_mount(self) -> None:
        self.query_one("#models-list", OptionList).display = False
        self.load()

    @work(exclusive=True)
    async def load(self) -> None:
        status = self.query_one("#models-status", Static)
        try:
            models = await self.tapp.jobs.run(self.tapp.butler.models.list, slow=True)
        except TatlockError as exc:
            hint = f" ({exc.hint})" if exc.hint else ""
            status.update(
                one_line(
                    f"The server did not list its models: {exc.message}{hint}. "
                    f"{self.current} stays in use; /model NAME sets one by name.",
                    400,
                )
            )
            return
        self.models = sorted(dict.fromkeys(m for m in models if m))
        options = self.query_one("#models-list", OptionList)
        options.add_option(
            Option(
                Text.assemble(
                    ("the default", "bold"),
                    f" ({one_line(self.default, 50)})",
                    (" · in use" if self.current == self.default else "", "green"),
                ),
                id="default",
            )
        )
        for i, name in enumerate(self.models):
            used = name == self.current
            options.add_option(
                Option(
                    Text.assemble(("● " if used else "  ", "green"), one_line(name, 60)), id=f"m{i}"
                )
            )
        if self.current not in self.models:
            status.update(one_line(f"In use: {self.current}, which the server does not list.", 200))
        else:
            status.display = False
        options.display = True
        options.highlighted = (
            self.models.index(self.current) + 1 if self.current in self.models else 0
        )
        options.focus()

    @on(OptionList.OptionSelected, "#models-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id or ""
        self.dismiss(DEFAULT if oid == "default" else self.models[int(oid[1:])])
