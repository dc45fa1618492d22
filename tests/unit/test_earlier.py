"""What the user said in earlier conversations: the rules that read a question as one about the
user's own world, and a stored message's sentences as statements, each against its examples and
near misses (memory/earlier.py keeps them beside its rules)."""

from __future__ import annotations

import pytest

from tatlock.memory import earlier


@pytest.mark.parametrize("question", earlier.MINE_EXAMPLES)
def test_a_question_about_the_users_world_is_read_so(question):
    assert earlier.mentions_own(question)


@pytest.mark.parametrize("question", earlier.MINE_NEAR_MISSES)
def test_a_question_about_the_world_at_large_is_not(question):
    assert not earlier.mentions_own(question)


@pytest.mark.parametrize("sentence", earlier.ASKING_EXAMPLES)
def test_a_question_or_request_in_a_message_is_no_statement(sentence):
    assert earlier.statements(sentence) == []


@pytest.mark.parametrize("sentence", earlier.ASKING_NEAR_MISSES)
def test_a_statement_is_kept_whole(sentence):
    assert earlier.statements(sentence) == [sentence]


def test_sentences_are_split_but_not_after_a_title():
    text = "The dentist rang. Dr. Lunde wants him in the week after. Can you remind me?"
    assert earlier.statements(text) == [
        "The dentist rang.",
        "Dr. Lunde wants him in the week after.",
    ]


def test_a_relation_said_another_way_is_searched_too():
    assert {"boy", "lad"} <= set(earlier.other_words("a text to my son"))
    assert {"mum", "mamma"} <= set(earlier.other_words("my mother's new flat"))
    assert earlier.other_words("the capital of France") == []
