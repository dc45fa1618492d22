"""Reading an OpenAI-compatible server's streamed chat answer (server-sent events), one line at
a time: the answer's pieces, the tool calls assembled from their deltas, and the usage and
timings the server adds at the end. The backend (openai_compat.py) makes the request and owns
the connection; this only reads what comes back, so each part can be read on its own."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tatlock.llm.base import (
    BackendError,
    ChatResult,
    StopGeneration,
    Timer,
    ToolCall,
    context_refusal,
)
from tatlock.text import brief


@dataclass
class _PartialCall:
    """A tool call as its deltas arrive: the id once, the name and arguments in pieces."""

    id: str | None = None
    name: str = ""
    arguments: str = ""


@dataclass
class StreamReader:
    """The state of one streamed answer. ``read`` takes each line of the response body and says
    whether to go on; ``finish`` gives the result once the stream has ended."""

    result: ChatResult
    # the head of the JSON answer sent as the reply's start (llama-server continues from it)
    prefix: str = ""
    on_token: Callable[[str], None] | None = None
    # most characters to accept: a server that ignores max_tokens must not stream megabytes
    cap: int | None = None
    timer: Timer = field(default_factory=Timer)
    parts: list[str] = field(default_factory=list)
    calls: dict[int, _PartialCall] = field(default_factory=dict)
    streamed: int = 0  # characters of the answer so far
    pieces: int = 0  # content and tool-call deltas: a server streams about one token in each

    def read(self, line: str) -> bool:
        """Take one line of the event stream; False when the answer is over (the server said
        [DONE], the cap was reached, or the listener stopped it)."""
        if not line.startswith("data:"):
            return True
        data = line[5:].strip()
        if data == "[DONE]":
            return False
        try:
            chunk = json.loads(data)
        except ValueError:
            return True
        if not isinstance(chunk, dict):
            return True
        if "error" in chunk:
            raise _stream_error(chunk["error"])
        self._usage(chunk)
        return all(self._choice(choice) for choice in chunk.get("choices") or ())

    def _usage(self, chunk: dict[str, Any]) -> None:
        """The server's counts: its usage (prompt and answer tokens) and, from llama-server, the
        prompt tokens it actually evaluated (fewer when its prompt cache was reused)."""
        usage = chunk.get("usage")
        if usage:
            self.result.prompt_tokens = usage.get("prompt_tokens")
            self.result.eval_tokens = usage.get("completion_tokens")
        timings = chunk.get("timings")
        if isinstance(timings, dict) and isinstance(timings.get("prompt_n"), int):
            self.result.evaluated_tokens = timings["prompt_n"]

    def _choice(self, choice: dict[str, Any]) -> bool:
        delta = choice.get("delta") or {}
        piece = delta.get("content")
        if piece and self.prefix and not self.parts and not piece.lstrip().startswith("{"):
            # a server that does not repeat the prefilled head
            piece = self.prefix + piece
        if piece and not self._piece(piece):
            return False
        tool_deltas = delta.get("tool_calls") or ()
        self.pieces += len(tool_deltas)
        for tool_delta in tool_deltas:
            call = self.calls.setdefault(tool_delta.get("index", len(self.calls)), _PartialCall())
            call.id = tool_delta.get("id") or call.id
            function = tool_delta.get("function") or {}
            call.name += function.get("name") or ""
            call.arguments += function.get("arguments") or ""
        if choice.get("finish_reason"):
            # the server ended the answer ("stop", "length", "tool_calls"): read on, its usage
            # (and llama-server's timings) come in the chunks that follow
            self.result.done_reason = choice["finish_reason"]
        return True

    def _piece(self, piece: str) -> bool:
        """One piece of the answer, passed to the listener; False when it ends the answer."""
        self.timer.mark_first()
        self.parts.append(piece)
        self.pieces += 1
        self.streamed += len(piece)
        if self.cap is not None and self.streamed > self.cap:
            self.result.done_reason = "length"
            return False
        if self.on_token:
            try:
                self.on_token(piece)
            except StopGeneration:
                self.result.done_reason = "stopped"
                return False
        return True

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def finish(self) -> ChatResult:
        """The result of a stream that has ended: its text, its tool calls in order, its times."""
        result = self.result
        result.content = self.text
        if result.eval_tokens is None and self.pieces:
            # the stream was closed before the server's usage came (we stopped it): count what came
            result.eval_tokens = self.pieces
        for _, call in sorted(self.calls.items()):
            try:
                arguments = json.loads(call.arguments) if call.arguments.strip() else {}
            except ValueError:
                arguments = {}
            result.tool_calls.append(
                ToolCall(call.name, arguments if isinstance(arguments, dict) else {}, call.id)
            )
        result.ms = self.timer.ms
        result.first_token_ms = self.timer.first
        return result


def _stream_error(error: Any) -> BackendError:
    """The error a server sends inside the stream, as the backend's error."""
    message = brief(error.get("message") if isinstance(error, dict) else error)
    refused = context_refusal(message, error)
    if refused is not None:  # llama-server: the answer ran past the window
        refused.message = f"the model server ran out of context while answering: {message}"
        return refused
    return BackendError(f"the model server failed while answering: {message}")
