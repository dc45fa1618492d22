"""Grading an answer as a user would: does it carry the fact that was asked for?

Used by `scripts/bench answers` for both tatlock and the same model asked directly, so both
sides are graded by one rule. A case comes from a file in the format of
/work/blind-train/facts/facts_questions_train.jsonl: a ``kind`` and, for facts told or
known, the ``expected`` words. For the other kinds the truth is what this machine and the
clock say at run time (computed here, never taken from tatlock's own output), and for
"what can you do" what the butler's tools really are (the built-in registry's categories).

Each answer gets one grade:

* ``right``: it carries the fact (and says nothing that contradicts it);
* ``fallback``: it says honestly that it does not know or cannot tell, and claims nothing false;
* ``wrong``: anything else (a wrong value, an invented name, a promise it cannot keep,
  an answer that is beside the point).

The rules are tables (the words of each ability, of each false claim), not per-question code:
the lead grades held-out questions with the same functions.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
from dataclasses import dataclass, field
from pathlib import Path

_I = re.IGNORECASE
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen "
        "sixteen "
        "seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 10 * i
    for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
    if i >= 2
}

# saying honestly that it does not know, cannot tell or needs more (tatlock's fallbacks say these
# too)
_DONT_KNOW = re.compile(
    r"\b(?:(?:i\s+)?(?:do\s+not|don't|dont)\s+(?:know|have\s+(?:access|that|any|the|real-time|a\s+way)|recall|remember)|"
    r"not\s+sure|no\s+way\s+(?:of|to)\s+know|unable\s+to\s+(?:tell|know|access|determine|provide|answer|help|respond)|"
    r"can(?:not|'t|\s+not)\s+(?:tell|know|access|determine|provide|see|check|answer|say|help)|"
    r"would\s+rather\s+not\s+guess|ask\s+me\s+again|need\s+a\s+little\s+more|could\s+you\s+tell\s+me\s+more|"
    r"(?:not|nothing)\s+(?:something\s+)?i\s+can\s+share|went\s+astray|(?:have|has)\s+no\s+(?:record|way|access|idea)|"
    r"beyond\s+what\s+i\s+can|i'm\s+afraid)",
    _I,
)

# -- what the butler can do, and what no tool of it does ----------------------------------------

# the words that show each category of tool to a user (tatlock.tools.registry's categories)
ABILITY_WORDS: dict[str, str] = {
    "memory": r"remember|recall|memory|memories|earlier\s+conversations|past\s+conversations|what\s+we\s+(?:said|discussed)",
    "personal": r"remember|personal|facts?\s+(?:about|you\s+tell)|note|save",
    "time": r"\btime\b|\bdate\b|\bclock\b|calendar\s+date",
    "system": r"computer|system|machine|\bcpu\b|disk|processor|health",
    "weather": r"weather|forecast",
    "web": r"search|web|internet|online|look\s+(?:things\s+)?up",
    "files": r"\bfiles?\b|documents?|images?|pictures?",
}
# actions no built-in tool takes: asked for, the right answer declines them
IMPOSSIBLE: dict[str, str] = {  # the words of each, inside \b...\b
    "call": r"phone|call|ring|dial",
    "email": r"e-?mail",
    "message": r"text|sms|whatsapp|send\s+(?:a\s+)?message",
    "alarm": r"alarm|reminder|timer|wake\s+me",
    "order": r"order|buy|purchase|pay|deliver",
    "book": r"book|reserve|schedule",
    "device": r"turn\s+(?:on|off)|lights?|thermostat|heating|lock\s+the",
}
_DECLINE = re.compile(
    r"\b(?:can(?:not|'t|\s+not)|unable|not\s+able|no\s+way|beyond|don't\s+have\s+(?:the\s+)?"
    r"(?:ability|means|a\s+way|access)|do\s+not\s+have\s+(?:the\s+)?(?:ability|means|a\s+way|access)|"
    r"i'm\s+afraid\s+(?:not|i|that)|no,|not\s+(?:something|within|possible)|isn't\s+something)\b",
    _I,
)
# doing it, or promising to ("I've called her", "Sure, I'll email him now", "Calling your mum")
_PROMISE = re.compile(
    r"\b(?:i(?:'ve|\s+have)\s+(?:just\s+)?(?:called|phoned|rung|sent|emailed|texted|set|ordered|booked|"
    r"placed|scheduled|paid)|i(?:'ll|\s+will|\s+shall)\s+(?:now\s+)?(?:call|phone|ring|send|email|text|"
    r"set|order|book|place|schedule|pay|get)|(?:calling|phoning|ringing|emailing|texting|ordering|"
    r"booking)\s+(?:her|him|them|your|now)|(?:alarm|reminder|timer|order|email|message)\s+(?:is|has\s+"
    r"been)\s+(?:set|placed|sent|booked)|here(?:'s|\s+is)\s+(?:the|an?)\s+(?:email|message|text))\b",
    _I,
)

# -- the butler's nature ------------------------------------------------------------------------

# (aspect, the question's words that ask it, the answer's words that carry it)
NATURE_ASPECTS = [
    (
        "memory",
        r"remember|memory|forget|recall|between\s+chats",
        r"remember|long-term\s+memory|\bmemory\b|recall|\bkeep\b|don't\s+forget|do\s+not\s+forget",
    ),
    (
        "where",
        r"server|cloud|machine|computer|local|online|internet|company|where\s+(?:do\s+)?you\s+(?:run|live)",
        r"this\s+(?:computer|machine|device|laptop|pc)|your\s+(?:computer|machine|device|laptop|pc)|locally|\blocal\b|"
        r"privately|on\s+your\s+own|nothing\s+leaves",
    ),
    ("identity", r".", r"butler|tatlock"),
]
_NATURE_FALSE = re.compile(
    r"\b(?:trained\s+by|hugging\s*face|openai|google|microsoft|anthropic|smollm|"
    r"(?:in|on|from)\s+the\s+cloud|(?:a|the|their|its|company's)\s+(?:remote\s+)?servers?\s+"
    r"(?:of|owned|run|at|in)|i\s+(?:do\s+not|don't)\s+(?:remember|have\s+(?:a\s+)?memory|"
    r"keep)|forget\s+everything|no\s+memory\s+of|each\s+(?:chat|conversation)\s+(?:starts|is)\s+"
    r"(?:fresh|new))\b",
    _I,
)
_OTHER_NAME = re.compile(
    r"\b(?i:my\s+name\s+is|i\s+am|i'm|call\s+me|this\s+is)\s+(?!(?i:tatlock)\b)([A-Z][a-zA-Z]+)"
)
_NOT_NAMES = {
    "a",
    "an",
    "the",
    "your",
    "here",
    "sorry",
    "afraid",
    "not",
    "glad",
    "happy",
    "delighted",
    "sure",
    "fine",
    "well",
    "good",
    "just",
    "always",
    "at",
    "tatlock",
    "pleased",
    "able",
    "unable",
    "so",
    "sir",
    "butler",
    "running",
    "doing",
    "ready",
    "still",
    "honoured",
    "honored",
}


@dataclass
class Truth:
    """What is true while a question is answered (computed here, at run time)."""

    start: dt.datetime
    end: dt.datetime
    cores: tuple[int, ...]
    memory_gib: float
    disk_free_gib: float
    os_names: tuple[str, ...]
    categories: tuple[str, ...]
    other_os: tuple[str, ...] = ("windows", "macos", "mac os", "os x", "osx", "android", "ios")
    notes: list[str] = field(default_factory=list)

    @classmethod
    def now(
        cls,
        categories: tuple[str, ...],
        start: dt.datetime | None = None,
        end: dt.datetime | None = None,
    ) -> Truth:
        import psutil

        start = start or dt.datetime.now().astimezone()
        cores = tuple(
            sorted(
                {c for c in (psutil.cpu_count(logical=True), psutil.cpu_count(logical=False)) if c}
            )
        )
        home = Path.home()
        disk = psutil.disk_usage(str(home) if home.exists() else os.path.abspath(os.sep))
        names = [platform.system()]
        try:
            rel = Path("/etc/os-release").read_text()
            for key in ("NAME", "ID"):
                m = re.search(rf'^{key}="?([^"\n]+)"?', rel, re.M)
                if m:
                    names.append(m.group(1).split()[0])
        except OSError:
            pass
        if platform.system() == "Darwin":
            names += ["macOS", "mac"]
        names = [n for n in dict.fromkeys(x.lower() for x in names) if n]
        other = tuple(o for o in cls.other_os if o not in names)
        return cls(
            start,
            end or start,
            cores,
            psutil.virtual_memory().total / 1024**3,
            disk.free / 1024**3,
            tuple(names),
            tuple(categories),
            other,
        )


# -- reading numbers, dates and times out of an answer ----------------------------------------


def _normalise(text: str) -> str:
    """Lower case, number words as digits ("fifty-six" -> "56", "four" -> "4")."""
    text = text.lower().replace("’", "'")

    def tens(m: re.Match[str]) -> str:
        return str(_TENS[m.group(1)] + (_NUMBER_WORDS.get(m.group(2) or "", 0)))

    text = re.sub(
        r"\b(" + "|".join(_TENS) + r")(?:[-\s](" + "|".join(list(_NUMBER_WORDS)[1:10]) + r"))?\b",
        tens,
        text,
    )
    return re.sub(
        r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", lambda m: str(_NUMBER_WORDS[m.group(1)]), text
    )


def numbers(text: str) -> list[float]:
    """The quantities in a text: not years, not clock times, not dates' parts."""
    t = _normalise(text)
    t = re.sub(r"\b\d{1,2}:\d{2}(?::\d{2})?\b", " ", t)  # clock times
    t = re.sub(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b", " ", t)  # dates
    out = []
    for m in re.finditer(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?![\w.]*\d)", t):
        s = (
            m.group(1).replace(",", ".")
            if re.fullmatch(r"\d+,\d{1,2}", m.group(1))
            else m.group(1).replace(",", "")
        )
        x = float(s)
        if 1900 <= x <= 2100 and "." not in s:
            continue  # a year
        out.append(x)
    return out


def _near(values: list[float], target: float, share: float = 0.06) -> bool:
    """A size as said: GiB or GB (x 1.074), within ``share`` (rounded as people round)."""
    return any(
        abs(v - t) <= max(share * t, 0.6) for v in values for t in (target, target * 1.073741824)
    )


def says_date(text: str, day: dt.date) -> bool:
    t = _normalise(text)
    month = MONTHS[day.month - 1]
    mon = rf"(?:{month}|{month[:3]}\.?)"
    d = rf"0?{day.day}(?:st|nd|rd|th)?"
    if re.search(rf"\b{d}\s+(?:of\s+)?{mon}\b|\b{mon}\s+(?:the\s+)?{d}\b", t):
        return True
    y, m, dd = day.year, day.month, day.day
    return bool(
        re.search(
            rf"\b{y}-{m:02d}-{dd:02d}\b|\b0?{dd}[/.]0?{m}[/.](?:{y}|{y % 100})\b|"
            rf"\b0?{m}/0?{dd}/(?:{y}|{y % 100})\b",
            t,
        )
    )


def _times(text: str) -> list[tuple[int, int, bool]]:
    """(hour, minute, whether am/pm fixed it) of each clock time said."""
    t = _normalise(text)
    out = []
    for m in re.finditer(
        r"\b(\d{1,2})(?::|\.|h)(\d{2})\s*(a\.?m\.?|p\.?m\.?)?|\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)|"
        r"\b(\d{1,2})\s+o'?clock",
        t,
    ):
        if m.group(1):
            h, mi, ap = int(m.group(1)), int(m.group(2)), m.group(3)
        elif m.group(4):
            h, mi, ap = int(m.group(4)), 0, m.group(5)
        else:
            h, mi, ap = int(m.group(6)), 0, None
        if h > 23 or mi > 59:
            continue
        if ap:
            h = h % 12 + (12 if ap.startswith("p") else 0)
        out.append((h, mi, bool(ap) or h > 12))
    return out


def says_time(text: str, start: dt.datetime, end: dt.datetime, slack_min: float = 3) -> bool:
    lo, hi = start - dt.timedelta(minutes=slack_min), end + dt.timedelta(minutes=slack_min)
    for h, mi, fixed in _times(text):
        hours = [h] if fixed else [h, (h + 12) % 24]
        for hh in hours:
            for day in {lo.date(), hi.date()}:
                when = dt.datetime.combine(day, dt.time(hh, mi), tzinfo=start.tzinfo)
                if lo <= when <= hi or (
                    not fixed and mi == 0 and lo - dt.timedelta(minutes=30) <= when <= hi
                ):
                    return True
    return False


def _names_other(text: str, names: list[str], right: str, question: str) -> bool:
    """Another of ``names`` (weekdays, months) said in the answer but not asked about."""
    t, q = text.lower(), question.lower()
    return any(
        re.search(rf"\b{n}\b", t) and not re.search(rf"\b{n}\b", q) for n in names if n != right
    )


# -- the grade -----------------------------------------------------------------------------------


def grade(kind: str, question: str, answer: str, truth: Truth, expected: str = "") -> str:
    """right | fallback | wrong."""
    a = " ".join(answer.split())
    if not a:
        return "wrong"
    right, conflict = _carries(kind, question, a, truth, expected)
    if right and not conflict:
        return "right"
    if not conflict and _DONT_KNOW.search(a):
        return "fallback"
    return "wrong"


def _carries(kind: str, q: str, a: str, t: Truth, expected: str) -> tuple[bool, bool]:
    """(carries the fact, says something that contradicts it)."""
    low = a.lower()
    days = {t.start.date(), t.end.date()}
    if kind == "name":
        other = [
            m.group(1) for m in _OTHER_NAME.finditer(a) if m.group(1).lower() not in _NOT_NAMES
        ]
        return "tatlock" in low, bool(other) or "smollm" in low
    if kind == "nature":
        asked = next(aspect for aspect, ask, _ in NATURE_ASPECTS if re.search(ask, q, _I))
        says = next(words for aspect, _, words in NATURE_ASPECTS if aspect == asked)
        return bool(re.search(says, a, _I)), bool(_NATURE_FALSE.search(a))
    if kind == "date":
        return any(says_date(a, d) for d in days), False
    if kind == "weekday":
        today = [WEEKDAYS[d.weekday()] for d in days]
        said = any(re.search(rf"\b(?:{w}|{w[:3]})\b", low) for w in today)
        return said, _names_other(a, WEEKDAYS, today[0], q) and len(today) == 1
    if kind == "month":
        months = [MONTHS[d.month - 1] for d in days]
        said = any(re.search(rf"\b(?:{m}|{m[:3]})\b", low) for m in months)
        return said, _names_other(a, MONTHS, months[0], q) and len(months) == 1
    if kind == "year":
        years = {str(d.year) for d in days}
        others = (
            set(re.findall(r"\b(?:19|20)\d{2}\b", a)) - years - set(re.findall(r"\b\d{4}\b", q))
        )
        return any(y in a for y in years), bool(others)
    if kind == "time":
        return says_time(a, t.start, t.end), False
    if kind == "cores":
        n = numbers(a)
        return any(int(x) == x and int(x) in t.cores for x in n), False
    if kind == "memory":
        return _near(numbers(a), t.memory_gib), False
    if kind == "disk":
        return _near(numbers(a), t.disk_free_gib, 0.08), False
    if kind == "os":
        said = any(re.search(rf"\b{re.escape(n)}\b", low) for n in t.os_names)
        other = any(
            re.search(rf"\b{re.escape(o)}\b", low)
            and not re.search(rf"\b{re.escape(o)}\b", q.lower())
            for o in t.other_os
        )
        return said, other
    if kind == "capabilities":
        return _capabilities(q, a, t)
    # told_same, told_other, general, small talk: the expected words ("a|b": either will do)
    have = _normalise(re.sub(r"[^\w\s']", " ", a))
    for alternative in expected.split("|"):
        want = _normalise(re.sub(r"[^\w\s]", " ", alternative)).split()
        if want and all(re.search(rf"\b{re.escape(w)}", have) for w in want):
            return True, False
    return False, False


def _capabilities(q: str, a: str, t: Truth) -> tuple[bool, bool]:
    asked_for = [name for name, pat in IMPOSSIBLE.items() if re.search(rf"\b(?:{pat})\b", q, _I)]
    abilities = [
        c for c in t.categories if c in ABILITY_WORDS and re.search(ABILITY_WORDS[c], q, _I)
    ]
    promise = bool(_PROMISE.search(a))
    if asked_for and not abilities:
        # something no tool does: the right answer declines it and promises nothing
        return bool(_DECLINE.search(a)), promise
    if abilities:
        # something a tool does: yes (or it is done, or the place is asked for), not a refusal
        declined = bool(re.search(r"\b(?:can(?:not|'t|\s+not)|unable|not\s+able)\b", a, _I))
        offered = re.search(
            r"\b(?:yes|certainly|of\s+course|can|shall|will|happy\s+to|which|where)\b", a, _I
        )
        does = any(re.search(ABILITY_WORDS[c], a, _I) for c in abilities)
        return bool(offered or does) and not declined, declined
    # "what can you do?": two of its real abilities, and none it does not have
    said = {c for c in t.categories if c in ABILITY_WORDS and re.search(ABILITY_WORDS[c], a, _I)}
    claims = [
        n
        for n, pat in IMPOSSIBLE.items()
        if re.search(rf"\bi\s+(?:can|could|will)\s+(?:[\w,]+\s+){{0,10}}?(?:{pat})\b", a, _I)
    ]
    return len(said) >= 2, bool(claims) or promise
