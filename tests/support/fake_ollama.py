"""A protocol-faithful fake Ollama server for tests (stdlib only).

The fake speaks enough of the Ollama HTTP API that the real ``ollama.Client``
works against it unchanged, and from the same port it also serves the
OpenAI-compatible API as llama.cpp's ``llama-server`` / vLLM do, so an
OpenAI-compatible backend can be tested over httpx.

    with FakeOllama() as srv:
        srv.queue("Very good, sir.", {"tool_calls": [{"name": "clock", "arguments": {}}]})
        client = ollama.Client(host=srv.url, timeout=10)
        for chunk in client.chat(model="llama3.2:3b", messages=[...], stream=True):
            ...
        assert srv.chat_requests[0]["messages"][0]["role"] == "user"

Replies (``srv.queue(...)`` or the return value of ``srv.handler(body)``):

* ``str`` -- assistant content.
* ``dict`` -- ``{"content": str, "tool_calls": [{"name": ..., "arguments": {...}}],
  "thinking": str, "prompt_eval_count": int | None, "done_reason": "stop",
  "eval_count": int}``; ``{"json": obj}`` means ``content = json.dumps(obj)``.
  ``prompt_eval_count: None`` omits the field, as Ollama does on a full prompt-cache hit.
* ``FakeError(status, message)`` -- HTTP error before any byte of the body.
* ``MidStreamError(message, after_chunks=n)`` -- streams n content chunks then an
  error record; a 500 for non-streaming requests.
* ``None`` (from a handler) -- the default reply ``"OK"``.

A handler may also *raise* ``FakeError`` / ``MidStreamError``; any other exception
it raises becomes a 500 and is kept in ``srv.handler_errors``.

Beyond the brief: ``/api/generate`` (shares the reply queue), ``/api/embeddings``,
``DELETE /api/delete``, ``/v1/embeddings``, llama-server's ``GET /health`` and
``GET /props``, and model loading/unloading via a chat with no messages.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import socket
import socketserver
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_MODELS",
    "FakeError",
    "FakeOllama",
    "MidStreamError",
    "Recorded",
    "estimate_prompt_tokens",
    "fake_embedding",
    "split_pieces",
]

DEFAULT_MODELS: dict[str, dict[str, Any]] = {
    "llama3.2:3b": {
        "context_length": 8192,
        "family": "llama",
        "parameter_size": "3.2B",
        "capabilities": ["completion", "tools"],
    }
}

_MODEL_DEFAULTS: dict[str, Any] = {
    "context_length": 8192,
    "family": "llama",
    "parameter_size": "3.2B",
    "capabilities": ["completion", "tools"],
    "quantization_level": "Q4_K_M",
}

EMBED_DIM = 32
PULL_ERROR = "pull model manifest: file does not exist"
_CHAT_PATHS = ("/api/chat", "/v1/chat/completions")
_NS = 1_000_000_000


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

    def __init__(self, message: str, after_chunks: int = 1, content: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.after_chunks = max(0, int(after_chunks))
        self.content = content

    def pieces(self) -> list[str]:
        pieces = split_pieces(self.content) if self.content else []
        while len(pieces) < self.after_chunks:
            pieces.append(f"part{len(pieces)} ")
        return pieces[: self.after_chunks]


_PIECE_RE = re.compile(r"\S+\s*|\s+")


def split_pieces(text: str) -> list[str]:
    """Words with their trailing whitespace; ``''.join(split_pieces(t)) == t``."""
    return _PIECE_RE.findall(text or "")


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        return "".join(
            p.get("text", "") if isinstance(p, dict) else str(p) for p in content
        )
    return str(content)


def estimate_prompt_tokens(messages: Iterable[dict] | None) -> int:
    """``sum(len(content)//4 + 4)`` over the messages, at least 1."""
    total = 0
    for m in messages or []:
        total += len(_text_of(m.get("content") if isinstance(m, dict) else m)) // 4 + 4
    return max(1, total)


def fake_embedding(text: str, dim: int = EMBED_DIM) -> list[float]:
    """The deterministic unit vector the fake returns for ``text``."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    vec = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


# --------------------------------------------------------------------------- reply model

_UNSET: Any = object()
_REPLY_KEYS = {"content", "tool_calls", "thinking", "prompt_eval_count", "done_reason", "eval_count", "json"}


@dataclass
class _Reply:
    content: str = ""
    tool_calls: list[dict] = field(default_factory=list)  # {"name", "arguments": dict, "id"}
    thinking: str = ""
    prompt_eval_count: Any = _UNSET  # _UNSET -> estimate, None -> omit
    done_reason: str = "stop"
    eval_count: int | None = None


def _norm_tool_call(tc: Any) -> dict:
    if not isinstance(tc, dict):
        raise TypeError(f"tool call must be a dict, got {tc!r}")
    fn = tc["function"] if isinstance(tc.get("function"), dict) else tc
    args = fn.get("arguments", {})
    if isinstance(args, str):
        args = json.loads(args) if args.strip() else {}
    return {
        "name": fn["name"],
        "arguments": args if args is not None else {},
        "id": tc.get("id") or f"call_{uuid.uuid4().hex[:24]}",
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
            raise ValueError(f"unknown reply keys {sorted(unknown)}; allowed: {sorted(_REPLY_KEYS)}")
        content = reply.get("content") or ""
        if "json" in reply:
            content = json.dumps(reply["json"])
        r = _Reply(
            content=content,
            tool_calls=[_norm_tool_call(tc) for tc in reply.get("tool_calls") or []],
            thinking=reply.get("thinking") or "",
            done_reason=reply.get("done_reason") or "stop",
            eval_count=reply.get("eval_count"),
        )
        if "prompt_eval_count" in reply:
            r.prompt_eval_count = reply["prompt_eval_count"]
        return r
    raise TypeError(f"unsupported reply {reply!r}")


# --------------------------------------------------------------------------- time / sizes


def _rfc3339(dt: datetime | None = None) -> str:
    dt = dt or datetime.now(timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _param_count(parameter_size: str) -> int:
    m = re.fullmatch(r"\s*([\d.]+)\s*([KMBT]?)\s*", str(parameter_size), re.I)
    if not m:
        return 3_000_000_000
    mult = {"": 1, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}[m.group(2).upper()]
    return int(float(m.group(1)) * mult)


def _digest(name: str, salt: str = "") -> str:
    return hashlib.sha256(f"{name}\0{salt}".encode()).hexdigest()


class _Aborted(Exception):
    """The server is stopping: drop the connection."""


# --------------------------------------------------------------------------- HTTP plumbing


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # a client that hangs up (a stopped stream, a test's timeout) is not a server error:
        # printing its traceback would land in whichever test captures stderr next
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def __init__(self, fake: "FakeOllama") -> None:
        self.fake = fake
        self._conns: set[socket.socket] = set()
        self._conns_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), a reverse DNS lookup that can stall.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = host, port

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

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    @property
    def fake(self) -> "FakeOllama":
        return self.server.fake

    def do_GET(self) -> None:
        self._dispatch()

    do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = do_GET

    # ---- request

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            out = bytearray()
            while True:
                size_line = self.rfile.readline()
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(out)
                out += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _dispatch(self) -> None:
        self._started = False
        method = self.command
        path = urlsplit(self.path).path
        raw = self._read_body()
        body: Any = None
        bad_json = False
        if raw.strip():
            try:
                body = json.loads(raw)
            except ValueError:
                bad_json = True
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.fake._record(Recorded(method, path, body, headers))

        route = _ROUTES.get(("GET" if method == "HEAD" else method, path))
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
        if path.startswith("/v1/"):
            self._send_json(status, {"error": {"message": message, "type": oai_type, "code": status}})
        else:
            self._send_json(status, {"error": message})

    def _send_json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self._send_bytes(status, data, "application/json; charset=utf-8")

    def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
        self._started = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
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

    def _end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _ndjson(self, obj: Any) -> None:
        self._chunk(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")

    def _sse(self, obj: Any) -> None:
        payload = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        self._chunk(b"data: " + payload.encode("utf-8") + b"\n\n")

    def _pause(self, seconds: float) -> None:
        if seconds and seconds > 0 and self.fake._stopping.wait(seconds):
            raise _Aborted()

    # ---- shared model checks

    def _ollama_model(self, body: dict, key: str = "model") -> str | None:
        """Resolve the request's model or send Ollama's error and return None."""
        model = body.get(key) or body.get("name") or ""
        if not model:
            self._send_json(400, {"error": "model is required"})
            return None
        name = self.fake._resolve(model)
        if name is None:
            self._send_json(404, {"error": f'model "{model}" not found, try pulling it first'})
        return name

    def _check_generation_caps(self, body: dict, name: str, model: str) -> bool:
        caps = self.fake._spec(name)["capabilities"]
        if "completion" not in caps:
            self._send_json(400, {"error": f'"{model}" does not support chat'})
            return False
        if body.get("tools") and "tools" not in caps:
            self._send_json(400, {"error": f"registry.ollama.ai/library/{model} does not support tools"})
            return False
        think = body.get("think")
        if think not in (None, False, "") and "thinking" not in caps:
            self._send_json(400, {"error": f'"{model}" does not support thinking'})
            return False
        return True

    # ---- Ollama native API

    def _root(self, body: dict) -> None:
        self._send_bytes(200, b"Ollama is running", "text/plain; charset=utf-8")

    def _version(self, body: dict) -> None:
        self._send_json(200, {"version": self.fake.version})

    def _tags(self, body: dict) -> None:
        fake = self.fake
        models = []
        for name, spec in fake._models_snapshot():
            models.append(
                {
                    "name": name,
                    "model": name,
                    "modified_at": fake._modified_at,
                    "size": fake._size(spec),
                    "digest": _digest(name),
                    "details": fake._details(spec),
                }
            )
        self._send_json(200, {"models": models})

    def _show(self, body: dict) -> None:
        fake = self.fake
        model = body.get("model") or body.get("name") or ""
        if not model:
            self._send_json(400, {"error": "model is required"})
            return
        name = fake._resolve(model)
        if name is None:
            self._send_json(404, {"error": f"model '{model}' not found"})
            return
        spec = fake._spec(name)
        family = spec["family"]
        info = {
            "general.architecture": family,
            "general.basename": name.split(":")[0],
            "general.file_type": 15,
            "general.parameter_count": _param_count(spec["parameter_size"]),
            "general.quantization_version": 2,
            f"{family}.context_length": spec["context_length"],
            f"{family}.embedding_length": 3072,
            f"{family}.block_count": 28,
            f"{family}.attention.head_count": 24,
        }
        info.update(spec.get("model_info") or {})
        self._send_json(
            200,
            {
                "license": "",
                "modelfile": f'# Modelfile generated by "ollama show"\nFROM {name}\nTEMPLATE "{{{{ .Prompt }}}}"\n',
                "parameters": 'stop                           "<|eot_id|>"',
                "template": "{{ .Prompt }}",
                "details": fake._details(spec),
                "model_info": info,
                "capabilities": list(spec["capabilities"]),
                "modified_at": fake._modified_at,
            },
        )

    def _ps(self, body: dict) -> None:
        fake = self.fake
        expires = _rfc3339(datetime.now(timezone.utc) + timedelta(minutes=5))
        out = []
        for name, num_ctx in fake._loaded_snapshot():
            spec = fake._spec(name)
            size = fake._size(spec)
            out.append(
                {
                    "name": name,
                    "model": name,
                    "size": size,
                    "digest": _digest(name),
                    "details": fake._details(spec),
                    "expires_at": expires,
                    "size_vram": size,
                    "context_length": num_ctx,
                }
            )
        self._send_json(200, {"models": out})

    def _delete(self, body: dict) -> None:
        model = body.get("model") or body.get("name") or ""
        if not self.fake._remove_model(model):
            self._send_json(404, {"error": f"model '{model}' not found"})
            return
        self._send_bytes(200, b"", "application/json; charset=utf-8")

    def _load_or_unload(self, body: dict, name: str, kind: str) -> None:
        keep_alive = body.get("keep_alive")
        unload = keep_alive in (0, 0.0, "0", "0s", "0m")
        if unload:
            self.fake._unload(name)
        else:
            self.fake._load(name, body)
        out: dict[str, Any] = {"model": name, "created_at": _rfc3339()}
        if kind == "chat":
            out["message"] = {"role": "assistant", "content": ""}
        else:
            out["response"] = ""
        out.update({"done_reason": "unload" if unload else "load", "done": True})
        self._send_json(200, out)

    def _api_chat(self, body: dict) -> None:
        self._ollama_generation(body, "chat")

    def _api_generate(self, body: dict) -> None:
        self._ollama_generation(body, "generate")

    def _ollama_generation(self, body: dict, kind: str) -> None:
        fake = self.fake
        t0 = time.monotonic_ns()
        self._pause(fake.delay)
        name = self._ollama_model(body)
        if name is None:
            return
        model = body.get("model") or name
        if not self._check_generation_caps(body, name, model):
            return
        if kind == "chat":
            if not body.get("messages"):
                self._load_or_unload(body, name, kind)
                return
            prompt_estimate = estimate_prompt_tokens(body.get("messages"))
        else:
            if not body.get("prompt") and not body.get("images"):
                self._load_or_unload(body, name, kind)
                return
            prompt_estimate = estimate_prompt_tokens(
                [{"content": body.get("system") or ""}, {"content": body.get("prompt") or ""}]
            )
        fake._load(name, body)
        reply = fake._next_reply(body)
        stream = body.get("stream")
        stream = True if stream is None else bool(stream)

        if isinstance(reply, FakeError):
            self._send_json(reply.status, {"error": reply.message})
            return

        def message(content: str = "", thinking: str = "", tool_calls: list | None = None) -> dict:
            if kind == "chat":
                msg: dict[str, Any] = {"role": "assistant", "content": content}
                if thinking:
                    msg["thinking"] = thinking
                if tool_calls:
                    msg["tool_calls"] = [
                        {"function": {"index": i, "name": tc["name"], "arguments": tc["arguments"]}}
                        for i, tc in enumerate(tool_calls)
                    ]
                return {"message": msg}
            out: dict[str, Any] = {"response": content}
            if thinking:
                out["thinking"] = thinking
            return out

        def record(**fields: Any) -> dict:
            return {"model": model, "created_at": _rfc3339(), **fields}

        if isinstance(reply, MidStreamError):
            if not stream:
                self._send_json(500, {"error": reply.message})
                return
            self._start_stream("application/x-ndjson")
            for i, piece in enumerate(reply.pieces()):
                if i:
                    self._pause(fake.token_delay)
                self._ndjson(record(**message(piece), done=False))
            self._pause(fake.token_delay)
            self._ndjson({"error": reply.message})
            self._end_stream()
            return

        think_pieces = split_pieces(reply.thinking)
        pieces = split_pieces(reply.content)
        eval_count = reply.eval_count if reply.eval_count is not None else len(think_pieces) + len(pieces)
        prompt_count = prompt_estimate if reply.prompt_eval_count is _UNSET else reply.prompt_eval_count
        t_eval = time.monotonic_ns()

        def final_stats() -> dict:
            now = time.monotonic_ns()
            load = 1_250_000
            ped = (prompt_count or 0) * 40_000
            ev = max(now - t_eval, eval_count * 1_000_000, 1)
            stats: dict[str, Any] = {
                "done_reason": reply.done_reason,
                "done": True,
                "total_duration": max(now - t0, 0) + load + ped + ev,
                "load_duration": load,
            }
            if prompt_count is not None:
                stats["prompt_eval_count"] = prompt_count
                stats["prompt_eval_duration"] = max(ped, 1)
            stats["eval_count"] = eval_count
            stats["eval_duration"] = ev
            return stats

        if not stream:
            self._send_json(
                200,
                record(**message(reply.content, reply.thinking, reply.tool_calls), **final_stats()),
            )
            return

        self._start_stream("application/x-ndjson")
        first = True

        def emit(obj: dict) -> None:
            nonlocal first
            if not first:
                self._pause(fake.token_delay)
            first = False
            self._ndjson(obj)

        for piece in think_pieces:
            emit(record(**message("", piece), done=False))
        for piece in pieces:
            emit(record(**message(piece), done=False))
        if reply.tool_calls and kind == "chat":
            emit(record(**message("", tool_calls=reply.tool_calls), done=False))
        emit(record(**message(""), **final_stats()))
        self._end_stream()

    def _api_embed(self, body: dict) -> None:
        fake = self.fake
        self._pause(fake.delay)
        name = self._ollama_model(body)
        if name is None:
            return
        inp = body.get("input", "")
        texts = [inp] if isinstance(inp, str) else [str(t) for t in inp or []]
        dim = int(body.get("dimensions") or EMBED_DIM)
        self._send_json(
            200,
            {
                "model": body.get("model") or name,
                "embeddings": [fake_embedding(t, dim) for t in texts],
                "total_duration": 2_000_000 + 100_000 * len(texts),
                "load_duration": 1_000_000,
                "prompt_eval_count": sum(max(1, len(t) // 4) for t in texts),
            },
        )

    def _api_embeddings(self, body: dict) -> None:  # legacy endpoint
        fake = self.fake
        self._pause(fake.delay)
        name = self._ollama_model(body)
        if name is None:
            return
        self._send_json(200, {"embedding": fake_embedding(str(body.get("prompt") or ""))})

    def _api_pull(self, body: dict) -> None:
        fake = self.fake
        model = body.get("model") or body.get("name") or ""
        stream = body.get("stream")
        stream = True if stream is None else bool(stream)
        if not model:
            self._send_json(400, {"error": "model is required"})
            return
        ok = fake._is_pullable(model)
        if not stream:
            if not ok:
                self._send_json(500, {"error": PULL_ERROR})
                return
            fake._add_pulled(model)
            self._send_json(200, {"status": "success"})
            return

        self._start_stream("application/x-ndjson")
        self._ndjson({"status": "pulling manifest"})
        if not ok:
            self._pause(fake.token_delay)
            self._ndjson({"error": PULL_ERROR})
            self._end_stream()
            return
        spec = fake._pull_spec(model)
        layers = [
            (_digest(model, "model"), fake._size(spec)),
            (_digest(model, "template"), 1_429),
            (_digest(model, "license"), 7_711),
            (_digest(model, "params"), 96),
        ]
        for digest, total in layers:
            for k in (total // 4, total // 2, total):
                self._pause(fake.token_delay)
                self._ndjson(
                    {"status": f"pulling {digest[:12]}", "digest": f"sha256:{digest}", "total": total, "completed": k}
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
        if key is None:
            return True
        if self.headers.get("Authorization", "") == f"Bearer {key}":
            return True
        self._send_json(401, {"error": {"message": "Invalid API Key", "type": "authentication_error", "code": 401}})
        return False

    def _oai_model(self, body: dict) -> str | None:
        model = body.get("model") or ""
        name = self.fake._resolve(model) if model else self.fake._first_model()
        if name is None:
            self._error(
                "/v1/", 404, f'model "{model}" not found, try pulling it first', oai_type="not_found_error"
            )
        return name

    def _v1_models(self, body: dict) -> None:
        if not self._oai_auth():
            return
        fake = self.fake
        created = int(fake._started_at)
        data = [
            {
                "id": name,
                "object": "model",
                "created": created,
                "owned_by": "fake",
                "max_model_len": spec["context_length"],  # vLLM
                "meta": {"n_ctx_train": spec["context_length"]},  # llama-server
            }
            for name, spec in fake._models_snapshot()
        ]
        self._send_json(200, {"object": "list", "data": data})

    def _health(self, body: dict) -> None:
        self._send_json(200, {"status": "ok"})

    def _props(self, body: dict) -> None:
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

    def _v1_embeddings(self, body: dict) -> None:
        fake = self.fake
        self._pause(fake.delay)
        if not self._oai_auth():
            return
        name = self._oai_model(body)
        if name is None:
            return
        inp = body.get("input", "")
        texts = [inp] if isinstance(inp, str) else [str(t) for t in inp or []]
        dim = int(body.get("dimensions") or EMBED_DIM)
        tokens = sum(max(1, len(t) // 4) for t in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "model": body.get("model") or name,
                "data": [
                    {"object": "embedding", "index": i, "embedding": fake_embedding(t, dim)}
                    for i, t in enumerate(texts)
                ],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    def _v1_chat(self, body: dict) -> None:
        fake = self.fake
        self._pause(fake.delay)
        if not self._oai_auth():
            return
        name = self._oai_model(body)
        if name is None:
            return
        model = body.get("model") or name
        fake._load(name, body)
        reply = fake._next_reply(body)
        stream = bool(body.get("stream", False))
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))

        if isinstance(reply, FakeError):
            self._error("/v1/", reply.status, reply.message)
            return
        if isinstance(reply, MidStreamError) and not stream:
            self._error("/v1/", 500, reply.message)
            return

        cid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        created = int(time.time())
        base = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                "system_fingerprint": "fake_ollama"}

        def chunk(delta: dict, finish: str | None = None) -> dict:
            out = {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
            if include_usage:
                out["usage"] = None
            return out

        if isinstance(reply, MidStreamError):
            self._start_stream("text/event-stream")
            self._sse(chunk({"role": "assistant", "content": ""}))
            for piece in reply.pieces():
                self._pause(fake.token_delay)
                self._sse(chunk({"content": piece}))
            self._pause(fake.token_delay)
            self._sse({"error": {"message": reply.message, "type": "server_error", "code": 500}})
            self._end_stream()
            return

        think_pieces = split_pieces(reply.thinking)
        pieces = split_pieces(reply.content)
        completion_tokens = (
            reply.eval_count if reply.eval_count is not None else len(think_pieces) + len(pieces)
        )
        prompt_tokens = reply.prompt_eval_count
        if prompt_tokens is _UNSET or prompt_tokens is None:
            prompt_tokens = estimate_prompt_tokens(body.get("messages"))
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if reply.tool_calls:
            finish = "tool_calls"
        elif reply.done_reason == "length":
            finish = "length"
        else:
            finish = "stop"

        if not stream:
            msg: dict[str, Any] = {
                "role": "assistant",
                "content": reply.content if (reply.content or not reply.tool_calls) else None,
            }
            if reply.thinking:
                msg["reasoning_content"] = reply.thinking
            if reply.tool_calls:
                msg["tool_calls"] = [
                    {
                        "id": tc["id"],
                        "type": "function",
                        "function": {"name": tc["name"], "arguments": json.dumps(tc["arguments"])},
                    }
                    for tc in reply.tool_calls
                ]
            self._send_json(
                200,
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "system_fingerprint": "fake_ollama",
                    "choices": [{"index": 0, "message": msg, "logprobs": None, "finish_reason": finish}],
                    "usage": usage,
                },
            )
            return

        self._start_stream("text/event-stream")
        self._sse(chunk({"role": "assistant", "content": ""}))
        for piece in think_pieces:
            self._pause(fake.token_delay)
            self._sse(chunk({"reasoning_content": piece}))
        for piece in pieces:
            self._pause(fake.token_delay)
            self._sse(chunk({"content": piece}))
        for i, tc in enumerate(reply.tool_calls):
            self._pause(fake.token_delay)
            self._sse(chunk({"tool_calls": [{"index": i, "id": tc["id"], "type": "function",
                                             "function": {"name": tc["name"], "arguments": ""}}]}))
            args = json.dumps(tc["arguments"])
            step = max(1, math.ceil(len(args) / 3))
            for j in range(0, len(args), step):
                self._pause(fake.token_delay)
                self._sse(chunk({"tool_calls": [{"index": i, "function": {"arguments": args[j:j + step]}}]}))
        self._pause(fake.token_delay)
        self._sse(chunk({}, finish))
        if include_usage:
            self._sse({**base, "choices": [], "usage": usage})
        self._sse("[DONE]")
        self._end_stream()


_ROUTES: dict[tuple[str, str], Callable[[_Handler, dict], None]] = {
    ("GET", "/"): _Handler._root,
    ("GET", "/api/version"): _Handler._version,
    ("GET", "/api/tags"): _Handler._tags,
    ("GET", "/api/ps"): _Handler._ps,
    ("POST", "/api/show"): _Handler._show,
    ("POST", "/api/chat"): _Handler._api_chat,
    ("POST", "/api/generate"): _Handler._api_generate,
    ("POST", "/api/embed"): _Handler._api_embed,
    ("POST", "/api/embeddings"): _Handler._api_embeddings,
    ("POST", "/api/pull"): _Handler._api_pull,
    ("DELETE", "/api/delete"): _Handler._delete,
    ("GET", "/v1/models"): _Handler._v1_models,
    ("POST", "/v1/chat/completions"): _Handler._v1_chat,
    ("POST", "/v1/embeddings"): _Handler._v1_embeddings,
    ("GET", "/health"): _Handler._health,
    ("GET", "/props"): _Handler._props,
}


# --------------------------------------------------------------------------- the fake


def _norm_spec(spec: dict | None) -> dict:
    out = dict(_MODEL_DEFAULTS)
    out.update(spec or {})
    out["capabilities"] = list(out["capabilities"])
    return out


class FakeOllama:
    """A fake Ollama + OpenAI-compatible server on 127.0.0.1:<ephemeral port>.

    Args:
        models: name -> {context_length, family, parameter_size, capabilities, ...}.
        pullable: names ``/api/pull`` accepts (a dict name -> spec also sets the
            pulled model's spec); ``None`` accepts any name.
        delay: seconds before the first byte of generation endpoints (chat,
            generate, embed, /v1 chat and embeddings).
        token_delay: seconds between streamed chunks (chat, pull progress, SSE).
        handler: ``fn(body) -> reply`` used when the queue is empty.
        api_key: if set, /v1 endpoints demand ``Authorization: Bearer <api_key>`` (401 otherwise).
        default_num_ctx: the context a chat loads a model with when the request
            sets no ``options.num_ctx`` (what ``/api/ps`` reports); capped by the
            model's ``context_length``.
    """

    def __init__(
        self,
        models: dict[str, dict] | None = None,
        *,
        pullable: Iterable[str] | dict[str, dict] | None = None,
        delay: float = 0.0,
        token_delay: float = 0.0,
        handler: Callable[[dict], Any] | None = None,
        api_key: str | None = None,
        default_num_ctx: int = 4096,
        version: str = "0.12.6",
    ) -> None:
        src = DEFAULT_MODELS if models is None else models
        self.models: dict[str, dict] = {n: _norm_spec(s) for n, s in src.items()}
        if pullable is None:
            self.pullable: dict[str, dict] | None = None
        elif isinstance(pullable, dict):
            self.pullable = {n: dict(s or {}) for n, s in pullable.items()}
        else:
            self.pullable = {n: {} for n in pullable}
        self.delay = delay
        self.token_delay = token_delay
        self.handler = handler
        self.api_key = api_key
        self.default_num_ctx = default_num_ctx
        self.version = version
        self.handler_errors: list[BaseException] = []
        self.hangups: list[str] = []  # paths of streams the client closed before their end

        self._lock = threading.RLock()
        self._queue: deque[Any] = deque()
        self._requests: list[Recorded] = []
        self._loaded: dict[str, int] = {}  # name -> num_ctx, in load order
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._started_at = time.time()
        self._modified_at = _rfc3339(datetime.now(timezone.utc) - timedelta(days=3))

    # ---- lifecycle

    def start(self) -> "FakeOllama":
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

    def __enter__(self) -> "FakeOllama":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeOllama is not running; call start() or use it as a context manager")
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._server is not None

    # ---- scripting

    def queue(self, *replies: Any) -> "FakeOllama":
        """Append replies to the FIFO consumed by chat calls (both APIs) and /api/generate."""
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
        """Forget recorded requests, queued replies, handler errors and loaded models."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()
            self._loaded.clear()
            self.handler_errors.clear()

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

    def calls(self, path: str, method: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self._requests if r.path == path and (method is None or r.method == method))

    # ---- internals used by the handler

    def _hung_up(self, path: str) -> None:
        with self._lock:
            self.hangups.append(path)

    def wait_hangup(self, timeout: float = 5.0) -> bool:
        """True once a client has closed a stream early (e.g. a cancelled turn)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.hangups:
                    return True
            time.sleep(0.01)
        return False

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
        with self._lock:
            if model in self.models:
                return model
            if ":" not in model and f"{model}:latest" in self.models:
                return f"{model}:latest"
            if model.endswith(":latest") and model[: -len(":latest")] in self.models:
                return model[: -len(":latest")]
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

    def _remove_model(self, model: str) -> bool:
        with self._lock:
            name = self._resolve(model)
            if name is None:
                return False
            del self.models[name]
            self._loaded.pop(name, None)
            return True

    def _load(self, name: str, body: dict) -> None:
        options = body.get("options") if isinstance(body.get("options"), dict) else {}
        ctx = self._spec(name)["context_length"]
        num_ctx = options.get("num_ctx") or min(self.default_num_ctx, ctx)
        with self._lock:
            self._loaded.pop(name, None)
            self._loaded[name] = int(num_ctx)

    def _unload(self, name: str) -> None:
        with self._lock:
            self._loaded.pop(name, None)

    def _loaded_snapshot(self) -> list[tuple[str, int]]:
        with self._lock:
            return [(n, c) for n, c in self._loaded.items() if n in self.models]

    @staticmethod
    def _canonical(model: str) -> str:
        return model if ":" in model else f"{model}:latest"

    def _is_pullable(self, model: str) -> bool:
        if self.pullable is None:
            return True
        return model in self.pullable or self._canonical(model) in {self._canonical(n) for n in self.pullable}

    def _pull_spec(self, model: str) -> dict:
        spec: dict = {}
        if self.pullable:
            for n, s in self.pullable.items():
                if n == model or self._canonical(n) == self._canonical(model):
                    spec = s
                    break
        return _norm_spec(spec)

    def _add_pulled(self, model: str) -> None:
        spec = self._pull_spec(model)
        with self._lock:
            if self._resolve(model) is None:
                self.models[self._canonical(model)] = spec

    def _size(self, spec: dict) -> int:
        if spec.get("size"):
            return int(spec["size"])
        return int(_param_count(spec["parameter_size"]) * 0.6)  # ~Q4_K_M bytes per parameter

    def _details(self, spec: dict) -> dict:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": spec["family"],
            "families": [spec["family"]],
            "parameter_size": spec["parameter_size"],
            "quantization_level": spec.get("quantization_level", "Q4_K_M"),
        }
