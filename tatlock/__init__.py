"""tatlock: a terminal-first personal butler with long-term memory.

The Python API (see README.md, "Python API"):

    import tatlock
    with tatlock.open(user="maria") as butler:
        turn = butler.turn("What is the capital of France?")
        for event in turn:
            ...
        finished = butler.ask("Thanks!")

Importing ``tatlock`` is cheap: the core and the event types load on first use, so the CLI's
start-up (``tatlock --help``, ``tatlock ask``) pays only for what it runs.
"""

from __future__ import annotations

import logging as _logging
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

# a library: its warnings go where the application sends them, never raw onto the user's screen
_logging.getLogger(__name__).addHandler(_logging.NullHandler())

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.turn import Turn

__all__ = [
    "BackendError",
    "Butler",
    "Cancel",
    "NotFound",
    "TatlockError",
    "Turn",
    "UsageError",
    "events",
    "open",
]

_LAZY = {
    "Butler": ("tatlock.butler", "Butler"),
    "Turn": ("tatlock.turn", "Turn"),
    "Cancel": ("tatlock.llm.base", "Cancel"),  # for butler.models.pull(cancel=...)
    "TatlockError": ("tatlock.errors", "TatlockError"),
    "BackendError": ("tatlock.errors", "BackendError"),
    "NotFound": ("tatlock.errors", "NotFound"),
    "UsageError": ("tatlock.errors", "UsageError"),
}


def open(
    user: str | None = None,
    *,
    home: Any = None,
    model: str | None = None,
    interface: str = "api",
    create: bool = True,
) -> Butler:
    """Open the butler for ``user`` (default: the configured user), with the same configuration
    and paths as the CLI (TATLOCK_HOME, config.toml, the environment); ``home`` overrides
    TATLOCK_HOME. Use it as a context manager, or call ``close()``."""
    from tatlock.butler import open_butler as _open

    return _open(user, home=home, model=model, interface=interface, create=create)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    if name == "events":
        import importlib

        return importlib.import_module("tatlock.events")
    raise AttributeError(f"module 'tatlock' has no attribute {name!r}")
