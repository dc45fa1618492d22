"""The records of a memory export, checked one by one (see ``tatlock.services.archive_read``).

Each check returns the record as it will be stored, or raises :class:`Bad` naming the record
and field (``conversations[3].messages[12].timestamp is in the future``). Beyond types and
shapes, records are held to what a memory can be: whole numbers that fit SQLite, texts of at
most ``MAX_TEXT`` characters without NUL (lone surrogates become U+FFFD), dates that parse and
are not in the future (beyond a day's grace for clocks and zones: a message stamped
9999-12-31 would be "the latest conversation" for ever; within the grace a date ahead of this
clock is stored as now, so one stamped a few hours ahead is not "the latest" for those hours
either), stored in UTC so that they sort as text, and free-form metadata nested at most
``MAX_DEPTH`` levels.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from typing import Any

from tatlock.errors import UsageError
from tatlock.services.jsonstream import depth
from tatlock.text import valid_text
from tatlock.timeutil import iso, utcnow

ROLES = ("user", "assistant", "system", "tool")
MAX_TEXT = 2_000_000  # characters in one message or summary: more is not a conversation
FUTURE_GRACE = dt.timedelta(days=1)
MAX_DEPTH = 16  # of free-form metadata: what tatlock writes there is two levels deep


class Bad(Exception):
    """A record that is not what an export holds (the message names it)."""


def _field(
    d: Any, key: str, kind: Any, where: str, *, optional: bool = False, default: Any = None
) -> Any:
    if not isinstance(d, dict):
        raise Bad(f"{where} must be an object")
    if key not in d or d[key] is None:
        if optional:
            return default
        raise Bad(f"{where} has no {key!r}")
    value = d[key]
    if kind is bool:
        ok = isinstance(value, bool) or (type(value) is int and value in (0, 1))
    else:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        names = {
            str: "text",
            int: "a whole number",
            bool: "true or false",
            dict: "an object",
            list: "a list",
        }
        raise Bad(f"{where}.{key} must be {names.get(kind, kind.__name__)}")
    if kind is int and not (
        0 < value < 2**63 if key.endswith("id") or key == "reply_to" else 0 <= value < 2**63
    ):
        raise Bad(f"{where}.{key} is out of range")
    if kind is str:
        if len(value) > MAX_TEXT or "\x00" in value:
            raise Bad(f"{where}.{key} is too long or holds a NUL character")
        return valid_text(value)  # a lone surrogate cannot be stored as UTF-8
    if kind is bool:
        return bool(value)
    if kind in (dict, list) and depth(value) > MAX_DEPTH:
        raise Bad(f"{where}.{key} is nested more than {MAX_DEPTH} levels deep")
    return value


def _time(d: Any, key: str, where: str, *, optional: bool = False) -> str | None:
    """A date and time as tatlock stores them (UTC, ISO 8601: sortable as text); refused when
    it does not parse or lies more than a day in the future, and now when it lies ahead by less
    (another machine's clock or zone a little off; nothing in memory is dated after its import)."""
    value = _field(d, key, str, where, optional=optional)
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
        moment = moment.astimezone(dt.UTC)
    except (ValueError, OverflowError):
        raise Bad(f"{where}.{key} is not a date and time ({value[:40]!r})") from None
    now = utcnow().replace(microsecond=0)
    if moment > now + FUTURE_GRACE:
        raise Bad(
            f"{where}.{key} is in the future ({value[:40]!r}); dates after tomorrow are refused"
        )
    moment = min(moment, now)
    return moment.isoformat() if moment.microsecond else iso(moment)


def head(conv: Any, w: str) -> dict[str, Any]:
    c = {
        "id": _field(conv, "id", int, w),
        "title": _field(conv, "title", str, w, optional=True),
        "room_id": _field(conv, "room_id", str, w),
        "interface": _field(conv, "interface", str, w),
        "started_at": _time(conv, "started_at", w),
        "last_activity": _time(conv, "last_activity", w),
        "metadata": _field(conv, "metadata", dict, w, optional=True, default={}),
    }
    if not c["room_id"].strip() or not c["interface"].strip():
        raise Bad(f"{w} has an empty room or interface")
    return c


def archive(a: Any, where: str) -> dict[str, Any] | None:
    """A conversation's archive (older compacts merged): a summary up to a message."""
    if a is None or a == {}:
        return None
    if not isinstance(a, dict):
        raise Bad(f"{where} must be an object")
    _field(a, "summary", str, where)
    _field(a, "up_to_message", int, where)
    if depth(a) > MAX_DEPTH:
        raise Bad(f"{where} is nested more than {MAX_DEPTH} levels deep")
    return a


_MESSAGE_TEXTS = ("role", "author_id", "author_name", "content")


def message(m: Any, where: str) -> dict[str, Any]:
    fast = _message_fast(m)
    if fast is not None:
        return fast
    out = {
        "message_id": _field(m, "message_id", int, where),
        "message_number": _field(m, "message_number", int, where),
        "role": _field(m, "role", str, where),
        "author_id": _field(m, "author_id", str, where),
        "author_name": _field(m, "author_name", str, where),
        "author_is_bot": _field(m, "author_is_bot", bool, where, optional=True, default=False),
        "is_anchor": _field(m, "is_anchor", bool, where, optional=True, default=False),
        "reply_to": _field(m, "reply_to", int, where, optional=True),
        "content": _field(m, "content", str, where),
        "timestamp": _time(m, "timestamp", where),
        "metadata": _field(m, "metadata", dict, where, optional=True, default={}),
    }
    if out["role"] not in ROLES:
        raise Bad(f"{where}.role must be one of {', '.join(ROLES)}")
    if out["message_number"] < 1:
        raise Bad(f"{where}.message_number must be 1 or more")
    return out


def _message_fast(m: Any) -> dict[str, Any] | None:
    """The same checks as :func:`_message` for a message as tatlock writes them, in a fraction of
    the time (an import checks every message); None sends anything unusual to the slow path,
    which names the problem."""
    if type(m) is not dict:
        return None
    get = m.get
    mid, number, reply, bot, anchor = (
        get("message_id"),
        get("message_number"),
        get("reply_to"),
        get("author_is_bot", False),
        get("is_anchor", False),
    )
    meta, stamp = get("metadata"), get("timestamp")
    if meta is None:
        meta = {}
    if not (
        type(mid) is int
        and 0 < mid < 2**63
        and type(number) is int
        and 0 < number < 2**63
        and (reply is None or (type(reply) is int and 0 < reply < 2**63))
        and get("role") in ROLES
        and type(bot) is bool
        and type(anchor) is bool
        and type(meta) is dict
        and type(stamp) is str
        and _CANONICAL.fullmatch(stamp)
        and stamp <= _now_text()
    ):
        return None
    texts = [get(k) for k in _MESSAGE_TEXTS]
    if not all(
        type(t) is str and len(t) <= MAX_TEXT and "\x00" not in t and valid_text(t) is t
        for t in texts
    ):
        return None
    if meta and depth(meta) > MAX_DEPTH:
        return None
    try:
        dt.datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return {
        "message_id": mid,
        "message_number": number,
        "role": texts[0],
        "author_id": texts[1],
        "author_name": texts[2],
        "author_is_bot": bot,
        "is_anchor": anchor,
        "reply_to": reply,
        "content": texts[3],
        "timestamp": stamp,
        "metadata": meta,
    }


# a timestamp as tatlock writes it: UTC to the second, sortable as text
_CANONICAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")
_CUTOFF: list[Any] = [0.0, ""]


def _now_text() -> str:
    """Now, as a canonical timestamp (worked out at most once a second; a stamp after it takes
    the slow path, which refuses it or stores it as now)."""
    if time.monotonic() - _CUTOFF[0] > 1:
        _CUTOFF[:] = [time.monotonic(), iso(utcnow())]
    return str(_CUTOFF[1])


def compact(x: Any, where: str) -> dict[str, Any]:
    out = {
        "id": _field(x, "id", int, where),
        "from_message": _field(x, "from_message", int, where),
        "up_to_message": _field(x, "up_to_message", int, where),
        "summary": _field(x, "summary", str, where),
        "topics": _field(x, "topics", list, where, optional=True, default=[]),
        "model": _field(x, "model", str, where, optional=True, default="unknown"),
        "created_at": _time(x, "created_at", where),
    }
    if not all(isinstance(t, str) for t in out["topics"]):
        raise Bad(f"{where}.topics must be a list of text")
    return out


def topic(t: Any, where: str) -> dict[str, Any]:
    first = _time(t, "first_seen", where, optional=True)
    out = {
        "name": _field(t, "name", str, where),
        "mentions": _field(t, "mentions", int, where, optional=True, default=1),
        "first_seen": first or "",
        "last_seen": _time(t, "last_seen", where, optional=True) or first or "",
        "messages": _field(t, "messages", list, where, optional=True, default=[]),
    }
    if not out["name"].strip() or len(out["name"]) > 200:
        raise Bad(f"{where}.name must be a short phrase")
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in out["messages"]):
        raise Bad(f"{where}.messages must be a list of message ids")
    return out


def variable(v: Any, where: str) -> dict[str, Any]:
    from tatlock.store.user import MAX_VAR_VALUE, var_key

    out = {
        "key": _field(v, "key", str, where),
        "value": _field(v, "value", str, where),
        "updated_at": _time(v, "updated_at", where),
        "author_id": _field(v, "author_id", str, where, optional=True),
        "source_message_id": _field(v, "source_message_id", int, where, optional=True),
        **_fact_fields(v, where),
    }
    try:
        if var_key(out["key"]) != out["key"]:
            raise Bad(f"{where}.key {out['key']!r} is not a variable name")
    except UsageError as exc:
        raise Bad(f"{where}.key: {exc.message}") from None
    if not out["value"].strip() or len(out["value"]) > MAX_VAR_VALUE:
        raise Bad(f"{where}.value must be 1 to {MAX_VAR_VALUE} characters")
    return out


def _fact_fields(v: Any, where: str) -> dict[str, Any]:
    """What a fact says besides its value (exports before facts had them: the owner's, set by
    hand)."""
    out = {
        "about": _field(v, "about", str, where, optional=True, default="owner") or "owner",
        "attribute": _field(v, "attribute", str, where, optional=True),
        "author_name": _field(v, "author_name", str, where, optional=True),
        "origin": _field(v, "origin", str, where, optional=True),
        "statement": _field(v, "statement", str, where, optional=True),
    }
    if out["origin"] not in (None, "hand", "tool", "heard"):
        raise Bad(f"{where}.origin must be hand, tool or heard")
    if out["origin"] is None:
        out["origin"] = "tool" if v.get("source_message_id") is not None else "hand"
    return out


def past_value(v: Any, where: str) -> dict[str, Any]:
    """A fact's earlier value (``fact_history``)."""
    out = variable({**v, "updated_at": v.get("stated_at")} if isinstance(v, dict) else v, where)
    out["stated_at"] = out.pop("updated_at")
    out["replaced_at"] = _time(v, "replaced_at", where)
    superseded = _field(v, "superseded", int, where, optional=True, default=1)
    out["superseded"] = 0 if superseded in (0, False) else 1
    return out


def summary(s: Any, where: str) -> dict[str, Any]:
    out = {
        "conversation_id": _field(s, "conversation_id", int, where, optional=True),
        "summary": _field(s, "summary", str, where),
        "source_conversations": _field(
            s, "source_conversations", list, where, optional=True, default=[]
        ),
        "model": _field(s, "model", str, where, optional=True, default="unknown"),
        "created_at": _time(s, "created_at", where),
        # a briefing prepared ahead: what it covers ({"conversation id": messages}) and who wrote
        # it
        "covers": _field(s, "covers", dict, where, optional=True, default={}),
        "how": _field(s, "how", str, where, optional=True, default="model"),
    }
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in out["source_conversations"]):
        raise Bad(f"{where}.source_conversations must be a list of conversation ids")
    if not all(
        str(k).isdigit() and len(str(k)) < 19 and type(n) is int and 0 <= n < 2**63
        for k, n in out["covers"].items()
    ):
        raise Bad(f"{where}.covers must map conversation ids to message counts")
    if out["how"] not in ("model", "repaired", "extract"):
        raise Bad(f"{where}.how must be model, repaired or extract")
    return out
