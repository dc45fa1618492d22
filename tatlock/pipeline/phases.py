"""What every step of a turn shares: its environment, phase accounting and the model call.

``TurnEnv`` is everything a turn needs from the core (settings, stores, the backend, the
clock); the pipeline never imports the core. ``Phase`` times one named phase and counts its
model calls and tokens; ``chat`` makes one model call inside a phase, with the turn's
cancel signal, and reports it as a ``ModelCall`` event (the debug log and the TUI's Debug
pane show its prompt and raw output).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tatlock.config import Config
from tatlock.events import Event, ModelCall, PhaseFinished, PhaseStarted
from tatlock.llm.base import Backend, Cancel, ChatResult
from tatlock.memory import summarise
from tatlock.memory.fit import Window
from tatlock.memory.summarise import summary_tokens  # noqa: F401 - re-exported (the butler, tests)
from tatlock.memory.tokens import Estimator
from tatlock.store.system import SystemStore
from tatlock.store.user import UserStore

# most tokens one call may generate, by phase; the phases that write the answer (assess, when it
# answers directly, and respond) take TurnEnv.answer_tokens() instead
MAX_TOKENS = {"select_tools": 300, "quality": 120, "summary": summarise.MAX_TOKENS}

Emit = Callable[[Event], None]


@dataclass
class TurnEnv:
    cfg: Config
    username: str
    interface: str
    system: SystemStore
    store: UserStore
    backend: Backend
    estimator: Estimator
    clock: Callable[[], dt.datetime]
    secrets: tuple[str, ...]
    budget: Callable[[], int]  # context budget in tokens (asks the server once)

    def answer_tokens(self) -> int:
        """Most tokens an answer may have: a quarter of the context window (1,024 on the low
        tier's 4,096, 2,048 on 8,192), within 512..4,096. A long answer asked for comes whole
        where the window allows it (at a fixed 500 it was cut off mid-sentence), while a small
        model that rambles on a slow CPU is stopped well within the call's deadline."""
        return max(512, min(4096, self.budget() // 4))

    def window(self) -> Window:
        """The context window every request of the turn must fit (tatlock.memory.fit)."""
        return Window(self.budget(), self.estimator)

    def options(self, temperature: float = 0.3, max_tokens: int | None = None) -> dict[str, Any]:
        """Backend-neutral options; every call is bounded (a small model can ramble forever)."""
        opts: dict[str, Any] = {"temperature": temperature}
        if max_tokens:
            opts["max_tokens"] = max_tokens
        if self.cfg.backend == "ollama":
            opts["context"] = self.budget()  # Ollama loads the model with this window
        return opts


class Phase:
    def __init__(self, name: str, emit: Emit):
        self.name, self.emit = name, emit
        self.t0 = time.perf_counter()
        self.calls = self.prompt_tokens = self.eval_tokens = 0
        emit(PhaseStarted(name))

    def add(self, r: ChatResult, prompt_estimate: int = 0) -> None:
        """Count one call. A server that does not report the prompt's size (Ollama after a full
        prompt-cache hit; any server whose stream we closed before its usage came) is counted
        at ``prompt_estimate``, so a call never shows as 0 tokens."""
        self.calls += 1
        self.prompt_tokens += r.prompt_tokens if r.prompt_tokens is not None else prompt_estimate
        self.eval_tokens += r.eval_tokens or 0

    def finish(self, **detail: Any) -> dict[str, Any]:
        ms = round((time.perf_counter() - self.t0) * 1000, 1)
        self.emit(
            PhaseFinished(self.name, ms, self.calls, self.prompt_tokens, self.eval_tokens, detail)
        )
        return {
            "name": self.name,
            "ms": ms,
            "model_calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "eval_tokens": self.eval_tokens,
        }


def chat(
    env: TurnEnv,
    phase: Phase,
    messages: list[dict],
    *,
    cancel: Cancel | None,
    schema: dict | None = None,
    tools: list[dict] | None = None,
    on_token: Callable[[str], None] | None = None,
    temperature: float = 0.3,
    max_tokens: int,
) -> ChatResult:
    r = env.backend.chat(
        messages,
        schema=schema,
        tools=tools,
        on_token=on_token,
        options=env.options(temperature, max_tokens),
        cancel=cancel,
    )
    # the calibration is FittedBackend's (from what was sent); a server that does not report the
    # prompt's size is counted at its estimate
    phase.add(r, env.estimator.messages(messages))
    phase.emit(
        ModelCall(
            phase.name,
            r.model,
            messages,
            r.content,
            round(r.ms, 1),
            r.prompt_tokens,
            r.eval_tokens,
            [{"name": c.name, "arguments": c.arguments} for c in r.tool_calls],
            schema is not None,
            [x["function"]["name"] for x in tools or ()],
            r.evaluated_tokens,
            None if r.first_token_ms is None else round(r.first_token_ms, 1),
        )
    )
    return r
