"""A running turn as its callers see it, and the hub that fans events out to subscribers.

A ``Turn`` starts at once (its pipeline runs on a worker thread) and buffers every event, so
it can be read in any of these ways, each from the first event, any number of times:

    for event in turn: ...             # blocking
    async for event in turn: ...       # from an asyncio loop (Textual, the MCP SDK), never blocking
    it
    turn.result()                      # wait for the last event

``turn.cancel()`` may be called from any thread (a key binding, a signal handler, another
task): the model stream is closed at once and the turn ends with ``TurnCancelled``.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from tatlock.events import ErrorEvent, Event, TurnCancelled, TurnFinished
from tatlock.llm.base import Cancel

log = logging.getLogger(__name__)

Final = TurnFinished | TurnCancelled | ErrorEvent


class Turn:
    def __init__(self, turn_id: str, conversation_id: int, cancel: Cancel):
        self.id = turn_id
        self.conversation_id = conversation_id
        self._cancel = cancel
        self._events: list[Event] = []
        self._cond = threading.Condition()
        self._done = False
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def __repr__(self) -> str:
        return (
            f"<Turn {self.id} conversation={self.conversation_id} events={len(self._events)} "
            f"done={self._done}>"
        )

    # -- producer side (the worker) ---------------------------------------------------------

    def put(self, event: Event) -> None:
        with self._cond:
            self._events.append(event)
            self._wake()

    def close(self) -> None:
        with self._cond:
            self._done = True
            self._wake()

    def _wake(self) -> None:  # with the lock held
        self._cond.notify_all()
        waiters, self._waiters = self._waiters, []
        for loop, flag in waiters:
            try:
                loop.call_soon_threadsafe(flag.set)
            except RuntimeError:  # that loop is closed: nobody is waiting any more
                pass

    # -- consumer side ----------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._done

    @property
    def cancelled(self) -> bool:
        return isinstance(self.final, TurnCancelled)

    @property
    def events(self) -> list[Event]:
        with self._cond:
            return list(self._events)

    @property
    def final(self) -> Final | None:
        """The last event once the turn is over (TurnFinished, TurnCancelled or ErrorEvent)."""
        with self._cond:
            if not self._done or not self._events:
                return None
            last = self._events[-1]
        return last if isinstance(last, (TurnFinished, TurnCancelled, ErrorEvent)) else None

    def cancel(self) -> None:
        """End the turn as soon as possible, from any thread; the partial answer is kept."""
        self._cancel.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._done, timeout)

    def result(self, timeout: float | None = None) -> Final | None:
        self.wait(timeout)
        return self.final

    def __iter__(self) -> Iterator[Event]:
        return self.follow(0)

    def follow(self, start: int = 0) -> Iterator[Event]:
        """The events from number ``start`` on, blocking until each arrives (a reader that was
        interrupted, say by Ctrl-C, goes on where it stopped)."""
        i = start
        while True:
            with self._cond:
                # a timed wait keeps the waiting thread responsive to signals (Ctrl-C)
                while i >= len(self._events) and not self._done:
                    self._cond.wait(0.25)
                if i >= len(self._events):
                    return
                batch = self._events[i:]
            i += len(batch)
            yield from batch

    def __aiter__(self) -> AsyncIterator[Event]:
        return self._aiter()

    async def _aiter(self) -> AsyncIterator[Event]:
        loop = asyncio.get_running_loop()
        i = 0
        while True:
            flag: asyncio.Event | None = None
            with self._cond:
                batch = self._events[i:]
                if not batch:
                    if self._done:
                        return
                    flag = asyncio.Event()
                    self._waiters.append((loop, flag))
            if flag is not None:
                await flag.wait()
                continue
            i += len(batch)
            for event in batch:
                yield event


class EventHub:
    """Every event of every turn and of the background work, to every subscriber, as it
    happens (on the thread that produced it: a UI hands it to its own loop)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Callable[[Event], None]] = []

    def subscribe(self, fn: Callable[[Event], None]) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)

        return unsubscribe

    def publish(self, event: Event) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for fn in subscribers:
            try:
                fn(event)
            except Exception:
                log.exception("event subscriber failed on %s", event.type)


class Workers:
    """Daemon threads that run turns, kept between turns so each keeps its own database
    connection (opening one costs about a millisecond per turn otherwise). Daemon, so a turn
    stuck in a tool never keeps the process from exiting."""

    def __init__(self, name: str, most: int = 4):
        self.name, self.most = name, most
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._idle = 0

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._idle == 0 and len(self._threads) < self.most:
                t = threading.Thread(
                    target=self._loop, name=f"{self.name}-{len(self._threads) + 1}", daemon=True
                )
                self._threads.append(t)
                self._idle += 1
                t.start()
            self._idle -= 1
        self._jobs.put(job)

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception:
                log.exception("a %s job failed", self.name)
            with self._lock:
                self._idle += 1

    def stop(self) -> None:
        with self._lock:
            threads = list(self._threads)
        for _ in threads:
            self._jobs.put(None)
