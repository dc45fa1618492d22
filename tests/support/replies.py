"""What a scripted model says in each phase of a turn, for tests that drive the real pipeline
through the fake Ollama server (``fake.queue(...)`` or ``fake.handler = ...``).

``phase_of(body)`` tells which phase a request belongs to, from what the pipeline sends (the
assessment's and the gate's schemas, the tool list, the prompts' own first lines), so a
handler can answer each phase whatever order or number of calls a route takes.
"""

from __future__ import annotations

import json
from typing import Any


def assessment(
    decision: str = "DIRECT",
    answer: str = "",
    *,
    guard: str = "NONE",
    tools: tuple[str, ...] = (),
    query: str = "",
    topics: tuple[str, ...] = ("general",),
) -> dict[str, Any]:
    return {
        "json": {
            "decision": decision,
            "guard_reason": guard,
            "answer": answer,
            "tools": list(tools),
            "tool_query": query,
            "topics": list(topics),
        }
    }


def direct(answer: str, topics: tuple[str, ...] = ("general",)) -> dict[str, Any]:
    return assessment("DIRECT", answer, topics=topics)


def tools_needed(*tools: str, query: str = "") -> dict[str, Any]:
    return assessment("TOOLS_NEEDED", tools=tools, query=query)


def tool_call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def phase_of(body: dict[str, Any]) -> str:
    """assess | select_tools | quality | summary | cross_summary | respond, from a chat request."""
    fmt = body.get("format")
    props = fmt.get("properties", {}) if isinstance(fmt, dict) else {}
    if "decision" in props:
        return "assess"
    if "verdict" in props:
        return "quality"
    if body.get("tools"):
        return "select_tools"
    messages = body.get("messages") or [{}]
    first = str(messages[0].get("content") or "")
    if first.startswith("You are the record keeper of"):  # compaction.txt, archive.txt
        return "summary"
    if first.startswith("You are the memory of a personal assistant"):  # cross_summary.txt
        return "cross_summary"
    return "respond"


def last_user_text(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages") or [] if m.get("role") in ("user", "tool")]
    return str(users[-1].get("content") or "") if users else ""


def sent(fake: Any) -> str:
    """Everything the model was sent so far, as one text (to look for what must not be there)."""
    return json.dumps(fake.chat_requests, ensure_ascii=False)


SUMMARY = (
    "TOPICS DISCUSSED:\n- tea\nFACTUAL TIMELINE:\n- the user spoke of tea\nKEY FACTS "
    "ESTABLISHED:\n"
    "- the user likes tea\nUNRESOLVED ITEMS:\n- none\nTECHNICAL DETAILS:\n- none"
)
CROSS = "Recent Highlights\n- tea\nPatterns Across Sessions\n- none\nCurrent Context\n- tea"
