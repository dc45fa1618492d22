"""Timestamps: stored as UTC ISO-8601 (sortable as text), shown in local time."""

from __future__ import annotations

import datetime as dt


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(moment: dt.datetime | None = None) -> str:
    moment = moment or utcnow()
    if moment.tzinfo is None:
        moment = moment.astimezone()  # naive means local
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


def parse(text: str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment


def local(text: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    try:
        return parse(text).astimezone().strftime(fmt)
    except (TypeError, ValueError):
        return text
