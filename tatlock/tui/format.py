"""Words and numbers as the TUI shows them: reply footers, times, sizes, speeds, event lines.

Pure functions (no Textual), so they are cheap to test and shared by the widgets. Every text
that came from a model, a user or a file goes through :func:`tatlock.text.inert` before it is
shown, so an escape sequence in it is displayed, never obeyed.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from tatlock.events import (
    AnswerReplaced,
    CompactionFailed,
    CompactionFinished,
    CompactionStarted,
    ConversationReady,
    Decision,
    ErrorEvent,
    Event,
    FactsKept,
    GuardFired,
    MessageStored,
    ModelCall,
    Notice,
    PhaseFinished,
    PhaseStarted,
    PullProgress,
    QualityVerdict,
    ToolCalled,
    ToolResult,
    TurnCancelled,
    TurnFinished,
)
from tatlock.text import inert, inert_line
from tatlock.timeutil import parse

_UNITS = ("B", "KB", "MB", "GB", "TB")


def one_line(text: Any, room: int = 80) -> str:
    """``text`` flattened to one inert line of at most ``room`` characters."""
    flat = " ".join(inert_line(str(text)).split())
    return flat if len(flat) <= room else flat[: max(1, room - 1)] + "…"


def seconds(ms: float | int | None) -> str:
    if ms is None:
        return "?"
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def size(n: int | float | None) -> str:
    if n is None:
        return "?"
    value = float(n)
    for unit in _UNITS:
        if value < 1000 or unit == _UNITS[-1]:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"  # pragma: no cover - the loop always returns


def clock_time(stamp: str, now: dt.datetime | None = None) -> str:
    """A message's time: 14:03 today, "Mar 02 14:03" before, with the year when it differs."""
    try:
        moment = parse(stamp).astimezone()
    except (TypeError, ValueError):
        return one_line(stamp, 20)
    now = (now or dt.datetime.now().astimezone()).astimezone()
    if moment.date() == now.date():
        return moment.strftime("%H:%M")
    if moment.year == now.year:
        return moment.strftime("%b %d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M")


def ago(stamp: str, now: dt.datetime | None = None) -> str:
    """How long ago, in one short word: "now", "5 min", "3 h", "2 d", else the date."""
    try:
        moment = parse(stamp)
    except (TypeError, ValueError):
        return one_line(stamp, 20)
    now = now or dt.datetime.now(dt.UTC)
    secs = (now - moment).total_seconds()
    if secs < 60:
        return "now"
    if secs < 3600:
        return f"{int(secs // 60)} min ago"
    if secs < 86400:
        return f"{int(secs // 3600)} h ago"
    if secs < 7 * 86400:
        return f"{int(secs // 86400)} d ago"
    return moment.astimezone().strftime("%Y-%m-%d")


def calls_of(phases: Iterable[dict[str, Any]]) -> int:
    return sum(int(p.get("model_calls") or 0) for p in phases if isinstance(p, dict))


def reply_footer(
    *,
    route: str | None,
    guard: str | None,
    tools: Iterable[str],
    phases: Iterable[dict[str, Any]],
    ms: float | None,
    quality: str | None = None,
) -> str:
    """The quiet line under a reply: route, guard, tools, model calls, time."""
    phases = list(phases)
    parts = [route or "no route"]
    if guard:
        parts.append(f"guard {guard}")
    tools = list(tools)
    if tools:
        parts.append("tools " + ", ".join(tools))
    calls = calls_of(phases)
    parts.append(f"{calls} model call{'' if calls == 1 else 's'}")
    if ms is None:
        ms = sum(float(p.get("ms") or 0) for p in phases if isinstance(p, dict))
    parts.append(seconds(ms))
    if quality and quality != "APPROVED":
        parts.append(quality.lower())
    return one_line(" · ".join(parts), 200)


def stored_footer(meta: dict[str, Any]) -> str:
    """The footer of a reply read back from memory (its metadata)."""
    return reply_footer(
        route=meta.get("route"),
        guard=meta.get("guard"),
        tools=meta.get("tools") or [],
        phases=meta.get("phases") or [],
        ms=None,
        quality=meta.get("quality"),
    )


def stored_marks(meta: dict[str, Any]) -> list[str]:
    """What a stored message is marked as: cancelled, failed, withdrawn by the quality gate;
    superseded (answered again, or the question edited: "regenerated", "edited")."""
    marks = []
    superseded = meta.get("superseded")
    if isinstance(superseded, dict):
        marks.append("edited" if superseded.get("how") == "edited" else "regenerated")
    if meta.get("cancelled"):
        marks.append("cancelled")
    if meta.get("failed"):
        marks.append("failed")
    if str(meta.get("quality") or "").startswith("FALLBACK"):
        marks.append("withdrawn")
    return marks


def tokens(prompt: int | None, output: int | None) -> str:
    if prompt is None and output is None:
        return ""
    return f"{prompt if prompt is not None else '?'}→{output if output is not None else '?'} tok"


def event_line(ev: Event) -> str | None:
    """One line of the Debug pane for an event (None for the ones it does not list)."""
    if isinstance(ev, ConversationReady):
        return f"conversation {ev.conversation_id}{' (new)' if ev.new else ''}"
    if isinstance(ev, MessageStored):
        return f"stored #{ev.message_number} ({ev.role}, {one_line(ev.author, 30)})"
    if isinstance(ev, PhaseStarted):
        return f"▸ {ev.phase}"
    if isinstance(ev, PhaseFinished):
        bits = [f"✓ {ev.phase} {seconds(ev.ms)}"]
        if ev.model_calls:
            bits.append(f"{ev.model_calls} call{'' if ev.model_calls == 1 else 's'}")
        tok = tokens(ev.prompt_tokens or None, ev.eval_tokens or None)
        if tok:
            bits.append(tok)
        detail = {
            k: v for k, v in (ev.detail or {}).items() if v not in (None, "", [], {}, True, False)
        }
        if detail:
            bits.append(one_line(", ".join(f"{k} {v}" for k, v in detail.items()), 60))
        return " · ".join(bits)
    if isinstance(ev, ModelCall):
        tok = tokens(ev.prompt_tokens, ev.eval_tokens)
        return (
            f"» model call: {ev.phase} · {one_line(ev.model, 30)} · "
            f"{seconds(ev.ms)}{' · ' + tok if tok else ''}"
        )
    if isinstance(ev, Decision):
        extra = f" · tools {', '.join(ev.tools)}" if ev.tools else ""
        extra += f" · guard {ev.guard}" if ev.guard else ""
        return one_line(f"decision {ev.route} ({ev.source}){extra}", 120)
    if isinstance(ev, GuardFired):
        return one_line(f"guard fired: {ev.reason} (rule {ev.rule})", 120)
    if isinstance(ev, ToolCalled):
        args = json.dumps(ev.arguments, ensure_ascii=False, default=str)
        return one_line(f"tool {ev.name}({args}) round {ev.round}", 120)
    if isinstance(ev, ToolResult):
        return one_line(
            f"→ {ev.name} {'ok' if ev.ok else 'failed'} {seconds(ev.ms)}: {ev.result}", 120
        )
    if isinstance(ev, QualityVerdict):
        how = " by model" if ev.by_model else ""
        kind = f" {ev.fallback_type}" if ev.fallback_type else ""
        checks = f" ({', '.join(ev.checks)})" if ev.checks else ""
        return one_line(f"quality {ev.verdict}{kind}{how}{checks}", 120)
    if isinstance(ev, AnswerReplaced):
        return one_line(f"answer withdrawn by the gate: {ev.reason}", 120)
    if isinstance(ev, Notice):
        return one_line(f"notice: {ev.message}", 120)
    if isinstance(ev, FactsKept):
        return one_line(
            "facts kept: " + "; ".join(f"{f['key']} = {f['value']}" for f in ev.facts), 120
        )
    if isinstance(ev, ErrorEvent):
        hint = f" ({ev.hint})" if ev.hint else ""
        return one_line(f"error [{ev.kind}]: {ev.message}{hint}", 160)
    if isinstance(ev, TurnCancelled):
        return f"cancelled after {seconds(ev.ms)} (kept {len(ev.partial)} characters)"
    if isinstance(ev, TurnFinished):
        return one_line(f"done {seconds(ev.ms)} · {ev.route} · {ev.quality}", 120)
    return None


def compaction_line(ev: Event) -> str | None:
    if isinstance(ev, CompactionStarted):
        return (
            f"▸ conversation {ev.conversation_id}: compacting #{ev.from_message}–{ev.up_to_message}"
        )
    if isinstance(ev, CompactionFinished):
        tok = tokens(ev.prompt_tokens, ev.eval_tokens)
        return (
            f"✓ conversation {ev.conversation_id}: #{ev.from_message}–{ev.up_to_message} "
            f"in {seconds(ev.ms)}{' · ' + tok if tok else ''}"
        )
    if isinstance(ev, CompactionFailed):
        return one_line(f"✗ conversation {ev.conversation_id}: {ev.reason}", 160)
    return None


def model_call_text(ev: ModelCall) -> str:
    """A model call in full, for the viewer: every prompt message, then the raw output."""
    lines = [
        f"model call: {ev.phase} · {ev.model} · {seconds(ev.ms)} · "
        f"{tokens(ev.prompt_tokens, ev.eval_tokens)}"
    ]
    if ev.tools:
        lines.append("tools offered: " + ", ".join(ev.tools))
    if ev.schema:
        lines.append("structured output (JSON schema)")
    lines.append("")
    lines.append("══ prompt ══")
    for m in ev.messages:
        role = m.get("role", "?") if isinstance(m, dict) else "?"
        content = m.get("content", "") if isinstance(m, dict) else m
        lines += ["", f"── {role} ──", inert(str(content))]
    lines += ["", "══ raw output ══", "", inert(ev.raw or "")]
    if ev.tool_calls:
        lines += [
            "",
            "══ tool calls ══",
            inert(json.dumps(ev.tool_calls, ensure_ascii=False, indent=2, default=str)),
        ]
    return "\n".join(lines)


class PullMeter:
    """Bytes, percent and speed of a model download from its progress events."""

    def __init__(self) -> None:
        self._last: tuple[float, int] | None = None
        self._digest = ""
        self.speed = 0.0

    def line(self, p: PullProgress, now: float) -> tuple[str, float | None]:
        """The status line and the fraction done (None when there are no byte counts)."""
        if not p.total or p.completed is None:
            self._last = None
            return one_line(p.status, 80), None
        if p.status != self._digest or self._last is None or p.completed < self._last[1]:
            self._digest, self._last = p.status, (now, p.completed)
        else:
            then, done = self._last
            if now - then >= 0.25:
                rate = (p.completed - done) / (now - then)
                self.speed = rate if not self.speed else 0.5 * self.speed + 0.5 * rate
                self._last = (now, p.completed)
        frac = min(1.0, p.completed / p.total)
        speed = f" · {size(self.speed)}/s" if self.speed else ""
        return (
            f"{size(p.completed)} of {size(p.total)} · {frac * 100:.0f}%{speed} · "
            f"{one_line(p.status, 30)}",
            frac,
        )
