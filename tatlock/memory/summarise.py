"""One summary (a compact, an archive, a briefing) written in the shape memory needs: by the
model, else by the model once more with the shape enforced, else without the model.

1. The model writes it from its prompt. A reply in the expected sections, grounded in the
   source (its lines name things the source names), is used as it is.
2. Otherwise it is *repaired once*: the same prompt is sent again as structured output (one
   list of lines per section, a JSON schema the server enforces: Ollama's ``format``, a grammar
   on llama.cpp's server), so the shape cannot fail; its lines are checked the same way.
3. Otherwise (or when the model took longer than its deadline, where a second call would too)
   the caller's *extract* is used: the facts, names, numbers, dates and topics of the source,
   taken by rule (memory/extract.py). The summary is written once, so nothing is retried after
   every turn.

A call the housekeeping cancelled to make way for a turn raises ``Paused``; a server that cannot
be reached, refuses the key or lacks the model raises ``Unavailable``: then nothing is written and
the work is left for later.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tatlock.errors import BackendError
from tatlock.llm.base import Cancel, Cancelled, ChatResult, StopGeneration

__all__ = [
    "MAX_TOKENS",
    "Paused",
    "Shape",
    "TrackRecord",
    "Unavailable",
    "Written",
    "grounded",
    "summary_tokens",
    "write",
]

MAX_TOKENS = 1400  # most tokens one summary may take (a compact, an archive, a briefing)
REPAIR_NOTE = (
    "\n\nReply as JSON: one list of short lines for each section, in order, taken only from the "
    "text "
    "above. An empty list where a section has nothing."
)
MAX_LINES = 12
MAX_LINE_CHARS = 240
LOOP_REPEATS = 4  # the same line this often: a small model looping, stopped (it never ends well)
GROUNDED_PARTS = 3  # at least one line in this many names something the source names

_STOP = set(
    """that this with from have were what when where which there their they them then than your about
would could should into only also been being some such very just more most much many like over said says asked
told note noted none sure good well here will shall might must does done make made know knew want wants the and
for was his her you are not but had has she him its our out any can all one two who how why new now see get got
say per via yes""".split()
)
_TOKEN_RE = re.compile(r"[A-Za-zÀ-ÿ][\wÀ-ÿ'-]{2,}|\d[\d:./-]*")


def summary_tokens(window: int) -> int:
    """Most tokens a summary (a compact, the archive, the briefing) may have: 1,400, or a quarter
    of a smaller window (1,024 on the low tier's 4,096: with 1,400 a block's transcript had ~1,740
    tokens beside the instructions, and forty short messages, each behind a dated header of some
    twenty tokens on a digit-per-token tokenizer, had to be split into two requests)."""
    return min(MAX_TOKENS, max(512, window // 4))


class Paused(Exception):
    """The model call was cancelled (a turn needs the server): nothing written, try later."""


class Unavailable(Exception):
    """The model server cannot be used now (unreachable, refused, no such model): try later."""


@dataclass(frozen=True)
class Shape:
    """What a summary must look like: its sections in order, a ``normalise`` that returns the
    canonical text (or None when the reply lacks what is required), and a label for messages."""

    sections: tuple[str, ...]
    normalise: Callable[[str], str | None]
    what: str = "summary"

    def schema(self) -> dict[str, Any]:
        lines = {
            "type": "array",
            "items": {"type": "string", "maxLength": MAX_LINE_CHARS},
            "maxItems": MAX_LINES,
        }
        keys = [self.key(s) for s in self.sections]
        return {"type": "object", "properties": {k: lines for k in keys}, "required": keys}

    @staticmethod
    def key(section: str) -> str:
        return re.sub(r"\W+", "_", section.lower()).strip("_")

    def from_json(self, raw: str) -> str:
        """The structured reply as section text (what ``normalise`` reads)."""
        try:
            data = json.loads(raw)
        except ValueError:
            return ""
        if not isinstance(data, dict):
            return ""
        parts = []
        for s in self.sections:
            items = data.get(self.key(s))
            lines = (
                [" ".join(str(x).split()) for x in items if str(x).strip()]
                if isinstance(items, list)
                else []
            )
            if lines:
                parts.append(s + "\n" + "\n".join(f"- {ln.lstrip('-*• ')}" for ln in lines))
        return "\n\n".join(parts)


@dataclass
class Written:
    text: str
    how: str  # "model", "repaired" (the structured second try) or "extract" (no model)
    calls: list[ChatResult] = field(default_factory=list)
    why: str | None = None  # why the model's own reply was not used

    @property
    def prompt_tokens(self) -> int | None:
        return sum(c.prompt_tokens or 0 for c in self.calls) if self.calls else None

    @property
    def eval_tokens(self) -> int | None:
        return sum(c.eval_tokens or 0 for c in self.calls) if self.calls else None


def grounded(text: str, source: str, sections: tuple[str, ...] = ()) -> bool:
    """Enough of the summary's lines (a third) name something (a word of three letters or
    more, a number) that the source names too: a small model's invented record does not pass."""
    words = {t.strip(".-:/") for t in _TOKEN_RE.findall(source.lower())}
    words |= {_stem(w) for w in words}
    headers = {s.lower() for s in sections}
    lines = [ln.strip("-*• ").strip() for ln in text.splitlines()]
    content = [
        ln
        for ln in lines
        if ln
        and ln.lower().strip(" .") not in ("none", "n/a", "nothing")
        and ln.lower().rstrip(":") not in headers
        and not ln.isupper()
    ]
    if not content:
        return False
    hits = 0
    for ln in content:
        tokens = [t.lower().strip(".-:/") for t in _TOKEN_RE.findall(ln)]
        # a word counts in any form the source has it: "leeks" for "leek", "booked" for "book"
        if any(t and t not in _STOP and (t in words or _stem(t) in words) for t in tokens):
            hits += 1
    return hits >= 1 and hits * GROUNDED_PARTS >= len(content)


def _stem(word: str) -> str:
    return re.sub(r"(?:'s|e?s|ed|ing)$", "", word) if len(word) > 4 else word


class _LoopStop:
    """Stops a reply that repeats one line (a small model looping until its token cap)."""

    def __init__(self) -> None:
        self.buf = ""
        self.seen: dict[str, int] = {}

    def __call__(self, piece: str) -> None:
        self.buf += piece
        while "\n" in self.buf:
            line, self.buf = self.buf.split("\n", 1)
            key = re.sub(r"\d+", "#", line.strip())
            if len(key) >= 8:
                self.seen[key] = self.seen.get(key, 0) + 1
                if self.seen[key] >= LOOP_REPEATS:
                    raise StopGeneration


def _call(
    backend: Any,
    prompt: str,
    *,
    model: str | None,
    options: dict[str, Any],
    cancel: Cancel | None,
    schema: dict[str, Any] | None,
    on_call: Callable[[list[dict[str, Any]], ChatResult], None],
) -> ChatResult:
    messages = [{"role": "user", "content": prompt}]
    kwargs: dict[str, Any] = {"model": model, "options": options}
    if schema is not None:
        kwargs["schema"] = schema
    else:
        kwargs["on_token"] = _LoopStop()
    if cancel is not None:
        kwargs["cancel"] = cancel
    try:
        result = backend.chat(messages, **kwargs)
    except Cancelled:
        raise Paused() from None
    except BackendError as exc:
        if exc.kind == "timeout":
            raise
        raise Unavailable(str(exc)) from None
    on_call(messages, result)
    return result


def _why(shape: Shape, content: str, *, shaped: bool) -> str:
    shown = " ".join((content or "").split())[:80]
    said = f" (it began: {shown!r})" if shown else " (it was empty)"
    if not shaped:
        return f"the model's {shape.what} is not in the expected sections{said}"
    return f"the model's {shape.what} does not match what it summarises{said}"


def write(
    backend: Any,
    prompt: str,
    *,
    shape: Shape,
    source: str,
    extract: Callable[[], str],
    model: str | None = None,
    options: dict[str, Any] | None = None,
    cancel: Cancel | None = None,
    on_call: Callable[[list[dict[str, Any]], ChatResult], None] = lambda m, r: None,
    use_model: bool = True,
) -> Written:
    """The summary of ``source`` (see the module's docstring). ``extract`` makes it without a
    model; ``use_model=False`` goes straight to it."""
    calls: list[ChatResult] = []

    def fallback(why: str) -> Written:
        text = shape.normalise(extract())
        if text is None:  # an extract always has the sections; this is a bug, not a user's problem
            raise ValueError(f"the {shape.what} extract is not in the expected sections")
        return Written(text, "extract", calls, why)

    if not use_model:
        return fallback("made without the model")
    opts = dict(options or {})
    try:
        first = _call(
            backend, prompt, model=model, options=opts, cancel=cancel, schema=None, on_call=on_call
        )
    # the deadline: the model is too slow for this; a retry would be too
    except BackendError as exc:
        return fallback(f"the model did not finish the {shape.what} in time ({exc.message})")
    calls.append(first)
    text = shape.normalise(first.content)
    if text is not None and grounded(text, source, shape.sections):
        return Written(text, "model", calls)
    why = _why(shape, first.content, shaped=text is not None)
    try:
        second = _call(
            backend,
            prompt + REPAIR_NOTE,
            model=model,
            options=opts,
            cancel=cancel,
            schema=shape.schema(),
            on_call=on_call,
        )
    except BackendError as exc:
        return fallback(f"{why}; the repair did not finish in time ({exc.message})")
    calls.append(second)
    repaired = shape.normalise(shape.from_json(second.content))
    if repaired is not None and grounded(repaired, source, shape.sections):
        return Written(repaired, "repaired", calls, why)
    return fallback(f"{why}, and so is its repair")


class TrackRecord:
    """How a model has done at summaries, kept beside the data (``summary_record.json``), so
    that a model that cannot write them (SmolLM2: never in 53 tries) is not asked every time,
    each time costing minutes of a small machine's processor for nothing: after ``IN_A_ROW``
    unusable summaries in a row, housekeeping writes the extract without asking the model, and
    asks it again only once in ``RETRY_EVERY`` summaries (a better model, or a lucky day, is
    noticed). Summaries asked for by hand (``tatlock memory compact``) always ask the model."""

    IN_A_ROW = 3
    RETRY_EVERY = 10
    _lock = threading.Lock()

    def __init__(self, path: Path, model: str):
        self.path, self.model = path, model

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _entry(self, data: dict[str, Any]) -> dict[str, int]:
        entry = data.get(self.model)
        if not isinstance(entry, dict):
            entry = {}
        return {"unusable": int(entry.get("unusable", 0)), "skipped": int(entry.get("skipped", 0))}

    def worth_asking(self) -> bool:
        with self._lock:
            entry = self._entry(self._load())
        return entry["unusable"] < self.IN_A_ROW or entry["skipped"] >= self.RETRY_EVERY - 1

    def note(self, how: str, *, asked: bool) -> None:
        """One summary written: ``how`` (model, repaired, extract), and whether the model was
        asked."""
        from tatlock.files import write_private

        with self._lock:
            data = self._load()
            entry = self._entry(data)
            if not asked:
                entry["skipped"] += 1
            elif how == "extract":
                entry = {"unusable": entry["unusable"] + 1, "skipped": 0}
            else:
                entry = {"unusable": 0, "skipped": 0}
            data[self.model] = entry
            try:
                write_private(self.path, json.dumps(data, indent=1))
            except OSError:
                pass  # a record is an economy; never fail a summary over it
