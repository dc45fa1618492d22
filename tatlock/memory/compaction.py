"""Compaction: contiguous blocks of a conversation summarised once, crash-safe, by one process.

Blocks are ``[covered+1, covered+interval]`` from message 1, where ``covered`` is the last
compact's ``up_to_message``. Each block goes through three steps:

1. *claim* (one ``BEGIN IMMEDIATE`` transaction): a row in ``compaction_claims`` says which
   process works on the conversation. A live claim (not expired, and its process is alive or
   on another host) is respected; a dead or expired one is taken over. The block is checked
   to be still the next one in the same transaction.
2. *summarise* outside any transaction (the model call can take minutes on a small machine;
   nobody waits on the database meanwhile).
3. *commit* (one transaction): the claim must still be ours and the last compact must still
   end at ``from - 1``; then the compact row, ``conversations.compacted_up_to`` and the
   claim's release are written together.

A process killed at any point leaves either nothing (the claim alone, taken over by the next
run) or the whole compact: never a partial row, a gap or an overlap. A reply without the
summary's sections is repaired once, else the block is summarised without the model (an
extract of its facts, names, numbers and dates: memory/extract.py), so a small model's
failure is not retried after every turn (memory/summarise.py). A server that cannot be used,
or a call cancelled to make way for a turn, writes nothing and releases the claim; the raw
messages stay in the context, so nothing is lost, only not yet summarised.

When the compacts not yet merged into the archive outgrow their share of the context, the
oldest are merged (with the previous archive) into ``conversations.metadata["archive"]``.
Compacts are never deleted: they stay searchable.

This module decides what to summarise and how; the claim and commit transactions (and every
SQL statement) are in ``tatlock.store.compaction``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tatlock import prompts
from tatlock.config import Paths
from tatlock.events import CompactionFailed, CompactionFinished, CompactionStarted, Event
from tatlock.llm.base import Cancel
from tatlock.memory import extract, summarise
from tatlock.memory.context import SUMMARY_SHARE
from tatlock.memory.fit import Window
from tatlock.memory.summary_format import (  # noqa: F401 - re-exported (tests, the cross summary)
    MAX_TRANSCRIPT_TOKENS,
    REQUIRED_SECTION,
    SECTIONS,
    fitting_prefix,
    normalise_summary,
    parse_sections,
    transcript,
    transcript_line,
)
from tatlock.memory.tokens import Estimator
from tatlock.store import compaction as rows
from tatlock.store.compaction import HOST, claim_is_live  # noqa: F401 - re-exported (tests, views)
from tatlock.store.user import Compact, UserStore
from tatlock.timeutil import iso

__all__ = [
    "SECTIONS",
    "Compactor",
    "compact_due",
    "compact_once",
    "maybe_archive",
    "next_block",
    "parse_sections",
]

log = logging.getLogger(__name__)

# seconds; longer than any sane model call (a dead pid is noticed at once)
DEFAULT_CLAIM_TTL = 600.0
OPTIONS = {"temperature": 0}  # a record, not prose: the most likely wording

Emit = Callable[[Event], None]


def _no_emit(event: Event) -> None:
    pass


def _safe(emit: Emit) -> Emit:
    """A view that fails must not break compaction (it may run on a background thread)."""

    def call(event: Event) -> None:
        try:
            emit(event)
        except Exception:
            log.exception("compaction event handler failed on %s", event.type)

    return call


# -- blocks and claims (the rows and transactions are tatlock.store.compaction's) -----------


def next_block(store: UserStore, conversation_id: int, interval: int) -> tuple[int, int] | None:
    """The next block to compact, ``(covered+1, covered+interval)``, once all its messages exist."""
    return rows.next_block(store, conversation_id, interval)


def _release(store: UserStore, conversation_id: int, owner: str) -> None:
    """Drop our claim (best effort: a claim left behind is taken over once our pid is gone)."""
    try:
        rows.release(store, conversation_id, owner)
    except Exception:
        log.warning(
            "could not release the compaction claim of conversation %s",
            conversation_id,
            exc_info=True,
        )


def _model_name(backend: Any, model: str | None, result: Any = None) -> str:
    return getattr(result, "model", "") or model or getattr(backend, "model", "") or "unknown"


# -- one block -----------------------------------------------------------------------------


def _normalised(text: str) -> str | None:
    normal = normalise_summary(text)
    return normal[0] if normal else None


def _summarise(
    backend: Any,
    prompt: str,
    *,
    source: str,
    make_extract: Callable[[], str],
    model: str | None,
    options: dict[str, Any] | None,
    what: str,
    cancel: Cancel | None,
    use_model: bool,
) -> tuple[summarise.Written, list[str]]:
    """One record in the five sections: the model's, its repair, or the extract (summarise.py).
    A server that cannot be used, or a pause for a turn, becomes _Failed / _Paused."""
    shape = summarise.Shape(SECTIONS, _normalised, what)
    try:
        written = summarise.write(
            backend,
            prompt,
            shape=shape,
            source=source,
            extract=make_extract,
            model=model,
            options={**OPTIONS, **(options or {})},
            cancel=cancel,
            use_model=use_model,
        )
    except summarise.Paused:
        raise _Paused() from None
    except summarise.Unavailable as exc:
        raise _Failed(str(exc)) from None
    if written.how != "model":
        log.info("%s written as %s: %s", what, written.how, written.why)
    normal = normalise_summary(written.text)
    assert normal is not None  # write() returns only normalised text
    return written, normal[1]


def compact_once(
    store: UserStore,
    backend: Any,
    conversation_id: int,
    *,
    interval: int,
    emit: Emit = _no_emit,
    model: str | None = None,
    owner: str | None = None,
    claim_ttl: float = DEFAULT_CLAIM_TTL,
    options: dict[str, Any] | None = None,
    max_transcript_tokens: int = MAX_TRANSCRIPT_TOKENS,
    estimator: Estimator | None = None,
    cancel: Cancel | None = None,
    use_model: bool = True,
    budget_tokens: int | None = None,
) -> Compact | None:
    """Summarise the next due block once. Returns the new compact, or None (nothing due,
    claimed by another process, paused by ``cancel``, or failed: then a CompactionFailed event
    says why). ``use_model=False`` writes the extract without asking the model. Never raises.

    With ``budget_tokens`` (the context window) the transcript takes only the room beside the
    instructions (its repair's included) and the summary's allowance; a block whose messages
    cannot all fit there, even cut short, is split: its first messages that fit are compacted
    now, the rest with the next block."""
    emit = _safe(emit)
    owner = owner or rows.new_owner()
    t0 = time.perf_counter()
    try:
        block, busy = rows.claim_next_block(store, conversation_id, interval, owner, claim_ttl)
        if block is None:
            return None
        if busy:
            log.info("compaction of conversation %s skipped: %s", conversation_id, busy)
            return None
    except Exception as exc:
        emit(CompactionFailed(conversation_id, f"could not claim the next block: {exc}"))
        return None

    first, last = block
    try:
        messages = store.messages(conversation_id, first, last)
        if [m.message_number for m in messages] != list(range(first, last + 1)):
            raise _Failed(f"messages {first}-{last} are not all stored")
        tokens = _transcript_room(
            max_transcript_tokens, budget_tokens, estimator, options, first, last
        )
        count = fitting_prefix(messages, tokens, estimator)
        messages, last = messages[:count], first + count - 1
    except Exception as exc:
        _release(store, conversation_id, owner)
        emit(CompactionFailed(conversation_id, f"messages {first}-{last}: {exc}"))
        return None
    emit(CompactionStarted(conversation_id, first, last))
    try:
        source = transcript(messages, tokens, estimator)
        prompt = prompts.render(
            "compaction.txt", from_message=first, up_to_message=last, transcript=source
        )
        written, topics = _summarise(
            backend,
            prompt,
            source=source,
            make_extract=partial(extract.compact_extract, messages),
            model=model,
            options=options,
            what="summary",
            cancel=cancel,
            use_model=use_model,
        )
        made_by = _model_name(backend, model, written.calls[-1] if written.calls else None)
        try:
            compact = rows.commit_compact(
                store,
                conversation_id,
                owner,
                first,
                last,
                summary=written.text,
                topics=topics,
                model=made_by
                if written.how == "model"
                else f"{written.how}" + (f" ({made_by})" if written.how == "repaired" else ""),
            )
        except rows.ClaimLost:
            raise _Failed(
                "another process took over the claim while the model was summarising"
            ) from None
        except rows.Conflict as exc:
            raise _Failed(str(exc)) from None
    except Exception as exc:
        _release(store, conversation_id, owner)
        if isinstance(exc, _Paused):
            reason = (
                "paused to make way for a new message; it resumes when the conversation is quiet"
            )
        else:
            reason = str(exc) if isinstance(exc, _Failed) else f"{type(exc).__name__}: {exc}"
        emit(CompactionFailed(conversation_id, f"messages {first}-{last}: {reason}"))
        return None
    try:
        store.add_topics(conversation_id, topics)
    except Exception:
        log.warning("could not store the topics of compact %s", compact.id, exc_info=True)
    emit(
        CompactionFinished(
            conversation_id,
            first,
            last,
            round((time.perf_counter() - t0) * 1000, 1),
            written.prompt_tokens,
            written.eval_tokens,
            how=written.how,
            why=written.why,
        )
    )
    return compact


class _Failed(Exception):
    pass


class _Paused(Exception):
    pass


def _transcript_room(
    most: int,
    budget_tokens: int | None,
    estimator: Estimator | None,
    options: dict[str, Any] | None,
    first: int,
    last: int,
) -> int:
    """Tokens a block's transcript may take: ``most``, and within the window what the
    instructions (with the repair's note, which the second try adds) and the summary's
    allowance leave."""
    if not budget_tokens:
        return most
    window = Window(budget_tokens, estimator or Estimator())
    instructions = prompts.render(
        "compaction.txt", from_message=first, up_to_message=last, transcript=""
    )
    room = window.text_room((options or {}).get("max_tokens"), instructions + summarise.REPAIR_NOTE)
    return max(64, min(most, room))


def compact_due(
    store: UserStore,
    backend: Any,
    conversation_id: int,
    *,
    interval: int,
    emit: Emit = _no_emit,
    model: str | None = None,
    owner: str | None = None,
    claim_ttl: float = DEFAULT_CLAIM_TTL,
    budget_tokens: int | None = None,
    estimator: Estimator | None = None,
    options: dict[str, Any] | None = None,
    max_transcript_tokens: int = MAX_TRANSCRIPT_TOKENS,
    cancel: Cancel | None = None,
    use_model: bool = True,
) -> list[Compact]:
    """Compact every due block (stopping at the first failure, pause or foreign claim), then
    archive old compacts if ``budget_tokens`` is given and they outgrew it. Never raises."""
    owner = owner or rows.new_owner()
    done: list[Compact] = []
    end: int | None = None  # the end of a block that was split to fit: its rest is due at once
    while not (cancel and cancel.cancelled):
        covered = store.compacted_up_to(conversation_id)
        size = end - covered if end is not None and end > covered else interval
        c = compact_once(
            store,
            backend,
            conversation_id,
            interval=size,
            emit=emit,
            model=model,
            owner=owner,
            claim_ttl=claim_ttl,
            options=options,
            max_transcript_tokens=max_transcript_tokens,
            estimator=estimator,
            budget_tokens=budget_tokens,
            cancel=cancel,
            use_model=use_model,
        )
        if c is None:
            break
        done.append(c)
        end = covered + size if c.up_to_message < covered + size else None
    if budget_tokens and not (cancel and cancel.cancelled):
        maybe_archive(
            store,
            backend,
            conversation_id,
            budget_tokens=budget_tokens,
            estimator=estimator,
            emit=emit,
            model=model,
            owner=owner,
            claim_ttl=claim_ttl,
            options=options,
            cancel=cancel,
            use_model=use_model,
        )
    return done


# -- archive -------------------------------------------------------------------------------


def _compact_cost(est: Estimator, c: Compact) -> int:
    return est.text(c.summary) + 12  # as context.build counts it (header line included)


def maybe_archive(
    store: UserStore,
    backend: Any,
    conversation_id: int,
    *,
    budget_tokens: int,
    estimator: Estimator | None = None,
    emit: Emit = _no_emit,
    model: str | None = None,
    owner: str | None = None,
    claim_ttl: float = DEFAULT_CLAIM_TTL,
    options: dict[str, Any] | None = None,
    cancel: Cancel | None = None,
    use_model: bool = True,
) -> dict[str, Any] | None:
    """Merge the oldest compacts into the archive once the unarchived ones exceed
    ``SUMMARY_SHARE * budget_tokens / 2``. Returns the new archive, or None (not needed,
    claimed elsewhere, or failed: the old archive stays and CompactionFailed says why).

    The newest compacts are kept out of the archive so that the unarchived ones drop to
    about half the threshold; at least the newest compact always stays verbatim.
    """
    emit = _safe(emit)
    est = estimator or Estimator()
    owner = owner or rows.new_owner()
    limit = SUMMARY_SHARE * budget_tokens / 2
    try:
        archive = rows.archive_of(store, conversation_id)
        up_to = int(archive.get("up_to_message", 0)) if archive.get("summary") else 0
        pending = [c for c in store.compacts(conversation_id) if c.up_to_message > up_to]
        costs = [_compact_cost(est, c) for c in pending]
        if len(pending) < 2 or sum(costs) <= limit:
            return None
        if pending[0].from_message != up_to + 1:  # never archive across a gap
            raise _Failed(
                f"the archive ends at message {up_to} but the next compact starts at "
                f"{pending[0].from_message}"
            )
        merge: list[Compact] = []
        rest = sum(costs)
        for c, cost in zip(pending[:-1], costs[:-1], strict=True):
            merge.append(c)
            rest -= cost
            if rest <= limit / 2:
                break
        # the claim is taken only if the archive still ends where this plan starts
        busy = rows.claim_archive(
            store,
            conversation_id,
            owner,
            merge[0].from_message,
            merge[-1].up_to_message,
            claim_ttl,
            archived_up_to=up_to,
        )
        if busy:
            return None
    except Exception as exc:
        emit(CompactionFailed(conversation_id, f"archive: {exc}"))
        return None

    # the merge goes in steps that each fit the window: every step merges the archive so far with
    # as many of the next compacts as fit beside it, and is committed, so that a failure or a pause
    # keeps what was merged before it and the next run goes on from there
    window = Window(budget_tokens, est)
    max_words = max(120, int(limit * 0.75 * est.chars_per_token / 5.5))  # ~5.5 characters a word
    # the merged record's allowance: room for the words asked for, and no more (the rest is for the
    # records)
    asked = (options or {}).get("max_tokens") or budget_tokens
    options = {**(options or {}), "max_tokens": min(int(asked), max(256, max_words * 2))}
    result: dict[str, Any] | None = None
    todo = merge
    while todo and not (result is not None and cancel and cancel.cancelled):
        step_up_to = todo[-1].up_to_message
        try:
            batch, parts = _archive_step(
                window, options, archive if up_to else None, up_to, todo, max_words
            )
            step_up_to = batch[-1].up_to_message
            # the first step's claim was taken above; each commit releases it
            if result is not None:
                busy = rows.claim_archive(
                    store,
                    conversation_id,
                    owner,
                    batch[0].from_message,
                    step_up_to,
                    claim_ttl,
                    archived_up_to=up_to,
                )
                if busy:
                    return result
            source = "\n\n".join(parts)
            prompt = prompts.render(
                "archive.txt", up_to_message=step_up_to, max_words=max_words, summaries=source
            )
            records = ([str(archive["summary"])] if up_to else []) + [c.summary for c in batch]
            written, _topics = _summarise(
                backend,
                prompt,
                source=source,
                make_extract=partial(extract.merged_records, records, max_words * 6),
                model=model,
                options=options,
                what="archive",
                cancel=cancel,
                use_model=use_model,
            )
            new = {
                "up_to_message": step_up_to,
                "summary": written.text,
                "how": written.how,
                "created_at": iso(),
                "merged_compacts": list(archive.get("merged_compacts") or [])
                + [c.id for c in batch],
            }
            try:
                rows.commit_archive(store, conversation_id, owner, new, archived_up_to=up_to)
            except rows.ClaimLost:
                raise _Failed(
                    "another process took over the claim while the model was merging"
                ) from None
            except rows.Conflict as exc:
                raise _Failed(str(exc)) from None
        except Exception as exc:
            _release(store, conversation_id, owner)
            if isinstance(exc, _Paused):
                reason = (
                    "paused to make way for a new message; it resumes when the conversation is "
                    "quiet"
                )
            else:
                reason = str(exc) if isinstance(exc, _Failed) else f"{type(exc).__name__}: {exc}"
            emit(CompactionFailed(conversation_id, f"archive of messages 1-{step_up_to}: {reason}"))
            return result
        archive, up_to, result = new, step_up_to, new
        todo = todo[len(batch) :]
    return result


def _archive_step(
    window: Window,
    options: dict[str, Any] | None,
    archive: dict[str, Any] | None,
    up_to: int,
    todo: list[Compact],
    max_words: int,
) -> tuple[list[Compact], list[str]]:
    """The next merge step: the archive so far and the next compacts that fit beside it (at
    least one; a record too long for the room on its own is cut, keeping its head and its end).
    The room leaves the repair's note free too, as the second try adds it."""
    est = window.est
    instructions = prompts.render(
        "archive.txt", up_to_message=todo[-1].up_to_message, max_words=max_words, summaries=""
    )
    room = window.text_room((options or {}).get("max_tokens"), instructions + summarise.REPAIR_NOTE)
    parts: list[str] = []
    if archive is not None:
        # an archive is one summary (bounded by its answer's allowance), unless it was imported:
        # then half the room
        parts.append(
            window.cut(
                f"Archive (messages 1-{up_to}):\n{str(archive['summary']).strip()}", room // 2
            )
        )
    left = room - sum(est.bound(x) + 2 for x in parts)
    batch: list[Compact] = []
    for c in todo:
        part = f"Summary of messages {c.from_message}-{c.up_to_message}:\n{c.summary.strip()}"
        cost = est.bound(part) + 2
        if batch and cost > left:
            break
        batch.append(c)
        parts.append(window.cut(part, max(0, left - 2)) if cost > left else part)
        left -= min(cost, left)
    return batch, parts


# -- background ----------------------------------------------------------------------------


class Compactor:
    """``compact_due`` on a background thread with its own database connection.

        c = Compactor.start(paths, "alice", conv_id, backend, interval=40, budget_tokens=4096,
        emit=emit)
        ...
        c.wait(timeout=60)   # before the process exits (`tatlock ask`)

    ``emit`` is called from the background thread. A process that exits without waiting
    leaves at most a claim, which the next run takes over.
    """

    def __init__(
        self,
        paths: Paths,
        username: str,
        conversation_id: int,
        backend: Any,
        *,
        interval: int,
        budget_tokens: int | None = None,
        emit: Emit = _no_emit,
        model: str | None = None,
        estimator: Estimator | None = None,
        claim_ttl: float = DEFAULT_CLAIM_TTL,
        options: dict[str, Any] | None = None,
        max_transcript_tokens: int = MAX_TRANSCRIPT_TOKENS,
    ):
        self.paths = paths
        self.username = username
        self.conversation_id = conversation_id
        self.backend = backend
        self.interval = interval
        self.budget_tokens = budget_tokens
        self.emit = _safe(emit)
        self.model = model
        self.estimator = estimator
        self.claim_ttl = claim_ttl
        self.options = options
        self.max_transcript_tokens = max_transcript_tokens
        self.compacts: list[Compact] = []
        self.error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"tatlock-compactor-{conversation_id}", daemon=True
        )

    @classmethod
    def start(
        cls,
        paths: Paths,
        username: str,
        conversation_id: int,
        backend: Any,
        *,
        interval: int,
        budget_tokens: int | None = None,
        emit: Emit = _no_emit,
        **kwargs: Any,
    ) -> Compactor:
        c = cls(
            paths,
            username,
            conversation_id,
            backend,
            interval=interval,
            budget_tokens=budget_tokens,
            emit=emit,
            **kwargs,
        )
        c._thread.start()
        return c

    def _run(self) -> None:
        store = None
        try:
            store = UserStore.open(self.paths, self.username)
            self.compacts = compact_due(
                store,
                self.backend,
                self.conversation_id,
                interval=self.interval,
                emit=self.emit,
                model=self.model,
                claim_ttl=self.claim_ttl,
                budget_tokens=self.budget_tokens,
                estimator=self.estimator,
                options=self.options,
                max_transcript_tokens=self.max_transcript_tokens,
            )
        except BaseException as exc:
            self.error = exc
            self.emit(CompactionFailed(self.conversation_id, f"{type(exc).__name__}: {exc}"))
        finally:
            if store is not None:
                try:
                    store.close()
                except Exception:
                    pass
            self._done.set()

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the compaction has finished (False: still running after ``timeout`` s)."""
        return self._done.wait(timeout)
