"""Writing a file the user asked for (an export, the Debug pane): whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tatlock.errors import TatlockError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


UMASK = _umask()  # read once, at import on the UI thread: os.umask is process-wide, not for worker threads


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place."""
    if path.is_dir():
        raise TatlockError(f"{path} is a folder: give a file name")
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~UMASK)  # mkstemp makes 0600; a file the user asked for follows the umask
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise TatlockError(f"cannot write {path}: {exc.strerror or exc}") from None
