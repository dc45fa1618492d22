"""What the butler knows for certain when it answers (gate.in_hand), as data, and whether an
answer carries it (gate.carries): the ground a check can hold an answer to, and that an answer
composed from the facts can stand on when the model's is withdrawn (issue 19)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from tatlock.pipeline import facts, gate

NOW = dt.datetime(2026, 11, 24, 14, 5, tzinfo=ZoneInfo("Europe/London"))  # a Tuesday
SYSTEM = {
    "cpu": {"count": 2, "physical_cores": 2, "percent": 12.0, "load_average": [0.5, 0.4, 0.3]},
    "memory": {"total_gib": 23.5, "available_gib": 22.1, "used_percent": 6.1},
    "disk": {"path": "/root", "total_gib": 252.0, "free_gib": 77.3, "used_percent": 69.3},
    "os": {"system": "Linux", "release": "6.8.0", "platform": "Linux-6.8.0", "machine": "x86_64"},
    "python_version": "3.11.7",
}


def brief(question: str, guard: str | None = None, tools=(), told=()) -> gate.Brief:
    fs = (
        facts.for_guard(
            (guard,), guard, now=NOW, categories=["memory", "system", "time", "weather"]
        )
        if guard
        else []
    )
    return gate.Brief(
        question,
        persona="You are Tatlock, a British butler.",
        facts=fs,
        clock=NOW,
        guard_parts=(guard,) if guard else (),
        told=tuple(told),
        findings=[gate.Finding.of(t, a, r) for t, a, r in tools],
    )


def kinds(b: gate.Brief) -> dict[str, gate.Known]:
    return {k.kind: k for k in gate.in_hand(b)}


def test_the_facts_in_hand_are_data_not_only_text():
    b = brief("Who are you and what can you do?", "IDENTITY")
    got = kinds(b)
    assert got["name"].value == "Tatlock" and got["clock"].value["weekday"] == "tuesday"
    assert got["nature"].source == "fact:IDENTITY"
    caps = kinds(brief("What can you do?", "CAPABILITIES"))["capabilities"]
    assert "fetch weather forecasts" in caps.value and caps.source == "fact:CAPABILITIES"
    system = kinds(brief("How much memory?", tools=[("get_system_info", {}, SYSTEM)]))["system"]
    assert system.value["memory"]["total_gib"] == 23.5 and system.source == "tool:get_system_info"
    err = kinds(
        brief(
            "Weather?",
            tools=[("get_weather_forecast", {}, {"error": "Which place? Give a town or city."})],
        )
    )
    assert err["tool_error"].value == "Which place? Give a town or city."
    kept = kinds(
        brief(
            "Where do I live?",
            tools=[
                (
                    "get_personal_variable",
                    {"key": "location"},
                    {"key": "location", "value": "Leeds"},
                )
            ],
        )
    )
    assert kept["kept"].value == ("location", "Leeds")
    assert (
        kinds(brief("My dog?", told=["My dog is called Biscuit."]))["told"].value
        == "My dog is called Biscuit."
    )


def test_an_answer_carries_the_fact_or_does_not():
    got = kinds(brief("Who are you?", "IDENTITY"))
    assert gate.carries("I am Tatlock, sir.", got["name"]) and not gate.carries(
        "I am Jeeves, sir.", got["name"]
    )
    clock = kinds(brief("What day is it?", "TEMPORAL"))["clock"]
    assert gate.carries("Tuesday, sir.", clock) and gate.carries("It is 14:05, sir.", clock)
    assert not gate.carries("Monday, sir.", clock) and not gate.carries("A fine day, sir.", clock)
    system = kinds(brief("How much memory?", tools=[("get_system_info", {}, SYSTEM)]))["system"]
    assert gate.carries("23.5 GiB of memory, 22.1 free, sir.", system)
    assert not gate.carries("Plenty of memory, sir.", system)
    err = kinds(
        brief(
            "Weather?",
            tools=[("get_weather_forecast", {}, {"error": "Which place? Give a town or city."})],
        )
    )
    assert gate.carries("Which town or city, sir?", err["tool_error"])
    assert not gate.carries("Sunny, sir.", err["tool_error"])
    kept = kinds(
        brief(
            "Where do I live?",
            tools=[
                (
                    "get_personal_variable",
                    {"key": "location"},
                    {"key": "location", "value": "Leeds"},
                )
            ],
        )
    )["kept"]
    assert gate.carries("In Leeds, sir.", kept) and not gate.carries("In York, sir.", kept)
    caps = kinds(brief("What can you do?", "CAPABILITIES"))["capabilities"]
    assert gate.carries("I can fetch the weather and recall our talks, sir.", caps)
    assert not gate.carries("At your service, sir.", caps)
