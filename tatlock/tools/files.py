"""Read a local file so the model can answer questions about it.

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

from tatlock.tools.base import ToolContext

MAX_TEXT_BYTES = 2 * 1024 * 1024
MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_CONTENT_CHARS = 12_000
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp"}
NO_VISION = "Reading images needs a vision-capable model: set vision_model in config.toml (e.g. llava)."
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


def analyze_file(*, ctx: ToolContext, path: str, question: str = "") -> dict[str, Any]:
    """Return a text file's content and stats, or a vision model's description of an image."""
    if not (path or "").strip():
        return {"error": "No file path was given."}
    p = Path(os.path.expanduser(path.strip())).resolve()
    shown = str(p)
    try:
        st = p.stat()
    except FileNotFoundError:
        return {"error": f"There is no file at {shown}."}
    except OSError as exc:
        return {"error": f"The file {shown} cannot be read ({exc.strerror or exc})."}
    if stat.S_ISDIR(st.st_mode):
        return {"error": f"{shown} is a folder, not a file."}
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
        return {"error": f"{shown} is not a regular file."}

    try:
        with p.open("rb") as fh:
            head = fh.read(8192)
    except OSError as exc:
        return {"error": f"The file {shown} cannot be read ({exc.strerror or exc})."}

    if p.suffix.lower() in IMAGE_SUFFIXES and _is_image(head):
        describe = ctx.extra.get("describe_image")
        if not callable(describe):
            return {"error": NO_VISION}
        if st.st_size > MAX_IMAGE_BYTES:
            return {"error": f"{shown} is {st.st_size / 2**20:.1f} MB; images up to 20 MB can be described."}
        try:
            description = describe(shown, question.strip() or DEFAULT_IMAGE_QUESTION)
        except Exception as exc:
            return {"error": f"The image could not be described ({str(exc)[:150] or type(exc).__name__})."}
        return {"path": shown, "description": str(description)}

    if _decode(head, partial=True) is None:
        return {"error": f"{shown} is a binary file; only text files and images (PNG, JPEG, GIF, WebP) can be read."}
    if st.st_size > MAX_TEXT_BYTES:
        return {"error": f"{shown} is {st.st_size / 2**20:.1f} MB; only text files up to 2 MB can be read."}
    try:
        decoded = _decode(p.read_bytes())
    except OSError as exc:
        return {"error": f"The file {shown} cannot be read ({exc.strerror or exc})."}
    if decoded is None:
        return {"error": f"{shown} is a binary file; only text files and images (PNG, JPEG, GIF, WebP) can be read."}
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
