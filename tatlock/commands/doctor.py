"""`tatlock doctor` (what is set up and what is not) and `tatlock setup` (pull the model)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from typing import TYPE_CHECKING

from tatlock.commands.common import open_butler, out
from tatlock.errors import TatlockError
from tatlock.text import inert_line

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.config import Config
    from tatlock.services.doctor import Check
    from tatlock.services.models import ModelStatus


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
            cfg = butler.cfg
            checks = butler.doctor.run()
    problems = 0
    out("tatlock doctor")
    for check in checks:
        verdict = "" if check.ok is None else ("ok, " if check.ok else "PROBLEM: ")
        out(f"  {check.name + ':':<18} {verdict}{check.detail}")
        if check.ok is False:
            problems += 1
            for n, step in enumerate(_fixes(check, cfg)):
                out(f"  {'':<18} {'fix:' if n == 0 else 'or: '} {step}")
        if check.name == "config":
            out(
                f"  {'':<18} `tatlock config` shows every setting and where it comes from; "
                "`tatlock config set NAME VALUE` changes one"
            )
    out("all good" if not problems else f"{problems} problem(s) found")
    return 0 if not problems else 1


def _fixes(c: Check, cfg: Config) -> list[str]:
    """What to do about a failed check, in this CLI's words: for a server that is not there,
    every way forward; for a missing model, pulling it or choosing one the server has."""
    if c.name == "server" and c.kind == "unreachable":
        return ways_forward(cfg)
    if c.kind == "model":
        steps = [
            f"pull it: `tatlock setup` (or `ollama pull {cfg.model_name}`)"
            if cfg.backend == "ollama"
            else c.hint or "load it in the server"
        ]
        if c.choices:
            steps.append(f"use a model the server has: `tatlock config set model {c.choices[0]}`")
        return steps
    return [c.hint] if c.hint else []


OLLAMA_SITE = "https://ollama.com"
# where each OpenAI-compatible server listens by default
SERVERS = (
    "llama-server http://127.0.0.1:8080/v1, LM Studio http://127.0.0.1:1234/v1, vLLM "
    "http://127.0.0.1:8000/v1"
)


def ways_forward(cfg: Config) -> list[str]:
    """Every way to a model server from here, first the one the settings point at."""
    import shutil
    from urllib.parse import urlsplit

    if cfg.backend == "ollama":
        exe = shutil.which("ollama")
        if exe:
            first = (
                f"start Ollama with `ollama serve` (it is installed: {exe}; {OLLAMA_SITE} has its "
                f"guide), "
                "then `tatlock setup` pulls the model"
            )
        else:
            how = (
                " (`curl -fsSL https://ollama.com/install.sh | sh`)"
                if sys.platform.startswith("linux")
                else ""
            )
            first = (
                f"Ollama is not installed here: install it from {OLLAMA_SITE}{how}, start it with "
                "`ollama serve`, then `tatlock setup` pulls the model"
            )
        steps = [first]
        if "ollama_host" in cfg.source:
            steps.append(
                f"check the address: ollama_host is {cfg.ollama_host} (from "
                f"{cfg.source['ollama_host']})"
            )
        steps.append(
            "use llama-server, LM Studio or vLLM instead: `tatlock config set backend openai`, then "
            f"`tatlock config set base_url URL` ({SERVERS})"
        )
        return steps
    port = urlsplit(cfg.base_url).port or 8080
    return [
        f"start your server at {cfg.base_url} (e.g. `llama-server -m MODEL.gguf --port {port}`, LM "
        f"Studio's "
        f"local server, `vllm serve MODEL --port {port}`), or point tatlock at it: "
        f"`tatlock config set base_url URL` ({SERVERS})",
        f"use Ollama instead: install it from {OLLAMA_SITE}, start it with `ollama serve`, then "
        "`tatlock config set backend ollama` and `tatlock setup`",
    ]


def setup(args: argparse.Namespace) -> int:
    with open_butler(model=args.model) as butler:
        model = args.model or butler.model
        if butler.cfg.backend != "ollama":
            return _setup_openai(butler, model)
        st = butler.models.status(model)
        if not st.reachable:
            _cannot(butler.cfg, st, "so nothing can be pulled")
            return 1
        bar = _ProgressLine(sys.stderr)
        sys.stderr.write(f"pulling {model} from {butler.cfg.ollama_host}\n")
        butler.models.pull(model, on_progress=bar.update)
        bar.done()
        extra = "" if args.model else _pull_embedding_model(butler)
    out(f"{model} is ready{extra}")
    return 0


def _pull_embedding_model(butler: Butler) -> str:
    """Semantic recall's model beside the chat model (unless embeddings are off). Its failure
    is said, not fatal: memory search works on keywords alone meanwhile."""
    from tatlock.errors import BackendError
    from tatlock.memory.vectors import OFF

    name = butler.cfg.embedding_model
    if not name or name.lower() in OFF:
        return ""
    bar = _ProgressLine(sys.stderr)
    sys.stderr.write(
        f"pulling {name} (for memory search by meaning) from {butler.cfg.ollama_host}\n"
    )
    try:
        butler.models.pull(name, on_progress=bar.update)
    except BackendError as exc:
        bar.done()
        sys.stderr.write(
            f"tatlock: {inert_line(exc.message)}; memory search uses keywords alone until it is "
            f"there "
            "(run `tatlock setup` again, or `tatlock config set embedding_model "
            "off`)\n"
        )
        return ""
    bar.done()
    return f", and {name} for memory search"


def _setup_openai(butler: Butler, model: str) -> int:
    """An OpenAI-compatible server cannot be asked to pull: say whether it has the model, and
    what to do when it has not."""
    st = butler.models.status(model)
    if not st.reachable:
        _cannot(butler.cfg, st, "and with backend openai tatlock cannot pull models")
        return 1
    if st.listed:
        out(
            f"{model} is served by {st.where}: nothing to pull (backend openai: the server loads "
            f"its models)"
        )
        return 0
    if st.note:
        out(f"{st.note}: nothing to pull (backend openai: the server loads its models)")
        return 0
    err = sys.stderr
    err.write(
        f"tatlock: {inert_line(st.problem or model)}; with backend openai tatlock cannot pull "
        f"models\n"
    )
    err.write(
        f"  fix: load {inert_line(model)} in the server (llama-server -m FILE.gguf, LM Studio's "
        f"Load, "
        "vllm serve NAME)\n"
    )
    if st.models:
        err.write(
            f"  or:  use a model it has: `tatlock config set model {inert_line(st.models[0])}`\n"
        )
    err.write(
        "  or:  use Ollama, which pulls models: `tatlock config set backend ollama`, then `tatlock "
        "setup`\n"
    )
    return 1


def _cannot(cfg: Config, st: ModelStatus, why: str) -> None:
    """The server is not there: one line saying so, then every way forward."""
    err = sys.stderr
    if st.kind != "unreachable":  # it answered, but not as a model server should
        hint = f" ({st.hint})" if st.hint else ""
        err.write(
            f"tatlock: {inert_line(st.problem or 'the model server failed')}{inert_line(hint)}\n"
        )
        return
    err.write(f"tatlock: {inert_line(st.problem or 'the model server is not reachable')}, {why}\n")
    for n, step in enumerate(ways_forward(cfg)):
        err.write(f"  {'fix:' if n == 0 else 'or: '} {inert_line(step)}\n")


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
                self.err.write(
                    f"\r{p.status[:28]:<28} [{bar:<25}] {pct:3d}% "
                    f"{_size(p.completed)} / {_size(p.total)}{rate}\x1b[K"
                )
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
