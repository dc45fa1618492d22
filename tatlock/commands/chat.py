"""`tatlock chat` (and bare `tatlock`): a line-by-line chat in the terminal (prompt-toolkit).

A thin view over the butler's events, like `ask`; the Textual TUI will be another.
"""

from __future__ import annotations

import argparse
import sys

from tatlock.commands.common import load_config, username
from tatlock.events import AnswerReplaced, AnswerToken, ErrorEvent, TurnFinished

HELP = "Type a message and press Enter. /new starts a new conversation, /quit (or Ctrl-D) leaves."


def run(args: argparse.Namespace) -> int:
    cfg = load_config()
    name = username(cfg, args.user)
    from tatlock.butler import Butler

    butler = Butler(cfg, name, model=args.model, interface="cli")
    new = args.new
    read = _reader()
    print(f"Tatlock at your service ({butler.backend.model}). {HELP}", file=sys.stderr)
    try:
        while True:
            try:
                line = read()
            except EOFError:
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
            for ev in butler.handle(text, room_id="cli", new=new):
                if isinstance(ev, AnswerToken):
                    sys.stdout.write(ev.text)
                    sys.stdout.flush()
                elif isinstance(ev, AnswerReplaced):
                    sys.stdout.write(f"\n[revised] {ev.text}")
                elif isinstance(ev, ErrorEvent):
                    print(f"\ntatlock: {ev.message} (your message is saved)", file=sys.stderr)
                elif isinstance(ev, TurnFinished):
                    sys.stdout.write("\n")
            new = False
            sys.stdout.write("\n")
    except KeyboardInterrupt:
        pass
    finally:
        butler.close()
    return 0


def _reader():
    if sys.stdin.isatty() and sys.stdout.isatty():
        from prompt_toolkit import PromptSession

        session = PromptSession()
        return lambda: session.prompt("you> ")
    return lambda: _readline()


def _readline() -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
