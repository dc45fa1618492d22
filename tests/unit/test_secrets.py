"""Secrets in the OS keyring: `tatlock secret set|get|delete|list` over the real keyring API
(an in-memory backend), the no-keyring path (keyring's own fail and null backends) as one line
naming the environment variable, and every known secret withheld from the debug log."""

from __future__ import annotations

import json
import os
import sys

import keyring
import pytest
from keyring.backends import fail, null

from support.memory_keyring import LockedKeyring, MemoryKeyring
from support.replies import direct
from tatlock import redact, secrets
from tatlock.config import load
from tatlock.errors import TatlockError, UsageError

SECRET = "wx-7f3a9c1e5b2d8f4a"


@pytest.fixture
def forget_registered():
    before = set(redact._known)
    yield
    redact._known.clear()
    redact._known.update(before)
    redact.register_secret()


@pytest.fixture
def ring(forget_registered):
    """An in-memory keyring selected through keyring's own API."""
    old = keyring.get_keyring()
    kr = MemoryKeyring()
    keyring.set_keyring(kr)
    yield kr
    keyring.set_keyring(old)


@pytest.fixture(params=[fail.Keyring, null.Keyring], ids=["fail", "null"])
def no_ring(request, forget_registered):
    old = keyring.get_keyring()
    keyring.set_keyring(request.param())
    yield
    keyring.set_keyring(old)


def test_set_get_delete_through_the_cli(cli, ring, home):
    r = cli("secret", "set", "weather", "--stdin", stdin=SECRET + "\nsecond line is ignored\n")
    assert r.code == 0 and "stored weather" in r.out and SECRET not in r.out
    assert ring.entries[("tatlock", "weather")] == SECRET
    r = cli("secret", "get", "weather")
    assert r.code == 0 and SECRET not in r.out and "--show" in r.out  # printed only when asked
    r = cli("secret", "get", "weather", "--show")
    assert r.code == 0 and r.out == SECRET + "\n"
    assert cli("secret", "list").out.split() == ["weather", "(keyring)"]
    r = cli("secret", "delete", "weather")  # no terminal to ask on: refuse rather than guess
    assert r.code == 2 and "--yes" in r.err and ("tatlock", "weather") in ring.entries
    assert cli("secret", "delete", "weather", "--yes").code == 0
    assert ("tatlock", "weather") not in ring.entries
    r = cli("secret", "delete", "weather", "--yes")
    assert r.code == 1 and r.err.count("\n") == 1 and "no secret 'weather'" in r.err
    r = cli("secret", "get", "weather")
    assert r.code == 1 and "tatlock secret set weather" in r.err


def test_replacing_or_deleting_asks_first(cli, ring, monkeypatch):
    assert cli("secret", "set", "weather", "--stdin", stdin="first-value\n").code == 0
    r = cli("secret", "set", "weather", "--stdin", stdin="second-value\n")
    assert (
        r.code == 2 and "--yes" in r.err and ring.entries[("tatlock", "weather")] == "first-value"
    )
    monkeypatch.setattr("builtins.input", lambda prompt="": "n")
    r = cli("secret", "delete", "weather", tty=True)
    assert r.code == 0 and "Kept" in r.out and ring.entries[("tatlock", "weather")] == "first-value"
    assert cli("secret", "set", "weather", "--stdin", "--yes", stdin="second-value\n").code == 0
    assert ring.entries[("tatlock", "weather")] == "second-value"


def test_a_secret_never_reaches_a_file(cli, ring, home, served):
    assert cli("secret", "set", "api_key", "--stdin", stdin=SECRET + "\n").code == 0
    assert cli("var", "set", "location", "Leeds").code == 0
    for p in home.rglob("*"):
        if p.is_file():
            assert SECRET.encode() not in p.read_bytes(), p
    assert (home / "secret-names").read_text() == "api_key\n"  # only the name, privately
    assert (home / "secret-names").stat().st_mode & 0o077 == 0


def test_no_secrets_no_keyring_at_start(tmp_path):
    """Without secrets set through tatlock, known_values never loads keyring (~0.1 s at start)."""
    import subprocess

    code = (
        "import sys; from tatlock import secrets; secrets.known_values(); print('keyring' in "
        "sys.modules)"
    )
    env = {"TATLOCK_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "False"


def test_set_asks_without_echo_on_a_terminal(cli, ring, monkeypatch):
    prompts = []
    monkeypatch.setattr("getpass.getpass", lambda prompt="": prompts.append(prompt) or SECRET)
    r = cli("secret", "set", "search", tty=True)
    assert r.code == 0 and ring.entries[("tatlock", "search")] == SECRET and "search" in prompts[0]
    # piped, but no --stdin: refuse rather than read a stray line
    r = cli("secret", "set", "weather")
    assert r.code == 2 and "--stdin" in r.err


@pytest.mark.parametrize(
    "name", ["Weather", "bad-name", "a b", "__names__", "", "x" * 65, "9lives"]
)
def test_names_are_validated(cli, ring, name):
    r = cli("secret", "set", name, "--stdin", stdin="value123\n")
    assert r.code == 2 and "invalid secret name" in r.err and r.err.count("\n") == 1
    assert ring.entries == {}


def test_empty_or_multiline_values_are_refused(ring):
    with pytest.raises(UsageError):
        secrets.set("weather", "   ")
    with pytest.raises(UsageError):
        secrets.set("weather", "one\x00two")
    assert ring.entries == {}


def test_without_a_keyring_one_line_names_the_variable(cli, no_ring, home):
    r = cli("secret", "set", "weather", "--stdin", stdin=SECRET + "\n")
    assert r.code == 1 and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert "no OS keyring" in r.err and "TATLOCK_SECRET_WEATHER" in r.err
    r = cli("secret", "set", "api_key", "--stdin", stdin=SECRET + "\n")
    assert r.code == 1 and "TATLOCK_API_KEY" in r.err
    assert all(SECRET.encode() not in p.read_bytes() for p in home.rglob("*") if p.is_file())
    assert secrets.get("weather") is None  # reading quietly finds nothing


def test_the_environment_stands_in_for_the_keyring(cli, no_ring, monkeypatch):
    monkeypatch.setenv("TATLOCK_SECRET_WEATHER", SECRET)
    assert secrets.get("weather") == SECRET and secrets.where("weather") == "environment"
    r = cli("secret", "get", "weather", "--show")
    assert r.code == 0 and r.out.strip() == SECRET
    assert "weather" in cli("secret", "list").out


def test_environment_wins_over_the_keyring(ring, monkeypatch):
    secrets.set("weather", "from-the-keyring")
    monkeypatch.setenv("TATLOCK_SECRET_WEATHER", SECRET)
    assert secrets.get("weather") == SECRET


def test_a_failing_keyring_is_one_line(cli, home, forget_registered):
    old = keyring.get_keyring()
    keyring.set_keyring(LockedKeyring())
    try:
        r = cli("secret", "set", "weather", "--stdin", stdin=SECRET + "\n")
        assert r.code == 1 and r.err.count("\n") == 1 and "collection is locked" in r.err
        assert "TATLOCK_SECRET_WEATHER" in r.err
        (home / "secret-names").write_text("weather\n")
        with pytest.raises(TatlockError):
            secrets.get("weather")
        monkeypatch_env = {"TATLOCK_SECRET_MAIL": "plainword-mail-333"}
        os.environ.update(monkeypatch_env)
        try:  # at open a broken keyring is skipped; the environment's secrets still count
            assert secrets.known_values() == ("plainword-mail-333",)
        finally:
            del os.environ["TATLOCK_SECRET_MAIL"]
    finally:
        keyring.set_keyring(old)


def test_the_api_key_comes_from_the_keyring(ring, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    assert load().api_key_value() is None
    secrets.set("api_key", SECRET)
    assert load().api_key_value() == SECRET
    assert load().api_key_value() == SECRET  # asked once per load, and once again on the next


def test_a_start_without_secrets_never_loads_keyring(tmp_path):
    """Detecting a keyring backend costs about 0.1 s: a start with no secret set skips it."""
    import subprocess
    import sys

    code = (
        "import sys; from tatlock import config, secrets; c = config.load(); "
        "c.backend = 'openai'; c.api_key_value(); secrets.known_values(c); "
        "print('keyring' in sys.modules)"
    )
    env = {**os.environ, "TATLOCK_HOME": str(tmp_path), "TATLOCK_BACKEND": "openai"}
    env.pop("PYTHON_KEYRING_BACKEND", None)
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_debug_logs_withhold_every_known_secret(cli, served, ring, home, monkeypatch):
    """A secret with no recognisable shape is withheld because tatlock knows its value."""
    secrets.set("weather", "plainword-weather-1")
    secrets.set("search", "plainword-search-22")
    redact._known.clear()  # a new process: only what known_values finds at open
    redact.register_secret()
    monkeypatch.setenv("TATLOCK_SECRET_MAIL", "plainword-mail-333")
    monkeypatch.setenv("TATLOCK_API_KEY", "plainword-apikey-4444")
    values = secrets.known_values(load())
    assert set(values) == {
        "plainword-weather-1",
        "plainword-search-22",
        "plainword-mail-333",
        "plainword-apikey-4444",
    }
    served.queue(direct("Noted, sir."))
    r = cli("ask", "remember plainword-weather-1 and plainword-mail-333 and plainword-apikey-4444")
    assert r.code == 0
    log = (home / "logs" / "conversations" / "tester-1.jsonl").read_text()
    assert "plainword" not in log and "[REDACTED]" in log
    assert any(rec["type"] == "MessageStored" for rec in map(json.loads, log.splitlines()))


def test_secret_help_does_not_import_keyring():
    import subprocess

    code = (
        "import sys; from tatlock.cli import main\ntry: main(['secret', '--help'])\nexcept "
        "SystemExit: pass\n"
        "print('keyring' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().endswith("False")
