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

_I = re.IGNORECASE


class _Lazy:
    """A pattern compiled on first use: importing this module stays cheap, and a rule group
    whose words a message does not contain is never compiled at all (see _GATES)."""

    __slots__ = ("pattern", "flags", "_re")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags, self._re = pattern, flags, None

    def _get(self) -> re.Pattern[str]:
        if self._re is None:
            self._re = re.compile(self.pattern, self.flags)
        return self._re

    def search(self, text: str) -> re.Match[str] | None:
        return self._get().search(text)

    def sub(self, repl: str, text: str) -> str:
        return self._get().sub(repl, text)

    def split(self, text: str) -> list[str]:
        return self._get().split(text)

_YOU = r"(?:you|u|ya)"
_WH_BE = r"(?:what(?:'s|s|\s+is)?|which(?:'s|\s+is)?)"

RULES: dict[str, list[re.Pattern[str]]] = {
    "IDENTITY": [
        _Lazy(r"\b(?:what(?:'s| is|s)|tell me|say|give me|know|ask|is)\s+(?:me\s+)?(?:your|ur)\s+(?:real\s+|full\s+|"
                   r"first\s+)?name\b|^\W*(?:and\s+)?(?:your|ur)\s+name\W*$", _I),
        _Lazy(r"\b(?:what|how)\s+(?:should|shall|do|can|may|must|would)\s+(?:i|we)\s+(?:call|address|name)\s+(?:you|u)\b", _I),
        _Lazy(r"\bwhat\s+(?:are\s+you|r\s+u)\s+called\b", _I),
        _Lazy(rf"\bwho\s+(?:exactly\s+|really\s+)?(?:are|r)\s+{_YOU}\b(?!\s+(?:voting|talking\s+about|going\s+to\s+vote|"
                   r"meeting|seeing)\b)", _I),
        _Lazy(r"\bwhat\s+(?:kind|sort|type)\s+of\s+(?:a\s+)?\w+\s+are\s+you\b(?!\s+(?:able|capable|good|into|after)\b)", _I),
        _Lazy(r"\b(?:is\s+(?:this|there|it)\s+(?:a|an)|am\s+i\s+(?:talking|chatting|speaking|writing)\s+(?:to|with)\s+"
              r"(?:a|an))\s+"
              r"(?:real\s+|live\s+|actual\s+)?(?:bot|robot|chatbot|human|person|machine|ai|computer|program)\b"
              r"(?![^.?!]{0,25}\b(?:that|which|who)\s+(?:can|could|will|would)\b)|"
              r"\bwho(?:'s|\s+is)\s+(?:on\s+the\s+other\s+end|behind\s+(?:this|these|the\s+(?:replies|answers|chat)))|"
              r"\b(?:do|what(?:\s+name)?\s+do)\s+you\s+go\s+by\b|^\W*and\s+you\s+are\W*$", _I),
        _Lazy(r"\b(?:where|how)\s+are\s+you\s+(?:running|hosted|located)\b|\bare\s+you\s+(?:running|hosted)\s+"
                   r"(?:in|on|locally|here)\b|\bis\s+this\s+(?:chat|assistant|bot|butler|conversation)\s+(?:running|hosted)\b",
                   _I),
        _Lazy(r"\bwho(?:'s|\s+is|\s+am\s+i|\s+are\s+we)\b[^.?!]{0,15}\b(?:talking|speaking|chatting|writing)\s+"
                   r"(?:to|with)\b(?!\s+(?:him|her|them|my|the|a)\b)", _I),
        _Lazy(r"\bwho(?:'s|\s+is)\s+(?:this|that|there|speaking|talking)\s*(?:\?|$)", _I),
        _Lazy(r"\bwhat\s+(?:exactly\s+)?are\s+you\b(?!\s+(?:doing|up to|thinking|saying|talking|going|looking|reading|"
                   r"working|able|capable|having|cooking|planning|watching|listening|afraid|wearing|on about|good|up|into|like|"
                   r"for|made\s+of|worth|interested|saying|trying|hoping|reading))", _I),
        _Lazy(r"\b(?:are|r)\s+(?:you|u)\s+(?:an?\s+)?(?:ai|bot|chatbot|robot|human|person|real|machine|computer|program|tatlock|"
                   r"(?:large\s+)?language\s+model|llm|chat\s*gpt|gpt|llama|gemma|mistral|qwen|claude|phi|smollm|"
                   r"artificial|sentient|conscious|alive)\b", _I),
        _Lazy(r"\bare\s+you\s+(?:based|built|running|powered|trained|made)\s+(?:on|by|with)\b", _I),
        _Lazy(r"\b(?:which|what)\s+(?:llm|(?:ai\s+|language\s+)?model|ai|company|vendor|engine)\b[^.?!]{0,25}?"
                   r"\b(?:are\s+you|is\s+(?:this|behind|running|powering)|powers|runs|made|built|trained|created|"
                   r"do\s+you\s+(?:use|run)|you\s+(?:use|run))\b", _I),
        _Lazy(r"\bintroduce\s+yourself\b|\b(?:tell\s+me|say\s+something)\s+(?:a\s+(?:bit|little)\s+)?about\s+yourself\b|"
                   r"\bdescribe\s+yourself\b", _I),
        _Lazy(r"\b(?:do\s+you\s+have|have\s+you\s+(?:got|a))\s+(?:a\s+)?name\b", _I),
        _Lazy(r"\bwho\s+(?:made|created|built|trained|programmed|developed|designed|owns|wrote)\s+you\b", _I),
    ],
    "CAPABILITIES": [
        _Lazy(rf"\bwhat\s+(?:else\s+)?(?:can|could)\s+{_YOU}\s+do\s*(?:for\s+me\s*)?(?:\?|$|,|\.|!|\s+and\b|\s+exactly\b)", _I),
        _Lazy(r"\bwhat\s+are\s+you\s+(?:able|capable)\s+(?:of|to\s+do)\b|\bwhat\s+are\s+you\s+capable\b", _I),
        _Lazy(r"\bwhat\s+(?:are\s+)?your\s+(?:capabilities|abilities|skills|features|functions|tools|powers|talents)\b", _I),
        _Lazy(r"\b(?:list|name|show\s+me)\s+your\s+(?:capabilities|abilities|skills|features|functions|tools)\b", _I),
        _Lazy(r"\b(?:what|which)\s+(?:tools|functions|features|skills|abilities)\s+(?:do|can)\s+you\s+(?:have|use|offer)\b", _I),
        _Lazy(r"\bhow\s+(?:can|could|might)\s+you\s+(?:help|assist)(?:\s+me)?\s*(?:\?|$|,|\.)|"
                   r"\bin\s+what\s+ways?\s+(?:can|could)\s+you\s+(?:help|assist)\b", _I),
        _Lazy(r"\b(?:can|could|do)\s+you\s+(?:browse|access|search|use|read|open|send|set|make|remember|see|hear|call|"
                   r"control|book|order|write|save|check)\s+(?:the\s+(?:internet|web)|files?|emails?|pdfs?|images?|pictures?|"
                   r"photos?|reminders?|alarms?|timers?|calls?|music|things|appointments?|my\s+(?:files|emails|calendar))\b"
                   r"(?![^.?!]*\b(?:about|called|named|from|at|on)\b)|\bdo\s+you\s+have\s+(?:internet|web|network|online)\s+"
                   r"access\b|\bare\s+you\s+able\s+to\s+\w+\s+(?:the\s+(?:internet|web)|files?|emails?|pdfs?|images?|my\s+\w+)\b|"
                   r"\bdo\s+you\s+know\s+how\s+to\s+(?:search|browse|read|send|use|access)\b", _I),
        _Lazy(r"\bwhat\s+can\s+you\s+help\s+(?:me\s+)?with\b", _I),
        _Lazy(r"\bwhat\s+(?:kinds?|sorts?|types?)\s+of\s+(?:things|questions|stuff|tasks)\s+(?:can|could|do|may)\s+(?:i|you)\b", _I),
        _Lazy(r"\bwhat\s+(?:can|could|may|should)\s+i\s+ask\s+(?:you|u)\b", _I),
        _Lazy(r"\bwhat\s+you\s+(?:can|could|are\s+able\s+to)\s+do\b|\bare\s+you\s+able\s+to\s+(?:help|assist)\b|"
              r"\b(?:which|what)\s+(?:tasks|jobs|things|services|chores)\s+(?:can|could|do)\s+you\s+(?:handle|do|help\s+with|"
              r"offer|perform|manage|take\s+on)\b|\b(?:services|help|features)\s+do\s+you\s+offer\b", _I),
        _Lazy(r"\bwhat\s+are\s+you\s+good\s+(?:at|for)\b", _I),
        _Lazy(r"\bwhat\s+do\s+you\s+(?:know\s+how\s+to\s+do|offer)\b", _I),
    ],
    "TEMPORAL": [
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
                   r"(?:is\s+it\s+|are\s+there\s+|have\s+i\s+got\s+|left\s+|to\s+go\s+)?(?:until|till|til|before)\b", _I),
        _Lazy(r"\b(?:days|weeks|months)\s+(?:are\s+)?left\s+(?:in|of|until|till|this)\b", _I),
        _Lazy(r"\bis\s+it\s+(?:still\s+|already\s+)?(?:the\s+weekend|monday|tuesday|wednesday|thursday|friday|saturday|"
                   r"sunday|morning|afternoon|evening|night|noon|midday|lunch\s*time|tea\s*time|bed\s*time|late|early|"
                   r"christmas|past\s+(?:noon|midday|midnight|\d+)|(?:january|february|march|april|may|june|july|august|"
                   r"september|october|november|december))\b(?!\s+(?:to|for|enough)\b)", _I),
        _Lazy(r"^\W*(?:the\s+)?(?:time|date)\W*$|\bis\s+today\s+a\s+(?:weekday|weekend|working\s+day|holiday|"
                   r"bank\s+holiday|school\s+day)\b", _I),
    ],
    "SECURITY": [
        _Lazy(r"\b(?:what(?:'s| is| are)|tell\s+me|give\s+me|show\s+me|reveal|share|print|list|send|remind\s+me\s+of)\s+"
                   r"(?:me\s+)?(?:my|your|the|all|our|his|her)\s+(?:\w+\s+){0,2}"
                   r"(?:passwords?|passcodes?|pins?|api[\s_-]?keys?|credentials|secrets?(?!\s+(?:of|to|behind|for|about)\b)|"
                   r"tokens?|private\s+keys?|logins?)\b", _I),
        _Lazy(r"\b(?:reveal|show|print|repeat|output|display|dump|tell\s+me|what\s+(?:is|are|were))\s+(?:me\s+)?"
                   r"(?:your|the)\s+(?:system\s+prompt|initial\s+prompt|original\s+prompt|hidden\s+(?:instructions|rules|prompt)|"
                   r"instructions|rules|prompt|guidelines)\b", _I),
        _Lazy(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+)?(?:of\s+)?(?:your\s+|the\s+|my\s+)?"
                   r"(?:previous\s+|prior\s+|above\s+|earlier\s+|original\s+)?(?:instructions|rules|prompt|guidelines)\b", _I),
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


_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
_MONTHS = "january february march april may june july august september october november december"
# Words one of which every pattern of a group needs (checked before the group is compiled or
# run); a group without an entry always runs. tests/test_routes.py checks the gates never
# change a decision.
_GATES: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
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
    "weather": "weather forecast rain raining rainy showers shower drizzle snow snowing sleet hail sunny sunshine "
               "cloudy overcast foggy fog misty windy wind gale gales storm storms stormy thunder thunderstorm "
               "thunderstorms frost frosty icy freezing cold chilly warm hot mild humid dry wet temperature "
               "umbrella brolly raincoat coat jacket sunscreen sun suncream wellies gloves scarf",
    "recall": "talk talked talking discuss discussed discussing say said saying tell told mention mentioned speak "
              "spoke spoken speaking chat chats chatted chatting ask asked decide decided agree agreed plan planned "
              "suggest suggested recommend recommended advise advised advice suggestion suggestions share shared "
              "remember recall remind conversation conversations talks discussion discussions session sessions "
              "memory memories history messages made met",
    "personal": "remember note keep save store record update change set moved live location hometown home town "
                "address birthday city country know stored saved got birth",
    "web": "search google look check find browse web internet news online latest todays breaking recent headlines "
           "updates update results scores score price cost value exchange rate odds won happening going saying "
           "reviews prices happened opening open ahead happen win lose get",
    "system": "computer machine laptop pc desktop system box server cpu processor ram memory disk storage drive "
              "swap space cores operating os version specs health status",
}.items()}


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


GATES_ON = True  # tests switch the gates off to check they never change a decision


def _open(group: str, words: frozenset[str], text: str) -> bool:
    gate = _GATES.get(group) if GATES_ON else None
    return gate is None or not words.isdisjoint(gate)

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
    words = _words(text)
    for reason, patterns in RULES.items():
        if not _open(reason, words, text):
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


# -- tools ------------------------------------------------------------------------------------

# Rules for the tool needs a small model most often answers from thin air. A match here is sure.
_NOW = (r"(?:today|tonight|tomorrow|now|right\s+now|currently|at\s+the\s+moment|this\s+(?:morning|afternoon|evening|"
        r"week|weekend)|later|outside|out\s+there|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r"(?:next|this)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)|over\s+the\s+weekend|"
        r"this\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))")
_WX = (r"(?:rain|raining|rainy|showers?|drizzle|snow|snowing|sleet|hail|sunny|sunshine|cloudy|overcast|foggy|fog|misty|"
       r"windy|wind|gales?|storms?|stormy|thunder(?:storms?)?|frost|frosty|icy|freezing|cold|chilly|warm|hot|mild|"
       r"humid|dry|wet)")
# A general question about a topic is not a request to look it up: "Why is the sky blue?",
# "How do weather forecasts work?", "What is a CPU?"
_GENERAL = _Lazy(r"^\s*(?:why\b|explain\b|define\b|what\s+(?:is|are)\s+(?:a|an)\b|what\s+(?:is|are)\s+[\w-]+\s*\?\s*$|"
                 r"what\s+causes\b|how\s+(?:does|do|did)\s+"
                      r"(?!i\b|you\b|we\b|my\b)|how\s+(?:do|can|should|would)\s+i\s+(?!need\b|look\b)|"
                      r"what\s+does\s+.{1,30}\s+mean\b|write\s+(?:a|me\s+a)\b|"
                      r"(?:can|could)\s+you\s+explain\b|tell\s+me\s+about\s+(?:the\s+)?history\b)", _I)

# Rules for the tool needs. Each is about now, here, me or our conversations, so a match is
# sure: the tool runs even when the model answers directly (a small model cannot know the
# weather, what was said last week, or this computer's disk).
TOOL_RULES: dict[str, list[re.Pattern[str]]] = {
    "weather": [
        _Lazy(r"\b(?<!under\s)(?<!under\sthe\s)(?:weather|forecast)\b(?!\s+(?:forecasting|models?|station|"
                   r"balloon|vane))", _I),
        _Lazy(rf"\b(?:will|is|was|has)\s+(?:it|today|tonight|tomorrow|the\s+weekend|monday|tuesday|wednesday|thursday|"
                   rf"friday|saturday|sunday)\s+(?:going\s+to\s+|gonna\s+|still\s+|stopped\s+)?(?:be\s+)?{_WX}\b", _I),
        _Lazy(rf"\b(?:are|is)\s+there\s+(?:any\s+)?(?:storms?|rain|snow|frost|showers|thunder(?:storms?)?|fog|gales?|"
                   rf"wind)\b[^.?!]{{0,20}}\b(?:expected|forecast|coming|due|on\s+the\s+way|{_NOW})", _I),
        _Lazy(rf"\b(?:chance|risk|any|much)\s+(?:of\s+)?(?:rain|showers|snow|storms?|thunder|frost|sun)\b"
                   rf"[^.?!]{{0,30}}\b{_NOW}", _I),
        _Lazy(rf"\b(?:temperature|how\s+(?:cold|hot|warm|windy|wet|sunny))\b[^.?!]{{0,30}}\b{_NOW}\b", _I),
        _Lazy(rf"\b(?:is|will)\s+(?:there|it)\s+(?:be\s+)?(?:any\s+)?(?:rain|snow|frost|storms?|sun|wind|fog)\b", _I),
        _Lazy(r"\b(?:need|take|bring|wear|pack)\s+(?:an?\s+|my\s+)?(?:umbrella|brolly|raincoat|coat|jacket|sunscreen|"
                   r"sun\s*cream|wellies|gloves|scarf)\b(?!\s+(?:for\s+hiking|brand|size))", _I),
        _Lazy(rf"\b(?:has|have)\s+the\s+(?:rain|snow|storm|wind|fog)\s+(?:stopped|cleared|eased)\b", _I),
    ],
    "recall": [
        _Lazy(r"\bwhat\s+(?:were|was)\s+(?:we|i)\s+(?:talking|discussing|saying|chatting|speaking)\b", _I),
        _Lazy(r"\bwhat\s+(?:did|have|had)\s+(?:we|i)\s+(?:talk|talked|discuss|discussed|say|said|tell|told|mention|"
                   r"mentioned|speak|spoke|chat|chatted|ask|asked|decide|decided|agree|agreed|plan|planned)\b", _I),
        _Lazy(r"\bwhat\s+(?:did|have)\s+you\s+(?:tell|told|say|said|suggest|suggested|recommend|recommended|advise|"
                   r"advised)\b|\bwhat\s+(?:advice|suggestions?)\s+did\s+you\b", _I),
        _Lazy(r"\b(?:did|have|had)\s+i\s+(?:ever\s+)?(?:tell|told|mention|mentioned|say|said|ask|asked|share|shared)\b", _I),
        _Lazy(r"\b(?:have|did)\s+we\s+(?:ever\s+)?(?:talk|talked|discuss|discussed|speak|spoken|chat|chatted)\b", _I),
        _Lazy(r"\b(?:do|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b(?!\s+(?:things|anything\s+at\s+all|"
                   r"between|across|everything)\b)|\bremember\s+when\s+(?:i|we)\b", _I),
        _Lazy(r"\bremind\s+me\s+(?:of\s+)?what\s+(?:we|i|you)\b", _I),
        _Lazy(r"\b(?:our|my)\s+(?:last|previous|earlier|past|recent|first|other|old)\s+(?:conversations?|chats?|talks?|"
                   r"discussions?|sessions?)\b", _I),
        _Lazy(r"\b(?:search|look\s+through|check|find|go\s+through)\s+(?:in\s+)?(?:my|your|our)\s+(?:memory|memories|"
                   r"chats|conversations|history)\b|\bfind\s+(?:our|the)\s+(?:conversation|chat)\b", _I),
        _Lazy(r"\b(?:last|first)\s+time\s+(?:we|i)\s+(?:talked|spoke|chatted|discussed|met)\b", _I),
        _Lazy(r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+(?:first|last)\b", _I),
        _Lazy(r"\b(?:that|the)\s+\w+\s+(?:i|we)\s+(?:mentioned|recommended|discussed|talked\s+about|made)\b", _I),
        _Lazy(r"\b(?:list|show)\s+(?:me\s+)?(?:our|my)\s+(?:recent\s+|past\s+|old\s+)?(?:conversations|chats)\b", _I),
    ],
    "personal": [
        _Lazy(r"\b(?:remember|note|keep\s+in\s+mind|save|store|record)\s+(?:that\s+)?(?:i\b|i'm\b|my\b)", _I),
        _Lazy(r"^\s*(?:i|i'm|my)\b[^?]*[,.;]\s*(?:please\s+)?(?:remember|note|keep\s+(?:that|it|this)\s+in\s+mind|save|"
                   r"store)\b(?:\s+(?:that|it|this))?(?:\s+please)?\s*[.!]?\s*$", _I),
        _Lazy(r"\b(?:update|change|set|save)\s+my\s+(?:location|home\s*town|address|birthday|city|town|name|"
                   r"time\s*zone|date\s+of\s+birth)\b|\bi(?:'ve|\s+have)\s+moved\s+to\b", _I),
        _Lazy(r"\bwhere\s+do\s+i\s+live\b|\bwhat\s+(?:city|town|country)\s+(?:am\s+i|do\s+i\s+live)\s+in\b|"
                   r"\bwhat(?:'s|\s+is)\s+my\s+(?:location|home\s*town|address|birthday|date\s+of\s+birth|city)\b|"
                   r"\bwhen\s+is\s+my\s+birthday\b|\bwhat\s+(?:do\s+you\s+know|have\s+you\s+(?:stored|saved|got))\s+about\s+me\b",
                   _I),
    ],
    "web": [
        _Lazy(r"\b(?:search|google|look\s+up|look\s+online|check\s+online|find\s+online|browse)\b(?!\s+engines?\b)"
                   r"(?!\s+(?:in\s+|through\s+)?(?:my|your|our)\s+(?:memory|memories|chats|conversations|history)\b)", _I),
        _Lazy(r"\b(?:on|from)\s+the\s+(?:web|internet|news)\b", _I),
        _Lazy(r"\bwhat(?:'s|\s+is)\s+(?:happening|going\s+on)\b[^.?!]{0,30}\b(?:today|now|in\s+the\s+world|"
                   r"in\s+the\s+news)\b|\bwhat\s+(?:are|is)\s+(?:people|everyone|reviewers|critics)\s+saying\b|"
                   r"\b(?:find|get)\s+(?:me\s+)?(?:reviews|news|prices|results|the\s+latest)\b|\bcheck\s+(?:if|whether)\b"
                   r"(?![^.?!]*\b(?:my|this)\s+(?:computer|disk|file|machine|laptop)\b)", _I),
        _Lazy(r"\bdid\s+(?:the\s+)?\w+(?:\s+\w+)?\s+(?:go\s+ahead|happen|win|lose|get\s+\w+)\b[^.?!]{0,20}\b"
                   r"(?:today|this\s+morning|yesterday|last\s+night|this\s+week)\b", _I),
        _Lazy(r"\bthe\s+latest\s+(?:on|about|with|from|in)\b|"
                   r"\b(?:latest|today'?s|breaking|recent)\s+(?:news|headlines|updates?|results?|scores?)\b|"
                   r"\b(?:news|headlines)\s+(?:about|on|from|today)\b|\bany\s+(?:news|updates?)\b", _I),
        _Lazy(rf"\b(?:price|cost|value|exchange\s+rate|score|odds)\b[^.?!]{{0,40}}\b{_NOW}\b", _I),
        _Lazy(r"\bwho\s+won\b[^.?!]{0,40}\b(?:last\s+night|yesterday|today|this\s+(?:week|weekend|year)|at\s+the\s+"
                   r"weekend)\b", _I),
        _Lazy(r"\bwhat(?:'s|\s+is)\s+the\s+score\b|\bfind\s+out\s+(?:when|where|whether|if|what|who|how)\b", _I),
        _Lazy(r"\bwhat\s+happened\b[^.?!]{0,40}\b(?:yesterday|today|last\s+night|this\s+(?:morning|week))\b", _I),
        _Lazy(r"\bopening\s+(?:hours|times)\b|\b(?:is|are)\s+(?:the\s+)?\w+\s+open\s+(?:on|today|tomorrow|now)\b", _I),
    ],
    "system": [
        _Lazy(r"\b(?:my|this|the)\s+(?:computer|machine|laptop|pc|desktop|system|box|server)(?:'s)?\s+"
                   r"(?:specs|health|status|load|usage|memory|ram|cpu|disk|storage|uptime|resources|doing|running)\b", _I),
        _Lazy(r"\b(?:cpu|processor|ram|memory|disk|storage|drive|swap)\s+(?:usage|use|load|space|left|free|full|busy)\b|"
                   r"\bhow\s+(?:much|many)\s+(?:disk|storage|ram|memory|space|cores)\b[^.?!]{0,30}\b(?:left|free|used|"
                   r"in\s+use|this|my|here)\b", _I),
        _Lazy(r"\b(?:is|how)\s+(?:my|the|this)\s+(?:disk|drive|hard\s+drive|cpu|processor|memory|ram|computer|"
                   r"machine|laptop)\s+(?:full|busy|doing|holding\s+up|ok|okay|running\s+(?:hot|slow|out))\b|"
                   r"\bhow\s+(?:busy|full|loaded|hot)\s+is\s+(?:my|the|this)\s+(?:hard\s+)?(?:disk|drive|cpu|processor|"
                   r"memory|ram|computer|machine|laptop)\b|\b(?:is|are)\s+(?:my|the|this)\s+(?:hard\s+)?(?:disk|drive|"
                   r"cpu|processor|memory|ram|computer|machine|laptop)\s+(?:nearly|almost|getting|too|very|really|still)\s+"
                   r"(?:full|busy|hot|slow|overloaded)\b|\b(?:my|this|the)\s+(?:cpu|processor|computer|machine|laptop|disk|"
                   r"drive|ram|memory)\s+(?:doing|up\s+to)\b", _I),
        _Lazy(r"\b(?:check|report\s+on|show\s+me)\s+(?:the\s+)?(?:health|status|specs?)\s+of\s+(?:my|this|the)\s+"
                   r"(?:computer|machine|laptop|system|pc)\b|\bsystem\s+(?:report|info|information|status)\b", _I),
        _Lazy(r"\b(?:which|what)\s+(?:operating\s+system|os|version\s+of\s+\w+)\b[^.?!]{0,30}\b(?:this|my|here|"
                   r"installed|running|am\s+i)\b", _I),
    ],
    "files": [
        _Lazy(r"(?:^|\s)(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*", _I),
        _Lazy(r"\b[\w-]+\.(?:txt|md|pdf|csv|json|log|ya?ml|toml|ini|conf|cfg|py|docx?|xlsx?|html?|png|jpe?g|gif|"
                   r"webp)\b", _I),
    ],
}
# a file name in a general question is not a file to read: "What's a .csv file?"
_FILE_GENERAL = _Lazy(r"\b(?:what(?:'s|\s+is)\s+an?\s+\.?\w+\s+file|how\s+do\s+i\s+(?:open|read|write|parse|create)|"
                           r"extension|format)\b", _I)


# Concrete tools for a need; which one of several the question's wording picks.
_RECALL_TIME = _Lazy(r"\b(?:yesterday|last\s+(?:week|month|year|night|monday|tuesday|wednesday|thursday|friday|"
                          r"saturday|sunday)|(?:this|that)\s+(?:morning|week)|in\s+(?:january|february|march|april|may|june|"
                          r"july|august|september|october|november|december)|on\s+(?:monday|tuesday|wednesday|thursday|"
                          r"friday|saturday|sunday)|\d+\s+(?:days|weeks|months)\s+ago)\b", _I)
_RECALL_LIST = _Lazy(r"\b(?:list|show)\b[^.?!]{0,20}\b(?:conversations|chats)\b", _I)
_RECALL_STATS = _Lazy(r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+first\b", _I)
_STORE = _Lazy(r"\b(?:remember|note|save|store|record|keep\s+in\s+mind|update|change|set)\b|\bi(?:'ve|\s+have)\s+moved\b", _I)

_USUALLY = _Lazy(r"\b(?:usually|typically|normally|generally|in\s+general|on\s+average|as\s+a\s+rule|each\s+year|"
                 r"every\s+year|climate)\b", _I)


def _tool_rule(need: str, text: str) -> bool:
    general = _GENERAL.search(text) or (need == "weather" and _USUALLY.search(text))  # a climate, not a forecast
    if general and not re.search(rf"\b{_NOW}\b", text, _I):
        return False
    if need == "personal" and any(p.search(text) for p in RULES["SECURITY"]):
        return False  # a credential is never kept as a personal fact
    if need == "files" and ("/" not in text and "." not in text or _FILE_GENERAL.search(text)):
        return False
    if not _open(need, _words(text), text):
        return False
    return any(p.search(text) for p in TOOL_RULES.get(need, ()))  # run even when the model answers directly


def tool_keys(need: str, text: str) -> list[str]:
    """The registry's tools for a need ("weather", "recall", ...), picked by the wording."""
    if need == "recall":
        if _RECALL_STATS.search(text):
            return ["conversation_stats"]
        if _RECALL_LIST.search(text):
            return ["list_conversations"]
        return ["recall_memories_with_time" if _RECALL_TIME.search(text) else "recall_memories"]
    if need == "personal":
        return ["set_personal_variable" if _STORE.search(text) else "get_personal_variable"]
    return {"weather": ["get_weather_forecast"], "web": ["web_search"], "system": ["get_system_info"],
            "files": ["analyze_file"]}.get(need, [])


# -- both sides together ----------------------------------------------------------------------

# The classifier only adds hints: the tools a message may need where no rule is sure, for a
# model that routes to tools but names none it may use (never a route of its own: on held-out
# phrasings its guesses cost more false alarms than they found needs; see scripts/bench routes).
HINT_THRESHOLD = 0.8
# the words a hint needs besides the classifier's score: the topic of the tool
EVIDENCE = {"weather": "weather", "recall": "past", "personal": "fact", "web": "web", "system": "system",
            "files": "files"}
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
    """What the rules say a message needs, with no model involved: a guard (MIXED when the
    message asks for more), and the tools a rule is sure of. Microseconds; no classifier."""
    text = " ".join(text.split())
    reasons, fired, _ = _rules(text)
    why = list(fired)
    needs = [need for need in TOOL_RULES if _tool_rule(need, text)]
    clauses = _clauses(text)
    if reasons == ["CAPABILITIES"] and len(clauses) == 1:
        needs = []  # "Can you browse the internet?" asks about the ability, not for a search
    why += [f"{need}: rule" for need in needs]
    tools = [k for need in needs for k in tool_keys(need, text)]
    guard = None
    if reasons:
        other = _other(clauses)
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
    scores = intents.scores(text)
    if _USUALLY.search(text) and not re.search(rf"\b{_NOW}\b", text, _I):
        scores["weather"] = 0.0  # a climate, not a forecast
    classes = intents.classes(text)
    hinted = [n for n in intents.TOOLS if scores[n] >= HINT_THRESHOLD and EVIDENCE[n] in classes]
    return [k for need in hinted for k in tool_keys(need, text)]
