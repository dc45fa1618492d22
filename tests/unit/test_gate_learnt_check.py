"""The gate's learnt check (issue 16 item 4, issue 19 item 3; ``pipeline/gate/learnt.py``): a
model trained offline by ``scripts/train_gate.py`` that withdraws, after every rule, answers it
scores bad; a stale or damaged model file; its cost on a megabyte answer."""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tatlock.pipeline import gate
from tatlock.pipeline.gate import learnt

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 24, 9, 20, tzinfo=ZoneInfo("Europe/London"))


def _trainer():
    spec = importlib.util.spec_from_file_location("train_gate", ROOT / "scripts" / "train_gate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def brief(question: str) -> gate.Brief:
    return gate.Brief(question, persona="You are Tatlock, a butler.", clock=NOW)


def test_the_shipped_model_is_not_stale_against_its_data():
    why = _trainer().stale()
    assert why is None, f"{why} (pip install -e '.[train]')"


def test_a_model_of_other_data_is_stale_and_a_damaged_one_says_so(tmp_path):
    trainer = _trainer()
    data = learnt.read_model()
    data["meta"] = {**data["meta"], "digest": "0" * 16}
    data["weights"] = bytes(data["weights"])
    other = tmp_path / "learnt.bin"
    learnt.write_model(data, other)
    assert "other data" in trainer.stale(other)
    other.write_bytes(b"not a model")
    assert "not a gate model" in trainer.stale(other)


# written for this test, in no labelled set: empty politeness
@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "How do I descale a kettle?",
            "A splendid question, sir. I am always glad to be of service and shall be most "
            "delighted to help you with that.",
        ),
    ],
)
def test_an_answer_with_nothing_in_it_is_withdrawn_by_the_learnt_check(question, answer):
    v = gate.check(answer, brief(question))
    assert (v.verdict, v.fallback_type, v.failed) == ("FALLBACK", "RETRY", "learnt")


# their near misses: answers that say something, in the same voice
@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "How do I descale a kettle?",
            "Fill it halfway with equal parts water and white vinegar, sir, boil it, leave it for "
            "an hour, then rinse it twice.",
        ),
        (
            "Why is the sea salty?",
            "Rivers carry dissolved minerals from rocks into the sea, sir, and evaporation leaves "
            "the salt behind.",
        ),
        ("Who wrote Middlemarch?", "George Eliot, sir."),
    ],
)
def test_an_answer_that_says_something_stands(question, answer):
    assert gate.check(answer, brief(question)).verdict == "APPROVED"


def test_without_a_readable_model_the_rules_judge_alone(monkeypatch):
    def broken(path: Path = learnt.MODEL_FILE) -> learnt.Model:
        raise ValueError("learnt.bin is damaged")

    monkeypatch.setattr(learnt, "load", broken)
    answer = (
        "A splendid question, sir. I am always glad to be of service and shall be most "
        "delighted to help you with that."
    )
    v = gate.check(answer, brief("How do I descale a kettle?"))
    assert v.failed != "learnt"  # no crash, no learnt verdict


def test_the_learnt_check_reads_a_bounded_prefix_of_a_megabyte_answer():
    c = brief("Tell me a long story about a fox").context()
    big = "The quick brown fox jumps over the lazy dog, sir. " * 20000
    assert learnt.features(big, c) == learnt.features(big[: learnt.READ], c)


def test_the_model_is_read_on_first_use_not_at_import():
    import subprocess
    import sys

    code = (
        "import tatlock.pipeline.gate as g, tatlock.pipeline.gate.learnt as l; "
        "assert l._model is None; print('ok')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert out.stdout.strip() == "ok", out.stderr
