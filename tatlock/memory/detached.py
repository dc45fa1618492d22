"""The detached housekeeper: a process of its own that does a user's housekeeping after a
one-shot process (``tatlock ask``) has answered, or what a closing program leaves.

``spawn`` starts it (``python -m tatlock.memory.detached``) in a session of its own, so it
outlives its parent and a Ctrl-C in the terminal, and records its pid in ``housekeeping.pid``.
It holds ``housekeeping.process.lock`` for its whole life, so no second one starts while it
lives; it looks for new work once more after letting go of it, so none stored meanwhile is
missed. It does what is due (``Housekeeper.run``) and ends: when nothing is left, when the
server cannot be used (what is left waits for the next one), on SIGTERM, or at ``LIFETIME``
seconds, even in the middle of a call. What it leaves, and why, goes to ``logs/housekeeping.log``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from tatlock.events import Event
from tatlock.files import private_dir, private_file, write_private
from tatlock.memory import summarise
from tatlock.memory.fit import FittedBackend
from tatlock.memory.housekeeping import COMPACT_SETTLE, SETTLE, Housekeeper
from tatlock.memory.locks import PID_NAME, PRESENCE_NAME, Lock
from tatlock.memory.tokens import Estimator
from tatlock.paths import Paths

__all__ = ["LIFETIME", "main", "spawn"]

log = logging.getLogger(__name__)

LIFETIME = 900.0  # the longest a detached housekeeper lives; what is left waits for the next one


def spawn(
    paths: Paths,
    username: str,
    *,
    model: str,
    budget: int,
    settle: float = SETTLE,
    compact_settle: float = COMPACT_SETTLE,
) -> int | None:
    """Start a detached housekeeper for ``username`` (its own session: it outlives the caller
    and a Ctrl-C in its terminal). Its pid; 0 when one is running already (it finds the new
    work before it ends); None when it could not be started."""
    if Lock(paths.user_dir(username) / PRESENCE_NAME).held_elsewhere():
        return 0
    env = dict(os.environ)
    if paths.config_dir == paths.data_dir and paths.log_dir == paths.data_dir / "logs":
        # the same files as the caller's, however it found them
        env["TATLOCK_HOME"] = str(paths.data_dir)
    else:
        env.pop("TATLOCK_HOME", None)
    args = [
        sys.executable,
        "-m",
        "tatlock.memory.detached",
        "--user",
        username,
        "--model",
        model,
        "--budget",
        str(int(budget)),
        "--settle",
        f"{settle:g}",
        "--compact-settle",
        f"{compact_settle:g}",
    ]
    try:
        proc = subprocess.Popen(
            args,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd=str(paths.data_dir),
        )
    except OSError as exc:
        log.warning("could not start the housekeeping process: %s", exc)
        return None
    try:  # who was started last, for a person (or a test) looking for it
        write_private(paths.user_dir(username) / PID_NAME, f"{proc.pid}\n")
    except OSError:
        pass
    return proc.pid


def main(argv: list[str] | None = None) -> int:
    """``python -m tatlock.memory.detached --user NAME --model M --budget N``: what
    ``spawn`` runs. Does what is due for NAME, then exits (at most LIFETIME seconds)."""
    from tatlock import config
    from tatlock.debuglog import DebugLog
    from tatlock.llm.factory import make_backend

    p = argparse.ArgumentParser(prog="python -m tatlock.memory.detached")
    p.add_argument("--user", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--budget", type=int, required=True)
    p.add_argument("--lifetime", type=float, default=LIFETIME)
    p.add_argument("--settle", type=float, default=SETTLE)
    p.add_argument("--compact-settle", type=float, default=COMPACT_SETTLE)
    args = p.parse_args(argv)
    cfg = config.load()
    try:  # what it leaves, and why, where a person can read it (it has no terminal)
        private_dir(cfg.paths.log_dir)
        handler: logging.Handler = logging.FileHandler(
            private_file(cfg.paths.log_dir / "housekeeping.log")
        )
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"%(asctime)s [{os.getpid()}] %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    hk: Housekeeper | None = None

    def on_signal(signum: int, frame: Any) -> None:
        if hk is not None:
            # the running call is cut; its claim released; the work waits for the next one
            hk.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    from tatlock import secrets as known

    api_key = cfg.api_key_value() if cfg.backend == "openai" else None
    # kept out of the logs
    secrets = tuple(dict.fromkeys(s for s in (api_key, *known.known_values(cfg)) if s))

    def emit(cid: int | None, ev: Event) -> None:
        if cid is not None:
            DebugLog(cfg.paths.conversation_logs, args.user, cid, secrets).write(ev)

    options: dict[str, Any] = {
        "temperature": 0.2,
        "max_tokens": summarise.summary_tokens(args.budget),
    }
    if cfg.backend == "ollama":
        options["context"] = args.budget
    estimator = Estimator(args.model, cfg.paths.data_dir / "token_calibration.json")

    # fitted as the butler's are: no request outgrows the window (memory/fit.py)
    def backend() -> Any:
        return FittedBackend(make_backend(cfg, args.model), lambda: args.budget, lambda: estimator)

    hk = Housekeeper(
        cfg.paths,
        args.user,
        backend=backend,
        options=options,
        interval=int(cfg.effective("compact_interval")),
        budget=args.budget,
        emit=emit,
        estimator=estimator,
        settle=args.settle,
        compact_settle=args.compact_settle,
        record=summarise.TrackRecord(cfg.paths.data_dir / "summary_record.json", args.model),
    )
    presence = Lock(cfg.paths.user_dir(args.user) / PRESENCE_NAME)
    if not presence.acquire():
        return 0  # another detached housekeeper is alive: it does this work too
    started, deadline = dt.datetime.now(), time.monotonic() + args.lifetime
    assert hk is not None
    # a call still running at the end is cut, too
    watchdog = threading.Timer(args.lifetime, hk.stop)
    watchdog.daemon = True
    watchdog.start()
    while True:
        left = hk.run(deadline=deadline)
        presence.release()
        if (
            hk.busy_elsewhere
            or hk.stopped
            or hk.last_status == "stuck"
            or time.monotonic() >= deadline
        ):
            break
        # nothing was left; but what a process stored meanwhile is ours (it saw us alive, so it
        # started nobody): look once more, now that a new housekeeper could start
        left = hk.pending()
        if not left or not presence.acquire():
            break
    if left:
        log.warning(
            "housekeeping since %s left %s for the next time",
            started.strftime("%H:%M"),
            left.describe(),
        )
    return 0


if __name__ == "__main__":  # pragma: no cover - run by spawn() as a process of its own
    sys.exit(main())
