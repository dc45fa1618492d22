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
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

APP = "tatlock"
USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


from tatlock.errors import ConfigError, UsageError  # noqa: E402  (re-exported)


def validate_username(name: str) -> str:
    """Return ``name`` if it is a safe username, else raise UsageError.

    Usernames become file names (``users/<name>_longterm.db``), so nothing outside
    ``[a-z0-9_-]`` gets near the file system.
    """
    if not isinstance(name, str) or not USERNAME_RE.fullmatch(name):
        shown = name if name else "(empty)"
        raise UsageError(
            f"invalid username {shown!r}: use 1-32 lowercase letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return name


@dataclass(frozen=True)
class Paths:
    data_dir: Path
    config_dir: Path
    log_dir: Path

    @property
    def system_db(self) -> Path:
        return self.data_dir / "system.db"

    @property
    def users_dir(self) -> Path:
        return self.data_dir / "users"

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def conversation_logs(self) -> Path:
        return self.log_dir / "conversations"

    def user_db(self, username: str) -> Path:
        return self.users_dir / f"{validate_username(username)}_longterm.db"

    def user_dir(self, username: str) -> Path:
        """Per-user folder for files beside the database (summaries as markdown)."""
        return self.users_dir / validate_username(username)

    @classmethod
    def resolve(cls, env: dict[str, str] | None = None) -> "Paths":
        home = (os.environ if env is None else env).get("TATLOCK_HOME")
        if home:
            root = Path(home).expanduser()
            return cls(root, root, root / "logs")
        import platformdirs

        return cls(
            Path(platformdirs.user_data_dir(APP, appauthor=False)),
            Path(platformdirs.user_config_dir(APP, appauthor=False)),
            Path(platformdirs.user_log_dir(APP, appauthor=False)),
        )


def _default_user() -> str:
    try:
        name = getpass.getuser().lower()
    except Exception:  # no login name (containers)
        name = ""
    return name if USERNAME_RE.fullmatch(name) else "owner"


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
    timeout: float = 120.0  # seconds for one model call
    keep_alive: str = "30m"
    tier: str | None = None  # force "low" | "medium" | "high"
    compact_interval: int | None = None  # None: by tier
    context_size: int | None = None  # None: from the server, else by tier
    anchor_id: str | None = None  # None: the user
    anchor_name: str | None = None
    tool_timeout: float = 20.0
    tool_rounds: int = 3
    timezone: str | None = None  # IANA name; None: the system's
    source: dict[str, str] = field(default_factory=dict)  # field -> where it came from

    ENV = {
        "user": "TATLOCK_USER",
        "backend": "TATLOCK_BACKEND",
        "model": "TATLOCK_MODEL",
        "ollama_host": "OLLAMA_HOST",
        "base_url": "TATLOCK_BASE_URL",
        "api_key": "TATLOCK_API_KEY",
        "vision_model": "TATLOCK_VISION_MODEL",
        "timeout": "TATLOCK_TIMEOUT",
        "keep_alive": "TATLOCK_KEEP_ALIVE",
        "tier": "TATLOCK_TIER",
        "compact_interval": "TATLOCK_COMPACT_INTERVAL",
        "context_size": "TATLOCK_CONTEXT_SIZE",
        "anchor_id": "TATLOCK_ANCHOR_ID",
        "anchor_name": "TATLOCK_ANCHOR_NAME",
        "tool_timeout": "TATLOCK_TOOL_TIMEOUT",
        "tool_rounds": "TATLOCK_TOOL_ROUNDS",
        "timezone": "TATLOCK_TIMEZONE",
    }

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

    def hardware_tier(self):
        from tatlock.hardware import current_tier

        return current_tier(self.tier)[0]

    @property
    def model_name(self) -> str:
        return self.effective("model")

    def api_key_value(self) -> str | None:
        """The API key for OpenAI-compatible servers: env/config, else the OS keyring."""
        if self.api_key:
            return self.api_key
        try:
            import keyring

            return keyring.get_password(APP, self.base_url)
        except Exception:  # no keyring backend on a headless box: no key
            return None


def _coerce(name: str, raw: Any, typ: str) -> Any:
    if raw is None:
        return None
    try:
        if "int" in typ and "float" not in typ:
            return int(raw)
        if "float" in typ:
            return float(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"setting {name!r} must be a number, not {raw!r}") from None
    return str(raw)


def _normalise_host(host: str) -> str:
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    if re.fullmatch(r"https?://[^/:]+", host):
        host += ":11434"
    return host


def load(env: dict[str, str] | None = None, paths: Paths | None = None) -> Config:
    """Read config.toml (if any) and the environment."""
    env = dict(os.environ if env is None else env)
    paths = paths or Paths.resolve(env)
    file_values: dict[str, Any] = {}
    if paths.config_file.exists():
        try:
            with open(paths.config_file, "rb") as fh:
                file_values = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{paths.config_file} is not valid TOML: {exc}") from None
        except OSError as exc:
            raise ConfigError(f"cannot read {paths.config_file}: {exc.strerror}") from None
    cfg = Config(paths=paths)
    types = {f.name: str(f.type) for f in fields(Config)}
    known = set(Config.ENV)
    unknown = sorted(set(file_values) - known)
    if unknown:
        raise ConfigError(
            f"{paths.config_file}: unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    for name, var in Config.ENV.items():
        if name in file_values:
            setattr(cfg, name, _coerce(name, file_values[name], types[name]))
            cfg.source[name] = str(paths.config_file)
        if env.get(var):
            setattr(cfg, name, _coerce(name, env[var], types[name]))
            cfg.source[name] = f"${var}"
    cfg.ollama_host = _normalise_host(cfg.ollama_host)
    if cfg.backend not in ("ollama", "openai"):
        raise ConfigError(f"backend must be 'ollama' or 'openai', not {cfg.backend!r}")
    validate_username(cfg.user)
    return cfg
