"""`tatlock memory ...`: browse, search, recall, compact, export, stats, forget."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tatlock.commands.common import clip, load_config, out, user_store, username, width
from tatlock.errors import TatlockError, UsageError
from tatlock.timeutil import iso, local


def run(args: argparse.Namespace) -> int:
    cfg = load_config()
    name = username(cfg, args.user)
    store = user_store(cfg, name)
    try:
        return ACTIONS[args.action](cfg, store, args)
    finally:
        store.close()


def _conversations(cfg, store, args) -> int:
    convs = store.conversations(max(1, args.limit))
    if not convs:
        out(f"No conversations yet for {store.username}.")
        return 0
    out(f"{'ID':>5}  {'LAST ACTIVITY':<16} {'IFACE':<5} {'MSGS':>5} {'COMPACTED':>9}  TITLE")
    room = max(20, width() - 50)
    for c in convs:
        out(f"{c.id:>5}  {local(c.last_activity):<16} {c.interface:<5} {c.message_count:>5} "
            f"{c.compacted_up_to:>9}  {clip(c.title or '(untitled)', room)}")
    return 0


def _show(cfg, store, args) -> int:
    from tatlock.memory.context import speaker

    conv = store.conversation(args.id)
    out(f"Conversation {conv.id}: {conv.title or '(untitled)'}")
    out(f"  room {conv.room_id} ({conv.interface}), started {local(conv.started_at)}, "
        f"{conv.message_count} messages, compacted up to {conv.compacted_up_to}")
    parts = store.participants(conv.id)
    if parts:
        out("  participants: " + ", ".join(
            f"{p['name']}{' (bot)' if p['is_bot'] else ''} x{p['message_count']}" for p in parts))
    topics = store.topics(conv.id)
    if topics:
        out("  topics: " + ", ".join(f"{t['name']} ({t['mentions']})" for t in topics[:12]))
    for c in store.compacts(conv.id):
        out(f"\n--- summary of messages {c.from_message}-{c.up_to_message} ({local(c.created_at)}, {c.model}) ---")
        out(c.summary.strip())
    out("")
    for m in store.messages(conv.id):
        meta = m.metadata
        tag = f"  [{meta['route']}{'/' + meta['guard'] if meta.get('guard') else ''}]" if meta.get("route") else ""
        out(f"#{m.message_number} {local(m.timestamp)} {speaker(m)}:{tag}")
        out("  " + m.content.replace("\n", "\n  "))
    return 0


def _print_hits(hits) -> None:
    for h in hits:
        where = (f"conversation {h.conversation_id} #{h.message_number} {h.author_name}"
                 if h.kind == "message" else
                 f"conversation {h.conversation_id} summary {h.from_message}-{h.up_to_message}")
        out(f"{local(h.timestamp)}  {where}")
        out("  " + clip(h.content, width() - 4))


def _search(cfg, store, args) -> int:
    from tatlock.memory.search import search

    query = " ".join(args.query).strip()
    if not query:
        raise UsageError("give words to search for")
    hits = search(store, query, limit=max(1, args.limit))
    if not hits:
        out(f"Nothing found for {query!r}.")
        return 0
    _print_hits(hits)
    return 0


def _range(text: str | None, which: int):
    from tatlock.tools.dates import parse_range

    if not text:
        return None
    import datetime as dt

    got = parse_range(text, dt.datetime.now().astimezone())
    if got is None:
        raise UsageError(f"cannot read {text!r} as a date (try 2026-03-01, 'last week', 'yesterday')")
    return got[which]


def _recall(cfg, store, args) -> int:
    from tatlock.memory.search import search

    start, end = _range(args.since, 0), _range(args.until, 1)
    if start and end and end <= start:
        raise UsageError("--until is before --since")
    query = " ".join(args.query).strip()
    if not (query or start or end or args.topic):
        raise UsageError("give keywords, --since/--until, or --topic")
    hits = search(store, query, limit=max(1, args.limit), start=iso(start) if start else None,
                  end=iso(end) if end else None, topic=args.topic)
    if not hits:
        out("Nothing found.")
        if args.topic:
            known = [t["name"] for t in store.topics()[:15]]
            if known:
                out("Known topics: " + ", ".join(known))
        return 0
    _print_hits(hits)
    return 0


def _compact(cfg, store, args) -> int:
    from tatlock.llm.base import make_backend
    from tatlock.memory.compaction import compact_due, next_block

    conv = store.conversation(args.id)
    interval = int(cfg.effective("compact_interval"))
    if next_block(store, conv.id, interval) is None:
        covered = store.compacts(conv.id)[-1].up_to_message if store.compacts(conv.id) else 0
        out(f"Nothing to compact: conversation {conv.id} has {conv.message_count} messages, "
            f"{covered} compacted, and blocks are {interval} messages.")
        return 0
    backend = make_backend(cfg, args.model)
    failures: list[str] = []

    def emit(ev) -> None:
        kind = type(ev).__name__
        if kind == "CompactionStarted":
            print(f"compacting messages {ev.from_message}-{ev.up_to_message}…", file=sys.stderr, flush=True)
        elif kind == "CompactionFinished":
            out(f"compacted messages {ev.from_message}-{ev.up_to_message} in {ev.ms / 1000:.1f} s")
        elif kind == "CompactionFailed":
            failures.append(ev.reason)

    from tatlock.butler import MAX_TOKENS

    opts = {"num_predict": MAX_TOKENS["summary"]}
    if cfg.backend == "ollama":
        opts["num_ctx"] = int(cfg.effective("context_size"))
    done = compact_due(store, backend, conv.id, interval=interval, emit=emit,
                       budget_tokens=int(cfg.effective("context_size")), options=opts)
    if failures:
        raise TatlockError(f"compaction failed: {failures[0]} ({len(done)} block(s) compacted before)")
    return 0


def _export(cfg, store, args) -> int:
    from tatlock.memory.context import speaker

    conv = store.conversation(args.id)
    msgs = store.messages(conv.id)
    compacts = store.compacts(conv.id)
    if args.format == "json":
        data = {
            "conversation": {**conv.__dict__},
            "participants": [dict(p) for p in store.participants(conv.id)],
            "compacts": [c.__dict__ for c in compacts],
            "messages": [m.__dict__ for m in msgs],
        }
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        lines = [f"# {conv.title or 'Conversation'} ({conv.id})", "",
                 f"- room: {conv.room_id} ({conv.interface})", f"- started: {local(conv.started_at)}",
                 f"- messages: {conv.message_count}", ""]
        for c in compacts:
            lines += [f"## Summary of messages {c.from_message}-{c.up_to_message}", "", c.summary.strip(), ""]
        lines += ["## Messages", ""]
        for m in msgs:
            lines += [f"**{speaker(m)}** · #{m.message_number} · {local(m.timestamp)}", "", m.content, ""]
        text = "\n".join(lines)
    if args.output:
        from tatlock.commands.admin import _write_atomic

        _write_atomic(Path(args.output), text)
        out(f"exported conversation {conv.id} to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def _stats(cfg, store, args) -> int:
    q = store.conn.execute
    convs, first, last = q("SELECT count(*), min(started_at), max(last_activity) FROM conversations").fetchone()
    msgs = q("SELECT count(*) FROM conversation_messages").fetchone()[0]
    compacts = q("SELECT count(*), coalesce(sum(up_to_message - from_message + 1), 0) FROM conversation_compacts"
                 ).fetchone()
    size = sum(p.stat().st_size for p in store.path.parent.glob(store.path.name + "*"))
    out(f"user:           {store.username}")
    out(f"database:       {store.path} ({size / 1024:.0f} KiB)")
    out(f"conversations:  {convs}" + (f" ({local(first)} to {local(last)})" if convs else ""))
    out(f"messages:       {msgs}")
    out(f"compacts:       {compacts[0]} covering {compacts[1]} messages")
    out(f"variables:      {len(store.vars())}")
    topics = store.topics()
    out(f"topics:         {len(topics)}" + (": " + ", ".join(t['name'] for t in topics[:8]) if topics else ""))
    return 0


def _forget(cfg, store, args) -> int:
    conv = store.conversation(args.id)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("forgetting deletes for good: add --yes to confirm")
        answer = input(f"Forget conversation {conv.id} ({conv.message_count} messages, "
                       f"{conv.title or 'untitled'})? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            out("Kept.")
            return 0
    # personal facts learnt in it are derived from it too
    facts = store.conn.execute(
        "DELETE FROM personal_variables WHERE source_message_id IN"
        " (SELECT message_id FROM conversation_messages WHERE conversation_id = ?) RETURNING key",
        (conv.id,)).fetchall()
    store.delete_conversation(conv.id)
    # summaries of recent conversations that drew on it go too
    gone = store.conn.execute(
        "DELETE FROM cross_conversation_summaries WHERE EXISTS (SELECT 1 FROM json_each(source_conversations)"
        " WHERE value = ?)", (conv.id,)).rowcount
    md = cfg.paths.user_dir(store.username) / "cross_conversation_summary.md"
    if gone and md.exists():
        md.unlink()
    log = cfg.paths.conversation_logs / f"{store.username}-{conv.id}.jsonl"
    log.unlink(missing_ok=True)
    extra = []
    if facts:
        extra.append(f"the personal variables learnt in it ({', '.join(r[0] for r in facts)})")
    if gone:
        extra.append(f"{gone} summary(ies) of recent conversations that quoted it")
    out(f"Forgot conversation {conv.id}: its messages, summaries, topics and debug log"
        + (", and " + " and ".join(extra) if extra else "") + ".")
    return 0


ACTIONS = {"conversations": _conversations, "show": _show, "search": _search, "recall": _recall,
           "compact": _compact, "export": _export, "stats": _stats, "forget": _forget}
