"""Details an answer gives from a tool's findings, held to the findings: a figure with its unit
("220 °C for about 45 minutes" when the recipe says 180C and 25-30 mins), a weekday ("by
Monday" when the notes say Friday), a colour ("sage green" when memory holds Hague Blue) and a
date memory stamped in its own form ("the 14th of September" when it says 2026-10-14).

A detail is held only where the findings give the same kind of detail: an answer may add a
figure or a day the findings say nothing of (a day counted from the clock, a rule of thumb),
but not swap the one they give for another. A small model swaps them while sounding sure, and
a user who asked the tool cannot tell.
"""

from __future__ import annotations

from tatlock.pipeline.gate import readings
from tatlock.pipeline.gate.brief import Finding
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import Rule, Rulebook

# the tools whose findings are details to repeat (not a forecast or a system report: their own
# checks read those)
TOOLS = (
    "recall_memories",
    "recall_memories_with_time",
    "recall_topic",
    "get_personal_variable",
    "analyze_file",
    "web_search",
)
MEMORY = ("recall_memories", "recall_memories_with_time", "recall_topic", "get_personal_variable")

# the colours people name things by; one swapped for another is a detail changed
COLOURS = set(
    "red orange yellow green blue purple violet pink brown black white grey gray navy teal sage "
    "beige "
    "cream ivory lilac maroon magenta turquoise crimson scarlet burgundy mustard olive "
    "charcoal".split()
)

GROUNDED = Rulebook(
    "gate.grounded",
    [
        # a figure with its unit; a range ("25-30 mins") gives both ends
        Rule(
            "grounded.figure",
            "figure",
            r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?:-|–|to)\s*(\d+(?:\.\d+)?))?\s*(°\s*c|°\s*f|º\s*c|c\b|f\b|degrees|"
            r"mins?\b|minutes?|hours?|hrs?\b|%|per\s*cent|mph|km\b|kilomet(?:re|er)s|miles?|kg|kilos?|grams?|g\b|ml\b|"
            r"litres?|liters?|gib|gb|mb)",
            (
                "Heat oven to 180C/160C fan",
                "Bake for 25-30 mins",
                "220 °C for about 45 minutes",
                "12% up",
            ),
            ("gas 4", "the 14th of October", "Room 101"),
        ),
        # a time of day ("6 pm", "10am", "17:30"): opening hours and the like
        Rule(
            "grounded.clock",
            "clock",
            r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])",
            ("It closes at 6 pm today", "Open Tuesday–Sunday 10am–5pm", "at 7.30pm"),
            ("6 people", "pm me"),
        ),
        Rule(
            "grounded.money",
            "money",
            r"([£$€])\s?(\d+(?:,\d{3})*(?:\.\d+)?)",
            ("a budget of about £1,200", "$30"),
            ("30 pounds of flour",),
        ),
        Rule(
            "grounded.iso_date",
            "iso_date",
            r"\b20\d\d-(\d\d)-(\d\d)\b",
            ("2026-10-14 09:12",),
            ("2026 10 14",),
        ),
        Rule(
            "grounded.asks_when_said",
            "asks_when_said",
            r"\bwhen\s+(?:did|was\s+it|was\s+that)\s+(?:i|we|you)?\s*(?:tell|told|mention\w*|say|said|talk\w*|discuss\w*|spoke|"
            r"speak|decide\w*|agree\w*|ask\w*)\b|\bwhat\s+(?:day|date)\s+did\s+(?:i|we)\s+(?:tell|mention|say|talk|discuss)",
            ("When did I tell you about my new job?", "what date did we talk about the boiler?"),
            ("When is Maria's birthday?", "When's my dentist appointment?"),
        ),
        # figures worked out of the findings (a difference, a total): new figures by right
        Rule(
            "grounded.asks_sum",
            "asks_sum",
            r"\bby\s+how\s+much\b|\bhow\s+much\s+(?:more|less|cheaper|dearer|higher|lower|over|under)\b|\btotal\b|"
            r"\baltogether\b|\bin\s+all\b|\bdifference\b|\bsum\b|\badd\s+(?:up|them)\b|\bper\s+(?:day|week|month|"
            r"person|head)\b|\baverage\b|\bconvert\b|\bin\s+(?:fahrenheit|celsius|miles|km|kilometres|pounds|dollars|euros)\b",
            (
                "Which boiler quote was cheaper and by how much?",
                "open ~/budget.txt and tell me the total",
            ),
            ("What temperature and how long for banana bread?",),
        ),
    ],
)

_UNITS = {
    "°c": "c",
    "ºc": "c",
    "c": "c",
    "degrees": "c",
    "°f": "f",
    "f": "f",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "hour": "h",
    "hours": "h",
    "hr": "h",
    "hrs": "h",
    "%": "%",
    "per cent": "%",
    "percent": "%",
    "mph": "mph",
    "km": "km",
    "kilometres": "km",
    "kilometers": "km",
    "mile": "mi",
    "miles": "mi",
    "kg": "kg",
    "kilo": "kg",
    "kilos": "kg",
    "gram": "g",
    "grams": "g",
    "g": "g",
    "ml": "ml",
    "litre": "l",
    "litres": "l",
    "liter": "l",
    "liters": "l",
    "gib": "gb",
    "gb": "gb",
    "mb": "mb",
}


def _rule(label: str) -> Rule:
    return GROUNDED.labelled(label)[0]


def figures(text: str) -> dict[str, list[float]]:
    """Unit -> the figures a text gives in it (both ends of a range)."""
    out: dict[str, list[float]] = {}
    for m in _rule("figure").regex.finditer(text):
        unit = _UNITS.get(
            " ".join(m.group(3).lower().replace("°", "° ").replace("º", "º ").split())
            .replace("° ", "°")
            .replace("º ", "º")
        )
        if unit:
            out.setdefault(unit, []).extend(float(x) for x in m.groups()[:2] if x)
    for m in _rule("money").regex.finditer(text):
        out.setdefault(m.group(1), []).append(float(m.group(2).replace(",", "")))
    return out


def _close(said: float, given: list[float]) -> bool:
    lo, hi = min(given), max(given)
    if lo <= said <= hi and len(given) >= 2:
        return True  # inside what the findings range over
    return any(abs(said - g) <= max(0.5, abs(g) * 0.1) for g in given)


def _clock_times(text: str) -> set[int]:
    """The times of day a text gives with am or pm, as minutes after midnight."""
    out = set()
    for h, mi, half in _rule("clock").regex.findall(text):
        if 1 <= int(h) <= 12:
            out.add((int(h) % 12 + (12 if half.lower().startswith("p") else 0)) * 60 + int(mi or 0))
    return out


def _iso_days(text: str) -> set[tuple[int, int]]:
    return {(int(d), int(m)) for m, d in _rule("iso_date").regex.findall(text) if 1 <= int(m) <= 12}


def _members(text: str, kind: set[str] | tuple[str, ...]) -> set[str]:
    return {w for w in words(text) if w in kind}


def clash(
    answer: str, found: list[Finding], question: str, days: set[tuple[int, int]]
) -> str | None:
    """A detail of the answer that swaps one the findings give; ``days`` are the (day, month)
    dates the answer names (read by the caller)."""
    ok = [f for f in found if f.status == "ok" and f.tool in TOOLS]
    if not ok:
        return None
    source = "\n".join(readings.result_text(f) for f in ok)
    asked = figures(question)
    given = figures(source)
    for unit, said in figures(answer).items() if not _rule("asks_sum").search(question) else ():
        if unit in given and unit not in asked and not any(_close(s, given[unit]) for s in said):
            return (
                f"the reply gives {said[0]:g} {unit}, but the findings say {given[unit][0]:g} "
                f"{unit}"
            )
    # the day a thing was said is the stamp's (a birthday said in October is still in May)
    said_t, given_t = _clock_times(answer), _clock_times(source) | _clock_times(question)
    if said_t and given_t and not said_t & given_t:
        return (
            f"the reply gives {sorted(said_t)[0] // 60}:{sorted(said_t)[0] % 60:02d}, which the "
            f"findings do not"
        )
    stamped = _iso_days(source) if _rule("asks_when_said").search(question) else set()
    if days and stamped and not days & stamped and not _iso_days(answer):
        d, m = sorted(stamped)[0]
        return (
            f"the reply gives another date than the {d} {MONTHS[m - 1].title()} the findings hold"
        )
    if any(f.tool in MEMORY or f.tool == "analyze_file" for f in ok):
        said_days, given_days = (
            _members(answer, WEEKDAYS),
            _members(source, WEEKDAYS) | _members(question, WEEKDAYS),
        )
        if said_days and given_days and not said_days & given_days:
            return (
                f"the reply says {sorted(said_days)[0].title()}, but the findings say "
                f"{sorted(given_days)[0].title()}"
            )
    if any(f.tool in MEMORY for f in ok):
        said_c, given_c = (
            _members(answer, COLOURS),
            _members(source, COLOURS) | _members(question, COLOURS),
        )
        if said_c and given_c and not said_c & given_c:
            return f"the reply says {sorted(said_c)[0]}, but memory holds {sorted(given_c)[0]}"
    return None
