"""Command line: argument parsing and dispatch (thin; the work is in tatlock.commands).

Start-up matters: this module imports only the standard library and the table of commands
(tatlock/commands/table.py, itself standard library only). Each command imports what it needs
when it runs, so `tatlock --help` and `tatlock ask` never load Textual or MCP.

Exit codes: 0 success, 1 failure (server down, no such row), 2 usage error, 130 interrupted,
143 and 129 stopped by SIGTERM and SIGHUP.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from tatlock import __version__

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.commands.table import Command


class _Unbroken(argparse.HelpFormatter):
    """Help text wrapped between words only: a long path stays whole, to be copied."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


class Run:
    """The function a command runs, by name: its module is imported only when it runs, so the
    parser loads none of them."""

    def __init__(self, module: str, function: str) -> None:
        self.target = (module, function)

    def __call__(self, args: argparse.Namespace) -> int:
        import importlib

        module, function = self.target
        result: int = getattr(importlib.import_module(f"tatlock.commands.{module}"), function)(args)
        return result


def build_parser() -> Parser:
    """The parser of every command, built from the table in tatlock/commands/table.py."""
    from tatlock.commands.table import COMMANDS

    parser = Parser(
        prog="tatlock",
        description="Tatlock, a terminal butler with long-term memory, on a local model.",
        epilog="Run `tatlock COMMAND --help` for each command. Settings: `tatlock config` "
        "(config.toml; `tatlock config path` says where). Data lives in $TATLOCK_HOME when set; "
        "`tatlock doctor` says where.",
    )
    parser.add_argument("--version", action="version", version=f"tatlock {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        _add(commands, command)
    _describe(parser)
    return parser


def _add(under: argparse._SubParsersAction[Parser], command: Command) -> None:
    """One command of the table (and its actions) under its parent's commands."""
    from tatlock.commands.table import OneOf

    extra: dict[str, Any] = {}
    description = command.description
    if command.names_config_file:
        description = f"{description} {_config_file_here()}"
        extra["formatter_class"] = _Unbroken
    if description is not None:
        extra["description"] = description
    parser = under.add_parser(command.name, help=command.help, **extra)
    for item in command.args:
        if isinstance(item, OneOf):
            group = parser.add_mutually_exclusive_group()
            for one in item.args:
                group.add_argument(*one.names, **one.options)
        else:
            parser.add_argument(*item.names, **item.options)
    if command.actions:
        actions = parser.add_subparsers(
            dest="action", metavar="ACTION", required=command.action_required, parser_class=Parser
        )
        for action in command.actions:
            _add(actions, action)
    if command.run is not None:
        parser.set_defaults(func=Run(*command.run), **command.defaults)


def _config_file_here() -> str:
    """Where config.toml is, for --help (no folder is made; a broken environment does not stop
    --help)."""
    try:
        from tatlock.paths import Paths

        return f"config.toml is {Paths.resolve().config_file}."
    except Exception:
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
                    child.description = (
                        text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
                    )
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
    except Exception:
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
        except Exception:
            pass

    from tatlock.commands import signals

    try:
        # SIGTERM and SIGHUP end a command as Ctrl-C does (commands/signals.py)
        with signals.raising():
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
        say(
            f"tatlock: text that cannot be stored or shown as UTF-8 ({getattr(exc, 'reason', exc)})"
        )
        return 1


if __name__ == "__main__":  # pragma: no cover
    entry_point()
