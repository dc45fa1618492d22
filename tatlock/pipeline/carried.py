"""Whether an answer carries the fact it was asked for: a line the user told (one of its own
words the question did not give), the system report's value for the part asked about, the
answer the gate holds (a number said in figures or in words), two of the butler's abilities by
name; else the gate's own reading (``gate.carries``)."""

from __future__ import annotations

import re
from typing import Any

from tatlock.pipeline import gate
from tatlock.pipeline.gate.compute import WORD_NUMBERS
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import lazy
from tatlock.pipeline.told import ASKING, stem, stems

# words of the abilities' phrases that name none of them
_GENERIC = {
    "local",
    "tell",
    "this",
    "earlier",
    "your",
    "things",
    "help",
    "questions",
    "answer",
    "general",
}
# numbers said in words, from the gate's one table (gate/compute.py): units to nineteen, and tens
_NUMBER_WORDS = {
    w: str(n) for w, n in WORD_NUMBERS.items() if 1 <= n < 20 and w not in ("a", "an", "dozen")
}
_TENS = {w: n for w, n in WORD_NUMBERS.items() if 20 <= n < 100 and n % 10 == 0}


def _said_in_words(answer: str) -> set[str]:
    """The whole numbers an answer says in words, to 99: "Forty-two, sir." -> {"42"}."""
    said = words(answer)
    out: set[str] = set()
    i = 0
    while i < len(said):
        w = said[i]
        unit = said[i + 1] if i + 1 < len(said) else ""
        if w in _TENS and unit in _NUMBER_WORDS and int(_NUMBER_WORDS[unit]) < 10:
            out.add(str(_TENS[w] + int(_NUMBER_WORDS[unit])))  # "forty two": 42, not 40 and 2
            i += 2
            continue
        if w in _TENS:
            out.add(str(_TENS[w]))
        elif w in _NUMBER_WORDS:
            out.add(_NUMBER_WORDS[w])
        i += 1
    return out


# the report's values a question about each part of the machine is answered by
_SYSTEM_VALUES = {
    "system.cores": (("cpu", "count"), ("cpu", "physical_cores")),
    "system.memory": (("memory", "total_gib"), ("memory", "available_gib")),
    "system.disk": (("disk", "free_gib"), ("disk", "total_gib")),
    "system": (
        ("cpu", "count"),
        ("memory", "total_gib"),
        ("memory", "available_gib"),
        ("disk", "free_gib"),
    ),
}


_HELD_KEY = lazy(r"(\S+?),?\s*\$sir\.?\s*$")


def says_held(answer: str, held: str) -> bool:
    """Whether an answer says the answer the gate holds ("The capital of Australia is Canberra,
    $sir." -> "Canberra"; "8, $sir." -> "8" or "eight")."""
    m = _HELD_KEY.search(held)
    key = (m.group(1) if m else held).strip(".,").lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", key):
        return _says_number(answer, key)
    return key in set(words(answer))


def _says_number(answer: str, value: Any) -> bool:
    said = set(re.findall(r"\d+(?:\.\d+)?", answer)) | _said_in_words(answer)
    try:
        x = float(value)
    except (TypeError, ValueError):
        return False
    return any(abs(float(s) - x) <= max(0.06, abs(x) * 0.03) or s == str(round(x)) for s in said)


def carries(answer: str, question: str, kind: str, k: gate.Known) -> bool:
    """Whether the answer carries the fact: for a line told, one of its own words that the
    question did not give (a name or a number first: "Harriet", not "coming"); for the system
    report, a value of the part asked about; else the gate's reading (``gate.carries``)."""
    if k.kind == "told":
        given = stems(question)
        line = str(k.value)
        own = {  # a number of any length is the fact ("spot 47"), a short word is not
            w
            for w in words(line)
            if (len(w) >= 3 or w.isdigit()) and w not in ASKING and stem(w) not in given
        }
        key = {
            w.lower() for w in re.findall(r"(?<!^)(?<![.!?]\s)\b(?:[A-Z][a-z]+|\d+)", line)
        } & own
        calendar = set(WEEKDAYS) | set(MONTHS)
        if re.search(r"\b(?:called|name|named|who)\b", question, re.I):
            key -= calendar  # asked for a name: "Cuthbert", not "Sunday"
        elif re.search(r"\b(?:when|whens|when's|what\s+day|date)\b", question, re.I):
            key = {w for w in key if w in calendar or w.isdigit()} or key
        # with no name or number, its longer words ("portuguese", not "going")
        long = {w for w in own if len(w) >= 6}
        return bool((key or long or own) & set(words(answer)))
    if k.kind == "capabilities":
        # two of the things it can do named by their own words ("local" in "your local business" is
        # none)
        said = {stem(w) for w in words(answer)}
        named = [
            p
            for p in k.value
            if {stem(w) for w in words(p) if len(w) >= 4 and w not in _GENERIC} & said
        ]
        return len(named) >= min(2, len(k.value))
    if k.kind == "system" and isinstance(k.value, dict):
        if kind == "system.os":
            system = str((k.value.get("os") or {}).get("system") or "")
            return bool(system) and system.lower() in answer.lower()
        values = [
            (k.value.get(a) or {}).get(b)
            for a, b in _SYSTEM_VALUES.get(kind, _SYSTEM_VALUES["system"])
        ]
        return any(_says_number(answer, v) for v in values if v is not None)
    return gate.carries(answer, k)
