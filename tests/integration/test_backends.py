"""The two model backends against the fake server: requests, replies and failures."""

from __future__ import annotations

import pytest

from support.fake_ollama import FakeError, FakeOllama, MidStreamError, split_pieces
from tatlock.errors import BackendError
from tatlock.llm.ollama import OllamaBackend
from tatlock.llm.openai_compat import OpenAICompatBackend, to_openai_messages

TOOL_ROUND = [
    {"role": "user", "content": "weather?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"function": {"name": "get_weather_forecast", "arguments": {"location": "London"}}},
            {"function": {"name": "get_current_datetime", "arguments": {}}},
        ],
    },
    {"role": "tool", "content": '{"rain": true}', "tool_name": "get_weather_forecast"},
    {"role": "tool", "content": '{"time": "12:00"}', "tool_name": "get_current_datetime"},
]


def test_openai_messages_carry_ids_types_and_string_arguments():
    out = to_openai_messages(TOOL_ROUND)
    calls = out[1]["tool_calls"]
    assert [c["type"] for c in calls] == ["function", "function"]
    assert calls[0]["function"]["arguments"] == '{"location": "London"}'
    assert [m["tool_call_id"] for m in out[2:]] == [calls[0]["id"], calls[1]["id"]]
    assert "tool_name" not in out[2]
    # not mutated
    assert TOOL_ROUND[1]["tool_calls"][0]["function"]["arguments"] == {"location": "London"}


def test_openai_backend_second_tool_round(fake):
    b = OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10)
    fake.queue("It rains, sir.")
    r = b.chat(TOOL_ROUND)
    assert r.content == "It rains, sir."
    sent = fake.chat_requests[0]["messages"]
    assert sent[2]["tool_call_id"] == sent[1]["tool_calls"][0]["id"]


def test_openai_backend_streams_structured_output_and_tool_calls(fake):
    b = OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10, api_key="k-123")
    fake.queue({"json": {"answer": "Paris"}})
    pieces = []
    r = b.chat(
        [{"role": "user", "content": "capital?"}],
        schema={"type": "object"},
        on_token=pieces.append,
        options={"max_tokens": 50, "temperature": 0},
    )
    assert r.content == '{"answer": "Paris"}' and "".join(pieces) == r.content
    body = fake.chat_requests[0]
    assert body["response_format"]["type"] == "json_schema" and body["max_tokens"] == 50
    assert fake.requests[-1].headers["authorization"] == "Bearer k-123"
    fake.queue({"tool_calls": [{"name": "web_search", "arguments": {"query": "x"}}]})
    r = b.chat(
        [{"role": "user", "content": "search"}],
        tools=[{"type": "function", "function": {"name": "web_search"}}],
    )
    assert [(c.name, c.arguments) for c in r.tool_calls] == [("web_search", {"query": "x"})]
    assert r.prompt_tokens and r.eval_tokens is not None


def test_openai_backend_failures_are_one_sentence(fake):
    b = OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10)
    fake.queue(FakeError(500, "boom"))
    with pytest.raises(BackendError, match="reported an error \\(500\\): boom"):
        b.chat([{"role": "user", "content": "x"}])
    fake.queue(MidStreamError("died", after_chunks=1))
    with pytest.raises(BackendError, match="failed while answering: died"):
        b.chat([{"role": "user", "content": "x"}])
    with pytest.raises(BackendError, match="not available"):
        b.chat([{"role": "user", "content": "x"}], model="nope")
    fake.stop()
    with pytest.raises(BackendError, match="not reachable at"):
        b.chat([{"role": "user", "content": "x"}])


def test_openai_backend_refused_key_is_one_sentence():
    with FakeOllama(api_key="k-right") as srv:
        wrong = OpenAICompatBackend(srv.url + "/v1", "llama3.2:3b", timeout=10, api_key="k-wrong")
        with pytest.raises(BackendError, match="refused the API key \\(401\\)") as ei:
            wrong.chat([{"role": "user", "content": "x"}])
        assert ei.value.kind == "auth" and "TATLOCK_API_KEY" in (ei.value.hint or "")
        right = OpenAICompatBackend(srv.url + "/v1", "llama3.2:3b", timeout=10, api_key="k-right")
        assert right.chat([{"role": "user", "content": "x"}]).content == "OK"
        assert right.context_length() == 8192
        # llama-server's allocated context, with the key
        assert [r.path for r in srv.requests][-1] == "/props"


def test_ollama_backend_context_length_models_and_timeout(fake):
    b = OllamaBackend(fake.url, "llama3.2:3b", timeout=0.5)
    assert b.context_length() == 8192 and "llama3.2:3b" in b.models() and b.version()
    fake.delay = 2.0
    with pytest.raises(BackendError, match=r"did not answer within 0\.5 s"):
        b.chat([{"role": "user", "content": "x"}])


def test_ollama_backend_second_tool_round(fake):
    b = OllamaBackend(fake.url, "llama3.2:3b", timeout=10)
    fake.queue("It rains, sir.")
    assert b.chat(TOOL_ROUND).content == "It rains, sir."
    assert fake.chat_requests[0]["messages"][2]["tool_name"] == "get_weather_forecast"


def test_llama_server_gets_a_grammar_of_compact_json(fake):
    """On llama.cpp's server (it answers /props) a schema goes as a grammar with no whitespace,
    so a small model spends no tokens on it before the answer; the reply parses as JSON."""
    import json

    from tatlock.llm.grammar import compact_gbnf, prefilled
    from tatlock.pipeline import assess

    schema = assess.schema(["get_weather_forecast"])
    b = OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10)
    fake.queue(
        {
            "json": {
                "decision": "DIRECT",
                "answer": "Paris, sir.",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "topics": [],
            }
        }
    )
    r = b.chat([{"role": "user", "content": "capital?"}], schema=schema)
    body = fake.chat_requests[-1]
    # the JSON's head is prefilled as the start of the assistant's reply (prompt, not decode steps),
    # and the grammar holds the rest, compact
    prefix, grammar = prefilled(schema)
    assert prefix == '{"decision":"' and body["messages"][-1] == {
        "role": "assistant",
        "content": prefix,
    }
    assert "response_format" not in body and body["grammar"] == grammar
    assert (
        grammar.startswith('root ::= head ",\\"answer\\":"') and 'head ::= "DIRECT\\""' in grammar
    )
    assert json.loads(r.content)["answer"] == "Paris, sir."
    assert compact_gbnf({"type": "object"}) is None  # free-form objects go as a schema
    assert compact_gbnf(schema).startswith("root-decision ::=")


# -- token counts (issue 18 item 7: `0+0` on the openai backend) ---------------------------


def test_openai_backend_reads_usage_after_a_length_stop(fake):
    """A server that stops at its token cap sends finish_reason "length", then its usage and
    timings in a chunk of their own: they are read, not dropped with the rest of the stream."""
    b = OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10)
    fake.queue({"content": "one two three four", "done_reason": "length"})
    r = b.chat([{"role": "user", "content": "count " * 40}], options={"max_tokens": 4})
    assert fake.chat_requests[-1]["stream_options"] == {"include_usage": True}
    assert r.done_reason == "length" and r.content == "one two three four"
    assert (r.prompt_tokens, r.eval_tokens) == (64, 4)  # (240 chars // 4) + 4, and four pieces
    assert r.evaluated_tokens == 64  # llama-server's timings.prompt_n
    fake.queue({"content": "cached", "prompt_eval_count": None})  # all of the prompt from the cache
    r = b.chat([{"role": "user", "content": "count " * 40}])
    assert (r.prompt_tokens, r.evaluated_tokens, r.eval_tokens) == (64, 0, 1)


@pytest.mark.parametrize("backend", ["ollama", "openai"])
def test_a_stream_we_stop_still_counts_what_it_generated(fake, backend):
    from tatlock.llm.base import StopGeneration

    b = (
        OllamaBackend(fake.url, "llama3.2:3b", timeout=10)
        if backend == "ollama"
        else OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=10)
    )
    fake.queue("a b c d e f g h")
    seen: list[str] = []

    def stop_at_three(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 3:
            raise StopGeneration

    r = b.chat([{"role": "user", "content": "go"}], on_token=stop_at_three)
    # the usage never came: counted from the stream
    assert r.done_reason == "stopped" and r.eval_tokens == 3
    assert r.prompt_tokens is None  # not reported; the phase counts an estimate (below)


@pytest.mark.parametrize("backend", ["ollama", "openai"])
def test_a_cancel_between_the_calls_start_and_its_request_still_ends_it_at_once(fake, backend):
    """A signal can land after a call has begun (its cancel hook is set) but before its request
    is on a connection: shutting down the busy sockets then finds none, and the call used to
    wait for the whole reply (CI caught a SIGTERM test waiting 30 s on the tool phase)."""
    import time

    from tatlock.llm.base import Cancel, Cancelled

    class CancelledInTheGap(Cancel):
        def on_cancel(self, fn):
            unregister = super().on_cancel(fn)
            self.cancel()  # the user's cancel, just after the call set its hook
            return unregister

    b = (
        OllamaBackend(fake.url, "llama3.2:3b", timeout=20)
        if backend == "ollama"
        else OpenAICompatBackend(fake.url + "/v1", "llama3.2:3b", timeout=20)
    )
    fake.delay = 15.0  # the reply would come this late
    fake.queue("too late")
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        b.chat([{"role": "user", "content": "go"}], cancel=CancelledInTheGap())
    assert time.monotonic() - t0 < 3


def test_ask_reports_real_token_counts_on_the_openai_backend(cli, fake, monkeypatch):
    """`ask -v` and `--json` show the server's counts, also for an answer cut at its length."""
    import json

    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", fake.url + "/v1")
    monkeypatch.setenv("TATLOCK_MODEL", "llama3.2:3b")
    answer = {
        "decision": "DIRECT",
        "guard_reason": "NONE",
        "tools": [],
        "tool_query": "",
        "answer": "Paris is the capital of France, sir.",
        "topics": [],
    }
    fake.queue({"json": answer, "done_reason": "length"})
    r = cli("ask", "--json", "-v", "What is the capital of France?")
    assert r.code == 0, r.err
    phase = json.loads(r.out)["phases"][0]
    assert phase["name"] == "assess" and phase["model_calls"] == 1
    # the server's count of the whole prompt (persona, tools...)
    assert phase["prompt_tokens"] >= 100
    assert phase["eval_tokens"] == len(split_pieces(json.dumps(answer)))
    assert f"{phase['prompt_tokens']}+{phase['eval_tokens']} tokens" in r.err


def test_a_phase_counts_an_unreported_prompt_at_its_estimate():
    from tatlock.llm.base import ChatResult
    from tatlock.pipeline.phases import Phase

    events: list = []
    p = Phase("respond", events.append)
    p.add(ChatResult("x", prompt_tokens=None, eval_tokens=3), prompt_estimate=57)
    p.add(ChatResult("y", prompt_tokens=12, eval_tokens=2), prompt_estimate=57)
    assert p.finish()["prompt_tokens"] == 57 + 12 and events[-1].eval_tokens == 5
