"""What each part of a turn's prompts may take of the context window.

Every request leaves its answer's allowance free (``TurnEnv.answer_tokens``, at most half the
window) and holds its instructions whole. What is left goes, in this order, to the persona (at
most a fifth of the window: a persona of hundreds of long instructions is read from its first
one, and the user is told), the question (at most 30%, and the whole of it is stored), piped
material (at most 40%) and the memory, which takes what remains. The respond phase adds the
tools' findings: when they do not fit beside the memory, the memory gives way first (its oldest
part), then the findings (each cut to one common length), never the question.

``tatlock.memory.fit.FittedBackend`` checks every request again before it is sent; what is
shaped here is cut there only when an estimate was off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tatlock import prompts
from tatlock.events import Event, Notice
from tatlock.memory.fit import Part
from tatlock.pipeline.phases import TurnEnv

PERSONA_SHARE = 0.2  # of the window, for the persona's instructions
QUESTION_SHARE = 0.3  # for the message itself (the whole of it is stored)
MATERIAL_SHARE = 0.4  # for piped-in material
FINDINGS_FLOOR = 0.25  # of the room left beside the instructions, kept for the findings
MEMORY_TOKENS_MIN = 64  # the memory's budget is never asked below this (its latest message shows)

Emit = Callable[[Event], None]


def persona(env: TurnEnv, emit: Emit) -> str:
    """The enabled instructions in order, as many from the first as fit the persona's share."""
    items = [i.instruction for i in env.system.persona(enabled_only=True)]
    text = "\n".join(items)
    window = env.window()
    room = int(window.size * PERSONA_SHARE)
    est = window.est
    if est.bound(text) <= room:
        return text
    kept: list[str] = []
    used = 0
    for item in items:
        cost = est.bound(item) + 1
        if used + cost > room:
            break
        kept.append(item)
        used += cost
    if not kept:  # one instruction longer than the whole share: its head
        kept = [window.cut(items[0], room, head=1.0)]
    emit(
        Notice(
            f"the persona is long: the model reads its first {len(kept)} of {len(items)} "
            f"instructions "
            f"({room:,} of the context's {window.size:,} tokens)",
            "truncated",
        )
    )
    return "\n".join(kept)


def question(env: TurnEnv, text: str, material: str | None, room: int, emit: Emit | None) -> str:
    """The message as the model sees it: a long one cut to its share (the user is told when
    ``emit`` is given; the whole message is stored and searchable), then any piped material
    in what is left. ``room``: the tokens the question and material may take together."""
    window = env.window()
    est = window.est
    share = max(16, min(int(window.size * QUESTION_SHARE), int(room * (0.5 if material else 0.8))))
    if est.bound(text) > share:
        keep = est.prefix(text, share)
        if emit is not None:
            emit(
                Notice(
                    f"your message is long: the model reads its first {keep:,} of {len(text):,} "
                    f"characters "
                    "(all of it is kept in memory)",
                    "truncated",
                )
            )
        text = (
            text[:keep] + f"\n…[message cut here for length: {len(text) - keep:,} more characters]"
        )
    if not material:
        return text
    left = max(16, min(int(window.size * MATERIAL_SHARE), int((room - est.bound(text)) * 0.8)))
    keep = est.prefix(material, left)
    if keep < len(material):
        if emit is not None:
            emit(
                Notice(
                    f"the piped material is long: the model reads its first {keep:,} of "
                    f"{len(material):,} "
                    "characters (all of it is kept in memory)",
                    "truncated",
                )
            )
        material = (
            material[:keep] + f"\n…[material truncated: {len(material) - keep} more characters]"
        )
    return f"{text}\n\nMaterial provided with the message:\n```\n{material}\n```"


def assess_room(env: TurnEnv, system: str, turn_vars: dict[str, Any]) -> int:
    """Tokens left for the question and the memory beside Phase 1's instructions (``turn_vars``
    without them) and the answer's allowance."""
    window = env.window()
    skeleton = [
        {"role": "system", "content": system},
        {
            "role": "user",
            "content": prompts.render(
                "assess_turn.txt", **{**turn_vars, "memory": "", "question": ""}
            ),
        },
    ]
    return window.room(env.answer_tokens()) - window.est.bound_messages(skeleton)


def memory(env: TurnEnv, block: str, room: int) -> str:
    """The memory block within ``room`` tokens: its latest part kept when it must be cut."""
    window = env.window()
    return window.cut(block, max(0, room), head=0.25) if window.est.bound(block) > room else block


def memory_budget(room: int, shares: float) -> int:
    """The budget to build the memory with, so that its shares (summaries and messages) add up to
    ``room``."""
    return max(MEMORY_TOKENS_MIN, int(room / shares))


def respond_parts(
    env: TurnEnv, system: str, turn_vars: dict[str, Any], findings: list[str], max_tokens: int
) -> tuple[dict[str, Any], list[str]]:
    """Phase 4's memory, question and findings within the window: the memory gives way first,
    then the findings (to one common length), the question last."""
    window = env.window()
    est = window.est
    body = "\n".join(f"- {f}" for f in findings) or "- none"
    skeleton = [
        {"role": "system", "content": system},
        {
            "role": "user",
            "content": prompts.render(
                "respond_turn.txt", **{**turn_vars, "memory": "", "question": "", "findings": ""}
            ),
        },
    ]
    room = window.room(max_tokens) - est.bound_messages(skeleton)
    mem, q = str(turn_vars.get("memory") or ""), str(turn_vars.get("question") or "")
    if est.bound(mem) + est.bound(q) + est.bound(body) <= room:
        return turn_vars, findings
    mem, body_room, q = window.squeeze(
        [
            Part(mem, head=0.25),
            Part(body, floor=int(room * FINDINGS_FLOOR)),
            Part(q, floor=min(est.bound(q), int(room * 0.2))),
        ],
        room,
    )
    fitted = findings
    if body_room != body:  # the findings are cut one by one to a common length, each named
        fitted = window.common_cut(findings, max(0, room - est.bound(mem) - est.bound(q)))
    return {**turn_vars, "memory": mem, "question": q}, fitted


def quality_parts(
    env: TurnEnv, question_text: str, answer: str, concerns: str, max_tokens: int
) -> tuple[str, str]:
    """The model check's question and answer within the window (the question gives way first)."""
    window = env.window()
    fixed = prompts.render("quality.txt", question="", answer="", concerns=concerns)
    room = window.text_room(max_tokens, fixed)
    q, a = window.squeeze([Part(question_text, floor=int(room * 0.3)), Part(answer)], room)
    return q, a
