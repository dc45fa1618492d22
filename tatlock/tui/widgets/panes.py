"""The side panes, as tabs beside the chat: Debug, Compaction, Memory.

The hidden tabs' contents are mounted a moment after the first frame (Textual's ``Lazy``), so
the screen with the Debug tab comes first; the app looks them up only once they are there."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.lazy import Lazy
from textual.widgets import TabbedContent, TabPane

from tatlock.tui.widgets.compaction_pane import CompactionPane
from tatlock.tui.widgets.debug_pane import DebugPane
from tatlock.tui.widgets.memory_pane import MemoryPane


class SidePanes(Vertical):
    def compose(self) -> ComposeResult:
        with TabbedContent(initial="debug", id="pane-tabs"):
            with TabPane("Debug", id="debug"):
                yield DebugPane(id="debug-pane")
            with TabPane("Compaction", id="compaction"):
                yield Lazy(CompactionPane(id="compaction-pane"))
            with TabPane("Memory", id="memory"):
                yield Lazy(MemoryPane(id="memory-pane"))
