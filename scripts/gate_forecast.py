#!/usr/bin/env python3
"""An honest forecast of the gate on answers it has never seen, from the sets it learnt.

Leave-one-set-out is impossible for hand rules (each was written with its set in view), so this
estimates it the other way round: a rule of the gate's rulebooks *comes from* a labelled set when
one of its examples or near misses shares a run of five words with a question or an answer of that
set (a run found in three sets or more is common English and proves nothing). For each set, the
bad answers the gate catches are then scored again with that set's own rules switched off (they
match nothing): what is still caught was caught by checks that did not learn from the set.

    .venv/bin/python scripts/gate_forecast.py [--sets g1 g2 ...] [--rules]

Checks written as code (not rules) are not attributed: their share is an upper bound.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import bench_gate  # noqa: E402

from tatlock.pipeline import gate, rulebook  # noqa: E402

DATA = ROOT / "tests" / "data"
SETS = [f"gate_train_g{i}" for i in range(1, 10)]
RUN = 5
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
NEVER = re.compile(r"(?!)")


def shingles(text: str) -> set[tuple[str, ...]]:
    w = _WORD.findall(text.lower())
    return {tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


def gate_rules() -> list[rulebook.Rule]:
    for m in rulebook.MODULES:
        importlib.import_module(m)
    return [
        r for name, book in rulebook.BOOKS.items() if not name.startswith("routing.") for r in book
    ]


def origins(rules: list[rulebook.Rule], texts: dict[str, list[str]]) -> dict[str, set[str]]:
    """rule id -> the sets its examples came from."""
    where: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for name, ts in texts.items():
        for t in ts:
            for s in shingles(t):
                where[s].add(name)
    out: dict[str, set[str]] = {}
    for r in rules:
        got: set[str] = set()
        for ex in (*r.examples, *r.near_misses):
            for s in shingles(ex):
                if 0 < len(where.get(s, ())) < 3:
                    got |= where[s]
        out[r.id] = got
    return out


def own_rules() -> dict[str, list[rulebook.Rule]]:
    """Each learnt set's own rules: those whose examples came from it."""
    raw = {}
    for path in sorted(DATA.glob("gate_*.jsonl")):
        if path.name != "gate_cases.jsonl":
            _, cases = bench_gate.read_jsonl(path)
            raw[path.stem] = [t for c in cases for t in (c["question"], c["answer"])]
    rules = gate_rules()
    came = origins(rules, raw)
    return {name: [r for r in rules if name in came[r.id]] for name in raw}


@contextmanager
def switched_off(rules: list[rulebook.Rule]) -> Iterator[None]:
    """The rules given match nothing while inside."""
    saved = {r.id: r._compiled for r in rules}
    try:
        for r in rules:
            r._compiled = NEVER
        yield
    finally:
        for r in rules:
            r._compiled = saved[r.id]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="*", default=SETS)
    ap.add_argument("--rules", action="store_true", help="list each set's own rules")
    args = ap.parse_args(argv)
    sets = {
        s["name"]: s
        for s in bench_gate.load_sets([], [], builtin=True)
        if s["name"].startswith("gate_train") or s["name"].startswith("gate_smollm2")
    }
    raw = {}
    for name in sets:
        _, cases = bench_gate.read_jsonl(DATA / f"{name}.jsonl")
        raw[name] = [t for c in cases for t in (c["question"], c["answer"])]
    rules = gate_rules()
    came = origins(rules, raw)
    print(
        f"gate rules: {len(rules)}; attributed to a learnt set: {sum(bool(v) for v in came.values())}"
    )
    head = f"{'set':<16} {'bad':>4} {'caught':>7} {'general':>8} {'own rules':>9}  {'own':>5}  forecast"
    print(head)
    print("-" * len(head))
    tot = [0, 0, 0]
    for name in args.sets:
        name = name if name.startswith("gate_") else f"gate_train_{name}"
        own = [r for r in rules if name in came[r.id]]
        if args.rules:
            print(f"  {name}: {', '.join(sorted(r.id for r in own))}")
        bad = [c for c in sets[name]["cases"] if not c["good"]]
        caught = [c for c in bad if gate.check(c["answer"], c["brief"]).verdict == "FALLBACK"]
        saved = {r.id: r._compiled for r in own}
        try:
            for r in own:
                r._compiled = NEVER
            general = [
                c for c in caught if gate.check(c["answer"], c["brief"]).verdict == "FALLBACK"
            ]
        finally:
            for r in own:
                r._compiled = saved[r.id]
        n, k, g = len(bad), len(caught), len(general)
        tot = [tot[0] + n, tot[1] + k, tot[2] + g]
        print(
            f"{name:<16} {n:>4} {100 * k / n:6.1f}% {100 * g / n:7.1f}% {100 * (k - g) / n:8.1f}%  "
            f"{len(own):>5}  {100 * g / n:.1f}%"
        )
    n, k, g = tot
    print(f"{'all':<16} {n:>4} {100 * k / n:6.1f}% {100 * g / n:7.1f}% {100 * (k - g) / n:8.1f}%")
    print(
        "caught: by the whole gate; general: still caught with the set's own rules switched off "
        "(the forecast for a fresh set);\nown rules: caught only by rules whose examples came "
        "from the set; own: how many rules came from it."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
