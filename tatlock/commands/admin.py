"""`tatlock persona | tools | user | var`: administration of system.db and personal variables."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tatlock.commands.common import clip, load_config, out, system_store, user_store, username, width, wrap
from tatlock.errors import TatlockError, UsageError
from tatlock.timeutil import local


def _read_arg(text: str) -> str:
    """TEXT, or stdin when TEXT is '-'."""
    if text != "-":
        return text
    if sys.stdin.isatty():
        print("(type the text, then Ctrl-D)", file=sys.stderr)
    return sys.stdin.read()


# -- persona ----------------------------------------------------------------------------------


def persona(args: argparse.Namespace) -> int:
    cfg = load_config()
    store = system_store(cfg)
    try:
        return _persona(store, args)
    finally:
        store.close()


def _persona(store, args: argparse.Namespace) -> int:
    act = args.action
    if act == "list":
        items = store.persona()
        if args.json:
            out(json.dumps([i.__dict__ for i in items], indent=2, ensure_ascii=False))
            return 0
        if not items:
            out("No persona instructions. Add one with `tatlock persona add TEXT`.")
            return 0
        out(f"{'ID':>4} {'POS':>3}  {'ON':<3} INSTRUCTION")
        room = width() - 14
        for i in items:
            out(f"{i.id:>4} {i.position:>3}  {'yes' if i.enabled else 'no':<3} {clip(i.instruction, room)}")
        return 0
    if act == "show":
        i = store.instruction(args.id)
        out(f"id {i.id}, position {i.position}, {'enabled' if i.enabled else 'disabled'}, updated {local(i.updated_at)}")
        out(wrap(i.instruction))
        return 0
    if act == "add":
        i = store.add_instruction(_read_arg(args.text), position=args.position, enabled=not args.disabled)
        out(f"added instruction {i.id} at position {i.position}")
        return 0
    if act == "edit":
        current = store.instruction(args.id)
        text = _read_arg(args.text) if args.text is not None else _edit_in_editor(current.instruction)
        if text.strip() == current.instruction.strip():
            out(f"instruction {args.id} unchanged")
            return 0
        store.edit_instruction(args.id, text)
        out(f"updated instruction {args.id}")
        return 0
    if act in ("enable", "disable"):
        store.set_instruction_enabled(args.id, act == "enable")
        out(f"instruction {args.id} {act}d")
        return 0
    if act == "remove":
        gone = store.remove_instruction(args.id)
        out(f"removed instruction {gone.id}: {clip(gone.instruction, 60)}")
        return 0
    if act == "move":
        i = store.move_instruction(args.id, args.position)
        out(f"instruction {i.id} is now at position {i.position}")
        return 0
    if act == "export":
        from tatlock.store.system import dumps_export

        text = dumps_export(store.export_persona())
        if args.file == "-":
            sys.stdout.write(text)
        else:
            _write_atomic(Path(args.file), text)
            out(f"exported {len(store.persona())} instructions to {args.file}")
        return 0
    if act == "import":
        raw = _read_arg(args.file) if args.file == "-" else _read_file(args.file)
        n = store.import_persona(_parse_persona_file(raw))
        out(f"imported {n} instructions (the previous ones were replaced)")
        return 0
    raise UsageError(f"unknown persona action {act!r}")


def _read_file(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TatlockError(f"no such file: {name}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not a UTF-8 text file") from None


def _parse_persona_file(raw: str):
    stripped = raw.lstrip()
    if stripped.startswith("{") or stripped.startswith("["):
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"the file is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    # plain text: one instruction per paragraph, '#' lines are comments
    text = "\n".join(line for line in raw.splitlines() if not line.lstrip().startswith("#"))
    return [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]


def _write_atomic(path: Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, renamed into place."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise TatlockError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; exports follow the umask
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise TatlockError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _edit_in_editor(text: str) -> str:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        raise UsageError("set $VISUAL or $EDITOR to edit in an editor, or give the new text: "
                         "`tatlock persona edit ID \"new text\"`")
    fd, tmp = tempfile.mkstemp(suffix=".txt", prefix="tatlock-persona-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        try:
            result = subprocess.run([*shlex.split(editor), tmp])
        except FileNotFoundError:
            raise TatlockError(f"editor not found: {editor}") from None
        if result.returncode != 0:
            raise TatlockError(f"the editor exited with status {result.returncode}; nothing changed")
        new = Path(tmp).read_text(encoding="utf-8")
    finally:
        os.unlink(tmp)
    if not new.strip():
        raise UsageError("the edited instruction is empty; nothing changed (use `persona remove` to delete it)")
    return new


# -- tools ------------------------------------------------------------------------------------


def _import_status(spec) -> str:
    try:
        fn = spec.resolve()
    except Exception as exc:  # the point is to report any failure
        return f"BROKEN ({type(exc).__name__}: {exc})"
    return "ok" if callable(fn) else "BROKEN (not callable)"


def tools(args: argparse.Namespace) -> int:
    cfg = load_config()
    store = system_store(cfg)
    try:
        if args.action == "list":
            specs = store.tools()
            if args.json:
                out(json.dumps([{"key": s.key, "category": s.category, "enabled": s.enabled,
                                 "module": s.module, "function": s.function_name,
                                 "imports": _import_status(s) == "ok"} for s in specs], indent=2))
                return 0
            out(f"{'KEY':<26} {'CATEGORY':<9} {'ON':<3} {'IMPORT':<7} MODULE:FUNCTION")
            broken = 0
            for s in specs:
                status = _import_status(s)
                broken += status != "ok"
                out(f"{s.key:<26} {s.category:<9} {'yes' if s.enabled else 'no':<3} {status:<7} "
                    f"{s.module}:{s.function_name}")
            return 1 if broken else 0
        if args.action == "show":
            s = store.tool(args.key)
            out(f"{s.key} ({s.category}, {'enabled' if s.enabled else 'disabled'})")
            out(wrap(s.description))
            out(f"  code: {s.module}:{s.function_name} [{_import_status(s)}]")
            if s.params:
                out("  parameters:")
                for p in s.params:
                    out(f"    {p.name} ({p.type}{', required' if p.required else ''}): {p.description}")
            else:
                out("  parameters: none")
            return 0
        if args.action in ("enable", "disable"):
            store.set_tool_enabled(args.key, args.action == "enable")
            out(f"tool {args.key} {args.action}d")
            return 0
    finally:
        store.close()
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
    cfg = load_config()
    store = system_store(cfg)
    try:
        if args.action == "add":
            if any(u.username == args.name for u in store.users()):
                raise UsageError(f"user {args.name!r} already exists")
            password = _ask_password(args, required=False)
            u = store.add_user(args.name, password)
            out(f"added user {u.username}{' with a password' if u.has_password else ''}")
            return 0
        if args.action == "list":
            out(f"{'USER':<20} {'ROLES':<12} {'PASSWORD':<8} {'CREATED':<16} MEMORY")
            for u in store.users():
                db = cfg.paths.user_db(u.username)
                mem = f"{db.stat().st_size // 1024} KiB" if db.exists() else "-"
                out(f"{u.username:<20} {','.join(u.roles):<12} {'yes' if u.has_password else 'no':<8} "
                    f"{local(u.created_at):<16} {mem}")
            return 0
        if args.action == "remove":
            store.remove_user(args.name)
            db = cfg.paths.user_db(args.name)
            if args.delete_data:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(db) + suffix).unlink(missing_ok=True)
                out(f"removed user {args.name} and their memory")
            elif db.exists():
                out(f"removed user {args.name}; their memory is kept in {db} (--delete-data removes it)")
            else:
                out(f"removed user {args.name}")
            return 0
        if args.action == "passwd":
            store.user(args.name)
            store.set_password(args.name, _ask_password(args, required=True))
            out(f"password for {args.name} updated")
            return 0
    finally:
        store.close()
    raise UsageError(f"unknown user action {args.action!r}")


# -- personal variables -----------------------------------------------------------------------


def var(args: argparse.Namespace) -> int:
    cfg = load_config()
    name = username(cfg, args.user)
    store = user_store(cfg, name)
    try:
        if args.action == "list":
            rows = store.vars()
            if not rows:
                out(f"No personal variables for {name}.")
            for r in rows:
                out(f"{r['key']} = {r['value']}")
            return 0
        if args.action == "get":
            value = store.get_var(args.key)
            if value is None:
                raise TatlockError(f"no variable {args.key!r} for user {name} (see `tatlock var list`)")
            out(value)
            return 0
        if args.action == "set":
            store.set_var(args.key, args.value, author_id=cfg.anchor if name == cfg.user else name)
            out(f"{args.key.strip().lower().replace(' ', '_')} = {args.value} (user {name})")
            return 0
        if args.action == "unset":
            if not store.unset_var(args.key):
                raise TatlockError(f"no variable {args.key!r} for user {name}")
            out(f"removed {args.key} for user {name}")
            return 0
    finally:
        store.close()
    raise UsageError(f"unknown var action {args.action!r}")
