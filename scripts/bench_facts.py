#!/usr/bin/env python3
"""The fact extractor on labelled messages: precision, recall, corrections, secrets, cost.

Each case (one JSON object a line; a first line with a "header" key is skipped) is
``{"id", "speaker", "message", "facts": [{"about", "what", "value"}], "corrects"}``: the facts a
careful reader keeps from the message ("about" is "owner", "owner's sister", or a person's
name; a guest's statement is about the guest). The extractor reads each message as tatlock
does when it stores it (``memory.extract.extract``, the guest's name given as the author).

A kept fact is right when it names the same person as a labelled fact of its message (the
owner, the guest, or the same relation of theirs: "owner's sister" must be named in what was
kept) and at least half of its value's words are in that label's value. A labelled fact is
found when a kept fact names the same person, holds at least half of the label's words, and at
least 40% of its own words are in the label (so a whole sentence kept as a "note" does not
pass for each fact it contains). Anything kept from a message with no labelled fact is wrong.
Precision = right kept / all kept; recall = labels found / labels. Words are compared
lowercased, without small words, with day and month abbreviations and relation words
("mum", "mother") made one.

With no ``--split``, every case counts. ``--split fit|check`` takes one half, fixed by a hash
of each case's id (the rules were written looking at the fit half's misses only).

    scripts/bench facts [--cases PATH] [--split fit|check|both] [-v]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tatlock.memory.fact_extract import Heard, extract  # noqa: E402
from tatlock.memory.fact_rules import who  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "facts" / "facts_extract_train.jsonl"
STOP = frozenset(
    """
a an the of to in on at for and or is are was be my our your his her their its it i me we us he she they them
with from by as that this these those s 's now every each not no yes just so very
""".split()
)
ABBREV = {
    "mon": "monday",
    "tue": "tuesday",
    "tues": "tuesday",
    "wed": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "sat": "saturday",
    "sun": "sunday",
    "jan": "january",
    "feb": "february",
    "mar": "march",
    "apr": "april",
    "jun": "june",
    "jul": "july",
    "aug": "august",
    "sep": "september",
    "sept": "september",
    "oct": "october",
    "nov": "november",
    "dec": "december",
}


def words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower().replace("'s ", " ")):
        w = re.sub(r"^(\d+)(?:st|nd|rd|th)$", r"\1", w)
        w = ABBREV.get(w, w)
        w = who(w)
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        if w not in STOP:
            out.add(w)
    return out


def split_of(case_id: str) -> str:
    return "fit" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 2 == 0 else "check"


def principal(about: str, speaker: str) -> tuple[str, str]:
    """(whose, relation) of a label's "about": ("owner", "sister") for "owner's sister (Rachel)"."""
    about = re.sub(r"\s*\([^)]*\)", "", about).strip()
    head, _, rest = about.partition("'s ")
    if not rest and about.endswith("'s"):
        head = about[:-2]
    who_ = head.strip().lower()
    return (
        "owner" if who_ == "owner" else who_.split()[0] if who_ else speaker.lower()
    ), rest.strip().lower()


def label_facts(case: dict) -> list[tuple[str, str, str]]:
    """(whose, relation, value) of each labelled fact; "husband's name" of the owner is the owner's husband's name."""
    out = []
    for f in case["facts"]:
        whose, rel = principal(f["about"], case["speaker"])
        what = f["what"].lower()
        if "'s " in what:  # "husband's name": a relation of the subject
            rel = (rel + " " + what.split("'s ")[0]).strip()
        out.append((whose, rel, f["value"]))
    return out


def kept_facts(case: dict, heard: list[Heard]) -> list[tuple[str, str]]:
    """(whose, all the words kept) of each fact the extractor kept."""
    speaker = "owner" if case["speaker"].lower() == "owner" else case["speaker"].lower()
    out = []
    for h in heard:
        if h.about and h.about[0].isupper():  # a named person
            whose, text = h.about.lower().split()[0], f"{h.attribute} {h.topic} {h.value}"
        else:
            whose, text = speaker, f"{h.about} {h.attribute} {h.topic} {h.value}"
        out.append((whose, text))
    return out


def matches(
    kept: tuple[str, str], label: tuple[str, str, str], heard: Heard, *, finding: bool
) -> bool:
    """``finding`` False: is what was kept right by this label (most of its words are in it)?
    True: does it capture this label (half the label's words, and not buried in a long note)?"""
    whose, text = kept
    l_whose, l_rel, l_value = label
    if whose != l_whose:
        return False
    if l_rel and not words(l_rel) <= words(text):
        return False
    lv, kv = words(l_value), words(heard.value)
    if not lv:  # a value of small words only ("she/her")
        lv, kv = (
            set(re.findall(r"[a-z0-9]+", l_value.lower())),
            set(re.findall(r"[a-z0-9]+", heard.value.lower())),
        )
    if not lv or not kv:
        return False
    common = len(lv & kv)
    if finding:
        return common / len(lv) >= 0.5 and common / len(kv) >= 0.4
    return common >= 1 and common / len(kv) >= 0.5


def score(cases: list[dict], verbose: bool) -> dict:
    kept = right = labels = found = 0
    fp_messages = 0
    corrections = corrections_found = 0
    secrets_kept = 0
    for case in cases:
        speaker = None if case["speaker"].lower() == "owner" else case["speaker"]
        heard = extract(case["message"], speaker=speaker)
        mine = kept_facts(case, heard)
        theirs = label_facts(case)
        ok = [any(matches(k, lab, h, finding=False) for lab in theirs) for k, h in zip(mine, heard)]
        got = [any(matches(k, lab, h, finding=True) for k, h in zip(mine, heard)) for lab in theirs]
        kept += len(heard)
        right += sum(ok)
        labels += len(theirs)
        found += sum(got)
        if not theirs and heard:
            fp_messages += 1
            if re.search(
                r"password|pin\b|code|card number|security answer|login", case["why"], re.I
            ):
                secrets_kept += 1
        if case.get("corrects"):
            corrections += 1
            corrections_found += any(got)
        if verbose and (not all(ok) or not all(got)):
            print(f"- [{case['speaker']}] {case['message']}")
            for h, good in zip(heard, ok):
                print(
                    f"    {'ok ' if good else 'BAD'} kept {h.about or '(self)'} | {h.attribute}"
                    f"{' (' + h.topic + ')' if h.topic else ''} | {h.value}   [{h.rule}]"
                )
            for lab, g in zip(case["facts"], got):
                if not g:
                    print(f"    MISS {lab['about']} | {lab['what']} | {lab['value']}")
    return {
        "cases": len(cases),
        "stating": sum(1 for c in cases if c["facts"]),
        "kept": kept,
        "right": right,
        "labels": labels,
        "found": found,
        "precision": right / kept if kept else 1.0,
        "recall": found / labels if labels else 0.0,
        "fp_messages": fp_messages,
        "near_misses": sum(1 for c in cases if not c["facts"]),
        "corrections": corrections,
        "corrections_found": corrections_found,
        "secrets_kept": secrets_kept,
    }


def load(path: Path) -> list[dict]:
    cases = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if "header" in obj:
                continue
            for key in ("id", "speaker", "message", "facts"):
                if key not in obj:
                    raise SystemExit(f"bench facts: {path}:{n}: no {key!r}")
            obj.setdefault("why", "")
            cases.append(obj)
    return cases


def cost(cases: list[dict], rounds: int = 20) -> tuple[float, float, float]:
    times = []
    for _ in range(rounds):
        for case in cases:
            t0 = time.perf_counter()
            extract(
                case["message"], speaker=None if case["speaker"] == "owner" else case["speaker"]
            )
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], times[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="scripts/bench facts", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--cases",
        type=Path,
        default=DEFAULT,
        help=f"labelled messages (default {DEFAULT.relative_to(ROOT)})",
    )
    ap.add_argument(
        "--split",
        choices=("all", "fit", "check", "both"),
        default="all",
        help="all cases (default), one half, or both halves apart",
    )
    ap.add_argument(
        "-v", "--verbose", action="store_true", help="print every miss and every wrong fact"
    )
    args = ap.parse_args(argv)
    cases = load(args.cases)
    groups = {"all": cases} if args.split == "all" else {}
    for half in (
        ("fit", "check") if args.split == "both" else (args.split,) if args.split != "all" else ()
    ):
        groups[half] = [c for c in cases if split_of(c["id"]) == half]
    print(f"fact extraction on {args.cases} ({len(cases)} messages)")
    print(
        f"{'set':<6} {'msgs':>5} {'stating':>7} {'kept':>5} {'right':>5} {'precision':>9} {'labels':>6} {'found':>5}"
        f" {'recall':>6} {'near-miss msgs with a fact':>27} {'corrections found':>18} {'secrets kept':>12}"
    )
    for name, group in groups.items():
        if args.verbose:
            print(f"\n== {name}")
        r = score(group, args.verbose)
        print(
            f"{name:<6} {r['cases']:>5} {r['stating']:>7} {r['kept']:>5} {r['right']:>5} {r['precision']:>9.1%}"
            f" {r['labels']:>6} {r['found']:>5} {r['recall']:>6.1%} {str(r['fp_messages']) + ' of ' + str(r['near_misses']):>27}"
            f" {str(r['corrections_found']) + ' of ' + str(r['corrections']):>18} {r['secrets_kept']:>12}"
        )
    p50, p95, worst = cost(cases)
    print(
        f"cost per message: median {p50:.3f} ms, p95 {p95:.3f} ms, max {worst:.3f} ms (20 rounds of every message)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
