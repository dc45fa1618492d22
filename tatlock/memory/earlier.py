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

from tatlock.memory import search as memory_search
from tatlock.memory.tokens import Estimator
from tatlock.store.user import UserStore

HEADING = "## Said in earlier conversations"
LIMIT = 3  # messages in the block: the one a question points at is nearly always the first
SHARE = 0.08  # of the memory's budget, at most
MAX_CHARS = 400  # a long message is cut: the statement is nearly always near its start
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
        if len(w) >= 3 and w not in _GENERIC:
            out.add((w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)[:5])
    return out


# a name in a question ("what colour is Pepper?", "how does Hannah take her tea?"): a capitalised
# word that does not begin a sentence
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)(?<![.!?])\b([A-Z][a-z]{2,})\b")
_NOT_NAMES = set(
    "I'm I've I'll I'd Is Are What When Where Who Which How Why Sir Madam Tatlock".split()
)


def names(question: str) -> set[str]:
    """The names a question mentions (capitalised words inside a sentence)."""
    text = question.strip()
    return {
        m.group(1) for m in _NAME.finditer(text) if m.start() > 0 and m.group(1) not in _NOT_NAMES
    }


# the user's own world named in the question ("my sister", "the sheep we keep", "our flat"): what
# they said of it is looked for even when the question does not ask what they told. Not "I" or
# "me" alone: "can you tell me the capital of France?" is about nothing of theirs
_MINE = re.compile(r"\b(?:my|our|ours|mine|we|we're|we've|we'd|us)\b", re.IGNORECASE)


def mentions_own(question: str) -> bool:
    """The question names something of the user's own ("my", "our", "we", "us")."""
    return bool(_MINE.search(question))


def said_before(
    store: UserStore,
    question: str,
    *,
    conversation_id: int,
    budget_tokens: int,
    told: bool,
    exclude: Collection[int] = (),
    estimator: Estimator | None = None,
) -> str:
    """The block of the user's earlier messages (other conversations) that share a content word
    with ``question``, best first; "" when none does. ``told``: the question asks what the user
    told (compose's reader says so); otherwise only messages that mention a name the question
    names are taken (a question about Pepper, about Hannah), or, where it names none, messages
    that share its words when it speaks of the user's own things ("a poster saying what sheep we
    keep"); a question that does neither gets no block (general knowledge is not looked for in
    what the user said)."""
    want = _stems(question)
    named = set() if told else names(question)
    if not want or not (told or named or mentions_own(question)):
        return ""
    est = estimator or Estimator()
    room = max(0, int(budget_tokens * SHARE))
    # a message an old value was read from must not come back as if it stood (the corrected
    # fact is in the prompt, newest value); a message a standing fact was read from may say more
    # than that fact ("The variety is Black Krim, got the seeds from my neighbour Tomasz" keeps
    # the neighbour's name only), so it stays a candidate
    standing = {v.source_message_id for v in store.vars()}
    kept = {h.source_message_id for h in store.var_history()} - standing
    hits = memory_search.search(
        store,
        question,
        limit=12,
        include_compacts=False,
        exclude={*exclude, *(k for k in kept if k is not None)},
    )
    lines: list[str] = []
    used = est.bound(HEADING)
    for h in hits:
        if h.kind != "message" or h.role != "user" or h.conversation_id == conversation_id:
            continue
        text = " ".join(h.content.split())
        if not text or not want & _stems(text):
            continue
        if named and not any(re.search(rf"\b{n}\b", text) for n in named):
            continue
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS].rsplit(" ", 1)[0] + " …"
        line = f"- [{h.timestamp[:10]}] {text}"
        cost = est.bound(line) + 1
        if used + cost > room or line in lines:
            continue
        lines.append(line)
        used += cost
        if len(lines) >= LIMIT:
            break
    return (HEADING + "\n" + "\n".join(lines)) if lines else ""
