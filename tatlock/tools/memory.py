"""Memory and personal-variable tools: thin views over the user's store and the one search."""

from __future__ import annotations

from typing import Any

from tatlock.timeutil import iso, local
from tatlock.tools.base import ToolContext


def _store(ctx: ToolContext):
    if ctx.user_store is None:
        return None
    return ctx.user_store


NO_MEMORY = {"error": "No memory is open for this user."}


def _limit(value: Any, default: int = 10, top: int = 50) -> int:
    try:
        return max(1, min(top, int(value)))
    except (TypeError, ValueError):
        return default


def _hit(h, withdrawn: dict[int, str] | None = None) -> dict[str, Any]:
    if h.kind == "compact":
        return {
            "kind": "summary",
            "conversation_id": h.conversation_id,
            "messages": f"{h.from_message}-{h.up_to_message}",
            "when": local(h.timestamp),
            "text": h.content,
        }
    out = {
        "kind": "message",
        "conversation_id": h.conversation_id,
        "message": h.message_number,
        "author": h.author_name,
        "when": local(h.timestamp),
        "text": h.content,
    }
    if h.why and not h.why.startswith("has "):  # a hit without the words says why it is one
        out["why"] = h.why
    how = (withdrawn or {}).get(h.message_id)
    if how:  # an answer given again or a question edited since: found, but it no longer stands
        out["superseded"] = f"{how} later: this no longer stands"
    return out


def _hits(store, hits: list) -> list[dict[str, Any]]:
    from tatlock.store.revisions import withdrawn

    gone = withdrawn(store, [h.message_id for h in hits if h.kind != "compact"])
    return [_hit(h, gone) for h in hits]


def _asked(ctx: ToolContext) -> tuple[int, ...]:
    """The message being answered: never a hit of the butler's own recall (it would rank first,
    having every word of the question)."""
    mid = ctx.extra.get("message_id")
    return (int(mid),) if isinstance(mid, int) else ()


def recall_memories(*, ctx: ToolContext, keyword: str, limit: int = 10) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    if not str(keyword or "").strip():
        return {"error": "Give a keyword to look for."}
    from tatlock.memory.search import search
    from tatlock.memory.vectors import semantic_for

    hits = search(
        store,
        str(keyword),
        limit=_limit(limit),
        semantic=semantic_for(ctx.config),
        exclude=_asked(ctx),
    )
    return {"keyword": keyword, "count": len(hits), "results": _hits(store, hits)}


def recall_memories_with_time(
    *, ctx: ToolContext, start: str, end: str = "", keyword: str = ""
) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    from tatlock.memory.search import search
    from tatlock.memory.vectors import semantic_for
    from tatlock.tools.dates import format_range, parse_range

    now = ctx.now()
    first = parse_range(str(start or ""), now)
    if first is None:
        return {"error": f"I could not read {start!r} as a date or period."}
    lo, hi = first
    if str(end or "").strip():
        second = parse_range(str(end), now)
        if second is None:
            return {"error": f"I could not read {end!r} as a date or period."}
        hi = second[1]
    if hi <= lo:
        return {"error": "The end of the period is before its start."}
    hits = search(
        store,
        str(keyword or ""),
        limit=20,
        start=iso(lo),
        end=iso(hi),
        include_compacts=False,
        semantic=semantic_for(ctx.config) if str(keyword or "").strip() else None,
        exclude=_asked(ctx),
    )
    return {
        "period": format_range(lo, hi),
        "keyword": keyword or None,
        "count": len(hits),
        "results": _hits(store, hits),
    }


def recall_topic(*, ctx: ToolContext, topic: str, limit: int = 10) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    from tatlock.memory.search import search

    hits = search(
        store, "", topic=str(topic or "").strip(), limit=_limit(limit), exclude=_asked(ctx)
    )
    known = [r["name"] for r in store.topics()[:20]]
    return {
        "topic": topic,
        "count": len(hits),
        "results": _hits(store, hits),
        "known_topics": known if not hits else None,
    }


def list_conversations(*, ctx: ToolContext, limit: int = 10) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    convs = store.conversations(_limit(limit))
    return {
        "conversations": [
            {
                "id": c.id,
                "title": c.title,
                "interface": c.interface,
                "started": local(c.started_at),
                "last_activity": local(c.last_activity),
                "messages": c.message_count,
                "current": c.id == ctx.conversation_id,
            }
            for c in convs
        ]
    }


def conversation_stats(*, ctx: ToolContext) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    from tatlock.store.stats import memory_stats

    stats = memory_stats(store)
    return {
        "conversations": stats.conversations,
        "messages": stats.messages,
        "summaries": stats.compacts,
        "first_conversation": local(stats.first_started) if stats.first_started else None,
        "last_activity": local(stats.last_activity) if stats.last_activity else None,
        "top_topics": [
            {"topic": r["name"], "mentions": r["mentions"]} for r in store.topics()[:10]
        ],
    }


def get_conversation_summary(*, ctx: ToolContext, conversation_id: int | None = None) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    cid = conversation_id or ctx.conversation_id
    if not cid:
        return {"error": "Which conversation? Give its id (see list_conversations)."}
    try:
        conv = store.conversation(int(cid))
    except Exception:
        return {"error": f"There is no conversation {cid}."}
    compacts = store.compacts(conv.id)
    out: dict[str, Any] = {
        "id": conv.id,
        "title": conv.title,
        "messages": conv.message_count,
        "summaries": [
            {"messages": f"{c.from_message}-{c.up_to_message}", "summary": c.summary}
            for c in compacts
        ],
    }
    if not compacts:
        # nothing summarised yet: the latest messages stand in
        recent = store.messages(conv.id, max(1, conv.message_count - 9))
        out["recent_messages"] = [
            {"author": m.author_name, "text": m.content[:400]} for m in recent
        ]
    return out


def _owner(ctx: ToolContext) -> str:
    cfg = ctx.config
    name = getattr(cfg, "anchor_name", None) if cfg is not None else None
    aid = (getattr(cfg, "anchor_id", None) if cfg is not None else None) or ctx.username
    return name or aid.replace("-", " ").replace("_", " ").title()


def _matching(store, ctx: ToolContext, text: str) -> list[dict[str, Any]]:
    """The kept facts that answer ``text`` (the question when the model gave no usable key)."""
    from tatlock.memory import facts

    owner = _owner(ctx)
    found = facts.answering(store.vars(), text, owner=owner)
    return [
        {
            "fact": facts.line(f, owner),
            "key": f.key,
            "said_by": f.author_name or f.author_id,
            "when": local(f.updated_at),
        }
        for f in found
    ]


def get_personal_variable(*, ctx: ToolContext, key: str = "") -> dict:
    """One kept fact by its key; without a key, or with one nothing is kept under, the kept facts
    that answer the question (a model that asks for "sister" finds "sister.name")."""
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    value = None
    if str(key or "").strip():
        try:
            value = store.get_var(str(key))
        except Exception:
            value = None
    if value is not None:
        return {"key": key, "value": value}
    question = " ".join(
        x for x in (str(key or ""), str(ctx.extra.get("question") or "")) if x.strip()
    )
    matches = _matching(store, ctx, question) if question else []
    if matches:
        return {"key": key or None, "kept_facts": matches}
    if str(key or "").strip():
        return {"key": key, "value": None, "note": f"Nothing is remembered for {key!r}."}
    return {"value": None, "note": "Nothing kept in memory answers this."}


def set_personal_variable(*, ctx: ToolContext, key: str, value: str) -> dict:
    store = _store(ctx)
    if store is None:
        return NO_MEMORY
    if not str(key or "").strip() or not str(value or "").strip():
        return {"error": "Both the name and the value of the fact are needed."}
    message_id = ctx.extra.get("message_id")
    value = str(value).strip()
    # the fact may have been kept from this very message already (memory/fact_extract.py): say so,
    # keep one
    for v in store.vars():
        if (
            message_id is not None
            and v.source_message_id == message_id
            and v.value.casefold() == value.casefold()
        ):
            return {
                "key": v.key,
                "value": v.value,
                "saved": True,
                "note": "already kept from this message",
            }
    # attributed to whoever said it, not to the room
    kept = store.set_var(
        str(key), value, author_id=ctx.author_id or ctx.username, source_message_id=message_id
    )
    return {"key": kept.fact.key, "value": kept.fact.value, "saved": True}
