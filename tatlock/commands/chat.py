"""`tatlock chat`: a line-by-line chat in the terminal (prompt-toolkit), for plain terminals and
pipes. A thin view over the butler's turns, like `ask`.

Ctrl-C while an answer streams cancels that turn (the partial answer is kept, marked
cancelled) and the chat goes on; Ctrl-C at the prompt, or a second one while cancelling, leaves.
SIGTERM or SIGHUP cancels the turn the same way, then leaves (exit 143 or 129).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from tatlock.commands.common import open_butler
from tatlock.commands.signals import Stopped
from tatlock.events import (
    AnswerReplaced,
    AnswerToken,
    ErrorEvent,
    MessageStored,
    Notice,
    TurnCancelled,
    TurnFinished,
)
from tatlock.text import inert, inert_line
from tatlock.turn import Turn

HELP = (
    "Type a message and press Enter. /new starts a new conversation; /quit, Ctrl-D or Ctrl-C "
    "leaves."
)


def run(args: argparse.Namespace) -> int:
    butler = open_butler(args.user, model=args.model)
    new = args.new
    read = _reader()
    print(f"Tatlock at your service ({butler.model}). {HELP}", file=sys.stderr)
    try:
        while True:
            try:
                line = read()
            except Stopped:
                raise  # SIGTERM or SIGHUP at the prompt: run_command says so and exits 143 or 129
            except (EOFError, KeyboardInterrupt):
                break
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit"):
                break
            if text == "/new":
                new = True
                print("(a new conversation starts with your next message)", file=sys.stderr)
                continue
            if text == "/help":
                print(HELP, file=sys.stderr)
                continue
            if not _show(butler.turn(text, room_id="cli", new=new)):
                break
            new = False
            sys.stdout.write("\n")
    except BaseException:
        # a signal (a second one may land before the first cancelled the turn) or an error: the
        # turn ends now and stores its partial, not at the model's deadline
        butler.cancel_turns()
        raise
    finally:
        note = butler.close()
        if note:
            print(f"tatlock: {inert_line(note)}", file=sys.stderr)
    return 0


def _show(turn: Turn) -> bool:
    """Print one turn's answer as it streams; False when the user pressed Ctrl-C twice."""
    seen = 0
    saved = False  # the message reached memory
    cancelling: KeyboardInterrupt | None = None  # Ctrl-C, or SIGTERM/SIGHUP (Stopped)
    events = turn.follow(0)
    while True:
        try:
            ev = next(events, None)
        except KeyboardInterrupt as exc:
            if isinstance(exc, Stopped) or isinstance(cancelling, Stopped):
                if cancelling is not None:
                    raise  # a second signal: leave now (the butler still stores the cancelled turn)
            elif cancelling is not None:
                return False
            cancelling = exc
            turn.cancel()
            events = turn.follow(seen)
            continue
        if ev is None:
            if isinstance(cancelling, Stopped):  # a signal ends the chat once its turn is stored
                cancelling.reported = True
                raise cancelling
            return True
        seen += 1
        if isinstance(ev, AnswerToken):
            sys.stdout.write(inert(ev.text))
            sys.stdout.flush()
        elif isinstance(ev, AnswerReplaced):
            sys.stdout.write(f"\n[revised] {inert(ev.text)}")
        elif isinstance(ev, MessageStored) and ev.role == "user":
            saved = True
        elif isinstance(ev, Notice) and ev.kind == "truncated":
            print(f"tatlock: {inert(ev.message)}", file=sys.stderr)
        elif isinstance(ev, ErrorEvent):
            from tatlock.commands.common import cli_hint

            found = cli_hint(ev.kind, ev.hint)
            hint = f" ({inert(found)})" if found else ""
            where = "your message is saved" if saved else "your message could not be saved"
            print(f"\ntatlock: {inert(ev.message)}{hint} ({where})", file=sys.stderr)
        elif isinstance(ev, TurnCancelled):
            if isinstance(cancelling, Stopped):
                print(
                    f"\ntatlock: stopped by {cancelling.name} (what was said is kept, marked "
                    f"cancelled)",
                    file=sys.stderr,
                )
            else:
                print("\n(cancelled: what was said is kept, marked cancelled)", file=sys.stderr)
        elif isinstance(ev, TurnFinished):
            sys.stdout.write("\n")


def _reader() -> Callable[[], str]:
    if sys.stdin.isatty() and sys.stdout.isatty():
        from prompt_toolkit import PromptSession

        session: PromptSession[str] = PromptSession()
        return lambda: session.prompt("you> ")
    return _readline


def _readline() -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
