"""Memory search: the one ranking behind ``recall_memories``, ``tatlock memory search`` and
the LoCoMo benchmark (``scripts/bench locomo``).

Lexical first (SQLite FTS5, porter stemming), and semantic where the messages' vectors
exist (``memory.vectors``: computed in the background by the server's embedding model; the
query's own vector is the only model call a search makes, bounded, and skipped when it
cannot be had). A query is split into words; every word is quoted before it reaches FTS5,
so no query syntax (``AND``, ``*``, ``NEAR(``, ``col:x``, stray quotes) can leak in. Each
content word is looked up on its own (``bm25()`` of a one-word query is that word's BM25
contribution), which lets the ranking combine the per-word scores in ways one OR-query cannot:

* **turn score**: weighted sum of the words' BM25 scores over content and image captions
  (``metadata.search_text``); names of the people in the conversation are not matched as
  words (they are in half of all messages) but boost that person's own messages;
* **meaning** (with vectors): BM25 scaled to 1 at its best plus the calibrated similarity
  (``memory.hybrid.fuse``) of the query without the people's names (messages are embedded
  without their speaker's: who said it is the speaker boost's business); the most similar
  messages join the candidates;
* **neighbours**: a message also scores by the messages right before and after it in its
  conversation, since an answer usually sits next to the words of the question;
* **surroundings**: a message among others that together cover many of the query's words
  (each word counted once, at its best message within a few messages either side; the
  meaning counts as one more word) ranks higher than a lone match;
* **answer-type hints**: "when" questions favour messages with time words, "how many"
  ones messages with numbers, and so on;
* **dates**: a date the query names ("on 8 May, 2023", "in June 2022") is taken out of its
  words ("may" there is the month) and the messages written around it join the candidates,
  at full weight on the day or month named and less to none a week either side, with a
  boost on top: "where did Maria travel in July 2022" finds what she said then.

Filters (time range, conversation, topic) apply before ranking; compacts (summaries of
message ranges) are searched the same way and ranked with the messages. Every hit says why
it matched (``memory.hybrid.explain``), and messages named in ``exclude`` (the one being
answered) are never hits.

LoCoMo evidence recall@10 (``scripts/bench locomo``; naive FTS5 BM25 over the same turns:
62.9 on the development half), per conversation of the five here (conv-26, -30, -41, -42,
-43): 80.3, 84.7, 82.5, 77.1, 81.8 with BM25 alone (mean 81.3) and 85.0, 88.1, 86.0, 78.7,
83.5 with all-minilm's vectors (mean 84.2; the query and the messages are embedded without
the people's names, ``query.without_names``). Settings are kept only when they hold up
leave-one-conversation-out (chosen on four conversations, scored on the fifth, for each):
81.1 (worst 76.7) and 84.2 (worst 78.7) that way. The five are not unseen: expect a few
points less on conversations that are. Tried per fold and not kept (README, "How well recall
works"): sentence-level vectors (max-sim over a turn's sentences), a session-level similarity
added to its turns, neighbouring query words as a phrase bonus, two-person questions split
into one search per person.
No SQL of its own: the queries it needs are in ``tatlock.store.search`` and
``tatlock.store.vectors``.
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tatlock.memory.hybrid import explain, fuse, window_cover
from tatlock.memory.query import (
    FRAMING,
    STOPWORDS,
    answer_hint,
    content_terms,
    fts_query,
    match_expr,
    query_dates,
    query_terms,
    quote,
    split_words,
    without_dates,
    without_names,
)
from tatlock.memory.vectors import Semantic
from tatlock.store import search as queries
from tatlock.store.user import UserStore

__all__ = ["RANKING", "Hit", "Ranking", "fts_query", "query_terms", "search"]


@dataclass(frozen=True)
class Hit:
    kind: str  # "message" | "compact"
    score: float
    conversation_id: int
    message_id: int | None
    message_number: int | None
    from_message: int | None
    up_to_message: int | None
    author_name: str | None
    role: str | None
    content: str
    timestamp: str  # a compact's: the timestamp of the first message it covers
    why: str = ""  # why it matched, in words ("has france", "next to #12, which has france", ...)


@dataclass(frozen=True)
class Ranking:
    """Weights of the ranking (defaults tuned on the LoCoMo development half)."""

    w_content: float = 1.0
    w_extra: float = 1.0  # image captions and other attached text (metadata.search_text)
    neighbour: float = 0.5  # share of the previous message's score
    neighbour_next: float = 0.35  # share of the next message's score
    neighbour2: float = 0.2  # share of the messages two away
    session: float = 0.6  # share of the coverage score of the message's surroundings
    session_window: int = 8  # surroundings: +-N messages (0: the whole conversation)
    speaker: float = 0.25  # boost for a message by a person named in the query
    hint: float = 0.15  # answer-type hint boost
    date: float = 0.3  # boost for messages around a date named in the query
    date_slack_days: int = 7
    # messages around a date named in the query join the candidates at this share of the best
    date_base: float = 0.2
    date_pool: int = 200  # at most this many messages per named date join so
    framing: float = 0.3  # weight of question-framing words ("mention", "describe")
    expand: bool = True  # irregular verb forms and everyday synonyms
    pool: int = 300  # best matches whose neighbours are fetched
    hint_pool: int = 100  # best results checked for answer-type hints
    max_terms: int = 40  # words of a very long query beyond this are ignored
    per_word: int = 1000  # best messages kept per query word (bounds the work on a huge memory)
    candidates: int = 3000  # at most this many matching messages are ranked (the best by own score)
    compact: float = 2.0  # compacts' BM25 sum times this, to rank them with messages
    # semantic recall (message vectors): fused with BM25 on one normalised scale
    # weight of a message's calibrated similarity, beside its BM25 share (best = 1)
    dense: float = 1.0
    # weight of the best similarity in its surroundings, as one more query word
    dense_cover: float = 0.25
    dense_pool: int = 50  # most similar messages added to the candidates
    # similarities at or below this quantile of the memory's count as none
    dense_floor: float = 0.95
    # a similarity counts fully only this many standard deviations above the floor
    dense_span: float = 1.0
    dense_outlier: float = 1.0  # ... and never below the mean plus this many standard deviations
    dense_min: float = 0.0  # calibrated similarities at or below this count as none


RANKING = Ranking()

# -------------------------------------------------------------------------------- search


def search(
    store: UserStore,
    query: str,
    *,
    limit: int = 10,
    start: str | None = None,
    end: str | None = None,
    conversation_id: int | None = None,
    topic: str | None = None,
    include_compacts: bool = True,
    semantic: Semantic | None = None,
    exclude: Iterable[int] = (),
) -> list[Hit]:
    """Search one user's memory; best hits first.

    ``start``/``end`` (ISO UTC timestamps, compared as text) bound message timestamps
    (``start <= timestamp < end``); ``topic`` keeps messages tagged with that topic or in a
    conversation that has it. A query without content words but with a filter returns
    the most recent matching messages. ``semantic`` adds the message vectors' similarity
    (BM25 alone without it, or while there are none); ``exclude`` names messages that are
    never hits (the message being answered). Never raises on odd input: returns [].
    """
    try:
        limit = int(limit)
        if limit <= 0 or not isinstance(query, str):
            return []
        skip = frozenset(int(i) for i in exclude if i is not None)
        return _search(
            store,
            query,
            limit,
            _bound(start),
            _bound(end),
            conversation_id,
            topic,
            include_compacts,
            RANKING,
            semantic=semantic,
            exclude=skip,
        )
    except (sqlite3.Error, ValueError, TypeError, OverflowError):
        return []


def _bound(value: Any) -> str | None:
    """A time bound as stored text; datetimes (naive = local) become UTC ISO strings."""
    if value is None or value == "":
        return None
    if isinstance(value, _dt.datetime):
        from tatlock.timeutil import iso

        return iso(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if not isinstance(value, str):
        raise TypeError("a time bound must be an ISO string")
    return value


def _search(
    store: UserStore,
    query: str,
    limit: int,
    start: str | None,
    end: str | None,
    conversation_id: int | None,
    topic: str | None,
    include_compacts: bool,
    rk: Ranking,
    *,
    semantic: Semantic | None = None,
    exclude: frozenset[int] = frozenset(),
    dense: dict[int, float] | None = None,
) -> list[Hit]:
    """The search itself; ``dense`` (message_id -> similarity) stands in for ``semantic`` in
    experiments that computed the similarities beforehand."""
    flt = queries.message_filter(start, end, conversation_id, topic)
    dated = rk.date_base > 0 and bool(query_dates(query))
    terms = content_terms(without_dates(query) if dated else query)
    if flt and all(t in FRAMING for t in terms):  # "what did we talk about" + a time range
        return [
            h for h in _recent(store, flt, limit + len(exclude)) if h.message_id not in exclude
        ][:limit]
    if not terms and not dated:
        terms = query_terms(query)  # only stopwords: search for them anyway
        if not terms:
            return []

    terms = terms[: rk.max_terms]
    people = _people(store)
    named = {w for w in terms if w in people}
    speakers = {name for w in named for name in people[w]}
    weights: dict[str, float] = {}
    for w in terms:
        if w in named:
            continue
        weights[w] = rk.framing if w in FRAMING else 1.0
    cflt = (
        queries.compact_filter(start, end, conversation_id, topic)
        if include_compacts
        else queries.Filter()
    )
    if not weights and not dated:  # the query only names people: their latest messages and mentions
        recent = _recent(
            store,
            flt,
            limit + len(exclude),
            mentioning=" OR ".join(quote(w) for w in named),
            names=tuple(sorted(named)),
        )
        recent = [h for h in recent if h.message_id not in exclude]
        if include_compacts:
            recent = _compacts(store, {w: 1.0 for w in named}, {}, cflt, limit, rk) + recent
        return recent[:limit]

    # per-word BM25 contributions: {message_id: score}
    own: dict[int, float] = {}
    per_term: dict[str, dict[int, float]] = {}
    for w, weight in weights.items():
        scores = {}
        for mid, s in queries.word_scores(
            store,
            match_expr(w, rk.expand),
            flt,
            content_weight=rk.w_content,
            extra_weight=rk.w_extra,
            limit=rk.per_word,
        ):
            if s > 0 and mid not in exclude:
                scores[mid] = s * weight
        per_term[w] = scores
        for mid, s in scores.items():
            own[mid] = own.get(mid, 0.0) + s

    if len(own) > rk.candidates:  # a huge memory and common words: rank the best part only
        keep = set(sorted(own, key=own.__getitem__, reverse=True)[: rk.candidates])
        own = {mid: s for mid, s in own.items() if mid in keep}
        per_term = {
            w: {mid: s for mid, s in scores.items() if mid in keep}
            for w, scores in per_term.items()
        }

    dated_ids = _date_candidates(store, query, own, flt, rk, exclude) if rk.date_base else set()
    if dense is None and semantic is not None:
        dense = semantic.similar(
            store, without_names(query, people), flt, exclude=exclude.__contains__
        )
    scale = 1.0
    if dense:
        scale = 1.0 / (max(own.values(), default=0.0) or 1.0)
        own, per_term = fuse(own, per_term, dense, rk, scale)
    hits: list[Hit] = []
    if own:
        hits = _rank_messages(
            store, query, own, per_term, speakers, flt, limit, rk, exclude, dated_ids
        )
    if include_compacts:
        # summaries name people in the third person: names count there, next to other words
        hits += _compacts(store, weights, {w: 1.0 for w in named}, cflt, limit, rk, scale)
        hits.sort(key=lambda h: -h.score)
    return hits[:limit]


def _people(store: UserStore) -> dict[str, set[str]]:
    """Lowercased name words of everyone who wrote a message -> their author names."""
    out: dict[str, set[str]] = {}
    for name in queries.participant_names(store):
        for part in split_words(name):
            if part not in STOPWORDS and len(part) > 1:
                out.setdefault(part, set()).add(name)
    return out


def _rank_messages(
    store: UserStore,
    query: str,
    own: dict[int, float],
    per_term: dict[str, dict[int, float]],
    speakers: set[str],
    flt: queries.Filter,
    limit: int,
    rk: Ranking,
    exclude: frozenset[int] = frozenset(),
    dated: set[int] | None = None,
) -> list[Hit]:
    meta: dict[int, queries.MessageRef] = {
        ref.message_id: ref for ref in queries.message_refs(store, list(own))
    }
    pos = {(r.conversation_id, r.message_number): mid for mid, r in meta.items()}

    # whole-conversation coverage (session_window 0): each word at its best message
    session: dict[int, float] = {}
    if rk.session and not rk.session_window:
        for scores in per_term.values():
            best: dict[int, float] = {}
            for mid, s in scores.items():
                c = meta[mid].conversation_id
                if s > best.get(c, 0.0):
                    best[c] = s
            for c, s in best.items():
                session[c] = session.get(c, 0.0) + s

    # neighbours of the strongest matches that did not match themselves
    top = sorted(own, key=own.__getitem__, reverse=True)[: rk.pool]
    missing: dict[int, set[int]] = {}
    if rk.neighbour or rk.neighbour_next or rk.neighbour2:
        reach = 2 if rk.neighbour2 else 1
        for mid in top:
            c, n = meta[mid].conversation_id, meta[mid].message_number
            for d in range(-reach, reach + 1):
                if d and (c, n + d) not in pos and n + d >= 1:
                    missing.setdefault(c, set()).add(n + d)
    for ref in queries.neighbour_refs(
        store, [(c, n) for c, numbers in missing.items() for n in sorted(numbers)], flt
    ):
        meta[ref.message_id] = ref
        pos[(ref.conversation_id, ref.message_number)] = ref.message_id

    cover: dict[int, float] = {}
    if rk.session and rk.session_window:
        cover = window_cover(meta, per_term, rk.session_window)

    def own_at(c: int, n: int) -> float:
        mid = pos.get((c, n))
        return own.get(mid, 0.0) if mid is not None else 0.0

    dates = query_dates(query) if rk.date else []
    slack = _dt.timedelta(days=rk.date_slack_days)
    windows = [((a - slack).isoformat(), (b + slack).isoformat()) for a, b in dates]

    scored: list[tuple[float, int]] = []
    for mid, (_, c, n, author, _role, ts) in meta.items():
        if mid in exclude:
            continue
        s = own.get(mid, 0.0)
        if rk.neighbour or rk.neighbour_next:
            s += rk.neighbour * own_at(c, n - 1) + rk.neighbour_next * own_at(c, n + 1)
        if rk.neighbour2:
            s += rk.neighbour2 * (own_at(c, n - 2) + own_at(c, n + 2))
        if s <= 0:
            continue
        if rk.session:
            s += rk.session * (cover.get(mid, 0.0) if rk.session_window else session.get(c, 0.0))
        boost = 1.0
        if speakers and author in speakers:
            boost += rk.speaker
        if windows and any(a <= ts < b for a, b in windows):
            boost += rk.date
        scored.append((s * boost, mid))
    scored.sort(key=lambda x: (-x[0], x[1]))

    # answer-type hints on the best candidates (needs their text)
    hint = answer_hint(query) if rk.hint else None
    pool = scored[: max(rk.hint_pool, limit)] if hint is not None else scored[:limit]
    texts = queries.message_texts(store, [mid for _, mid in pool])
    if hint is not None:
        pool = [
            (s * (1.0 + rk.hint) if hint.search(texts.get(mid, ("", ""))[1]) else s, mid)
            for s, mid in pool
        ]
        pool.sort(key=lambda x: (-x[0], x[1]))
    out = []
    for s, mid in pool[:limit]:
        _, c, n, author, role, ts = meta[mid]
        content, searchable = texts.get(mid, ("", ""))
        out.append(
            Hit(
                "message",
                round(s, 6),
                c,
                mid,
                n,
                None,
                None,
                author,
                role,
                content,
                ts,
                explain(mid, searchable, per_term, meta, pos, dated),
            )
        )
    return out


def _date_candidates(
    store: UserStore,
    query: str,
    own: dict[int, float],
    flt: queries.Filter,
    rk: Ranking,
    exclude: frozenset[int],
) -> set[int]:
    """Messages written around a date the query names join the candidates (``own``, in place)
    at ``date_base`` of the best score (returned: their ids): "what did Maria do in July 2022" asks
    about what was
    said then, whether or not it has the query's other words."""
    dates = query_dates(query)
    joined: set[int] = set()
    if not dates:
        return joined
    base = rk.date_base * max(own.values(), default=1.0)
    slack = _dt.timedelta(days=rk.date_slack_days)
    for a, b in dates:
        for ref, _ in queries.recent_messages(
            store,
            queries.within(flt, (a - slack).isoformat(), (b + slack).isoformat()),
            rk.date_pool,
        ):
            if ref.message_id in exclude:
                continue
            try:
                when = _dt.datetime.fromisoformat(ref.timestamp)
            except ValueError:
                continue
            if when.tzinfo is None:
                when = when.replace(tzinfo=_dt.UTC)
            # full weight within the date named, less the further outside it (none at the slack's
            # end)
            off = max(a - when, when - b, _dt.timedelta(0))
            share = max(0.0, 1.0 - off / slack) if slack else float(off == _dt.timedelta(0))
            if share > 0:
                own[ref.message_id] = own.get(ref.message_id, 0.0) + base * share
                joined.add(ref.message_id)
    return joined


def _recent(
    store: UserStore,
    flt: queries.Filter,
    limit: int,
    *,
    mentioning: str | None = None,
    names: tuple[str, ...] = (),
) -> list[Hit]:
    why = ("mentions " + ", ".join(names)) if names else "the latest in the period"
    return [
        Hit(
            "message",
            0.0,
            r.conversation_id,
            r.message_id,
            r.message_number,
            None,
            None,
            r.author_name,
            r.role,
            content,
            r.timestamp,
            why,
        )
        for r, content in queries.recent_messages(store, flt, limit, mentioning=mentioning)
    ]


def _compacts(
    store: UserStore,
    weights: dict[str, float],
    names: dict[str, float],
    flt: queries.Filter,
    limit: int,
    rk: Ranking,
    scale: float = 1.0,
) -> list[Hit]:
    """Compacts matching the words, scored on the same per-word BM25 scale as messages
    (times ``rk.compact``). ``names`` only add to compacts that match some word."""
    scores: dict[int, float] = {}
    found: dict[int, list[str]] = {}
    for w, weight in weights.items():
        for cid, s in queries.compact_scores(store, match_expr(w, rk.expand), flt):
            if s > 0:
                scores[cid] = scores.get(cid, 0.0) + s * weight * rk.compact * scale
                found.setdefault(cid, []).append(w)
    if scores or not weights:
        for w, weight in names.items():
            for cid, s in queries.compact_scores(store, quote(w), flt):
                if s > 0 and (cid in scores or not weights):
                    scores[cid] = scores.get(cid, 0.0) + s * weight * rk.compact * scale
                    found.setdefault(cid, []).append(w)
    best = sorted(scores, key=lambda i: (-scores[i], i))[:limit]
    rows = queries.compact_rows(store, best)
    hits = []
    for cid in best:
        r = rows.get(cid)
        if r is None:  # deleted since it was scored
            continue
        hits.append(
            Hit(
                "compact",
                round(scores[cid], 6),
                r.conversation_id,
                None,
                None,
                r.from_message,
                r.up_to_message,
                None,
                None,
                r.summary,
                r.first_timestamp or r.created_at,
                "the summary has " + ", ".join(found.get(cid, [])),
            )
        )
    return hits
