"""The one small protocol every model backend speaks.

A call always streams from the server (so the first token can reach the user early);
``on_token`` sees each content piece as it arrives and the returned ``ChatResult`` holds
the whole reply, tool calls and token counts. Every failure is a ``BackendError`` with
one clear sentence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from tatlock.errors import BackendError

__all__ = ["Backend", "BackendError", "ChatResult", "ToolCall", "PullProgress", "StopGeneration", "make_backend"]


class StopGeneration(Exception):
    """Raised by an ``on_token`` callback to end the call early (e.g. the model is looping):
    the backend closes the stream and returns what it has, with done_reason "stopped"."""


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
    ms: float = 0.0
    first_token_ms: float | None = None
    done_reason: str | None = None
    model: str = ""


@dataclass(frozen=True)
class PullProgress:
    status: str
    total: int | None = None
    completed: int | None = None


Message = dict[str, Any]


class Backend(Protocol):
    model: str
    where: str  # the server, for messages

    def chat(self, messages: list[Message], *, schema: dict | None = None, tools: list[dict] | None = None,
             on_token: Callable[[str], None] | None = None, model: str | None = None,
             options: dict[str, Any] | None = None) -> ChatResult: ...

    def context_length(self, model: str | None = None) -> int | None: ...

    def models(self) -> list[str]: ...

    def version(self) -> str: ...

    def pull(self, model: str, on_progress: Callable[[PullProgress], None]) -> None: ...


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


def make_backend(cfg, model: str | None = None) -> Backend:
    """The configured backend for ``model`` (default: config, then the hardware tier's)."""
    name = model or cfg.model_name
    if cfg.backend == "openai":
        from tatlock.llm.openai_compat import OpenAICompatBackend

        return OpenAICompatBackend(cfg.base_url, name, timeout=cfg.timeout, api_key=cfg.api_key_value())
    from tatlock.llm.ollama import OllamaBackend

    return OllamaBackend(cfg.ollama_host, name, timeout=cfg.timeout, keep_alive=cfg.keep_alive)
