"""Textual's Markdown with lighter lists, for answers that stream.

Textual draws each list item as four widgets (a row, its bullet, a column, the paragraph);
a long answer full of lists becomes hundreds of widgets, and laying them out is what makes
a fast stream fall behind. Here a list whose items are plain paragraphs (the usual case) is
one widget that draws bullets and text with wrapped lines indented the same way; anything richer
(nested lists, code in an item) keeps Textual's own layout. Parsing and streaming
(``Markdown.get_stream``) are Textual's, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import Markdown
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownBulletList,
    MarkdownListItem,
    MarkdownOrderedList,
    MarkdownParagraph,
)


class Hanging(Visual):
    """Rows of (bullet, paragraphs) with wrapped lines indented under the text, not the bullet."""

    def __init__(self, rows: list[tuple[str, list[Content]]]) -> None:
        self.rows = rows
        self._cache: tuple[int, Content] | None = None

    def lines(self, width: int) -> Content:
        if self._cache is not None and self._cache[0] == width:
            return self._cache[1]
        out: list[Content] = []
        for bullet, paragraphs in self.rows:
            indent = len(bullet) + 1
            room = max(1, width - indent)
            first = True
            for paragraph in paragraphs or [Content("")]:
                for line in paragraph.wrap(room) or [Content("")]:
                    prefix = (
                        Content.styled(bullet, "$text-primary") + " "
                        if first
                        else Content(" " * indent)
                    )
                    out.append(prefix + line)
                    first = False
        joined = Content("\n").join(out)
        self._cache = (width, joined)
        return joined

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.lines(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.lines(width).plain.count("\n") + 1


class ListLines(Widget):
    """A whole simple list: bullets (or numbers) beside their paragraphs, in one widget."""

    DEFAULT_CSS = """
    ListLines {
        height: auto;
        width: 1fr;
        margin: 0 0 1 0;
    }
    """

    def __init__(self, rows: list[tuple[str, list[Content]]]) -> None:
        super().__init__()
        self.rows = rows
        self._visual = Hanging(rows)

    @property
    def plain(self) -> str:
        return " ".join(" ".join(c.plain for c in paras) for _, paras in self.rows)

    def render(self) -> Hanging:
        return self._visual


def _simple(items: Iterable[MarkdownBlock]) -> bool:
    return all(
        isinstance(item, MarkdownListItem)
        and all(isinstance(b, MarkdownParagraph) for b in item._blocks)
        for item in items
    )


class CompactBulletList(MarkdownBulletList):
    def compose(self) -> ComposeResult:
        if not _simple(self._blocks):
            yield from super().compose()
            return
        yield ListLines(
            [
                (item.bullet, [b._content for b in item._blocks])  # type: ignore[attr-defined]
                for item in self._blocks
            ]
        )
        self._blocks.clear()


class CompactOrderedList(MarkdownOrderedList):
    def compose(self) -> ComposeResult:
        if not _simple(self._blocks):
            yield from super().compose()
            return
        start = 1
        if self._blocks:
            try:
                start = int(self._blocks[0].bullet)  # type: ignore[attr-defined]
            except ValueError:
                pass
        width = len(f"{start + len(self._blocks)}.")
        yield ListLines(
            [
                (f"{n}.".rjust(width), [b._content for b in item._blocks])
                for n, item in enumerate(self._blocks, start)
            ]
        )
        self._blocks.clear()


class AnswerMarkdown(Markdown):
    BLOCKS = {
        **Markdown.BLOCKS,
        "bullet_list_open": CompactBulletList,
        "ordered_list_open": CompactOrderedList,
    }


def shown_text(markdown: Markdown) -> str:
    """The words a Markdown widget shows (its blocks' text), on one line."""
    parts = []
    for widget in markdown.walk_children():  # depth first: the document's order
        if isinstance(widget, ListLines):
            parts.append(widget.plain)
        elif isinstance(widget, MarkdownBlock):
            parts.append(widget._content.plain)
    return " ".join(" ".join(parts).split())
