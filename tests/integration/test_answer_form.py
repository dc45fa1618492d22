"""The answer's form (issue 19 item 5, config ``answer_form``): a direct answer written inside
the assessment's JSON (one call), or plain (a short routing call whose schema has no answer,
then the persona's answer as plain text, streamed); chosen per tier, overridable."""

from __future__ import annotations

import json

import pytest

from tatlock.config import load
from tatlock.hardware import TIERS


def ask_json(cli, *args):
    r = cli("ask", "--json", *args)
    assert r.code == 0, r.err
    return json.loads(r.out.strip().splitlines()[-1])


def test_plain_form_routes_then_answers_in_plain_text(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "plain")
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "topics": ["geography"],
            }
        },
        "Paris, sir.",
    )
    out = ask_json(cli, "What is the capital of France?")
    assert (
        out["answer"] == "Paris, sir." and out["route"] == "DIRECT" and out["quality"] == "APPROVED"
    )
    assert [p["name"] for p in out["phases"]] == ["assess", "respond", "quality"]
    route, answer = served.chat_requests
    assert "answer" not in route["format"]["properties"]  # the routing call writes no answer
    assert "answer" not in route["format"]["required"]
    assert route["options"]["num_predict"] <= 200  # and is short
    assert answer.get("format") is None  # the answer is plain text
    # the persona leads both calls, so the server's prompt cache reuses it
    assert (
        route["messages"][0]["content"].split("\n")[0]
        == answer["messages"][0]["content"].split("\n")[0]
    )


def test_plain_answer_streams_to_stdout(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "plain")
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "topics": [],
            }
        },
        "Seven days, sir.",
    )
    r = cli("ask", "How many days are there in a week?")
    assert r.code == 0 and r.out == "Seven days, sir.\n"


def test_json_form_is_one_call(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "json")
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "answer": "Paris, sir.",
                "topics": [],
            }
        }
    )
    out = ask_json(cli, "What is the capital of France?")
    assert out["answer"] == "Paris, sir." and len(served.chat_requests) == 1
    assert "answer" in served.chat_requests[0]["format"]["properties"]


def test_every_tier_names_a_form_and_a_bad_one_is_refused(cli, monkeypatch):
    assert {t.answer_form for t in TIERS.values()} <= {"json", "plain"}
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "yaml")
    r = cli("ask", "hello")
    assert r.code == 2 and "answer_form" in r.err and "Traceback" not in r.err


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_the_tier_decides_unless_set(home, monkeypatch, tier):
    monkeypatch.setenv("TATLOCK_TIER", tier)
    monkeypatch.delenv("TATLOCK_ANSWER_FORM", raising=False)
    assert load().effective("answer_form") == TIERS[tier].answer_form
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "plain")
    assert load().effective("answer_form") == "plain"


def test_plain_routing_call_ends_once_it_has_decided_direct(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "plain")
    served.queue(
        '{"decision":"DIRECT","topics":["geography"],"guard_reason":"NONE","tools":[],"tool_query":""}',
        "Paris, sir.",
    )
    served.token_delay = 0.001
    out = ask_json(cli, "What is the capital of France?")
    assert out["answer"] == "Paris, sir." and out["topics"] == ["geography"]
    answer = served.chat_requests[1]
    # asked as a plain chat client asks: the persona and one instruction, then the question
    assert answer["messages"][-1] == {"role": "user", "content": "What is the capital of France?"}
    assert "one or two sentences" in answer["messages"][0]["content"] and "Findings" not in str(
        answer["messages"]
    )


def test_plain_answer_sees_this_conversation_as_chat_turns(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "plain")
    route = {
        "json": {
            "decision": "DIRECT",
            "topics": [],
            "guard_reason": "NONE",
            "tools": [],
            "tool_query": "",
        }
    }
    served.queue(route, "Noted, sir.")
    first = ask_json(cli, "I have been reading about volcanoes.")
    served.queue(route, "Etna, sir.")
    ask_json(
        cli,
        "--conversation",
        str(first["conversation_id"]),
        "Which one erupts most often in Europe?",
    )
    msgs = served.chat_requests[-1]["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert (
        msgs[1]["content"] == "I have been reading about volcanoes."
        and msgs[2]["content"] == "Noted, sir."
    )
