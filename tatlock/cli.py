"""Command line: argument parsing and dispatch (thin; the work is in tatlock.commands).

Start-up matters: this module imports only the standard library and tatlock.config.
Each command imports what it needs when it runs, so `tatlock --help` and `tatlock ask`
never load Textual.

Exit codes: 0 success, 1 failure (server down, no such row), 2 usage error, 130 interrupted,
143 and 129 stopped by SIGTERM and SIGHUP.
"""

from __future__ import annotations

import argparse
from typing import Callable, NoReturn, Sequence

from tatlock import __version__


class _Unbroken(argparse.HelpFormatter):
    """Help text wrapped between words only: a long path stays whole, to be copied."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _cmd(module: str, func: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        import importlib

        return getattr(importlib.import_module(f"tatlock.commands.{module}"), func)(args)

    return run


def _user_opt(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", metavar="NAME", help="whose memory (default: the configured user)")


def build_parser() -> Parser:
    p = Parser(
        prog="tatlock",
        description="Tatlock, a terminal butler with long-term memory, on a local model.",
        epilog="Run `tatlock COMMAND --help` for each command. Settings: `tatlock config` (config.toml; "
               "`tatlock config path` says where). Data lives in $TATLOCK_HOME when set; `tatlock doctor` says "
               "where.",
    )
    p.add_argument("--version", action="version", version=f"tatlock {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    # -- ask -------------------------------------------------------------------------------
    a = sub.add_parser("ask", help="ask one question and stream the answer",
                       description="Ask one question. Piped stdin is read as material for the question; "
                                   "with no QUESTION, stdin is the question.")
    a.add_argument("question", nargs="*", help="the question (default: read from stdin)")
    a.add_argument("--json", action="store_true", help="print one JSON object instead of streaming text")
    a.add_argument("--new", action="store_true", help="start a new conversation in the CLI room")
    a.add_argument("--conversation", type=int, metavar="ID", help="continue conversation ID")
    _user_opt(a)
    a.add_argument("--model", metavar="NAME", help="model to use (default: config or hardware tier)")
    a.add_argument("-s", "--system", metavar="TEXT",
                   help="a one-off instruction for this question only, added after the persona "
                        "(e.g. -s 'Answer in French'); not stored as persona")
    a.add_argument("-v", "--verbose", action="store_true", help="trace the phases on stderr")
    a.set_defaults(func=_cmd("ask", "run"))

    # -- chat ------------------------------------------------------------------------------
    c = sub.add_parser("chat", help="a line-by-line chat in this terminal",
                       description="Chat with the butler line by line (prompt-toolkit). Ctrl-D to leave.")
    c.add_argument("--new", action="store_true", help="start a new conversation")
    _user_opt(c)
    c.add_argument("--model", metavar="NAME", help="model to use")
    c.set_defaults(func=_cmd("chat", "run"))

    # -- tui (what bare `tatlock` opens in a terminal) -------------------------------------
    ui = sub.add_parser("tui", help="the full-screen app (what `tatlock` alone opens in a terminal)",
                        description="The Textual app: chat with live Debug, Compaction and Memory panes, "
                                    "conversations, persona and tools. Ctrl-Q leaves; Ctrl-P lists every action.")
    ui.add_argument("--new", action="store_true", help="start with a new conversation")
    _user_opt(ui)
    ui.add_argument("--model", metavar="NAME", help="model to use")
    ui.set_defaults(func=_cmd("tui", "run"))

    # -- persona ---------------------------------------------------------------------------
    pe = sub.add_parser("persona", help="the butler's persona instructions (rise_and_shine)",
                        description="Edit the instructions that make up the butler's persona, in order.")
    ps = pe.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = ps.add_parser("list", help="list instructions in order")
    x.add_argument("--json", action="store_true", help="machine-readable output")
    x = ps.add_parser("show", help="show one instruction in full")
    x.add_argument("id", type=int)
    x = ps.add_parser("add", help="add an instruction (TEXT, or - to read stdin)")
    x.add_argument("text", help="the instruction, or - to read it from stdin")
    x.add_argument("--position", type=int, metavar="N", help="insert at position N (default: last)")
    x.add_argument("--disabled", action="store_true", help="add it switched off")
    x = ps.add_parser("edit", help="edit an instruction in $VISUAL/$EDITOR (or give TEXT)")
    x.add_argument("id", type=int)
    x.add_argument("text", nargs="?", help="new text instead of opening an editor (- for stdin)")
    for name, hlp in (("enable", "switch an instruction on"), ("disable", "switch an instruction off"),
                      ("remove", "delete an instruction")):
        x = ps.add_parser(name, help=hlp)
        x.add_argument("id", type=int)
    x = ps.add_parser("move", help="move an instruction to POSITION (1 = first)")
    x.add_argument("id", type=int)
    x.add_argument("position", type=int)
    x = ps.add_parser("export", help="write all instructions to FILE as JSON (- for stdout)")
    x.add_argument("file")
    x.add_argument("--yes", action="store_true", help="replace FILE without asking if it exists")
    x = ps.add_parser("import", help="replace all instructions with FILE (JSON export or plain text, at most 4 MB; "
                                     "- for stdin)",
                      description="Replace all persona instructions with those in FILE (- reads stdin), after "
                                  "asking. FILE is either a JSON export (`tatlock persona export`), whose "
                                  "instructions may span several lines, or plain text: one instruction per line, "
                                  "blank lines and lines starting with # skipped.")
    x.add_argument("file", help="a JSON export, or plain text with one instruction per line (- for stdin)")
    x.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    pe.set_defaults(func=_cmd("admin", "persona"))

    # -- tools -----------------------------------------------------------------------------
    t = sub.add_parser("tools", help="the tool registry", description="List, inspect, enable and disable tools.")
    ts = t.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = ts.add_parser("list", help="list tools, whether enabled, and whether their code imports")
    x.add_argument("--json", action="store_true", help="machine-readable output")
    for name, hlp in (("show", "show a tool and its parameters"), ("enable", "enable a tool"),
                      ("disable", "disable a tool")):
        x = ts.add_parser(name, help=hlp)
        x.add_argument("key")
    t.set_defaults(func=_cmd("admin", "tools"))

    # -- user ------------------------------------------------------------------------------
    u = sub.add_parser("user", help="users of this installation", description="Add, list, remove users; set passwords.")
    us = u.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = us.add_parser("add", help="add a user")
    x.add_argument("name")
    x.add_argument("--password-stdin", action="store_true", help="read the password from stdin's first line")
    us.add_parser("list", help="list users")
    x = us.add_parser("remove", help="remove a user (their memory file is kept unless --delete-data)")
    x.add_argument("name")
    x.add_argument("--delete-data", action="store_true", help="also delete the user's memory database and logs")
    x.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    x = us.add_parser("passwd", help="set or change a user's password")
    x.add_argument("name")
    x.add_argument("--password-stdin", action="store_true", help="read the password from stdin's first line")
    u.set_defaults(func=_cmd("admin", "user"))

    # -- var -------------------------------------------------------------------------------
    v = sub.add_parser("var", help="personal variables (facts such as location)",
                       description="Personal variables: the facts the butler keeps about a user and their world, "
                                   "e.g. location (see also `tatlock memory facts`).")
    vs = v.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = vs.add_parser("list", help="list variables")
    _user_opt(x)
    x = vs.add_parser("get", help="print one variable")
    x.add_argument("key")
    _user_opt(x)
    x = vs.add_parser("set", help="set a variable")
    x.add_argument("key")
    x.add_argument("value")
    _user_opt(x)
    x = vs.add_parser("unset", help="remove a variable")
    x.add_argument("key")
    _user_opt(x)
    v.set_defaults(func=_cmd("admin", "var"))

    # -- memory ----------------------------------------------------------------------------
    m = sub.add_parser("memory", help="browse, search, compact, export and forget conversations",
                       description="The long-term memory of one user.")
    ms = m.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = ms.add_parser("conversations", help="list conversations")
    x.add_argument("--limit", type=int, default=20)
    _user_opt(x)
    x = ms.add_parser("show", help="show a conversation's messages and compacts")
    x.add_argument("id", type=int)
    _user_opt(x)
    x = ms.add_parser("search", help="full-text search over messages and summaries")
    x.add_argument("query", nargs="+")
    x.add_argument("--limit", type=int, default=10)
    _user_opt(x)
    x = ms.add_parser("recall", help="messages by time range and/or topic")
    x.add_argument("query", nargs="*", help="optional keywords")
    x.add_argument("--since", help="start: a date or 'last week', 'yesterday', ...")
    x.add_argument("--until", help="end: a date or phrase")
    x.add_argument("--topic", help="only messages on this topic")
    x.add_argument("--limit", type=int, default=20)
    _user_opt(x)
    x = ms.add_parser("compact", help="compact a conversation's pending messages now")
    x.add_argument("id", type=int)
    x.add_argument("--model", metavar="NAME")
    _user_opt(x)
    x = ms.add_parser("export", help="export a conversation, or everything with --all")
    x.add_argument("id", type=int, nargs="?")
    x.add_argument("--all", action="store_true", help="the whole memory (every conversation, variables, summaries)")
    x.add_argument("--format", choices=("md", "json"), default=None, help="md (default for one) or json (for --all)")
    x.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
    _user_opt(x)
    x = ms.add_parser("import", help="restore a JSON export (importing it twice adds nothing)",
                      description="Restore a JSON export: the file (at most 512 MB) is checked in full before "
                                  "anything is written; importing it twice adds nothing, and an import that "
                                  "stopped half way is finished by importing the same file again.")
    x.add_argument("file", help="a file written by `tatlock memory export --all --format json` (- for stdin)")
    _user_opt(x)
    x = ms.add_parser("facts", help="what tatlock knows about you and your world: list, edit or forget a fact",
                      description="The facts tatlock keeps (what you and your guests told it, and personal variables "
                                  "set by hand), each with whom it is about, who said it and where. A new value "
                                  "supersedes the old one, which is kept as history.")
    x.add_argument("fact_action", nargs="?", choices=("list", "edit", "forget"), default="list", metavar="ACTION",
                   help="list (default), edit KEY VALUE, or forget KEY")
    x.add_argument("key", nargs="?", help="the fact's key, as listed (e.g. sister.name)")
    x.add_argument("value", nargs="?", help="the new value (edit)")
    x.add_argument("--history", action="store_true", help="every earlier value, not only the last")
    x.add_argument("--json", action="store_true", help="the facts and their history as JSON")
    _user_opt(x)
    x = ms.add_parser("stats", help="counts and sizes")
    _user_opt(x)
    x = ms.add_parser("forget", help="delete a conversation and everything derived from it")
    x.add_argument("id", type=int)
    x.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    _user_opt(x)
    m.set_defaults(func=_cmd("memory", "run"))

    # -- secret (API keys and passwords in the OS keyring) ---------------------------------
    se = sub.add_parser("secret", help="API keys and passwords in the OS keyring",
                        description="Keep API keys (api_key: the OpenAI-compatible server's key; weather, search...) "
                                    "and remembered passwords in the OS keyring, never in a file. Without a "
                                    "keyring, set TATLOCK_API_KEY or TATLOCK_SECRET_<NAME> instead.")
    ses = se.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    x = ses.add_parser("set", help="store a secret (asked without echo, or --stdin)")
    x.add_argument("name")
    x.add_argument("--stdin", action="store_true", help="read the value from stdin's first line")
    x.add_argument("--yes", action="store_true", help="replace an existing secret without asking")
    x = ses.add_parser("get", help="say whether a secret is set (--show prints it)")
    x.add_argument("name")
    x.add_argument("--show", action="store_true", help="print the value itself")
    x = ses.add_parser("delete", help="remove a secret from the keyring")
    x.add_argument("name")
    x.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    ses.add_parser("list", help="names of the secrets tatlock knows (never their values)")
    se.set_defaults(func=_cmd("secret", "run"))

    # -- mcp -------------------------------------------------------------------------------
    x = sub.add_parser("mcp", help="serve one user's conversations over MCP (stdio, --http PORT or --socket PATH)",
                       description="A Model Context Protocol server for one user's memory: resources "
                                   "conversations://... and tools (create_conversation, add_turn, ask, ...). "
                                   "Over stdio the calling program is trusted; over HTTP every request needs the "
                                   "user's bearer token (made at first use; --show-token prints it). "
                                   "Needs the mcp extra: pip install 'tatlock[mcp]'.")
    _user_opt(x)
    where = x.add_mutually_exclusive_group()
    where.add_argument("--http", type=int, metavar="PORT",
                       help="serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (loopback only; "
                            "0 picks a free port)")
    where.add_argument("--socket", metavar="PATH",
                       help="serve streamable HTTP on a Unix socket at PATH (made 0600, in a folder only you "
                            "can write to) instead of stdio")
    x.add_argument("--show-token", action="store_true",
                   help="print the bearer token HTTP clients need (on stdout); alone, print it and exit")
    x.add_argument("--new-token", action="store_true",
                   help="replace the token with a new one and print it (clients with the old one are refused)")
    x.add_argument("--model", metavar="NAME", help="model for ask (default: config or hardware tier)")
    x.add_argument("-v", "--verbose", action="store_true", help="log requests on stderr")
    x.set_defaults(func=_cmd("mcp", "run"))

    # -- config ----------------------------------------------------------------------------
    cf = sub.add_parser("config", help="show and change settings (config.toml)", formatter_class=_Unbroken,
                        description="Show and change tatlock's settings. Each comes from the environment "
                                    "(TATLOCK_...), else config.toml, else a default; `tatlock config` alone lists "
                                    "them all with where each comes from. A value is checked as loading checks it "
                                    "before anything is written. " + _config_file_here())
    cs = cf.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    x = cs.add_parser("list", help="every setting, its value and where it comes from (what `config` alone shows)")
    x.add_argument("--json", action="store_true", help="machine-readable output")
    x = cs.add_parser("get", help="print the value of one setting in effect")
    x.add_argument("name", metavar="NAME")
    x = cs.add_parser("set", help="set NAME to VALUE in config.toml (refused, with nothing written, if invalid)")
    x.add_argument("name", metavar="NAME")
    x.add_argument("value", metavar="VALUE", nargs="+",
                   help="the value (allowed_paths takes several folders)")
    x = cs.add_parser("unset", help="remove NAME from config.toml, back to its default")
    x.add_argument("name", metavar="NAME")
    cs.add_parser("path", help="print where config.toml is (whether or not it exists yet)")
    cs.add_parser("edit", help="open config.toml in $VISUAL/$EDITOR; an invalid edit is not saved")
    cf.set_defaults(func=_cmd("config", "run"), json=False)

    # -- doctor / setup --------------------------------------------------------------------
    d = sub.add_parser("doctor", help="check the tier, model server, model, settings file and data folders",
                       description="Check what tatlock needs: the hardware tier and its model, whether the model "
                                   "server answers and has the model (against the server's own list, on either "
                                   "backend), where config.toml and the data live, and each database. Each "
                                   "problem comes with what to do about it. Exit code 1 when something is wrong.")
    d.set_defaults(func=_cmd("doctor", "doctor"))
    s = sub.add_parser("setup", help="get the model: pull it through Ollama, with progress",
                       description="Pull the hardware tier's model (or --model) through Ollama, with progress, "
                                   "and beside it the embedding model for memory search by meaning "
                                   "(embedding_model, all-minilm by default; not with --model, nor when it is off). "
                                   "With backend openai (llama-server, LM Studio, vLLM) nothing can be pulled: "
                                   "setup says whether the server has the model, and what to do if not.")
    s.add_argument("--model", metavar="NAME", help="the model to pull (default: config or hardware tier)")
    s.set_defaults(func=_cmd("doctor", "setup"))
    _describe(p)
    return p


def _config_file_here() -> str:
    """Where config.toml is, for --help (no folder is made; a broken environment does not stop --help)."""
    try:
        from tatlock.paths import Paths

        return f"config.toml is {Paths.resolve().config_file}."
    except Exception:  # noqa: BLE001 - --help must always show
        return "`tatlock config path` says where config.toml is."


def _describe(parser: argparse.ArgumentParser) -> None:
    """Every command's own --help starts with its one-line description: the summary its parent
    lists, unless it has a longer description of its own."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {a.dest: a.help for a in action._choices_actions}
            for name, child in action.choices.items():
                if child.description is None and summaries.get(name):
                    text = str(summaries[name])
                    child.description = text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
                _describe(child)


def entry_point() -> NoReturn:
    """The ``tatlock`` program (the console script, ``python -m tatlock``): ``main``, then leave."""
    leave(main())


def leave(code: int) -> NoReturn:
    """End the process once the command is done, without tearing the interpreter down object by
    object: that teardown frees nothing anyone sees (the answer is written, the databases are
    closed, files are written in ``with`` blocks) and cost ``tatlock ask`` some 150 ms of CPU after
    its last byte. What an exit must do is still done: the atexit handlers run (logging's flush,
    the regex cache, tempfile clean-ups) and stdout and stderr are flushed (when that fails, the
    reader having gone away, the exit code is 120, as Python gives). A thread still working takes
    Python's ordinary exit, which waits for it."""
    import atexit
    import os
    import sys
    import threading

    main_thread = threading.main_thread()
    if any(t is not main_thread and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)  # the interpreter waits for it, as it always has
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - the reader went away: 120, the code Python's own exit gives
        os._exit(120)
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    import sys

    from tatlock.text import valid_text

    parser = build_parser()
    # bytes of the command line that are not UTF-8 arrive as lone surrogates: U+FFFD instead
    argv = [valid_text(a) for a in (sys.argv[1:] if argv is None else argv)]
    args = parser.parse_args(argv)
    if args.command is None:  # bare `tatlock`: the app in a terminal, the line chat for pipes
        import sys

        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        args = parser.parse_args(["tui" if interactive else "chat"])
    return run_command(args.func, args)


def run_command(func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; anything a user or a damaged file can cause becomes one line on stderr."""
    import sqlite3
    import sys

    from tatlock.commands.common import error_line
    from tatlock.errors import TatlockError

    def say(line: str) -> None:
        try:
            sys.stderr.write(line.rstrip() + "\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - stderr itself is gone
            pass

    from tatlock.commands import signals

    try:
        with signals.raising():  # SIGTERM and SIGHUP end a command as Ctrl-C does (commands/signals.py)
            return int(func(args) or 0)
    except TatlockError as exc:
        say(f"tatlock: {error_line(exc)}")
        return exc.exit_code
    except signals.Stopped as exc:
        if not exc.reported:
            say(f"tatlock: stopped by {exc.name}")
        return exc.code
    except KeyboardInterrupt:
        say("tatlock: interrupted")
        return 130
    except BrokenPipeError:  # `tatlock ... | head`
        try:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return 0
    except sqlite3.DatabaseError as exc:  # locked, full disk, malformed
        from tatlock.files import _fix
        from tatlock.store.db import CORRUPT_FIX, damaged

        text = str(exc)
        if damaged(text):
            hint = CORRUPT_FIX.replace("an export of your memory", "a `tatlock memory export`")
            hint += "; `tatlock doctor` says which database"
        elif "disk" in text or "full" in text:
            hint = _fix(OSError(28, text))
        else:
            hint = None
        say(f"tatlock: database error: {text}" + (f" ({hint})" if hint else ""))
        return 1
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        say(f"tatlock: {exc.strerror or exc}{where}")
        return 1
    except UnicodeError as exc:  # text that is not valid Unicode from somewhere we did not clean
        say(f"tatlock: text that cannot be stored or shown as UTF-8 ({getattr(exc, 'reason', exc)})")
        return 1


if __name__ == "__main__":  # pragma: no cover
    entry_point()
