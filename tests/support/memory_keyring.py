"""A tiny in-memory keyring backend: the real ``keyring`` API and code paths, no OS store.

Select it with ``keyring.set_keyring(MemoryKeyring())`` or
``PYTHON_KEYRING_BACKEND=support.memory_keyring.MemoryKeyring`` (with tests/ on PYTHONPATH).
"""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.entries[(service, username)]
        except KeyError:
            raise PasswordDeleteError("Password not found") from None


class LockedKeyring(MemoryKeyring):
    """A keyring that is there but refuses (a locked collection, D-Bus gone away)."""

    def get_password(self, service: str, username: str) -> str | None:
        raise RuntimeError("the collection is locked\nsecond line of detail")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise RuntimeError("the collection is locked\nsecond line of detail")
