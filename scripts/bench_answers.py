"""`scripts/bench answers`: right answers from tatlock against the same model asked directly.

Each case (a JSON line: ``kind``, ``question``, ``expected``, ``earlier_same``, ``earlier_other``;
a first line ``{"header": ...}`` describes the file, as in
/work/blind-train/facts/facts_questions_train.jsonl) is put, in a fresh home:

* to tatlock, through its Python API as every interface does: the ``earlier_other`` messages as
  turns of an earlier conversation, the ``earlier_same`` ones as earlier turns of this one, then
  the question (a new conversation unless there were ``earlier_same`` turns);
* to the bare model, as `llm` or a plain chat client sends it: the question alone in a user
  message (no system prompt, the server's default sampling), after the ``earlier_same``
  messages and the model's own replies to them; a bare client keeps nothing between
  conversations, so ``earlier_other`` is not told to it.

Both answers are graded by one rule (tests/support/answer_grades.py): right when the answer
carries the fact (the expected words; for the clock and this machine, the values at run time;
for "what can you do", the enabled tools), an honest fallback when it says it does not know, and
wrong otherwise. Times are each question's wall time (to the end of the answer) and time to the
first byte; the earlier turns are not timed.

    scripts/bench answers [--cases FILE] [--kinds name,date] [--ids ...] [--limit N]
                          [--sides tatlock,bare] [--env TATLOCK_X=V ...] [--save FILE] [--show]
    scripts/bench answers --report FILE [FILE ...]     # merge saved runs (regraded) into one report

By default the cases are tests/data/answers/done_when.jsonl, the issue's ten kinds of question
(issue 19's "Done when": at least 8 of 10 right, tatlock's median at most 4x the bare model's).
A run on the real model is slow on a small machine: run a part at a time (``--kinds``, ``--limit``,
``--part 2/4``) with ``--save``, then ``--report`` the saved files together.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

from support.answer_grades import Truth, grade  # noqa: E402

DEFAULT_CASES = ROOT / "tests" / "data" / "answers" / "done_when.jsonl"
DEFAULT_URL = "http://127.0.0.1:18080/v1"
KIND_ORDER = [
    "name",
    "nature",
    "date",
    "weekday",
    "month",
    "year",
    "time",
    "cores",
    "memory",
    "disk",
    "os",
    "capabilities",
    "told_same",
    "told_other",
    "general",
]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_cases(paths: list[Path]) -> list[dict[str, Any]]:
    cases = []
    for path in paths:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if "header" in obj:
                continue
            for key in ("id", "kind", "question"):
                if key not in obj:
                    raise SystemExit(f"bench: {path}:{n}: a case needs {key!r}")
            obj.setdefault("expected", "")
            obj.setdefault("earlier_same", [])
            obj.setdefault("earlier_other", [])
            cases.append(obj)
    return cases


# -- the two sides ---------------------------------------------------------------------------


def env_for(home: Path, url: str, model: str, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TATLOCK_", "OLLAMA_"))}
    env.update(
        TATLOCK_HOME=str(home),
        TATLOCK_USER="bench",
        TATLOCK_TIER="low",
        TATLOCK_BACKEND="openai",
        TATLOCK_BASE_URL=url,
        TATLOCK_MODEL=model,
        TATLOCK_TIMEOUT="120",
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
        # the weather tool reaches nowhere: a failing tool is part of what is measured
        TATLOCK_GEOCODING_URL="http://127.0.0.1:9",
        TATLOCK_OPEN_METEO_URL="http://127.0.0.1:9/",
    )
    env.update(extra)
    return env


def tatlock_turn(butler: Any, text: str, **kw: Any) -> dict[str, Any]:
    from tatlock.events import AnswerToken, ErrorEvent, TurnFinished

    t0 = time.perf_counter()
    first = None
    final: Any = None
    for ev in butler.turn(text, **kw):
        if isinstance(ev, AnswerToken) and first is None and ev.text.strip():
            first = time.perf_counter() - t0
        elif isinstance(ev, (TurnFinished, ErrorEvent)):
            final = ev
    total = time.perf_counter() - t0
    if isinstance(final, TurnFinished):
        return {
            "answer": final.answer,
            "total_s": total,
            "first_s": first,
            "route": final.route,
            "guard": final.guard,
            "quality": final.quality,
            "tools": final.tools,
            "conversation_id": final.conversation_id,
            "phases": [
                [x["name"], x["ms"], x["model_calls"], x.get("prompt_tokens"), x.get("eval_tokens")]
                for x in final.phases
            ],
        }
    return {
        "answer": "",
        "total_s": total,
        "first_s": first,
        "error": getattr(final, "message", "no answer"),
        "conversation_id": None,
    }


def run_tatlock(
    case: dict[str, Any], url: str, model: str, extra: dict[str, str]
) -> dict[str, Any]:
    import tatlock

    saved = dict(os.environ)
    try:
        with tempfile.TemporaryDirectory(
            prefix="tatlock-bench-answers-", ignore_cleanup_errors=True
        ) as tmp:
            os.environ.clear()
            os.environ.update(env_for(Path(tmp), url, model, extra))
            with tatlock.open() as butler:
                conv = None
                for i, said in enumerate(case["earlier_other"]):
                    r = (
                        tatlock_turn(butler, said, new=i == 0)
                        if conv is None
                        else tatlock_turn(butler, said, conversation_id=conv)
                    )
                    conv = r["conversation_id"] or conv
                conv = None
                for said in case["earlier_same"]:
                    r = (
                        tatlock_turn(butler, said, new=True)
                        if conv is None
                        else tatlock_turn(butler, said, conversation_id=conv)
                    )
                    conv = r["conversation_id"] or conv
                categories = sorted({s.category for s in butler.tools.enabled()})
                start = dt.datetime.now().astimezone()
                r = (
                    tatlock_turn(butler, case["question"], conversation_id=conv)
                    if conv
                    else tatlock_turn(butler, case["question"], new=True)
                )
                end = dt.datetime.now().astimezone()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    r["truth"] = truth_record(Truth.now(tuple(categories), start, end))
    return r


def bare_chat(url: str, model: str, messages: list[dict[str, str]]) -> dict[str, Any]:
    """One streamed request as a plain chat client makes it; (reply, seconds to first byte, total)."""
    import httpx

    body = {"model": model, "stream": True, "max_tokens": 1024, "messages": messages}
    t0 = time.perf_counter()
    first, parts = None, []
    with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=120) as r:
        r.raise_for_status()
        for line in r.iter_lines():
            if not line.startswith("data:") or line.strip() == "data: [DONE]":
                continue
            try:
                delta = json.loads(line[5:])["choices"][0].get("delta") or {}
            except (ValueError, KeyError, IndexError):
                continue
            piece = delta.get("content") or ""
            if piece and first is None and piece.strip():
                first = time.perf_counter() - t0
            parts.append(piece)
    return {"answer": "".join(parts).strip(), "first_s": first, "total_s": time.perf_counter() - t0}


def run_bare(case: dict[str, Any], url: str, model: str, categories: list[str]) -> dict[str, Any]:
    messages: list[dict[str, str]] = []
    for said in case["earlier_same"]:
        messages.append({"role": "user", "content": said})
        messages.append({"role": "assistant", "content": bare_chat(url, model, messages)["answer"]})
    messages.append({"role": "user", "content": case["question"]})
    start = dt.datetime.now().astimezone()
    r = bare_chat(url, model, messages)
    end = dt.datetime.now().astimezone()
    r["truth"] = truth_record(Truth.now(tuple(categories), start, end))
    return r


def truth_record(t: Truth) -> dict[str, Any]:
    return {
        "start": t.start.isoformat(),
        "end": t.end.isoformat(),
        "cores": list(t.cores),
        "memory_gib": round(t.memory_gib, 2),
        "disk_free_gib": round(t.disk_free_gib, 2),
        "os_names": list(t.os_names),
        "categories": list(t.categories),
        "other_os": list(t.other_os),
    }


def truth_of(rec: dict[str, Any]) -> Truth:
    return Truth(
        dt.datetime.fromisoformat(rec["start"]),
        dt.datetime.fromisoformat(rec["end"]),
        tuple(rec["cores"]),
        rec["memory_gib"],
        rec["disk_free_gib"],
        tuple(rec["os_names"]),
        tuple(rec["categories"]),
        tuple(rec["other_os"]),
    )


# -- the report ------------------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, round(q * (len(xs) - 1))))
    return xs[k]


def fs(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def table(headers: list[str], rows: list[list[Any]]) -> None:
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def summary(records: list[dict[str, Any]], side: str) -> dict[str, Any]:
    mine = [r for r in records if r["side"] == side]
    grades = [r["grade"] for r in mine]
    times = [r["total_s"] for r in mine]
    return {
        "n": len(mine),
        "right": grades.count("right"),
        "wrong": grades.count("wrong"),
        "fallback": grades.count("fallback"),
        "error": grades.count("error"),
        "median_s": statistics.median(times) if times else None,
        "p90_s": pct(times, 0.9),
        "first_median_s": statistics.median(
            [r["first_s"] for r in mine if r.get("first_s") is not None] or [0]
        ),
    }


def report(records: list[dict[str, Any]], *, show: bool) -> None:
    kinds = sorted(
        {r["kind"] for r in records},
        key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else 99, k),
    )
    sides = [s for s in ("tatlock", "bare") if any(r["side"] == s for r in records)]
    rows = []
    for kind in [*kinds, "ALL"]:
        these = records if kind == "ALL" else [r for r in records if r["kind"] == kind]
        row: list[Any] = [kind]
        for side in sides:
            s = summary(these, side)
            row += [
                f"{s['right']}/{s['n']}",
                s["wrong"],
                s["fallback"] + s["error"],
                fs(s["median_s"]),
                fs(s["p90_s"]),
            ]
        rows.append(row)
    headers = ["kind"]
    for side in sides:
        headers += [f"{side} right", "wrong shown", "fallback", "median s", "p90 s"]
    table(headers, rows)
    if len(sides) == 2:
        t, b = summary(records, "tatlock"), summary(records, "bare")
        ratio = t["median_s"] / b["median_s"] if t["median_s"] and b["median_s"] else None
        print(
            f"\ntatlock {t['right']}/{t['n']} right ({t['wrong']} wrong shown, {t['fallback']} honest fallbacks, "
            f"{t['error']} errors), bare model {b['right']}/{b['n']} right ({b['wrong']} wrong, {b['fallback']} "
            f"fallbacks); median answer {fs(t['median_s'])} s against {fs(b['median_s'])} s"
            f" ({'-' if ratio is None else f'{ratio:.1f}x'}); first byte {fs(t['first_median_s'])} s against "
            f"{fs(b['first_median_s'])} s"
        )
    phases = [p for r in records if r["side"] == "tatlock" for p in r.get("phases") or []]
    if phases:
        print(
            "\ntatlock's time by phase (over its answers): phase, turns it ran in, model calls, median and total s,"
            " median prompt and eval tokens"
        )
        rows = []
        for name in dict.fromkeys(p[0] for p in phases):
            mine = [p for p in phases if p[0] == name]
            rows.append(
                [
                    name,
                    len(mine),
                    sum(p[2] for p in mine),
                    fs(statistics.median(p[1] for p in mine) / 1000),
                    fs(sum(p[1] for p in mine) / 1000),
                    statistics.median(p[3] or 0 for p in mine),
                    statistics.median(p[4] or 0 for p in mine),
                ]
            )
        table(["phase", "turns", "calls", "median s", "total s", "prompt tok", "eval tok"], rows)
    if show:
        print()
        for r in records:
            ans = " ".join((r.get("answer") or r.get("error") or "").split())
            extra = (
                f" [{r.get('route')}/{r.get('guard') or '-'} {r.get('quality')} "
                + " ".join(f"{p[0]}:{p[1] / 1000:.1f}" for p in r.get("phases") or [])
                + "]"
                if r["side"] == "tatlock"
                else ""
            )
            print(
                f"{r['grade']:<8} {r['side']:<7} {r['id']}: {r['question']!r} -> {ans[:200]!r}{extra}"
            )


def regrade(records: list[dict[str, Any]]) -> None:
    for r in records:
        if r.get("error") and not r.get("answer"):
            r["grade"] = "error"
        else:
            r["grade"] = grade(
                r["kind"],
                r["question"],
                r.get("answer") or "",
                truth_of(r["truth"]),
                r.get("expected") or "",
            )


def main() -> int:
    ap = argparse.ArgumentParser(prog="scripts/bench answers", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--cases", type=Path, action="append", help=f"a cases file (default {DEFAULT_CASES})"
    )
    ap.add_argument(
        "--url", default=DEFAULT_URL, help="the OpenAI-compatible server (default: %(default)s)"
    )
    ap.add_argument("--kinds", help="only these kinds (comma-separated)")
    ap.add_argument("--ids", help="only the cases whose id contains one of these (comma-separated)")
    ap.add_argument("--limit", type=int, help="at most N cases")
    ap.add_argument("--part", help="K/N: the K-th of N equal parts of the cases")
    ap.add_argument("--sides", default="tatlock,bare", help="tatlock, bare or both (default)")
    ap.add_argument(
        "--env", action="append", default=[], help="TATLOCK_NAME=VALUE for tatlock's side"
    )
    ap.add_argument("--save", type=Path, help="write the graded answers here (JSON) for --report")
    ap.add_argument(
        "--report", type=Path, nargs="+", help="report saved runs together (no model is asked)"
    )
    ap.add_argument("--show", action="store_true", help="every answer with its grade")
    args = ap.parse_args()

    if args.report:
        records = []
        for path in args.report:
            try:
                records += json.loads(path.read_text())["records"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log(
                    f"bench: {path}: not a saved run of `scripts/bench answers --save` ({type(exc).__name__})"
                )
                return 2
        regrade(records)
        report(records, show=args.show)
        return 0
    cases = load_cases(args.cases or [DEFAULT_CASES])
    if args.kinds:
        cases = [c for c in cases if c["kind"] in args.kinds.split(",")]
    if args.ids:
        cases = [c for c in cases if any(i in c["id"] for i in args.ids.split(","))]
    if args.part:
        k, n = (int(x) for x in args.part.split("/"))
        cases = cases[(k - 1) * len(cases) // n : k * len(cases) // n]
    if args.limit:
        cases = cases[: args.limit]
    extra = dict(e.split("=", 1) for e in args.env)
    import httpx

    try:
        models = httpx.get(f"{args.url}/models", timeout=5).json().get("data") or []
    except (httpx.HTTPError, ValueError) as exc:
        log(
            f"bench: no OpenAI-compatible model server answers at {args.url} ({type(exc).__name__}); start one "
            "with `../shared/tools/local-llm start`"
        )
        return 2
    model = (models[0].get("id") if models else None) or "local"
    sides = ["tatlock", "bare"] if args.sides == "both" else args.sides.split(",")
    unknown = [s for s in sides if s not in ("tatlock", "bare")]
    if unknown:
        log(f"bench answers: unknown side {', '.join(unknown)} (tatlock, bare or both)")
        return 2
    from tatlock.tools.registry import BUILTIN_TOOLS

    categories = sorted({t.category for t in BUILTIN_TOOLS})
    records: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    for case in cases:
        base = {k: case[k] for k in ("id", "kind", "question", "expected")}
        for side in sides:
            r = (
                run_tatlock(case, args.url, model, extra)
                if side == "tatlock"
                else run_bare(case, args.url, model, categories)
            )
            rec = {**base, "side": side, **r}
            regrade([rec])
            records.append(rec)
            log(
                f"  {rec['grade']:<8} {side:<7} {case['id']} {r['total_s']:.1f} s: "
                f"{' '.join((r.get('answer') or r.get('error') or '').split())[:110]!r}"
            )
    print(
        f"answers on {model} at {args.url}: {len(cases)} case(s), {', '.join(sides)}; env {extra or '-'}"
    )
    print(
        f"(load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} CPUs;"
        f" run {time.perf_counter() - t0:.0f} s)"
    )
    print()
    report(records, show=args.show)
    if args.save:
        args.save.write_text(
            json.dumps(
                {"model": model, "url": args.url, "env": extra, "records": records},
                indent=1,
                default=str,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
