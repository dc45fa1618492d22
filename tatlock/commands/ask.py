"""`tatlock ask`: one question, the answer streamed to stdout (or one JSON object).

On a terminal the answer streams as it is generated and an answer the pipeline replaces is
rewritten in place; into a pipe or a file only the final answer is written, so a file never
holds text that was taken back. Ctrl-C cancels the turn (the partial answer is kept, marked
cancelled); a second Ctrl-C leaves at once. SIGTERM and SIGHUP do the same, and the exit code
says which (143, 129).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from tatlock.commands.common import open_butler
from tatlock.commands.signals import Stopped
from tatlock.errors import UsageError
from tatlock.events import (
    AnswerReplaced,
    AnswerToken,
    CompactionFailed,
    CompactionFinished,
    CompactionStarted,
    Decision,
    ErrorEvent,
    Event,
    FactsKept,
    GuardFired,
    MessageStored,
    Notice,
    PhaseFinished,
    QualityVerdict,
    ToolCalled,
    ToolResult,
    TurnCancelled,
    TurnFinished,
)
from tatlock.text import inert, inert_json, inert_line

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler

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
            raise UsageError(
                'give a question, e.g. `tatlock ask "What is the capital of France?"`, or pipe one '
                "in"
            )
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
            f", tools {', '.join(ev.tools)}" if ev.tools else ""
        )
    if isinstance(ev, ToolCalled):
        return f"[tool] {ev.name}({json.dumps(ev.arguments, ensure_ascii=False)})"
    if isinstance(ev, ToolResult):
        return f"[tool] {ev.name} {'ok' if ev.ok else 'failed'} in {ev.ms:.0f} ms"
    if isinstance(ev, QualityVerdict):
        return (
            f"[quality] {ev.verdict}{':' + ev.fallback_type if ev.fallback_type else ''}"
            + (f" ({'; '.join(ev.checks)})" if ev.checks else "")
            + (" by model" if ev.by_model else "")
        )
    if isinstance(ev, CompactionStarted):
        return f"[compaction] messages {ev.from_message}-{ev.up_to_message} started"
    if isinstance(ev, CompactionFinished):
        how = (
            ""
            if ev.how == "model"
            else f" ({'repaired' if ev.how == 'repaired' else 'extracted'}: {ev.why})"
        )
        return (
            f"[compaction] messages {ev.from_message}-{ev.up_to_message} done in {ev.ms:.0f} "
            f"ms{how}"
        )
    if isinstance(ev, CompactionFailed):
        return f"[compaction] failed: {ev.reason}"
    if isinstance(ev, Notice):
        return f"[note] {ev.message}"
    if isinstance(ev, FactsKept):
        return "[facts] kept " + "; ".join(
            f"{f['key']} = {f['value']} ({f['status']})" for f in ev.facts
        )
    if isinstance(ev, TurnCancelled):
        return "[turn] cancelled"
    return None


class _Screen:
    """The answer on stdout: streamed and rewritten in place on a terminal, written once
    (the final text) anywhere else."""

    def __init__(self, stream: Any):
        self.out = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.printed = ""

    def token(self, text: str) -> None:
        if self.live:
            self.out.write(inert(text))
            self.out.flush()
            self.printed += text

    def replace(self, text: str) -> None:
        if self.live:
            self._erase()
            self.token(text)

    def _erase(self) -> None:
        import shutil

        if not self.printed:
            return
        cols = max(20, shutil.get_terminal_size((80, 24)).columns)
        rows = sum(max(1, -(-len(line) // cols)) for line in self.printed.split("\n"))
        # back to the first line of the answer, then clear to the end of the screen
        self.out.write("\r" + (f"\x1b[{rows - 1}A" if rows > 1 else "") + "\x1b[J")
        self.printed = ""

    def final(self, text: str) -> None:
        if self.live:
            if self.printed.strip() != text.strip():
                self.replace(text)
            self.out.write("\n")
        else:
            self.out.write(inert(text.strip()) + "\n")
        self.out.flush()


def run(args: argparse.Namespace) -> int:
    import gc

    # one question, then the process ends: its objects (modules, the classifier's index, the
    # memory's rows) live until then, and the cycle collector found next to nothing to free while
    # costing ~35 ms of CPU (135 passes over what the imports had just made); enabled again after
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if gc_was_enabled:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    question, material = read_input(args)
    if args.new and args.conversation is not None:
        raise UsageError("--new and --conversation cannot be used together")
    butler = open_butler(args.user, model=args.model)
    butler.one_shot = True  # summaries are not waited for: they go on in a process of their own
    err = sys.stderr
    unsubscribe = butler.subscribe(_tracer(err)) if args.verbose else (lambda: None)
    code: int | None = None
    try:
        code = _ask(butler, args, question, material)
        return code
    finally:
        try:
            if code is None:
                # leaving on a signal (a second one may land before the first cancelled the turn) or
                # an error: the turn ends now and stores its partial, not at the model's deadline
                butler.cancel_turns()
            note = butler.close()
            unsubscribe()
            if note:
                err.write(f"tatlock: {inert_line(note)}\n")
        # a signal while closing: leave now (what is left is the next housekeeper's)
        except Stopped as exc:
            exc.reported = code is not None and code >= 128  # the turn's end already said why
            raise


def _tracer(err: Any):
    def on_event(ev: Event) -> None:
        line = trace(ev)
        if line:  # tool arguments and names come from the model: shown inert
            err.write(inert_line(line) + "\n")
            err.flush()

    return on_event


def _ask(butler: Butler, args: argparse.Namespace, question: str, material: str | None) -> int:
    out, err = sys.stdout, sys.stderr
    screen = _Screen(out)
    turn = butler.turn(
        question,
        room_id="cli",
        conversation_id=args.conversation,
        new=args.new,
        material=material,
        system=args.system,
    )
    final: Event | None = None
    interrupted: KeyboardInterrupt | None = None  # Ctrl-C, or SIGTERM/SIGHUP (signals.Stopped)
    saved = False  # the question reached memory
    seen = 0
    events = turn.follow(seen)
    while True:
        try:
            ev = next(events, None)
        except KeyboardInterrupt as exc:
            # a second one: leave now (the cancelled turn is still stored
            if interrupted is not None:
                raise  # while the butler closes)
            interrupted = exc
            turn.cancel()
            events = turn.follow(seen)  # the interrupted reader is spent: go on where it stopped
            continue
        if ev is None:
            break
        seen += 1
        if args.json:
            pass
        elif isinstance(ev, AnswerToken):
            screen.token(ev.text)
        elif isinstance(ev, AnswerReplaced):
            screen.replace(ev.text)
        # a long message cut, or what was kept from it though the model failed: said even so
        if isinstance(ev, Notice) and ev.kind in ("truncated", "facts") and not args.verbose:
            err.write(f"tatlock: {inert(ev.message)}\n")
        if isinstance(ev, MessageStored) and ev.role == "user":
            saved = True
        if isinstance(ev, (TurnFinished, TurnCancelled, ErrorEvent)):
            final = ev
    conversation_id = turn.conversation_id
    if isinstance(final, TurnFinished):
        if args.json:
            out.write(
                inert_json(
                    json.dumps(
                        {
                            "answer": final.answer,
                            "conversation_id": final.conversation_id,
                            "route": final.route,
                            "guard": final.guard,
                            "tools": final.tools,
                            "quality": final.quality,
                            "phases": final.phases,
                            "topics": final.topics,
                            "ms": final.ms,
                        },
                        ensure_ascii=False,
                    )
                )
                + "\n"
            )
        else:
            screen.final(final.answer)
        # the signal came as the answer ended: it is whole, and saved
        if isinstance(interrupted, Stopped):
            err.write(
                f"tatlock: stopped by {interrupted.name} (the answer was complete and is saved)\n"
            )
            return interrupted.code
        return 0
    if isinstance(final, TurnCancelled):
        try:
            _say_cancelled(out, err, screen, args, final, conversation_id, interrupted)
        # the terminal went away (SIGHUP): the partial answer is stored all the same
        except OSError:
            pass
        return interrupted.code if isinstance(interrupted, Stopped) else 130
    return _failed(out, err, screen, args, final, conversation_id, saved)


def _say_cancelled(
    out: Any,
    err: Any,
    screen: _Screen,
    args: argparse.Namespace,
    final: TurnCancelled,
    conversation_id: int,
    interrupted: KeyboardInterrupt | None,
) -> None:
    if args.json:
        out.write(
            inert_json(
                json.dumps(
                    {
                        "cancelled": True,
                        "partial": final.partial,
                        "conversation_id": conversation_id,
                    },
                    ensure_ascii=False,
                )
            )
            + "\n"
        )
    elif final.partial:
        screen.final(final.partial)
    how = f"stopped by {interrupted.name}" if isinstance(interrupted, Stopped) else "cancelled"
    err.write(
        f"tatlock: {how} (what was said is saved, marked cancelled, in conversation "
        f"{conversation_id})\n"
    )


def _failed(
    out: Any,
    err: Any,
    screen: _Screen,
    args: argparse.Namespace,
    final: Event | None,
    conversation_id: int,
    saved: bool,
) -> int:
    from tatlock.commands.common import cli_hint

    message = final.message if isinstance(final, ErrorEvent) else "the turn ended without an answer"
    hint = cli_hint(final.kind, final.hint) if isinstance(final, ErrorEvent) else None
    if screen.printed and not args.json:
        out.write("\n")
    if args.json:
        out.write(json.dumps({"error": message, "conversation_id": conversation_id}) + "\n")
    where = (
        f"your question is saved in conversation {conversation_id}"
        if saved
        else "your question could not be saved"
    )
    err.write(f"tatlock: {inert(message)}{f' ({inert(hint)})' if hint else ''} ({where})\n")
    return 1
