"""The whole memory as one file, and back: ``butler.archive.export("json"|"md")``, ``import_(text)``.

The JSON export holds everything the memory knows: every conversation with its messages
(authors, reply links), participants, compacts, archive and topics, the personal variables
with who stated them and where, and the summaries of recent conversations. Importing it is
idempotent (see ``tatlock.store.archive``) and all-or-nothing: the file is read and checked
in full before one transaction writes it, and a malformed or foreign file is refused with one
sentence naming the problem. A single conversation's export (``memory export ID --format
json``) imports too.
"""

from __future__ import annotations

import json
from typing import Any

from tatlock.errors import StoreError, UsageError
from tatlock.services.base import Core
from tatlock.store.archive import Imported, conversation_uid, dump, load
from tatlock.timeutil import iso, local

FORMAT = "tatlock-memory"
VERSION = 1
ROLES = ("user", "assistant", "system", "tool")
MAX_TEXT = 2_000_000  # characters in one message or summary: more is not a conversation


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
            meta = {k: v for k, v in c["metadata"].items() if k != "uid"}  # the uid is said once, below
            convs.append({
                "uid": c["uid"],
                "conversation": {k: c[k] for k in ("id", "title", "room_id", "interface", "started_at",
                                                   "last_activity", "message_count", "compacted_up_to")}
                | {"metadata": meta},
                "participants": c["participants"],
                "topics": c["topics"],
                "archive": meta.get("archive") if isinstance(meta.get("archive"), dict) else None,
                "compacts": c["compacts"],
                "messages": c["messages"],
            })
        return {"format": FORMAT, "version": VERSION, "exported_at": iso(), "user": self._core.username,
                "anchor": {"id": anchor.id, "name": anchor.name}, "conversations": convs,
                "variables": rows["variables"], "cross_summaries": rows["cross_summaries"]}

    def export(self, format: str = "json") -> str:  # noqa: A002 - the CLI's word
        if format == "json":
            return json.dumps(self.data(), indent=1, ensure_ascii=False) + "\n"
        if format == "md":
            return self._markdown(self.data())
        raise UsageError(f"unknown export format {format!r} (json or md)")

    def _markdown(self, doc: dict[str, Any]) -> str:
        from tatlock.memory.context import speaker
        from tatlock.store.user_records import Message

        lines = [f"# Memory of {doc['user']}", "", f"- exported: {local(doc['exported_at'])}",
                 f"- conversations: {len(doc['conversations'])}",
                 f"- messages: {sum(len(c['messages']) for c in doc['conversations'])}", ""]
        where = {m["message_id"]: (c["conversation"]["id"], m["message_number"], m["author_name"])
                 for c in doc["conversations"] for m in c["messages"]}
        if doc["variables"]:
            lines += ["## Personal variables", ""]
            for v in doc["variables"]:
                src = where.get(v["source_message_id"])
                said = (f"stated by {src[2]} in conversation {src[0]}, message #{src[1]}" if src
                        else f"set by {v['author_id'] or 'hand'}")
                lines.append(f"- **{v['key']}**: {v['value']} ({said}, {local(v['updated_at'])})")
            lines.append("")
        if doc["cross_summaries"]:
            lines += ["## Summaries of recent conversations", ""]
            for s in doc["cross_summaries"]:
                sources = ", ".join(map(str, s["source_conversations"])) or "none"
                lines += [f"### For conversation {s['conversation_id']} ({local(s['created_at'])}, from {sources})",
                          "", s["summary"].strip(), ""]
        for c in doc["conversations"]:
            conv = c["conversation"]
            lines += [f"## {conv['title'] or 'Conversation'} ({conv['id']})", "",
                      f"- room: {conv['room_id']} ({conv['interface']})", f"- started: {local(conv['started_at'])}",
                      f"- messages: {conv['message_count']}"]
            if c["participants"]:
                lines.append("- participants: " + ", ".join(
                    f"{p['name']}{' (bot)' if p['is_bot'] else ''}" for p in c["participants"]))
            if c["topics"]:
                lines.append("- topics: " + ", ".join(t["name"] for t in c["topics"]))
            lines.append("")
            if c["archive"]:
                lines += [f"### Archive of messages 1-{c['archive'].get('up_to_message')}", "",
                          str(c["archive"]["summary"]).strip(), ""]
            for cp in c["compacts"]:
                lines += [f"### Summary of messages {cp['from_message']}-{cp['up_to_message']}", "",
                          cp["summary"].strip(), ""]
            for m in c["messages"]:
                said = speaker(Message(**m))
                reply = where.get(m["reply_to"]) if m["reply_to"] else None
                to = f" · replying to #{reply[1]}" if reply else ""
                lines += [f"**{said}** · #{m['message_number']} · {local(m['timestamp'])}{to}", "", m["content"], ""]
        return "\n".join(lines)

    # -- import ----------------------------------------------------------------------------

    def import_(self, text: str, *, name: str = "the file") -> Imported:
        """Restore a JSON export (all of it or nothing). Raises UsageError naming the problem."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{name} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
        except RecursionError:
            raise UsageError(f"{name} is not a tatlock memory export (it is nested too deeply)") from None
        convs, variables, summaries = read_document(doc, name)
        try:
            return load(self._core.store, convs, variables, summaries)
        except StoreError as exc:
            raise UsageError(f"{name} cannot be imported: {exc.message}; nothing was imported") from None


# -- checking a file -------------------------------------------------------------------------


class _Bad(Exception):
    pass


def read_document(doc: Any, name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The file's conversations, variables and summaries, checked field by field."""
    if isinstance(doc, dict) and isinstance(doc.get("conversation"), dict) and "messages" in doc:
        doc = {"format": FORMAT, "version": VERSION, "conversations": [doc]}  # one conversation's export
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        what = f"a {doc.get('format')!r} file" if isinstance(doc, dict) and isinstance(doc.get("format"), str) else None
        raise UsageError(f"{name} is not a tatlock memory export"
                         + (f" (it is {what})" if what else ' (no "format": "tatlock-memory")'))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise UsageError(f"{name} has no valid export version")
    if version > VERSION:
        raise UsageError(f"{name} is a version {version} export, newer than this tatlock reads ({VERSION}): "
                         "upgrade tatlock")
    where = "conversations"
    try:
        convs = [_conversation(c, f"conversations[{i}]") for i, c in enumerate(_list(doc, "conversations", where))]
        seen: dict[str, int] = {}
        ids: set[int] = set()
        for c in convs:
            if c["uid"] in seen or c["id"] in ids:
                raise _Bad(f"conversation {c['id']} appears twice")
            seen[c["uid"]] = c["id"]
            ids.add(c["id"])
        where = "variables"
        variables = [_variable(v, f"variables[{i}]") for i, v in enumerate(_list(doc, "variables", where, []))]
        where = "cross_summaries"
        summaries = [_summary(s, f"cross_summaries[{i}]")
                     for i, s in enumerate(_list(doc, "cross_summaries", where, []))]
    except _Bad as exc:
        raise UsageError(f"{name} is not a valid tatlock memory export: {exc}") from None
    return convs, variables, summaries


def _list(d: dict[str, Any], key: str, where: str, default: Any = None) -> list[Any]:
    value = d.get(key, default)
    if not isinstance(value, list):
        raise _Bad(f"{where} must be a list")
    return value


def _field(d: Any, key: str, kind: Any, where: str, *, optional: bool = False, default: Any = None) -> Any:
    if not isinstance(d, dict):
        raise _Bad(f"{where} must be an object")
    if key not in d or d[key] is None:
        if optional:
            return default
        raise _Bad(f"{where} has no {key!r}")
    value = d[key]
    if kind is bool:
        ok = isinstance(value, bool) or (type(value) is int and value in (0, 1))
    else:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        names = {str: "text", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}
        raise _Bad(f"{where}.{key} must be {names.get(kind, kind.__name__)}")
    if kind is int and not (0 < value < 2**63 if key.endswith("id") or key == "reply_to" else 0 <= value < 2**63):
        raise _Bad(f"{where}.{key} is out of range")
    if kind is str and (len(value) > MAX_TEXT or "\x00" in value):
        raise _Bad(f"{where}.{key} is too long or holds a NUL character")
    if kind is bool:
        return bool(value)
    return value


def _time(d: Any, key: str, where: str, *, optional: bool = False) -> str | None:
    import datetime as dt

    value = _field(d, key, str, where, optional=optional)
    if value is not None:
        try:
            dt.datetime.fromisoformat(value)
        except ValueError:
            raise _Bad(f"{where}.{key} is not a date and time ({value[:40]!r})") from None
    return value


def _conversation(entry: Any, where: str) -> dict[str, Any]:
    conv = _field(entry, "conversation", dict, where)
    w = f"{where}.conversation"
    c = {"id": _field(conv, "id", int, w), "title": _field(conv, "title", str, w, optional=True),
         "room_id": _field(conv, "room_id", str, w), "interface": _field(conv, "interface", str, w),
         "started_at": _time(conv, "started_at", w), "last_activity": _time(conv, "last_activity", w),
         "metadata": _field(conv, "metadata", dict, w, optional=True, default={})}
    if not c["room_id"].strip() or not c["interface"].strip():
        raise _Bad(f"{w} has an empty room or interface")
    archive = entry.get("archive")
    if archive is not None and not isinstance(archive, dict):
        raise _Bad(f"{where}.archive must be an object")
    if archive:
        c["metadata"] = {**c["metadata"], "archive": archive}
    uid = entry.get("uid")
    if uid is not None and (not isinstance(uid, str) or not uid.strip() or len(uid) > 200):
        raise _Bad(f"{where}.uid must be a short text")
    c["uid"] = uid or conversation_uid(c)
    c["messages"] = [_message(m, f"{where}.messages[{i}]") for i, m in enumerate(_list(entry, "messages", where))]
    numbers = [m["message_number"] for m in c["messages"]]
    if numbers != list(range(1, len(numbers) + 1)):
        raise _Bad(f"{where}.messages are not numbered 1, 2, 3... in order")
    if len({m["message_id"] for m in c["messages"]}) != len(numbers):
        raise _Bad(f"{where}.messages repeat a message_id")
    c["compacts"] = [_compact(x, f"{where}.compacts[{i}]", len(numbers))
                     for i, x in enumerate(_list(entry, "compacts", where, []))]
    c["topics"] = [_topic(t, f"{where}.topics[{i}]") for i, t in enumerate(_list(entry, "topics", where, []))]
    for t in c["topics"]:  # a single conversation's export gives only names and mentions
        t["first_seen"] = t["first_seen"] or c["started_at"]
        t["last_seen"] = t["last_seen"] or c["last_activity"]
    return c


def _message(m: Any, where: str) -> dict[str, Any]:
    out = {"message_id": _field(m, "message_id", int, where), "message_number": _field(m, "message_number", int, where),
           "role": _field(m, "role", str, where), "author_id": _field(m, "author_id", str, where),
           "author_name": _field(m, "author_name", str, where),
           "author_is_bot": _field(m, "author_is_bot", bool, where, optional=True, default=False),
           "is_anchor": _field(m, "is_anchor", bool, where, optional=True, default=False),
           "reply_to": _field(m, "reply_to", int, where, optional=True),
           "content": _field(m, "content", str, where), "timestamp": _time(m, "timestamp", where),
           "metadata": _field(m, "metadata", dict, where, optional=True, default={})}
    if out["role"] not in ROLES:
        raise _Bad(f"{where}.role must be one of {', '.join(ROLES)}")
    if out["message_number"] < 1:
        raise _Bad(f"{where}.message_number must be 1 or more")
    return out


def _compact(x: Any, where: str, messages: int) -> dict[str, Any]:
    out = {"id": _field(x, "id", int, where), "from_message": _field(x, "from_message", int, where),
           "up_to_message": _field(x, "up_to_message", int, where), "summary": _field(x, "summary", str, where),
           "topics": _field(x, "topics", list, where, optional=True, default=[]),
           "model": _field(x, "model", str, where, optional=True, default="unknown"),
           "created_at": _time(x, "created_at", where)}
    if not 1 <= out["from_message"] <= out["up_to_message"] <= messages:
        raise _Bad(f"{where} covers messages {out['from_message']}-{out['up_to_message']}, which the "
                   "conversation does not have")
    if not all(isinstance(t, str) for t in out["topics"]):
        raise _Bad(f"{where}.topics must be a list of text")
    return out


def _topic(t: Any, where: str) -> dict[str, Any]:
    first = _time(t, "first_seen", where, optional=True)
    out = {"name": _field(t, "name", str, where), "mentions": _field(t, "mentions", int, where, optional=True,
                                                                       default=1),
           "first_seen": first or "", "last_seen": _time(t, "last_seen", where, optional=True) or first or "",
           "messages": _field(t, "messages", list, where, optional=True, default=[])}
    if not out["name"].strip() or len(out["name"]) > 200:
        raise _Bad(f"{where}.name must be a short phrase")
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in out["messages"]):
        raise _Bad(f"{where}.messages must be a list of message ids")
    return out


def _variable(v: Any, where: str) -> dict[str, Any]:
    from tatlock.store.user import MAX_VAR_VALUE, var_key

    out = {"key": _field(v, "key", str, where), "value": _field(v, "value", str, where),
           "updated_at": _time(v, "updated_at", where), "author_id": _field(v, "author_id", str, where, optional=True),
           "source_message_id": _field(v, "source_message_id", int, where, optional=True)}
    try:
        if var_key(out["key"]) != out["key"]:
            raise _Bad(f"{where}.key {out['key']!r} is not a variable name")
    except UsageError as exc:
        raise _Bad(f"{where}.key: {exc.message}") from None
    if not out["value"].strip() or len(out["value"]) > MAX_VAR_VALUE:
        raise _Bad(f"{where}.value must be 1 to {MAX_VAR_VALUE} characters")
    return out


def _summary(s: Any, where: str) -> dict[str, Any]:
    out = {"conversation_id": _field(s, "conversation_id", int, where, optional=True),
           "summary": _field(s, "summary", str, where),
           "source_conversations": _field(s, "source_conversations", list, where, optional=True, default=[]),
           "model": _field(s, "model", str, where, optional=True, default="unknown"),
           "created_at": _time(s, "created_at", where),
           "covers": _field(s, "covers", dict, where, optional=True, default={}),
           "how": _field(s, "how", str, where, optional=True, default="model")}
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in out["source_conversations"]):
        raise _Bad(f"{where}.source_conversations must be a list of conversation ids")
    if not all(str(k).isdigit() and type(n) is int for k, n in out["covers"].items()):
        raise _Bad(f"{where}.covers must map conversation ids to message counts")
    return out
