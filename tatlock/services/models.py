"""The model server and the model: status (reachable, version, pulled), the list, and pulls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tatlock.errors import BackendError, ConfigError
from tatlock.events import PullProgress
from tatlock.llm.base import Cancel
from tatlock.services.base import Core


@dataclass
class ModelStatus:
    backend: str  # ollama | openai
    where: str  # the server's address
    model: str
    tier: str
    tier_reason: str
    reachable: bool = False
    version: str | None = None
    available: bool = False  # the model is on the server (pulled / loaded)
    models: list[str] = field(default_factory=list)
    context: int | None = None  # the model's context window, as the server reports it
    problem: str | None = None  # what is wrong, in one sentence
    hint: str | None = None  # what to do about it

    @property
    def ok(self) -> bool:
        return self.reachable and self.available


class Models:
    def __init__(self, core: Core):
        self._core = core

    def tier(self) -> tuple[str, str]:
        """(tier name, why it was chosen)."""
        try:
            tier = self._core.cfg.hardware_tier()
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return tier.name, tier.reason

    def status(self, model: str | None = None) -> ModelStatus:
        """Asks the server; never raises for a server that is down (``reachable`` is False)."""
        core = self._core
        name = model or core.model
        tier, reason = self.tier()
        backend = core.new_backend(name)
        st = ModelStatus(core.cfg.backend, backend.where, name, tier, reason)
        try:
            st.version = backend.version()
            st.reachable = True
            st.models = backend.models()
        except BackendError as exc:
            st.problem, st.hint = exc.message, exc.hint
            return st
        if core.cfg.backend == "openai":
            st.available = bool(st.models)  # the server serves what it loaded, whatever its name
        else:
            st.available = name in st.models or f"{name}:latest" in st.models
        if not st.available:
            st.problem = f"the model {name} is not on the server"
            st.hint = f"pull it with `ollama pull {name}`" if core.cfg.backend == "ollama" else "load it in the server"
            return st
        try:
            st.context = backend.context_length()
        except BackendError:
            pass
        return st

    def list(self) -> list[str]:
        return self._core.new_backend().models()

    def pull(self, model: str | None = None, *, on_progress: Callable[[PullProgress], None] | None = None,
             cancel: Cancel | None = None) -> None:
        """Download a model through Ollama (default: the configured or tier's model); progress
        goes to ``on_progress`` and to every subscriber as PullProgress events."""
        core = self._core
        name = model or core.model
        backend = core.new_backend(name)

        def progress(p: PullProgress) -> None:
            if on_progress is not None:
                on_progress(p)
            core.publish(p)

        backend.pull(name, progress, cancel=cancel)
