"""Phase 1, assessment: one structured-output call that routes the message and, for a
direct question, already holds the answer in persona (streamed while it is generated).

The request is laid out for the server's prompt cache: the system message holds only what is
the same on every turn (persona, instructions, tool catalogue), byte for byte; the user
message holds the memory (which grows at its end), then the clock, then the question.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tatlock import prompts

ROUTES = ("DIRECT", "TOOLS_NEEDED", "CAPABILITY_GUARD")
GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY", "MIXED")


def schema(tool_names: list[str], *, answer: bool = True) -> dict[str, Any]:
    # property order matters: the decision comes first so the answer can be streamed the
    # moment it starts, knowing it is a direct answer; the answer comes next, so the first
    # token reaches the user before the model writes the other fields; the topics follow, so
    # a direct answer's call can end there (the rest only routes the other decisions).
    # bounds keep a small model from looping inside the grammar (whitespace, repeated items)
    tools_items: dict[str, Any] = {"type": "string", "maxLength": 40}
    if tool_names:
        tools_items = {"type": "string", "enum": tool_names}
    # ``answer=False``: the routing call of the plain answer form (config ``answer_form``), whose
    # direct answer is written next by the respond phase, as plain text
    properties: dict[str, Any] = {
        "decision": {"type": "string", "enum": list(ROUTES)},
        "answer": {"type": "string", "maxLength": 2000},
        "topics": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 3},
        "guard_reason": {"type": "string", "enum": ["NONE", *GUARDS]},
        "tools": {"type": "array", "items": tools_items, "maxItems": 4},
        "tool_query": {"type": "string", "maxLength": 200},
    }
    if not answer:
        del properties["answer"]
    return {"type": "object", "properties": properties, "required": list(properties)}


# What each built-in tool is for, in a few words: the catalogue is in every Phase 1 prompt,
# and a small model reads the names and these hints, not paragraphs.
SHORT = {
    "get_weather_forecast": "weather and forecasts",
    "web_search": "news, prices, anything current",
    "recall_memories": "search earlier conversations",
    "recall_memories_with_time": "earlier conversations in a period",
    "recall_topic": "what was said on a topic",
    "list_conversations": "",
    "conversation_stats": "",
    "get_conversation_summary": "",
    "get_personal_variable": "a saved fact about the user",
    "set_personal_variable": "save a fact about the user",
    "get_current_datetime": "",
    "get_system_info": "this computer's CPU, memory, disk",
    "analyze_file": "read a local file or image",
}


def catalogue(specs) -> str:
    """The enabled tools, one a line, in registry order (stable from turn to turn)."""
    lines = []
    for s in specs:
        hint = (
            SHORT[s.key]
            if s.key in SHORT
            else re.split(r"(?<=[.;:(])\s", s.description.strip())[0].rstrip(".;:(")
        )
        lines.append(f"- {s.key}: {' '.join(hint.split()[:12])}" if hint else f"- {s.key}")
    return "\n".join(lines) if lines else "(none enabled)"


# the answer's form (config ``answer_form``) -> the instructions of the assessment
PROMPTS = {"json": "assess.txt", "plain": "assess_route.txt"}
ROUTING_TOKENS = 160  # the routing call of the plain form: the fields after the decision, bounded


def system_prompt(persona: str, specs, form: str = "json") -> str:
    return prompts.render(PROMPTS[form], persona=persona, tools=catalogue(specs))


def request(
    persona: str,
    specs,
    *,
    memory: str,
    now: str,
    location: str,
    author: str,
    question: str,
    form: str = "json",
) -> list[dict[str, str]]:
    """Phase 1's messages: the stable system message (persona, instructions, catalogue), then
    the turn (memory, clock, location, the question)."""
    return [
        {"role": "system", "content": system_prompt(persona, specs, form)},
        {
            "role": "user",
            "content": prompts.render(
                "assess_turn.txt",
                memory=memory,
                now=now,
                location=location,
                author=author,
                question=question,
            ),
        },
    ]


@dataclass
class Assessment:
    decision: str
    guard: str | None = None
    answer: str = ""
    tools: list[str] = field(default_factory=list)
    tool_query: str = ""
    topics: list[str] = field(default_factory=list)
    form: str = "json"  # json | text (the seed's forms)


def _guard(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    v = value.strip().strip("[]").strip().upper()
    return v if v in GUARDS else None


def _route(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    v = value.strip().upper().replace(" ", "_")
    for r in ROUTES:
        if v.startswith(r):
            return r
    if v in ("GUARD", "CAPABILITY"):
        return "CAPABILITY_GUARD"
    if v in ("TOOLS", "TOOL"):
        return "TOOLS_NEEDED"
    return None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [v for v in re.split(r"[,\n]", value)]
    if not isinstance(value, list):
        return []
    items = [str(v).strip() for v in value if isinstance(v, (str, int, float)) and str(v).strip()]
    return list(dict.fromkeys(items))


def _json_object(raw: str) -> dict | None:
    text = raw.strip()
    text = re.sub(r"^```(?:json)?\s*|\s*```$", "", text)
    for candidate in (text, text[text.find("{") : text.rfind("}") + 1] if "{" in text else ""):
        if not candidate:
            continue
        try:
            obj = json.loads(candidate)
        except ValueError:
            # trailing commas are a common small-model slip
            try:
                obj = json.loads(re.sub(r",\s*([}\]])", r"\1", candidate))
            except ValueError:
                continue
        if isinstance(obj, dict):
            return obj
    return None


_TEXT_GUARD = re.compile(r"CAPABILITY_GUARD\s*[:\-]?\s*\[?\s*([A-Z_]+)?", re.I)
_TEXT_DIRECT = re.compile(r"^\s*DIRECT\s*[:\-]?\s*(.*)$", re.S | re.I)


def parse(raw: str) -> Assessment | None:
    """The model's assessment from JSON, or from the seed's text forms; None for garbage."""
    obj = _json_object(raw)
    if obj is not None:
        route = _route(obj.get("decision") or obj.get("route"))
        guard = _guard(obj.get("guard_reason") or obj.get("guard"))
        if route is None:
            if guard:
                route = "CAPABILITY_GUARD"
            elif isinstance(obj.get("answer"), str) and obj["answer"].strip():
                route = "DIRECT"
            else:
                return None
        if route != "CAPABILITY_GUARD":
            guard = None
        elif guard is None:
            guard = "MIXED" if _strings(obj.get("tools")) else None
        return Assessment(
            decision=route,
            guard=guard,
            answer=str(obj.get("answer") or "").strip()
            if isinstance(obj.get("answer"), (str, int, float))
            else "",
            tools=_strings(obj.get("tools")),
            tool_query=str(obj.get("tool_query") or "").strip(),
            topics=_strings(obj.get("topics"))[:5],
        )
    text = raw.strip()
    m = _TEXT_GUARD.search(text)
    if m:
        return Assessment("CAPABILITY_GUARD", guard=_guard(m.group(1) or ""), form="text")
    if re.match(r"^\s*TOOLS?_NEEDED\b", text, re.I):
        rest = re.sub(r"^\s*TOOLS?_NEEDED\s*[:\-]?\s*", "", text, flags=re.I)
        return Assessment("TOOLS_NEEDED", tool_query=rest.strip(), form="text")
    m = _TEXT_DIRECT.match(text)
    if m:
        return Assessment("DIRECT", answer=m.group(1).strip(), form="text")
    return None


# the head of a routing call (the plain form) that has decided DIRECT and named its topics: what
# follows only routes the other decisions, so the call ends here
_DIRECT_HEAD = re.compile(r'^\s*\{\s*"decision"\s*:\s*"DIRECT"\s*,\s*"topics"\s*:\s*(\[[^\]]*\])')


def routed_direct(raw: str) -> Assessment | None:
    """A routing call's decision once it is DIRECT with its topics, or None."""
    m = _DIRECT_HEAD.search(raw)
    if not m:
        return None
    try:
        topics = json.loads(m.group(1))
    except ValueError:
        topics = []
    return Assessment("DIRECT", topics=_strings(topics)[:5])


class AnswerStreamer:
    """Pulls the ``answer`` string out of a JSON object while it is being generated.

    ``feed(chunk)`` returns the answer text decoded since the last call, but only once the
    ``decision`` before it is known to be DIRECT (otherwise nothing is shown early).
    """

    _DECISION = re.compile(r'"decision"\s*:\s*"([A-Za-z_]+)"')
    _ANSWER = re.compile(r'"answer"\s*:\s*"')
    _ESC: ClassVar[dict[str, str]] = {
        '"': '"',
        "\\": "\\",
        "/": "/",
        "b": "\b",
        "f": "\f",
        "n": "\n",
        "r": "\r",
        "t": "\t",
    }

    def __init__(self, allow: bool = True, decisions: tuple[str, ...] = ("DIRECT",)):
        self.buf = ""
        self.allow = allow
        self.decisions = decisions  # the decisions whose answer stands (and so may stream)
        self.decision: str | None = None
        self.start: int | None = None
        self.pos = 0
        self.done = False
        self.emitted = ""

    def feed(self, chunk: str) -> str:
        self.buf += chunk
        if self.decision is None:
            m = self._DECISION.search(self.buf)
            if m:
                self.decision = _route(m.group(1))
        if not self.allow or self.done or self.decision not in self.decisions:
            return ""
        if self.start is None:
            m = self._ANSWER.search(self.buf)
            if not m:
                return ""
            self.start = self.pos = m.end()
        out = []
        i, buf = self.pos, self.buf
        while i < len(buf):
            c = buf[i]
            if c == '"':
                self.done = True
                i += 1
                break
            if c == "\\":
                if i + 1 >= len(buf):
                    break
                e = buf[i + 1]
                if e == "u":
                    if i + 6 > len(buf):
                        break
                    try:
                        code = int(buf[i + 2 : i + 6], 16)
                    except ValueError:
                        code = -1
                    # JSON writes 😀 as a pair of escapes: wait for the second
                    if 0xD800 <= code < 0xDC00:
                        if i + 12 > len(buf):
                            break
                        pair = re.fullmatch(r"\\u([0-9a-fA-F]{4})", buf[i + 6 : i + 12])
                        low = int(pair.group(1), 16) if pair else 0
                        if 0xDC00 <= low < 0xE000:
                            out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                            i += 12
                            continue
                    if code >= 0:
                        out.append(chr(code))
                    i += 6
                    continue
                out.append(self._ESC.get(e, e))
                i += 2
                continue
            out.append(c)
            i += 1
        self.pos = i
        text = "".join(out)
        self.emitted += text
        return text
