"""What the butler knows for certain when it answers, as data: the clock, its own name and
nature, what it can do, this computer's report, a tool's error, a kept fact, a forecast, what
memory or the user gave. ``in_hand(brief)`` lists them; ``carries(answer, k)`` tells whether an
answer carries one (the name said, the clock's date or time said and not contradicted, a
number of the system report given, the error passed on, the kept value repeated).

A check can hold an answer to a question these facts answer to carrying them, and an answer
composed from them can stand in for one the gate withdrew.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from tatlock.pipeline.gate import clock, readings
from tatlock.pipeline.gate.brief import Brief
from tatlock.pipeline.gate.text import words

KINDS = (
    "clock",
    "name",
    "nature",
    "capabilities",
    "system",
    "tool_error",
    "kept",
    "weather",
    "memory",
    "told",
)


@dataclass(frozen=True)
class Known:
    kind: str  # one of KINDS
    # clock: a clock dict; name: str; capabilities: tuple of phrases; system/weather: the tool's
    # dict;
    value: Any
    #             tool_error: the error text; kept: (key, value); memory: list of texts; told: the
    # text
    text: str  # the fact in words
    # where it came from: "persona", "fact:IDENTITY", "tool:get_system_info", "told", "clock"
    source: str


def _clock_text(c: dict) -> str:
    return (
        f"{c['weekday'].title()} {c['day']} {c['month'].title()} {c['year']}, "
        f"{c['hour']:02d}:{c['minute']:02d}"
    )


def in_hand(brief: Brief) -> list[Known]:
    """Every fact in hand for this answer, in a fixed order (the clock first)."""
    c = brief.context()
    out: list[Known] = []
    if c.clock:
        out.append(
            Known(
                "clock",
                c.clock,
                _clock_text(c.clock),
                "tool:get_current_datetime"
                if c.clock_tool
                else "fact:TEMPORAL"
                if any(f.kind == "TEMPORAL" for f in brief.facts)
                else "clock",
            )
        )
    out.append(Known("name", c.persona_name, c.persona_name, "persona"))
    for fact in brief.facts:
        if fact.instruction:
            continue
        if fact.kind == "IDENTITY":
            out.append(Known("nature", fact.text, fact.text, "fact:IDENTITY"))
        elif fact.kind == "CAPABILITIES":
            out.append(
                Known(
                    "capabilities",
                    fact.value if isinstance(fact.value, tuple) else (),
                    fact.text,
                    "fact:CAPABILITIES",
                )
            )
    for f in brief.findings:
        src = f"tool:{f.tool}"
        if f.status == "error":
            out.append(Known("tool_error", f.error, f.error, src))
        elif f.status == "empty":
            continue
        elif f.tool == "get_system_info":
            out.append(Known("system", f.data, readings.result_text(f), src))
        elif f.tool in ("get_personal_variable", "set_personal_variable") and isinstance(
            f.data, dict
        ):
            key, value = str(f.data.get("key", "")), str(f.data.get("value", ""))
            out.append(Known("kept", (key, value), f"{key}: {value}", src))
        elif f.tool == "get_weather_forecast":
            out.append(Known("weather", f.data, readings.result_text(f), src))
        elif f.tool.startswith("recall"):
            texts = [str(t) for t in readings.read(f, "texts")]
            out.append(Known("memory", texts, " / ".join(texts), src))
    out += [Known("told", t, t, "told") for t in brief.told]
    return out


def carries(answer: str, k: Known) -> bool:
    """Whether the answer carries this fact."""
    low = answer.lower()
    if k.kind == "clock":
        return (
            clock.says_time_or_date(answer)
            and clock.wrong_clock(answer, k.value) is None
            and _names_now(low, k.value)
        )
    if k.kind == "name":
        return str(k.value).lower() in low
    if k.kind == "nature":
        return "butler" in low or "tatlock" in low
    if k.kind == "capabilities":
        said = {w[:5] for w in words(answer) if len(w) >= 4}
        return any({w[:5] for w in words(p) if len(w) >= 4} & said for p in k.value)
    if k.kind == "tool_error":
        said = {w for w in words(answer) if len(w) >= 4}
        return len(said & {w for w in words(str(k.value)) if len(w) >= 4} - {"error"}) >= 2
    if k.kind == "kept":
        return bool(k.value[1]) and all(w in set(words(answer)) for w in words(k.value[1]))
    if k.kind in ("system", "weather", "memory", "told"):
        return readings.uses(answer, k.text) >= (2 if k.kind == "system" else 1)
    return False


def _names_now(low: str, c: dict) -> bool:
    """The answer names today (its weekday, its day and month, or its year) or the time."""
    said = set(words(low))
    if c["weekday"] in said or c["month"] in said or str(c["year"]) in said:
        return True
    now = dt.time(c["hour"], c["minute"])
    return (
        f"{now:%H:%M}" in low
        or f"{now:%-I:%M}" in low
        or f"{c['hour']:02d}.{c['minute']:02d}" in low
    )
