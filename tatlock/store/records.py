"""Rows of system.db as plain records, shared by the store and the layers above it.

The store only keeps and returns them: what a tool *does* (its JSON schema for the model,
the function it resolves to) is the tools layer's business (tatlock/tools/registry.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Instruction:
    id: int
    instruction: str
    enabled: bool
    position: int
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class User:
    id: int
    username: str
    display_name: str | None
    has_password: bool
    created_at: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # JSON schema type: string | integer | number | boolean
    description: str
    required: bool = False


@dataclass(frozen=True)
class ToolSpec:
    key: str
    description: str
    module: str
    function_name: str
    category: str
    params: tuple[Param, ...] = field(default_factory=tuple)
    enabled: bool = True
