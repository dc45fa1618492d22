"""Settings are validated when they are loaded: one line naming the setting, the bad value and
what is allowed, raised before anything is stored; config.toml that is not UTF-8 or not TOML is
one line naming the file."""

from __future__ import annotations

import pytest

from tatlock import config
from tatlock.errors import ConfigError

BAD_ENV = [
    ("TATLOCK_TIER", "huge", "low, medium, high or auto"),
    ("TATLOCK_COMPACT_INTERVAL", "0", "from 2 to"),
    ("TATLOCK_COMPACT_INTERVAL", "ten", "whole number"),
    ("TATLOCK_CONTEXT_SIZE", "10", "from 512 to"),
    ("TATLOCK_CONTEXT_SIZE", "99999999999", "from 512 to"),
    ("TATLOCK_TIMEOUT", "-1", "above 0"),
    ("TATLOCK_TIMEOUT", "0", "above 0"),
    ("TATLOCK_TIMEOUT", "nan", "above 0"),
    ("TATLOCK_TIMEOUT", "1e9", "at most 3600"),
    ("TATLOCK_TOOL_TIMEOUT", "soon", "number of seconds"),
    ("TATLOCK_TOOL_ROUNDS", "0", "from 1 to 10"),
    ("TATLOCK_TOOL_ROUNDS", "2.5", "whole number"),
    ("TATLOCK_KEEP_ALIVE", "forever", "duration such as 30m"),
    ("TATLOCK_BACKEND", "claude", "ollama or openai"),
    ("OLLAMA_HOST", "http://[::1", "Invalid IPv6 URL"),
    ("OLLAMA_HOST", "ftp://example.org", "http(s) URL"),
    ("OLLAMA_HOST", "localhost:99999", "Port out of range"),
    ("TATLOCK_BASE_URL", "not a url", "http(s) URL"),
    ("TATLOCK_TIMEZONE", "Mars/Olympus_Mons", "IANA time zone"),
    ("TATLOCK_TIMEZONE", "America", "IANA time zone"),
    ("TATLOCK_TIMEZONE", "../../etc/passwd", "IANA time zone"),
    ("TATLOCK_USER", "John.Smith", "lowercase letters"),
    ("TATLOCK_USER", "../../etc", "lowercase letters"),
    ("TATLOCK_MODEL", "llama 3", "no spaces"),
    ("TATLOCK_ALLOWED_PATHS", "relative/dir", "absolute path"),
    ("TATLOCK_ALLOWED_PATHS", "/definitely/not/here", "not an existing folder"),
    ("TATLOCK_ALLOWED_PATHS", "~/.ssh", "credentials"),
    ("TATLOCK_ALLOWED_PATHS", "/", "whole file system"),
    ("TATLOCK_ANCHOR_NAME", "x" * 101, "1 to 100 characters"),
]


@pytest.mark.parametrize("var,value,allowed", BAD_ENV, ids=[f"{v}={x[:12]}" for v, x, _ in BAD_ENV])
def test_bad_environment_values_are_one_line(monkeypatch, var, value, allowed):
    monkeypatch.setenv(var, value)
    with pytest.raises(ConfigError) as exc:
        config.load()
    msg = str(exc.value)
    assert "\n" not in msg and f"{var}={value[:20]!r}"[:-1] in msg and allowed in msg


GOOD_ENV = [
    ("TATLOCK_TIER", "HIGH", "tier", "high"),
    ("TATLOCK_TIER", "auto", "tier", "auto"),
    ("TATLOCK_KEEP_ALIVE", "-1", "keep_alive", "-1"),
    ("TATLOCK_KEEP_ALIVE", "1h30m", "keep_alive", "1h30m"),
    ("TATLOCK_TIMEOUT", " 2.5 ", "timeout", 2.5),
    ("OLLAMA_HOST", "gpu-box", "ollama_host", "http://gpu-box:11434"),
    ("OLLAMA_HOST", "http://[::1]:11434", "ollama_host", "http://[::1]:11434"),
    ("TATLOCK_TIMEZONE", "Europe/London", "timezone", "Europe/London"),
    ("TATLOCK_COMPACT_INTERVAL", "2", "compact_interval", 2),
]


@pytest.mark.parametrize("var,value,name,expected", GOOD_ENV)
def test_good_values_load(monkeypatch, var, value, name, expected):
    monkeypatch.setenv(var, value)
    cfg = config.load()
    assert getattr(cfg, name) == expected and cfg.source[name] == f"${var}"


def write_config(home, data: bytes) -> None:
    (home / "config.toml").write_bytes(data)


@pytest.mark.parametrize(
    "text,needle",
    [
        (b'tier = "huge"\n', "tier = 'huge' in"),
        (b"compact_interval = 1\n", "compact_interval = 1 in"),
        (b"tool_rounds = 2.5\n", "whole number"),
        (b"timeout = true\n", "number of seconds"),
        (b'model = ["a", "b"]\n', "model = ['a', 'b'] in"),
        (b"allowed_paths = 3\n", "a list of folders"),
        (b'timezone = "Nowhere/Special"\n', "IANA time zone"),
        (b'colour = "blue"\n', "unknown setting 'colour'"),
    ],
)
def test_bad_config_file_values_name_the_file(home, text, needle):
    write_config(home, text)
    with pytest.raises(ConfigError) as exc:
        config.load()
    msg = str(exc.value)
    assert "\n" not in msg and needle in msg and str(home / "config.toml") in msg


def test_config_file_that_is_not_utf8_or_not_toml(home):
    write_config(home, 'model = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(
        ConfigError,
        match=r"config\.toml is not UTF-8 text \(byte 0xe9 at offset "
        r"12\)",
    ):
        config.load()
    write_config(home, b"model = \n")
    with pytest.raises(ConfigError, match=r"config\.toml is not valid TOML: .*line 1"):
        config.load()


def test_environment_wins_and_both_are_checked(home, monkeypatch):
    monkeypatch.delenv("TATLOCK_TIER")
    write_config(home, b'tier = "medium"\nkeep_alive = 300\nallowed_paths = ["."]\n')
    cfg = config.load()
    assert (cfg.tier, cfg.keep_alive, cfg.allowed_paths) == ("medium", "300", (".",))
    monkeypatch.setenv("TATLOCK_TIER", "high")
    assert config.load().tier == "high"
    # a bad file value is refused even when the env overrides it
    write_config(home, b'tier = "huge"\n')
    with pytest.raises(ConfigError):
        config.load()


def test_the_default_user_is_explained(monkeypatch):
    import getpass

    monkeypatch.delenv("TATLOCK_USER")
    monkeypatch.setattr(getpass, "getuser", lambda: "John.Smith")
    cfg = config.load()
    assert cfg.user == "owner" and "John.Smith" in cfg.source["user"]


@pytest.mark.parametrize(
    "env",
    [
        {"TATLOCK_TIER": "huge"},
        {"TATLOCK_COMPACT_INTERVAL": "0"},
        {"OLLAMA_HOST": "http://[::1"},
        {"TATLOCK_TIMEOUT": "-1"},
    ],
)
def test_a_bad_setting_stops_ask_before_anything_is_stored(tatlock_proc, home, env):
    r = tatlock_proc("ask", "What is the capital of France?", env=env)
    assert r.code == 2 and r.out == "" and "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1 and next(iter(env)) in r.err
    assert not (home / "users").exists() and not (home / "system.db").exists()
