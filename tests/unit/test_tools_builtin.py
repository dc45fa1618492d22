"""Built-in tools: dates, clock, system, weather, web search, files.

No network beyond loopback: weather and web search talk to a stdlib HTTP server on
127.0.0.1 that the ``fake_server`` fixture runs in a thread.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import types
from zoneinfo import ZoneInfo

import pytest

from tatlock.tools.base import ToolContext
from tatlock.tools.clock import get_current_datetime
from tatlock.tools.dates import format_range, parse_range
from tatlock.tools.files import NO_VISION, analyze_file
from tatlock.tools.system import get_system_info
from tatlock.tools.weather import get_weather_forecast, place_in_question
from tatlock.tools.web import NOT_INSTALLED, web_search

AMS = ZoneInfo("Europe/Amsterdam")
NOW = dt.datetime(2026, 11, 21, 15, 0, tzinfo=AMS)  # a Saturday


def D(y: int, m: int, d: int, h: int = 0) -> dt.datetime:
    return dt.datetime(y, m, d, h, tzinfo=AMS)


@pytest.fixture
def ctx() -> ToolContext:
    return ToolContext(username="alice", now=lambda: NOW, http_timeout=3.0)


# --------------------------------------------------------------------------- dates

DATE_CASES = [
    ("today", D(2026, 11, 21), D(2026, 11, 22)),
    ("yesterday", D(2026, 11, 20), D(2026, 11, 21)),
    ("Tomorrow", D(2026, 11, 22), D(2026, 11, 23)),
    ("this morning", D(2026, 11, 21, 5), D(2026, 11, 21, 12)),
    ("this afternoon", D(2026, 11, 21, 12), D(2026, 11, 21, 18)),
    ("this evening", D(2026, 11, 21, 18), D(2026, 11, 22)),
    ("last night", D(2026, 11, 20, 18), D(2026, 11, 21, 5)),
    ("3 days ago", D(2026, 11, 18), D(2026, 11, 19)),
    ("two weeks ago", D(2026, 11, 2), D(2026, 11, 9)),
    ("a month ago", D(2026, 10, 1), D(2026, 11, 1)),
    ("last week", D(2026, 11, 9), D(2026, 11, 16)),
    ("this week", D(2026, 11, 16), D(2026, 11, 23)),
    ("past 3 days", NOW - dt.timedelta(days=3), NOW),
    ("in the last 2 weeks", NOW - dt.timedelta(weeks=2), NOW),
    ("last month", D(2026, 10, 1), D(2026, 11, 1)),
    ("this month", D(2026, 11, 1), D(2026, 12, 1)),
    ("last year", D(2025, 1, 1), D(2026, 1, 1)),
    ("this year", D(2026, 1, 1), D(2027, 1, 1)),
    ("in March", D(2026, 3, 1), D(2026, 4, 1)),
    ("March", D(2026, 3, 1), D(2026, 4, 1)),
    ("in December", D(2025, 12, 1), D(2026, 1, 1)),  # never the future December
    ("March 2024", D(2024, 3, 1), D(2024, 4, 1)),
    ("in 2024", D(2024, 1, 1), D(2025, 1, 1)),
    ("last weekend", D(2026, 11, 14), D(2026, 11, 16)),
    ("on Monday", D(2026, 11, 16), D(2026, 11, 17)),
    ("last Tuesday", D(2026, 11, 17), D(2026, 11, 18)),
    ("last Saturday", D(2026, 11, 14), D(2026, 11, 15)),
    ("since Monday", D(2026, 11, 16), NOW),
    ("since last week", D(2026, 11, 9), NOW),
    ("before March", D(1970, 1, 1), D(2026, 3, 1)),
    ("between March and May", D(2026, 3, 1), D(2026, 6, 1)),
    ("2024-03-05", D(2024, 3, 5), D(2024, 3, 6)),
    ("2024-03-01..2024-03-10", D(2024, 3, 1), D(2024, 3, 11)),
    ("from 2024-03-01 to 2024-03-10", D(2024, 3, 1), D(2024, 3, 11)),
    ("from last Monday to yesterday", D(2026, 11, 16), D(2026, 11, 21)),
    # dateparser fallback: a single point becomes its whole day
    ("3rd of March", D(2026, 3, 3), D(2026, 3, 4)),
    ("Nov 5 2025", D(2025, 11, 5), D(2025, 11, 6)),
]


@pytest.mark.parametrize(("phrase", "start", "end"), DATE_CASES, ids=[c[0] for c in DATE_CASES])
def test_parse_range(phrase: str, start: dt.datetime, end: dt.datetime) -> None:
    got = parse_range(phrase, NOW)
    assert got == (start, end)
    assert got[0].tzinfo is not None and got[1].tzinfo is not None


@pytest.mark.parametrize(
    "phrase", ["", "purple elephant", "a", "5", "2024-13-01", "since tomorrow"]
)
def test_parse_range_nonsense_is_none(phrase: str) -> None:
    assert parse_range(phrase, NOW) is None


def test_parse_range_stays_in_nows_timezone() -> None:
    start, _end = parse_range("yesterday", NOW)
    assert start.utcoffset() == dt.timedelta(hours=1)
    # across the DST change the offset follows the zone, not now's offset
    assert parse_range("in July", NOW)[0].utcoffset() == dt.timedelta(hours=2)


def test_format_range() -> None:
    assert format_range(*parse_range("last week", NOW)) == "2026-11-09 to 2026-11-15"
    assert format_range(*parse_range("yesterday", NOW)) == "2026-11-20"
    assert format_range(D(2026, 11, 14), D(2026, 11, 22)) == "2026-11-14 to 2026-11-21"
    assert format_range(*parse_range("since Monday", NOW)) == "2026-11-16 00:00 to 2026-11-21 15:00"


# --------------------------------------------------------------------------- clock / system


def test_current_datetime(ctx: ToolContext) -> None:
    assert get_current_datetime(ctx=ctx) == {
        "iso": "2026-11-21T15:00:00+01:00",
        "date": "2026-11-21",
        "time": "15:00",
        "weekday": "Saturday",
        "timezone": "Europe/Amsterdam",
        "utc_offset": "+01:00",
    }


def test_current_datetime_fixed_negative_offset() -> None:
    tz = dt.timezone(-dt.timedelta(hours=3, minutes=30))
    c = ToolContext(username="alice", now=lambda: dt.datetime(2026, 1, 5, 9, 7, tzinfo=tz))
    out = get_current_datetime(ctx=c)
    assert out["utc_offset"] == "-03:30" and out["weekday"] == "Monday" and out["time"] == "09:07"


def test_system_info(ctx: ToolContext) -> None:
    info = get_system_info(ctx=ctx)
    assert "error" not in info
    assert info["cpu"]["count"] >= 1 and 0 <= info["cpu"]["percent"] <= 100
    assert {"total_gib", "available_gib", "used_percent"} <= info["memory"].keys()
    assert {"path", "total_gib", "free_gib", "used_percent"} <= info["disk"].keys()
    assert info["os"]["system"] and info["python_version"].count(".") == 2
    json.dumps(info)


# --------------------------------------------------------------------------- weather


def test_weather_forecast(ctx: ToolContext, weather_env) -> None:
    out = get_weather_forecast(ctx=ctx, location="London", days=2)
    assert out["location"] == "London, England, United Kingdom"
    assert out["latitude"] == 51.50853 and out["timezone"] == "Europe/London"
    assert out["current"] == {
        "time": "2026-11-21T14:00",
        "temperature_c": 9.5,
        "summary": "overcast",
        "wind_kmh": 14.2,
    }
    assert out["daily"][0] == {
        "date": "2026-11-21",
        "summary": "slight rain",
        "max_c": 10.1,
        "min_c": 4.0,
        "precipitation_mm": 1.2,
        "precipitation_probability": 60,
        "wind_max_kmh": 20.0,
    }
    assert len(out["daily"]) == 2 and out["daily"][1]["summary"] == "clear sky"
    (geo_path, geo_q), (fc_path, fc_q) = weather_env.requests
    assert geo_path == "/v1/search" and geo_q["count"] == ["1"] and geo_q["language"] == ["en"]
    assert (
        fc_path == "/v1/forecast"
        and fc_q["latitude"] == ["51.50853"]
        and fc_q["timezone"] == ["auto"]
    )
    assert "precipitation_probability_max" in fc_q["daily"][0]
    json.dumps(out)


def test_weather_days_clamped(ctx: ToolContext, weather_env) -> None:
    assert len(get_weather_forecast(ctx=ctx, location="London", days=30)["daily"]) == 7
    assert len(get_weather_forecast(ctx=ctx, location="London", days=0)["daily"]) == 1
    assert [q["forecast_days"] for p, q in weather_env.requests if p == "/v1/forecast"] == [
        ["7"],
        ["1"],
    ]


def test_weather_unknown_place(ctx: ToolContext, weather_env) -> None:
    assert get_weather_forecast(ctx=ctx, location="Xyzzyville") == {
        "error": "No place called 'Xyzzyville' was found."
    }


def test_weather_service_down(ctx: ToolContext, closed_port_url, monkeypatch) -> None:
    monkeypatch.setenv("TATLOCK_GEOCODING_URL", closed_port_url)
    monkeypatch.setenv("TATLOCK_OPEN_METEO_URL", closed_port_url)
    out = get_weather_forecast(ctx=ctx, location="London")
    assert out["error"].startswith("The weather service could not be reached (")


class _Store:
    """Stand-in for UserStore: only get_var matters here."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get_var(self, name: str) -> str | None:
        return self.values.get(name)


def test_weather_location_from_personal_variable(weather_env) -> None:
    c = ToolContext(username="alice", user_store=_Store({"location": "London"}), now=lambda: NOW)
    assert get_weather_forecast(ctx=c, location="")["location"].startswith("London")
    assert weather_env.requests[0][1]["name"] == ["London"]


def test_weather_without_any_location(ctx: ToolContext, weather_env) -> None:
    assert "error" in get_weather_forecast(ctx=ctx, location="")  # no store at all
    c = ToolContext(username="alice", user_store=_Store({}), now=lambda: NOW)
    assert "place" in get_weather_forecast(ctx=c, location="  ")["error"]
    assert weather_env.requests == []


def test_weather_place_named_in_the_question_when_the_model_gives_none(weather_env) -> None:
    """SmolLM2 called the weather tool with no arguments for "Will it rain in London tomorrow?":
    the place the question names wins over the saved location, and 'in the morning' is no town."""
    c = ToolContext(
        username="alice",
        user_store=_Store({"location": "Paris"}),
        now=lambda: NOW,
        extra={"question": "Will it rain in London tomorrow?"},
    )
    assert get_weather_forecast(ctx=c, location="")["location"].startswith("London")
    assert weather_env.requests[0][1]["name"] == ["London"]
    c.extra["question"] = "Will it be cold in the morning?"
    # the saved place is asked for (the fake knows only London)
    assert get_weather_forecast(ctx=c, location="") == {
        "error": "No place called 'Paris' was found."
    }
    assert weather_env.requests[-1][1]["name"] == ["Paris"]


@pytest.mark.parametrize(
    "question, place",
    [
        ("What's the weather in New York City this week?", "New York City"),
        ("What is the forecast for Rio de Janeiro?", "Rio de Janeiro"),
        ("temperature in Celsius in Oslo today", "Oslo"),
        ("weather for San Francisco, CA on Monday", "San Francisco, CA"),
        ("is it sunny at my place", ""),
        ("How warm is it in March in Lisbon?", "Lisbon"),
    ],
)
def test_place_in_question(question: str, place: str) -> None:
    assert place_in_question(question) == place


# --------------------------------------------------------------------------- web search


def test_web_search_via_hook(ctx: ToolContext, fake_server, monkeypatch) -> None:
    monkeypatch.setenv("TATLOCK_WEB_SEARCH_URL", fake_server.url + "/search")
    out = web_search(ctx=ctx, query="tatlock butler", max_results=3)
    assert out["query"] == "tatlock butler"
    assert out["results"][0] == {
        "title": "Result 0",
        "url": "https://example.org/0",
        "snippet": "about tatlock butler",
    }
    assert len(out["results"]) == 3


def test_web_search_hook_down(ctx: ToolContext, closed_port_url, monkeypatch) -> None:
    monkeypatch.setenv("TATLOCK_WEB_SEARCH_URL", closed_port_url + "/search")
    assert web_search(ctx=ctx, query="x")["error"].startswith("The web search failed: ")


def test_web_search_not_installed(ctx: ToolContext, monkeypatch) -> None:
    monkeypatch.delenv("TATLOCK_WEB_SEARCH_URL", raising=False)
    # makes `from ddgs import DDGS` raise ImportError
    monkeypatch.setitem(sys.modules, "ddgs", None)
    assert web_search(ctx=ctx, query="x") == {"error": NOT_INSTALLED}


def _fake_ddgs(monkeypatch, text) -> list:
    calls: list = []

    class DDGS:
        def __init__(self, timeout: int = 5) -> None:
            calls.append(timeout)

        def text(self, query: str, max_results: int = 10):
            return text(query, max_results)

    monkeypatch.delenv("TATLOCK_WEB_SEARCH_URL", raising=False)
    monkeypatch.setitem(sys.modules, "ddgs", types.SimpleNamespace(DDGS=DDGS))
    return calls


def test_web_search_with_ddgs(ctx: ToolContext, monkeypatch) -> None:
    calls = _fake_ddgs(
        monkeypatch, lambda q, n: [{"title": "T", "href": "https://e.org", "body": "B"}] * n
    )
    out = web_search(ctx=ctx, query="q", max_results=2)
    assert out == {
        "query": "q",
        "results": [{"title": "T", "url": "https://e.org", "snippet": "B"}] * 2,
    }
    assert calls == [3]


def test_web_search_ddgs_offline(ctx: ToolContext, monkeypatch) -> None:
    def boom(q, n):
        raise ConnectionError("network is unreachable\nlong traceback text")

    _fake_ddgs(monkeypatch, boom)
    assert web_search(ctx=ctx, query="q") == {
        "error": "The web search failed: network is unreachable"
    }


# --------------------------------------------------------------------------- analyze_file


@pytest.fixture
def here(tmp_path, monkeypatch):
    """analyze_file reads only inside allowed folders; the current folder is one of them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 40


def test_analyze_text_file(ctx: ToolContext, tmp_path, here) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("hello world\nsecond line here\n", encoding="utf-8")
    out = analyze_file(ctx=ctx, path=str(f))
    assert out["path"] == str(f.resolve()) and out["size_bytes"] == f.stat().st_size
    assert out["lines"] == 2 and out["encoding"] == "utf-8" and out["truncated"] is False
    assert out["content"] == "hello world\nsecond line here\n"
    assert out["stats"] == {"words": 5, "lines": 2, "longest_line": 16}


def test_analyze_long_text_is_truncated(ctx: ToolContext, tmp_path, here) -> None:
    f = tmp_path / "long.md"
    f.write_text("é" * 20_000, encoding="utf-8")  # multibyte chars straddle the sniffing block
    out = analyze_file(ctx=ctx, path=str(f))
    assert out["truncated"] is True and len(out["content"]) == 12_000 and out["encoding"] == "utf-8"


def test_analyze_home_expansion(ctx: ToolContext, tmp_path, here, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "a.txt").write_text("x")
    assert analyze_file(ctx=ctx, path="~/a.txt")["content"] == "x"


def test_analyze_refusals(ctx: ToolContext, tmp_path, here) -> None:
    assert "folder" in analyze_file(ctx=ctx, path=str(tmp_path))["error"]
    assert "no file" in analyze_file(ctx=ctx, path=str(tmp_path / "missing.txt"))["error"]
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    assert "binary" in analyze_file(ctx=ctx, path=str(binary))["error"]
    fake_png = tmp_path / "fake.png"  # right suffix, wrong magic
    fake_png.write_bytes(b"\x00\x01\x02" * 100)
    assert "binary" in analyze_file(ctx=ctx, path=str(fake_png))["error"]
    big = tmp_path / "big.log"
    big.write_bytes(b"line of text\n" * 200_000)  # ~2.5 MB
    assert "2 MB" in analyze_file(ctx=ctx, path=str(big))["error"]


def test_analyze_image_with_vision(ctx: ToolContext, tmp_path, here) -> None:
    img = tmp_path / "cat.PNG"
    img.write_bytes(PNG)
    seen: list = []
    ctx.extra["describe_image"] = lambda path, question: (
        seen.append((path, question)) or "A cat on a mat."
    )
    out = analyze_file(ctx=ctx, path=str(img), question="What animal is this?")
    assert out == {"path": str(img.resolve()), "description": "A cat on a mat."}
    assert seen == [(str(img.resolve()), "What animal is this?")]


def test_analyze_image_without_vision(ctx: ToolContext, tmp_path, here) -> None:
    img = tmp_path / "photo.jpg"
    img.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 64)
    assert analyze_file(ctx=ctx, path=str(img)) == {"error": NO_VISION}
