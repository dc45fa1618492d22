"""`tatlock tui` (and bare `tatlock` in a terminal): the Textual app.

Textual is imported here, when the app starts, never by the other commands. The app paints
first and opens the butler right after, on a thread of its own; settings are read (and a
--user name checked) before the screen changes, so those errors stay one line in the shell."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tatlock.commands import signals
from tatlock.commands.common import open_butler


def run(args: argparse.Namespace) -> int:
    from tatlock import config

    cfg = config.load()
    butler = open_butler(args.user, model=args.model, interface="tui") if args.user else None
    from tatlock.tui.app import TatlockApp

    if butler is not None:
        app = TatlockApp(butler, new=args.new)
    else:
        app = TatlockApp(
            opener=lambda: open_butler(None, model=args.model, interface="tui"),
            cfg=cfg,
            new=args.new,
        )
    try:
        # SIGTERM and SIGHUP leave the app as Ctrl+Q does (its turn is cancelled and stored, the
        # terminal restored): the handler only schedules the exit on the app's loop
        with signals.calling(lambda signum: _leave(app, signum)) as caught:
            code = app.run()
    finally:
        opened = butler or app.opened
        if opened is not None:
            # waits for a stopped turn to be stored; summaries go on in the background
            note = opened.close()
            if note:
                from tatlock.text import inert_line

                print(f"tatlock: {inert_line(note)}", file=sys.stderr)
    if app.failure is not None:
        raise app.failure  # shown as one line by the CLI
    if caught:
        stopped = signals.Stopped(caught[0])
        stopped.reported = True
        sys.stderr.write(
            f"tatlock: stopped by {stopped.name} (an answer being written was saved, marked "
            f"cancelled)\n"
        )
        return stopped.code
    return int(code or app.return_code or 0)


def _leave(app: Any, signum: int) -> None:
    """From a signal handler: the app exits on its own loop. Before its loop runs (or after it
    ended) there is nothing on screen to restore: the signal stops the command at once."""
    import asyncio

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise signals.Stopped(signum) from None
    # as Ctrl+Q: the turn is cancelled first (its partial answer is stored), then the app exits;
    # scheduled from a callback of the loop's own, not from inside the interrupted code
    loop.call_soon_threadsafe(app.call_later, app.action_quit)
