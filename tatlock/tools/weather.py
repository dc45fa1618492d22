"""Weather forecasts from Open-Meteo (free, no API key, so nothing to configure).

Two calls: geocode the place name, then fetch current conditions and a daily forecast.
The base URLs can be pointed elsewhere with ``TATLOCK_GEOCODING_URL`` and
``TATLOCK_OPEN_METEO_URL`` (tests use a local fake server; a self-hosted Open-Meteo
works too). Network trouble is reported as an error dict, never raised.
"""

from __future__ import annotations

import os
import re
from typing import Any

from tatlock.tools.base import ToolContext

DEFAULT_GEOCODING = "https://geocoding-api.open-meteo.com"
DEFAULT_FORECAST = "https://api.open-meteo.com"

# WMO weather interpretation codes, as documented by Open-Meteo
WMO_CODES: dict[int, str] = {
    0: "clear sky",
    1: "mainly clear",
    2: "partly cloudy",
    3: "overcast",
    45: "fog",
    48: "depositing rime fog",
    51: "light drizzle",
    53: "moderate drizzle",
    55: "dense drizzle",
    56: "light freezing drizzle",
    57: "dense freezing drizzle",
    61: "slight rain",
    63: "moderate rain",
    65: "heavy rain",
    66: "light freezing rain",
    67: "heavy freezing rain",
    71: "slight snowfall",
    73: "moderate snowfall",
    75: "heavy snowfall",
    77: "snow grains",
    80: "slight rain showers",
    81: "moderate rain showers",
    82: "violent rain showers",
    85: "slight snow showers",
    86: "heavy snow showers",
    95: "thunderstorm",
    96: "thunderstorm with slight hail",
    99: "thunderstorm with heavy hail",
}

_DAILY = (
    "temperature_2m_max,temperature_2m_min,precipitation_sum,"
    "precipitation_probability_max,weathercode,wind_speed_10m_max"
)


def describe_code(code: Any) -> str:
    """WMO code -> words; unknown or missing codes stay honest rather than guessed."""
    try:
        return WMO_CODES.get(int(code), f"weather code {int(code)}")
    except (TypeError, ValueError):
        return "unknown"


def _base(env: str, default: str) -> str:
    return (os.environ.get(env) or default).rstrip("/")


def _fallback_location(ctx: ToolContext) -> str:
    """The user's saved ``location`` personal variable, if any (store may be absent)."""
    if ctx.user_store is None:
        return ""
    try:
        value = ctx.user_store.get_var("location")
    except Exception:  # a store problem should not hide the "which place?" question
        return ""
    return str(value).strip() if value else ""


# a place the question names ("in Paris", "for New York"): small models often call the tool with
# no location at all; capitalised words only, so "in the morning" is not taken for a town
_JOIN = r"(?:\s+(?:de|da|del|di|du|la|le|los|las|upon|sur|am|an)\s+|\s+|,\s*)"  # Rio de Janeiro
_NAMED_PLACE = re.compile(
    r"\b(?:in|at|for|near|around)\s+((?:[A-Z][\w'’.-]*)(?:" + _JOIN + r"[A-Z][\w'’.-]*){0,3})"
)
_NOT_PLACES = {
    "today",
    "tomorrow",
    "tonight",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
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
    "spring",
    "summer",
    "autumn",
    "winter",
    "the",
    "celsius",
    "fahrenheit",
    "i",
    "my",
}


def place_in_question(question: str) -> str:
    """The place a question names, or ''."""
    for m in _NAMED_PLACE.finditer(question):
        words = re.split("(" + _JOIN + ")", m.group(1))
        kept: list[str] = []
        for word in words:
            if word.strip(", ").lower() in _NOT_PLACES:
                break
            kept.append(word)
        place = "".join(kept).strip(" ,.")
        if place:
            return place
    return ""


def _reason(exc: Exception) -> str:
    """A short, user-readable cause for a failed request."""
    import httpx

    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    if isinstance(exc, httpx.HTTPStatusError):
        return f"HTTP {exc.response.status_code}"
    if isinstance(exc, httpx.ConnectError):
        return "no connection"
    if isinstance(exc, (ValueError, KeyError, AttributeError, TypeError)):
        return "unreadable response"
    return type(exc).__name__


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else None


def get_weather_forecast(*, ctx: ToolContext, location: str = "", days: int = 3) -> dict[str, Any]:
    """Current weather and a ``days``-day forecast (1-7) for a place name.

    An empty ``location`` falls back to a place the question names ("in Paris"), then to the
    user's saved ``location`` variable.
    """
    place = (
        (location or "").strip()
        or place_in_question(str(ctx.extra.get("question", "")))
        or _fallback_location(ctx)
    )
    if not place:
        return {
            "error": "Which place? Give a town or city (or save your location as a personal "
            "variable)."
        }
    try:
        days = max(1, min(7, int(days)))
    except (TypeError, ValueError):
        days = 3

    import httpx

    try:
        with httpx.Client(timeout=ctx.http_timeout, follow_redirects=True) as client:
            geo = client.get(
                f"{_base('TATLOCK_GEOCODING_URL', DEFAULT_GEOCODING)}/v1/search",
                params={"name": place, "count": 1, "language": "en", "format": "json"},
            )
            geo.raise_for_status()
            hits = geo.json().get("results") or []
            if not hits:
                return {"error": f"No place called '{place}' was found."}
            hit = hits[0]
            resp = client.get(
                f"{_base('TATLOCK_OPEN_METEO_URL', DEFAULT_FORECAST)}/v1/forecast",
                params={
                    "latitude": hit["latitude"],
                    "longitude": hit["longitude"],
                    "daily": _DAILY,
                    "current": "temperature_2m,weather_code,wind_speed_10m",
                    "timezone": "auto",
                    "forecast_days": days,
                },
            )
            resp.raise_for_status()
            data = resp.json()
    except (
        httpx.HTTPError,
        httpx.InvalidURL,
        ValueError,
        KeyError,
        AttributeError,
        TypeError,
    ) as exc:
        return {"error": f"The weather service could not be reached ({_reason(exc)})."}

    name_parts: list[str] = []
    for part in (hit.get("name"), hit.get("admin1"), hit.get("country")):
        if part and part not in name_parts:
            name_parts.append(str(part))

    cur = data.get("current") or {}
    current = {
        "time": cur.get("time"),
        "temperature_c": cur.get("temperature_2m"),
        "summary": describe_code(cur.get("weather_code", cur.get("weathercode"))),
        "wind_kmh": cur.get("wind_speed_10m"),
    }
    d = data.get("daily") or {}
    codes = d.get("weathercode", d.get("weather_code"))
    daily = [
        {
            "date": date,
            "summary": describe_code(_at(codes, i)),
            "max_c": _at(d.get("temperature_2m_max"), i),
            "min_c": _at(d.get("temperature_2m_min"), i),
            "precipitation_mm": _at(d.get("precipitation_sum"), i),
            "precipitation_probability": _at(d.get("precipitation_probability_max"), i),
            "wind_max_kmh": _at(d.get("wind_speed_10m_max"), i),
        }
        for i, date in enumerate(d.get("time") or [])
    ]
    return {
        "location": ", ".join(name_parts),
        "latitude": hit.get("latitude"),
        "longitude": hit.get("longitude"),
        "timezone": data.get("timezone") or hit.get("timezone"),
        "current": current,
        "daily": daily,
    }
