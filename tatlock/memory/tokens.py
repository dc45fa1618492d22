"""Token estimates without a tokenizer, calibrated by the server's own counts.

Ollama has no tokenizer endpoint, so prompts are estimated from characters
(about 4 per token for English) and the ratio is corrected, per model, from each
reply's ``prompt_eval_count`` (when the server reports one: a prompt-cache hit omits it).
The calibration is kept in ``token_calibration.json`` beside system.db.

That average is right for ordinary prose and badly wrong for other text: digits, hashes, CJK
and emoji take one token per character or more (SmolLM2's tokenizer: 4.2 characters a token
for English, 1.0 for digits, 1.2 for base64, 0.37 for CJK). ``bound`` is the count a request
is checked against before it is sent (``tatlock.memory.fit``): it counts each kind of
character by what it costs, and is never below the calibrated average.
"""

from __future__ import annotations

import json
import string
import threading
from pathlib import Path

DEFAULT_CHARS_PER_TOKEN = 4.0
PER_MESSAGE_OVERHEAD = 4  # role markers and separators per chat message
# for ``bound``: a chat template's own tokens per message, and per request (llama-server counted
# 31 around one user message)
BOUND_PER_MESSAGE = 8
BOUND_PER_REQUEST = 40

_LETTERS = str.maketrans("", "", string.ascii_letters)
_VOWELS = str.maketrans("", "", "aeiouyAEIOUY")
_DIGITS = str.maketrans("", "", string.digits)
_SPACE = str.maketrans("", "", " \t\n\r\x0b\x0c")


def bound_tokens(text: str) -> float:
    """A conservative token count of ``text`` by kind of character, for any common tokenizer:
    a digit, a punctuation mark or a run of extra whitespace is a token each, a non-ASCII
    character 0.9 a byte of its UTF-8 (CJK is 0.89 on SmolLM2, 0.33 on Qwen), letters 3 to
    a token in text that reads like words and down to 1.2 in letter soup (base64, hashes: told
    apart by their share of vowels), and never fewer tokens than words."""
    n = len(text)
    if not n:
        return 0.0
    utf8 = len(text.encode("utf-8", "surrogatepass"))
    ascii_n = len(text.encode("ascii", "ignore"))
    letters = n - len(text.translate(_LETTERS))
    digits = n - len(text.translate(_DIGITS))
    space = n - len(text.translate(_SPACE))
    punct = ascii_n - letters - digits - space
    words = len(text.split())
    if letters:
        vowels = (n - len(text.translate(_VOWELS))) / letters
        per_token = min(3.0, max(1.2, 1.2 + (vowels - 0.25) * 18))
        lettered = max(letters / per_token, words)
    else:
        lettered = 0.0
    return lettered + digits + punct + 0.7 * max(0, space - words) + 0.9 * (utf8 - ascii_n)


class Estimator:
    _lock = threading.Lock()

    def __init__(self, model: str = "", path: Path | None = None):
        self.model = model
        self.path = path
        self.chars_per_token = DEFAULT_CHARS_PER_TOKEN
        self.samples = 0
        # raised when a server refused a request that ``bound`` said would fit (see
        # ``undercounted``)
        self.strictness = 1.0
        if path and path.exists():
            try:
                entry = json.loads(path.read_text()).get(model) or {}
                self.chars_per_token = max(
                    1.0, min(8.0, float(entry.get("chars_per_token", DEFAULT_CHARS_PER_TOKEN)))
                )
                self.samples = int(entry.get("samples", 0))
            except (ValueError, OSError, AttributeError):
                pass

    def text(self, text: str) -> int:
        return int(len(text) / self.chars_per_token) + 1

    def messages(self, messages: list[dict]) -> int:
        return sum(self.text(str(m.get("content") or "")) + PER_MESSAGE_OVERHEAD for m in messages)

    def bound(self, text: str) -> int:
        """Tokens ``text`` may take at most, as far as can be told without the tokenizer: the
        larger of the count by kind of character and the calibrated average."""
        if not text:
            return 0
        return int(max(bound_tokens(text), len(text) / self.chars_per_token) * self.strictness) + 1

    def undercounted(self, estimated: int, counted: int) -> None:
        """The server counted ``counted`` tokens in a request ``bound`` put at ``estimated``:
        count more strictly from now on (for this process), with a tenth to spare."""
        if estimated > 0 and counted > estimated:
            self.strictness = min(8.0, self.strictness * counted / estimated * 1.1)

    def bound_messages(self, messages: list[dict], tools: list[dict] | None = None) -> int:
        """``bound`` of a whole request: every message's text and tool calls, the tools offered
        (the chat template writes their schemas into the prompt) and the template's own tokens."""
        total = BOUND_PER_REQUEST
        for m in messages:
            total += BOUND_PER_MESSAGE + self.bound(str(m.get("content") or ""))
            if m.get("tool_calls"):
                total += self.bound(json.dumps(m["tool_calls"], ensure_ascii=False, default=str))
        if tools:
            total += self.bound(json.dumps(tools, ensure_ascii=False, default=str))
        return total

    def prefix(self, text: str, tokens: int) -> int:
        """How many characters of ``text``, from its start, fit in ``tokens`` by ``bound``."""
        if tokens <= 0:
            return 0
        if self.bound(text) <= tokens:
            return len(text)
        lo, hi = 0, min(len(text), int(tokens * max(8.0, self.chars_per_token)))
        # (bound is not quite monotonic in the prefix: what is found fits, if not always the
        # longest)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.bound(text[:mid]) <= tokens:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def calibrate(
        self, messages: list[dict], prompt_tokens: int | None, *, ceiling: int | None = None
    ) -> None:
        """Move the ratio toward what the server counted (an exponential average). A count at
        ``ceiling`` (the context's room for the prompt) is not learnt from: a server that cuts
        a prompt to fit (Ollama does, silently) counts what it kept, not what was sent."""
        if not prompt_tokens or prompt_tokens < 16:
            return
        if ceiling is not None and prompt_tokens >= ceiling:
            return
        chars = sum(len(str(m.get("content") or "")) for m in messages)
        usable = prompt_tokens - PER_MESSAGE_OVERHEAD * len(messages)
        if chars < 64 or usable <= 0:
            return
        observed = max(1.0, min(8.0, chars / usable))
        weight = 0.5 if self.samples < 4 else 0.2
        self.chars_per_token += weight * (observed - self.chars_per_token)
        self.samples += 1
        if self.samples <= 8 or self.samples % 10 == 0:  # settle fast, then persist now and then
            self._save()

    def _save(self) -> None:
        if not self.path:
            return
        with self._lock:
            try:
                data = json.loads(self.path.read_text()) if self.path.exists() else {}
            except (ValueError, OSError):
                data = {}
            data[self.model] = {
                "chars_per_token": round(self.chars_per_token, 4),
                "samples": self.samples,
            }
            try:
                from tatlock.files import write_private

                # 0600, like all of tatlock's files
                write_private(self.path, json.dumps(data, indent=1))
            except Exception:
                pass  # calibration is an optimisation; never fail a turn over it
