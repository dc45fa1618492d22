"""Read a local file so the model can answer questions about it.

Only files inside the allowed folders are read, never a dotfile, a credentials store or
tatlock's own data (see :mod:`tatlock.bounds`); the decision is made on the real path, with
``..`` and symlinks resolved, and a refusal is a tool result like any other failure.

Text files are returned (bounded) for the model to read itself; it is better at
summarising than any heuristic here. Images go to a vision model through
``ctx.extra["describe_image"]`` - a ``(path, question) -> str`` callable the pipeline
supplies only when ``vision_model`` is configured. Other binaries are refused, since
their bytes would only confuse the model and waste its context.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from tatlock import bounds
from tatlock.tools.base import ToolContext

MAX_TEXT_BYTES = 2 * 1024 * 1024
MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_CONTENT_CHARS = 12_000
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp"}
NO_VISION = (
    "Reading images needs a vision-capable model: set vision_model in config.toml (e.g. llava)."
)
DEFAULT_IMAGE_QUESTION = "Describe this image in detail, including any text in it."


def _is_image(head: bytes) -> bool:
    """Magic bytes of PNG, JPEG, GIF and WebP (the suffix alone can lie)."""
    return (
        head.startswith(b"\x89PNG\r\n\x1a\n")
        or head.startswith(b"\xff\xd8\xff")
        or head[:6] in (b"GIF87a", b"GIF89a")
        or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
    )


def _decode(data: bytes, partial: bool = False) -> tuple[str, str] | None:
    """(text, encoding) for plausible text, None for binary data.

    ``partial`` means data is a file's first block, which may end mid-character.
    """
    if partial and len(data) > 3:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
                data = data[: exc.start]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            return None
    if b"\x00" in data:
        return None
    for enc in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f\v")
        if controls <= max(1, len(text) // 100):  # a few stray control chars are tolerable
            return text, "utf-8" if enc == "utf-8-sig" else enc
        return None
    return None


def _private(ctx: ToolContext) -> list[Path]:
    """tatlock's own folders: data, config and logs."""
    cfg = ctx.config
    return [cfg.paths.data_dir, cfg.paths.config_dir, cfg.paths.log_dir] if cfg is not None else []


def _allowed(ctx: ToolContext, raw: str) -> tuple[Path, str | None]:
    """The real path of ``raw`` and why it may not be read (None when it may)."""
    p = bounds.real(raw.strip())
    roots = bounds.roots_from(getattr(ctx.config, "allowed_paths", None))
    return p, bounds.refusal(p, roots, [bounds.real(d) for d in _private(ctx)])


def _open_checked(p: Path) -> int:
    """Open the checked path without following a symlink swapped in since the check, and make
    sure the file opened is the one that was checked."""
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        link = f"/proc/self/fd/{fd}"
        if os.path.exists(link) and os.readlink(link) != str(p):
            raise PermissionError(1, "the file changed while it was being opened")
    except BaseException:
        os.close(fd)
        raise
    return fd


def analyze_file(*, ctx: ToolContext, path: str, question: str = "") -> dict[str, Any]:
    """Return a text file's content and stats, or a vision model's description of an image."""
    if not (path or "").strip():
        return {"error": "No file path was given."}
    if "\x00" in path:
        return {"error": "The file path contains a NUL character."}
    try:
        p, refused = _allowed(ctx, path)
    except (OSError, ValueError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        return {"error": f"The path {path.strip()[:200]!r} cannot be resolved ({exc})."}
    if refused:
        return {"error": refused}
    shown = str(p)
    try:
        fd = _open_checked(p)
    except FileNotFoundError:
        return {"error": f"There is no file at {shown}."}
    except OSError as exc:
        return {"error": f"The file {shown} cannot be read ({exc.strerror or exc})."}
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            return {"error": f"{shown} is a folder, not a file."}
        # a FIFO or device would block or never end
        return {"error": f"{shown} is not a regular file."}
    # a hard link to a log, a database...
    if (st.st_dev, st.st_ino) in bounds.own_files(_private(ctx)):
        os.close(fd)
        return {
            "error": f"{shown} is one of tatlock's own files (another name for it); tatlock "
            f"never reads those."
        }
    with os.fdopen(fd, "rb") as fh:
        try:
            head = fh.read(8192)
            data = (
                head + fh.read(MAX_TEXT_BYTES + 1 - len(head))
                if st.st_size <= MAX_TEXT_BYTES
                else head
            )
        except OSError as exc:
            return {"error": f"The file {shown} cannot be read ({exc.strerror or exc})."}
    return _describe(ctx, p, shown, st, head, data, question)


def _describe(
    ctx: ToolContext,
    p: Path,
    shown: str,
    st: os.stat_result,
    head: bytes,
    data: bytes,
    question: str,
) -> dict[str, Any]:
    if p.suffix.lower() in IMAGE_SUFFIXES and _is_image(head):
        describe = ctx.extra.get("describe_image")
        if not callable(describe):
            return {"error": NO_VISION}
        if st.st_size > MAX_IMAGE_BYTES:
            return {
                "error": f"{shown} is {st.st_size / 2**20:.1f} MB; images up to 20 MB can be "
                f"described."
            }
        try:
            description = describe(shown, question.strip() or DEFAULT_IMAGE_QUESTION)
        except Exception as exc:
            return {
                "error": f"The image could not be described "
                f"({str(exc)[:150] or type(exc).__name__})."
            }
        return {"path": shown, "description": str(description)}

    if _decode(head, partial=True) is None:
        return {
            "error": f"{shown} is a binary file; only text files and images (PNG, JPEG, GIF, "
            f"WebP) can be read."
        }
    if st.st_size > MAX_TEXT_BYTES or len(data) > MAX_TEXT_BYTES:
        return {
            "error": f"{shown} is {max(st.st_size, len(data)) / 2**20:.1f} MB; "
            "only text files up to 2 MB can be read."
        }
    decoded = _decode(data)
    if decoded is None:
        return {
            "error": f"{shown} is a binary file; only text files and images (PNG, JPEG, GIF, "
            f"WebP) can be read."
        }
    text, encoding = decoded

    lines = text.splitlines()
    truncated = len(text) > MAX_CONTENT_CHARS
    return {
        "path": shown,
        "size_bytes": st.st_size,
        "lines": len(lines),
        "encoding": encoding,
        "content": text[:MAX_CONTENT_CHARS],
        "truncated": truncated,
        "stats": {
            "words": len(text.split()),
            "lines": len(lines),
            "longest_line": max((len(line) for line in lines), default=0),
        },
    }
