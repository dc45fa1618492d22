"""Phase 4, respond: the persona writes the answer from the findings (tool results, guard
facts), streamed as it is generated through the caller's ``show`` (which gates it)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from tatlock import prompts
from tatlock.llm.base import Cancel, StopGeneration
from tatlock.pipeline import budget, loops
from tatlock.pipeline.phases import Phase, TurnEnv, chat

Show = Callable[[str], None]


def tz_label(now: dt.datetime) -> str:
    key = getattr(now.tzinfo, "key", None)
    return key or now.strftime("%Z") or now.strftime("UTC%z")


def system_prompt(persona: str) -> str:
    """The respond phase's system message: the persona first, so the server's prompt cache
    shares it with Phase 1's, then the instructions (byte-identical from turn to turn)."""
    return prompts.render("respond.txt", persona=persona)


def respond(env: TurnEnv, emit: Callable[..., None], *, persona: str, turn_vars: dict[str, Any],
            findings: list[str], phases: list[dict[str, Any]], cancel: Cancel | None,
            show: Show | None, name: str = "respond", max_tokens: int | None = None) -> tuple[str, bool]:
    """The persona's answer, streamed through ``show`` when given (``show`` may raise
    StopGeneration to end the call: the gate saw a failing answer). Returns (answer, looped):
    ``looped`` when a model repeating itself was cut short and its repeats dropped.
    ``max_tokens``: a tighter bound than an answer's (a short answer from facts in hand)."""
    p = Phase(name, emit)
    system = system_prompt(persona)
    limit = min(max_tokens or env.answer_tokens(), env.answer_tokens())
    turn_vars, findings = budget.respond_parts(env, system, turn_vars, findings, limit)
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": prompts.render(
            "respond_turn.txt", **turn_vars, findings="\n".join(f"- {f}" for f in findings) or "- none")},
    ]
    watch = loops.LoopWatch()
    looped = False

    def on_token(piece: str) -> None:
        nonlocal looped
        if watch.add(piece):  # a model caught in a loop is stopped at once
            looped = True
            raise StopGeneration
        if show is not None:
            show(piece)

    r = chat(env, p, messages, cancel=cancel, on_token=on_token, temperature=0.5, max_tokens=limit)
    answer = r.content.strip()
    if looped:
        answer = loops.without_repeats(answer)
    phases.append(p.finish(stopped=r.done_reason == "stopped"))
    if r.done_reason == "length" and not looped:
        phases[-1]["cut_short"] = True  # stopped at its length limit, mid-way
    return answer, looped
