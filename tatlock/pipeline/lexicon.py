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
    # the months but May, which is a verb as often ("it may rain")
    "month_not_may": "|".join(m for m in MONTHS if m != "may"),
    "month": "|".join(MONTHS),
    # model families and vendors a butler must not claim to be (or be built by)
    "vendor": r"chat\s*gpt|gpt-?\d*o?|openai|llama\s*\d*(?:\.\d)?|meta|claude|anthropic|gemini|gemma|google|"
              r"mistral|mixtral|qwen|alibaba|phi|microsoft|copilot|deepseek|smollm\d*|hugging\s*face",
    # "you" as people type it: shell shorthand and dropped letters
    "you": r"you|u|ya|yu",
    "your": r"your|ur|yr|yer",
    # the gate's reading of the same: a model's name as a model speaks it, its look-alikes left
    # alone ("a llama farm", "the mistral wind", "Claude Monet")
    "model_name": r"chat\s*gpt|gpt-?\d(?:\.\d)?|llama(?:\s*\d(?:\.\d)?)?(?!\s+(?:farm|wool|herd|trek|ranch|s\b))|gemma|"
                  r"mistral(?!\s+wind)|mixtral|qwen|claude(?!\s+monet|\s+debussy)|phi(?:-?\d(?:\.\d)?)?|smollm2?|"
                  r"deepseek|gemini|bard|copilot|falcon|vicuna|openchat|tinyllama",
    "model_maker": r"openai|open\s+ai|meta(?:\s+ai)?|google(?:\s+deepmind)?|anthropic|alibaba(?:\s+cloud)?|"
                   r"mistral\s+ai|microsoft|hugging\s*face|deepseek|the\s+qwen\s+team",
    # hedges: "just an AI", "only a program"
    "merely": r"just|only|merely|simply",
    # time words: a day's parts and the numbers of a clock in words
    "hour_word": r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve",
}


def expand(pattern: str) -> str:
    """``pattern`` with every ``{name}`` of WORDS spelt out; other braces (``{1,3}``) are kept."""
    out = pattern
    for name, words in WORDS.items():
        out = out.replace("{" + name + "}", words)
    return out
