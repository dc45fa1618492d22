"""Semantic recall: message vectors from a small embedding model on the model server.

The vectors are computed in the background, never between a question and its answer
(``embed_pending``, called after a turn by the butler, or by any scheduler of background
work), and kept in the user's database (``tatlock.store.vectors``). A search embeds only its
own query, with a short time limit, and ``memory.search`` fuses the similarities with BM25.

Everything works without them: with embeddings switched off (``embedding_model = "off"``), a
server that has no embedding route, a model that is not pulled, or vectors not yet computed,
``Semantic.similar`` returns nothing and recall is BM25 alone. A server that said no is not
asked again for a while (``RETRY_AFTER``), so a missing model costs one failed call, not one
per search.
"""

from __future__ import annotations

import array
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tatlock.errors import BackendError
from tatlock.store import vectors as rows
from tatlock.store.search import Filter

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.config import Config
    from tatlock.store.user import UserStore

__all__ = [
    "EmbedRun",
    "EmbedWorker",
    "Embedder",
    "Semantic",
    "embed_pending",
    "for_config",
    "message_text",
    "pack",
    "semantic_for",
    "stored_as",
]

log = logging.getLogger(__name__)

OFF = ("off", "none", "false", "no", "0")  # embedding_model values that switch embeddings off
QUERY_TIMEOUT = 3.0  # seconds a search waits for its query's vector before going on with BM25 alone
RETRY_AFTER = 300.0  # seconds before a server that refused (no route, model missing) is asked again
BATCH = 16  # messages per embedding call in the background
MAX_CHARS = 2000  # of a message's text sent to the model (all-minilm reads about 256 tokens of it)
NEAREST = 300  # most similar messages a search considers


def message_text(content: str, extra: str = "") -> str:
    """A message as the embedding model reads it: what was said and what was attached, not who
    said it. With the speaker's name ("Maria: ...") every message of one person shared it and
    looked alike; who said it is the speaker boost's business (``memory.search``), and the
    query's vector leaves the names out too. LoCoMo recall@10 with all-minilm, mean of the five
    dev conversations: 83.7 with the name, 84.2 without."""
    text = content + (f" [{extra}]" if extra else "")
    return text[:MAX_CHARS]


# how ``message_text`` reads a message, kept with each vector (``stored_as``): vectors made
# from another form (version 1: with the speaker's name) are replaced in the background, as a
# vector of another model is
TEXT_FORM = 2


def stored_as(model: str) -> str:
    """The name a vector of ``model`` is kept under: the model and the text form it was made
    from (version 1 kept the bare model name)."""
    return f"{model}#text{TEXT_FORM}"


def pack(vector: list[float]) -> bytes:
    """A vector as stored: float32, little-endian, scaled to unit length."""
    norm = sum(x * x for x in vector) ** 0.5 or 1.0
    packed = array.array("f", (x / norm for x in vector))
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes()


class Embedder:
    """The configured embedding model on the configured server. ``embed`` raises BackendError;
    after a refusal (kind "model", "unsupported", "unreachable") ``available`` is False for a
    while, process-wide, so nobody waits on a server that has already said no."""

    _down: dict[tuple[str, str], float] = {}
    _lock = threading.Lock()

    def __init__(self, backend: Any, model: str):
        self.backend = backend
        self.model = model
        self.key = (str(getattr(backend, "where", "")), model)

    @property
    def available(self) -> bool:
        with self._lock:
            until = self._down.get(self.key)
        return until is None or time.monotonic() >= until

    def embed(self, texts: list[str], *, timeout: float | None = None) -> list[list[float]]:
        try:
            return self.backend.embed(texts, model=self.model, timeout=timeout)
        except BackendError as exc:
            if exc.kind in ("model", "unsupported", "unreachable", "auth"):
                with self._lock:
                    self._down[self.key] = time.monotonic() + RETRY_AFTER
            raise

    @classmethod
    def forget_refusals(cls) -> None:
        """Ask every server again (after `tatlock setup` pulled the model, in tests)."""
        with cls._lock:
            cls._down.clear()


def for_config(cfg: Config, backend: Any = None) -> Embedder | None:
    """The embedder the settings ask for, or None when embeddings are switched off. ``backend``
    (a chat backend of the same server) is reused when given; else one is made."""
    model = (cfg.embedding_model or "").strip()
    if not model or model.lower() in OFF:
        return None
    if backend is None or not hasattr(backend, "embed"):
        from tatlock.llm.factory import make_backend

        backend = make_backend(cfg, model)
    return Embedder(backend, model)


# -- background -----------------------------------------------------------------------------


@dataclass
class EmbedRun:
    """What one ``embed_pending`` did: vectors stored, messages still without one, seconds,
    and why it stopped early (None: nothing was left)."""

    done: int = 0
    left: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # "budget" | "stop" | "error: ..." | "unavailable"


def embed_pending(
    store: UserStore,
    embedder: Embedder,
    *,
    budget: float | None = None,
    stop: threading.Event | None = None,
    batch: int = BATCH,
) -> EmbedRun:
    """Compute and store the vectors of messages that have none, newest first, a batch at a
    time (each batch its own transaction, so stopping anywhere loses at most one batch of work).
    Stops when none is left, after ``budget`` seconds, when ``stop`` is set, or at the first
    error (the server is then left alone for a while). Never raises for a model or server
    problem. This is the one function a scheduler of background work calls."""
    run = EmbedRun()
    t0 = time.monotonic()
    if not embedder.available:
        run.stopped = "unavailable"
    while run.stopped is None:
        if stop is not None and stop.is_set():
            run.stopped = "stop"
            break
        if budget is not None and time.monotonic() - t0 >= budget:
            run.stopped = "budget"
            break
        todo = rows.pending(store, stored_as(embedder.model), batch)
        if not todo:
            break
        try:
            got = embedder.embed([message_text(p.content, p.extra) for p in todo])
        except BackendError as exc:
            run.stopped = f"error: {exc.message}"
            log.info("embedding stopped: %s", exc.message)
            break
        run.done += rows.save(
            store,
            stored_as(embedder.model),
            [(p.message_id, pack(v)) for p, v in zip(todo, got, strict=True)],
        )
    run.seconds = time.monotonic() - t0
    if run.stopped is not None:
        done, total = rows.counts(store, stored_as(embedder.model))
        run.left = total - done
    return run


class EmbedWorker:
    """``embed_pending`` on a background thread (the butler starts one after a turn when none
    is running). ``finish`` lets it work on for a short grace, then asks it to stop after its
    current batch: a one-shot process never waits minutes for a large memory's backlog."""

    def __init__(self, store: UserStore, embedder: Embedder, *, budget: float | None = None):
        self.store = store
        self.embedder = embedder
        self.budget = budget
        self.stop = threading.Event()
        self.result: EmbedRun | None = None
        self.error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tatlock-embed", daemon=True)

    @classmethod
    def start(cls, store: UserStore, embedder: Embedder, **kw: Any) -> EmbedWorker:
        worker = cls(store, embedder, **kw)
        worker._thread.start()
        return worker

    def _run(self) -> None:
        try:
            self.result = embed_pending(
                self.store, self.embedder, budget=self.budget, stop=self.stop
            )
        except BaseException as exc:
            self.error = exc
            log.info("embedding failed: %s: %s", type(exc).__name__, exc)
        finally:
            self._done.set()

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def finish(self, grace: float, bound: float) -> bool:
        """Wait up to ``grace`` s, then ask it to stop and wait up to ``bound`` s more for the
        batch in hand. True when it has ended."""
        if self.wait(grace):
            return True
        self.stop.set()
        return self.wait(bound)


# -- search ---------------------------------------------------------------------------------


@dataclass
class _Index:
    """One database's vectors of one model, in memory as a matrix (rows in ``ids`` order)."""

    ids: list[int] = field(default_factory=list)
    matrix: Any = None  # numpy array, len(ids) x dims
    by_id: dict[int, Any] = field(default_factory=dict)


_indexes: dict[tuple[str, str], _Index] = {}
_index_lock = threading.Lock()


def _index(store: UserStore, model: str) -> _Index:
    """The vectors as a matrix, kept between searches: only vectors added since are read, so a
    search over a large memory reads ids, not megabytes."""
    import numpy as np

    key = (str(store.path), model)
    with _index_lock:
        idx = _indexes.get(key) or _Index()
        current = rows.ids(store, model)
        if current != idx.ids:
            known = idx.by_id
            fresh = [i for i in current if i not in known]
            by_id = {i: known[i] for i in current if i in known}
            for message_id, blob in rows.vectors(store, model, fresh):
                vec = np.frombuffer(blob, dtype="<f4")
                by_id[message_id] = vec
            kept = [i for i in current if i in by_id]
            dims = {by_id[i].shape[0] for i in kept}
            if len(dims) > 1:  # the model changed size under the same name: keep the newest shape
                size = by_id[kept[-1]].shape[0]
                kept = [i for i in kept if by_id[i].shape[0] == size]
            idx = _Index(
                kept,
                np.vstack([by_id[i] for i in kept]) if kept else None,
                {i: by_id[i] for i in kept},
            )
            _indexes[key] = idx
        return idx


class Semantic:
    """What a search needs for its semantic side: the embedder and a small cache of query
    vectors (the TUI searches as you type; a turn's tools repeat a query)."""

    def __init__(self, embedder: Embedder, *, timeout: float = QUERY_TIMEOUT):
        self.embedder = embedder
        self.timeout = timeout
        self._queries: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _query_vector(self, text: str) -> Any:
        import numpy as np

        with self._lock:
            if text in self._queries:
                return self._queries[text]
        vec = np.asarray(
            self.embedder.embed([text[:MAX_CHARS]], timeout=self.timeout)[0], dtype=np.float32
        )
        norm = float(np.linalg.norm(vec)) or 1.0
        vec = vec / norm
        with self._lock:
            if len(self._queries) > 64:
                self._queries.clear()
            self._queries[text] = vec
        return vec

    def similar(
        self,
        store: UserStore,
        query: str,
        flt: Filter | None = None,
        exclude: Callable[[int], bool] | None = None,
    ) -> dict[int, float]:
        """message_id -> cosine similarity to ``query`` for every message with a vector (within
        ``flt``); {} when there are none or the server cannot embed the query now."""
        if not query.strip() or not self.embedder.available:
            return {}
        try:
            idx = _index(store, stored_as(self.embedder.model))
            if idx.matrix is None:
                return {}
            q = self._query_vector(query)
            if q.shape[0] != idx.matrix.shape[1]:
                return {}
            sims = idx.matrix @ q
        except BackendError:
            return {}
        allowed = rows.allowed_ids(store, flt) if flt else None
        return {
            i: float(s)
            for i, s in zip(idx.ids, sims.tolist(), strict=True)
            if (allowed is None or i in allowed) and (exclude is None or not exclude(i))
        }


_semantics: dict[tuple[str, ...], Semantic] = {}
_semantics_lock = threading.Lock()


def semantic_for(cfg: Config | None) -> Semantic | None:
    """The query side of semantic recall for these settings (None: embeddings are off), one per
    server and model in the process, so its query cache and connections are shared by every
    search (the CLI's, the TUI's, the butler's own recall tools)."""
    if cfg is None:
        return None
    model = (cfg.embedding_model or "").strip()
    if not model or model.lower() in OFF:
        return None
    where = cfg.ollama_host if cfg.backend == "ollama" else cfg.base_url
    key = (cfg.backend, where, model)
    with _semantics_lock:
        found = _semantics.get(key)
        if found is None:
            embedder = for_config(cfg)
            if embedder is None:
                return None
            found = _semantics[key] = Semantic(embedder)
        return found
