"""Times and dates in an answer, checked against the clock the butler was given: "08:41",
"nineteen minutes to nine", "Wednesday the 24th of November" (a Tuesday in 2026), "it's
October" in November, "Yes, sir, it's the 31st of March" on the 1st of April.

Every prompt carries the clock, so every answer is checked for what it says of *now* ("it's",
"today is"); an answer to a question about the time or the date (a TEMPORAL guard, the clock
tool, "what day is it?") is held to every time, weekday and year it names.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import Rule, Rulebook

Clock = dict[str, Any]  # weekday, day, month, year, hour, minute

_ORD = r"(?:st|nd|rd|th)?"
CLOCK = Rulebook(
    "gate.clock",
    [
        # reading the clock out of a fact or a tool's result
        Rule(
            "clock.fact",
            "read",
            r"({weekday})\s+(\d{1,2})\s+([a-z]+)\s+(\d{4}),?\s+(\d{1,2}):(\d{2})",
            ("The current local date and time: Monday 23 November 2026, 08:41",),
            ("Monday 23 November",),
        ),
        Rule(
            "clock.iso",
            "read_iso",
            r'"iso":\s*"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})',
            ('{"iso": "2026-11-23T08:41:00+00:00"}',),
            ('{"date": "2026-11-23"}',),
        ),
        Rule(
            "clock.weekday_key",
            "read_weekday",
            r'"weekday":\s*"(\w+)"',
            ('"weekday": "Monday"',),
            ('"day": 3',),
        ),
        # a time or a date said at all
        Rule(
            "clock.says_time",
            "says",
            r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?|o'clock)\b|\b(?:noon|midday|midnight)\b|"
            r"\b(?:quarter|half|twenty|ten|five)\s+(?:past|to)\b|\bminutes?\s+(?:past|to)\s+(?:\d|{hour_word})\b|"
            r"\b(?:{hour_word})\s+o'clock\b",
            ("It is 08:41, sir.", "half past eight", "nine o'clock", "noon"),
            ("eight pieces", "in half"),
        ),
        Rule(
            "clock.says_date",
            "says",
            r"\b(?:{weekday}|{month_not_may})\b|\b(?:19|20)\d{2}\b|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}[/-]\d{1,2}\b|"
            r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:more\s+)?(?:days?|weeks?|months?|hours?|"
            r"minutes?|sleeps)\b",
            ("Monday, sir.", "the 23rd", "2026", "three more sleeps"),
            ("it may rain", "a fine day"),
        ),
        Rule(
            "clock.hhmm",
            "hhmm",
            r"\b(\d{1,2})[:.](\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?!\d)",
            ("08:41", "8.41 pm"),
            ("8,41",),
        ),
        Rule(
            "clock.word_time",
            "word_time",
            r"\b(?:(quarter|half|twenty-five|twenty|ten|five)\s+(past|to)\s+({hour_word}|\d{1,2})|"
            r"({hour_word}|\d{1,2})\s+o'clock)(?:\s+in\s+the\s+(morning|afternoon|evening)|\s+at\s+night)?",
            ("a quarter past three in the afternoon", "nine o'clock"),
            ("half of it",),
        ),
        Rule(
            "clock.minutes_time",
            "minutes_time",
            r"\b(twenty[-\s](?:one|two|three|four|five|six|seven|eight|nine)|[a-z]+|\d{1,2})\s+minutes?\s+"
            r"(past|to)\s+({hour_word}|\d{1,2})(?:\s+in\s+the\s+(morning|afternoon|evening)|\s+at\s+night)?",
            ("nineteen minutes to nine", "3 minutes past ten"),
            ("minutes of the meeting",),
        ),
        Rule(
            "clock.day_date",
            "day_date",
            r"\b({weekday}),?\s+(?:the\s+)?(?:(\d{1,2})"
            + _ORD
            + r"(?:\s+of)?\s+({month})|({month})\s+(?:the\s+)?"
            r"(\d{1,2})" + _ORD + r")\b(?:,?\s+((?:19|20)\d{2}))?",
            ("Wednesday the 24th of November", "Monday, November 23, 2026"),
            ("Monday in November",),
        ),
        Rule(
            "clock.now_month",
            "now_month",
            r"\b(?:it's|it\s+is|we're\s+in|we\s+are\s+in|this\s+month\s+is|the\s+month\s+is)\s+"
            r"(?:now\s+|currently\s+|still\s+)?({month})\b(?!\s+(?:the\s+)?\d)",
            ("It's October, sir.", "we are in March"),
            ("it is March 3rd", "it's maybe"),
        ),
        # a date said as today's: "it's the 31st of March", "today is March 31st", "the date is 1
        # April"
        Rule(
            "clock.now_date",
            "now_date",
            r"\b(?:it's|it\s+is|today\s+is|today's\s+date\s+is|the\s+date\s+(?:today\s+)?is|we're\s+on|"
            r"we\s+are\s+on|today,)\s+(?:now\s+|currently\s+|still\s+)?(?:(?:{weekday}),?\s+)?(?:the\s+)?"
            r"(?:(\d{1,2})"
            + _ORD
            + r"(?:\s+of)?\s+({month})|({month})\s+(?:the\s+)?(\d{1,2})"
            + _ORD
            + r")\b",
            ("Yes, sir, it's the 31st of March.", "Today is March 31st.", "The date is 1 April"),
            ("Christmas is the 25th of December", "it's March"),
        ),
        # the part of the day said as now's ("It is the afternoon, sir" at twenty past nine)
        Rule(
            "clock.now_part",
            "now_part",
            r"\b(?:it's|it\s+is|we're\s+in|we\s+are\s+in)\s+(?:now\s+|still\s+|already\s+|currently\s+|just\s+)?"
            r"(?:the\s+|early\s+|late\s+|mid-?)?(morning|afternoon|evening|night(?:time)?)\b",
            ("It is the afternoon, sir.", "it's still morning", "It's late evening"),
            ("It is a morning person's game", "Good morning, sir"),
        ),
        Rule(
            "clock.now_weekday",
            "now_weekday",
            r"\b(?:today\s+is|it's|it\s+is)\s+(?:a\s+)?({weekday})\b",
            ("Today is Tuesday, sir.", "It's Friday!"),
            ("Tuesday is market day",),
        ),
        # tomorrow or yesterday named: "Saturday is tomorrow", "yesterday was a Monday"
        Rule(
            "clock.relative_day",
            "relative_day",
            r"\btomorrow\s+(?:is|will\s+be|'s)\s+(?:a\s+)?({weekday})\b|\b({weekday})\s+is\s+tomorrow\b|"
            r"\byesterday\s+was\s+(?:a\s+)?({weekday})\b|\b({weekday})\s+was\s+yesterday\b",
            ("Saturday is tomorrow.", "Tomorrow is Friday", "yesterday was a Monday"),
            ("Friday comes tomorrow-ish",),
        ),
        Rule(
            "clock.now_time",
            "now_time",
            r"\b(?:it's|it\s+is|the\s+time\s+is)\s+(?:now\s+|currently\s+|just\s+|exactly\s+)?"
            r"(?:about\s+|around\s+)?(?=\d{1,2}[:.]\d{2}|(?:quarter|half|twenty|ten|five|{hour_word}|\d{1,2})\b"
            r"[^.!?]{0,20}?(?:past|to|o'clock|a\.?m|p\.?m))",
            ("It's 10:30, sir.", "it is now half past nine", "The time is 8 pm"),
            ("It's 10 miles away",),
        ),
        Rule(
            "clock.now_year",
            "now_year",
            r"\b(?:it's|it\s+is|the\s+year\s+is|we're\s+in|we\s+are\s+in|this\s+year\s+is|the\s+current\s+year\s+is)"
            r"\s+(?:now\s+|currently\s+|still\s+)?((?:19|20)\d{2})\b",
            ("It's 2024, sir.", "The year is 2026"),
            ("in 2024 it rained",),
        ),
        # a question about now: the answer is held to every time and date it names
        Rule(
            "clock.asks_now",
            "asks_now",
            r"\b(?:what|which)\s+(?:time|day|date|month|year)\b(?!\s+(?:does|do|did|will|was|were|should|shall|would|"
            r"can|could|is\s+(?!it\b|today\b)))|\btoday'?s?\s+date\b|\bwhat\s+is\s+the\s+date\b|"
            r"\bwhat's\s+the\s+(?:time|date)\b|\bis\s+it\s+(?:{weekday}|the\s+\d)|\bday\s+of\s+the\s+week\b|"
            r"\bwhat\s+day\s+is\s+it\b|"
            # the time asked for in a word or three ("Time in Tokyo?", "date please")
            r"^\W*(?:the\s+|current\s+|local\s+)?(?:time|date)(?:\s+(?:now|please|today|in\s+[\w "
            r"]{2,30}))?\W*$",
            (
                "What day is it today?",
                "what's the date",
                "Is it Friday yet?",
                "What month are we in?",
                "Time in Tokyo?",
                "time now?",
            ),
            ("What time does the shop open", "What day is Christmas this year?", "Time flies, sir"),
        ),
        # tomorrow's date or weekday asked for: today's is no answer
        Rule(
            "clock.asks_tomorrow",
            "asks_tomorrow",
            r"\b(?:date|day)\s+(?:is\s+it\s+|will\s+it\s+be\s+)?tomorrow\b|\btomorrow'?s\s+(?:date|day)\b|"
            r"\bwhat\s+(?:day|date)\s+(?:is|will\s+be|'s)\s+tomorrow\b",
            ("What's the date tomorrow?", "what day is it tomorrow", "Tomorrow's date, please"),
            ("Will it rain tomorrow?", "What day is the meeting?"),
        ),
        Rule(
            "clock.date_said",
            "date_said",
            r"\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+({month})\b|\b({month})\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b",
            ("Thursday 26 November", "November the 26th"),
            ("November is cold",),
        ),
        Rule(
            "clock.other_day",
            "other_day",
            r"\b(?:tomorrow|yesterday|next|last|until|till|ago|falls?|lands?|will\s+be|was|christmas|birthday|"
            r"holiday|opens?|closes?|every|on\s+(?:{weekday})s|\w+(?:-\w+)?\s+days|days?\s+(?:away|from\s+now|to\s+go|left))\b",
            (
                "Tomorrow is Friday",
                "Christmas falls on a Friday",
                "15 days, sir: it's Wednesday the 9th of December",
            ),
            ("Today is Friday",),
        ),
        Rule(
            "clock.iso_stamp",
            "iso_stamp",
            r"\b\d{4}-\d{2}-\d{2}[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?",
            ("2026-11-23T08:41:00+00:00",),
            ("2026-11-23",),
        ),
        Rule(
            "clock.year_now",
            "year",
            r"(?<!in )(?<!since )(?<!until )(?<!by )\b((?:19|20)\d{2})\b",
            ("It is 2026", "2025, sir"),
            ("born in 1990",),
        ),
    ],
)


def _rule(label: str) -> re.Pattern[str]:
    return CLOCK.labelled(label)[0].regex


def of(now: dt.datetime) -> Clock:
    return {
        "weekday": now.strftime("%A").lower(),
        "day": now.day,
        "month": MONTHS[now.month - 1],
        "year": now.year,
        "hour": now.hour,
        "minute": now.minute,
    }


def clock_in(lines: list[str]) -> Clock | None:
    """The clock a finding gives (a guard fact, or the clock tool's result)."""
    for f in lines:
        m = _rule("read").search(f)
        if m:
            return {
                "weekday": m.group(1).lower(),
                "day": int(m.group(2)),
                "month": m.group(3).lower(),
                "year": int(m.group(4)),
                "hour": int(m.group(5)),
                "minute": int(m.group(6)),
            }
        m, d = _rule("read_iso").search(f), _rule("read_weekday").search(f)
        if m and d:
            return {
                "weekday": d.group(1).lower(),
                "day": int(m.group(3)),
                "month": MONTHS[int(m.group(2)) - 1],
                "year": int(m.group(1)),
                "hour": int(m.group(4)),
                "minute": int(m.group(5)),
            }
    return None


def says_time_or_date(text: str) -> bool:
    return CLOCK.first(text, "says") is not None


_HOURS = {
    w: i
    for i, w in enumerate("twelve one two three four five six seven eight nine ten eleven".split())
}
_PAST = {"quarter": 15, "half": 30, "twenty-five": 25, "twenty": 20, "ten": 10, "five": 5}
_UNITS = "one two three four five six seven eight nine".split()
_MINUTE_WORDS = {
    w: i
    for i, w in enumerate(
        _UNITS
        + "ten eleven twelve thirteen fourteen fifteen "
        "sixteen "
        "seventeen eighteen nineteen twenty".split(),
        1,
    )
}
_MINUTE_WORDS.update({f"twenty-{u}": 21 + i for i, u in enumerate(_UNITS)})
_MINUTE_WORDS.update({f"twenty {u}": 21 + i for i, u in enumerate(_UNITS)})


def _hour(word: str) -> int:
    word = word.lower()
    return _HOURS.get(word, int(word) if word.isdigit() else 0) % 12


def _hours(h: int, part: str) -> set[int]:
    return (
        {h + 12} if part in ("afternoon", "evening") else {h} if part == "morning" else {h, h + 12}
    )


def _word_times(answer: str) -> list[tuple[str, set[int]]]:
    """Times said in words ("a quarter past three in the afternoon"), each with the minutes of
    the day it can mean."""
    out = []
    for m in _rule("word_time").finditer(answer):
        h = _hour(m.group(3) or m.group(4))
        mins = (
            _PAST[m.group(1).lower()] * (1 if m.group(2).lower() == "past" else -1)
            if m.group(1)
            else 0
        )
        out.append(
            (m.group(0), {(x * 60 + mins) % 1440 for x in _hours(h, (m.group(5) or "").lower())})
        )
    for m in _rule("minutes_time").finditer(answer):
        said = m.group(1).lower()
        mins = int(said) if said.isdigit() else _MINUTE_WORDS.get(said, -1)
        if not 0 < mins < 60:
            continue
        mins *= 1 if m.group(2).lower() == "past" else -1
        h = _hour(m.group(3))
        out.append(
            (m.group(0), {(x * 60 + mins) % 1440 for x in _hours(h, (m.group(4) or "").lower())})
        )
    return out


def today_of(clock: Clock) -> dt.date:
    return dt.date(clock["year"], MONTHS.index(clock["month"]) + 1, clock["day"])


def _calendar_mismatch(low: str, clock: Clock) -> str | None:
    """A weekday that does not fall on the date it is given with ("Wednesday the 24th of
    November" in 2026), or "it's October" when the clock says November."""
    today = today_of(clock)
    for m in _rule("day_date").finditer(low):
        day, month = (m.group(2), m.group(3)) if m.group(2) else (m.group(5), m.group(4))
        year = int(m.group(6)) if m.group(6) else clock["year"]
        try:
            date = dt.date(year, MONTHS.index(month.lower()) + 1, int(day))
            if not m.group(6) and (today - date).days > 180:
                # "Tuesday 5 January", said in November, is next year's
                date = date.replace(year=year + 1)
        except ValueError:
            continue
        if date.strftime("%A").lower() != m.group(1).lower():
            return f"{m.group(0)!r}: that date is a {date.strftime('%A')}"
    said = _rule("now_month").search(low)
    if said and said.group(1).lower() != clock["month"]:
        return f"the month {said.group(1)!r} is not the clock's {clock['month']}"
    return None


HOLIDAYS = {
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "boxing day": (12, 26),
    "new year's eve": (12, 31),
    "new year's day": (1, 1),
    "new year": (1, 1),
    "halloween": (10, 31),
    "valentine's day": (2, 14),
    "bonfire night": (11, 5),
}
DAYS_UNTIL = Rulebook(
    "gate.days_until",
    [
        Rule(
            "clock.days_until",
            "days_until",
            r"\b(\d{1,3})\s+(?:more\s+)?days?\s+(?:left\s+|to\s+go\s+)?(?:until|till|til|to|before)\s+("
            + "|".join(sorted(HOLIDAYS, key=len, reverse=True))
            + r")\b",
            ("31 days until Christmas", "5 days to go till new year's eve"),
            ("31 days in December",),
        ),
    ],
)


def _days_until_wrong(low: str, clock: Clock) -> str | None:
    """ "31 days until Christmas" when the clock makes it 32 (a day either way is forgiven: "until"
    is counted both ways)."""
    today = today_of(clock)
    for m in DAYS_UNTIL.labelled("days_until")[0].regex.finditer(low):
        month, day = HOLIDAYS[m.group(2)]
        date = dt.date(today.year, month, day)
        if date < today:
            date = date.replace(year=today.year + 1)
        days = (date - today).days
        if abs(int(m.group(1)) - days) > 1:
            return f"{m.group(0)!r}: the clock makes it {days} days"
    return None


def _times(answer: str, clock: Clock) -> tuple[str | None, bool]:
    """(the first time said that is not the clock's, whether a time said is the clock's)."""
    minutes = clock["hour"] * 60 + clock["minute"]
    wrong, right = None, False  # another time beside the right one is fine ("your 09:30 meeting")
    for m in _rule("hhmm").finditer(answer):
        h, mi, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
        if h > 23 or mi > 59:
            continue
        part = re.match(
            r"\s*(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night))", answer[m.end() :], re.I
        )
        if part and not half:  # "8:41 in the evening"
            half = "am" if part.group(1) and part.group(1).lower() == "morning" else "pm"
        hours = {h % 12 + (12 if half.startswith("p") else 0)} if half else {h, (h + 12) % 24}
        if any(abs(x * 60 + mi - minutes) <= 1 for x in hours):
            right = True
        elif wrong is None:
            wrong = (
                f"the time {m.group(0)!r} is not the clock's "
                f"{clock['hour']:02d}:{clock['minute']:02d}"
            )
    for said, candidates in _word_times(answer):
        # a time in words is rounded to five minutes at most ("a quarter past two" is not 14:05)
        if any(min(abs(x - minutes), 1440 - abs(x - minutes)) <= 7 for x in candidates):
            right = True
        elif wrong is None:
            wrong = (
                f"the time {said!r} is not the clock's {clock['hour']:02d}:{clock['minute']:02d}"
            )
    return wrong, right


def wrong_month(answer: str, question: str, clock: Clock) -> str | None:
    """The month asked for ("what month is it?") and another given ("December, sir." on 25
    November); May only beside a day, as it is also a verb."""
    if "month" not in words(question):
        return None
    said = set(words(answer))
    months = [m for m in MONTHS if m in said and m != "may"]
    if months and clock["month"] not in months and not _rule("other_day").search(answer):
        return f"the month {months[0]!r} is not the clock's {clock['month']}"
    return None


def wrong_clock(answer: str, clock: Clock) -> str | None:
    """A time, weekday or year in the answer that contradicts the clock it was given."""
    # an ISO timestamp is read as its time alone ("2026-11-23T08:41:00+00:00" holds no "00:00")
    answer = _rule("iso_stamp").sub(lambda m: f" {m.group(1)}:{m.group(2)} ", answer)
    low = answer.lower()
    wrong, right = _times(answer, clock)
    if wrong and not right:
        return wrong
    mismatch = (
        _calendar_mismatch(low, clock) or _days_until_wrong(low, clock) or wrong_now(answer, clock)
    )
    if mismatch:
        return mismatch
    said = set(words(low))
    days = [d for d in WEEKDAYS if d in said]
    if days and clock["weekday"] not in days and not _rule("other_day").search(low):
        return f"the weekday {days[0]!r} is not the clock's {clock['weekday']}"
    # a year said as "now", not "in 1066" or "since 2019"
    years = {int(y) for y in _rule("year").findall(low)}
    if years and clock["year"] not in years:
        return f"the year {min(years)} is not the clock's {clock['year']}"
    return None


def _sentence_of(text: str, at: int) -> str:
    start = max(text.rfind(c, 0, at) for c in ".!?\n") + 1
    ends = [i for i in (text.find(c, at) for c in ".!?\n") if i >= 0]
    return text[start : min(ends) if ends else len(text)]


# the hours each part of the day can mean, generously (an evening may start at four in winter)
_PARTS = {
    "morni": set(range(0, 13)),
    "after": set(range(12, 19)),
    "eveni": set(range(16, 24)),
    "night": {*range(19, 24), *range(0, 6)},
}


def wrong_now(answer: str, clock: Clock) -> str | None:
    """What the answer says of *now* ("it's the 31st of March", "today is Friday", "it's 10:30",
    "it's 2024") against the clock; a sentence about another day ("tomorrow is...") is left alone."""
    today = today_of(clock)
    for m in _rule("now_date").finditer(answer):
        if _rule("other_day").search(_sentence_of(answer, m.start())):
            continue
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if (int(day), MONTHS.index(month.lower()) + 1) != (today.day, today.month):
            return f"{m.group(0)!r}: today is {today.day} {clock['month'].title()}"
    for m in _rule("now_weekday").finditer(answer):
        if m.group(1).lower() != clock["weekday"] and not _rule("other_day").search(
            _sentence_of(answer, m.start())
        ):
            return f"{m.group(0)!r}: today is a {clock['weekday'].title()}"
    for m in _rule("now_part").finditer(answer):
        part = m.group(1).lower()[:5]
        if clock["hour"] not in _PARTS[part] and not _rule("other_day").search(
            _sentence_of(answer, m.start())
        ):
            return f"{m.group(0)!r}: it is {clock['hour']:02d}:{clock['minute']:02d}"
    for m in _rule("relative_day").finditer(answer):
        said = next(x for x in m.groups() if x).lower()
        shift = 1 if m.group(1) or m.group(2) else -1
        day = WEEKDAYS[(WEEKDAYS.index(clock["weekday"]) + shift) % 7]
        if said != day:
            return f"{m.group(0)!r}: {'tomorrow' if shift == 1 else 'yesterday'} is a {day.title()}"
    for m in _rule("now_time").finditer(answer):
        sentence = _sentence_of(answer, m.start())
        wrong, right = _times(sentence, clock)
        if wrong and not right:
            return wrong
    for m in _rule("now_year").finditer(answer):
        if int(m.group(1)) != clock["year"]:
            return f"{m.group(0)!r}: the year is {clock['year']}"
    return None


def asks_tomorrow(question: str) -> bool:
    return CLOCK.first(question, "asks_tomorrow") is not None


def asks_now(question: str) -> bool:
    return CLOCK.first(question, "asks_now") is not None


def tomorrow_said(clock: Clock) -> str:
    """Tomorrow's date as the gate's own answer ("Friday, 1 January 2027, $sir.")."""
    tomorrow = today_of(clock) + dt.timedelta(days=1)
    return (
        f"{tomorrow.strftime('%A')}, {tomorrow.day} {MONTHS[tomorrow.month - 1].title()} "
        f"{tomorrow.year}, $sir."
    )


def wrong_tomorrow(answer: str, question: str, clock: Clock) -> str | None:
    """Tomorrow's date or weekday asked for and today's given ("Wednesday 25 November" to "What's
    the date tomorrow?" on the 25th)."""
    if CLOCK.first(question, "asks_tomorrow") is None:
        return None
    tomorrow = today_of(clock) + dt.timedelta(days=1)
    dates = {
        (int(m.group(1) or m.group(4)), MONTHS.index((m.group(2) or m.group(3)).lower()) + 1)
        for m in _rule("date_said").finditer(answer)
    }
    days = {d for d in WEEKDAYS if d in set(words(answer))}
    if dates and (tomorrow.day, tomorrow.month) not in dates:
        return f"tomorrow is {tomorrow.day} {MONTHS[tomorrow.month - 1].title()}"
    # the year after the date ("the 1st of January 2026" on New Year's Eve 2026)
    for m in _rule("date_said").finditer(answer):
        after = answer[m.end() : m.end() + 8].lstrip(" ,")
        if after[:4].isdigit() and not after[4:5].isdigit() and int(after[:4]) != tomorrow.year:
            return f"tomorrow is in {tomorrow.year}, not {after[:4]}"
    if not dates and days and tomorrow.strftime("%A").lower() not in days:
        return f"tomorrow is a {tomorrow.strftime('%A')}"
    return None
