"""Snapshots of the TUI's main screens (pytest-textual-snapshot: SVG screenshots compared with
the accepted ones in tests/__snapshots__/), with time frozen (time-machine, UTC) and the cursor
not blinking. After a deliberate change of the look: `scripts/test tests/test_tui_snapshots.py
--snapshot-update`, then look at the new SVGs before committing them."""

from __future__ import annotations

import time

import pytest
import time_machine

import tatlock
from support.tui import until
from support.tui_scene import NOW, seed, stage, still
from tatlock import config


@pytest.fixture
def frozen(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    with time_machine.travel(NOW, tick=False):
        yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def scene(served, frozen):
    seed(config.load().paths)
    with tatlock.open(interface="tui") as butler:
        yield butler


def make_app(butler, **kw):
    from tatlock.tui.app import TatlockApp

    return TatlockApp(butler, check_server=True, **kw)


def test_main_screen_mid_conversation_with_the_debug_pane(scene, snap_compare):
    assert snap_compare(
        make_app(scene), terminal_size=(160, 45), run_before=lambda pilot: stage(pilot.app, pilot)
    )


def test_compaction_pane(scene, snap_compare):
    async def run_before(pilot):
        await stage(pilot.app, pilot)
        pilot.app.action_show_pane("compaction")
        await pilot.pause(0.2)

    assert snap_compare(make_app(scene), terminal_size=(160, 45), run_before=run_before)


def test_server_down_banner(frozen, snap_compare, monkeypatch):
    # nothing listens on the discard port: a fixed address
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    with tatlock.open(interface="tui") as butler:

        async def run_before(pilot):
            app = pilot.app
            await until(pilot, lambda: app.ready.is_set() and app.query_one("#banner").display)
            still(app)
            await pilot.pause(0.2)

        assert snap_compare(make_app(butler), terminal_size=(120, 30), run_before=run_before)


def test_persona_screen(scene, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await stage(app, pilot)
        await pilot.press("f2")
        await until(
            pilot, lambda: type(app.screen).__name__ == "PersonaScreen" and app.screen.instructions
        )
        await pilot.pause(0.2)
        still(app)

    assert snap_compare(make_app(scene), terminal_size=(120, 35), run_before=run_before)


def test_tools_screen(scene, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await stage(app, pilot)
        await pilot.press("f3")
        await until(pilot, lambda: type(app.screen).__name__ == "ToolsScreen" and app.screen.tools)
        await pilot.pause(0.2)

    assert snap_compare(make_app(scene), terminal_size=(120, 35), run_before=run_before)


def test_help_screen(scene, snap_compare):
    async def run_before(pilot):
        app = pilot.app
        await stage(app, pilot)
        await pilot.press("f1")
        await until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await pilot.pause(0.2)

    assert snap_compare(make_app(scene), terminal_size=(120, 35), run_before=run_before)


def test_main_screen_at_80x24_with_an_answer_given_again(scene, served, snap_compare):
    """The small window (the list and the panes hidden, the footer's keys whole) and the look of
    a superseded answer: the last one was answered again (F5)."""
    import re

    from support.replies import direct

    served.handler = lambda body: direct("Certainly, sir: the Alfama at nine, Belém at four.")

    async def run_before(pilot):
        app = pilot.app
        await stage(app, pilot)
        await pilot.press("f5")
        await until(
            pilot,
            lambda: (
                app.chat.turn is not None
                and app.chat.turn.done
                and not app.chat.busy
                and any(v.superseded for v in app.chat.transcript.messages)
            ),
        )
        new = app.chat.transcript.messages[-1]
        # the time it took varies
        new.set_marks((), re.sub(r"[\d.]+ m?s$", "1.2 s", new.footer_text))
        new.when = "14:05"
        new.relabel()
        await pilot.pause(0.3)
        still(app)

    assert snap_compare(make_app(scene), terminal_size=(80, 24), run_before=run_before)
