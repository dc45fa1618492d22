#!/usr/bin/env python3
"""How well the quality gate tells good answers from bad, on hand-labelled cases.

tests/data/gate_cases.jsonl holds answers as real small models give them (several are
SmolLM2-135M's own), each with its question, route, guard, the tools' findings (by name from
tests/data/gate_tools.json) and the expected verdict ("ok" or a fallback type). The gate sees
what the pipeline gives it: the default persona, the respond prompt, the guard facts split
into instructions and data (tatlock.pipeline.facts) with the clock at Monday 23 November
2026, 08:41, the tools' results and a configured API key. About 40% of the cases (by a hash
of their id) are held out: the rules were not tuned on them until 23 November 2026, when three
held-out misses (a question restated, a made-up forecast, a secret not declined) led to rules.
The 80 "blind" cases were written that day by a helper that read no code and no case, after
those rules, and scored once before any change, then led to more rules (claims nothing supports,
clocks in words, transcripts, actions claimed in passing). The 80 "blind2" cases were written by
a second such helper after those, scored once, then led to rules of their own (rules listed or
quoted, empty politeness, evening times, "minus 5"). The 80 "blind3" cases, by a third helper after
those, were scored once, then led to rules too (instructions told in other words, templates,
another language, dry weather in the rain). The 80 "blind4" cases, by a fourth helper written as an
assessor's check, were scored once: the part to trust for answers nobody has seen. The 80
"blind6" cases (what tiny models produce) and the 80 "blind5" cases (an adversarial tester) were
written by two more such helpers on the evening of 23 November; blind6 was scored first (rules
catch 72.5%, false alarms 5.0%: a bare "144." and an ISO date), then fixed, and blind5 after those
fixes (rules catch 47.5%, false alarms 7.5%), then fixed: both first scores are in the notes. The
80 "blind7" cases (a reviewer's sample of 1-3B models) were scored once after those (rules catch
82.5%, no false alarm), then fixed (a prompt's scaffolding ending on "Answer:", the question's own
words taken for a result used, "at your service" taken for abilities, a month memory contradicts).
The 80 "blind8" cases (an assessor's final check) were scored once after all of those: rules catch
82.5%, one false alarm (2.5%: "as the user alice", read from a .env file); then fixed (that, "Your
name is Tatlock" parroted, a tool's result ignored beside another's, a GP "let know", a birthday in
the wrong month, "16 GB" of a 7.7 GiB machine, a reply in French). The 80 "blind9" cases (a
held-out release sample) were scored once after those: rules catch 80.0%, two false alarms (5.0%: a
bare ISO timestamp read as "00:00", "the user 'alice'" in quotes); then fixed (those, "instructed
never to call myself an AI", an email or a booking claimed, days until Christmas miscounted, the
question told back in a frame, a CPU temperature the report does not give). The 80 "blind10"
cases, by a tenth helper after all of that, were scored once and are held out (never tuned on): the
row to trust for answers nobody has seen.

Reported per part (in the file's order): false alarms on good answers (rules alone, and after the
model check), the share of bad answers the rules alone reject, the share they reject or send
to the model check, the share caught with the model check, and the stream: bad answers
stopped while streaming and whether any failing text had been released by then.

The model check runs against the fake Ollama server scripted as a cooperative judge (it
returns the label of the case: this measures the rules' routing to the check and the
plumbing, not a model), or with ``--local-llm [URL]`` against a real small model
(../shared/tools/local-llm, OpenAI-compatible).

    scripts/bench gate [--verbose] [--local-llm [URL]] [--json]
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
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the fake server is test support, not shipped code

from tatlock import prompts  # noqa: E402
from tatlock.pipeline import facts, quality, streamgate  # noqa: E402

DATA = ROOT / "tests" / "data"
CLOCK = dt.datetime(2026, 11, 23, 8, 41, tzinfo=ZoneInfo("Europe/London"))
CONFIGURED_KEY = "sk-tatlock-configured-0123456789"
CATEGORIES = ["files", "memory", "personal", "system", "time", "weather", "web"]
DEFAULT_LOCAL_URL = "http://127.0.0.1:18080/v1"


def persona() -> str:
    return "\n".join(prompts.paragraphs("persona.txt"))


def respond_prompt() -> str:
    """The respond phase's system prompt without the persona (what an answer must not echo)."""
    return prompts.render("respond.txt", persona="", capabilities=facts.capabilities(CATEGORIES)).strip()


def load_cases() -> list[dict]:
    return [json.loads(line) for line in (DATA / "gate_cases.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def tool_lines(names: list[str]) -> list[str]:
    canned = json.loads((DATA / "gate_tools.json").read_text(encoding="utf-8"))
    out = []
    for n in names:
        t = canned[n]
        out.append(f"Result of {t['tool']}({t['args']}): {json.dumps(t['result'], ensure_ascii=False)}")
    return out


def gate_inputs(case: dict) -> dict:
    """What the pipeline hands the gate for this case."""
    fs = facts.for_guard(case["parts"], case["guard"], now=CLOCK, categories=CATEGORIES) \
        if case["route"] == "CAPABILITY_GUARD" else []
    return dict(question=case["question"], persona_text=persona(), secrets=(CONFIGURED_KEY,),
                instructions=facts.instructions(fs), prompt_text=respond_prompt(),
                findings=facts.data(fs) + tool_lines(case["tools"]))


def stream(case: dict, inputs: dict) -> dict:
    """Feed the answer word by word through the StreamGate, as a model streams it."""
    from support.fake_ollama import split_pieces

    gate = streamgate.StreamGate(**inputs)
    first = None
    held = 0
    t0 = time.perf_counter()
    for piece in split_pieces(case["answer"]):
        shown = gate.feed(piece)
        if shown and first is None:
            first = len(gate.text)
        held = max(held, len(gate.text) - len(gate.released))
        if gate.failed:
            break
    ms = (time.perf_counter() - t0) * 1000
    stopped = gate.failed is not None
    released = gate.released
    leaked = False
    if stopped:  # the released text must not fail the check that stopped the stream
        again = quality._stream_checks(released, quality._Context(
            inputs["question"], inputs["persona_text"], inputs["instructions"], inputs["prompt_text"],
            tuple(inputs["findings"]), tuple(inputs["secrets"])))
        leaked = again is not None
    return {"stopped": stopped, "leaked": leaked, "first_release_at": first, "held": held, "ms": ms}


class Judge:
    """The model check: a cooperative fake (returns the case's label) or a real model."""

    def __init__(self, local_url: str | None):
        self.local_url = local_url
        self.fake = None
        self.labels: dict[str, str] = {}
        self.calls = 0
        self.ms = 0.0

    def __enter__(self) -> "Judge":
        if not self.local_url:
            from support.fake_ollama import FakeOllama

            self.fake = FakeOllama().start()
            self.fake.handler = self._scripted
        return self

    def __exit__(self, *exc) -> None:
        if self.fake:
            self.fake.stop()

    def _scripted(self, body: dict):
        prompt = body["messages"][-1]["content"]
        for answer, label in self.labels.items():
            if answer and answer in prompt:
                verdict = "APPROVED" if label == "ok" else "FALLBACK"
                return {"json": {"verdict": verdict, "fallback_type": "NONE" if label == "ok" else label,
                                 "reason": "scripted judge"}}
        return {"json": {"verdict": "APPROVED", "fallback_type": "NONE", "reason": "unknown case"}}

    def ask(self, case: dict, concerns: list[str]) -> tuple[str, str | None]:
        self.labels[case["answer"]] = case["expect"]
        messages = [{"role": "user", "content": prompts.render(
            "quality.txt", question=case["question"], answer=case["answer"], concerns="; ".join(concerns))}]
        t0 = time.perf_counter()
        if self.fake:
            import ollama

            client = ollama.Client(host=self.fake.url, timeout=30)
            raw = "".join(part.message.content or "" for part in client.chat(
                model="llama3.2:3b", messages=messages, format=quality.QUALITY_SCHEMA, stream=True,
                options={"temperature": 0.0, "num_predict": 120}))
        else:
            body = {"messages": messages, "temperature": 0.0, "max_tokens": 120,
                    "response_format": {"type": "json_schema", "json_schema": {"schema": quality.QUALITY_SCHEMA}}}
            req = urllib.request.Request(self.local_url.rstrip("/") + "/chat/completions", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=120) as r:
                raw = json.loads(r.read())["choices"][0]["message"]["content"] or ""
        self.ms += (time.perf_counter() - t0) * 1000
        self.calls += 1
        return quality.parse_model_verdict(raw)


KINDS = {"v": "vendor identity", "l": "leaked instructions", "s": "secrets", "p": "prompt echoed",
         "q": "question echoed", "g": "garbled", "c": "wrong clock", "m": "part unanswered",
         "o": "off-topic, wrong, overclaims"}


def by_kind(cases: list[dict]) -> dict[str, list[int]]:
    """Bad answers per kind (the id's prefix): [cases, caught by rules, flagged by rules]."""
    out: dict[str, list[int]] = {}
    for case in cases:
        if case["expect"] == "ok":
            continue
        v = quality.check(case["answer"], **gate_inputs(case), guard_parts=tuple(case["parts"]),
                          other_part=case["other"])
        row = out.setdefault(KINDS.get(case["id"].split("-")[0], "other"), [0, 0, 0])
        row[0] += 1
        row[1] += v.verdict == "FALLBACK"
        row[2] += v.verdict != "APPROVED"
    return out


def run(cases: list[dict], judge: Judge) -> tuple[dict, list[str]]:
    out: dict[str, dict] = {}
    notes: list[str] = []
    for part in dict.fromkeys(case["split"] for case in cases):  # in the file's order
        n = dict.fromkeys(["good", "bad", "fa_rules", "unsure_good", "fa_final", "caught_rules", "flagged_rules",
                           "caught_final", "type_right", "stopped", "leaked", "first_release"], 0)
        firsts, helds, stream_ms = [], [], []
        for case in (c for c in cases if c["split"] == part):
            inputs = gate_inputs(case)
            v = quality.check(case["answer"], **inputs, guard_parts=tuple(case["parts"]), other_part=case["other"])
            final = v.verdict
            if v.verdict == "UNSURE":
                final = judge.ask(case, v.checks)[0]
            s = stream(case, inputs)
            tag = f"[{part}] {case['id']}: {v.verdict}{':' + v.fallback_type if v.fallback_type else ''}" \
                  f" {'; '.join(v.checks)[:110]}"
            if case["expect"] == "ok":
                n["good"] += 1
                n["fa_rules"] += v.verdict == "FALLBACK"
                n["unsure_good"] += v.verdict == "UNSURE"
                n["fa_final"] += final == "FALLBACK"
                firsts.append(s["first_release_at"] or len(case["answer"]))
                helds.append(s["held"])
                stream_ms.append(s["ms"])
                if v.verdict != "APPROVED":
                    notes.append(("FALSE ALARM " if v.verdict == "FALLBACK" else "model check on good ") + tag)
            else:
                n["bad"] += 1
                n["caught_rules"] += v.verdict == "FALLBACK"
                n["flagged_rules"] += v.verdict != "APPROVED"
                n["caught_final"] += final == "FALLBACK"
                n["type_right"] += v.verdict == "FALLBACK" and v.fallback_type == case["expect"]
                n["stopped"] += s["stopped"]
                n["leaked"] += s["leaked"]
                if v.verdict != "FALLBACK":
                    notes.append(("missed " if v.verdict == "APPROVED" else "to the model ") + tag)
        n["first_release"] = statistics.median(firsts) if firsts else 0
        n["held_max"] = max(helds) if helds else 0
        n["held_median"] = statistics.median(helds) if helds else 0
        n["stream_ms"] = statistics.median(stream_ms) if stream_ms else 0
        out[part] = n
    return out, notes


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verbose", "-v", action="store_true", help="list false alarms, misses and model checks")
    ap.add_argument("--local-llm", nargs="?", const=DEFAULT_LOCAL_URL, default=None, metavar="URL",
                    help=f"the model check against a real model (default {DEFAULT_LOCAL_URL})")
    ap.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = ap.parse_args(argv)
    cases = load_cases()
    with Judge(args.local_llm) as judge:
        results, notes = run(cases, judge)
    if args.verbose:
        print("\n".join(notes) + "\n")
    judge_name = f"real model at {args.local_llm}" if args.local_llm else "fake server, cooperative judge"
    print(f"gate cases: {len(cases)} ({sum(c['expect'] == 'ok' for c in cases)} good, "
          f"{sum(c['expect'] != 'ok' for c in cases)} bad); model check: {judge_name}")
    head = f"{'part':<8} {'good':>4} {'bad':>4}  {'false alarm':>11} {'+model':>7} {'to model':>8}  " \
           f"{'rules catch':>11} {'rules flag':>10} {'+model':>7} {'type ok':>7}  {'stream stop':>11} {'leaked':>6}"
    print(head)
    print("-" * len(head))
    for part, n in results.items():
        print(f"{part:<8} {n['good']:>4} {n['bad']:>4}  {pct(n['fa_rules'], n['good']):>11} "
              f"{pct(n['fa_final'], n['good']):>7} {pct(n['unsure_good'], n['good']):>8}  "
              f"{pct(n['caught_rules'], n['bad']):>11} {pct(n['flagged_rules'], n['bad']):>10} "
              f"{pct(n['caught_final'], n['bad']):>7} {pct(n['type_right'], n['caught_rules']):>7}  "
              f"{pct(n['stopped'], n['bad']):>11} {n['leaked']:>6}")
    print("\nfalse alarm: good answers rejected (by the rules; after the model check); to model: good answers that "
          "cost a model check.\nrules catch: bad answers the rules reject alone; rules flag: rejected or sent to the "
          "model check; +model: caught in the end.\nstream stop: bad answers stopped mid-stream by the StreamGate; "
          "leaked: of those, how many had released failing text.")
    for part, n in results.items():
        print(f"stream, good answers ({part}): first text shown after {n['first_release']:.0f} characters "
              f"(median); most held back at once {n['held_median']:.0f} (median), {n['held_max']} (max); "
              f"gate time {n['stream_ms']:.2f} ms per answer (median)")
    print("\nbad answers by kind (all parts): rules catch / rules flag")
    for kind, (n, caught, flagged) in by_kind(cases).items():
        print(f"  {kind:<30} {n:>3}  {pct(caught, n)}  {pct(flagged, n)}")
    if judge.calls:
        print(f"model checks: {judge.calls}, {judge.ms / judge.calls:.0f} ms each")
    print(long_answer_cost())
    if args.json:
        print(json.dumps({"results": results, "model_calls": judge.calls}))
    ok = all(n["fa_rules"] == 0 and n["caught_rules"] >= 0.95 * n["bad"] for n in results.values())
    return 0 if ok else 1


def long_answer_cost() -> str:
    """The stream gate on long answers: its cost must grow with the answer, not its square
    (it runs on every token, on the same CPU as a local model)."""
    import time

    from tatlock.pipeline import facts
    from tatlock.pipeline.streamgate import StreamGate

    words = ("The quick brown fox jumps over the lazy dog, sir, and then it naps in the sun. " * 300).split(" ")
    out = []
    for n in (500, 2000):
        gate = StreamGate(question="Tell me a long story about a fox", persona_text="You are Tatlock, a butler.",
                          instructions=facts.instructions(facts.for_guard((), None)), prompt_text="Write your reply")
        t0 = time.perf_counter()
        for w in words[:n]:
            gate.feed(w + " ")
        gate.finish()
        ms = (time.perf_counter() - t0) * 1000
        out.append(f"{n} tokens {ms:.0f} ms ({ms / n:.2f} ms a token)")
    return "stream gate on a long answer: " + "; ".join(out)


if __name__ == "__main__":
    sys.exit(main())
