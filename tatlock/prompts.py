"""Prompt texts, loaded by name; code fills the variables.

The texts live in the repository's top-level ``prompts/`` folder (where people edit them) and
ship inside the package as ``tatlock.prompt_texts`` (pyproject.toml maps the folder), so an
installed tatlock finds them from any directory, with no source tree.
"""

from __future__ import annotations

import functools
import string
from importlib import resources


@functools.cache
def load(name: str) -> str:
    try:
        return (resources.files("tatlock.prompt_texts") / name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        raise RuntimeError(
            f"prompt file missing: {name} (a broken install: reinstall tatlock)"
        ) from None


def render(name: str, **values: object) -> str:
    """Fill ``$name`` placeholders (string.Template: braces in JSON examples stay literal)."""
    return string.Template(load(name)).substitute({k: str(v) for k, v in values.items()})


def paragraphs(name: str) -> list[str]:
    """Blank-line separated paragraphs of a prompt file, ``#`` comment lines removed."""
    text = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("#"))
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
