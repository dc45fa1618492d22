"""What the user said in earlier conversations that a question about what they told points at.

A new conversation starts with its briefing (prepared in the background, maybe not yet ready)
and the kept facts (what the deterministic extractor read: precise, so it misses some ways of
saying things, "I've got a dentist appointment on Thursday at 3pm, so remind me"). A question
about what the user told ("When's that dentist appointment I mentioned?") must still find it:
the user's own messages of other conversations are searched with the question (BM25 only, no
model call: a few milliseconds), and the best few that share a content word with it are put
in the prompt as a block, under a heading the composer knows (``HEADING``), so that an answer
the model gets wrong is answered from them (pipeline/compose.py).

Only the user's messages: a reply of the butler's is no statement of fact. Only messages of
other conversations: this one's are in the prompt already. No message an old value was read from:
the corrected fact is in the prompt (its newest value: a corrected statement is not brought
back); a message a standing fact was read from may say more than the fact, so it may come.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tatlock.memory import fact_words
from tatlock.memory import search as memory_search
from tatlock.memory.query import MONTHS, STOPWORDS, WEEKDAYS
from tatlock.memory.tokens import Estimator
from tatlock.memory.vectors import Semantic
from tatlock.store.user import UserStore, Variable

HEADING = "## Said in earlier conversations"
LIMIT = 4  # messages in the block: the one a question points at is nearly always among them
POOL = 30  # best hits looked at: the user's questions and the butler's replies are passed over
SHARE = 0.08  # of the memory's budget, at most
MAX_CHARS = 300  # a long line is cut: its sentences that share a word with the question come first
# words that say what is asked, not about what: shared with the question, they point at nothing
_GENERIC = set(
    "what whats when whens where wheres who whos which how did does do have has had was were is are "
    "the and you your that this again remind tell told said mention mentioned remember "
    "recall ever "
    "about know think".split()
)


def _stems(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) >= 3 and w not in _GENERIC and w not in STOPWORDS:
            out.add((w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)[:5])
    return out


# who someone is, said in other words than the question's ("my son" and "Eirik (my boy, ...)",
# "my mother" and "Mamma called"): the extractor's own relation and pet words, grouped by what they
# mean, and a few a fact is not kept under (too loose for the extractor, fine for a search that
# the question's other words narrow)
_LOOSE = {
    "boy": "son",
    "lad": "son",
    "girl": "daughter",
    "lass": "daughter",
    "mamma": "mother",
    "mama": "mother",
    "ma": "mother",
    "papa": "father",
    "pappa": "father",
    "pa": "father",
    "hubby": "husband",
    "missus": "wife",
    "kiddo": "children",
    "kid": "children",
    "vet": "vet",
    "veterinary": "vet",
    "doctor": "doctor",
    "gp": "doctor",
}


def _groups() -> dict[str, tuple[str, ...]]:
    by: dict[str, set[str]] = {}
    for table in (fact_words.RELATIONS, fact_words.PETS, _LOOSE):
        for word, meaning in table.items():
            if " " not in word:
                by.setdefault(meaning, set()).update({word, meaning})
    return {w: tuple(sorted(g - {w})) for g in by.values() for w in g if len(g) > 1}


_SAME = _groups()


def other_words(question: str) -> list[str]:
    """The other words for the people and animals a question names ("son": "boy", "lad")."""
    out: dict[str, None] = {}
    for w in re.findall(r"[a-z]+", question.lower()):
        for other in _SAME.get(w, ()):
            out[other] = None
    return list(out)


def known_names(question: str, facts: Collection[Variable]) -> list[str]:
    """The names kept for the people and animals a question names by relation ("my son": a kept
    "son's name: Eirik"), so that what was said of Eirik is found: people speak of a son by name."""
    asked = set(re.findall(r"[a-z]+", question.lower()))
    asked |= {o for w in asked for o in _SAME.get(w, ())}
    out: list[str] = []
    for f in facts:
        whose, _, what = f.key.rpartition(".")
        if what == "name" and whose and whose.split(".")[-1].replace("_", " ") in asked:
            out.extend(w for w in f.value.split() if w[:1].isupper())
    return out


# a sentence that asks or tells the butler to do something states nothing of the user's life: a
# question ("What can I cook?") or a request ("Write me a note to the school")
_ASKING = re.compile(
    r"^(?:(?:ok(?:ay)?|right|so|and|also|oh|hi|hey|please|pls)[,!]?\s+)*"
    r"(?:can|could|would|will)\s+you\b|^(?:please\s+)?(?:write|draft|make|give|suggest|translate"
    r"|plan|list|help|tell|show|find|explain|describe|summari[sz]e|recommend|check|do)\b(?![-'])",
    re.IGNORECASE,
)
# what each rule above must match and must not (tests/unit/test_earlier.py runs them; the memory
# layer keeps its rules beside it, not in the pipeline's rulebook)
ASKING_EXAMPLES = (
    "Can you suggest a quick supper for handball nights?",
    "Okay, could you help me plan my meals for the week",
    "Write me a note to his form tutor.",
    "Please draft an email to my spruce supplier.",
    "Do you know anything about glow plugs",
)
ASKING_NEAR_MISSES = (
    "Eirik went vegetarian in the summer and I am running out of lentil ideas.",
    "Check-up on 28 October at 08:30.",
    "Don't let Piet near the yoghurt, it is mine.",
    "Helping at the school fair on Saturday.",
    "Doing the accounts tonight.",
)
# (not after a title: "Dr. Lunde at the clinic")
_SENTENCE = re.compile(r"(?<=[.!?…])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)\s+")


def statements(text: str) -> list[str]:
    """The sentences of a message that state something: its questions and requests left out."""
    return [
        s
        for s in _SENTENCE.split(" ".join(text.split()))
        if s and not s.rstrip("\"')").endswith("?") and not _ASKING.match(s)
    ]


def _relevant(sentences: list[str], want: set[str]) -> str:
    """The statements that share a word with the question, each with the one after it (the
    fact is often said next: "Mamma called. Solveig Haugland does not believe in..."), in order."""
    keep: set[int] = set()
    for n, sentence in enumerate(sentences):
        if want & _stems(sentence):
            keep.update((n - 1, n, n + 1))
    return " ".join(sentences[n] for n in sorted(keep) if 0 <= n < len(sentences))


# a name in a question ("what colour is Pepper?", "how does Hannah take her tea?"): a capitalised
# word that does not begin a sentence
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)(?<![.!?])\b([A-Z][a-z]{2,})\b")
_NOT_NAMES = set(
    "I'm I've I'll I'd Is Are What When Where Who Which How Why Sir Madam Tatlock "
    "Christmas Easter".split()
) | {w.title() for w in (*WEEKDAYS, *MONTHS)}


def names(question: str) -> set[str]:
    """The names a question mentions (capitalised words inside a sentence)."""
    text = question.strip()
    return {
        m.group(1) for m in _NAME.finditer(text) if m.start() > 0 and m.group(1) not in _NOT_NAMES
    }


# the user's own world named in the question ("my sister", "the sheep we keep", "our flat"), or the
# user speaking of themselves ("which evening can I not do?", "I'm at the bakery: any reason I
# shouldn't?"): what they said of their life is looked for even when the question does not ask
# what they told. Not "me" alone: "can you tell me the capital of France?" is about nothing of
# theirs (and a question about the world at large shares no word with what they said, mostly:
# only lines that share one come)
_MINE = re.compile(
    r"\b(?:my|our|ours|mine|myself|we|we're|we've|we'd|us|i|i'm|im|i've|i'd|i'll)\b",
    re.IGNORECASE,
)


MINE_EXAMPLES = (
    "Which evening of the week can I not do, because of the handball?",
    "I'm at the bakery looking at the Nutella croissants. Any reason I shouldn't?",
    "Can you do me two lines for the open day poster saying what kind of sheep we keep?",
    "Draft a short text to my son wishing him luck.",
    "im drawing her",
)
MINE_NEAR_MISSES = (
    "can you tell me the capital of France?",
    "How many beehives does a typical allotment have?",
    "What colour is Pepper?",
    "Write a haiku about autumn.",
)


def mentions_own(question: str) -> bool:
    """The question names something of the user's own ("my", "our", "we", "us") or speaks of
    the user ("I")."""
    return bool(_MINE.search(question.replace("\u2019", "'")))


def said_before(
    store: UserStore,
    question: str,
    *,
    conversation_id: int,
    budget_tokens: int,
    told: bool,
    exclude: Collection[int] = (),
    estimator: Estimator | None = None,
    semantic: Semantic | None = None,
) -> str:
    """The block of the user's earlier messages (other conversations) that share a content word
    with ``question``, best first; "" when none does. ``told``: the question asks what the user
    told (compose's reader says so); otherwise only messages that mention a name the question
    names are taken (a question about Pepper, about Hannah), or, where it names none, messages
    that share its words when it speaks of the user's own things ("a poster saying what sheep we
    keep"); a question that does neither gets no block (general knowledge is not looked for in
    what the user said). Only what a message states counts: its questions and requests are
    left out of the match and of the line. ``semantic``: the search also finds messages by
    meaning (where their vectors exist; one embedding request of the question, bounded), and
    one found so that stands out needs no shared word."""
    facts = store.vars()
    also = other_words(question) + known_names(question, facts)
    want = _stems(question) | _stems(" ".join(also))
    own = mentions_own(question)
    # a name narrows the lines only for a question about someone else's things (a guest's "what
    # colour is Pepper?"); the user's own question may name a place or a person the line need
    # not ("how long is the drive from Bergen to my mother's?": she moved to Molde)
    named = set() if told or own else names(question)
    if not want or not (told or named or own):
        return ""
    est = estimator or Estimator()
    room = max(0, int(budget_tokens * SHARE))
    # a message an old value was read from must not come back as if it stood (the corrected
    # fact is in the prompt, newest value); a message a standing fact was read from may say more
    # than that fact ("The variety is Black Krim, got the seeds from my neighbour Tomasz" keeps
    # the neighbour's name only), so it stays a candidate
    standing = {v.source_message_id for v in facts}
    kept = {h.source_message_id for h in store.var_history()} - standing
    hits = memory_search.search(
        store,
        " ".join([question, *also]),
        limit=POOL,
        include_compacts=False,
        exclude={*exclude, *(k for k in kept if k is not None)},
        semantic=semantic,
    )
    lines: list[str] = []
    used = est.bound(HEADING)
    for h in hits:
        if h.kind != "message" or h.role != "user" or h.conversation_id == conversation_id:
            continue
        said = statements(h.content)
        # a message found by what it means shares no word: what it states is the line
        text = " ".join(said) if h.why.startswith("similar in meaning") else _relevant(said, want)
        if not text:
            continue
        if named and not any(re.search(rf"\b{n}\b", text) for n in named):
            continue
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS].rsplit(" ", 1)[0] + " …"
        # a guest's statement stays theirs: the line says who said it ("Piet: we now leave on 10
        # November" is no fact about the owner)
        if h.message_id is not None and not store.message(h.message_id).is_anchor:
            text = f"({h.author_name or 'a guest'} said) {text}"
        line = f"- [{h.timestamp[:10]}] {text}"
        cost = est.bound(line) + 1
        if used + cost > room or line in lines:
            continue
        lines.append(line)
        used += cost
        if len(lines) >= LIMIT:
            break
    return (HEADING + "\n" + "\n".join(lines)) if lines else ""
