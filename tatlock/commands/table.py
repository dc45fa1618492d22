"""Every command of the command line as a table: its name, its help, its arguments and the
function in tatlock.commands that runs it. cli.py builds the argparse parser from this table.

Standard library only: `tatlock --help` and `tatlock ask` read this without loading Textual, MCP
or any command's module (a command's module is imported when it runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Arg:
    """One argument: its names (``"--json"``, or a positional's ``"id"``) and what argparse's
    ``add_argument`` takes besides."""

    names: tuple[str, ...]
    options: dict[str, Any]


@dataclass(frozen=True)
class OneOf:
    """Arguments of which at most one may be given."""

    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Command:
    """A command, or an action under one (``tatlock memory search``)."""

    name: str
    help: str
    args: tuple[Arg | OneOf, ...] = ()
    # the longer text of its own --help; None: the help above, as a sentence
    description: str | None = None
    # the function that runs it, (module in tatlock.commands, function): set on a command, and
    # inherited by its actions
    run: tuple[str, str] | None = None
    actions: tuple[Command, ...] = ()
    action_required: bool = True  # False: the command alone does something (`tatlock config`)
    defaults: dict[str, Any] = field(default_factory=dict)
    # its description names where config.toml is (worked out when --help is built)
    names_config_file: bool = False


def arg(*names: str, **options: Any) -> Arg:
    return Arg(names, options)


YES = arg("--yes", action="store_true", help="do not ask for confirmation")
JSON = arg("--json", action="store_true", help="machine-readable output")
USER = arg("--user", metavar="NAME", help="whose memory (default: the configured user)")
PASSWORD_STDIN = arg(
    "--password-stdin", action="store_true", help="read the password from stdin's first line"
)
ID = arg("id", type=int)


def _with_user(*actions: Command) -> tuple[Command, ...]:
    """The actions, each taking --user last."""
    return tuple(Command(**{**action.__dict__, "args": (*action.args, USER)}) for action in actions)


ASK = Command(
    "ask",
    "ask one question and stream the answer",
    description="Ask one question. Piped stdin is read as material for the question; with no "
    "QUESTION, stdin is the question.",
    run=("ask", "run"),
    args=(
        arg("question", nargs="*", help="the question (default: read from stdin)"),
        arg("--json", action="store_true", help="print one JSON object instead of streaming text"),
        arg("--new", action="store_true", help="start a new conversation in the CLI room"),
        arg("--conversation", type=int, metavar="ID", help="continue conversation ID"),
        USER,
        arg("--model", metavar="NAME", help="model to use (default: config or hardware tier)"),
        arg(
            "-s",
            "--system",
            metavar="TEXT",
            help="a one-off instruction for this question only, added after the persona "
            "(e.g. -s 'Answer in French'); not stored as persona",
        ),
        arg("-v", "--verbose", action="store_true", help="trace the phases on stderr"),
    ),
)

CHAT = Command(
    "chat",
    "a line-by-line chat in this terminal",
    description="Chat with the butler line by line (prompt-toolkit). Ctrl-D to leave.",
    run=("chat", "run"),
    args=(
        arg("--new", action="store_true", help="start a new conversation"),
        USER,
        arg("--model", metavar="NAME", help="model to use"),
    ),
)

TUI = Command(
    "tui",
    "the full-screen app (what `tatlock` alone opens in a terminal)",
    description="The Textual app: chat with live Debug, Compaction and Memory panes, "
    "conversations, persona and tools. Ctrl-Q leaves; Ctrl-P lists every action.",
    run=("tui", "run"),
    args=(
        arg("--new", action="store_true", help="start with a new conversation"),
        USER,
        arg("--model", metavar="NAME", help="model to use"),
    ),
)

PERSONA = Command(
    "persona",
    "the butler's persona instructions (rise_and_shine)",
    description="Edit the instructions that make up the butler's persona, in order.",
    run=("admin", "persona"),
    actions=(
        Command("list", "list instructions in order", (JSON,)),
        Command("show", "show one instruction in full", (ID,)),
        Command(
            "add",
            "add an instruction (TEXT, or - to read stdin)",
            (
                arg("text", help="the instruction, or - to read it from stdin"),
                arg(
                    "--position",
                    type=int,
                    metavar="N",
                    help="insert at position N (default: last)",
                ),
                arg("--disabled", action="store_true", help="add it switched off"),
            ),
        ),
        Command(
            "edit",
            "edit an instruction in $VISUAL/$EDITOR (or give TEXT)",
            (
                ID,
                arg("text", nargs="?", help="new text instead of opening an editor (- for stdin)"),
            ),
        ),
        Command("enable", "switch an instruction on", (ID,)),
        Command("disable", "switch an instruction off", (ID,)),
        Command("remove", "delete an instruction", (ID,)),
        Command(
            "move",
            "move an instruction to POSITION (1 = first)",
            (ID, arg("position", type=int)),
        ),
        Command(
            "export",
            "write all instructions to FILE as JSON (- for stdout)",
            (
                arg("file"),
                arg("--yes", action="store_true", help="replace FILE without asking if it exists"),
            ),
        ),
        Command(
            "import",
            "replace all instructions with FILE (JSON export or plain text, at most 4 MB; - for "
            "stdin)",
            description="Replace all persona instructions with those in FILE (- reads stdin), "
            "after asking. FILE is either a JSON export (`tatlock persona export`), whose "
            "instructions may span several lines, or plain text: one instruction per line, "
            "blank lines and lines starting with # skipped.",
            args=(
                arg(
                    "file",
                    help="a JSON export, or plain text with one instruction per line (- for stdin)",
                ),
                YES,
            ),
        ),
    ),
)

TOOLS = Command(
    "tools",
    "the tool registry",
    description="List, inspect, enable and disable tools.",
    run=("admin", "tools"),
    actions=(
        Command("list", "list tools, whether enabled, and whether their code imports", (JSON,)),
        Command("show", "show a tool and its parameters", (arg("key"),)),
        Command("enable", "enable a tool", (arg("key"),)),
        Command("disable", "disable a tool", (arg("key"),)),
    ),
)

USERS = Command(
    "user",
    "users of this installation",
    description="Add, list, remove users; set passwords.",
    run=("admin", "user"),
    actions=(
        Command("add", "add a user", (arg("name"), PASSWORD_STDIN)),
        Command("list", "list users"),
        Command(
            "remove",
            "remove a user (their memory file is kept unless --delete-data)",
            (
                arg("name"),
                arg(
                    "--delete-data",
                    action="store_true",
                    help="also delete the user's memory database and logs",
                ),
                YES,
            ),
        ),
        Command("passwd", "set or change a user's password", (arg("name"), PASSWORD_STDIN)),
    ),
)

VARIABLES = Command(
    "var",
    "personal variables (facts such as location)",
    description="Personal variables: the facts the butler keeps about a user and their world, "
    "e.g. location (see also `tatlock memory facts`).",
    run=("admin", "var"),
    actions=_with_user(
        Command("list", "list variables"),
        Command("get", "print one variable", (arg("key"),)),
        Command("set", "set a variable", (arg("key"), arg("value"))),
        Command("unset", "remove a variable", (arg("key"),)),
    ),
)

MEMORY = Command(
    "memory",
    "browse, search, compact, export and forget conversations",
    description="The long-term memory of one user.",
    run=("memory", "run"),
    actions=_with_user(
        Command("conversations", "list conversations", (arg("--limit", type=int, default=20),)),
        Command("show", "show a conversation's messages and compacts", (ID,)),
        Command(
            "search",
            "full-text search over messages and summaries",
            (arg("query", nargs="+"), arg("--limit", type=int, default=10)),
        ),
        Command(
            "recall",
            "messages by time range and/or topic",
            (
                arg("query", nargs="*", help="optional keywords"),
                arg("--since", help="start: a date or 'last week', 'yesterday', ..."),
                arg("--until", help="end: a date or phrase"),
                arg("--topic", help="only messages on this topic"),
                arg("--limit", type=int, default=20),
            ),
        ),
        Command(
            "compact",
            "compact a conversation's pending messages now",
            (ID, arg("--model", metavar="NAME")),
        ),
        Command(
            "export",
            "export a conversation, or everything with --all",
            (
                arg("id", type=int, nargs="?"),
                arg(
                    "--all",
                    action="store_true",
                    help="the whole memory (every conversation, variables, summaries)",
                ),
                arg(
                    "--format",
                    choices=("md", "json"),
                    default=None,
                    help="md (default for one) or json (for --all)",
                ),
                arg("--output", "-o", metavar="FILE", help="write to FILE instead of stdout"),
            ),
        ),
        Command(
            "import",
            "restore a JSON export (importing it twice adds nothing)",
            description="Restore a JSON export: the file (at most 512 MB) is checked in full "
            "before anything is written; importing it twice adds nothing, and an import that "
            "stopped half way is finished by importing the same file again.",
            args=(
                arg(
                    "file",
                    help="a file written by `tatlock memory export --all --format json` (- for "
                    "stdin)",
                ),
            ),
        ),
        Command(
            "facts",
            "what tatlock knows about you and your world: list, edit or forget a fact",
            description="The facts tatlock keeps (what you and your guests told it, and "
            "personal variables set by hand), each with whom it is about, who said it and "
            "where. A new value supersedes the old one, which is kept as history.",
            args=(
                arg(
                    "fact_action",
                    nargs="?",
                    choices=("list", "edit", "forget"),
                    default="list",
                    metavar="ACTION",
                    help="list (default), edit KEY VALUE, or forget KEY",
                ),
                arg("key", nargs="?", help="the fact's key, as listed (e.g. sister.name)"),
                arg("value", nargs="?", help="the new value (edit)"),
                arg(
                    "--history", action="store_true", help="every earlier value, not only the last"
                ),
                arg("--json", action="store_true", help="the facts and their history as JSON"),
            ),
        ),
        Command("stats", "counts and sizes"),
        Command("forget", "delete a conversation and everything derived from it", (ID, YES)),
    ),
)

SECRET = Command(
    "secret",
    "API keys and passwords in the OS keyring",
    description="Keep API keys (api_key: the OpenAI-compatible server's key; weather, "
    "search...) and remembered passwords in the OS keyring, never in a file. Without a "
    "keyring, set TATLOCK_API_KEY or TATLOCK_SECRET_<NAME> instead.",
    run=("secret", "run"),
    actions=(
        Command(
            "set",
            "store a secret (asked without echo, or --stdin)",
            (
                arg("name"),
                arg("--stdin", action="store_true", help="read the value from stdin's first line"),
                arg("--yes", action="store_true", help="replace an existing secret without asking"),
            ),
        ),
        Command(
            "get",
            "say whether a secret is set (--show prints it)",
            (arg("name"), arg("--show", action="store_true", help="print the value itself")),
        ),
        Command("delete", "remove a secret from the keyring", (arg("name"), YES)),
        Command("list", "names of the secrets tatlock knows (never their values)"),
    ),
)

MCP = Command(
    "mcp",
    "serve one user's conversations over MCP (stdio, --http PORT or --socket PATH)",
    description="A Model Context Protocol server for one user's memory: resources "
    "conversations://... and tools (create_conversation, add_turn, ask, ...). Over stdio the "
    "calling program is trusted; over HTTP every request needs the user's bearer token (made "
    "at first use; --show-token prints it). Needs the mcp extra: pip install 'tatlock[mcp]'.",
    run=("mcp", "run"),
    args=(
        USER,
        OneOf(
            (
                arg(
                    "--http",
                    type=int,
                    metavar="PORT",
                    help="serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio "
                    "(loopback only; 0 picks a free port)",
                ),
                arg(
                    "--socket",
                    metavar="PATH",
                    help="serve streamable HTTP on a Unix socket at PATH (made 0600, in a folder "
                    "only you can write to) instead of stdio",
                ),
            )
        ),
        arg(
            "--show-token",
            action="store_true",
            help="print the bearer token HTTP clients need (on stdout); alone, print it and exit",
        ),
        arg(
            "--new-token",
            action="store_true",
            help="replace the token with a new one and print it (clients with the old one are "
            "refused)",
        ),
        arg("--model", metavar="NAME", help="model for ask (default: config or hardware tier)"),
        arg("-v", "--verbose", action="store_true", help="log requests on stderr"),
    ),
)

CONFIG = Command(
    "config",
    "show and change settings (config.toml)",
    description="Show and change tatlock's settings. Each comes from the environment "
    "(TATLOCK_...), else config.toml, else a default; `tatlock config` alone lists them all "
    "with where each comes from. A value is checked as loading checks it before anything is "
    "written.",
    names_config_file=True,
    run=("config", "run"),
    action_required=False,
    defaults={"json": False},
    actions=(
        Command(
            "list",
            "every setting, its value and where it comes from (what `config` alone shows)",
            (JSON,),
        ),
        Command("get", "print the value of one setting in effect", (arg("name", metavar="NAME"),)),
        Command(
            "set",
            "set NAME to VALUE in config.toml (refused, with nothing written, if invalid)",
            (
                arg("name", metavar="NAME"),
                arg(
                    "value",
                    metavar="VALUE",
                    nargs="+",
                    help="the value (allowed_paths takes several folders)",
                ),
            ),
        ),
        Command(
            "unset",
            "remove NAME from config.toml, back to its default",
            (arg("name", metavar="NAME"),),
        ),
        Command("path", "print where config.toml is (whether or not it exists yet)"),
        Command("edit", "open config.toml in $VISUAL/$EDITOR; an invalid edit is not saved"),
    ),
)

DOCTOR = Command(
    "doctor",
    "check the tier, model server, model, settings file and data folders",
    description="Check what tatlock needs: the hardware tier and its model, whether the model "
    "server answers and has the model (against the server's own list, on either backend), "
    "where config.toml and the data live, and each database. Each problem comes with what to "
    "do about it. Exit code 1 when something is wrong.",
    run=("doctor", "doctor"),
)

SETUP = Command(
    "setup",
    "get the model: pull it through Ollama, with progress",
    description="Pull the hardware tier's model (or --model) through Ollama, with progress, "
    "and beside it the embedding model for memory search by meaning (embedding_model, "
    "all-minilm by default; not with --model, nor when it is off). With backend openai "
    "(llama-server, LM Studio, vLLM) nothing can be pulled: setup says whether the server has "
    "the model, and what to do if not.",
    run=("doctor", "setup"),
    args=(
        arg("--model", metavar="NAME", help="the model to pull (default: config or hardware tier)"),
    ),
)

# in the order `tatlock --help` lists them
COMMANDS: tuple[Command, ...] = (
    ASK,
    CHAT,
    TUI,
    PERSONA,
    TOOLS,
    USERS,
    VARIABLES,
    MEMORY,
    SECRET,
    MCP,
    CONFIG,
    DOCTOR,
    SETUP,
)
