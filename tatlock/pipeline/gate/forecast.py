"""A forecast read against what an answer says of it, day by day: rain said for a dry day or
fair weather for a wet one ("Clear skies all day" in heavy rain), rain said not to come left
alone ("next to no chance of rain"), a temperature, rainfall, chance of rain or wind the day's
row does not give, another day's forecast given for the day asked about ("mainly clear on
Thursday" to a question about Saturday), and a forecast over several days read line by line.
"""

from __future__ import annotations

import datetime as dt
import re

from tatlock.pipeline.gate import readings
from tatlock.pipeline.gate.brief import Finding
from tatlock.pipeline.lexicon import WEEKDAYS
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

FORECAST = Rulebook(
    "gate.forecast",
    [
        Rule(
            "forecast.wet",
            "wet",
            r"\b(?:rain|drizzle|showers?|snow\w*|sleet|thunderstorm)\b",
            ("slight rain", "light drizzle", "moderate snowfall"),
            ("overcast", "clear sky"),
        ),
        Rule(
            "forecast.says_dry",
            "says_dry",
            r"\b(?:dry|not\s+(?:raining|rainy|wet|snowing)|no\s+(?:rain|snow))\b",
            ("It is dry, sir.", "no rain today"),
            ("it's drizzly",),
        ),
        # rain said not to come ("next to no chance of rain"): no rain said, whatever its words
        Rule(
            "forecast.no_rain",
            "no_rain",
            r"\b(?:(?:next\s+to|almost|virtually|practically)\s+no|no|little|hardly\s+any|barely\s+any|scarcely\s+any|"
            r"not\s+much|not\s+a\s+drop\s+of|(?:a\s+)?(?:small|slim|low|slight|tiny|remote|negligible)|zero)\s+"
            r"(?:(?:chance|risk|sign|threat|hint|prospect|likelihood|danger)\s+of\s+(?:any\s+)?)?(?:rain|showers?|drizzle|"
            r"snow|precipitation)\b|\b(?:without|free\s+of|rather\s+than|instead\s+of)\s+(?:any\s+)?(?:rain|showers?|snow)\b",
            (
                "up to 23°C with next to no chance of rain",
                "little rain",
                "a low chance of showers",
                "no risk of snow",
                "down to -3 °C overnight: frost rather than snow",
            ),
            ("a good chance of rain", "heavy rain", "no sun but plenty of rain"),
        ),
        # a chance of rain given as a figure: the figure is checked against the forecast's, the
        # words
        # are no claim
        Rule(
            "forecast.rain_chance",
            "rain_chance",
            r"\b\d+(?:\.\d+)?\s*(?:%|per\s*cent)\s+(?:chance|risk|probability|likelihood)\s+of\s+(?:any\s+)?"
            r"(?:rain|showers?|drizzle|snow)\b",
            ("with only a 20% chance of rain", "25% chance of rain"),
            ("a good chance of rain", "20% of the rain"),
        ),
        Rule(
            "forecast.says_wet",
            "says_wet",
            r"\b(?:rain\w*|drizzl\w*|showers?|snow\w*|sleet|wet)\b",
            ("light rain", "showers later"),
            ("a dry day",),
        ),
        # fair weather said for a whole day ("Clear skies all day"): dry in all but the word
        Rule(
            "forecast.says_fair",
            "says_fair",
            r"\b(?:clear\s+skies?|(?:mainly|mostly|largely)\s+clear|clear\s+(?:all\s+day|day|night)|sunny|sunshine|"
            r"fine\s+(?:day|weather)|(?:a\s+)?(?:lovely|glorious|beautiful|perfect)\s+day|bright\s+and\s+(?:dry|sunny)|"
            r"(?:perfect|ideal)\s+for\s+(?:a\s+)?(?:stroll|walk|picnic|the\s+garden|a\s+barbecue))\b",
            (
                "Clear skies all day in Manchester, sir.",
                "Mainly clear on Thursday",
                "Sunny and 20 degrees",
            ),
            ("It should clear up by noon", "rain clearing later"),
        ),
        # the day a forecast is said for
        Rule(
            "forecast.day",
            "day",
            r"\b(today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|{weekday})\b",
            ("heavy rain in Bristol on Saturday", "cold tomorrow"),
            ("a sunny spell",),
        ),
        # heat or cold said in words, held to the day's temperatures
        Rule(
            "forecast.says_hot",
            "says_hot",
            r"\b(?:hot|scorching|sweltering|boiling|baking|heatwave|roasting|tropical)\b",
            ("The weather in London today is too hot", "a scorching afternoon"),
            ("a warm day", "mild and grey"),
        ),
        Rule(
            "forecast.says_cold",
            "says_cold",
            r"\b(?:freezing|bitter(?:ly)?\s+cold|icy|frosty|arctic)\b",
            ("a freezing day", "bitterly cold"),
            ("cold enough for a coat",),
        ),
        # no wind said, held to the day's wind
        Rule(
            "forecast.says_calm",
            "says_calm",
            r"\b(?:perfectly\s+still|dead\s+calm|windless|no\s+wind|not\s+a\s+breath|not\s+a\s+breeze|"
            r"(?:a\s+)?calm\s+(?:day|morning|afternoon|evening|night))\b",
            ("Perfectly still, sir, not a breath of wind.", "a calm day in Leeds"),
            ("Still raining, sir.", "calm seas ahead", "keep calm"),
        ),
        Rule(
            "forecast.unit_figure",
            "figure",
            r"(?<![\d.])(-?\d+(?:\.\d+)?)\s*(°|º|degrees|mm|millimet(?:re|er)s?|km/h|kph|kilomet(?:re|er)s\s+an\s+hour|mph|"
            r"miles\s+an\s+hour|%|per\s*cent)",
            ("about 17 millimetres", "gusts to 48 km/h", "highs near 11 degrees", "a 60% chance"),
            ("11 o'clock",),
        ),
    ],
)


def _rule(label: str) -> Rule:
    return FORECAST.labelled(label)[0]


def wet(summary: str) -> bool:
    """A forecast's words that mean rain or snow ("slight rain", "moderate snowfall")."""
    return bool(_rule("wet").search(summary))


def says_dry(answer: str) -> bool:
    """The answer says dry, and no rain beside it."""
    return bool(_rule("says_dry").search(answer)) and not _rule("says_wet").search(
        _rule("says_dry").regex.sub(" ", answer)
    )


def _days_of(text: str, today: dt.date) -> set[dt.date]:
    """The days a text speaks of (today, tomorrow, a weekday in the week ahead)."""
    out = set()
    for m in _rule("day").regex.finditer(text):
        d = m.group(1).lower()
        if d == "tonight" or d.startswith("this") or d == "today":
            out.add(today)
        elif d == "tomorrow":
            out.add(today + dt.timedelta(days=1))
        else:
            out.add(today + dt.timedelta(days=(WEEKDAYS.index(d) - today.weekday()) % 7))
    return out


def _day_of(text: str, today: dt.date) -> dt.date | None:
    """The one day a text speaks of, or None."""
    days = _days_of(text, today)
    return days.pop() if len(days) == 1 else None


_PIECES = lazy(r"(?<=[.!?;])\s+|\n+")


def _wet_said(text: str) -> bool:
    """Rain said to come ("light rain", "showers later"), not rain said not to ("next to no
    chance of rain")."""
    text = _rule("rain_chance").regex.sub(" ", _rule("no_rain").regex.sub(" ", text))
    return bool(_rule("says_wet").search(text))


def _dry_said(text: str) -> bool:
    return bool(
        _rule("says_dry").search(text)
        or _rule("no_rain").search(text)
        or _rule("says_fair").search(text)
    )


def _entry_clash(
    text: str, entry: dict, current: dict, name: str, hedged: bool, figures: bool = True
) -> str | None:
    """One day's forecast against what a text says of it: rain or dryness, temperatures,
    rainfall, chance of rain and wind (``figures``: a text of one day; a figure said of several
    days at once belongs to one of them, so only the conditions are held to each)."""
    wet_day = (
        bool(_rule("wet").search(str(entry.get("summary", ""))))
        or (entry.get("precipitation_mm") or 0) >= 1
    )
    top, bottom = entry.get("max_c"), entry.get("min_c")
    hot = _rule("says_hot").search(text)
    if (
        hot
        and isinstance(top, (int, float))
        and top < 18
        and not re.search(
            r"\b(?:not|nor|hardly|far\s+from)\b[^.!?]{0,15}" + re.escape(hot.group(0)), text, re.I
        )
        and not re.search(
            r"\bhot\s+(?:drink|tea|coffee|water|chocolate|soup|bath|meal|food)", text, re.I
        )
    ):
        return f"the reply calls {name} {hot.group(0)}, but the forecast gives at most {top:g} °C"
    cold = _rule("says_cold").search(text)
    if cold and isinstance(bottom, (int, float)) and bottom > 8:
        return (
            f"the reply calls {name} {cold.group(0)}, but the forecast gives at least {bottom:g} °C"
        )
    calm = _rule("says_calm").search(text)
    winds = [
        w
        for w in (entry.get("wind_max_kmh"), current.get("wind_kmh"))
        if isinstance(w, (int, float))
    ]
    if calm and winds and max(winds) >= 15:  # a gentle breeze or more (Beaufort 3)
        return (
            f"the reply calls {name} {calm.group(0)!r}, but the forecast gives {max(winds):g} km/h"
        )
    if not wet_day and _wet_said(text) and not _rule("says_dry").search(text) and not hedged:
        return f"the reply gives rain for {name}, but the forecast says {entry.get('summary')!r}"
    if wet_day and _dry_said(text) and not _wet_said(_rule("says_dry").regex.sub(" ", text)):
        return f"the reply says {name} is dry, but the forecast says {entry.get('summary')!r}"
    for m in _rule("figure").regex.finditer(text) if figures else ():
        said, unit = float(m.group(1)), m.group(2).lower()
        if unit in ("°", "º") or unit.startswith("degree"):
            # "35°F", "35 degrees Fahrenheit" (asked for in Fahrenheit): compared in Celsius
            if re.match(r"\s*(?:F\b|fahrenheit\b)", text[m.end() : m.end() + 12], re.I):
                said = (said - 32) * 5 / 9
            given, close = (
                [entry.get("max_c"), entry.get("min_c"), current.get("temperature_c")],
                1.0,
            )
        elif unit.startswith(("mm", "milli")):
            given, close = [entry.get("precipitation_mm")], max(1.0, said * 0.2)
        elif unit in ("%",) or unit.startswith("per"):
            given, close = [entry.get("precipitation_probability")], 5.0
        else:
            said = said * 1.609 if unit.startswith(("mph", "miles")) else said
            given, close = (
                [entry.get("wind_max_kmh"), current.get("wind_kmh")],
                max(3.0, said * 0.15),
            )
        values = [float(x) for x in given if isinstance(x, (int, float))]
        if values and not any(abs(said - x) <= close for x in values):
            return f"{m.group(0)!r} is not the forecast for {name}"
    return None


def day_clash(answer: str, question: str, f: Finding, *, hedged: bool = False) -> str | None:
    """Another day's forecast, or none of it, given for the day asked about: "heavy rain on
    Saturday" when Saturday is dry, "26 km/h" when tomorrow blows 62, "mainly clear on Thursday"
    to a question about Saturday; a forecast over several days read day by day."""
    data = f.data if isinstance(f.data, dict) else {}
    daily = [d for d in data.get("daily") or [] if isinstance(d, dict) and d.get("date")]
    now = [str(t) for t in readings.read(f, "now_time")]
    try:
        today = dt.date.fromisoformat((now[0] if now else daily[0]["date"])[:10])
    except (ValueError, IndexError):
        return None
    rows = {d["date"]: d for d in daily}
    now_data = data.get("current")

    def name_of(day: dt.date) -> str:
        return "today" if day == today else day.strftime("%A")

    def clash(text: str, day: dt.date | None) -> str | None:
        entry = rows.get(day.isoformat()) if day else None
        if entry is None or day is None:
            return None
        current: dict = now_data if day == today and isinstance(now_data, dict) else {}
        return _entry_clash(text, entry, current, name_of(day), hedged)

    named = _days_of(answer, today)
    asked = _day_of(question, today)
    if asked and named and asked not in named and asked.isoformat() in rows:
        return (
            f"the reply speaks of {name_of(min(named))}, but the question asks about "
            f"{name_of(asked)}"
        )
    if not named and not asked:
        # no day named on either side: what is said of now is held to today's conditions (its
        # figures may speak of any day)
        entry = rows.get(today.isoformat())
        current = now_data if isinstance(now_data, dict) else {}
        return (
            _entry_clash(answer, entry, current, "today", hedged, figures=False) if entry else None
        )
    if len(named) <= 1:  # the day the answer names, or when it names none, the question's
        return clash(answer, named.copy().pop() if named else asked)
    for piece in _PIECES.split(answer):  # several days: each line or sentence that names one
        days = _days_of(piece, today)
        wrong = clash(piece, days.pop()) if len(days) == 1 else None
        for part in _CLAUSES.split(piece) if len(days) > 1 else ():
            # "dry and bright on both Saturday and Sunday": a clause's conditions held to each day
            # it names
            wrong = wrong or next(
                (
                    w
                    for d in sorted(_days_of(part, today))
                    if (e := rows.get(d.isoformat()))
                    and (w := _entry_clash(part, e, {}, name_of(d), hedged, figures=False))
                ),
                None,
            )
        if wrong:
            return wrong
    return None


_CLAUSES = lazy(r",\s*|;\s*|(?<!\s)\s+(?:then|but|while|whereas|before|after)\s+", re.I)
