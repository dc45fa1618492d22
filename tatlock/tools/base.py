"""What every tool function receives besides its own parameters.

A tool is a plain function ``fn(*, ctx: ToolContext, **params) -> dict``. It returns a
JSON-serialisable dict. A failure the user should hear about is returned as
``{"error": "one clear sentence"}`` rather than raised; the pipeline also turns any
exception into such a result, so a broken tool never breaks a turn.

The username is injected by the pipeline from the session, never taken from the model.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.config import Config
    from tatlock.store.user import UserStore


def _now() -> _dt.datetime:
    return _dt.datetime.now().astimezone()


@dataclass
class ToolContext:
    username: str
    user_store: "UserStore | None" = None
    config: "Config | None" = None
    # the conversation the tool runs in (None outside a conversation)
    conversation_id: int | None = None
    # the author of the message that caused the call (attribution of learnt facts)
    author_id: str | None = None
    # injectable clock, so date tools are testable
    now: Callable[[], _dt.datetime] = field(default=_now)
    # seconds for any network call a tool makes
    http_timeout: float = 10.0
    extra: dict[str, Any] = field(default_factory=dict)


class ToolError(Exception):
    """Raised by a tool for a failure whose message is fit to show the user."""
