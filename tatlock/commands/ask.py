"""`tatlock ask`: one question, the answer streamed to stdout (or one JSON object)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from tatlock.commands.common import load_config, username
from tatlock.errors import UsageError
from tatlock.events import (
    AnswerReplaced, AnswerToken, CompactionFailed, CompactionFinished, CompactionStarted, Decision, ErrorEvent,
    Event, GuardFired, Notice, PhaseFinished, QualityVerdict, ToolCalled, ToolResult, TurnFinished,
)

MAX_STDIN = 2_000_000  # characters of piped material


def read_input(args: argparse.Namespace) -> tuple[str, str | None]:
    """(question, material): piped stdin is material, or the question when none is given."""
    question = " ".join(args.question).strip()
    piped = None
    if not sys.stdin.isatty():
        try:
            piped = sys.stdin.read(MAX_STDIN + 1)
        except UnicodeDecodeError:
            raise UsageError("stdin is not UTF-8 text") from None
        if len(piped) > MAX_STDIN:
            raise UsageError(f"piped input is larger than {MAX_STDIN:,} characters")
        piped = piped if piped.strip() else None
    if not question:
        if not piped:
            raise UsageError('give a question, e.g. `tatlock ask "What is the capital of France?"`, or pipe one in')
        return piped.strip(), None
    return question, piped


def trace(ev: Event) -> str | None:
    """One stderr line per event for -v."""
    if isinstance(ev, PhaseFinished):
        tok = f", {ev.prompt_tokens}+{ev.eval_tokens} tokens" if ev.model_calls else ""
        extra = "".join(f", {k}={v}" for k, v in ev.detail.items() if v not in (None, [], {}))
        return f"[{ev.phase}] {ev.ms:.0f} ms, {ev.model_calls} model call(s){tok}{extra}"
    if isinstance(ev, GuardFired):
        return f"[guard] rules: {ev.reason}"
    if isinstance(ev, Decision):
        return f"[decision] {ev.route}{' / ' + ev.guard if ev.guard else ''} (by {ev.source})" + (
            f", tools {', '.join(ev.tools)}" if ev.tools else "")
    if isinstance(ev, ToolCalled):
        return f"[tool] {ev.name}({json.dumps(ev.arguments, ensure_ascii=False)})"
    if isinstance(ev, ToolResult):
        return f"[tool] {ev.name} {'ok' if ev.ok else 'failed'} in {ev.ms:.0f} ms"
    if isinstance(ev, QualityVerdict):
        return f"[quality] {ev.verdict}{':' + ev.fallback_type if ev.fallback_type else ''}" + (
            f" ({'; '.join(ev.checks)})" if ev.checks else "") + (" by model" if ev.by_model else "")
    if isinstance(ev, CompactionStarted):
        return f"[compaction] messages {ev.from_message}-{ev.up_to_message} started"
    if isinstance(ev, CompactionFinished):
        return f"[compaction] messages {ev.from_message}-{ev.up_to_message} done in {ev.ms:.0f} ms"
    if isinstance(ev, CompactionFailed):
        return f"[compaction] failed: {ev.reason}"
    if isinstance(ev, Notice):
        return f"[note] {ev.message}"
    return None


def run(args: argparse.Namespace) -> int:
    question, material = read_input(args)
    cfg = load_config()
    name = username(cfg, args.user)
    if args.new and args.conversation is not None:
        raise UsageError("--new and --conversation cannot be used together")
    from tatlock.butler import Butler

    butler = Butler(cfg, name, model=args.model, interface="cli")
    out, err = sys.stdout, sys.stderr
    printed = False
    final: TurnFinished | None = None
    error: ErrorEvent | None = None
    conversation_id = None
    try:
        for ev in butler.handle(question, room_id="cli", conversation_id=args.conversation, new=args.new,
                                material=material):
            if args.verbose:
                line = trace(ev)
                if line:
                    err.write(line + "\n")
                    err.flush()
            if hasattr(ev, "conversation_id") and conversation_id is None:
                conversation_id = ev.conversation_id
            if isinstance(ev, AnswerToken) and not args.json:
                out.write(ev.text)
                out.flush()
                printed = True
            elif isinstance(ev, AnswerReplaced) and not args.json:
                if printed:
                    err.write("\n(tatlock: the answer above was withdrawn: "
                              f"{ev.reason or 'it failed the quality check'})\n")
                    out.write("\n\n")
                out.write(ev.text)
                out.flush()
                printed = True
            elif isinstance(ev, TurnFinished):
                final = ev
            elif isinstance(ev, ErrorEvent):
                error = ev
        if final is not None and not args.json:
            out.write("\n")
            out.flush()
    finally:
        _wait_compaction(butler, verbose=args.verbose)
        butler.close()
    if error is not None or final is None:
        message = error.message if error else "the turn ended without an answer"
        if printed and not args.json:
            out.write("\n")
        if args.json:
            out.write(json.dumps({"error": message, "conversation_id": conversation_id}) + "\n")
        err.write(f"tatlock: {message} (your question is saved in conversation {conversation_id})\n")
        return 1
    if args.json:
        out.write(json.dumps({
            "answer": final.answer, "conversation_id": final.conversation_id, "route": final.route,
            "guard": final.guard, "tools": final.tools, "quality": final.quality,
            "phases": final.phases, "topics": final.topics, "ms": final.ms,
        }, ensure_ascii=False) + "\n")
    return 0


def _wait_compaction(butler, *, verbose: bool) -> None:
    """A started compaction finishes before we exit, so none is lost."""
    t0 = time.monotonic()
    announced = False
    while not butler.wait_background(timeout=0.5):
        if not announced and sys.stderr.isatty():
            sys.stderr.write("tatlock: saving a summary of this conversation…\n")
            announced = True
        _drain(butler, verbose)
        if time.monotonic() - t0 > max(60.0, butler.cfg.timeout * 2):
            sys.stderr.write("tatlock: the conversation summary is taking too long; it will be retried next time\n")
            break
    _drain(butler, verbose)


def _drain(butler, verbose: bool) -> None:
    while not butler.background.empty():
        ev = butler.background.get()
        if verbose:
            line = trace(ev)
            if line:
                sys.stderr.write(line + "\n")
