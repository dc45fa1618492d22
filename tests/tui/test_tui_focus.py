"""The keyboard (issue 18, item 4): where the focus is shows; a printable key typed where
nothing takes text goes to the message box; Ctrl+F, the words, Down, Enter opens the hit on
the first try (also where the list is hidden); Tab goes round the screen in reading order;
the footer's keys fit 80 columns."""

from __future__ import annotations

import pytest
from test_tui_screens import seed_conversations

from support.tui import direct, running, until


@pytest.fixture
def two(served):
    served.handler = lambda body: (
        direct("The dentist is on Tuesday, sir.")
        if body.get("format")
        else "TOPICS DISCUSSED\n- appointments"
    )
    return seed_conversations("When is my dentist appointment?", "What is the weather like?")


def stops(app) -> list[str]:
    """The ids of the focus chain, in Tab's order."""
    return [w.id or type(w).__name__ for w in app.screen.focus_chain]


async def test_tab_goes_round_in_reading_order_and_every_stop_shows_its_focus(two):
    async with running() as (app, pilot):
        assert app.focused is app.chat.composer
        # left to right, top to bottom: the list, the chat, the panes (the hidden tabs' lists are no
        # stops)
        assert stops(app) == [
            "search",
            "conversations",
            "transcript",
            "composer",
            "ContentTabs",
            "debug-events",
        ]
        seen = []
        for _ in range(len(stops(app))):
            await pilot.press("tab")
            widget = app.focused
            seen.append(widget.id or type(widget).__name__)
            if widget.id in ("conversations", "transcript", "debug-events"):
                assert widget.styles.border_left[0] == "tall"  # the bar down its left side
                app.set_focus(None)
                await pilot.pause()
                assert widget.styles.border_left[0] == "blank"  # ... which goes with the focus
                app.set_focus(widget)
            elif widget.id == "composer":
                focused_colour = widget.styles.border_top[1]
                app.set_focus(None)
                await pilot.pause()
                # its border lights up with the focus
                assert widget.styles.border_top[1] != focused_colour
                app.set_focus(widget)
        assert seen == [
            "ContentTabs",
            "debug-events",
            "search",
            "conversations",
            "transcript",
            "composer",
        ]


async def test_printable_keys_typed_outside_an_input_go_to_the_message_box(two):
    async with running() as (app, pilot):
        composer = app.chat.composer
        app.chat.transcript.focus()
        await pilot.press(*"Hello")
        assert app.focused is composer and composer.text == "Hello"
        app.query_one("#debug-events").focus()
        await pilot.press("space", *"there")
        assert app.focused is composer and composer.text == "Hello there"
        # a key bound where it is typed keeps its meaning: r in the list renames
        app.sidebar.options.focus()
        await pilot.press("x")
        assert app.focused is composer and composer.text == "Hello therex"
        app.sidebar.options.focus()
        await pilot.press("r")
        await until(pilot, lambda: type(app.screen).__name__ == "AskScreen")
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "Screen")
        assert composer.text == "Hello therex"
        # on another screen the keys are that screen's own
        await pilot.press("f1", "x")
        assert type(app.screen).__name__ == "HelpScreen" and composer.text == "Hello therex"


@pytest.mark.parametrize("width", [160, 100])
async def test_search_from_the_keyboard_on_the_first_try(two, width):
    first, second = two
    async with running(size=(width, 40)) as (app, pilot):
        await until(pilot, lambda: app.chat.conversation_id == second)
        assert app.sidebar.display is (width >= 140)
        # typed at once, no pause: Down searches now and lands on the first hit; Enter opens it
        await pilot.press("ctrl+f", *"dentist", "down")
        assert app.sidebar.display
        await until(
            pilot,
            lambda: app.focused is app.sidebar.options and app.sidebar.options.highlighted == 0,
        )
        await pilot.press("enter")
        await until(
            pilot, lambda: app.chat.conversation_id == first and app.chat.transcript.messages
        )
        assert app.focused is app.chat.composer
        assert app.sidebar.display is (width >= 140)  # shown for the search only: hidden again
        # Enter in the search box does the same; Esc leaves it for the message box
        await pilot.press("ctrl+f", *"weather", "enter")
        await until(pilot, lambda: app.focused is app.sidebar.options and app.sidebar.hits)
        await pilot.press("enter")
        await until(pilot, lambda: app.chat.conversation_id == second)
        await pilot.press("ctrl+f", "escape")
        assert app.focused is app.chat.composer and app.sidebar.display is (width >= 140)


async def test_the_footer_keys_fit_80_columns_and_stop_shows_while_an_answer_is_written(served):
    import threading

    release = threading.Event()

    def slow(body):
        release.wait(20)
        return direct("Done, sir.") if body.get("format") else "TOPICS DISCUSSED\n- x"

    served.handler = slow
    async with running(size=(80, 24)) as (app, pilot):
        await pilot.pause(0.3)
        footer = app.query_one("Footer")
        keys = [k for k in footer.query("FooterKey") if k.display]
        assert [k.description for k in keys] == [
            "Quit",
            "Help",
            "Persona",
            "Tools",
            "Model",
            "New",
            "Search",
            "palette",
        ]
        assert max(k.region.right for k in keys) <= 80 and all(k.region.width > 0 for k in keys)
        app.chat.composer.load_text("Go on.")
        await pilot.press("enter")
        await until(pilot, lambda: any(k.description == "Stop" for k in footer.query("FooterKey")))
        await pilot.pause(0.1)
        keys = list(footer.query("FooterKey"))
        # Stop takes its place while an answer is written
        assert "New" not in [k.description for k in keys]
        assert max(k.region.right for k in keys) <= 80 and all(k.region.width > 0 for k in keys)
        release.set()
        await until(
            pilot,
            lambda: (
                app.chat.turn.done
                and not any(k.description == "Stop" for k in footer.query("FooterKey"))
            ),
        )
