"""`tatlock persona | tools | user | var`: views over the butler's persona, tools, users and
personal variables services."""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tatlock.commands.common import (
    MAX_PERSONA_BYTES,
    clip,
    confirm,
    open_butler,
    out,
    read_arg,
    read_input,
    width,
    wrap,
    write_atomic,
    write_text,
)
from tatlock.errors import TatlockError, UsageError
from tatlock.text import inert_json
from tatlock.timeutil import local

# -- persona ----------------------------------------------------------------------------------


def persona(args: argparse.Namespace) -> int:
    with open_butler() as butler:
        return _persona(butler.persona, args, butler.paths.folders)


def _persona(p, args: argparse.Namespace, own_folders: list[Path]) -> int:
    act = args.action
    if act == "list":
        items = p.list()
        if args.json:
            out(
                inert_json(
                    json.dumps([dataclasses.asdict(i) for i in items], indent=2, ensure_ascii=False)
                )
            )
            return 0
        if not items:
            out("No persona instructions. Add one with `tatlock persona add TEXT`.")
            return 0
        out(f"{'ID':>4} {'POS':>3}  {'ON':<3} INSTRUCTION")
        room = width() - 14
        for i in items:
            out(
                f"{i.id:>4} {i.position:>3}  {'yes' if i.enabled else 'no':<3} "
                f"{clip(i.instruction, room)}"
            )
        return 0
    if act == "show":
        i = p.get(args.id)
        state = "enabled" if i.enabled else "disabled"
        out(f"id {i.id}, position {i.position}, {state}, updated {local(i.updated_at)}")
        out(wrap(i.instruction))
        return 0
    if act == "add":
        i = p.add(read_arg(args.text), position=args.position, enabled=not args.disabled)
        out(f"added instruction {i.id} at position {i.position}")
        return 0
    if act == "edit":
        current = p.get(args.id)
        text = (
            read_arg(args.text) if args.text is not None else _edit_in_editor(current.instruction)
        )
        if text.strip() == current.instruction.strip():
            out(f"instruction {args.id} unchanged")
            return 0
        p.edit(args.id, text)
        out(f"updated instruction {args.id}")
        return 0
    if act in ("enable", "disable"):
        (p.enable if act == "enable" else p.disable)(args.id)
        out(f"instruction {args.id} {act}d")
        return 0
    if act == "remove":
        gone = p.remove(args.id)
        out(f"removed instruction {gone.id}: {clip(gone.instruction, 60)}")
        return 0
    if act == "move":
        i = p.move(args.id, args.position)
        out(f"instruction {i.id} is now at position {i.position}")
        return 0
    if act == "export":
        text = p.export_text()
        if args.file == "-":
            write_text(text)
        else:
            if Path(args.file).exists() and not confirm(
                f"{args.file} exists. Replace it?", yes=args.yes
            ):
                out("Nothing written.")
                return 0
            write_atomic(Path(args.file), text, own_folders)
            out(f"exported {len(p.list())} instructions to {args.file}")
        return 0
    if act == "import":
        raw = read_input(args.file, limit=MAX_PERSONA_BYTES, what="a persona import")
        items = p.parse(raw)  # a malformed file is refused before anything is asked or changed
        count = len(items.get("instructions") or []) if isinstance(items, dict) else len(items)
        if not confirm(
            f"Replace all {len(p.list())} persona instructions with the {count} in {args.file}?",
            yes=args.yes,
        ):
            out("Kept the current persona.")
            return 0
        n = p.import_(items)
        out(f"imported {n} instructions (the previous ones were replaced)")
        return 0
    raise UsageError(f"unknown persona action {act!r}")


def _edit_in_editor(text: str) -> str:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        raise UsageError(
            "set $VISUAL or $EDITOR to edit in an editor, or give the new text: "
            '`tatlock persona edit ID "new text"`'
        )
    fd, tmp = tempfile.mkstemp(suffix=".txt", prefix="tatlock-persona-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        try:
            result = subprocess.run([*shlex.split(editor), tmp])
        except FileNotFoundError:
            raise TatlockError(f"editor not found: {editor}") from None
        if result.returncode != 0:
            raise TatlockError(
                f"the editor exited with status {result.returncode}; nothing changed"
            )
        new = Path(tmp).read_text(encoding="utf-8")
    finally:
        os.unlink(tmp)
    if not new.strip():
        raise UsageError(
            "the edited instruction is empty; nothing changed (use `persona remove` to delete it)"
        )
    return new


# -- tools ------------------------------------------------------------------------------------


def tools(args: argparse.Namespace) -> int:
    with open_butler() as butler:
        t = butler.tools
        if args.action == "list":
            infos = t.list()
            if args.json:
                out(
                    json.dumps(
                        [
                            {
                                "key": i.key,
                                "category": i.spec.category,
                                "enabled": i.spec.enabled,
                                "module": i.spec.module,
                                "function": i.spec.function_name,
                                "imports": i.importable,
                            }
                            for i in infos
                        ],
                        indent=2,
                    )
                )
                return 0
            out(f"{'KEY':<26} {'CATEGORY':<9} {'ON':<3} {'IMPORT':<7} MODULE:FUNCTION")
            for i in infos:
                status = "ok" if i.importable else f"BROKEN ({i.problem})"
                out(
                    f"{i.key:<26} {i.spec.category:<9} {'yes' if i.spec.enabled else 'no':<3} "
                    f"{status:<7} "
                    f"{i.spec.module}:{i.spec.function_name}"
                )
            return 0 if all(i.importable for i in infos) else 1
        if args.action == "show":
            i = t.get(args.key)
            s = i.spec
            out(f"{s.key} ({s.category}, {'enabled' if s.enabled else 'disabled'})")
            out(wrap(s.description))
            out(
                f"  code: {s.module}:{s.function_name} "
                f"[{'ok' if i.importable else 'BROKEN: ' + str(i.problem)}]"
            )
            if s.params:
                out("  parameters:")
                for p in s.params:
                    out(
                        f"    {p.name} ({p.type}{', required' if p.required else ''}): "
                        f"{p.description}"
                    )
            else:
                out("  parameters: none")
            return 0
        if args.action in ("enable", "disable"):
            (t.enable if args.action == "enable" else t.disable)(args.key)
            out(f"tool {args.key} {args.action}d")
            return 0
    raise UsageError(f"unknown tools action {args.action!r}")


# -- users ------------------------------------------------------------------------------------


def _ask_password(args: argparse.Namespace, required: bool) -> str | None:
    if args.password_stdin:
        line = sys.stdin.readline().rstrip("\r\n")
        if not line:
            raise UsageError("no password on stdin")
        return line
    if not sys.stdin.isatty():
        if required:
            raise UsageError("no terminal to ask for a password: use --password-stdin")
        return None
    first = getpass.getpass("Password (empty for none): ")
    if not first:
        if required:
            raise UsageError("the password is empty; nothing changed")
        return None
    if getpass.getpass("Again: ") != first:
        raise UsageError("the passwords differ; nothing changed")
    return first


def user(args: argparse.Namespace) -> int:
    from tatlock.config import validate_username

    if args.action != "list":
        validate_username(args.name)  # before any file is touched
    with open_butler() as butler:
        users = butler.users
        if args.action == "add":
            if users.exists(args.name):
                raise UsageError(f"user {args.name!r} already exists")
            u = users.add(args.name, _ask_password(args, required=False))
            out(f"added user {u.username}{' with a password' if u.has_password else ''}")
            return 0
        if args.action == "list":
            out(f"{'USER':<20} {'ROLES':<12} {'PASSWORD':<8} {'CREATED':<16} MEMORY")
            for info in users.list():
                u = info.user
                mem = f"{info.memory_bytes // 1024} KiB" if info.memory_bytes is not None else "-"
                out(
                    f"{u.username:<20} {','.join(u.roles):<12} "
                    f"{'yes' if u.has_password else 'no':<8} "
                    f"{local(u.created_at):<16} {mem}"
                )
            why = butler.cfg.user_explanation()
            if why:
                out(f"The default user is {butler.cfg.user}: {why}.")
            return 0
        if args.action == "remove":
            users.get(args.name)
            if args.delete_data and not confirm(
                f"Remove user {args.name} and delete their memory and debug logs for good?",
                yes=args.yes,
            ):
                out("Kept.")
                return 0
            files = users.remove(args.name, delete_data=args.delete_data)
            if args.delete_data:
                out(f"removed user {args.name} and their memory and logs ({len(files)} file(s))")
            elif files:
                out(
                    f"removed user {args.name}; their memory is kept in "
                    f"{butler.paths.user_db(args.name)} "
                    "(--delete-data removes it)"
                )
            else:
                out(f"removed user {args.name}")
            return 0
        if args.action == "passwd":
            users.get(args.name)
            users.passwd(args.name, _ask_password(args, required=True))
            out(f"password for {args.name} updated")
            return 0
    raise UsageError(f"unknown user action {args.action!r}")


# -- personal variables -----------------------------------------------------------------------


def var(args: argparse.Namespace) -> int:
    with open_butler(args.user) as butler:
        v = butler.variables
        name = butler.username
        if args.action == "list":
            items = v.list()
            if not items:
                out(f"No personal variables for {name}.")
            for item in items:
                who = item.author_name or item.author_id
                source = (
                    f"  (from {who}"
                    + (f", message {item.source_message_id})" if item.source_message_id else ")")
                    if who
                    else ""
                )
                about = f"  [{v.line(item).split(':')[0]}]" if item.about != "owner" else ""
                out(f"{item.key} = {item.value}{source}{about}")
            return 0
        if args.action == "get":
            out(v.get(args.key).value)
            return 0
        if args.action == "set":
            item = v.set(args.key, args.value)
            out(f"{item.key} = {item.value} (user {name})")
            if item.key != args.key:  # said, not silent: `var get` and `unset` take either spelling
                from tatlock.text import inert_line

                print(
                    f"tatlock: note: saved as {item.key}, not {inert_line(repr(args.key))}: "
                    f"variable names are "
                    "lowercase, with '_' for spaces (`var get` and `var unset` take either "
                    "spelling)",
                    file=sys.stderr,
                )
            return 0
        if args.action == "unset":
            gone = v.unset(args.key)
            out(f"removed {gone.key} for user {name}")
            return 0
    raise UsageError(f"unknown var action {args.action!r}")
