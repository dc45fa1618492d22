"""Shared fixtures: an isolated TATLOCK_HOME per test, the CLI in-process and as a process,
and the fake Ollama server over real loopback HTTP."""

from __future__ import annotations

import io
import socket
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_SCRUB = ("TATLOCK_", "OLLAMA_")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every test gets an empty TATLOCK_HOME and none of the developer's settings."""
    for key in list(os.environ):
        if key.startswith(_SCRUB):
            monkeypatch.delenv(key)
    h = tmp_path / "home"
    h.mkdir(mode=0o700)  # as tatlock makes its own folders (a looser one is tightened with a notice)
    monkeypatch.setenv("TATLOCK_HOME", str(h))
    monkeypatch.setenv("TATLOCK_USER", "tester")
    monkeypatch.setenv("TATLOCK_TIER", "low")  # deterministic defaults whatever the machine
    # the scripted fake server answers the assessment's JSON in one call: the low tier's default
    # (the plain form: a routing call, then the answer) is tested where a test asks for it
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "json")
    # no summaries by themselves (no model calls beside the ones a test scripts, no detached
    # process outliving its test); tests of the housekeeping choose their mode (a detached
    # housekeeper one of them starts is ended when the test ends)
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "off")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    yield h
    _end_housekeepers(h)


def _end_housekeepers(home: Path) -> None:
    """A detached housekeeper a test started (a test in the background mode) ends with its test:
    it must not go on talking to a fake server whose port another test may have by now."""
    import signal
    import time

    from tatlock.memory.locks import PID_NAME

    for path in home.glob(f"users/*/{PID_NAME}"):
        try:
            pid = int(path.read_text().strip())
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"tatlock.memory.detached" not in fh.read():
                    continue  # it has ended, and its pid is someone else's now
            os.kill(pid, signal.SIGTERM)  # it lets go of its claim; what is left waits, safely
        except (OSError, ValueError):
            continue
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except OSError:
                break
            time.sleep(0.05)


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run `tatlock ARGS` in-process; returns exit code, stdout and stderr."""
    from tatlock.cli import main

    def run(*args: str, stdin: str | None = None, tty: bool = False) -> Result:
        capsys.readouterr()
        fake_in = io.StringIO(stdin or "")
        fake_in.isatty = lambda: tty  # type: ignore[method-assign]
        monkeypatch.setattr(sys, "stdin", fake_in)
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse exits
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def tatlock_proc(home):
    """Run the installed `tatlock` console script as a real process."""
    exe = Path(sys.executable).parent / "tatlock"

    def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None,
            timeout: float = 60) -> Result:
        full_env = {**os.environ, **(env or {})}
        p = subprocess.run([str(exe), *args], input=stdin if stdin is not None else "",
                           capture_output=True, text=True, env=full_env, timeout=timeout)
        return Result(p.returncode, p.stdout, p.stderr)

    return run


@pytest.fixture
def paths():
    from tatlock.config import load

    return load().paths


@pytest.fixture
def store(paths):
    """alice's memory, a real SQLite file in this test's TATLOCK_HOME."""
    from tatlock.store.user import UserStore

    s = UserStore.open(paths, "alice")
    yield s
    s.close()


@pytest.fixture
def fake():
    from support.fake_ollama import FakeOllama

    with FakeOllama() as srv:
        yield srv


@pytest.fixture
def served(fake, monkeypatch):
    """The fake server wired in as the configured Ollama host, with the tier's model present."""
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    monkeypatch.setenv("TATLOCK_MODEL", "llama3.2:3b")
    monkeypatch.setenv("TATLOCK_TIMEOUT", "15")
    return fake


# -- a fake Open-Meteo + web-search server (loopback), shared by tool and pipeline tests


@pytest.fixture
def fake_server():
    from support.fake_web import FakeWeb

    with FakeWeb() as web:
        yield web


@pytest.fixture
def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def weather_env(fake_server, monkeypatch):
    monkeypatch.setenv("TATLOCK_GEOCODING_URL", fake_server.url)
    monkeypatch.setenv("TATLOCK_OPEN_METEO_URL", fake_server.url + "/")
    return fake_server


