"""Words that many rules share, written once.

A rule's pattern names a word list as ``{weekday}``, ``{month}``, ``{vendor}`` or ``{you}``
(see ``rulebook.Rule``); the list is spelt here, so a new weekday spelling or a new model
vendor is one edit, not seventeen. Each entry is an alternation without a group; the rule
puts the group around it (``\\b(?:{weekday})\\b``).
"""

from __future__ import annotations

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")

WORDS: dict[str, str] = {
    "weekday": "|".join(WEEKDAYS),
    "month": "|".join(MONTHS),
    # model families and vendors a butler must not claim to be (or be built by)
    "vendor": r"chat\s*gpt|gpt-?\d*o?|openai|llama\s*\d*(?:\.\d)?|meta|claude|anthropic|gemini|gemma|google|"
              r"mistral|mixtral|qwen|alibaba|phi|microsoft|copilot|deepseek|smollm\d*|hugging\s*face",
    # "you" as people type it: shell shorthand and dropped letters
    "you": r"you|u|ya|yu",
    "your": r"your|ur|yr|yer",
}


def expand(pattern: str) -> str:
    """``pattern`` with every ``{name}`` of WORDS spelt out; other braces (``{1,3}``) are kept."""
    out = pattern
    for name, words in WORDS.items():
        out = out.replace("{" + name + "}", words)
    return out
