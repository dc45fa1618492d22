"""The TUI survives any window size and any resize sequence (issue 18, item 3): started at
160x45 it went down with `ValueError: range() arg 3 must not be zero` at 80x24 (the composer's
placeholder wrapped at width 0). Each test resizes a live app through a list of sizes, tiny
ones on the way, on the main screen, with the side panes forced on, over each screen and
dialog, and while an answer streams; then it still takes a message at 40x12."""

from __future__ import annotations

import pytest

from support.tui import direct, running, said, send, until
from support.tui_scene import seed
from tatlock import config

# the sequences (160->80, 140->80, 160->84, 160->80->140->84), the smallest size it asks
# for (40x12), and widths and heights below any border on the way
SIZES = [
    (160, 45),
    (80, 24),
    (140, 40),
    (84, 24),
    (160, 45),
    (84, 24),
    (40, 12),
    (20, 12),
    (3, 12),
    (1, 1),
    (40, 3),
    (0, 0),
    (12, 40),
    (200, 60),
    (121, 30),
    (119, 30),
    (141, 30),
    (139, 30),
    (40, 12),
]


async def resize_through(app, pilot, sizes=SIZES, *, arranged: bool = False) -> None:
    """Resize through ``sizes``; with ``arranged``, the list and the panes show by the new width
    at each step (from 140 and 120 columns)."""
    for width, height in sizes:
        await pilot.resize_terminal(width, height)
        await pilot.pause(0.05)
        assert app.is_running and app.return_code is None, f"the app ended at {width}x{height}"
        if arranged and app.screen is app.screen_stack[0]:
            assert app.query_one("#panes").display is (width >= 120), f"panes at {width}x{height}"
            assert app.query_one("#sidebar").display is (width >= 140), f"list at {width}x{height}"
    await pilot.pause(0.2)
    assert app.is_running


@pytest.fixture
def scene(served):
    seed(config.load().paths)
    served.handler = lambda body: (
        direct("Certainly, sir.") if body.get("format") else "TOPICS DISCUSSED\n- x"
    )
    return served


async def test_the_main_screen_survives_every_size_then_takes_a_message_at_40x12(scene):
    async with running() as (app, pilot):
        await until(pilot, lambda: app.chat.transcript.messages)
        await resize_through(app, pilot, arranged=True)
        assert app.size == (40, 12)
        # still there to write in
        assert app.chat.composer.region.width > 0 and app.chat.composer.region.height >= 3
        await send(app, pilot, "Still there?")
        assert said(app)[-2:] == [("user", "Still there?"), ("assistant", "Certainly, sir.")]


async def test_forced_side_panes_and_list_survive_every_size_and_leave_the_chat_room(scene):
    async with running(size=(80, 24)) as (app, pilot):
        await pilot.press("ctrl+t", "ctrl+o")  # both on, below the widths they show from
        assert app.query_one("#panes").display and app.query_one("#sidebar").display
        await resize_through(app, pilot)
        # at 40 columns the chat keeps a usable share beside the forced panes and list
        assert app.chat.region.width >= 12


@pytest.mark.parametrize(
    "key,screen",
    [
        ("f1", "HelpScreen"),
        ("f2", "PersonaScreen"),
        ("f3", "ToolsScreen"),
        ("ctrl+p", "CommandPalette"),
    ],
)
async def test_each_screen_survives_every_size(scene, key, screen):
    async with running() as (app, pilot):
        await pilot.press(key)
        await until(pilot, lambda: type(app.screen).__name__ == screen)
        await resize_through(app, pilot)
        assert type(app.screen).__name__ == screen


async def test_a_dialog_survives_every_size(scene):
    async with running() as (app, pilot):
        app.action_rename_conversation()
        await until(pilot, lambda: type(app.screen).__name__ == "AskScreen")
        await resize_through(app, pilot)
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ != "AskScreen")


async def test_a_streaming_answer_survives_every_size(served):
    import threading

    release = threading.Event()

    def slow(body):
        if not body.get("format"):
            return "TOPICS DISCUSSED\n- x"
        release.wait(20)
        return direct("An answer that took its time, sir, through every size of window.")

    served.handler = slow
    async with running() as (app, pilot):
        await send(app, pilot, "Tell me about Lisbon.", wait=False)
        await until(pilot, lambda: app.chat.streaming)
        await resize_through(app, pilot)
        release.set()
        await until(
            pilot, lambda: app.chat.turn.done and not app.chat.transcript.messages[-1].streaming
        )
        assert said(app)[-1] == (
            "assistant",
            "An answer that took its time, sir, through every size of window.",
        )


async def test_the_server_down_banner_survives_every_size(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    async with running(check_server=True) as (app, pilot):
        await until(pilot, lambda: app.query_one("#banner").display)
        await resize_through(app, pilot)
