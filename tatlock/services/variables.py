"""Personal variables: facts about the user (location, birthday...), with who stated them."""

from __future__ import annotations

from typing import Callable

from tatlock.errors import NotFound
from tatlock.store.user import UserStore, Variable
from tatlock.text import valid_text


class Variables:
    def __init__(self, store: Callable[[], UserStore], anchor_id: Callable[[], str]):
        self._store = store
        self._anchor_id = anchor_id

    def list(self) -> list[Variable]:
        return self._store().vars()

    def get(self, key: str) -> Variable:
        var = self._store().var(key)
        if var is None:
            raise NotFound(f"no personal variable {key!r}", kind="variable")
        return var

    def value(self, key: str) -> str | None:
        return self._store().get_var(key)

    def set(self, key: str, value: str, *, author_id: str | None = None) -> Variable:
        """Set by hand (``source_message_id`` none), attributed to the Anchor unless told otherwise."""
        store = self._store()
        store.set_var(valid_text(key), valid_text(value), author_id=author_id or self._anchor_id())
        return self.get(key)

    def unset(self, key: str) -> Variable:
        var = self.get(key)
        self._store().unset_var(key)
        return var
