"""The TUI's screens and side parts, driven as a user would: the conversations list (search,
rename, delete after asking), the server-down banner with browsing still working, pulling a
missing model, the persona and tools editors (a new instruction reaches the next prompt),
the Compaction and Memory panes, the command palette, the layout by width, the theme kept in
config.toml, a long conversation opening at its end and loading older messages on scroll."""

from __future__ import annotations

import datetime as dt
import time

import pytest

import tatlock
from support.tui import direct, running, said, send, until
from tatlock import config
from tatlock.tui.actions import ACTIONS


def seed_conversations(*questions: str) -> list[int]:
    """One conversation per question, through the core API (the fake answers them)."""
    ids = []
    with tatlock.open(interface="tui") as butler:
        for q in questions:
            ids.append(butler.ask(q, new=True, room_id="tui").conversation_id)
        butler.wait_background(10)
    return ids


async def test_conversations_list_search_open_rename_and_delete_after_asking(served):
    served.handler = lambda body: (
        direct("The dentist is on Tuesday, sir.")
        if body.get("format")
        else "TOPICS DISCUSSED\n- appointments"
    )
    first, second = seed_conversations(
        "When is my dentist appointment?", "What is the weather like?"
    )
    async with running() as (app, pilot):
        sidebar = app.sidebar
        await until(pilot, lambda: len(sidebar.conversations) == 2)
        assert app.chat.conversation_id == second  # the latest opens
        # search, with a snippet; Enter on a hit opens its conversation
        await pilot.press("ctrl+f")
        await pilot.press(*"dentist")
        await until(pilot, lambda: sidebar.hits and sidebar.options.option_count >= 1)
        assert (
            sidebar.hits[0].conversation_id == first
            and "dentist" in sidebar.hits[0].snippet.lower()
        )
        sidebar.options.focus()
        sidebar.options.highlighted = 0
        await pilot.press("enter")
        await until(
            pilot,
            lambda: app.chat.conversation_id == first and len(app.chat.transcript.messages) == 2,
        )
        # rename the highlighted one
        app.query_one("#search").value = ""
        await until(pilot, lambda: not sidebar.hits and sidebar.options.option_count == 2)
        sidebar.options.focus()
        sidebar.options.highlighted = [c.id for c in sidebar.conversations].index(first)
        await pilot.press("r")
        await until(pilot, lambda: app.screen.query_one("Input"))
        app.screen.query_one("Input").value = "Dentist"
        await pilot.press("enter")
        await until(pilot, lambda: any(c.title == "Dentist" for c in sidebar.conversations))
        # delete asks first; "Cancel" keeps it
        sidebar.options.focus()
        sidebar.options.highlighted = [c.id for c in sidebar.conversations].index(first)
        await pilot.press("delete")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        assert "Dentist" in app.screen.question and "cannot be undone" in app.screen.question
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert len(sidebar.conversations) == 2
        await pilot.press("delete")
        await until(pilot, lambda: app.screen.query_one("#yes"))
        await pilot.pause(0.2)
        await pilot.click("#yes")
        await until(pilot, lambda: [c.id for c in sidebar.conversations] == [second])
        assert app.chat.conversation_id is None  # the open one was deleted: a new one starts
    with tatlock.open() as butler:
        assert [c.id for c in butler.conversations.list()] == [second]


async def test_server_down_banner_says_what_to_run_and_reading_and_searching_still_work(
    served, monkeypatch, closed_port_url
):
    served.handler = lambda body: (
        direct("Tea at four, sir.") if body.get("format") else "TOPICS DISCUSSED\n- tea"
    )
    seed_conversations("When is tea served?")
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)  # the server is down from the start
    async with running(check_server=True) as (app, pilot):
        banner = app.query_one("#banner")
        await until(pilot, lambda: banner.display, what="the banner")
        text = str(app.query_one("#banner-text").render())
        assert "not reachable" in text and "ollama serve" in text and closed_port_url in text
        assert "server down" in str(app.query_one("#header").render())
        # reading: the last conversation is on screen; searching works
        assert said(app) == [("user", "When is tea served?"), ("assistant", "Tea at four, sir.")]
        await pilot.press("ctrl+f", *"tea")
        await until(pilot, lambda: app.sidebar.hits)
        assert app.sidebar.hits[0].title == "When is tea served?"
        # editing works too
        await pilot.press("f2")
        await until(
            pilot, lambda: type(app.screen).__name__ == "PersonaScreen" and app.screen.instructions
        )
        await pilot.press("escape")
        # and a message sent meanwhile is kept, marked failed
        await send(app, pilot, "Are you there?")
        assert "failed" in app.chat.transcript.messages[-1].marks


async def test_a_missing_model_can_be_pulled_with_a_progress_bar(monkeypatch):
    from support.fake_ollama import FakeOllama

    with FakeOllama(models={}, pullable=["llama3.2:3b"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        monkeypatch.setenv("TATLOCK_MODEL", "llama3.2:3b")
        async with running(check_server=True) as (app, pilot):
            await until(
                pilot,
                lambda: app.query_one("#banner").display and app.query_one("#banner-pull").display,
            )
            assert "llama3.2:3b" in str(app.query_one("#banner-text").render())
            await pilot.pause(0.2)  # laid out, so the click lands on the button
            await pilot.click("#banner-pull")
            await until(pilot, lambda: type(app.screen).__name__ == "PullScreen")
            screen = app.screen
            await until(
                pilot, lambda: str(screen.query_one("#pull-status").render()).endswith("is ready.")
            )
            assert screen.query_one("#pull-bar").percentage == 1.0
            assert screen.meter.speed >= 0
            await pilot.pause(0.2)
            await pilot.click("#pull-cancel")  # now "Close"
            await until(pilot, lambda: app.status is not None and app.status.ok)
            assert not app.query_one("#banner").display
            assert "server up" in str(app.query_one("#header").render())
        assert "llama3.2:3b" in srv.models


async def test_an_instruction_added_in_the_persona_editor_reaches_the_next_prompt(served):
    served.queue(direct("Ahoy, sir."))
    async with running() as (app, pilot):
        await pilot.press("f2")
        await until(
            pilot, lambda: type(app.screen).__name__ == "PersonaScreen" and app.screen.instructions
        )
        screen = app.screen
        count = len(screen.instructions)
        await pilot.press("a")
        screen.editor.load_text("Always speak like a pirate.")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: len(screen.instructions) == count + 1)
        assert (
            screen.instructions[-1].instruction == "Always speak like a pirate."
            and screen.instructions[-1].enabled
        )
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ != "PersonaScreen")
        await send(app, pilot, "Hello")
    system = served.chat_requests[-1]["messages"][0]["content"]
    assert "Always speak like a pirate." in system


async def test_persona_editor_switch_move_and_delete_after_asking(served):
    async with running() as (app, pilot):
        await pilot.press("f2")
        await until(
            pilot,
            lambda: (
                type(app.screen).__name__ == "PersonaScreen" and len(app.screen.instructions) > 2
            ),
        )
        screen = app.screen
        first, second = screen.instructions[0], screen.instructions[1]
        screen.query_one("#persona-list").focus()
        await pilot.press("space")  # switch the first off
        await until(pilot, lambda: not screen.instructions[0].enabled)
        await pilot.press("shift+down")  # move it down one
        await until(pilot, lambda: screen.instructions[1].id == first.id)
        assert screen.instructions[0].id == second.id
        await pilot.press("delete")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("y")
        await until(pilot, lambda: first.id not in [i.id for i in screen.instructions])
        # editing asks before leaving unsaved work
        screen.query_one("#persona-list").focus()
        await pilot.press("enter")
        screen.editor.move_cursor(screen.editor.document.end)
        screen.editor.insert(" Indeed.")
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("escape")  # no: stay
        await pilot.press("ctrl+s")
        await until(pilot, lambda: screen.instructions[0].instruction.endswith(" Indeed."))
    with tatlock.open() as butler:
        texts = [i.instruction for i in butler.persona.list()]
        assert first.instruction not in texts and texts[0].endswith(" Indeed.")


async def test_tools_screen_lists_parameters_and_switches_tools(served):
    async with running() as (app, pilot):
        await pilot.press("f3")
        await until(pilot, lambda: type(app.screen).__name__ == "ToolsScreen" and app.screen.tools)
        screen = app.screen
        info = screen.current()
        detail = str(screen.query_one("#tools-text").render())
        assert info.spec.key in detail and "parameters" in detail
        assert info.spec.enabled
        await pilot.press("space")
        await until(pilot, lambda: not screen.tools[0].spec.enabled)
        with tatlock.open() as butler:
            assert not butler.tools.get(info.spec.key).spec.enabled
        await pilot.press("enter")
        await until(pilot, lambda: screen.tools[0].spec.enabled)


async def test_compaction_and_memory_panes_follow_the_conversation(served, monkeypatch):
    from tatlock.memory import detached, housekeeping

    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    # compaction on the housekeeping thread, live
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    # the briefing left at exit stays here
    monkeypatch.setattr(detached, "spawn", lambda *a, **kw: None)
    monkeypatch.setattr(housekeeping, "COMPACT_SETTLE", 0.1)

    def model(body):
        if body["messages"][0]["content"].startswith("You are the record keeper"):
            return {
                "content": "TOPICS DISCUSSED\n- tea\n\nFACTUAL TIMELINE\n- #1: talk\n\nKEY "
                "FACTS ESTABLISHED\n"
                "- Tester likes tea\n\nUNRESOLVED ITEMS\n- none\n\nTECHNICAL "
                "DETAILS\n- none"
            }
        return direct("Indeed, sir.", topics=("tea",))

    served.handler = model
    async with running() as (app, pilot):
        with tatlock.open() as butler:
            butler.variables.set("location", "Lisbon")
        await send(app, pilot, "I like tea")
        await send(app, pilot, "Earl Grey especially")
        pane = app.pane("compaction")
        await until(
            pilot, lambda: pane.summaries, timeout=15, what="a summary in the Compaction pane"
        )
        events = [str(o.prompt) for o in pane.query_one("#compaction-events").options]
        assert any("compacting #1–4" in e for e in events) and any("#1–4 in" in e for e in events)
        assert (
            pane.summaries[0][0] == "Summary of messages 1–4"
            and "Tester likes tea" in pane.summaries[0][1]
        )
        app.action_show_pane("compaction")
        pane.query_one("#compacts").focus()
        pane.query_one("#compacts").highlighted = 0
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "TextScreen")
        assert "Tester likes tea" in app.screen.text
        await pilot.press("escape")
        memory = app.pane("memory")
        await until(pilot, lambda: "tea" in str(memory.query_one("#memory-topics").render()))
        variables = str(memory.query_one("#memory-variables").render())
        assert "location = Lisbon" in variables and "set by hand" in variables


async def test_debug_pane_shows_a_model_call_and_saves_to_a_file(served, tmp_path):
    served.queue(direct("Paris, sir."))
    async with running() as (app, pilot):
        await send(app, pilot, "What is the capital of France?")
        pane = app.pane("debug")
        options = pane.options
        index = next(i for i, (t, _, _) in enumerate(pane.lines) if t.startswith("» model call"))
        options.focus()
        options.highlighted = index
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "TextScreen")
        text = app.screen.text
        assert "══ prompt ══" in text and "What is the capital of France?" in text
        assert "══ raw output ══" in text and '"answer": "Paris, sir."' in text
        await pilot.press("escape")
        target = tmp_path / "debug.txt"
        app.action_save_debug()
        await until(pilot, lambda: app.screen.query_one("Input"))
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        await until(pilot, lambda: target.exists())
        saved = target.read_text()
        assert "decision DIRECT" in saved and "══ raw output ══" in saved


async def test_every_action_is_in_the_command_palette_and_runs_from_it(served):
    async with running() as (app, pilot):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert all(a.title in titles for a in ACTIONS)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: type(app.screen).__name__ == "CommandPalette")
        await pilot.press(*"Tools: switch")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "ToolsScreen")


@pytest.mark.parametrize(
    "width,panes,sidebar", [(160, True, True), (130, True, False), (100, False, False)]
)
async def test_side_panes_show_from_120_columns_and_toggle_below(served, width, panes, sidebar):
    async with running(size=(width, 40)) as (app, pilot):
        assert app.query_one("#panes").display is panes
        assert app.query_one("#sidebar").display is sidebar
        await pilot.press("ctrl+t")
        assert app.query_one("#panes").display is not panes
        await pilot.press("ctrl+o")
        assert app.query_one("#sidebar").display is not sidebar


async def test_the_chosen_theme_is_remembered_in_config_toml(served, home):
    (home / "config.toml").write_text('# my settings\ntier = "low"\n', encoding="utf-8")
    async with running() as (app, pilot):
        app.theme = "nord"
        await until(pilot, lambda: 'theme = "nord"' in (home / "config.toml").read_text())
    assert (home / "config.toml").read_text() == '# my settings\ntier = "low"\ntheme = "nord"\n'
    assert config.load().theme == "nord"
    async with running() as (app, pilot):
        assert app.theme == "nord"


def test_save_setting_keeps_the_other_lines_and_refuses_a_broken_file(home):
    from tatlock.errors import ConfigError

    paths = config.load().paths
    config.save_setting(paths, "theme", "dracula")  # no file yet
    assert (home / "config.toml").read_text() == 'theme = "dracula"\n'
    (home / "config.toml").write_text(
        '# mine\ntheme = "old"  # was\ntier = "low"\n\n[table]\nkey = 1\n'
    )
    config.save_setting(paths, "theme", 'gruvbox "quoted"')
    assert (home / "config.toml").read_text() == (
        '# mine\ntheme = "gruvbox \\"quoted\\""  # was\ntier = "low"\n\n[table]\nkey = 1\n'
    )
    (home / "config.toml").write_text("# only a table\n[table]\nkey = 1\n")
    config.save_setting(paths, "theme", "nord")
    assert (home / "config.toml").read_text().startswith('# only a table\ntheme = "nord"\n[table]')
    (home / "config.toml").write_text("tier = \n")
    with pytest.raises(ConfigError):
        config.save_setting(paths, "theme", "nord")
    assert (home / "config.toml").read_text() == "tier = \n"  # left as it was
    assert not list(home.glob(".config.toml.*"))


async def test_a_long_conversation_opens_at_its_end_and_loads_older_messages_on_scroll(served):
    from tatlock.store.user import Author, UserStore
    from tatlock.timeutil import iso

    # seeding only: the app reads through the core API
    store = UserStore.open(config.load().paths, "tester")
    conv = store.create_conversation("tui", "tui", title="Long")
    t0 = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
    for i in range(1, 201):
        who = Author("tester", "Tester", is_anchor=True) if i % 2 else Author.assistant()
        store.add_message(
            conv.id,
            "user" if i % 2 else "assistant",
            f"message number {i}",
            who,
            timestamp=iso(t0 + dt.timedelta(minutes=i)),
        )
    store.close()
    async with running() as (app, pilot):
        transcript = app.chat.transcript
        await until(pilot, lambda: transcript.messages and transcript.messages[-1].number == 200)
        assert len(transcript.messages) == 30 and transcript.more_before
        await pilot.pause(0.2)
        last = transcript.messages[-1]
        assert transcript.region.intersection(last.region)  # the latest is on screen
        first = transcript.messages[0]
        transcript.scroll_home(animate=False)
        await until(pilot, lambda: len(transcript.messages) == 60)
        assert transcript.messages[0].number == 141 and transcript.messages[30] is first
        # Kept in place: the page came in above, out of sight, and the message that was at
        # the top is still at the top (on a busy machine this can take a few refreshes).
        await until(pilot, lambda: transcript.scroll_y > 0, what="the view to keep its place")
        await pilot.pause(0.1)
        assert abs(first.virtual_region.y - transcript.scroll_y) <= 1


# -- issue 18: a list that follows what others write; the small things of item 9 -------------


async def test_the_list_and_the_open_conversation_follow_what_another_process_writes(
    served, tatlock_proc
):
    served.handler = lambda body: (
        direct("Lima, sir.") if body.get("format") else "TOPICS DISCUSSED\n- peru"
    )
    (mine,) = seed_conversations("What is the capital of Peru?")
    async with running() as (app, pilot):
        sidebar = app.sidebar
        await until(
            pilot, lambda: app.chat.conversation_id == mine and len(sidebar.conversations) == 1
        )
        # another process starts a conversation: it appears, with its title and its two messages
        done = await app.jobs.run(
            tatlock_proc, "ask", "--new", "What is the capital of Chile?", slow=True
        )
        assert done.code == 0, done.err
        await until(
            pilot,
            lambda: (
                [(c.title, c.message_count) for c in sidebar.conversations][:1]
                == [("What is the capital of Chile?", 2)]
            ),
            what="the new conversation in the list, whole",
        )
        # ... writes to the one open here: its count goes up and its messages join the transcript
        done = await app.jobs.run(
            tatlock_proc, "ask", "--conversation", str(mine), "And of Bolivia?", slow=True
        )
        assert done.code == 0, done.err
        await until(
            pilot,
            lambda: (
                said(app)[-2:] == [("user", "And of Bolivia?"), ("assistant", "Lima, sir.")]
                and [c.message_count for c in sidebar.conversations if c.id == mine] == [4]
            ),
            what="the other process's turn in the transcript and the list",
        )
        assert [v.number for v in app.chat.transcript.messages] == [1, 2, 3, 4]
        # ... renames one: the list shows the new title
        from tatlock.store.user import UserStore

        # a connection of its own, as another process has
        other = UserStore.open(config.load().paths, "tester")
        try:
            other.rename_conversation(mine, "Andean capitals")
        finally:
            other.close()
        await until(pilot, lambda: any(c.title == "Andean capitals" for c in sidebar.conversations))


async def test_a_new_conversation_joins_the_list_with_its_first_message_never_empty(
    served, monkeypatch
):
    from tatlock.tui.widgets.sidebar import Sidebar

    served.handler = lambda body: (
        direct("Certainly, sir.") if body.get("format") else "TOPICS DISCUSSED\n- x"
    )
    shown: list[tuple[int, int]] = []
    prompt = Sidebar._prompt
    monkeypatch.setattr(
        Sidebar, "_prompt", lambda self, c: shown.append((c.id, c.message_count)) or prompt(self, c)
    )
    from tatlock.store.user import UserStore

    add = UserStore.add_message

    # a busy disk: the question lands a moment late
    def slow_add(self, conversation_id, role, *args, **kw):
        if role == "user":
            time.sleep(0.4)
        return add(self, conversation_id, role, *args, **kw)

    monkeypatch.setattr(UserStore, "add_message", slow_add)
    async with running() as (app, pilot):
        for _ in range(3):
            await pilot.press("ctrl+n")
            await send(app, pilot, "Anything new?")
        await until(pilot, lambda: len(app.sidebar.conversations) == 3)
        assert shown and all(count > 0 for _, count in shown)


async def test_an_openai_compatible_server_is_named_once_and_offered_no_pull(served, monkeypatch):
    from tatlock.tui.screens.help import help_markdown

    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", served.url + "/v1")
    async with running(check_server=True) as (app, pilot):
        await until(pilot, lambda: app.status is not None and app.status.ok)
        header = str(app.query_one("#header").render())
        assert "server up (openai-compatible)" in header and "openai openai" not in header
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Model: pull" not in titles and "Conversation: new" in titles
        assert "Model: pull" not in help_markdown("openai") and "Model: pull" in help_markdown(
            "ollama"
        )
        app.action_pull_model()
        await pilot.pause(0.1)
        assert type(app.screen).__name__ == "Screen"  # no pull screen: a notice says why


def test_the_help_tables_keep_each_row_whole():
    from markdown_it import MarkdownIt

    from tatlock.tui.screens.help import help_markdown

    rows: list[list[str]] = []
    for token in MarkdownIt("gfm-like").parse(help_markdown()):  # Textual's Markdown parser
        if token.type == "tr_open":
            rows.append([])
        elif token.type in ("th_open", "td_open"):
            rows[-1].append("")
    header_widths = {2, 3}
    assert rows and all(len(r) in header_widths for r in rows)
    tables = [len(r) for r in rows]
    assert tables.count(2) >= len(["writing", "slash"]) and tables.count(3) >= 10
    # the pipe escaped, so the row stays whole
    assert "`/export [md\\|json] [FILE]`" in help_markdown()


async def test_wrapped_list_titles_start_under_the_title_not_at_the_edge(served):
    from rich.console import Console

    served.handler = lambda body: (
        direct("Certainly, sir.") if body.get("format") else "TOPICS DISCUSSED\n- x"
    )
    seed_conversations(
        "A very long question about the many errands a butler might run on a wet Tuesday"
    )
    async with running() as (app, pilot):
        await until(pilot, lambda: app.sidebar.conversations)
        console = Console(width=24, record=True, color_system=None)
        console.print(app.sidebar._prompt(app.sidebar.conversations[0]))
        lines = console.export_text().rstrip("\n").split("\n")
        assert len(lines) >= 4 and lines[0].startswith("▸ A very long")
        assert all(line.startswith("  ") and line[2] != " " for line in lines[1:])
        assert lines[-1].strip().endswith("2 messages")
