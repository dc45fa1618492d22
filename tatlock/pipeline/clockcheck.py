"""Times and dates in an answer, checked against the clock the butler was given: "08:41",
"nineteen minutes to nine", "Wednesday the 24th of November" (a Tuesday in 2026), "it's
October" in November. Split from checks.py, which re-exports what the gate uses.
"""

from __future__ import annotations

import datetime as dt
import re

_I = re.IGNORECASE

# -- time and date in an answer ----------------------------------------------------------------

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_CLOCK_FACT = re.compile(r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+(\d{1,2})\s+([a-z]+)\s+"
                         r"(\d{4}),?\s+(\d{1,2}):(\d{2})", _I)
_HHMM = re.compile(r"\b(\d{1,2})[:.](\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?!\d)", _I)
_SAYS_TIME = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?|o'clock)\b|\b(?:noon|midday|"
                        r"midnight)\b|"
                        r"\b(?:quarter|half|twenty|ten|five)\s+(?:past|to)\b|\bminutes?\s+(?:past|to)\s+(?:\d|one|two|three|"
                        r"four|five|six|seven|eight|nine|ten|eleven|twelve)\b|\b(?:one|two|three|four|five|six|seven|"
                        r"eight|nine|ten|eleven|twelve)\s+o'clock\b", _I)
_SAYS_DATE = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
                        r"june|july|august|september|october|november|december)\b|\b(?:19|20)\d{2}\b|"
                        r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}[/-]\d{1,2}\b|"
                        r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:more\s+)?(?:days?|"
                        r"weeks?|months?|"
                        r"hours?|minutes?|sleeps)\b", _I)


_CLOCK_ISO = re.compile(r'"iso":\s*"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})')
_CLOCK_WEEKDAY = re.compile(r'"weekday":\s*"(\w+)"')


def clock_in(findings: list[str]) -> dict | None:
    """The clock a finding gives (a guard fact, or the clock tool's result): weekday, day,
    month, year, hour, minute."""
    for f in findings:
        m = _CLOCK_FACT.search(f)
        if m:
            return {"weekday": m.group(1).lower(), "day": int(m.group(2)), "month": m.group(3).lower(),
                    "year": int(m.group(4)), "hour": int(m.group(5)), "minute": int(m.group(6))}
        m, d = _CLOCK_ISO.search(f), _CLOCK_WEEKDAY.search(f)
        if m and d:
            return {"weekday": d.group(1).lower(), "day": int(m.group(3)), "month": MONTHS[int(m.group(2)) - 1],
                    "year": int(m.group(1)), "hour": int(m.group(4)), "minute": int(m.group(5))}
    return None


_HOURS = {w: i for i, w in enumerate("twelve one two three four five six seven eight nine ten eleven".split())}
_WORD_TIME = re.compile(r"\b(?:(quarter|half|twenty-five|twenty|ten|five)\s+(past|to)\s+"
                        r"(twelve|one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})|"
                        r"(twelve|one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})\s+o'clock)"
                        r"(?:\s+in\s+the\s+(morning|afternoon|evening)|\s+at\s+night)?", _I)
_PAST = {"quarter": 15, "half": 30, "twenty-five": 25, "twenty": 20, "ten": 10, "five": 5}
_UNITS = "one two three four five six seven eight nine".split()
_MINUTE_WORDS = {w: i for i, w in enumerate(_UNITS + "ten eleven twelve thirteen fourteen fifteen sixteen "
                                              "seventeen eighteen nineteen twenty".split(), 1)}
_MINUTE_WORDS.update({f"twenty-{u}": 21 + i for i, u in enumerate(_UNITS)})
_MINUTE_WORDS.update({f"twenty {u}": 21 + i for i, u in enumerate(_UNITS)})
# "nineteen minutes to nine", "3 minutes past ten"
_MINUTES_TIME = re.compile(r"\b(twenty[-\s](?:one|two|three|four|five|six|seven|eight|nine)|[a-z]+|\d{1,2})\s+"
                           r"minutes?\s+(past|to)\s+(twelve|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                           r"\d{1,2})(?:\s+in\s+the\s+(morning|afternoon|evening)|\s+at\s+night)?", _I)


def _word_times(answer: str) -> list[tuple[str, set[int]]]:
    """Times said in words ("a quarter past three in the afternoon"), each with the minutes of
    the day it can mean."""
    out = []
    for m in _WORD_TIME.finditer(answer):
        hour_word = (m.group(3) or m.group(4)).lower()
        h = _HOURS.get(hour_word, int(hour_word) if hour_word.isdigit() else 0) % 12
        mins = 0
        if m.group(1):
            mins = _PAST[m.group(1).lower()] * (1 if m.group(2).lower() == "past" else -1)
        part = (m.group(5) or "").lower()
        hours = {h + 12} if part in ("afternoon", "evening") else {h} if part == "morning" else {h, h + 12}
        out.append((m.group(0), {(x * 60 + mins) % 1440 for x in hours}))
    for m in _MINUTES_TIME.finditer(answer):
        said = m.group(1).lower()
        mins = int(said) if said.isdigit() else _MINUTE_WORDS.get(said, -1)
        if not 0 < mins < 60:
            continue
        hour_word = m.group(3).lower()
        h = _HOURS.get(hour_word, int(hour_word) if hour_word.isdigit() else 0) % 12
        mins *= 1 if m.group(2).lower() == "past" else -1
        part = (m.group(4) or "").lower()
        hours = {h + 12} if part in ("afternoon", "evening") else {h} if part == "morning" else {h, h + 12}
        out.append((m.group(0), {(x * 60 + mins) % 1440 for x in hours}))
    return out


def says_time_or_date(text: str) -> bool:
    return bool(_SAYS_TIME.search(text) or _SAYS_DATE.search(text))


_MONTH_RE = "|".join(MONTHS)
_DAY_DATE = re.compile(rf"\b({'|'.join(WEEKDAYS)}),?\s+(?:the\s+)?"
                       rf"(?:(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+({_MONTH_RE})|"
                       rf"({_MONTH_RE})\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?)\b(?:,?\s+((?:19|20)\d{{2}}))?")
_NOW_MONTH = re.compile(rf"\b(?:it's|it\s+is|we're\s+in|we\s+are\s+in|this\s+month\s+is|the\s+month\s+is)\s+"
                        rf"(?:now\s+|currently\s+|still\s+)?({_MONTH_RE})\b(?!\s+(?:the\s+)?\d)")


def _today(clock: dict) -> dt.date:
    return dt.date(clock["year"], MONTHS.index(clock["month"]) + 1, clock["day"])


def _calendar_mismatch(low: str, clock: dict) -> str | None:
    """A weekday that does not fall on the date it is given with ("Wednesday the 24th of
    November" in 2026), or "it's October" when the clock says November."""
    for m in _DAY_DATE.finditer(low):
        day, month = (m.group(2), m.group(3)) if m.group(2) else (m.group(5), m.group(4))
        year = int(m.group(6)) if m.group(6) else clock["year"]
        today = _today(clock)
        try:
            date = dt.date(year, MONTHS.index(month) + 1, int(day))
            if not m.group(6) and (today - date).days > 180:
                date = date.replace(year=year + 1)  # "Tuesday 5 January", said in November, is next year's
        except ValueError:
            continue
        if date.strftime("%A").lower() != m.group(1):
            return f"{m.group(0)!r}: that date is a {date.strftime('%A')}"
    said = _NOW_MONTH.search(low)
    if said and said.group(1) != clock["month"]:
        return f"the month {said.group(1)!r} is not the clock's {clock['month']}"
    return None


_ISO_STAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?")


_HOLIDAYS = {"christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "boxing day": (12, 26),
             "new year's eve": (12, 31), "new year's day": (1, 1), "new year": (1, 1), "halloween": (10, 31),
             "valentine's day": (2, 14), "bonfire night": (11, 5)}
_DAYS_UNTIL = re.compile(r"\b(\d{1,3})\s+(?:more\s+)?days?\s+(?:left\s+|to\s+go\s+)?(?:until|till|til|to|before)\s+("
                         + "|".join(sorted(_HOLIDAYS, key=len, reverse=True)) + r")\b")


def _days_until_wrong(low: str, clock: dict) -> str | None:
    """ "31 days until Christmas" when the clock makes it 32 (a day either way is forgiven: "until"
    is counted both ways)."""
    today = _today(clock)
    for m in _DAYS_UNTIL.finditer(low):
        month, day = _HOLIDAYS[m.group(2)]
        date = dt.date(today.year, month, day)
        if date < today:
            date = date.replace(year=today.year + 1)
        days = (date - today).days
        if abs(int(m.group(1)) - days) > 1:
            return f"{m.group(0)!r}: the clock makes it {days} days"
    return None


def wrong_clock(answer: str, clock: dict) -> str | None:
    """A time, weekday or year in the answer that contradicts the clock it was given."""
    # an ISO timestamp is read as its time alone ("2026-11-23T08:41:00+00:00" holds no "00:00")
    answer = _ISO_STAMP.sub(lambda m: f" {m.group(1)}:{m.group(2)} ", answer)
    low = answer.lower()
    wrong, right = None, False  # another time beside the right one is fine ("your 09:30 meeting")
    for m in _HHMM.finditer(answer):
        h, mi, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
        if h > 23 or mi > 59:
            continue
        part = re.match(r"\s*(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night))", answer[m.end():], _I)
        if part and not half:  # "8:41 in the evening"
            half = "am" if part.group(1) and part.group(1).lower() == "morning" else "pm"
        hours = {h % 12 + (12 if half.startswith("p") else 0)} if half else {h, (h + 12) % 24}
        minutes = clock["hour"] * 60 + clock["minute"]
        if any(abs(x * 60 + mi - minutes) <= 1 for x in hours):
            right = True
        elif wrong is None:
            wrong = f"the time {m.group(0)!r} is not the clock's {clock['hour']:02d}:{clock['minute']:02d}"
    for said, candidates in _word_times(answer):
        minutes = clock["hour"] * 60 + clock["minute"]
        if any(min(abs(x - minutes), 1440 - abs(x - minutes)) <= 10 for x in candidates):
            right = True
        elif wrong is None:
            wrong = f"the time {said!r} is not the clock's {clock['hour']:02d}:{clock['minute']:02d}"
    if wrong and not right:
        return wrong
    mismatch = _calendar_mismatch(low, clock) or _days_until_wrong(low, clock)
    if mismatch:
        return mismatch
    days = [d for d in WEEKDAYS if re.search(rf"\b{d}\b", low)]
    other_day = (r"\b(?:tomorrow|yesterday|next|last|until|till|ago|falls?|lands?|will\s+be|was|christmas|birthday|"
                 r"holiday)\b")
    if days and clock["weekday"] not in days and not re.search(other_day, low):
        return f"the weekday {days[0]!r} is not the clock's {clock['weekday']}"
    # a year said as "now", not "in 1066" or "since 2019"
    years = {int(y) for y in re.findall(r"(?<!in )(?<!since )(?<!until )(?<!by )\b((?:19|20)\d{2})\b", low)}
    if years and clock["year"] not in years:
        return f"the year {min(years)} is not the clock's {clock['year']}"
    return None
