"""False alarms the gate learnt in its fifth round, from the blind set gate_train_g9 (scored once
held out first: 4 of 60 good answers withdrawn): each class in wordings of its own, beside a bad
answer of the same shape that must still be withdrawn."""

from __future__ import annotations

import datetime as dt
from functools import partial
from zoneinfo import ZoneInfo

import pytest

from support import gatecase

THURSDAY = dt.datetime(2026, 11, 26, 18, 30, tzinfo=ZoneInfo("Europe/London"))

withdrawn = partial(gatecase.withdrawn, now=THURSDAY)

CLOCK = (
    "get_current_datetime",
    {},
    {"iso": "2026-11-26T18:30:00+00:00", "date": "2026-11-26", "time": "18:30"}
    | {"weekday": "Thursday", "timezone": "GMT", "utc_offset": "+00:00"},
)


def forecast(place: str, days: list[tuple[str, str, float, float]]) -> tuple:
    daily = [
        {"date": d, "summary": s, "max_c": hi, "min_c": lo, "precipitation_mm": 0.0}
        | {"precipitation_probability": 10, "wind_max_kmh": 12.0}
        for d, s, hi, lo in days
    ]
    return (
        "get_weather_forecast",
        {"location": place, "days": len(days)},
        {"location": place, "current": {"temperature_c": daily[0]["max_c"] - 2}, "daily": daily},
    )


LEEDS = forecast(
    "Leeds, England, United Kingdom",
    [
        ("2026-11-26", "overcast", 9.0, 4.0),
        ("2026-11-27", "light rain", 8.0, 3.0),
        ("2026-11-28", "partly cloudy", 7.0, 1.0),
        ("2026-11-29", "clear sky", 6.0, -1.0),
    ],
)


# -- the clock looked up beside a forecast: the weekdays said are the forecast's days ------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Saturday is partly cloudy at 7°C, sir, and Sunday clear but cold.", False),
        ("Friday brings light rain, sir; the weekend looks drier.", False),
        ("Today is Saturday, sir, and it is overcast.", True),  # said of now: held to the clock
    ],
)
def test_weekdays_beside_a_forecast_are_the_forecasts_days(answer, bad):
    assert withdrawn(answer, "how's the weekend shaping up in Leeds?", tools=[CLOCK, LEEDS]) is bad


# -- a temperature asked for in Fahrenheit -------------------------------------------------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("A high of about 46°F tomorrow, sir, with light rain.", False),  # 8 °C
        ("Around 46 degrees Fahrenheit, sir.", False),
        ("A high of about 60°F tomorrow, sir.", True),  # 15.6 °C: not the forecast's
    ],
)
def test_fahrenheit_is_compared_in_celsius(answer, bad):
    assert withdrawn(answer, "high tomorrow in leeds in fahrenheit?", tools=[LEEDS]) is bad


# -- the month of a memory's own stamp -----------------------------------------------------------

RECALL = (
    "recall_memories",
    {"keyword": "boiler"},
    {
        "keyword": "boiler",
        "count": 1,
        "results": [
            {
                "kind": "summary",
                "conversation_id": 4,
                "messages": "1-20",
                "when": "2026-09-03 10:00",
                "text": "Ann asked about servicing the boiler before December; Tatlock suggested "
                "booking it in November.",
            }
        ],
    },
)


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("On the 3rd of September, sir, we talked of servicing the boiler in November.", False),
        ("Back in September, sir: the boiler's service, best booked in November.", False),
        ("We agreed the boiler would be serviced in June, sir.", True),  # a month nobody said
    ],
)
def test_the_month_of_a_memorys_stamp_is_one_it_holds(answer, bad):
    assert withdrawn(answer, "what did we say about the boiler?", tools=[RECALL]) is bad


# -- an emoji asked for ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("send me a heart emoji", "\u2764\ufe0f", False),
        ("answer with just a smiley if you agree", "\U0001f642", False),
        ("What's the capital of Peru?", "\U0001f642", True),  # a symbol to a question of words
        ("send me a heart emoji", ";;;", True),  # no symbol at all
    ],
)
def test_an_emoji_asked_for_is_an_answer(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a form with labelled parts, asked for ---------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        (
            "Draft one FAQ entry for our bakery about gluten-free bread.",
            "Q: Do you sell gluten-free bread?\nA: Yes, every Friday and Saturday.",
            False,
        ),
        (
            "Give me a trivia question about rivers, answer underneath",
            "Q: Which river flows through Budapest?\nA: The Danube.",
            False,
        ),
        (
            "Role-play a job interview: ask me one question.",
            'Interviewer: "Why do you want this role?"',
            False,
        ),
        # no labelled form asked for: the model speaking as a script's parts
        ("What's the date today?", "A: The latest local date and time is Thursday.", True),
        ("Which river flows through Budapest?", "Q: Which river?\nA: The Danube.", True),
    ],
)
def test_labels_of_a_form_asked_for_are_no_transcript(question, answer, bad):
    assert withdrawn(answer, question) is bad
