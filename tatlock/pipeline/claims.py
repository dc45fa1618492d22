"""Claims an answer makes that nothing it was given supports: a forecast no tool gave, a
recollection no search found, results from a tool that failed, a temperature the forecast does
not give. Small models state these with confidence ("It will be sunny and 25 degrees, sir"),
and a user cannot tell them from facts; the gate withdraws them (I_DONT_KNOW, or RETRY for a
contradiction) instead.

Each check leaves an honest answer alone: one that says the tool failed or found nothing, or
that hedges ("usually", "I could not reach the weather service").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tatlock.pipeline.routing import needs
from tatlock.pipeline.clockcheck import MONTHS

_I = re.IGNORECASE

_RESULT = re.compile(r"^Result of (\w+)\(")

# an answer that admits what it does not know, or that a tool failed
HEDGE = re.compile(r"\b(?:can(?:no|')t|cannot|unable|not\s+able|don't\s+know|do\s+not\s+know|no\s+(?:forecast|record|"
                   r"results?|note|mention|trace|access|way\s+of)|nothing|could\s+not|couldn't|not\s+sure|"
                   r"without\s+(?:a|the)\s+forecast|usually|typically|on\s+average|in\s+general|not\s+available|"
                   r"isn't\s+available|unavailable|failed|afraid|sorry|didn't\s+(?:find|turn\s+up)|"
                   r"did\s+not\s+(?:find|turn\s+up)|not\s+(?:reach|find|found|turn)|no\s+luck)\b", _I)

# weather stated as fact: a temperature, or conditions now or soon
_WEATHER_CLAIM = re.compile(r"-?\b\d+(?:\.\d+)?\s*(?:°\s*[cf]?|º\s*[cf]?|degrees)|\b(?:it(?:'s|\s+is|\s+will\s+be|"
                            r"'ll\s+be)|expect|there\s+will\s+be|you'll\s+have|lovely\s+and|looking)\s+(?:\w+\s+){0,2}?"
                            r"(?:sunny|raining|rainy|cloudy|snowing|windy|clear|dry|wet|cold|warm|hot|mild|freezing|"
                            r"showers|rain|snow|overcast)\b", _I)
_TEMPERATURE = re.compile(r"((?:-|minus\s+)?\d+(?:\.\d+)?)\s*(?:°|º|degrees)\s*(c|f|celsius|fahrenheit)?\b|"
                          r"\b(minus\s+\d+(?:\.\d+)?)\b", _I)

# a recollection stated as fact: "You told me your Audi needs new tyres", "We agreed on Friday"
_RECALL_CLAIM = re.compile(r"\byou\s+(?:told|said|mentioned|asked|wrote)\b|\bwe\s+(?:discussed|talked|spoke|agreed|"
                           r"decided|planned|settled)\b|\byour\s+[\w' -]{2,30}?\s+(?:is|was|are)\s+(?:on|at|due|"
                           r"booked|set\s+for)\b", _I)


@dataclass(frozen=True)
class Finding:
    tool: str
    status: str  # "ok" | "empty" | "error"
    result: str  # the result's text (its JSON as given)
    data: object = None  # the result parsed, when it is JSON


def read_findings(findings: tuple[str, ...] | list[str]) -> list[Finding]:
    """Each tool result the respond phase saw ("Result of tool(args): {...}"), with whether it
    answered, found nothing or failed. Read once per answer; every check of findings uses it."""
    out = []
    for f in findings:
        m = _RESULT.match(f)
        if not m:
            continue
        result = f.split("): ", 1)[1] if "): " in f else f[m.end():]
        try:
            obj = json.loads(result)
        except ValueError:
            obj = None
        status = "ok"
        if isinstance(obj, dict):
            if "error" in obj:
                status = "error"
            elif obj.get("count") == 0 or obj.get("results") == []:
                status = "empty"
        elif '"error"' in result or "'error'" in result:
            status = "error"
        out.append(Finding(m.group(1), status, result, obj))
    return out


def _relays(answer: str, error: str) -> bool:
    """The reply passes on a failure's own words ("tatlock never reads those")."""
    said = set(re.findall(r"[a-z]{4,}", answer.lower()))
    return len(said & set(re.findall(r"[a-z]{4,}", error.lower())) - {"error", "sir"}) >= 2


def unsupported(answer: str, question: str, found: list[Finding]) -> tuple[str, str] | None:
    """(fallback type, why) for a claim nothing supports, or None."""
    if HEDGE.search(answer):
        return None
    failed = [f for f in found if f.status == "error"]
    if failed and len(failed) == len(found) and not any(_relays(answer, f.result) for f in failed):
        # every tool failed, and the reply neither says so nor passes on what the failure said
        return "I_DONT_KNOW", f"{failed[0].tool} failed, but the reply answers as if it had not"
    weather = [f for f in found if f.tool == "get_weather_forecast" and f.status == "ok"]
    if not weather and _WEATHER_CLAIM.search(answer) and needs.tool_rule("weather", question):
        return "I_DONT_KNOW", "weather stated without a forecast"
    recall = [f for f in found if f.tool.startswith("recall")]
    if recall and all(f.status == "empty" for f in recall):
        return "I_DONT_KNOW", "the search found nothing, but the reply recalls something"
    if not recall and _RECALL_CLAIM.search(answer) and needs.tool_rule("recall", question):
        return "I_DONT_KNOW", "a recollection no search gave"
    return None


_WET = re.compile(r"\b(?:rain|drizzle|showers?|snow|sleet)\b", _I)
_SAYS_DRY = re.compile(r"\b(?:dry|not\s+(?:raining|rainy|wet|snowing)|no\s+(?:rain|snow))\b", _I)
_SAYS_WET = re.compile(r"\b(?:rain\w*|drizzl\w*|showers?|snow\w*|sleet|wet)\b", _I)


_MEMORY_TOOLS = ("recall_memories", "recall_memories_with_time", "get_personal_variable")
_MONTH_NAMES = tuple(m for m in MONTHS if m != "may")  # "may" is a verb as often as a month


_MAY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?may\b|\bmay\s+\d{1,2}(?:st|nd|rd|th)?\b")


def _months(low: str) -> set[str]:
    """The months a text names; May only beside a day ("3 May", "May 3rd"), not the verb."""
    return {m for m in _MONTH_NAMES if re.search(rf"\b{m}\b", low)} | ({"may"} if _MAY.search(low) else set())


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:gi?b|gigabytes?|gigs?)\b", re.I)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|per\s*cent|percent)", re.I)


def _sizes_not_in(answer: str, result: str) -> str | None:
    """A size or a share of this computer the system report does not give: "16 GB of RAM" when
    it says 7.7 GiB, "24% used" when it says 76.2% (within rounding; a share may be the rest)."""
    given = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", result)]
    heat = re.search(r"\b\d+(?:\.\d+)?\s*(?:°\s*[cf]?|degrees)|\bfans?\b", answer, re.I)
    if heat and not re.search(r"temp|fan|sensor", result, re.I):  # "the CPU is a comfortable 48 °C"
        return f"{heat.group(0)!r}: the system report gives no temperature or fans"
    for m in _SIZE.finditer(answer):
        said = float(m.group(1))
        # GiB or GB, rounded either way: within a tenth (or 0.6 for small sizes), or GB = GiB x 1.074
        if not any(abs(said - g) <= max(0.6, g * 0.1) or abs(said - g * 1.074) <= max(0.6, g * 0.1) for g in given):
            return f"the size {m.group(0)!r} is not in the system report"
    for m in _PERCENT.finditer(answer):
        said = float(m.group(1))
        if not any(abs(said - g) <= 1.5 or abs(said - (100 - g)) <= 1.5 for g in given):
            return f"the share {m.group(0)!r} is not in the system report"
    return None


def contradicted(answer: str, found: list[Finding]) -> str | None:
    """A month that is not the one memory holds, a temperature the forecast does not give
    (within a degree; Fahrenheit converted), or dry weather where it rains."""
    remembered = " ".join(f.result for f in found if f.status == "ok" and f.tool in _MEMORY_TOOLS).lower()
    if remembered:
        told, kept = _months(answer.lower()), _months(remembered)
        if told and kept and not told & kept:  # "by the end of June" when the memory says January
            return f"the reply says {sorted(told)[0].title()}, but the memory says {sorted(kept)[0].title()}"
    system = " ".join(f.result for f in found if f.tool == "get_system_info" and f.status == "ok")
    if system:
        wrong = _sizes_not_in(answer, system)
        if wrong:
            return wrong
    weather = [f.result for f in found if f.tool == "get_weather_forecast" and f.status == "ok"]
    if not weather:
        return None
    now = re.search(r'"current":\s*\{[^}]*"weather":\s*"([^"]+)"', weather[0])
    if now and _WET.search(now.group(1)) and _SAYS_DRY.search(answer) \
            and not _SAYS_WET.search(_SAYS_DRY.sub(" ", answer)):
        return f"the reply says it is dry, but the forecast says {now.group(1)!r}"
    given = [float(x) for r in weather for x in re.findall(r"-?\d+(?:\.\d+)?", r)]
    for m in _TEMPERATURE.finditer(answer):
        said = (m.group(1) or m.group(3)).lower()
        t = -float(said.split()[-1]) if said.startswith("minus") else float(said)
        if (m.group(2) or "").lower().startswith("f"):
            t = (t - 32) * 5 / 9
        if not any(abs(t - g) <= 1.0 for g in given):
            return f"the temperature {m.group(0).strip()!r} is not in the forecast"
    return None
