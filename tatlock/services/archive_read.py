"""Reading and checking a memory export, one record at a time, into a staging database.

The whole file is read and every record checked before anything is written to the memory:
a malformed or foreign file is refused with one line naming the problem (the record and
field, or the line and column where it stops being JSON), and nothing is written. The
document is read as a stream (``tatlock.services.jsonstream``), so only the record being
checked is in memory; what has been checked waits in ``tatlock.store.staging``, whose unique
keys find an id given twice. Each record is checked by ``tatlock.services.archive_records``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, BinaryIO

from tatlock.errors import UsageError
from tatlock.services import archive_records as records
from tatlock.services.archive_records import Bad
from tatlock.services.jsonstream import JsonError, JsonStream
from tatlock.store.archive import conversation_uid
from tatlock.store.staging import Duplicate, Staging

FORMAT = "tatlock-memory"
VERSION = 1
MAX_RECORD = 8_000_000  # characters of one record in the file (a message with its metadata)
CONVERSATION_PARTS = (
    "conversation",
    "messages",
    "compacts",
    "topics",
    "archive",
    "uid",
    "participants",
    "briefing",
)

Progress = Callable[[str, int, int], None]  # (phase, done, total)


def stage(
    raw: BinaryIO, name: str, staging: Staging, progress: Progress | None = None, size: int = 0
) -> None:
    """Read the export in ``raw`` into ``staging``, checking every record. Raises UsageError
    (one line naming ``name`` and the problem)."""
    js = JsonStream(raw, max_value=MAX_RECORD)
    reader = _Document(js, staging, progress, raw, size)
    try:
        reader.read()
    except JsonError as exc:
        if exc.syntax:
            raise UsageError(f"{name} is not JSON ({exc.message})") from None
        raise UsageError(f"{name} is not a valid tatlock memory export: {exc.message}") from None
    except Bad as exc:
        raise UsageError(f"{name} is not a valid tatlock memory export: {exc}") from None
    except _Foreign as exc:
        raise UsageError(f"{name} is not a tatlock memory export{exc}") from None
    except _Version as exc:
        raise UsageError(f"{name} {exc}") from None


class _Foreign(Exception):
    pass


class _Version(Exception):
    pass


class _Document:
    """The top of the document: a whole memory (``conversations``, ``variables``,
    ``cross_summaries``) or one conversation's export (its parts at the top)."""

    def __init__(
        self, js: JsonStream, staging: Staging, progress: Progress | None, raw: Any, size: int
    ):
        self.js = js
        self.staging = staging
        self.progress = progress
        self.raw = raw
        self.size = size
        self.format: Any = None
        self.version: Any = None
        self.conversations = 0

    def tick(self) -> None:
        if self.progress is not None:
            self.progress("check", int(getattr(self.raw, "done", 0)), self.size)

    def read(self) -> None:
        js = self.js
        kind = js.kind()
        if kind == "end":
            done = int(getattr(self.raw, "done", 0) or 0)  # bytes read: only whitespace, or none
            raise JsonError(
                "the file holds only whitespace" if done else "the file is empty", syntax=True
            )
        if kind != "object":
            # a JSON error first, if it is not JSON at all
            js.value() if kind != "array" else js.skip()
            js.end()
            raise _Foreign(' (it is not a JSON object with "format": "tatlock-memory")')
        single: _Conversation | None = None
        full = False
        for key in js.items():
            if key == "format":
                self.format = js.value()
                self._check_format()
            elif key == "version":
                self.version = js.value()
                self._check_version()
            elif key == "conversations":
                full = True
                self._conversations()
            elif key == "variables":
                self._records("variables", records.variable, self.staging.add_variable)
            elif key == "cross_summaries":
                self._records("cross_summaries", records.summary, self.staging.add_summary)
            elif key == "fact_history":
                self._records("fact_history", records.past_value, self.staging.add_past_value)
            elif key in CONVERSATION_PARTS:
                single = single or _Conversation(self, 0, "conversation")
                single.part(key)
            else:
                js.skip()
        js.end()
        self._check_format()
        if (
            single is not None
            and single.has("conversation")
            and single.has("messages")
            and not full
        ):
            single.finish()  # one conversation's export (``memory export ID --format json``)
            return
        if self.format != FORMAT:
            raise _Foreign(' (no "format": "tatlock-memory")')
        if full and single is not None:
            raise Bad("it holds both a list of conversations and one conversation's parts")
        if self.version is None:
            raise _Version("has no valid export version")
        if not full:
            raise Bad("it has no list of conversations")

    def _check_format(self) -> None:
        if self.format is not None and self.format != FORMAT:
            what = f" (it is a {self.format!r} file)" if isinstance(self.format, str) else ""
            raise _Foreign(what or ' (no "format": "tatlock-memory")')

    def _check_version(self) -> None:
        v = self.version
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise _Version("has no valid export version")
        if v > VERSION:
            raise _Version(
                f"is a version {v} export, newer than this tatlock reads ({VERSION}): upgrade "
                f"tatlock"
            )

    def _conversations(self) -> None:
        if self.js.kind() != "array":
            raise Bad("conversations must be a list")
        for i in self.js.elements():
            where = f"conversations[{i}]"
            if self.js.kind() != "object":
                raise Bad(f"{where} must be an object")
            conv = _Conversation(self, i, where)
            for key in self.js.items():
                conv.part(key)
            conv.finish()
            self.conversations += 1

    def _records(
        self,
        where: str,
        check: Callable[[Any, str], dict[str, Any]],
        add: Callable[[int, dict[str, Any]], None],
    ) -> None:
        if self.js.kind() != "array":
            raise Bad(f"{where} must be a list")
        for i in self.js.elements():
            record = check(self.js.value(), f"{where}[{i}]")
            try:
                add(i, record)
            except Duplicate:
                raise Bad(
                    f"{where}[{i}]: the variable {record.get('key')!r} appears twice"
                ) from None


class _Conversation:
    """One conversation's parts, in whatever order the file gives them; messages go to the
    staging database as they are read, checked one by one."""

    def __init__(self, doc: _Document, idx: int, where: str):
        self.doc = doc
        self.idx = idx
        self.where = where
        self.seen: set[str] = set()
        self.head: dict[str, Any] | None = None
        self.uid: str | None = None
        self.archive: dict[str, Any] | None = None
        self.messages = 0

    def has(self, key: str) -> bool:
        return key in self.seen

    def part(self, key: str) -> None:
        js, where = self.doc.js, self.where
        if key in self.seen and key in ("conversation", "messages", "compacts", "topics"):
            raise Bad(f"{where} gives {key!r} twice")
        self.seen.add(key)
        if key == "conversation":
            self.head = records.head(js.value(), f"{where}.conversation")
        elif key == "uid":
            uid = js.value()
            if uid is not None and (not isinstance(uid, str) or not uid.strip() or len(uid) > 200):
                raise Bad(f"{where}.uid must be a short text")
            self.uid = uid
        elif key == "archive":
            self.archive = records.archive(js.value(), f"{where}.archive")
        elif key == "messages":
            self._messages()
        elif key == "compacts":
            self._list("compacts", records.compact, self.doc.staging.add_compact)
        elif key == "topics":
            self._list("topics", records.topic, self.doc.staging.add_topic)
        else:
            js.skip()  # participants and the briefing are rebuilt from the messages

    def _list(
        self,
        key: str,
        check: Callable[[Any, str], dict[str, Any]],
        add: Callable[[int, int, dict[str, Any]], None],
    ) -> None:
        js = self.doc.js
        if js.kind() != "array":
            raise Bad(f"{self.where}.{key} must be a list")
        for i in js.elements():
            add(self.idx, i, check(js.value(), f"{self.where}.{key}[{i}]"))

    def _messages(self) -> None:
        js, where = self.doc.js, self.where
        if js.kind() != "array":
            raise Bad(f"{where}.messages must be a list")
        for i in js.elements():
            m = records.message(js.value(), f"{where}.messages[{i}]")
            if m["message_number"] != i + 1:
                raise Bad(
                    f"{where}.messages are not numbered 1, 2, 3... in order "
                    f"(messages[{i}] is #{m['message_number']})"
                )
            try:
                self.doc.staging.add_message(self.idx, m)
            except Duplicate as exc:
                if exc.other == self.idx:
                    raise Bad(f"{where}.messages repeat a message_id ({m['message_id']})") from None
                raise Bad(
                    f"{where}.messages[{i}]: message_id {m['message_id']} appears in two "
                    f"conversations "
                    f"of the file"
                ) from None
            self.messages += 1
            if self.messages % 2000 == 0:
                self.doc.tick()

    def finish(self) -> None:
        where = self.where
        if self.head is None:
            raise Bad(f"{where} has no 'conversation'")
        if "messages" not in self.seen:
            raise Bad(f"{where} has no 'messages'")
        head = self.head
        archive = self.archive or records.archive(
            head["metadata"].get("archive"), f"{where}.conversation.metadata.archive"
        )
        head["metadata"] = {
            k: v for k, v in head["metadata"].items() if k not in ("archive", "importing")
        }
        if archive:
            if archive["up_to_message"] > self.messages:
                raise Bad(
                    f"{where}.archive covers messages up to #{archive['up_to_message']}, which the "
                    "conversation does not have"
                )
            head["metadata"]["archive"] = archive
        head["uid"] = self.uid or conversation_uid(head)
        bad = self.doc.staging.compact_beyond(self.idx, self.messages)
        if bad is not None:
            raise Bad(
                f"{where}.compacts[{bad[0]}] covers messages {bad[1]}-{bad[2]}, which the "
                f"conversation "
                "does not have"
            )
        try:
            self.doc.staging.add_conversation(self.idx, head, self.messages)
        except Duplicate:
            raise Bad(f"conversation {head['id']} appears twice") from None
        self.doc.tick()
