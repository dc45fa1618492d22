"""The form of an answer, before what it says: empty, symbols, JSON, a transcript, template
tokens, a stutter, words in no order, a loop, a few words over and over, or the question
given back. Pure functions over text, shared by the checks on a finished answer and on a stream.

A word repeated on purpose is no stutter: "Buffalo buffalo Buffalo buffalo..." repeats one
word, and a word the question asked about ("say 'no' three times") is the answer's to repeat.
"""

from __future__ import annotations

import re
import unicodedata

from tatlock.pipeline import loops
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

_WORD = lazy(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("'", ""))


FILL = set(
    "a an the is are it its it's of to in on at and or sir yes no well so please here there that "
    "this "
    "do does did what who how why when where which i you your my me".split()
)
# words that are data wherever they appear (a clock, a date): a run of them repeats a fact
DATA_WORDS = (
    set(WEEKDAYS) | set(MONTHS) | {"utc", "gmt", "bst", "cet", "europe", "london", "america"}
)

FORM = Rulebook(
    "gate.form",
    [
        Rule(
            "form.template_token",
            "special",
            r"<\|(?:im_start|im_end|endoftext|eot_id|start_header_id|end_header_id|assistant|user|system)\|>|"
            r"\[/?INST\]|<</?SYS>>|</?s>",
            ("Paris.<|im_end|>", "[INST] hello [/INST]", "</s>"),
            ("<b>bold</b>", "a list of <items>"),
        ),
        # "144.", "2026-11-23", "08:41" (whole answer)
        Rule(
            "form.number",
            "number",
            r"[-+−]?\d[\d\s.,:/%°x×+\-−–]*",
            ("144.", "2026-11-23", "08:41", "-5 °"),
            ("abc",),
        ),
        Rule(
            "form.json",
            "json",
            r"^\s*[\[{].*[\]}]\s*$|^\s*\{\s*\"|^\s*\[\s*\{",
            ('{"answer": "Paris"}', '[{"a": 1}', '{"answer": "Par'),
            ("[citation needed] Paris", "Paris {sic}"),
            flags=re.S,
        ),
        Rule(
            "form.transcript",
            "transcript",
            r"^[ \t]*(?:user|human|assistant|system)\s*:",
            ("User: hi\nAssistant: hello",),
            ("The user: a person",),
            flags=re.I | re.M,
        ),
        # a speaker's label before the answer, as in a transcript or a prompt's scaffold ("A: The
        # latest
        # local date...", "Bench: \"We're on the 25th...\""): the model speaking as someone in a
        # script
        Rule(
            "form.speaker",
            "speaker",
            r"^\W{0,3}(?:(?:q|a|answer|response|reply|output|assistant|bot|ai|user|human|system|question)\s*:\s*\S|[A-Z][a-z]{1,15}\s*:\s*[\"“])",
            (
                "A: The latest local date and time is Wednesday",
                "Bench: \"We're on the 25th of November",
                "Assistant: Paris, sir.",
            ),
            (
                "Today, sir: light snow.",
                "Note: the shop shuts at four.",
                "Yes: Paris.",
                "Tatlock: the butler with long-term memory",
            ),
            flags=re.I,
        ),
        Rule(
            "form.scaffold_end",
            "scaffold",
            r"(?:^|\n)[ \t]*(?:answer|response|reply|output)\s*:\s*$",
            ("Question: What can you do?\nAnswer:",),
            ("The answer: Paris",),
        ),
        # a machine's timestamp, with at most a label beside it ("Achievements: - 2026-12-25
        # 10:32:38.934 (UTC)")
        Rule(
            "form.stamp",
            "stamp",
            r"\b\d{4}-\d{2}-\d{2}(?:[T "
            r"]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
            r"(?:\s*\((?:UTC|GMT)\))?",
            ("2026-11-25T00:51:00.000Z", "2026-12-25 10:32:38.934 (UTC)"),
            ("25 November 2026",),
        ),
        # a tool's result given back as the prompt spells it ("Result of get_weather_forecast():
        # {...");
        # a failure passed on that way still says what failed
        Rule(
            "form.findings_dump",
            "dump",
            r"\bResult\s+of\s+[a-z_]+\([^)]{0,200}\):\s*\{\s*\\?\"(?!error\\?\")",
            ('1. Findings: - Result of get_weather_forecast(): {"location": "London"',),
            (
                "The result of the match was a draw",
                'Result of analyze_file(path=\'x\'): {"error": "never read"}',
            ),
            flags=0,
        ),
        # code asked for: its answer is symbols by nature ("s[::-1], sir.", "ls -la | wc -l")
        Rule(
            "form.asks_code",
            "asks_code",
            r"\b(?:python|bash|shell|zsh|sql|regex(?:p)?|regular\s+expression|javascript|typescript|js|rust|"
            r"golang|java|c\+\+|c#|perl|ruby|powershell|one[- ]?liner|snippet|code|command|syntax|"
            r"function|script|git|awk|sed|grep|vim|emacs|excel\s+formula|formula|slice|operator)\b",
            (
                "python one liner to reverse a string s",
                "bash command to count lines",
                "regex for a UK postcode",
                "excel formula to sum a column",
            ),
            ("How do I reverse a car?", "What's the capital of Peru?"),
        ),
        # a question by its form: a question mark or a question word first
        Rule(
            "form.token",
            "token",
            r"^\W*(?:[A-Z]{4,}|[\w'’]+_[\w'’]+(?:_[\w'’]+)*)\W*$",
            ("DOCUMENT", "DINNER_MADE_BY_JULES_2026", "DIDN’T_DO_NOT_THINK_ALONE"),
            ("NATO, sir.", "Paris.", "Au"),
            flags=0,
        ),
        Rule(
            "form.asks",
            "asks",
            r"\?|^\s*(?:what|who|whom|whose|which|when|where|why|how|is|are|am|was|were|do|does|did|can|could|will|"
            r"would|should|shall|may|tell|give|show|explain|list|name|write|compose|draft|describe|suggest|recommend|"
            r"translate|summari[sz]e|define|find)\b",
            ("Paris?", "Tell me the time", "how tall is it"),
            ("Good morning", "Thanks, that's all"),
        ),
        # the question told back in a frame ("You're asking why the sky is blue, sir.")
        Rule(
            "form.restated",
            "restated",
            r"(?<!\W)\W*(?:so\s+)?(?:you(?:'re|\s+are)\s+asking|you\s+asked|you(?:'d|\s+would)\s+like\s+to\s+know|"
            r"you\s+want\s+to\s+know|your\s+question\s+is|you're\s+wondering|you\s+wonder|"
            r"you(?:'d|\s+would)\s+like\s+me\s+to)\b",
            (
                "You're asking why the sky is blue.",
                "So you want to know the time",
                "You would like me to recommend a good book, sir.",
            ),
            ("I asked the cook",),
        ),
        # a repetition the question asks for
        Rule(
            "form.repeat_asked",
            "repeat",
            r"\b(?:repeat\w*|again\s+and\s+again|over\s+and\s+over|\d+\s+times|(?:{hour_word})\s+times|"
            r"same\s+word|one\s+word\s+(?:repeated|only)|only\s+(?:of\s+)?(?:the\s+)?word)\b",
            ("Say 'ha' five times", "a sentence of only the word buffalo"),
            ("how many times has Brazil won",),
        ),
    ],
)

_WHEN = lazy(r"\b(?:date|time|when|day|year|timestamp|iso|utc)\b", re.I)
_ARTICLES = {"the", "an"}  # not "a": "from A to Z", "plan A or B"
_NOT_AFTER_ARTICLE = {
    "the",
    "a",
    "an",
    "of",
    "for",
    "to",
    "in",
    "on",
    "and",
    "or",
    "is",
    "was",
    "with",
    "at",
    "by",
    "from",
    "then",
    "but",
}
_SENTENCE = lazy(r"(?<=[.!?])\s+")
_LETTERS = lazy(r"[a-z']+")


def _word_salad(text: str) -> bool:
    """Words in no order ("Place the egg boiling in the of water ... the for to then cold and
    the."):
    English never puts "of" or "for" after "the", nor ends a sentence on "the"."""
    bad = 0
    for sentence in _SENTENCE.split(text):
        said = _LETTERS.findall(sentence.lower())
        bad += sum(
            a in _ARTICLES and b in _NOT_AFTER_ARTICLE for a, b in zip(said, said[1:], strict=False)
        )
        bad += bool(said) and said[-1] in _ARTICLES and sentence.rstrip().endswith((".", "!", "?"))
    return bad >= 2


# a question asking for lines spoken or a form with labelled parts (a quiz's "Question:" and
# "Answer:", an FAQ's "Q:" and "A:"): labels in the answer are what was asked for
_QUOTES = lazy(
    r"\b(?:quote|quotation|line|lines|said|say|dialogue|script|scene|conversation|exchange|"
    r"faq|faqs|q&a|quiz|trivia|flashcards?|riddle|interview)\b",
    re.I,
)
_TOKEN = lazy(r"\S+")
_NUMERIC = lazy(r"^[\W_]*[-+]?\d[\d.,:/%°-]*[\W_]*$")
_LISTS = lazy(
    r"\b(?:list|sequence|series|primes?|numbers|digits|figures|table|count\s+(?:to|from)|times\s+table|"
    r"dates|lottery)\b",
    re.I,
)


def _number_run(text: str, question: str) -> bool:
    """Numbers strung together with nothing said of them ("10.10.2026, 02:50, 5.00, 12.00, 18.00,
    ..."),
    where the question asks for no list of them."""
    toks = _TOKEN.findall(text)
    numeric = sum(bool(_NUMERIC.match(t)) for t in toks)
    return len(toks) >= 6 and numeric >= len(toks) * 0.7 and not _LISTS.search(question)


_LIST_ITEM = lazy(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$", re.M)


def _same_items(text: str) -> bool:
    """A list whose items are one item over and over ("1. Keep a regular bedtime. 2. Keep a regular
    bedtime, even at weekends. 3. Keep a regular bedtime, including..."): most start with the same
    four words."""
    items = [words(m.group(1)) for m in _LIST_ITEM.finditer(text)]
    starts = [tuple(x[:4]) for x in items if len(x) >= 4]
    if len(starts) >= 3 and max(starts.count(s) for s in starts) >= max(3, len(starts) * 2 // 3):
        return True
    # one item, and others that only add to it ("1. Drink water. 2. Drink water, even at lunch.")
    return len(items) >= 3 and any(
        len(x) >= 2 and sum(y[: len(x)] == x for y in items) >= 3 for x in items
    )


def _repetition(said: list[str], question: str) -> str | None:
    """A stutter ("I I am am here here") or a few words over and over, not counting the words
    the question asked about, nor one word said on purpose ("Buffalo buffalo Buffalo ...")."""
    if FORM.first(question, "repeat"):
        return None
    asked = set(words(question))
    doubled = [a for a, b in zip(said, said[1:], strict=False) if a == b and a not in asked]
    n = len(said)
    # prose doubles a word now and then ("had had"); three times in a short reply is a stutter
    if (
        n >= 6
        and len(set(doubled)) >= 2
        and (len(doubled) >= n * 0.3 or (len(doubled) >= 3 and len(doubled) >= n * 0.15))
    ):
        return "words stutter"
    # a short reply of a few words over and over ("Sir, Rotterdam. Sir. Rotterdam sir . . ."); a
    # long
    # one repeats its common words by nature, and the loop check reads those
    own = [w for w in said if w not in asked]
    # one word said again and again is a loop's or a choice
    again = {w for w in own if own.count(w) >= 2}
    if 6 <= n <= 40 and len(own) >= 6 and len(set(own)) <= len(own) * 0.5 and len(again) >= 2:
        return "a few words over and over"
    return None


def garbled(answer: str, question: str = "") -> str | None:
    """Why the answer is no answer by its form alone, or None."""
    text = answer.strip()
    if not text:
        return "empty reply"
    content = sum(ch.isalnum() for ch in text)  # "391, sir." is an answer
    number = FORM.labelled("number")[0].regex.fullmatch(text)
    # a one-digit answer is an answer ("8" legs); one letter or a symbol is not
    # code is symbols by nature: where it is asked for, letters in it are enough
    code = FORM.first(question, "asks_code") is not None and content >= 1
    # an emoji or a symbol asked for ("reply with a thumbs up emoji") is an answer without words
    asked_symbol = any(w in question.lower() for w in ("emoji", "emoticon", "smiley", "symbol"))
    if asked_symbol and any(unicodedata.category(ch) == "So" for ch in text):
        return None
    if (not code and content < max(1 if number else 2, len("".join(text.split())) * 0.5)) or not (
        number or any(ch.isalpha() for ch in text)
    ):
        return "more symbols than words"
    if FORM.first(text, "token") and not set(words(text)) & set(words(question)):
        return "a lone token, not an answer"
    if FORM.first(text, "json"):
        return "a JSON object instead of prose"
    if FORM.first(text, "dump"):
        return "the findings given back as the prompt spells them"
    stamp = FORM.labelled("stamp")[0]
    # (a date asked for may be given as one: "2026-11-25, sir")
    if (
        stamp.search(text)
        and len([w for w in words(stamp.regex.sub(" ", text)) if w != "sir"]) <= 2
        and not _WHEN.search(question)
    ):
        return "a timestamp, not an answer"
    if FORM.first(text, "transcript"):
        return "a chat transcript instead of an answer"
    speaker = FORM.labelled("speaker")[0].search(text)
    # a speaker the question names, or a line it asks for, is a quotation ('Hamlet: "To be, or not
    # to be"')
    if (
        speaker
        and words(speaker.group(0))[0] not in words(question)
        and not _QUOTES.search(question)
    ):
        return "a speaker's label before the answer, as in a transcript"
    if _number_run(text, question):
        return "a run of numbers, not an answer"
    if FORM.first(text, "scaffold"):
        # "...\nQuestion: What can you do?\nAnswer:"
        return "a prompt's scaffolding, ending on its label"
    said = words(text)
    repeated = _repetition(said, question)
    if repeated == "words stutter":
        return repeated
    if FORM.first(text, "special"):
        return "chat-template tokens in the reply"
    if _word_salad(text):
        return "words in no order (word salad)"
    if loops.looping(text) or _same_items(text):
        return "the reply repeats itself"
    sentences = [x.lower() for x in loops.sentences(text) if len(x) > 15]
    # one sentence said again ("I'm unable to ... " x2)
    if len(sentences) >= 2 and len(set(sentences)) == 1:
        return "the reply repeats itself"
    return repeated


# -- an answer that stops mid-sentence ---------------------------------------------------------

# words no finished sentence ends on ("First, blot the stain with a clean cloth, then"); words a
# sentence may end on when it leaves its verb unsaid ("Yes, sir, it is", "I'd love to", "all I
# can think of") are not among them
_DANGLING = set(
    "a an the and or but nor then because if your my our their his whose than into onto with from "
    "such".split()
)
_SIGN_OFF = lazy(
    r"(?:regards|wishes|sincerely|faithfully|truly|thanks|love|cheers|yours|best|dear\s+\w+(?:\s+\w+)?),"
    r"\s*$",
    re.I,
)


def stops_mid_sentence(answer: str) -> bool:
    """The answer ends where no sentence can: on a comma or a colon ("The three primary colours
    are red,"), or on a word no sentence ends with ("... with a clean cloth, then"). Code, and a
    letter's sign-off ("Warm regards,"), end as they like."""
    t = answer.rstrip()
    if not t or "`" in t[-200:] or _SIGN_OFF.search(t[-40:]):
        return False
    if t[-1] in ",;:(–—":
        return True
    said = words(t[-40:])
    return t[-1].isalpha() and bool(said) and said[-1] in _DANGLING


# -- the question given back -------------------------------------------------------------------

# words about the question rather than an answer to it ("How tall is Mount Everest? That is the
# question, sir.")
META = set(
    "question questions ask asked asking query good great interesting excellent fine indeed "
    "certainly "
    "quite very wonder wondering ponder think consider let see ah oh hmm um matter one would "
    "like want "
    "wish wanting know".split()
)
VERDICT_WORDS = set("yes no indeed correct right true false not never nope yep certainly".split())
_FRAME_WORDS = set("thats about asking wondering know question whether appears seems".split())


def asks(question: str) -> bool:
    return FORM.first(question, "asks") is not None


def question_echo(answer: str, question: str) -> bool:
    """The answer is the question again, adding nothing ("What is the capital of France?")."""
    a, q = words(answer), words(question)
    # a greeting or a statement answered in the same words is no echo ("Good morning, sir.")
    if len(q) < 3 or not a or not asks(question):
        return False
    if any(w in VERDICT_WORDS and w not in q for w in a):
        # "Yes, Paris is the capital of France, sir." answers a yes/no question in its words
        return False
    stems = {w[:4] for w in q if len(w) >= 4}
    new = [
        w
        for w in a
        if w not in q and w not in FILL and w not in META and not (len(w) >= 4 and w[:4] in stems)
    ]
    # "You're asking why the sky is blue, sir. That's a question about why the sky appears blue":
    # the question told back in a frame, with a word or three of padding
    framed = FORM.labelled("restated")[0].regex.match(answer)
    if framed and len(a) <= 3 * len(q) + 12:
        told = [
            w
            for w in words(answer[framed.end() :])
            if len(w) >= 4
            and w not in q
            and w not in META
            and w not in _FRAME_WORDS
            and w[:4] not in stems
        ]
        if len(told) <= 3:
            return True
    if new:
        return False
    covered = sum(1 for w in set(q) if w in a) / len(set(q))
    return covered >= 0.6


def echo_prefix(answer: str, question: str) -> bool:
    """The answer so far could still turn out to be the question again (for the stream)."""
    a, q = words(answer), words(question)
    return bool(a) and len(q) >= 2 and a == q[: len(a)]
