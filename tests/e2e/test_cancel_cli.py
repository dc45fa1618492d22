"""Ctrl-C in `tatlock ask` and `tatlock chat` cancels the turn: real processes, real SIGINT."""

from __future__ import annotations

import functools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from support import replies
from support.waiting import wait_until

LONG = (
    "Paris is the capital of France, sir, and has been for a good many centuries, "
    "through kings, emperors, republics and a great deal of pastry."
)


direct = functools.partial(replies.direct, topics=())


def exe() -> str:
    return str(Path(sys.executable).parent / "tatlock")


def rows(home):
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    try:
        return conn.execute(
            "SELECT role, content, metadata FROM conversation_messages ORDER BY message_id"
        ).fetchall()
    finally:
        conn.close()


def wait_streaming(fake, words: int = 4) -> None:
    """Until the fake has streamed the first ``words`` words of the answer (the JSON before the
    answer takes five pieces)."""
    wait_until(lambda: fake.chat_requests, what="the model to be asked")
    wait_until(lambda: fake.chunks_sent >= 5 + words, what=f"{words} words of the answer")


def cancelled_reply_stored(home) -> bool:
    stored = rows(home)
    return len(stored) == 2 and json.loads(stored[1][2] or "{}").get("cancelled") is True


def test_ctrl_c_in_ask_cancels_and_keeps_the_partial_answer(served, home):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [exe(), "ask", "Tell me about Paris"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=os.environ.copy(),
    )
    wait_streaming(served)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 3
    assert p.returncode == 130, err
    assert "cancelled" in err and "Traceback" not in err
    (_, q, _), (role, partial, meta) = rows(home)
    assert q == "Tell me about Paris" and role == "assistant"
    assert json.loads(meta)["cancelled"] is True and partial and LONG.startswith(partial)
    assert out.strip() == partial  # into a pipe: the partial answer, once
    assert served.wait_hangup(2.0)


def test_ctrl_c_in_chat_cancels_the_turn_and_the_chat_goes_on(served, home):
    served.token_delay = 0.25
    served.queue(direct(LONG), direct("Quite so, sir."))
    p = subprocess.Popen(
        [exe(), "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    p.stdin.write("Tell me about Paris\n")
    p.stdin.flush()
    wait_streaming(served)
    p.send_signal(signal.SIGINT)
    wait_until(lambda: cancelled_reply_stored(home), what="the cancelled reply to be stored")
    served.token_delay = 0
    out, err = p.communicate("Thank you\n", timeout=20)
    assert p.returncode == 0, err
    assert "(cancelled" in err and "Traceback" not in err
    assert "Quite so, sir." in out
    stored = rows(home)
    assert [r[0] for r in stored] == ["user", "assistant", "user", "assistant"]
    assert json.loads(stored[1][2])["cancelled"] is True and stored[3][1] == "Quite so, sir."


def test_second_ctrl_c_in_chat_leaves(served, home):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [exe(), "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    p.stdin.write("Tell me about Paris\n")
    p.stdin.flush()  # stdin stays open: after the cancel, chat waits at its prompt
    wait_streaming(served)
    p.send_signal(signal.SIGINT)
    wait_until(lambda: cancelled_reply_stored(home), what="the cancelled reply to be stored")
    assert p.poll() is None  # the first Ctrl-C only cancelled the turn
    p.send_signal(signal.SIGINT)
    _out, err = p.communicate(timeout=10)
    assert p.returncode == 0 and "Traceback" not in err
    assert "(cancelled" in err and len(served.chat_requests) == 1
