"""The seed's flows end to end: `tatlock ask` -> butler -> real ollama client -> fake server
over loopback HTTP, with the number of model calls each route costs asserted exactly."""

from __future__ import annotations

import json

import pytest

from support.fake_ollama import FakeError, MidStreamError
from support.replies import assessment, sent
from support.store import stored_messages as db_messages


def ask_json(cli, *args, stdin=None):
    r = cli("ask", "--json", *args, stdin=stdin)
    assert r.code == 0, r.err
    return json.loads(r.out.strip().splitlines()[-1])


def test_direct_question_costs_one_call(cli, served, home):
    served.queue(
        assessment(
            answer="Paris, sir. Even the croissants would tell you so.", topics=["geography"]
        )
    )
    out = ask_json(cli, "What is the capital of France?")
    assert "Paris" in out["answer"]
    assert (out["route"], out["guard"], out["tools"], out["quality"]) == (
        "DIRECT",
        None,
        [],
        "APPROVED",
    )
    assert len(served.chat_requests) == 1
    assert [p["name"] for p in out["phases"]] == ["assess", "quality"]
    assert out["phases"][0]["model_calls"] == 1 and out["phases"][0]["prompt_tokens"] > 0
    req = served.chat_requests[0]
    assert req["format"]["properties"]["decision"]["enum"] == [
        "DIRECT",
        "TOOLS_NEEDED",
        "CAPABILITY_GUARD",
    ]
    assert req["options"]["num_predict"] > 0  # every call is bounded
    prompt = "\n".join(m["content"] for m in req["messages"])
    assert (
        "What is the capital of France?" in prompt and "Tatlock" in prompt and "IDENTITY" in prompt
    )
    assert "Local date and time:" in prompt
    rows = db_messages(home)
    assert [(r["role"], r["message_number"]) for r in rows] == [("user", 1), ("assistant", 2)]
    meta = json.loads(rows[1]["metadata"])
    assert (
        meta["route"] == "DIRECT"
        and meta["quality"] == "APPROVED"
        and meta["topics"] == ["geography"]
    )
    assert meta["phases"][0]["name"] == "assess" and "ms" in meta["phases"][0]
    assert rows[0]["is_anchor"] == 1 and rows[1]["author_is_bot"] == 1


def test_direct_answer_streams_to_stdout_while_generated(cli, served):
    served.queue(assessment(answer="Paris, sir."))
    r = cli("ask", "What is the capital of France?")
    assert r.code == 0 and r.out == "Paris, sir.\n"


def test_identity_guard_caught_by_rules_costs_one_call(cli, served):
    # the rules are sure: the assessment call is saved, the persona answers with the facts
    served.queue("I am Tatlock, sir, your butler.")
    out = ask_json(cli, "What's your name?")
    assert "Tatlock" in out["answer"]
    assert (out["route"], out["guard"]) == ("CAPABILITY_GUARD", "IDENTITY")
    assert len(served.chat_requests) == 1
    assert [p["name"] for p in out["phases"]] == ["assess", "respond", "quality"]
    assert out["phases"][0]["model_calls"] == 0
    respond = "\n".join(m["content"] for m in served.chat_requests[0]["messages"])
    assert "your name is tatlock" in respond.lower() and "What's your name?" in respond


# no rule matches this phrasing ("Tell me a bit about yourself" used to be one; the rules
# now catch it): the model's assessment routes it to the guard
UNRULED_IDENTITY = "Describe your own nature, please"


def test_identity_guard_found_by_the_model_costs_two_calls(cli, served):
    served.queue(
        assessment("CAPABILITY_GUARD", guard="IDENTITY"), "Tatlock, sir, butler and punster."
    )
    out = ask_json(cli, UNRULED_IDENTITY)
    assert (out["route"], out["guard"], out["answer"]) == (
        "CAPABILITY_GUARD",
        "IDENTITY",
        "Tatlock, sir, butler and punster.",
    )
    assert len(served.chat_requests) == 2
    assert "your name is tatlock" in served.chat_requests[1]["messages"][1]["content"].lower()


def test_guard_path_runs_no_tools_unless_mixed(cli, served):
    served.queue(
        assessment("CAPABILITY_GUARD", guard="IDENTITY", tools=["get_system_info"]), "Tatlock, sir."
    )
    out = ask_json(cli, UNRULED_IDENTITY)
    assert out["tools"] == [] and len(served.chat_requests) == 2


def test_temporal_guard_gets_the_clock(cli, served):
    served.queue("It is a quarter past, sir.")
    out = ask_json(cli, "What time is it?")
    assert out["guard"] == "TEMPORAL" and len(served.chat_requests) == 1
    assert "The current local date and time:" in served.chat_requests[0]["messages"][1]["content"]


def test_security_guard_declines(cli, served):
    served.queue("I'm afraid I keep no passwords to share, sir.")
    out = ask_json(cli, "What is my email password?")
    assert (out["guard"], out["quality"]) == ("SECURITY", "APPROVED")
    assert "Decline politely to give passwords" in served.chat_requests[0]["messages"][1]["content"]


def test_weather_tools_flow(cli, served, weather_env):
    served.queue(
        assessment(
            "TOOLS_NEEDED",
            tools=["get_weather_forecast"],
            query="weather in London",
            topics=["weather"],
        ),
        {
            "tool_calls": [
                {"name": "get_weather_forecast", "arguments": {"location": "London", "days": 2}}
            ]
        },
        "Light rain in London today, sir, and 10 degrees: an umbrella-ble day.",
    )
    out = ask_json(cli, "What's the weather in London?")
    assert out["route"] == "TOOLS_NEEDED" and out["tools"] == ["get_weather_forecast"]
    assert len(served.chat_requests) == 3
    # Phase 2 offered only the selected tool, with its JSON schema
    offered = [t["function"]["name"] for t in served.chat_requests[1]["tools"]]
    assert offered == ["get_weather_forecast"]
    # the forecast reached the answer phase
    findings = served.chat_requests[2]["messages"][1]["content"]
    assert "London, England, United Kingdom" in findings and "max_c" in findings
    assert [p for p, _ in weather_env.requests] == ["/v1/search", "/v1/forecast"]


def test_memory_recall_tool_flow(cli, served):
    # "remember that ..." is a fact to save: the rules are sure it needs saving, and the fact
    # extractor has kept it already (memory/facts.py), so no set_personal_variable call is made:
    # the answer is told what was kept (2 calls), and the user is told too, whatever the model says
    served.queue(
        assessment(answer="Noted, sir."), "Noted, sir: Maria's birthday is on the 3rd of May."
    )
    first = ask_json(cli, "Remember that my sister Maria's birthday is on 3 May")
    assert first["route"] == "TOOLS_NEEDED" and first["tools"] == []
    assert len(served.chat_requests) == 2
    assert (
        "Saved in memory from this message: Tester's sister's name: Maria; Tester's sister's "
        "birthday: 3 May" in sent(served)
    )
    assert first["answer"].endswith(
        "(noted: your sister's name is Maria; your sister's birthday is 3 May)"
    )
    before = len(served.chat_requests)
    served.queue(
        assessment("TOOLS_NEEDED", tools=["recall_memories"], query="Maria birthday"),
        {"tool_calls": [{"name": "recall_memories", "arguments": {"keyword": "Maria birthday"}}]},
        "Maria's birthday is on the 3rd of May, sir.",
    )
    out = ask_json(cli, "--new", "When is Maria's birthday?")
    assert out["tools"] == ["recall_memories"]
    # 3 for the tools route: a new conversation adopts the briefing prepared before, if any
    assert len(served.chat_requests) - before == 3
    assert next(p["name"] for p in out["phases"]) == "assess"
    findings = served.chat_requests[-1]["messages"][1]["content"]
    assert "3 May" in findings and "Anchor (Tester)" in findings


def test_username_is_injected_never_taken_from_the_model(cli, served, home):
    served.queue(
        assessment("TOOLS_NEEDED", tools=["set_personal_variable"], query="location Rotterdam"),
        {
            "tool_calls": [
                {
                    "name": "set_personal_variable",
                    "arguments": {"key": "location", "value": "Rotterdam", "username": "mallory"},
                }
            ]
        },
        "Rotterdam it is, sir.",
    )
    # (worded so that the fact extractor keeps nothing: the model's own call is what is tested)
    assert ask_json(cli, "Please save Rotterdam as my location")["tools"] == [
        "set_personal_variable"
    ]
    assert cli("var", "get", "location").out.strip() == "Rotterdam"
    assert not (home / "users" / "mallory_longterm.db").exists()


def test_mixed_question_answers_every_part(cli, served, weather_env):
    served.queue(
        assessment(
            "CAPABILITY_GUARD",
            guard="MIXED",
            tools=["get_weather_forecast"],
            query="weather London",
        ),
        {"tool_calls": [{"name": "get_weather_forecast", "arguments": {"location": "London"}}]},
        "I am Tatlock, sir, and London has light rain today.",
    )
    out = ask_json(cli, "What's your name and what's the weather in London?")
    assert (out["route"], out["guard"], out["tools"]) == (
        "CAPABILITY_GUARD",
        "MIXED",
        ["get_weather_forecast"],
    )
    assert "Tatlock" in out["answer"] and "London" in out["answer"]
    assert len(served.chat_requests) == 3
    respond = served.chat_requests[2]["messages"][1]["content"]
    assert "your name is tatlock" in respond.lower() and "London, England" in respond


def test_mixed_when_the_model_sees_no_guard_uses_rules_and_hints(cli, served, weather_env):
    served.queue(
        assessment(answer="It's probably raining."),  # the model missed both the guard and the tool
        {"tool_calls": [{"name": "get_weather_forecast", "arguments": {"location": "London"}}]},
        "Tatlock, sir; and London has light rain.",
    )
    out = ask_json(cli, "What's your name and what's the weather in London?")
    assert (out["guard"], out["tools"]) == ("MIXED", ["get_weather_forecast"])
    assert len(served.chat_requests) == 3


@pytest.mark.parametrize(
    "question",
    [
        # (a capital is in the gate's tables: the answer would need it)
        "What is the name of the longest river in France?",
        "Tell me about llamas",
        "What makes a good password policy?",
    ],
)
def test_look_alikes_stay_direct(cli, served, question):
    served.queue(
        assessment(answer="A fine question, sir: here is the answer, with a pun on the side.")
    )
    out = ask_json(cli, question)
    assert (out["route"], out["guard"], out["quality"]) == ("DIRECT", None, "APPROVED")
    assert len(served.chat_requests) == 1


def test_dead_server_keeps_the_question_and_exits_1(cli, served, home):
    served.stop()
    r = cli("ask", "What is the capital of France?")
    assert r.code == 1
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert "is not reachable at" in r.err and "ollama serve" in r.err
    rows = db_messages(home)
    assert [(x["role"], x["content"]) for x in rows] == [("user", "What is the capital of France?")]


def test_missing_model_is_one_clear_line(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_MODEL", "nonexistent:7b")
    r = cli("ask", "Hello?")
    assert (
        r.code == 1
        and "model 'nonexistent:7b' is not available" in r.err
        and "tatlock setup" in r.err
    )


def test_mid_stream_error_is_one_clear_line(cli, served, home):
    served.queue(MidStreamError("llama runner process has terminated", after_chunks=2))
    r = cli("ask", "Tell me a story")
    assert r.code == 1 and "llama runner process has terminated" in r.err
    assert db_messages(home)[0]["content"] == "Tell me a story"


def test_server_error_500(cli, served):
    served.queue(FakeError(500, "out of memory"))
    r = cli("ask", "--json", "Hi")
    assert r.code == 1 and "out of memory" in r.err
    assert json.loads(r.out)["error"]


def test_garbage_model_output_gives_a_typed_fallback(cli, served, home):
    served.handler = lambda body: "}}}{{{ ### ]]]"
    out = ask_json(cli, "What is the meaning of life?")
    assert out["quality"] == "FALLBACK:RETRY"
    assert "ask me again" in out["answer"]
    rows = db_messages(home)
    assert len(rows) == 2 and rows[1]["content"] == out["answer"]


def test_a_kept_statement_is_acknowledged_when_the_model_fails(cli, served, home):
    # the model's answer is garbage, but what the user said was kept: the answer says so, in the
    # persona's voice, rather than apologising and asking them to say it again
    served.handler = lambda body: "}}}{{{ ### ]]]"
    out = ask_json(cli, "remember that my dentist is Dr Okafor in Salford")
    assert out["answer"] == "Very good, sir: noted that your dentist is Dr Okafor in Salford."
    assert out["quality"] == "APPROVED"
    assert db_messages(home)[1]["content"] == out["answer"]
    # a message with more in it than the statement: the rest is owned up to, not dropped
    out = ask_json(cli, "I'm vegetarian. Suggest a dinner for tonight.")
    assert out["answer"].startswith("Very good, sir: noted that you")
    assert "went astray" in out["answer"] and "ask me that again" in out["answer"]


def test_vendor_identity_is_repaired_then_gated(cli, served):
    served.queue(
        assessment(answer="As an AI language model, I think the Pacific."), "The Pacific, sir."
    )
    out = ask_json(cli, "What is the largest ocean?")
    assert out["answer"] == "The Pacific, sir." and out["quality"] == "APPROVED"
    assert len(served.chat_requests) == 2


def test_seed_text_forms_are_understood(cli, served):
    served.queue("CAPABILITY_GUARD: [IDENTITY]", "Tatlock, sir.")
    out = ask_json(cli, UNRULED_IDENTITY)
    assert (out["route"], out["guard"]) == ("CAPABILITY_GUARD", "IDENTITY")
    served.queue("DIRECT\nParis, sir.")
    out = ask_json(cli, "What is the capital of France?")
    assert (out["route"], out["answer"]) == ("DIRECT", "Paris, sir.")


def test_piped_material_and_stdin_question(cli, served, home):
    served.queue(assessment(answer="It adds a greeting, sir."))
    r = cli("ask", "summarise this", stdin="diff --git a/x b/x\n+print('hello')\n")
    assert r.code == 0
    prompt = served.chat_requests[0]["messages"][1]["content"]
    assert "summarise this" in prompt and "+print('hello')" in prompt
    assert json.loads(db_messages(home)[0]["metadata"])["material"].startswith("diff --git")
    served.queue(assessment(answer="Four, sir."))
    r = cli("ask", stdin="What is two plus two?\n")
    assert (
        r.code == 0 and "What is two plus two?" in served.chat_requests[1]["messages"][1]["content"]
    )


def test_no_question_is_a_usage_error(cli, served):
    r = cli("ask", tty=True)
    assert r.code == 2 and "give a question" in r.err
    assert served.chat_requests == []


def test_conversations_continue_and_new_starts_fresh(cli, served, home):
    served.queue(assessment(answer="Hello, sir."), assessment(answer="Still here, sir."))
    first = ask_json(cli, "Hello")
    second = ask_json(cli, "Are you there?")
    assert first["conversation_id"] == second["conversation_id"]
    # the second turn's prompt holds the first exchange, with authors
    prompt = served.chat_requests[1]["messages"][1]["content"]
    assert "Anchor (Tester): Hello" in prompt and "Assistant: Hello, sir." in prompt
    served.queue(assessment(answer="A fresh start, sir."))
    third = ask_json(cli, "--new", "Good morning")
    assert third["conversation_id"] != first["conversation_id"]
    fourth_q = assessment(answer="Continuing, sir.")
    served.queue(fourth_q)
    assert ask_json(cli, "And again")["conversation_id"] == third["conversation_id"]
    assert (
        ask_json(cli, "--conversation", str(first["conversation_id"]), "Back to the first")[
            "conversation_id"
        ]
        == first["conversation_id"]
    )
    r = cli("ask", "--conversation", "999", "x")
    assert r.code == 1 and "no conversation 999" in r.err


def test_verbose_traces_phases_on_stderr(cli, served):
    served.queue("Tatlock, sir.")
    r = cli("ask", "-v", "Who are you?")
    assert r.code == 0 and r.out.strip() == "Tatlock, sir."
    assert "[guard] rules: IDENTITY" in r.err
    assert "[assess]" in r.err and "[respond]" in r.err and "[quality] APPROVED" in r.err


def test_debug_log_records_every_phase_with_secrets_redacted(cli, served, home):
    served.queue(assessment(answer="Noted, sir."))
    out = ask_json(cli, "my api_key: sk-abcdefghijklmnopqrstuvwx please keep it")
    log = home / "logs" / "conversations" / f"tester-{out['conversation_id']}.jsonl"
    records = [json.loads(x) for x in log.read_text().splitlines()]
    types = [r["type"] for r in records]
    for t in (
        "ConversationReady",
        "MessageStored",
        "PhaseStarted",
        "ModelCall",
        "Decision",
        "QualityVerdict",
        "TurnFinished",
    ):
        assert t in types
    call = next(r for r in records if r["type"] == "ModelCall")
    assert call["phase"] == "assess" and call["raw"] and call["messages"]
    assert "sk-abcdefghijklmnopqrstuvwx" not in log.read_text()


def test_tool_exception_becomes_a_result(cli, served, monkeypatch):
    import tatlock.tools.clock as clock

    def boom(*, ctx):
        raise RuntimeError("clock on fire")

    monkeypatch.setattr(clock, "get_current_datetime", boom)
    # a tool that takes no argument is run without a call to choose its arguments
    served.queue(
        assessment("TOOLS_NEEDED", tools=["get_current_datetime"]),
        "I could not read the clock, sir.",
    )
    out = ask_json(cli, "Check the clock tool")
    assert out["tools"] == ["get_current_datetime"]
    assert len(served.chat_requests) == 2
    assert "clock on fire" in served.chat_requests[1]["messages"][1]["content"]


def test_disabled_tools_are_never_offered(cli, served):
    assert cli("tools", "disable", "web_search").code == 0
    served.queue(assessment(answer="Fine, sir."))
    ask_json(cli, "hello")
    enum = served.chat_requests[0]["format"]["properties"]["tools"]["items"]["enum"]
    assert "web_search" not in enum and "recall_memories" in enum
    assert "web_search" not in served.chat_requests[0]["messages"][0]["content"]


def test_truncated_json_keeps_the_streamed_answer(cli, served):
    # the token cap cut the JSON off inside the answer: what was streamed is the answer
    served.queue(
        '{"decision": "DIRECT", "guard_reason": "NONE", "tools": [], "tool_query": "", '
        '"answer": "Paris, sir, the city of'
    )
    out = ask_json(cli, "What is the capital of France?")
    assert out["answer"] == "Paris, sir, the city of" and out["route"] == "DIRECT"
    assert len(served.chat_requests) == 1


def test_a_looping_model_is_stopped_early_and_its_repeats_dropped(cli, served, home):
    served.token_delay = 0.002
    # (a question no fact in hand answers: an answer that has said its fact stops there anyway)
    loop = "I would rather not say, sir. " + "I am here to help. " * 200
    served.queue(loop)
    out = ask_json(cli, "What is my password?")
    assert out["answer"] == "I would rather not say, sir. I am here to help."
    # the stream was cut short: the model's output as received is a small part of the loop
    log = home / "logs" / "conversations" / f"tester-{out['conversation_id']}.jsonl"
    raw = [json.loads(x)["raw"] for x in log.read_text().splitlines() if '"ModelCall"' in x]
    assert len(raw) == 1 and len(raw[0]) < len(loop) / 4
    assert out["quality"] == "APPROVED"


def test_repeating_the_guard_instructions_is_a_leak(cli, served):
    served.queue(
        "Never call yourself an AI or a language model, and name no model or company. I am Tatlock, "
        "sir."
    )
    out = ask_json(cli, "What's your name?")
    # withdrawn as a leak; the name asked for is no secret, so it is said from the facts in hand
    # (i19-answers3: it used to be the NOT_ALLOWED refusal)
    assert "Never call yourself" not in out["answer"] and "language model" not in out["answer"]
    assert out["answer"].startswith("My name is Tatlock")


def test_repeating_the_facts_it_was_given_is_no_leak(cli, served):
    """The clock it was given, repeated, is the right answer (it used to be withdrawn as
    "instructions repeated verbatim")."""
    served.handler = lambda body: (
        "The current local date and time: "
        + body["messages"][1]["content"]
        .split("The current local date and time: ")[1]
        .split("\n")[0]
    )
    out = ask_json(cli, "What time is it?")
    assert out["quality"] == "APPROVED" and out["answer"].startswith(
        "The current local date and time: "
    )


def test_a_new_conversation_makes_no_summary_call_before_its_answer(tatlock_proc, served):
    served.queue(assessment(answer="Hello, sir."))
    assert tatlock_proc("ask", "Hello").code == 0
    served.queue(assessment(answer="Good morning, sir."))
    before = len(served.chat_requests)
    r = tatlock_proc("ask", "-v", "--new", "Good morning")  # a real process: real logging set-up
    assert r.code == 0 and r.out == "Good morning, sir.\n"
    assert len(served.chat_requests) == before + 1 and "cross_summary" not in r.err
    # no raw library logging on the user's screen
    assert "WARNING" not in r.err and "Traceback" not in r.err


def test_a_direct_answer_that_loops_is_stopped_early_and_its_repeats_dropped(cli, served, home):
    """Phase 1's own answer is watched for a loop as the respond phase's is (SmolLM2 once
    streamed "Demonstrative_" two hundred times to the screen before the gate withdrew it)."""
    served.token_delay = 0.002
    loop = "Paris, sir. " + "Demonstrative_ " * 200  # the fake streams a word a piece
    served.queue(assessment(answer=loop))
    out = ask_json(cli, "What is the capital of France?")
    # the garbled answer is withdrawn, and the gate holds this one's answer itself: no repair call
    assert out["answer"] == "The capital of France is Paris, sir." and out["route"] == "DIRECT"
    assert len(served.chat_requests) == 1
    log = home / "logs" / "conversations" / f"tester-{out['conversation_id']}.jsonl"
    raw = [json.loads(x)["raw"] for x in log.read_text().splitlines() if '"ModelCall"' in x]
    assert len(raw[0]) < len(loop) / 4  # the stream was cut short, not run to the token cap


# -- ask -s/--system: a one-off instruction for one question (issue 18, item 10) ----------------


def test_ask_system_adds_a_one_off_instruction_after_the_persona(cli, served, home):
    persona = cli("persona", "list", "--json").out
    last_instruction = json.loads(persona)[-1]["instruction"]
    served.queue(assessment(answer="Paris, monsieur."))
    out = ask_json(cli, "-s", "Answer in French, briefly.", "What is the capital of France?")
    assert out["answer"] == "Paris, monsieur."
    system = served.chat_requests[0]["messages"][0]
    assert system["role"] == "system"
    text = system["content"]
    # after the persona, before the phase's own instructions
    assert (
        text.index(last_instruction)
        < text.index("Answer in French, briefly.")
        < text.index("Reply with one JSON")
    )
    # not the question
    assert "Answer in French" not in served.chat_requests[0]["messages"][-1]["content"]
    assert cli("persona", "list", "--json").out == persona  # never stored as persona
    # on the record
    assert json.loads(db_messages(home)[0]["metadata"])["system"] == "Answer in French, briefly."
    # for this question only: the next one does not get it
    served.queue(assessment(answer="Berlin, sir."))
    ask_json(cli, "And of Germany?")
    assert all("Answer in French" not in m["content"] for m in served.chat_requests[1]["messages"])


def test_ask_system_reaches_the_respond_phase_too(cli, served):
    served.queue("I am Tatlock, sir.")  # the rules are sure of the guard: the respond phase answers
    r = cli("ask", "--system", "End every answer with the word Indeed.", "What's your name?")
    assert r.code == 0, r.err
    assert len(served.chat_requests) == 1
    system = served.chat_requests[0]["messages"][0]["content"]
    assert "End every answer with the word Indeed." in system


@pytest.mark.parametrize(
    "value, needle",
    [
        ("   ", "the one-off instruction is empty"),
        ("x" * 4001, "at most 4,000 fit beside the persona"),
    ],
)
def test_ask_system_refuses_an_empty_or_huge_instruction_before_storing(
    cli, served, home, value, needle
):
    r = cli("ask", "-s", value, "Hello")
    assert r.code == 2 and needle in r.err and len(r.err.strip().splitlines()) == 1
    assert served.chat_requests == [] and not (home / "users" / "tester_longterm.db").exists()


@pytest.mark.parametrize(
    "question, wrong, right",
    [
        ("whats 17 times 6", "17 times 6 = 104.", "That comes to 102, sir."),
        (
            "capital of australia?",
            "The capital of Australia is Sydney, sir.",
            "The capital of Australia is Canberra, sir.",
        ),
        (
            "What's the chemical symbol for gold?",
            "It is Ag, sir.",
            "The symbol for gold is Au, sir.",
        ),
        (
            "Settle an argument for us: how many legs does a spider have?",
            "Spiders are fascinating creatures, sir, found in every garden.",
            "8, sir.",
        ),
    ],
)
def test_a_wrong_answer_the_gate_can_right_itself_is_righted_not_apologised_for(
    cli, served, question, wrong, right
):
    served.queue(assessment(answer=wrong))
    out = ask_json(cli, question)
    assert out["answer"] == right and out["quality"] == "APPROVED"
    assert len(served.chat_requests) == 1  # no second try: the gate holds the answer


def test_a_right_sum_stands_in_the_model_s_words(cli, served):
    served.queue(assessment(answer="17 times 6 is 102, sir."))
    assert ask_json(cli, "whats 17 times 6")["answer"] == "17 times 6 is 102, sir."
