"""Prompt texts live in ``prompts/`` as files, loaded by name; code fills the variables."""

from __future__ import annotations

import functools
import string
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"


@functools.lru_cache(maxsize=None)
def load(name: str) -> str:
    path = PROMPTS_DIR / name
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuntimeError(f"prompt file missing: {path} (is tatlock installed from its source tree?)") from None


def render(name: str, **values: object) -> str:
    """Fill ``$name`` placeholders (string.Template: braces in JSON examples stay literal)."""
    return string.Template(load(name)).substitute({k: str(v) for k, v in values.items()})


def paragraphs(name: str) -> list[str]:
    """Blank-line separated paragraphs of a prompt file, ``#`` comment lines removed."""
    text = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("#"))
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
