"""Token estimates without a tokenizer, calibrated by the server's own counts.

Ollama has no tokenizer endpoint, so prompts are estimated from characters
(about 4 per token for English) and the ratio is corrected, per model, from each
reply's ``prompt_eval_count`` (when the server reports one: a prompt-cache hit omits it).
The calibration is kept in ``token_calibration.json`` beside system.db.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

DEFAULT_CHARS_PER_TOKEN = 4.0
PER_MESSAGE_OVERHEAD = 4  # role markers and separators per chat message


class Estimator:
    _lock = threading.Lock()

    def __init__(self, model: str = "", path: Path | None = None):
        self.model = model
        self.path = path
        self.chars_per_token = DEFAULT_CHARS_PER_TOKEN
        self.samples = 0
        if path and path.exists():
            try:
                entry = json.loads(path.read_text()).get(model) or {}
                self.chars_per_token = float(entry.get("chars_per_token", DEFAULT_CHARS_PER_TOKEN))
                self.samples = int(entry.get("samples", 0))
            except (ValueError, OSError, AttributeError):
                pass

    def text(self, text: str) -> int:
        return int(len(text) / self.chars_per_token) + 1

    def messages(self, messages: list[dict]) -> int:
        return sum(self.text(str(m.get("content") or "")) + PER_MESSAGE_OVERHEAD for m in messages)

    def calibrate(self, messages: list[dict], prompt_tokens: int | None) -> None:
        """Move the ratio toward what the server counted (an exponential average)."""
        if not prompt_tokens or prompt_tokens < 16:
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
            data[self.model] = {"chars_per_token": round(self.chars_per_token, 4), "samples": self.samples}
            try:
                from tatlock.files import write_private

                write_private(self.path, json.dumps(data, indent=1))  # 0600, like all of tatlock's files
            except Exception:
                pass  # calibration is an optimisation; never fail a turn over it
