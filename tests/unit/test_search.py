"""Memory search (tatlock.memory.search) and the LoCoMo benchmark's ingest + evaluate path.

Real SQLite files under the per-test TATLOCK_HOME (see conftest.py)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from tatlock.config import Paths
from tatlock.memory import search as search_mod
from tatlock.memory.search import Hit, fts_query, search
from tatlock.store.user import Author, UserStore

ROOT = Path(__file__).resolve().parents[2]
MARIA = Author("maria", "Maria")
JOHN = Author("john", "John")


@pytest.fixture
def paths(home, tmp_path, monkeypatch) -> Paths:
    monkeypatch.setenv("TATLOCK_HOME", str(tmp_path))
    return Paths.resolve()


@pytest.fixture
def store(paths):
    s = UserStore.open(paths, "alice")
    yield s
    s.close()


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "bench_locomo", ROOT / "scripts" / "bench_locomo.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_locomo"] = mod
    spec.loader.exec_module(mod)
    return mod


def add(store: UserStore, conv_id: int, author: Author, text: str, ts: str, **meta):
    return store.add_message(conv_id, "user", text, author, timestamp=ts, metadata=meta or None)


FILLER = [
    "The weather was grey all day.",
    "I cooked pasta for dinner.",
    "Work was busy this week.",
    "The cat knocked over a vase.",
    "We watched a film about space.",
    "My phone battery died again.",
    "The train was late this morning.",
    "I bought new running shoes.",
    "The garden needs weeding.",
    "Our neighbour has a loud dog.",
    "I'm reading a novel about pirates.",
    "Coffee tastes better at home.",
]


def filler(store: UserStore) -> None:
    """Unrelated messages, so that words of the tests have realistic BM25 weights."""
    conv = store.create_conversation("filler", "cli")
    for i, text in enumerate(FILLER):
        add(store, conv.id, Author("sam", "Sam"), text, f"2022-01-01T10:00:{i:02d}+00:00")


def ids(hits: list[Hit]) -> list[int | None]:
    return [h.message_id for h in hits]


# ------------------------------------------------------------------------------ quoting


HOSTILE = [
    'AND OR "',
    "*",
    "NEAR(",
    "NEAR(a b",
    "col:x",
    "content:secret",
    "author_name:Maria",
    '"unbalanced',
    "a AND",
    "OR OR OR",
    "NOT",
    "(((",
    ")",
    "^start",
    "-minus",
    "+plus",
    "a*b*",
    '""""',
    "'",
    "\\",
    "\x00",
    "{content extra}: x",
    "NEAR(mountains hiking, 2)",
    "hiking NOT mountains",
    "🙂 emoji",
    "ünïcödé ÄÖÜ",
    "x" * 5000,
    "   ",
    "",
    "_",
    "a_b",
    "12:30",
    "-- drop table",
    "'; DROP TABLE conversation_messages; --",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_raise(store, query):
    conv = store.create_conversation("room", "cli")
    add(
        store,
        conv.id,
        MARIA,
        "We went hiking in the mountains AND saw a NEAR miss",
        "2023-05-01T10:00:00+00:00",
    )
    hits = search(store, query, limit=5)
    assert isinstance(hits, list)
    assert all(isinstance(h, Hit) for h in hits)
    # filters too
    assert isinstance(
        search(store, query, start="2023-01-01", end="2024-01-01", topic=query or "x"), list
    )


def test_odd_arguments_return_empty(store):
    conv = store.create_conversation("room", "cli")
    add(store, conv.id, MARIA, "hiking", "2023-05-01T10:00:00+00:00")
    assert search(store, None, limit=5) == []  # type: ignore[arg-type]
    assert search(store, "hiking", limit=0) == []
    assert search(store, "hiking", limit="many") == []  # type: ignore[arg-type]
    assert search(store, "hiking", conversation_id="nope") == []  # type: ignore[arg-type]
    assert search(store, "", limit=5) == []
    assert ids(search(store, "hiking", limit=-1)) == []


def test_fts_query_quotes_every_word():
    assert fts_query('AND OR "') == '"and" OR "or"'
    assert fts_query("col:x NEAR(") == '"col" OR "x" OR "near"'
    assert fts_query("Where did Maria go hiking?") == '"maria" OR "go" OR "hiking"'
    assert fts_query("") == ""
    assert fts_query("***") == ""
    # every piece is a quoted string: FTS5 accepts it as a plain OR of phrases
    store_conn = __import__("sqlite3").connect(":memory:")
    store_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    for q in HOSTILE:
        expr = fts_query(q)
        if expr:
            store_conn.execute("SELECT * FROM t WHERE t MATCH ?", (expr,)).fetchall()


# ------------------------------------------------------------------------------ filters


def test_time_range_filter(store):
    conv = store.create_conversation("room", "cli")
    old = add(store, conv.id, MARIA, "I baked sourdough bread", "2023-01-10T09:00:00+00:00")
    mid = add(store, conv.id, MARIA, "More sourdough bread today", "2023-03-10T09:00:00+00:00")
    new = add(
        store, conv.id, MARIA, "Sourdough bread again, the best yet", "2023-06-10T09:00:00+00:00"
    )
    assert set(ids(search(store, "sourdough bread"))) == {
        old.message_id,
        mid.message_id,
        new.message_id,
    }
    got = search(
        store, "sourdough bread", start="2023-02-01T00:00:00+00:00", end="2023-04-01T00:00:00+00:00"
    )
    assert ids(got) == [mid.message_id]
    assert ids(search(store, "sourdough", start="2023-03-01T00:00:00+00:00")) and set(
        ids(search(store, "sourdough", start="2023-03-01T00:00:00+00:00"))
    ) == {mid.message_id, new.message_id}
    assert ids(search(store, "sourdough", end="2023-03-10T09:00:00+00:00")) == [
        old.message_id
    ]  # end excluded
    assert search(store, "sourdough", start="2024-01-01T00:00:00+00:00") == []


def test_conversation_filter(store):
    a = store.create_conversation("room-a", "cli")
    b = store.create_conversation("room-b", "cli")
    add(store, a.id, MARIA, "The garden roses are blooming", "2023-05-01T10:00:00+00:00")
    mb = add(store, b.id, JOHN, "My roses died in the frost", "2023-05-02T10:00:00+00:00")
    assert len(search(store, "roses")) == 2
    assert ids(search(store, "roses", conversation_id=b.id)) == [mb.message_id]


def test_topic_filter(store):
    a = store.create_conversation("room-a", "cli")
    b = store.create_conversation("room-b", "cli")
    c = store.create_conversation("room-c", "cli")
    tagged = add(store, a.id, MARIA, "The piano recital went well", "2023-05-01T10:00:00+00:00")
    add(store, a.id, MARIA, "The piano tuner comes Friday", "2023-05-01T10:01:00+00:00")
    in_conv = add(store, b.id, JOHN, "I practise piano every evening", "2023-05-02T10:00:00+00:00")
    add(store, c.id, JOHN, "Piano lessons are expensive", "2023-05-03T10:00:00+00:00")
    # topic on one message of conversation a (the topic row itself links conversation a too,
    # so add another topic to a's conversation list only through the message)
    store.conn.execute("INSERT INTO topics (name) VALUES ('music')")
    tid = store.conn.execute("SELECT id FROM topics WHERE name = 'music'").fetchone()[0]
    store.conn.execute(
        "INSERT INTO topic_messages (topic_id, message_id) VALUES (?, ?)", (tid, tagged.message_id)
    )
    store.add_topics(b.id, ["Music"])  # the whole conversation b
    got = search(store, "piano", topic="MUSIC")
    assert set(ids(got)) == {tagged.message_id, in_conv.message_id}
    assert search(store, "piano", topic="cooking") == []
    # empty query + topic: the most recent matching messages
    assert ids(search(store, "", topic="music")) == [in_conv.message_id, tagged.message_id]


def test_empty_query_with_time_range_returns_recent(store):
    conv = store.create_conversation("room", "cli")
    msgs = [
        add(
            store,
            conv.id,
            MARIA if i % 2 else JOHN,
            f"message {i}",
            f"2023-05-0{i + 1}T10:00:00+00:00",
        )
        for i in range(6)
    ]
    got = search(store, "", start="2023-05-02T00:00:00+00:00", end="2023-05-05T00:00:00+00:00")
    assert ids(got) == [msgs[3].message_id, msgs[2].message_id, msgs[1].message_id]  # newest first
    assert [h.kind for h in got] == ["message"] * 3
    # a stopword-only question behaves the same
    got = search(
        store,
        "what did we talk about?",
        start="2023-05-02T00:00:00+00:00",
        end="2023-05-05T00:00:00+00:00",
        limit=2,
    )
    assert ids(got) == [msgs[3].message_id, msgs[2].message_id]
    assert search(store, "", limit=5) == []  # no words and no filter: nothing to go on


def test_datetime_bounds_are_accepted(store):
    import datetime as dt

    conv = store.create_conversation("room", "cli")
    add(store, conv.id, MARIA, "Tulips in the park", "2023-04-01T10:00:00+00:00")
    late = add(store, conv.id, MARIA, "Tulips on the balcony", "2023-05-01T10:00:00+00:00")
    utc = dt.UTC
    got = search(
        store,
        "tulips",
        start=dt.datetime(2023, 4, 15, tzinfo=utc),
        end=dt.datetime(2023, 6, 1, tzinfo=utc),
    )
    assert ids(got) == [late.message_id]
    assert ids(search(store, "tulips", start=dt.date(2023, 4, 15))) == [late.message_id]


def test_query_naming_only_a_person_returns_their_latest_messages(store):
    filler(store)
    conv = store.create_conversation("room", "cli")
    m1 = add(store, conv.id, MARIA, "Good morning!", "2023-05-01T10:00:00+00:00")
    add(store, conv.id, JOHN, "Morning.", "2023-05-01T10:00:01+00:00")
    j2 = add(store, conv.id, JOHN, "Did you see Maria's new bike?", "2023-05-01T10:00:02+00:00")
    m2 = add(store, conv.id, MARIA, "Off to work now.", "2023-05-01T10:00:03+00:00")
    assert ids(search(store, "Maria?")) == [m2.message_id, j2.message_id, m1.message_id]
    assert ids(search(store, "what about maria", end="2023-05-01T10:00:02+00:00")) == [
        m1.message_id
    ]


# ------------------------------------------------------------------------------ ranking


def test_speaker_named_in_question_ranks_their_turn_first(store, monkeypatch):
    filler(store)
    a = store.create_conversation("room-a", "cli")
    b = store.create_conversation("room-b", "cli")
    johns = add(store, a.id, JOHN, "Hiking in the mountains is great.", "2023-05-01T10:00:00+00:00")
    marias = add(
        store,
        b.id,
        MARIA,
        "I was hiking in the mountains with my sister.",
        "2023-05-02T10:00:00+00:00",
    )
    question = "Where did Maria go hiking in the mountains?"
    hits = search(store, question)
    assert hits[0].message_id == marias.message_id
    assert hits[0].author_name == "Maria"
    # the speaker boost is what decides: without it the shorter (higher-BM25) turn wins
    monkeypatch.setattr(search_mod, "RANKING", dataclasses.replace(search_mod.RANKING, speaker=0.0))
    assert search(store, question)[0].message_id == johns.message_id


def test_irregular_forms_stay_in_their_own_group():
    """Each line of the word groups ends its group: "run" once also matched "write", "wrote",
    "written" (the next line's group), "draw" matched "choose"."""
    from tatlock.memory.query import match_expr

    assert match_expr("run") == '"run" OR "ran"'
    assert match_expr("draw") == '"draw" OR "drew" OR "drawn"'
    assert match_expr("written") == '"written" OR "write" OR "wrote"'
    assert match_expr("mum") == '"mum" OR "mom" OR "mother"'


def test_light_verb_weighs_less_than_the_subject(store):
    """ "When did Maria go to the beach?": the beach, not "go" (whose forms are in many turns),
    decides; the turn that says "went" but not "beach" ranks below the one about the beach."""
    filler(store)
    conv = store.create_conversation("room", "cli")
    went = add(store, conv.id, MARIA, "I went out.", "2023-05-01T10:00:00+00:00")
    for i in range(4):
        add(
            store,
            conv.id,
            JOHN,
            f"Nothing much happened on day {i}.",
            f"2023-05-01T11:0{i}:00+00:00",
        )
    beach = add(
        store,
        conv.id,
        MARIA,
        "Last Sunday the sand and the sea at the beach were lovely, all of it.",
        "2023-05-01T12:00:00+00:00",
    )
    hits = search(store, "When did Maria go to the beach?")
    assert ids(hits)[0] == beach.message_id
    assert went.message_id in ids(hits)


def test_neighbouring_turn_is_found(store):
    conv = store.create_conversation("room", "cli")
    add(store, conv.id, JOHN, "How did the marathon go?", "2023-05-01T10:00:00+00:00")
    answer = add(
        store,
        conv.id,
        MARIA,
        "Four hours and ten minutes, I'm thrilled!",
        "2023-05-01T10:00:01+00:00",
    )
    hits = search(store, "How long was Maria's marathon?")
    assert answer.message_id in ids(hits)


def test_caption_is_searchable(store):
    conv = store.create_conversation("room", "cli")
    m = add(
        store,
        conv.id,
        MARIA,
        "Look at this!",
        "2023-05-01T10:00:00+00:00",
        search_text="a photo of a golden retriever on a couch",
    )
    hits = search(store, "retriever")
    assert ids(hits) == [m.message_id]
    assert hits[0].content == "Look at this!"


def test_hit_fields(store):
    conv = store.create_conversation("room", "cli")
    add(store, conv.id, JOHN, "unrelated", "2023-05-01T10:00:00+00:00")
    m = add(store, conv.id, MARIA, "The violin concert was lovely", "2023-05-01T10:00:01+00:00")
    h = search(store, "violin")[0]
    assert (
        h.kind,
        h.conversation_id,
        h.message_id,
        h.message_number,
        h.author_name,
        h.role,
        h.content,
        h.timestamp,
    ) == (
        "message",
        conv.id,
        m.message_id,
        2,
        "Maria",
        "user",
        "The violin concert was lovely",
        "2023-05-01T10:00:01+00:00",
    )
    assert h.from_message is None and h.up_to_message is None and h.score > 0


def test_compact_hits(store):
    conv = store.create_conversation("room", "cli")
    for i in range(4):
        add(store, conv.id, MARIA, f"chat {i}", f"2023-05-01T10:00:0{i}+00:00")
    store.conn.execute(
        "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, summary, topics, model,"
        " created_at) VALUES (?, 1, 4, ?, ?, 'test', '2023-05-02T00:00:00+00:00')",
        (conv.id, "Maria planned a kayaking trip to Norway.", json.dumps(["travel"])),
    )
    hits = search(store, "kayaking Norway")
    assert [h.kind for h in hits] == ["compact"]
    h = hits[0]
    assert (h.conversation_id, h.from_message, h.up_to_message, h.message_id, h.message_number) == (
        conv.id,
        1,
        4,
        None,
        None,
    )
    assert h.content == "Maria planned a kayaking trip to Norway."
    assert h.timestamp == "2023-05-01T10:00:00+00:00"  # when the span began
    assert search(store, "kayaking Norway", include_compacts=False) == []
    assert search(store, "kayaking", topic="travel")[0].kind == "compact"
    assert search(store, "kayaking", start="2023-06-01T00:00:00+00:00") == []
    assert search(store, "kayaking", conversation_id=conv.id + 1) == []


def test_date_in_question_favours_that_day(store):
    a = store.create_conversation("room-a", "cli", started_at="2023-03-01T10:00:00+00:00")
    b = store.create_conversation("room-b", "cli", started_at="2023-10-13T10:00:00+00:00")
    add(store, a.id, MARIA, "I finished a painting of the sea.", "2023-03-01T10:00:00+00:00")
    later = add(
        store,
        b.id,
        MARIA,
        "Here is a painting I just finished, a sunset over the sea.",
        "2023-10-13T10:00:00+00:00",
    )
    assert (
        search(store, "What painting did Maria show on October 13, 2023?")[0].message_id
        == later.message_id
    )


def test_date_in_question_finds_that_time_without_other_words(store):
    """ "Where did Maria travel in July 2022?": the answer ("I went to Woodhaven") has none of the
    question's words; it is found because it was said then. Found only with the date candidates."""
    filler(store)
    june = store.create_conversation("june", "cli", started_at="2022-06-02T10:00:00+00:00")
    july = store.create_conversation("july", "cli", started_at="2022-07-20T10:00:00+00:00")
    add(store, june.id, MARIA, "I went to the dentist, all fine.", "2022-06-02T10:00:00+00:00")
    there = add(
        store,
        july.id,
        MARIA,
        "I went to Woodhaven, a small town in the Midwest.",
        "2022-07-20T10:00:00+00:00",
    )
    question = add(
        store, july.id, JOHN, "Where did Maria travel to in July 2022?", "2022-07-20T10:01:00+00:00"
    )
    got = search(store, "Where did Maria travel to in July 2022?", exclude=[question.message_id])
    assert ids(got)[:1] == [there.message_id]
    assert got[0].why == "written around the date asked about"
    assert question.message_id not in ids(got)
    off = dataclasses.replace(search_mod.RANKING, date_base=0.0)
    assert there.message_id not in ids(
        search_mod._search(
            store,
            "Where did Maria travel to in July 2022?",
            10,
            None,
            None,
            None,
            None,
            True,
            off,
            exclude=frozenset({question.message_id}),
        )
    )


def test_date_words_are_not_searched_and_the_day_itself_ranks_first(store):
    """ "on 25 May, 2022": "may" is the month, not the verb, and a message of that very day ranks
    above one of five days before."""
    filler(store)
    before = store.create_conversation("before", "cli", started_at="2022-05-20T19:00:00+00:00")
    day = store.create_conversation("day", "cli", started_at="2022-05-25T15:00:00+00:00")
    may = add(store, before.id, JOHN, "You may like this one.", "2022-05-20T19:00:00+00:00")
    gift = add(
        store, day.id, JOHN, "Looky here, I got this new pup for you!", "2022-05-25T15:00:00+00:00"
    )
    got = ids(search(store, "What did John do for Maria on 25 May, 2022?"))
    assert got[:1] == [gift.message_id]
    assert may.message_id in got  # within the week around it, so still a candidate


def test_date_candidates_respect_the_filters(store):
    july = store.create_conversation("july", "cli", started_at="2022-07-20T10:00:00+00:00")
    other = store.create_conversation("other", "cli", started_at="2022-07-20T10:00:00+00:00")
    add(store, july.id, MARIA, "I went to Woodhaven.", "2022-07-20T10:00:00+00:00")
    elsewhere = add(store, other.id, MARIA, "I went to Leeds.", "2022-07-21T10:00:00+00:00")
    got = search(store, "Where did Maria travel in July 2022?", conversation_id=july.id)
    assert elsewhere.message_id not in ids(got)
    assert (
        search(store, "Where did Maria travel in July 2022?", start="2022-08-01T00:00:00+00:00")
        == []
    )


# ------------------------------------------------------------------------------ LoCoMo bench


FIXTURE = [
    {
        "sample_id": "conv-test",
        "conversation": {
            "speaker_a": "Maria",
            "speaker_b": "John",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {
                    "speaker": "Maria",
                    "dia_id": "D1:1",
                    "text": "Hey John! I adopted a puppy last week, her name is Coco.",
                },
                {"speaker": "John", "dia_id": "D1:2", "text": "Congrats! What breed is she?"},
                {
                    "speaker": "Maria",
                    "dia_id": "D1:3",
                    "text": "A golden retriever. Here she is!",
                    "blip_caption": "a photo of a dog sleeping on a couch",
                },
            ],
            "session_2_date_time": "10:04 am on 20 June, 2023",
            "session_2": [
                {
                    "speaker": "John",
                    "dia_id": "D2:1",
                    "text": "I ran the Boston marathon yesterday!",
                },
                {"speaker": "Maria", "dia_id": "D2:2", "text": "Amazing! How long did it take?"},
                {"speaker": "John", "dia_id": "D2:3", "text": "Four hours and ten minutes."},
            ],
        },
        "qa": [
            {
                "question": "What is the name of the puppy Maria adopted?",
                "answer": "Coco",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "When did John run the Boston marathon?",
                "answer": "19 June 2023",
                "evidence": ["D2:1"],
                "category": 2,
            },
            # malformed evidence as in the real file: "D1:2; D1:3" is split, "D9:9" does not exist
            {
                "question": "What breed is the dog sleeping on the couch?",
                "answer": "golden retriever",
                "evidence": ["D1:2; D1:03", "D9:9"],
                "category": 1,
            },
        ],
        "observation": {},
        "session_summary": {},
        "event_summary": {},
    }
]


def test_bench_ingest_uses_real_store(bench, paths):
    store = bench.ingest_sample(paths, 1, FIXTURE[0])
    try:
        assert store.path == paths.user_db("locomo-1")
        convs = sorted(store.conversations(), key=lambda c: c.id)
        assert [(c.room_id, c.interface, c.started_at, c.message_count) for c in convs] == [
            ("conv-test", "locomo", "2023-05-08T13:56:00+00:00", 3),
            ("conv-test", "locomo", "2023-06-20T10:04:00+00:00", 3),
        ]
        msgs = store.messages(convs[0].id)
        assert [m.timestamp for m in msgs] == [
            "2023-05-08T13:56:00+00:00",
            "2023-05-08T13:56:01+00:00",
            "2023-05-08T13:56:02+00:00",
        ]
        assert (msgs[2].author_id, msgs[2].author_name) == ("maria", "Maria")
        assert msgs[2].metadata == {
            "dia_id": "D1:3",
            "search_text": "a photo of a dog sleeping on a couch",
        }
        assert msgs[0].metadata == {"dia_id": "D1:1"}
        assert sorted(bench.dia_ids(store).values()) == [
            "D1:1",
            "D1:2",
            "D1:3",
            "D2:1",
            "D2:2",
            "D2:3",
        ]
    finally:
        store.close()


def test_bench_evaluate_gives_expected_recall(bench, paths):
    store = bench.ingest_sample(paths, 1, FIXTURE[0])
    try:
        records = bench.evaluate_sample(store, FIXTURE[0], [1, 5])
    finally:
        store.close()
    assert [r["n_gold"] for r in records] == [1, 1, 2]
    assert [r["recall@1"] for r in records] == [1.0, 1.0, 0.5]
    assert [r["recall@5"] for r in records] == [1.0, 1.0, 1.0]
    agg = bench.aggregate(records, [1, 5])
    assert agg["questions"] == 3
    assert agg["recall@1"] == pytest.approx(100 * 2.5 / 3)
    assert agg["recall@5"] == pytest.approx(100.0)
    assert agg["by_category"]["multi-hop"]["recall@1"] == pytest.approx(50.0)
    assert set(agg["by_category"]) == {"single-hop", "multi-hop", "temporal"}


def test_bench_main_json(bench, tmp_path, capsys):
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(FIXTURE))
    assert bench.main(["--data", str(data), "--k", "1,5", "--json", "--embeddings", "off"]) == 0
    out = capsys.readouterr()
    figures = json.loads(out.out.strip().splitlines()[-1])
    assert set(figures) == {"embeddings_off"}  # BM25 alone: no encoder, no server
    result = figures["embeddings_off"]
    assert result["questions"] == 3
    assert result["recall@5"] == pytest.approx(100.0)
    assert result["recall@1"] == pytest.approx(100 * 2.5 / 3)
    assert set(result["by_category"]["temporal"]) >= {"recall@1", "recall@5"}
    assert result["query_ms_p50"] >= 0 and result["query_ms_p95"] >= result["query_ms_p50"]
    assert result["by_conversation"]["conv-test"]["recall@5"] == pytest.approx(100.0)
    assert result["max_rss_mb"] > 0
    assert "ingesting conv-test" in out.err
    assert (
        bench.main(["--data", str(data), "--conversations", "conv-nope", "--embeddings", "off"])
        == 2
    )
    assert "no conversation conv-nope" in capsys.readouterr().err


def test_bench_norm_ids_matches_baseline(bench):
    assert bench.norm_ids(["D8:6; D9:17", "D30:05", "D:11:26", None]) == [
        "D8:6",
        "D9:17",
        "D30:5",
        "D11:26",
    ]
    assert bench.norm_ids(None) == []
