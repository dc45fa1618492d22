#!/usr/bin/env python3
"""How well the quality gate tells good answers from bad, per labelled set.

Two formats are read:

* blind gate cases (``/work/prompts/blind-gate.md``): JSON Lines, a header line, then one case a
  line with id, now, question, route (DIRECT, TOOLS_NEEDED, GUARD), guard, tool_calls
  [{tool, args, result}], told_earlier, answer, verdict (good or bad) and why. Every
  ``tests/data/gate_*.jsonl`` in this format is a set of its own (its file name is its name),
  and any file can be given with ``--cases PATH`` (scored) or ``--heldout PATH`` (scored and
  called held-out: pass a file here only when nothing was ever learnt or fixed from it);
* the older cases of tests/data/gate_cases.jsonl (tools by name from gate_tools.json, the
  clock at Monday 23 November 2026, 08:41), one set per part ("tune", "blind", ... "blind10").
  Every part but blind10 was scored once and then learnt from; blind10 was never tuned on
  and is the only one of them called held-out.

The gate sees what the pipeline gives it: the default persona, the answering phase's prompt,
the guard facts (instructions apart from data), the tools' results as the tools return them,
the clock, what was told earlier, and a configured API key. Per set: good answers withdrawn
by the rules (and how many more only raised a doubt, which costs a model check), bad answers
caught by the rules (and how many more raised a doubt), and the stream: bad answers stopped
while streaming, and whether failing text had been shown by then. ``--model`` puts the doubts
to a model check: the fake server scripted with each case's label (an answer key: it measures
the plumbing, not a model) or, with ``--local-llm [URL]``, a real small model.

Misses and false alarms are listed with ``--verbose``, never for a held-out set (reading them
would make it a training set).

    scripts/bench gate [--cases PATH ...] [--heldout PATH ...] [--only NAME ...] [--verbose]
                       [--model | --local-llm [URL]] [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake server is test support, not shipped code

from tatlock import prompts  # noqa: E402
from tatlock.pipeline import assess, facts, gate  # noqa: E402
from tatlock.tools.registry import BUILTIN_TOOLS  # noqa: E402

DATA = ROOT / "tests" / "data"
CLOCK = dt.datetime(2026, 11, 23, 8, 41, tzinfo=ZoneInfo("Europe/London"))
CONFIGURED_KEY = "sk-tatlock-configured-0123456789"
CATEGORIES = sorted({t.category for t in BUILTIN_TOOLS})
DEFAULT_LOCAL_URL = "http://127.0.0.1:18080/v1"
HELD_OUT_PARTS = {"blind10"}  # of the older cases: never tuned on
GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY")


def persona() -> str:
    return "\n".join(prompts.paragraphs("persona.txt"))


def respond_prompt() -> str:
    """The respond phase's system prompt without the persona (what an answer must not echo)."""
    return prompts.render("respond.txt", persona="").strip()


def assess_prompt() -> str:
    return prompts.render("assess.txt", persona="", tools=assess.catalogue(BUILTIN_TOOLS)).strip()


# -- reading the sets --------------------------------------------------------------------------


def read_jsonl(path: Path) -> tuple[str, list[dict]]:
    header, cases = "", []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise SystemExit(f"bench gate: {path}:{n}: not JSON ({exc})") from None
        if "header" in obj and "answer" not in obj:
            header = str(obj["header"])
        else:
            cases.append(obj)
    return header, cases


def blind_case(case: dict) -> dict:
    """A blind-format case as the bench scores it: its brief and its label."""
    try:
        now = dt.datetime.fromisoformat(case["now"])
        route = {"CAPABILITY_GUARD": "GUARD"}.get(
            str(case["route"]).upper(), str(case["route"]).upper()
        )
        guard = str(case.get("guard") or "").upper() or None if route == "GUARD" else None
        parts = tuple(case.get("parts") or ((guard,) if guard in GUARDS else ()))
        fs = (
            facts.for_guard(parts, guard, now=now, categories=CATEGORIES)
            if route == "GUARD"
            else []
        )
        findings = [
            gate.Finding.of(c["tool"], c.get("args") or {}, c.get("result"))
            for c in case.get("tool_calls") or []
        ]
        brief = gate.Brief(
            case["question"],
            persona=persona(),
            secrets=(CONFIGURED_KEY,),
            prompt_text=assess_prompt() if route == "DIRECT" else respond_prompt(),
            facts=fs,
            findings=findings,
            clock=now,
            guard_parts=parts,
            told=tuple(case.get("told_earlier") or ()),
        )
        good = {"good": True, "bad": False}[str(case["verdict"]).strip().lower()]
    except (KeyError, ValueError, TypeError) as exc:
        raise SystemExit(f"bench gate: case {case.get('id', '?')}: {exc!r}") from None
    return {
        "id": case["id"],
        "answer": case["answer"],
        "brief": brief,
        "good": good,
        "expect": None,
    }


def legacy_case(case: dict, canned: dict) -> dict:
    parts = tuple(case["parts"])
    fs = (
        facts.for_guard(parts, case["guard"], now=CLOCK, categories=CATEGORIES)
        if case["route"] == "CAPABILITY_GUARD"
        else []
    )
    findings = [
        gate.Finding.of(canned[n]["tool"], _args(canned[n]["args"]), canned[n]["result"])
        for n in case["tools"]
    ]
    brief = gate.Brief(
        case["question"],
        persona=persona(),
        secrets=(CONFIGURED_KEY,),
        prompt_text=respond_prompt(),
        facts=fs,
        findings=findings,
        clock=CLOCK,
        guard_parts=parts,
        other_part=case["other"],
    )
    return {
        "id": case["id"],
        "answer": case["answer"],
        "brief": brief,
        "good": case["expect"] == "ok",
        "expect": case["expect"],
    }


def _args(text: str) -> dict:
    f = gate.Finding.from_line(f"Result of x({text}): {{}}")
    return f.args if f else {}


def load_sets(cases: list[Path], heldout: list[Path], builtin: bool) -> list[dict]:
    """[{name, held_out, header, cases}] in order: the older cases by part, the blind-format sets
    in tests/data, then the files given."""
    sets = []
    if builtin:
        canned = json.loads((DATA / "gate_tools.json").read_text(encoding="utf-8"))
        old = [
            json.loads(line)
            for line in (DATA / "gate_cases.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        for part in dict.fromkeys(c["split"] for c in old):
            sets.append(
                {
                    "name": part,
                    "held_out": part in HELD_OUT_PARTS,
                    "header": "tests/data/gate_cases.jsonl",
                    "cases": [legacy_case(c, canned) for c in old if c["split"] == part],
                }
            )
        for path in sorted(DATA.glob("gate_*.jsonl")):
            if path.name != "gate_cases.jsonl":
                header, raw = read_jsonl(path)
                sets.append(
                    {
                        "name": path.stem,
                        "held_out": False,
                        "header": header,
                        "cases": [blind_case(c) for c in raw],
                    }
                )
    seen = {s["name"] for s in sets}
    for path, held in [(p, False) for p in cases] + [(p, True) for p in heldout]:
        if path.stem in seen and path.resolve().parent == DATA.resolve():
            continue  # already scored as one of tests/data's sets
        if not path.is_file():
            raise SystemExit(f"bench gate: no such file: {path}")
        header, raw = read_jsonl(path)
        sets.append(
            {
                "name": path.stem,
                "held_out": held,
                "header": header,
                "cases": [blind_case(c) for c in raw],
            }
        )
    return sets


# -- scoring -----------------------------------------------------------------------------------


def stream(case: dict) -> dict:
    """Feed the answer word by word through the StreamGate, as a model streams it."""
    from support.fake_ollama import split_pieces

    g = gate.StreamGate(case["brief"])
    held = 0
    t0 = time.perf_counter()
    for piece in split_pieces(case["answer"]):
        g.feed(piece)
        held = max(held, len(g.text) - len(g.released))
        if g.failed:
            break
    ms = (time.perf_counter() - t0) * 1000
    stopped = g.failed is not None
    # the released text must not fail the check that stopped the stream
    leaked = stopped and gate.checks.stream_check(g.released, case["brief"].context()) is not None
    return {"stopped": stopped, "leaked": leaked, "held": held, "ms": ms}


class Judge:
    """The model check: a fake scripted with each case's label (an answer key) or a real model."""

    def __init__(self, local_url: str | None):
        self.local_url = local_url
        self.fake: Any = None
        self.labels: dict[str, bool] = {}
        self.calls = 0
        self.ms = 0.0

    def __enter__(self) -> Judge:
        if not self.local_url:
            from support.fake_ollama import FakeOllama

            self.fake = FakeOllama().start()
            self.fake.handler = self._scripted
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.fake:
            self.fake.stop()

    def _scripted(self, body: dict) -> dict:
        prompt = body["messages"][-1]["content"]
        good = next((g for answer, g in self.labels.items() if answer and answer in prompt), True)
        return {
            "json": {
                "verdict": "APPROVED" if good else "FALLBACK",
                "fallback_type": "NONE" if good else "RETRY",
                "reason": "scripted judge",
            }
        }

    def ask(self, case: dict, concerns: list[str]) -> str:
        self.labels[case["answer"]] = case["good"]
        messages = [
            {
                "role": "user",
                "content": prompts.render(
                    "quality.txt",
                    question=case["brief"].question,
                    answer=case["answer"],
                    concerns="; ".join(concerns),
                ),
            }
        ]
        t0 = time.perf_counter()
        if self.fake:
            import ollama

            client = ollama.Client(host=self.fake.url, timeout=30)
            raw = "".join(
                part.message.content or ""
                for part in client.chat(
                    model="llama3.2:3b",
                    messages=messages,
                    format=gate.QUALITY_SCHEMA,
                    stream=True,
                    options={"temperature": 0.0, "num_predict": 120},
                )
            )
        else:
            body = {
                "messages": messages,
                "temperature": 0.0,
                "max_tokens": 120,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"schema": gate.QUALITY_SCHEMA},
                },
            }
            req = urllib.request.Request(
                str(self.local_url).rstrip("/") + "/chat/completions",
                json.dumps(body).encode(),
                {"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(req, timeout=120) as r:
                raw = json.loads(r.read())["choices"][0]["message"]["content"] or ""
        self.ms += (time.perf_counter() - t0) * 1000
        self.calls += 1
        return gate.parse_model_verdict(raw)[0]


def score(s: dict, judge: Judge | None) -> tuple[dict, list[str]]:
    n = dict.fromkeys(
        [
            "good",
            "bad",
            "withdrawn",
            "good_doubt",
            "withdrawn_model",
            "caught",
            "bad_doubt",
            "caught_model",
            "type_right",
            "stopped",
            "leaked",
        ],
        0,
    )
    notes, helds, ms = [], [], []
    for case in s["cases"]:
        v = gate.check(case["answer"], case["brief"])
        final = v.verdict
        if v.verdict == "UNSURE" and judge is not None:
            final = judge.ask(case, v.checks)
        st = stream(case)
        tag = f"{case['id']}: {v.verdict}{':' + v.fallback_type if v.fallback_type else ''} {'; '.join(v.checks)[:120]}"
        if case["good"]:
            n["good"] += 1
            n["withdrawn"] += v.verdict == "FALLBACK"
            n["good_doubt"] += v.verdict == "UNSURE"
            n["withdrawn_model"] += final == "FALLBACK"
            helds.append(st["held"])
            ms.append(st["ms"])
            if v.verdict != "APPROVED":
                notes.append(
                    ("FALSE ALARM " if v.verdict == "FALLBACK" else "doubt on good ") + tag
                )
        else:
            n["bad"] += 1
            n["caught"] += v.verdict == "FALLBACK"
            n["bad_doubt"] += v.verdict == "UNSURE"
            n["caught_model"] += final == "FALLBACK"
            n["type_right"] += v.verdict == "FALLBACK" and v.fallback_type == case["expect"]
            n["stopped"] += st["stopped"]
            n["leaked"] += st["leaked"]
            if v.verdict != "FALLBACK":
                notes.append(
                    ("missed " if v.verdict == "APPROVED" else "doubt on bad ")
                    + tag
                    + " | "
                    + case["answer"][:100].replace("\n", " ")
                )
    n["held_median"] = statistics.median(helds) if helds else 0
    n["stream_ms"] = statistics.median(ms) if ms else 0
    return n, notes


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--cases",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help="a blind-format case file to score (repeatable); alone, only the files given are scored",
    )
    ap.add_argument(
        "--heldout",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help="a case file nothing was learnt from: scored and called held-out (repeatable)",
    )
    ap.add_argument(
        "--builtin",
        action="store_true",
        help="score the sets in tests/data too when files are given",
    )
    ap.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="score only these sets"
    )
    ap.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="list misses, false alarms and doubts (never for a held-out set)",
    )
    ap.add_argument(
        "--model",
        action="store_true",
        help="put doubts to the fake model check scripted with the labels",
    )
    ap.add_argument(
        "--local-llm",
        nargs="?",
        const=DEFAULT_LOCAL_URL,
        default=None,
        metavar="URL",
        help=f"put doubts to a real model (default {DEFAULT_LOCAL_URL})",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = ap.parse_args(argv)
    sets = load_sets(
        args.cases, args.heldout, builtin=args.builtin or not (args.cases or args.heldout)
    )
    if args.only:
        sets = [s for s in sets if s["name"] in args.only]
    use_judge = args.model or args.local_llm
    results: dict[str, dict] = {}
    notes: dict[str, list[str]] = {}
    with Judge(args.local_llm) if use_judge else _NoJudge() as judge:
        for s in sets:
            results[s["name"]], notes[s["name"]] = score(s, judge)
    if args.verbose:
        for s in sets:
            if s["held_out"]:
                print(f"[{s['name']}] held out: its misses are not shown")
            else:
                print("\n".join(f"[{s['name']}] {x}" for x in notes[s["name"]]))
        print()
    judge_name = (
        ("a real model at " + args.local_llm)
        if args.local_llm
        else "the fake server scripted with each case's label (an answer key)"
        if args.model
        else "none (doubts counted apart)"
    )
    print(
        f"quality gate: {len(sets)} sets, {sum(len(s['cases']) for s in sets)} answers; model check: {judge_name}"
    )
    head = (
        f"{'set':<22} {'held-out':<8} {'good':>4} {'bad':>4}  {'withdrawn':>9} {'+doubt':>7}  {'caught':>7} "
        f"{'+doubt':>7}"
        + (f" {'+model':>7} {'wd+model':>8}" if use_judge else "")
        + f"  {'stream stop':>11} "
        f"{'leaked':>6}"
    )
    print(head)
    print("-" * len(head))
    for s in sets:
        n = results[s["name"]]
        print(
            f"{s['name']:<22} {'yes' if s['held_out'] else 'no':<8} {n['good']:>4} {n['bad']:>4}  "
            f"{pct(n['withdrawn'], n['good']):>9} {pct(n['withdrawn'] + n['good_doubt'], n['good']):>7}  "
            f"{pct(n['caught'], n['bad']):>7} {pct(n['caught'] + n['bad_doubt'], n['bad']):>7}"
            + (
                f" {pct(n['caught_model'], n['bad']):>7} {pct(n['withdrawn_model'], n['good']):>8}"
                if use_judge
                else ""
            )
            + f"  {pct(n['stopped'], n['bad']):>11} {n['leaked']:>6}"
        )
    print(
        "\nwithdrawn: good answers the rules withdraw; +doubt: withdrawn or sent to the model check. caught: bad "
        "answers the rules withdraw;\n+doubt: caught or sent to the model check. +model / wd+model: bad caught and "
        "good withdrawn once the doubts are put to the model check.\nstream stop: bad answers stopped mid-stream; "
        "leaked: of those, how many had shown failing text. Held-out: nothing was learnt from the set."
    )
    for name in ("held out", "not held out"):
        pick = [results[s["name"]] for s in sets if s["held_out"] == (name == "held out")]
        if pick:
            good, bad = sum(n["good"] for n in pick), sum(n["bad"] for n in pick)
            print(
                f"all {name}: {good} good, {bad} bad: withdrawn {pct(sum(n['withdrawn'] for n in pick), good)}"
                f" of good, caught {pct(sum(n['caught'] for n in pick), bad)} of bad (rules alone)"
            )
    if judge is not None and judge.calls:
        print(f"model checks: {judge.calls}, {judge.ms / judge.calls:.0f} ms each")
    print(learnt_cost(sets))
    print(long_answer_cost())
    if args.json:
        print(
            json.dumps({"results": results, "held_out": [s["name"] for s in sets if s["held_out"]]})
        )
    return 0


class _NoJudge:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def learnt_cost(sets: list[dict]) -> str:
    """What the learnt check (gate/learnt.py) costs: reading its model once, then every answer."""
    from tatlock.pipeline.gate import learnt

    t0 = time.perf_counter()
    model = learnt.Model(learnt.read_model())
    load_ms = (time.perf_counter() - t0) * 1000
    ms: list[float] = []
    for s in sets:
        for case in s["cases"]:
            c = case["brief"].context()
            t0 = time.perf_counter()
            model.score(case["answer"], c)
            ms.append((time.perf_counter() - t0) * 1000)
    big = "The quick brown fox jumps over the lazy dog, sir. " * 20000  # a megabyte answer
    t0 = time.perf_counter()
    model.score(big, gate.Brief("Tell me a long story about a fox", clock=CLOCK).context())
    big_ms = (time.perf_counter() - t0) * 1000
    return (
        f"learnt check: model read in {load_ms:.1f} ms (once, on first use); "
        f"{statistics.median(ms):.2f} ms an answer (median, p95 "
        f"{sorted(ms)[int(0.95 * len(ms))]:.2f} ms); a 1 MB answer {big_ms:.1f} ms"
    )


def long_answer_cost() -> str:
    """The stream gate on long answers: its cost must grow with the answer, not its square
    (it runs on every token, on the same CPU as a local model)."""
    words = (
        "The quick brown fox jumps over the lazy dog, sir, and then it naps in the sun. " * 300
    ).split(" ")
    out = []
    for n in (500, 2000):
        g = gate.StreamGate(
            gate.Brief(
                "Tell me a long story about a fox",
                persona="You are Tatlock, a butler.",
                facts=facts.for_guard((), None),
                prompt_text="Write your reply",
            )
        )
        t0 = time.perf_counter()
        for w in words[:n]:
            g.feed(w + " ")
        g.finish()
        ms = (time.perf_counter() - t0) * 1000
        out.append(f"{n} tokens {ms:.0f} ms ({ms / n:.2f} ms a token)")
    return "stream gate on a long answer: " + "; ".join(out)


if __name__ == "__main__":
    sys.exit(main())
