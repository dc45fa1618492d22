"""`scripts/bench memory --month PATH`: a month of one life, told and then asked about.

The month file (``tests/data/facts/facts_month_train.json`` is one) holds the owner's name, the
conversations of the month (each a date and what people typed: the owner or a guest by name),
the facts told in them (with corrections: ``old_value`` is what a later message replaced) and
questions asked afterwards, each with the words a right answer must carry (``expected``).

1. **Telling**: every message of every conversation is a real turn (``Butler.turn``: the
   message stored, facts read from it and kept, the model called) in a new conversation per
   day, each by its speaker (a guest's message is the guest's). The telling always runs against
   the fake model server, answering at once: what is kept does not depend on the model (the
   extractor reads the stored message, before any model call), and the month stays quick.
2. **Asking**: each question in a conversation of its own, started after the month, by its
   speaker, against the fake server or a real model (``--local-llm URL``).

It reports, per fact and in total: **captured** (a kept fact holds the fact's current value:
at least half of its words, in a fact about the right person), **in the prompt** (the words of
the question's expected answer are in the prompt that answered it: the assessment's, or the
respond phase's when there was one; and separately in its kept-facts block), and **right
answers** (at least half of the expected answer's words, parentheses aside, or of what its
parentheses say, are in the answer:
lenient, so the answers are printed with ``-v`` to be read). The fake server knows nothing:
its answers are "I could not say, sir.", so its right answers count only what tatlock says
itself.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

STOP = frozenset(
    """
a an the of to in on at for and or is are was be my our your his her their its it i me we us he she they them with
from by as that this at no not yes now every each just so very
""".split()
)


def words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[^\W_]+", text.lower()):
        w = re.sub(r"^(\d+)(?:st|nd|rd|th)$", r"\1", w)
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        if w not in STOP:
            out.add(w)
    return out


def covers(text: str, expected: str, share: float = 0.5) -> bool:
    need = words(re.sub(r"\([^)]*\)", " ", expected)) or words(expected)
    have = words(text)
    return bool(need) and len(need & have) / len(need) >= share


def holds(text: str, expected: str) -> bool:
    """The expected answer, or what its parentheses say it also is ("yes, she eats fish now
    (pescatarian)": "pescatarian" is the fact too), or one of the answers it gives as
    alternatives ("vegetarian|no meat|meatless": any one of them is the fact)."""
    if "|" in expected:
        return any(holds(text, alt) for alt in expected.split("|") if alt.strip())
    return covers(text, expected) or any(
        covers(text, inner) for inner in re.findall(r"\(([^)]*)\)", expected)
    )


def load(path: Path) -> dict[str, Any]:
    try:
        month = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"bench memory: cannot read {path}: {exc}") from None
    for key in ("owner", "conversations", "facts", "questions"):
        if key not in month:
            raise SystemExit(f"bench memory: {path} has no {key!r}")
    return month


def _fake_model(answer: str):
    from support.replies import phase_of

    summary = (
        "TOPICS DISCUSSED:\n- the day\nFACTUAL TIMELINE:\n- (a summary of the fake model, holding "
        "no fact)\n"
        "KEY FACTS ESTABLISHED:\n- none\nUNRESOLVED ITEMS:\n- none\nTECHNICAL DETAILS:\n- "
        "none"
    )

    def handler(body: dict[str, Any]) -> Any:
        phase = phase_of(body)
        if phase == "assess":
            return {
                "json": {
                    "decision": "DIRECT",
                    "guard_reason": "NONE",
                    "answer": answer,
                    "tools": [],
                    "tool_query": "",
                    "topics": ["day"],
                }
            }
        if phase == "quality":
            return {"json": {"verdict": "APPROVED", "reason": "fine"}}
        if phase == "summary":
            return summary
        if phase == "cross_summary":
            return (
                "Recent Highlights\n- (the fake model's briefing holds no fact)\nPatterns Across "
                "Sessions\n- none"
            )
        if phase == "select_tools":
            return "No tool is needed."
        return answer

    return handler


def _env(home: Path, owner: str, *, url: str | None, model: str, timeout: float) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TATLOCK_", "OLLAMA_"))}
    user = re.sub(r"[^a-z0-9_-]", "", owner.lower()) or "owner"
    env.update(
        TATLOCK_HOME=str(home),
        TATLOCK_USER=user,
        TATLOCK_ANCHOR_NAME=owner,
        TATLOCK_TIER="low",
        TATLOCK_TIMEOUT=str(timeout),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
        TATLOCK_MODEL=model,
    )
    if url and url.rstrip("/").endswith("/v1"):
        env.update(TATLOCK_BACKEND="openai", TATLOCK_BASE_URL=url)
    elif url:
        env.update(TATLOCK_BACKEND="ollama", OLLAMA_HOST=url)
    return env


def _butler(env: dict[str, str], day: dt.date):
    from tatlock.butler import Butler
    from tatlock.config import load as load_config

    when = dt.datetime.combine(day, dt.time(9, 0), tzinfo=dt.UTC)
    return Butler(load_config(env), clock=lambda: when, interface="cli")


def tell(month: dict[str, Any], home: Path, log) -> dict[str, Any]:
    """Every message of the month as a turn against the fake server; returns the kept facts."""
    from support.fake_ollama import FakeOllama

    turns, t0 = 0, time.perf_counter()
    with FakeOllama(handler=_fake_model("Very good, sir.")) as fake:
        env = _env(home, month["owner"], url=fake.url, model="llama3.2:3b", timeout=30)
        for conv in month["conversations"]:
            day = dt.date.fromisoformat(conv["date"])
            with _butler(env, day) as butler:
                cid = None
                for m in conv["messages"]:
                    author = None if m["speaker"] == "owner" else butler.guest(m["speaker"])
                    final = butler.turn(
                        m["text"], new=cid is None, conversation_id=cid, author=author
                    ).result()
                    cid = getattr(final, "conversation_id", cid)
                    turns += 1
        with _butler(env, dt.date.today()) as butler:
            kept = butler.facts.list()
            history = butler.facts.history()
            lines = [butler.facts.line(f) for f in kept]
    log(
        f"told: {turns} turns in {len(month['conversations'])} conversations, "
        f"{time.perf_counter() - t0:.1f} s"
    )
    return {"kept": kept, "lines": lines, "history": history}


def captured(fact: dict[str, Any], lines: list[str], owner: str) -> bool:
    """Kept facts about the right person hold at least half the fact's current value (all the
    kept facts about one subject together: "Biscuit, a beagle" is the dog's name and breed). The
    person is matched by name or by relation: a fact about "Ellie" kept as "Hannah's daughter's
    birthday" counts when "Hannah's daughter's name: Ellie" is kept too."""
    me = owner.lower()
    about = fact["about"].replace("owner", owner)
    people = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+", about)} - {me}
    relations = {w.lower() for w in re.findall(r"'s ([a-z]+)", about)}
    what = fact["what"].lower()
    relation = what.split("'s ")[0] if "'s " in what else ""
    # "hannah's dog" -> [("hannah's dog's name", "Biscuit"), ...]
    subjects: dict[str, list[tuple[str, str]]] = {}
    for line in lines:
        subject, _, value = line.partition(":")
        subj = re.sub(r"\s*\([^)]*\)", "", subject.lower()).strip()
        whose = subj.rsplit("'s ", 1)[0] if "'s " in subj else subj
        subjects.setdefault(whose, []).append((subject.lower(), value.strip()))
    names = {w: v.lower() for w, kept in subjects.items() for s, v in kept if s.endswith("'s name")}
    for whose, kept in subjects.items():
        if people:
            named_here = any(re.search(rf"\b{re.escape(p)}\b", whose) for p in people)
            by_relation = names.get(whose) in people or (
                bool(relations) and any(r in whose for r in relations) and whose.startswith(me)
            )
            if not (named_here or by_relation):
                continue
        elif whose != me and not (
            whose.startswith(me + "'s ")
            and (whose[len(me) + 3 :] == relation or whose[len(me) + 3 :] in what.split())
        ):
            continue
        values = [v for s, v in kept if not relation or relation in s]
        if covers(" ".join(values), fact["value"]):
            return True
    return False


def ask(
    month: dict[str, Any], home: Path, *, url: str | None, model: str, timeout: float, log
) -> list[dict]:
    from tatlock.events import ModelCall, TurnFinished

    end = max(dt.date.fromisoformat(c["date"]) for c in month["conversations"]) + dt.timedelta(
        days=1
    )
    out = []
    fake_ctx = None
    if url is None:
        from support.fake_ollama import FakeOllama

        fake_ctx = FakeOllama(handler=_fake_model("I could not say, sir."))
        fake_ctx.start()
        url, model = fake_ctx.url, "llama3.2:3b"
    try:
        env = _env(home, month["owner"], url=url, model=model, timeout=timeout)
        for n, q in enumerate(month["questions"], 1):
            with _butler(env, end) as butler:
                calls: list[ModelCall] = []
                author = None if q["speaker"] == "owner" else butler.guest(q["speaker"])
                t0 = time.perf_counter()
                turn = butler.turn(q["question"], new=True, author=author)
                for ev in turn:
                    if isinstance(ev, ModelCall):
                        calls.append(ev)
                final = turn.result()
                ms = (time.perf_counter() - t0) * 1000
                found = _retrieved(butler, q, getattr(final, "conversation_id", None))
                recall_ms = _recall_ms(butler, q, getattr(final, "conversation_id", None))
            answer = (
                final.answer
                if isinstance(final, TurnFinished)
                else f"(failed: {getattr(final, 'message', '')})"
            )
            answering = [c for c in calls if c.phase in ("assess", "respond")]
            # the question itself is taken out: its own words are not the fact being in the prompt
            prompt = "\n".join(
                m.get("content") or "" for c in answering for m in c.messages
            ).replace(q["question"], "")
            block = re.search(r"## What you have been told.*?(?:\n\n|\Z)", prompt, re.S)
            row = {
                "fact": q.get("fact"),
                "speaker": q["speaker"],
                "question": q["question"],
                "expected": q["expected"],
                "answer": answer,
                "ms": ms,
                "route": getattr(final, "route", None),
                "quality": getattr(final, "quality", None),
                "in_prompt": holds(prompt, q["expected"]),
                "in_block": holds(block.group(0), q["expected"]) if block else False,
                "right": holds(answer, q["expected"]),
                "retrieved_rank": found,
                "recall_ms": recall_ms,
                "said": any(
                    holds(m["text"], q["expected"])
                    for c in month["conversations"]
                    for m in c["messages"]
                ),
            }
            out.append(row)
            log(
                f"  {n:>2}/{len(month['questions'])} {row['fact'] or '-':>4} in prompt "
                f"{'yes' if row['in_prompt'] else 'no ':<3}"
                f" right {'yes' if row['right'] else 'no ':<3} {ms / 1000:5.1f} s  "
                f"{q['question'][:60]}"
            )
    finally:
        if fake_ctx is not None:
            fake_ctx.stop()
    return out


def _retrieved(butler: Any, q: dict[str, Any], conversation_id: int | None) -> int | None:
    """Where the search (the one recall uses, BM25 here: the fake server embeds nothing) ranks
    the first earlier message of the user's that holds the expected answer, among the users'
    messages of other conversations in its best 12; None when none of them does."""
    from tatlock.memory import search as memory_search

    hits = memory_search.search(butler.store, q["question"], limit=12, include_compacts=False)
    own = [
        h
        for h in hits
        if h.kind == "message" and h.role == "user" and h.conversation_id != conversation_id
    ]
    return next((n for n, h in enumerate(own, 1) if holds(h.content, q["expected"])), None)


def _recall_ms(butler: Any, q: dict[str, Any], conversation_id: int | None) -> float:
    """What the question-time search of the user's earlier messages costs (memory/earlier.py, the
    one search between a question and its answer), timed on its own after the turn."""
    from tatlock.memory import earlier
    from tatlock.pipeline import compose

    t0 = time.perf_counter()
    earlier.said_before(
        butler.store,
        q["question"],
        conversation_id=conversation_id or -1,
        budget_tokens=4096,
        told=bool(compose.ASKS.first(q["question"], "told")),
    )
    return (time.perf_counter() - t0) * 1000


def stage(row: dict[str, Any], captured_fact: bool) -> str:
    """Where the fact a question asks about was lost on its way to the answering prompt."""
    if row["in_prompt"]:
        return "in prompt"
    if captured_fact:
        return "captured, not in prompt"
    if row.get("retrieved_rank"):
        return "retrieved, cut from prompt"
    if row.get("said"):
        return "not captured, not retrieved"
    return "said in other words than expected"


def _pct(values: list[Any], q: float) -> float | None:
    got = sorted(v for v in values if v is not None)
    return round(got[min(len(got) - 1, int(q * len(got)))], 2) if got else None


STAGES = (
    "in prompt",
    "captured, not in prompt",
    "retrieved, cut from prompt",
    "not captured, not retrieved",
    "said in other words than expected",
)


def run(
    path: Path,
    *,
    url: str | None,
    model: str,
    timeout: float,
    verbose: bool,
    as_json: bool,
    questions: str | None = None,
    save: Path | None = None,
    merge: list[Path] | None = None,
) -> int:
    """Tell the month and ask its questions (``questions``: "11-20", a part of them, so that a
    slow model can be asked in parts, each saved with ``save`` and reported together with
    ``merge``)."""
    month = load(path)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if merge:
        parts = []
        for part in merge:
            try:
                parts.append(json.loads(part.read_text(encoding="utf-8")))
            except (OSError, ValueError) as exc:
                raise SystemExit(f"bench memory: cannot read {part}: {exc}") from None
        told = {
            "lines": parts[0]["kept"],
            "kept": parts[0]["kept"],
            "history": [None] * parts[0]["summary"]["superseded_values"],
        }
        got = parts[0]["captured"]
        rows = [r for p in parts for r in p["questions"]]
        model_name = parts[0]["summary"]["model"]
    else:
        if questions:
            m = re.fullmatch(r"(\d+)-(\d+)", questions)
            if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
                raise SystemExit(
                    f"bench memory: --questions takes a range such as 1-10, not {questions!r}"
                )
            month["questions"] = month["questions"][int(m.group(1)) - 1 : int(m.group(2))]
        with tempfile.TemporaryDirectory(
            prefix="tatlock-bench-month-", ignore_cleanup_errors=True
        ) as tmp:
            home = Path(tmp)
            told = tell(month, home, log)
            got = {f["id"]: captured(f, told["lines"], month["owner"]) for f in month["facts"]}
            rows = ask(month, home, url=url, model=model, timeout=timeout, log=log)
        model_name = "fake (answers nothing)" if url is None else f"{model} at {url}"
    facts = month["facts"]
    corrected = [f for f in facts if f.get("old_value")]
    old_shown = [
        f["id"]
        for f in corrected
        if any(
            covers(line.split(":", 1)[1], f["old_value"], 0.75)
            and not covers(line.split(":", 1)[1], f["value"])
            for line in told["lines"]
        )
    ]
    ms = sorted(r["ms"] for r in rows)
    for r in rows:
        r["stage"] = stage(r, bool(r["fact"] and got.get(r["fact"])))
    summary = {
        "month": str(path),
        "model": model_name,
        "facts": len(facts),
        "captured": sum(got.values()),
        "corrections": len(corrected),
        "corrections_captured": sum(got[f["id"]] for f in corrected),
        "corrected_but_old_value_current": old_shown,
        "questions": len(rows),
        "in_prompt": sum(r["in_prompt"] for r in rows),
        "in_facts_block": sum(r["in_block"] for r in rows),
        "right": sum(r["right"] for r in rows),
        "median_s": round(ms[len(ms) // 2] / 1000, 2) if ms else None,
        "kept_facts": len(told["kept"]),
        "superseded_values": len(told["history"]),
        "stages": {s: sum(r["stage"] == s for r in rows) for s in STAGES},
        "recall_ms_p50": _pct([r.get("recall_ms") for r in rows], 0.5),
        "recall_ms_max": _pct([r.get("recall_ms") for r in rows], 1.0),
    }
    result = {
        "summary": summary,
        "captured": got,
        "questions": rows,
        "kept": told["lines"] if merge else [str(x) for x in told["lines"]],
    }
    if save:
        save.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    if as_json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return 0
    print(
        f"memory month: {path} ({month['owner']}: {len(month['conversations'])} conversations, "
        f"{sum(len(c['messages']) for c in month['conversations'])} messages); asking "
        f"{summary['model']}"
    )
    print(
        f"  facts captured:           {summary['captured']:>2} of {summary['facts']}"
        f"  (corrections: {summary['corrections_captured']} of {summary['corrections']} at their "
        f"new value)"
    )
    print(
        f"  kept facts in memory:     {summary['kept_facts']:>2}  ({summary['superseded_values']} "
        f"earlier values kept as"
        " history)"
    )
    print(
        f"  answering prompt has it:  {summary['in_prompt']:>2} of {summary['questions']}"
        f"  (in the kept-facts block: {summary['in_facts_block']})"
    )
    print(
        f"  right answers:            {summary['right']:>2} of {summary['questions']}"
        f"  (median {summary['median_s']} s a question)"
    )
    print(
        "  where the fact was lost:  " + "; ".join(f"{s} {n}" for s, n in summary["stages"].items())
    )
    print(
        f"  recall at question time:  p50 {summary['recall_ms_p50']} ms, max "
        f"{summary['recall_ms_max']} ms a question (the search of earlier messages, timed alone)"
    )
    missed = [f["id"] for f in facts if not got[f["id"]]]
    print(f"  facts not captured: {', '.join(missed) or 'none'}")
    if verbose:
        print("\nkept facts:")
        for line in told["lines"]:
            print(f"  - {line}")
        print("\nquestions:")
        for r in rows:
            print(
                f"  [{r['fact']}] {r['speaker']}: {r['question']}\n      expected: {r['expected']}  "
                f"| in prompt: "
                f"{r['in_prompt']}  right: {r['right']}  ({r['route']}, {r['quality']}, "
                f"{r['ms'] / 1000:.1f} s; {r['stage']}, search rank {r.get('retrieved_rank')})\n"
                f"      answer: {' '.join(r['answer'].split())[:300]}"
            )
    return 0
