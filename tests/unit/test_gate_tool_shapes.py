"""The gate reads every tool's result by the keys the tool really writes.

Issue 16: the check "says dry while it rains" read a ``weather`` key while the weather tool
writes ``summary``, so it never fired on real output, and the gate's own test data used the
key the check read. Here every real tool runs (the weather and the web against the loopback
fake, the memory tools against a real user database, a real file, this machine's report, the
clock) and:

* every path the gate reads of it (``gate.readings.READS``) finds a value in its output;
* the canned results of the gate's labelled cases (tests/data/gate_tools.json) have the same
  keys, at every level, as the real output: test data cannot drift from the tools either;
* the gate's checks fire on real output ("dry" in the rain, a size the report does not give).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tatlock.config import load
from tatlock.pipeline import gate
from tatlock.pipeline.gate import readings
from tatlock.store.user import Author, UserStore
from tatlock.tools import clock, files, memory, system, weather, web
from tatlock.tools.base import ToolContext

NOW = dt.datetime(2026, 11, 21, 15, 0, tzinfo=ZoneInfo("Europe/London"))
DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def real_results(weather_env, monkeypatch, tmp_path) -> dict[str, Any]:
    """One real result of every tool the gate reads."""
    monkeypatch.setenv("TATLOCK_WEB_SEARCH_URL", weather_env.url + "/search")
    store = UserStore.open(load().paths, "alice")
    conv = store.create_conversation("cli", "cli")
    said = store.add_message(
        conv.id,
        "user",
        "My mum's birthday is on the 9th of December.",
        Author("alice", "Alice", is_anchor=True),
    )
    store.add_topics(conv.id, ["birthday"], message_id=said.message_id)
    store.set_var("location", "Leeds", author_id="alice")
    notes = tmp_path / "notes.txt"
    notes.write_text("milk\neggs\n", encoding="utf-8")
    monkeypatch.setenv("TATLOCK_ALLOWED_PATHS", str(tmp_path))
    ctx = ToolContext("alice", store, config=load(), now=lambda: NOW, http_timeout=3.0)
    try:
        yield {
            "get_weather_forecast": weather.get_weather_forecast(
                ctx=ctx, location="London", days=2
            ),
            "get_system_info": system.get_system_info(ctx=ctx),
            "get_current_datetime": clock.get_current_datetime(ctx=ctx),
            "recall_memories": memory.recall_memories(ctx=ctx, keyword="birthday"),
            "recall_memories_with_time": memory.recall_memories_with_time(
                ctx=ctx, start="this year"
            ),
            "recall_topic": memory.recall_topic(ctx=ctx, topic="birthday"),
            "get_personal_variable": memory.get_personal_variable(ctx=ctx, key="location"),
            "set_personal_variable": memory.set_personal_variable(
                ctx=ctx, key="sister", value="Harriet"
            ),
            "web_search": web.web_search(ctx=ctx, query="tatlock"),
            "analyze_file": files.analyze_file(ctx=ctx, path=str(notes)),
        }
    finally:
        store.close()


def test_every_path_the_gate_reads_is_in_the_tools_real_output(real_results):
    empty = []
    for tool, reads in readings.READS.items():
        result = real_results[tool]
        assert "error" not in result, (tool, result)
        for what, paths in reads.items():
            found = [p for p in paths if readings.at(result, p)]
            # every path of a kind is there, but "texts" of a file (content or an image's description)
            if len(found) < (1 if tool == "analyze_file" else len(paths)):
                empty.append((tool, what, [p for p in paths if p not in found]))
    assert empty == [], "the gate reads keys the tools do not write"


def _shape(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _shape(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_shape(obj[0])] if obj else []
    return type(obj).__name__ if obj is not None else None


def _missing(canned: Any, real: Any, where: str = "") -> list[str]:
    """Keys of the canned result that the real one does not have, at every level."""
    if isinstance(canned, dict):
        if not isinstance(real, dict):
            return [where or "(top)"]
        out = []
        for k, v in canned.items():
            if k not in real and k != "error":
                out.append(f"{where}.{k}")
            elif k in real:
                out += _missing(v, real[k], f"{where}.{k}")
        return out
    if isinstance(canned, list) and canned and isinstance(real, list) and real:
        return _missing(canned[0], real[0], where + "[]")
    return []


def test_the_gates_canned_tool_results_have_the_real_tools_keys(real_results):
    canned = json.loads((DATA / "gate_tools.json").read_text(encoding="utf-8"))
    drift = {
        name: _missing(c["result"], real_results[c["tool"]])
        for name, c in canned.items()
        if c["tool"] in real_results and "error" not in c["result"]
    }
    assert {k: v for k, v in drift.items() if v} == {}


def test_dry_in_the_rain_fires_on_the_weather_tools_real_output(weather_env, monkeypatch):
    from support import fake_web

    plain = fake_web.forecast

    def rainy(days: int) -> dict:
        out = plain(days)
        out["current"]["weather_code"] = 63  # moderate rain, now
        return out

    monkeypatch.setattr(fake_web, "forecast", rainy)
    result = weather.get_weather_forecast(
        ctx=ToolContext("alice", http_timeout=3.0), location="London"
    )
    assert result["current"]["summary"] == "moderate rain"
    brief = gate.Brief(
        "Is it raining in London?",
        findings=[gate.Finding.of("get_weather_forecast", {"location": "London"}, result)],
    )
    v = gate.check("Not at all, sir: it's dry in London today, 9 degrees.", brief)
    # today's row ("slight rain") or the current conditions ("moderate rain"), both wet
    assert (v.verdict, v.failed) == ("FALLBACK", "contradicts_findings") and "rain'" in v.checks[0]
    assert (
        gate.check("Yes, sir: moderate rain in London, about 9 degrees.", brief).verdict
        == "APPROVED"
    )


def test_a_size_the_real_system_report_does_not_give_is_withdrawn():
    result = system.get_system_info(ctx=ToolContext("alice"))
    total = result["memory"]["total_gib"]
    brief = gate.Brief(
        "How much memory does this machine have?",
        findings=[gate.Finding.of("get_system_info", {}, result)],
    )
    assert gate.check(f"{total} GiB of memory, sir.", brief).verdict == "APPROVED"
    largest = max(result["memory"]["total_gib"], result["disk"]["total_gib"])
    v = gate.check(f"{round(largest * 3 + 50)} GB of memory, sir.", brief)
    assert (v.verdict, v.failed) == ("FALLBACK", "contradicts_findings")
