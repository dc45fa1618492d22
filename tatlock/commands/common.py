"""What every command needs: settings, the system store, a user's store, terminal output."""

from __future__ import annotations

import shutil
import sys
import textwrap

from tatlock import config as config_mod
from tatlock.config import Config, validate_username


def load_config() -> Config:
    return config_mod.load()


def system_store(cfg: Config):
    from tatlock.store.system import SystemStore

    return SystemStore.open(cfg.paths.system_db, default_user=cfg.user)


def username(cfg: Config, given: str | None) -> str:
    return validate_username(given) if given is not None else cfg.user


def user_store(cfg: Config, name: str):
    """Open (creating if needed) a user's memory; registers the user in system.db."""
    from tatlock.store.user import UserStore

    validate_username(name)
    sysdb = system_store(cfg)
    try:
        sysdb.ensure_user(name)
    finally:
        sysdb.close()
    return UserStore.open(cfg.paths, name)


def out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def width() -> int:
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def clip(text: str, room: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= room else text[: max(1, room - 1)] + "…"


def wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, width=min(width(), 100), initial_indent=indent, subsequent_indent=indent)
