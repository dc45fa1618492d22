"""Semantic recall: message vectors from the fake server's /api/embed (and /v1/embeddings) over
real HTTP, computed in the background, kept in the user's SQLite file and fused with BM25; and
search that works before any vector exists, with no embedding model, and with embeddings off."""

from __future__ import annotations

import re
import sqlite3
import threading

import pytest

import tatlock
from support.fake_ollama import FakeOllama, hashed_vectors
from support.replies import direct
from tatlock.config import load
from tatlock.memory import vectors
from tatlock.memory.query import without_names
from tatlock.memory.search import search
from tatlock.store import vectors as rows
from tatlock.store.user import Author, UserStore

MODELS = {"llama3.2:3b": {}, "all-minilm": {"capabilities": ["embedding"]}}
ALICE = Author("alice", "Alice", is_anchor=True)
BOB = Author("bob", "Bob")

# words that mean one thing to the stand-in model: texts on one theme are near, sharing no word
THEMES = {
    "paris": 0,
    "eiffel": 0,
    "louvre": 0,
    "seine": 0,
    "france": 0,
    "cheese": 1,
    "brie": 1,
    "camembert": 1,
    "piano": 2,
    "chopin": 2,
    "concert": 2,
    "dentist": 3,
    "tooth": 3,
    "filling": 3,
}


def themed(texts: list[str]) -> list[list[float]]:
    """Vectors whose first dimensions are themes; a little of the words' own hash beside them."""
    out = []
    for text, noise in zip(texts, hashed_vectors(texts, 16), strict=True):
        vec = [0.0] * 4 + [0.1 * x for x in noise]
        for word in re.findall(r"\w+", text.lower()):
            if word in THEMES:
                vec[THEMES[word]] += 1.0
        out.append(vec)
    return out


@pytest.fixture(autouse=True)
def fresh_refusals():
    vectors.Embedder.forget_refusals()
    yield
    vectors.Embedder.forget_refusals()


@pytest.fixture
def server(monkeypatch):
    with FakeOllama(MODELS, embed=themed) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        monkeypatch.setenv("TATLOCK_MODEL", "llama3.2:3b")
        monkeypatch.setenv("TATLOCK_TIMEOUT", "15")
        yield srv


@pytest.fixture
def store():
    s = UserStore.open(load().paths, "alice")
    trip = s.create_conversation("cli", "cli")
    s.add_message(trip.id, "user", "We walked along the Seine and up the Eiffel tower", ALICE)
    s.add_message(trip.id, "assistant", "How splendid, sir.", Author.assistant())
    food = s.create_conversation("cli", "cli")
    s.add_message(food.id, "user", "Bob brought brie and camembert to the party", BOB)
    s.add_message(food.id, "user", "My dentist says the filling will hold", ALICE)
    yield s
    s.close()


def embedder(cfg=None) -> vectors.Embedder:
    made = vectors.for_config(cfg or load())
    assert made is not None
    return made


def embed_requests(srv: FakeOllama) -> list:
    return [r for r in srv.requests if r.path in ("/api/embed", "/v1/embeddings")]


# -- computed in the background and stored --------------------------------------------------


def test_vectors_are_stored_newest_first_in_batches_and_follow_their_messages(server, store):
    run = vectors.embed_pending(store, embedder(), batch=3)
    assert (run.done, run.left, run.stopped) == (4, 0, None)
    assert [len(r.body["input"]) for r in embed_requests(server)] == [3, 1]
    assert embed_requests(server)[0].body["input"][0] == (
        "My dentist says the filling will hold"
    )  # newest first, without its speaker's name
    assert rows.counts(store, vectors.stored_as("all-minilm")) == (4, 4)
    assert vectors.embed_pending(store, embedder()).done == 0  # nothing twice
    # a message whose text changes loses its vector; a forgotten conversation takes its vectors along
    store.conn.execute(
        "UPDATE conversation_messages SET content = 'Tooth ache' WHERE message_number = 2"
        " AND conversation_id = 2"
    )
    assert rows.counts(store, vectors.stored_as("all-minilm")) == (3, 4)
    store.forget_conversation(1)
    assert rows.counts(store, vectors.stored_as("all-minilm")) == (1, 2)
    # another model's vectors are not used: switching models computes them again
    assert rows.counts(store, vectors.stored_as("nomic-embed-text")) == (0, 2)


def test_a_stop_a_budget_and_a_refusal_end_the_work_quietly(server, store):
    stop = threading.Event()
    stop.set()
    assert vectors.embed_pending(store, embedder(), stop=stop).stopped == "stop"
    assert vectors.embed_pending(store, embedder(), budget=0).stopped == "budget"
    assert embed_requests(server) == []
    cfg = load(
        {
            "TATLOCK_HOME": str(store.path.parent.parent),
            "OLLAMA_HOST": server.url,
            "TATLOCK_EMBEDDING_MODEL": "not-pulled",
        }
    )
    run = vectors.embed_pending(store, embedder(cfg))
    assert run.stopped.startswith("error: model 'not-pulled' is not available") and run.left == 4
    # the server said no: it is left alone for a while, by every embedder of that model
    again = vectors.embed_pending(store, embedder(cfg))
    assert again.stopped == "unavailable" and len(embed_requests(server)) == 1


def test_the_answer_never_waits_for_the_vectors(server, home):
    """The turn ends (its answer given) while the server is still embedding its messages."""
    started, release = threading.Event(), threading.Event()

    def slow(texts):
        started.set()
        release.wait(10)
        return themed(texts)

    server.embed = slow
    server.queue(direct("The tower is 330 metres tall, sir."))
    with tatlock.open(home=home) as butler:
        finished = butler.ask("How tall is the Eiffel tower?")
        assert finished.answer == "The tower is 330 metres tall, sir."
        assert started.wait(5)  # computing now, after the answer
        assert rows.counts(butler.store, vectors.stored_as("all-minilm")) == (0, 2)
        release.set()
        assert butler.wait_background(10)
        assert rows.counts(butler.store, vectors.stored_as("all-minilm")) == (2, 2)
    paths = [r.path for r in server.requests if r.path in ("/api/chat", "/api/embed")]
    assert paths.index("/api/embed") > paths.index(
        "/api/chat"
    )  # the answer first (later chats: housekeeping)


def test_a_one_shot_process_does_not_wait_on_a_hanging_embedding_server(server, home, monkeypatch):
    import time

    from tatlock import butler as core

    monkeypatch.setattr(core, "EMBED_GRACE", 0.2)
    release = threading.Event()
    server.embed = lambda texts: (release.wait(30), themed(texts))[1]
    server.queue(direct("Certainly, sir."))
    with tatlock.open(home=home) as butler:
        butler.ask("Note the Louvre")
        t0 = time.monotonic()
    assert time.monotonic() - t0 < 12  # the grace, then one bounded wait for the batch in hand
    release.set()


# -- search before, without and with vectors ------------------------------------------------


def ids(hits) -> list[int | None]:
    return [h.message_id for h in hits]


def test_search_before_the_vectors_exist_is_bm25_alone(server, store):
    semantic = vectors.Semantic(embedder())
    assert ids(search(store, "camembert", semantic=semantic)) == ids(search(store, "camembert"))
    assert search(store, "Paris", semantic=semantic) == []  # no word, no vector: nothing to find


def test_without_an_embedding_model_search_is_bm25_alone_and_asks_once(store, monkeypatch):
    with FakeOllama() as srv:  # it has the chat model only
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        semantic = vectors.Semantic(embedder())
        assert vectors.embed_pending(store, semantic.embedder).stopped.startswith("error")
        for _ in range(3):
            assert ids(search(store, "brie", semantic=semantic)) == ids(search(store, "brie"))
        assert len(embed_requests(srv)) == 1


def test_embeddings_switched_off_ask_nothing(store, monkeypatch):
    monkeypatch.setenv("TATLOCK_EMBEDDING_MODEL", "off")
    assert vectors.for_config(load()) is None and vectors.semantic_for(load()) is None


def test_a_message_found_by_its_meaning_says_so(server, store):
    vectors.embed_pending(store, embedder())
    semantic = vectors.Semantic(embedder())
    hits = search(store, "Paris", semantic=semantic)
    assert hits and hits[0].content.startswith("We walked along the Seine")
    assert hits[0].why == "similar in meaning"
    # words still count first: a word match with the same meaning beats meaning alone
    store.add_message(2, "user", "Paris in spring", ALICE)
    vectors.embed_pending(store, embedder())
    assert search(store, "Paris", semantic=semantic)[0].content == "Paris in spring"
    # filters hold for the semantic side too
    assert all(
        h.conversation_id == 2
        for h in search(store, "Eiffel", semantic=semantic, conversation_id=2)
    )


def test_the_query_is_embedded_without_the_names_of_the_people_in_the_memory(server, store):
    """Every message is embedded with its speaker's name, so a name in the query's vector makes
    all that person's messages look alike; the name is the speaker boost's business, and the
    vector carries the rest of the question (one request, as before)."""
    vectors.embed_pending(store, embedder())
    semantic = vectors.Semantic(embedder())
    before = len(embed_requests(server))
    hits = search(store, "What did Bob's friends eat at Alice's party?", semantic=semantic)
    sent = [r.body["input"] for r in embed_requests(server)[before:]]
    assert sent == [["What did friends eat at party?"]]
    assert hits and hits[0].content.startswith("Bob brought brie")
    # the messages are embedded without their speaker's name, and vectors kept from the old
    # form (with the name, under the bare model name) are made again
    assert themed(["Alice: x"]) != themed(["x"])  # the stand-in tells the forms apart
    assert all(":" not in t for r in embed_requests(server)[:before] for t in r.body["input"])
    store.conn.execute("UPDATE message_vectors SET model = 'all-minilm'")
    assert rows.counts(store, vectors.stored_as("all-minilm"))[0] == 0
    assert vectors.embed_pending(store, embedder()).done == 4
    assert rows.counts(store, vectors.stored_as("all-minilm")) == (4, 4)
    # a query that is only names keeps them: there is nothing else to search for
    assert without_names("Alice, Bob?", {"alice", "bob"}) == "Alice, Bob?"
    assert without_names("Bobby's brie", {"bob"}) == "Bobby's brie"  # a name is a whole word


def test_only_a_similarity_that_stands_out_counts():
    """In a small memory a high quantile is one of a few values: a similarity counts only when it
    stands out from the rest (mean + 1.65 sd), so a query about nothing here adds no hits."""
    from tatlock.memory.hybrid import DENSE, fuse
    from tatlock.memory.search import RANKING

    flat = {i: 0.30 + 0.01 * (i % 3) for i in range(1, 13)}  # nothing stands out
    own, per_term = fuse({}, {}, flat, RANKING, 1.0)
    assert own == {} and DENSE not in per_term
    peaked = {**flat, 13: 0.80}
    own, per_term = fuse({5: 2.0}, {"brie": {5: 2.0}}, peaked, RANKING, 0.5)
    assert set(own) == {5, 13} and own[5] == 1.0  # BM25 scaled to 1 at its best
    assert own[13] == pytest.approx(RANKING.dense)  # the outlier counts fully
    assert per_term[DENSE] == {13: pytest.approx(RANKING.dense_cover)}


def test_the_openai_backend_embeds_through_v1_and_a_server_without_embeddings_is_left_alone(
    store, monkeypatch
):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    with FakeOllama(MODELS, embed=themed) as srv:
        monkeypatch.setenv("TATLOCK_BASE_URL", srv.url + "/v1")
        assert vectors.embed_pending(store, embedder()).done == 4
        assert {r.path for r in embed_requests(srv)} == {"/v1/embeddings"}
        assert (
            search(store, "Louvre", semantic=vectors.Semantic(embedder()))[0].why
            == "similar in meaning"
        )
    store.conn.execute("DELETE FROM message_vectors")
    with FakeOllama(MODELS, embeddings=False) as srv:  # llama-server started without --embeddings
        monkeypatch.setenv("TATLOCK_BASE_URL", srv.url + "/v1")
        run = vectors.embed_pending(store, embedder())
        assert (
            run.stopped == f"error: {srv.url}/v1 serves no embeddings (start it with --embeddings)"
        )
        assert ids(search(store, "brie", semantic=vectors.Semantic(embedder()))) == ids(
            search(store, "brie")
        )
        assert len(embed_requests(srv)) == 1


def test_the_vectors_table_is_a_migration_of_an_existing_memory(home):
    db = home / "users" / "old_longterm.db"
    db.parent.mkdir(mode=0o700)
    conn = sqlite3.connect(db)
    from tatlock.store import db as dbmod

    dbmod.migrate(conn, "user", target=2)
    conn.close()
    s = UserStore.open(load().paths, "old")
    try:
        assert s.conn.execute("PRAGMA user_version").fetchone()[0] == dbmod.latest_version("user")
        assert rows.counts(s, vectors.stored_as("all-minilm")) == (0, 0)
    finally:
        s.close()


def test_embedding_model_is_a_setting(cli, home):
    assert cli("config", "set", "embedding_model", "nomic-embed-text").code == 0
    assert 'embedding_model = "nomic-embed-text"' in (home / "config.toml").read_text()
    r = cli("config", "set", "embedding_model", "two words")
    assert r.code == 2 and "embedding_model must be an embedding model's name" in r.err
    assert cli("config", "set", "embedding_model", "off").code == 0
    assert vectors.for_config(load()) is None


# -- setup and doctor ------------------------------------------------------------------------


def test_setup_pulls_the_embedding_model_beside_the_chat_model_and_doctor_says_so(cli, monkeypatch):
    with FakeOllama(models={}, pullable=["llama3.2:3b", "all-minilm"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        d = cli("doctor")
        assert "memory search uses keywords alone; `tatlock setup` pulls it" in d.out
        r = cli("setup")
        assert r.code == 0 and r.out == "llama3.2:3b is ready, and all-minilm for memory search\n"
        assert f"pulling all-minilm (for memory search by meaning) from {srv.url}" in r.err
        assert [q.body["model"] for q in srv.requests if q.path == "/api/pull"] == [
            "llama3.2:3b",
            "all-minilm",
        ]
        vectors.Embedder.forget_refusals()  # (doctor's try above is remembered in this process)
        d = cli("doctor")
        line = next(x for x in d.out.splitlines() if x.strip().startswith("embeddings:"))
        assert "ok, all-minilm (64 dimensions): memory search uses meaning too" in line


def test_setup_says_when_the_embedding_model_cannot_be_pulled_and_goes_on(cli, monkeypatch):
    with FakeOllama(models={}, pullable=["llama3.2:3b"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        r = cli("setup")
        assert r.code == 0 and r.out == "llama3.2:3b is ready\n"
        assert (
            "tatlock: could not pull 'all-minilm': pull model manifest: file does not exist; memory search uses"
            " keywords alone until it is there"
        ) in r.err
        monkeypatch.setenv("TATLOCK_EMBEDDING_MODEL", "off")
        r = cli("setup")
        assert [q.body["model"] for q in srv.requests if q.path == "/api/pull"][-1] == "llama3.2:3b"
        assert "embeddings:        off (embedding_model = off)" in cli("doctor").out
