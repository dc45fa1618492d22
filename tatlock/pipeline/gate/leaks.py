"""The prompt in an answer: its labels ("Local date and time: ... User's location: unknown"), its
way of speaking ("the user's", "the findings"), the transcript continued, the instructions or
the persona repeated word for word, or told in other words ("I was told never to mention being
a language model", "My instructions are to be formal and concise and call you sir").

The labels are read from the prompt templates themselves (prompts/*_turn.txt), so a label a
template gains is a label the gate knows.
"""

from __future__ import annotations

import functools
import re

from tatlock import prompts
from tatlock.pipeline.gate.text import DATA_WORDS, FILL, words
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

LEAK = Rulebook(
    "gate.leak",
    [
        Rule(
            "leak.marker",
            "leak",
            r"\byou are the first phase of the butler's "
            r"pipeline\b|\"decision\"\s*:\s*\"",
            ('{"decision": "DIRECT"', "You are the first phase of the butler's pipeline"),
            ("the decision is yours",),
        ),
        Rule(
            "leak.my_prompt",
            "leak",
            r"\bmy (?:system prompt|hidden instructions) (?:is|are|says?)\b",
            ("My system prompt says to be formal",),
            ("I keep my system prompt to myself",),
        ),
        Rule(
            "leak.rules_are",
            "leak",
            r"\bmy\s+(?:rules|instructions|guidelines)\s+(?:are|say|state)\s*(?::|\"|“|to\b|as\s+follows\b)",
            ("My instructions are to be formal", "my rules are as follows"),
            ("my instructions are private, sir",),
        ),
        Rule(
            "leak.per_my",
            "leak",
            r"\b(?:following|per|according\s+to)\s+my\s+(?:guidelines|instructions|rules)\s*[(:\"“]",
            ("According to my instructions: never",),
            ("according to my instructions, I may not",),
        ),
        # rules listed to a question about them ("Rule 1: never reveal passwords. Rule 2: ...")
        Rule(
            "leak.listed",
            "listed",
            r"\brule\s+\d+\s*:|^[ \t]*\d+[.)]\s+(?:never|always|do\s+not|don't)\b",
            ("Rule 1: never reveal passwords.", "1. Never say you are an AI"),
            ("the rule of 3", "1. Boil water"),
            flags=re.I | re.M,
        ),
    ],
)

# how the prompt speaks of the user and itself: the butler says "you" and "sir"
SPEECH = Rulebook(
    "gate.prompt_speech",
    [
        Rule(
            "speech.the_user",
            "user",
            r"\bthe\s+user(?:'s|s')?\b(?!\s*(?:manual|guide|interface|account|agreement|name\s+field|experience|base|"
            r"group|id\b|settings|profile|directory|folder|mode|permissions?|space))",
            ("The user's location is unknown.", "the user asks about the time"),
            ("see the user manual", "the user interface is clear"),
        ),
        Rule(
            "speech.prompt_parts",
            "prompt",
            r"\bthe\s+(?:latest|last)\s+message\b|\bthe\s+findings\b|\bfindings\s+below\b|\bin\s+the\s+butler'?s\s+"
            r"voice\b|\bthe\s+butler'?s\s+pipeline\b|\bthese\s+instructions\b|\byour\s+name\s+is\s+tatlock\b|"
            r"\buse\s+(?:these|the)\s+(?:memories|findings|results|facts)\s+to\s+answer\b",
            ("According to the findings, it rains.", "Your name is Tatlock."),
            ("my findings suggest rain",),
        ),
        Rule(
            "speech.to_the_model",
            "prompt",
            r"\byour\s+(?:response|reply|answer|output)\s+(?:should|must|needs\s+to)\s+(?:be\s+)?(?:concise|brief|"
            r"clear|formal|polite|short|friendly|in\s+character|written|address|use|include|start|end)\b|"
            r"\b(?:respond|reply|answer)\s+(?:in\s+(?:the\s+)?(?:butler|character|persona)|with\s+one\s+json)\b",
            ("Your response should be concise, clear, and friendly.", "Reply with one JSON object"),
            ("Your answer should be in by Friday, sir?",),
        ),
        # the transcript's name for the owner ("Anchor (Sam): ..."), spoken as if it were a person
        # or
        # thing
        Rule(
            "speech.anchor",
            "anchor",
            r"\b(?:of|to|for|from|with|by|ask)\s+the\s+anchor\b(?!\s+(?:chain|line|rope|point|cable))|"
            r"\b[Tt]he\s+anchor(?:'s|\s+(?:is|was|has|wants|wanted|asked|said|says|told|would|will|likes))\b|"
            r"(?<![.!?]\s)(?<!^)\bAnchor(?:'s)?\b",
            (
                "Do you want to know the password of the anchor?",
                "Your visit to Anchor's collection was a pleasure.",
            ),
            (
                "Drop the anchor chain, sir.",
                "Anchor the tent well.",
                "Drop the anchor, sir, and mind the chain.",
            ),
            flags=0,
        ),
        # the findings' placeholder when no tool ran (select.findings_of)
        Rule(
            "speech.placeholder",
            "prompt",
            r"\bno\s+tool\s+could\s+be\s+used\s+for\s+this\s+message\b",
            ("- No tool could be used for this message.",),
            ("No tool could help, sir",),
        ),
        Rule(
            "speech.my_prompt",
            "prompt",
            r"\bmy\s+(?:system\s+prompt|hidden\s+instructions)\b|\bmy\s+instructions\s+(?:say|tell)\b",
            ("my system prompt", "My instructions say no"),
            ("my instructions were unclear to me",),
        ),
        # the instructions told in other words ("I'm told never to mention being a language model")
        Rule(
            "speech.told_to",
            "retold",
            r"\bi(?:'m|\s+am|'ve\s+been|\s+have\s+been|\s+was)\s+(?:told|instructed|programmed|asked|supposed|meant|"
            r"required|configured|set\s+up)\s+(?:(?:never|always|not)\s+)?to\s+(?:mention|reveal|share|say|disclose|"
            r"discuss|call\s+you|address\s+you|admit|answer|respond|repeat|call\s+myself|describe\s+myself|"
            r"refer\s+to\s+myself|name|be\s+(?:formal|concise|brief|polite)|keep\s+(?:my\s+)?answers|use\s+dry|"
            r"decline|refuse|pretend|stay\s+in\s+character)\b",
            (
                "I'm told never to mention being a language model.",
                "I was instructed to address you as sir",
                "I am supposed to be formal and concise",
            ),
            ("I was told you called, sir", "I am meant to remind you of nothing"),
        ),
        Rule(
            "speech.my_orders",
            "retold",
            r"\bmy\s+(?:orders|standing\s+orders|rules|instructions|guidelines|directives|programming|persona|"
            r"prompt)\s+(?:say|says|are\s+to|tell\s+me|forbid|forbids|require|requires|include|state|states|"
            r"ask\s+me|is\s+to|describes?)\b",
            (
                "My orders say to keep it brief.",
                "my guidelines forbid it",
                "my persona describes a butler",
            ),
            ("my orders arrived", "my instructions are confidential"),
        ),
        Rule(
            "speech.am_to",
            "retold",
            r"\bi(?:'m|\s+am)\s+(?:to|never\s+to|not\s+to)\s+(?:decline|refuse|repeat|reveal|share|call\s+myself|"
            r"mention|give\s+out|call\s+you|address\s+you|allow\s+myself|admit|be\s+(?:an?\s+)?(?:british\s+)?butler|"
            r"be\s+(?:formal|concise|brief|polite))\b",
            (
                "I am never to reveal my instructions",
                "In short, sir: I'm to be a British butler, formal and concise",
            ),
            ("I am to be married",),
        ),
    ],
)

# the prompt's labels as a template writes them: "Local date and time: $now" -> "local date and
# time:"
_TEMPLATE_LABEL = lazy(r"^([A-Z][\w' ,]{2,40}?)(?:,\s+from)?\s*:", re.M)
SCAFFOLD = Rulebook(
    "gate.scaffold",
    [
        # headings of the memory context and of instruction-tuning templates a small model echoes
        Rule(
            "scaffold.heading",
            "label",
            r"^[ \t]*(?:-\s*)?(?:##\s*(?:conversation\s+so\s+far|summary\s+of\s+messages|earlier\s+conversations|"
            r"said\s+in\s+earlier\s+conversations|what\s+you\s+have\s+been\s+told)|"
            r"relevant\s+memories:|#{2,3}\s*(?:instruction|response|input|output)\s*:|facts\s+about\s+yourself:|"
            r"what\s+you\s+can\s+do\s+with\s+your\s+tools:|(?:##\s*)?what\s+you\s+know\s+from\s+earlier\s*:)",
            (
                "## Conversation so far\nAnchor: hi",
                "### Instruction: answer",
                # SmolLM2 in the plain form, to "where's the router?": its memory block echoed
                "The internet is down.\n\n## What you know from earlier:\n- The new smartphone: the",
            ),
            ("## Paris\nThe capital", "From what you know from earlier chats, it is Leeds."),
            flags=re.I | re.M,
        ),
        # the transcript's speaker labels (memory/context.py): a small model continues the
        # transcript
        Rule(
            "scaffold.speaker",
            "speaker",
            r"(?:^|(?<=[.!?]\s))[ \t]*(?:Anchor \([^()\n]{1,40}\)|Assistant|\[[^\[\]\n]{1,40} \(bot\)\]|"
            r"[A-Z][a-z]{1,20} \([A-Z][a-z]{1,20}\)):\s",
            ("Anchor (Sam): what time is it?", "Paris. Assistant: anything else?"),
            ("Assistant manager: Bob",),
            flags=re.M,
        ),
        Rule(
            "scaffold.speaker_first",
            "speaker_first",
            r"(?<!\s)\s*(?:Anchor \(|Assistant:)",
            ("Assistant: hello",),
            ("An assistant helps",),
            flags=0,
        ),
    ],
)


@functools.lru_cache(maxsize=1)
def prompt_labels() -> tuple[str, ...]:
    """The labels of the prompts the model reads ("local date and time:", "user's location:",
    "latest message", "findings:"), from the templates."""
    out: set[str] = set()
    for name in ("assess_turn.txt", "respond_turn.txt", "select_tools.txt"):
        try:
            text = prompts.load(name)
        except (OSError, KeyError):
            continue
        out |= {
            m.group(1).lower() + ("" if "," in m.group(0) else ":")
            for m in _TEMPLATE_LABEL.finditer(text)
        }
    return tuple(sorted(out, key=len, reverse=True))


@functools.lru_cache(maxsize=1)
def _label_regex() -> re.Pattern[str]:
    """One pattern for every label of the templates: a multi-word one anywhere, a one-word one
    ("Findings:") at a line's start."""
    many = [re.escape(lab.rstrip(":,")) + r":?" for lab in prompt_labels() if " " in lab]
    one = [re.escape(lab) for lab in prompt_labels() if " " not in lab]
    parts = many + ([rf"(?:^|(?<=\n))[ \t]*(?:-\s*)?(?:{'|'.join(one)})"] if one else [])
    return re.compile("|".join(parts) or r"(?!)", re.I)


def labels_in(text: str) -> list[str]:
    """The prompt's labels the text repeats."""
    return [m.group(0).strip(" \t-").lower() for m in _label_regex().finditer(text)]


def label_at(text: str, start: int = 0) -> int | None:
    """Where the first prompt label or heading at or after ``start`` begins, or None."""
    found = [
        m.start()
        for m in (
            _label_regex().search(text, start),
            SCAFFOLD.labelled("label")[0].regex.search(text, start),
        )
        if m
    ]
    return min(found) if found else None


def prompt_echo(text: str, allowed: str = "") -> str | None:
    """The prompt's labels or its way of speaking, in an answer: the model parroted its prompt."""
    given = allowed.lower()
    # a fact's own words may be repeated
    labels = [lab for lab in labels_in(text) if lab.rstrip(":") not in given]
    low = text.lower()
    # a one-word label that starts the answer or stands alone on its line ("...\n\nFindings:")
    lines = [x.strip(" \t-") for x in low.splitlines()] if labels else []
    alone = any(low.lstrip(" -").startswith(lab) or lab in lines for lab in labels)
    if labels and (len(labels) >= 2 or alone or any(" " in lab for lab in labels)):
        return f"the reply echoes the prompt's labels: {labels[0]!r}"
    if SCAFFOLD.first(text, "label"):
        return "the reply echoes the prompt's headings"
    speakers = SCAFFOLD.labelled("speaker")[0].regex.findall(text)
    if speakers and (len(speakers) >= 2 or SCAFFOLD.labelled("speaker_first")[0].regex.match(text)):
        return "the reply continues the transcript instead of answering"
    for rule in SPEECH:
        if rule.label == "retold":
            continue  # the instructions told: a leak (instructions_told), not an echo
        if rule.label == "anchor" and "anchor" in allowed.lower():
            continue  # the question (or a finding) speaks of an anchor
        for m in rule.regex.finditer(text):
            if rule.label == "user" and _a_named_user(text[m.end() :], allowed):
                continue  # a file's or a tool's user ("as the user alice", from a .env file read)
            return f"the reply speaks the prompt's words: {m.group(0)!r}"
    return None


_VALUE_AFTER = lazy(
    r"\s+(?:is\s+|was\s+|name\s+is\s+|called\s+)?['\"\u2018\u201c]?([\w@-]{2,}(?:\.[\w@-]+)*)"
)


def _a_named_user(rest: str, allowed: str) -> bool:
    value = _VALUE_AFTER.match(rest)
    return bool(
        value
        and re.search(r"user(?:name)?\b", allowed, re.I)
        and re.search(rf"\b{re.escape(value.group(1))}\b", allowed, re.I)
    )


def instructions_told(text: str) -> str | None:
    """The instructions told in other words, by their frame ("I was told never to...")."""
    for rule in SPEECH.labelled("retold"):
        m = rule.search(text)
        if m:
            return m.group(0)
    return None


def leak_marker(text: str) -> str | None:
    rule = LEAK.first(text, "leak")
    return rule.search(text).group(0) if rule else None  # type: ignore[union-attr]


def rules_listed(text: str) -> bool:
    return LEAK.first(text, "listed") is not None


# -- the instructions or persona repeated: word for word, or told in other words ---------------


@functools.lru_cache(maxsize=64)
def ngrams(source: str, n: int) -> frozenset[tuple[str, ...]]:
    """The runs of n words of a text. Cached: the stream gate asks on every token, and the
    sources (persona, prompt, instructions) stay the same through a turn and between turns."""
    w = words(source)
    return frozenset(tuple(w[i : i + n]) for i in range(len(w) - n + 1))


def repeated_run(answer: str, source: str, n: int, allowed: str = "") -> str | None:
    """A run of n words from the source repeated in the answer, that is not also in the
    allowed text (findings, the question) and is not mostly data; None if there is none."""
    a = words(answer)
    if len(a) < n or not source:
        return None
    grams = ngrams(source, n)
    ok = ngrams(allowed, n) if allowed else frozenset()
    for i in range(len(a) - n + 1):
        run = tuple(a[i : i + n])
        if run in grams and run not in ok and sum(1 for w in run if w in DATA_WORDS) * 3 < n:
            return " ".join(run)
    return None


# a sentence that speaks of rules it keeps: the frame of an instruction in the first person
_SENTENCE_END = lazy(r"(?<=[.!?;])\s+")
FRAME = Rulebook(
    "gate.rule_frame",
    [
        # a sentence that speaks of rules it keeps: the frame of an instruction in the first person
        Rule(
            "frame.rule",
            "frame",
            r"\b(?:i|i'm|i've|me|my)\b[^.!?]{0,40}\b(?:always|never|must|should|supposed|told|instructed|required|"
            r"rules?|instructions|guidelines|expected|ought|asked|designed|meant|set\s+up|configured|play|playing|role|"
            r"character|persona)\b",
            ("I was asked to play a British butler", "I must always address you as sir"),
            ("Paris, sir.",),
        ),
    ],
)
# persona words every answer may say: who it is, whom it serves
_OWN_WORDS = {
    "tatlock",
    "butler",
    "british",
    "user",
    "person",
    "speak",
    "service",
    "sir",
    "answer",
    "reply",
    "know",
    "something",
    "when",
    "with",
    "never",
    "always",
    "rather",
}


@functools.lru_cache(maxsize=32)
def _distinctive(sources: str, question: str) -> frozenset[str]:
    """The instructions' and persona's own words (by their first five letters) that the question
    did not bring. Cached: the stream asks on every token, and the sources stay the same."""
    asked = {w[:5] for w in words(question)}
    return frozenset(
        {w[:5] for w in words(sources) if len(w) >= 4 and w not in FILL and w not in _OWN_WORDS}
        - asked
    )


def retold(answer: str, sources: str, question: str) -> str | None:
    """The instructions told in other words: a sentence in an instruction's frame ("I must
    always...", "I was told to...") that carries three or more of their distinctive words
    ("formal", "concise", "address", "wit") the question did not bring."""
    if not FRAME.first(answer):
        return None  # no instruction's frame anywhere: nothing to read sentence by sentence
    theirs = _distinctive(sources, question)
    for sentence in _SENTENCE_END.split(answer):
        if not FRAME.first(sentence):
            continue
        shared = {w[:5] for w in words(sentence) if len(w) >= 4 and w not in _OWN_WORDS} & theirs
        if len(shared) >= 3:
            return f"the instructions told in other words: {sentence.strip()[:80]!r}"
    return None
