"""Tests for support.fake_ollama, driven by the real ollama client and httpx."""

from __future__ import annotations

import json
import math
import threading
import time

import httpx
import ollama
import pytest

from support.fake_ollama import (
    FakeError,
    FakeOllama,
    MidStreamError,
    Recorded,
    estimate_prompt_tokens,
    fake_embedding,
    split_pieces,
)

MODEL = "llama3.2:3b"
USER = [{"role": "user", "content": "Good evening, Tatlock."}]


@pytest.fixture
def srv():
    with FakeOllama() as s:
        yield s


@pytest.fixture
def client(srv):
    c = ollama.Client(host=srv.url, timeout=10)
    yield c
    c.close()


@pytest.fixture
def http(srv):
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        yield c


def sse_events(resp: httpx.Response) -> list[str]:
    """The data payloads of an SSE response, in order."""
    return [line[len("data: "):] for line in resp.iter_lines() if line.startswith("data: ")]


# --------------------------------------------------------------------------- chat basics


def test_split_pieces_round_trips():
    for text in ["", "one", "  leading", "trailing  ", "a  b\n\nc\td ", "émoji 🎩 ok", "\n"]:
        assert "".join(split_pieces(text)) == text
    assert split_pieces("Very good, sir.") == ["Very ", "good, ", "sir."]


def test_chat_non_stream_round_trip(srv, client):
    srv.queue("Very good, sir. Dinner is at eight.")
    r = client.chat(model=MODEL, messages=USER)
    assert isinstance(r, ollama.ChatResponse)
    assert r.message.role == "assistant"
    assert r.message.content == "Very good, sir. Dinner is at eight."
    assert r.done is True and r.done_reason == "stop"
    assert r.model == MODEL
    assert r.created_at.endswith("Z")
    for f in ("total_duration", "load_duration", "prompt_eval_duration", "eval_duration"):
        assert isinstance(getattr(r, f), int) and getattr(r, f) > 0, f
    assert r.eval_count == len(split_pieces(r.message.content))


def test_chat_default_reply_is_ok(client):
    assert client.chat(model=MODEL, messages=USER).message.content == "OK"


def test_chat_stream_round_trip(srv, client):
    content = "Certainly, sir.  The car is\nwaiting outside. "
    srv.queue(content)
    chunks = list(client.chat(model=MODEL, messages=USER, stream=True))
    assert len(chunks) == len(split_pieces(content)) + 1
    assert "".join(c.message.content for c in chunks) == content
    for c in chunks[:-1]:
        assert c.done is False and c.model == MODEL and c.message.role == "assistant"
        assert c.created_at.endswith("Z") and c.message.content
        assert c.eval_count is None
    final = chunks[-1]
    assert final.done is True and final.message.content == ""
    assert final.done_reason == "stop"
    assert final.eval_count == len(split_pieces(content))
    assert final.prompt_eval_count == estimate_prompt_tokens(USER)
    assert final.total_duration >= final.eval_duration > 0


def test_raw_ndjson_wire_format(srv, http):
    srv.queue("one two three")
    # no "stream" field: Ollama streams by default
    with http.stream("POST", "/api/chat", json={"model": MODEL, "messages": USER}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"] == "application/x-ndjson"
        raw = r.read().decode()
    lines = raw.split("\n")
    assert lines[-1] == ""  # every record is newline-terminated...
    lines = lines[:-1]
    assert all(line.strip() for line in lines)  # ...and there is no blank line
    records = [json.loads(line) for line in lines]
    assert [rec["message"]["content"] for rec in records] == ["one ", "two ", "three", ""]
    assert [rec["done"] for rec in records] == [False, False, False, True]
    final = records[-1]
    for f in ("done_reason", "total_duration", "load_duration", "prompt_eval_count",
              "prompt_eval_duration", "eval_count", "eval_duration"):
        assert f in final, f


def test_stream_false_over_raw_http_returns_one_object(srv, http):
    srv.queue("hello there")
    r = http.post("/api/chat", json={"model": MODEL, "messages": USER, "stream": False})
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["message"] == {"role": "assistant", "content": "hello there"}
    assert body["done"] is True and body["eval_count"] == 2


def test_chunks_arrive_incrementally(srv, client):
    srv.token_delay = 0.05
    srv.queue(" ".join(f"w{i}" for i in range(12)))  # 13 records -> ~0.6 s in total
    t0 = time.monotonic()
    first_at = None
    n = 0
    for _ in client.chat(model=MODEL, messages=USER, stream=True):
        n += 1
        if first_at is None:
            first_at = time.monotonic() - t0
    total = time.monotonic() - t0
    assert n == 13
    assert total >= 0.5
    assert first_at < 0.25 < total - 0.2


def test_delay_before_first_byte_and_timeout(srv):
    srv.delay = 0.6
    fast = ollama.Client(host=srv.url, timeout=0.2)
    # the client does not wrap timeouts: raw httpx exceptions escape, streaming or not
    with pytest.raises(httpx.ReadTimeout):
        fast.chat(model=MODEL, messages=USER)
    with pytest.raises(httpx.ReadTimeout):
        list(fast.chat(model=MODEL, messages=USER, stream=True))
    srv.delay = 0.2
    t0 = time.monotonic()
    ollama.Client(host=srv.url, timeout=5).chat(model=MODEL, messages=USER)
    assert time.monotonic() - t0 >= 0.2


def test_format_json_schema_recorded_and_json_content(srv, client):
    schema = {"type": "object", "properties": {"mood": {"type": "string"}}, "required": ["mood"]}
    srv.queue({"json": {"mood": "cheerful"}})
    r = client.chat(model=MODEL, messages=USER, format=schema)
    assert json.loads(r.message.content) == {"mood": "cheerful"}
    assert srv.last_chat["format"] == schema
    srv.queue({"json": [1, 2]})
    client.chat(model=MODEL, messages=USER, format="json")
    assert srv.last_chat["format"] == "json"


def test_tool_calls_parsed_by_client(srv, client):
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "w",
                                               "parameters": {"type": "object", "properties": {}}}}]
    call = {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
    srv.queue({"tool_calls": [call]}, {"content": "Checking, sir.", "tool_calls": [call, {"name": "clock", "arguments": {}}]})

    r = client.chat(model=MODEL, messages=USER, tools=tools)
    (tc,) = r.message.tool_calls
    assert isinstance(tc, ollama.Message.ToolCall)
    assert tc.function.name == "get_weather"
    assert tc.function.arguments == {"city": "Paris", "days": 2}
    assert isinstance(tc.function.arguments, dict)
    assert srv.last_chat["tools"][0]["function"]["name"] == "get_weather"

    chunks = list(client.chat(model=MODEL, messages=USER, tools=tools, stream=True))
    assert "".join(c.message.content or "" for c in chunks) == "Checking, sir."
    calls = [tc for c in chunks for tc in (c.message.tool_calls or [])]
    assert [tc.function.name for tc in calls] == ["get_weather", "clock"]
    assert calls[0].function.arguments == {"city": "Paris", "days": 2}
    assert chunks[-1].done and chunks[-1].done_reason == "stop"


def test_tools_rejected_by_model_without_tools_capability():
    with FakeOllama(models={"tiny:1b": {"capabilities": ["completion"]}}) as s:
        c = ollama.Client(host=s.url, timeout=10)
        tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
        with pytest.raises(ollama.ResponseError) as ei:
            c.chat(model="tiny:1b", messages=USER, tools=tools)
        assert ei.value.status_code == 400 and "does not support tools" in ei.value.error
        with pytest.raises(ollama.ResponseError) as ei:
            c.chat(model="tiny:1b", messages=USER, think=True)
        assert ei.value.status_code == 400 and "does not support thinking" in ei.value.error
        assert c.chat(model="tiny:1b", messages=USER).message.content == "OK"


def test_thinking_streamed_before_content():
    with FakeOllama(models={"qwen3:4b": {"capabilities": ["completion", "tools", "thinking"]}}) as s:
        s.queue({"thinking": "He wants tea.", "content": "Tea, sir."})
        c = ollama.Client(host=s.url, timeout=10)
        chunks = list(c.chat(model="qwen3:4b", messages=USER, think=True, stream=True))
        assert "".join(ch.message.thinking or "" for ch in chunks) == "He wants tea."
        assert "".join(ch.message.content or "" for ch in chunks) == "Tea, sir."
        s.queue({"thinking": "Hmm.", "content": "Yes."})
        r = c.chat(model="qwen3:4b", messages=USER, think=True)
        assert (r.message.thinking, r.message.content) == ("Hmm.", "Yes.")


def test_final_chunk_fields_and_prompt_cache_omission(srv, client):
    srv.queue(
        {"content": "a b", "prompt_eval_count": 123, "done_reason": "length"},
        {"content": "cached", "prompt_eval_count": None},
        {"content": "cached", "prompt_eval_count": None},
    )
    final = list(client.chat(model=MODEL, messages=USER, stream=True))[-1]
    assert (final.done_reason, final.prompt_eval_count, final.eval_count) == ("length", 123, 2)

    final = list(client.chat(model=MODEL, messages=USER, stream=True))[-1]
    assert final.done and final.prompt_eval_count is None and final.eval_count == 1
    r = client.chat(model=MODEL, messages=USER)
    assert r.prompt_eval_count is None

    # omission is on the wire, not just a None
    srv.queue({"content": "x", "prompt_eval_count": None})
    body = httpx.post(f"{srv.url}/api/chat", json={"model": MODEL, "messages": USER, "stream": False}).json()
    assert "prompt_eval_count" not in body and body["eval_count"] == 1


def test_prompt_eval_count_estimate(srv, client):
    msgs = [{"role": "system", "content": "x" * 400}, {"role": "user", "content": "hello"}]
    assert client.chat(model=MODEL, messages=msgs).prompt_eval_count == (100 + 4) + (1 + 4)
    assert estimate_prompt_tokens([]) == 1


# --------------------------------------------------------------------------- errors


def test_fake_error_404_and_500(srv, client):
    srv.queue(FakeError(404, "model went missing"), FakeError(500, "CUDA out of memory"),
              FakeError(503, "busy"))
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model=MODEL, messages=USER)
    assert ei.value.status_code == 404 and ei.value.error == "model went missing"
    with pytest.raises(ollama.ResponseError) as ei:
        list(client.chat(model=MODEL, messages=USER, stream=True))
    assert ei.value.status_code == 500 and ei.value.error == "CUDA out of memory"
    # a streaming request's error is raised on iteration, not by chat() itself
    gen = client.chat(model=MODEL, messages=USER, stream=True)
    with pytest.raises(ollama.ResponseError) as ei:
        next(gen)
    assert ei.value.status_code == 503
    # the attempts were recorded even though they failed
    assert srv.calls("/api/chat") == 3


def test_unknown_model_is_404_with_ollama_wording(srv, client):
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model="nope:7b", messages=USER)
    assert ei.value.status_code == 404
    assert ei.value.error == 'model "nope:7b" not found, try pulling it first'
    with pytest.raises(ollama.ResponseError) as ei:
        client.show("nope:7b")
    assert ei.value.status_code == 404 and "not found" in ei.value.error
    srv.queue("still here")  # an unknown model does not consume the queue
    assert client.chat(model=MODEL, messages=USER).message.content == "still here"


def test_mid_stream_error(srv, client):
    srv.queue(MidStreamError("llama runner process has terminated", after_chunks=2, content="I was saying"))
    got = []
    with pytest.raises(ollama.ResponseError) as ei:
        for chunk in client.chat(model=MODEL, messages=USER, stream=True):
            got.append(chunk.message.content)
    assert got == ["I ", "was "]
    assert ei.value.error == "llama runner process has terminated"
    assert ei.value.status_code == -1  # an in-band error carries no HTTP status

    srv.queue(MidStreamError("boom"))
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model=MODEL, messages=USER)
    assert ei.value.status_code == 500 and ei.value.error == "boom"


def test_dead_server_raises_connect_errors():
    s = FakeOllama().start()
    c = ollama.Client(host=s.url, timeout=5)
    assert c.chat(model=MODEL, messages=USER).message.content == "OK"  # leaves a pooled connection
    s.stop()
    # non-stream: the client wraps httpx.ConnectError into the builtin ConnectionError
    with pytest.raises(ConnectionError, match="Failed to connect to Ollama"):
        c.chat(model=MODEL, messages=USER)
    # stream: the raw httpx.ConnectError escapes, and only once iteration starts
    gen = c.chat(model=MODEL, messages=USER, stream=True)
    with pytest.raises(httpx.ConnectError):
        next(gen)
    assert not issubclass(httpx.ConnectError, ConnectionError)
    with pytest.raises(ConnectionError):
        c.list()


def test_server_stopping_mid_stream_breaks_the_stream():
    s = FakeOllama(token_delay=0.3).start()
    c = ollama.Client(host=s.url, timeout=5)
    s.queue("one two three four five")
    gen = c.chat(model=MODEL, messages=USER, stream=True)
    assert next(gen).message.content == "one "
    t0 = time.monotonic()
    s.stop()
    assert time.monotonic() - t0 < 1.0
    with pytest.raises(httpx.RemoteProtocolError):
        list(gen)


def test_unknown_path_is_404(http):
    r = http.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "404 page not found"}
    assert http.get("/api/chat").status_code == 404  # wrong method: gin says 404 too


def test_invalid_json_is_400(srv, http):
    r = http.post("/api/chat", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()
    assert srv.requests[-1].body is None


# --------------------------------------------------------------------------- other endpoints


def test_root_and_version(http):
    r = http.get("/")
    assert r.status_code == 200 and r.text == "Ollama is running"
    assert http.head("/").status_code == 200
    assert http.get("/api/version").json() == {"version": "0.12.6"}


def test_list_show_ps():
    models = {
        MODEL: {},
        "qwen2.5vl:7b": {"context_length": 32768, "family": "qwen25vl", "parameter_size": "8.3B",
                         "capabilities": ["completion", "vision"]},
    }
    with FakeOllama(models=models) as s:
        c = ollama.Client(host=s.url, timeout=10)
        listed = c.list().models
        assert [m.model for m in listed] == [MODEL, "qwen2.5vl:7b"]
        assert listed[0].details.family == "llama" and listed[0].details.parameter_size == "3.2B"
        assert listed[0].size > 0 and listed[0].digest and listed[0].modified_at is not None

        show = c.show(MODEL)
        assert show.modelinfo["general.architecture"] == "llama"
        assert show.modelinfo["llama.context_length"] == 8192  # default
        assert "tools" in show.capabilities
        show = c.show("qwen2.5vl:7b")
        assert show.modelinfo["qwen25vl.context_length"] == 32768
        assert show.capabilities == ["completion", "vision"]
        assert show.details.parameter_size == "8.3B"

        assert c.ps().models == []
        c.chat(model=MODEL, messages=USER)
        c.chat(model="qwen2.5vl:7b", messages=USER, options={"num_ctx": 16384})
        ps = c.ps().models
        assert [m.model for m in ps] == [MODEL, "qwen2.5vl:7b"]
        assert ps[0].context_length == 4096  # Ollama's default num_ctx
        assert ps[1].context_length == 16384
        assert ps[0].size_vram > 0 and ps[0].expires_at is not None


def test_chat_without_messages_loads_and_unloads(srv, client):
    srv.queue("untouched")
    r = client.chat(model=MODEL, messages=[])
    assert r.done and r.done_reason == "load" and r.message.content == ""
    assert [m.model for m in client.ps().models] == [MODEL]
    r = client.chat(model=MODEL, messages=[], keep_alive=0)
    assert r.done_reason == "unload" and client.ps().models == []
    assert srv.pending == 1


def test_generate_uses_the_queue(srv, client):
    srv.queue("Forty-two.")
    assert client.generate(model=MODEL, prompt="meaning?").response == "Forty-two."
    srv.queue("a b")
    chunks = list(client.generate(model=MODEL, prompt="x", stream=True))
    assert "".join(c.response for c in chunks) == "a b" and chunks[-1].done


def test_pull_streams_progress_and_adds_model():
    with FakeOllama(pullable={"qwen3:4b"}) as s:
        c = ollama.Client(host=s.url, timeout=10)
        progress = list(c.pull("qwen3:4b", stream=True))
        assert all(isinstance(p, ollama.ProgressResponse) for p in progress)
        assert progress[0].status == "pulling manifest"
        assert progress[-1].status == "success"
        statuses = [p.status for p in progress]
        assert statuses[-3:] == ["verifying sha256 digest", "writing manifest", "success"]
        layers = [p for p in progress if p.total]
        assert layers and all(p.digest.startswith("sha256:") for p in layers)
        assert all(p.status == f"pulling {p.digest[7:19]}" for p in layers)
        assert all(0 < p.completed <= p.total for p in layers)
        assert any(p.completed == p.total for p in layers)
        assert "qwen3:4b" in [m.model for m in c.list().models]
        assert c.chat(model="qwen3:4b", messages=USER).message.content == "OK"

        with pytest.raises(ollama.ResponseError) as ei:
            list(c.pull("notreal:1b", stream=True))
        assert ei.value.error == "pull model manifest: file does not exist"
        with pytest.raises(ollama.ResponseError) as ei:
            c.pull("notreal:1b")
        assert ei.value.status_code == 500
        assert "notreal:1b" not in [m.model for m in c.list().models]

        assert c.pull("qwen3:4b").status == "success"  # non-stream


def test_pull_any_name_by_default_and_latest_tag(client):
    assert client.pull("mistral").status == "success"
    assert "mistral:latest" in [m.model for m in client.list().models]
    assert client.chat(model="mistral", messages=USER).message.content == "OK"


def test_embed_deterministic_unit_vectors(client):
    r = client.embed(model=MODEL, input=["alpha", "beta"])
    assert len(r.embeddings) == 2 and all(len(v) == 32 for v in r.embeddings)
    for v in r.embeddings:
        assert math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-9)
    assert r.embeddings[0] != r.embeddings[1]
    assert list(r.embeddings[0]) == fake_embedding("alpha")
    again = client.embed(model=MODEL, input="alpha")
    assert list(again.embeddings[0]) == list(r.embeddings[0])
    assert r.prompt_eval_count >= 1 and r.total_duration > 0
    with pytest.raises(ollama.ResponseError) as ei:
        client.embed(model="nope", input="x")
    assert ei.value.status_code == 404


# --------------------------------------------------------------------------- scripting / recording


def test_handler_called_with_body_when_queue_empty(srv, client):
    seen = []

    def handler(body):
        seen.append(body)
        return f"echo: {body['messages'][-1]['content']}"

    srv.handler = handler
    srv.queue("queued first")
    assert client.chat(model=MODEL, messages=USER).message.content == "queued first"
    assert seen == []
    r = client.chat(model=MODEL, messages=[{"role": "user", "content": "ping"}], options={"temperature": 0})
    assert r.message.content == "echo: ping"
    assert seen[0]["model"] == MODEL and seen[0]["options"] == {"temperature": 0}

    srv.handler = lambda body: None  # None -> default reply
    assert client.chat(model=MODEL, messages=USER).message.content == "OK"

    def raising(body):
        raise FakeError(429, "slow down")

    srv.handler = raising
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model=MODEL, messages=USER)
    assert ei.value.status_code == 429

    srv.handler = lambda body: 1 / 0
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model=MODEL, messages=USER)
    assert ei.value.status_code == 500
    assert isinstance(srv.handler_errors[0], ZeroDivisionError)


def test_queue_rejects_malformed_replies(srv):
    with pytest.raises(ValueError):
        srv.queue({"contnet": "typo"})
    with pytest.raises(TypeError):
        srv.queue(42)
    assert srv.pending == 0


def test_requests_recorded_in_order(srv, client, http):
    srv.queue(FakeError(500, "x"))
    client.list()
    with pytest.raises(ollama.ResponseError):
        client.chat(model=MODEL, messages=USER)
    client.show(MODEL)
    http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER})
    reqs = srv.requests
    assert [(r.method, r.path) for r in reqs] == [
        ("GET", "/api/tags"), ("POST", "/api/chat"), ("POST", "/api/show"), ("POST", "/v1/chat/completions"),
    ]
    assert all(isinstance(r, Recorded) for r in reqs)
    assert reqs[0].body is None and reqs[2].body == {"model": MODEL}
    assert len(srv.chat_requests) == 2 and srv.chat_requests[1]["messages"] == USER
    assert srv.calls("/api/chat") == 1 and srv.calls("/api/ps") == 0
    srv.reset()
    assert srv.requests == [] and srv.pending == 0


def test_request_recorded_before_reply():
    """A slow reply: the request is visible while the client still waits."""
    with FakeOllama(delay=0.5) as s:
        c = ollama.Client(host=s.url, timeout=5)
        t = threading.Thread(target=c.chat, kwargs={"model": MODEL, "messages": USER})
        t.start()
        deadline = time.monotonic() + 0.4
        while s.calls("/api/chat") == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert s.calls("/api/chat") == 1 and t.is_alive()
        t.join(5)


def test_concurrent_chats_each_get_one_reply(srv):
    srv.token_delay = 0.01
    replies = [f"reply {i}" for i in range(8)]
    srv.queue(*replies)
    results = []
    lock = threading.Lock()

    def worker():
        c = ollama.Client(host=srv.url, timeout=10)
        text = "".join(ch.message.content for ch in c.chat(model=MODEL, messages=USER, stream=True))
        with lock:
            results.append(text)

    threads = [threading.Thread(target=worker) for _ in replies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(results) == sorted(replies)
    assert len(srv.chat_requests) == 8


def test_lifecycle():
    s = FakeOllama()
    with pytest.raises(RuntimeError):
        _ = s.url
    s.start()
    assert s.url.startswith("http://127.0.0.1:") and s._thread.daemon
    assert httpx.get(s.url).text == "Ollama is running"
    t0 = time.monotonic()
    s.stop()
    s.stop()  # idempotent
    assert time.monotonic() - t0 < 1.0
    assert not s.running


# --------------------------------------------------------------------------- OpenAI-compatible API


def test_v1_models(http):
    data = http.get("/v1/models").json()
    assert data["object"] == "list"
    assert data["data"][0]["id"] == MODEL and data["data"][0]["object"] == "model"
    assert data["data"][0]["owned_by"] == "fake"


def test_v1_non_stream_content_and_tool_calls(srv, http):
    srv.queue("At once, sir.", {"tool_calls": [{"name": "set_timer", "arguments": {"minutes": 5}}]})
    body = {"model": MODEL, "messages": USER, "response_format": {"type": "json_object"}}
    r = http.post("/v1/chat/completions", json=body, headers={"Authorization": "Bearer sk-test"})
    assert r.status_code == 200
    data = r.json()
    assert data["object"] == "chat.completion" and data["model"] == MODEL and data["id"]
    choice = data["choices"][0]
    assert choice["index"] == 0 and choice["finish_reason"] == "stop"
    assert choice["message"] == {"role": "assistant", "content": "At once, sir."}
    u = data["usage"]
    assert u["completion_tokens"] == 3 and u["prompt_tokens"] == estimate_prompt_tokens(USER)
    assert u["total_tokens"] == u["prompt_tokens"] + u["completion_tokens"]
    rec = srv.requests[-1]
    assert rec.body["response_format"] == {"type": "json_object"}
    assert rec.headers["authorization"] == "Bearer sk-test"

    data = http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER}).json()
    choice = data["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    (tc,) = choice["message"]["tool_calls"]
    assert tc["type"] == "function" and tc["id"]
    assert tc["function"]["name"] == "set_timer"
    assert json.loads(tc["function"]["arguments"]) == {"minutes": 5}


def test_v1_sse_stream_with_content_tool_calls_and_usage(srv, http):
    srv.queue({"content": "One moment, sir.",
               "tool_calls": [{"name": "lookup", "arguments": {"q": "tide times", "n": 3}},
                              {"name": "clock", "arguments": {}}]})
    body = {"model": MODEL, "messages": USER, "stream": True, "stream_options": {"include_usage": True}}
    with http.stream("POST", "/v1/chat/completions", json=body) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = sse_events(r)
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)

    content = ""
    calls: dict[int, dict] = {}
    finish = None
    usage = None
    for c in chunks:
        if not c["choices"]:
            usage = c["usage"]
            continue
        choice = c["choices"][0]
        delta = choice["delta"]
        content += delta.get("content") or ""
        for tc in delta.get("tool_calls") or []:
            slot = calls.setdefault(tc["index"], {"id": None, "name": "", "arguments": ""})
            slot["id"] = tc.get("id") or slot["id"]
            fn = tc.get("function") or {}
            slot["name"] += fn.get("name") or ""
            slot["arguments"] += fn.get("arguments") or ""
        finish = choice["finish_reason"] or finish
    assert content == "One moment, sir."
    assert [calls[i]["name"] for i in sorted(calls)] == ["lookup", "clock"]
    assert json.loads(calls[0]["arguments"]) == {"q": "tide times", "n": 3}
    assert json.loads(calls[1]["arguments"]) == {}
    assert all(calls[i]["id"] for i in calls)
    assert finish == "tool_calls"
    assert usage["completion_tokens"] == 3 and usage["total_tokens"] > 3
    assert chunks[-1]["choices"] == []  # the usage chunk comes last, before [DONE]


def test_v1_sse_without_usage_and_incremental(srv, http):
    srv.token_delay = 0.05
    srv.queue("a b c d e f g h")
    t0 = time.monotonic()
    first = None
    with http.stream("POST", "/v1/chat/completions",
                     json={"model": MODEL, "messages": USER, "stream": True}) as r:
        events = []
        for line in r.iter_lines():
            if line.startswith("data: "):
                events.append(line[6:])
                if first is None and '"content":"a ' in line:
                    first = time.monotonic() - t0
    total = time.monotonic() - t0
    assert first is not None and first < total - 0.2
    chunks = [json.loads(e) for e in events[:-1]]
    assert all(c["choices"] for c in chunks) and "usage" not in chunks[0]
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == "a b c d e f g h"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_v1_errors(srv, http):
    srv.queue(FakeError(503, "Loading model"), MidStreamError("slot died", after_chunks=2, content="x y z"),
              MidStreamError("boom"))
    r = http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER})
    assert r.status_code == 503
    assert r.json()["error"]["message"] == "Loading model" and r.json()["error"]["type"] == "server_error"

    with http.stream("POST", "/v1/chat/completions",
                     json={"model": MODEL, "messages": USER, "stream": True}) as r:
        events = sse_events(r)
    assert "[DONE]" not in events
    last = json.loads(events[-1])
    assert last["error"]["message"] == "slot died"
    contents = [json.loads(e)["choices"][0]["delta"].get("content") for e in events[1:-1]]
    assert contents == ["x ", "y "]

    r = http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER})
    assert r.status_code == 500 and r.json()["error"]["message"] == "boom"

    r = http.post("/v1/chat/completions", json={"model": "gpt-5", "messages": USER})
    assert r.status_code == 404 and "not found" in r.json()["error"]["message"]
    assert srv.calls("/v1/chat/completions") == 4


def test_v1_api_key_enforced():
    with FakeOllama(api_key="sk-secret") as s:
        body = {"model": MODEL, "messages": USER}
        r = httpx.post(f"{s.url}/v1/chat/completions", json=body)
        assert r.status_code == 401
        r = httpx.post(f"{s.url}/v1/chat/completions", json=body,
                       headers={"Authorization": "Bearer sk-secret"})
        assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "OK"
        assert s.requests[0].headers.get("authorization") is None


def test_v1_embeddings(http):
    data = http.post("/v1/embeddings", json={"model": MODEL, "input": ["a", "b"]}).json()
    assert [d["index"] for d in data["data"]] == [0, 1]
    assert data["data"][0]["embedding"] == fake_embedding("a")
