"""The deterministic side of routing, run beside the model's assessment.

Small models misroute the questions that matter most: about the butler itself (IDENTITY),
what it can do (CAPABILITIES), the current time or date (TEMPORAL), secrets (SECURITY),
and questions only a tool can answer (the weather, earlier conversations, this computer).

``decide(text)`` answers from rules: regular expressions for the ordinary phrasings, each
about *you/your*, *now*, *me* or *our conversations*, so "What is the name of the capital of
France?", "Why is the sky blue?" and "What makes a good password policy?" stay ordinary
questions. ``tool_hints(text)`` adds a small classifier (``intents``) for the tools a message
may need where no rule fires. Both are measured by ``scripts/bench routes`` on questions they
were not written from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tatlock.pipeline import needs as _needs
from tatlock.pipeline.needs import GENERAL as _GENERAL
from tatlock.pipeline.needs import NOW as _NOW
from tatlock.pipeline.needs import USUALLY as _USUALLY
from tatlock.pipeline.needs import tool_keys
from tatlock.pipeline.patterns import I as _I
from tatlock.pipeline.patterns import Lazy as _Lazy
from tatlock.pipeline.patterns import gates, is_open, words

_YOU = r"(?:you|u|ya)"
_WH_BE = r"(?:what(?:'s|s|\s+is)?|which(?:'s|\s+is)?)"

RULES: dict[str, list[_Lazy]] = {
    "IDENTITY": [
        _Lazy(r"\bwhich\s+(?:ai|model|llm|bot|assistant|chatbot)\s+(?:am\s+i|are\s+(?:you|we)|is\s+(?:this|it))\b", _I),
        # a model or vendor named about "you" or "this" ("Is this thing ChatGPT underneath?")
        _Lazy(r"\b(?:are|r)\s+(?:you|u)\b[^.?!]{0,30}\b(?:chat\s*gpt|gpt-?\d?|llama|claude|gemini|mistral|qwen|"
              r"copilot|siri|alexa)\b|\bis\s+(?:this|it)\b[^.?!]{0,25}\b(?:chat\s*gpt|gpt-?\d|claude|gemini|"
              r"copilot)\b", _I),
        _Lazy(r"\b(?:what(?:'s| is|s)|tell me|say|give me|know|ask|is)\s+(?:me\s+)?(?:your|ur)\s+(?:real\s+|full\s+|"
                   r"first\s+)?name\b|^\W*(?:and\s+)?(?:your|ur)\s+name\W*$", _I),
        _Lazy(r"\b(?:what|how)\s+(?:should|shall|do|can|may|must|would)\s+(?:i|we)\s+(?:call|address|"
              r"name)\s+(?:you|u)\b", _I),
        _Lazy(r"\bwhat\s+(?:are\s+you|r\s+u)\s+called\b", _I),
        _Lazy(rf"\bwho\s+(?:exactly\s+|really\s+)?(?:are|r)\s+{_YOU}\b(?!\s+(?:voting|talking\s+about|"
              rf"going\s+to\s+vote|"
                   r"meeting|seeing)\b)", _I),
        _Lazy(r"\bwhat\s+(?:kind|sort|type)\s+of\s+(?:a\s+)?\w+\s+are\s+you\b(?!\s+(?:able|capable|good|into|"
              r"after)\b)", _I),
        _Lazy(r"\b(?:is\s+(?:this|there|it)\s+(?:a|an)|am\s+i\s+(?:talking|chatting|speaking|writing)\s+(?:to|with)\s+"
              r"(?:a|an))\s+"
              r"(?:real\s+|live\s+|actual\s+)?(?:bot|robot|chatbot|human|person|machine|ai|computer|program)\b"
              r"(?![^.?!]{0,25}\b(?:that|which|who)\s+(?:can|could|will|would)\b)|"
              r"\bwho(?:'s|\s+is)\s+(?:on\s+the\s+other\s+end|behind\s+(?:this|these|the\s+(?:replies|answers|chat)))|"
              r"\b(?:do|what(?:\s+name)?\s+do)\s+you\s+go\s+by\b|^\W*and\s+you\s+are\W*$", _I),
        _Lazy(r"\b(?:where|how)\s+are\s+you\s+(?:running|hosted|located)\b|\bare\s+you\s+(?:running|hosted)\s+"
                   r"(?:in|on|locally|here)\b|\bis\s+this\s+(?:chat|assistant|bot|butler|"
                   r"conversation)\s+(?:running|hosted)\b",
                   _I),
        _Lazy(r"\bwho(?:'s|\s+is|\s+am\s+i|\s+are\s+we)\b[^.?!]{0,15}\b(?:talking|speaking|chatting|writing)\s+"
                   r"(?:to|with)\b(?!\s+(?:him|her|them|my|the|a)\b)", _I),
        _Lazy(r"\bwho(?:'s|\s+is)\s+(?:this|that|there|speaking|talking)\s*(?:\?|$)", _I),
        _Lazy(r"\bwhat\s+(?:exactly\s+)?are\s+you\b(?!\s+(?:doing|up to|thinking|saying|talking|going|looking|reading|"
                   r"working|able|capable|having|cooking|planning|watching|listening|afraid|wearing|on about|"
                   r"good|up|into|like|"
                   r"for|made\s+of|worth|interested|saying|trying|hoping|reading))", _I),
        _Lazy(r"\b(?:are|r)\s+(?:you|u)\s+(?:an?\s+)?(?:ai|bot|chatbot|robot|human|person|real|machine|"
              r"computer|program|tatlock|"
                   r"(?:large\s+)?language\s+model|llm|chat\s*gpt|gpt|llama|gemma|mistral|qwen|claude|phi|smollm|"
                   r"artificial|sentient|conscious|alive)\b", _I),
        _Lazy(r"\bare\s+you\s+(?:based|built|running|powered|trained|made)\s+(?:on|by|with)\b", _I),
        _Lazy(r"\b(?:which|what)\s+(?:llm|(?:ai\s+|language\s+)?model|ai|company|vendor|engine)\b[^.?!]{0,25}?"
                   r"\b(?:are\s+you|is\s+(?:this|behind|running|powering)|powers|runs|made|built|trained|created|"
                   r"do\s+you\s+(?:use|run)|you\s+(?:use|run))\b", _I),
        _Lazy(r"\bintroduce\s+yourself\b|\b(?:tell\s+me|say\s+something)\s+(?:a\s+(?:bit|"
              r"little)\s+)?about\s+yourself\b|"
                   r"\bdescribe\s+yourself\b", _I),
        _Lazy(r"\b(?:do\s+you\s+have|have\s+you\s+(?:got|a))\s+(?:a\s+)?name\b", _I),
        _Lazy(r"\bwho\s+(?:made|created|built|trained|programmed|developed|designed|owns|wrote)\s+you\b", _I),
    ],
    "CAPABILITIES": [
        _Lazy(rf"\bwhat\s+(?:else\s+)?(?:can|could)\s+{_YOU}\s+do\s*(?:for\s+me\s*)?(?:\?|$|,|\.|!|\s+and\b|"
              rf"\s+exactly\b)", _I),
        _Lazy(r"\bwhat\s+are\s+you\s+(?:able|capable)\s+(?:of|to\s+do)\b|\bwhat\s+are\s+you\s+capable\b", _I),
        _Lazy(r"\bwhat\s+(?:are\s+)?your\s+(?:capabilities|abilities|skills|features|functions|tools|powers|"
              r"talents)\b", _I),
        # "a rundown of your skills", "list your abilities": your skills asked for in any words
        _Lazy(r"\b(?:of|about|list|describe|explain|show\s+me)\s+your\s+(?:capabilities|abilities|skills|"
              r"talents|features)\b", _I),
        _Lazy(r"\b(?:can|could)\s+(?:you|u)\s+(?:help|do|assist)\s+(?:me\s+)?(?:with\s+)?(?:anything|things|stuff)\s+"
              r"(?:else|other\s+than|besides|beyond)\b", _I),
        # "What sorts of jobs can I hand to you?"
        _Lazy(r"\bwhat\s+(?:sorts?|kinds?|types?)\s+of\s+(?:things|jobs|tasks|work|chores|errands|questions|help)\b"
              r"[^.?!]{0,30}\b(?:you|u)\b", _I),
        _Lazy(r"\b(?:list|name|show\s+me)\s+your\s+(?:capabilities|abilities|skills|features|functions|tools)\b", _I),
        _Lazy(r"\b(?:what|which)\s+(?:tools|functions|features|skills|abilities)\s+(?:do|can)\s+you\s+(?:have|"
              r"use|offer)\b", _I),
        _Lazy(r"\bhow\s+(?:can|could|might)\s+you\s+(?:help|assist)(?:\s+me)?\s*(?:\?|$|,|\.)|"
                   r"\bin\s+what\s+ways?\s+(?:can|could)\s+you\s+(?:help|assist)\b", _I),
        _Lazy(r"\b(?:can|could|do)\s+you\s+(?:browse|access|search|use|read|open|send|set|make|remember|see|hear|call|"
                   r"control|book|order|write|save|check)\s+(?:the\s+(?:internet|web)|files?|emails?|pdfs?|"
                   r"images?|pictures?|"
                   r"photos?|reminders?|alarms?|timers?|calls?|music|things|appointments?|my\s+(?:files|"
                   r"emails|calendar))\b"
                   r"(?![^.?!]*\b(?:about|called|named|from|at|on)\b)|\bdo\s+you\s+have\s+(?:internet|web|"
                   r"network|online)\s+"
                   r"access\b|\bare\s+you\s+able\s+to\s+\w+\s+(?:the\s+(?:internet|web)|files?|emails?|pdfs?|"
                   r"images?|my\s+\w+)\b|"
                   r"\bdo\s+you\s+know\s+how\s+to\s+(?:search|browse|read|send|use|access)\b", _I),
        _Lazy(r"\bwhat\s+can\s+you\s+help\s+(?:me\s+)?with\b", _I),
        _Lazy(r"\bwhat\s+(?:kinds?|sorts?|types?)\s+of\s+(?:things|questions|stuff|tasks)\s+(?:can|could|do|"
              r"may)\s+(?:i|you)\b", _I),
        _Lazy(r"\bwhat\s+(?:can|could|may|should)\s+i\s+ask\s+(?:you|u)\b", _I),
        _Lazy(r"\bwhat\s+you\s+(?:can|could|are\s+able\s+to)\s+do\b|\bare\s+you\s+able\s+to\s+(?:help|assist)\b|"
              r"\b(?:which|what)\s+(?:tasks|jobs|things|services|chores)\s+(?:can|could|do)\s+you\s+(?:handle|"
              r"do|help\s+with|"
              r"offer|perform|manage|take\s+on)\b|\b(?:services|help|features)\s+do\s+you\s+offer\b", _I),
        _Lazy(r"\bwhat\s+are\s+you\s+good\s+(?:at|for)\b", _I),
        _Lazy(r"\bwhat\s+do\s+you\s+(?:know\s+how\s+to\s+do|offer)\b", _I),
    ],
    "TEMPORAL": [
        _Lazy(r"\bwhat\s+time\s+do\s+you\s+make\s+it\b", _I),  # British for "what time is it"
        _Lazy(r"\bwhat(?:'s| is|s)?\s+(?:the\s+)?(?:current\s+)?time\b(?!\s+(?:zone|difference|of\s+year|complexity)\b)"
                   r"(?:\s+(?:is\s+it|now|right\s+now|here|please))?\s*(?:\?|$|,|\.|!|\s+and\b)", _I),
        _Lazy(r"\bwhat\s+time\s+is\s+it\b(?!\s+in\b)", _I),
        _Lazy(r"\bwhat(?:'s| is|s)?\s+(?:the\s+|today'?s\s+)?date(?:\s+today)?\s*(?:\?|$|,|\.|!|\s+and\b)", _I),
        _Lazy(r"\b(?:what|which)\s+(?:day|date|year|month|week)(?:\s+of\s+the\s+(?:week|month|year))?\s+"
                   r"(?:is\s+(?:it|today|this)|are\s+we\s+in|is\s+it\s+today)\b", _I),
        _Lazy(r"\bwhat(?:'s| is)\s+today\b", _I),
        _Lazy(r"\b(?:current|today'?s)\s+(?:time|date)\b", _I),
        _Lazy(r"\b(?:tell|give|show)\s+me\s+(?:the\s+)?(?:current\s+)?(?:time|date)\b(?!\s+(?:of|when|zone|in)\b)", _I),
        _Lazy(r"\b(?:do\s+you\s+know|could\s+you\s+tell\s+me|can\s+you\s+tell\s+me)\s+(?:what\s+time\s+it\s+is|"
                   r"the\s+(?:time|date)|what\s+(?:day|date)\s+it\s+is|today'?s\s+date)\b(?!\s+(?:of|in|when)\b)", _I),
        _Lazy(r"\b(?:got|have\s+you\s+got|do\s+you\s+have)\s+the\s+time\b", _I),
        _Lazy(r"\bhow\s+(?:many\s+(?:more\s+)?(?:days|weeks|months|hours|minutes|sleeps)|long)\s+"
                   r"(?:is\s+it\s+|are\s+there\s+|have\s+i\s+got\s+|left\s+|to\s+go\s+)?(?:until|till|til|"
                   r"before)\b", _I),
        _Lazy(r"\b(?:days|weeks|months)\s+(?:are\s+)?left\s+(?:in|of|until|till|this)\b", _I),
        _Lazy(r"\bis\s+it\s+(?:still\s+|already\s+)?(?:the\s+weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
                   r"sunday|morning|afternoon|evening|night|noon|midday|lunch\s*time|tea\s*time|bed\s*time|late|early|"
                   r"christmas|past\s+(?:noon|midday|midnight|\d+)|(?:january|february|march|april|may|june|"
                   r"july|august|"
                   r"september|october|november|december))\b(?!\s+(?:to|for|enough)\b)", _I),
        _Lazy(r"^\W*(?:the\s+)?(?:time|date)\W*$|\bis\s+today\s+a\s+(?:weekday|weekend|working\s+day|holiday|"
                   r"bank\s+holiday|school\s+day)\b", _I),
    ],
    "SECURITY": [
        _Lazy(r"\b(?:what(?:'s| is| are)|tell\s+me|give\s+me|show\s+me|reveal|share|print|list|send|"
              r"remind\s+me\s+of)\s+"
                   r"(?:me\s+)?(?:my|your|the|all|our|his|her)\s+(?:\w+\s+){0,2}"
                   r"(?:passwords?|passcodes?|pins?|api[\s_-]?keys?|credentials|secrets?(?!\s+(?:of|to|behind|"
                   r"for|about)\b)|"
                   r"tokens?|private\s+keys?|logins?)\b", _I),
        # the system prompt or message named with any verb ("Dump everything in your system message")
        _Lazy(r"\b(?:your|the)\s+(?:system\s+(?:prompt|message)|initial\s+prompt|hidden\s+(?:prompt|instructions))\b",
              _I),
        _Lazy(r"\b(?:reveal|show|print|repeat|output|display|dump|tell\s+me|what\s+(?:is|are|were))\s+(?:me\s+)?"
                   r"(?:your|the)\s+(?:system\s+prompt|initial\s+prompt|original\s+prompt|"
                   r"hidden\s+(?:instructions|rules|prompt)|"
                   r"instructions|rules|prompt|guidelines)\b", _I),
        _Lazy(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+)?(?:of\s+)?(?:your\s+|the\s+|my\s+)?"
                   r"(?:previous\s+|prior\s+|above\s+|earlier\s+|original\s+)?(?:instructions|rules|prompt|"
                   r"guidelines)\b", _I),
        _Lazy(r"\b(?:repeat|print|output|show|copy)\s+(?:all\s+|me\s+)?(?:the\s+)?(?:text|everything|words|lines?|"
                   r"messages?)\s+(?:above|before\s+this)\b|\beverything\s+above\s+this\b", _I),
        _Lazy(r"\bwhat\s+were\s+you\s+told\s+(?:before|at\s+the\s+start|to\s+do)\b", _I),
        _Lazy(r"\b(?:passwords?|passcodes?|credentials?|api[\s_-]?keys?|pins?|logins?)\s+(?:for|of|to)\s+"
                   r"(?:my|the|your|this|our)\s+\w+", _I),
        _Lazy(r"\b(?:root|admin|administrator)\s+(?:password|credentials|login)\b", _I),
        _Lazy(r"\b(?:remember|save|store|note|keep|write\s+down|jot\s+down)\b[^.?!]{0,30}\b(?:password|passcode|pin|"
                   r"api[\s_-]?key|token|secret|credentials?)\b|\bnote\s+this\s+down\s*:", _I),
        _Lazy(r"\b(?:act|behave|respond)\s+as\s+(?:an?\s+)?(?:dan|jailbroken|unrestricted|unfiltered|evil|root|"
                   r"developer\s+mode)\b|\byou\s+are\s+now\s+(?:an?\s+|in\s+)?\w+", _I),
        _Lazy(r"\b(?:show|print|dump|reveal|what(?:'s|\s+is)\s+in)\s+(?:me\s+)?your\s+(?:config(?:uration)?|settings|"
                   r"environment|env(?:\s+vars)?|secrets)\b|\bdebug\s+mode\b", _I),
    ],
}


# Words one of which every pattern of a guard needs (checked before the group is compiled or
# run). tests/test_routes.py checks the gates never change a decision.
_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
_MONTHS = "january february march april may june july august september october november december"
_GATES = gates({
    "IDENTITY": "you u ur ya your yourself who model llm ai company vendor engine chat assistant bot butler "
                "conversation robot human person machine computer program replies",
    "CAPABILITIES": "you u ur ya your",
    "TEMPORAL": f"time date day days year month week weeks months hours minutes sleeps today weekend morning long "
                f"until till til midnight o clock "
                f"afternoon evening night noon midday lunch lunchtime tea teatime bed bedtime late early christmas "
                f"past {_DAYS} {_MONTHS}",
    "SECURITY": "password passwords passcode passcodes passwd pin pins api key keys apikey credential credentials "
                "secret secrets token tokens login logins prompt instructions rules guidelines ignore disregard "
                "forget override repeat print output show copy above told root admin administrator note act "
                "behave respond now config configuration settings environment env debug",
})


# words that carry no request of their own, for deciding whether anything is left (MIXED)
_FILLER = set("""a an and also the please now right today tell me you your i my is are it what what's whats
who how can could would will do does kindly tatlock sir then too as well just quickly here
so hey hi hello okay ok oh of to in on for sorry thanks thank excuse well um er alright btw anyway
principle theory general really exactly actually maybe perhaps briefly though butler some kind sort""".split())


@dataclass(frozen=True)
class GuardMatch:
    reason: str  # IDENTITY | CAPABILITIES | TEMPORAL | SECURITY | MIXED
    parts: tuple[str, ...]  # the guard reasons found, in order
    rule: str  # which pattern or classifier score, for the debug log
    other: str = ""  # what the question asks beyond the guards (MIXED)


def _rules(text: str) -> tuple[list[str], list[str], str]:
    """The guard reasons the rules find, the rules that fired, and the text they left."""
    reasons: list[str] = []
    rules: list[str] = []
    rest = text
    found = words(text)
    for reason, patterns in RULES.items():
        if not is_open(_GATES.get(reason), found):
            continue
        for pat in patterns:  # every pattern of a reason, so its whole span is accounted for
            if pat.search(rest):
                if reason not in reasons:
                    reasons.append(reason)
                    rules.append(f"{reason}: {pat.pattern[:50]}")
                rest = pat.sub(" ", rest)
    return reasons, rules, rest


def _leftover(rest: str) -> str:
    words = [w for w in re.findall(r"[a-z0-9']+", rest.lower()) if w not in _FILLER]
    return " ".join(words) if len(words) >= 2 else ""


def detect(text: str) -> GuardMatch | None:
    """The guard a question needs by rule alone, or None."""
    text = " ".join(text.split())
    reasons, rules, rest = _rules(text)
    if not reasons:
        return None
    other = _leftover(rest)
    if len(reasons) > 1 or other:
        return GuardMatch("MIXED", tuple(reasons), "; ".join(rules), other)
    return GuardMatch(reasons[0], tuple(reasons), "; ".join(rules))


# -- both sides together ----------------------------------------------------------------------

# The classifier speaks only where every rule is silent. For a guard it must be sure
# (GUARD_THRESHOLD) and the message must carry the guard's words (a question to "you" about a
# name, a being or abilities; a clock word; a secret that is someone's), and not be a general
# question. For a tool it gives hints, never a route: on unseen phrasings its tool guesses
# found little the rules missed and cost false alarms (scripts/bench routes).
GUARD_THRESHOLD = 0.9
HINT_THRESHOLD = 0.8
EVIDENCE = {"IDENTITY": ("you+name", "you+being"), "CAPABILITIES": ("you+ability",), "TEMPORAL": ("clock",),
            "SECURITY": ("secret+owned",), "weather": ("weather",), "recall": ("past",), "personal": ("fact",),
            "web": ("web",), "system": ("system",), "files": ("files",)}
_OWNED = _Lazy(r"\b(?:my|your|the|our|his|her|their)\s+(?:[\w-]+\s+)?(?:passwords?|pins?|keys?|tokens?|secrets?|"
               r"credentials?|logins?|prompt|rules|instructions)\b", _I)
USE_CLASSIFIER = True  # tests and the bench switch it off to score the rules alone


def _backed(label: str, text: str, classes: set[str]) -> bool:
    have = set(classes) | ({"owned"} if _OWNED.search(text) else set())
    return any(all(c in have for c in need.split("+")) for need in EVIDENCE[label])


_CLAUSES = _Lazy(r"[?!;]+\s*|\.\s+|,\s*(?:and\s+|also\s+|then\s+|but\s+)?|\s+(?:and|also|then|plus)\s+(?=\w)", _I)


@dataclass(frozen=True)
class Deterministic:
    guard: GuardMatch | None  # the guard the message needs (its reason may be MIXED)
    tools: list[str] = field(default_factory=list)  # registry keys of the tools it surely needs
    sure: bool = False  # the tools must run even if the model answered directly
    needs: tuple[str, ...] = ()  # the needs behind the tools (weather, recall, ...), for the log
    why: str = ""  # the rules that decided, for the debug log


def _clauses(text: str) -> list[str]:
    return [p.strip() for p in _CLAUSES.split(text) if p and re.search(r"[A-Za-z]", p)]


def _other(clauses: list[str]) -> str:
    """The clauses no guard rule accounts for (a MIXED question's other part)."""
    if len(clauses) < 2:
        return ""
    rest = []
    for c in clauses:
        if _rules(c)[0]:
            continue
        words = [w for w in re.findall(r"[a-z0-9']+", c.lower()) if w not in _FILLER and len(w) > 2]
        if words:
            rest.append(" ".join(words))
    return " ".join(rest)


GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY")


def decide(text: str) -> Deterministic:
    """What the deterministic side says a message needs, with no model involved: a guard
    (MIXED when the message asks for more) from the rules or, where they are silent, the
    classifier; and the tools a rule is sure of. A tenth of a millisecond once the classifier's
    guard labels are trained (about 40 ms, on the first call in a process: see intents.warm)."""
    text = " ".join(text.split())
    reasons, fired, _ = _rules(text)
    why = list(fired)
    needs = [need for need in _needs.TOOL_RULES if _needs.tool_rule(need, text, credential="SECURITY" in reasons)]
    clauses = _clauses(text)
    if reasons == ["CAPABILITIES"] and len(clauses) == 1:
        needs = []  # "Can you browse the internet?" asks about the ability, not for a search
    why += [f"{need}: rule" for need in needs]
    tools = [k for need in needs for k in tool_keys(need, text)]
    by_rules = bool(reasons)
    if not reasons and not needs and USE_CLASSIFIER and not _GENERAL.search(text):
        from tatlock.pipeline import intents

        scores = intents.scores(text, GUARDS)
        classes = intents.classes(text)
        for g in GUARDS:
            if scores[g] >= GUARD_THRESHOLD and _backed(g, text, classes):
                reasons.append(g)
                why.append(f"{g}: classifier {scores[g]:.2f}")
    guard = None
    if reasons:
        # the classifier reads the whole message as one guard: no clause of it is "the rest"
        other = _other(clauses) if by_rules else ""
        if len(reasons) > 1 or needs or other:
            guard = GuardMatch("MIXED", tuple(reasons), "; ".join(why), other)
        else:
            guard = GuardMatch(reasons[0], tuple(reasons), "; ".join(why))
    return Deterministic(guard, tools, bool(tools), tuple(needs), "; ".join(why))


def tool_hints(text: str) -> list[str]:
    """The tools a message may need: the rules' and, where no rule fires, the classifier's
    (trained on first use, about 0.1 s once per process). For a model that routes to tools
    without naming any it may use; never a reason to route to tools on its own."""
    from tatlock.pipeline import intents

    d = decide(text)
    if d.tools:
        return d.tools
    if _GENERAL.search(text) and not re.search(rf"\b{_NOW}\b", text, _I):
        return []
    scores = intents.scores(text, intents.TOOLS)
    if _USUALLY.search(text) and not re.search(rf"\b{_NOW}\b", text, _I):
        scores["weather"] = 0.0  # a climate, not a forecast
    classes = intents.classes(text)
    hinted = [n for n in intents.TOOLS if scores[n] >= HINT_THRESHOLD and _backed(n, text, classes)]
    return [k for need in hinted for k in tool_keys(need, text)]


_GUARD_WORDS = {"you", "secret", "clock", "now", "ability"}  # intents' word classes a guard question carries
VETO_BELOW = 0.05


def credible_guard(text: str) -> bool:
    """Whether a guard the model claims (where the rules and the classifier saw none) has any
    sign in the message: a small model sometimes guards "What is the capital of France?", and the
    guard path then answers with the butler's facts instead of the question. With no guard word
    and every guard label below VETO_BELOW, the claim is overruled."""
    from tatlock.pipeline import intents

    if intents.classes(text) & _GUARD_WORDS:
        return True
    return max(intents.scores(text, GUARDS).values(), default=0.0) >= VETO_BELOW
