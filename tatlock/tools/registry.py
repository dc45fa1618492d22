"""The built-in tools, as rows for system.db's ``tools`` and ``tool_parameters``.

system.db is the registry users edit (enable/disable); this list is only what a first run
seeds and what an upgrade adds. A tool is resolved by importing ``module`` and taking
``function_name`` from it, so a row always names real code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tatlock.store.records import Param, ToolSpec

__all__ = ["BUILTIN_TOOLS", "BY_KEY", "Param", "ToolSpec", "json_schema", "resolve"]


def json_schema(spec: ToolSpec) -> dict[str, Any]:
    """The tool as Ollama/OpenAI native tool-calling expects it."""
    return {
        "type": "function",
        "function": {
            "name": spec.key,
            "description": spec.description,
            "parameters": {
                "type": "object",
                "properties": {
                    p.name: {"type": p.type, "description": p.description} for p in spec.params
                },
                "required": [p.name for p in spec.params if p.required],
            },
        },
    }


def resolve(spec: ToolSpec) -> Callable[..., dict[str, Any]]:
    """The function a registry row names (imported on first use). Only tatlock's own tool
    modules: a row edited in system.db must not make tatlock import arbitrary code."""
    if not spec.module.startswith("tatlock.tools."):
        raise ImportError(f"tool modules live under tatlock.tools, not {spec.module!r}")
    module = importlib.import_module(spec.module)
    function: Callable[..., dict[str, Any]] = getattr(module, spec.function_name)
    return function


def _p(name: str, typ: str, desc: str, required: bool = False) -> Param:
    return Param(name, typ, desc, required)


BUILTIN_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "recall_memories",
        "Search the user's long-term memory (past conversations and their summaries) for a keyword "
        "or phrase.",
        "tatlock.tools.memory",
        "recall_memories",
        "memory",
        (
            _p("keyword", "string", "Words to look for, e.g. 'birthday' or 'Maria holiday'", True),
            _p("limit", "integer", "Most results to return (default 10)"),
        ),
    ),
    ToolSpec(
        "recall_memories_with_time",
        "Search the user's long-term memory within a time range given in natural language "
        "('yesterday', 'last week', 'in March') or ISO dates, optionally for a keyword.",
        "tatlock.tools.memory",
        "recall_memories_with_time",
        "memory",
        (
            _p(
                "start",
                "string",
                "Start of the range or the whole range, e.g. 'last week' or '2026-03-01'",
                True,
            ),
            _p("end", "string", "End of the range (optional), e.g. 'today' or '2026-03-31'"),
            _p("keyword", "string", "Words to look for within the range (optional)"),
        ),
    ),
    ToolSpec(
        "recall_topic",
        "List what was said about a topic the user discussed before.",
        "tatlock.tools.memory",
        "recall_topic",
        "memory",
        (
            _p("topic", "string", "The topic, e.g. 'gardening'", True),
            _p("limit", "integer", "Most messages to return (default 10)"),
        ),
    ),
    ToolSpec(
        "list_conversations",
        "List the user's recent conversations with their titles, dates and message counts.",
        "tatlock.tools.memory",
        "list_conversations",
        "memory",
        (_p("limit", "integer", "How many conversations (default 10)"),),
    ),
    ToolSpec(
        "conversation_stats",
        "Statistics of the user's memory: conversations, messages, topics, first and last dates.",
        "tatlock.tools.memory",
        "conversation_stats",
        "memory",
    ),
    ToolSpec(
        "get_conversation_summary",
        "The summaries of one past conversation (by id) or of the current one.",
        "tatlock.tools.memory",
        "get_conversation_summary",
        "memory",
        (_p("conversation_id", "integer", "Conversation id (default: the current conversation)"),),
    ),
    ToolSpec(
        "get_personal_variable",
        "Read a remembered personal fact about the user, such as 'location' or 'birthday'; without "
        "a key, "
        "the kept facts that answer the question.",
        "tatlock.tools.memory",
        "get_personal_variable",
        "personal",
        (_p("key", "string", "The name of the fact, e.g. 'location' (optional)", False),),
    ),
    ToolSpec(
        "set_personal_variable",
        "Remember a personal fact about the user, such as their location or a preference.",
        "tatlock.tools.memory",
        "set_personal_variable",
        "personal",
        (
            _p("key", "string", "The name of the fact, e.g. 'location'", True),
            _p("value", "string", "Its value, e.g. 'Rotterdam'", True),
        ),
    ),
    ToolSpec(
        "get_current_datetime",
        "The current local date, time, weekday and time zone.",
        "tatlock.tools.clock",
        "get_current_datetime",
        "time",
    ),
    ToolSpec(
        "get_system_info",
        "This computer's CPU, memory and disk usage and operating system.",
        "tatlock.tools.system",
        "get_system_info",
        "system",
    ),
    ToolSpec(
        "get_weather_forecast",
        "Current weather and the daily forecast for a place (Open-Meteo).",
        "tatlock.tools.weather",
        "get_weather_forecast",
        "weather",
        (
            _p(
                "location", "string", "City or place, e.g. 'London'; empty: the user's own location"
            ),
            _p("days", "integer", "Days of forecast, 1-7 (default 3)"),
        ),
    ),
    ToolSpec(
        "web_search",
        "Search the web (DuckDuckGo) for current information.",
        "tatlock.tools.web",
        "web_search",
        "web",
        (
            _p("query", "string", "What to search for", True),
            _p("max_results", "integer", "How many results (default 5)"),
        ),
    ),
    ToolSpec(
        "analyze_file",
        "Read a local text file (or describe an image with a vision model) to answer a question "
        "about it.",
        "tatlock.tools.files",
        "analyze_file",
        "files",
        (
            _p("path", "string", "Path of the file, e.g. '~/notes.txt'", True),
            _p("question", "string", "What to find out about the file"),
        ),
    ),
)

BY_KEY = {t.key: t for t in BUILTIN_TOOLS}
