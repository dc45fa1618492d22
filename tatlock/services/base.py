"""What the services need from the core (the Butler satisfies it), so that they never import it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, Protocol

from tatlock.config import Config, Paths
from tatlock.events import Event
from tatlock.llm.base import Backend
from tatlock.memory.tokens import Estimator
from tatlock.store.system import SystemStore
from tatlock.store.user import Author, UserStore


class Core(Protocol):
    cfg: Config
    paths: Paths
    username: str
    interface: str
    system: SystemStore
    secrets: tuple[str, ...]
    clock: Callable[[], dt.datetime]

    @property
    def store(self) -> UserStore: ...

    @property
    def model(self) -> str: ...

    def new_backend(self, model: str | None = None) -> Backend: ...

    def budget(self) -> int: ...

    @property
    def estimator(self) -> Estimator: ...

    def summary_options(self) -> dict[str, Any]: ...

    def anchor(self) -> Author: ...

    def publish(self, event: Event) -> None: ...

    def schedule_compaction(self, conversation_id: int, turn_id: str = "") -> None: ...

    @property
    def conversations(self) -> Any: ...
