"""Tests for support.fake_ollama, driven by the real ollama client and httpx."""

from __future__ import annotations

import json
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
    split_pieces,
)

MODEL = "llama3.2:3b"
USER = [{"role": "user", "content": "Good evening, Tatlock."}]
STREAM = {"stream": True}


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


def chat(
    client: ollama.Client, model: str = MODEL, messages: list | None = None, **kw
) -> tuple[str, list]:
    """A streamed chat as tatlock makes it: (the whole content, every chunk)."""
    chunks = list(client.chat(model=model, messages=messages or USER, stream=True, **kw))
    return "".join(c.message.content or "" for c in chunks), chunks


def sse_events(resp: httpx.Response) -> list[str]:
    """The data payloads of an SSE response, in order."""
    return [line[len("data: ") :] for line in resp.iter_lines() if line.startswith("data: ")]


def v1_stream(http: httpx.Client, **body) -> list[str]:
    with http.stream(
        "POST", "/v1/chat/completions", json={"model": MODEL, "messages": USER, **STREAM, **body}
    ) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        return sse_events(r)


# --------------------------------------------------------------------------- Ollama chat


def test_split_pieces_round_trips():
    for text in ["", "one", "  leading", "trailing  ", "a  b\n\nc\td ", "émoji 🎩 ok", "\n"]:
        assert "".join(split_pieces(text)) == text
    assert split_pieces("Very good, sir.") == ["Very ", "good, ", "sir."]


def test_chat_stream_round_trip(srv, client):
    content = "Certainly, sir.  The car is\nwaiting outside. "
    srv.queue(content)
    text, chunks = chat(client)
    assert text == content and len(chunks) == len(split_pieces(content)) + 1
    for c in chunks[:-1]:
        assert c.done is False and c.model == MODEL and c.message.role == "assistant"
        assert c.created_at.endswith("Z") and c.message.content
        assert c.eval_count is None
    final = chunks[-1]
    assert final.done is True and final.message.content == "" and final.done_reason == "stop"
    assert final.eval_count == len(split_pieces(content))
    assert final.prompt_eval_count == estimate_prompt_tokens(USER)
    assert final.total_duration >= final.eval_duration > 0 and final.load_duration > 0
    assert chat(client)[0] == "OK"  # nothing queued: the default reply


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
    for f in (
        "done_reason",
        "total_duration",
        "load_duration",
        "prompt_eval_count",
        "prompt_eval_duration",
        "eval_count",
        "eval_duration",
    ):
        assert f in records[-1], f


def test_unstreamed_requests_are_refused_clearly(srv, client, http):
    srv.queue("kept for later")
    with pytest.raises(ollama.ResponseError) as ei:
        client.chat(model=MODEL, messages=USER)  # the client's default is stream=False
    assert ei.value.status_code == 400 and "streamed replies only" in ei.value.error
    with pytest.raises(ollama.ResponseError) as ei:
        client.pull(MODEL)
    assert ei.value.status_code == 400
    # OpenAI's default
    r = http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER})
    assert r.status_code == 400 and "streamed replies only" in r.json()["error"]["message"]
    assert srv.pending == 1  # a refused request does not consume a reply


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
    assert first_at is not None and first_at < 0.25 < total - 0.2


def test_delay_before_first_byte_and_timeout(srv):
    srv.delay = 0.6
    fast = ollama.Client(host=srv.url, timeout=0.2)
    # the client does not wrap timeouts: the raw httpx exception escapes
    with pytest.raises(httpx.ReadTimeout):
        chat(fast)
    srv.delay = 0.2
    t0 = time.monotonic()
    chat(ollama.Client(host=srv.url, timeout=5))
    assert time.monotonic() - t0 >= 0.2


def test_format_options_and_keep_alive_are_recorded(srv, client):
    schema = {"type": "object", "properties": {"mood": {"type": "string"}}, "required": ["mood"]}
    srv.queue({"json": {"mood": "cheerful"}})
    text, _ = chat(
        client, format=schema, options={"num_ctx": 4096, "temperature": 0}, keep_alive="30m"
    )
    assert json.loads(text) == {"mood": "cheerful"}
    body = srv.last_chat
    assert body["format"] == schema and body["options"] == {"num_ctx": 4096, "temperature": 0}
    assert body["keep_alive"] == "30m"


def test_tool_calls_parsed_by_client(srv, client):
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "w",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    call = {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
    srv.queue(
        {"content": "Checking, sir.", "tool_calls": [call, {"name": "clock", "arguments": {}}]}
    )
    text, chunks = chat(client, tools=tools)
    assert text == "Checking, sir."
    calls = [tc for c in chunks for tc in (c.message.tool_calls or [])]
    assert all(isinstance(tc, ollama.Message.ToolCall) for tc in calls)
    assert [tc.function.name for tc in calls] == ["get_weather", "clock"]
    assert calls[0].function.arguments == {"city": "Paris", "days": 2}
    assert chunks[-1].done and chunks[-1].done_reason == "stop"
    assert srv.last_chat["tools"][0]["function"]["name"] == "get_weather"


def test_tools_rejected_by_model_without_tools_capability():
    with FakeOllama(models={"tiny:1b": {"capabilities": ["completion"]}}) as s:
        c = ollama.Client(host=s.url, timeout=10)
        tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
        with pytest.raises(ollama.ResponseError) as ei:
            chat(c, "tiny:1b", tools=tools)
        assert ei.value.status_code == 400 and "does not support tools" in ei.value.error
        assert chat(c, "tiny:1b")[0] == "OK"


def test_prompt_eval_count_given_and_omitted_on_a_cache_hit(srv, client, http):
    srv.queue(
        {"content": "a b", "prompt_eval_count": 123},
        {"content": "cached", "prompt_eval_count": None},
    )
    final = chat(client)[1][-1]
    assert (final.prompt_eval_count, final.eval_count) == (123, 2)
    final = chat(client)[1][-1]
    assert final.done and final.prompt_eval_count is None and final.eval_count == 1

    # omission is on the wire, not just a None
    srv.queue({"content": "x", "prompt_eval_count": None})
    with http.stream("POST", "/api/chat", json={"model": MODEL, "messages": USER}) as r:
        last = json.loads(r.read().decode().splitlines()[-1])
    assert last["done"] and "prompt_eval_count" not in last and "prompt_eval_duration" not in last


def test_prompt_eval_count_estimate(srv, client):
    msgs = [{"role": "system", "content": "x" * 400}, {"role": "user", "content": "hello"}]
    assert chat(client, messages=msgs)[1][-1].prompt_eval_count == (100 + 4) + (1 + 4)
    assert estimate_prompt_tokens([]) == 1


# --------------------------------------------------------------------------- errors


def test_fake_error_before_the_stream(srv, client):
    srv.queue(FakeError(404, "model went missing"), FakeError(500, "CUDA out of memory"))
    with pytest.raises(ollama.ResponseError) as ei:
        chat(client)
    assert ei.value.status_code == 404 and ei.value.error == "model went missing"
    # a streaming request's error is raised on iteration, not by chat() itself
    gen = client.chat(model=MODEL, messages=USER, stream=True)
    with pytest.raises(ollama.ResponseError) as ei:
        next(gen)
    assert ei.value.status_code == 500 and ei.value.error == "CUDA out of memory"
    assert len(srv.chat_requests) == 2  # the attempts were recorded even though they failed


def test_unknown_model_is_404_with_ollama_wording(srv, client):
    with pytest.raises(ollama.ResponseError) as ei:
        chat(client, "nope:7b")
    assert ei.value.status_code == 404
    assert ei.value.error == 'model "nope:7b" not found, try pulling it first'
    with pytest.raises(ollama.ResponseError) as ei:
        client.show("nope:7b")
    assert ei.value.status_code == 404 and "not found" in ei.value.error
    srv.queue("still here")  # an unknown model does not consume the queue
    assert chat(client)[0] == "still here"


def test_mid_stream_error(srv, client):
    srv.queue(MidStreamError("llama runner process has terminated", after_chunks=2))
    got = []
    with pytest.raises(ollama.ResponseError) as ei:
        for chunk in client.chat(model=MODEL, messages=USER, stream=True):
            got.append(chunk.message.content)
    assert got == ["part0 ", "part1 "]
    assert ei.value.error == "llama runner process has terminated"
    assert ei.value.status_code == -1  # an in-band error carries no HTTP status


def test_dead_server_raises_connect_errors():
    s = FakeOllama().start()
    c = ollama.Client(host=s.url, timeout=5)
    assert chat(c)[0] == "OK"  # leaves a pooled connection
    s.stop()
    # stream: the raw httpx.ConnectError escapes, and only once iteration starts
    gen = c.chat(model=MODEL, messages=USER, stream=True)
    with pytest.raises(httpx.ConnectError):
        next(gen)
    assert not issubclass(httpx.ConnectError, ConnectionError)
    # non-stream calls: the client wraps httpx.ConnectError into the builtin ConnectionError
    with pytest.raises(ConnectionError, match="Failed to connect to Ollama"):
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


def test_a_stream_closed_early_is_seen_as_a_hang_up(srv, client):
    srv.token_delay = 0.05
    srv.queue(" ".join(f"w{i}" for i in range(40)))
    assert not srv.wait_hangup(0.05)
    stream = client.chat(model=MODEL, messages=USER, stream=True)
    assert next(stream).message.content == "w0 "
    stream.close()  # what tatlock does when a turn is cancelled
    assert srv.wait_hangup(3) and srv.hangups == ["/api/chat"]
    srv.reset()
    assert srv.hangups == []


def test_unknown_path_is_404(http):
    r = http.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "404 page not found"}
    assert http.get("/api/chat").status_code == 404  # wrong method: gin says 404 too


def test_invalid_json_is_400(srv, http):
    r = http.post("/api/chat", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()
    assert srv.requests[-1].body is None


# --------------------------------------------------------------------------- version, list, show,
# pull


def test_version(http):
    assert http.get("/api/version").json() == {"version": "0.12.6"}
    with FakeOllama(version="0.13.0") as s:
        assert httpx.get(f"{s.url}/api/version").json() == {"version": "0.13.0"}


def test_list_and_show():
    models = {
        MODEL: {},
        "qwen2.5vl:7b": {
            "context_length": 32768,
            "family": "qwen25vl",
            "parameter_size": "8.3B",
            "capabilities": ["completion", "vision"],
        },
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

        s.add_model("mistral:latest", context_length=32768)
        assert [m.model for m in c.list().models][-1] == "mistral:latest"
        assert c.show("mistral").modelinfo["llama.context_length"] == 32768  # ":latest" is implied


def test_pull_streams_progress_and_adds_model():
    with FakeOllama(pullable={"qwen3:4b"}) as s:
        c = ollama.Client(host=s.url, timeout=10)
        progress = list(c.pull("qwen3:4b", stream=True))
        assert all(isinstance(p, ollama.ProgressResponse) for p in progress)
        statuses = [p.status for p in progress]
        assert statuses[0] == "pulling manifest"
        assert statuses[-3:] == ["verifying sha256 digest", "writing manifest", "success"]
        layers = [p for p in progress if p.total]
        assert layers and all(p.digest.startswith("sha256:") for p in layers)
        assert all(p.status == f"pulling {p.digest[7:19]}" for p in layers)
        assert all(0 < p.completed <= p.total for p in layers)
        assert any(p.completed == p.total for p in layers)
        assert "qwen3:4b" in [m.model for m in c.list().models]
        assert chat(c, "qwen3:4b")[0] == "OK"

        with pytest.raises(ollama.ResponseError) as ei:
            list(c.pull("notreal:1b", stream=True))
        assert ei.value.error == "pull model manifest: file does not exist"
        assert "notreal:1b" not in [m.model for m in c.list().models]


def test_pull_any_name_by_default_and_latest_tag(client):
    assert list(client.pull("mistral", stream=True))[-1].status == "success"
    assert "mistral:latest" in [m.model for m in client.list().models]
    assert chat(client, "mistral")[0] == "OK"


def test_pull_progress_is_paced_by_token_delay(srv, client):
    srv.token_delay = 0.02
    t0 = time.monotonic()
    n = len(list(client.pull("mistral", stream=True)))
    assert time.monotonic() - t0 >= (n - 1) * 0.02


# --------------------------------------------------------------------------- scripting / recording


def test_handler_called_with_body_when_queue_empty(srv, client):
    seen = []

    def handler(body):
        seen.append(body)
        return f"echo: {body['messages'][-1]['content']}"

    srv.handler = handler
    srv.queue("queued first")
    assert chat(client)[0] == "queued first"
    assert seen == []
    assert (
        chat(client, messages=[{"role": "user", "content": "ping"}], options={"temperature": 0})[0]
        == "echo: ping"
    )
    assert seen[0]["model"] == MODEL and seen[0]["options"] == {"temperature": 0}

    srv.handler = lambda body: None  # None -> default reply
    assert chat(client)[0] == "OK"

    def raising(body):
        raise FakeError(429, "slow down")

    srv.handler = raising
    with pytest.raises(ollama.ResponseError) as ei:
        chat(client)
    assert ei.value.status_code == 429

    srv.handler = lambda body: 1 / 0
    with pytest.raises(ollama.ResponseError) as ei:
        chat(client)
    assert ei.value.status_code == 500
    assert isinstance(srv.handler_errors[0], ZeroDivisionError)


def test_queue_rejects_malformed_replies(srv):
    with pytest.raises(ValueError):
        srv.queue({"contnet": "typo"})
    with pytest.raises(ValueError):
        srv.queue({"content": "x", "thinking": "no longer served"})
    with pytest.raises(TypeError):
        srv.queue(42)
    assert srv.pending == 0


def test_requests_recorded_in_order(srv, client, http):
    srv.queue(FakeError(500, "x"))
    client.list()
    with pytest.raises(ollama.ResponseError):
        chat(client)
    client.show(MODEL)
    v1_stream(http)
    reqs = srv.requests
    assert [(r.method, r.path) for r in reqs] == [
        ("GET", "/api/tags"),
        ("POST", "/api/chat"),
        ("POST", "/api/show"),
        ("POST", "/v1/chat/completions"),
    ]
    assert all(isinstance(r, Recorded) for r in reqs)
    assert reqs[0].body is None and reqs[2].body == {"model": MODEL}
    assert len(srv.chat_requests) == 2 and srv.chat_requests[1]["messages"] == USER
    srv.queue("left over")
    srv.reset()
    assert srv.requests == [] and srv.pending == 0


def test_request_recorded_before_reply():
    """A slow reply: the request is visible while the client still waits."""
    with FakeOllama(delay=0.5) as s:
        c = ollama.Client(host=s.url, timeout=5)
        t = threading.Thread(target=chat, args=(c,))
        t.start()
        deadline = time.monotonic() + 0.4
        while not s.chat_requests and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(s.chat_requests) == 1 and t.is_alive()
        t.join(5)


def test_concurrent_chats_each_get_one_reply(srv):
    srv.token_delay = 0.01
    replies = [f"reply {i}" for i in range(8)]
    srv.queue(*replies)
    results = []
    lock = threading.Lock()

    def worker():
        text = chat(ollama.Client(host=srv.url, timeout=10))[0]
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
    url = s.url
    assert url.startswith("http://127.0.0.1:") and s._thread is not None and s._thread.daemon
    assert httpx.get(f"{url}/api/version").status_code == 200
    t0 = time.monotonic()
    s.stop()
    s.stop()  # idempotent
    assert time.monotonic() - t0 < 1.0
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/api/version")


# --------------------------------------------------------------------------- OpenAI-compatible API


def test_v1_models_and_props(http):
    data = http.get("/v1/models").json()
    assert data["object"] == "list"
    (m,) = data["data"]
    assert m["id"] == MODEL and m["object"] == "model" and m["owned_by"] == "fake"
    # vLLM's and llama-server's names
    assert m["max_model_len"] == 8192 and m["meta"]["n_ctx_train"] == 8192
    props = http.get("/props").json()
    assert props["default_generation_settings"] == {"n_ctx": 8192, "model": MODEL}


def test_v1_sse_stream_with_content_tool_calls_and_usage(srv, http):
    srv.queue(
        {
            "content": "One moment, sir.",
            "tool_calls": [
                {"name": "lookup", "arguments": {"q": "tide times", "n": 3}},
                {"name": "clock", "arguments": {}},
            ],
        }
    )
    events = v1_stream(
        http, stream_options={"include_usage": True}, response_format={"type": "json_object"}
    )
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert srv.last_chat["response_format"] == {"type": "json_object"}

    content = ""
    calls: dict[int, dict] = {}
    finish = None
    usage = None
    for c in chunks:
        if not c["choices"]:
            usage = c["usage"]
            continue
        assert c["usage"] is None
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
    assert usage is not None and usage["completion_tokens"] == 3
    assert usage["prompt_tokens"] == estimate_prompt_tokens(USER)
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert chunks[-1]["choices"] == []  # the usage chunk comes last, before [DONE]


def test_v1_sse_without_usage_and_incremental(srv, http):
    srv.token_delay = 0.05
    srv.queue("a b c d e f g h")
    t0 = time.monotonic()
    first = None
    with http.stream(
        "POST", "/v1/chat/completions", json={"model": MODEL, "messages": USER, **STREAM}
    ) as r:
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
    assert (
        "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == "a b c d e f g h"
    )
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_v1_errors(srv, http):
    srv.queue(FakeError(503, "Loading model"), MidStreamError("slot died", after_chunks=2))
    r = http.post("/v1/chat/completions", json={"model": MODEL, "messages": USER, **STREAM})
    assert r.status_code == 503
    assert (
        r.json()["error"]["message"] == "Loading model"
        and r.json()["error"]["type"] == "server_error"
    )

    events = v1_stream(http)
    assert "[DONE]" not in events
    last = json.loads(events[-1])
    assert last["error"]["message"] == "slot died"
    contents = [json.loads(e)["choices"][0]["delta"].get("content") for e in events[1:-1]]
    assert contents == ["part0 ", "part1 "]

    r = http.post("/v1/chat/completions", json={"model": "gpt-5", "messages": USER, **STREAM})
    assert r.status_code == 404 and "not found" in r.json()["error"]["message"]
    assert len(srv.chat_requests) == 3


def test_v1_api_key_enforced():
    with FakeOllama(api_key="sk-secret") as s:
        body = {"model": MODEL, "messages": USER, **STREAM}
        r = httpx.post(f"{s.url}/v1/chat/completions", json=body)
        assert r.status_code == 401 and r.json()["error"]["type"] == "authentication_error"
        assert httpx.get(f"{s.url}/props").status_code == 401
        assert httpx.get(f"{s.url}/v1/models").status_code == 200  # public, as on llama-server
        auth = {"Authorization": "Bearer sk-secret"}
        with httpx.stream("POST", f"{s.url}/v1/chat/completions", json=body, headers=auth) as r:
            assert r.status_code == 200 and sse_events(r)[-1] == "[DONE]"
        assert httpx.get(f"{s.url}/props", headers=auth).status_code == 200
        assert s.requests[0].headers.get("authorization") is None
