"""The one small protocol every model backend speaks, and what they share.

A call always streams from the server (so the first token can reach the user early);
``on_token`` sees each content piece as it arrives and the returned ``ChatResult`` holds
the whole reply, tool calls and token counts. Every failure is a ``BackendError`` with
one clear sentence.

Options are backend-neutral (``temperature``, ``max_tokens``, ``context``); each backend
translates them into its own fields (Ollama: ``num_predict``/``num_ctx``).

A call ends early in two ways, both by closing the HTTP stream so the server stops
generating: ``Cancel.cancel()`` from any thread (the user cancelled the turn: the call raises
``Cancelled`` holding what was generated so far), and the call's deadline (``timeout`` seconds
for the whole call, not per read: a ``BackendError``).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tatlock.errors import BackendError
from tatlock.events import PullProgress

__all__ = [
    "Backend",
    "BackendError",
    "CallGuard",
    "Cancel",
    "Cancelled",
    "ChatResult",
    "ContextExceeded",
    "Options",
    "PullProgress",
    "StopGeneration",
    "ToolCall",
    "char_cap",
    "context_refusal",
]

Options = dict[str, Any]  # temperature, max_tokens, context, top_p, seed
Message = dict[str, Any]


class ContextExceeded(BackendError):
    """The request does not fit the model's context window: the server refused it for its length
    (with the tokens it counted and its window, where it said), or it could not be cut to fit."""

    def __init__(
        self,
        message: str,
        *,
        prompt_tokens: int | None = None,
        context: int | None = None,
        hint: str | None = None,
    ):
        super().__init__(message, hint=hint, kind="context")
        self.prompt_tokens = prompt_tokens
        self.context = context


_CONTEXT_WORDS = re.compile(
    r"context (?:size|length|window)|maximum context|too many tokens|"
    r"exceeds? the (?:available )?context|prompt is too long",
    re.I,
)


def context_refusal(message: str, detail: Any = None) -> ContextExceeded | None:
    """A server's refusal for length, from its error text (and its error object, where it has one):
    llama-server's ``exceed_context_size_error`` carries ``n_prompt_tokens`` and ``n_ctx``; vLLM
    and OpenAI write "maximum context length is N tokens ... M in the messages"."""
    kind = detail.get("type") if isinstance(detail, dict) else None
    if kind not in (
        "exceed_context_size_error",
        "context_length_exceeded",
    ) and not _CONTEXT_WORDS.search(message):
        return None

    def number(key: str, patterns: tuple[str, ...]) -> int | None:
        value = detail.get(key) if isinstance(detail, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        for pattern in patterns:
            m = re.search(pattern, message, re.I)
            if m:
                return int(m.group(1))
        return None

    return ContextExceeded(
        message,
        prompt_tokens=number("n_prompt_tokens", _PROMPT_COUNT),
        context=number("n_ctx", _WINDOW),
    )


_PROMPT_COUNT = (
    r"request \((\d+) tokens\)",
    r"\((\d+) in the messages",
    r"resulted in (\d+) "
    r"tokens",
)
_WINDOW = (r"context size \((\d+) tokens\)", r"maximum context length is (\d+)")


class StopGeneration(Exception):
    """Raised by an ``on_token`` callback to end the call early (e.g. the model is looping):
    the backend closes the stream and returns what it has, with done_reason "stopped"."""


class Cancelled(Exception):
    """The call was cancelled; ``partial`` is the content generated before."""

    def __init__(self, partial: str = "") -> None:
        super().__init__("cancelled")
        self.partial = partial


class Cancel:
    """A cancellation signal shared by a turn and the calls it makes; ``cancel()`` may come
    from any thread and runs the registered callbacks (which close sockets) at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = threading.Event()
        self._callbacks: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        return self._set.is_set()

    def cancel(self) -> None:
        with self._lock:
            if self._set.is_set():
                return
            self._set.set()
            callbacks = list(self._callbacks)
        for fn in callbacks:
            try:
                fn()
            except Exception:
                pass

    def on_cancel(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Run ``fn`` when cancelled (at once if already); returns a function that unregisters
        it."""
        with self._lock:
            if not self._set.is_set():
                self._callbacks.append(fn)
                return lambda: self._remove(fn)
        fn()
        return lambda: None

    def _remove(self, fn: Callable[[], None]) -> None:
        with self._lock:
            if fn in self._callbacks:
                self._callbacks.remove(fn)

    def wait(self, timeout: float | None = None) -> bool:
        return self._set.wait(timeout)


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    id: str | None = None


@dataclass
class ChatResult:
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    prompt_tokens: int | None = None  # None: the server did not say (e.g. prompt cache hit)
    eval_tokens: int | None = None
    # tokens the server actually evaluated for this prompt (llama-server's timings.prompt_n;
    # Ollama's prompt_eval_count): fewer than prompt_tokens when its prompt cache was reused
    evaluated_tokens: int | None = None
    ms: float = 0.0
    first_token_ms: float | None = None
    done_reason: str | None = None
    model: str = ""


class Backend(Protocol):
    model: str
    where: str  # the server, for messages

    def chat(
        self,
        messages: list[Message],
        *,
        schema: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        on_token: Callable[[str], None] | None = None,
        model: str | None = None,
        options: Options | None = None,
        cancel: Cancel | None = None,
    ) -> ChatResult: ...

    def context_length(self, model: str | None = None) -> int | None: ...

    def models(self) -> list[str]: ...

    def version(self) -> str: ...

    def pull(
        self, model: str, on_progress: Callable[[PullProgress], None], cancel: Cancel | None = None
    ) -> None: ...

    def close(self) -> None: ...


CHARS_PER_TOKEN_CAP = 10  # a token is about 4 characters; 10 leaves room for any tokenizer


def char_cap(options: Options | None) -> int | None:
    """Most characters a call with ``max_tokens`` may stream before it is ended as if the server
    had stopped at its cap: a server that ignores the cap must not stream (and have checked)
    megabytes."""
    n = (options or {}).get("max_tokens")
    return int(n) * CHARS_PER_TOKEN_CAP if isinstance(n, int) and n > 0 else None


class Timer:
    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.first: float | None = None

    def mark_first(self) -> None:
        if self.first is None:
            self.first = (time.perf_counter() - self.t0) * 1000

    @property
    def ms(self) -> float:
        return (time.perf_counter() - self.t0) * 1000


class CallGuard:
    """Ends one streaming call from outside: the user's cancel or the call's deadline.

    Both shut down the sockets of the connections the call is using (``shutdown`` wakes a
    thread blocked in ``recv``, where ``close`` would not), so the reading thread sees the
    stream end at once and the server sees the client gone and stops generating.

        with CallGuard(http_client, timeout, cancel) as guard:
            ... stream ...
        guard.reason  # None | "cancelled" | "timeout"
    """

    def __init__(self, http: Any, timeout: float | None, cancel: Cancel | None):
        self.http = http
        self.timeout = timeout
        self.cancel = cancel
        self.reason: str | None = None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._unregister: Callable[[], None] = lambda: None
        self._ended = threading.Event()

    def __enter__(self) -> CallGuard:
        if self.cancel is not None:
            if self.cancel.cancelled:
                raise Cancelled("")
            self._unregister = self.cancel.on_cancel(lambda: self.abort("cancelled"))
        if self.timeout:
            self._timer = threading.Timer(self.timeout, self.abort, args=("timeout",))
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._ended.set()
        if self._timer is not None:
            self._timer.cancel()
        self._unregister()

    def abort(self, reason: str) -> None:
        with self._lock:
            if self.reason is not None:
                return
            self.reason = reason
        if not shutdown_active(self.http):
            # The call has not put its request on a connection yet (the cancel fell between the
            # guard's start and the send): a shutdown now would miss it and the call would wait
            # for the whole reply. Keep at it, briefly and off this thread, until it is sent.
            threading.Thread(target=self._chase, daemon=True).start()

    def _chase(self) -> None:
        while not self._ended.wait(CHASE_EVERY):
            if shutdown_active(self.http):
                return


# how often an abort that found no request under way looks again (seconds)
CHASE_EVERY = 0.02


def shutdown_active(http: Any) -> bool:
    """Shut down the socket of every busy connection of an httpx.Client's pool; says whether
    there was one (or whether the client was closed instead).

    Each backend's client serves one call at a time (the compactor has its own backend), so
    the busy connections are this call's. httpcore does not expose the socket publicly beyond
    ``get_extra_info("socket")``; if its layout ever changes, the client is closed instead."""
    shut = False
    try:
        pool = http._transport._pool
        for conn in pool.connections:
            if conn.is_idle():
                continue
            inner = getattr(conn, "_connection", None)
            stream = getattr(inner, "_network_stream", None)
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                shut = True
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
    except Exception:
        try:
            http.close()
        except Exception:
            pass
        return True
    return shut
