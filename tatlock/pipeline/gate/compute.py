"""What the gate can work out for itself and hold an answer to: sums ("What is 12 times 13?"),
unit conversions ("10 miles in kilometres", "ounces in a pound"), the time in another city (its
time zone is in the system's zone database: "New York" is America/New_York), and how long until
midnight, noon or a time of day. A small model gets these wrong with confidence ("144, sir"); a
number the answer gives must be the one worked out, within rounding.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from zoneinfo import ZoneInfo, available_timezones

from tatlock.pipeline.gate import clock
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS
from tatlock.pipeline.rulebook import Rule, Rulebook

_NUM = r"(-?\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred)"
WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
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
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
}

# unit -> (dimension, size in the dimension's base unit); a pint may be British or American
UNITS: dict[str, tuple[str, tuple[float, ...]]] = {
    "km": ("length", (1000.0,)),
    "kilometre": ("length", (1000.0,)),
    "kilometer": ("length", (1000.0,)),
    "mile": ("length", (1609.344,)),
    "m": ("length", (1.0,)),
    "metre": ("length", (1.0,)),
    "meter": ("length", (1.0,)),
    "cm": ("length", (0.01,)),
    "centimetre": ("length", (0.01,)),
    "centimeter": ("length", (0.01,)),
    "mm": ("length", (0.001,)),
    "millimetre": ("length", (0.001,)),
    "inch": ("length", (0.0254,)),
    "foot": ("length", (0.3048,)),
    "feet": ("length", (0.3048,)),
    "yard": ("length", (0.9144,)),
    "kg": ("mass", (1000.0,)),
    "kilo": ("mass", (1000.0,)),
    "kilogram": ("mass", (1000.0,)),
    "g": ("mass", (1.0,)),
    "gram": ("mass", (1.0,)),
    "pound": ("mass", (453.59237,)),
    "lb": ("mass", (453.59237,)),
    "ounce": ("mass", (28.349523,)),
    "oz": ("mass", (28.349523,)),
    "stone": ("mass", (6350.29,)),
    "litre": ("volume", (1000.0,)),
    "liter": ("volume", (1000.0,)),
    "ml": ("volume", (1.0,)),
    "millilitre": ("volume", (1.0,)),
    "milliliter": ("volume", (1.0,)),
    "pint": ("volume", (568.26, 473.18)),
    "gallon": ("volume", (4546.09, 3785.41)),
    "cup": ("volume", (250.0, 236.59)),
    "tablespoon": ("volume", (15.0, 14.79)),
    "teaspoon": ("volume", (5.0, 4.93)),
    "second": ("time", (1.0,)),
    "minute": ("time", (60.0,)),
    "hour": ("time", (3600.0,)),
    "day": ("time", (86400.0,)),
    "week": ("time", (604800.0,)),
}
_UNIT_WORDS = "|".join(
    sorted(
        (re.escape(u) + ("(?:e?s)?" if len(u) > 2 else "") for u in UNITS), key=len, reverse=True
    )
)

COMPUTE = Rulebook(
    "gate.compute",
    [
        Rule(
            "compute.sum",
            "sum",
            r"(?<![\d/-])(\d+(?:\.\d+)?|\b(?:{hour_word}|twenty|thirty|forty|fifty|hundred))(?:\s*(times|multiplied\s+by|"
            r"x|×|\*|plus|\+|divided\s+by|÷|%\s+of)\s*|\s+(minus|-|/)\s+)(\d+(?:\.\d+)?\b|(?:{hour_word}|twenty|thirty|"
            r"forty|fifty|hundred)\b)(?![\d/-])",
            (
                "What is 12 times 13?",
                "what's 17 x 24",
                "9x7?",
                "100 divided by 8",
                "What's 15% of 80?",
                "10 - 3",
                "What is six times seven?",
            ),
            ("What is 12?", "the 7-a-side team", "What happened on 2026-11-23?", "on 24/11"),
        ),
        # a power or a root ("15 squared", "the square root of 144", "2 to the power of 10")
        Rule(
            "compute.power",
            "power",
            r"\b(?:(square|cube)\s+root\s+of\s+(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s+(squared|cubed)|(\d+(?:\.\d+)?)\s*(?:\^|\*\*|"
            r"to\s+the\s+(?:power\s+of\s+)?)\s*(\d{1,2})(?:st|nd|rd|th)?(?:\s+power)?)\b",
            (
                "What's the square root of 144?",
                "15 squared?",
                "2 to the power of 10",
                "what is 3^4",
                "cube root of 27",
            ),
            ("square roots are irrational", "a squared-off edge"),
        ),
        Rule(
            "compute.convert",
            "convert",
            rf"\b{_NUM}\s+({_UNIT_WORDS})\b[^?.!]{{0,20}}?\b(?:in|into|to|as)\s+(?:(?:a|an|the)\s+)?({_UNIT_WORDS})\b",
            (
                "Convert 10 miles to kilometres",
                "What's 5 kg in pounds?",
                "how much is a pint in millilitres",
            ),
            ("I ran 10 miles to the shop",),
        ),
        Rule(
            "compute.how_many_in",
            "how_many_in",
            rf"\bhow\s+many\s+({_UNIT_WORDS})\s+(?:are\s+)?(?:there\s+)?in\s+{_NUM}\s+({_UNIT_WORDS})\b",
            ("How many ounces in a pound?", "how many minutes are in three hours"),
            ("How many legs in a spider?",),
        ),
        Rule(
            "compute.number",
            "number",
            r"(?<![\d.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.])-?\d+(?:\.\d+)?",
            ("144, sir.", "6.2 kilometres", "1,609 metres"),
            ("no number here",),
        ),
        Rule(
            "compute.until",
            "until",
            r"\bhow\s+(?:long|many\s+(?:hours|minutes))\s+(?:is\s+it\s+|until|till|to|before)\s*(?:until|till|to)?\s*"
            r"(midnight|noon|midday|(\d{1,2})[:.](\d{2}))\b",
            ("How long until midnight?", "how long till 18:30"),
            ("How long until Christmas?",),
        ),
        # days left until a day of the calendar: the year's end, Christmas, a holiday
        Rule(
            "compute.days_left",
            "days_left",
            r"\b(?:how\s+many\s+(?:more\s+)?(?:days|sleeps)\b[^?.!]{0,30}?\b(?:left|remaining|until|till|to|before|in)|"
            r"how\s+long\s+(?:is\s+it\s+|is\s+there\s+|have\s+we\s+got\s+)?(?:until|till|to|before))\b"
            r"[^?.!]{0,20}?\b((?:the\s+)?end\s+of\s+(?:the\s+)?year|this\s+year|the\s+year|"
            + "|".join(sorted(clock.HOLIDAYS, key=len, reverse=True))
            + r")\b",
            (
                "How many days are left this year?",
                "how many days until Christmas",
                "How many sleeps till Christmas Eve?",
                "How many days remain until the end of the year?",
                "How long until New Year's Day?",
            ),
            ("How many days are in a year?", "How many days did Christmas last?"),
        ),
        # whether a number is prime: the gate works it out
        Rule(
            "compute.asks_prime",
            "asks_prime",
            r"\b(?:is|are)\s+(\d{1,12})\s+(?:a\s+)?prime(?:\s+number)?\b",
            ("Is 97 a prime number?", "is 51 prime"),
            ("What is a prime number?", "Is 97 a big number?"),
        ),
        Rule(
            "compute.says_not_prime",
            "not_prime",
            r"^\W*(?:no|nope|not\s+(?:at\s+all|quite)|i'm\s+afraid\s+not)\b|\b(?:is\s+not|isn't|not)\s+(?:a\s+)?prime\b|"
            r"\b(?:composite|divisible\s+by)\b",
            ("No, sir: 7 × 14.", "51 is not prime", "It's divisible by 3"),
            ("Yes, sir, 97 is prime.",),
        ),
        Rule(
            "compute.says_prime",
            "prime",
            r"^\W*(?:yes|yep|indeed|it\s+is|correct|certainly|absolutely)\b|\b(?:is|it's)\s+(?:a\s+)?prime\b",
            ("Yes, sir, 97 is prime.", "Indeed it is"),
            ("No, sir.",),
        ),
        Rule(
            "compute.product",
            "product",
            r"(?<![\d.])(\d{1,9})\s*(?:×|x|\*|times|multiplied\s+by)\s*(\d{1,9})(?!\d|\.\d)",
            ("7 × 14.", "3 times 17"),
            ("7 by 14 metres",),
        ),
        # a difference asked of figures the tools found ("Which quote was cheaper and by how much?")
        Rule(
            "compute.asks_difference",
            "asks_difference",
            r"\bby\s+how\s+much\b|\bhow\s+much\s+(?:more|less|cheaper|dearer|higher|lower|bigger|smaller|over|under)\b|"
            r"\bwhat(?:'s|\s+is|\s+was)\s+the\s+difference\s+(?:in|between)\s+(?:the\s+)?(?:price|cost|quotes?|amounts?|"
            r"figures?|totals?)\b",
            (
                "Which boiler quote was cheaper and by how much?",
                "How much more did the first one cost?",
            ),
            ("How much is a pint?", "What's the difference between a frog and a toad?"),
        ),
        # a count asked of a file's lines ("how many things on my shopping list?")
        Rule(
            "compute.asks_count",
            "asks_count",
            r"\bhow\s+many\s+(?:things|items|lines|entries|tasks|jobs|names|people|bits|points|rows)\b",
            ("How many things on my shopping list?", "how many items are in ~/todo.txt"),
            ("How many legs does a spider have?", "how many days until Friday"),
        ),
        # a total asked of figures the tools found ("add up my outgoings in ~/budget.txt")
        Rule(
            "compute.asks_total",
            "asks_total",
            r"\badd\s+(?:up|them|these|those|it\s+all)\b|\b(?:the\s+)?total\b|\baltogether\b|\bin\s+total\b|"
            r"\bsum\s+(?:of|up)\b|\bcombined\b|\btotted\s+up\b|\btot\s+up\b",
            (
                "add up my monthly outgoings in ~/budget.txt",
                "what do the items in ~/shop.txt come to in total?",
                "tot up the receipts in this file",
            ),
            ("How much is a pint?", "What is a sum type?"),
        ),
        Rule(
            "compute.duration",
            "duration",
            r"\b((?:twenty|thirty|forty|fifty)[-\s](?:one|two|three|four|five|six|seven|eight|nine)|\d+|an?|one|two|"
            r"three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
            r"eighteen|nineteen|twenty|thirty|forty|fifty)\s+(hours?|minutes?)\b",
            ("three hours and twenty minutes", "2 hours", "nine hours and fifty-five minutes"),
            ("hourly",),
        ),
        # the days of a month (a leap year's February has 29)
        Rule(
            "compute.month_days",
            "month_days",
            r"\bhow\s+many\s+days\s+(?:are\s+there\s+|are\s+|is\s+there\s+|there\s+are\s+)?(?:in|does|has)\s+(?:the\s+month\s+of\s+)?({month})(?:\s+(?:of\s+)?(\d{4}))?\b",
            (
                "How many days are there in February 2028?",
                "how many days in april",
                "How many days does February 2027 have?",
            ),
            ("How many days until February?", "How many days did it rain in April?"),
        ),
        Rule(
            "compute.asks_leap",
            "asks_leap",
            r"\b(?:is|was|will)\s+(\d{4})\s+(?:be\s+)?a\s+leap\s+year\b",
            ("Is 2028 a leap year?", "was 1900 a leap year"),
            ("What is a leap year?",),
        ),
        Rule(
            "compute.days_said",
            "days_said",
            r"\b(\d{1,3}|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[-\s]?)?(?:one|two|three|four|five|six|seven|"
            r"eight|nine)|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|"
            r"forty|fifty|sixty|seventy|eighty|ninety|a\s+hundred)\s+(?:more\s+)?(?:days|sleeps)\b",
            ("Thirty days, sir", "45 days in all", "thirty-one days to Christmas"),
            ("days of old",),
        ),
        # a count of days that says whether today is in it: a day either way is then its choice
        Rule(
            "compute.counts_today",
            "counts_today",
            r"\b(?:including|counting|not\s+counting|excluding|with|without|bar)\s+today\b|\bsleeps\b|"
            r"\bif\s+you\s+count\b|\binclusive\b",
            ("32 days, sir, counting today", "31 sleeps", "32 days if you count today"),
            ("31 days, sir.", "Today is Tuesday"),
        ),
        Rule(
            "compute.asks_until",
            "asks_until",
            r"\b(?:how\s+long|how\s+many\s+(?:more\s+)?(?:days|sleeps|weeks))\b[^?.!]{0,25}?\b(?:until|till|til|to|before)\b",
            ("How long till Tom's birthday?", "how many days until mum's birthday"),
            ("How long is the Nile?",),
        ),
        Rule(
            "compute.day_month",
            "day_month",
            r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?({month})\b|\b({month})\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b",
            ("the 3rd of January", "January 3rd"),
            ("January is cold",),
        ),
        # a temperature converted ("100 Fahrenheit in Celsius")
        Rule(
            "compute.temperature",
            "temperature",
            r"(?<![\d.])(-?\d+(?:\.\d+)?)\s*(?:°\s*|degrees\s+)?(f|fahrenheit|c|celsius|centigrade)\b[^?.!]{0,15}?\b(?:in|to|into|as)\s+"
            r"(?:degrees\s+)?(fahrenheit|celsius|centigrade|f|c)\b",
            ("What's 100 Fahrenheit in Celsius?", "convert 20 °C to Fahrenheit", "180c in f"),
            ("100 people in Celsius Street",),
        ),
        # a word's spelling asked, and the letters the answer spells it with
        Rule(
            "compute.asks_spelling",
            "asks_spelling",
            r"\bhow\s+(?:do|should|would)\s+(?:you|i|we|one)\s+spell\s+['\"‘“]?([a-z]{3,})\b|"
            r"^\W*spell\s+['\"‘“]?([a-z]{3,})\b",
            ("how do you spell rhythm", "Spell 'necessary' for me", "spell necessary backwards"),
            ("How do you spell it out for them?", "How do you cast a spell?"),
        ),
        Rule(
            "compute.letters",
            "letters",
            r"(?<![\w-])([A-Za-z](?:(?:\s*-\s*|\.\s*|,\s*|\s)[A-Za-z]){2,})(?![\w-])",
            ("R-H-Y-T-H-E-M, sir.", "r h y t h m"),
            ("Rhythm, sir.",),
        ),
        Rule(
            "compute.place",
            "place",
            r"\bin\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\b",
            ("What time is it in New York?", "the time in Tokyo"),
            ("what time is it",),
            flags=0,
        ),
    ],
)


def _rule(label: str) -> Rule:
    return COMPUTE.labelled(label)[0]


def _value(word: str) -> float:
    w = word.lower()
    if w[:1].isdigit() or w[:1] == "-":
        return float(w)
    return float(sum(WORD_NUMBERS.get(part, 0) for part in re.split(r"[-\s]+", w)) or 1)


def _unit(word: str) -> tuple[str, tuple[float, ...]] | None:
    w = word.lower()
    for cut in (w, w[:-1], w[:-2], "foot" if w == "feet" else w):
        if cut in UNITS:
            return UNITS[cut]
    return None


def _numbers(answer: str) -> list[float]:
    """The numbers an answer gives, in digits or in words ("forty-two", "a hundred and twelve")."""
    out = [float(m.group(0).replace(",", "")) for m in _rule("number").regex.finditer(answer)]
    said = [w for w in re.split(r"[^a-z]+", answer.lower()) if w]
    i = 0
    while i < len(said):
        w = said[i]
        if w not in WORD_NUMBERS or w in ("a", "an"):
            i += 1
            continue
        n, i = WORD_NUMBERS[w], i + 1
        if i < len(said) and said[i] == "hundred":  # "one hundred"
            n, i = n * 100, i + 1
            if i < len(said) and said[i] == "and":
                i += 1
            if i < len(said) and said[i] in WORD_NUMBERS and WORD_NUMBERS[said[i]] < 100:
                n, i = n + WORD_NUMBERS[said[i]], i + 1
        if (
            n % 100 >= 20
            and n % 10 == 0
            and i < len(said)
            and said[i] in WORD_NUMBERS
            and WORD_NUMBERS[said[i]] < 10
        ):
            n, i = n + WORD_NUMBERS[said[i]], i + 1  # "forty-two"
        out.append(float(n))
    return out


def expected(question: str) -> list[float]:
    """The numbers a right answer to the question gives (one for a sum; one per pint or
    gallon for a conversion), or [] when the gate cannot work it out."""
    m = _rule("sum").search(question)
    if m:
        a, op, b = _value(m.group(1)), (m.group(2) or m.group(3)).lower(), _value(m.group(4))
        if op in ("times", "x", "×", "*") or op.startswith("multiplied"):
            return [a * b]
        if op.startswith("%"):
            return [a * b / 100]
        if op in ("plus", "+"):
            return [a + b]
        if op in ("minus", "-"):
            return [a - b]
        return [a / b] if b else []
    m = _rule("temperature").search(question)
    if m:
        t, src, dst = float(m.group(1)), m.group(2).lower()[0], m.group(3).lower()[0]
        if src == dst or {src, dst} - {"f", "c"}:
            return []
        return [(t - 32) * 5 / 9] if src == "f" else [t * 9 / 5 + 32]
    m = _rule("power").search(question)
    if m:
        if m.group(1):
            n = float(m.group(2))
            return [n**0.5 if m.group(1).lower() == "square" else n ** (1 / 3)]
        if m.group(3):
            return [float(m.group(3)) ** (2 if m.group(4).lower() == "squared" else 3)]
        return [float(m.group(5)) ** int(m.group(6))] if int(m.group(6)) <= 40 else []
    m = _rule("convert").search(question)
    if m:
        amount, src, dst = _value(m.group(1)), _unit(m.group(2)), _unit(m.group(3))
    else:
        m = _rule("how_many_in").search(question)
        if not m:
            return []
        dst, amount, src = _unit(m.group(1)), _value(m.group(2)), _unit(m.group(3))
    if not src or not dst or src[0] != dst[0]:
        return []
    return [amount * s / d for s in src[1] for d in dst[1]]


def _exact(question: str) -> bool:
    """A sum of whole numbers (plus, minus, times): its answer is exact, not within 2%."""
    m = _rule("sum").search(question)
    if not m:
        return False
    op = (m.group(2) or m.group(3)).lower()
    whole = all(float(_value(m.group(g))).is_integer() for g in (1, 4))
    return whole and (
        op in ("times", "x", "×", "*", "plus", "+", "minus", "-") or op.startswith("multiplied")
    )


def wrong_figure(answer: str, question: str) -> str | None:
    """A sum or a conversion answered with another number (within 2%, or the answer rounded; a
    sum of whole numbers exactly: "17 times 6 = 104" is wrong)."""
    want = expected(question)
    said = _numbers(answer)
    if want and not said and len(words(answer)) >= 4:
        return f"the reply gives no figure, but the question works out to {want[0]:.4g}"
    if not want or not said:
        return None
    if _exact(question):
        if any(s == w for s in said for w in want):
            return None
    elif any(abs(s - w) <= max(0.02 * abs(w), 0.051) or round(w) == s for s in said for w in want):
        return None
    return f"{said[0]:g} is not {want[0]:.4g}, which the question works out to"


def known(question: str) -> str | None:
    """The answer to a sum the gate works out itself, as said to the user ("That comes to 102"):
    one figure only (a conversion between two pints is left to the model)."""
    want = expected(question)
    if len(want) != 1:
        return None
    w = want[0]
    figure = (
        f"{int(w):,}" if w.is_integer() and abs(w) < 1e15 else f"{w:,.4f}".rstrip("0").rstrip(".")
    )
    return f"That comes to {figure}, $sir."


@functools.lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    """Place name -> time zone, from the zone database's city names ("New York" ->
    America/New_York)."""
    out: dict[str, str] = {}
    for key in available_timezones():
        if "/" in key and not key.startswith(("Etc/", "SystemV/", "US/")):
            out.setdefault(key.rsplit("/", 1)[1].replace("_", " ").lower(), key)
    return out


def time_elsewhere(answer: str, question: str, now: dt.datetime | None) -> str | None:
    """The time in another city, worked out from its zone: "Five past ten in New York" when it
    is five past nine there."""
    m = _rule("place").search(question)
    if now is None or now.tzinfo is None or not m or not clock.asks_now(question):
        return None
    zone = _zones().get(m.group(1).lower())
    if zone is None:
        return None
    there = now.astimezone(ZoneInfo(zone))
    wrong = clock.wrong_clock(answer, clock.of(there))
    return f"{wrong} (the time in {m.group(1)})" if wrong and "time" in wrong else None


def _minutes(answer: str) -> int | None:
    total, found = 0, False
    for m in _rule("duration").regex.finditer(answer):
        n = int(_value(m.group(1)))
        total += n * 60 if m.group(2).lower().startswith("hour") else n
        found = True
    return total if found else None


def wrong_until(answer: str, question: str, now: clock.Clock | None) -> str | None:
    """How long until midnight, noon or a time of day, against the clock (within ten minutes)."""
    m = _rule("until").search(question)
    said = _minutes(answer)
    if now is None or not m or said is None:
        return None
    target = {"midnight": (24, 0), "noon": (12, 0), "midday": (12, 0)}.get(m.group(1).lower()) or (
        int(m.group(2)),
        int(m.group(3)),
    )
    left = (target[0] * 60 + target[1] - (now["hour"] * 60 + now["minute"])) % 1440
    if abs(said - left) > 10:
        return (
            f"{said // 60}h{said % 60:02d} is not the {left // 60}h{left % 60:02d} the clock gives"
        )
    return None


def days_said(answer: str) -> list[int]:
    """The counts of days an answer gives, in digits or words ("Thirty days", "45 days in all")."""
    return [
        int(n) for m in _rule("days_said").regex.finditer(answer) for n in _numbers(m.group(1))[:1]
    ]


def _slack(answer: str) -> int:
    """Days either way a count may be off: none, unless the answer counts today in or out
    ("32 days, counting today"; "sleeps")."""
    return 1 if _rule("counts_today").search(answer) else 0


def wrong_days_to_date(answer: str, question: str, now: clock.Clock | None) -> str | None:
    """Days until a date the answer itself names ("Thirty days, sir: his birthday is the 3rd of
    January" on 24 November), counted from the clock (a day either way)."""
    if (
        now is None
        or not _rule("asks_until").search(question)
        or _rule("days_left").search(question)
    ):
        return None
    said, m = days_said(answer), _rule("day_month").search(answer)
    if not said or not m:
        return None
    day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    today = clock.today_of(now)
    try:
        date = dt.date(today.year, MONTHS.index(month.lower()) + 1, int(day))
    except ValueError:
        return None
    if date < today:
        date = date.replace(year=today.year + 1)
    left = (date - today).days
    if all(abs(n - left) > _slack(answer) for n in said):
        return f"{said[0]} days is not the {left} the clock gives until {int(day)} {month.title()}"
    return None


def days_left(question: str, now: clock.Clock | None) -> int | None:
    """The days left this year, or until Christmas or a holiday the question names, by the
    clock; None when it asks for none of them."""
    m = _rule("days_left").search(question)
    if now is None or not m:
        return None
    today = clock.today_of(now)
    target = m.group(1).lower()
    if target in clock.HOLIDAYS:
        month, day = clock.HOLIDAYS[target]
        date = dt.date(today.year, month, day)
        if date < today:
            date = date.replace(year=today.year + 1)
    else:
        date = dt.date(today.year, 12, 31)
    return (date - today).days


def wrong_days_left(answer: str, question: str, now: clock.Clock | None) -> str | None:
    """How many days are left this year, or until Christmas or a holiday, against the clock
    (exactly, unless the answer says whether today is counted)."""
    left = days_left(question, now)
    if left is None:
        return None
    said = days_said(answer) or [int(x) for x in re.findall(r"^\W*(\d{1,3})\b", answer)]
    if said and all(abs(n - left) > _slack(answer) for n in said):
        return f"{said[0]} days is not the {left} the clock gives"
    return None


def wrong_calendar(answer: str, question: str) -> str | None:
    """The days of a month ("28 days, sir, as usual" for February 2028), or whether a year is
    a leap year, answered wrong: the calendar says."""
    m = _rule("month_days").search(question)
    if m:
        index = MONTHS.index(m.group(1).lower()) + 1
        right = (
            {calendar.monthrange(int(m.group(2)), index)[1]}
            if m.group(2)
            else {calendar.monthrange(y, index)[1] for y in (2027, 2028)}
        )
        said = {int(n) for n in _numbers(answer) if 27 <= n <= 31}
        if said and not said & right:
            return (
                f"{m.group(1).title()}{' ' + m.group(2) if m.group(2) else ''} has {min(right)} "
                f"days"
            )
    m = _rule("asks_leap").search(question)
    if m:
        leap = calendar.isleap(int(m.group(1)))
        said_not, said_yes = _rule("not_prime").search(answer), _rule("prime").search(answer)
        if (said_not and not said_yes and leap) or (said_yes and not said_not and not leap):
            return f"{m.group(1)} is {'' if leap else 'not '}a leap year"
    return None


def wrong_spelling(answer: str, question: str) -> str | None:
    """A word spelt out letter by letter, wrong ("R-H-Y-T-H-E-M" for rhythm)."""
    m = _rule("asks_spelling").search(question)
    if not m:
        return None
    word = (m.group(1) or m.group(2)).lower()
    if re.search(r"\b(?:backwards?|in\s+reverse|reversed)\b", question, re.I):
        word = word[::-1]
    for spelt in _rule("letters").regex.finditer(answer):
        letters = "".join(ch for ch in spelt.group(1).lower() if ch.isalpha())
        if len(letters) >= 3 and letters != word:
            return f"{word!r} is spelt {'-'.join(word.upper())}"
    return None


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    return all(n % k for k in range(2, int(n**0.5) + 1))


def wrong_prime(answer: str, question: str) -> str | None:
    """Whether a number is prime, answered wrong ("No, sir: 7 × 14." for 97), or shown by a
    product that is not the number."""
    m = _rule("asks_prime").search(question)
    if not m or int(m.group(1)) > 10**12:
        return None
    n = int(m.group(1))
    for p in _rule("product").regex.finditer(answer):
        if int(p.group(1)) * int(p.group(2)) != n:
            return f"{p.group(0)!r} is {int(p.group(1)) * int(p.group(2))}, not {n}"
    said_not, said_yes = _rule("not_prime").search(answer), _rule("prime").search(answer)
    prime = _is_prime(n)
    if said_not and not said_yes and prime:
        return f"{n} is prime"
    if said_yes and not said_not and not prime:
        return f"{n} is not prime"
    return None


def wrong_difference(answer: str, question: str, found: list[str]) -> str | None:
    """A difference of two figures the tools found, worked out wrong ("by £570" when £2,450 and
    £1,980 were quoted): a figure the answer gives that the findings do not must be one of the
    differences between theirs."""
    if not _rule("asks_difference").search(question):
        return None
    given = sorted(
        {
            float(m.group(0).replace(",", ""))
            for t in found
            for m in _rule("number").regex.finditer(t)
        }
    )
    if len(given) < 2:
        return None
    said = [float(m.group(0).replace(",", "")) for m in _rule("number").regex.finditer(answer)]
    new = [n for n in said if all(abs(n - g) > 0.01 for g in given)]
    if not new:
        return None
    gaps = [abs(a - b) for i, a in enumerate(given) for b in given[i + 1 :]]
    if any(abs(n - g) <= max(0.01 * g, 0.5) for n in new for g in gaps):
        return None
    return (
        f"{new[0]:g} is no difference of the figures found "
        f"({', '.join(f'{g:g}' for g in given[:4])})"
    )


def _found_figures(found: list[str]) -> list[float]:
    return [
        float(m.group(0).replace(",", "")) for t in found for m in _rule("number").regex.finditer(t)
    ]


def total_known(question: str, found: list[str]) -> str | None:
    """What the figures found add up to, said as the gate's own answer to a question asking
    their total ("They come to 1,585, $sir.")."""
    given = _found_figures(found)
    if not _rule("asks_total").search(question) or not 2 <= len(given) <= 12:
        return None
    total = sum(given)
    said = f"{total:,.0f}" if all(g == int(g) for g in given) else f"{total:,.2f}"
    return f"They come to {said} in all, $sir."


def wrong_total(answer: str, question: str, found: list[str]) -> str | None:
    """A total of the figures the tools found, added up wrong ("£1,485" for items that come to
    £1,585): a figure the answer gives that the findings do not, close to their total, must be
    the total or the sum of some of them."""
    if not _rule("asks_total").search(question):
        return None
    given = _found_figures(found)
    if not 2 <= len(given) <= 12:
        return None
    total = sum(given)
    said = [float(m.group(0).replace(",", "")) for m in _rule("number").regex.finditer(answer)]
    # near the total and none of the figures found: an attempt at the total
    near = [
        n for n in said if abs(n - total) <= 0.25 * total and all(abs(n - g) > 0.01 for g in given)
    ]
    if not near:
        return None
    sums = {
        round(sum(g for i, g in enumerate(given) if mask >> i & 1), 2)
        for mask in range(1, 1 << len(given))
    }
    for n in near:
        if all(abs(n - x) > max(0.005 * x, 0.01) for x in sums):
            return f"{n:g} is not what the figures found add up to ({total:g})"
    return None


def says_total(answer: str, question: str, found: list[str]) -> bool:
    """The answer gives the total the question asks of the figures found: it uses them, though
    it repeats none ("£7.15 in all" for 2.40, 1.65 and 3.10)."""
    given = _found_figures(found)
    if not _rule("asks_total").search(question) or not 2 <= len(given) <= 12:
        return False
    total = sum(given)
    return any(
        abs(float(m.group(0).replace(",", "")) - total) <= max(0.005 * total, 0.01)
        for m in _rule("number").regex.finditer(answer)
    )


def wrong_count(answer: str, question: str, lines: list[str]) -> str | None:
    """A count of a file's lines asked for ("how many things on my list?") and another given
    ("Six items" for five lines): the file's own lines are the count."""
    if not lines or not _rule("asks_count").search(question):
        return None
    said = _numbers(answer)
    right = len(lines)
    if said and said[0] != right:
        return f"{said[0]:g} is not the {right} lines the file has"
    return None


def says_count(answer: str, question: str, lines: list[str]) -> bool:
    """The answer gives the count of a file's lines that the question asks for ("3, sir.")."""
    said = _numbers(answer)
    return bool(lines and _rule("asks_count").search(question) and said and said[0] == len(lines))
