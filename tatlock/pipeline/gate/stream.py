"""The quality gate on a stream: the checks that can fail on a partial answer (vendor identity,
a leaked instruction, persona text or secret, the prompt echoed) run while the answer is
generated, and the text is released only once it can no longer fail them, so a failing answer
stops before any failing text reaches the user.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import time

from tatlock.pipeline.gate import leaks
from tatlock.pipeline.gate import text as text_mod
from tatlock.pipeline.gate.brief import Brief
from tatlock.pipeline.gate.checks import check, stream_check
from tatlock.pipeline.gate.verdict import Verdict
from tatlock.pipeline.rulebook import lazy

# Where a failing match may begin, as word sequences: the stream holds a run of words while it
# could still grow into one of these ("I" -> "I am" -> "I am an" -> "I am an AI"), and releases
# it as soon as a word leads elsewhere ("I am" -> "I am delighted"). A set is one word's choices;
# a set in a tuple is optional.
_VENDOR_NAMES = {
    "chatgpt",
    "gpt",
    "gpt4",
    "gpt3",
    "llama",
    "llama3",
    "gemma",
    "mistral",
    "mixtral",
    "qwen",
    "claude",
    "phi",
    "phi3",
    "smollm",
    "smollm2",
    "deepseek",
    "gemini",
    "bard",
    "copilot",
    "falcon",
    "vicuna",
    "openchat",
    "tinyllama",
}
_AI_WORDS = {
    "ai",
    "a",
    "artificial",
    "language",
    "large",
    "llm",
    "chatbot",
    "chat",
    "virtual",
    "computer",
    "neural",
    "robot",
    "bot",
} | _VENDOR_NAMES
_MAKER_WORDS = {
    "openai",
    "open",
    "meta",
    "google",
    "anthropic",
    "alibaba",
    "mistral",
    "microsoft",
    "hugging",
    "huggingface",
    "deepseek",
    "the",
}
_MADE = {"created", "developed", "trained", "made", "built", "designed", "programmed", "released"}
_SOFT = ({"just", "only", "merely", "simply"},)
_ARTICLE = ({"a", "an"},)
_PHRASES: list[list] = [
    [{"i"}, {"am"}, *[_SOFT, _ARTICLE, ({"large"},)], _AI_WORDS],
    [{"im", "as"}, *[_SOFT, _ARTICLE, ({"large"},)], _AI_WORDS],
    [{"my"}, {"name"}, {"is"}, _VENDOR_NAMES],
    [{"i", "im"}, ({"am"},), {"called"}, _VENDOR_NAMES],
    [{"call", "this"}, {"me", "is"}, _VENDOR_NAMES],
    [{"i"}, {"was", "am", "have"}, ({"been"},), (None,), _MADE, {"by"}, _MAKER_WORDS],
    [{"im", "ive"}, ({"been"},), (None,), _MADE, {"by"}, _MAKER_WORDS],
    [_MADE, {"by"}, _MAKER_WORDS],
    [{"my"}, {"training", "knowledge", "system", "hidden", "instructions"}],
    [{"as"}, {"of"}, {"my"}],
    [{"i"}, {"dont", "do"}, ({"not"},), {"have"}],
    [{"the"}, {"user", "users", "latest", "last", "findings", "butlers", "butler"}],
    [{"findings"}, {"below"}],
    [{"in"}, {"the"}, {"butlers", "butler"}],
    [{"these"}, {"instructions"}],
    [{"password", "passwords", "passwd", "passcode", "pin", "secret", "token", "api", "key"}],
]
# the words a failing phrase can begin with (its first element, and the next when the first is
# optional): a run that starts with any other word is never walked
_FIRST: set[str] = set()
for _ph in _PHRASES:
    for _el in _ph:
        if isinstance(_el, tuple):
            _FIRST |= set(_el[0] or ())
            continue
        _FIRST |= _el
        break
_FIRST_PREFIXES = {w[:k] for w in _FIRST for k in range(1, len(w) + 1)}
_CHAR_TRIGGERS = lazy(r"sk-|AKIA|-----BEGIN|\"decision\"|<\||\[/?INST", re.I)


_HEADINGS = (
    "## conversation so far",
    "## summary of messages",
    "## earlier conversations",
    "facts about yourself:",
    "what you can do with your tools:",
)


def _label_texts() -> tuple[str, ...]:
    return (*leaks.prompt_labels(), *_HEADINGS)


def _could_be_key(rest: str) -> bool:
    """The text from a key's prefix on could still become a key (or a template token)."""
    if rest[:3].lower() == "sk-":
        return re.fullmatch(r"sk-[A-Za-z0-9_-]*", rest, re.I) is not None
    if rest.startswith("AKIA"):
        return re.fullmatch(r"AKIA[0-9A-Z]{0,15}", rest) is not None
    # "-----BEGIN", a template token, a JSON key: held to the end, they fail when complete
    return True


def _could_become(seq: list[str], phrase: list, partial: bool) -> bool:
    """Whether a run of words (its last one perhaps half written) could still grow into the
    phrase, or already is it."""

    def walk(i: int, j: int) -> bool:
        if i == len(seq):
            return True
        if j == len(phrase):
            return False
        el = phrase[j]
        if isinstance(el, tuple):  # optional: skip it, or take it
            choices = el[0]
            if walk(i, j + 1):
                return True
        else:
            choices = el
        word, last = seq[i], partial and i == len(seq) - 1
        ok = choices is None or (
            any(c.startswith(word) for c in choices) if last else word in choices
        )
        return ok and walk(i + 1, j + 1)

    return walk(0, 0)


# how far back the stream checks look on each piece: longer than any failing match (a vendor
# claim, a run of 12 instruction words, a key block's header, a secret); the whole answer is
# checked again at its end. Looking at the whole text on every piece made a long answer's gate
# quadratic (20 s for 2,000 tokens).
WINDOW = 300
_TAIL = 400  # the last dozen words or so, for the held-back suffix
_PARTIAL = lazy(r"[\w'-]+$")


def tail_start(text: str, size: int) -> int:
    """Where the last ``size`` characters of the text begin, moved on to a word's start (a cut
    mid-word could make "task-..." look like "sk-...")."""
    if len(text) <= size:
        return 0
    cut = len(text) - size
    m = re.compile(r"\s").search(text, cut)
    return m.end() if m else cut


def _danger_start(text: str) -> int | None:
    """Where, among the last words of the text, a run begins that could still become a failing
    phrase (see _PHRASES); None when none could."""
    base = tail_start(text, _TAIL)
    spans = [
        (m.start(), m.group(0).lower().replace("'", ""))
        for m in re.finditer(r"[A-Za-z0-9']+", text[base:])
    ][-12:]
    spans = [(base + s, w) for s, w in spans]
    partial = bool(spans) and bool(re.search(r"[A-Za-z0-9']$", text))
    for k, (start, first) in enumerate(spans):
        if first not in _FIRST and not (
            k == len(spans) - 1 and partial and first in _FIRST_PREFIXES
        ):
            continue  # no failing phrase begins with this word
        seq = [w for _, w in spans[k:]]
        if any(_could_become(seq, ph, partial) for ph in _PHRASES):
            # words inside a sentence only: a full stop between them ends the suspicion
            if not re.search(r"[.!?\n]", text[start : spans[-1][0]]):
                return start
    return None


_SPAN = 80  # the longest failing match a trigger can start, in characters
_BATCH = 48  # most characters left unchecked while tokens come fast


class StreamGate:
    """The stream checks on an answer while it is generated.

        gate = StreamGate(question=q, persona_text=p, instructions=i, findings=f, secrets=s)
        for piece in stream:
            show(gate.feed(piece))
            if gate.failed:        # stop generating: nothing failing was shown
                break
        rest, verdict = gate.finish(guard_parts=..., other_part=...)
        show(rest)                 # "" when the verdict is FALLBACK

    ``feed`` returns the text that can no longer fail a stream check: it holds back the words
    that could still become a vendor claim ("As an", "I was trained by"), a secret, a run of
    the instructions or persona, a prompt label, or the question echoed back, and releases
    them once they cannot. At most ``hold`` characters are held for any one suspicion; an
    answer that starts like the question is held until it says something else.
    """

    def __init__(self, brief: Brief, *, hold: int = _SPAN, pace: float = 0.0):
        self.brief = brief
        self.c = brief.context()
        self.hold = hold
        # tokens that come faster than ``pace`` seconds apart are checked together, on a later
        # piece (at most _BATCH characters later) or at the end: a fast server's 2,000 tokens then
        # cost a few hundred checks, not 2,000, and the screen keeps up. Nothing unchecked is
        # released; pieces that come slower (a small local model) are each checked at once.
        self.pace = pace
        self._checked_at = 0.0
        self._checked_len = 0
        self.text = ""
        self.shown = 0
        self.failed: Verdict | None = None
        self.verdict: Verdict | None = None  # the whole answer's, once finished
        # a failure in the sentence still being written holds the text from that sentence on:
        # the sentence may end well, or never end (then the answer stands without it)
        self._held_from: int | None = None
        self._values = tuple(
            x for x in (*self.c.configured, *self.c.asked_secrets, *self.c.found_secrets) if x
        )
        # (source words, run that fails, shortest run held): an instruction's first two words are
        # held already, they are distinctive; the persona and prompt share common pairs with prose
        self._sources = [
            (_runs(src, least, n - 1), least)
            for src, n, least in (
                (self.c.instructions, 6, 2),
                (self.c.persona_text, 12, 3),
                (self.c.prompt_text, 6, 3),
            )
            if src
        ]

    def feed(self, piece: str) -> str:
        if self.failed:
            return ""
        self.text += piece
        new = len(self.text) - self._checked_len
        if self.pace:
            now = time.perf_counter()
            if now - self._checked_at < self.pace and new < _BATCH:
                return ""
            self._checked_at = now
        self._checked_len = len(self.text)
        start = tail_start(self.text, WINDOW + new)
        failed = stream_check(self.text[start:], self.c)
        self._held_from = None
        if failed:
            cut = max(_last_sentence_end(self.text), _last_words(self.text, 3))
            # the prompt's words in the last few words of the sentence still being written: held,
            # not failed yet (a small model's "... on this computer. The user's" may end there)
            if (
                failed.failed == "prompt_echo"
                and cut > start
                and stream_check(self.text[start:cut], self.c) is None
            ):
                self._held_from = cut  # only the unfinished sentence fails so far
            else:
                self.failed = failed
                return ""
        end = self._safe_end()
        if end <= self.shown:
            return ""
        out, self.shown = self.text[self.shown : end], end
        return out

    def finish(
        self, *, guard_parts: tuple[str, ...] = (), other_part: str = ""
    ) -> tuple[str, Verdict]:
        """The text still held and the whole answer's verdict (``check``); the held text is
        "" when the verdict is FALLBACK."""
        brief = self.brief
        if guard_parts or other_part:
            brief = dataclasses.replace(
                brief,
                guard_parts=guard_parts or brief.guard_parts,
                other_part=other_part or brief.other_part,
            )
        v = self.failed or check(self.text, brief)
        self.verdict = v
        if v.verdict == "FALLBACK":
            return "", v
        final = self.answer
        rest, self.shown = final[self.shown :], len(final)
        return rest, v

    @property
    def answer(self) -> str:
        """The answer as it stands: the whole text, or the text without an unfinished end the
        gate cut off."""
        v = self.verdict
        return v.text if v is not None and v.text is not None else self.text

    @property
    def released(self) -> str:
        return self.text[: self.shown]

    def _safe_end(self) -> int:
        text = self.text
        end = len(text)
        # every look below is at the end of the text, never all of it
        base = tail_start(text, _TAIL)
        m = _PARTIAL.search(text, base)  # a word still being written
        if m:
            end = m.start()
        if len(text) <= len(self.c.question) + 8 and text_mod.echo_prefix(text, self.c.question):
            return 0
        label = leaks.label_at(text, self.shown)  # a prompt label: held until the end
        if label is not None:
            end = min(end, label)
        # "Maria (Guest): "
        speaker = leaks.SCAFFOLD.labelled("speaker")[0].regex.search(text, self.shown)
        if speaker:
            end = min(end, speaker.start())
        if self._held_from is not None:
            end = min(end, self._held_from)
        floor = max(self.shown, len(text) - self.hold)
        danger = _danger_start(text)
        if danger is not None and danger >= floor:
            end = min(end, danger)
        for m in _CHAR_TRIGGERS.finditer(text, floor):
            if _could_be_key(text[m.start() :]):
                end = min(end, m.start())
                break
        # a line that could still become a prompt label
        line = max(text.rfind("\n", base), base - 1) + 1
        head = re.sub(r"^\s*-?\s*", "", text[line:]).lower()
        if head and any(lab.startswith(head) or head.startswith(lab) for lab in _label_texts()):
            end = min(end, line)
        for v in self._values:  # the text so far ends with the start of a secret
            for k in range(min(len(v), len(text)), 0, -1):
                if text.endswith(v[:k]):
                    end = min(end, len(text) - k)
                    break
        end = min(end, self._run_start(text))
        return max(end, self.shown)

    def _run_start(self, text: str) -> int:
        """Where the longest run of source words ending the text begins (whole words; a word
        still being written is held anyway)."""
        base = tail_start(text, _TAIL)
        spans = [
            (base + m.start(), m.group(0).lower().replace("'", ""))
            for m in re.finditer(r"[A-Za-z0-9']+", text[base:])
        ]
        if spans and re.search(r"[A-Za-z0-9']$", text):
            spans.pop()
        best = len(text)
        for runs, least in self._sources:
            for k in range(min(least + len(runs) - 1, len(spans)), least - 1, -1):
                if tuple(w for _, w in spans[-k:]) in runs[k - least]:
                    best = min(best, spans[-k][0])
                    break
        return best


@functools.lru_cache(maxsize=32)
def _runs(source: str, least: int, most: int) -> tuple[frozenset[tuple[str, ...]], ...]:
    """Every run of ``least`` to ``most`` words of a source, by length: the stream asks on every
    token whether the text ends with one, and scanning the source's words each time cost about
    as much as the rest of a short turn's overhead. Sources (persona, prompt) rarely change."""
    w = text_mod.words(source)
    return tuple(
        frozenset(tuple(w[i : i + k]) for i in range(len(w) - k + 1))
        for k in range(least, most + 1)
    )


_ENDS = lazy(r"[.!?]\s+|\n")


_WORD_STARTS = lazy(r"(?<!\S)\S")


def _last_words(text: str, n: int) -> int:
    """Where the last n words of the text begin."""
    starts = [m.start() for m in _WORD_STARTS.finditer(text, tail_start(text, _TAIL))]
    return starts[-n] if len(starts) >= n else 0


def _last_sentence_end(text: str) -> int:
    """Where the last finished sentence ends (0: none has)."""
    end = 0
    for m in _ENDS.finditer(text, tail_start(text, _TAIL)):
        end = m.end()
    return end
