#!/usr/bin/env python3
"""Train the gate's learnt check (``tatlock/pipeline/gate/learnt.py``) and measure it honestly.

Data: every labelled gate set in tests/data that is not held out (``scripts/bench gate`` reads
them the same way): the blind sets gate_train_g1..g9, SmolLM2's graded answers gate_smollm2*,
and the older cases of gate_cases.jsonl (all parts but blind10). One logistic regression
(scikit-learn, at training time only) over ``learnt.features``.

``--folds`` is leave-one-set-out over g1..g9: train on everything but the set, choose the
threshold on predictions for the training sets each held out of a model of the others (so that
at most ``--target`` of their good answers would be withdrawn), then score the set: per fold,
bad caught and good withdrawn by the rules alone, the learnt check alone, and the two together.
Without ``--folds`` it trains on all and writes the model (threshold chosen the same way, over
all sets).

    .venv/bin/python scripts/train_gate.py [--folds] [--target 0.005] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import os
import sys
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import bench_gate  # noqa: E402
import gate_forecast  # noqa: E402

from tatlock.pipeline import gate  # noqa: E402
from tatlock.pipeline.gate import learnt  # noqa: E402

DATA = ROOT / "tests" / "data"
FOLDS = [f"gate_train_g{i}" for i in range(1, 10)]
C = float(os.environ.get("GATE_C", "0.5"))
TARGET = 0.0  # good answers withdrawn on the sets held out of training, at most (none)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def data_files() -> list[Path]:
    return sorted(p for p in DATA.glob("gate_*.json*"))


def digest() -> str:
    """What the model depends on: its data and its features."""
    h = hashlib.sha256()
    for p in data_files():
        h.update(p.name.encode())
        h.update(p.read_bytes())
    h.update(str(learnt.FEATURES_VERSION).encode())
    for fn in (learnt.features, learnt._tokens, learnt._numbers, learnt._shape, learnt._wh):
        h.update(inspect.getsource(fn).encode())
    h.update(repr((learnt._WH, sorted(learnt._EMPTY), sorted(learnt._ACT), learnt.READ)).encode())
    return h.hexdigest()[:16]


def _by_rules(v: gate.Verdict) -> bool:
    return v.verdict == "FALLBACK" and v.failed != "learnt"


def cases(general: bool = False) -> list[dict]:
    """Every learnt case: its set, features, label and the rules' verdict (``general``: also
    with the set's own rules switched off, ``scripts/gate_forecast.py``)."""
    own = gate_forecast.own_rules() if general else {}
    out = []
    for s in bench_gate.load_sets([], [], builtin=True):
        if s["held_out"]:
            continue
        for c in s["cases"]:
            ctx = c["brief"].context()
            row = {
                "set": s["name"],
                "x": learnt.features(c["answer"], ctx),
                "bad": 0 if c["good"] else 1,
                "rules": _by_rules(gate.check(c["answer"], c["brief"])),
            }
            if general and s["name"] in FOLDS:
                with gate_forecast.switched_off(own[s["name"]]):
                    row["general"] = _by_rules(gate.check(c["answer"], c["brief"]))
            out.append(row)
    return out


def fit(rows: list[dict]):
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = DictVectorizer()
    X = vec.fit_transform([r["x"] for r in rows])
    X.indices = X.indices.astype("int32")  # liblinear takes 32-bit indices only
    X.indptr = X.indptr.astype("int32")
    m = LogisticRegression(C=C, max_iter=2000, solver="liblinear")
    m.fit(X, [r["bad"] for r in rows])
    return vec, m


def predict(model, rows: list[dict]) -> list[float]:
    vec, m = model
    X = vec.transform([r["x"] for r in rows])
    X.indices = X.indices.astype("int32")
    X.indptr = X.indptr.astype("int32")
    return [float(p) for p in m.predict_proba(X)[:, 1]]


def held_out_scores(rows: list[dict]) -> list[float]:
    """Each row's score from a model that never saw its set."""
    p = [0.0] * len(rows)
    for name in sorted({r["set"] for r in rows}):
        test = [i for i, r in enumerate(rows) if r["set"] == name]
        model = fit([r for r in rows if r["set"] != name])
        for i, s in zip(test, predict(model, [rows[i] for i in test]), strict=True):
            p[i] = s
    return p


def threshold(rows: list[dict], p: list[float], target: float) -> float:
    """The lowest score that withdraws at most ``target`` of the good answers."""
    good = sorted((s for r, s in zip(rows, p, strict=True) if not r["bad"]), reverse=True)
    allowed = int(target * len(good))
    # above the (allowed+1)-th highest good score: at most `allowed` good answers withdrawn
    return min(0.999, good[allowed] + 1e-6) if len(good) > allowed else 0.5


def rates(rows: list[dict], flags: list[bool]) -> tuple[str, str]:
    bad = [f for r, f in zip(rows, flags, strict=True) if r["bad"]]
    good = [f for r, f in zip(rows, flags, strict=True) if not r["bad"]]
    return (
        f"{100 * sum(bad) / max(1, len(bad)):5.1f}%",
        f"{100 * sum(good) / max(1, len(good)):4.1f}%",
    )


def folds(rows: list[dict], target: float) -> None:
    head = (
        f"{'held-out fold':<15} {'good':>4} {'bad':>4}  {'rules':>6} {'wd':>5}  "
        f"{'learnt':>6} {'wd':>5}  {'both':>6} {'wd':>5}  {'general':>7} {'wd':>5}  "
        f"{'gen+learnt':>10} {'wd':>5}  {'vetoed':>8} {'wd':>5}  threshold"
    )
    print(head)
    print("-" * len(head))
    tot: dict[str, list] = {
        k: [] for k in ("rows", "rules", "learnt", "both", "gen", "genl", "kept")
    }
    for name in FOLDS:
        t0 = time.perf_counter()
        train = [r for r in rows if r["set"] != name]
        test = [r for r in rows if r["set"] == name]
        oof = held_out_scores(train)
        t = threshold(train, oof, target)
        # a rule's catch the learnt check finds surely good: at most 1% of the rules' right
        # catches on the training sets score below this
        caught = sorted(s for r, s in zip(train, oof, strict=True) if r["bad"] and r["rules"])
        t_low = caught[int(0.01 * len(caught))] - 1e-6 if caught else 0.0
        p = predict(fit(train), test)
        by_rules = [r["rules"] for r in test]
        by_learnt = [s >= t for s in p]
        both = [a or b for a, b in zip(by_rules, by_learnt, strict=True)]
        gen = [r.get("general", r["rules"]) for r in test]
        genl = [a or b for a, b in zip(gen, by_learnt, strict=True)]
        kept = [(a and s >= t_low) or b for a, b, s in zip(gen, by_learnt, p, strict=True)]
        cols = {"rows": test, "rules": by_rules, "learnt": by_learnt, "both": both}
        cols |= {"gen": gen, "genl": genl, "kept": kept}
        for k, v in cols.items():
            tot[k] += v
        log(f"{name}: {time.perf_counter() - t0:.1f} s")
        print(line(name, test, cols) + f"  {t:.3f} {t_low:.3f}")
    print(line("all folds", tot["rows"], tot))
    print(
        "rules: the gate's rules (fitted with every set in view: not held-out); learnt: the "
        "learnt check alone, trained without the fold (held-out);\nboth: withdrawn by either; "
        "general: the rules with the fold's own rules switched off (scripts/gate_forecast.py: the "
        "forecast for a fresh set);\ngen+learnt: general or learnt; vetoed: gen+learnt, but not a "
        "general rule's catch that the learnt check scores below a second threshold\n(under which "
        "1% of the rules' right catches in training fall): a veto the gate does not use yet. "
        "wd: good answers withdrawn."
    )


def line(name: str, test: list[dict], cols: dict[str, list]) -> str:
    n_bad = sum(r["bad"] for r in test)
    out = f"{name:<15} {len(test) - n_bad:>4} {n_bad:>4}"
    for k, width in (
        ("rules", 6),
        ("learnt", 6),
        ("both", 6),
        ("gen", 7),
        ("genl", 10),
        ("kept", 8),
    ):
        c, w = rates(test, cols[k])
        out += f"  {c:>{width}} {w:>5}"
    return out


def train(rows: list[dict], target: float) -> dict:
    t = threshold(rows, held_out_scores(rows), target)
    vec, m = fit(rows)
    names = vec.get_feature_names_out()
    coef = m.coef_[0]
    keep = [i for i, w in enumerate(coef) if abs(w) >= 1e-4]
    weights = array("f", [float(coef[i]) for i in keep])
    if sys.byteorder == "big":
        weights.byteswap()
    return {
        "features": "\n".join(str(names[i]) for i in keep),
        "weights": weights.tobytes(),
        "bias": float(m.intercept_[0]),
        "withdraw": t,
        "meta": {
            "digest": digest(),
            "features_version": learnt.FEATURES_VERSION,
            "examples": len(rows),
            "target": target,
            "C": C,
        },
    }


def stale(path: Path = learnt.MODEL_FILE) -> str | None:
    """Why the shipped model is stale against its data and features, or None."""
    try:
        meta = learnt.read_model(path)["meta"]
    except (OSError, ValueError) as exc:
        return str(exc)
    if meta.get("digest") != digest():
        return "trained on other data or other features: run scripts/train_gate.py"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folds", action="store_true", help="leave-one-set-out over g1..g9")
    ap.add_argument("--target", type=float, default=TARGET)
    ap.add_argument("--check", action="store_true", help="say whether the model is stale")
    args = ap.parse_args(argv)
    if args.check:
        why = stale()
        print(why or "learnt.bin is up to date")
        return 1 if why else 0
    t0 = time.perf_counter()
    rows = cases(general=args.folds)
    log(f"{len(rows)} answers read in {time.perf_counter() - t0:.1f} s")
    if args.folds:
        folds(rows, args.target)
        return 0
    t0 = time.perf_counter()
    model = train(rows, args.target)
    learnt.write_model(model, learnt.MODEL_FILE)
    print(
        f"wrote {learnt.MODEL_FILE.name}: {len(model['features'].splitlines())} features, "
        f"{learnt.MODEL_FILE.stat().st_size // 1024} KiB, threshold {model['withdraw']:.3f}, "
        f"trained in {time.perf_counter() - t0:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
