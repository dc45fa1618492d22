#!/usr/bin/env python3
"""Collect real answers for the quality gate's labelled sets: each question goes through
tatlock's whole pipeline against a real model (by default SmolLM2-135M behind
../shared/tools/local-llm), and the answer the gate was given is written out with what the
gate knew (the clock, the route, the guard, every tool call with its arguments and result,
anything told earlier in the conversation), in the blind gate-case format
(/work/prompts/blind-gate.md), with an empty ``verdict`` for a person to grade by hand.

The weather tool talks to the loopback weather fake (tests/support/fake_web.py: it knows
London only, so other places fail as a real unknown place does) and the web search to its hook.

    scripts/collect_gate.py QUESTIONS.txt -o OUT.jsonl [--url URL] [--name NAME]

QUESTIONS.txt: one question a line; lines joined by " || " are turns of one conversation (the
earlier ones are recorded as ``told_earlier`` for the last); "#" starts a comment. Run it under
the shared lock (flock /work/heavy.lock ...): it keeps the machine's two cores busy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake web server is test support, not shipped code

DEFAULT_URL = "http://127.0.0.1:18080/v1"


def read_questions(path: Path) -> list[list[str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if line:
            out.append([t.strip() for t in line.split(" || ") if t.strip()])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("questions", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument(
        "--url", default=DEFAULT_URL, help=f"OpenAI-compatible server (default {DEFAULT_URL})"
    )
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--name", default="smollm2", help="the set's name: ids are NAME-<n>")
    args = ap.parse_args(argv)
    if not args.questions.is_file():
        print(f"collect_gate: no such file: {args.questions}", file=sys.stderr)
        return 2

    import tatlock
    from support.fake_web import FakeWeb
    from tatlock.events import TurnFinished
    from tatlock.pipeline import turn_runner as turn_mod
    from tatlock.pipeline import voice

    seen: dict[str, Any] = {}
    real_judge = turn_mod.judge

    def spy(run: Any, answer: str, verdict: Any, route: str, brief: Any, **kw: Any) -> Any:
        seen.update(answer=answer, plan=run.plan, brief=brief, now=brief.clock)
        return real_judge(run, answer, verdict, route, brief, **kw)

    turn_mod.judge = spy  # type: ignore[assignment]
    conversations = read_questions(args.questions)
    written = 0
    with FakeWeb() as web, args.out.open("a", encoding="utf-8") as out:
        if args.out.stat().st_size == 0:
            out.write(
                json.dumps(
                    {
                        "header": f"{args.name}: real answers of {args.model} through tatlock's pipeline "
                        f"(scripts/collect_gate.py), {time.strftime('%Y-%m-%d')}; graded by hand "
                        "as a user would."
                    }
                )
                + "\n"
            )
        for n, turns in enumerate(conversations, 1):
            with tempfile.TemporaryDirectory(prefix="tatlock-collect-") as tmp:
                os.environ.update(
                    TATLOCK_HOME=tmp,
                    TATLOCK_USER="collector",
                    TATLOCK_TIER="low",
                    TATLOCK_BACKEND="openai",
                    TATLOCK_BASE_URL=args.url,
                    TATLOCK_MODEL=args.model,
                    TATLOCK_TIMEOUT="300",
                    TATLOCK_GEOCODING_URL=web.url,
                    TATLOCK_OPEN_METEO_URL=web.url + "/",
                    TATLOCK_WEB_SEARCH_URL=web.url + "/search",
                    PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
                )
                with tatlock.open() as butler:
                    conv: int | None = None
                    for i, text in enumerate(turns):
                        seen.clear()
                        calls: list[dict[str, Any]] = []
                        t0 = time.perf_counter()
                        final = None
                        for ev in butler.turn(text, conversation_id=conv, new=conv is None):
                            kind = type(ev).__name__
                            if kind == "ToolCalled":
                                calls.append(
                                    {"tool": ev.name, "args": ev.arguments, "result": None}
                                )
                            elif kind == "ToolResult" and calls:
                                calls[-1]["result"] = ev.result
                            elif isinstance(ev, TurnFinished):
                                final = ev
                        if final is not None:
                            conv = final.conversation_id
                        if i < len(turns) - 1 or "answer" not in seen:
                            continue
                        plan, now = seen["plan"], seen["now"]
                        route = {"CAPABILITY_GUARD": "GUARD"}.get(plan.route, plan.route)
                        case = {
                            "id": f"{args.name}-{n:03d}",
                            "now": now.isoformat(timespec="seconds"),
                            "question": text,
                            "route": route,
                            "guard": plan.guard,
                            "parts": list(plan.guard_parts),
                            "tool_calls": calls,
                            "told_earlier": turns[:-1],
                            "answer": seen["answer"],
                            "verdict": "",
                            "why": "",
                            "gate_then": final.quality if final else None,
                            "shown": final.answer if final else None,
                            "seconds": round(time.perf_counter() - t0, 1),
                        }
                        cases = [case]
                        if (
                            final is not None
                            and final.quality == "APPROVED"
                            and final.answer.replace(
                                voice.in_voice(turn_mod.CUT_NOTE, "sir"), ""
                            ).strip()
                            != seen["answer"].strip()
                        ):
                            # the first answer failed and a repair stood: the gate judged that one too
                            cases.append(
                                {
                                    **case,
                                    "id": case["id"] + "r",
                                    "answer": final.answer.replace(
                                        voice.in_voice(turn_mod.CUT_NOTE, "sir"), ""
                                    ).strip(),
                                    "repair_of": case["id"],
                                }
                            )
                        for c in cases:
                            out.write(json.dumps(c, ensure_ascii=False, default=str) + "\n")
                        out.flush()
                        written += len(cases)
                        print(
                            f"{case['id']} {case['seconds']:>5}s {route}/{plan.guard or '-'} "
                            f"{case['gate_then']}: {case['answer'][:90]!r}",
                            file=sys.stderr,
                            flush=True,
                        )
    print(f"{written} cases written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
