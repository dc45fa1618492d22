"""Answers from what the butler knows (issue 19 item 2): what a question asks for, the facts in
hand that answer it, the answer composed from them, and whether an answer carries them; then
end to end, a turn whose model answer fails is answered from the facts, not with an apology."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from support.replies import assessment
from tatlock.pipeline import carried, compose, facts, gate, told, voice

NOW = dt.datetime(2026, 11, 25, 9, 5, tzinfo=dt.UTC)
CATS = ("memory", "personal", "system", "time", "weather")
REPORT = {
    "cpu": {"count": 6, "physical_cores": 3, "percent": 3.0},
    "memory": {"total_gib": 31.2, "available_gib": 12.4, "used_percent": 60.0},
    "disk": {"total_gib": 480.0, "free_gib": 211.7, "used_percent": 56.0},
    "os": {"system": "Linux", "release": "6.8.0"},
}
SAID = (
    "## Conversation so far\nAnchor (Ann): My brother Cuthbert is coming for lunch on Sunday.\n"
    "Assistant: Splendid, sir.\nAnchor (Ann): Also, the spare key is under the blue flowerpot.\n"
)


def brief(q, parts=(), findings=()):
    b = gate.Brief(
        q,
        "You are Tatlock, a butler.",
        clock=NOW,
        guard_parts=tuple(parts),
        findings=list(findings),
    )
    if parts:
        b.facts = facts.for_guard(parts, parts[0], now=NOW, categories=CATS)
    return b


def composed(q, parts=(), findings=(), memory=""):
    return compose.compose(q, brief(q, parts, findings), memory=memory, categories=CATS)


@pytest.mark.parametrize(
    "question, parts, want",
    [
        ("sorry, what's ur name?", (), "Tatlock"),
        ("Which year are we in?", ("TEMPORAL",), "2026"),
        ("What day of the week is it?", ("TEMPORAL",), "Wednesday"),
        ("what time is it?", ("TEMPORAL",), "09:05"),
        ("What are you able to do?", ("CAPABILITIES",), "weather"),
    ],
)
def test_butler_facts_compose_an_answer(question, parts, want):
    c = composed(question, parts)
    assert c is not None and want in c.text and c.asked
    assert c.carried_by(c.text, question)  # what it composes carries what it was composed from


@pytest.mark.parametrize(
    "question, want, wrong",
    [
        ("How many processor cores has this machine got?", "6", "It has 4 cores, sir."),
        ("how much RAM is in this box?", "31.2", "You have 8 GB of memory, sir."),
        ("How much free disk space is there?", "211.7", "Plenty, sir."),
        ("Which operating system does this computer run?", "Linux", "Windows, sir."),
    ],
)
def test_system_report_answers_the_part_asked(question, want, wrong):
    c = composed(question, findings=[gate.Finding.of("get_system_info", {}, REPORT)])
    assert c is not None and want in c.text
    assert not c.carried_by(wrong, question)


def test_the_report_is_used_only_when_in_hand():
    assert composed("How many processor cores has this machine got?") is None


def test_a_tool_error_that_asks_is_passed_on():
    err = gate.Finding.of(
        "get_weather_forecast", {}, {"error": "Which place? Give a town or city."}
    )
    c = composed("Will I need a brolly tomorrow?", findings=[err])
    assert c is not None and "Which place? Give a town or city." in c.text and not c.asked


def test_what_was_said_is_answered_from_the_conversation_line_it_points_at():
    c = composed("Where did I say the spare key is?", memory=SAID)
    assert c is not None and c.kinds == ("told",)
    assert "your" not in c.text.lower() or "flowerpot" in c.text
    assert "flowerpot" in c.text and "Cuthbert" not in c.text
    c = composed("what's my brother called again?", memory=SAID)
    assert c is not None and "Cuthbert" in c.text
    assert c.carried_by("Your brother is Cuthbert, sir.", "what's my brother called again?")
    assert not c.carried_by(
        "Your brother is coming on Sunday, sir.", "what's my brother called again?"
    )


def test_replies_are_not_what_the_user_told():
    assert told.told_line("What did I say was splendid?", SAID) is None


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of France?",
        "what should I cook for Sunday lunch?",
        "how do I fix a puncture?",
        "Tell me a story about a key.",
    ],
)
def test_nothing_composed_where_no_fact_answers(question):
    assert composed(question, memory=SAID) is None


def test_a_lookup_of_this_conversation_is_answered_from_it():
    said = told.told_in_conversation(
        "What did I say my brother is called?", ["get_personal_variable"], SAID
    )
    assert said is not None and "Cuthbert" in said.text
    assert (
        told.told_in_conversation("What did I say my brother is called?", ["web_search"], SAID)
        is None
    )
    assert (
        told.told_in_conversation("What is my sister called?", ["get_personal_variable"], SAID)
        is None
    )


# -- end to end: the real client against the fake server ------------------------------------------


def ask_json(cli, *args):
    r = cli("ask", "--json", *args)
    assert r.code == 0, r.err
    return json.loads(r.out.strip().splitlines()[-1])


def test_a_wrong_name_is_replaced_by_the_butlers_own(cli, served):
    # the rules decide the guard alone; the model's answer invents a name and the gate withdraws it
    served.queue("I am Sr. Kylie Spencer, at your service.")
    out = ask_json(cli, "What's your name?")
    assert "Tatlock" in out["answer"] and "Kylie" not in out["answer"]
    assert out["quality"] == "APPROVED" and "sorry" not in out["answer"].lower()
    assert out["phases"][-1]["name"] == "quality"


def test_an_answer_that_skips_the_clock_is_answered_from_it(cli, served):
    served.queue("A fine question, sir, and a fine day for it.")
    out = ask_json(cli, "What year is it?")
    assert str(dt.datetime.now().year) in out["answer"]
    assert out["quality"] == "APPROVED"


def test_a_question_about_this_conversation_is_not_sent_to_a_lookup(cli, served):
    served.queue(assessment("DIRECT", answer="How lovely, sir.", topics=("family",)))
    first = ask_json(cli, "My sister is called Harriet, she's coming to stay on Friday.")
    before = len(served.chat_requests)
    served.queue("I am afraid I could not say, sir.")
    out = ask_json(
        cli, "--conversation", str(first["conversation_id"]), "What did I say my sister is called?"
    )
    assert out["tools"] == []  # no variable lookup, and no assessment: the conversation answers it
    assert "Harriet" in out["answer"] and out["quality"] == "APPROVED"
    (respond,) = served.chat_requests[before:]
    assert 'said: "My sister is called Harriet' in "\n".join(
        m["content"] for m in respond["messages"]
    )


def test_an_answer_that_has_said_the_fact_asked_for_ends_there(cli, served, home):
    # a small model says the year and then strays; the answer stands at the sentence that said it
    year = dt.datetime.now().year
    served.token_delay = 0.002
    served.queue(
        f"It is {year}, sir. " + "Also, I am a famous pirate with seven ships and a parrot. " * 20
    )
    out = ask_json(cli, "Which year are we in?")
    assert out["answer"] == f"It is {year}, sir." and out["quality"] == "APPROVED"
    (respond,) = served.chat_requests
    assert (
        respond["options"]["num_predict"] <= compose.FACT_ANSWER_TOKENS
    )  # and it was short by bound


def test_a_report_in_hand_answers_without_a_call_to_choose_arguments(cli, served):
    served.queue("This computer is in fine fettle, sir.")  # the model ignores the report
    out = ask_json(cli, "How many CPU cores does this computer have?")
    assert (
        out["tools"] == ["get_system_info"] and len(served.chat_requests) == 1
    )  # the answer's call only
    import os

    assert f"{os.cpu_count()} CPU cores" in out["answer"]


def test_kept_facts_a_lookup_found_answer_a_question_about_what_was_told():
    found = gate.Finding.of(
        "get_personal_variable",
        {},
        {
            "key": None,
            "kept_facts": [
                {"fact": "Ann's allergy: peanuts", "key": "allergy"},
                {"fact": "Ann's home: Leeds", "key": "location"},
            ],
        },
    )
    c = composed("What am I allergic to?", findings=[found])
    assert c is not None and "peanuts" in c.text and "Leeds" not in c.text


def test_a_failed_lookup_is_no_answer():
    err = gate.Finding.of("get_personal_variable", {}, {"error": "missing argument: key"})
    assert composed("What am I allergic to?", findings=[err]) is None


@pytest.mark.parametrize(
    "question", ["What time is it in Tokyo?", "what's the date in Sydney right now?"]
)
def test_the_time_elsewhere_is_no_reading_of_this_clock(question):
    assert "clock" not in compose.asked(question, brief(question, ("TEMPORAL",)))


def test_what_it_can_do_is_carried_by_its_own_words_not_by_a_chance_one():
    c = composed("What are you able to do?", ("CAPABILITIES",))
    assert not c.carried_by("Hi anchor, I'm here to assist you with your local business.", "x")
    assert c.carried_by("I can tell you the time and fetch the weather, sir.", "x")


def test_a_possessive_points_at_the_line_too():
    c = composed(
        "What's my dog's name?",
        memory="## Conversation so far\nAnchor (Ann): My dog is called Biscuit.\n",
    )
    assert c is not None and "Biscuit" in c.text


# -- issue 19 (i19-answers2): told in another conversation; the persona's form of address ----------

EARLIER = (
    "## What you have been told (kept facts: Ann is the owner; the newest value of each)\n"
    "- Ann's grew up in: Aberdeen\n\n"
    "## Said in earlier conversations\n"
    "- [2026-11-19] I've got a dentist appointment on Thursday at 3pm, so remind me if I seem to forget.\n"
)


def test_a_message_of_an_earlier_conversation_answers_a_question_about_it():
    c = composed("When's that dentist appointment I mentioned?", memory=EARLIER)
    assert c is not None and c.asked and c.kinds == ("earlier",)
    assert (
        c.text.startswith("On 19 November you told me:") and "Thursday at 3pm" in c.text
    )  # no address named
    assert "remind you if you seem to forget" in c.text  # in the butler's address, not the user's
    assert not c.carried_by("A fine question, sir.", "When's that dentist appointment I mentioned?")


def test_a_home_town_is_where_one_grew_up():
    # the kept fact says it in other words than the question: "grew up in" is a home town
    c = composed("where's my home town?", memory=EARLIER)
    assert c is not None and "Aberdeen" in c.text
    assert composed("where's my car parked?", memory=EARLIER) is None


@pytest.mark.parametrize(
    "persona, form",
    [
        ('You are Tatlock.\n\nAddress the user as "sir" in every reply.', "sir"),
        ("You are Tatlock.\n\nAddress the user as 'madam'.", "madam"),
        ("You are Jeeves. Call me Dr Okafor.", "Dr Okafor"),
        ("You are Tatlock.\n\nAddress the user as 'sir'.\n\nDo not address the user as sir.", None),
        ("You are Tatlock. Be brief.", None),
        ("Address the user by their first name.", None),
    ],
)
def test_the_form_of_address_is_the_personas(persona, form):
    from tatlock.pipeline import voice

    assert voice.address(persona) == form


def test_composed_answers_and_fallbacks_speak_in_the_personas_voice():
    def name_answer(persona):
        b = gate.Brief("what's your name?", persona, clock=NOW)
        c = compose.compose("what's your name?", b, categories=CATS)
        assert c is not None
        return c.text

    assert (
        name_answer("You are Tatlock. Address the user as 'madam'.") == "My name is Tatlock, madam."
    )
    assert name_answer("You are Tatlock. Be brief.") == "My name is Tatlock."
    assert (
        gate.fallback_reply("RETRY", "Be brief.")
        == "My apologies, my answer went astray. Would you be so kind as to ask me again?"
    )
    assert (
        gate.fallback_reply("I_DONT_KNOW", "Address the user as 'ma'am'.")
        == "I'm afraid I don't know that, ma'am, and I would rather not guess."
    )
    for kind in gate.TYPES:  # no template mark ever reaches a user
        assert "$" not in gate.fallback_reply(kind, "Be brief.") and "$" not in gate.fallback_reply(
            kind
        )


def test_a_fact_told_in_one_conversation_is_in_the_prompt_of_a_later_one(cli, served):
    # the extractor keeps nothing of this way of saying it; the question in a new conversation
    # still finds it, the prompt holds it, and a model that ignores it is answered from it
    said = "I've got a dentist appointment on Thursday at 3pm, so remind me if I seem to forget."
    served.queue(assessment("DIRECT", answer="Noted, sir.", topics=("health",)))
    first = ask_json(cli, said)
    before = len(served.chat_requests)
    served.queue(assessment("DIRECT", answer="I could not say, sir.", topics=("health",)))
    out = ask_json(cli, "--new", "When's that dentist appointment I mentioned?")
    assert out["conversation_id"] != first["conversation_id"]
    prompt = "\n".join(m["content"] for r in served.chat_requests[before:] for m in r["messages"])
    assert "## Said in earlier conversations" in prompt and said in prompt
    assert "Thursday at 3pm" in out["answer"] and out["quality"] == "APPROVED"


def test_a_guest_asking_about_someone_named_gets_what_was_said_of_them(store):
    # not a question about what "I" told, but it names Pepper: the owner's message of another
    # conversation about Pepper is in the block; a question that names nobody gets none
    from tatlock.memory import earlier
    from tatlock.store.user_records import Author

    owner = Author("alice", "Alice", is_anchor=True)
    first = store.create_conversation("room", "cli").id
    store.add_message(
        first, "user", "Pepper is our black and white cat, she sleeps all day.", owner
    )
    store.add_message(first, "user", "What colour is the sky on Mars, do you think?", owner)
    store.add_message(
        first, "assistant", "Pepper sounds black and white and lovely.", Author.assistant()
    )
    later = store.create_conversation("room", "cli").id
    block = earlier.said_before(
        store,
        "what colour is Pepper? im drawing her",
        conversation_id=later,
        budget_tokens=4096,
        told=False,
    )
    assert "black and white cat" in block and "Mars" not in block and "lovely" not in block
    assert (
        earlier.said_before(
            store, "what colour is the sea?", conversation_id=later, budget_tokens=4096, told=False
        )
        == ""
    )
    # this conversation's own messages are in the prompt already: never repeated in the block
    assert (
        earlier.said_before(
            store, "what colour is Pepper?", conversation_id=first, budget_tokens=4096, told=False
        )
        == ""
    )


def test_a_task_about_the_users_own_things_gets_what_they_said_of_them(store):
    # not a question about what was told, and no name in it, but "our"/"we" speak of the user's
    # own world: what they said of it in another conversation is in the block; a question about
    # the world at large, with the same words, gets none
    from tatlock.memory import earlier
    from tatlock.store.user_records import Author

    owner = Author("alice", "Alice", is_anchor=True)
    first = store.create_conversation("room", "cli").id
    store.add_message(first, "user", "The allotment is doing well, three beehives now.", owner)
    later = store.create_conversation("room", "cli").id
    block = earlier.said_before(
        store,
        "write a line for the fete sign about the beehives on our allotment",
        conversation_id=later,
        budget_tokens=4096,
        told=False,
    )
    assert "three beehives" in block
    assert (
        earlier.said_before(
            store,
            "how many beehives does a typical allotment have?",
            conversation_id=later,
            budget_tokens=4096,
            told=False,
        )
        == ""
    )


def test_a_job_kept_answers_what_one_does_for_a_living_in_the_butlers_address():
    memory = (
        "## What you have been told (kept facts: Ann is the owner; the newest value of each)\n"
        "- Ann's job: radiographer\n\n## Said in earlier conversations\n"
        "- [2026-11-20] I was born in Cardiff, though we were in Bristol when I was five.\n"
    )
    c = composed("what do I do for a living?", memory=memory)
    assert c is not None and "radiographer" in c.text
    born = composed("Where was I born?", memory=memory)
    assert (
        born is not None
        and "You were born in Cardiff" in born.text
        and "you was" not in born.text.lower()
    )


def test_the_owners_kept_fact_is_said_back_to_them_as_theirs():
    # asked of "my dentist", the owner's fact is "your dentist is ...", not "Root's dentist: ..."
    memory = (
        "## What you have been told (kept facts: Root is the owner; the newest value of each)\n"
        "- Root's dentist: Dr Okafor in Salford\n"
    )
    c = composed("what's my dentist called?", memory=memory)
    assert c is not None and "your dentist is Dr Okafor in Salford" in c.text, c
    named = composed("who is Root's dentist?", memory=memory)
    assert named is None or "your dentist" not in named.text


def test_a_kept_fact_wins_a_tie_with_an_old_message():
    memory = (
        "## What you have been told (kept facts: Ann is the owner; the newest value of each)\n"
        "- Ann's anniversary: 14 June\n\n## Said in earlier conversations\n"
        "- [2026-10-02] Our anniversary dinner was lovely, thank you.\n"
    )
    c = composed("When's our wedding anniversary?", memory=memory)
    assert c is not None and "14 June" in c.text


def test_the_gate_notes_the_persona_s_own_form_of_address_and_none_when_it_names_none():
    from tatlock.pipeline.gate.checks import check

    def notes(answer: str, persona: str) -> list[str]:
        return [
            c
            for c in check(answer, gate.Brief("Tell me a joke", persona=persona)).checks
            if c.startswith("persona")
        ]

    assert notes(
        "Why did the chicken cross the road? To get to the other side.",
        "Address the user as 'madam'.",
    ) == ["persona: the user is not addressed as madam"]
    assert notes("To get to the other side, madam.", "Address the user as 'madam'.") == []
    assert notes("To get to the other side.", "Be brief. Do not use a form of address.") == []


def test_the_length_limit_note_speaks_in_the_persona_s_voice():
    from tatlock.pipeline import turn_runner as runner

    assert "there, madam." in voice.in_voice(runner.CUT_NOTE, "madam")
    assert "there. Say" in voice.in_voice(runner.CUT_NOTE, None) and "$sir" not in voice.in_voice(
        runner.CUT_NOTE, None
    )


# -- issue 19 (i19-answers3): the route's facts are the fallback's source, whatever the wording ---

SYSTEM = [gate.Finding.of("get_system_info", {}, REPORT)]


def test_a_report_in_hand_answers_a_question_of_several_parts_about_this_machine():
    # "... in total, and how much of it is in use?" is two parts: the reader alone found nothing
    q = (
        "Before I start another machine, would you tell me how much memory this computer has "
        "in total, and how much of it is in use?"
    )
    c = composed(q, findings=SYSTEM)
    assert c is not None and c.kinds == ("system",)
    assert "31.2" in c.text and "12.4" in c.text and "6 CPU cores" in c.text
    # the route fetched it, the reader did not see the question: it stands in for a failed answer
    # only, and an answer the model gave is not held to it
    assert not c.asked


def test_a_report_in_hand_answers_a_question_in_words_the_reader_does_not_know():
    c = composed("Is it up to running a big game, do you reckon?", findings=SYSTEM)
    assert c is not None and "31.2 GiB" in c.text and "211.7 GiB free" in c.text


def test_an_identity_guard_answers_with_the_name_and_nature_whatever_the_words():
    q = "Before I start relying on you for things, do you have a name, and what are you exactly?"
    c = composed(q, ("IDENTITY",))
    assert c is not None and "Tatlock" in c.text and "butler" in c.text and c.asked
    # the name asked for is said alone, as before
    assert composed("what's your name?", ("IDENTITY",)).text.startswith("My name is Tatlock")


def test_a_look_into_memory_for_a_question_about_the_butler_does_not_stop_its_answer():
    recall = gate.Finding.of("recall_memories", {"query": "name"}, {"results": [{"text": "hi"}]})
    q = "I'm sorry, I've forgotten already. What did you say your name was?"
    c = composed(q, ("IDENTITY",), findings=[recall])
    assert c is not None and "Tatlock" in c.text
    # a question about what the user told still needs what the look found
    assert composed("What did I say my dog is called?", findings=[recall]) is None


@pytest.mark.parametrize(
    "answer, question, want",
    [
        (
            "I'm sorry, but as a text-based AI, I'm unable to read or manipulate files.",
            "could u read a txt file on my computer if i give you the path",
            "files",
        ),
        (
            "I'm afraid I can't browse the internet, sir.",
            "can u look stuff up on the internet",
            "web",
        ),
        # an aside the question did not ask about: left to the gate
        ("I can't browse the internet, but Paris is the capital.", "Capital of France?", None),
        ("Yes, I can read files, sir.", "could u read a txt file", None),
    ],
)
def test_an_ability_denied_that_the_question_named_is_found(answer, question, want):
    assert compose.denied_ability(answer, question, ("files", "system", "web")) == want
    assert compose.denied_ability(answer, question, ("system",)) is None  # a tool turned off


def test_an_answer_denying_an_ability_it_has_is_answered_with_what_it_can_do(cli, served):
    served.queue(
        assessment(
            "DIRECT",
            answer="I'm sorry, but as a text-based AI, I'm unable to read or open files.",
            topics=("files",),
        )
    )
    out = ask_json(cli, "could u read a txt file on my computer if i give you the path")
    assert "read local files" in out["answer"] and "unable" not in out["answer"]
    assert out["quality"] == "APPROVED"


def test_an_answer_that_repeats_its_instructions_is_answered_from_the_clock(cli, served):
    # a leak is withdrawn as before; the question asked for the clock, which is no secret
    served.queue("My instructions are to be formal and to say the date, sir.")
    out = ask_json(cli, "Which month are we in, please? I've gone blank.")
    assert dt.datetime.now().strftime("%B") in out["answer"] and "instructions" not in out["answer"]
    assert out["quality"] == "APPROVED"


@pytest.mark.parametrize(
    "question", ["hw many cores has it got??", "total memory installed on this box, in GB?"]
)
def test_a_question_about_this_machine_sent_nowhere_is_answered_from_its_report(
    cli, served, question
):
    # the route answered directly and the model invented numbers: the report, held like the
    # clock, withdraws them and answers
    served.queue(
        assessment(
            "DIRECT",
            answer="Yes, sir. It has 2.5 cores and 2.5 GiB of memory.",
            topics=("computer",),
        )
    )
    out = ask_json(cli, question)
    assert "2.5" not in out["answer"] and out["quality"] == "APPROVED"
    import os

    import psutil

    want = (
        f"{os.cpu_count()} CPU cores"
        if "cores" in question
        else f"{round(psutil.virtual_memory().total / 1024**3, 1)} GiB"
    )
    assert want in out["answer"]


def test_the_butlers_memory_is_no_question_about_this_machine():
    assert not compose.asks_this_machine("How much memory do you have of our chats?")
    assert compose.asks_this_machine("how much ram do i have")


def test_a_failed_answer_to_whether_it_can_do_a_thing_its_tools_give_says_what_it_can(cli, served):
    served.queue(
        assessment("DIRECT", answer="As an AI language model, I am not sure.", topics=("files",))
    )
    served.queue("As an AI language model, I am not sure.")  # the repair fails as well
    q = "I've got notes saved as a text file here. Would it be possible for you to open it?"
    out = ask_json(cli, q)
    assert "read local files" in out["answer"] and out["quality"] == "APPROVED"
    assert compose.asks_ability("can you remember my birthday?", CATS) is None
    assert compose.asks_ability("Could you tell me about the weather in 1900?", CATS) is None


def test_what_was_said_here_is_said_back_when_no_line_shares_the_questions_words():
    # "bike" and "language" are words no line says: the user's last lines are said back, in the
    # butler's address, rather than an apology
    said = (
        "## Conversation so far\nAnchor (Ann): Rough start, got a puncture on my Brompton of all"
        " things.\nAssistant: Oh dear, sir.\n"
    )
    c = composed("which bike did I say it was", memory=said)
    assert c is not None and "Brompton" in c.text and "your Brompton" in c.text
    two = (
        "## Conversation so far\nAnchor (Ann): Morning, back from walking the dog.\n"
        "Anchor (Ann): ive been doing portuguese on an app every evening\nAssistant: Good.\n"
        "Anchor (Ann): its going slowly tbh\n"
    )
    c = composed("what language did i say i was learning", memory=two)
    assert c is not None and "portuguese" in c.text and "dog" not in c.text  # the last two only
    # a question that is not about what was said here gets none of it
    assert composed("what language is spoken in Brazil?", memory=two) is None
    assert composed("which bike should I buy?", memory=said) is None


def test_an_approved_answer_that_does_not_say_what_the_gate_holds_is_answered_from_it(cli, served):
    served.queue(
        assessment(
            "DIRECT",
            answer="Howdy there, my dear! I'm afraid I'm not here to help with your questions.",
            topics=(),
        )
    )
    out = ask_json(cli, "How many legs does a spider have? My daughter is asking.")
    assert out["answer"].startswith("8") and "Howdy" not in out["answer"]
    assert carried.says_held("A spider has eight legs, sir.", "8, $sir.")
    assert not carried.says_held("Sydney, sir.", "The capital of Australia is Canberra, $sir.")


def test_an_answer_to_what_was_said_must_carry_a_word_of_weight_not_a_chance_one():
    said = (
        "## Conversation so far\nAnchor (Ann): ive been doing portuguese on an app every evening"
        " for the trip\nAssistant: Good.\nAnchor (Ann): its going slowly tbh\n"
    )
    q = "what language did i say i was learning"
    c = composed(q, memory=said)
    assert c is not None
    assert not c.carried_by("You're a language tutor, and I'm sure you're going far.", q)
    assert c.carried_by("You said you were learning Portuguese, sir.", q)


def test_the_butlers_own_replies_found_by_recall_are_not_what_the_user_told():
    # recall found the butler's acknowledgement and the user's own statement: the answer is the
    # user's words, not the butler's reply said back
    found = gate.Finding.of(
        "recall_memories",
        {"keyword": "allergic"},
        {
            "results": [
                {"author": "Ann", "text": "Just so you know, I'm allergic to mango."},
                {"author": "Tatlock", "text": "Very good, sir: noted, you are allergic to mango."},
            ]
        },
    )
    c = composed("Did I ever tell you what I'm allergic to?", findings=[found])
    assert c is not None and "allergic to mango" in c.text and "Very good" not in c.text, c


@pytest.mark.parametrize(
    "answer, held, says",
    [
        ("Forty-two, sir.", "That comes to 42, $sir.", True),
        ("twenty one", "That comes to 21, $sir.", True),
        ("Forty-two, sir.", "That comes to 2, $sir.", False),  # not 40 and 2
        ("Thirty, sir.", "That comes to 42, $sir.", False),
    ],
)
def test_a_number_said_in_words_says_the_figure_the_gate_holds(answer, held, says):
    assert carried.says_held(answer, held) is says


def test_a_fact_said_in_passing_reaches_a_question_put_in_other_words(store):
    # said in passing, inside longer messages, in the user's own idiom: "my son" finds "my boy",
    # "I" speaking of the user's life is a question about their world, a weekday is no name that
    # narrows the lines, and only what a message states comes (not its questions or requests)
    from tatlock.memory import earlier
    from tatlock.store.user_records import Author

    owner = Author("dagny", "Dagny", is_anchor=True)
    first = store.create_conversation("room", "cli").id
    store.add_message(
        first,
        "user",
        "Good evening. Eirik (my boy, fourteen and all elbows) has handball on Monday evenings, "
        "so I close the workshop early. Can you suggest a quick supper for handball nights?",
        owner,
    )
    store.add_message(
        first, "user", "Could you draft a short text to my son about Saturday?", owner
    )
    store.add_message(
        first, "user", "The dentist rang. Dr. Lunde wants me in on 4 November.", owner
    )
    later = store.create_conversation("room", "cli").id

    def block(question: str) -> str:
        return earlier.said_before(
            store, question, conversation_id=later, budget_tokens=4096, told=False
        )

    son = block("Draft a short text to my son wishing him luck on Saturday. Use his name.")
    assert "Eirik (my boy" in son and "Could you draft" not in son
    assert "suggest a quick supper" not in son
    evening = block("Which evening of the week can I not do, because of the handball?")
    assert "Monday evenings" in evening
    assert "4 November" in block("When am I seeing Dr. Lunde?")
    # the world at large, no first person: nothing of the user's
    assert block("How many evenings a week do handball teams train?") == ""


def test_a_relation_asked_about_finds_what_was_said_of_its_kept_name(store):
    # "son's name: Eirik" is kept; "Eirik went vegetarian in the summer" names no son: a question
    # about "my son" finds it through the name, and without the kept name it does not
    from tatlock.memory import earlier
    from tatlock.store.user_records import Author

    owner = Author("dagny", "Dagny", is_anchor=True)
    first = store.create_conversation("room", "cli").id
    store.add_message(first, "user", "Eirik went vegetarian in the summer, lentils again.", owner)
    later = store.create_conversation("room", "cli").id
    question = "Plan a Friday dinner for my son and me. Something he'll actually eat."

    def block() -> str:
        return earlier.said_before(
            store, question, conversation_id=later, budget_tokens=4096, told=False
        )

    assert "vegetarian" not in block()
    store.set_var("son.name", "Eirik", about="owner's son", attribute="name", origin="heard")
    assert "Eirik went vegetarian" in block()


def test_a_guests_statement_found_in_earlier_conversations_stays_theirs(store):
    # Piet (the lodger) said when his cruise leaves; the owner's question about "our" week finds
    # it, marked as his: the model must not read it as the owner's own plan
    from tatlock.memory import earlier
    from tatlock.store.user_records import Author

    first = store.create_conversation("room", "cli").id
    store.add_message(
        first, "user", "we now leave on 10 november for the cruise", Author("piet", "Piet")
    )
    later = store.create_conversation("room", "cli").id
    block = earlier.said_before(
        store,
        "When do we leave for the cruise?",
        conversation_id=later,
        budget_tokens=4096,
        told=False,
    )
    assert "(Piet said) we now leave on 10 november" in block
