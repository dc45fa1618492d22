"""Services over system.db, shared by every user: the persona, the tool registry, the users."""

from __future__ import annotations

import builtins
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tatlock.config import Paths, validate_username
from tatlock.errors import UsageError
from tatlock.store.records import Instruction, ToolSpec, User
from tatlock.store.system import SystemStore
from tatlock.text import valid_text
from tatlock.tools.registry import json_schema, resolve


class Persona:
    """The butler's persona instructions (``rise_and_shine``), in order; every change is used
    by the next message."""

    def __init__(self, system: SystemStore):
        self._system = system

    def list(self) -> builtins.list[Instruction]:
        return self._system.persona()

    def get(self, iid: int) -> Instruction:
        return self._system.instruction(iid)

    def text(self) -> str:
        """The enabled instructions as the prompts see them."""
        return self._system.persona_text()

    def add(self, text: str, *, position: int | None = None, enabled: bool = True) -> Instruction:
        return self._system.add_instruction(valid_text(text), position=position, enabled=enabled)

    def edit(self, iid: int, text: str) -> Instruction:
        return self._system.edit_instruction(iid, valid_text(text))

    def enable(self, iid: int) -> Instruction:
        return self._system.set_instruction_enabled(iid, True)

    def disable(self, iid: int) -> Instruction:
        return self._system.set_instruction_enabled(iid, False)

    def move(self, iid: int, position: int) -> Instruction:
        return self._system.move_instruction(iid, position)

    def remove(self, iid: int) -> Instruction:
        return self._system.remove_instruction(iid)

    def export(self) -> dict[str, Any]:
        return self._system.export_persona()

    def export_text(self) -> str:
        return json.dumps(self.export(), indent=2, ensure_ascii=False) + "\n"

    def parse(self, raw: str) -> builtins.list[str] | dict[str, Any] | builtins.list[Any]:
        """A persona file: a JSON export (its instructions may span lines), or plain text with
        one instruction per line (blank lines and lines starting with ``#`` are skipped).
        Raises UsageError naming the problem."""
        raw = raw.removeprefix("\ufeff")  # a byte-order mark some editors write
        if _looks_like_json(raw):
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise UsageError(
                    f"the file is not valid JSON: {exc.msg} at line {exc.lineno}"
                ) from None
            except ValueError:  # a number of thousands of digits: more than Python converts
                raise UsageError(
                    "the file holds a number too long to be one (thousands of digits)"
                ) from None
            except RecursionError:
                raise UsageError("the file is nested too deeply to be a persona") from None
            if isinstance(data, dict) and data.get("format") not in (None, "tatlock-persona"):
                raise UsageError(
                    f"the file is a {data.get('format')!r} file, not a tatlock persona export"
                )
            return data
        return [
            " ".join(line.split())
            for line in raw.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]

    def import_(self, data: Any) -> int:
        """Replace every instruction (one transaction); ``data`` is an export, a list, or the
        text of a persona file."""
        if isinstance(data, str):
            data = self.parse(data)
        return self._system.import_persona(data)


def _looks_like_json(raw: str) -> bool:
    """An object, or a list of strings or objects: "[Important] Be brief." is a line of text."""
    text = raw.lstrip()
    return text.startswith("{") or re.match(r'\[\s*(?:[]"{\[]|$)', text) is not None


@dataclass(frozen=True)
class ToolInfo:
    spec: ToolSpec
    importable: bool
    problem: str | None  # why its code does not import

    @property
    def key(self) -> str:
        return self.spec.key

    @property
    def schema(self) -> dict[str, Any]:
        return json_schema(self.spec)


class Tools:
    """The tool registry: what the butler may use."""

    def __init__(self, system: SystemStore):
        self._system = system

    def list(self, *, check: bool = True) -> builtins.list[ToolInfo]:
        return [self._info(s, check) for s in self._system.tools()]

    def enabled(self) -> builtins.list[ToolSpec]:
        return self._system.tools(enabled_only=True)

    def get(self, key: str) -> ToolInfo:
        return self._info(self._system.tool(key), True)

    def enable(self, key: str) -> ToolInfo:
        return self._info(self._system.set_tool_enabled(key, True), True)

    def disable(self, key: str) -> ToolInfo:
        return self._info(self._system.set_tool_enabled(key, False), True)

    @staticmethod
    def _info(spec: ToolSpec, check: bool) -> ToolInfo:
        if not check:
            return ToolInfo(spec, True, None)
        try:
            fn = resolve(spec)
        except Exception as exc:
            return ToolInfo(spec, False, f"{type(exc).__name__}: {exc}")
        return ToolInfo(spec, callable(fn), None if callable(fn) else "not callable")


@dataclass(frozen=True)
class UserInfo:
    user: User
    memory_bytes: int | None  # size of the memory database, None if there is none yet

    @property
    def username(self) -> str:
        return self.user.username


class Users:
    """The users of this installation; each has a private memory database."""

    def __init__(self, system: SystemStore, paths: Paths):
        self._system = system
        self._paths = paths

    def list(self) -> builtins.list[UserInfo]:
        out = []
        for u in self._system.users():
            db = self._paths.user_db(u.username)
            out.append(UserInfo(u, db.stat().st_size if db.exists() else None))
        return out

    def get(self, name: str) -> User:
        return self._system.user(validate_username(name))

    def exists(self, name: str) -> bool:
        return self._system.has_user(validate_username(name))

    def add(self, name: str, password: str | None = None) -> User:
        return self._system.add_user(validate_username(name), password)

    def passwd(self, name: str, password: str | None) -> None:
        self._system.set_password(validate_username(name), password)

    def check_password(self, name: str, password: str) -> bool:
        return self._system.check_password(validate_username(name), password)

    def data_files(self, name: str) -> builtins.list[Path]:
        """Everything on disk that holds this user's data: the memory database (with its WAL
        files), the folder beside it, and the debug logs."""
        validate_username(name)
        db = self._paths.user_db(name)
        files = [Path(str(db) + suffix) for suffix in ("", "-wal", "-shm")]
        files.append(self._paths.user_dir(name))
        logs = self._paths.conversation_logs
        if logs.exists():  # <user>-<conversation>.jsonl; "bob-*" alone would also match bob-smith's
            own = re.compile(rf"{re.escape(name)}-\d+\.jsonl")
            files += sorted(p for p in logs.glob(f"{name}-*.jsonl") if own.fullmatch(p.name))
        return [f for f in files if f.exists()]

    def remove(self, name: str, *, delete_data: bool = False) -> builtins.list[Path]:
        """Remove the user; with ``delete_data`` also everything of theirs on disk. Returns the
        paths deleted (or, without ``delete_data``, the ones kept)."""
        validate_username(name)
        self._system.user(name)  # NotFound first, before anything changes
        files = self.data_files(name)
        self._system.remove_user(name)
        # their MCP token goes whatever happens to the data: a user of that name later needs a new
        # one
        try:
            self._paths.mcp_token(name).unlink(missing_ok=True)
        except OSError:
            pass
        if not delete_data:
            return files
        for file in files:
            if file.is_dir():
                shutil.rmtree(file, ignore_errors=True)
            else:
                file.unlink(missing_ok=True)
        return files
