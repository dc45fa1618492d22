"""The quality gate's detectors: pure functions over an answer's text, shared by the gate on a
finished answer (``quality.check``) and on a stream (``quality.StreamGate``).

Each is written to leave look-alikes alone: "The Tesla Model 3", "ChatGPT was made by OpenAI,
sir", "a llama farm", "a router password policy", "It is Monday 23 November 2026, 08:41".
"""

from __future__ import annotations

import functools
import re
from collections import Counter

# times and dates have their own module; the gate reads them from here
from tatlock.pipeline.clockcheck import MONTHS, WEEKDAYS, clock_in, says_time_or_date, wrong_clock  # noqa: F401

_I = re.IGNORECASE

# -- vendor identity: the model speaking as itself, not as Tatlock ---------------------------

_VENDORS = (r"chat\s*gpt|gpt-?\d(?:\.\d)?|llama(?:\s*\d(?:\.\d)?)?(?!\s+(?:farm|wool|herd|trek|ranch|s\b))|gemma|"
            r"mistral(?!\s+wind)|mixtral|qwen|claude(?!\s+monet|\s+debussy)|phi(?:-?\d(?:\.\d)?)?|smollm2?|"
            r"deepseek|gemini|"
            r"bard|"
            r"copilot|falcon|vicuna|openchat|tinyllama")
_MAKERS = r"openai|open\s+ai|meta(?:\s+ai)?|google(?:\s+deepmind)?|anthropic|alibaba(?:\s+cloud)?|mistral\s+ai|" \
          r"microsoft|hugging\s*face|deepseek|the\s+qwen\s+team"
VENDOR = [
    re.compile(r"\b(?:i\s+am|i'm|im|as)\s+(?:just\s+|only\s+|merely\s+|simply\s+)?(?:an?\s+)?(?:ai|a\.i\.|"
               r"artificial\s+intelligence)(?:\s+(?:language\s+)?model|\s+assistant|\s+chatbot|\s+program|"
               r"\s+system)?\b",
               _I),
    re.compile(r"\b(?:i\s+am|i'm|im|as)\s+(?:just\s+|only\s+|merely\s+|simply\s+)?(?:an?\s+)?(?:large\s+)?"
               r"(?:language\s+model|llm|chatbot|chat\s*bot|virtual\s+assistant|computer\s+program|neural\s+network)\b",
               _I),
    re.compile(rf"\b(?:i\s+am|i'm|im|my\s+name\s+is|i\s+am\s+called|i'm\s+called|call\s+me|this\s+is)\s+(?:an?\s+)?"
               rf"(?:(?:fine-?tuned|quantized|quantised|small|tiny|local|custom|modified|distilled|version\s+of|"
               rf"kind\s+of|sort\s+of)\s+)?(?:{_VENDORS})\b", _I),
    re.compile(rf"\b(?:i\s+(?:was|am|have\s+been)|i'm|i've\s+been)\s+(?:[\w-]+,?\s+)?(?:created|developed|"
               rf"trained|made|built|"
               rf"designed|programmed|released)\s+by\s+(?:{_MAKERS})\b", _I),
    re.compile(rf"\b(?:created|developed|trained|made|built)\s+by\s+(?:{_MAKERS})\s*,\s*i\b", _I),
    # "I'm Tatlock, sir, built on Meta's Llama 3.2 model"
    re.compile(rf"\b(?:i(?:'m|\s+am|\s+was|\s+run)?|tatlock\s+(?:is|was|runs))\b[^.!?]{{0,40}}?\b(?:built|based|run|runs|"
               rf"running|powered|trained|made)\s+(?:on|with|from)\s+(?:(?:{_MAKERS})(?:'s)?\s+)?(?:{_VENDORS})\b", _I),
    re.compile(r"\bas\s+an?\s+(?:ai|language\s+model|llm|assistant\s+ai|artificial\s+intelligence)\b", _I),
    re.compile(r"\b(?:i\s+am|i'm|im)\s+(?:just\s+|only\s+|merely\s+)?an?\s+(?:ro)?bot\b", _I),
    # the disclaimers small models are trained to give about themselves
    re.compile(r"\bi\s+(?:don't|do\s+not)\s+have\s+(?:any\s+)?(?:personal\s+(?:feelings|emotions|experiences|opinions|"
               r"beliefs)|feelings\s+or\s+emotions|emotions\s+or\s+feelings|a\s+physical\s+(?:body|form)|consciousness|"
               r"real-?\s?time\s+(?:data|information|access)|access\s+to\s+real-?\s?time|"
               r"the\s+ability\s+to\s+browse)\b",
               _I),
    re.compile(r"\bmy\s+(?:training\s+data|knowledge\s+cut-?\s?off|training\s+cut-?\s?off)\b|"
               r"\bas\s+of\s+my\s+(?:last|latest)\s+(?:update|training)\b", _I),
]


def vendor_identity(text: str) -> str | None:
    for pat in VENDOR:
        m = pat.search(text)
        if m:
            return m.group(0)
    return None


# -- the prompt echoed back --------------------------------------------------------------------

# the prompt's own labels, at the start of a line
_LABELS = re.compile(r"^\s*(?:-\s*)?(?:latest message(?:, from)?|findings:|user's location:|"
                     r"(?:the\s+)?local date and time:|"
                     r"## (?:conversation so far|summary of messages)|facts about yourself:|"
                     r"what you can do with your tools:)", _I | re.M)
_STRONG_LABELS = re.compile(r"^\s*(?:-\s*)?(?:latest message, from|findings:\s*$|## conversation so far|"
                            r"relevant memories:|"
                            r"#{2,3}\s*(?:instruction|response|input|output)\s*:|"
                            r"## summary of messages|facts about yourself:|what you can do with your tools:)",
                            _I | re.M)
# how the prompt speaks of the user and itself: the butler says "you" and "sir"
_PROMPT_WORDS = re.compile(
    r"\bthe\s+user(?:'s|s')?\b(?!\s*(?:manual|guide|interface|account|agreement|name\s+field|experience|base|group|"
    r"id\b|settings|profile|directory|folder|mode|permissions?|space))|\bthe\s+(?:latest|last)\s+message\b|"
    r"\bthe\s+findings\b|\bfindings\s+below\b|\bin\s+the\s+butler'?s\s+voice\b|\bthe\s+butler'?s\s+pipeline\b|"
    r"\bthese\s+instructions\b|\byour\s+name\s+is\s+tatlock\b|\bmy\s+(?:system\s+prompt|hidden\s+instructions)\b|\bmy\s+instructions\s+(?:say|tell)\b|"
    r"\"decision\"\s*:\s*\"|\buse\s+(?:these|the)\s+(?:memories|findings|results|facts)\s+to\s+answer\b|"
    # the instructions told in other words ("I'm told never to mention being a language model")
    r"\bi(?:'m|\s+am|'ve\s+been|\s+have\s+been|\s+was)\s+(?:told|instructed|programmed)\s+(?:never|always|not)\s+"
    r"to\s+(?:mention|reveal|share|say|disclose|discuss|call\s+you|address\s+you|admit|answer|respond|repeat|"
    r"call\s+myself|describe\s+myself|refer\s+to\s+myself|name)\b|"
    r"\bmy\s+(?:orders|standing\s+orders|rules|instructions|guidelines|directives|programming)\s+(?:say|says|are\s+to|"
    r"tell\s+me|forbid|require)\b|"
    r"\bi(?:'m|\s+am)\s+(?:to|never\s+to|not\s+to)\s+(?:decline|refuse|repeat|reveal|share|call\s+myself|mention|"
    r"give\s+out)\b", _I)


# the transcript's speaker labels (memory/context.py): "Anchor (Alice): ...", "Assistant: ...",
# "[Name (bot)]: ..."; a small model continues the transcript instead of answering
_SPEAKER = re.compile(r"(?:^|(?<=[.!?]\s))\s*(?:Anchor \([^()\n]{1,40}\)|Assistant|\[[^\[\]\n]{1,40} \(bot\)\]|"
                      r"[A-Z][a-z]{1,20} \([A-Z][a-z]{1,20}\)):\s", re.M)


def prompt_echo(text: str, allowed: str = "") -> str | None:
    """The prompt's labels or its way of speaking, in an answer: the model parroted its prompt."""
    labels = _LABELS.findall(text)
    if len(labels) >= 2 or _STRONG_LABELS.search(text):
        return "the reply echoes the prompt's labels"
    speakers = _SPEAKER.findall(text)
    if speakers and (len(speakers) >= 2 or re.match(r"\s*(?:Anchor \(|Assistant:)", text)):
        return "the reply continues the transcript instead of answering"
    for m in _PROMPT_WORDS.finditer(text):
        value = re.match(r"\s+(?:is\s+|was\s+|name\s+is\s+|called\s+)?['\"\u2018\u201c]?([\w@-]{2,}(?:\.[\w@-]+)*)",
                     text[m.end():])
        if (re.match(r"the\s+user\b", m.group(0), _I) and re.search(r"user(?:name)?\b", allowed, _I)
                and value and re.search(rf"\b{re.escape(value.group(1))}\b", allowed, _I)):
            continue  # a file's or a tool's user ("as the user alice", from a .env file read)
        return f"the reply speaks the prompt's words: {m.group(0)!r}"
    return None


# -- the question echoed back ------------------------------------------------------------------

_FILL = set("a an the is are it its it's of to in on at and or sir yes no well so please here there that this "
            "do does did what who how why when where which i you your my me".split())


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))


_ASKS = re.compile(r"\?|^\s*(?:what|who|whom|whose|which|when|where|why|how|is|are|am|was|were|do|does|did|can|could|"
                   r"will|would|should|shall|may|tell|give|show|explain|list|name)\b", _I)


# words about the question rather than an answer to it ("How tall is Mount Everest? That is the
# question, sir.")
_META = set("question questions ask asked asking query good great interesting excellent fine indeed certainly "
            "quite very wonder wondering ponder think consider let see ah oh hmm um matter one would like want "
            "wish wanting know".split())

_VERDICT_WORDS = set("yes no indeed correct right true false not never nope yep certainly".split())


_RESTATED = re.compile(r"\W*(?:so\s+)?(?:you(?:'re|\s+are)\s+asking|you\s+asked|you(?:'d|\s+would)\s+like\s+to\s+know|"
                       r"you\s+want\s+to\s+know|your\s+question\s+is|you're\s+wondering|you\s+wonder)\b", _I)


_FRAME_WORDS = set("thats about asking wondering know question whether appears seems".split())


def question_echo(answer: str, question: str) -> bool:
    """The answer is the question again, adding nothing ("What is the capital of France?")."""
    a, q = words(answer), words(question)
    # a greeting or a statement answered in the same words is no echo ("Good morning, sir.")
    if len(q) < 3 or not a or not _ASKS.search(question):
        return False
    if any(w in _VERDICT_WORDS and w not in q for w in a):
        return False  # "Yes, Paris is the capital of France, sir." answers a yes/no question in its words
    stems = {w[:4] for w in q if len(w) >= 4}
    new = [w for w in a if w not in q and w not in _FILL and w not in _META and not (len(w) >= 4 and w[:4] in stems)]
    # "You're asking why the sky is blue, sir. That's a question about why the sky appears blue":
    # the question told back in a frame, with a word or three of padding
    framed = _RESTATED.match(answer)
    if framed and len(a) <= 3 * len(q) + 12:
        told = [w for w in words(answer[framed.end():]) if len(w) >= 4 and w not in q and w not in _META
                and w not in _FRAME_WORDS and w[:4] not in stems]
        if len(told) <= 3:
            return True
    if new:
        return False
    covered = sum(1 for w in set(q) if w in a) / len(set(q))
    return covered >= 0.6


def echo_prefix(answer: str, question: str) -> bool:
    """The answer so far could still turn out to be the question again (for the stream)."""
    a, q = words(answer), words(question)
    return bool(a) and len(q) >= 2 and a == q[:len(a)]


# -- leaks: instructions or persona repeated, secrets ------------------------------------------

# words that are data wherever they appear (a clock, a date): a run of them repeats a fact
_DATA = re.compile(r"^(?:\d+|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
                   r"may|june|july|august|september|october|november|december|utc|gmt|bst|cet|europe|london|america)$")


@functools.lru_cache(maxsize=64)
def ngrams(source: str, n: int) -> frozenset[tuple[str, ...]]:
    """The runs of n words of a text. Cached: the stream gate asks on every token, and the
    sources (persona, prompt, instructions) stay the same through a turn and between turns."""
    w = words(source)
    return frozenset(tuple(w[i:i + n]) for i in range(len(w) - n + 1))


def repeated_run(answer: str, source: str, n: int, allowed: str = "") -> str | None:
    """A run of n words from the source repeated in the answer, that is not also in the
    allowed text (findings, the question) and is not mostly data; None if there is none."""
    a = words(answer)
    if len(a) < n or not source:
        return None
    grams = ngrams(source, n)
    ok = ngrams(allowed, n) if allowed else frozenset()
    for i in range(len(a) - n + 1):
        run = tuple(a[i:i + n])
        if run in grams and run not in ok and sum(1 for w in run if _DATA.match(w)) * 3 < n:
            return " ".join(run)
    return None


# credential-like text anywhere: "the password is hunter2!" but not "your password is something
# you should change"
CREDENTIAL = [
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    # ("a weak password is P@ssw0rd1" is an example, not a secret)
    re.compile(r"(?<!\ba\s)(?<!\bweak\s)(?<!\bstrong\s)(?<!\bbad\s)(?<!\bgood\s)(?<!\bcommon\s)(?<!\bexample\s)"
               r"(?<![a-z])(?:password|passwd|passcode|api[_ -]?key|secret|token)\s*(?:is|[:=])\s*[\"'`]?"
               r"(?=\S*[0-9!@#$%^&*_+=])[A-Za-z0-9!@#$%^&*_+\-=]{6,}", _I),
]
# secret values given in a question or a finding, to be never repeated
_VALUES = [
    re.compile(r"\b(sk-[A-Za-z0-9_-]{8,})"),
    re.compile(r"\b(AKIA[0-9A-Z]{16})\b"),
    re.compile(r"(?<![a-z])(?:password|passwd|passcode|pin|api[_ -]?key|token|secret)s?\s*(?:is|was|[:=])\s*[\"'`]?"
               r"([^\s\"'`,;\\]{4,})", _I),  # a backslash ends a value: "\n" in a JSON finding
    re.compile(r"\b(?:password|passwd|passcode|"
               r"pin)\s+([A-Za-z0-9!@#$%^&*_+=-]*[0-9!@#$%^&*_+=][A-Za-z0-9!@#$%^&*_+=-]*)",
               _I),
]


def secret_values(*texts: str) -> list[str]:
    """Secret values written in these texts (the user's own, a file's), longest first."""
    found = {m.group(1).rstrip(".!?") for t in texts if t for pat in _VALUES for m in pat.finditer(t)}
    return sorted((v for v in found if len(v) >= 4 and v.lower() not in ("something", "secret")),
                  key=len, reverse=True)


def credential(text: str) -> str | None:
    for pat in CREDENTIAL:
        m = pat.search(text)
        if m:
            return m.group(0)
    return None


# -- garbled -----------------------------------------------------------------------------------

_SPECIAL = re.compile(r"<\|(?:im_start|im_end|endoftext|eot_id|start_header_id|end_header_id|assistant|user|system)\|>|"
                      r"\[/?INST\]|<</?SYS>>|</?s>", _I)


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n+", text) if x.strip()]


LOOP_WINDOW = 3000  # a loop shows at the end of what was said; older text is not searched again


def looping(text: str) -> bool:
    """The model is repeating itself: one fragment back to back, or a sentence again and again.
    Only the last ``LOOP_WINDOW`` characters are read, and a fragment is at most 200 characters:
    the search was quadratic in the text (a 35 KB reply took 15 s to check)."""
    text = text[-LOOP_WINDOW:]
    if re.search(r"(.{3,200}?)\1{6,}", text):
        return True
    sentences = [x.lower() for x in _sentences(text) if len(x) > 15]
    if len(sentences) >= 4:
        top = max(Counter(sentences).values())
        if top >= 3 and top / len(sentences) >= 0.3:
            return True
    return False


_ARTICLES = {"the", "an"}  # not "a": "from A to Z", "plan A or B"
_NOT_AFTER_ARTICLE = {"the", "a", "an", "of", "for", "to", "in", "on", "and", "or", "is", "was", "with", "at", "by",
                      "from", "then", "but"}


def _word_salad(text: str) -> bool:
    """Words in no order ("Place the egg boiling in the of water ... the for to then cold and the."):
    English never puts "of" or "for" after "the", nor ends a sentence on "the"."""
    bad = 0
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        said = re.findall(r"[a-z']+", sentence.lower())
        bad += sum(a in _ARTICLES and b in _NOT_AFTER_ARTICLE for a, b in zip(said, said[1:], strict=False))
        bad += bool(said) and said[-1] in _ARTICLES and sentence.rstrip().endswith((".", "!", "?"))
    return bad >= 2


class LoopWatch:
    """A streamed reply watched for a loop, so a model caught in one is stopped at once instead
    of running to its token cap. Checked every 120 characters, then every eighth more: a server
    that ignores the cap and streams on does not make the check itself the slow part."""

    def __init__(self) -> None:
        self.text = ""
        self.checked = 0

    def add(self, piece: str) -> bool:
        """Whether the reply, with this piece, has started to loop."""
        self.text += piece
        if len(self.text) - self.checked < max(120, len(self.text) // 8):
            return False
        self.checked = len(self.text)
        return looping(self.text)


def garbled(answer: str) -> str | None:
    text = answer.strip()
    if not text:
        return "empty reply"
    content = sum(ch.isalnum() for ch in text)  # "391, sir." is an answer
    number = re.fullmatch(r"[-+−]?\d[\d\s.,:/%°x×+\-−–]*", text)  # "144.", "2026-11-23", "08:41"
    if content < max(2, len("".join(text.split())) * 0.5) or not (number or any(ch.isalpha() for ch in text)):
        return "more symbols than words"
    if re.fullmatch(r"[\[{].*[\]}]", text, re.S) or re.match(r"\{\s*\"|\[\s*\{", text):  # JSON, even cut off
        return "a JSON object instead of prose"
    if re.search(r"^\s*(?:user|human|assistant|system)\s*:", text, re.M | _I):
        return "a chat transcript instead of an answer"
    if re.search(r"(?:^|\n)\s*(?:answer|response|reply|output)\s*:\s*$", text, _I):
        return "a prompt's scaffolding, ending on its label"  # "...\nQuestion: What can you do?\nAnswer:"
    said = words(text)
    doubled = sum(a == b for a, b in zip(said, said[1:], strict=False))
    # prose doubles a word now and then ("had had"); three times in a short reply is a stutter
    if len(said) >= 6 and (doubled >= len(said) * 0.3 or (doubled >= 3 and doubled >= len(said) * 0.15)):
        return "words stutter"
    if _SPECIAL.search(text):
        return "chat-template tokens in the reply"
    if _word_salad(text):
        return "words in no order (word salad)"
    if looping(text):
        return "the reply repeats itself"
    sentences = [x.lower() for x in _sentences(text) if len(x) > 15]
    if len(sentences) >= 2 and len(set(sentences)) == 1:  # one sentence said again ("I'm unable to ... " x2)
        return "the reply repeats itself"
    said = words(text)
    # a short reply of a few words over and over ("Sir, Rotterdam. Sir. Rotterdam sir . . ."); a long
    # one repeats its common words by nature, and the loop check reads those
    if 6 <= len(said) <= 40 and len(set(said)) <= len(said) * 0.5:
        return "a few words over and over"
    return None


def without_repeats(text: str) -> str:
    """The text with every sentence after its first appearance removed (a loop cut short)."""
    seen: set[str] = set()
    kept = []
    for sentence in _sentences(text):
        key = sentence.lower()
        if key not in seen:
            seen.add(key)
            kept.append(sentence)
    # the stream was cut mid-sentence: a start of a sentence already said is not new
    if len(kept) > 1 and any(k.lower().startswith(kept[-1].lower()) for k in kept[:-1]):
        kept.pop()
    return " ".join(kept)
