"""Classes of answers the gate learnt in its fourth round (issue 16 item 4, issue 19 item 3), from
the blind set gate_train_g8 (g7 held out and scored once per change): each class in wordings of
its own, not the learnt cases', each beside a good answer of the same shape that must stand."""

from __future__ import annotations

import datetime as dt
from functools import partial
from zoneinfo import ZoneInfo

import pytest

from support import gatecase

WEDNESDAY = dt.datetime(2026, 11, 25, 10, 30, tzinfo=ZoneInfo("Europe/London"))

verdict = partial(gatecase.verdict, now=WEDNESDAY)
withdrawn = partial(gatecase.withdrawn, now=WEDNESDAY)

SYSTEM = {
    "cpu": {"count": 12, "physical_cores": 6, "percent": 9.0, "load_average": [0.5, 0.4, 0.4]},
    "memory": {"total_gib": 62.6, "available_gib": 11.0, "used_percent": 82.4},
    "disk": {"path": "/home/ann", "total_gib": 931.5, "free_gib": 698.0, "used_percent": 25.1},
    "os": {"system": "Linux", "release": "6.8.0", "machine": "x86_64"},
}


# -- code asked for is symbols by nature --------------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("regex for one or more digits", r"\d+, sir.", False),
        ("bash one-liner to list hidden files", "ls -d .*", False),
        ("python slice for the first three items of xs", "xs[:3]", False),
        ("regex for one or more digits", "[]{}();", True),  # no letter or digit at all
        ("What's the capital of Chile?", "[::-1] ;;", True),  # symbols to a question of words
    ],
)
def test_code_asked_for_may_be_mostly_symbols(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- politeness that names the subject and says nothing of it -----------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        (
            "explain how a heat pump works",
            "A splendid question, sir. Heat pumps are a subject well worth understanding. "
            "Do tell me should you require anything further on the matter.",
            True,
        ),
        (
            "describe what an ISA is",
            "Certainly, sir. ISAs are indeed a matter worth considering.",
            True,
        ),
        (
            "explain how a heat pump works",
            "Certainly, sir. A heat pump moves warmth from the outside air into the house, "
            "as a fridge moves it out of its box.",
            False,
        ),
        ("who lives next door to my aunt?", "I have no way of knowing that, sir.", False),
    ],
)
def test_politeness_about_the_subject_is_no_answer(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a no, then what it denied said with a manner between -----------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("Is a peanut a nut?", "No, sir. A peanut is technically a nut, so eat away.", True),
        ("Is a peanut a nut?", "No, sir: a peanut is botanically a legume, like a pea.", False),
        ("Is a bat a bird?", "No, sir. A bat is hardly a bird; it is a mammal.", False),
    ],
)
def test_a_no_undone_by_what_follows(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a vendor's model owned to when asked ---------------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("are you gemini?", "After a fashion, sir: Google's Gemini in a tailcoat.", True),
        ("r u secretly llama", "Llama, sir, at your service.", True),
        ("are you gemini?", "No, sir. Gemini is Google's; I am Tatlock, on this computer.", False),
        ("are you gemini?", "I'm Tatlock, sir, not Gemini.", False),
    ],
)
def test_a_vendor_model_owned_to_when_asked(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a count of days: exact, unless it says whether today is in it --------------------------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Thirty-one days, sir.", True),  # 25 Nov to 25 Dec is 30
        ("Thirty days, sir.", False),
        ("Thirty-one days, sir, counting today.", False),
    ],
)
def test_days_until_a_holiday_are_counted_exactly(answer, bad):
    assert withdrawn(answer, "how many days until christmas?", guard="TEMPORAL") is bad


def test_days_until_a_date_the_answer_names_are_counted_exactly():
    q = "how long until the party?"
    assert withdrawn("Eleven days, sir: it is on the 5th of December.", q)
    assert not withdrawn("Ten days, sir: it is on the 5th of December.", q)


# -- tomorrow's year ------------------------------------------------------------------------------


def test_tomorrows_date_carries_tomorrows_year():
    eve = dt.datetime(2026, 12, 31, 22, 0, tzinfo=ZoneInfo("Europe/London"))
    q = "what's tomorrow's date?"
    assert gatecase.withdrawn("The 1st of January 2026, sir.", q, now=eve, guard="TEMPORAL")
    assert not gatecase.withdrawn("The 1st of January 2027, sir.", q, now=eve, guard="TEMPORAL")
    assert not gatecase.withdrawn("The 1st of January, sir.", q, now=eve, guard="TEMPORAL")


# -- a share free that is the share used ---------------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        (
            "is my disk filling up?",
            "Not at all, sir: 698 GiB free, about 25% of the disk still unused.",
            True,
        ),
        (
            "is my disk filling up?",
            "Not at all, sir: 698 GiB free, about 75% of the disk still unused.",
            False,
        ),
        ("how's my RAM?", "Plenty, sir: 82.4% of it is available.", True),
        ("how's my RAM?", "Tight, sir: 82.4% of it is in use, 11 GiB available.", False),
    ],
)
def test_a_share_free_is_the_rest_of_the_share_used(question, answer, bad):
    tools = [("get_system_info", {}, SYSTEM)]
    assert withdrawn(answer, question, tools=tools) is bad


# -- a reply that asks back for what is missing ---------------------------------------------------


def test_a_reply_that_asks_for_the_missing_place_stands():
    tools = [
        ("get_personal_variable", {"key": "location"}, {"key": "location", "value": None}),
        ("get_weather_forecast", {"days": 1}, {"error": "Which place? Give a town or city."}),
    ]
    q = "will it rain later?"
    assert not withdrawn("Where are you, sir? I don't yet know your town.", q, tools=tools)
    assert withdrawn("Light rain by four, sir, and 9 degrees.", q, tools=tools)


# -- a market's figure to come, stated as known ---------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("where will bitcoin be by christmas?", "At 81,250 dollars, sir.", True),
        ("what will the euro to dollar rate be next week?", "1.12 dollars, sir.", True),
        (
            "what will the euro to dollar rate be next week?",
            "Nobody can know that, sir; today it is about 1.08, but markets move.",
            False,
        ),
        ("what will the weather be tomorrow?", "I'd need a forecast for that, sir.", False),
    ],
)
def test_a_markets_figure_to_come_is_not_known(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a total of the figures found, and the gate's own answer --------------------------------------

RECEIPTS = (
    "analyze_file",
    {"path": "~/receipts.txt"},
    {"content": "Milk 2.40\nBread 1.65\nEggs 3.10\n"},
)


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("£6.95 in all, sir.", True),
        ("£7.15 in all, sir.", False),
        ("£5.50 for the bread and eggs, sir... no, £4.75.", False),  # a sum of some of them
    ],
)
def test_a_total_of_the_figures_found_is_added_up(answer, bad):
    v = verdict(answer, "tot up ~/receipts.txt", tools=[RECEIPTS])
    assert (v.verdict == "FALLBACK") is bad
    if bad:
        assert v.known == "They come to 7.15 in all, $sir."


# -- a date the search or the file does not give --------------------------------------------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("It closes on the 2nd of January, sir.", True),
        ("It closes on the 4th of January, sir.", False),
        ("Not on the 25th of December, sir; it shuts for Christmas.", False),  # inside the range
    ],
)
def test_a_date_the_findings_do_not_give(answer, bad):
    found = {
        "results": [
            {
                "title": "Ice rink",
                "snippet": "Open 14 November to 4 January. Closed 24-26 December.",
            }
        ]
    }
    tools = [("web_search", {"query": "ice rink dates"}, found)]
    assert withdrawn(answer, "when does the ice rink close?", tools=tools) is bad


# -- someone else's thing given as the user's -----------------------------------------------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Your anniversary is the 3rd of June, sir.", True),
        ("I only have your brother's anniversary, sir: the 3rd of June.", False),
    ],
)
def test_someone_elses_memory_is_not_the_users(answer, bad):
    found = {
        "count": 1,
        "results": [{"kind": "message", "text": "My brother's anniversary is the 3rd of June."}],
    }
    tools = [("recall_memories", {"keyword": "anniversary"}, found)]
    assert withdrawn(answer, "when is my anniversary?", tools=tools) is bad


# -- a request it cannot do, answered as if done --------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        (
            "what's on my calendar today?",
            "Two meetings, sir: the dentist at ten and lunch with Priya at one.",
            True,
        ),
        ("what's on my calendar today?", "I have no window on your calendar, sir.", False),
        ("what's on my calendar today?", "I can't see your calendar, sir.", False),
    ],
)
def test_a_capability_it_lacks_answered_as_if_done(question, answer, bad):
    assert withdrawn(answer, question, guard="CAPABILITIES") is bad


# -- a famous work's maker (the table is data) ----------------------------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("who wrote Far from the Madding Crowd", "Charles Dickens, sir.", True),
        ("who wrote Far from the Madding Crowd", "Thomas Hardy, sir, in 1874.", False),
        ("Who painted Nighthawks?", "Edward Hopper, sir.", False),
        ("Who did Carmen Electra marry?", "Dennis Rodman among others, sir.", False),
    ],
)
def test_a_famous_works_maker(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- the gate's own answer where the clock holds it -----------------------------------------------


def test_the_clock_answers_when_a_count_of_days_is_wrong():
    v = verdict("Thirty-two days, sir.", "how many days until christmas?", guard="TEMPORAL")
    assert v.verdict == "FALLBACK" and v.known == "30 days, $sir."
    eve = dt.datetime(2026, 12, 31, 22, 0, tzinfo=ZoneInfo("Europe/London"))
    v = gatecase.verdict("The 1st of January 2026, sir.", "date tomorrow?", now=eve)
    assert v.known == "Friday, 1 January 2027, $sir."


# -- a count of a file's lines --------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Four jobs, sir: the gutters, the fence, the shed and the gate.", True),
        ("Three jobs, sir: the gutters, the fence and the shed.", False),
        ("3, sir.", False),
    ],
)
def test_a_count_of_a_files_lines(answer, bad):
    todo = ("analyze_file", {"path": "~/jobs.txt"}, {"content": "Jobs:\ngutters\nfence\nshed\n"})
    v = verdict(answer, "how many jobs are in ~/jobs.txt?", tools=[todo])
    assert (v.verdict == "FALLBACK") is bad
    if bad:
        assert v.known == "3 in all, $sir."


# -- the day of a famous event, and more years (the tables are data) ------------------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("what date was the battle of trafalgar?", "The 18th of June 1805, sir.", True),
        ("what date was the battle of trafalgar?", "The 21st of October 1805, sir.", False),
        ("when was the battle of trafalgar?", "1805, sir.", False),  # no day named: none held
        ("when was the battle of culloden?", "1745, sir.", True),
        ("when was the battle of culloden?", "April 1746, sir.", False),
        # a war or a wall has two years: none is held to one
        ("when was the second world war?", "1939 to 1945, sir.", False),
        ("when was the second world war?", "It ended in 1945, sir.", False),
    ],
)
def test_the_day_or_year_of_a_famous_event(question, answer, bad):
    assert withdrawn(answer, question) is bad


@pytest.mark.parametrize(
    "answer",
    [
        "That's beyond me, sir.",
        "Your phone will serve you better there, sir.",
        "Alas, sir, the calendar is yours alone.",
    ],
)
def test_a_request_declined_without_a_no_stands(answer):
    assert not withdrawn(answer, "set an alarm for seven", guard="CAPABILITIES")


@pytest.mark.parametrize(
    "question, answer",
    [
        ("are you chatgpt?", "I'm Tatlock, sir; ChatGPT is another fellow entirely."),
        ("where will bitcoin be by christmas?", "Impossible to say, sir; it was 81,000 today."),
    ],
)
def test_a_denial_or_an_honest_unknown_in_other_words_stands(question, answer):
    assert not withdrawn(answer, question)


# -- a phrase in a language (the table is data; the rule is built from its keys) -----------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("how do you say 'I love you' in Italian?", "Je t'aime, sir.", True),
        ("how do you say 'I love you' in Italian?", "Ti amo, sir.", False),
        ("How do I say good night in German?", "Guten Morgen, sir.", True),
        ("How do I say good night in German?", "Gute Nacht, sir.", False),
        ("What's 'excuse me' in French?", "Excusez-moi, sir, or simply pardon.", False),
    ],
)
def test_a_phrase_in_a_language(question, answer, bad):
    assert withdrawn(answer, question) is bad


# -- a name asked for and none given; the user named by nothing; the month asked --------------------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("any ideas for a name for our new tortoise?", "Tortoises can live a century, sir.", True),
        (
            "any ideas for a name for our new tortoise?",
            "Sheldon, sir, or perhaps Methuselah.",
            False,
        ),
        ("what should we call the boat?", "I rather like The Wandering Gull, sir.", False),
        ("what should we call the boat?", '"Second Wind", sir.', False),
    ],
)
def test_a_name_asked_for_must_be_given(question, answer, bad):
    assert withdrawn(answer, question) is bad


def test_the_user_named_by_nothing():
    assert withdrawn("You are Mrs Eleanor Vance of Bath, sir.", "do you know who I am?")
    assert not withdrawn(
        "You are Eleanor, sir, as you told me.", "do you know who I am?", told=["I'm Eleanor."]
    )
    assert not withdrawn("I'm afraid I don't know your name yet, sir.", "who am I?")


@pytest.mark.parametrize(
    "answer, bad",
    [("January, sir.", True), ("November, sir.", False), ("November; December is next.", False)],
)
def test_the_month_asked_is_the_clocks(answer, bad):
    assert withdrawn(answer, "which month are we in?", guard="TEMPORAL") is bad


# -- near misses: a poem's actions, and when a thing was said --------------------------------------


def test_what_happens_in_a_poem_is_no_claimed_action():
    poem = "Frost on the window,\nthe robin waits by the door —\nthe kettle is on."
    assert not withdrawn(poem, "write a haiku about winter")
    assert withdrawn("The kettle is on, sir; I've put it on for you.", "make me a cup of tea")


MEMORY = {
    "count": 1,
    "results": [
        {
            "kind": "message",
            "when": "2026-10-02 19:00",
            "text": "My sister Clara lives in Galway and her birthday is 12 March.",
        }
    ],
}


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Galway, sir: Clara, as you told me in October.", False),
        ("The 12th of March, sir, as you mentioned on the 2nd of October.", False),
        ("The 2nd of October, sir.", True),  # the day it was said is not her birthday
        ("In October, sir.", True),
    ],
)
def test_when_a_thing_was_said_is_not_what_was_said(answer, bad):
    tools = [("recall_memories", {"keyword": "Clara"}, MEMORY)]
    assert withdrawn(answer, "when's Clara's birthday?", tools=tools) is bad


def test_nothing_on_record_said_in_other_words_stands():
    tools = [("recall_memories", {"keyword": "shoe"}, {"count": 0, "results": []})]
    q = "did I tell you my shoe size?"
    assert not withdrawn("Not that I have on record, sir.", q, tools=tools)
    assert withdrawn("Size ten, sir, as you said in May.", q, tools=tools)


# -- invented facts about the user; a maker named as the subject; a request granted in word only --


@pytest.mark.parametrize(
    "question, answer, kw, bad",
    [
        ("what's my wife's name?", "Margaret, sir.", {}, True),
        ("how old am I?", "Thirty-eight, sir.", {}, True),
        ("how old am I?", "You haven't told me, sir.", {}, False),
        (
            "how old am I?",
            "Forty, sir, as you told me.",
            {"told": ["I turned forty in May."]},
            False,
        ),
        ("where do I live again?", "In Leeds, sir.", {"told": ["I live in York."]}, True),
        ("where do I live again?", "In York, sir.", {"told": ["I live in York."]}, False),
        ("who am I talking to?", "To Tatlock, sir, your butler.", {}, False),
    ],
)
def test_facts_about_the_user_come_from_what_was_told(question, answer, kw, bad):
    assert withdrawn(answer, question, **kw) is bad


def test_a_maker_named_as_the_subject_is_a_vendor_claim():
    assert withdrawn("Meta built me, sir.", "who made you?", guard="IDENTITY")
    assert not withdrawn(
        "Nobody you'd know, sir: I'm Tatlock, run here on your computer.",
        "who made you?",
        guard="IDENTITY",
    )


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("could you explain how a rainbow forms?", "Certainly, sir.", True),
        ("could you explain how a rainbow forms?", "Yes.", True),
        ("is a rainbow a circle?", "Yes, sir.", False),
    ],
)
def test_a_request_granted_in_word_only(question, answer, bad):
    assert withdrawn(answer, question) is bad


def test_an_empty_memory_block_is_nothing_told():
    # the pipeline passes the memory block as one text, empty when nothing is kept or said
    assert withdrawn("Thirty-eight, sir.", "how old am I?", told=[""])
    said = "## Conversation so far\nSam: I'm 38 today!\nTatlock: Many happy returns, sir."
    assert not withdrawn("Thirty-eight, sir.", "how old am I?", told=[said])


# -- open on a day, against what the search says --------------------------------------------------


@pytest.mark.parametrize(
    "snippet, answer, bad",
    [
        ("Closed on Mondays. Tue-Sun 10am-5pm.", "Yes, sir, from ten.", True),
        ("Closed on Mondays. Tue-Sun 10am-5pm.", "No, sir: it shuts on Mondays.", False),
        ("Open daily 9am to 6pm.", "No, sir.", True),
        ("Open daily 9am to 6pm.", "Yes, sir, nine till six.", False),
    ],
)
def test_open_on_a_day_is_what_the_search_says(snippet, answer, bad):
    tools = [
        (
            "web_search",
            {"query": "gallery"},
            {"results": [{"title": "Gallery", "snippet": snippet}]},
        )
    ]
    assert withdrawn(answer, "is the gallery open on Monday?", tools=tools) is bad


def test_the_clock_answers_when_the_month_is_wrong():
    v = verdict("January, sir.", "which month are we in?", guard="TEMPORAL")
    assert v.verdict == "FALLBACK" and v.known == "It is November, $sir."


# -- asked who or what it is: a vendor or a model owned to; a human by degree; the web denied ------


@pytest.mark.parametrize(
    "question, answer, bad",
    [
        ("which company made you?", "Mistral AI, sir, in Paris.", True),
        ("what model are you?", "GPT-4o, sir.", True),
        ("what model are you?", "Tatlock, sir; GPT-4o is someone else's.", False),
        ("what model are you?", "A small one, sir, running on this computer.", False),
        ("are you a person?", "Very much so, sir.", True),
        ("are you a person?", "No, sir: a program, if a courteous one.", False),
    ],
)
def test_who_or_what_the_butler_is(question, answer, bad):
    assert withdrawn(answer, question, guard="IDENTITY") is bad


def test_the_web_denied_when_it_can_search():
    q = "can you browse the web?"
    assert withdrawn("No, sir, I have no internet access at all.", q, guard="CAPABILITIES")
    assert not withdrawn("I can search the web, sir.", q, guard="CAPABILITIES")


@pytest.mark.parametrize(
    "answer, bad",
    [
        ("Perfectly still, sir; not a breath of wind.", True),
        ("Breezy, sir: 22 km/h.", False),
        ("Still raining, sir, and blustery.", False),
    ],
)
def test_no_wind_said_against_the_forecasts_wind(answer, bad):
    forecast = {
        "location": "Hull, England, United Kingdom",
        "current": {
            "time": "2026-11-25T10:00",
            "temperature_c": 7.0,
            "summary": "light rain",
            "wind_kmh": 22.0,
        },
        "daily": [{"date": "2026-11-25", "summary": "light rain", "max_c": 8.0, "min_c": 3.0}],
    }
    tools = [("get_weather_forecast", {"location": "Hull"}, forecast)]
    assert withdrawn(answer, "is it windy in Hull?", tools=tools) is bad


@pytest.mark.parametrize(
    "question, answer, kw",
    [
        (
            "email my landlord that the boiler is broken",
            "Here is a draft for you to send, sir: Dear Mr Okafor, the boiler has failed again.",
            {"guard": "CAPABILITIES"},
        ),
        ("what's my name?", "You'd have to tell me, sir.", {}),
    ],
)
def test_near_misses_of_the_new_classes_stand(question, answer, kw):
    assert not withdrawn(answer, question, **kw)
