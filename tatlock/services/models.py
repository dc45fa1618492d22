"""The model server and the model: status (reachable, version, pulled), the list, and pulls."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from tatlock.config import Config
from tatlock.errors import BackendError, ConfigError, UsageError
from tatlock.events import PullProgress
from tatlock.llm.base import Backend, Cancel
from tatlock.llm.factory import make_backend
from tatlock.memory.tokens import Estimator
from tatlock.services.base import Core
from tatlock.store.user import Conversation
from tatlock.text import inert_line


@dataclass
class ModelStatus:
    backend: str  # ollama | openai
    where: str  # the server's address
    model: str
    tier: str
    tier_reason: str
    reachable: bool = False
    version: str | None = None
    available: bool = False  # the model can answer: on the server's list (or see ``note``)
    listed: bool = False  # the server lists the model by this name
    models: list[str] = field(default_factory=list)  # what the server lists
    note: str | None = None  # how a model the server does not list can answer all the same
    context: int | None = None  # the model's context window, as the server reports it
    problem: str | None = None  # what is wrong, in one sentence
    hint: str | None = None  # what to do about it
    # the BackendError's kind ("unreachable", "auth"...), or "model" when it is missing
    kind: str | None = None

    @property
    def ok(self) -> bool:
        return self.reachable and self.available


def model_name(model: object) -> str:
    """A model name as config.toml's ``model`` takes it (one word)."""
    name = str(model or "").strip()
    if not name or len(name) > 300 or any(c.isspace() for c in name):
        raise UsageError(
            f"{inert_line(str(model))[:60]!r} is not a model name (one word, such as llama3.2:3b)"
        )
    return name


class Budget:
    """The context budget of a model besides the default: config, else the smaller of the
    tier's and the model's own window (asked of the server once)."""

    def __init__(self, cfg: Config, backend: Backend):
        self.cfg, self.backend = cfg, backend
        self.tokens: int | None = int(cfg.context_size) if cfg.context_size else None

    def __call__(self) -> int:
        if self.tokens is None:
            tier = int(self.cfg.effective("context_size"))
            try:
                server = self.backend.context_length()
            except BackendError as exc:
                if exc.kind == "timeout":  # a server that does not answer: not twice
                    raise
                server = None
            self.tokens = min(tier, server) if server else tier
        return self.tokens


class Models:
    def __init__(self, core: Core):
        self._core = core
        self._lock = threading.Lock()
        self._in_use: dict[str, tuple[Backend, Estimator, Budget]] = {}
        self._owned: list[Backend] = []  # the backends made here, closed with the butler

    def for_conversation(
        self, conversation: Conversation | int | None, model: str | None = None
    ) -> str:
        """The model a turn uses: ``model`` if given, else the one chosen for the conversation
        (``conversations.set_model``), else the default (``open(model=)``, config, the tier)."""
        if model:
            return model_name(model)
        if isinstance(conversation, int):
            conversation = self._core.store.conversation(conversation)
        chosen = conversation.metadata.get("model") if conversation is not None else None
        return chosen if isinstance(chosen, str) and chosen else self._core.model

    def in_use(self, model: str, given: Backend | None = None) -> tuple[Backend, Estimator, Budget]:
        """The backend, token estimates and context budget of a model besides the default one
        (a conversation chose it), made once and kept: turns with it reuse its connection.
        ``given``: a backend of the caller's own that serves every model (tests)."""
        with self._lock:
            if model not in self._in_use:
                core = self._core
                backend = given or make_backend(core.cfg, model)
                if given is None:
                    self._owned.append(backend)
                self._in_use[model] = (
                    backend,
                    Estimator(model, core.paths.data_dir / "token_calibration.json"),
                    Budget(core.cfg, backend),
                )
            return self._in_use[model]

    def close(self) -> None:
        with self._lock:
            owned, self._owned, self._in_use = self._owned, [], {}
        for backend in owned:
            backend.close()

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
            st.problem, st.hint, st.kind = exc.message, exc.hint, exc.kind
            return st
        st.listed = listed(name, st.models) is not None
        st.available = st.listed
        if not st.listed and core.cfg.backend == "openai":
            only = getattr(backend, "answers_any_name", lambda: None)()
            if only:  # llama-server with one model: the name asked for is not looked at
                st.available = True
                st.note = (
                    f"the server does not list {name}, but it is llama-server with one model, "
                    f"{only}, "
                    "which answers whatever name is asked"
                )
        if not st.available:
            st.kind = "model"
            st.problem = f"the model {name} is not on the server ({_their(st.models)})"
            st.hint = (
                f"pull it with `ollama pull {name}`"
                if core.cfg.backend == "ollama"
                else f"load {name} in the server (models are loaded there, not pulled)"
            )
            return st
        try:
            st.context = backend.context_length()
        except BackendError:
            pass
        return st

    def list(self) -> list[str]:
        """The names the server lists (pulled on Ollama; served or loadable elsewhere)."""
        return self._core.new_backend().models()

    def pull(
        self,
        model: str | None = None,
        *,
        on_progress: Callable[[PullProgress], None] | None = None,
        cancel: Cancel | None = None,
    ) -> None:
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


def listed(name: str, models: list[str]) -> str | None:
    """The server's name for ``name`` when it lists it: Ollama takes "name" and "name:latest"
    as one model, and so does its /v1."""
    for candidate in (name, f"{name}:latest", name.removesuffix(":latest")):
        if candidate in models:
            return candidate
    return None


def _their(models: list[str], most: int = 5) -> str:
    """What the server lists, briefly."""
    if not models:
        return "it lists no models"
    shown = ", ".join(models[:most]) + (
        f" and {len(models) - most} more" if len(models) > most else ""
    )
    return f"it lists {shown}"
