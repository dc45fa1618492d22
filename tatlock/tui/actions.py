"""Every action of the app in one table: the key bindings, the footer, the command palette and
the help screen are all made from it, so an action cannot be reachable one way and not another.

The footer shows the few keys a newcomer needs, short enough to fit 80 columns beside the
palette's ^p (the F-keys first after Quit); the rest are in F1's help and the palette.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    action: str  # the App's action, as Textual parses it: "export('md')" runs action_export("md")
    title: str  # the command palette's entry ("Area: what it does")
    help: str
    key: str | None = None
    footer: str | None = None  # short label in the footer; None keeps the key out of it
    priority: bool = False  # before the focused widget's own bindings
    backend: str | None = None  # offered only with this backend (a pull needs Ollama)

    def offered(self, backend: str) -> bool:
        return self.backend is None or self.backend == backend


ACTIONS: tuple[Action, ...] = (
    Action(
        "new_conversation",
        "Conversation: new",
        "Start a new conversation with your next message",
        "ctrl+n",
        "New",
    ),
    Action(
        "focus_search",
        "Conversations: search",
        "Search every past conversation (full text, with snippets)",
        "ctrl+f",
        "Search",
    ),
    Action("rename_conversation", "Conversation: rename", "Give the conversation a title"),
    Action(
        "delete_conversation",
        "Conversation: delete",
        "Forget the conversation and all derived from it",
    ),
    Action(
        "export('md')", "Conversation: export as Markdown", "Write the conversation to a .md file"
    ),
    Action(
        "export('json')",
        "Conversation: export as JSON",
        "Write the conversation, everything, to a .json file",
    ),
    Action(
        "compact",
        "Conversation: compact now",
        "Summarise the messages that are due now (in the background)",
    ),
    Action(
        "cancel_turn",
        "Answer: stop",
        "Stop the answer being written; what was said stays, marked cancelled",
        "escape",
        "Stop",
    ),
    Action(
        "regenerate",
        "Answer: regenerate",
        "Answer your last message again (the old answer stays in memory, marked superseded)",
        "f5",
    ),
    Action(
        "edit_last",
        "Answer: edit your last message and send it again",
        "Put your last message in the box to change; Enter sends it in its place (Esc: not now)",
        "f6",
    ),
    Action(
        "copy_last",
        "Answer: copy the last one",
        "Copy Tatlock's last answer to the clipboard (OSC 52)",
        "ctrl+l",
    ),
    Action(
        "speak_as",
        "Speaker: speak as a guest",
        "Attribute your next messages to someone else in the room",
    ),
    Action(
        "speak_as_anchor",
        "Speaker: back to yourself",
        "Attribute your next messages to you, the Anchor",
    ),
    Action(
        "toggle_panes",
        "View: side panes",
        "Show or hide the Debug, Compaction and Memory panes",
        "ctrl+t",
    ),
    Action(
        "toggle_sidebar",
        "View: conversations list",
        "Show or hide the list of conversations",
        "ctrl+o",
    ),
    Action(
        "show_pane('debug')",
        "View: Debug pane",
        "The live events of each turn; Enter on a model call shows it",
    ),
    Action(
        "show_pane('compaction')",
        "View: Compaction pane",
        "Compaction events and this conversation's summaries",
    ),
    Action(
        "show_pane('memory')",
        "View: Memory pane",
        "Topics, the briefing, and your personal variables",
    ),
    Action(
        "save_debug",
        "Debug: save the pane to a file",
        "Write every event and model call shown to a text file",
    ),
    Action(
        "persona",
        "Persona: edit the instructions",
        "Add, edit, reorder, switch on or off the persona",
        "f2",
        "Persona",
    ),
    Action(
        "tools",
        "Tools: switch tools on or off",
        "The tool registry, with descriptions and parameters",
        "f3",
        "Tools",
    ),
    Action(
        "check_server",
        "Server: check again",
        "Ask the model server whether it is up and has the model",
        "ctrl+r",
    ),
    Action(
        "choose_model",
        "Model: choose for this conversation",
        "The server's models; the conversation keeps the one you choose (new ones use the default)",
        "f4",
        "Model",
    ),
    Action(
        "pull_model",
        "Model: pull",
        "Download the model through Ollama, with a progress bar",
        backend="ollama",
    ),
    Action("help", "Help: commands and keys", "Every command, slash command and key", "f1", "Help"),
    Action(
        "quit",
        "Quit",
        "Leave Tatlock (a running answer is stopped and kept)",
        "ctrl+q",
        "Quit",
        priority=True,
    ),
)

# the footer's order: what a newcomer looks for first (Quit comes first whatever: Textual's own)
FOOTER = (
    "quit",
    "help",
    "persona",
    "tools",
    "choose_model",
    "new_conversation",
    "focus_search",
    "cancel_turn",
)


def in_footer_order(actions: tuple[Action, ...] = ACTIONS) -> list[Action]:
    """The actions as the bindings list them: the footer's in its order, then the rest."""
    rank = {name: i for i, name in enumerate(FOOTER)}
    return sorted(actions, key=lambda a: rank.get(a.action, len(FOOTER)))


SLASH_COMMANDS: tuple[tuple[str, str], ...] = (
    ("/new", "start a new conversation with your next message"),
    ("/compact", "summarise this conversation's due messages now"),
    (
        "/export [md|json] [FILE]",
        "write this conversation to a file (default: Markdown in this folder)",
    ),
    ("/as NAME", "your next messages are NAME's, a guest in the room; /as alone: back to you"),
    ("/retry", "answer your last message again (the old answer is kept, marked superseded)"),
    ("/edit", "change your last message and send it again in its place"),
    (
        "/model [NAME|default]",
        "this conversation's model: the server's list, a name, or the default again",
    ),
    ("/help", "this help"),
    ("/quit", "leave"),
)
