"""The tool registry: every tool with its description, parameters and whether its code imports;
Space or Enter switches the highlighted tool on or off (saved at once, used by the next message)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tatlock.errors import TatlockError
from tatlock.tui.format import one_line
from tatlock.tui.host import Host, host

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.services.system import ToolInfo


def describe(info: ToolInfo) -> str:
    spec = info.spec
    lines = [
        spec.key,
        "",
        one_line(spec.description, 1000),
        "",
        f"category: {spec.category}",
        f"code: {spec.module}.{spec.function_name}",
        f"state: {'on' if spec.enabled else 'off'}",
    ]
    if not info.importable:
        lines.append(f"problem: its code does not import ({one_line(info.problem or '?', 300)})")
    lines += ["", "parameters:" if spec.params else "parameters: none"]
    for p in spec.params:
        lines.append(
            f"  {p.name} ({p.type}{', required' if p.required else ''}): "
            f"{one_line(p.description, 300)}"
        )
    return "\n".join(lines)


class ToolsScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("space", "switch", "On/off"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.tools: list[ToolInfo] = []

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(
            "Tools · what Tatlock may use · Space or Enter switches one on or off",
            classes="screen-title",
            markup=False,
        )
        with Horizontal(id="tools-body"):
            yield DataTable(id="tools-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="tools-detail"):
                yield Static("", id="tools-text", markup=False)
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        await self.tapp.ready.wait()
        table = self.query_one(DataTable)
        table.add_columns("on", "tool", "category", "description")
        await self.reload()
        table.focus()

    async def reload(self, keep: str | None = None) -> None:
        self.tools = await self.tapp.jobs.run(self.tapp.butler.tools.list)
        table = self.query_one(DataTable)
        table.clear()
        for info in self.tools:
            spec = info.spec
            state = Text("on", "green") if spec.enabled else Text("off", "red")
            if not info.importable:
                state = Text("broken", "bold red")
            table.add_row(
                state, spec.key, spec.category, one_line(spec.description, 70), key=spec.key
            )
        keys = [t.spec.key for t in self.tools]
        if keep in keys:
            table.move_cursor(row=keys.index(keep))
        self.show_detail()

    def current(self) -> ToolInfo | None:
        table = self.query_one(DataTable)
        if not self.tools or table.cursor_row < 0 or table.cursor_row >= len(self.tools):
            return None
        return self.tools[table.cursor_row]

    def show_detail(self) -> None:
        info = self.current()
        self.query_one("#tools-text", Static).update(
            describe(info) if info else "No tools registered."
        )

    @on(DataTable.RowHighlighted)
    def highlighted(self) -> None:
        self.show_detail()

    @on(DataTable.RowSelected)
    async def selected(self) -> None:
        await self.action_switch()

    async def action_switch(self) -> None:
        info = self.current()
        if info is None:
            return
        tools = self.tapp.butler.tools
        key = info.spec.key
        try:
            await self.tapp.jobs.run(tools.disable if info.spec.enabled else tools.enable, key)
        except TatlockError as exc:
            self.notify(exc.message, severity="error")
            return
        await self.reload(keep=key)
        self.notify(f"{key} {'off' if info.spec.enabled else 'on'}: the next message knows.")

    def action_close(self) -> None:
        self.dismiss(None)
