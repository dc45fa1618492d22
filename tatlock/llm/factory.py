"""The configured backend: kept apart from base.py so the protocol never imports its
implementations (each is imported only when chosen)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.config import Config
    from tatlock.llm.base import Backend


def make_backend(cfg: Config, model: str | None = None, *, api_key: str | None = None) -> Backend:
    """The configured backend for ``model`` (default: config, then the hardware tier's)."""
    name = model or cfg.model_name
    if cfg.backend == "openai":
        from tatlock.llm.openai_compat import OpenAICompatBackend

        return OpenAICompatBackend(
            cfg.base_url,
            name,
            timeout=cfg.timeout,
            api_key=api_key if api_key is not None else cfg.api_key_value(),
        )
    from tatlock.llm.ollama import OllamaBackend

    return OllamaBackend(cfg.ollama_host, name, timeout=cfg.timeout, keep_alive=cfg.keep_alive)
