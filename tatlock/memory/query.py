"""Reading a memory query: its content words, the forms each word also matches, the dates it
names and what kind of answer it asks for. Pure text work, no database: ``memory.search``
turns the results into FTS5 lookups (through ``tatlock.store.search``) and ranking boosts.

Every word is quoted before it reaches FTS5 (``quote``), so no query syntax (``AND``, ``*``,
``NEAR(``, ``col:x``, stray quotes) can leak in.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Container

__all__ = [
    "FRAMING",
    "STOPWORDS",
    "answer_hint",
    "content_terms",
    "fts_query",
    "match_expr",
    "query_dates",
    "query_terms",
    "quote",
    "split_words",
    "without_dates",
    "without_names",
]

# the LoCoMo baseline's stopwords (question words, pronouns, auxiliaries)
STOPWORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing done down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves
s t d ll m re ve
""".split()
)

# words that frame a question rather than name its subject, and light verbs that say little
# of it ("when did Maria go to the beach": beach, not go)
FRAMING = frozenset(
    """
mention mentioned mentions describe described describes say says said tell told talk talked
talking according likely think thinks thought kind type sort something anything ever also
recently specific specifically name named way ways discuss discussed discussing chat chatted
conversation conversations remember remind happen happened
go make get take have feel like want know use come see look keep give find put try
""".split()
)

# the calendar's names, once for the memory layer (the pipeline's are in pipeline/lexicon.py,
# which this layer may not import)
WEEKDAYS = tuple("monday tuesday wednesday thursday friday saturday sunday".split())
MONTHS = tuple(
    "january february march april may june july august september october november december".split()
)
_TIME_WORDS = frozenset(
    """
yesterday today tonight tomorrow ago last next week weeks weekend month months year years
day days morning evening night afternoon recently lately soon since
""".split()
) | frozenset(WEEKDAYS + MONTHS)
_MONTHS = {m: i for i, m in enumerate(MONTHS, 1)}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9

# forms porter stemming cannot join (irregular verbs) and a few everyday synonyms; a query
# word also matches the other words of its group. Only forms with different porter stems
# ("feel felt", not "feel feels feeling"): bm25() of an OR-query adds up every form present.
_GROUPS = """
go went gone | buy bought | make made | see saw seen | meet met | take took taken | give gave given
feel felt | get got gotten | find found | think thought | tell told | say said | come came | run ran
write wrote written | begin began begun | bring brought | build built | catch caught | choose chose chosen
draw drew drawn | drive drove driven | eat ate eaten | fall fell fallen | fly flew flown
forget forgot forgotten | grow grew grown | hear heard | hold held | keep kept | know knew known
leave left | lose lost | pay paid | ride rode ridden | sell sold | send sent | sing sang sung | sit sat
sleep slept | speak spoke spoken | spend spent | stand stood | swim swam swum | teach taught
throw threw thrown | wear wore worn | win won | break broke broken | fight fought | lead led | feed fed
become became | learn learnt
mom mum mother | dad father | kid child children | photo picture pic | movie film | vacation holiday
"""
_VARIANTS: dict[str, tuple[str, ...]] = {}
for _group in re.split(r"[|\n]", _GROUPS):  # a line's end ends its group too
    _forms = tuple(_group.split())
    for _form in _forms:
        _VARIANTS[_form] = tuple(
            dict.fromkeys(_VARIANTS.get(_form, ()) + tuple(f for f in _forms if f != _form))
        )

_WORD_RE = re.compile(r"[^\W_]+")  # the unicode61 tokenizer's idea of a word
_NUMBER_RE = re.compile(
    r"\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|once|dozen|"
    r"hundred|thousand|couple|several|few)\b",
    re.I,
)
_TIME_RE = re.compile(
    r"\b(?:" + "|".join(sorted(_TIME_WORDS, key=len, reverse=True)) + r")\b|\b(?:19|20)\d\d\b", re.I
)
# "went to Woodhaven", "in the Smoky Mountains" (case-sensitive: a capitalised name after a place
# word)
_PLACE_RE = re.compile(
    r"\b(?:in|at|to|from|near|around|visit|visited|visiting|across)\s+(?:the\s+)?[A-Z]\w+"
)
_PERSON_RE = re.compile(
    r"(?<=[a-z,;] "
    r")[A-Z][a-z]+\b|(?i:\b(?:friends?|mom|dad|mother|father|sister|brother|wife|"
    r"husband|son|daughter|boss|colleague|coworker|neighbou?r|teacher|mentor|partner|cousin|aunt|"
    r"uncle|grandma|grandpa|grandmother|grandfather)\b)"
)
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_DMY = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + _MONTH_ALT + r")\.?,?\s+((?:19|20)\d\d)\b", re.I
)
_DATE_MDY = re.compile(
    r"\b(" + _MONTH_ALT + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b", re.I
)
_DATE_MY = re.compile(r"\b(" + _MONTH_ALT + r")\.?,?\s+((?:19|20)\d\d)\b", re.I)
_NAME_WORD_RE = re.compile(r"([^\W_]+)(?:['\u2019]s\b)?")  # a word and its possessive
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(\d{2})-(\d{2})\b")


# --------------------------------------------------------------------------------- query


def split_words(text: str) -> list[str]:
    """The text's words, lowercased, as FTS5's unicode61 tokenizer splits them."""
    return [w.lower() for w in _WORD_RE.findall(text or "")]


def quote(word: str) -> str:
    """One word as an FTS5 string: matched literally, never read as syntax."""
    return '"' + word.replace('"', '""') + '"'


def match_expr(word: str, expand: bool = True) -> str:
    """FTS5 expression for one query word (and the other forms of its group)."""
    forms = (word, *_VARIANTS.get(word, ())) if expand else (word,)
    return " OR ".join(quote(f) for f in forms)


def query_terms(text: str) -> list[str]:
    """The query's content words, lowercased, de-duplicated, stopwords dropped.

    If every word is a stopword the words themselves are kept (so "who are you" still
    searches for something)."""
    if not isinstance(text, str):
        return []
    words = split_words(text)
    keep = [w for w in words if w not in STOPWORDS] or words
    return list(dict.fromkeys(keep))


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression for ``text``: its content words, each quoted, OR-ed.

    Returns "" when there is nothing to search for. Nothing the user typed is ever read as
    FTS5 syntax."""
    return " OR ".join(quote(w) for w in query_terms(text))


def content_terms(text: str) -> list[str]:
    if not isinstance(text, str):
        return []
    return list(dict.fromkeys(w for w in split_words(text) if w not in STOPWORDS))


def query_dates(text: str) -> list[tuple[_dt.datetime, _dt.datetime]]:
    """Calendar dates named in the query, as UTC day/month spans."""
    spans = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    def day_span(y: int, mo: int, d: int) -> None:
        try:
            start = _dt.datetime(y, mo, d, tzinfo=_dt.UTC)
        except ValueError:
            return
        spans.append((start, start + _dt.timedelta(days=1)))

    for m in _ISO_DATE.finditer(text):
        taken.append(m.span())
        day_span(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for m in _DATE_DMY.finditer(text):
        if free(m):
            taken.append(m.span())
            day_span(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))
    for m in _DATE_MDY.finditer(text):
        if free(m):
            taken.append(m.span())
            day_span(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
    for m in _DATE_MY.finditer(text):
        if free(m):
            taken.append(m.span())
            y, mo = int(m.group(2)), _MONTHS[m.group(1).lower()]
            start = _dt.datetime(y, mo, 1, tzinfo=_dt.UTC)
            end = _dt.datetime(y + mo // 12, mo % 12 + 1, 1, tzinfo=_dt.UTC)
            spans.append((start, end))
    return spans


def without_dates(text: str) -> str:
    """The query with the calendar dates ``query_dates`` reads taken out: "on 25 May, 2022" is
    a time to search around, and its words ("may", "25") are not words to search for."""
    for rx in (_ISO_DATE, _DATE_DMY, _DATE_MDY, _DATE_MY):
        text = rx.sub(" ", text)
    return text


def answer_hint(text: str) -> re.Pattern | None:
    """What an answer to this question probably contains (None: no idea)."""
    words = split_words(text)
    if not words:
        return None
    first = words[0]
    joined = " ".join(words[:3])
    if (
        first == "when"
        or "what year" in joined
        or "what month" in joined
        or "what date" in joined
        or "how long ago" in " ".join(words)
    ):
        return _TIME_RE
    if first == "where":
        return _PLACE_RE
    if first in ("who", "whom", "whose"):
        return _PERSON_RE
    if first == "how" and len(words) > 1 and words[1] in ("many", "much", "often", "long", "old"):
        return _NUMBER_RE
    return None


def without_names(text: str, names: Container[str]) -> str:
    """The query as its meaning is searched: without the names of the people in the memory
    (``names``: their lowercased name words), or the query itself if nothing else is left.
    A name in the query's vector pulls it towards that person's way of talking, not towards
    what was said; who said it is the speaker boost's business (``memory.search``), and
    messages are embedded without their speaker's name too (``memory.vectors.message_text``).
    LoCoMo recall@10 with all-minilm, mean of the five dev conversations: 83.1 with the names
    on both sides, 83.7 with none in the query (open-domain 42.2 -> 52.5, multi-hop 45.0 ->
    47.5), 84.2 with none on either side."""
    if not names:
        return text
    left = _NAME_WORD_RE.sub(lambda m: " " if m.group(1).lower() in names else m.group(0), text)
    left = " ".join(left.split())
    return left if any(split_words(left)) else text
