"""Faults (issue 11, deliverable 8), each made real: a model server process killed mid-answer, four
processes writing one memory at once, kill -9 in the middle of compaction again and again, a full
disk (a small tmpfs) and a read-only data folder, and tools that hang or raise. Every one ends in
one clear line or the safe behaviour, and nothing already stored is lost."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tatlock
from support.replies import SUMMARY, direct, phase_of, tools_needed
from support.store import rows
from support.waiting import wait_until
from tatlock.events import AnswerToken, ErrorEvent, ToolCalled, TurnCancelled, TurnFinished

TESTS = Path(__file__).resolve().parents[1]
EXE = str(Path(sys.executable).parent / "tatlock")
LONG = (
    "Paris is the capital of France, sir, and has been for a good many centuries, through kings, "
    "emperors, republics and a great deal of pastry."
)


def run(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [EXE, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def one_line(p: subprocess.CompletedProcess, code: int = 1) -> str:
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert p.returncode == code and len(lines) == 1 and "Traceback" not in p.stderr, (
        p.returncode,
        p.stderr,
    )
    return lines[0]


def integrity(db: Path) -> str:
    return rows(db, "PRAGMA integrity_check")[0][0]


def numbering(db: Path, conversation: int = 1) -> list[int]:
    return [
        n
        for (n,) in rows(
            db,
            "SELECT message_number FROM conversation_messages WHERE "
            "conversation_id = ?"
            " ORDER BY message_number",
            (conversation,),
        )
    ]


def compact_ranges(db: Path, conversation: int = 1) -> list[tuple[int, int]]:
    return rows(
        db,
        "SELECT from_message, up_to_message FROM conversation_compacts WHERE "
        "conversation_id = ?"
        " ORDER BY from_message",
        (conversation,),
    )


def assert_contiguous(ranges: list[tuple[int, int]], interval: int) -> None:
    """Compacts cover 1.. without a gap or an overlap, one block of ``interval`` each."""
    expected = 1
    for lo, hi in ranges:
        assert (lo, hi) == (expected, expected + interval - 1), ranges
        expected = hi + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the model server dies mid-stream ------------------------------------------------------------

SERVER = r"""
import os, sys, threading
sys.path.insert(0, sys.argv[1])
from support.fake_ollama import FakeOllama
from support.replies import direct, phase_of
port, die_after, answer = int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]

def handler(body):
    if die_after > 0 and phase_of(body) == "assess":  # the whole server process dies while answering
        threading.Timer(die_after, os.kill, (os.getpid(), 9)).start()
    return direct(answer)

srv = FakeOllama(port=port, token_delay=0.08 if die_after > 0 else 0, handler=handler).start()
print(srv.url, flush=True)
threading.Event().wait()
"""


def model_server(port: int, die_after: float) -> subprocess.Popen:
    p = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(TESTS), str(port), str(die_after), LONG],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert p.stdout is not None and p.stdout.readline().startswith("http://")
    return p


def test_the_model_server_dying_mid_answer_keeps_the_question_and_the_partial_answer(home):
    port = free_port()
    env = {
        "OLLAMA_HOST": f"http://127.0.0.1:{port}",
        "TATLOCK_MODEL": "llama3.2:3b",
        "TATLOCK_TIMEOUT": "15",
    }
    server = model_server(port, die_after=1.0)
    try:
        r = run("ask", "What is the capital of France?", env=env)
    finally:
        server.kill()
        server.wait()
    assert server.returncode == -signal.SIGKILL  # it really died, mid-answer
    line = one_line(r)
    assert "Ollama" in line and "saved in conversation 1" in line
    db = home / "users" / "tester_longterm.db"
    stored = rows(
        db, "SELECT role, content, metadata FROM conversation_messages ORDER BY message_id"
    )
    assert [s[0] for s in stored] == ["user", "assistant"] and stored[0][
        1
    ] == "What is the capital of France?"
    partial = stored[1][1]
    assert partial and LONG.startswith(partial) and len(partial) < len(LONG)
    assert '"failed"' in stored[1][2]
    assert "[failed: the model stopped answering]" in run("memory", "show", "1", env=env).stdout

    server = model_server(port, die_after=0)  # the server is back (on the same port)
    try:
        r = run("ask", "Once more: the capital of France?", env=env)
    finally:
        server.kill()
        server.wait()
    assert r.returncode == 0 and r.stdout.strip() == LONG, r.stderr
    assert numbering(db) == [1, 2, 3, 4] and integrity(db) == "ok"


# -- four processes write one memory at once ----------------------------------------------------

WRITER = r"""
import sys
import tatlock
k, n = int(sys.argv[1]), int(sys.argv[2])
with tatlock.open() as butler:
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(n):
        butler.ask(f"writer {k} says {i}", conversation_id=1)
        butler.variables.set(f"writer_{k}", str(i))
print("done", flush=True)
"""


def test_four_processes_writing_one_memory_lose_nothing_and_number_contiguously(
    served, home, cli, monkeypatch
):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "8")  # compaction runs beside the writers
    served.handler = lambda body: SUMMARY if phase_of(body) == "summary" else direct("Noted, sir.")
    assert cli("ask", "Let us begin").code == 0
    n = 12
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(k), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(4)
    ]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:  # all at once
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0 and out.strip() == "done", err
        assert "locked" not in err and "Traceback" not in err, err
    db = home / "users" / "tester_longterm.db"
    total = 2 + 4 * n * 2
    assert numbering(db) == list(range(1, total + 1))
    said = {c for (c,) in rows(db, "SELECT content FROM conversation_messages WHERE role = 'user'")}
    assert {f"writer {k} says {i}" for k in range(4) for i in range(n)} <= said
    # every question has its own answer
    assert rows(
        db,
        "SELECT count(*) FROM conversation_messages a WHERE role = 'user' AND NOT "
        "EXISTS"
        " (SELECT 1 FROM conversation_messages b WHERE b.reply_to = a.message_id)",
    ) == [(0,)]
    assert rows(
        db, "SELECT key, value FROM personal_variables WHERE key LIKE 'writer_%' ORDER BY key"
    ) == [(f"writer_{k}", str(n - 1)) for k in range(4)]
    assert integrity(db) == "ok"
    assert_contiguous(compact_ranges(db), 8)


# -- kill -9 during compaction, again and again -------------------------------------------------


def test_kill_9_during_compaction_in_a_loop_leaves_a_sound_database_and_contiguous_compacts(
    served, home, monkeypatch
):
    from tatlock.config import load
    from tatlock.store.user import Author, UserStore

    store = UserStore.open(load().paths, "tester")
    conv = store.create_conversation("cli", "cli")
    me, butler = Author("tester", "Tester", is_anchor=True), Author.assistant()
    for i in range(80):
        q = store.add_message(conv.id, "user", f"Question {i} about tea and the garden", me)
        store.add_message(conv.id, "assistant", f"Answer {i}, sir.", butler, reply_to=q.message_id)
    store.close()
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "10")
    served.handler = lambda body: SUMMARY
    # each summary takes a while: kills land before, inside and after the model call
    served.delay = 0.4
    db = home / "users" / "tester_longterm.db"
    rng = random.Random(11)
    killed = 0
    for i in range(8):
        asked = len(served.chat_requests)
        p = subprocess.Popen(
            [EXE, "memory", "compact", str(conv.id)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        if i % 2 == 0:  # inside the model call, or just after it (the commit)
            deadline = time.monotonic() + 10
            while len(served.chat_requests) == asked and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.5))
        else:  # anywhere: start-up, the claim, the call, the commit, the next block
            time.sleep(rng.uniform(0.1, 1.5))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            killed += 1
        p.communicate()
        assert integrity(db) == "ok"
        assert_contiguous(compact_ranges(db), 10)
        assert numbering(db, conv.id) == list(range(1, 161))
    assert killed >= 6
    served.delay = 0
    r = run("memory", "compact", str(conv.id))
    assert r.returncode == 0, r.stderr
    assert compact_ranges(db) == [(a, a + 9) for a in range(1, 160, 10)]
    assert integrity(db) == "ok" and rows(db, "SELECT count(*) FROM compaction_claims") == [(0,)]


# -- a full disk and a read-only data folder ----------------------------------------------------


def _namespace_or_skip() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small filesystem or a read-only folder")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot make a mount namespace here")


FULL_DISK = r"""
set -u
mount -t tmpfs -o size=8m,mode=0700 tmpfs "$DISK"
cp -a "$SRC/." "$DISK/"
export TATLOCK_HOME="$DISK"
step() {  # step NAME ARGS...: run tatlock, keep its exit code, stdout and stderr
  name=$1; shift
  "$EXE" "$@" <"$OUT/stdin" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"
}
: >"$OUT/stdin"
# almost full: room to open the databases, not for a long message
dd if=/dev/zero of="$DISK/filler" bs=4k >/dev/null 2>&1
truncate -s -400K "$DISK/filler"
cp "$BIG" "$OUT/stdin" && step big ask && : >"$OUT/stdin"
step list memory conversations
# full to the last byte
dd if=/dev/zero of="$DISK/filler2" bs=1k >/dev/null 2>&1
step ask ask "one question too many"
step var var set location York
mkdir -p "$OUT/full" && cp -a "$DISK/." "$OUT/full/"
rm "$DISK/filler" "$DISK/filler2"
step again ask "and now there is room"
mkdir -p "$OUT/freed" && cp -a "$DISK/." "$OUT/freed/"
"""


def test_a_full_disk_is_one_clear_line_and_loses_nothing(served, home, cli, tmp_path):
    _namespace_or_skip()
    served.handler = lambda body: direct("Noted, sir.")
    for i in range(3):
        assert cli("ask", f"Remember point {i}").code == 0
    assert cli("var", "set", "location", "Leeds").code == 0
    before = rows(
        home / "users" / "tester_longterm.db",
        "SELECT message_number, content FROM conversation_messages",
    )
    disk, out, big = tmp_path / "disk", tmp_path / "out", tmp_path / "big.txt"
    disk.mkdir()
    out.mkdir()
    # 1.6 MB: more than the disk has left
    big.write_text("A very long letter to keep, sir. " * 50_000)
    env = {
        **os.environ,
        "DISK": str(disk),
        "SRC": str(home),
        "OUT": str(out),
        "EXE": EXE,
        "BIG": str(big),
    }
    p = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL_DISK],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr

    def result(name: str) -> tuple[int, str, str]:
        return (
            int((out / f"{name}.rc").read_text()),
            (out / f"{name}.out").read_text(),
            (out / f"{name}.err").read_text(),
        )

    for name in ("big", "ask", "var"):
        code, _, err = result(name)
        lines = [x for x in err.splitlines() if x.startswith("tatlock: ")]
        assert code == 1 and len(lines) == 1 and "Traceback" not in err, (name, err)
        assert "is full" in lines[0] and "nothing already stored is lost" in lines[0], lines[0]
    assert "your question could not be saved" in result("big")[2]
    code, listing, _ = result("list")
    assert code == 0 and "Remember point 0" in listing  # reading works while there is room to open
    full_db = out / "full" / "users" / "tester_longterm.db"
    assert integrity(full_db) == "ok"
    assert rows(full_db, "SELECT message_number, content FROM conversation_messages") == before
    assert rows(full_db, "SELECT value FROM personal_variables WHERE key = 'location'") == [
        ("Leeds",)
    ]
    code, answer, err = result("again")
    assert code == 0 and answer.strip() == "Noted, sir.", err
    freed_db = out / "freed" / "users" / "tester_longterm.db"
    assert numbering(freed_db) == list(range(1, len(before) + 3)) and integrity(freed_db) == "ok"


def test_a_read_only_data_folder_is_one_clear_line_and_loses_nothing(served, home, cli):
    _namespace_or_skip()
    served.handler = lambda body: direct("Noted, sir.")
    assert cli("ask", "Remember the milk").code == 0
    db = home / "users" / "tester_longterm.db"
    before = rows(db, "SELECT message_number, content FROM conversation_messages")
    script = f'mount --bind -o ro "{home}" "{home}" && exec "{EXE}" "$@"'
    for args in (
        ("ask", "Another thing"),
        ("var", "set", "location", "York"),
        ("memory", "forget", "1", "--yes"),
        ("persona", "add", "Be brief."),
    ):
        p = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, "sh", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        line = one_line(p)
        assert "read-only" in line and str(home) in line, line
    assert rows(db, "SELECT message_number, content FROM conversation_messages") == before
    assert integrity(db) == "ok"
    served.queue(direct("Still here, sir."))
    assert cli("ask", "Are you there?").code == 0  # writable again: all is as it was


# -- tools that hang or raise --------------------------------------------------------------------


QUESTION = "How many conversations have we had so far?"


@pytest.fixture
def hanging_tool(monkeypatch):
    """The conversation_stats tool hangs until released (as a tool stuck on a dead network
    would)."""
    import tatlock.tools.memory as memory_tools

    tool = Hung()

    def stuck(*, ctx):
        tool.calls += 1
        tool.release.wait(30)
        try:  # what a tool that outlived its turn tries, once it wakes up
            ctx.user_store.set_var("written_late", "by a tool that outlived its turn")
        except Exception as exc:
            tool.late_error = exc
        finally:
            tool.finished.set()
        return {"conversations": 0}

    monkeypatch.setattr(memory_tools, "conversation_stats", stuck)
    yield tool
    tool.release.set()


class Hung:
    def __init__(self) -> None:
        self.release, self.finished = threading.Event(), threading.Event()
        self.calls = 0
        self.late_error: Exception | None = None


def _tool_turn(served) -> None:
    served.handler = lambda body: {
        "assess": tools_needed("conversation_stats"),
        "select_tools": {"tool_calls": [{"name": "conversation_stats", "arguments": {}}]},
    }.get(phase_of(body), "I could not count them just now, sir: the tally did not come.")


def test_cancel_ends_the_turn_at_once_while_a_tool_hangs(served, home, hanging_tool):
    _tool_turn(served)
    with tatlock.open() as butler:
        turn = butler.turn(QUESTION)
        for ev in turn:
            if isinstance(ev, ToolCalled):
                break
        wait_until(lambda: hanging_tool.calls, what="the tool to run")  # and it is stuck
        t0 = time.monotonic()
        turn.cancel()
        final = turn.result(timeout=5)
        took = time.monotonic() - t0
        assert isinstance(final, TurnCancelled) and took < 0.5, (final, took)
        served.handler = lambda body: direct("Good evening, sir.")
        # the next turn is not held up
        assert butler.ask("Good evening").answer == "Good evening, sir."
        hist = butler.conversations.get(turn.conversation_id).messages
    assert [m.content for m in hist][:1] == [QUESTION] and hist[1].metadata.get("cancelled") is True
    assert hanging_tool.calls == 1


def test_a_hanging_tool_times_out_and_cannot_write_after_its_turn(
    served, home, hanging_tool, monkeypatch
):
    monkeypatch.setenv("TATLOCK_TOOL_TIMEOUT", "1")
    _tool_turn(served)
    with tatlock.open() as butler:
        t0 = time.monotonic()
        final = butler.turn(QUESTION).result(timeout=10)
        took = time.monotonic() - t0
        assert (
            isinstance(final, TurnFinished)
            and final.answer == "I could not count them just now, sir: the tally did not come."
        )
        assert 1.0 <= took < 2.5, took
        respond = [r for r in served.chat_requests if phase_of(r) == "respond"][-1]
        assert "took longer than 1 s" in respond["messages"][-1]["content"]
        hanging_tool.release.set()  # the stuck tool wakes up after its turn and tries to write
        assert hanging_tool.finished.wait(5)
        assert "has ended" in str(hanging_tool.late_error)
    from tatlock.config import load
    from tatlock.store.user import UserStore

    store = UserStore.open(load().paths, "tester")
    try:
        assert store.get_var("written_late") is None
    finally:
        store.close()


def test_a_tool_that_raises_becomes_a_result_and_the_turn_answers(served, home, monkeypatch):
    import tatlock.tools.memory as memory_tools

    def broken(*, ctx):
        raise SystemExit("a tool that tries to end the process")

    monkeypatch.setattr(memory_tools, "conversation_stats", broken)
    _tool_turn(served)
    with tatlock.open() as butler:
        events = list(butler.turn(QUESTION))
    final = events[-1]
    assert (
        isinstance(final, TurnFinished)
        and final.answer == "I could not count them just now, sir: the tally did not come."
    )
    result = next(e for e in events if type(e).__name__ == "ToolResult")
    assert not result.ok and "SystemExit" in result.result["error"]
    assert not any(isinstance(e, ErrorEvent) for e in events)
    assert any(isinstance(e, AnswerToken) for e in events)
