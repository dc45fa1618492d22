"""Ollama's native API through the official client (own Client, explicit timeout)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tatlock.llm.base import (
    BackendError,
    CallGuard,
    Cancel,
    Cancelled,
    ChatResult,
    Options,
    PullProgress,
    StopGeneration,
    Timer,
    ToolCall,
    char_cap,
    context_refusal,
)
from tatlock.text import brief


def ollama_options(options: Options | None) -> dict[str, Any] | None:
    """Backend-neutral options in Ollama's names."""
    if not options:
        return None
    out: dict[str, Any] = {}
    for key, value in options.items():
        if value is None:
            continue
        if key == "max_tokens":
            out["num_predict"] = value
        elif key == "context":
            out["num_ctx"] = value
        else:
            out[key] = value
    return out or None


class OllamaBackend:
    def __init__(
        self, host: str, model: str, *, timeout: float = 120.0, keep_alive: str | None = "30m"
    ):
        import ollama

        self.host = host
        self.where = host
        self.model = model
        self.timeout = timeout
        self.keep_alive = keep_alive
        self._ollama = ollama
        self.client = self._client()
        self._ctx_cache: dict[str, int | None] = {}

    def _client(self) -> Any:
        # plain http (a local server): no TLS, so no certificate store to load (40 ms of every
        # start)
        return self._ollama.Client(
            host=self.host,
            timeout=httpx.Timeout(self.timeout, connect=min(5.0, self.timeout)),
            verify=not self.host.startswith("http://"),
        )

    def close(self) -> None:
        try:
            self.client._client.close()
        except Exception:
            pass

    # -- errors ----------------------------------------------------------------------------

    def _fail(self, exc: BaseException, model: str) -> BackendError:
        if isinstance(exc, self._ollama.ResponseError):
            text = brief(exc.error or "")
            if exc.status_code == 404 or "not found" in text.lower():
                return BackendError(
                    f"model '{model}' is not available at {self.host}",
                    hint=f"pull it with `ollama pull {model}`",
                    kind="model",
                )
            refused = context_refusal(text)
            if refused is not None:  # an input longer than the window (Ollama with truncation off)
                refused.message = (
                    f"Ollama at {self.host} refused a request too long for its context: {text}"
                )
                return refused
            if exc.status_code == -1:
                return BackendError(f"the model server failed while answering: {text}")
            return BackendError(
                f"Ollama at {self.host} reported an error ({exc.status_code}): {text}"
            )
        if isinstance(exc, httpx.TimeoutException):
            return self._timeout()
        if isinstance(exc, (ConnectionError, httpx.ConnectError)):
            return BackendError(
                f"Ollama is not reachable at {self.host}",
                hint="start it with `ollama serve`",
                kind="unreachable",
            )
        if isinstance(exc, httpx.HTTPError):
            return BackendError(f"the connection to Ollama at {self.host} failed: {brief(exc)}")
        # the client could not read what came
        if isinstance(exc, (AttributeError, TypeError, KeyError)):
            return BackendError(
                f"unexpected reply from Ollama at {self.host}: the client could not read it "
                f"({type(exc).__name__}: {brief(exc, 120)})"
            )
        return BackendError(f"unexpected reply from Ollama at {self.host}: {brief(exc)}")

    def _timeout(self) -> BackendError:
        return BackendError(
            f"the model did not answer within {self.timeout:g} s (Ollama at {self.host})",
            hint="raise `timeout` in config.toml or TATLOCK_TIMEOUT",
            kind="timeout",
        )

    def _errors(self) -> tuple[type[BaseException], ...]:
        # (the client's own parsing fails on odd replies: an error record whose text is JSON but not
        # an object makes ResponseError raise AttributeError)
        return (
            self._ollama.ResponseError,
            ConnectionError,
            httpx.HTTPError,
            ValueError,
            AttributeError,
            TypeError,
            KeyError,
        )

    # -- protocol --------------------------------------------------------------------------

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        schema: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        on_token: Callable[[str], None] | None = None,
        model: str | None = None,
        options: Options | None = None,
        cancel: Cancel | None = None,
    ) -> ChatResult:
        name = model or self.model
        timer = Timer()
        parts: list[str] = []
        calls: list[ToolCall] = []
        result = ChatResult(content="", model=name)
        guard = CallGuard(self.client._client, self.timeout, cancel)
        cap, streamed = char_cap(options), 0
        pieces = 0  # Ollama streams one token per record
        try:
            with guard:
                stream = self.client.chat(
                    model=name,
                    messages=messages,
                    stream=True,
                    format=schema,
                    tools=tools or None,
                    options=ollama_options(options),
                    keep_alive=self.keep_alive,
                )
                for chunk in stream:
                    # the deadline or a cancel came while chunks were still buffered
                    if guard.reason is not None:
                        break
                    msg = chunk.message
                    if msg is not None:
                        if msg.content:
                            timer.mark_first()
                            parts.append(msg.content)
                            pieces += 1
                            streamed += len(msg.content)
                            if cap is not None and streamed > cap:  # the server ignores max_tokens
                                result.done_reason = "length"
                                stream.close()
                                break
                            if on_token:
                                try:
                                    on_token(msg.content)
                                except StopGeneration:
                                    result.done_reason = "stopped"
                                    # closes the HTTP response: the server stops generating
                                    stream.close()
                                    break
                        for tc in msg.tool_calls or ():
                            args = tc.function.arguments
                            calls.append(
                                ToolCall(
                                    tc.function.name, dict(args) if isinstance(args, dict) else {}
                                )
                            )
                    if chunk.done:
                        result.prompt_tokens = chunk.prompt_eval_count
                        result.evaluated_tokens = chunk.prompt_eval_count
                        result.eval_tokens = chunk.eval_count
                        result.done_reason = chunk.done_reason
        except self._errors() as exc:
            if guard.reason is None:
                raise self._fail(exc, name) from None
        if guard.reason is not None:
            self._reset()
            if guard.reason == "cancelled":
                raise Cancelled("".join(parts))
            raise self._timeout()
        result.content = "".join(parts)
        # stopped before the final record: count what came
        if result.eval_tokens is None and pieces:
            result.eval_tokens = pieces
        result.tool_calls = calls
        result.ms = timer.ms
        result.first_token_ms = timer.first
        return result

    def _reset(self) -> None:
        """After an aborted call: a fresh connection pool (the old one had its socket shut down)."""
        self.close()
        self.client = self._client()

    def context_length(self, model: str | None = None) -> int | None:
        name = model or self.model
        if name not in self._ctx_cache:
            try:
                info = self.client.show(name).modelinfo or {}
            except self._errors() as exc:
                raise self._fail(exc, name) from None
            found = [
                v for k, v in info.items() if k.endswith(".context_length") and isinstance(v, int)
            ]
            self._ctx_cache[name] = found[0] if found else None
        return self._ctx_cache[name]

    def models(self) -> list[str]:
        try:
            return [m.model for m in self.client.list().models if m.model]
        except self._errors() as exc:
            raise self._fail(exc, self.model) from None

    def version(self) -> str:
        try:
            r = httpx.get(f"{self.host}/api/version", timeout=min(5.0, self.timeout))
            r.raise_for_status()
            return str(r.json().get("version", "?"))
        except (httpx.HTTPError, ValueError) as exc:
            raise self._fail(exc, self.model) from None

    def embed(
        self, texts: list[str], *, model: str, timeout: float | None = None
    ) -> list[list[float]]:
        """One vector per text from ``/api/embed`` (texts past the model's context are truncated
        by the server). A model that is not pulled is a BackendError of kind "model"."""
        guard = CallGuard(self.client._client, timeout or self.timeout, None)
        try:
            with guard:
                reply = self.client.embed(
                    model=model, input=list(texts), truncate=True, keep_alive=self.keep_alive
                )
                vectors = [[float(x) for x in v] for v in reply.embeddings or []]
        except self._errors() as exc:
            if guard.reason is None:
                raise self._fail(exc, model) from None
            vectors = []
        if guard.reason is not None:
            self._reset()
            raise self._timeout()
        if len(vectors) != len(texts):
            raise BackendError(
                f"Ollama at {self.host} gave {len(vectors)} vectors for {len(texts)} texts"
            )
        return vectors

    def pull(
        self, model: str, on_progress: Callable[[PullProgress], None], cancel: Cancel | None = None
    ) -> None:
        # a pull takes minutes: no overall deadline, only the per-read timeout and the cancel
        guard = CallGuard(self.client._client, None, cancel)
        try:
            with guard:
                for p in self.client.pull(model, stream=True):
                    on_progress(PullProgress(model, p.status or "", p.total, p.completed))
        except self._errors() as exc:
            if guard.reason is None:
                if isinstance(exc, self._ollama.ResponseError):
                    raise BackendError(f"could not pull '{model}': {brief(exc.error)}") from None
                raise self._fail(exc, model) from None
        if guard.reason is not None:
            self._reset()
            raise Cancelled("")
