"""Opt-in: `tatlock ask` against a real small model (SmolLM2-135M behind llama.cpp's
OpenAI-compatible server). Run with the server up and TATLOCK_LOCAL_LLM=1:

    ../shared/tools/local-llm start
    TATLOCK_LOCAL_LLM=1 scripts/test -m localllm

The model is tiny: the test checks the product survives real tokens, real latency and
imperfect JSON, and stores the turn, not that the answer is right.
"""

from __future__ import annotations

import json
import os
import sqlite3

import httpx
import pytest

URL = os.environ.get("TATLOCK_LOCAL_LLM_URL", "http://127.0.0.1:18080/v1")

pytestmark = [
    pytest.mark.localllm,
    pytest.mark.skipif(os.environ.get("TATLOCK_LOCAL_LLM") != "1", reason="opt-in: set TATLOCK_LOCAL_LLM=1"),
]


@pytest.fixture
def local_llm(monkeypatch):
    try:
        httpx.get(URL + "/models", timeout=5).raise_for_status()
    except httpx.HTTPError:
        pytest.fail(f"TATLOCK_LOCAL_LLM=1 but no model server at {URL}: run ../shared/tools/local-llm start")
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", URL)
    monkeypatch.setenv("TATLOCK_MODEL", "smollm2")
    monkeypatch.setenv("TATLOCK_TIMEOUT", "240")


@pytest.mark.timeout(900)
@pytest.mark.parametrize("question", ["What is the capital of France?", "What's your name?"])
def test_ask_answers_and_stores_the_turn(tatlock_proc, local_llm, home, question):
    r = tatlock_proc("ask", "--json", question, timeout=800)
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    out = json.loads(r.out.strip().splitlines()[-1])
    assert out["answer"].strip()
    assert out["route"] in ("DIRECT", "TOOLS_NEEDED", "CAPABILITY_GUARD")
    if question.startswith("What's your name"):
        assert out["route"] == "CAPABILITY_GUARD" and out["guard"] == "IDENTITY"
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    rows = conn.execute("SELECT role, content FROM conversation_messages ORDER BY message_number").fetchall()
    assert rows[0] == ("user", question) and rows[1] == ("assistant", out["answer"])
