"""What the gate can work out for itself and hold an answer to: sums ("What is 12 times 13?"),
unit conversions ("10 miles in kilometres", "ounces in a pound"), the time in another city (its
time zone is in the system's zone database: "New York" is America/New_York), and how long until
midnight, noon or a time of day. A small model gets these wrong with confidence ("144, sir"); a
number the answer gives must be the one worked out, within rounding.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from zoneinfo import ZoneInfo, available_timezones

from tatlock.pipeline.gate import clock
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.rulebook import Rule, Rulebook

_NUM = r"(-?\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred)"
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                 "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                 "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                 "hundred": 100, "dozen": 12}

# unit -> (dimension, size in the dimension's base unit); a pint may be British or American
UNITS: dict[str, tuple[str, tuple[float, ...]]] = {
    "km": ("length", (1000.0,)), "kilometre": ("length", (1000.0,)), "kilometer": ("length", (1000.0,)),
    "mile": ("length", (1609.344,)), "m": ("length", (1.0,)), "metre": ("length", (1.0,)), "meter": ("length", (1.0,)),
    "cm": ("length", (0.01,)), "centimetre": ("length", (0.01,)), "centimeter": ("length", (0.01,)),
    "mm": ("length", (0.001,)), "millimetre": ("length", (0.001,)), "inch": ("length", (0.0254,)),
    "foot": ("length", (0.3048,)), "feet": ("length", (0.3048,)), "yard": ("length", (0.9144,)),
    "kg": ("mass", (1000.0,)), "kilo": ("mass", (1000.0,)), "kilogram": ("mass", (1000.0,)),
    "g": ("mass", (1.0,)), "gram": ("mass", (1.0,)), "pound": ("mass", (453.59237,)), "lb": ("mass", (453.59237,)),
    "ounce": ("mass", (28.349523,)), "oz": ("mass", (28.349523,)), "stone": ("mass", (6350.29,)),
    "litre": ("volume", (1000.0,)), "liter": ("volume", (1000.0,)), "ml": ("volume", (1.0,)),
    "millilitre": ("volume", (1.0,)), "milliliter": ("volume", (1.0,)), "pint": ("volume", (568.26, 473.18)),
    "gallon": ("volume", (4546.09, 3785.41)), "cup": ("volume", (250.0, 236.59)), "tablespoon": ("volume", (15.0, 14.79)),
    "teaspoon": ("volume", (5.0, 4.93)),
    "second": ("time", (1.0,)), "minute": ("time", (60.0,)), "hour": ("time", (3600.0,)), "day": ("time", (86400.0,)),
    "week": ("time", (604800.0,)),
}
_UNIT_WORDS = "|".join(sorted((re.escape(u) + ("(?:e?s)?" if len(u) > 2 else "") for u in UNITS), key=len,
                              reverse=True))

COMPUTE = Rulebook("gate.compute", [
    Rule("compute.sum", "sum",
         r"(?<![\d/-])(\d+(?:\.\d+)?|\b(?:{hour_word}|twenty|thirty|forty|fifty|hundred))(?:\s*(times|multiplied\s+by|"
         r"x|×|\*|plus|\+|divided\s+by|÷|%\s+of)\s*|\s+(minus|-|/)\s+)(\d+(?:\.\d+)?\b|(?:{hour_word}|twenty|thirty|"
         r"forty|fifty|hundred)\b)(?![\d/-])",
         ("What is 12 times 13?", "what's 17 x 24", "9x7?", "100 divided by 8", "What's 15% of 80?", "10 - 3",
          "What is six times seven?"),
         ("What is 12?", "the 7-a-side team", "What happened on 2026-11-23?", "on 24/11")),
    Rule("compute.convert", "convert",
         rf"\b{_NUM}\s+({_UNIT_WORDS})\b[^?.!]{{0,20}}?\b(?:in|into|to|as)\s+(?:(?:a|an|the)\s+)?({_UNIT_WORDS})\b",
         ("Convert 10 miles to kilometres", "What's 5 kg in pounds?", "how much is a pint in millilitres"),
         ("I ran 10 miles to the shop",)),
    Rule("compute.how_many_in", "how_many_in",
         rf"\bhow\s+many\s+({_UNIT_WORDS})\s+(?:are\s+)?(?:there\s+)?in\s+{_NUM}\s+({_UNIT_WORDS})\b",
         ("How many ounces in a pound?", "how many minutes are in three hours"), ("How many legs in a spider?",)),
    Rule("compute.number", "number", r"(?<![\d.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.])-?\d+(?:\.\d+)?",
         ("144, sir.", "6.2 kilometres", "1,609 metres"), ("no number here",)),
    Rule("compute.until", "until",
         r"\bhow\s+(?:long|many\s+(?:hours|minutes))\s+(?:is\s+it\s+|until|till|to|before)\s*(?:until|till|to)?\s*"
         r"(midnight|noon|midday|(\d{1,2})[:.](\d{2}))\b",
         ("How long until midnight?", "how long till 18:30"), ("How long until Christmas?",)),
    Rule("compute.duration", "duration",
         r"\b((?:twenty|thirty|forty|fifty)[-\s](?:one|two|three|four|five|six|seven|eight|nine)|\d+|an?|one|two|"
         r"three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
         r"eighteen|nineteen|twenty|thirty|forty|fifty)\s+(hours?|minutes?)\b",
         ("three hours and twenty minutes", "2 hours", "nine hours and fifty-five minutes"), ("hourly",)),
    Rule("compute.place", "place", r"\bin\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\b",
         ("What time is it in New York?", "the time in Tokyo"), ("what time is it",), flags=0),
])


def _rule(label: str) -> Rule:
    return COMPUTE.labelled(label)[0]


def _value(word: str) -> float:
    w = word.lower()
    if w[:1].isdigit() or w[:1] == "-":
        return float(w)
    return float(sum(_WORD_NUMBERS.get(part, 0) for part in re.split(r"[-\s]+", w)) or 1)


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
        if w not in _WORD_NUMBERS or w in ("a", "an"):
            i += 1
            continue
        n, i = _WORD_NUMBERS[w], i + 1
        if i < len(said) and said[i] == "hundred":  # "one hundred"
            n, i = n * 100, i + 1
            if i < len(said) and said[i] == "and":
                i += 1
            if i < len(said) and said[i] in _WORD_NUMBERS and _WORD_NUMBERS[said[i]] < 100:
                n, i = n + _WORD_NUMBERS[said[i]], i + 1
        if 20 <= n % 100 and n % 10 == 0 and i < len(said) and said[i] in _WORD_NUMBERS and _WORD_NUMBERS[said[i]] < 10:
            n, i = n + _WORD_NUMBERS[said[i]], i + 1  # "forty-two"
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


def wrong_figure(answer: str, question: str) -> str | None:
    """A sum or a conversion answered with another number (within 2%, or the answer rounded)."""
    want = expected(question)
    said = _numbers(answer)
    if want and not said and len(words(answer)) >= 4:
        return f"the reply gives no figure, but the question works out to {want[0]:.4g}"
    if not want or not said:
        return None
    if any(abs(s - w) <= max(0.02 * abs(w), 0.051) or round(w) == s for s in said for w in want):
        return None
    return f"{said[0]:g} is not {want[0]:.4g}, which the question works out to"


@functools.lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    """Place name -> time zone, from the zone database's city names ("New York" -> America/New_York)."""
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
    target = {"midnight": (24, 0), "noon": (12, 0), "midday": (12, 0)}.get(m.group(1).lower()) or \
        (int(m.group(2)), int(m.group(3)))
    left = (target[0] * 60 + target[1] - (now["hour"] * 60 + now["minute"])) % 1440
    if abs(said - left) > 10:
        return f"{said // 60}h{said % 60:02d} is not the {left // 60}h{left % 60:02d} the clock gives"
    return None
