"""OpenAI-compatible chat servers (llama.cpp's llama-server, LM Studio, vLLM, Ollama's /v1).

Structured output goes through ``response_format`` json_schema, or, on llama.cpp's server, a
grammar of compact JSON (see grammar.py: no whitespace tokens before the answer); streaming
through SSE.
"""

from __future__ import annotations

import json
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
    char_cap,
    context_refusal,
)
from tatlock.llm.grammar import compact_gbnf, prefilled
from tatlock.llm.openai_stream import StreamReader
from tatlock.text import brief


def to_openai_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pipeline's messages (Ollama's shape) in OpenAI's: tool calls carry an id, a type
    and JSON-string arguments; each tool result names the call it answers."""
    out: list[dict[str, Any]] = []
    pending: list[str] = []  # ids of calls not yet answered, in order
    n = 0
    for m in messages:
        m = dict(m)
        if m.get("role") == "assistant" and m.get("tool_calls"):
            calls = []
            for tc in m["tool_calls"]:
                fn = tc.get("function", {})
                n += 1
                cid = tc.get("id") or f"call_{n}"
                args = fn.get("arguments", {})
                calls.append(
                    {
                        "id": cid,
                        "type": "function",
                        "function": {
                            "name": fn.get("name", ""),
                            "arguments": args if isinstance(args, str) else json.dumps(args),
                        },
                    }
                )
                pending.append(cid)
            m["tool_calls"] = calls
        elif m.get("role") == "tool":
            m.pop("tool_name", None)
            m.setdefault("tool_call_id", pending.pop(0) if pending else f"call_{n}")
        m.pop("images", None)
        out.append(m)
    return out


class OpenAICompatBackend:
    def __init__(
        self, base_url: str, model: str, *, timeout: float = 120.0, api_key: str | None = None
    ):
        self.base_url = base_url.rstrip("/")
        self.where = self.base_url
        self.model = model
        self.timeout = timeout
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.headers = headers
        self.http = self._client()
        self._ctx: int | bool | None = False  # False: not asked yet
        self._props_cache: dict[str, Any] | None = None

    def _client(self) -> httpx.Client:
        # plain http (a local server): no TLS, so no certificate store to load (40 ms of every
        # start)
        return httpx.Client(
            timeout=httpx.Timeout(self.timeout, connect=min(5.0, self.timeout)),
            headers=self.headers,
            verify=not self.base_url.startswith("http://"),
        )

    def close(self) -> None:
        self.http.close()

    def _fail(self, exc: BaseException, model: str) -> BackendError:
        if isinstance(exc, httpx.TimeoutException):
            return self._timeout()
        if isinstance(exc, httpx.ConnectError):
            return BackendError(
                f"the model server is not reachable at {self.base_url}",
                hint="start it (e.g. `llama-server`) or fix `base_url`",
                kind="unreachable",
            )
        if isinstance(exc, httpx.HTTPStatusError):
            status = exc.response.status_code
            error: Any = None
            try:
                error = exc.response.json().get("error")
                detail = brief(error.get("message") if isinstance(error, dict) else error)
            except (ValueError, AttributeError):
                detail = brief(exc.response.text, 200)
            refused = context_refusal(detail, error) if status in (400, 413) else None
            # too long for the server's window: FittedBackend retries a smaller one
            if refused is not None:
                refused.message = (
                    f"the model server at {self.base_url} refused a request too long for its "
                    f"context: {detail}"
                )
                return refused
            if status == 404:
                return BackendError(
                    f"model '{model}' is not available at {self.base_url}: {detail}", kind="model"
                )
            if status in (401, 403):
                return BackendError(
                    f"the server at {self.base_url} refused the API key ({status})",
                    hint="give tatlock the server's key (TATLOCK_API_KEY or the keyring)",
                    kind="auth",
                )
            return BackendError(
                f"the model server at {self.base_url} reported an error ({status}): {detail}"
            )
        if isinstance(exc, httpx.HTTPError):
            return BackendError(f"the connection to {self.base_url} failed: {brief(exc)}")
        return BackendError(f"unexpected reply from {self.base_url}: {brief(exc)}")

    def _timeout(self) -> BackendError:
        return BackendError(
            f"the model did not answer within {self.timeout:g} s ({self.base_url})",
            hint="raise `timeout` in config.toml or TATLOCK_TIMEOUT",
            kind="timeout",
        )

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
        body, prefix = self._request(name, messages, schema, tools, options)
        reader = StreamReader(
            ChatResult(content="", model=name), prefix, on_token, cap=char_cap(options)
        )
        guard = CallGuard(self.http, self.timeout, cancel)
        try:
            with (
                guard,
                self.http.stream("POST", f"{self.base_url}/chat/completions", json=body) as resp,
            ):
                if resp.status_code >= 400:
                    resp.read()
                    resp.raise_for_status()
                for line in resp.iter_lines():
                    # leaving the block closes the response: the server stops generating
                    if guard.reason is not None or not reader.read(line):
                        break
        except httpx.HTTPError as exc:
            if guard.reason is None:
                raise self._fail(exc, name) from None
        except (AttributeError, TypeError, KeyError) as exc:  # a chunk of an unexpected shape
            if guard.reason is None:
                raise BackendError(
                    f"unexpected reply from {self.base_url}: a streamed chunk could not be read "
                    f"({type(exc).__name__}: {brief(exc, 120)})"
                ) from None
        if guard.reason is not None:
            self.close()
            self.http = self._client()  # the old pool had its socket shut down
            if guard.reason == "cancelled":
                raise Cancelled(reader.text)
            raise self._timeout()
        return reader.finish()

    def _request(
        self,
        name: str,
        messages: list[dict[str, Any]],
        schema: dict[str, Any] | None,
        tools: list[dict[str, Any]] | None,
        options: Options | None,
    ) -> tuple[dict[str, Any], str]:
        """The request's body, and the text the server continues from (its reply starts with
        it: the head of the JSON, on llama-server, so the answer comes sooner)."""
        body: dict[str, Any] = {
            "model": name,
            "messages": to_openai_messages(messages),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        prefix = ""
        if schema is not None:
            grammar = compact_gbnf(schema) if self._props() else None
            prefilled_head = prefilled(schema) if grammar is not None else None
            # llama-server continues a last assistant message: the JSON's head is prompt
            if prefilled_head is not None:
                prefix, body["grammar"] = prefilled_head
                body["messages"] = [*body["messages"], {"role": "assistant", "content": prefix}]
            elif grammar is not None:
                body["grammar"] = grammar
            else:
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": "reply", "schema": schema, "strict": True},
                }
        if tools:
            body["tools"] = tools
        for key in ("temperature", "top_p", "seed", "max_tokens"):
            if options and options.get(key) is not None:
                body[key] = options[key]
        # "context" is the server's own setting (llama-server -c): nothing to send per call
        return body, prefix

    def _props(self) -> dict[str, Any]:
        """llama.cpp's server settings (``/props``), asked once; {} from any other server."""
        if self._props_cache is None:
            self._props_cache = {}
            root = self.base_url[:-3] if self.base_url.endswith("/v1") else self.base_url
            try:
                r = self.http.get(f"{root}/props", timeout=min(5.0, self.timeout))
                data = r.json() if r.status_code == 200 else {}
                if isinstance(data, dict) and isinstance(
                    data.get("default_generation_settings"), dict
                ):
                    self._props_cache = data
            except (httpx.HTTPError, ValueError):
                pass
        return self._props_cache

    def context_length(self, model: str | None = None) -> int | None:
        if self._ctx is False:
            self._ctx = None
            # the context allocated
            n = (self._props().get("default_generation_settings") or {}).get("n_ctx")
            if isinstance(n, int) and n > 0:
                self._ctx = n
            if self._ctx is None:
                try:  # vLLM: max_model_len
                    for m in (
                        self.http.get(f"{self.base_url}/models", timeout=5).json().get("data", [])
                    ):
                        n = m.get("max_model_len") or (m.get("meta") or {}).get("n_ctx_train")
                        if isinstance(n, int) and n > 0:
                            self._ctx = n
                            break
                except (httpx.HTTPError, ValueError, AttributeError):
                    pass
        return self._ctx or None

    def _listing(self) -> list[dict[str, Any]]:
        """The entries of ``/models``, as the server gives them."""
        try:
            r = self.http.get(f"{self.base_url}/models", timeout=10)
            r.raise_for_status()
            data = r.json().get("data", [])
        except httpx.HTTPError as exc:
            raise self._fail(exc, self.model) from None
        except (ValueError, AttributeError):
            raise BackendError(f"{self.base_url}/models did not return a list of models") from None
        return [m for m in data if isinstance(m, dict)] if isinstance(data, list) else []

    def models(self) -> list[str]:
        return [str(m.get("id", "")) for m in self._listing()]

    def answers_any_name(self) -> str | None:
        """The one model of a llama.cpp server, which answers whatever model name a request
        gives; None for any other server (vLLM, LM Studio, Ollama's /v1 and llama-server's
        router with several models answer only the names they list)."""
        try:
            entries = self._listing()
        except BackendError:
            return None
        if len(entries) == 1 and entries[0].get("owned_by") == "llamacpp":
            return str(entries[0].get("id", "")) or None
        return None

    def version(self) -> str:
        self.models()
        return "openai-compatible"

    def embed(
        self, texts: list[str], *, model: str, timeout: float | None = None
    ) -> list[list[float]]:
        """One vector per text from ``/embeddings`` (llama-server started with ``--embeddings``,
        vLLM, LM Studio). A server that has no embeddings says so as kind "unsupported"."""
        body = {"model": model, "input": list(texts), "encoding_format": "float"}
        limit = timeout or self.timeout
        try:
            r = self.http.post(
                f"{self.base_url}/embeddings",
                json=body,
                timeout=httpx.Timeout(limit, connect=min(5.0, limit)),
            )
            if r.status_code == 501:  # llama-server without --embeddings
                raise BackendError(
                    f"{self.base_url} serves no embeddings (start it with --embeddings)",
                    kind="unsupported",
                )
            if r.status_code in (404, 405) and "model" not in r.text.lower():  # no such route
                raise BackendError(
                    f"{self.base_url} serves no embeddings ({r.status_code})", kind="unsupported"
                )
            r.raise_for_status()
            data = sorted(r.json()["data"], key=lambda d: d.get("index", 0))
            vectors = [[float(x) for x in d["embedding"]] for d in data]
        except httpx.HTTPError as exc:
            raise self._fail(exc, model) from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise BackendError(
                f"{self.base_url}/embeddings gave no vectors", kind="unsupported"
            ) from None
        if len(vectors) != len(texts):
            raise BackendError(
                f"{self.base_url}/embeddings gave {len(vectors)} vectors for {len(texts)} texts"
            )
        return vectors

    def pull(
        self, model: str, on_progress: Callable[[PullProgress], None], cancel: Cancel | None = None
    ) -> None:
        raise BackendError(
            "this server is OpenAI-compatible: models are loaded with the server's own tools",
            hint='pulling works only with backend = "ollama"',
            kind="pull",
        )
