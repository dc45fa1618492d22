"""A protocol-faithful fake Ollama server for tests (stdlib only).

It serves what tatlock calls, as the real servers do, so the real ``ollama.Client`` and
httpx work against it unchanged:

* Ollama: ``POST /api/chat`` (streamed NDJSON; ``format``, ``tools``, ``options`` and
  ``keep_alive`` are recorded), ``GET /api/tags``, ``POST /api/show`` (``model_info`` with
  ``<family>.context_length``), ``GET /api/version``, ``POST /api/pull`` (streamed progress),
  ``POST /api/embed`` (for a model it has; a 404 for one it has not, as Ollama).
* OpenAI-compatible, as llama.cpp's ``llama-server`` / vLLM: ``POST /v1/chat/completions``
  (SSE with tool-call deltas and a usage chunk), ``GET /v1/models``, llama-server's
  ``GET /props``, ``POST /v1/embeddings`` (with ``embeddings=False``: llama-server's 501 for a
  server started without ``--embeddings``); with ``api_key`` set, a missing or wrong
  ``Authorization: Bearer`` gets a 401.

Embeddings come from ``embed(texts) -> vectors`` (default ``hashed_vectors``: a bag of words,
so texts that share words are near; ``support.encoder.MiniLM().embed`` serves all-minilm's own).

tatlock always streams, so a request with ``stream: false`` (the OpenAI default) is refused
with a 400 that says so, rather than answered in a shape no test of tatlock exercises.

    with FakeOllama() as srv:
        srv.queue("Very good, sir.", {"tool_calls": [{"name": "clock", "arguments": {}}]})
        client = ollama.Client(host=srv.url, timeout=10)
        for chunk in client.chat(model="llama3.2:3b", messages=[...], stream=True):
            ...
        assert srv.chat_requests[0]["messages"][0]["role"] == "user"

Replies (``srv.queue(...)``, consumed by both chat APIs, or the return value of
``srv.handler(body)``):

* ``str`` -- assistant content, streamed a word at a time.
* ``dict`` -- ``{"content": str, "tool_calls": [{"name": ..., "arguments": {...}}],
  "prompt_eval_count": int | None, "done_reason": "stop" | "length"}``; ``{"json": obj}`` means
  ``content = json.dumps(obj)``. ``prompt_eval_count: None`` omits the field, as Ollama does on a
  full prompt-cache hit. ``done_reason: "length"`` ends the reply as a server that hit its token
  cap does (Ollama's ``done_reason``, OpenAI's ``finish_reason``).
* ``FakeError(status, message)`` -- HTTP error before any byte of the body.
* ``MidStreamError(message, after_chunks=n)`` -- streams n content chunks then an error record.
* ``None`` (from a handler) -- the default reply ``"OK"``.

A handler may also *raise* ``FakeError`` / ``MidStreamError``; any other exception it raises
becomes a 500 and is kept in ``srv.handler_errors``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import socket
import socketserver
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_MODELS",
    "FakeError",
    "FakeOllama",
    "MidStreamError",
    "Recorded",
    "estimate_prompt_tokens",
    "hashed_vectors",
    "split_pieces",
]

_MODEL_DEFAULTS: dict[str, Any] = {
    "context_length": 8192,
    "family": "llama",
    "parameter_size": "3.2B",
    "capabilities": ["completion", "tools"],
    "size": 2_019_393_189,
}
DEFAULT_MODELS: dict[str, dict[str, Any]] = {"llama3.2:3b": {}}

PULL_ERROR = "pull model manifest: file does not exist"
_CHAT_PATHS = ("/api/chat", "/v1/chat/completions")


# --------------------------------------------------------------------------- public helpers


@dataclass
class Recorded:
    """One request as the fake received it. ``headers`` keys are lower-case."""

    method: str
    path: str
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


class FakeError(Exception):
    """Reply with HTTP ``status`` and an error body (Ollama or OpenAI shape)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = int(status)
        self.message = message


class MidStreamError(Exception):
    """Stream ``after_chunks`` content chunks, then an error record, then end."""

    def __init__(self, message: str, after_chunks: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.after_chunks = max(0, int(after_chunks))

    def pieces(self) -> list[str]:
        return [f"part{i} " for i in range(self.after_chunks)]


_PIECE_RE = re.compile(r"\S+\s*|\s+")


def split_pieces(text: str) -> list[str]:
    """Words with their trailing whitespace; ``''.join(split_pieces(t)) == t``."""
    return _PIECE_RE.findall(text or "")


def estimate_prompt_tokens(messages: Iterable[dict] | None) -> int:
    """``sum(len(content)//4 + 4)`` over the messages, at least 1."""
    total = sum(len(str(m.get("content") or "")) // 4 + 4 for m in messages or [])
    return max(1, total)


def hashed_vectors(texts: list[str], dims: int = 64) -> list[list[float]]:
    """Deterministic stand-in embeddings: each lowercased word adds +-1 to a hashed dimension,
    then unit length. Texts sharing words are similar; others are near orthogonal."""
    out = []
    for text in texts:
        vec = [0.0] * dims
        for word in re.findall(r"[^\W_]+", text.lower()):
            h = int(hashlib.sha256(word.encode()).hexdigest()[:8], 16)
            vec[h % dims] += 1.0 if (h >> 8) & 1 else -1.0
        norm = math.sqrt(sum(x * x for x in vec)) or 1.0
        out.append([x / norm for x in vec] if any(vec) else [1.0 / math.sqrt(dims)] * dims)
    return out


# --------------------------------------------------------------------------- reply model

_UNSET: Any = object()
_REPLY_KEYS = {"content", "tool_calls", "prompt_eval_count", "json", "done_reason"}


@dataclass
class _Reply:
    content: str = ""
    tool_calls: list[dict] = field(default_factory=list)  # {"name", "arguments": dict, "id"}
    prompt_eval_count: Any = _UNSET  # _UNSET -> estimate, None -> omit
    done_reason: str = "stop"


def _norm_tool_call(tc: Any) -> dict:
    if not isinstance(tc, dict):
        raise TypeError(f"tool call must be a dict, got {tc!r}")
    return {
        "name": tc["name"],
        "arguments": tc.get("arguments") or {},
        "id": f"call_{uuid.uuid4().hex[:24]}",
    }


def _normalise(reply: Any) -> Any:
    if reply is None:
        return _Reply(content="OK")
    if isinstance(reply, (FakeError, MidStreamError, _Reply)):
        return reply
    if isinstance(reply, str):
        return _Reply(content=reply)
    if isinstance(reply, dict):
        unknown = set(reply) - _REPLY_KEYS
        if unknown:
            raise ValueError(
                f"unknown reply keys {sorted(unknown)}; allowed: {sorted(_REPLY_KEYS)}"
            )
        r = _Reply(
            content=json.dumps(reply["json"]) if "json" in reply else reply.get("content") or "",
            tool_calls=[_norm_tool_call(tc) for tc in reply.get("tool_calls") or []],
            done_reason=reply.get("done_reason") or "stop",
        )
        if "prompt_eval_count" in reply:
            r.prompt_eval_count = reply["prompt_eval_count"]
        return r
    raise TypeError(f"unsupported reply {reply!r}")


def _rfc3339(dt: datetime | None = None) -> str:
    dt = dt or datetime.now(UTC)
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _digest(name: str, salt: str = "") -> str:
    return hashlib.sha256(f"{name}\0{salt}".encode()).hexdigest()


class _Aborted(Exception):
    """The server is stopping: drop the connection."""


# --------------------------------------------------------------------------- HTTP plumbing


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, fake: FakeOllama) -> None:
        self.fake = fake
        self._conns: set[socket.socket] = set()
        self._conns_lock = threading.Lock()
        super().__init__(("127.0.0.1", fake.requested_port), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # a client that hangs up (a stopped stream, a test's timeout) is not a server error:
        # printing its traceback would land in whichever test captures stderr next
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), a reverse DNS lookup that can stall.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def track(self, conn: socket.socket) -> None:
        with self._conns_lock:
            self._conns.add(conn)

    def untrack(self, conn: socket.socket) -> None:
        with self._conns_lock:
            self._conns.discard(conn)

    def close_all_connections(self) -> None:
        with self._conns_lock:
            conns = list(self._conns)
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeOllama/1.0"
    sys_version = ""
    disable_nagle_algorithm = True  # so each streamed chunk leaves at once

    server: _Server

    # ---- lifecycle

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.untrack(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def fake(self) -> FakeOllama:
        return self.server.fake

    def do_GET(self) -> None:
        self._dispatch()

    do_POST = do_GET

    # ---- request

    def _dispatch(self) -> None:
        self._started = False
        path = urlsplit(self.path).path
        # httpx sends a length for a json= body
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        body: Any = None
        bad_json = False
        if raw.strip():
            try:
                body = json.loads(raw)
            except ValueError:
                bad_json = True
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.fake._record(Recorded(self.command, path, body, headers))

        route = _ROUTES.get((self.command, path))
        try:
            if route is None:
                self._send_json(404, {"error": "404 page not found"})
            elif bad_json or (raw.strip() and not isinstance(body, dict)):
                self._error(path, 400, "invalid JSON request body")
            else:
                route(self, body if isinstance(body, dict) else {})
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True
            self.fake._hung_up(path)  # the client closed the stream before it ended
        except _Aborted:
            self.close_connection = True
        except Exception as exc:  # a bug in the fake: say so instead of hanging the client
            self.close_connection = True
            if not self._started:
                try:
                    self._error(path, 500, f"fake_ollama internal error: {exc!r}")
                except OSError:
                    pass

    # ---- responses

    def _error(self, path: str, status: int, message: str, oai_type: str = "server_error") -> None:
        if path.startswith("/api/"):
            self._send_json(status, {"error": message})
        else:
            self._send_json(
                status, {"error": {"message": message, "type": oai_type, "code": status}}
            )

    def _send_json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self._started = True
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _start_stream(self, content_type: str) -> None:
        self._started = True
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        if content_type.startswith("text/event-stream"):
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        if data:  # a zero-length chunk would end the body
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
            with self.fake._lock:
                self.fake.chunks_sent += 1

    def _end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _ndjson(self, obj: Any) -> None:
        self._chunk(
            json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        )

    def _sse(self, obj: Any) -> None:
        payload = (
            obj
            if isinstance(obj, str)
            else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        )
        self._chunk(b"data: " + payload.encode("utf-8") + b"\n\n")

    def _pause(self, seconds: float) -> None:
        if seconds and seconds > 0 and self.fake._stopping.wait(seconds):
            raise _Aborted()

    def _streams(self, body: dict, path: str, default: bool) -> bool:
        """True if the request streams; otherwise refuse it (tatlock always streams)."""
        if bool(body.get("stream", default)):
            return True
        self._error(
            path,
            400,
            "fake_ollama serves streamed replies only (tatlock always streams): "
            'send "stream": true',
            oai_type="invalid_request_error",
        )
        return False

    # ---- Ollama native API

    def _version(self, body: dict) -> None:
        self._send_json(200, {"version": self.fake.version})

    def _tags(self, body: dict) -> None:
        fake = self.fake
        models = [
            {
                "name": name,
                "model": name,
                "modified_at": fake._modified_at,
                "size": spec["size"],
                "digest": _digest(name),
                "details": _details(spec),
            }
            for name, spec in fake._models_snapshot()
        ]
        self._send_json(200, {"models": models})

    def _show(self, body: dict) -> None:
        model = body.get("model") or ""
        if not model:
            self._send_json(400, {"error": "model is required"})
            return
        name = self.fake._resolve(model)
        if name is None:
            self._send_json(404, {"error": f"model '{model}' not found"})
            return
        spec = self.fake._spec(name)
        family = spec["family"]
        self._send_json(
            200,
            {
                "license": "",
                "modelfile": f'# Modelfile generated by "ollama show"\nFROM {name}\n',
                "parameters": 'stop                           "<|eot_id|>"',
                "template": "{{ .Prompt }}",
                "details": _details(spec),
                "model_info": {
                    "general.architecture": family,
                    "general.basename": name.split(":")[0],
                    f"{family}.context_length": spec["context_length"],
                    f"{family}.embedding_length": 3072,
                },
                "capabilities": list(spec["capabilities"]),
                "modified_at": self.fake._modified_at,
            },
        )

    def _api_chat(self, body: dict) -> None:
        fake = self.fake
        t0 = time.monotonic_ns()
        self._pause(fake.delay)
        model = body.get("model") or ""
        if not model:
            self._send_json(400, {"error": "model is required"})
            return
        name = fake._resolve(model)
        if name is None:
            self._send_json(404, {"error": f'model "{model}" not found, try pulling it first'})
            return
        if body.get("tools") and "tools" not in fake._spec(name)["capabilities"]:
            self._send_json(
                400, {"error": f"registry.ollama.ai/library/{model} does not support tools"}
            )
            return
        if not self._streams(body, "/api/chat", default=True):
            return
        reply = fake._next_reply(body)
        if isinstance(reply, FakeError):
            self._send_json(reply.status, {"error": reply.message})
            return

        def record(content: str = "", tool_calls: list | None = None, **fields: Any) -> dict:
            msg: dict[str, Any] = {"role": "assistant", "content": content}
            if tool_calls:
                msg["tool_calls"] = [
                    {"function": {"index": i, "name": tc["name"], "arguments": tc["arguments"]}}
                    for i, tc in enumerate(tool_calls)
                ]
            return {"model": model, "created_at": _rfc3339(), "message": msg, **fields}

        self._start_stream("application/x-ndjson")
        if isinstance(reply, MidStreamError):
            for i, piece in enumerate(reply.pieces()):
                if i:
                    self._pause(fake.token_delay)
                self._ndjson(record(piece, done=False))
            self._pause(fake.token_delay)
            self._ndjson({"error": reply.message})
            self._end_stream()
            return

        pieces = split_pieces(reply.content)
        # a word per record, then the tool calls in one record of their own, as Ollama streams them
        parts: list[tuple[str, list | None]] = [(piece, None) for piece in pieces]
        if reply.tool_calls:
            parts.append(("", reply.tool_calls))
        for i, (content, tool_calls) in enumerate(parts):
            if i:
                self._pause(fake.token_delay)
            self._ndjson(record(content, tool_calls, done=False))
        if parts:
            self._pause(fake.token_delay)

        # the final record: timings in ns, prompt_eval_count absent on a full prompt-cache hit
        eval_count = len(pieces)
        prompt_count = (
            estimate_prompt_tokens(body.get("messages"))
            if reply.prompt_eval_count is _UNSET
            else reply.prompt_eval_count
        )
        load, ped, ev = 1_250_000, (prompt_count or 0) * 40_000 + 1, max(eval_count, 1) * 1_000_000
        stats: dict[str, Any] = {
            "done_reason": reply.done_reason,
            "done": True,
            "total_duration": time.monotonic_ns() - t0 + load + ped + ev,
            "load_duration": load,
        }
        if prompt_count is not None:
            stats.update(prompt_eval_count=prompt_count, prompt_eval_duration=ped)
        stats.update(eval_count=eval_count, eval_duration=ev)
        self._ndjson(record(**stats))
        self._end_stream()

    def _api_pull(self, body: dict) -> None:
        fake = self.fake
        model = body.get("model") or ""
        if not model:
            self._send_json(400, {"error": "model is required"})
            return
        if not self._streams(body, "/api/pull", default=True):
            return
        self._start_stream("application/x-ndjson")
        self._ndjson({"status": "pulling manifest"})
        if not fake._is_pullable(model):
            self._pause(fake.token_delay)
            self._ndjson({"error": PULL_ERROR})
            self._end_stream()
            return
        layers = [
            (_digest(model, "model"), _MODEL_DEFAULTS["size"]),
            (_digest(model, "template"), 1_429),
            (_digest(model, "params"), 96),
        ]
        for digest, total in layers:
            for k in (total // 4, total // 2, total):
                self._pause(fake.token_delay)
                self._ndjson(
                    {
                        "status": f"pulling {digest[:12]}",
                        "digest": f"sha256:{digest}",
                        "total": total,
                        "completed": k,
                    }
                )
        for status in ("verifying sha256 digest", "writing manifest"):
            self._pause(fake.token_delay)
            self._ndjson({"status": status})
        fake._add_pulled(model)
        self._pause(fake.token_delay)
        self._ndjson({"status": "success"})
        self._end_stream()

    # ---- OpenAI-compatible API (llama-server / vLLM style)

    def _oai_auth(self) -> bool:
        key = self.fake.api_key
        if key is None or self.headers.get("Authorization", "") == f"Bearer {key}":
            return True
        self._send_json(
            401,
            {"error": {"message": "Invalid API Key", "type": "authentication_error", "code": 401}},
        )
        return False

    def _v1_models(self, body: dict) -> None:
        # no key needed, as llama-server (which lists its public endpoints) does
        created = int(self.fake._started_at)
        data = [
            {
                "id": name,
                "object": "model",
                "created": created,
                "owned_by": self.fake.owned_by,
                "max_model_len": spec["context_length"],  # vLLM
                "meta": {"n_ctx_train": spec["context_length"]},  # llama-server
            }
            for name, spec in self.fake._models_snapshot()
        ]
        self._send_json(200, {"object": "list", "data": data})

    def _props(self, body: dict) -> None:
        if not self._oai_auth():
            return
        name = self.fake._first_model()
        n_ctx = self.fake._spec(name)["context_length"] if name else 0
        self._send_json(
            200,
            {
                "default_generation_settings": {"n_ctx": n_ctx, "model": name},
                "total_slots": 1,
                "model_path": f"/models/{name}.gguf",
            },
        )

    def _v1_chat(self, body: dict) -> None:
        fake = self.fake
        self._pause(fake.delay)
        if not self._oai_auth():
            return
        model = body.get("model") or ""
        name = fake._resolve(model) if model else fake._first_model()
        if name is None and fake.owned_by == "llamacpp" and len(fake.models) == 1:
            name = fake._first_model()  # llama-server does not look at the name
        if name is None:
            self._error(
                "/v1/",
                404,
                f'model "{model}" not found, try pulling it first',
                oai_type="not_found_error",
            )
            return
        if not self._streams(body, "/v1/", default=False):
            return
        counted = fake.count_tokens(body.get("messages"))
        if fake.n_ctx is not None and counted > fake.n_ctx:
            self._send_json(
                400,
                {
                    "error": {
                        "code": 400,
                        "type": "exceed_context_size_error",
                        "n_prompt_tokens": counted,
                        "n_ctx": fake.n_ctx,
                        "message": f"request ({counted} tokens) exceeds the available context size "
                        f"({fake.n_ctx} tokens), "
                        "try increasing it",
                    }
                },
            )
            return
        reply = fake._next_reply(body)
        if isinstance(reply, FakeError):
            self._error("/v1/", reply.status, reply.message)
            return

        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        base = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model or name,
            "system_fingerprint": "fake_ollama",
        }

        def chunk(delta: dict, finish: str | None = None) -> dict:
            out = {
                **base,
                "choices": [
                    {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
                ],
            }
            if include_usage:
                out["usage"] = None  # every chunk but the last carries a null usage
            return out

        self._start_stream("text/event-stream")
        self._sse(chunk({"role": "assistant", "content": ""}))
        if isinstance(reply, MidStreamError):
            for piece in reply.pieces():
                self._pause(fake.token_delay)
                self._sse(chunk({"content": piece}))
            self._pause(fake.token_delay)
            self._sse({"error": {"message": reply.message, "type": "server_error", "code": 500}})
            self._end_stream()
            return

        pieces = split_pieces(reply.content)
        for piece in pieces:
            self._pause(fake.token_delay)
            self._sse(chunk({"content": piece}))
        for i, tc in enumerate(reply.tool_calls):
            # the name comes first, the arguments as JSON text in slices, as llama-server streams
            # them
            self._pause(fake.token_delay)
            self._sse(
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": i,
                                "id": tc["id"],
                                "type": "function",
                                "function": {"name": tc["name"], "arguments": ""},
                            }
                        ]
                    }
                )
            )
            args = json.dumps(tc["arguments"])
            step = max(1, math.ceil(len(args) / 3))
            for j in range(0, len(args), step):
                self._pause(fake.token_delay)
                self._sse(
                    chunk(
                        {
                            "tool_calls": [
                                {"index": i, "function": {"arguments": args[j : j + step]}}
                            ]
                        }
                    )
                )
        self._pause(fake.token_delay)
        self._sse(chunk({}, "tool_calls" if reply.tool_calls else reply.done_reason))
        if include_usage:
            # as llama-server: the usage in a last chunk of its own, with its timings (prompt_n: the
            # prompt tokens it evaluated, fewer than prompt_tokens when its cache served the rest)
            given = reply.prompt_eval_count
            prompt_tokens = given if isinstance(given, int) else counted
            # None: the whole prompt came from its cache
            evaluated = 0 if given is None else prompt_tokens
            usage = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(pieces),
                "total_tokens": prompt_tokens + len(pieces),
            }
            timings = {
                "cache_n": prompt_tokens - evaluated,
                "prompt_n": evaluated,
                "predicted_n": len(pieces),
            }
            self._sse({**base, "choices": [], "usage": usage, "timings": timings})
        self._sse("[DONE]")
        self._end_stream()


def _inputs(body: dict) -> list[str] | None:
    raw = body.get("input")
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        return list(raw)
    return None


def _api_embed(self: _Handler, body: dict) -> None:
    fake = self.fake
    self._pause(fake.delay)
    model = str(body.get("model") or "")
    texts = _inputs(body)
    if fake._resolve(model) is None:
        self._error("/api/", 404, f'model "{model}" not found, try pulling it first')
    elif texts is None:
        self._error("/api/", 400, "invalid input type")
    else:
        with fake._lock:
            fake.embedded += len(texts)
        self._send_json(
            200,
            {
                "model": model,
                "embeddings": fake.embed(texts),
                "total_duration": 1000,
                "load_duration": 10,
                "prompt_eval_count": sum(len(t.split()) for t in texts),
            },
        )


def _v1_embeddings(self: _Handler, body: dict) -> None:
    fake = self.fake
    self._pause(fake.delay)
    if not self._oai_auth():
        return
    if not fake.embeddings:
        self._error(
            "/v1/",
            501,
            "This server does not support embeddings. Start it with `--embeddings`",
            oai_type="not_supported_error",
        )
        return
    model = str(body.get("model") or "")
    texts = _inputs(body)
    llamacpp = fake.owned_by == "llamacpp" and len(fake.models) == 1
    if fake._resolve(model) is None and not llamacpp:
        self._error("/v1/", 404, f'model "{model}" not found', oai_type="not_found_error")
    elif texts is None:
        self._error(
            "/v1/",
            400,
            "'input' must be a string or a list of strings",
            oai_type="invalid_request_error",
        )
    else:
        with fake._lock:
            fake.embedded += len(texts)
        vectors = fake.embed(texts)
        self._send_json(
            200,
            {
                "object": "list",
                "model": model,
                "data": [
                    {"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(vectors)
                ],
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            },
        )


_ROUTES: dict[tuple[str, str], Callable[[_Handler, dict], None]] = {
    ("POST", "/api/embed"): _api_embed,
    ("POST", "/v1/embeddings"): _v1_embeddings,
    ("GET", "/api/version"): _Handler._version,
    ("GET", "/api/tags"): _Handler._tags,
    ("POST", "/api/show"): _Handler._show,
    ("POST", "/api/chat"): _Handler._api_chat,
    ("POST", "/api/pull"): _Handler._api_pull,
    ("GET", "/v1/models"): _Handler._v1_models,
    ("POST", "/v1/chat/completions"): _Handler._v1_chat,
    ("GET", "/props"): _Handler._props,
}


# --------------------------------------------------------------------------- the fake


def _norm_spec(spec: dict | None) -> dict:
    out = {**_MODEL_DEFAULTS, **(spec or {})}
    out["capabilities"] = list(out["capabilities"])
    return out


def _details(spec: dict) -> dict:
    return {
        "parent_model": "",
        "format": "gguf",
        "family": spec["family"],
        "families": [spec["family"]],
        "parameter_size": spec["parameter_size"],
        "quantization_level": "Q4_K_M",
    }


def _canonical(model: str) -> str:
    return model if ":" in model else f"{model}:latest"


class FakeOllama:
    """A fake Ollama + OpenAI-compatible server on 127.0.0.1:<ephemeral port>.

    Args:
        models: name -> {context_length, family, parameter_size, capabilities, size}; a model
            without "tools" in its capabilities refuses a chat that offers tools, as Ollama does.
        pullable: names ``/api/pull`` accepts; ``None`` accepts any name.
        delay: seconds before the first byte of a chat (either API).
        token_delay: seconds between streamed chunks (chat, pull progress).
        handler: ``fn(body) -> reply`` used when the queue is empty.
        api_key: if set, /v1/chat/completions and /props demand ``Authorization: Bearer <api_key>``.
        version: what ``/api/version`` reports.
        port: the port to listen on (default: a free one; a fixed one lets a restarted server come
        back).
        owned_by: what ``/v1/models`` says owns each model; "llamacpp" with one model plays
        llama.cpp's
            server, whose /v1/chat/completions answers with its one model whatever name is asked.
        embed: ``fn(texts) -> vectors`` behind /api/embed and /v1/embeddings (default
        ``hashed_vectors``);
            a model must be one the fake has (``models``) to be embedded with.
        embeddings: False plays llama-server started without ``--embeddings`` (/v1/embeddings: 501).
    """

    def __init__(
        self,
        models: dict[str, dict] | None = None,
        *,
        pullable: Iterable[str] | None = None,
        delay: float = 0.0,
        token_delay: float = 0.0,
        handler: Callable[[dict], Any] | None = None,
        api_key: str | None = None,
        version: str = "0.12.6",
        port: int = 0,
        owned_by: str = "fake",
        embed: Callable[[list[str]], list[list[float]]] | None = None,
        embeddings: bool = True,
    ) -> None:
        src = DEFAULT_MODELS if models is None else models
        self.models: dict[str, dict] = {n: _norm_spec(s) for n, s in src.items()}
        self.pullable = None if pullable is None else {_canonical(n) for n in pullable}
        self.delay = delay
        self.token_delay = token_delay
        self.handler = handler
        self.api_key = api_key
        self.version = version
        self.owned_by = owned_by
        self.embed = embed or hashed_vectors  # texts -> vectors, for the models it has
        # False: /v1/embeddings answers 501 (llama-server without --embeddings)
        self.embeddings = embeddings
        self.embedded = 0  # texts embedded so far
        # streamed pieces written so far, all requests together: a test waits for an answer's
        # first words with it (support.waiting.wait_until), never with a fixed sleep
        self.chunks_sent = 0
        # 0: any free port (a fixed one lets a "restarted" server come back)
        self.requested_port = port
        self.handler_errors: list[BaseException] = []
        self.hangups: list[str] = []  # paths of streams the client closed before their end
        self.n_ctx: int | None = None  # refuse longer prompts on /v1, as llama-server does
        self.count_tokens: Callable[[Any], int] = estimate_prompt_tokens

        self._lock = threading.RLock()
        self._queue: deque[Any] = deque()
        self._requests: list[Recorded] = []
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._started_at = time.time()
        self._modified_at = _rfc3339(datetime.now(UTC) - timedelta(days=3))

    # ---- lifecycle

    def start(self) -> FakeOllama:
        if self._server is not None:
            return self
        self._stopping = threading.Event()
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"fake-ollama:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()  # wakes any handler sleeping in delay/token_delay
        server.shutdown()
        server.close_all_connections()  # keep-alive connections would otherwise live on
        server.server_close()
        if thread is not None:
            thread.join(timeout=2)
        self._server = self._thread = None

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError(
                "FakeOllama is not running; call start() or use it as a context manager"
            )
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ---- scripting

    def queue(self, *replies: Any) -> FakeOllama:
        """Append replies to the FIFO consumed by chat calls (both APIs)."""
        normalised = [_normalise(r) for r in replies]  # fail fast on a malformed reply
        with self._lock:
            self._queue.extend(normalised)
        return self

    @property
    def pending(self) -> int:
        """Replies still queued."""
        with self._lock:
            return len(self._queue)

    def reset(self) -> None:
        """Forget recorded requests, queued replies, handler errors and hang-ups."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()
            self.handler_errors.clear()
            self.hangups.clear()

    def add_model(self, name: str, **spec: Any) -> None:
        with self._lock:
            self.models[name] = _norm_spec(spec)

    # ---- inspection

    @property
    def requests(self) -> list[Recorded]:
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[Any]:
        with self._lock:
            return [r.body for r in self._requests if r.path in _CHAT_PATHS]

    @property
    def last_chat(self) -> Any:
        chats = self.chat_requests
        return chats[-1] if chats else None

    def wait_hangup(self, timeout: float = 5.0) -> bool:
        """True once a client has closed a stream early (e.g. a cancelled turn)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.hangups:
                    return True
            time.sleep(0.01)
        return False

    # ---- internals used by the handler

    def _hung_up(self, path: str) -> None:
        with self._lock:
            self.hangups.append(path)

    def _record(self, rec: Recorded) -> None:
        with self._lock:
            self._requests.append(rec)

    def _next_reply(self, body: dict) -> Any:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            handler = self.handler
        if handler is None:
            return _Reply(content="OK")
        try:
            return _normalise(handler(body))
        except (FakeError, MidStreamError) as exc:
            return exc
        except Exception as exc:
            with self._lock:
                self.handler_errors.append(exc)
            return FakeError(500, f"fake handler raised {exc!r}")

    def _resolve(self, model: str) -> str | None:
        """The stored name for ``model``: Ollama takes "name" and "name:latest" as the same
        model."""
        with self._lock:
            for name in (model, _canonical(model), model.removesuffix(":latest")):
                if name in self.models:
                    return name
            return None

    def _first_model(self) -> str | None:
        with self._lock:
            return next(iter(self.models), None)

    def _spec(self, name: str) -> dict:
        with self._lock:
            return self.models.get(name) or _norm_spec(None)

    def _models_snapshot(self) -> list[tuple[str, dict]]:
        with self._lock:
            return [(n, dict(s)) for n, s in self.models.items()]

    def _is_pullable(self, model: str) -> bool:
        return self.pullable is None or _canonical(model) in self.pullable

    def _add_pulled(self, model: str) -> None:
        with self._lock:
            if self._resolve(model) is None:
                self.models[_canonical(model)] = _norm_spec(None)
