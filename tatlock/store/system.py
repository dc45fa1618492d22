"""system.db: the persona (rise_and_shine), the tool registry and the users.

Shared by every user of one installation. Opened, migrated and (on first run) seeded by
``SystemStore.open``; what to seed (the default persona, the built-in tools) is handed in by
the layer above, so the store knows nothing of prompts or tool code.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tatlock.config import validate_username
from tatlock.errors import NotFound, UsageError
from tatlock.store import db
from tatlock.store.connections import ThreadConnections
from tatlock.store.passwords import hash_password, verify_password
from tatlock.store.records import Instruction, Param, ToolSpec, User
from tatlock.timeutil import iso

__all__ = [
    "MAX_INSTRUCTIONS",
    "MAX_INSTRUCTION_CHARS",
    "Instruction",
    "NotFound",
    "Param",
    "SystemStore",
    "ToolSpec",
    "User",
]

# every enabled instruction goes into every prompt: a pasted book would crowd out the memory
MAX_INSTRUCTION_CHARS = 2000
MAX_INSTRUCTIONS = 50


class SystemStore:
    def __init__(self, conns: ThreadConnections, path: Path):
        self._conns = conns
        self.path = path

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (one per thread, never shared)."""
        return self._conns.get()

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        default_user: str | None = None,
        persona: Iterable[str] = (),
        tools: Iterable[ToolSpec] = (),
    ) -> SystemStore:
        """Open (creating and migrating) system.db; a first run seeds ``persona`` and the default
        user; every run registers ``tools`` (the built-in ones, refreshed on upgrade)."""
        conn = db.connect(path)  # creates the folder, private
        db.migrate(conn, "system")
        store = cls(ThreadConnections(path, db.connect, conn), path)
        store.seed(default_user, list(persona), list(tools))
        return store

    def close(self) -> None:
        self._conns.close()

    # -- seeding ---------------------------------------------------------------------------

    def seed(
        self,
        default_user: str | None = None,
        persona: list[str] | None = None,
        tools: list[ToolSpec] | None = None,
    ) -> None:
        """First run: persona, roles, default user. Every run: register the built-in tools."""
        with db.transaction(self.conn):
            seeded = self.conn.execute("SELECT value FROM meta WHERE key = 'seeded_at'").fetchone()
            if not seeded:
                now = iso()
                for pos, text in enumerate(persona or (), start=1):
                    self.conn.execute(
                        "INSERT INTO rise_and_shine (instruction, enabled, position, created_at, "
                        "updated_at)"
                        " VALUES (?, 1, ?, ?, ?)",
                        (text, pos, now, now),
                    )
                for name, desc in (
                    ("admin", "manages persona, tools and users"),
                    ("user", "talks to the butler"),
                ):
                    self.conn.execute(
                        "INSERT INTO roles (name, description) VALUES (?, ?)", (name, desc)
                    )
                self.conn.execute(
                    "INSERT INTO groups (name, description)"
                    " VALUES ('household', 'the people this butler serves')"
                )
                if default_user:
                    self._insert_user(
                        validate_username(default_user), None, roles=("admin", "user")
                    )
                self.conn.execute("INSERT INTO meta (key, value) VALUES ('seeded_at', ?)", (now,))
            for spec in tools or ():
                self._register_tool(spec)

    def _register_tool(self, spec: ToolSpec) -> None:
        # keep the user's enabled flag; refresh the rest so upgrades fix descriptions/paths
        row = self.conn.execute(
            "SELECT description, module, function_name, category FROM tools WHERE key = ?",
            (spec.key,),
        ).fetchone()
        params = [
            tuple(r)
            for r in self.conn.execute(
                "SELECT name, type, description, required FROM tool_parameters WHERE tool_key = ? "
                "ORDER "
                "BY position",
                (spec.key,),
            )
        ]
        if (
            row is not None
            and tuple(row) == (spec.description, spec.module, spec.function_name, spec.category)
            and params == [(p.name, p.type, p.description, int(p.required)) for p in spec.params]
        ):
            return  # registered as it is: a start writes nothing (and still works on a full disk)
        self.conn.execute(
            "INSERT INTO tools (key, description, module, function_name, enabled, category, "
            "builtin)"
            " VALUES (?, ?, ?, ?, ?, ?, 1)"
            " ON CONFLICT(key) DO UPDATE SET description = excluded.description,"
            " module = excluded.module, function_name = excluded.function_name,"
            " category = excluded.category",
            (
                spec.key,
                spec.description,
                spec.module,
                spec.function_name,
                int(spec.enabled),
                spec.category,
            ),
        )
        self.conn.execute("DELETE FROM tool_parameters WHERE tool_key = ?", (spec.key,))
        for pos, p in enumerate(spec.params):
            self.conn.execute(
                "INSERT INTO tool_parameters (tool_key, name, type, description, required, "
                "position)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (spec.key, p.name, p.type, p.description, int(p.required), pos),
            )

    # -- persona ---------------------------------------------------------------------------

    def persona(self, *, enabled_only: bool = False) -> list[Instruction]:
        sql = "SELECT * FROM rise_and_shine"
        if enabled_only:
            sql += " WHERE enabled = 1"
        rows = self.conn.execute(sql + " ORDER BY position, id").fetchall()
        return [self._instruction(r) for r in rows]

    def persona_text(self) -> str:
        """The enabled instructions in order, as the system prompt's persona block."""
        return "\n".join(i.instruction for i in self.persona(enabled_only=True))

    def instruction(self, iid: int) -> Instruction:
        row = None
        if db.fits(iid):
            row = self.conn.execute("SELECT * FROM rise_and_shine WHERE id = ?", (iid,)).fetchone()
        if row is None:
            raise NotFound(f"no persona instruction with id {iid}", kind="instruction")
        return self._instruction(row)

    @staticmethod
    def _instruction(row: sqlite3.Row) -> Instruction:
        return Instruction(
            row["id"],
            row["instruction"],
            bool(row["enabled"]),
            row["position"],
            row["created_at"],
            row["updated_at"],
        )

    @staticmethod
    def _clean(text: str) -> str:
        text = text.strip()
        if not text:
            raise UsageError("the instruction is empty")
        if "\x00" in text:
            raise UsageError("the instruction contains a NUL character")
        if len(text) > MAX_INSTRUCTION_CHARS:
            raise UsageError(
                f"the instruction is {len(text):,} characters long; at most "
                f"{MAX_INSTRUCTION_CHARS:,} "
                "fit (every enabled instruction goes into every prompt)"
            )
        return text

    def add_instruction(
        self, text: str, *, position: int | None = None, enabled: bool = True
    ) -> Instruction:
        text = self._clean(text)
        with db.transaction(self.conn):
            count = self.conn.execute("SELECT count(*) FROM rise_and_shine").fetchone()[0]
            if count >= MAX_INSTRUCTIONS:
                raise UsageError(
                    f"the persona already has {count} instructions, the most it can hold"
                )
            now = iso()
            cur = self.conn.execute(
                "INSERT INTO rise_and_shine (instruction, enabled, position, created_at, "
                "updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (text, int(enabled), count + 1, now, now),
            )
            iid = int(cur.lastrowid or 0)
            if position is not None:
                self._move(iid, position)
        return self.instruction(iid)

    def edit_instruction(self, iid: int, text: str) -> Instruction:
        text = self._clean(text)
        if (
            not db.fits(iid)
            or self.conn.execute(
                "UPDATE rise_and_shine SET instruction = ?, updated_at = ? WHERE id = ?",
                (text, iso(), iid),
            ).rowcount
            == 0
        ):
            self.instruction(iid)  # raises NotFound
        return self.instruction(iid)

    def set_instruction_enabled(self, iid: int, enabled: bool) -> Instruction:
        if (
            not db.fits(iid)
            or self.conn.execute(
                "UPDATE rise_and_shine SET enabled = ?, updated_at = ? WHERE id = ?",
                (int(enabled), iso(), iid),
            ).rowcount
            == 0
        ):
            self.instruction(iid)
        return self.instruction(iid)

    def remove_instruction(self, iid: int) -> Instruction:
        gone = self.instruction(iid)
        with db.transaction(self.conn):
            self.conn.execute("DELETE FROM rise_and_shine WHERE id = ?", (iid,))
            self._renumber()
        return gone

    def move_instruction(self, iid: int, position: int) -> Instruction:
        self.instruction(iid)
        with db.transaction(self.conn):
            self._move(iid, position)
        return self.instruction(iid)

    def _move(self, iid: int, position: int) -> None:
        ids = [
            r[0] for r in self.conn.execute("SELECT id FROM rise_and_shine ORDER BY position, id")
        ]
        if position < 1 or position > len(ids):
            raise UsageError(f"position must be between 1 and {len(ids)}")
        ids.remove(iid)
        ids.insert(position - 1, iid)
        self._renumber(ids)

    def _renumber(self, ids: list[int] | None = None) -> None:
        if ids is None:
            ids = [
                r[0]
                for r in self.conn.execute("SELECT id FROM rise_and_shine ORDER BY position, id")
            ]
        for pos, iid in enumerate(ids, start=1):
            self.conn.execute("UPDATE rise_and_shine SET position = ? WHERE id = ?", (pos, iid))

    def export_persona(self) -> dict[str, Any]:
        return {
            "format": "tatlock-persona",
            "version": 1,
            "instructions": [
                {"instruction": i.instruction, "enabled": i.enabled} for i in self.persona()
            ],
        }

    def import_persona(self, data: Any) -> int:
        """Replace every instruction with ``data`` (an export) in one transaction."""
        items = data.get("instructions") if isinstance(data, dict) else data
        if not isinstance(items, list) or not items:
            raise UsageError("the file holds no instructions (expected a tatlock persona export)")
        if len(items) > MAX_INSTRUCTIONS:
            raise UsageError(
                f"the file holds {len(items)} instructions; at most {MAX_INSTRUCTIONS} fit"
            )
        rows = []
        for n, item in enumerate(items, start=1):
            if isinstance(item, str):
                item = {"instruction": item}
            if not isinstance(item, dict) or not isinstance(item.get("instruction"), str):
                raise UsageError(f"instruction {n} in the file is malformed")
            try:
                rows.append((self._clean(item["instruction"]), bool(item.get("enabled", True))))
            except UsageError as exc:
                raise UsageError(f"instruction {n} in the file: {exc}") from None
        with db.transaction(self.conn):
            self.conn.execute("DELETE FROM rise_and_shine")
            now = iso()
            for pos, (text, enabled) in enumerate(rows, start=1):
                self.conn.execute(
                    "INSERT INTO rise_and_shine (instruction, enabled, position, created_at, "
                    "updated_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (text, int(enabled), pos, now, now),
                )
        return len(rows)

    # -- tools -----------------------------------------------------------------------------

    def tools(self, *, enabled_only: bool = False) -> list[ToolSpec]:
        sql = (
            "SELECT * FROM tools"
            + (" WHERE enabled = 1" if enabled_only else "")
            + " ORDER BY category, key"
        )
        params: dict[str, list[Param]] = {}
        for r in self.conn.execute("SELECT * FROM tool_parameters ORDER BY tool_key, position"):
            params.setdefault(r["tool_key"], []).append(
                Param(r["name"], r["type"], r["description"], bool(r["required"]))
            )
        return [
            ToolSpec(
                r["key"],
                r["description"],
                r["module"],
                r["function_name"],
                r["category"],
                tuple(params.get(r["key"], ())),
                bool(r["enabled"]),
            )
            for r in self.conn.execute(sql)
        ]

    def tool(self, key: str) -> ToolSpec:
        for spec in self.tools():
            if spec.key == key:
                return spec
        raise NotFound(f"no tool called {key!r}", kind="tool")

    def set_tool_enabled(self, key: str, enabled: bool) -> ToolSpec:
        if (
            self.conn.execute(
                "UPDATE tools SET enabled = ? WHERE key = ?", (int(enabled), key)
            ).rowcount
            == 0
        ):
            self.tool(key)
        return self.tool(key)

    # -- users -----------------------------------------------------------------------------

    def _insert_user(
        self, username: str, password: str | None, roles: tuple[str, ...] = ("user",)
    ) -> None:
        now = iso()
        cur = self.conn.execute(
            "INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, ?, ?, "
            "?)",
            (username, hash_password(password) if password else None, now, now),
        )
        for role in roles:
            self.conn.execute(
                "INSERT INTO user_roles (user_id, role_id) SELECT ?, id FROM roles WHERE name = ?",
                (cur.lastrowid, role),
            )
        self.conn.execute(
            "INSERT INTO user_groups (user_id, group_id) SELECT ?, id FROM groups WHERE name = "
            "'household'",
            (cur.lastrowid,),
        )

    def add_user(self, username: str, password: str | None = None) -> User:
        validate_username(username)
        with db.transaction(self.conn):
            if self.conn.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone():
                raise UsageError(f"user {username!r} already exists")
            self._insert_user(username, password)
        return self.user(username)

    def ensure_user(self, username: str) -> None:
        """Register a user on first use (e.g. `var set --user alice`)."""
        validate_username(username)
        with db.transaction(self.conn):
            if not self.conn.execute(
                "SELECT 1 FROM users WHERE username = ?", (username,)
            ).fetchone():
                self._insert_user(username, None)

    def user(self, username: str) -> User:
        validate_username(username)
        row = self.conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
        if row is None:
            raise NotFound(f"no user called {username!r}", kind="user")
        roles = tuple(
            r[0]
            for r in self.conn.execute(
                "SELECT r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id WHERE "
                "ur.user_id = "
                "? ORDER BY r.name",
                (row["id"],),
            )
        )
        return User(
            row["id"],
            row["username"],
            row["display_name"],
            row["password_hash"] is not None,
            row["created_at"],
            roles,
        )

    def users(self) -> list[User]:
        names = [r[0] for r in self.conn.execute("SELECT username FROM users ORDER BY username")]
        return [self.user(n) for n in names]

    def has_user(self, username: str) -> bool:
        return (
            self.conn.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone()
            is not None
        )

    def remove_user(self, username: str) -> None:
        if self.conn.execute("DELETE FROM users WHERE username = ?", (username,)).rowcount == 0:
            self.user(username)

    def set_password(self, username: str, password: str | None) -> None:
        self.user(username)
        self.conn.execute(
            "UPDATE users SET password_hash = ?, updated_at = ? WHERE username = ?",
            (hash_password(password) if password else None, iso(), username),
        )

    def check_password(self, username: str, password: str) -> bool:
        row = self.conn.execute(
            "SELECT password_hash FROM users WHERE username = ?", (username,)
        ).fetchone()
        return bool(row) and verify_password(password, row[0])


def dumps_export(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
