"""Words that many rules share, written once.

A rule's pattern names a word list as ``{weekday}``, ``{month}``, ``{vendor}`` or ``{you}``
(see ``rulebook.Rule``); the list is spelt here, so a new weekday spelling or a new model
vendor is one edit, not seventeen. Each entry is an alternation without a group; the rule
puts the group around it (``\\b(?:{weekday})\\b``).
"""

from __future__ import annotations

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)

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
    "model_name": r"chat\s*gpt|gpt-?\d(?:\.\d)?(?:o|-?mini|-?turbo)?|"
    r"llama(?:\s*\d(?:\.\d)?)?(?!\s+(?:farm|wool|herd|trek|ranch|s\b))|gemma|"
    r"mistral(?!\s+wind)|mixtral|qwen|claude(?!\s+monet|\s+debussy)|phi(?:-?\d(?:\.\d)?)?|smollm2?|"
    r"deepseek|gemini|bard|copilot|falcon|vicuna|openchat|tinyllama",
    "model_maker": r"openai|open\s+ai|meta(?:\s+ai)?|google(?:\s+deepmind)?|anthropic|alibaba(?:\s+cloud)?|"
    r"mistral\s+ai|microsoft|hugging\s*face|deepseek|the\s+qwen\s+team",
    # hedges: "just an AI", "only a program"
    "merely": r"just|only|merely|simply",
    # time words: a day's parts and the numbers of a clock in words
    "hour_word": r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve",
}
# when a message is about now or soon (a forecast, a score, a machine's state), not a climate or a
# history: spelt with the weekdays above
WORDS["now"] = (
    r"today|tonight|tomorrow|tmrw|tmr|this\s+arvo|just\s+now|now|rn|right\s+now|currently|"
    r"at\s+the\s+moment|this\s+(?:morning|afternoon|evening|week|weekend)|later|outside|out\s+there|"
    rf"on\s+(?:{WORDS['weekday']})|(?:next|this)\s+(?:{WORDS['weekday']}|week)|over\s+the\s+weekend|"
    rf"this\s+(?:{WORDS['weekday']})"
)
# the words of weather (a forecast's, not a climate's: "pour" not as in pouring a drink)
WORDS["wx"] = (
    r"rain|raining|rainy|showers?|drizzle|snow|snowing|sleet|hail|sunny|sunshine|cloudy|overcast|foggy|fog|"
    r"misty|pour(?:ing)?\s+down|bucket(?:ing)?\s+down|tip(?:ping)?\s+(?:it\s+)?down|chuck(?:ing)?\s+it\s+down|"
    r"pelt(?:ing)?\s+down|lash(?:ing)?\s+down|windy|wind|gales?|storms?|stormy|thunder(?:storms?)?|frost|frosty|"
    r"icy|freeze|freezing|cold|chilly|warm|hot|mild|humid|dry|wet|nippy|parky|sweltering|scorching|"
    r"pour(?!\s+(?:the|a|some|it|me|you|us|them|out|over|in\s+(?:the|a|some))\b)"
)


def expand(pattern: str) -> str:
    """``pattern`` with every ``{name}`` of WORDS spelt out; other braces (``{1,3}``) are kept."""
    out = pattern
    for name, words in WORDS.items():
        out = out.replace("{" + name + "}", words)
    return out
