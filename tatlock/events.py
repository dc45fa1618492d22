"""The typed events of one turn and of the background work after it.

Every view (ask's stream, -v, --json, the debug log, the TUI's panes, MCP) is a reader of this
one stream; none re-derives what an event says. Every event carries the id of the turn it
belongs to (``turn_id``; background events carry the id of the turn that scheduled them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Event:
    # keyword-only with a default, so subclasses can still declare positional fields
    turn_id: str = field(default="", kw_only=True)

    @property
    def type(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass
class ConversationReady(Event):
    conversation_id: int
    new: bool


@dataclass
class MessageStored(Event):
    message_id: int
    message_number: int
    role: str
    author: str


@dataclass
class PhaseStarted(Event):
    phase: str


@dataclass
class PhaseFinished(Event):
    phase: str
    ms: float
    model_calls: int = 0
    prompt_tokens: int = 0
    eval_tokens: int = 0
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class ModelCall(Event):
    """One request to the model: what went in and what came out (for the debug log)."""

    phase: str
    model: str
    messages: list[dict[str, Any]]
    raw: str
    ms: float
    prompt_tokens: int | None
    eval_tokens: int | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    schema: bool = False
    tools: list[str] = field(default_factory=list)
    # prompt tokens the server actually evaluated (fewer than prompt_tokens when it reused its
    # prompt cache; None when it does not say)
    evaluated_tokens: int | None = None
    first_token_ms: float | None = None


@dataclass
class Decision(Event):
    route: str  # DIRECT | TOOLS_NEEDED | CAPABILITY_GUARD
    guard: str | None
    source: str  # model | rules | model+rules | fallback
    tools: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    parsed: dict[str, Any] = field(default_factory=dict)


@dataclass
class FactsKept(Event):
    """Facts read from the user's message and kept (``memory/facts.py``), before any model call:
    each {"key", "about", "attribute", "value", "status" (new | changed | same), "before"}."""

    message_id: int
    facts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class GuardFired(Event):
    reason: str
    rule: str


@dataclass
class AnswerToken(Event):
    text: str


@dataclass
class AnswerReplaced(Event):
    """A streamed answer was withdrawn by the quality gate; ``text`` replaces it."""

    text: str
    reason: str


@dataclass
class ToolCalled(Event):
    name: str
    arguments: dict[str, Any]
    round: int


@dataclass
class ToolResult(Event):
    name: str
    ok: bool
    ms: float
    result: Any


@dataclass
class QualityVerdict(Event):
    verdict: str  # APPROVED | FALLBACK
    fallback_type: str | None
    checks: list[str]
    by_model: bool


@dataclass
class CompactionStarted(Event):
    conversation_id: int
    from_message: int
    up_to_message: int


@dataclass
class CompactionFinished(Event):
    conversation_id: int
    from_message: int
    up_to_message: int
    ms: float
    prompt_tokens: int | None
    eval_tokens: int | None
    # who wrote it: "model", "repaired" (the model's second, structured try) or "extract" (no
    # model: the block's facts taken by rule), and why the model's own reply was not used
    how: str = "model"
    why: str | None = None


@dataclass
class CompactionFailed(Event):
    conversation_id: int
    reason: str


@dataclass
class Notice(Event):
    """Something went wrong on the side, and the turn goes on (e.g. no summary of recent
    conversations could be made)."""

    message: str
    kind: str = "notice"


@dataclass
class ErrorEvent(Event):
    """The turn failed and ends here (the user's message is stored; what was shown of the
    answer too, marked as failed). ``hint`` says what to do, where the core knows."""

    message: str
    kind: str = "backend"
    hint: str | None = None


@dataclass
class TurnCancelled(Event):
    """The turn was cancelled (``Turn.cancel()``, Ctrl-C, Esc): it ends here. ``partial`` is the
    part of the answer shown before, stored with ``"cancelled": true``."""

    conversation_id: int
    partial: str
    user_message_id: int | None
    reply_message_id: int | None
    ms: float


@dataclass
class PullProgress(Event):
    """Progress of a model download (``butler.models.pull``)."""

    model: str
    status: str
    total: int | None = None
    completed: int | None = None


@dataclass
class TurnFinished(Event):
    conversation_id: int
    answer: str
    route: str
    guard: str | None
    tools: list[str]
    quality: str
    topics: list[str]
    phases: list[dict[str, Any]]
    user_message_id: int
    reply_message_id: int | None
    ms: float
