"""What tatlock knows about its owner and their world: the kept facts (``butler.facts``, also
``butler.variables``, the name personal variables had before they were facts). See
``memory/facts.py`` for the model: each fact is the current value of one key, with whom it is
about, who said it and where; a new value supersedes the old one, which is kept as history."""

from __future__ import annotations

import builtins
from collections.abc import Callable

from tatlock.errors import NotFound
from tatlock.memory import facts as kept
from tatlock.store.user import PastValue, UserStore, Variable
from tatlock.text import valid_text


class Variables:
    def __init__(
        self,
        store: Callable[[], UserStore],
        anchor_id: Callable[[], str],
        owner: Callable[[], str] | None = None,
    ):
        self._store = store
        self._anchor_id = anchor_id
        self._owner = owner or anchor_id

    def list(self) -> list[Variable]:
        """Every kept fact, by key."""
        return self._store().vars()

    def get(self, key: str) -> Variable:
        var = self._store().var(key)
        if var is None:
            raise NotFound(f"no personal variable {key!r}", kind="variable")
        return var

    def value(self, key: str) -> str | None:
        return self._store().get_var(key)

    def set(
        self, key: str, value: str, *, author_id: str | None = None, about: str | None = None
    ) -> Variable:
        """Set (or edit) by hand (``source_message_id`` none), attributed to the Anchor unless told
        otherwise; the value it replaces is kept as history. An edit keeps whom the fact is
        about."""
        store = self._store()
        old = store.var(key)
        who = author_id or self._anchor_id()
        store.set_var(
            valid_text(key),
            valid_text(value),
            author_id=who,
            author_name=self._owner() if who == self._anchor_id() else None,
            about=about or (old.about if old else "owner"),
            attribute=old.attribute if old else None,
            origin="hand",
        )
        return self.get(key)

    edit = set

    def unset(self, key: str) -> Variable:
        """Forget a fact: its value and its history."""
        var = self.get(key)
        self._store().unset_var(key)
        return var

    forget = unset

    def history(
        self, key: str | None = None, *, superseded_only: bool = True
    ) -> builtins.list[PastValue]:
        """Earlier values, newest first (of one fact, or of all): by default only those a
        different value replaced, not the same value said again."""
        if (
            key is not None
            and self._store().var(key) is None
            and not self._store().var_history(key)
        ):
            raise NotFound(f"no personal variable {key!r}", kind="variable")
        return self._store().var_history(key, superseded_only=superseded_only)

    def answering(
        self, question: str, *, speaker: str | None = None, limit: int = 5
    ) -> builtins.list[Variable]:
        """Which kept facts answer ``question``, best first (none when nothing points at one).
        ``speaker``: the name of a guest asking, so that "my" means theirs."""
        return kept.answering(
            self.list(), question, owner=self._owner(), speaker=speaker, limit=limit
        )

    def line(self, fact: Variable) -> str:
        """A fact as the prompt shows it: "Hannah's sister's name: Harriet"."""
        return kept.line(fact, self._owner())
