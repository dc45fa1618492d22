"""What the gate reads of each tool's result, by the keys the tools really write.

Every key the gate reads is named here once (``READS``), as a path into the tool's result
("current.summary", "daily[].max_c"): the weather check that "says dry while it rains" read a
``weather`` key for months while the weather tool wrote ``summary``, and so never fired.
``tests/unit/test_gate_tool_shapes.py`` runs every real tool and fails when one of these paths
finds nothing in its output, so a tool and the gate cannot part ways unnoticed.
"""

from __future__ import annotations

from typing import Any

from tatlock.pipeline.gate.brief import Finding
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.rulebook import lazy

# tool -> what the gate reads -> the paths that hold it
READS: dict[str, dict[str, tuple[str, ...]]] = {
    "get_weather_forecast": {
        "place": ("location",),
        "now": ("current.summary",),
        "days": ("daily[].summary",),
        "temperatures": ("current.temperature_c", "daily[].max_c", "daily[].min_c"),
        "rain_mm": ("daily[].precipitation_mm",),
        "now_time": ("current.time",),
        "wind": ("current.wind_kmh", "daily[].wind_max_kmh"),
    },
    "get_system_info": {
        "numbers": (
            "cpu.count",
            "cpu.physical_cores",
            "cpu.percent",
            "memory.total_gib",
            "memory.available_gib",
            "memory.used_percent",
            "disk.total_gib",
            "disk.free_gib",
            "disk.used_percent",
        ),
        "sizes": ("memory.total_gib", "memory.available_gib", "disk.total_gib", "disk.free_gib"),
        "percents": ("cpu.percent", "memory.used_percent", "disk.used_percent"),
        "os": ("os.system", "os.release", "os.platform"),
    },
    "get_current_datetime": {
        "iso": ("iso",),
        "weekday": ("weekday",),
        "date": ("date",),
        "time": ("time",),
    },
    "recall_memories": {"texts": ("results[].text",), "when": ("results[].when",)},
    "recall_memories_with_time": {"texts": ("results[].text",), "when": ("results[].when",)},
    "recall_topic": {"texts": ("results[].text",)},
    "get_personal_variable": {"value": ("value",)},
    "set_personal_variable": {"value": ("value",), "key": ("key",)},
    "web_search": {"texts": ("results[].title", "results[].snippet")},
    "analyze_file": {"texts": ("content", "description")},
}
# what is taken to ask for a result rather than be one (an answer may repeat it without using the
# result)
ASKED_KEYS = ("query", "keyword", "key", "period", "topic", "path")


def at(data: Any, path: str) -> list[Any]:
    """The values at a path ("daily[].max_c") of a result; [] where there are none."""
    values = [data]
    for part in path.split("."):
        many = part.endswith("[]")
        key = part[:-2] if many else part
        nxt = []
        for v in values:
            if isinstance(v, dict) and key in v:
                got = v[key]
                if many and isinstance(got, list):
                    nxt.extend(got)
                elif not many:
                    nxt.append(got)
        values = nxt
    return [v for v in values if v is not None]


def read(f: Finding, what: str) -> list[Any]:
    """What the gate reads of a finding ("now", "temperatures", ...) by the tool's known paths."""
    return [v for path in READS.get(f.tool, {}).get(what, ()) for v in at(f.data, path)]


def numbers(f: Finding, what: str) -> list[float]:
    out = []
    for v in read(f, what):
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            continue
    return out


def values(obj: Any) -> list[str]:
    """Every value in a tool's JSON result, without its keys (which no answer need repeat)."""
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in values(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in values(v)]
    return [] if obj is None or isinstance(obj, bool) else [str(obj)]


def result_text(f: Finding) -> str:
    """A successful finding's values as text, without what was asked for (the query or keyword,
    which an answer could repeat without using the result)."""
    if f.status == "empty":
        return ""
    if isinstance(f.data, dict):
        return " ".join(values({k: v for k, v in f.data.items() if k not in ASKED_KEYS}))
    return f.text


_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen "
        "sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}
_NUMBER_WORDS.update({"once": "1", "single": "1", "twice": "2", "both": "2", "pair": "2"})
# words a result is made of that say nothing of it
_STOP = set(
    "a an the is are it its of to in on at and or sir yes no well so please here there that this do "
    "does did "
    "what who how why when where which i you your my me with from have been about their "
    "were will would "
    "could should location date time results result count keyword text author current daily".split()
)
_ISO_DATE = lazy(r"\b\d{4}-\d{2}-(\d{2})(?:T\S*)?")  # its day is the part an answer says
_DIGITS = lazy(r"\d+")
_DECIMAL = lazy(r"\d+\.\d+")
_ORDINAL = lazy(r"\d+(?:st|nd|rd|th)")
_CLOCK_TIME = lazy(r"\b(\d{1,2})[:.](\d{2})\b")
_KEY = lazy(r'"([a-z]+)"\s*:')


def uses(answer: str, result: str, question: str = "", keyed: str = "") -> int:
    """How much the answer takes from a tool's result: 2 for a number, two content words or
    all there was to take, 1 for one content word or a small number (perhaps by chance), 0 for
    nothing. A number counts written as a word when it counts what was asked about ("one
    conversation" for "How many conversations...?"; not "one never knows")."""
    said = words(answer)
    asked = {w[:5] for w in words(question) if len(w) >= 4}
    keys = {w[:5] for w in _KEY.findall(keyed)}  # what the result counts ("two messages")
    # a number said as a word: any from three on ("ten in the morning"); one and two only when
    # they count what was asked about
    a = set(said) | {
        _NUMBER_WORDS[w]
        for w, nxt in zip(said, said[1:] + [""], strict=True)
        if w in _NUMBER_WORDS and (int(_NUMBER_WORDS[w]) > 2 or nxt[:5] in asked or nxt[:5] in keys)
    }
    a |= {w[:-2] for w in said if _ORDINAL.fullmatch(w)}  # "the 3rd of May" for "3 May"
    # a date's parts are not numbers the answer could use ("2026-11-17" holds no "11"), but its day
    # is
    numbers = set(_DIGITS.findall(_ISO_DATE.sub(" ", result))) | {
        d.lstrip("0") for d in _ISO_DATE.findall(result)
    }
    # a time of day may be said on the 12-hour clock ("18.00" as "six in the evening")
    numbers |= {str(int(h) - 12) for h, _ in _CLOCK_TIME.findall(result) if 12 < int(h) < 24}
    numbers |= {h.lstrip("0") for h, _ in _CLOCK_TIME.findall(result) if h.lstrip("0")}
    # a decimal said whole or rounded ("about 41%" for 40.6)
    if (numbers - {"0", "1", "2"}) & a or any(
        n.split(".")[0] in a or str(round(float(n))) in a for n in _DECIMAL.findall(result)
    ):
        return 2
    content = {w for w in words(result) if len(w) >= 4 and w not in _STOP and not w.isdigit()}
    # words the question gave are no sign of the result used ("When is Maria's birthday? Let me
    # look"), unless the result holds nothing else (a fact saved: "Saved: location = Leeds")
    content = {w for w in content if w[:5] not in asked} or content
    shared = len(content & a)
    if shared and shared >= min(2, len(content)):
        return 2
    # a small number: the answer when there is nothing else to take
    if numbers & {"0", "1", "2"} & a:
        return max(1, shared) if content else 2
    return shared
