"""The quality gate on the cases issue 12 reported, the StreamGate on real streamed pieces
(recorded from llama-server with SmolLM2: tests/data/stream_pieces.json), the repair plan, and
the labelled gate cases' good answers (no false alarm)."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from support.gatecase import judge, stream
from tatlock import prompts
from tatlock.pipeline import facts, gate

DATA = Path(__file__).parent.parent / "data"
NOW = dt.datetime(2026, 11, 23, 8, 41, tzinfo=ZoneInfo("Europe/London"))
PERSONA = "\n".join(prompts.paragraphs("persona.txt"))
STREAMS = json.loads((DATA / "stream_pieces.json").read_text(encoding="utf-8"))


def gate_for(question: str, parts=(), reason=None, findings=(), **kw):
    fs = (
        facts.for_guard(parts, reason, now=NOW, categories=["weather", "memory"])
        if parts or reason
        else []
    )
    return dict(
        question=question,
        persona_text=PERSONA,
        instructions=facts.instructions(fs),
        findings=facts.data(fs) + list(findings),
        **kw,
    )


WEATHER = (
    'Result of get_weather_forecast(location=\'London\'): {"location": "London, England, United Kingdom", '
    '"current": {"temperature_c": 9.4, "summary": "light rain"}}'
)


# -- issue 12's cases --------------------------------------------------------------------------


def test_repeating_the_clock_it_was_given_is_no_leak():
    answer = "The current local date and time: Monday 23 November 2026, 08:41 (Europe/London)."
    assert (
        judge(
            answer,
            **gate_for("What time is it?", ("TEMPORAL",), "TEMPORAL"),
            guard_parts=("TEMPORAL",),
        ).verdict
        == "APPROVED"
    )


def test_an_answer_that_only_repeats_the_question_is_rejected():
    v = judge("What is the capital of France?", question="What is the capital of France?")
    assert (v.verdict, v.fallback_type, v.failed) == ("FALLBACK", "RETRY", "question_echo")
    assert judge("Good morning, sir.", question="Good morning").verdict == "APPROVED"


@pytest.mark.parametrize(
    "answer", ["I am Tatlock, sir.", "A fine question, sir, and one I am glad you asked."]
)
def test_a_mixed_question_answered_in_part_is_rejected(answer):
    q = "What's your name and what's the weather in London?"
    v = judge(answer, **gate_for(q, ("IDENTITY",), "MIXED", [WEATHER]), guard_parts=("IDENTITY",))
    assert v.verdict == "FALLBACK" and v.failed == "missing_part"
    full = "I am Tatlock, sir, and London has light rain at 9 degrees."
    assert (
        judge(
            full, **gate_for(q, ("IDENTITY",), "MIXED", [WEATHER]), guard_parts=("IDENTITY",)
        ).verdict
        == "APPROVED"
    )


def test_repair_adds_only_the_facts_the_failed_check_calls_for():
    q = "Note this down: sk-abcdefghijklmnop1234 and password=hunter2!x"
    v = judge("Noted, sir: sk-abcdefghijklmnop1234 and hunter2!x.", question=q)
    r = gate.repair_for(v, question=q)
    assert v.failed == "question_secret" and r.facts == () and not r.findings
    assert "sk-abcdefghijklmnop1234" not in r.question and "hunter2" not in r.question
    assert r.question == "Note this down: [secret] and password=[secret]"

    v = judge("As an AI language model, I think Paris.", question="What is the capital of France?")
    assert gate.repair_for(v).facts == ("IDENTITY",)
    v = judge(
        "I am Tatlock, sir.",
        **gate_for("Who are you and what time is it?", ("IDENTITY", "TEMPORAL"), "MIXED"),
        guard_parts=("IDENTITY", "TEMPORAL"),
    )
    assert gate.repair_for(v).facts == ("TEMPORAL", "PARTS")
    v = judge(
        "I'm afraid I cannot check the weather, sir.", **gate_for("Weather?", findings=[WEATHER])
    )
    r = gate.repair_for(v)
    assert r.facts == () and r.findings
    assert gate.repair_for(judge("}}}{{{")) == gate.Repair((), False, "")
    assert gate.repair_for(judge("Paris, sir.")) is None


def test_facts_split_data_from_instructions():
    fs = facts.for_guard(("IDENTITY", "TEMPORAL"), "MIXED", now=NOW)
    assert facts.data(fs) == [
        facts.IDENTITY_DATA,
        "The current local date and time: Monday 23 November 2026, 08:41 (Europe/London).",
    ]
    assert facts.instructions(fs) == "\n".join([facts.IDENTITY_RULE, facts.PARTS_RULE])
    assert [f.kind for f in facts.for_guard((), "CAPABILITY_GUARD")] == [
        "IDENTITY",
        "IDENTITY",
        "CAPABILITIES",
    ]


# -- the stream --------------------------------------------------------------------------------


def run_stream(name: str, **kw):
    case = STREAMS[name]
    gate = stream(**gate_for(case["question"], **kw))
    shown = []
    for piece in case["pieces"]:
        shown.append(gate.feed(piece))
        if gate.failed:
            break
    return gate, "".join(shown)


@pytest.mark.parametrize(
    "name, failed, never_shown",
    [
        ("vendor_late", "vendor", "As an"),
        ("vendor_first", "vendor", "ChatGPT"),
        ("question_secret", "question_secret", "sk-"),
        ("persona_leak", "leak", "You are Tatlock"),
        ("prompt_labels", "prompt_echo", "Local date"),
    ],
)
def test_a_failing_stream_stops_before_the_failing_text_is_shown(name, failed, never_shown):
    gate, shown = run_stream(name)
    assert gate.failed is not None and gate.failed.failed == failed
    assert never_shown not in shown and shown == gate.released
    assert len(gate.text) < len(
        "".join(STREAMS[name]["pieces"])
    )  # stopped early: generation can end
    rest, v = gate.finish()
    assert rest == "" and v.verdict == "FALLBACK"


def test_the_good_start_of_a_stream_that_fails_later_was_shown_and_nothing_after():
    _gate, shown = run_stream("vendor_late")
    assert shown.startswith("Paris, sir, the City of Light.")


def test_an_instruction_run_is_held_then_stopped():
    gate, shown = run_stream("instruction_leak", parts=("IDENTITY",), reason="IDENTITY")
    assert (
        gate.failed.failed == "leak"
        and "Never call" not in shown
        and shown.startswith("Tatlock, sir.")
    )


@pytest.mark.parametrize(
    "name, parts",
    [
        ("good_clock", ("TEMPORAL",)),
        ("good_long", ()),
        ("good_identity", ("IDENTITY",)),
        ("question_restated", ()),
    ],
)
def test_a_good_stream_is_shown_whole_and_early(name, parts):
    gate, shown = run_stream(name, parts=parts, reason=parts[0] if parts else None)
    assert gate.failed is None
    rest, v = gate.finish(guard_parts=parts)
    text = "".join(STREAMS[name]["pieces"])
    assert shown + rest == text and v.verdict in ("APPROVED", "UNSURE")
    if name == "good_long":  # the first words go out while the model is still writing
        first = next(i for i in range(1, len(text)) if run_prefix(name, i))
        assert first < 30


@pytest.mark.parametrize(
    "name, said", [("free_capital", "Sir-Emmanuel"), ("free_who", "Mr. Edward Blackstone")]
)
def test_a_stream_in_which_the_butler_takes_another_name_is_withdrawn_at_its_end(name, said):
    """Issue 19: SmolLM2 answered "Who are you?" as "Mr. Edward Blackstone" and the capital of
    France as "Sir-Emmanuel", and both were approved. Nothing fails mid-stream (a name is no
    leak), so they stream, and the whole answer is withdrawn at its end."""
    gate, _shown = run_stream(name)
    rest, v = gate.finish()
    assert (v.verdict, v.failed, rest) == ("FALLBACK", "identity", "") and said in v.checks[0]


def run_prefix(name: str, n_chars: int) -> bool:
    gate = stream(**gate_for(STREAMS[name]["question"]))
    fed = ""
    for piece in STREAMS[name]["pieces"]:
        if len(fed) >= n_chars:
            break
        fed += piece
        if gate.feed(piece):
            return True
    return False


def test_an_echo_of_the_question_is_held_whole_and_never_shown():
    gate, shown = run_stream("question_echo")
    assert shown == "" and gate.failed is None
    rest, v = gate.finish()
    assert rest == "" and v.failed == "question_echo"


def test_a_secret_is_held_while_it_could_still_be_one():
    gate = stream(question="my pin is 49217", secrets=("sk-configured-secret-1",))
    assert gate.feed("Your number is ") == "Your number is "
    assert gate.feed("492") == ""  # could become 49217
    assert gate.feed("5 and sk-con") == "4925 and "
    assert gate.feed("cise") == ""  # an "sk-" key is held until it cannot be one
    assert gate.feed(" is a word, then ") == "sk-concise is a word, then "
    assert gate.feed("49217") == "" and gate.failed.failed == "question_secret"


# -- the labelled gate cases -------------------------------------------------------------------


def test_no_good_answer_in_the_gate_cases_is_rejected():
    """Every good answer of the sets the gate was built from stands (the held-out set is only
    scored by the bench: a test over it would be learning from it)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import bench_gate

    rejected, seen = [], 0
    for s in bench_gate.load_sets([], [], builtin=True):
        if s["held_out"]:
            continue
        for case in s["cases"]:
            seen += 1
            if case["good"] and gate.check(case["answer"], case["brief"]).verdict == "FALLBACK":
                rejected.append((s["name"], case["id"]))
    assert rejected == []
    assert seen >= 150


def test_fast_tokens_are_checked_in_batches_and_nothing_unchecked_is_shown():
    """Tokens closer together than the gate's pace are checked together (a fast server's 2,000
    tokens then cost a few hundred checks): nothing is shown before it was checked, a failure
    in a batch still stops the answer with nothing failing shown, and the end releases the rest."""

    gate = stream(
        question="Tell me a story", pace=60.0
    )  # every piece after the first comes "too soon"
    shown = gate.feed("Once upon a time ")
    assert (
        shown == "Once upon a time "
    )  # the first piece is checked at once: the first byte is not delayed
    assert gate.feed("there ") == ""  # too soon: held, unchecked
    for piece in "was a butler who kept a very tidy house indeed. And".split(" "):
        shown += gate.feed(piece + " ")
    assert "there was a butler" in shown  # checked once 48 characters had come
    rest, verdict = gate.finish()
    assert verdict.verdict == "APPROVED" and (shown + rest).startswith(
        "Once upon a time there was a butler"
    )

    gate = stream(question="Who are you?", pace=60.0)
    out = "".join(
        gate.feed(p)
        for p in [
            "I am ",
            "ChatGPT, ",
            "a large ",
            "language model ",
            "made by ",
            "OpenAI, ",
            "and I ",
            "am happy ",
            "to help ",
            "you today.",
        ]
    )
    assert gate.failed is not None and "ChatGPT" not in out
