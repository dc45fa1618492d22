"""The whole memory as one file, and back: ``butler.archive.export("json"|"md")``,
``import_(text)``.

The JSON export holds everything the memory knows: every conversation with its messages
(authors, reply links), participants, compacts, archive and topics, the personal variables
with who stated them and where, and the summaries of recent conversations. Importing it is
idempotent (see ``tatlock.store.archive``): the file is read as a stream and checked in full
(``tatlock.services.archive_read``) before anything is written, so a malformed or foreign file
is refused with one sentence naming the problem and writes nothing; the memory is then
written in short transactions, so that a turn in another process is never kept waiting long.
A single conversation's export (``memory export ID --format json``) imports too.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, BinaryIO

from tatlock.errors import StoreError, TatlockError, UsageError
from tatlock.services.archive_read import FORMAT, VERSION, Progress, stage
from tatlock.services.base import Core
from tatlock.store.archive import Imported, dump
from tatlock.store.db import as_store_error
from tatlock.store.importing import plan, write
from tatlock.store.staging import Staging
from tatlock.timeutil import iso, local

__all__ = ["MAX_IMPORT_BYTES", "Archive", "ImportStopped", "Imported"]

MAX_IMPORT_BYTES = 512 * 2**20  # what `tatlock memory import` reads at most (the README says so)


class Archive:
    def __init__(self, core: Core):
        self._core = core

    # -- export ----------------------------------------------------------------------------

    def data(self) -> dict[str, Any]:
        """Everything, as the JSON export holds it."""
        rows = dump(self._core.store)
        anchor = self._core.anchor()
        convs = []
        for c in rows["conversations"]:
            # the uid is said once, below
            meta = {k: v for k, v in c["metadata"].items() if k != "uid"}
            convs.append(
                {
                    "uid": c["uid"],
                    "conversation": {
                        k: c[k]
                        for k in (
                            "id",
                            "title",
                            "room_id",
                            "interface",
                            "started_at",
                            "last_activity",
                            "message_count",
                            "compacted_up_to",
                        )
                    }
                    | {"metadata": meta},
                    "participants": c["participants"],
                    "topics": c["topics"],
                    "archive": meta.get("archive")
                    if isinstance(meta.get("archive"), dict)
                    else None,
                    "compacts": c["compacts"],
                    "messages": c["messages"],
                }
            )
        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": iso(),
            "user": self._core.username,
            "anchor": {"id": anchor.id, "name": anchor.name},
            "conversations": convs,
            "variables": rows["variables"],
            "fact_history": rows["fact_history"],
            "cross_summaries": rows["cross_summaries"],
        }

    def export(self, format: str = "json") -> str:
        if format == "json":
            return json.dumps(self.data(), indent=1, ensure_ascii=False) + "\n"
        if format == "md":
            return self._markdown(self.data())
        raise UsageError(f"unknown export format {format!r} (json or md)")

    def _markdown(self, doc: dict[str, Any]) -> str:
        from tatlock.memory.context import speaker
        from tatlock.store.user_records import Message

        lines = [
            f"# Memory of {doc['user']}",
            "",
            f"- exported: {local(doc['exported_at'])}",
            f"- conversations: {len(doc['conversations'])}",
            f"- messages: {sum(len(c['messages']) for c in doc['conversations'])}",
            "",
        ]
        where = {
            m["message_id"]: (c["conversation"]["id"], m["message_number"], m["author_name"])
            for c in doc["conversations"]
            for m in c["messages"]
        }
        if doc["variables"]:
            lines += ["## Personal variables", ""]
            for v in doc["variables"]:
                src = where.get(v["source_message_id"])
                said = (
                    f"stated by {src[2]} in conversation {src[0]}, message #{src[1]}"
                    if src
                    else f"set by {v['author_id'] or 'hand'}"
                )
                lines.append(f"- **{v['key']}**: {v['value']} ({said}, {local(v['updated_at'])})")
            lines.append("")
        if doc["cross_summaries"]:
            lines += ["## Summaries of recent conversations", ""]
            for s in doc["cross_summaries"]:
                sources = ", ".join(map(str, s["source_conversations"])) or "none"
                whom = (
                    f"For conversation {s['conversation_id']}"
                    if s["conversation_id"] is not None
                    else "Prepared for the next new conversation"
                )
                lines += [
                    f"### {whom} ({local(s['created_at'])}, from {sources})",
                    "",
                    s["summary"].strip(),
                    "",
                ]
        for c in doc["conversations"]:
            conv = c["conversation"]
            lines += [
                f"## {conv['title'] or 'Conversation'} ({conv['id']})",
                "",
                f"- room: {conv['room_id']} ({conv['interface']})",
                f"- started: {local(conv['started_at'])}",
                f"- messages: {conv['message_count']}",
            ]
            if c["participants"]:
                lines.append(
                    "- participants: "
                    + ", ".join(
                        f"{p['name']}{' (bot)' if p['is_bot'] else ''}" for p in c["participants"]
                    )
                )
            if c["topics"]:
                lines.append("- topics: " + ", ".join(t["name"] for t in c["topics"]))
            lines.append("")
            if c["archive"]:
                lines += [
                    f"### Archive of messages 1-{c['archive'].get('up_to_message')}",
                    "",
                    str(c["archive"]["summary"]).strip(),
                    "",
                ]
            for cp in c["compacts"]:
                lines += [
                    f"### Summary of messages {cp['from_message']}-{cp['up_to_message']}",
                    "",
                    cp["summary"].strip(),
                    "",
                ]
            for m in c["messages"]:
                said = speaker(Message(**m))
                reply = where.get(m["reply_to"]) if m["reply_to"] else None
                to = f" · replying to #{reply[1]}" if reply else ""
                lines += [
                    f"**{said}** · #{m['message_number']} · {local(m['timestamp'])}{to}",
                    "",
                    m["content"],
                    "",
                ]
        return "\n".join(lines)

    # -- import ----------------------------------------------------------------------------

    def import_(self, text: str, *, name: str = "the file") -> Imported:
        """Restore a JSON export given as text (see :meth:`import_file`)."""
        import io

        return self.import_file(io.BytesIO(text.encode("utf-8", "surrogatepass")), name=name)

    def import_file(
        self, raw: BinaryIO, *, name: str = "the file", progress: Progress | None = None
    ) -> Imported:
        """Restore a JSON export read from ``raw`` (bytes). The whole file is read and checked
        first: a malformed, foreign or diverged file raises UsageError naming the problem, and
        nothing is written. Then it is written in short transactions; should that stop half
        way (a full disk, Ctrl-C), ImportStopped says how far it came: what was written is
        kept, and importing the same file again finishes it."""
        with Staging() as staging:
            stage(raw, name, staging, progress, int(getattr(raw, "size", 0) or 0))
            unchanged = getattr(raw, "unchanged", None)
            if callable(unchanged):
                unchanged()
            store = self._core.store
            try:
                total = plan(store, staging)
            except StoreError as exc:
                raise UsageError(
                    f"{name} cannot be imported: {exc.message}; nothing was imported"
                ) from None
            got = Imported()

            def wrote(n: int) -> None:
                if progress is not None:
                    progress("write", n, total)

            try:
                return write(store, staging, total, got, wrote)
            except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP as the CLI raises them (a
                # KeyboardInterrupt that names its signal and exit code: commands/signals.Stopped)
                signal_name, code = getattr(exc, "name", None), getattr(exc, "code", 130)
                why = f"stopped by {signal_name}" if isinstance(signal_name, str) else "interrupted"
                code = code if isinstance(code, int) else 130
                raise ImportStopped(_stopped(name, got, why), exit_code=code) from None
            except (StoreError, sqlite3.Error) as exc:
                err = as_store_error(exc, store.path) or exc
                raise ImportStopped(
                    _stopped(name, got, getattr(err, "message", str(err))),
                    hint=getattr(err, "hint", None),
                ) from None


class ImportStopped(TatlockError):
    """An import stopped while writing: what was written is kept, and importing the same file
    again finishes it."""

    def __init__(self, message: str, *, hint: str | None = None, exit_code: int = 1):
        super().__init__(message, hint=hint, kind="import")
        self.exit_code = exit_code


def _stopped(name: str, got: Imported, why: str) -> str:
    return (
        f"the import of {name} stopped after {got.written:,} of {got.total:,} new messages ({why}); "
        "what was imported is kept, and importing the same file again finishes it"
    )
