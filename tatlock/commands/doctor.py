"""`tatlock doctor` (what is set up and what is not) and `tatlock setup` (pull the model)."""

from __future__ import annotations

import argparse
import sys

from tatlock.commands.common import load_config, out
from tatlock.errors import BackendError, TatlockError


def doctor(args: argparse.Namespace) -> int:
    from tatlock.hardware import current_tier, describe

    cfg = load_config()
    try:
        tier, hw = current_tier(cfg.tier)
    except ValueError as exc:
        raise TatlockError(str(exc)) from None
    problems = 0
    out("tatlock doctor")
    out(f"  tier:      {tier.name} ({tier.reason})")
    for line in describe(hw).splitlines():
        out(f"             {line}")
    model = cfg.model_name
    out(f"  model:     {model}" + (f" (from {cfg.source['model']})" if "model" in cfg.source else " (tier default)"))
    out(f"  context:   {cfg.effective('context_size')} tokens, compaction every "
        f"{cfg.effective('compact_interval')} messages")
    from tatlock.llm.base import make_backend

    backend = make_backend(cfg)
    where = backend.where
    out(f"  backend:   {cfg.backend} at {where}")
    try:
        version = backend.version()
        out(f"  server:    reachable ({version})")
        try:
            models = backend.models()
        except BackendError as exc:
            models = []
            out(f"  models:    could not list: {exc}")
        pulled = model in models or (cfg.backend == "ollama" and f"{model}:latest" in models) or (
            cfg.backend == "openai" and bool(models))
        if pulled:
            out("  model:     available")
            try:
                n = backend.context_length()
                if n:
                    out(f"  model ctx: {n} tokens (server)")
            except BackendError:
                pass
        else:
            problems += 1
            out(f"  model:     NOT PULLED: run `tatlock setup` (or `ollama pull {model}`)")
    except BackendError as exc:
        problems += 1
        out(f"  server:    NOT REACHABLE: {exc}")
    p = cfg.paths
    out(f"  data:      {p.data_dir}")
    out(f"  config:    {p.config_file}{'' if p.config_file.exists() else ' (not present: defaults in use)'}")
    out(f"  logs:      {p.log_dir}")
    users = sorted(x.name.removesuffix("_longterm.db") for x in p.users_dir.glob("*_longterm.db")) \
        if p.users_dir.exists() else []
    out(f"  user:      {cfg.user}; memories: {', '.join(users) or 'none yet'}")
    out("all good" if not problems else f"{problems} problem(s) found")
    return 0 if not problems else 1


def setup(args: argparse.Namespace) -> int:
    cfg = load_config()
    if cfg.backend != "ollama":
        raise TatlockError("`tatlock setup` pulls models through Ollama; with backend = \"openai\" load the "
                           "model in your server instead")
    from tatlock.llm.base import make_backend

    model = args.model or cfg.model_name
    backend = make_backend(cfg, model)
    tty = sys.stderr.isatty()
    last = {"status": None, "pct": -1}

    def progress(p) -> None:
        if p.total and p.completed is not None:
            pct = int(p.completed * 100 / p.total)
            if tty:
                bar = "#" * (pct // 4)
                # \x1b[K clears what a longer previous line left behind
                sys.stderr.write(f"\r{p.status[:28]:<28} [{bar:<25}] {pct:3d}% "
                                 f"{_size(p.completed)} / {_size(p.total)}\x1b[K")
                sys.stderr.flush()
            elif pct // 10 != last["pct"] // 10:
                sys.stderr.write(f"{p.status}: {pct}%\n")
            last["pct"] = pct
        elif p.status != last["status"]:
            sys.stderr.write(("\n" if tty and last["pct"] >= 0 else "") + p.status + "\n")
            last["pct"] = -1
        last["status"] = p.status

    sys.stderr.write(f"pulling {model} from {backend.where}\n")
    backend.pull(model, progress)
    out(f"{model} is ready")
    return 0


def _size(n: int) -> str:
    for unit, step in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= step:
            return f"{n / step:,.1f} {unit}"
    return f"{n} B"
