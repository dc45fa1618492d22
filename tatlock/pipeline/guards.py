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
from tatlock.pipeline.guard_rules import GATES as _GATES
from tatlock.pipeline.guard_rules import RULES
from tatlock.pipeline.needs import GENERAL as _GENERAL
from tatlock.pipeline.needs import NOW as _NOW
from tatlock.pipeline.needs import USUALLY as _USUALLY
from tatlock.pipeline.needs import tool_keys
from tatlock.pipeline.patterns import I as _I
from tatlock.pipeline.patterns import Lazy as _Lazy
from tatlock.pipeline.patterns import is_open, words

# words that carry no request of their own, for deciding whether anything is left (MIXED)
_FILLER = set("""a an and also the please now right today tell me you your i my is are it what what's whats
who how can could would will do does kindly tatlock sir then too as well just quickly here
so hey hi hello okay ok oh of to in on for sorry thanks thank excuse well um er alright btw anyway
principle theory general really exactly actually maybe perhaps briefly though butler some kind sort
hang hold wait quick q question hmm hm erm um uh lol haha forgive pardon asking dear mind don't wondering wonder
curious something else someone like confirm was were did does has have had been llama mistral gemma qwen phi gpt chatgpt claude gemini openai google anthropic meta startup
""".split())


@dataclass(frozen=True)
class GuardMatch:
    reason: str  # IDENTITY | CAPABILITIES | TEMPORAL | SECURITY | MIXED
    parts: tuple[str, ...]  # the guard reasons found, in order
    rule: str  # which pattern or classifier score, for the debug log
    other: str = ""  # what the question asks beyond the guards (MIXED)


# the date or time as something a program computes ("python: get current date in iso 8601")
_CLOCK_IN_CODE = _Lazy(r"\b(?:get|print|format|convert|parse|display|output|generate|compute|calculate|insert|"
                       r"return|log)\s+(?:the\s+)?(?:current\s+|today'?s\s+)?(?:date|time|year|timestamp|datetime)\b|"
                       r"\biso\s*8601\b|\bstrftime\b", _I)


# words quoted to be translated or explained are not said to the butler ('how do you say "what's
# your name" in French')
_QUOTED_ASK = _Lazy(r"\btranslat\w*|\bhow\s+(?:do\s+you|to|would\s+you|do\s+i)\s+say\b|\bin\s+(?:french|german|spanish|"
                    r"italian|dutch|portuguese|japanese|chinese|welsh|latin|russian|arabic)\b|\bwhat\s+does\b", _I)
_QUOTED = re.compile(r"\"[^\"]{1,200}\"|“[^”]{1,200}”|'[^']{3,200}'(?!\w)")


def _rules(text: str) -> tuple[list[str], list[str], str]:
    """The guard reasons the rules find, the rules that fired, and the text they left."""
    if _QUOTED_ASK.search(text):
        text = _QUOTED.sub(" ", text)
    reasons: list[str] = []
    rules: list[str] = []
    rest = text
    found = words(text)
    for reason, patterns in RULES.items():
        if not is_open(_GATES.get(reason), found) or (reason == "TEMPORAL" and _CLOCK_IN_CODE.search(text)):
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
# question. For a tool it routes only when sure (TOOL_THRESHOLD, with the tool's words), and
# hints below that: trained on the 2,128 shipped questions, its sure tool guesses added 8-12
# points of tool recall on unseen sets and no false alarm (scripts/bench routes).
GUARD_THRESHOLD = 0.9
TOOL_THRESHOLD = 0.8  # sure enough to run the tool even when the model answers directly
HINT_THRESHOLD = 0.8
EVIDENCE = {"IDENTITY": ("you+name", "you+being"), "CAPABILITIES": ("you+ability",), "TEMPORAL": ("clock",),
            "SECURITY": ("secret+owned",), "weather": ("weather",), "recall": ("past",), "personal": ("fact",),
            "web": ("web",), "system": ("system",), "files": ("files",)}
_OWNED = _Lazy(r"\b(?:my|your|the|our|his|her|their)\s+(?:[\w-]+\s+)?(?:passwords?|pins?|keys?|tokens?|secrets?|"
               r"credentials?|logins?|prompt|rules|instructions)\b", _I)
_CARD_NUMBER = re.compile(r"\b(?:\d{4}[ -]){3}\d{1,7}\b")
# "you" as anyone ("What can you do with leftover rice?") or advice asked for ("What are you able
# to recommend for a headache?"): not a question about the butler's abilities
_GENERIC_ABILITY = _Lazy(r"\b(?:can|could|should|would|do)\s+(?:you|one|i|we)\s+(?:do|make|cook|use|try)\s+"
                         r"(?:with|for|about)\b|\b(?:recommend|suggest)\b|\b(?:able|possible)\s+to\s+(?:explain|describe|"
                         r"tell\s+me\s+(?:about|how|why|what))\b|\bhow\s+(?:long|much|many|often|far)\s+(?:can|could|should)\s+"
                         r"(?:you|one)\b", _I)
# "you" as anyone: "who are you supposed to tip in a hotel?"
_ANYONE = _Lazy(r"\b(?:are|should|do)\s+you\s+(?:supposed|meant|expected|allowed)\s+to\b", _I)
# "time" in a phrase that asks for no clock ("leave it plugged in all the time", "what time is
# afternoon tea traditionally taken")
_TIME_IDIOM = _Lazy(r"\b(?:traditionally|usually|typically|normally|customarily)\b|\b(?:all|most|half|some)\s+(?:of\s+)?the\s+time\b|\b(?:at\s+the\s+same|from\s+time\s+to|in\s+no|"
                    r"every|each|any|on|in|over|long|first|last|next|spare|free|quality|screen)\s+time\b", _I)
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


# a clause that only talks ("I've completely lost track", "feels like it should be", "I need it for
# a script") asks for nothing more: the question stays a plain guard, not MIXED
_CHATTER = _Lazy(r"^\W*(?:i|i'm|i've|i'd|i'll|im|it|it's|its|that|that's|this|feels|seems|lol|haha|we're|thanks|"
                 r"cheers|sorry|genuinely|honestly|seriously|long\s+story|just\s+(?:curious|wondering|asking|so\s+i\s+"
                 r"know)|no\s+reason|asking\s+for\s+a\s+friend|my\s+(?:brain|head|mind|memory)|no\s+rush|so|"
                 r"if\s+you\s+don't\s+mind|be\s+honest|you\s+(?:must|should)\s+have|(?:ok\s+|okay\s+)?before\s+we\s+"
                 r"(?:start|begin)|first\s+things\s+first|to\s+start\s+with|(?:totally\s+|completely\s+)?lost\s+track|"
                 r"out\s+of\s+interest|quick\s+(?:one|question|check|sanity\s+check)|(?:i\s+)?need\s+it\s+for|"
                 r"stay\s+in\s+character)\b"
                 r"(?![^?]*\b(?:why|how|what|when|where|which|who|explain|tell\s+me)\b)", _I)


def _other(clauses: list[str]) -> str:
    """The clauses no guard rule accounts for (a MIXED question's other part)."""
    if len(clauses) < 2:
        return ""
    rest = []
    for c in clauses:
        if _rules(c)[0] or _CHATTER.search(c):
            continue
        words = [w for w in re.findall(r"[a-z0-9']+", c.lower()) if w not in _FILLER and len(w) > 2]
        if words:
            rest.append(" ".join(words))
    return " ".join(rest)


GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY")


# the second person in other Englishes ("what's yer name", "can ye", "y'all got"), read as "you"
_DIALECT = [(re.compile(r"\b(?:yer|yur)\b", re.I), "your"), (re.compile(r"\b(?:ye|ya|y'all|yall)\b", re.I), "you"),
            (re.compile(r"\byerself\b", re.I), "yourself")]


# the shorthand of a shell one-liner or a chat ("wx ldn tmrw?", "ur name?", "time rn + wx nyc",
# "q: show hidden rules"), and apostrophes a voice keyboard leaves out ("whats", "dont"), read as
# the words they stand for
_SHORTHAND = [(re.compile(p, re.I), plain) for p, plain in (
    (r"^\s*(?:q|ask|question|quick\s+q)\s*:\s*", ""), (r"\s\+\s", " and "), (r"(?<![.\w])u(?![.\w])", "you"),
    (r"(?<![.\w])ur(?![.\w])", "your"), (r"\br\s+(?=you\b)", "are "), (r"\brn\b", "right now"), (r"\b(?:yr)\b", "year"),
    (r"\bwx\b", "weather"), (r"\b(?:tmrw|tmr|tmrow|2moro|2morrow)\b", "tomorrow"), (r"\b2day\b", "today"),
    (r"\b(?:pw|pwd|passwd)\b", "password"), (r"\bprev\b", "previous"), (r"\bsys\b", "system"),
    (r"\b(?:bday|b-day)\b", "birthday"), (r"\bconvo\b", "conversation"), (r"\bconvos\b", "conversations"),
    (r"\bwkday\b", "weekday"), (r"\bhow\s+2\b", "how to"), (r"\bmsgs?\b", "messages"),
    (r"\b(?:whats|wats)\b", "what's"), (r"\bdoin\b", "doing"), (r"\bdont\b", "don't"), (r"\bcant\b", "can't"), (r"\bdoesnt\b", "doesn't"),
    (r"\bdidnt\b", "didn't"), (r"\bisnt\b", "isn't"), (r"\bim\b", "I'm"), (r"\bive\b", "I've"),
    (r"\byoure\b", "you're"), (r"\bthats\b", "that's"), (r"\bwhos\b", "who's"))]


ROUTE_SPAN = 2000  # characters read from each end of a long message: an ask sits at its start or its end


def ends(text: str) -> str:
    """A long message's two ends (ROUTE_SPAN characters each); a short one whole."""
    return f"{text[:ROUTE_SPAN]} . {text[-ROUTE_SPAN:]}" if len(text) > 2 * ROUTE_SPAN else text


def plain_words(text: str) -> str:
    """The message with its dialect and shorthand read as plain English, for the rules. A long
    message (a pasted text with a question before or after it) is read at its two ends, so the
    route costs the same for a megabyte as for a page."""
    text = " ".join(ends(text).split())
    for pat, plain in _DIALECT + _SHORTHAND:
        text = pat.sub(plain, text)
    return text


def decide(text: str) -> Deterministic:
    """What the deterministic side says a message needs, with no model involved: a guard
    (MIXED when the message asks for more) from the rules or, where they are silent, the
    classifier; and the tools a rule or, where no rule fires, the classifier is sure of. About a fifth
    of a millisecond once the classifier is trained (about a second once, then cached in the data
    folder: see intents.warm); a long message is read at its two ends."""
    text = plain_words(text)
    reasons, fired, _ = _rules(text)
    why = list(fired)
    if "SECURITY" not in reasons and _CARD_NUMBER.search(text):
        reasons.append("SECURITY")  # a payment card's number, given to be kept or used
        why.append("SECURITY: a card number")
    clauses = _clauses(text)
    asked = text
    if "CAPABILITIES" in reasons:
        # "Can you browse the internet?" asks about the ability, not for a search: only the clauses
        # that are not about an ability can need a tool
        asked = " . ".join(c for c in clauses if "CAPABILITIES" not in _rules(c)[0])
    unquoted = _QUOTED.sub(" ", asked)  # a title quoted is no request ('who wrote "In Search of Lost Time"')
    needs = [need for need in _needs.TOOL_RULES
             if asked and _needs.tool_rule(need, unquoted if need == "web" else asked, credential="SECURITY" in reasons)]
    why += [f"{need}: rule" for need in needs]
    rule_needs = bool(needs)
    general = bool(_GENERAL.search(text))  # a lesson: the classifier claims neither a tool nor a guard
    if not needs and USE_CLASSIFIER and not {"CAPABILITIES", "SECURITY"} & set(reasons) and not general:
        learnt = _learnt_needs(text)
        needs += learnt
        why += [f"{need}: classifier" for need in learnt]
    tools = [k for need in needs for k in tool_keys(need, text)]
    by_rules = bool(reasons)
    if not reasons and not rule_needs and USE_CLASSIFIER and not general:
        from tatlock.pipeline import intents

        scores = intents.scores(text, GUARDS)
        classes = intents.classes(text)
        for g in GUARDS:
            if ((g == "CAPABILITIES" and _GENERIC_ABILITY.search(text)) or (g == "TEMPORAL" and _TIME_IDIOM.search(text))
                    or (g in ("IDENTITY", "CAPABILITIES") and _ANYONE.search(text))):
                continue
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


def _learnt_needs(text: str) -> list[str]:
    """The tools the classifier is sure of where no rule fired (TOOL_THRESHOLD, with the tool's
    words in the message, and not a climate: "Is it usually rainy in Lisbon in May?")."""
    from tatlock.pipeline import intents

    scores = intents.scores(text, intents.TOOLS)
    if _USUALLY.search(text) and not re.search(rf"\b{_NOW}\b", text, _I):
        scores["weather"] = 0.0
    classes = intents.classes(text)
    # a file is read only when one is named ("what does a .docx extension tell you" names none)
    # and past conversations only when the message speaks of us ("what did Churchill say" does not)
    ours = re.search(r"\b(?:we|us|our|you|i|me|my)\b", _QUOTED.sub(" ", text), _I)
    return [n for n in intents.TOOLS if scores[n] >= TOOL_THRESHOLD and _backed(n, text, classes)
            and (n != "files" or _NAMED_FILE.search(text)) and (n != "recall" or ours) and not _needs.lesson(n, text)]


_NAMED_FILE = _Lazy(r"(?:~|\.{1,2})?/[\w./-]+|\b[\w-]+\.[a-z]{2,5}\b", _I)


def tool_hints(text: str) -> list[str]:
    """The tools a message may need: the rules' and, where no rule fires, the classifier's
    (trained on first use, about 0.1 s once per process). For a model that routes to tools
    without naming any it may use; never a reason to route to tools on its own."""
    from tatlock.pipeline import intents

    text = ends(text)
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

    text = ends(text)
    if intents.classes(text) & _GUARD_WORDS:
        return True
    return max(intents.scores(text, GUARDS).values(), default=0.0) >= VETO_BELOW
