"""The core every interface calls: turns, background work, and the named services.

    import tatlock
    with tatlock.open(user="maria") as butler:
        turn = butler.turn("What is the capital of France?")    # starts at once
        for event in turn: ...                                  # or `async for`
        butler.ask("Thanks!")                                   # blocking: TurnFinished
        butler.conversations.search("dentist")

A turn's steps live in ``tatlock.pipeline.turn_runner``; this module wires them to the stores, the
backend, the debug log, the event hub and the housekeeping (compaction and briefings, off the
user's time: ``tatlock.memory.housekeeping``). Interfaces hold no SQL and no model client:
everything they show comes from here.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tatlock import prompts
from tatlock.config import Config, Paths, validate_username
from tatlock.debuglog import DebugLog
from tatlock.errors import BackendError, NotFound, TatlockError, UsageError
from tatlock.events import ConversationReady, ErrorEvent, Event, Notice, TurnCancelled, TurnFinished
from tatlock.llm.base import Backend, Cancel
from tatlock.llm.factory import make_backend
from tatlock.memory.fit import FittedBackend
from tatlock.memory.tokens import Estimator
from tatlock.pipeline.phases import TurnEnv, summary_tokens
from tatlock.pipeline.turn_runner import TurnRequest, TurnRunner
from tatlock.services.archive import Archive
from tatlock.services.conversations import Conversations
from tatlock.services.doctor import Doctor
from tatlock.services.models import Models
from tatlock.services.rooms import Rooms
from tatlock.services.system import Persona, Tools, Users
from tatlock.services.variables import Variables
from tatlock.store.db import as_store_error
from tatlock.store.system import SystemStore
from tatlock.store.user import Author, Conversation, Message, UserStore
from tatlock.text import valid_text
from tatlock.tools.registry import BUILTIN_TOOLS
from tatlock.turn import EventHub, Turn, Workers

log = logging.getLogger(__name__)

# beyond this a message is refused (as much as `tatlock ask` reads from a pipe); long ones are cut
# for the model only, and stored whole
MAX_QUESTION_CHARS = 2_000_000
# seconds a closing butler lets the background embedding go on (the newest messages first)
EMBED_GRACE = 2.0
RECORD = "summary_record.json"  # how each model has done at summaries (a hopeless one is not asked)
# a one-off instruction (`ask -s`) sits in the system prompt beside the persona
MAX_ONE_OFF_CHARS = 4_000


class Butler:
    """One user's butler. Safe to use from several threads; each turn runs on its own."""

    def __init__(
        self,
        cfg: Config,
        username: str | None = None,
        *,
        model: str | None = None,
        backend: Backend | None = None,
        interface: str = "api",
        clock: Callable[[], dt.datetime] | None = None,
        create: bool = True,
    ):
        self.cfg = cfg
        self.paths: Paths = cfg.paths
        self.username = validate_username(cfg.user if username is None else username)
        self.interface = interface
        self.model_override = model
        # every backend is fitted: no request it sends outgrows the context (tatlock.memory.fit)
        self._backend: Backend | None = self._fitted(backend) if backend is not None else None
        # a caller's own backend (tests) serves everything
        self._backend_given = backend is not None
        self._estimator: Estimator | None = None
        self.clock = clock or self._now
        self.hub = EventHub()
        self._lock = threading.Lock()
        self._store: UserStore | None = None
        self._budget: int | None = None
        # the background worker computing message vectors (memory.vectors)
        self._embedding: Any = None
        # the last turn ended in an error: no background embedding after it
        self._server_failed = False
        self._turns: list[Turn] = []
        # housekeeping (compaction, the next briefing): on a thread of its own, woken after each
        # turn; a one-shot process (`tatlock ask`) sets one_shot and hands it on when it closes
        from tatlock.memory.locks import turns_lock
        from tatlock.memory.runner import Runner

        self._housekeeping = Runner(
            self._housekeeper,
            mode=cfg.housekeeping,
            spawn_args=None if self._backend_given else self._spawn_args,
        )
        self._turns_lock = turns_lock(self.paths, self.username)
        self.closing_note: str | None = None
        self._workers = Workers("tatlock-turn")
        self._closed = False
        from tatlock import privacy, secrets

        # things an interface should tell the user once (e.g. files that others could read were made
        # private)
        self.notices: list[str] = [n for n in (privacy.check(self.paths),) if n]
        api_key = cfg.api_key_value() if cfg.backend == "openai" else None
        # every secret tatlock knows is withheld from debug logs, tool results and the model's
        # findings
        self.secrets = tuple(dict.fromkeys(s for s in (api_key, *secrets.known_values(cfg)) if s))
        from tatlock.pipeline.routing import classifier

        # the route classifier is read while the memory opens, not before the first route
        classifier.warm()
        try:
            self.system = SystemStore.open(
                self.paths.system_db,
                default_user=cfg.user,
                persona=prompts.paragraphs("persona.txt"),
                tools=BUILTIN_TOOLS,
            )
        # damage met past the schema, a full disk: one line naming system.db
        except Exception as exc:
            raise as_store_error(exc, self.paths.system_db) or exc from None
        try:
            if not self.system.has_user(self.username):
                if not create:
                    raise NotFound(f"there is no user called {self.username!r}", kind="user")
                self.system.ensure_user(self.username)
            self.persona = Persona(self.system)
            self.tools = Tools(self.system)
            self.users = Users(self.system, self.paths)
            # what it knows about its owner and their world (personal variables are facts)
            self.facts = self.variables = Variables(
                lambda: self.store, lambda: self.anchor().id, lambda: self.anchor().name
            )
            self.conversations = Conversations(self)
            self.rooms = Rooms(self)
            self.archive = Archive(self)
            self.models = Models(self)
            self.doctor = Doctor(self)
        except BaseException:
            self.system.close()
            raise

    # -- set-up ----------------------------------------------------------------------------

    def __enter__(self) -> Butler:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _now(self) -> dt.datetime:
        if self.cfg.timezone:
            try:
                from zoneinfo import ZoneInfo

                return dt.datetime.now(ZoneInfo(self.cfg.timezone))
            except Exception:
                pass
        return dt.datetime.now().astimezone()

    @property
    def store(self) -> UserStore:
        """The user's memory, opened on first use (admin work needs only system.db)."""
        with self._lock:
            if self._closed:
                raise TatlockError("this butler is closed")
            if self._store is not None:
                return self._store
            first = not self.paths.user_db(self.username).exists()
            self._store = store = UserStore.open(self.paths, self.username)
        if first:
            self._first_memory()
        return store

    def _first_memory(self) -> None:
        """The default user's memory was just made: say once why it is called 'owner' when the
        login name could not be used (every later run is quiet; `doctor` and `user list` say it too)."""
        why = self.cfg.user_explanation()
        if why and self.username == self.cfg.user:
            self.notices.append(why)
            self.hub.publish(Notice(why, "default_user"))

    @property
    def backend(self) -> Backend:
        with self._lock:
            if self._backend is None:
                self._backend = self._fitted(make_backend(self.cfg, self.model_override))
            return self._backend

    def _fitted(self, backend: Backend) -> Backend:
        return FittedBackend(backend, self.budget, lambda: self.estimator)

    @property
    def estimator(self) -> Estimator:
        """Token estimates, calibrated by the server's counts (shared by all turns)."""
        with self._lock:
            if self._estimator is None:
                self._estimator = Estimator(
                    self.model, self.paths.data_dir / "token_calibration.json"
                )
            return self._estimator

    @property
    def model(self) -> str:
        return (
            self._backend.model
            if self._backend is not None
            else (self.model_override or self.cfg.model_name)
        )

    def new_backend(self, model: str | None = None) -> Backend:
        """A backend of its own, for work beside the turns (compaction, pulls, status): each
        backend serves one call at a time, so cancelling a turn never cuts another's call."""
        if (
            self._backend_given
            and self._backend is not None
            and model in (None, self._backend.model)
        ):
            return self._backend
        return self._fitted(make_backend(self.cfg, model or self.model))

    def anchor(self) -> Author:
        """The butler's owner: messages from the user's own interfaces are the Anchor's."""
        aid = self.cfg.anchor_id or self.username
        name = self.cfg.anchor_name or aid.replace("-", " ").replace("_", " ").title()
        return Author(aid, name, is_anchor=True)

    def guest(self, name: str, *, author_id: str | None = None, bot: bool = False) -> Author:
        """Someone else in the room (``/as Maria`` in the TUI, another bot over MCP)."""
        name = " ".join(valid_text(str(name)).split())
        if not name:
            raise UsageError("a speaker needs a name")
        return Author(author_id or name.lower().replace(" ", "-"), name[:80], is_bot=bot)

    def budget(self) -> int:
        """Context budget in tokens: config, else the smaller of the tier's and the model's."""
        if self._budget is None:
            if self.cfg.context_size:
                self._budget = int(self.cfg.context_size)
            else:
                tier_ctx = int(self.cfg.effective("context_size"))
                try:
                    server = self.backend.context_length()
                except BackendError as exc:
                    # a server that does not answer: waiting again for the chat
                    if exc.kind == "timeout":
                        raise  # call would double the time the user waits
                    server = None
                self._budget = min(tier_ctx, server) if server else tier_ctx
        return self._budget

    def publish(self, event: Event) -> None:
        self.hub.publish(event)

    def subscribe(self, fn: Callable[[Event], None]) -> Callable[[], None]:
        """``fn(event)`` for every event of every turn and of the background work (compaction),
        called on the thread that produced it. Returns a function that unsubscribes."""
        return self.hub.subscribe(fn)

    def conversation(
        self, room_id: str | None = None, *, conversation_id: int | None = None, new: bool = False
    ) -> tuple[Conversation, bool]:
        """The conversation a turn goes to: the given one, else the room's latest, else a new
        one."""
        room = room_id or self.interface
        if conversation_id is not None:
            return self.store.conversation(int(conversation_id)), False
        if not new:
            latest = self.store.latest_conversation(self.interface, room)
            if latest is not None:
                return latest, False
        return self.store.create_conversation(room, self.interface), True

    def cancel_turns(self) -> None:
        """Cancel every running turn (the process is told to stop): each stores its partial
        answer, marked cancelled, and ends; ``close`` waits for that."""
        with self._lock:
            turns = list(self._turns)
        for turn in turns:
            turn.cancel()

    def close(self) -> str | None:
        """Wait for running turns, then the housekeeping: in the foreground mode until it is
        done; otherwise for at most a moment, then what is left goes on in a detached process
        (or waits for the next one). Closes the databases. Returns one line to tell the user
        when summaries go on after this process (also kept in ``closing_note``), else None."""
        if self._closed:
            return self.closing_note
        for turn in list(self._turns):
            turn.wait(max(5.0, self.cfg.timeout))
        self._finish_embedding()
        try:
            self.closing_note = self._housekeeping.finish()
        except Exception:
            log.exception("housekeeping could not be handed on")
        with self._lock:
            self._closed = True
            store, self._store = self._store, None
        self._workers.stop()
        if store is not None:
            store.close()
        self.system.close()
        if self._backend is not None:
            self._backend.close()
        self.models.close()
        self._housekeeping.close()
        return self.closing_note

    # -- turns -----------------------------------------------------------------------------

    def turn(
        self,
        text: str,
        *,
        conversation_id: int | None = None,
        new: bool = False,
        room_id: str | None = None,
        author: Author | None = None,
        material: str | None = None,
        system: str | None = None,
        model: str | None = None,
    ) -> Turn:
        """Start one turn and return it at once; its events arrive as they happen. ``system`` is
        a one-off instruction for this turn only, added after the persona (never stored as one).
        ``model``: this turn's model (else the conversation's chosen one, else the default); a new
        conversation started with one keeps it."""
        from tatlock.services.models import model_name

        text = _question(text)
        if system is not None:
            system = valid_text(system).strip()
            if not system:
                raise UsageError("the one-off instruction is empty")
            if len(system) > MAX_ONE_OFF_CHARS:
                raise UsageError(
                    f"the one-off instruction is {len(system):,} characters long; at most "
                    f"{MAX_ONE_OFF_CHARS:,} fit beside the persona"
                )
        material = valid_text(material) if material else material
        if material and len(material) > 2 * MAX_QUESTION_CHARS:
            raise UsageError(f"the message is larger than {MAX_QUESTION_CHARS:,} characters")
        model = model_name(model) if model is not None else None
        try:
            conv, is_new = self.conversation(room_id, conversation_id=conversation_id, new=new)
            if is_new and model:
                conv = self.conversations.set_model(conv.id, model)
        # a full disk or a read-only folder: one line, nothing stored is lost
        except Exception as exc:
            raise as_store_error(exc, self.paths.user_db(self.username)) or exc from None
        return self._start(
            TurnRequest(conv, is_new, text, material, author or self.anchor(), system), model
        )

    def regenerate(self, conversation_id: int, *, model: str | None = None) -> Turn:
        """Answer the conversation's last question again, as a new turn: the new reply is
        stored after the old one, which stays in memory marked superseded (once the new one is
        stored: a turn that fails before saying anything leaves it standing)."""
        conv, question, replies = self._last_exchange(conversation_id)
        return self._start(
            TurnRequest(
                conv,
                False,
                question.content,
                question.metadata.get("material"),
                Author.of(question),
                question.metadata.get("system"),
                again=question,
                supersedes=tuple(m.message_id for m in replies),
            ),
            model,
        )

    def edit_last(self, conversation_id: int, text: str, *, model: str | None = None) -> Turn:
        """Replace the conversation's last question with ``text`` and answer it, as a new turn:
        the edited question is stored anew; the old one and its replies stay in memory, marked
        superseded."""
        text = _question(text)
        conv, question, replies = self._last_exchange(conversation_id)
        return self._start(
            TurnRequest(
                conv,
                False,
                text,
                question.metadata.get("material"),
                Author.of(question),
                question.metadata.get("system"),
                supersedes=(question.message_id, *(m.message_id for m in replies)),
            ),
            model,
        )

    def _last_exchange(self, conversation_id: int) -> tuple[Conversation, Message, list[Message]]:
        conv, question, replies = self.conversations.last_exchange(conversation_id)
        with self._lock:
            if any(t.conversation_id == conv.id and not t.done for t in self._turns):
                raise UsageError(
                    "an answer is still being written in this conversation: wait for it, or stop it"
                )
        return conv, question, replies

    def _start(self, request: TurnRequest, model: str | None) -> Turn:
        """Run ``request`` on a worker thread with the model it is to use; returns its Turn."""
        conv = request.conversation
        cancel = Cancel()
        turn = Turn(uuid.uuid4().hex[:12], conv.id, cancel)
        log_ = DebugLog(self.paths.conversation_logs, self.username, conv.id, self.secrets)

        def emit(ev: Event) -> None:
            ev.turn_id = turn.id
            # a server that just failed is not asked to embed
            if isinstance(ev, (ErrorEvent, TurnFinished)):
                self._server_failed = isinstance(ev, ErrorEvent)
            log_.write(ev)
            turn.put(ev)
            self.hub.publish(ev)

        env = self._env(self.models.for_conversation(conv, model))
        runner = TurnRunner(
            env,
            request,
            emit,
            cancel,
            describe_image=self._describe_image if self.cfg.vision_model else None,
        )

        def work() -> None:
            let_go = self._turns_lock.hold()  # housekeeping in any process makes way while it runs
            try:
                runner.run()
            except Exception as exc:  # a bug must not lose the message or hang the interface
                stored = as_store_error(exc, self.paths.user_db(self.username))
                # a full disk, a read-only folder: what was stored before is kept
                if stored is not None:
                    emit(ErrorEvent(stored.message, stored.kind or "store", stored.hint))
                else:
                    log.exception("turn %s failed", turn.id)
                    emit(ErrorEvent(f"internal error: {type(exc).__name__}: {exc}", "internal"))
            finally:
                let_go()
                with self._lock:
                    if turn in self._turns:
                        self._turns.remove(turn)
                # stopped (Esc, a signal): no new vectors for a process on its way out
                if cancel.cancelled:
                    self._housekeeping.kick()
                else:
                    # wakes the housekeeping: nothing here waits on it
                    self.schedule_compaction(conv.id, turn.id)
                turn.close()

        with self._lock:
            self._turns.append(turn)
        self._housekeeping.turn_started()  # a summary being written makes way for this turn
        emit(ConversationReady(conv.id, request.is_new))
        self._workers.submit(work)
        return turn

    def handle(self, text: str, **kw: Any) -> Iterator[Event]:
        """Run one turn; yields its events as they happen (the last is TurnFinished,
        TurnCancelled or ErrorEvent)."""
        return iter(self.turn(text, **kw))

    def ask(self, text: str, **kw: Any) -> TurnFinished:
        """Run a turn to the end and return its TurnFinished; a failed turn raises
        BackendError, a cancelled one TatlockError (kind "cancelled")."""
        final = self.turn(text, **kw).result()
        if isinstance(final, TurnFinished):
            return final
        if isinstance(final, ErrorEvent):
            raise BackendError(final.message, hint=final.hint, kind=final.kind)
        if isinstance(final, TurnCancelled):
            raise TatlockError("the turn was cancelled", kind="cancelled")
        raise TatlockError("the turn ended without an answer")

    def _env(self, model: str | None = None) -> TurnEnv:
        if not model or model == self.model:
            return TurnEnv(
                self.cfg,
                self.username,
                self.interface,
                self.system,
                self.store,
                self.backend,
                self.estimator,
                self.clock,
                self.secrets,
                self.budget,
            )
        # a caller's own backend serves every model
        given = self._backend if self._backend_given else None
        # another model: its own, kept
        backend, estimator, budget = self.models.in_use(model, given)
        return TurnEnv(
            self.cfg,
            self.username,
            self.interface,
            self.system,
            self.store,
            backend,
            estimator,
            self.clock,
            self.secrets,
            budget,
        )

    def _describe_image(self, path: str, question: str) -> str:
        import base64

        with open(path, "rb") as fh:
            data = base64.b64encode(fh.read()).decode()
        msg = {"role": "user", "content": question, "images": [data]}
        return self.new_backend(self.cfg.vision_model).chat([msg]).content

    def assess_request(self, msg: Any) -> list[dict[str, Any]]:
        """Phase 1's messages for a stored user message, as the next turn would send them
        (benchmarks measure the prompt with this)."""
        conv = self.store.conversation(msg.conversation_id)
        runner = TurnRunner(
            self._env(),
            TurnRequest(conv, False, msg.content, None, self.anchor()),
            lambda ev: None,
            Cancel(),
        )
        now = self.clock()
        return runner.assess_request(
            msg,
            cross_summary=None,
            now=now,
            persona=self.system.persona_text(),
            enabled=self.system.tools(enabled_only=True),
        )[0]

    # -- background ------------------------------------------------------------------------

    def summary_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"temperature": 0.2, "max_tokens": summary_tokens(self.budget())}
        if self.cfg.backend == "ollama":
            opts["context"] = self._summary_budget()
        return opts

    def _summary_budget(self) -> int:
        """The context budget for summaries: as the turns use it, or (a server that does not
        answer now) the configured or tier's size, so closing never fails on it."""
        try:
            return self.budget()
        except BackendError:
            return int(self.cfg.context_size or self.cfg.effective("context_size"))

    def schedule_compaction(self, conversation_id: int = 0, turn_id: str = "") -> None:
        """Messages were stored (a turn, or MCP's add_turn): wake the housekeeping, which
        compacts what is due (in any conversation) and prepares the next briefing once things
        are quiet. In a one-shot process it is handed on at close instead."""
        self.schedule_embedding()
        self._housekeeping.kick()

    def _housekeeper(self) -> Any:
        from tatlock.memory import housekeeping, summarise

        return housekeeping.Housekeeper(
            self.paths,
            self.username,
            backend=self.new_backend,
            interval=int(self.cfg.effective("compact_interval")),
            budget=self._summary_budget(),
            options=self.summary_options(),
            emit=self._housekeeping_event,
            estimator=self.estimator,
            turns_running=lambda: bool(self._turns),
            shared_backend=self._backend_given,
            settle=housekeeping.SETTLE,
            compact_settle=housekeeping.COMPACT_SETTLE,
            record=summarise.TrackRecord(self.paths.data_dir / RECORD, self.model),
        )

    def _spawn_args(self) -> dict[str, Any]:
        return {
            "paths": self.paths,
            "username": self.username,
            "model": self.model,
            "budget": self._summary_budget(),
            "settle": self._housekeeping.housekeeper.settle,
            "compact_settle": self._housekeeping.housekeeper.compact_settle,
        }

    def _housekeeping_event(self, conversation_id: int | None, ev: Event) -> None:
        if conversation_id is not None:
            DebugLog(
                self.paths.conversation_logs, self.username, conversation_id, self.secrets
            ).write(ev)
        self.hub.publish(ev)

    @property
    def one_shot(self) -> bool:
        """A one-shot process (`tatlock ask`): its housekeeping is handed on when it closes."""
        return self._housekeeping.one_shot

    @one_shot.setter
    def one_shot(self, value: bool) -> None:
        self._housekeeping.one_shot = bool(value)

    def schedule_embedding(self) -> None:
        """Compute the vectors of messages that have none (semantic recall) on a background
        thread, one at a time; nothing when embeddings are off."""
        from tatlock.memory import vectors

        with self._lock:
            if (
                self._closed
                or self._server_failed
                or (self._embedding is not None and self._embedding.running)
            ):
                return
        # a backend of its own: a turn's cancel never cuts it
        embedder = vectors.for_config(self.cfg)
        if embedder is None or not embedder.available:
            return
        store = self.store
        with self._lock:
            if not self._closed and (self._embedding is None or not self._embedding.running):
                self._embedding = vectors.EmbedWorker.start(store, embedder)

    def _finish_embedding(self) -> None:
        """Before closing: the latest messages' vectors get a moment (they are done first), a
        large backlog is left for the next run."""
        worker = self._embedding
        if worker is not None and not worker.finish(
            grace=EMBED_GRACE, bound=min(10.0, self.cfg.timeout)
        ):
            # a server that hangs: the daemon thread is left behind, nothing is lost
            self._embedding = None

    @property
    def background_running(self) -> bool:
        with self._lock:
            embedding = bool(self._embedding and self._embedding.running)
        return self._housekeeping.busy or embedding

    def wait_background(self, timeout: float | None = None) -> bool:
        """Do the housekeeping now (the briefing without waiting for quiet) and wait for it and
        for the background embedding: True once they have done what they can, False when they
        are still at work after ``timeout``."""
        done = self._housekeeping.wait(timeout)
        worker = self._embedding
        return (worker.wait(timeout) if worker is not None else True) and done


def _question(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise UsageError("the message is empty")
    text = valid_text(text)
    if len(text) > MAX_QUESTION_CHARS:
        raise UsageError(f"the message is larger than {MAX_QUESTION_CHARS:,} characters")
    return text


def open_butler(
    user: str | None = None,
    *,
    home: str | Path | None = None,
    model: str | None = None,
    interface: str = "api",
    create: bool = True,
    env: dict[str, str] | None = None,
) -> Butler:
    """Open the butler for ``user`` (default: the configured user) with the same settings and
    paths as the CLI (TATLOCK_HOME, config.toml, the environment); ``home`` overrides
    TATLOCK_HOME. A user seen for the first time is registered unless ``create`` is False."""
    import os

    from tatlock import config

    environ = dict(os.environ if env is None else env)
    if home is not None:
        environ["TATLOCK_HOME"] = str(Path(home).expanduser())
    cfg = config.load(environ)
    return Butler(cfg, user, model=model, interface=interface, create=create)
