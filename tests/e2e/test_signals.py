"""SIGTERM and SIGHUP end a turn as Ctrl-C does, in every interface: real processes, real
signals, the fake model server mid-answer, the stored rows read back from the database. The TUI
runs in a real terminal under tmux (skipped, saying why, where tmux is missing)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from support.replies import direct, phase_of, tool_call, tools_needed
from support.waiting import catches, reads_stdin, wait_until

EXE = str(Path(sys.executable).parent / "tatlock")
LONG = (
    "Paris is the capital of France, sir, and has been for a good many centuries, "
    "through kings, emperors, republics and a great deal of pastry."
)
SIGNALS = [
    pytest.param(signal.SIGTERM, 143, id="SIGTERM"),
    pytest.param(signal.SIGHUP, 129, id="SIGHUP"),
]


def rows(home: Path, user: str = "tester") -> list[tuple[str, str, dict]]:
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return [
            (r, c, json.loads(m))
            for r, c, m in conn.execute(
                "SELECT role, content, metadata FROM conversation_messages ORDER BY message_id"
            )
        ]
    finally:
        conn.close()


def streaming(fake, requests: int = 1, words: int = 4) -> None:
    """Until the fake has had ``requests`` chats and streamed the first ``words`` words of the
    answer to the last (the JSON before a direct answer takes five pieces)."""
    wait_until(lambda: len(fake.chat_requests) >= requests, what="the model to be asked")
    start = fake.chunks_sent
    wait_until(lambda: fake.chunks_sent >= start + 5 + words, what=f"{words} words of the answer")


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def assert_partial_stored(home: Path, question: str, user: str = "tester") -> str:
    (role_q, q, _), (role_a, partial, meta) = rows(home, user)[-2:]
    assert (role_q, q, role_a) == ("user", question, "assistant")
    assert meta["cancelled"] is True and partial and LONG.startswith(partial)
    return partial


# -- ask -------------------------------------------------------------------------------------


@pytest.mark.parametrize("sig, code", SIGNALS)
def test_a_signal_to_ask_mid_answer_keeps_the_partial_and_exits_with_its_code(
    served, home, sig, code
):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [EXE, "ask", "Tell me about Paris"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    streaming(served)
    t0 = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 3
    assert p.returncode == code, err
    line = one_line(err)
    assert (
        line.startswith(f"tatlock: stopped by {signal.Signals(sig).name}")
        and "marked cancelled" in line
    )
    partial = assert_partial_stored(home, "Tell me about Paris")
    assert out.strip() == partial
    assert served.wait_hangup(2.0)  # the model's stream was closed: the server stops generating


def test_a_second_sigterm_while_cancelling_still_stores_the_partial_with_one_line(served, home):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [EXE, "ask", "Tell me about Paris"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    streaming(served)
    p.send_signal(signal.SIGTERM)
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=10)
    assert p.returncode == 143
    assert one_line(err).startswith("tatlock: stopped by SIGTERM")
    assert_partial_stored(home, "Tell me about Paris")


def _second_signal_before_the_cancel(monkeypatch) -> None:
    """A SIGTERM to this process once the answer streams; a second one lands while the first is
    being handled, before the turn could be cancelled (the turn's first ``cancel`` meets it).
    Signals sent a millisecond apart do that now and then; here it happens every time."""
    from tatlock.commands.signals import Stopped
    from tatlock.turn import Turn

    real_cancel = Turn.cancel
    met: list[int] = []

    def cancel(self: Turn) -> None:
        if not met:
            met.append(1)
            raise Stopped(signal.SIGTERM)
        real_cancel(self)

    monkeypatch.setattr(Turn, "cancel", cancel)


def _sigterm_to_self_once_streaming(served, sent: list[float]) -> threading.Thread:
    def later() -> None:
        streaming(served)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGTERM)  # run_command's handler raises it in the main thread

    t = threading.Thread(target=later, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize(
    "command", [("ask", "Tell me about Paris"), ("chat",)], ids=["ask", "chat"]
)
def test_a_second_signal_before_the_turn_is_cancelled_still_ends_it_at_once(
    cli, served, home, monkeypatch, command
):
    """Two SIGTERMs (a service manager and a shell, say): the second one lands before the first
    has cancelled the turn. The command still leaves at once, and the turn with it: its partial
    answer is stored, marked cancelled (it used to run on to its end, or to the model's deadline,
    while the process, having said it stopped, waited for it)."""
    served.token_delay = 0.25
    served.queue(direct(LONG))
    sent: list[float] = []
    _second_signal_before_the_cancel(monkeypatch)
    helper = _sigterm_to_self_once_streaming(served, sent)
    r = cli(*command, stdin="Tell me about Paris\n" if command == ("chat",) else None)
    helper.join(5)
    assert sent and time.monotonic() - sent[0] < 3, (
        "the command waited for the turn to run to its end"
    )
    assert r.code == 143, r.err
    assert (
        r.err.strip().splitlines()[-1].startswith("tatlock: stopped by SIGTERM")
        and "Traceback" not in r.err
    )
    assert_partial_stored(home, "Tell me about Paris")
    assert served.wait_hangup(2.0)  # the model's stream was closed


def test_sigterm_during_the_tool_phase_stores_the_question_and_an_empty_cancelled_reply(
    served, home
):
    """The model is choosing the tools (slowly): the signal ends the turn at once all the same."""
    # a tool with an argument to choose (one without is run with no call to choose it)
    served.handler = lambda body: (
        tools_needed("recall_memories")
        if phase_of(body) == "assess"
        else tool_call("recall_memories", query="memory")
        if phase_of(body) == "select_tools"
        else "Done, sir."
    )
    p = subprocess.Popen(
        [EXE, "ask", "What did we say about the garden last week?"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    wait_until(lambda: len(served.chat_requests) >= 1, what="the assessment")
    # every later call waits: the tool phase's first is under way when the signal comes
    served.delay = 30.0
    wait_until(
        lambda: any(phase_of(b) == "select_tools" for b in served.chat_requests),
        what="the tool phase",
    )
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 3
    assert p.returncode == 143, err
    assert one_line(err).startswith("tatlock: stopped by SIGTERM")
    (_, q, _), (role, reply, meta) = rows(home)
    assert q == "What did we say about the garden last week?" and role == "assistant"
    assert meta["cancelled"] is True and reply == "" and meta["route"] == "TOOLS_NEEDED"


def test_sigterm_during_the_repair_keeps_what_was_shown(served, home):
    """The first answer made a vendor claim (withheld by the gate: nothing shown); the signal
    comes during the repair, which had begun to stream."""

    def reply(body):
        if phase_of(body) == "assess":
            return direct("I am ChatGPT, made by OpenAI, sir.")
        return LONG

    served.handler = reply
    served.token_delay = 0.25
    p = subprocess.Popen(
        [EXE, "ask", "Who made you, and tell me about Paris?"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    streaming(served, requests=2)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 143, err
    assert one_line(err).startswith("tatlock: stopped by SIGTERM")
    stored = rows(home)
    assert stored[-1][2]["cancelled"] is True
    # what the gate withdrew stays withdrawn
    assert "ChatGPT" not in stored[-1][1] and "ChatGPT" not in out


def test_sigterm_before_any_turn_is_one_line(served, home):
    p = subprocess.Popen(
        [EXE, "ask"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # waits for the question on stdin
    wait_until(lambda: catches(p.pid, signal.SIGTERM) and reads_stdin(p.pid), what="ask to wait")
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=10)
    assert p.returncode == 143 and one_line(err) == "tatlock: stopped by SIGTERM"


# -- chat --------------------------------------------------------------------------------------


@pytest.mark.parametrize("sig, code", SIGNALS)
def test_a_signal_to_chat_mid_answer_keeps_the_partial_and_leaves(served, home, sig, code):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [EXE, "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    p.stdin.write("Tell me about Paris\n")
    p.stdin.flush()  # stdin stays open: only the signal can end the chat
    streaming(served)
    p.send_signal(sig)
    _out, err = p.communicate(timeout=10)
    assert p.returncode == code, err
    lines = [
        x for x in err.splitlines() if x.strip() and not x.startswith("Tatlock at your service")
    ]
    assert len(lines) == 1 and lines[0].startswith(
        f"tatlock: stopped by {signal.Signals(sig).name}"
    ), err
    assert "Traceback" not in err
    assert_partial_stored(home, "Tell me about Paris")


def test_sigterm_at_the_chat_prompt_leaves_with_one_line(served, home):
    p = subprocess.Popen(
        [EXE, "chat"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(lambda: catches(p.pid, signal.SIGTERM) and reads_stdin(p.pid), what="the prompt")
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=10)
    assert p.returncode == 143
    assert err.strip().splitlines()[-1] == "tatlock: stopped by SIGTERM" and "Traceback" not in err


# -- the MCP server over stdio ---------------------------------------------------------------------


def test_sigterm_to_an_mcp_stdio_server_mid_ask_stores_the_partial(served, home):
    served.token_delay = 0.25
    served.queue(direct(LONG))
    p = subprocess.Popen(
        [EXE, "mcp", "--user", "tester"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def send(obj: dict) -> None:
        p.stdin.write(json.dumps(obj) + "\n")
        p.stdin.flush()

    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "signal-test", "version": "1"},
            },
        }
    )
    assert json.loads(p.stdout.readline())["id"] == 1
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "ask", "arguments": {"question": "Tell me about Paris"}},
        }
    )
    streaming(served)
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=15)
    assert p.returncode == 143, err
    assert (
        err.strip().splitlines()[-1] == "tatlock mcp: stopped by SIGTERM" and "Traceback" not in err
    )
    assert_partial_stored(home, "Tell me about Paris")


# -- the TUI in a real terminal
# ----------------------------------------------------------------------

tmux_only = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)"
)


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], capture_output=True, text=True, timeout=20, check=True
    ).stdout


def _alive(session: str) -> bool:
    return (
        subprocess.run(
            ["tmux", "has-session", "-t", session], capture_output=True, timeout=10
        ).returncode
        == 0
    )


def _screen_until(session: str, needle: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < deadline:
        shown = tmux("capture-pane", "-p", "-t", session)
        if needle in shown:
            return shown
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} never appeared on the terminal:\n{shown}")


def _tui_mid_answer(served, session: str) -> int:
    """The TUI in a shell in tmux, answering slowly; returns the TUI's pid once the answer shows."""
    served.token_delay = 0.3
    served.handler = lambda body: direct(LONG)
    env = {k: v for k, v in os.environ.items() if k.startswith(("TATLOCK_", "OLLAMA_"))}
    command = (
        "env -u COLUMNS -u LINES "
        + " ".join(f"{k}={v!s}" for k, v in env.items())
        + f" TERM=xterm-256color {EXE} tui; echo EXIT=$?; sleep 60"
    )
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "45", "bash", "-c", command)
    _screen_until(session, "server up")
    tmux("send-keys", "-t", session, "-l", "Tell me about Paris")
    tmux("send-keys", "-t", session, "Enter")
    _screen_until(session, "capital of France")  # the answer is streaming
    shell = tmux("display", "-p", "-t", session, "#{pane_pid}").strip()
    pid = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True).stdout.split()
    assert pid, "the TUI process was not found"
    return int(pid[0])


@tmux_only
@pytest.mark.parametrize("sig, code", SIGNALS)
def test_a_signal_to_the_tui_mid_turn_stores_the_partial_and_restores_the_terminal(
    served, home, sig, code
):
    session = f"tatlock-signal-{uuid.uuid4().hex[:8]}"
    try:
        pid = _tui_mid_answer(served, session)
        os.kill(pid, sig)
        shown = _screen_until(session, "EXIT=", timeout=20)
        assert f"EXIT={code}" in shown
        assert (
            f"tatlock: stopped by {signal.Signals(sig).name}" in shown and "Traceback" not in shown
        )
        # the terminal is as it was: the main screen, no mouse reporting, the cursor shown
        flags = tmux(
            "display", "-p", "-t", session, "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"
        ).split()
        assert flags == ["0", "0", "1"], flags
    finally:
        if _alive(session):
            tmux("kill-session", "-t", session)
    assert_partial_stored(home, "Tell me about Paris")


@tmux_only
def test_the_tui_whose_terminal_goes_away_mid_turn_stores_the_partial(served, home):
    """`tmux kill-session` hangs up the terminal (SIGHUP to the TUI): nothing on screen to restore,
    and nothing lost."""
    session = f"tatlock-signal-{uuid.uuid4().hex[:8]}"
    try:
        pid = _tui_mid_answer(served, session)
        tmux("kill-session", "-t", session)
        wait_until(lambda: not os.path.exists(f"/proc/{pid}"), timeout=20, what="the TUI to exit")
    finally:
        if _alive(session):
            tmux("kill-session", "-t", session)
    assert_partial_stored(home, "Tell me about Paris")


@tmux_only
@pytest.mark.parametrize("apart", [0.0, 0.3])
def test_two_sigterms_to_the_tui_mid_turn_still_store_the_partial_and_restore_the_terminal(
    served, home, apart
):
    """A service manager and a shell both send SIGTERM, a moment apart: the second lands while the
    app leaves or while the process waits for the cancelled turn to be stored. One line, exit
    143, the terminal restored, the partial answer stored."""
    session = f"tatlock-signal-{uuid.uuid4().hex[:8]}"
    try:
        pid = _tui_mid_answer(served, session)
        os.kill(pid, signal.SIGTERM)
        time.sleep(apart)  # the spacing under test, not a wait
        if os.path.exists(f"/proc/{pid}"):
            os.kill(pid, signal.SIGTERM)
        shown = _screen_until(session, "EXIT=", timeout=20)
        assert "EXIT=143" in shown and "Traceback" not in shown, shown
        assert shown.count("tatlock: stopped by SIGTERM") == 1, shown
        flags = tmux(
            "display", "-p", "-t", session, "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"
        ).split()
        assert flags == ["0", "0", "1"], flags
    finally:
        if _alive(session):
            tmux("kill-session", "-t", session)
    assert_partial_stored(home, "Tell me about Paris")
