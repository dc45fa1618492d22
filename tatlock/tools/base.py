"""What every tool function receives besides its own parameters.

A tool is a plain function ``fn(*, ctx: ToolContext, **params) -> dict``. It returns a
JSON-serialisable dict. A failure the user should hear about is returned as
``{"error": "one clear sentence"}`` rather than raised; the pipeline also turns any
exception into such a result, so a broken tool never breaks a turn.

The username is injected by the pipeline from the session, never taken from the model.
A tool reaches the user's memory only through ``ctx.user_store``, which stops working once
its turn has ended: a tool that timed out and runs on in the background cannot write later.
"""

from __future__ import annotations

import datetime as _dt
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.config import Config
    from tatlock.store.user import UserStore


def _now() -> _dt.datetime:
    return _dt.datetime.now().astimezone()


class ToolError(Exception):
    """Raised by a tool for a failure whose message is fit to show the user."""


class TurnScope:
    """The user's store as long as the turn lasts; any use after ``end()`` raises ToolError."""

    def __init__(self, store: UserStore):
        self._store = store
        self._ended = threading.Event()

    def end(self) -> None:
        self._ended.set()

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    def __getattr__(self, name: str) -> Any:
        if self._ended.is_set():
            raise ToolError("the turn this tool ran in has ended; nothing was read or written")
        value = getattr(self._store, name)
        if inspect.ismethod(value):  # (a sqlite3 connection is callable too: it stays itself)

            def guarded(*args: Any, **kwargs: Any) -> Any:
                if self._ended.is_set():
                    raise ToolError("the turn this tool ran in has ended; nothing was written")
                return value(*args, **kwargs)

            return guarded
        return value


@dataclass
class ToolContext:
    username: str
    user_store: UserStore | TurnScope | None = None
    config: Config | None = None
    # the conversation the tool runs in (None outside a conversation)
    conversation_id: int | None = None
    # the author of the message that caused the call (attribution of learnt facts)
    author_id: str | None = None
    # injectable clock, so date tools are testable
    now: Callable[[], _dt.datetime] = field(default=_now)
    # seconds for any network call a tool makes
    http_timeout: float = 10.0
    extra: dict[str, Any] = field(default_factory=dict)
