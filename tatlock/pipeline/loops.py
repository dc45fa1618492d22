"""A model repeating itself: found while it streams (``LoopWatch``, so generation stops at once
instead of running to its token cap) and in a finished reply (``looping``, one of the gate's
garbled checks); ``without_repeats`` keeps what a loop said before it began.

Apart from the gate because the phases that stream (assess, respond) watch for loops as they
generate, and the gate judges what they produced: neither should import the other.
"""

from __future__ import annotations

import re
from collections import Counter

from tatlock.pipeline.rulebook import lazy

LOOP_WINDOW = 3000  # a loop shows at the end of what was said; older text is not searched again
# one fragment of 3 to 200 characters said seven times back to back
_BACK_TO_BACK = lazy(r"(.{3,200}?)\1{6,}", re.S)  # across lines too ("D'un ami\n- no one\n" x 20)
_SENTENCE_END = lazy(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [x.strip() for x in _SENTENCE_END.split(text) if x.strip()]


def looping(text: str) -> bool:
    """The model is repeating itself: one fragment back to back, or a sentence again and again.
    Only the last ``LOOP_WINDOW`` characters are read, and a fragment is at most 200 characters:
    the search was quadratic in the text (a 35 KB reply took 15 s to check)."""
    text = text[-LOOP_WINDOW:]
    if _BACK_TO_BACK.search(text):
        return True
    said = [x.lower() for x in sentences(text) if len(x) > 15]
    if len(said) >= 4:
        top = max(Counter(said).values())
        if top >= 3 and top / len(said) >= 0.3:
            return True
    return False


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


def without_repeats(text: str) -> str:
    """The text with every sentence after its first appearance removed (a loop cut short)."""
    seen: set[str] = set()
    kept = []
    for sentence in sentences(text):
        key = sentence.lower()
        if key not in seen:
            seen.add(key)
            kept.append(sentence)
    # the stream was cut mid-sentence: a start of a sentence already said is not new
    if len(kept) > 1 and any(k.lower().startswith(kept[-1].lower()) for k in kept[:-1]):
        kept.pop()
    return " ".join(kept)
