"""Phases 2 and 3 of a turn: the model calls the tools Phase 1 named (native tool calling,
only their schemas offered), the pipeline runs them, for at most ``tool_rounds`` rounds.

Tools reach the user's memory through a ``TurnScope`` that is closed when the turn ends, so
a tool that timed out and keeps running in the pool cannot write afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tatlock import prompts
from tatlock.events import ToolCalled, ToolResult
from tatlock.llm.base import Cancel
from tatlock.pipeline import tools as tool_phase
from tatlock.pipeline.phases import MAX_TOKENS, Phase, TurnEnv, chat
from tatlock.store.records import ToolSpec
from tatlock.tools.base import ToolContext, TurnScope
from tatlock.tools.registry import json_schema


def run_tools(
    env: TurnEnv,
    emit: Callable[..., None],
    *,
    enabled: list[ToolSpec],
    wanted: list[str],
    tool_query: str,
    question: str,
    text: str,
    conversation_id: int,
    author_id: str,
    message_id: int,
    phases: list[dict[str, Any]],
    cancel: Cancel | None,
    scope: TurnScope,
    describe_image: Callable[[str, str], str] | None = None,
) -> list[tool_phase.ToolRun]:
    selected = tool_phase.choose(enabled, wanted)
    by_key = {s.key: s for s in enabled}
    ctx = ToolContext(
        username=env.username,
        user_store=scope,
        config=env.cfg,
        conversation_id=conversation_id,
        author_id=author_id,
        now=env.clock,
        http_timeout=min(15.0, env.cfg.tool_timeout),
        extra={"message_id": message_id, "question": text},
    )
    if describe_image is not None:
        ctx.extra["describe_image"] = describe_image
    now = env.clock()
    location = env.store.get_var("location") or "unknown"
    messages: list[dict[str, Any]] = [
        {
            "role": "system",
            "content": prompts.render(
                "select_tools.txt", now=now.strftime("%Y-%m-%d %H:%M"), location=location
            ),
        },
        {
            "role": "user",
            "content": question + (f"\n\nWhat to look up: {tool_query}" if tool_query else ""),
        },
    ]
    runs: list[tool_phase.ToolRun] = []
    p2 = Phase("select_tools", emit)
    offered = selected
    for rnd in range(1, max(1, env.cfg.tool_rounds) + 1):
        content = ""
        calls: list[tuple[str, dict[str, Any], str]]
        if rnd == 1 and wanted and all(not s.params for s in offered):
            # tools that take no argument (this computer's report, the clock): nothing for the
            # model to choose, so no call is spent on it
            calls = [(s.key, {}, "no arguments") for s in offered]
        else:
            r = chat(
                env,
                p2,
                messages,
                cancel=cancel,
                tools=[json_schema(s) for s in offered],
                temperature=0.0,
                max_tokens=MAX_TOKENS["select_tools"],
            )
            content = r.content or ""
            calls = [(c.name, c.arguments, "model") for c in r.tool_calls if c.name in by_key]
        if not calls and rnd == 1:
            # the model named tools in Phase 1 but did not call them: fill what can be filled
            for spec in selected[:2] if wanted else ():
                args = tool_phase.fallback_arguments(spec, tool_query or text)
                if args is not None:
                    calls.append((spec.key, args, "fallback"))
        if not calls:
            break
        p3 = Phase("run_tools", emit)
        messages.append(
            {
                "role": "assistant",
                "content": content,
                "tool_calls": [{"function": {"name": n, "arguments": a}} for n, a, _ in calls],
            }
        )
        for name, args, source in calls:
            emit(ToolCalled(name, args, rnd))
            run = tool_phase.run(by_key[name], args, ctx, env.cfg.tool_timeout, cancel)
            run.source = source
            runs.append(run)
            emit(ToolResult(name, run.ok, round(run.ms, 1), run.result))
            messages.append(
                {"role": "tool", "content": tool_phase.result_text(run), "tool_name": name}
            )
        phases.append(p3.finish(tools=[n for n, _, _ in calls]))
        # another round only for tools Phase 1 asked for that are still uncalled
        called = {x.name for x in runs}
        offered = [by_key[w] for w in wanted if w in by_key and w not in called]
        if not offered:
            break
    phases.append(p2.finish())
    return runs


def findings_of(runs: list[tool_phase.ToolRun]) -> list[str]:
    out = [f"Result of {r.name}({_args(r.arguments)}): {tool_phase.result_text(r)}" for r in runs]
    return out or ["No tool could be used for this message."]


def _args(args: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in args.items())
