"""Every rule of every rulebook matches its own examples and none of its near misses, by name."""

from __future__ import annotations

import importlib
import time

import pytest

from support.rule_inputs import runs, said_over
from tatlock.pipeline import lexicon
from tatlock.pipeline.rulebook import BOOKS, MODULES, Rule, Rulebook


def _all_rules() -> list[tuple[str, Rule]]:
    for module in MODULES:
        importlib.import_module(module)
    return [(f"{book.name}:{rule.id}", rule) for book in BOOKS.values() for rule in book]


RULES = _all_rules()


@pytest.mark.parametrize("rule", [r for _, r in RULES], ids=[name for name, _ in RULES])
def test_each_rule_matches_its_examples_and_not_its_near_misses(rule: Rule) -> None:
    missed = [e for e in rule.examples if not rule.search(e)]
    over = [n for n in rule.near_misses if rule.search(n)]
    assert not missed, f"{rule.id} no longer matches its examples: {missed}"
    assert not over, f"{rule.id} matches its near misses: {over}"


def test_a_rule_without_examples_is_refused() -> None:
    with pytest.raises(ValueError, match="no example"):
        Rule("t.none", "X", r"\bfoo\b", examples=())


def test_a_rulebook_refuses_a_duplicate_id_and_finds_rules_in_order() -> None:
    book = Rulebook(
        "test-only",
        [
            Rule("t.day", "TEMPORAL", r"\b(?:{weekday})\b", ("is it monday?",), ("mondays",)),
            Rule("t.any", "OTHER", r"\w+", ("x",)),
        ],
    )
    try:
        with pytest.raises(ValueError, match="used twice"):
            book.add(Rule("t.day", "X", "y", ("y",)))
        assert book.first("Is it Friday yet?") is book.labelled("TEMPORAL")[0]
        assert book.first("mondays are long", label="TEMPORAL") is None
        assert [r.id for r in book.matches("sunday")] == ["t.day", "t.any"]
    finally:
        del BOOKS["test-only"]


def test_the_lexicon_spells_out_names_and_keeps_counted_braces() -> None:
    assert lexicon.expand(r"(?:{month})\s\d{1,2}").startswith("(?:january|february")
    assert lexicon.expand(r"(?:{month})\s\d{1,2}").endswith(r"\s\d{1,2}")


def _timed(rule: Rule, text: str, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        rule.search(text)
        best = min(best, time.perf_counter() - start)
    return best


def test_every_rule_reads_a_long_message_in_linear_time() -> None:
    """A megabyte message once stopped tatlock for hours: ``\\d+`` with no start backtracked from
    every digit, and Python's regular expressions hold the GIL while they run. Each rule's worst
    input is read again eight times longer: linear work grows about 8x, quadratic work 64x. A
    rule that seems to grow faster is timed again, best of three each, so that a busy machine's
    pause is not taken for backtracking."""
    short, long_ = 3_000, 24_000
    slow = []
    for name, rule in RULES:
        texts = {
            **runs(short),
            **{f"{e!r} over and over": t for e in rule.examples for t in said_over(e, short)},
        }
        took, worst = max((_timed(rule, text), kind) for kind, text in texts.items())
        grown = (
            runs(long_)
            if worst in runs(1)
            else {f"{e!r} over and over": t for e in rule.examples for t in said_over(e, long_)}
        )
        later = _timed(rule, grown[worst])
        if later > 0.05 and later > 24 * max(took, 1e-4):
            took, later = _timed(rule, texts[worst], 3), _timed(rule, grown[worst], 3)
            if later > 0.05 and later > 24 * max(took, 1e-4):
                slow.append(
                    f"{name} on {worst}: {took * 1000:.1f} ms, then {later * 1000:.0f} ms at 8x the length"
                )
    assert not slow, "rules that backtrack over a long message:\n" + "\n".join(slow)
