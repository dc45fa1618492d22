"""Writing a file the user asked for (an export, the Debug pane): whole or not at all, 0600.

Both hold private conversations, so they are written as the CLI's exports are (see
:func:`tatlock.files.write_export`): readable only by their owner, in a folder whose mode is
left as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tatlock.files import write_export


def write_text(path: Path, text: str, own_folders: Iterable[Path] = ()) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place; a TatlockError
    (one line) when it cannot be, or when ``path`` is one of tatlock's own files (in
    ``own_folders``)."""
    write_export(path, text, own_folders=own_folders)
