"""Phase 4, respond: the persona writes the answer from the findings (tool results, guard
facts), streamed as it is generated through the caller's ``show`` (which gates it)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

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


def answer_plain(
    env: TurnEnv,
    emit: Callable[..., None],
    *,
    persona: str,
    question: str,
    memory: str,
    phases: list[dict[str, Any]],
    cancel: Cancel | None,
    show: Show | None,
) -> tuple[str, bool]:
    """The plain answer form's direct answer (config ``answer_form``): the persona with one short
    instruction, what memory holds besides this conversation, then this conversation as chat
    turns and the question as the last, as a plain chat client asks. A small model answers
    general questions far better so (SmolLM2: 10 of 12 against 0 of 12 through the findings
    prompt, `scripts/bench answers`) and at once."""
    p = Phase("respond", emit)
    background, _, transcript = memory.partition("## Conversation so far")
    system = prompts.render("answer_plain.txt", persona=persona).strip()
    if background.strip():
        system += "\n\nWhat you know from earlier:\n" + background.strip()
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for line in transcript.strip().splitlines():
        speaker, sep, said = line.partition(": ")
        if not sep:
            if len(messages) > 1:  # a message of several lines goes on
                messages[-1]["content"] += "\n" + line
            continue
        role = "assistant" if speaker == "Assistant" else "user"
        if messages[-1]["role"] == role and len(messages) > 1:
            messages[-1]["content"] += "\n" + said
        else:
            messages.append({"role": role, "content": said})
    if messages[-1]["role"] == "user" and len(messages) > 1:
        messages[-1]["content"] += "\n" + question
    else:
        messages.append({"role": "user", "content": question})
    watch = loops.LoopWatch()
    looped = False

    def on_token(piece: str) -> None:
        nonlocal looped
        if watch.add(piece):
            looped = True
            raise StopGeneration
        if show is not None:
            show(piece)

    r = chat(
        env,
        p,
        messages,
        cancel=cancel,
        on_token=on_token,
        temperature=0.5,
        max_tokens=env.answer_tokens(),
    )
    answer = r.content.strip()
    if looped:
        answer = loops.without_repeats(answer)
    phases.append(p.finish(stopped=r.done_reason == "stopped", form="plain"))
    if r.done_reason == "length" and not looped:
        phases[-1]["cut_short"] = True
    return answer, looped


def respond(
    env: TurnEnv,
    emit: Callable[..., None],
    *,
    persona: str,
    turn_vars: dict[str, Any],
    findings: list[str],
    phases: list[dict[str, Any]],
    cancel: Cancel | None,
    show: Show | None,
    name: str = "respond",
    max_tokens: int | None = None,
) -> tuple[str, bool]:
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
        {
            "role": "user",
            "content": prompts.render(
                "respond_turn.txt",
                **turn_vars,
                findings="\n".join(f"- {f}" for f in findings) or "- none",
            ),
        },
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
