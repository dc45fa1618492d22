"""`tatlock doctor` (what is set up and what is not) and `tatlock setup` (pull the model)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time

from tatlock.commands.common import open_butler, out
from tatlock.errors import TatlockError


def doctor(args: argparse.Namespace) -> int:
    try:
        butler = open_butler()
    except (TatlockError, sqlite3.Error) as exc:
        from tatlock.config import load
        from tatlock.errors import ConfigError
        from tatlock.services.doctor import diagnose
        from tatlock.store.db import as_store_error

        if isinstance(exc, ConfigError):
            raise
        # a data folder or system.db tatlock cannot use: say so, and check everything else
        cfg = load()
        problem = exc if isinstance(exc, TatlockError) else as_store_error(exc, cfg.paths.system_db)
        checks = diagnose(cfg, problem or TatlockError(str(exc)))
    else:
        with butler:
            checks = butler.doctor.run()
    problems = 0
    out("tatlock doctor")
    for c in checks:
        verdict = "" if c.ok is None else ("ok, " if c.ok else "PROBLEM: ")
        out(f"  {c.name + ':':<18} {verdict}{c.detail}")
        if c.ok is False:
            problems += 1
            if c.hint:
                out(f"  {'':<18} fix: {c.hint}")
    out("all good" if not problems else f"{problems} problem(s) found")
    return 0 if not problems else 1


def setup(args: argparse.Namespace) -> int:
    with open_butler(model=args.model) as butler:
        if butler.cfg.backend != "ollama":
            raise TatlockError("`tatlock setup` pulls models through Ollama; with backend = \"openai\" load the "
                               "model in your server instead")
        model = args.model or butler.model
        bar = _ProgressLine(sys.stderr)
        sys.stderr.write(f"pulling {model} from {butler.cfg.ollama_host}\n")
        butler.models.pull(model, on_progress=bar.update)
        bar.done()
    out(f"{model} is ready")
    return 0


class _ProgressLine:
    """One line of progress on a terminal (bytes, percent, speed); a line per 10% elsewhere."""

    def __init__(self, stream):
        self.err = stream
        self.tty = stream.isatty()
        self.status: str | None = None
        self.pct = -1
        self.t0 = time.monotonic()
        self.first: tuple[float, int] | None = None

    def update(self, p) -> None:
        if p.total and p.completed is not None:
            pct = int(p.completed * 100 / p.total)
            if self.first is None or p.status != self.status:
                self.first = (time.monotonic(), p.completed)
            elapsed = time.monotonic() - self.first[0]
            speed = (p.completed - self.first[1]) / elapsed if elapsed > 0.5 else 0
            if self.tty:
                bar = "#" * (pct // 4)
                rate = f" {_size(int(speed))}/s" if speed else ""
                # \x1b[K clears what a longer previous line left behind
                self.err.write(f"\r{p.status[:28]:<28} [{bar:<25}] {pct:3d}% "
                               f"{_size(p.completed)} / {_size(p.total)}{rate}\x1b[K")
                self.err.flush()
            elif pct // 10 != self.pct // 10:
                self.err.write(f"{p.status}: {pct}%\n")
            self.pct = pct
        elif p.status != self.status:
            self.err.write(("\n" if self.tty and self.pct >= 0 else "") + p.status + "\n")
            self.pct = -1
        self.status = p.status

    def done(self) -> None:
        if self.tty and self.pct >= 0:
            self.err.write("\n")


def _size(n: int) -> str:
    for unit, step in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= step:
            return f"{n / step:,.1f} {unit}"
    return f"{n} B"
