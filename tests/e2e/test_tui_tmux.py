"""The TUI in a real terminal: tmux runs `tatlock` (the installed console script, bare, as a
person starts it) at 160x45 against the fake model server; keys are typed with send-keys, the
window is resized with resize-window, and the screen is read with capture-pane. Skipped,
saying why, where tmux is missing."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from support.tui import direct

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)"
)


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], capture_output=True, text=True, timeout=20, check=True
    ).stdout


def screen(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def wait_for(session: str, needle: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < deadline:
        shown = screen(session)
        if needle in shown:
            return shown
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} never appeared on the terminal:\n{shown}")


def start(width: int = 160, height: int = 45) -> str:
    """`tatlock` in a new detached tmux session of that size; returns the session's name. The
    pane stays after the app ends, so a crash's last screen can be read."""
    session = f"tatlock-test-{uuid.uuid4().hex[:8]}"
    exe = Path(sys.executable).parent / "tatlock"
    env = {k: v for k, v in os.environ.items() if k.startswith(("TATLOCK_", "OLLAMA_"))}
    # COLUMNS/LINES from the test's own terminal would override the tmux window's size
    command = (
        "env -u COLUMNS -u LINES "
        + " ".join(f"{k}={v!s}" for k, v in env.items())
        + f" TERM=xterm-256color {exe}"
    )
    tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), command)
    tmux("set-option", "-t", session, "remain-on-exit", "on")
    return session


def running(session: str) -> bool:
    """The app still runs in the session's pane (not ended, e.g. by a crash)."""
    return tmux("display-message", "-p", "-t", session, "#{pane_dead}").strip() == "0"


def test_a_chat_turn_in_a_real_terminal_with_the_side_panes(served, home):
    served.handler = lambda body: direct(
        "Paris, sir. It has been the capital for a good many centuries."
    )
    session = start()
    try:
        wait_for(session, "speaking as")
        shown = wait_for(session, "Compaction")
        # the panes, from the start
        assert "Debug" in shown and "Compaction" in shown and "Memory" in shown
        assert "Conversations" in shown
        wait_for(session, "server up")
        tmux("send-keys", "-t", session, "-l", "What is the capital of France?")
        tmux("send-keys", "-t", session, "Enter")
        shown = wait_for(session, "DIRECT · 1 model call")
        assert "Paris, sir. It has been the capital for a good many centuries." in shown
        assert "What is the capital of France?" in shown
        assert "decision DIRECT (model)" in shown and "✓ assess" in shown  # the Debug pane's phases
        quit_app(session)
    finally:
        if _alive(session):
            tmux("kill-session", "-t", session)
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    try:
        stored = [
            r[0]
            for r in conn.execute("SELECT content FROM conversation_messages ORDER BY message_id")
        ]
    finally:
        conn.close()
    assert stored == [
        "What is the capital of France?",
        "Paris, sir. It has been the capital for a good many centuries.",
    ]


def test_the_app_survives_shrinking_and_growing_its_window(served, home):
    """Issue 18, item 3: started at 160x45, `tmux resize-window -x 80 -y 24` ended the app with
    `ValueError: range() arg 3 must not be zero`; then 80x24 -> 140x40 -> 84x24, down to 40x12."""
    served.handler = lambda body: direct("Still here, sir.")
    session = start(160, 45)
    try:
        wait_for(session, "Compaction")
        wait_for(session, "server up")
        for width, height in ((80, 24), (140, 40), (84, 24), (40, 12), (160, 45), (80, 24)):
            tmux("resize-window", "-t", session, "-x", str(width), "-y", str(height))
            time.sleep(0.6)
            assert running(session), f"the app ended at {width}x{height}:\n{screen(session)}"
            shown = wait_for(session, "speaking as")  # the composer, with its title, is on screen
            lines = shown.rstrip("\n").split("\n")
            assert len(lines) == height and max(len(line) for line in lines) <= width
        tmux("send-keys", "-t", session, "-l", "Are you still there?")
        tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "Still here, sir.")
        assert "Traceback" not in screen(session)
        quit_app(session)
    finally:
        if _alive(session):
            tmux("kill-session", "-t", session)


def quit_app(session: str) -> None:
    """Ctrl+Q leaves the app: its pane ends (kept, remain-on-exit) with no traceback."""
    tmux("send-keys", "-t", session, "C-q")
    deadline = time.monotonic() + 10
    while running(session) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not running(session)
    assert "Traceback" not in screen(session) and "Error" not in screen(session)
    tmux("kill-session", "-t", session)


def _alive(session: str) -> bool:
    return (
        subprocess.run(
            ["tmux", "has-session", "-t", session], capture_output=True, timeout=10
        ).returncode
        == 0
    )
