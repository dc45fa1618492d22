#!/usr/bin/env python3
"""Which route a turn ends on, for labelled messages, with two models: every message is run as a
real turn through the pipeline (tatlock's Butler against the fake Ollama server over loopback),
and the route the turn finished on is scored.

* **competent**: the fake model answers each message's Phase 1 with its labelled route (an answer
  key: DIRECT, TOOLS_NEEDED with the labelled tools, or CAPABILITY_GUARD with the labelled guard,
  MIXED where the message mixes). Every wrong route is the deterministic side overruling a right
  decision. Figure: turns that end on the right route (route, guard kind, and the labelled tools run).
* **oblivious**: the fake model never guards and never asks for a tool (Phase 1 always DIRECT).
  Figures: guards found with the right kind (MIXED where the message mixes), tool needs found
  (each labelled need's tool ran), and ordinary messages that got a guard or a tool.

In both, Phase 2 calls the tools it is offered: what is measured is the route. Sets are
``LABELS | ID | MESSAGE`` files (labels IDENTITY CAPABILITIES TEMPORAL SECURITY, weather recall
personal web system files, ``other``, ``-``; joined by ``+``). By default the held-out sets in
tests/data/routes/heldout/ (scored, never learnt from; only these are called held out);
``--set PATH`` (repeatable) scores any file instead; ``--learn`` adds the sets the classifier
learnt from (training figures, not held out).

    scripts/bench routes [--set PATH ...] [--learn] [--verbose] [--json] [--prompt-tokens [URL]]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_pipeline import FAKE_MODEL, fake_weather, isolate_env, request_kind  # noqa: E402

from support.fake_ollama import FakeOllama  # noqa: E402
from tatlock.events import FactsKept, TurnFinished  # noqa: E402
from tatlock.pipeline.routing import classifier, guards  # noqa: E402
from tatlock.pipeline.routing.examples import GUARDS, OTHER, TOOLS, Example, read_examples  # noqa: E402

HELDOUT = ROOT / "tests" / "data" / "routes" / "heldout"
LEARN = ROOT / "tests" / "data" / "routes" / "learn"
NEED_OF = {
    "get_weather_forecast": "weather",
    "web_search": "web",
    "recall_memories": "recall",
    "recall_memories_with_time": "recall",
    "recall_topic": "recall",
    "list_conversations": "recall",
    "conversation_stats": "recall",
    "get_conversation_summary": "recall",
    "get_personal_variable": "personal",
    "set_personal_variable": "personal",
    "get_system_info": "system",
    "analyze_file": "files",
}


def expected(labels: frozenset[str]) -> tuple[str, str | None]:
    gs = [g for g in GUARDS if g in labels]
    if gs:
        mixed = len(gs) > 1 or any(t in labels for t in TOOLS) or OTHER in labels
        return "CAPABILITY_GUARD", "MIXED" if mixed else gs[0]
    if any(t in labels for t in TOOLS):
        return "TOOLS_NEEDED", None
    return "DIRECT", None


class Model:
    """The fake server's handler: Phase 1 from the answer key (competent) or always DIRECT."""

    def __init__(self) -> None:
        self.example: Example | None = None
        self.competent = True

    def __call__(self, body: dict) -> Any:
        kind = request_kind(body)
        e = self.example
        assert e is not None
        if kind == "assess":
            route, guard = expected(e.labels) if self.competent else ("DIRECT", None)
            needs = [t for t in TOOLS if t in e.labels] if self.competent else []
            tools = [k for n in needs for k in guards.tool_keys(n, e.text)]
            answer = "Certainly, sir: here is what you asked for." if route == "DIRECT" else ""
            return {
                "json": {
                    "decision": route,
                    "answer": answer,
                    "topics": ["errands"],
                    "guard_reason": guard or "NONE",
                    "tools": tools,
                    "tool_query": e.text[:120],
                }
            }
        if kind == "select_tools":
            calls = []
            for spec in body.get("tools") or []:
                fn = spec.get("function", spec)
                props = (fn.get("parameters") or {}).get("properties") or {}
                required = (fn.get("parameters") or {}).get("required") or []
                args = {
                    k: (1 if props.get(k, {}).get("type") == "integer" else e.text[:80])
                    for k in required
                }
                calls.append({"name": fn["name"], "arguments": args})
            return {"tool_calls": calls} if calls else "No tool is needed."
        if kind == "quality":
            return {
                "json": {
                    "verdict": "APPROVED",
                    "fallback_type": "NONE",
                    "reason": "answers the question",
                }
            }
        if kind in ("compaction", "archive", "cross_summary"):
            return "TOPICS DISCUSSED\n- errands"
        return "Very good, sir: I have seen to it."


def run_set(butler: Any, model: Model, examples: list[Example], competent: bool) -> list[dict]:
    model.competent = competent
    out = []
    for e in examples:
        model.example = e
        conv = butler.store.create_conversation("cli", "cli")
        finished, kept = None, False
        for ev in butler.turn(e.text, conversation_id=conv.id):
            if isinstance(ev, TurnFinished):
                finished = ev
            elif isinstance(ev, FactsKept) and ev.facts:
                kept = True
        butler.wait_background()
        butler.store.delete_conversation(conv.id)
        route = finished.route if finished else "ERROR"
        guard = finished.guard if finished else None
        ran = {NEED_OF.get(t, t) for t in (finished.tools if finished else [])}
        if kept and route == "TOOLS_NEEDED":
            # "remember that ...": the fact was kept by the extractor before any model call, so the
            # personal-variable tool is not run again for it; the need is met all the same
            ran.add("personal")
        out.append({"example": e, "route": route, "guard": guard, "needs": ran})
    return out


def figures(rows: list[dict]) -> dict[str, Any]:
    n = {
        "turns": 0,
        "right": 0,
        "guards": 0,
        "guard_hit": 0,
        "tools": 0,
        "tool_hit": 0,
        "plain": 0,
        "flagged": 0,
    }
    wrong = []
    for r in rows:
        e = r["example"]
        want_route, want_guard = expected(e.labels)
        needs = {t for t in TOOLS if t in e.labels}
        right = (
            (r["route"], r["guard"]) == (want_route, want_guard)
            and needs <= r["needs"]
            and bool(needs or want_route == "CAPABILITY_GUARD" or not r["needs"])
        )
        n["turns"] += 1
        n["right"] += right
        if want_route == "CAPABILITY_GUARD":
            n["guards"] += 1
            n["guard_hit"] += (r["route"], r["guard"]) == (want_route, want_guard)
        if needs:
            n["tools"] += 1
            n["tool_hit"] += needs <= r["needs"]
        if not e.labels - {OTHER}:
            n["plain"] += 1
            n["flagged"] += r["route"] != "DIRECT" or bool(r["needs"])
        if not right:
            got = f"{r['route']}{'/' + r['guard'] if r['guard'] else ''}{' ' + ','.join(sorted(r['needs'])) if r['needs'] else ''}"
            wrong.append(f"  [{'+'.join(sorted(e.labels)) or '-'}] {e.text[:140]!r} -> {got}")
    ratio = lambda a, b: n[a] / n[b] if n[b] else None  # noqa: E731
    return {
        **n,
        "right_rate": ratio("right", "turns"),
        "guard_rate": ratio("guard_hit", "guards"),
        "tool_rate": ratio("tool_hit", "tools"),
        "flag_rate": ratio("flagged", "plain"),
        "wrong": wrong,
    }


def pct(x: float | None) -> str:
    return "    -" if x is None else f"{100 * x:5.1f}%"


def cost() -> dict[str, Any]:
    """The classifier's size, load time, training time and a decision's cost."""
    code = (
        "import time; t=time.perf_counter(); from tatlock.pipeline.routing import classifier as c; c.load(); "
        "print((time.perf_counter()-t)*1000)"
    )
    loads = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT
            ).stdout
        )
        for _ in range(5)
    ]
    model = classifier.load()
    texts = [e.text for p in sorted(HELDOUT.glob("routes_*.txt")) for e in read_examples(p)][:150]
    per = []
    for text in texts * 2:
        t = time.perf_counter()
        guards.decide(text)
        per.append((time.perf_counter() - t) * 1000)
    return {
        "model_kib": round(classifier.MODEL_FILE.stat().st_size / 1024),
        "features": len(model.index),
        "examples": model.meta.get("examples"),
        "train_seconds": model.meta.get("with_thresholds_seconds"),
        "fit_seconds": model.meta.get("fit_seconds"),
        "import_and_load_ms": statistics.median(loads),
        "decide_ms_median": statistics.median(per),
        "decide_ms_max": max(per),
    }


def prompt_tokens(url: str | None) -> dict:
    """Phase 1's request for a first message, default persona, every built-in tool enabled:
    tokens by the server's tokenizer (llama-server /apply-template and /tokenize) or the
    estimator (4 characters a token)."""
    from tatlock import prompts
    from tatlock.pipeline import assess
    from tatlock.tools.registry import BUILTIN_TOOLS

    persona = "\n".join(prompts.paragraphs("persona.txt"))
    messages = assess.request(
        persona,
        BUILTIN_TOOLS,
        memory="",
        now="Monday 23 November 2026, 08:41 (Europe/London)",
        location="London",
        author="Anchor (Alice)",
        question="What is the capital of France?",
    )
    if not url:
        return {
            "tokens": sum(len(m["content"]) // 4 + 4 for m in messages),
            "by": "estimate (4 characters a token)",
            "system_chars": len(messages[0]["content"]),
        }
    import json as _json
    import urllib.request

    base = url.rstrip("/").removesuffix("/v1")

    def post(path: str, body: dict) -> dict:
        req = urllib.request.Request(
            base + path, _json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return _json.loads(r.read())

    prompt = post("/apply-template", {"messages": messages})["prompt"]
    return {
        "tokens": len(post("/tokenize", {"content": prompt})["tokens"]),
        "by": f"tokenizer at {base}",
        "system_tokens": len(post("/tokenize", {"content": messages[0]["content"]})["tokens"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--set",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="a LABELS | ID | MESSAGE file to score (repeatable); default: tests/data/routes/heldout/",
    )
    ap.add_argument(
        "--learn", action="store_true", help="also score the sets the classifier learnt from"
    )
    ap.add_argument(
        "--verbose", "-v", action="store_true", help="list every turn that ended on a wrong route"
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    ap.add_argument(
        "--prompt-tokens",
        nargs="?",
        const="http://127.0.0.1:18080/v1",
        default=None,
        metavar="URL",
        help="also count Phase 1's first-message prompt with a llama-server's tokenizer",
    )
    args = ap.parse_args(argv)
    sets: list[tuple[str, Path, bool]] = []
    for path in args.set:
        if not path.is_file():
            print(f"bench routes: no such file: {path}", file=sys.stderr)
            return 2
        sets.append((path.stem, path, False))
    if not args.set:
        sets += [(p.stem, p, True) for p in sorted(HELDOUT.glob("routes_*.txt"))]
    if args.learn:
        sets += [(p.stem, p, False) for p in sorted(LEARN.glob("routes_*.txt"))]
    loaded = []
    for name, path, held in sets:
        try:
            loaded.append((name, read_examples(path), held))
        except (OSError, ValueError) as exc:
            print(f"bench routes: {exc}", file=sys.stderr)
            return 2
    results: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="tatlock-bench-routes-") as tmp,
        FakeOllama(models={FAKE_MODEL: {"context_length": 8192}}) as fake,
        fake_weather() as weather,
    ):
        isolate_env(
            Path(tmp),
            TATLOCK_GEOCODING_URL=weather,
            TATLOCK_OPEN_METEO_URL=weather + "/",
            TATLOCK_TIMEOUT="60",
            TATLOCK_TOOL_TIMEOUT="3",
            TATLOCK_TOOL_ROUNDS="1",
            OLLAMA_HOST=fake.url,
            TATLOCK_COMPACT_INTERVAL="10000",
        )
        os.environ.pop("TATLOCK_SECRET_API_KEY", None)
        import tatlock

        model = Model()
        fake.handler = model
        with tatlock.open(user="alice", home=Path(tmp)) as butler:
            for name, examples, held in loaded:
                t0 = time.perf_counter()
                comp = figures(run_set(butler, model, examples, True))
                obl = figures(run_set(butler, model, examples, False))
                results[name] = {
                    "held_out": held,
                    "competent": comp,
                    "oblivious": obl,
                    "seconds": round(time.perf_counter() - t0, 1),
                }
                print(
                    f"  {name}: {len(examples)} messages, {2 * len(examples)} turns in "
                    f"{time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                )
                if args.verbose:
                    for view, r in (("competent", comp), ("oblivious", obl)):
                        if r["wrong"]:
                            print(f"{name}, {view}: {len(r['wrong'])} turns on a wrong route")
                            print("\n".join(r["wrong"]))
    head = (
        f"{'set':<22} {'msgs':>4}  {'competent: right route':>22}  {'oblivious: guards (kind)':>24}  "
        f"{'tool needs':>10}  {'ordinary flagged':>16}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        c, o = r["competent"], r["oblivious"]
        label = f"{name}{' (held out)' if r['held_out'] else ''}"
        print(
            f"{label:<22} {c['turns']:>4}  {pct(c['right_rate']):>14} {c['right']:>3}/{c['turns']:<3}  "
            f"{pct(o['guard_rate']):>15} {o['guard_hit']:>3}/{o['guards']:<3}  {pct(o['tool_rate']):>6} "
            f"{o['tool_hit']:>3}/{o['tools']:<3} {pct(o['flag_rate']):>8} {o['flagged']:>3}/{o['plain']:<3}"
        )
    if len(results) > 1:
        tot = {
            v: {
                k: sum(r[v][k] for r in results.values())
                for k in (
                    "right",
                    "turns",
                    "guard_hit",
                    "guards",
                    "tool_hit",
                    "tools",
                    "flagged",
                    "plain",
                )
            }
            for v in ("competent", "oblivious")
        }
        c, o = tot["competent"], tot["oblivious"]
        held = all(r["held_out"] for r in results.values())
        label = "all (held out)" if held else "all"
        print(
            f"{label:<22} {c['turns']:>4}  {pct(c['right'] / c['turns']):>14} {c['right']:>3}/{c['turns']:<3}  "
            f"{pct(o['guard_hit'] / max(1, o['guards'])):>15} {o['guard_hit']:>3}/{o['guards']:<3}  "
            f"{pct(o['tool_hit'] / max(1, o['tools'])):>6} {o['tool_hit']:>3}/{o['tools']:<3} "
            f"{pct(o['flagged'] / max(1, o['plain'])):>8} {o['flagged']:>3}/{o['plain']:<3}"
        )
    figures_cost = cost()
    print(
        f"\nclassifier: {figures_cost['model_kib']} KiB, {figures_cost['features']} features, trained offline on "
        f"{figures_cost['examples']} messages in {figures_cost['fit_seconds']} s (with the held-out folds that "
        f"choose its thresholds: {figures_cost['train_seconds']} s); importing and loading it "
        f"{figures_cost['import_and_load_ms']:.0f} ms; decide() {figures_cost['decide_ms_median']:.2f} ms median, "
        f"{figures_cost['decide_ms_max']:.2f} ms max"
    )
    if args.prompt_tokens:
        tokens = prompt_tokens(args.prompt_tokens)
        print(
            f"Phase 1 prompt, first message, default persona, all tools: {tokens['tokens']} tokens ({tokens['by']})"
        )
    if args.json:
        for r in results.values():
            for v in ("competent", "oblivious"):
                r[v].pop("wrong")
        print(json.dumps({"sets": results, "cost": figures_cost}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
