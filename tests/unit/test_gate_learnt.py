"""Classes of answers the gate learnt in its second round (issue 16, items 4 and 5; issue 19, item
3), from the blind sets gate_train_g3/g4 (scored once first) and SmolLM2's own answers: each
class in several wordings, each beside a good answer that looks like it and must stand."""

from __future__ import annotations

import datetime as dt
from functools import partial
from zoneinfo import ZoneInfo

import pytest

from support import gatecase

TUESDAY = dt.datetime(2026, 11, 24, 9, 20, tzinfo=ZoneInfo("Europe/London"))


# the gate's verdict at this file's clock (support.gatecase; a case may pass its own ``now``)
verdict = partial(gatecase.verdict, now=TUESDAY)
withdrawn = partial(gatecase.withdrawn, now=TUESDAY)


# -- a forecast: rain said not to come, fair weather in the rain, the day asked about ----------

YORK = {
    "location": "York, England, United Kingdom",
    "latitude": 53.96,
    "longitude": -1.08,
    "timezone": "Europe/London",
    "current": {
        "time": "2026-11-24T09:00",
        "temperature_c": 6.0,
        "summary": "heavy rain",
        "wind_kmh": 12.0,
    },
    "daily": [
        {
            "date": "2026-11-24",
            "summary": "heavy rain",
            "max_c": 8.0,
            "min_c": 3.0,
            "precipitation_mm": 14.0,
            "precipitation_probability": 95,
            "wind_max_kmh": 40.0,
        },
        {
            "date": "2026-11-25",
            "summary": "mainly clear",
            "max_c": 10.0,
            "min_c": 6.0,
            "precipitation_mm": 0.0,
            "precipitation_probability": 5,
            "wind_max_kmh": 15.0,
        },
        {
            "date": "2026-11-26",
            "summary": "overcast",
            "max_c": 7.0,
            "min_c": 2.0,
            "precipitation_mm": 0.3,
            "precipitation_probability": 25,
            "wind_max_kmh": 18.0,
        },
        {
            "date": "2026-11-27",
            "summary": "moderate rain",
            "max_c": 9.0,
            "min_c": 5.0,
            "precipitation_mm": 8.0,
            "precipitation_probability": 85,
            "wind_max_kmh": 35.0,
        },
    ],
}
WEATHER = [("get_weather_forecast", {"location": "York"}, YORK)]


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "Clear skies all day in York, sir. Perfect for a stroll.",
            "What's the weather in York today?",
        ),
        ("Sunny and bright today, sir.", "Do I need a coat in York today?"),
        ("Yes, sir, mainly clear on Tuesday.", "Will it be dry in York on Friday?"),
        ("Tomorrow looks mainly clear, sir.", "Will it rain on Friday?"),
        (
            "York, sir:\n- Tuesday: mainly clear, 6 to 10°C.\n- Wednesday: heavy rain, 3 to 8°C.",
            "York this week?",
        ),
    ],
)
def test_fair_weather_in_the_rain_or_another_days_forecast_is_withdrawn(answer, question):
    assert withdrawn(answer, question, tools=WEATHER)


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "Mainly clear tomorrow, sir, up to 10°C with next to no chance of rain.",
            "What's tomorrow like?",
        ),
        (
            "Probably not, sir: Thursday looks overcast, with only a 25% chance of rain. Friday is another matter.",
            "Will I need an umbrella on Thursday?",
        ),
        (
            "York, sir:\n- Today: heavy rain, 3 to 8°C.\n- Wednesday: mainly clear, 6 to 10°C, dry.\n"
            "- Thursday: overcast, 2 to 7°C, 25% chance of rain.",
            "York for the next three days?",
        ),
        (
            "No, sir: Friday brings moderate rain, though tomorrow is dry.",
            "Will it be dry in York on Friday?",
        ),
    ],
)
def test_the_forecast_read_right_stands(answer, question):
    assert not withdrawn(answer, question, tools=WEATHER)


# -- an answer that stops mid-sentence ---------------------------------------------------------


@pytest.mark.parametrize(
    "answer, question",
    [
        ("The three primary colours are red, ", "What are the three primary colours?"),
        (
            "Certainly, sir. First, blot the stain with a clean cloth, then",
            "How do I get red wine out of a carpet?",
        ),
        ("Here are the steps, sir:", "How do I change a fuse?"),
        ("Your notes say to ring the bank about the", "What's in my notes?"),
    ],
)
def test_an_answer_that_stops_mid_sentence_is_withdrawn(answer, question):
    assert withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, question",
    [
        ("Yes, sir, it is", "Is Paris the capital of France?"),
        ("Red, yellow and blue, sir", "What are the three primary colours?"),
        (
            "Dear Mrs Patel,\nThank you so much for feeding Biscuit while I was away.\nWarm regards,",
            "Write a short thank-you note to my neighbour.",
        ),
        ("Use `ls -la`, sir, then", "How do I list hidden files?"),  # code ends as it likes
    ],
)
def test_an_answer_that_ends_without_a_stop_but_finished_stands(answer, question):
    assert not withdrawn(answer, question)


def test_a_finished_answer_stands_without_its_unfinished_end():
    v = verdict(
        "Blot it with a clean cloth, sir, then sprinkle salt on it. Rinse with cold water and",
        "How do I get red wine out of a carpet?",
    )
    assert v.verdict != "FALLBACK"
    assert v.text == "Blot it with a clean cloth, sir, then sprinkle salt on it."


# -- a bare number that answers nothing --------------------------------------------------------


@pytest.mark.parametrize(
    "answer, question, tools",
    [
        ("12", "When should I plant tulip bulbs?", ()),
        ("7", "When is the best time to prune roses?", ()),
        ("70", "Will it rain in York on Friday?", WEATHER),
        ("3", "Should I take a coat today?", WEATHER),
    ],
)
def test_a_bare_number_to_a_question_of_when_or_yes_or_no_is_withdrawn(answer, question, tools):
    assert withdrawn(answer, question, tools=tools)


@pytest.mark.parametrize(
    "answer, question",
    [
        ("1066, sir.", "When was the Battle of Hastings?"),
        ("144, sir.", "Can you tell me what 12 times 12 is?"),
        ("8", "Do you know how many legs a spider has?"),
        ("476", "When did the Western Roman Empire fall?"),
    ],
)
def test_a_number_that_answers_stands(answer, question):
    assert not withdrawn(answer, question)


# -- a yes or no unsaid; the part of the day against the clock ---------------------------------


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "No, sir, a whale is a mammal. It is a fish that breathes through its gills.",
            "Is a whale a fish?",
        ),
        ("Yes, sir. Strictly, a tomato is not a fruit.", "Is a tomato a fruit?"),
        ("No, sir. They are a bird, after all.", "Are bats a bird?"),
    ],
)
def test_a_yes_or_no_unsaid_by_what_follows_is_withdrawn(answer, question):
    assert withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, question",
    [
        ("No, sir, a whale is a mammal, not a fish.", "Is a whale a fish?"),
        ("No, sir: since 2006 it is a dwarf planet.", "Is Pluto a planet?"),
        (
            "Yes, sir; botanically it is a fruit, though cooks treat it as a vegetable.",
            "Is a tomato a fruit?",
        ),
    ],
)
def test_a_yes_or_no_kept_stands(answer, question):
    assert not withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("It is the afternoon, sir; twenty past nine in the morning.", False),
        ("It's evening already, sir.", False),
        ("It's still morning, sir: twenty past nine.", True),
        ("Morning, sir, 09:20. The afternoon is yours to plan.", True),
    ],
)
def test_the_part_of_the_day_is_held_to_the_clock(answer, ok):
    assert withdrawn(answer, "Is it morning or afternoon?", guard="TEMPORAL") is not ok


# -- actions reported done; the long memory denied ---------------------------------------------


@pytest.mark.parametrize(
    "answer, question",
    [
        ("Alarm set for 7 a.m., sir.", "Set an alarm for 7am."),
        ("Reminder set for 3 p.m., sir.", "Remind me at 3pm to ring the dentist."),
        ("Very good, sir. Taxi booked for seven.", "Get me a taxi at seven."),
        ("Done, sir.", "Turn the heating up."),
    ],
)
def test_an_action_reported_done_is_withdrawn(answer, question):
    v = verdict(answer, question, guard="CAPABILITIES")
    assert v.verdict == "FALLBACK" and v.fallback_type == "CANT_DO"


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "I'm afraid I can't set alarms, sir; an alarm set on your phone would do it.",
            "Set an alarm for 7am.",
        ),
        (
            "I cannot ring anyone, sir, but I can remember that you mean to ring the dentist.",
            "Remind me to ring the dentist.",
        ),
    ],
)
def test_the_action_declined_stands(answer, question):
    assert not withdrawn(answer, question, guard="CAPABILITIES")


@pytest.mark.parametrize(
    "answer",
    [
        "No, sir. I forget everything the moment you close the terminal.",
        "I'm afraid I have no memory, sir; each conversation starts afresh.",
        "Sadly not, sir: I won't remember anything once we part.",
    ],
)
def test_the_long_memory_denied_is_withdrawn(answer):
    assert withdrawn(answer, "Can you remember what I tell you?", guard="CAPABILITIES")


def test_the_long_memory_told_stands():
    assert not withdrawn(
        "Yes, sir: what you tell me is kept on this computer, and I can recall it later.",
        "Can you remember what I tell you?",
        guard="CAPABILITIES",
    )


# -- this computer: the whole disk, the share asked for ----------------------------------------

SYSTEM = {
    "cpu": {"count": 8, "physical_cores": 4, "percent": 12.5, "load_average": [0.8, 0.6, 0.5]},
    "memory": {"total_gib": 15.5, "available_gib": 9.2, "used_percent": 40.6},
    "disk": {"path": "/home/sam", "total_gib": 475.8, "free_gib": 120.3, "used_percent": 74.7},
    "os": {
        "system": "Linux",
        "release": "6.8.0",
        "platform": "Linux-6.8.0-x86_64",
        "machine": "x86_64",
    },
    "python_version": "3.11.7",
}
MACHINE = [("get_system_info", {}, SYSTEM)]


@pytest.mark.parametrize(
    "answer, question, ok",
    [
        ("Your disk is 120.3 GiB, sir.", "How big is my hard drive?", False),
        ("Your disk is 475.8 GiB, sir, with 120.3 GiB free.", "How big is my hard drive?", True),
        ("Your memory is 9.2 GiB, sir.", "How much RAM do I have?", False),
        ("25.3 percent, sir.", "What percentage of my disk is used?", False),
        ("74.7 percent, sir.", "What percentage of my disk is used?", True),
        ("25.3 percent, sir.", "What percentage of my disk is free?", True),
    ],
)
def test_a_size_or_share_with_no_word_of_its_own_is_read_as_the_question_asks(answer, question, ok):
    assert withdrawn(answer, question, tools=MACHINE) is not ok


# -- what the gate works out: the time elsewhere, days left, a prime, a difference found -------


@pytest.mark.parametrize(
    "answer, question, ok",
    [
        ("05:05 in Tokyo, sir; they're nine hours ahead.", "Time in Tokyo?", False),
        ("18:20 in Tokyo, sir.", "Time in Tokyo?", True),
        ("47 days, sir.", "How many days are left this year?", False),
        ("37 days, sir.", "How many days are left this year?", True),
        ("25 sleeps, sir.", "How many sleeps till Christmas?", False),
        ("31 days, sir.", "How many days until Christmas?", True),
        ("No, sir: 7 × 14.", "Is 97 a prime number?", False),
        ("Yes, sir.", "Is 91 prime?", False),
        ("No, sir: 7 × 13.", "Is 91 prime?", True),
        ("Yes, sir, 97 is prime.", "Is 97 a prime number?", True),
    ],
)
def test_what_the_gate_can_work_out_is_held_to_it(answer, question, ok):
    assert (
        withdrawn(
            answer,
            question,
            guard="TEMPORAL"
            if "Tokyo" in question or "day" in question or "sleep" in question
            else None,
        )
        is not ok
    )


BOILER = {
    "keyword": "boiler",
    "count": 1,
    "results": [
        {
            "kind": "message",
            "conversation_id": 44,
            "message": 3,
            "author": "Sam",
            "when": "2026-10-30 19:02",
            "text": "British Gas quoted £2,450 for the new boiler, Dave the plumber said £1,980.",
        }
    ],
}


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("Dave the plumber, sir, by £570.", False),
        ("Dave's, sir, cheaper by £370.", False),
        ("Dave the plumber, sir, by £470.", True),
        ("Dave's, sir: £1,980 against £2,450, so £470 less.", True),
    ],
)
def test_a_difference_of_figures_found_is_worked_out(answer, ok):
    tools = [("recall_memories", {"keyword": "boiler"}, BOILER)]
    assert (
        withdrawn(answer, "Which boiler quote was cheaper and by how much?", tools=tools) is not ok
    )


# -- a file read out with its lines changed; a model given the wrong maker ---------------------

ROBIN = {
    "path": "~/poems/robin.txt",
    "content": "Little robin on the gate,\nred as embers, round and late,\n"
    "sing the winter down the lane,\nsing the spring back home again.\n",
}


def test_a_file_read_out_with_a_line_changed_is_withdrawn_and_read_right_stands():
    tools = [("analyze_file", {"path": "~/poems/robin.txt"}, ROBIN)]
    changed = (
        "Here it is, sir:\nLittle robin in the snow,\nred as embers, round and late,\n"
        "sing the winter down the lane,\nsing the spring back home again."
    )
    assert withdrawn(changed, "Read out ~/poems/robin.txt please", tools=tools)
    assert not withdrawn(
        changed.replace("in the snow", "on the gate"),
        "Read out ~/poems/robin.txt please",
        tools=tools,
    )
    assert not withdrawn(
        "Here it is, sir:\nLittle robin on the gate,\nred as embers, round and late,\n"
        "sing the winter down the lane, and sing the spring back home again.",
        "Read out ~/poems/robin.txt please",
        tools=tools,
    )


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("Claude is made by Google, sir.", False),
        ("ChatGPT was developed by Meta, sir.", False),
        ("Claude is made by Anthropic, sir; I am Tatlock.", True),
        ("ChatGPT is made by Open AI, sir.", True),
    ],
)
def test_a_model_given_the_wrong_maker_is_withdrawn(answer, ok):
    assert withdrawn(answer, "Who makes Claude and ChatGPT?") is not ok


# -- what the gate's tables hold: a capital, a symbol, the planets' order ------------------------


@pytest.mark.parametrize(
    "answer, question",
    [
        ("The capital of Canada is Toronto, sir.", "What is the capital of Canada?"),
        (
            "Zurich, sir, though Geneva is home to a good many international bodies.",
            "Capital of Switzerland?",
        ),
        ("Spain", "What's the capital of Spain?"),
        ("Sydney, sir, on the harbour.", "what's australia's capital"),
        ("Ag, sir.", "What's the chemical symbol for gold?"),
        (
            "Mercury, Venus, Mars, Earth, Jupiter, Saturn, Neptune, Uranus, sir.",
            "Name the planets in order from the Sun",
        ),
    ],
)
def test_an_answer_without_what_the_tables_hold_is_withdrawn(answer, question):
    assert withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, question",
    [
        ("Ottawa, sir.", "What is the capital of Canada?"),
        ("Bern, sir, though Zurich is the largest city.", "Capital of Switzerland?"),
        (
            "South Africa has three, sir: Pretoria, Cape Town and Bloemfontein.",
            "What's the capital of South Africa?",
        ),
        ("Brasilia, sir.", "What is Brazil's capital?"),
        ("Yes, sir.", "Is Paris the capital of France?"),
        ("Au, sir, from the Latin aurum.", "What's the chemical symbol for gold?"),
        (
            "Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus and Neptune, sir.",
            "Name the planets in order from the Sun",
        ),
        (
            "Capital gains tax is charged on the profit when you sell an asset, sir.",
            "What's capital gains tax?",
        ),
    ],
)
def test_an_answer_with_it_stands(answer, question):
    assert not withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "No, sir; a program on your computer, though I try to be a credit to the profession.",
            "Are you a real person?",
        ),
        (
            "Siri is Apple's assistant and leans on Apple's servers, sir. I run entirely on this computer.",
            "What's the difference between you and Siri?",
        ),
    ],
)
def test_who_it_is_said_in_other_words_raises_no_doubt(answer, question):
    assert verdict(answer, question, guard="IDENTITY").verdict == "APPROVED"


# -- SmolLM2's own (tests/data/gate_smollm2d.jsonl, scored once first) -------------------------


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "Demonstrated the importance of the internet in the past 200 years.",
            "Who painted The Starry Night?",
        ),
        ("Demonstrated", "What's the largest animal on Earth?"),
        ("Dishonored", "Good evening, Tatlock."),
        (
            "Sr. Smith, I hope you're doing well and enjoying your time in the UK.",
            "Thank you, that was helpful.",
        ),
        (
            "\"Sr. Tatlock, I'm glad to hear that you're enjoying your new adventure.\"",
            "Are you a robot?",
        ),
        ("Achievements: - 2026-12-25 10:32:38.934 (UTC)", "How much disk space do I have left?"),
        ("2026-11-25T00:51:00.000Z", "Book me a table for two at an Italian restaurant."),
        ("DIDN’T_DO_NOT_THINK_ALONE", "Write a two-line poem about autumn."),
        (
            '1. Findings:\n- Result of get_weather_forecast(): {"location": "London"}',
            "What's the temperature in London?",
        ),
        (
            "I'm sorry, but as a server, I can't provide you with any information.",
            "Morning, Tatlock!",
        ),
    ],
)
def test_smollm2s_lost_starts_and_machine_text_are_withdrawn(answer, question):
    assert withdrawn(answer, question)


@pytest.mark.parametrize(
    "answer, question",
    [
        (
            "Demonstrated the invention of the telephone by Alexander Graham Bell.",
            "Who invented the telephone?",
        ),
        ("Evening, sir.", "Good evening, Tatlock."),
        ("Dr. Johnson wrote it, sir, in 1755.", "Who wrote the first great English dictionary?"),
        ("Mr. Darcy, of course.", "Who does Elizabeth marry in Pride and Prejudice?"),
        ("2026-11-25, sir.", "What's today's date in ISO form?"),
        ("morning", "Is it morning or afternoon right now?"),
        (
            "She worked as a server at the Ritz, sir, before writing.",
            "What did she do before she wrote?",
        ),
    ],
)
def test_their_look_alikes_stand_too(answer, question):
    assert not withdrawn(
        answer, question, now=dt.datetime(2026, 11, 25, 0, 42, tzinfo=ZoneInfo("Europe/London"))
    )


@pytest.mark.parametrize(
    "answer, question, ok",
    [
        ("The answer is 2 continents.", "How many continents are there?", False),
        ("Seven, sir.", "How many continents are there?", True),
        (
            "Seven, or six if you count the Americas as one, sir.",
            "How many continents are there?",
            True,
        ),
        (
            "Spiders have six legs, sir, like all insects.",
            "How many legs does a spider have?",
            False,
        ),
        ("Eight, sir.", "How many legs does a spider have?", True),
        ("24, sir.", "How many legs do three spiders have?", True),  # a sum, not the table's
        ("212, sir.", "How many bones are in the adult human body?", False),
        ("Four, sir: Jupiter, Saturn, Uranus and Neptune.", "How many planets have rings?", True),
        ("Paris", "Which country is famous for the Eiffel Tower?", False),
        ("France, sir: it stands in Paris.", "Which country is famous for the Eiffel Tower?", True),
    ],
)
def test_a_count_the_tables_hold_and_a_city_for_a_country(answer, question, ok):
    assert withdrawn(answer, question) is not ok


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("A local date and time Wednesday 25 November 2026, 00:42 (UTC).", False),
        ("Wednesday, sir.", False),
        ("Tomorrow is Thursday the 26th of November, sir.", True),
        ("Thursday, sir.", True),
    ],
)
def test_tomorrows_date_asked_and_todays_given_is_withdrawn(answer, ok):
    wednesday = dt.datetime(2026, 11, 25, 0, 42, tzinfo=ZoneInfo("Europe/London"))
    assert withdrawn(answer, "What's the date tomorrow?", guard="TEMPORAL", now=wednesday) is not ok
