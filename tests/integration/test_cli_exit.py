"""How the `tatlock` program ends (cli.entry_point / cli.leave): once a command is done it leaves
without tearing the interpreter down, and loses nothing by it: the answer is on stdout, the
question and the answer are in memory, atexit handlers ran, a thread still working is waited for.
Real processes: the console script against the fake Ollama server over loopback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )


def test_leave_flushes_output_and_runs_atexit_handlers():
    p = _run("""
        import atexit, sys
        from tatlock.cli import leave
        atexit.register(lambda: print("atexit ran", file=sys.stderr))
        sys.stdout.write("an answer with no newline, still in the buffer")
        leave(3)
        print("never reached")
        """)
    assert p.returncode == 3
    assert p.stdout == "an answer with no newline, still in the buffer"
    assert "atexit ran" in p.stderr


def test_leave_waits_for_a_thread_still_working():
    p = _run("""
        import threading, time
        from tatlock.cli import leave
        def work():
            time.sleep(0.3)
            print("the thread finished", flush=True)
        threading.Thread(target=work).start()
        leave(0)
        """)
    assert p.returncode == 0 and "the thread finished" in p.stdout


def test_leave_on_a_closed_pipe_exits_as_python_does():
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tatlock.cli import leave\nsys.stdout.write('x' * 100000); leave(0)",
        ],
        capture_output=True,
        timeout=60,
        bufsize=0,
    )
    assert p.returncode == 0 and len(p.stdout) == 100000  # read whole: a working pipe loses nothing
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from tatlock.cli import leave\n"
            "import time; time.sleep(0.5); sys.stdout.write('x' * 10); leave(0)",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    )  # buffered
    assert reader.stdout is not None
    reader.stdout.close()  # the reader went away before the last flush
    reader.communicate(timeout=60)
    assert reader.returncode == 120  # what Python's own exit says when stdout cannot be flushed


def _answer(body: dict) -> object:
    """Phase 1 answers directly; the gate's model check approves."""
    props = (
        (body.get("format") or {}).get("properties", {})
        if isinstance(body.get("format"), dict)
        else {}
    )
    if "decision" in props:
        return {
            "json": {
                "decision": "DIRECT",
                "answer": "Paris, sir.",
                "topics": ["geography"],
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
            }
        }
    if "verdict" in props:
        return {"json": {"verdict": "APPROVED", "fallback_type": "NONE", "reason": "ok"}}
    return "Paris, sir."


@pytest.mark.parametrize("how", [["tatlock"], [sys.executable, "-m", "tatlock"]])
def test_ask_as_a_process_answers_stores_and_exits_zero(served, home, how):
    from pathlib import Path

    exe = [str(Path(sys.executable).parent / "tatlock")] if how == ["tatlock"] else how
    served.handler = _answer
    p = subprocess.run(
        [*exe, "ask", "What is the capital of France?"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "Paris, sir."
    db = sqlite3.connect(home / "users" / "tester_longterm.db")
    try:
        rows = db.execute(
            "SELECT role, content FROM conversation_messages ORDER BY message_id"
        ).fetchall()
    finally:
        db.close()
    assert ("user", "What is the capital of France?") in rows and (
        "assistant",
        "Paris, sir.",
    ) in rows
