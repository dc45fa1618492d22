"""What the widgets and screens need from the app, so that they never import it (the app
imports them): the butler, the job pools, whether the butler is open yet, slash commands."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler
    from tatlock.tui.jobs import Jobs


class Host(Protocol):
    jobs: Jobs
    ready: asyncio.Event

    @property
    def butler(self) -> Butler: ...

    async def slash(self, text: str) -> None: ...


def host(app: Any) -> Host:
    """The running app, as its parts see it."""
    return cast(Host, app)
