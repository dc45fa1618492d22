"""Paths and settings: read in one place.

Precedence for every setting: environment variable > config.toml > built-in default
(the hardware tier supplies the defaults for model, compaction interval and context size).

``TATLOCK_HOME=/some/dir`` puts everything in one folder (``system.db``, ``users/``,
``logs/``, ``config.toml``); otherwise the platform's data, config and log folders are
used (platformdirs).
"""

from __future__ import annotations

import getpass
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tatlock.errors import ConfigError, UsageError
from tatlock.paths import APP, USERNAME_RE, Paths, validate_username

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.hardware import Tier

# re-exported: callers take the paths, the user-name check and the config error from here
__all__ = [
    "APP",
    "USERNAME_RE",
    "ConfigError",
    "Paths",
    "UsageError",
    "validate_username",
]


def _login_user() -> tuple[str, str]:
    """The default user (the login name when it is a valid username, else "owner") and how it
    was chosen, so that `owner` can be explained."""
    try:
        login = getpass.getuser()
    except Exception:  # no login name (containers)
        login = ""
    if USERNAME_RE.fullmatch(login.lower()):
        return login.lower(), "login name"
    if not login:
        return "owner", "default: there is no login name, so the user is 'owner'"
    return (
        "owner",
        f"default: your login name {login!r} is not a valid tatlock username, so the user is "
        f"'owner'",
    )


def _default_user() -> str:
    return _login_user()[0]


# (field, env var, type) — documented in README under "Configuration"
@dataclass
class Config:
    paths: Paths
    user: str = field(default_factory=_default_user)
    # "ollama" (native API) or "openai" (any OpenAI-compatible server)
    backend: str = "ollama"
    model: str | None = None  # None: the hardware tier's model
    ollama_host: str = "http://127.0.0.1:11434"
    base_url: str = "http://127.0.0.1:8080/v1"  # OpenAI-compatible servers
    api_key: str | None = None  # OpenAI-compatible; else keyring, else none
    vision_model: str | None = None
    # semantic recall: the embedding model on the same server ("off": keyword search alone)
    embedding_model: str = "all-minilm"
    timeout: float = 120.0  # seconds for one model call
    keep_alive: str = "30m"
    tier: str | None = None  # force "low" | "medium" | "high"
    compact_interval: int | None = None  # None: by tier
    # where a direct answer is written: "json" (inside the assessment, streamed as it is generated)
    # or "plain" (a short routing call, then the answer as plain text); None: by tier
    answer_form: str | None = None
    context_size: int | None = None  # None: from the server, else by tier
    anchor_id: str | None = None  # None: the user
    anchor_name: str | None = None
    tool_timeout: float = 20.0
    tool_rounds: int = 3
    timezone: str | None = None  # IANA name; None: the system's
    # folders analyze_file may read; None: the current folder, ~/Documents, ~/Downloads
    allowed_paths: tuple[str, ...] | None = None
    # the TUI's colour theme (Textual's name); the TUI saves the one you pick
    theme: str | None = None
    # summaries (compaction, briefings): "background" never delays an answer or an exit;
    # "foreground": `tatlock ask` (and a closing program) finishes them before it exits;
    # "off": none is made by itself (`tatlock memory compact` still makes them)
    housekeeping: str = "background"
    source: dict[str, str] = field(default_factory=dict)  # field -> where it came from

    ENV: ClassVar[dict[str, str]] = {
        "user": "TATLOCK_USER",
        "backend": "TATLOCK_BACKEND",
        "model": "TATLOCK_MODEL",
        "ollama_host": "OLLAMA_HOST",
        "base_url": "TATLOCK_BASE_URL",
        "api_key": "TATLOCK_API_KEY",
        "vision_model": "TATLOCK_VISION_MODEL",
        "embedding_model": "TATLOCK_EMBEDDING_MODEL",
        "timeout": "TATLOCK_TIMEOUT",
        "keep_alive": "TATLOCK_KEEP_ALIVE",
        "tier": "TATLOCK_TIER",
        "compact_interval": "TATLOCK_COMPACT_INTERVAL",
        "answer_form": "TATLOCK_ANSWER_FORM",
        "context_size": "TATLOCK_CONTEXT_SIZE",
        "anchor_id": "TATLOCK_ANCHOR_ID",
        "anchor_name": "TATLOCK_ANCHOR_NAME",
        "tool_timeout": "TATLOCK_TOOL_TIMEOUT",
        "tool_rounds": "TATLOCK_TOOL_ROUNDS",
        "timezone": "TATLOCK_TIMEZONE",
        "allowed_paths": "TATLOCK_ALLOWED_PATHS",
        "theme": "TATLOCK_THEME",
        "housekeeping": "TATLOCK_HOUSEKEEPING",
    }

    def user_explanation(self) -> str | None:
        """Why the user is 'owner' when nobody chose it (the login name is not a valid username),
        with how to choose another; None when the user was chosen or is the login name."""
        why = self.source.get("user", "")
        if not why.startswith("default: "):
            return None
        return (
            why.removeprefix("default: ") + "; set TATLOCK_USER or `user` in config.toml to "
            "choose a name "
            "(lowercase letters, digits, '-' or '_')"
        )

    @property
    def anchor(self) -> str:
        return self.anchor_id or self.user

    def effective(self, name: str) -> Any:
        """A tier-dependent setting: the explicit value, else the tier's default."""
        value = getattr(self, name)
        if value is not None:
            return value
        tier = self.hardware_tier()
        return getattr(tier, name)

    def hardware_tier(self) -> Tier:
        from tatlock.hardware import current_tier, tier_by_name

        if self.tier and self.tier.strip().lower() != "auto":
            # chosen explicitly: no need to detect the hardware on every start
            return tier_by_name(self.tier)
        return current_tier(self.tier)[0]

    @property
    def model_name(self) -> str:
        return str(self.effective("model"))

    def api_key_value(self) -> str | None:
        """The API key for OpenAI-compatible servers: env/config, else the keyring secret
        ``api_key`` (``tatlock secret set api_key``). The keyring is asked only when a secret was
        set through tatlock: detecting its backend costs about 0.1 s of every start."""
        if self.api_key:
            return self.api_key
        if "api_key" in self.source:  # asked already (None: there is none)
            return None
        from tatlock import secrets

        key = None
        try:
            key = secrets.get("api_key", paths=self.paths)
        except Exception:  # a locked or broken keyring: no key (the server will say so)
            key = None
        if key:
            self.api_key = key
            self.source["api_key"] = "the OS keyring (tatlock secret api_key)"
        else:
            self.source["api_key"] = "none"
        return key


# -- validation: every setting is checked at load, before anything is stored --------------

TIERS = ("low", "medium", "high", "auto")
BACKENDS = ("ollama", "openai")
HOUSEKEEPING = ("background", "foreground", "off")
ANSWER_FORMS = ("json", "plain")
# Ollama's keep_alive: seconds ("300", "-1" forever, "0" unload at once) or a Go duration
_KEEP_ALIVE_RE = re.compile(r"-?\d+(\.\d+)?|-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # and bytes that were not UTF-8
INT_RANGES = {
    "compact_interval": (2, 10_000),
    "context_size": (512, 2_097_152),
    "tool_rounds": (1, 10),
}
# above the first, at most the second
FLOAT_RANGES = {"timeout": (0.0, 3600.0), "tool_timeout": (0.0, 600.0)}
ALLOWED_TEXT = {
    "backend": "ollama or openai",
    "tier": "low, medium, high or auto",
    "answer_form": "json (the answer inside the assessment) or plain (a routing call, then the "
    "answer)",
    "keep_alive": "seconds (300; -1 keeps the model loaded, 0 unloads it) or a duration such as 30m "
    "or 1h",
    "ollama_host": "an http(s) URL such as http://127.0.0.1:11434",
    "base_url": "an http(s) URL such as http://127.0.0.1:8080/v1",
    "timezone": "an IANA time zone such as Europe/London or America/New_York",
    "embedding_model": "an embedding model's name such as all-minilm (no spaces), or off",
    "housekeeping": "background, foreground or off",
}


class _Bad(Exception):
    """A value is not allowed; the message says what is."""


def _shown(raw: Any) -> str:
    text = repr(raw)
    return text if len(text) <= 80 else text[:76] + "...'"


def _number(name: str, raw: Any) -> int | float:
    from_env = isinstance(raw, str)
    if name in INT_RANGES:
        lo, hi = INT_RANGES[name]
        allowed = f"a whole number from {lo} to {hi}"
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise _Bad(allowed)
        try:
            number = int(raw.strip()) if isinstance(raw, str) else int(raw)
        except (ValueError, OverflowError):
            raise _Bad(allowed) from None
        if (not from_env and raw != number) or not lo <= number <= hi:
            raise _Bad(allowed)
        return number
    flo, fhi = FLOAT_RANGES[name]
    allowed = f"a number of seconds above {flo:g} and at most {fhi:g}"
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise _Bad(allowed)
    try:
        seconds = float(raw)
    except ValueError:
        raise _Bad(allowed) from None
    if not flo < seconds <= fhi:  # also refuses nan and inf
        raise _Bad(allowed)
    return seconds


def _coerce(name: str, raw: Any) -> Any:
    """``raw`` (a TOML value or an environment string) as the setting's type."""
    if name in INT_RANGES or name in FLOAT_RANGES:
        return _number(name, raw)
    if name == "allowed_paths":
        if isinstance(raw, str):
            entries = raw.split(os.pathsep)
        elif isinstance(raw, list) and all(isinstance(e, str) for e in raw):
            entries = raw
        else:
            raise _Bad('a list of folders, e.g. ["~/Documents", "."]')
        return tuple(e.strip() for e in entries)
    if name == "keep_alive" and isinstance(raw, (int, float)) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str):
        raise _Bad(ALLOWED_TEXT.get(name, "text"))
    value = raw.strip()
    if _CONTROL_RE.search(value) or len(value) > 4096:
        raise _Bad("one line of text without control characters")
    return value


def _check(cfg: Config, name: str) -> None:
    """Raise _Bad when the (coerced) value of setting ``name`` is not allowed."""
    value = getattr(cfg, name)
    if name == "backend" and value not in BACKENDS:
        raise _Bad(ALLOWED_TEXT[name])
    if name == "housekeeping" and value not in HOUSEKEEPING:
        raise _Bad(ALLOWED_TEXT[name])
    if name == "answer_form" and value not in ANSWER_FORMS:
        raise _Bad(ALLOWED_TEXT[name])
    if name == "tier":
        if value.lower() not in TIERS:
            raise _Bad(ALLOWED_TEXT[name])
        cfg.tier = value.lower()
    elif name == "keep_alive" and not _KEEP_ALIVE_RE.fullmatch(value):
        raise _Bad(ALLOWED_TEXT[name])
    elif name in ("ollama_host", "base_url"):
        _check_url(name, value)
    elif name == "timezone":
        from zoneinfo import ZoneInfo

        try:
            ZoneInfo(value)
        except Exception:  # not found, a folder ("America"), a path, a NUL: all just "not a zone"
            raise _Bad(ALLOWED_TEXT[name]) from None
    elif name == "user" and not USERNAME_RE.fullmatch(value):
        raise _Bad("1-32 lowercase letters, digits, '-' or '_', starting with a letter or digit")
    elif name in ("model", "vision_model") and (
        not value or any(c.isspace() for c in value) or len(value) > 300
    ):
        raise _Bad("a model name such as llama3.2:3b (no spaces)")
    elif name == "embedding_model" and (
        not value or any(c.isspace() for c in value) or len(value) > 300
    ):
        raise _Bad(ALLOWED_TEXT[name])
    elif name in ("anchor_id", "anchor_name") and not 1 <= len(value) <= 100:
        raise _Bad("1 to 100 characters")
    elif name == "allowed_paths":
        from tatlock.bounds import check_entry

        private = [cfg.paths.data_dir, cfg.paths.config_dir, cfg.paths.log_dir]
        for entry in value:
            why = check_entry(entry, private)
            if why:
                raise _Bad(f"folders tatlock may read, and {_shown(entry)} is {why}")


def _check_url(name: str, value: str) -> None:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError as exc:
        raise _Bad(f"{ALLOWED_TEXT[name]} ({exc})") from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or any(c.isspace() for c in value)
    ):
        raise _Bad(ALLOWED_TEXT[name])


def _normalise_host(host: str) -> str:
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    if re.fullmatch(r"https?://[^/:]+", host):
        host += ":11434"
    return host


def _read_file(path: Path) -> dict[str, Any]:
    if not path.exists() and not path.is_symlink():
        return {}
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}", kind="config_file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
            "save it as UTF-8",
            kind="config_file",
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None


def load(env: dict[str, str] | None = None, paths: Paths | None = None) -> Config:
    """Read config.toml (if any) and the environment. Every setting is validated here: the
    first bad one raises one ConfigError line naming it, its value and what is allowed."""
    env = dict(os.environ if env is None else env)
    paths = paths or Paths.resolve(env)
    return _settle(paths, _read_file(paths.config_file), env)


def check_file_text(paths: Paths, text: str) -> dict[str, Any]:
    """The settings of a would-be config.toml holding ``text``, checked as loading checks them
    (the environment aside): the ConfigError is the line loading that file would give."""
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{paths.config_file} is not valid TOML: {exc}") from None
    _settle(paths, values, {})
    return values


def _settle(paths: Paths, file_values: dict[str, Any], env: dict[str, str]) -> Config:
    known = set(Config.ENV)
    unknown = sorted(set(file_values) - known)
    if unknown:
        raise ConfigError(
            f"{paths.config_file}: unknown setting {unknown[0]!r} (known: "
            f"{', '.join(sorted(known))})",
            kind="config_file",
        )
    cfg = Config(paths=paths)
    cfg.user, cfg.source["user"] = _login_user()
    for name, var in Config.ENV.items():
        for raw, where in (
            (file_values.get(name), str(paths.config_file)),
            (env.get(var) or None, f"${var}"),
        ):
            if raw is None:
                continue
            try:
                value = _coerce(name, raw)
                setattr(cfg, name, _normalise_host(value) if name == "ollama_host" else value)
                _check(cfg, name)
            except _Bad as exc:
                shown = (
                    f"{var}={_shown(raw)}"
                    if where.startswith("$")
                    else f"{name} = {_shown(raw)} in {where}"
                )
                raise ConfigError(
                    f"{shown}: {name} must be {exc}",
                    kind=None if where.startswith("$") else "config_file",
                ) from None
            cfg.source[name] = where
    if "ollama_host" not in cfg.source:
        cfg.ollama_host = _normalise_host(cfg.ollama_host)
    return cfg


def toml_value(name: str, words: list[str]) -> str:
    """A setting given on the command line (as the environment would give it) as TOML text:
    numbers as numbers, ``allowed_paths`` as a list (several words, or one ``:``-separated),
    everything else as a string. What is not a number stays a string, for validation to refuse."""
    import json
    import math

    if name == "allowed_paths":
        entries = [e for w in words for e in w.split(os.pathsep)]
        return (
            "["
            + ", ".join(json.dumps(e.strip(), ensure_ascii=False) for e in entries if e.strip())
            + "]"
        )
    text = " ".join(words).strip()
    if name in INT_RANGES:
        try:
            return str(int(text.strip()))
        except ValueError:
            pass
    if name in FLOAT_RANGES:
        try:
            number = float(text)
        except ValueError:
            pass
        else:
            if math.isfinite(number):
                return repr(number) if number != int(number) else str(int(number))
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def save_setting(paths: Paths, name: str, value: str) -> None:
    """Write one text setting into config.toml, keeping every other line (comments included):
    its line is replaced, or one is added before the first table. The file is written whole or
    not at all (see configfile); one that is not TOML is left as it was (ConfigError)."""
    import json

    from tatlock import configfile

    if name not in Config.ENV:
        raise UsageError(f"unknown setting {name!r}")
    path = paths.config_file
    new = configfile.with_setting(
        configfile.read(path), name, json.dumps(str(value), ensure_ascii=False)
    )
    try:
        tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:  # a file we cannot safely edit is left as it was
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    configfile.write(path, new)
