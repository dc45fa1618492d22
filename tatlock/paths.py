"""Where tatlock keeps its files, and the one check that lets a username near them.

``TATLOCK_HOME=/some/dir`` puts everything in one folder (``system.db``, ``users/``,
``logs/``, ``config.toml``); otherwise the platform's data, config and log folders are
used (platformdirs).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from tatlock.errors import UsageError

APP = "tatlock"
USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


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
    def folders(self) -> list[Path]:
        """tatlock's own folders (one, or the same, when TATLOCK_HOME is set): nothing in them is
        ever tool input or an export's destination."""
        return [self.data_dir, self.config_dir, self.log_dir]

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

    def mcp_token(self, username: str) -> Path:
        """The user's bearer token for MCP over HTTP (see tatlock/mcp/credentials.py)."""
        return self.config_dir / "mcp" / f"{validate_username(username)}.token"

    def user_dir(self, username: str) -> Path:
        """Per-user folder for files beside the database (summaries as markdown)."""
        return self.users_dir / validate_username(username)

    @classmethod
    def resolve(cls, env: dict[str, str] | None = None) -> Paths:
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
