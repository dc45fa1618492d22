"""Natural-language time ranges ("last week", "in March", "since Monday").

Memory recall needs a concrete [start, end) interval, but the model hands us whatever
the user said. Hand-written rules cover the common phrases exactly and predictably
(dateparser alone gets "last week" or "March" subtly wrong for recall: it returns a
single instant, not a span); dateparser is only the fallback for single points
("3rd of March", "Nov 5 2025"), and such a point becomes that whole day.

All results are aware datetimes in ``now``'s timezone. Nothing heavy is imported at
module load: dateparser (~0.1 s import, ~0.1 s first parse) is loaded on first fallback.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from pathlib import Path

__all__ = ["format_range", "parse_range", "tz_name"]

Range = tuple[_dt.datetime, _dt.datetime]

_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_NUM = (
    r"(\d+|a couple of|a couple|couple "
    r"of|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
)
_UNIT = r"(hour|day|week|month|year)s?"
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
# parts of a day as (start hour, end hour) ; end > 24 runs into the next day
_PARTS = {"morning": (5, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 29)}
# "before X" has no natural start; this is early enough for anything a butler remembers
_EPOCH_YEAR = 1970


def tz_name(dt: _dt.datetime) -> str:
    """Best human/IANA name for dt's timezone ("Europe/Amsterdam", else "CET").

    ``datetime.now().astimezone()`` only carries an abbreviation, so for the local zone
    we look at $TZ and /etc/localtime to recover the IANA key when it agrees.
    """
    tz = dt.tzinfo
    key = getattr(tz, "key", None) or getattr(tz, "zone", None)
    if key:
        return str(key)
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        target = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    from zoneinfo import ZoneInfo

    for name in candidates:
        if not name:
            continue
        try:
            if ZoneInfo(name).utcoffset(dt.replace(tzinfo=None)) == dt.utcoffset():
                return name
        except Exception:  # unknown or malformed key
            continue
    return dt.tzname() or format_offset(dt)


def format_offset(dt: _dt.datetime) -> str:
    """UTC offset as "+01:00" (datetime's %z gives "+0100")."""
    off = dt.utcoffset() or _dt.timedelta(0)
    sign = "-" if off < _dt.timedelta(0) else "+"
    minutes = abs(int(off.total_seconds())) // 60
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def _day(d: _dt.date, tz: _dt.tzinfo | None, hour: int = 0) -> _dt.datetime:
    extra, hour = divmod(hour, 24)
    return _dt.datetime.combine(d + _dt.timedelta(days=extra), _dt.time(hour), tzinfo=tz)


def _days(d: _dt.date, n: int, tz: _dt.tzinfo | None) -> Range:
    return _day(d, tz), _day(d + _dt.timedelta(days=n), tz)


def _week(d: _dt.date, tz: _dt.tzinfo | None) -> Range:
    return _days(d - _dt.timedelta(days=d.weekday()), 7, tz)


def _month(year: int, month: int, tz: _dt.tzinfo | None) -> Range:
    nxt = _dt.date(year + month // 12, month % 12 + 1, 1)
    return _day(_dt.date(year, month, 1), tz), _day(nxt, tz)


def _year(year: int, tz: _dt.tzinfo | None) -> Range:
    return _day(_dt.date(year, 1, 1), tz), _day(_dt.date(year + 1, 1, 1), tz)


def _shift_months(d: _dt.date, months: int) -> _dt.date:
    idx = d.year * 12 + d.month - 1 + months
    year, month = divmod(idx, 12)
    import calendar

    return d.replace(
        year=year, month=month + 1, day=min(d.day, calendar.monthrange(year, month + 1)[1])
    )


def _num(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word]


def _ago(n: int, unit: str, now: _dt.datetime) -> Range:
    """ "N units ago" names the whole unit it falls in (that day, that week...)."""
    tz, today = now.tzinfo, now.date()
    if unit == "hour":
        start = (now - _dt.timedelta(hours=n)).replace(minute=0, second=0, microsecond=0)
        return start, start + _dt.timedelta(hours=1)
    if unit == "day":
        return _days(today - _dt.timedelta(days=n), 1, tz)
    if unit == "week":
        return _week(today - _dt.timedelta(weeks=n), tz)
    if unit == "month":
        d = _shift_months(today, -n)
        return _month(d.year, d.month, tz)
    return _year(today.year - n, tz)


def _rolling(n: int, unit: str, now: _dt.datetime) -> Range:
    """ "past N units" is a rolling window ending now."""
    if unit == "month":
        return _dt.datetime.combine(_shift_months(now.date(), -n), now.timetz()), now
    if unit == "year":
        return _dt.datetime.combine(_shift_months(now.date(), -12 * n), now.timetz()), now
    return now - _dt.timedelta(**{unit + "s": n}), now


def _recent_month(month: int, now: _dt.datetime, strictly_past: bool = False) -> Range:
    year = (
        now.year
        if month < now.month or (month == now.month and not strictly_past)
        else now.year - 1
    )
    return _month(year, month, now.tzinfo)


def _recent_weekday(wd: int, now: _dt.datetime, strictly_past: bool) -> Range:
    back = (now.weekday() - wd) % 7
    if back == 0 and strictly_past:
        back = 7
    return _days(now.date() - _dt.timedelta(days=back), 1, now.tzinfo)


def _simple(t: str, now: _dt.datetime) -> Range | None:
    """The rule table for single phrases (no "since"/"between" composition)."""
    tz, today = now.tzinfo, now.date()
    one = _dt.timedelta(days=1)
    prev = _shift_months(today, -1)
    fixed: dict[str, Range] = {
        "today": _days(today, 1, tz),
        "yesterday": _days(today - one, 1, tz),
        "tomorrow": _days(today + one, 1, tz),
        "day before yesterday": _days(today - 2 * one, 1, tz),
        "earlier today": (_day(today, tz), now),
        "tonight": (_day(today, tz, 18), _day(today, tz, 29)),
        "last night": (_day(today - one, tz, 18), _day(today - one, tz, 29)),
        "this week": _week(today, tz),
        "last week": _week(today - 7 * one, tz),
        "previous week": _week(today - 7 * one, tz),
        "next week": _week(today + 7 * one, tz),
        "this month": _month(today.year, today.month, tz),
        "last month": _month(prev.year, prev.month, tz),
        "previous month": _month(prev.year, prev.month, tz),
        "this year": _year(today.year, tz),
        "last year": _year(today.year - 1, tz),
        "previous year": _year(today.year - 1, tz),
        "this weekend": _days(today - today.weekday() * one + 5 * one, 2, tz),
        "last weekend": _days(today - today.weekday() * one - 2 * one, 2, tz),
        "past week": _rolling(1, "week", now),
        "past month": _rolling(1, "month", now),
        "past year": _rolling(1, "year", now),
        # vague words get a documented, generous window
        "recently": _rolling(7, "day", now),
        "lately": _rolling(7, "day", now),
    }
    if t in fixed:
        return fixed[t]
    if m := re.fullmatch(r"(this|yesterday|tomorrow|today)\s+(morning|afternoon|evening|night)", t):
        d = today + {"yesterday": -one, "tomorrow": one}.get(m[1], 0 * one)
        lo, hi = _PARTS[m[2]]
        return _day(d, tz, lo), _day(d, tz, hi)
    if m := re.fullmatch(_NUM + r"\s+" + _UNIT + r"\s+ago", t):
        return _ago(_num(m[1]), m[2], now)
    if m := re.fullmatch(r"(?:past|last|previous)\s+" + _NUM + r"\s+" + _UNIT, t):
        return _rolling(_num(m[1]), m[2], now)
    if m := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", t):
        try:
            return _days(_dt.date(int(m[1]), int(m[2]), int(m[3])), 1, tz)
        except ValueError:
            return None
    if m := re.fullmatch(r"(\d{4})-(\d{1,2})", t):
        return _month(int(m[1]), int(m[2]), tz) if 1 <= int(m[2]) <= 12 else None
    if m := re.fullmatch(r"(?:year\s+)?(\d{4})", t):
        return _year(int(m[1]), tz) if 1900 <= int(m[1]) <= 2999 else None
    if m := re.fullmatch(rf"(last\s+|this\s+)?({_MONTH_RE})", t):
        return _recent_month(
            _MONTHS[m[2]], now, strictly_past=bool(m[1]) and m[1].strip() == "last"
        )
    if m := re.fullmatch(rf"({_MONTH_RE}),?\s+(?:of\s+)?(\d{{4}})", t):
        return _month(int(m[2]), _MONTHS[m[1]], tz)
    if m := re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", t):  # "the 5th": dateparser misreads it
        back = 0 if int(m[1]) <= today.day else 1
        try:
            return _days(_shift_months(today, -back).replace(day=int(m[1])), 1, tz)
        except ValueError:
            return None
    if m := re.fullmatch(rf"(last\s+|this\s+|past\s+)?({_WEEKDAY_RE})", t):
        return _recent_weekday(
            _WEEKDAYS[m[2]], now, strictly_past=bool(m[1]) and m[1].strip() in ("last", "past")
        )
    return None


_PREFIX = re.compile(r"^(?:on|in|during|over|within|for|at|of)\s+(?:the\s+)?|^the\s+")


def _point(t: str, now: _dt.datetime) -> Range | None:
    """One phrase (rules, then dateparser) -> range; prefixes like "on"/"in the" dropped."""
    while (stripped := _PREFIX.sub("", t, count=1)) != t:
        t = stripped
    if re.fullmatch(r"\d{4}-\d{1,2}(?:-\d{1,2})?", t):  # ISO-shaped: valid or nothing
        return _simple(t, now)
    return _simple(t, now) or _dateparser_day(t, now)


def _dateparser_day(t: str, now: _dt.datetime) -> Range | None:
    """Fallback: dateparser finds a single instant; we widen it to its whole day."""
    # dateparser turns lone tokens like "a" or "5" into dates in odd months; refuse them
    if not re.search(r"[a-z]{3}", t) and not re.search(r"\d\D+\d", t):
        return None
    try:
        import dateparser
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    settings = {
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "RELATIVE_BASE": now.replace(tzinfo=None),
    }
    for tz in (tz_name(now), format_offset(now)):
        try:
            found = dateparser.parse(t, languages=["en"], settings={**settings, "TIMEZONE": tz})
            break
        except Exception:  # unknown timezone name or a dateparser bug on odd input
            found = None
    if found is None:
        return None
    day = (found.astimezone(now.tzinfo) if found.tzinfo else found).date()
    return _days(day, 1, now.tzinfo)


def parse_range(text: str, now: _dt.datetime) -> Range | None:
    """Turn a natural-language time expression into an aware [start, end) range.

    ``now`` must be aware; results are in its timezone. Returns None when nothing
    parses, so the caller can tell the model to rephrase instead of guessing.
    """
    if now.tzinfo is None:
        now = now.astimezone()
    t = re.sub(r"\s+", " ", (text or "").strip().lower()).strip(" .,!?;:'\"")
    if not t:
        return None
    epoch = _day(_dt.date(_EPOCH_YEAR, 1, 1), now.tzinfo)
    if m := re.fullmatch(r"(?:ever\s+)?since\s+(.+)", t):
        r = _point(m[1], now)
        return (r[0], now) if r and r[0] < now else None
    if m := re.fullmatch(r"after\s+(.+)", t):
        r = _point(m[1], now)
        return (r[1], now) if r and r[1] < now else None
    if m := re.fullmatch(r"before\s+(.+)", t):
        r = _point(m[1], now)
        return (epoch, r[0]) if r else None
    if m := re.fullmatch(r"(?:up\s+)?(?:until|till|to)\s+(.+)", t):
        r = _point(m[1], now)
        return (epoch, r[1]) if r else None
    pair = (
        re.fullmatch(r"between\s+(.+?)\s+and\s+(.+)", t)
        or re.fullmatch(r"(.+?)\s*\.\.\s*(.+)", t)
        or re.fullmatch(r"(?:from\s+)?(.+?)\s+(?:to|until|till|through|thru|-)\s+(.+)", t)
    )
    if pair:
        a, b = _point(pair[1], now), _point(pair[2], now)
        if a and b:
            return (min(a[0], b[0]), max(a[1], b[1]))
    return _point(t, now)


def format_range(start: _dt.datetime, end: _dt.datetime) -> str:
    """Human form of [start, end): whole days read inclusively ("2026-11-09 to 2026-11-15").

    A single whole day is just its date; ranges not on day boundaries show times.
    """
    midnight = _dt.time(0)
    if start.time() == midnight and end.time() == midnight and end > start:
        last = (end - _dt.timedelta(days=1)).date()
        if last == start.date():
            return start.date().isoformat()
        return f"{start.date().isoformat()} to {last.isoformat()}"
    return f"{start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M}"
