"""`tatlock tui` (and bare `tatlock` in a terminal): the Textual app.

Textual is imported here, when the app starts, never by the other commands. The app paints
first and opens the butler right after, on a thread of its own; settings are read (and a
--user name checked) before the screen changes, so those errors stay one line in the shell."""

from __future__ import annotations

import argparse

from tatlock.commands.common import open_butler


def run(args: argparse.Namespace) -> int:
    from tatlock import config

    cfg = config.load()
    butler = open_butler(args.user, model=args.model, interface="tui") if args.user else None
    from tatlock.tui.app import TatlockApp

    if butler is not None:
        app = TatlockApp(butler, new=args.new)
    else:
        app = TatlockApp(opener=lambda: open_butler(None, model=args.model, interface="tui"), cfg=cfg,
                         new=args.new)
    try:
        code = app.run()
    finally:
        opened = butler or app.opened
        if opened is not None:
            note = opened.close()  # waits for a stopped turn to be stored; summaries go on in the background
            if note:
                import sys

                from tatlock.text import inert_line

                print(f"tatlock: {inert_line(note)}", file=sys.stderr)
    if app.failure is not None:
        raise app.failure  # shown as one line by the CLI
    return int(code or app.return_code or 0)
