"""Deterministic capability-guard rules, run beside the model's assessment.

They catch the questions a small model misclassifies: about the butler itself (IDENTITY),
what it can do (CAPABILITIES), the current time or date (TEMPORAL), and secrets
(SECURITY). A question that mixes a guarded part with anything else is MIXED.

Each rule must be about *you/your* or *now*: "What is the name of the capital of France?",
"Tell me about llamas" and "What makes a good password policy?" are ordinary questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_I = re.IGNORECASE

RULES: dict[str, list[re.Pattern[str]]] = {
    "IDENTITY": [
        re.compile(r"\bwhat(?:'s| is|s)\s+your\s+(?:real\s+|full\s+)?name\b", _I),
        re.compile(r"\b(?:tell me|say)\s+your\s+name\b", _I),
        re.compile(r"\bwho\s+(?:are|r)\s+(?:you|u)\b", _I),
        re.compile(r"\bwhat\s+are\s+you\b(?!\s+(?:doing|up to|thinking|saying|talking|going|looking|reading|working))", _I),
        re.compile(r"\bare\s+you\s+(?:an?\s+)?(?:ai|bot|robot|human|person|real|machine|computer|program|"
                   r"(?:large\s+)?language\s+model|llm|chat\s*gpt|gpt|llama|gemma|mistral|qwen|claude)\b", _I),
        re.compile(r"\bwhich\s+(?:llm|model|language\s+model|ai)\s+(?:are\s+you|is\s+this|powers\s+you)\b", _I),
        re.compile(r"\bwhat\s+(?:llm|model|language\s+model|ai)\s+(?:are\s+you|do\s+you\s+(?:use|run))\b", _I),
        re.compile(r"\bintroduce\s+yourself\b", _I),
        re.compile(r"\bdo\s+you\s+have\s+a\s+name\b", _I),
        re.compile(r"\bwho\s+(?:made|created|built|trained|programmed)\s+you\b", _I),
    ],
    "CAPABILITIES": [
        re.compile(r"\bwhat\s+(?:else\s+)?can\s+you\s+do\b", _I),
        re.compile(r"\bwhat\s+are\s+you\s+(?:able|capable)\b", _I),
        re.compile(r"\bwhat\s+(?:are\s+)?your\s+(?:capabilities|abilities|skills|features|functions|tools)\b", _I),
        re.compile(r"\bwhat\s+tools\s+(?:do\s+)?you\s+have\b", _I),
        re.compile(r"\bhow\s+can\s+you\s+help(?:\s+me)?\s*(?:\?|$)", _I),
        re.compile(r"\bwhat\s+do\s+you\s+(?:know\s+how\s+to\s+do|offer)\b", _I),
    ],
    "TEMPORAL": [
        re.compile(r"\bwhat(?:'s| is|s)?\s+(?:the\s+)?(?:current\s+)?time\b(?!\s+(?:zone|difference|of\s+year)\b)"
                   r"(?:\s+(?:is\s+it|now|right\s+now|here))?\s*(?:\?|$|,|\s+and\b)", _I),
        re.compile(r"\bwhat\s+time\s+is\s+it\b", _I),
        re.compile(r"\bwhat(?:'s| is|s)?\s+(?:the\s+|today'?s\s+)?date(?:\s+today)?\s*(?:\?|$|,|\s+and\b)", _I),
        re.compile(r"\bwhat\s+(?:day|date|year|month)\s+is\s+(?:it|today|this)\b", _I),
        re.compile(r"\bwhat(?:'s| is)\s+today\b", _I),
        re.compile(r"\b(?:current|today'?s)\s+(?:time|date)\b", _I),
        re.compile(r"\b(?:tell|give)\s+me\s+the\s+(?:current\s+)?(?:time|date)\b(?!\s+(?:of|when|zone)\b)", _I),
    ],
    "SECURITY": [
        re.compile(r"\b(?:what(?:'s| is)|tell\s+me|give\s+me|show\s+me|reveal|share|print|list)\s+"
                   r"(?:me\s+)?(?:my|your|the|all|our)\s+(?:\w+\s+)?"
                   r"(?:passwords?|passcodes?|pins?|api[\s_-]?keys?|credentials|secrets?|tokens?|private\s+keys?)\b", _I),
        re.compile(r"\b(?:reveal|show|print|repeat|tell\s+me|what\s+(?:is|are))\s+(?:me\s+)?(?:your|the)\s+"
                   r"(?:system\s+prompt|initial\s+prompt|hidden\s+instructions|instructions|prompt)\b", _I),
        re.compile(r"\bignore\s+(?:all\s+)?(?:your\s+|the\s+)?(?:previous|prior|above|earlier)\s+instructions\b", _I),
        re.compile(r"\b(?:password|credentials?|api[\s_-]?key)\s+(?:for|of|to)\s+(?:my|the|your)\s+\w+", _I),
    ],
}

# words that carry no request of their own, for deciding whether anything is left (MIXED)
_FILLER = set("""a an and also the please now right today tell me you your i my is are it what what's whats
who how can could would will do does kindly tatlock sir then too as well just quickly here
so hey hi hello okay ok oh of to in on for""".split())


@dataclass(frozen=True)
class GuardMatch:
    reason: str  # IDENTITY | CAPABILITIES | TEMPORAL | SECURITY | MIXED
    parts: tuple[str, ...]  # the guard reasons found, in order
    rule: str  # which pattern, for the debug log
    other: str = ""  # what the question asks beyond the guards (MIXED)


def detect(text: str) -> GuardMatch | None:
    """The guard a question needs by rule, or None."""
    text = " ".join(text.split())
    reasons: list[str] = []
    rules: list[str] = []
    rest = text
    for reason, patterns in RULES.items():
        for pat in patterns:  # every pattern of a reason, so its whole span is accounted for
            if pat.search(rest):
                if reason not in reasons:
                    reasons.append(reason)
                    rules.append(f"{reason}: {pat.pattern[:50]}")
                rest = pat.sub(" ", rest)
    if not reasons:
        return None
    words = [w for w in re.findall(r"[a-z0-9']+", rest.lower()) if w not in _FILLER]
    other = " ".join(words) if len(words) >= 2 else ""
    if len(reasons) > 1 or other:
        return GuardMatch("MIXED", tuple(reasons), "; ".join(rules), other)
    return GuardMatch(reasons[0], tuple(reasons), "; ".join(rules))


# Tool hints for the part of a MIXED question beyond the guard, used only when the model
# named no tools for it (the rules then also decide which lookup the other part needs).
_HINTS = [
    (re.compile(r"\b(?:weather|forecast|temperature|rain|snow|sunny|wind)\b", _I), "get_weather_forecast"),
    (re.compile(r"\b(?:remember|recall|last time|earlier|we (?:talked|discussed|spoke)|did i (?:say|tell|mention))\b", _I),
     "recall_memories"),
    (re.compile(r"\b(?:search|look up|latest|news|online|on the web)\b", _I), "web_search"),
    (re.compile(r"\b(?:cpu|memory usage|disk|ram|system)\b", _I), "get_system_info"),
]


def tool_hints(text: str) -> list[str]:
    return [tool for pat, tool in _HINTS if pat.search(text)]
