"""Housekeeping: the summaries memory needs, made off the user's time.

Two kinds of work keep a long memory usable: *compaction* (a conversation's next block of
messages summarised once it is due) and the *briefing* (the summary of the latest
conversations that the next new conversation starts with). Both are model calls that take
seconds on a fast machine and minutes on a small one, so none of them ever runs between a
question and its answer:

* A ``Housekeeper`` does whatever is due for one user, in any conversation: compactions
  first (the most recently active conversation first), once no message has come for
  ``compact_settle`` seconds, then the briefing once the conversations have been quiet for
  ``settle`` seconds (so it covers the conversation that just went quiet, and is not remade
  after every message of a chat going on).
* It makes way for turns. A turn that starts while one of its model calls runs (in this
  process or any other: every turn holds a shared lock on ``turns.lock`` while it runs)
  cancels that call; the work resumes once the turn is over. A block whose compaction has made
  way ``MAX_YIELDS`` times is summarised without the model (the extract: no call, no wait), so
  a conversation in constant use is still compacted and no answer ever waits behind a summary
  (a server with one slot would queue the answer behind it); a briefing always makes way (the
  last one stays in use meanwhile).
* One housekeeper per user at a time, across processes: a lock file (``flock``) in the user's
  folder, which the kernel releases when its process ends, even by kill -9. What a killed
  housekeeper was writing is safe anyway: a compaction is claimed and committed in single
  transactions (a dead process's claim is taken over), a briefing is one row.

Who runs it (memory/runner.py): a long-lived process (the TUI, ``chat``, the MCP server, a
Python program) on a thread of its own, woken after every turn. A one-shot process (``tatlock
ask``) does not wait for it: after the answer it starts a detached housekeeper process
(memory/detached.py), which lives at most a quarter of an hour; what it cannot finish, or what
a process left when it ended, is done by the next housekeeper. So a user who only ever runs
``tatlock ask`` gets compaction and briefings too, and each ``ask`` ends as soon as its answer
is stored. The locks are in memory/locks.py.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tatlock.events import CompactionFinished, Event
from tatlock.llm.base import Backend, Cancel
from tatlock.memory import cross, summarise
from tatlock.memory.compaction import compact_due
from tatlock.memory.locks import LOCK_NAME, Lock, turns_lock
from tatlock.memory.tokens import Estimator
from tatlock.paths import Paths
from tatlock.store import compaction as rows
from tatlock.store.user import UserStore

__all__ = ["COMPACT_SETTLE", "MAX_YIELDS", "SETTLE", "Housekeeper", "Work"]

log = logging.getLogger(__name__)

SETTLE = 15.0  # seconds without a new message before the briefing is prepared
# seconds without a new message before a compaction starts: a summary's prompt, once the server
# has begun reading it, can hold a small server for tens of seconds even after its call is cut
# (llama-server reads a prompt in batches), so it does not start while questions come one by one
COMPACT_SETTLE = 5.0
# a block's compaction makes way for a turn this often; then it is extracted, without the model
MAX_YIELDS = 2
POLL = 0.2  # seconds between looks at the database for a new message from another process

Emit = Callable[[int | None, Event], None]  # (the conversation it concerns, the event)


@dataclass
class Work:
    """What is due: conversations with a block to compact, and whether the briefing is stale."""

    compactions: list[int] = field(default_factory=list)
    briefing: bool = False

    def __bool__(self) -> bool:
        return bool(self.compactions or self.briefing)

    def describe(self) -> str:
        """What is left, as a sentence's subject: "the summary of conversation 3", "the summaries
        of conversations 3 and 2, and the briefing for your next conversation,"."""
        parts = []
        if self.compactions:
            ids = [str(c) for c in self.compactions[:4]] + (
                ["more"] if len(self.compactions) > 4 else []
            )
            named = ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]
            several = len(self.compactions) > 1
            parts.append(
                f"the summar{'ies' if several else 'y'} of conversation{'s' if several else ''} "
                f"{named}"
            )
        if self.briefing:
            parts.append("the briefing for your next conversation")
        return f"{parts[0]}, and {parts[1]}," if len(parts) == 2 else "".join(parts)

    @property
    def many(self) -> bool:
        """Whether ``describe()`` names more than one thing (for the verb after it)."""
        return len(self.compactions) + self.briefing > 1


class Housekeeper:
    """Does what is due for one user (see the module's docstring). Thread-safe: ``turn_started``
    and ``stop`` may come from any thread."""

    def __init__(
        self,
        paths: Paths,
        username: str,
        *,
        backend: Callable[[], Backend],
        interval: int,
        budget: int,
        options: dict[str, Any] | None = None,
        emit: Emit = lambda cid, ev: None,
        settle: float = SETTLE,
        estimator: Estimator | None = None,
        turns_running: Callable[[], bool] = lambda: False,
        shared_backend: bool = False,
        record: summarise.TrackRecord | None = None,
        compact_settle: float = COMPACT_SETTLE,
    ):
        self.paths, self.username = paths, username
        self._make_backend = backend
        self._backend: Backend | None = None
        self._shared_backend = shared_backend  # the caller's own (tests): never closed here
        self.record = record  # how the model has done at summaries: a hopeless one is not asked
        self.interval, self.budget, self.options = interval, budget, dict(options or {})
        self.emit, self.settle, self.estimator = emit, settle, estimator
        self.compact_settle = compact_settle
        self.turns_running = turns_running  # this process's own turns (the turns lock tells of all)
        self.turns = turns_lock(paths, username)
        self.lock = Lock(paths.user_dir(username) / LOCK_NAME)
        self.yields: dict[tuple[str, int, int], int] = {}
        self._turn = threading.Event()
        self._stop = threading.Event()
        self._hurry = threading.Event()
        self._cancel: Cancel | None = None
        self._guard = threading.Lock()
        self._last_change = time.monotonic()
        self._mark = 0
        self.busy_elsewhere = False
        self.last_status = ""

    def backend(self) -> Backend:
        """One backend for all the jobs (one call at a time), apart from the turns' own."""
        if self._backend is None:
            self._backend = self._make_backend()
        return self._backend

    def close(self) -> None:
        self.stop()
        if self._backend is not None and not self._shared_backend:
            self._backend.close()
        self._backend = None

    # -- signals from outside ----------------------------------------------------------------

    def turn_started(self) -> None:
        """A turn of this process starts: a call that may make way is cancelled at once."""
        self._last_change = time.monotonic()
        self._turn.set()

    def hurry(self) -> None:
        """Do the briefing without waiting for quiet, in the run going on or the next one."""
        self._hurry.set()

    def stop(self) -> None:
        self._stop.set()
        with self._guard:
            cancel = self._cancel
        if cancel is not None:
            cancel.cancel()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    # -- what is due -------------------------------------------------------------------------

    def due(self, store: UserStore) -> Work:
        ids = [
            cid
            for cid in rows.due_conversations(store, self.interval)
            if rows.next_block(store, cid, self.interval) is not None
        ]
        return Work(ids, cross.briefing_stale(store))

    def pending(self) -> Work:
        """What is due now (opens the database for the look)."""
        store = UserStore.open(self.paths, self.username)
        try:
            return self.due(store)
        finally:
            store.close()

    def _watch(self, store: UserStore) -> None:
        """Notice new messages from any process: they restart the quiet time."""
        mark = rows.latest_activity(store)[0]
        if mark != self._mark:
            self._mark, self._last_change = mark, time.monotonic()

    def _turn_running(self, store: UserStore) -> bool:
        return self.turns_running() or self.turns.busy()

    def quiet_for(self) -> float:
        return time.monotonic() - self._last_change

    # -- doing it ----------------------------------------------------------------------------

    def run(self, *, hurry: bool = False, deadline: float | None = None) -> Work:
        """Do what is due until nothing is, nothing more can be done now (the server cannot
        be used: left for later), ``stop()`` is called or ``deadline`` (monotonic) passes;
        returns what is left. ``hurry``: the briefing does not wait to be quiet (a caller that
        waits for everything). ``busy_elsewhere`` is set when another housekeeper holds the
        lock: it does the work (it looks again after it lets go)."""
        self.busy_elsewhere = False
        if hurry:
            self._hurry.set()
        store = UserStore.open(self.paths, self.username)
        try:
            self._watch(store)
            while not self.stopped:
                hurry = self._hurry.is_set()
                if not self.lock.acquire():
                    self.busy_elsewhere = True
                    return self.due(store)
                try:
                    status = self.last_status = self._pass(store, hurry=hurry)
                finally:
                    self.lock.release()
                left = self.due(store)
                if (
                    not left
                    or status == "stuck"
                    or self.stopped
                    or (deadline is not None and time.monotonic() >= deadline)
                ):
                    return left
                self._wait(store, left, deadline=deadline)
            return self.due(store)
        finally:
            self._hurry.clear()
            store.close()

    def _wait(self, store: UserStore, left: Work, *, deadline: float | None) -> None:
        """Until something due can be done: no turn running, and for the briefing alone, quiet."""
        while not self.stopped and (deadline is None or time.monotonic() < deadline):
            self._watch(store)
            if not self._turn_running(store):
                self._turn.clear()
                quiet, hurry = self.quiet_for(), self._hurry.is_set()
                if (
                    hurry
                    or (left.compactions and quiet >= self.compact_settle)
                    or quiet >= self.settle
                ):
                    return
            self._stop.wait(POLL)

    def _pass(self, store: UserStore, *, hurry: bool) -> str:
        """One look at everything due, each job once. "done" (all of it), "paused" (a job made
        way for a turn, or the briefing waits to be quiet) or "stuck" (a job failed: the server
        cannot be used now; left for the next run)."""
        status = "done"
        self._watch(store)
        compactions = self.due(store).compactions
        if compactions and not (hurry or self.quiet_for() >= self.compact_settle):
            return "paused"  # not while questions come one by one
        for cid in compactions:
            if self.stopped or self._turn_running(store):
                return "paused"
            outcome = self._compact(store, cid)
            if outcome != "done":
                status = outcome
        if self.stopped or not cross.briefing_stale(store):
            return status
        self._watch(store)
        if self._turn_running(store) or not (hurry or self.quiet_for() >= self.settle):
            return "paused" if status == "done" else status
        outcome = self._brief(store)
        return outcome if status == "done" else status

    def _guarded(
        self, store: UserStore, key: tuple[str, int, int] | None
    ) -> tuple[Cancel, threading.Event]:
        """A cancel for one job, and a watcher that sets it when a turn needs the server (the
        job's ``key`` counts how often it made way) or the housekeeper stops."""
        cancel, done = Cancel(), threading.Event()
        with self._guard:
            self._cancel = cancel
        self._turn.clear()
        # a backend shared with the turns (a caller's own) is not cut: that would cut the turn's
        # call too
        may_yield = not self._shared_backend

        def watch() -> None:
            while not done.wait(POLL):
                if self.stopped:
                    cancel.cancel()
                    return
                if may_yield and (self._turn.is_set() or self.turns.busy()):
                    if key is not None:
                        self.yields[key] = self.yields.get(key, 0) + 1
                    cancel.cancel()
                    return

        threading.Thread(target=watch, name="tatlock-housekeeping-watch", daemon=True).start()
        return cancel, done

    def _asking(self) -> bool:
        return self.record is None or self.record.worth_asking()

    def _noted(self, how: str, asked: bool) -> None:
        if self.record is not None:
            self.record.note(how, asked=asked)

    def _compact(self, store: UserStore, cid: int) -> str:
        block = rows.next_block(store, cid, self.interval)
        if block is None:
            return "done"
        key = ("compaction", cid, block[0])
        cancel, done = self._guarded(store, key)
        # made way often enough: the block is extracted now, rather than wait for a quiet moment
        asked = self.yields.get(key, 0) < MAX_YIELDS and self._asking()

        def emit(ev: Event) -> None:
            if isinstance(ev, CompactionFinished):
                self._noted(ev.how, asked)
            self.emit(cid, ev)

        try:
            made = compact_due(
                store,
                self.backend(),
                cid,
                interval=self.interval,
                budget_tokens=self.budget,
                emit=emit,
                estimator=self.estimator,
                options=self.options,
                cancel=cancel,
                use_model=asked,
            )
        finally:
            done.set()
        if cancel.cancelled:
            return "paused"
        return "done" if made or rows.next_block(store, cid, self.interval) is None else "stuck"

    def _brief(self, store: UserStore) -> str:
        newest = cross.newest_source(store)
        cancel, done = self._guarded(store, None)
        asked = self._asking()
        try:
            written = cross.prepare_briefing(
                store,
                self.backend(),
                paths=self.paths,
                options=self.options,
                estimator=self.estimator,
                cancel=cancel,
                use_model=asked,
                emit=lambda ev: self.emit(newest, ev),
                budget_tokens=self.budget,
            )
            if written is not None:
                self._noted(written.how, asked)
        except summarise.Paused:
            return "paused"
        except summarise.Unavailable as exc:
            log.warning("the briefing is left for later: %s", exc)
            return "stuck"
        finally:
            done.set()
        return "done"
