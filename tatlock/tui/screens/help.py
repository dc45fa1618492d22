"""Help: every action with its key, the slash commands, and the keys of the composer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from tatlock.tui.actions import ACTIONS, SLASH_COMMANDS

COMPOSER_KEYS = (
    ("Enter", "send"),
    ("Shift+Enter, Ctrl+J", "a new line"),
    ("Up / Down", "earlier inputs (on the first / last line)"),
    ("Esc", "stop the answer being written"),
    ("Tab / Shift+Tab", "move between the list, the chat and the panes"),
    ("Ctrl+P", "the command palette: every action by name"),
)


def key_label(key: str | None) -> str:
    """ "ctrl+n" as Ctrl+N, "f1" as F1, "escape" as Esc; no key: the palette."""
    if not key:
        return "palette"
    return "+".join(
        p.upper() if len(p) == 1 or (p[0] == "f" and p[1:].isdigit()) else p.capitalize()
        for p in key.split("+")
    ).replace("Escape", "Esc")


def cell(text: str) -> str:
    """Text for a Markdown table's cell: a '|' in it (``/export [md|json]``) would end the cell,
    even inside backticks, and split the row."""
    return text.replace("|", "\\|")


def help_markdown(backend: str = "ollama") -> str:
    lines = ["# Tatlock", "", "## Writing", "", "| key | does |", "| --- | --- |"]
    lines += [f"| {cell(k)} | {cell(d)} |" for k, d in COMPOSER_KEYS]
    lines += ["", "## Slash commands", "", "| command | does |", "| --- | --- |"]
    lines += [f"| `{cell(c)}` | {cell(d)} |" for c, d in SLASH_COMMANDS]
    lines += ["", "## Actions", "", "| key | action | what it does |", "| --- | --- | --- |"]
    lines += [
        f"| {key_label(a.key)} | {cell(a.title)} | {cell(a.help)} |"
        for a in ACTIONS
        if a.offered(backend)
    ]
    lines += [
        "",
        "In the conversations list: Enter opens, r renames, Delete forgets, e exports. "
        "In the Debug pane: Enter on a model call shows it, s saves the pane.",
        "",
        "Esc closes this help.",
    ]
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1", "dismiss(None)", "Close")]

    def __init__(self, backend: str = "ollama") -> None:
        super().__init__(classes="dialog-screen")
        self.backend = backend

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="viewer", id="help"):
            yield Markdown(help_markdown(self.backend), open_links=False)
