"""`tatlock memory ...`: browse, search, recall, compact, export, import, stats, forget (views over
``butler.conversations`` and ``butler.archive``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tatlock.commands.common import clip, confirm, open_butler, out, width, write_atomic, write_text
from tatlock.errors import UsageError
from tatlock.timeutil import local


def run(args: argparse.Namespace) -> int:
    with open_butler(args.user, model=getattr(args, "model", None)) as butler:
        return int(ACTIONS[args.action](butler, args))


def _conversations(butler, args) -> int:
    convs = butler.conversations.list(max(1, args.limit))
    if not convs:
        out(f"No conversations yet for {butler.username}.")
        return 0
    out(f"{'ID':>5}  {'LAST ACTIVITY':<16} {'ROOM':<12} {'MSGS':>5} {'COMPACTED':>9}  TITLE")
    room = max(20, width() - 58)
    for conv in convs:
        out(
            f"{conv.id:>5}  {local(conv.last_activity):<16} {clip(conv.room_id, 12):<12} "
            f"{conv.message_count:>5} "
            f"{conv.compacted_up_to:>9}  {clip(conv.title or '(untitled)', room)}"
        )
    return 0


def _show(butler, args) -> int:
    from tatlock.memory.context import speaker

    d = butler.conversations.get(args.id)
    conv = d.conversation
    out(f"Conversation {conv.id}: {conv.title or '(untitled)'}")
    out(
        f"  room {conv.room_id} ({conv.interface}), started {local(conv.started_at)}, "
        f"{conv.message_count} messages, compacted up to {conv.compacted_up_to}"
    )
    if d.participants:
        out(
            "  participants: "
            + ", ".join(
                f"{p.name}{' (bot)' if p.is_bot else ''} x{p.message_count}" for p in d.participants
            )
        )
    if d.topics:
        out("  topics: " + ", ".join(f"{name} ({n})" for name, n in d.topics[:12]))
    for c in d.compacts:
        out(
            f"\n--- summary of messages {c.from_message}-{c.up_to_message} ({local(c.created_at)}, "
            f"{c.model}) ---"
        )
        out(c.summary.strip())
    out("")
    for m in d.messages:
        meta = m.metadata
        tag = (
            f"  [{meta['route']}{'/' + meta['guard'] if meta.get('guard') else ''}]"
            if meta.get("route")
            else ""
        )
        if meta.get("cancelled"):
            tag += "  [cancelled]"
        elif meta.get("failed"):
            tag += "  [failed: the model stopped answering]"
        if meta.get("superseded"):
            tag += f"  [superseded: {meta['superseded'].get('how', 'replaced')}]"
        out(f"#{m.message_number} {local(m.timestamp)} {speaker(m)}:{tag}")
        out("  " + (m.content.replace("\n", "\n  ") if m.content else "(nothing was said)"))
    return 0


def _print_hits(hits: list[Any]) -> None:
    for hit in hits:
        where = (
            f"conversation {hit.conversation_id} #{hit.message_number} {hit.author}"
            if hit.kind == "message"
            else f"conversation {hit.conversation_id} summary {hit.messages[0]}-{hit.messages[1]}"
        )
        out(f"{local(hit.timestamp)}  {where}" + (f"  ({hit.why})" if hit.why else ""))
        out("  " + clip(hit.snippet, width() - 4))


def _search(butler, args) -> int:
    query = " ".join(args.query).strip()
    if not query:
        raise UsageError("give words to search for")
    hits = butler.conversations.search(query, limit=max(1, args.limit))
    if not hits:
        out(f"Nothing found for {query!r}.")
        return 0
    _print_hits(hits)
    return 0


def _recall(butler, args) -> int:
    query = " ".join(args.query).strip()
    if not (query or args.since or args.until or args.topic):
        raise UsageError("give keywords, --since/--until, or --topic")
    hits = butler.conversations.recall(
        query, limit=max(1, args.limit), since=args.since, until=args.until, topic=args.topic
    )
    if not hits:
        out("Nothing found.")
        if args.topic:
            known = [name for name, _ in butler.conversations.topics()[:15]]
            if known:
                out("Known topics: " + ", ".join(known))
        return 0
    _print_hits(hits)
    return 0


def _compact(butler, args) -> int:
    from tatlock.events import CompactionFinished, CompactionStarted

    conv = butler.conversations.get(args.id, limit=0).conversation
    if butler.conversations.due(conv.id) is None:
        interval = butler.cfg.effective("compact_interval")
        out(
            f"Nothing to compact: conversation {conv.id} has {conv.message_count} messages, "
            f"{conv.compacted_up_to} compacted, and blocks are {interval} messages."
        )
        return 0

    def show(ev) -> None:
        if isinstance(ev, CompactionStarted) and ev.conversation_id == conv.id:
            print(
                f"compacting messages {ev.from_message}-{ev.up_to_message}…",
                file=sys.stderr,
                flush=True,
            )
        elif isinstance(ev, CompactionFinished) and ev.conversation_id == conv.id:
            how = {
                "repaired": " (the model's second try, in the required shape)",
                "extract": " (its facts taken without the model: the model's summary was unusable)",
            }
            out(
                f"compacted messages {ev.from_message}-{ev.up_to_message} in {ev.ms / 1000:.1f} s"
                + how.get(ev.how, "")
            )

    unsubscribe = butler.subscribe(show)
    try:
        butler.conversations.compact(conv.id, model=args.model)
    finally:
        unsubscribe()
    return 0


def _export(butler, args) -> int:
    if args.all == (args.id is not None):
        raise UsageError("give a conversation ID, or --all for the whole memory")
    if args.all:
        text = butler.archive.export(args.format or "json")
    else:
        text = butler.conversations.export(args.id, args.format or "md")
    if args.output:
        write_atomic(Path(args.output), text, butler.paths.folders)
        out(
            f"exported "
            f"{'the whole memory of ' + butler.username if args.all else f'conversation {args.id}'}"
            f" to {args.output}"
        )
    else:
        write_text(text)
    return 0


def _import(butler, args) -> int:
    from tatlock.files import open_input
    from tatlock.services.archive import MAX_IMPORT_BYTES

    name = "stdin" if args.file == "-" else args.file
    with (
        open_input(args.file, limit=MAX_IMPORT_BYTES, what="an import") as raw,
        _Progress(name) as progress,
    ):
        got = butler.archive.import_file(raw, name=name, progress=progress)
    if not got.changed:
        out(
            f"Nothing to import: all {got.present} conversation(s) in {args.file} are here already."
        )
        return 0
    parts = [f"{got.conversations} new conversation(s)"]
    if got.extended:
        parts.append(f"{got.extended} continued")
    parts.append(f"{got.messages} message(s)")
    if got.compacts:
        parts.append(f"{got.compacts} compact(s)")
    if got.variables:
        parts.append(f"{got.variables} personal variable(s)")
    if got.summaries:
        parts.append(f"{got.summaries} summary(ies) of recent conversations")
    out(
        f"Imported into {butler.username}'s memory: "
        + ", ".join(parts)
        + (f"; {got.present} conversation(s) were here already." if got.present else ".")
    )
    return 0


class _Progress:
    """Progress of a long import on stderr, when it is a terminal: one line, rewritten at most
    a few times a second, cleared at the end."""

    def __init__(self, name: str):
        self.name = name
        self.shown = False
        self.last = 0.0
        self.live = sys.stderr.isatty()

    def __call__(self, phase: str, done: int, total: int) -> None:
        import time

        now = time.monotonic()
        if not self.live or now - self.last < 0.25:
            return
        self.last = now
        if phase == "check":
            line = f"checking {self.name}: {done / 2**20:,.0f} of {total / 2**20:,.0f} MB"
        else:
            line = f"importing: {done:,} of {total:,} messages"
        sys.stderr.write("\r\x1b[2K" + clip(line, width() - 1))
        sys.stderr.flush()
        self.shown = True

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


def _source(butler, f: Any) -> str:
    """Where a fact came from, in words."""
    who = f.author_name or f.author_id or "someone"
    if f.source_message_id is None:
        return f"set by hand by {who}" if f.author_id else "set by hand"
    how = "heard from" if f.origin == "heard" else "saved by the model for"
    return f"{how} {who}, message {f.source_message_id}"


def _facts(butler, args) -> int:
    v = butler.facts
    if args.fact_action == "edit":
        if not args.key or args.value is None:
            raise UsageError(
                "`memory facts edit` takes a key and a value: tatlock memory facts edit KEY VALUE"
            )
        before = v.value(args.key)
        item = v.edit(args.key, args.value)
        out(
            f"{item.key} = {item.value}"
            + (f" (was {before}; kept as history)" if before and before != item.value else "")
        )
        return 0
    if args.fact_action == "forget":
        if not args.key:
            raise UsageError("`memory facts forget` takes a key: tatlock memory facts forget KEY")
        gone = v.forget(args.key)
        out(f"Forgot {gone.key} ({v.line(gone)}) and its earlier values.")
        return 0
    items = v.list()
    if args.json:
        import dataclasses
        import json

        print(
            json.dumps(
                {
                    "facts": [dataclasses.asdict(f) for f in items],
                    "history": [dataclasses.asdict(p) for p in v.history()],
                },
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    if not items:
        out(
            f"Nothing kept for {butler.username} yet: what you tell tatlock about yourself and your "
            f"world is kept "
            "here (`tatlock var set KEY VALUE` sets one by hand)."
        )
        return 0
    past: dict[str, list[Any]] = {}
    for p in v.history():
        past.setdefault(p.key, []).append(p)
    owner = butler.anchor().name
    out(
        f"What tatlock knows ({len(items)} fact{'s' if len(items) != 1 else ''} for "
        f"{butler.username}; "
        "`tatlock memory facts edit KEY VALUE` changes one, `tatlock memory facts forget KEY` "
        "forgets one)"
    )
    group = None
    for f in sorted(items, key=lambda f: (f.about != "owner", f.about, f.key)):
        subject = owner + f.about[5:] if f.about.startswith("owner") else f.about
        if subject != group:
            group = subject
            out(f"\n{subject}")
        out(f"  {f.key} = {clip(f.value, max(30, width() - len(f.key) - 8))}")
        out(f"      {f.attribute or f.key}; {_source(butler, f)}, {local(f.updated_at)}")
        for p in past.get(f.key, [])[: None if args.history else 1]:
            out(
                f"      was {clip(p.value, 60)} (until {local(p.replaced_at)}; "
                f"{_source(butler, p)})"
            )
    return 0


def _stats(butler, args) -> int:
    s = butler.conversations.stats()
    out(f"user:           {butler.username}")
    out(f"database:       {s.database} ({s.database_bytes / 1024:.0f} KiB)")
    out(
        f"conversations:  {s.conversations}"
        + (f" ({local(s.first)} to {local(s.last)})" if s.conversations else "")
    )
    out(f"messages:       {s.messages}")
    out(f"compacts:       {s.compacts} covering {s.compacted_messages} messages")
    out(f"variables:      {s.variables}")
    out(
        f"topics:         {len(s.topics)}"
        + (": " + ", ".join(n for n, _ in s.topics[:8]) if s.topics else "")
    )
    return 0


def _forget(butler, args) -> int:
    conv = butler.conversations.get(args.id, limit=0).conversation
    if not confirm(
        f"Forget conversation {conv.id} ({conv.message_count} messages, "
        f"{conv.title or 'untitled'})?",
        yes=args.yes,
    ):
        out("Kept.")
        return 0
    gone = butler.conversations.forget(conv.id)
    extra = []
    if gone.variables:
        extra.append(f"the facts learnt only in it ({', '.join(gone.variables)})")
    if getattr(gone, "restored", None):
        extra.append(f"its corrections (the earlier value of {', '.join(gone.restored)} is back)")
    if gone.cross_summaries:
        extra.append(f"{gone.cross_summaries} summary(ies) of recent conversations that quoted it")
    out(
        f"Forgot conversation {conv.id}: its messages, summaries, topics and debug log"
        + (", and " + " and ".join(extra) if extra else "")
        + "."
    )
    return 0


ACTIONS = {
    "conversations": _conversations,
    "show": _show,
    "search": _search,
    "recall": _recall,
    "compact": _compact,
    "export": _export,
    "import": _import,
    "stats": _stats,
    "forget": _forget,
    "facts": _facts,
}
