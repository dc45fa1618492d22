"""Every model request fits the context window, whoever makes it.

A request is its prompt plus the tokens its answer may take (``max_tokens``): both share the
window (``context_size``, or the smaller of the tier's and the server's). Callers shape their
prompts to fit (the question cut to its share, the memory to what is left, a compaction's
transcript to the room, the archive merge split into several requests); ``FittedBackend``, the
one place every model call goes through, checks each request before it is sent:

- the answer's allowance is kept (at most half the window), and the prompt is counted with
  ``Estimator.bound`` (by kind of character, never below the calibrated average);
- a prompt that still does not fit is cut, the longest texts first, each keeping its head and
  its end with a note of what was left out (the instructions come first and the question last);
- a server that refuses a request for its length (llama-server says how many tokens it
  counted, and its window) gets a smaller one, and the estimate counts more strictly from then;
- the calibration learns from what was sent, not from what the caller first wrote.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tatlock.llm.base import Backend, BackendError, ChatResult, ContextExceeded, Options
from tatlock.memory.tokens import BOUND_PER_MESSAGE, BOUND_PER_REQUEST, Estimator

log = logging.getLogger(__name__)

MARGIN_SHARE = 0.04  # of the window, kept free beside the estimate
MARGIN_MIN = 24
MAX_ANSWER_SHARE = 0.5  # an answer may never take more of the window than this
MIN_PROMPT = 48  # tokens of content below which a request is not worth sending
RETRIES = 2  # smaller requests after a server's refusal for length
HEAD_SHARE = 0.7  # of a cut text, kept from its start (the rest from its end)


def cut_note(chars: int) -> str:
    return f"\n[… {chars:,} characters left out here to fit the model's context …]\n"


@dataclass
class Part:
    """A text that shares a room with others (``Window.squeeze``): it is cut to no less than
    ``floor`` tokens, keeping ``head`` of what it keeps from its start and the rest from its end."""

    text: str
    floor: int = 0
    head: float = HEAD_SHARE


class Window:
    """One model's context window, as one request sees it."""

    def __init__(self, size: int, estimator: Estimator):
        self.size = max(1, int(size))
        self.est = estimator

    @property
    def margin(self) -> int:
        return max(MARGIN_MIN, int(self.size * MARGIN_SHARE))

    def allowance(self, max_tokens: int | None) -> int:
        """The tokens the answer keeps: as asked (a quarter of the window when not said), at
        most half of the window."""
        asked = max_tokens if isinstance(max_tokens, int) and max_tokens > 0 else self.size // 4
        return max(1, min(asked, int(self.size * MAX_ANSWER_SHARE)))

    def room(self, max_tokens: int | None) -> int:
        """Tokens the whole prompt (tools offered included) may take beside the answer's
        allowance."""
        return self.size - self.allowance(max_tokens) - self.margin

    def text_room(self, max_tokens: int | None, *fixed: str) -> int:
        """Tokens left for the variable part of a one-message prompt whose other parts are
        ``fixed`` (its instructions)."""
        used = BOUND_PER_REQUEST + BOUND_PER_MESSAGE + sum(self.est.bound(t) for t in fixed)
        return self.room(max_tokens) - used

    def cut(
        self,
        text: str,
        tokens: int,
        *,
        head: float = HEAD_SHARE,
        note: Callable[[int], str] = cut_note,
    ) -> str:
        """``text`` within ``tokens``: whole when it fits, else its head and its end around a
        note of how much was left out."""
        est = self.est
        if est.bound(text) <= tokens:
            return text
        tokens -= est.bound(note(len(text))) + 1
        if tokens <= 0:
            return note(len(text)).strip()
        first = est.prefix(text, int(tokens * head))
        last = est.prefix(text[first:][::-1], tokens - est.bound(text[:first]))
        end = len(text) - last
        return text[:first] + note(end - first) + text[end:]

    def squeeze(self, parts: list[Part], tokens: int) -> list[str]:
        """The parts' texts within ``tokens`` together: cut in the order given, the first first,
        each down to its floor at most, until they fit."""
        est = self.est
        out = [p.text for p in parts]
        costs = [est.bound(t) for t in out]
        over = sum(costs) - tokens
        for i, p in enumerate(parts):
            if over <= 0:
                break
            target = max(p.floor, costs[i] - over)
            if target < costs[i]:
                out[i] = self.cut(p.text, max(0, target), head=p.head)
                over -= costs[i] - est.bound(out[i])
        return out

    def common_cut(self, texts: list[str], tokens: int) -> list[str]:
        """``texts`` within ``tokens`` together, the longest cut to one common length (short ones
        stay whole)."""
        est = self.est
        costs = [est.bound(t) + 2 for t in texts]  # each on a line of its own, with a bullet
        if sum(costs) <= tokens or not texts:
            return texts
        lo, hi = 0, max(costs)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if sum(min(c, mid) for c in costs) <= tokens:
                lo = mid
            else:
                hi = mid - 1
        return [
            t if c <= lo else self.cut(t, max(0, lo - 2)) for t, c in zip(texts, costs, strict=True)
        ]

    def fit(
        self, messages: list[dict[str, Any]], tools: list[dict] | None, room: int
    ) -> list[dict[str, Any]]:
        """``messages`` within ``room`` tokens: the longest contents are cut to one common length
        (the largest that fits), each keeping its head and its end. Raises ContextExceeded when
        even that cannot fit (the window is too small for the request's fixed parts)."""
        est = self.est
        if est.bound_messages(messages, tools) <= room:
            return messages
        texts = [str(m.get("content") or "") for m in messages]
        costs = [est.bound(t) for t in texts]
        fixed = est.bound_messages([{**m, "content": ""} for m in messages], tools)
        available = room - fixed
        if available < MIN_PROMPT:
            raise ContextExceeded(
                f"the model's context ({self.size:,} tokens) is too small for this request",
                hint="raise context_size (TATLOCK_CONTEXT_SIZE) or load the model "
                "with a "
                "larger context",
            )
        # the cut texts carry notes, and bound is an estimate: check, and tighten
        for _ in range(6):
            lo, hi = 0, max(costs)
            while lo < hi:  # the largest common cap
                mid = (lo + hi + 1) // 2
                if sum(min(c, mid) for c in costs) <= available:
                    lo = mid
                else:
                    hi = mid - 1
            out = [
                m if c <= lo else {**m, "content": self.cut(t, lo)}
                for m, t, c in zip(messages, texts, costs, strict=True)
            ]
            if est.bound_messages(out, tools) <= room:
                return out
            available = int(available * 0.9)
        raise ContextExceeded(
            f"a request could not be cut to fit the model's context ({self.size:,} tokens)"
        )


class FittedBackend:
    """A backend whose every request fits the window (see the module's docstring).

    ``size`` gives the window (asked when a call is made: the butler's budget asks the server
    once); ``estimator`` gives the calibrated estimator. A server's own smaller window, learnt
    from a refusal, wins from then on."""

    def __init__(self, inner: Backend, size: Callable[[], int], estimator: Callable[[], Estimator]):
        self.inner = inner
        self._size = size
        self._estimator = estimator
        self.server_size: int | None = None  # the window a server said it has, when smaller
        self.cuts = 0  # requests that had to be cut here (their callers should have fitted them)

    @property
    def model(self) -> str:
        return self.inner.model

    @model.setter
    def model(self, value: str) -> None:
        self.inner.model = value

    @property
    def where(self) -> str:
        return self.inner.where

    @where.setter
    def where(self, value: str) -> None:
        self.inner.where = value

    @property
    def estimator(self) -> Estimator:
        return self._estimator()

    def window(self) -> Window:
        size = self._size()
        if self.server_size:
            size = min(size, self.server_size)
        return Window(size, self.estimator)

    def chat(
        self,
        messages: list[dict],
        *,
        schema: dict | None = None,
        tools: list[dict] | None = None,
        on_token: Callable[[str], None] | None = None,
        model: str | None = None,
        options: Options | None = None,
        cancel: Any = None,
    ) -> ChatResult:
        est = self.estimator
        streamed = False

        def relay(piece: str) -> None:
            nonlocal streamed
            streamed = True
            if on_token is not None:
                on_token(piece)

        for attempt in range(RETRIES + 1):
            window = self.window()
            allowance = window.allowance((options or {}).get("max_tokens"))
            room = window.room(allowance)
            sent = window.fit(messages, tools, room)
            if sent is not messages:
                self.cuts += 1
                log.warning(
                    "a %s-token request was cut to fit the model's context (%s tokens)",
                    est.bound_messages(messages, tools),
                    window.size,
                )
            estimated = est.bound_messages(sent, tools)
            opts = {**(options or {}), "max_tokens": allowance}
            try:
                result = self.inner.chat(
                    sent,
                    schema=schema,
                    tools=tools,
                    on_token=relay if on_token else None,
                    model=model,
                    options=opts,
                    cancel=cancel,
                )
            except ContextExceeded as exc:
                if streamed or attempt == RETRIES:
                    raise
                self._learn(exc, estimated, window.size)
                continue
            if result.prompt_tokens and result.prompt_tokens > estimated:
                # a server that cut it silently, or nearly
                est.undercounted(estimated, result.prompt_tokens)
            est.calibrate(sent, result.prompt_tokens, ceiling=room)
            return result
        raise BackendError(
            "the request did not fit the model's context"
        )  # pragma: no cover - the loop raises

    def _learn(self, exc: ContextExceeded, estimated: int, size: int) -> None:
        """After a refusal for length: the server's window if it said, and a stricter count."""
        if exc.context and exc.context < size:
            self.server_size = exc.context
        if exc.prompt_tokens:
            self.estimator.undercounted(estimated, exc.prompt_tokens)
        else:  # nothing said: a quarter stricter each time
            self.estimator.strictness = min(8.0, self.estimator.strictness * 1.25)
        log.warning(
            "the model server refused a request for its length (%s); retrying a smaller one",
            exc.message,
        )

    def context_length(self, model: str | None = None) -> int | None:
        return self.inner.context_length(model)

    def models(self) -> list[str]:
        return self.inner.models()

    def version(self) -> str:
        return self.inner.version()

    def pull(self, model: str, on_progress: Callable[..., None], cancel: Any = None) -> None:
        self.inner.pull(model, on_progress, cancel)

    def close(self) -> None:
        self.inner.close()

    # anything else a backend has (tests look at its client)
    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
