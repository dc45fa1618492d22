"""Whether the requests a fake server received fit their context window, counted conservatively
and apart from tatlock's own estimate (tatlock.memory.tokens), so a test of the fitting does not
grade itself.

The count is meant to be at or above what a real tokenizer makes of the texts these tests send
(English prose, digits, punctuation, non-ASCII text): SmolLM2's tokenizer, measured through
llama-server's /tokenize, takes 4.2 characters a token in English prose, one token a digit,
1.5 a punctuation mark and 0.9 a byte of CJK. Here letters and spaces count four to a token,
every other ASCII character one, every byte of any other character one, plus 8 tokens a
message and 40 a request for the chat template. (Letter soup such as base64 is denser than
four to a token: tests that send it count it themselves.)
"""

from __future__ import annotations

import json
import string
from typing import Any

_LETTERS_AND_SPACE = set(string.ascii_letters + " \n\t")


def text_tokens(text: str) -> int:
    light = sum(1 for ch in text if ch in _LETTERS_AND_SPACE)
    other_ascii = sum(1 for ch in text if ord(ch) < 128) - light
    other_bytes = len(text.encode("utf-8", "surrogatepass")) - light - other_ascii
    return light // 4 + other_ascii + other_bytes


def prompt_tokens(body: dict[str, Any]) -> int:
    total = 40
    for m in body.get("messages") or ():
        total += 8 + text_tokens(str(m.get("content") or ""))
        if m.get("tool_calls"):
            total += text_tokens(json.dumps(m["tool_calls"]))
    if body.get("tools"):
        total += text_tokens(json.dumps(body["tools"]))
    return total


def allowance(body: dict[str, Any]) -> int:
    """The tokens the request lets its answer take (Ollama's num_predict, OpenAI's max_tokens)."""
    opts = body.get("options") or {}
    return int(opts.get("num_predict") or body.get("max_tokens") or 0)


def overflows(
    requests: list[dict[str, Any]], context: int | None = None
) -> list[tuple[int, int, int]]:
    """(index, prompt tokens, allowance) of every request whose prompt and answer allowance do
    not fit ``context`` (default: each Ollama request's own num_ctx)."""
    bad = []
    for i, body in enumerate(requests):
        window = context or int((body.get("options") or {}).get("num_ctx") or 0)
        assert window, "no context to check against"
        need = prompt_tokens(body) + allowance(body)
        if need > window or not allowance(body):
            bad.append((i, prompt_tokens(body), allowance(body)))
    return bad
