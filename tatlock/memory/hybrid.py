"""Three parts of the recall ranking kept apart from ``memory.search``: fusing the message
vectors' similarities with BM25 (``fuse``), the coverage of a message's surroundings
(``window_cover``), and saying why a hit matched (``explain``).

Fusion is a normalised score sum, not rank fusion: plain reciprocal-rank fusion of MiniLM
with BM25 scored below BM25 alone on LoCoMo (58.0 against 63.2), because it gives the
encoder's tenth guess as much say as BM25's tenth however weak the similarity. Here BM25 is
scaled so that the best message scores 1, and a similarity counts only above what is usual
for this query in this memory (its ``dense_floor`` quantile, and never below the mean plus
``dense_outlier`` standard deviations, so that in a small memory only a similarity that
stands out counts), scaled so that one ``dense_span`` standard deviations above that floor counts
fully, times ``dense``. The fused score then goes through the same neighbour and
surroundings steps as BM25 alone: the best similarity near a message counts as one more
query word (``dense_cover``), so a passage that is both about the words and about the
meaning ranks first.
"""

from __future__ import annotations

import re
from collections import deque
from typing import TYPE_CHECKING

from tatlock.memory.query import split_words

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.memory.search import Ranking
    from tatlock.store.search import MessageRef

__all__ = ["DENSE", "explain", "fuse", "window_cover"]

DENSE = "\x00meaning"  # the similarity's entry among the query words (no word can be this)


def fuse(
    own: dict[int, float],
    per_term: dict[str, dict[int, float]],
    dense: dict[int, float],
    rk: Ranking,
    scale: float,
) -> tuple[dict[int, float], dict[str, dict[int, float]]]:
    """BM25 scores times ``scale`` (1 / the best), plus the calibrated similarity of the
    ``dense_pool`` most similar messages (which join the candidates if no word matched)."""
    own = {m: s * scale for m, s in own.items()}
    per_term = {w: {m: s * scale for m, s in scores.items()} for w, scores in per_term.items()}
    values = sorted(dense.values())
    if not values:
        return own, per_term
    # what is usual for this query here: its high quantile, and never below mean + 1 sd (the
    # same point for a large memory; for a small one, where a quantile is one of a few values, a
    # similarity must stand out from the rest to count at all)
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / n) ** 0.5
    floor = max(values[int(rk.dense_floor * (n - 1))], mean + rk.dense_outlier * sd)
    span = max(values[-1] - floor, rk.dense_span * sd) or 1.0
    near = sorted(dense, key=dense.__getitem__, reverse=True)[: rk.dense_pool]
    calibrated = {m: v for m in near if (v := min(1.0, (dense[m] - floor) / span)) > rk.dense_min}
    for m, v in calibrated.items():
        own[m] = own.get(m, 0.0) + rk.dense * v
    if rk.dense_cover and calibrated:
        per_term[DENSE] = {m: rk.dense_cover * v for m, v in calibrated.items()}
    return own, per_term


def _has(text: str, word: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.I) is not None


def explain(
    mid: int,
    text: str,
    per_term: dict[str, dict[int, float]],
    meta: dict[int, MessageRef],
    pos: dict[tuple[int, int], int],
    dated: set[int] | None = None,
) -> str:
    """Why message ``mid`` is a hit, in a few words: the query words it has (as typed, or in
    another form: "capital" found as "capitals"), else the neighbour that has them, else that
    it was written around the date asked about (``dated``), else its meaning. ``text`` is the
    message's searchable text (content and captions)."""
    words = [w for w, scores in per_term.items() if w != DENSE and mid in scores]
    if words:
        exact = [w for w in words if _has(text, w)]
        other = [w for w in words if w not in exact]
        parts = []
        if exact:
            parts.append("has " + ", ".join(exact))
        if other:
            found = sorted({t for t in split_words(text) if any(t[:4] == w[:4] for w in other)})[:3]
            parts.append(
                "has a form of " + ", ".join(other) + (f" ({', '.join(found)})" if found else "")
            )
        return "; ".join(parts)
    ref = meta.get(mid)
    if ref is not None:
        for d in (-1, 1, -2, 2):
            other_id = pos.get((ref.conversation_id, ref.message_number + d))
            if other_id is None:
                continue
            near = [w for w, scores in per_term.items() if w != DENSE and other_id in scores]
            if near:
                return f"next to #{ref.message_number + d}, which has {', '.join(near)}"
    if dated and mid in dated:
        return "written around the date asked about"
    if mid in per_term.get(DENSE, {}):
        return "similar in meaning"
    if ref is not None:
        for d in (-1, 1, -2, 2):
            if pos.get((ref.conversation_id, ref.message_number + d)) in per_term.get(DENSE, {}):
                return f"next to #{ref.message_number + d}, which is similar in meaning"
    return "in a passage about the words searched for"


def window_cover(
    meta: dict[int, MessageRef], per_term: dict[str, dict[int, float]], width: int
) -> dict[int, float]:
    """For every message in ``meta``: the sum over query words of the word's best score
    within ``width`` messages either side (same conversation); a sliding-window maximum."""
    by_conv: dict[int, list[tuple[int, int]]] = {}
    for mid, row in meta.items():
        by_conv.setdefault(row.conversation_id, []).append((row.message_number, mid))
    for members in by_conv.values():
        members.sort()
    cover: dict[int, float] = dict.fromkeys(meta, 0.0)
    for scores in per_term.values():
        hits_by_conv: dict[int, list[tuple[int, float]]] = {}
        for mid, v in scores.items():
            ref = meta.get(mid)
            if ref is not None:
                hits_by_conv.setdefault(ref.conversation_id, []).append((ref.message_number, v))
        for c, hits in hits_by_conv.items():
            hits.sort()
            window: deque[tuple[int, float]] = deque()  # decreasing scores
            i = 0
            for n, mid in by_conv[c]:
                while i < len(hits) and hits[i][0] <= n + width:
                    while window and window[-1][1] <= hits[i][1]:
                        window.pop()
                    window.append(hits[i])
                    i += 1
                while window and window[0][0] < n - width:
                    window.popleft()
                if window:
                    cover[mid] += window[0][1]
    return cover
