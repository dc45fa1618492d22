"""How a message is read before the routing rules see it, and the exceptions they defer to.

A message is read as plain English first (``plain_words``): the second person of other Englishes
("yer", "y'all"), a shell one-liner's or a chat's shorthand ("wx ldn tmrw", "ur name?", "rn") and
apostrophes a voice keyboard leaves out ("whats", "dont"). A long message is read at its two ends
(``ends``): an ask sits at its start or its end, and routing a pasted megabyte then costs what a
page costs. The exception rules name wordings that look like a guard but are not one ("what can
you do with leftover rice?", "who are you supposed to tip?", "all the time"); each is a ``Rule``
with its examples and near misses, in the ``routing.wording`` rulebook.
"""

from __future__ import annotations

import re
from functools import cache

from tatlock.pipeline.rulebook import Rule, Rulebook

# characters read from each end of a long message: an ask sits at its start or its end
ROUTE_SPAN = 2000


@cache
def _readings() -> list[tuple[re.Pattern[str], str]]:
    """The dialect and shorthand substitutions, compiled on first use."""
    table = (
        # the second person in other Englishes ("what's yer name", "can ye", "y'all got")
        (r"\b(?:yer|yur)\b", "your"),
        (r"\b(?:ye|ya|y'all|yall)\b", "you"),
        (r"\byerself\b", "yourself"),
        # a shell one-liner's or a chat's shorthand
        (r"^\s*(?:q|ask|question|quick\s+q)\s*:\s*", ""),
        (r"\s\+\s", " and "),
        (r"(?<![.\w])u(?![.\w])", "you"),
        (r"(?<![.\w])ur(?![.\w])", "your"),
        (r"\br\s+(?=you\b)", "are "),
        (r"\brn\b", "right now"),
        (r"\b(?:yr)\b", "year"),
        (r"\bwx\b", "weather"),
        (r"\b(?:tmrw|tmr|tmrow|2moro|2morrow)\b", "tomorrow"),
        (r"\b2day\b", "today"),
        (r"\b(?:pw|pwd|passwd)\b", "password"),
        (r"\bprev\b", "previous"),
        (r"\bsys\b", "system"),
        (r"\b(?:bday|b-day)\b", "birthday"),
        (r"\bconvo\b", "conversation"),
        (r"\bconvos\b", "conversations"),
        (r"\bwkday\b", "weekday"),
        (r"\bhow\s+2\b", "how to"),
        (r"\bmsgs?\b", "messages"),
        # apostrophes a voice keyboard leaves out
        (r"\b(?:whats|wats)\b", "what's"),
        (r"\bdoin\b", "doing"),
        (r"\bdont\b", "don't"),
        (r"\bcant\b", "can't"),
        (r"\bdoesnt\b", "doesn't"),
        (r"\bdidnt\b", "didn't"),
        (r"\bisnt\b", "isn't"),
        (r"\bim\b", "I'm"),
        (r"\bive\b", "I've"),
        (r"\byoure\b", "you're"),
        (r"\bthats\b", "that's"),
        (r"\bwhos\b", "who's"),
    )
    return [(re.compile(p, re.I), plain) for p, plain in table]


def ends(text: str) -> str:
    """A long message's two ends (ROUTE_SPAN characters each); a short one whole."""
    return f"{text[:ROUTE_SPAN]} . {text[-ROUTE_SPAN:]}" if len(text) > 2 * ROUTE_SPAN else text


def plain_words(text: str) -> str:
    """The message with its dialect and shorthand read as plain English, at its two ends."""
    text = " ".join(ends(text).split())
    for pat, plain in _readings():
        text = pat.sub(plain, text)
    return text


@cache
def _quoted() -> re.Pattern[str]:
    return re.compile(r"\"[^\"]{1,200}\"|“[^”]{1,200}”|'[^']{3,200}'(?!\w)")


def unquoted(text: str) -> str:
    """The message without its quoted words: a title quoted is no request ('who wrote "Dune"')."""
    return _quoted().sub(" ", text)


@cache
def _card() -> re.Pattern[str]:
    return re.compile(r"\b(?:\d{4}[ -]){3}\d{1,7}\b")


def card_number(text: str) -> bool:
    """A payment card's number, given to be kept or used."""
    return bool(_card().search(text))


@cache
def _clause_split() -> re.Pattern[str]:
    return re.compile(
        r"[?!;]+\s*|\.\s+|,\s*(?:and\s+|also\s+|then\s+|but\s+)?|\s+(?:and|also|then|plus)\s+(?=\w)",
        re.I,
    )


def clauses(text: str) -> list[str]:
    return [p.strip() for p in _clause_split().split(text) if p and any(c.isalpha() for c in p)]


# the date or time as something a program computes ("python: get current date in iso 8601")
CLOCK_IN_CODE = Rule(
    "clock-in-code.get-print-format",
    "clock-in-code",
    r"\b(?:get|print|format|convert|parse|display|output|generate|compute|calculate|insert|return|"
    r"log)\s+(?:the\s+)?(?:current\s+|today'?s\s+)?(?:date|time|year|timestamp|datetime)\b|\biso\s"
    r"*8601\b|\bstrftime\b",
    examples=(
        "python: get current date in iso 8601, with tz",
        "strftime format for ISO 8601 with timezone offset?",
    ),
    near_misses=("What is the current date?",),
)


# words quoted to be translated or explained are not said to the butler ('how do you say "what's
# your name" in French')
QUOTED_ASK = Rule(
    "quoted-ask.translat-say-french",
    "quoted-ask",
    r"\btranslat\w*|\bhow\s+(?:do\s+you|to|would\s+you|do\s+i)\s+say\b|\bin\s+(?:french|german|spa"
    r"nish|italian|dutch|portuguese|japanese|chinese|welsh|latin|russian|arabic)\b|\bwhat\s+does\b",
    examples=(
        "What does a CPU do?",
        "what does CPU stand for",
    ),
    near_misses=("explain what a CPU cache does",),
)

# someone's secret, prompt or rules: a word of a secret that belongs to somebody
OWNED = Rule(
    "owned.passwords-pins-keys",
    "owned",
    r"\b(?:my|your|the|our|his|her|their)\s+(?:[\w-]+\s+)?(?:passwords?|pins?|keys?|tokens?|secret"
    r"s?|credentials?|logins?|prompt|rules|instructions)\b",
    examples=(
        "Tell me my bank PIN",
        "Show me the API keys",
    ),
    near_misses=("Tell me about yourself.",),
)

# "you" as anyone ("What can you do with leftover rice?") or advice asked for ("What are you able
# to recommend for a headache?"): not a question about the butler's abilities
GENERIC_ABILITY = Rule(
    "not-ability.should-one-make",
    "not-ability",
    r"\b(?:can|could|should|would|do)\s+(?:you|one|i|we)\s+(?:do|make|cook|use|try)\s+(?:with|for|"
    r"about)\b|\b(?:recommend|suggest)\b|\b(?:able|possible)\s+to\s+(?:explain|describe|tell\s+me\s"
    r"+(?:about|how|why|what))\b|\bhow\s+(?:long|much|many|often|far)\s+(?:can|could|should)\s+(?:"
    r"you|one)\b",
    examples=(
        "What can I do about insomnia?",
        "Recommend a waterproof jacket",
    ),
    near_misses=("what can u do",),
)

# "you" as anyone: "who are you supposed to tip in a hotel?"
ANYONE = Rule(
    "anyone.should-supposed-meant",
    "anyone",
    r"\b(?:are|should|do)\s+you\s+(?:supposed|meant|expected|allowed)\s+to\b",
    examples=("who are you supposed to tip in a hotel, and how much?",),
    near_misses=("who are you, and also how many ounces are in a cup?",),
)

# "time" in a phrase that asks for no clock ("leave it plugged in all the time", "what time is
# afternoon tea traditionally taken")
TIME_IDIOM = Rule(
    "time-idiom.traditionally-usually-typically",
    "time-idiom",
    r"\b(?:traditionally|usually|typically|normally|customarily)\b|\b(?:all|most|half|some)\s+(?:o"
    r"f\s+)?the\s+time\b|\b(?:at\s+the\s+same|from\s+time\s+to|in\s+no|every|each|any|on|in|over|l"
    r"ong|first|last|next|spare|free|quality|screen)\s+time\b",
    examples=(
        "What did I ask you last time?",
        'What does "a stitch in time" mean?',
    ),
    near_misses=("What did I ask you about yesterday?",),
)

# a clause that only talks ("I've completely lost track", "feels like it should be", "I need it for
# a script") asks for nothing more: the question stays a plain guard, not MIXED
CHATTER = Rule(
    "chatter.feels-seems-lol",
    "chatter",
    r"^\W*(?:i|i'm|i've|i'd|i'll|im|it|it's|its|that|that's|this|feels|seems|lol|haha|we're|thanks"
    r"|cheers|sorry|genuinely|honestly|seriously|long\s+story|just\s+(?:curious|wondering|asking|s"
    r"o\s+i\s+know)|no\s+reason|asking\s+for\s+a\s+friend|my\s+(?:brain|head|mind|memory)|no\s+rus"
    r"h|so|if\s+you\s+don't\s+mind|be\s+honest|you\s+(?:must|should)\s+have|(?:ok\s+|okay\s+)?befo"
    r"re\s+we\s+(?:start|begin)|first\s+things\s+first|to\s+start\s+with|(?:totally\s+|completely\s"
    r"+)?lost\s+track|out\s+of\s+interest|quick\s+(?:one|question|check|sanity\s+check)|(?:i\s+)?n"
    r"eed\s+it\s+for|stay\s+in\s+character)\b(?![^?]*\b(?:why|how|what|when|where|which|who|explai"
    r"n|tell\s+me)\b)",
    examples=(
        "I'm vegetarian, keep that in mind",
        "Be honest with me, are you a bot?",
    ),
    near_misses=("are you a real person typing back or a bot? be honest with me",),
)

# a file named in the message (a path or a name with an extension)
NAMED_FILE = Rule(
    "named-file.rule",
    "named-file",
    r"(?:~|\.{1,2})?/[\w./-]+|(?<![\w-])[\w-]+\.[a-z]{2,5}\b",
    examples=(
        "whats in todo.md",
        "What's in /etc/hosts?",
    ),
    near_misses=("What's the weather in London?",),
)


BOOK = Rulebook(
    "routing.wording",
    [CLOCK_IN_CODE, QUOTED_ASK, OWNED, GENERIC_ABILITY, ANYONE, TIME_IDIOM, CHATTER, NAMED_FILE],
)
