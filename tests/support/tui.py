"""Helpers for the TUI tests: open the app on a real butler (the fake model server over
loopback HTTP, real SQLite files in the test's TATLOCK_HOME) and wait for what a user would see."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import tatlock
from support import replies

SIZE = (160, 45)
LONG = (
    "Paris is the capital of France, sir, and has been for a good many centuries, "
    "through kings, emperors, republics and a great deal of pastry."
)


direct = functools.partial(replies.direct, topics=("geography",))


@contextlib.asynccontextmanager
async def running(
    size: tuple[int, int] = SIZE,
    *,
    check_server: bool = False,
    new: bool = False,
    user: str | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """The app on a butler of its own, started and ready: yields (app, pilot)."""
    from tatlock.tui.app import TatlockApp

    with tatlock.open(user, interface="tui") as butler:
        app = TatlockApp(butler, check_server=check_server, new=new)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.ready.is_set() and bool(app.query("#sidebar")))
            await pilot.pause(0.1)
            yield app, pilot
            if app.chat.turn is not None:
                app.chat.cancel()
                await until(pilot, lambda: app.chat.turn.done)


async def until(
    pilot: Any, condition: Callable[[], Any], timeout: float = 10.0, what: str = ""
) -> None:
    """Wait, letting the app work, until ``condition()`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except Exception:
            pass
        if time.monotonic() > deadline:
            app = pilot.app
            state = f"screen={type(app.screen).__name__} focused={app.focused!r}"
            try:
                turn = app.chat.turn
                last = app.chat.transcript.messages[-1]
                state += (
                    f" turn={turn!r} final={turn.final if turn else None!r} "
                    f"said={said(app)[-3:]}"
                    f" last: streaming={last.streaming} marks={last.marks} "
                    f"foot={last.footer_text!r}"
                    f" workers={[(w.name, w.state.name, w.error) for w in app.workers]}"
                )
            except Exception as exc:
                state += f" ({exc})"
            raise AssertionError(f"timed out waiting for {what or condition}: {state}")
        await pilot.pause(0.05)


async def send(app: Any, pilot: Any, text: str, *, wait: bool = True) -> None:
    """Write ``text`` in the composer and press Enter (as typed, for short texts)."""
    composer = app.chat.composer
    composer.focus()
    composer.load_text(text)
    await pilot.press("enter")
    if wait:
        await until(
            pilot,
            lambda: (
                app.chat.turn is not None
                and app.chat.turn.done
                and app.chat.transcript.messages[-1].role == "assistant"
                and not app.chat.transcript.messages[-1].streaming
            ),
            what="the turn",
        )
        await pilot.pause(0.2)


def said(app: Any) -> list[tuple[str, str]]:
    return [(v.role, v.text) for v in app.chat.transcript.messages]


async def settle(pilot: Any, seconds: float = 0.2) -> None:
    await pilot.pause(seconds)
    await asyncio.sleep(0)
