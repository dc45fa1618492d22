"""Long-term memory through the real pipeline: a fact from message 1 still reaches the
prompt at message 130; authorship in multi-party rooms; the cross-conversation summary."""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import time

from support import replies
from tatlock.butler import Butler
from tatlock.config import load
from tatlock.store.user import Author

direct = functools.partial(replies.direct, topics=("chat",))


def conservative_summary(body: dict) -> dict:
    """A stand-in record keeper: keeps every line of the transcript that states a fact."""
    text = body["messages"][-1]["content"]
    lines = re.findall(r"^\[#(\d+)[^\]]*\] ([^:]+): (.*)$", text, re.M)
    records = re.findall(r"^- (.*)$", text, re.M)  # archive requests carry earlier records
    facts = [f"- {who} said: {what}" for _, who, what in lines if "remember" in what.lower()]
    facts += [f"- {r}" for r in records if "said:" in r]
    return {
        "content": "TOPICS DISCUSSED\n- family\n\nFACTUAL TIMELINE\n- messages summarised\n\n"
        "KEY FACTS ESTABLISHED\n"
        + ("\n".join(dict.fromkeys(facts)) or "- none")
        + "\n\nUNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none"
    }


def scripted_model(body: dict):
    first = body["messages"][0]["content"]
    if first.startswith("You are the record keeper"):
        return conservative_summary(body)
    if first.startswith("You are the memory of a personal assistant"):
        return {
            "content": "Recent Highlights\n- Tester talked about Philippa.\nPatterns Across "
            "Sessions\n- "
            "Family comes up often.\nCurrent Context\n- Philippa's birthday is on 3 "
            "May."
        }
    return direct("Very good, sir.")


def phase1_prompts(fake) -> list[str]:
    return [
        r["messages"][1]["content"] for r in fake.chat_requests if replies.phase_of(r) == "assess"
    ]


def test_fact_from_message_1_reaches_the_prompt_at_message_130(served):
    served.handler = scripted_model
    cfg = load()
    assert cfg.effective("compact_interval") == 40  # the low tier
    butler = Butler(cfg)
    butler.ask("Please remember: my sister Philippa was born on 3 May 1990.")
    for i in range(2, 66):
        butler.ask(f"Small talk number {i} about the garden and the weather.")
        butler.wait_background()
    conv = butler.store.conversations()[0]
    assert conv.message_count == 130
    ranges = [(c.from_message, c.up_to_message) for c in butler.store.compacts(conv.id)]
    assert ranges == [(1, 40), (41, 80), (81, 120)]
    last = phase1_prompts(served)[-1]
    assert "Small talk number 65" in last  # the question itself
    assert "Philippa" in last and "3 May 1990" in last  # message 1, through the summaries
    assert "Small talk number 61" in last  # uncompacted messages stay raw
    butler.close()


def test_prompt_stays_bounded_as_the_conversation_grows(served):
    served.handler = scripted_model
    butler = Butler(load())
    sizes = {}
    for i in range(1, 101):
        butler.ask(f"Message {i}: " + "the roses need pruning and the hedge trimming " * 3)
        butler.wait_background()
        if i in (20, 60, 100):
            sizes[i] = len(phase1_prompts(served)[-1])
    butler.close()
    # once compaction takes over, growth is only the summaries, not the raw history
    assert sizes[100] < sizes[20] * 2.5, sizes


def test_multi_party_attribution_and_prompt_format(served, home):
    served.handler = scripted_model
    cfg = load()
    butler = Butler(cfg, interface="tui")
    maria = Author("maria", "Maria")
    robo = Author("robo-7", "Robo", is_bot=True)
    butler.ask("Good evening everyone", room_id="kitchen")
    butler.ask("Hello! I am visiting from Lisbon", room_id="kitchen", author=maria)
    # Maria tells the butler a fact: it is hers, not the room's or the owner's (the fact extractor
    # keeps it as she says it, so the model's set_personal_variable call is not needed)
    served.handler = None
    served.queue(
        {
            "json": {
                "decision": "TOOLS_NEEDED",
                "guard_reason": "NONE",
                "tools": ["set_personal_variable"],
                "tool_query": "favourite tea",
                "answer": "",
                "topics": ["tea"],
            }
        },
        "Darjeeling it is, madam.",
    )
    said = butler.ask("My favourite tea is Darjeeling", room_id="kitchen", author=maria)
    # (the model's "madam" is withdrawn: the answer is the acknowledgement of what was kept)
    assert said.answer == "Very good, sir: noted that your favourite tea is Darjeeling."
    served.handler = scripted_model
    butler.ask("Beep. Reminder: the oven timer is done.", room_id="kitchen", author=robo)
    butler.ask("Thank you all", room_id="kitchen")
    prompt = phase1_prompts(served)[-1]
    assert "Anchor (Tester): Good evening everyone" in prompt
    assert "Maria: Hello! I am visiting from Lisbon" in prompt
    assert "[Robo (bot)]: Beep. Reminder: the oven timer is done." in prompt
    assert "Assistant: Very good, sir." in prompt
    assert "- Maria's favourite tea: Darjeeling" in prompt  # the kept facts block
    assert "Latest message, from Anchor (Tester):\nThank you all" in prompt
    conv = butler.store.conversations()[0]
    assert (conv.room_id, conv.interface) == ("kitchen", "tui")
    rows = {r.author_id: r for r in butler.store.participants(conv.id)}
    assert rows["maria"].message_count == 2 and rows["robo-7"].is_bot
    assert rows["tester"].message_count == 2 and rows["tatlock"].message_count == 5
    var = butler.store.vars()[0]
    assert (var.key, var.value, var.author_id, var.about) == (
        "maria.favourite_tea",
        "Darjeeling",
        "maria",
        "Maria",
    )
    src = butler.store.message(var.source_message_id)
    assert src.author_id == "maria" and "Darjeeling" in src.content
    butler.close()


def test_anchor_comes_from_config(served, monkeypatch):
    monkeypatch.setenv("TATLOCK_ANCHOR_ID", "jeeves-owner")
    monkeypatch.setenv("TATLOCK_ANCHOR_NAME", "Bertie")
    served.handler = scripted_model
    butler = Butler(load())
    butler.ask("Hello")
    butler.ask("Again")
    assert "Anchor (Bertie): Hello" in phase1_prompts(served)[-1]
    m = butler.store.messages(butler.store.conversations()[0].id)[0]
    assert (m.author_id, m.is_anchor) == ("jeeves-owner", True)
    butler.close()


def test_a_new_conversation_starts_at_once_with_the_briefing_prepared_when_the_last_went_quiet(
    served, home, monkeypatch
):
    from tatlock.memory import housekeeping

    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    monkeypatch.setattr(housekeeping, "SETTLE", 0.3)
    served.handler = scripted_model
    butler = Butler(load())
    butler.ask("Please remember: Philippa's birthday is on 3 May.")
    butler.ask("Goodbye for now")
    db = home / "users" / "tester_longterm.db"
    prepared = "SELECT count(*) FROM cross_conversation_summaries WHERE conversation_id IS NULL"
    deadline = time.monotonic() + 20
    # prepared once the talk went quiet
    while sqlite3.connect(db).execute(prepared).fetchone()[0] == 0:
        assert time.monotonic() < deadline, "no briefing was prepared"
        time.sleep(0.05)
    n = len(served.chat_requests)
    butler.ask("Good morning", new=True)
    # the first answer of the new conversation: its assessment is the first call, nothing before it
    assert replies.phase_of(served.chat_requests[n]) == "assess"
    first_prompt = phase1_prompts(served)[-1]
    assert "Earlier conversations with this user" in first_prompt
    assert "Philippa's birthday is on 3 May" in first_prompt
    assert re.search(r"Summary of last 1 conversation \| Updated: \d{4}-\d\d-\d\d", first_prompt)
    assert (home / "users" / "tester" / "cross_conversation_summary.md").exists()
    # later turns of the same conversation keep it
    butler.ask("And another thing")
    assert "Philippa's birthday" in phase1_prompts(served)[-1]
    assert butler.close() is None  # nothing was left that is worth a line
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT conversation_id, source_conversations FROM "
        "cross_conversation_summaries"
        " WHERE conversation_id IS NOT NULL"
    ).fetchall()
    assert [(cid, json.loads(src)) for cid, src in rows] == [(2, [1])]  # the one it began with


def test_ask_in_the_foreground_mode_finishes_compaction_before_it_exits(
    cli, served, home, monkeypatch
):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "foreground")
    served.handler = scripted_model
    assert cli("ask", "Please remember item 1").code == 0
    r = cli("ask", "-v", "Please remember item 2")  # message 4: a block is due
    assert r.code == 0
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    assert conn.execute(
        "SELECT from_message, up_to_message FROM conversation_compacts"
    ).fetchall() == [(1, 4)]
    assert "[compaction] messages 1-4 done in" in r.err


def test_topics_from_phase_1_are_counted_and_recallable(served, cli):
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "answer": "Prune in late winter, sir.",
                "topics": ["gardening", "roses"],
            }
        },
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "answer": "Feed them in spring, sir.",
                "topics": ["gardening"],
            }
        },
    )
    cli("ask", "When should I prune my roses?")
    cli("ask", "And when do I feed them?")
    butler = Butler(load())
    topics = {r["name"]: r["mentions"] for r in butler.store.topics()}
    assert topics == {"gardening": 2, "roses": 1}
    from tatlock.tools.base import ToolContext
    from tatlock.tools.memory import recall_topic

    out = recall_topic(ctx=ToolContext("tester", butler.store), topic="Gardening")
    assert {r["text"] for r in out["results"]} >= {
        "When should I prune my roses?",
        "And when do I feed them?",
    }
    butler.close()


def test_when_compaction_falls_behind_the_prompt_stays_bounded_and_says_so(served, monkeypatch):
    from tatlock.memory import context

    cfg = load()
    butler = Butler(cfg)
    conv = butler.store.create_conversation("cli", "cli")
    for i in range(1, 301):  # 300 uncompacted messages, as if every compaction had failed
        butler.store.add_message(
            conv.id,
            "user",
            f"Note {i}: " + "all about the herbaceous border " * 20,
            Author("tester", "Tester", is_anchor=True),
        )
    ctx = context.build(butler.store, conv.id, budget_tokens=4096)
    text = ctx.transcript(skip_last=1)  # the history; the latest message is the question itself
    # no summary yet: the messages may take the summaries' share too, never more than the memory's
    assert len(text) / 4 <= 4096 * context.SHARES
    assert ctx.messages[-1].message_number == 300 and "Note 300:" in ctx.messages[-1].content
    first_shown = ctx.messages[0].message_number
    assert ctx.unshown == (1, first_shown - 1)
    assert (
        f"Messages 1-{first_shown - 1} of this conversation are waiting to be summarised"
        in ctx.summary_block()
    )
    # long messages cut before any was left out
    assert "[…cut here; the full text is in memory]" in text
    butler.close()
