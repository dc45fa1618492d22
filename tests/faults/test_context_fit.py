"""Every model request fits the context window (tatlock.memory.fit, pipeline/budget.py): the
conservative count, the cut of what does not fit, the retry after a server's refusal for length,
and each kind of request with hostile input, against the fake server over loopback HTTP."""

from __future__ import annotations

import itertools
import json
import os
import random
import string

import pytest

import tatlock
from support.replies import SUMMARY, direct, phase_of, tool_call, tools_needed
from support.window import overflows, prompt_tokens
from tatlock.llm.base import ContextExceeded, context_refusal
from tatlock.llm.openai_compat import OpenAICompatBackend
from tatlock.memory.fit import FittedBackend, Window
from tatlock.memory.tokens import Estimator, bound_tokens

# what SmolLM2's tokenizer made of these texts (llama-server /tokenize), per 1,000 characters
MEASURED = {"english": 236, "digits": 1000, "base64": 812, "cjk": 2671, "json": 524}


def sample(kind: str, n: int = 5000) -> str:
    rng = random.Random(7)
    if kind == "english":
        line = (
            "All work and no play makes Jack a dull boy. The quick brown fox jumps over the lazy "
            "dog. "
        )
        return (line * (n // len(line) + 1))[:n]
    if kind == "digits":
        return "".join(rng.choice(string.digits) for _ in range(n))
    if kind == "base64":
        return "".join(rng.choice(string.ascii_letters + string.digits + "+/") for _ in range(n))
    if kind == "cjk":
        return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(n))
    return json.dumps([{"id": i, "name": f"x{i}", "ok": True} for i in range(n // 20)])[:n]


@pytest.mark.parametrize("kind", sorted(MEASURED))
def test_the_bound_is_at_least_what_a_real_tokenizer_counted(kind):
    text = sample(kind)
    measured = MEASURED[kind] * len(text) / 1000
    assert bound_tokens(text) >= 0.95 * measured  # (base64 within a few percent; a refusal retries)
    assert bound_tokens(text) <= 1.6 * measured  # and not so high that ordinary text loses its room
    assert Estimator().bound(text) >= bound_tokens(text)


def test_the_bound_follows_calibration_and_strictness():
    est = Estimator()
    text = sample("english")
    base = est.bound(text)
    est.chars_per_token = 1.0  # a server that counted a token per character
    assert est.bound(text) >= len(text)
    est.chars_per_token = 4.0
    est.undercounted(base, 2 * base)
    assert est.bound(text) >= 2 * base


def test_window_cut_keeps_head_and_end_and_fits():
    w = Window(4096, Estimator())
    text = "BEGIN " + sample("english", 100_000) + " END"
    cut = w.cut(text, 500)
    assert cut.startswith("BEGIN ") and cut.endswith(" END") and "characters left out here" in cut
    assert w.est.bound(cut) <= 500


def test_window_fit_cuts_the_longest_message_and_keeps_the_short_ones_whole():
    w = Window(4096, Estimator())
    messages = [
        {"role": "system", "content": "You are a butler."},
        {"role": "user", "content": sample("digits", 50_000)},
        {"role": "tool", "content": "short result"},
    ]
    room = w.room(1024)
    out = w.fit(messages, None, room)
    assert out[0] == messages[0] and out[2] == messages[2]
    assert w.est.bound_messages(out) <= room
    assert w.allowance(1024) == 1024 and w.allowance(100_000) == 2048  # at most half the window


def test_a_window_too_small_for_the_fixed_parts_is_one_clear_error():
    w = Window(512, Estimator())
    tools = [
        {"type": "function", "function": {"name": f"tool_{i}", "description": "x " * 200}}
        for i in range(10)
    ]
    with pytest.raises(ContextExceeded, match="too small for this request"):
        w.fit([{"role": "user", "content": "hi"}], tools, w.room(100))


@pytest.mark.parametrize(
    "message, detail, prompt, ctx",
    [
        (
            "request (20031 tokens) exceeds the available context size (8192 tokens), try "
            "increasing it",
            {"type": "exceed_context_size_error", "n_prompt_tokens": 20031, "n_ctx": 8192},
            20031,
            8192,
        ),
        (
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens "
            "(4000 in the messages, 1000 in the completion).",
            None,
            4000,
            4096,
        ),
        ("Context size has been exceeded.", {"type": "server_error"}, None, None),
    ],
)
def test_refusals_for_length_are_recognised_with_their_counts(message, detail, prompt, ctx):
    refused = context_refusal(message, detail)
    assert refused is not None and refused.kind == "context"
    assert (refused.prompt_tokens, refused.context) == (prompt, ctx)
    assert context_refusal("model 'x' not found") is None


# -- the backend: every request checked; a refusal for length gets a smaller retry ------------


def fitted(fake, size: int, est: Estimator | None = None) -> FittedBackend:
    est = est or Estimator()
    return FittedBackend(
        OpenAICompatBackend(f"{fake.url}/v1", "llama3.2:3b", timeout=10), lambda: size, lambda: est
    )


def test_a_server_with_a_smaller_window_than_believed_gets_a_request_that_fits(fake):
    fake.n_ctx = 2048  # the server's slot is smaller than the 8,192 we were told
    fake.queue("Very good, sir.")
    backend = fitted(fake, 8192)
    r = backend.chat(
        [{"role": "user", "content": sample("english", 40_000)}], options={"max_tokens": 512}
    )
    assert r.content == "Very good, sir."
    first, second = fake.chat_requests
    assert fake.count_tokens(first["messages"]) > 2048  # refused, then
    assert fake.count_tokens(second["messages"]) + second["max_tokens"] <= 2048 + 64
    assert backend.server_size == 2048


def test_a_tokenizer_denser_than_the_estimate_gets_a_smaller_retry_not_a_lost_request(fake):
    fake.n_ctx = 4096
    # a token a char
    fake.count_tokens = lambda msgs: sum(len(str(m.get("content") or "")) + 4 for m in msgs or ())
    fake.queue("Noted, sir.")
    est = Estimator()
    backend = fitted(fake, 4096, est)
    r = backend.chat(
        [{"role": "user", "content": sample("english", 200_000)}], options={"max_tokens": 512}
    )
    assert r.content == "Noted, sir."
    assert len(fake.chat_requests) == 2 and est.strictness > 2
    assert fake.count_tokens(fake.chat_requests[-1]["messages"]) <= 4096 - 512


def test_a_refusal_after_the_answer_began_is_not_retried(fake):
    from support.fake_ollama import MidStreamError

    fake.queue(MidStreamError("Context size has been exceeded.", after_chunks=2))
    backend = fitted(fake, 4096)
    shown: list[str] = []
    with pytest.raises(ContextExceeded):
        backend.chat(
            [{"role": "user", "content": "Tell me a long story."}],
            on_token=shown.append,
            options={"max_tokens": 100},
        )
    assert shown and len(fake.chat_requests) == 1  # what was shown is not shown twice


# -- each kind of request, with hostile input, through the real pipeline ---------------------


def test_a_question_that_is_one_megabyte_line_of_digits_fits(cli, served):
    served.handler = lambda body: direct("A great many digits, sir.")
    r = cli("ask", stdin="".join(random.Random(3).choice(string.digits) for _ in range(1_000_000)))
    assert r.code == 0, r.err
    assert "your message is long" in r.err
    assert overflows(served.chat_requests) == []


def test_a_megabyte_line_of_letter_soup_fits(cli, served):
    soup = "".join(
        random.Random(5).choice(string.ascii_letters + string.digits + "+/")
        for _ in range(1_000_000)
    )
    served.handler = lambda body: direct("That looks like base64, sir.")
    r = cli("ask", "What is this?", stdin=soup)
    assert r.code == 0, r.err
    body = served.chat_requests[0]
    # base64 takes 0.81 tokens a character on SmolLM2: count what of it was sent so, not four
    # letters a token
    content = body["messages"][-1]["content"]
    start = content.index(soup[:50])
    end = start + len(os.path.commonprefix([content[start:], soup]))  # noqa: RUF071 - text, not paths
    rest = {"messages": [body["messages"][0], {"content": content[:start] + content[end:]}]}
    assert (
        prompt_tokens(rest) + (end - start) * 0.85 + body["options"]["num_predict"]
        <= body["options"]["num_ctx"]
    )


def test_piped_material_and_a_long_question_share_the_window(cli, served):
    served.handler = lambda body: direct("Summarised, sir.")
    question = "Could you summarise the material for me? " * 5_000
    material = "The quarterly figures are as follows: revenue 1,234,567 EUR. " * 20_000
    r = cli("ask", question, stdin=material)
    assert r.code == 0, r.err
    assert "your message is long" in r.err and "piped material is long" in r.err
    assert overflows(served.chat_requests) == []
    prompt = served.chat_requests[0]["messages"][-1]["content"]
    assert "Could you summarise" in prompt and "quarterly figures" in prompt


def test_a_persona_of_the_most_and_longest_instructions_is_read_from_its_start_and_every_request_fits(
    cli, served, tmp_path
):
    """200 long instructions are refused (at most 50 of 2,000 characters): 50 of 2,000 is 100,000
    characters, 25 times the low tier's whole window."""
    long = [
        f"Instruction {i}: " + "always answer with great courtesy and precision, " * 38
        for i in range(200)
    ]
    f = tmp_path / "persona.txt"
    f.write_text("\n\n".join(long))
    assert cli("persona", "import", str(f), "--yes").code == 2
    f.write_text("\n\n".join(long[:50]))
    assert cli("persona", "import", str(f), "--yes").code == 0
    served.handler = lambda body: direct("At your service, sir.")
    r = cli("ask", "Good morning")
    assert r.code == 0, r.err
    assert "the persona is long: the model reads its first" in r.err
    assert overflows(served.chat_requests) == []
    system = served.chat_requests[0]["messages"][0]["content"]
    assert "Instruction 0:" in system and "Instruction 49:" not in system
    assert "Reply with one JSON object" in system  # the instructions after the persona are whole


def test_tool_rounds_with_long_results_fit(cli, served, monkeypatch, tmp_path):
    """Three rounds of a tool that returns its whole 6,000-character allowance each time."""
    big = tmp_path / "notes.txt"
    big.write_text("1234567890 " * 20_000)
    monkeypatch.setenv("TATLOCK_ALLOWED_PATHS", str(tmp_path))

    def reply(body):
        phase = phase_of(body)
        if phase == "assess":
            return tools_needed("analyze_file", "get_system_info", "get_current_datetime")
        if phase == "select_tools":
            return tool_call("analyze_file", path=str(big))
        return "The notes are numbers, sir."

    served.handler = reply
    r = cli("ask", "What is in my notes?")
    assert r.code == 0, r.err
    assert [phase_of(b) for b in served.chat_requests].count("select_tools") >= 2
    assert overflows(served.chat_requests) == []


def test_the_quality_model_check_of_a_huge_question_fits(served):
    """The model check reads the question and the answer: both are cut to fit."""
    from tatlock.pipeline import budget
    from tatlock.pipeline.phases import MAX_TOKENS

    with tatlock.open() as butler:
        env = butler._env()
        q, a = budget.quality_parts(
            env, "What? " * 200_000, "Indeed, sir. " * 50_000, "off topic", MAX_TOKENS["quality"]
        )
    from tatlock import prompts

    body = {
        "messages": [
            {
                "role": "user",
                "content": prompts.render(
                    "quality.txt", question=q, answer=a, concerns="off topic"
                ),
            }
        ]
    }
    assert prompt_tokens(body) + MAX_TOKENS["quality"] <= 4096
    assert q.startswith("What? ") and a.startswith("Indeed, sir.")


def test_a_compaction_block_too_long_for_the_window_is_split_and_nothing_is_skipped(
    served, monkeypatch
):
    """Forty messages of 2,000 digits each cannot fit one 4,096-token request even cut to 240
    characters each: the block is split, every message is summarised, every request fits."""
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "40")
    served.handler = lambda body: SUMMARY if phase_of(body) == "summary" else direct("Noted, sir.")
    rng = random.Random(9)
    with tatlock.open() as butler:
        cid = butler.conversation("cli", new=True)[0].id
        for _ in range(40):
            butler.store.add_message(
                cid,
                "user",
                "".join(rng.choice(string.digits) for _ in range(2_000)),
                butler.anchor(),
            )
        done = butler.conversations.compact(cid)
    ranges = [(c.from_message, c.up_to_message) for c in done]
    assert len(ranges) > 1 and ranges[0][0] == 1 and ranges[-1][1] == 40
    # contiguous, nothing skipped
    assert all(b + 1 == c for (_, b), (c, _) in itertools.pairwise(ranges))
    assert overflows(served.chat_requests) == []


def test_a_briefing_from_huge_earlier_conversations_fits(cli, served, monkeypatch):
    served.handler = lambda body: (
        SUMMARY
        if phase_of(body) == "summary"
        else "Recent Highlights\n- numbers\nPatterns Across Sessions\n- none\nCurrent Context\n- x"
        if phase_of(body) == "cross_summary"
        else direct("Noted, sir.")
    )
    for _ in range(5):
        assert cli("ask", "--new", "9" * 100_000).code == 0
    served.reset()
    # the briefing is prepared after the answer (here before the process ends, to see its requests)
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "foreground")
    r = cli("ask", "--new", "Good morning")
    assert r.code == 0, r.err
    assert phase_of(served.chat_requests[0]) != "cross_summary"  # nothing before the answer
    # (and its repair)
    briefings = [b for b in served.chat_requests if phase_of(b) == "cross_summary"]
    assert briefings and all(
        "to fit the model's context" not in b["messages"][-1]["content"] for b in briefings
    )  # fitted by its maker, not cut on the way
    assert overflows(served.chat_requests) == []
