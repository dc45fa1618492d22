"""`doctor`: what is set up and what is not, as a list of checks any interface can show."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from tatlock.config import Config
from tatlock.errors import TatlockError
from tatlock.llm.base import Backend
from tatlock.services.base import Core
from tatlock.store.db import corrupt_error, quick_check


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: information only
    detail: str
    hint: str | None = None
    kind: str | None = None  # why it failed, for an interface to say more ("unreachable", "model")
    choices: tuple[str, ...] = ()  # the models the server has, when the model check fails


class Doctor:
    def __init__(self, core: Core):
        self._core = core

    def run(self, *, server: bool = True) -> list[Check]:
        core = self._core
        from tatlock.hardware import current_tier, describe

        checks: list[Check] = []
        try:
            tier, hw = current_tier(core.cfg.tier)
            checks.append(Check("tier", None, f"{tier.name} ({tier.reason})"))
            checks.append(Check("hardware", None, "; ".join(describe(hw).splitlines())))
        except ValueError as exc:
            checks.append(Check("tier", False, str(exc), "set `tier` to low, medium, high or auto"))
        try:
            model = core.model
            src = core.cfg.source.get("model")
            checks.append(
                Check("model", None, f"{model}" + (f" (from {src})" if src else " (tier default)"))
            )
            checks.append(
                Check(
                    "context",
                    None,
                    f"{core.cfg.effective('context_size')} tokens, "
                    f"compaction every "
                    f"{core.cfg.effective('compact_interval')} "
                    f"messages",
                )
            )
        except ValueError:  # no tier, so no model: reported above
            server = False
        if server:
            checks += self._server(model)
        checks += self._folders()
        checks += self._databases()
        users_dir = core.paths.users_dir
        memories = (
            sorted(x.name.removesuffix("_longterm.db") for x in users_dir.glob("*_longterm.db"))
            if users_dir.is_dir()
            else []
        )
        why = core.cfg.user_explanation()
        checks.append(
            Check(
                "user",
                None,
                f"{core.cfg.user}"
                + (f" ({why})" if why else "")
                + f"; memories: {', '.join(memories) or 'none yet'}",
            )
        )
        return checks

    def _server(self, model: str) -> list[Check]:
        from tatlock.services.models import Models

        st = Models(self._core).status(model)
        where = f"{st.backend} at {st.where}"
        if not st.reachable:
            return [Check("server", False, st.problem or where, st.hint, kind=st.kind)]
        out = [Check("server", True, f"{where} ({st.version})")]
        # Ollama pulls models; an OpenAI-compatible server serves what it loaded
        label = "model pulled" if st.backend == "ollama" else "model on server"
        context = f", context {st.context} tokens" if st.context else ""
        if st.note:  # it answers, but not by this name: said as found, neither ok nor a problem
            out.append(
                Check(
                    label, None, st.note + (f"; context {st.context} tokens" if st.context else "")
                )
            )
        elif st.available:
            listed = "" if st.backend == "ollama" else " (the server lists it)"
            out.append(Check(label, True, model + listed + context))
        else:
            out.append(
                Check(
                    label,
                    False,
                    st.problem or model,
                    st.hint,
                    kind="model",
                    choices=tuple(st.models),
                )
            )
        out.append(self._embeddings())
        return out

    def _embeddings(self) -> Check:
        """Semantic recall's model, asked for one vector: information, never a problem (memory
        search works on keywords alone without it)."""
        from tatlock.memory import vectors

        cfg = self._core.cfg
        embedder = vectors.for_config(cfg, self._core.new_backend())
        if embedder is None:
            return Check(
                "embeddings",
                None,
                f"off (embedding_model = {cfg.embedding_model}): memory search uses keywords alone",
            )
        try:
            dims = len(embedder.embed(["tatlock doctor"], timeout=min(10.0, cfg.timeout))[0])
        except TatlockError as exc:
            fix = (
                "`tatlock setup` pulls it"
                if cfg.backend == "ollama" and exc.kind == "model"
                else "serve an embedding model there (llama-server --embeddings), or `tatlock "
                "config "
                "set "
                "embedding_model off`"
            )
            return Check(
                "embeddings",
                None,
                f"{embedder.model} not available ({exc.message}): "
                f"memory search uses "
                f"keywords alone; {fix}",
            )
        return Check(
            "embeddings",
            True,
            f"{embedder.model} ({dims} dimensions): memory search uses meaning too",
        )

    def _folders(self) -> list[Check]:
        p = self._core.paths
        out = []
        for name, folder in (("data", p.data_dir), ("logs", p.log_dir)):
            problem = folder_problem(folder)
            out.append(
                Check(
                    name,
                    problem is None,
                    f"{folder}" + (f": {problem}" if problem else ""),
                    None if problem is None else "make it a writable folder, or set TATLOCK_HOME",
                )
            )
        out.append(
            Check(
                "config",
                None,
                f"{p.config_file}"
                + ("" if p.config_file.exists() else " (not present: defaults in use)"),
            )
        )
        return out

    def _databases(self) -> list[Check]:
        p = self._core.paths
        dbs = [p.system_db] + (
            sorted(p.users_dir.glob("*_longterm.db")) if p.users_dir.is_dir() else []
        )
        out = []
        for db in dbs:
            if not db.exists():
                continue
            problem = quick_check(db)
            out.append(
                Check(
                    f"database {db.name}",
                    problem is None,
                    f"{db}" + (f": {problem}" if problem else ""),
                    None if problem is None else corrupt_error(db, problem).hint,
                )
            )
        return out


def folder_problem(folder: Path) -> str | None:
    """Why tatlock cannot keep files in ``folder`` (None: it can)."""
    if folder.exists() and not folder.is_dir():
        return "it is a file, not a folder"
    probe = folder
    while not probe.exists():  # a folder not made yet: its nearest existing parent must be writable
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is a file, not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return "it is not writable"
    if probe == folder:
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            return f"cannot write in it ({exc.strerror or exc})"
    return None


class _Unopened:
    """What the checks need when the butler itself could not open (its data folder or system.db
    is unusable): the settings, and a backend of its own for the server check."""

    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.paths = cfg.paths

    @property
    def model(self) -> str:
        return self.cfg.model_name

    def new_backend(self, model: str | None = None) -> Backend:
        from tatlock.llm.factory import make_backend

        return make_backend(self.cfg, model or self.model)

    def publish(self, event: object) -> None:
        pass


def diagnose(cfg: Config, problem: TatlockError) -> list[Check]:
    """Doctor's checks when tatlock cannot open at all: the reason first, then every check that
    does not need the open butler (server, folders, each database's quick_check)."""
    first = Check("open", False, problem.message, problem.hint)
    return [first, *Doctor(cast(Core, _Unopened(cfg))).run()]
