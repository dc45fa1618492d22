"""The persona editor: the rise_and_shine instructions in order. Add, edit (in a TextArea),
switch on or off, move up or down, delete (after asking). Each change is saved to system.db
at once and used by the next message."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tatlock.errors import TatlockError
from tatlock.tui.format import one_line
from tatlock.tui.host import Host, host
from tatlock.tui.screens.dialogs import ConfirmScreen

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.store.records import Instruction


class PersonaScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("a", "add", "Add"),
        Binding("space", "switch", "On/off"),
        Binding("shift+up", "move(-1)", "Up"),
        Binding("shift+down", "move(1)", "Down"),
        Binding("delete", "remove", "Delete"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.instructions: list[Instruction] = []
        self.editing: int | None = None  # the instruction in the editor; None: a new one
        self.loaded_text = ""

    @property
    def tapp(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(
            "Persona · the instructions Tatlock follows, in order · the next message uses them",
            classes="screen-title",
            markup=False,
        )
        with Horizontal(id="persona-body"):
            yield OptionList(id="persona-list")
            with Vertical(id="persona-edit"):
                yield Static("", id="persona-label", markup=False)
                yield TextArea("", soft_wrap=True, id="persona-editor")
                with Horizontal(classes="buttons"):
                    yield Button("Save", id="save", variant="primary")
                    yield Button("Add", id="add")
                    yield Button("On/off", id="toggle")
                    yield Button("Up", id="up")
                    yield Button("Down", id="down")
                    yield Button("Delete", id="remove", variant="error")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        await self.tapp.ready.wait()
        await self.reload()
        self.query_one("#persona-list", OptionList).focus()

    @property
    def editor(self) -> TextArea:
        return self.query_one("#persona-editor", TextArea)

    @property
    def dirty(self) -> bool:
        return self.editor.text.strip() != self.loaded_text.strip()

    async def reload(self, select: int | None = None) -> None:
        self.instructions = await self.tapp.jobs.run(self.tapp.butler.persona.list)
        options = self.query_one("#persona-list", OptionList)
        options.set_options(
            [self._option(i, ins) for i, ins in enumerate(self.instructions, 1)]
            or [Option(Text("No instructions: press a to add one.", "dim"), disabled=True)]
        )
        want = select if select is not None else self.editing
        ids = [ins.id for ins in self.instructions]
        if want in ids:
            options.highlighted = ids.index(want)
            self._load(self.instructions[ids.index(want)])
        elif self.instructions:
            options.highlighted = 0
            self._load(self.instructions[0])
        else:
            self._new()

    @staticmethod
    def _option(n: int, ins: Instruction) -> Option:
        state = ("on ", "green") if ins.enabled else ("off", "red")
        return Option(
            Text.assemble(
                (f"{n:>2}. ", "bold"),
                state,
                "  ",
                (one_line(ins.instruction, 200), "" if ins.enabled else "dim"),
            ),
            id=f"i{ins.id}",
        )

    def _load(self, ins: Instruction) -> None:
        self.editing = ins.id
        self.loaded_text = ins.instruction
        self.editor.load_text(ins.instruction)
        pos = self.instructions.index(ins) + 1
        self.query_one("#persona-label", Static).update(
            f"Instruction {pos} of {len(self.instructions)} · {'on' if ins.enabled else 'off'} · "
            f"Ctrl+S saves"
        )

    def _new(self) -> None:
        self.editing = None
        self.loaded_text = ""
        self.editor.load_text("")
        self.query_one("#persona-label", Static).update(
            "A new instruction (added at the end) · Ctrl+S saves"
        )

    def current(self) -> Instruction | None:
        return next((i for i in self.instructions if i.id == self.editing), None)

    # -- the list and the buttons ----------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#persona-list")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        oid = event.option.id
        if oid and (self.editing is None or oid != f"i{self.editing}") and not self.dirty:
            ins = next((i for i in self.instructions if f"i{i.id}" == oid), None)
            if ins is not None:
                self._load(ins)

    @on(OptionList.OptionSelected, "#persona-list")
    def selected(self, event: OptionList.OptionSelected) -> None:
        ins = next((i for i in self.instructions if f"i{i.id}" == event.option.id), None)
        if ins is not None and ins.id != self.editing:
            self._load(ins)
        self.editor.focus()

    @on(Button.Pressed)
    async def pressed(self, event: Button.Pressed) -> None:
        action = {
            "save": "save",
            "add": "add",
            "toggle": "switch",
            "up": "move(-1)",
            "down": "move(1)",
            "remove": "remove",
        }.get(event.button.id or "")
        if action:
            await self.run_action(action)

    # -- actions ---------------------------------------------------------------------------

    async def _do(
        self, fn: Callable[..., Any], *args: Any, select: int | None = None, note: str = ""
    ) -> bool:
        try:
            result = await self.tapp.jobs.run(fn, *args)
        except TatlockError as exc:
            self.notify(exc.message, severity="error")
            return False
        await self.reload(select if select is not None else getattr(result, "id", None))
        if note:
            self.notify(note)
        return True

    async def action_save(self) -> None:
        text = self.editor.text.strip()
        if not text:
            self.notify("An instruction cannot be empty (Delete removes one).", severity="warning")
            return
        persona = self.tapp.butler.persona
        if self.editing is None:
            await self._do(persona.add, text, note="Added: the next message follows it.")
        elif self.dirty:
            await self._do(
                persona.edit, self.editing, text, note="Saved: the next message uses it."
            )

    def action_add(self) -> None:
        self._new()
        self.editor.focus()

    async def action_switch(self) -> None:
        ins = self.current()
        if ins is not None:
            persona = self.tapp.butler.persona
            await self._do(
                persona.disable if ins.enabled else persona.enable,
                ins.id,
                note="Switched off." if ins.enabled else "Switched on.",
            )

    async def action_move(self, step: int) -> None:
        ins = self.current()
        if ins is None:
            return
        position = self.instructions.index(ins) + 1 + step
        if 1 <= position <= len(self.instructions):
            await self._do(self.tapp.butler.persona.move, ins.id, position)

    def action_remove(self) -> None:
        ins = self.current()
        if ins is None:
            return

        async def answered(yes: bool | None) -> None:
            if yes:
                self.editing = None
                await self._do(self.tapp.butler.persona.remove, ins.id, note="Deleted.")

        self.app.push_screen(
            ConfirmScreen(
                f"Delete this instruction?\n\n{one_line(ins.instruction, 300)}", "Delete"
            ),
            answered,
        )

    def action_close(self) -> None:
        if not self.dirty:
            self.dismiss(None)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(None)

        self.app.push_screen(
            ConfirmScreen("Leave without saving your change to this instruction?", "Leave"),
            answered,
        )
