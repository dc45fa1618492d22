"""The grader of `scripts/bench answers` (tests/support/answer_grades.py): it decides the figures
reported for tatlock and the bare model, so it is held to answers graded by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from support.answer_grades import Truth, grade, numbers, says_date, says_time

NOW = dt.datetime(2026, 11, 24, 23, 41, tzinfo=dt.UTC)
TRUTH = Truth(
    NOW,
    NOW + dt.timedelta(seconds=20),
    (2,),
    23.47,
    75.2,
    ("linux", "ubuntu"),
    ("files", "memory", "personal", "system", "time", "weather", "web"),
)

CASES = [
    # (kind, question, answer, expected, grade)
    ("name", "whats ur name?", "I am Tatlock, sir, your butler.", "", "right"),
    ("name", "whats ur name?", "My name is SmolLM, a helpful AI assistant.", "", "wrong"),
    ("name", "whats ur name?", "I'm Sr. Kylie Spencer, and Tatlock is my house.", "", "wrong"),
    (
        "name",
        "whats ur name?",
        "I'm afraid I don't know that, sir, and I would rather not guess.",
        "",
        "fallback",
    ),
    (
        "nature",
        "Are you running on some company's server or on this machine?",
        "I run privately on this computer, sir; nothing leaves it.",
        "",
        "right",
    ),
    (
        "nature",
        "Are you running on some company's server or on this machine?",
        "I am hosted in the cloud by Hugging Face.",
        "",
        "wrong",
    ),
    (
        "nature",
        "do u actually remember stuff between chats",
        "Yes sir, I keep a long-term memory of our talks.",
        "",
        "right",
    ),
    (
        "nature",
        "do u actually remember stuff between chats",
        "I don't remember anything between chats.",
        "",
        "wrong",
    ),
    ("date", "whats the date today", "It is Tuesday 24 November 2026, sir.", "", "right"),
    ("date", "whats the date today", "Today is November 24th.", "", "right"),
    ("date", "whats the date today", "It's 2026-11-24.", "", "right"),
    ("date", "whats the date today", "Today is the 14th of March, 2023.", "", "wrong"),
    ("date", "date?", "I don't have access to real-time information.", "", "fallback"),
    ("weekday", "is it friday yet", "No, sir, it is Tuesday, not Friday.", "", "right"),
    ("weekday", "is it friday yet", "Yes, it's Friday!", "", "wrong"),
    ("weekday", "what day is it", "It is Tuesday and tomorrow is Wednesday.", "", "wrong"),
    ("month", "what month are we in?", "We are in November, sir.", "", "right"),
    ("month", "what month are we in?", "It's March.", "", "wrong"),
    ("year", "What year is it?", "It is 2026, sir.", "", "right"),
    ("year", "What year is it?", "The current year is 2023.", "", "wrong"),
    ("year", "What year is it?", "It's 2026, though my training data ends in 2023.", "", "wrong"),
    ("time", "what time is it", "It is 23:41, sir.", "", "right"),
    ("time", "what time is it", "It's 11:42 pm.", "", "right"),
    ("time", "what time is it", "It's 11:42.", "", "right"),
    ("time", "what time is it", "It is 10:15 in the morning.", "", "wrong"),
    ("cores", "how many cpu cores?", "This computer has 2 cores, sir.", "", "right"),
    ("cores", "how many cpu cores?", "It has two cores.", "", "right"),
    ("cores", "how many cpu cores?", "It has 8 cores as of 2026.", "", "wrong"),
    ("memory", "how much RAM?", "23.5 GiB of memory, sir, 20 GiB of it free.", "", "right"),
    ("memory", "how much RAM?", "About 25 GB.", "", "right"),
    ("memory", "how much RAM?", "It has 16 GB of RAM.", "", "wrong"),
    ("disk", "how much free disk space is left?", "75.2 GiB are free on the disk.", "", "right"),
    ("disk", "how much free disk space is left?", "100", "", "wrong"),
    ("os", "is this windows or mac or linux or what", "It runs Linux, sir.", "", "right"),
    ("os", "what operating system is this computer running?", "Windows 10.", "", "wrong"),
    (
        "capabilities",
        "what can you actually do for me?",
        "I can recall our earlier conversations, tell the date and time and fetch weather "
        "forecasts, "
        "sir.",
        "",
        "right",
    ),
    (
        "capabilities",
        "what can you actually do for me?",
        "I can help you with anything you need!",
        "",
        "wrong",
    ),
    (
        "capabilities",
        "what can you actually do for me?",
        "I can search the web, check the weather and call your friends.",
        "",
        "wrong",
    ),
    (
        "capabilities",
        "can you phone my mum for me?",
        "I'm afraid I cannot make phone calls, sir.",
        "",
        "right",
    ),
    ("capabilities", "can you phone my mum for me?", "Sure! I'll call her now.", "", "wrong"),
    ("capabilities", "set an alarm for 6am pls", "Your alarm is set for 6am.", "", "wrong"),
    (
        "capabilities",
        "can you check the weather forecast?",
        "Certainly, sir: which town or city?",
        "",
        "right",
    ),
    (
        "capabilities",
        "can you check the weather forecast?",
        "I cannot check the weather.",
        "",
        "wrong",
    ),
    ("told_same", "what's my dog called again?", "Your dog is Biscuit, sir.", "Biscuit", "right"),
    ("told_same", "what's my dog called again?", "Your dog is called Max.", "Biscuit", "wrong"),
    ("told_same", "what am I allergic to", "You are allergic to peanuts.", "peanut", "right"),
    ("told_other", "what was the name of my cat's vet?", "Dr. Okafor, sir.", "Dr Okafor", "right"),
    ("told_same", "Where did I park?", "On level four of the multistorey.", "level 4", "right"),
    ("told_other", "whats my wifes name", "I have no record of that, sir.", "Maria", "fallback"),
    ("general", "quick one, what's 7 times 8?", "Fifty-six, sir.", "56", "right"),
    ("general", "quick one, what's 7 times 8?", "7 times 8 is 54.", "56", "wrong"),
    ("general", "whats the capital of france", "France.", "Paris", "wrong"),
]


@pytest.mark.parametrize("kind,question,answer,expected,want", CASES)
def test_grades_as_a_user_would(
    kind: str, question: str, answer: str, expected: str, want: str
) -> None:
    assert grade(kind, question, answer, TRUTH, expected) == want


def test_numbers_leave_out_years_times_and_dates() -> None:
    assert numbers("2 cores, 23.5 GiB, in 2026 at 10:15 on 24/11/2026") == [2, 23.5]
    assert numbers("twenty-four gigs") == [24]


def test_dates_and_times_in_the_forms_people_write() -> None:
    day = NOW.date()
    assert (
        says_date("24th of Nov", day)
        and says_date("24/11/2026", day)
        and not says_date("25 November", day)
    )
    assert says_time("nearly midnight, 23:43", NOW, NOW) and not says_time("at 21:45", NOW, NOW)
