"""`tatlock config`: show and change the settings in config.toml.

Every change is checked as loading checks it (a bad value is refused with the line loading
would give, and nothing is written); the file keeps the user's comments and other settings,
and is written whole or not at all, readable only by its owner. None of this opens a
database or the model: it must work when the settings themselves are what is broken.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tatlock import configfile
from tatlock.commands.common import out
from tatlock.config import Config, ConfigError, Paths, check_file_text, load, toml_value
from tatlock.errors import TatlockError, UsageError

SECRET = "api_key"  # never shown, never written by tatlock (the keyring keeps it)


def run(args: argparse.Namespace) -> int:
    action = args.action or "list"
    paths = Paths.resolve()
    if action == "path":
        out(str(paths.config_file))
        if not paths.config_file.exists():
            print(
                "tatlock: (it does not exist yet: `tatlock config set NAME VALUE` or `tatlock "
                "config edit` "
                "makes it)",
                file=sys.stderr,
            )
        return 0
    if action == "edit":
        return _edit(paths)
    if action == "list":
        return _list(paths, as_json=args.json)
    name: str = args.name
    _known(name)
    if action == "get":
        return _get(name)
    if action == "set":
        return _set(paths, name, args.value)
    if action == "unset":
        return _unset(paths, name)
    raise UsageError(f"unknown config action {action!r}")


def _known(name: str) -> None:
    if name not in Config.ENV:
        near = difflib.get_close_matches(name, list(Config.ENV), n=1)
        also = f"did you mean {near[0]}? " if near else ""
        raise UsageError(f"unknown setting {name!r} ({also}`tatlock config` lists them all)")


# -- showing ------------------------------------------------------------------------------


def _settings() -> Config:
    """The settings as every command sees them; a bad one is the line loading gives, with
    what to do about it."""
    try:
        return load()
    except ConfigError as exc:
        if exc.kind == "config_file":  # the CLI's hint names `config edit` and `config unset`
            raise
        raise ConfigError(exc.message, hint="fix or unset that environment variable") from None


def _value(cfg: Config, name: str) -> tuple[Any, str]:
    """(the value in effect, where it comes from), defaults spelt out."""
    where = cfg.source.get(name)
    env_var = Config.ENV[name]
    if name == SECRET:
        key = cfg.api_key_value()
        where = cfg.source.get(name)
        if not key:
            return None, "not set (`tatlock secret set api_key` keeps it in the OS keyring)"
    value = getattr(cfg, name)
    if where is None or (
        name == "user" and not where.startswith("$") and where != str(cfg.paths.config_file)
    ):
        try:
            return value if value is not None else _default(cfg, name), _default_source(cfg, name)
        except ValueError as exc:  # the hardware tier cannot be told: `tatlock doctor` says more
            return None, f"default: by the hardware tier, which is unknown ({exc})"
    if where.startswith("$"):
        return value, f"environment ({env_var})"
    if where == str(cfg.paths.config_file):
        return value, "config.toml"
    return value, where  # the keyring


def _default(cfg: Config, name: str) -> Any:
    if name in ("model", "compact_interval", "context_size", "answer_form"):
        return cfg.effective(name)
    if name == "tier":
        return cfg.hardware_tier().name
    if name == "anchor_id":
        return cfg.user
    if name == "anchor_name":  # as the butler names its owner
        return (cfg.anchor_id or cfg.user).replace("-", " ").replace("_", " ").title()
    if name == "theme":
        return "textual-dark"
    return None


def _default_source(cfg: Config, name: str) -> str:
    if name in ("model", "compact_interval", "tier", "answer_form"):
        return f"default: hardware tier {cfg.hardware_tier().name}"
    if name == "context_size":
        return f"default: hardware tier {cfg.hardware_tier().name}, or the model's own if smaller"
    if name == "user":
        why = cfg.source.get("user", "")
        return "default: your login name" if not why.startswith("default: ") else why
    described = {
        "timezone": "default: the system's",
        "allowed_paths": "default: the current folder, ~/Documents, ~/Downloads",
        "anchor_id": "default: the user",
        "anchor_name": "default: from the user's name",
        "vision_model": "default: none (images need one)",
        "embedding_model": "default: semantic recall on (`off` for keyword search alone)",
    }
    return described.get(name, "default")


def _text(name: str, value: Any) -> str:
    if name == SECRET:
        return "(set, hidden)" if value else ""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return os.pathsep.join(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _list(paths: Paths, *, as_json: bool) -> int:
    cfg = _settings()
    rows = []
    file_values = _file_values(paths)
    for name, env_var in Config.ENV.items():
        value, where = _value(cfg, name)
        if where.startswith("environment") and name in file_values and name != SECRET:
            raw = file_values[name]
            where += f"; config.toml says {_text(name, tuple(raw) if isinstance(raw, list) else raw) or repr(raw)}"
        rows.append((name, _text(name, value), where, env_var))
    if as_json:
        out(
            json.dumps(
                [
                    {"name": n, "value": v or None, "from": w, "environment": e}
                    for n, v, w, e in rows
                ],
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    exists = paths.config_file.exists()
    out(
        f"config file: {paths.config_file}"
        + ("" if exists else " (not there yet: every setting is a default)")
    )
    width = max(len(v) for _, v, _, _ in rows)
    width = min(max(width, 5), 40)
    out(f"{'SETTING':<17} {'VALUE':<{width}} FROM")
    for name, value, where, _ in rows:
        shown = value if len(value) <= width else value[: width - 1] + "…"
        out(f"{name:<17} {shown or '-':<{width}} {where}")
    out(
        "Change one with `tatlock config set NAME VALUE`, remove it with `tatlock config unset "
        "NAME`; "
        "the environment wins over config.toml."
    )
    return 0


def _file_values(paths: Paths) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(configfile.read(paths.config_file))
    except (tomllib.TOMLDecodeError, TatlockError):
        return {}


def _get(name: str) -> int:
    cfg = _settings()
    value, where = _value(cfg, name)
    if name == SECRET:
        if value:
            raise UsageError(
                f"api_key is set ({where}) and is never shown here; `tatlock secret get api_key "
                "--show` shows the keyring's"
            )
        print(f"tatlock: api_key is {where}", file=sys.stderr)
        return 1
    text = _text(name, value)
    if not text:
        print(f"tatlock: {name} is not set ({where})", file=sys.stderr)
        return 1
    out(text)
    return 0


# -- changing -----------------------------------------------------------------------------


def _set(paths: Paths, name: str, words: list[str]) -> int:
    if name == SECRET:
        raise UsageError(
            "api_key is a secret and tatlock never writes one to a file: `tatlock secret set "
            "api_key` keeps it in the OS keyring (or set TATLOCK_API_KEY)"
        )
    if len(words) > 1 and name != "allowed_paths":
        raise UsageError(f"{name} takes one value: quote it if it has spaces")
    old = configfile.read(paths.config_file)
    value = toml_value(name, words)
    new = configfile.with_setting(old, name, value)
    _check(paths, new)  # a bad value is refused here, before anything is written
    if new != old:
        configfile.write(paths.config_file, new)
    shown = _text(name, getattr(load(env={}, paths=paths), name))
    out(f"{name} = {value} in {paths.config_file}")
    _overridden(name)
    if name == "backend" and shown == "openai" and "base_url" not in _file_values(paths):
        print(
            "tatlock: next: `tatlock config set base_url URL` (now the default, "
            "http://127.0.0.1:8080/v1: "
            "llama-server's; LM Studio http://127.0.0.1:1234/v1, vLLM http://127.0.0.1:8000/v1), "
            "then "
            "`tatlock doctor`",
            file=sys.stderr,
        )
    return 0


def _unset(paths: Paths, name: str) -> int:
    old = configfile.read(paths.config_file)
    new, there = configfile.without_setting(old, name)
    if not there:
        out(f"{name} is not set in {paths.config_file}; nothing changed")
        _overridden(name)
        return 0
    _check(paths, new)  # another setting may be broken: said, and nothing written
    configfile.write(paths.config_file, new)
    cfg = load(env={}, paths=paths)
    value, where = _value(cfg, name)
    now = _text(name, value)
    out(
        f"removed {name} from {paths.config_file}"
        + (f"; now {now} ({where})" if now else f"; now {where}")
    )
    _overridden(name)
    return 0


def _check(paths: Paths, text: str) -> None:
    """Refuse, with the line loading would give, a file that loading would refuse."""
    try:
        check_file_text(paths, text)
    except ConfigError as exc:
        raise ConfigError(exc.message) from None


def _overridden(name: str) -> None:
    var = Config.ENV[name]
    if os.environ.get(var):
        print(
            f"tatlock: note: {var} is set in the environment and wins over config.toml",
            file=sys.stderr,
        )


# -- edit ---------------------------------------------------------------------------------


def _edit(paths: Paths) -> int:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    path = paths.config_file
    if not editor:
        raise UsageError(
            f"set $VISUAL or $EDITOR to edit {path}, or change one setting with "
            "`tatlock config set NAME VALUE`"
        )
    old = configfile.read(path)
    text = old or TEMPLATE
    while True:
        text = _run_editor(editor, path, text)
        if text == (old or TEMPLATE):
            out(f"{path} unchanged")
            return 0
        try:
            check_file_text(paths, text)
        except ConfigError as exc:
            if sys.stdin.isatty() and _again(exc.message):
                continue
            kept = path.with_name(path.name + ".rejected")
            configfile.write(kept, text)
            raise ConfigError(
                f"{exc.message}; {path.name} was not changed (your edit is kept in {kept})"
            ) from None
        configfile.write(path, text)
        out(f"saved {path}")
        return 0


def _again(problem: str) -> bool:
    from tatlock.text import inert_line

    print(f"tatlock: {inert_line(problem)}", file=sys.stderr)
    try:
        answer = input("Edit again? (no keeps the file as it was) [Y/n] ")
    except EOFError:
        return False
    return answer.strip().lower() not in ("n", "no")


def _run_editor(editor: str, path: Path, text: str) -> str:
    """``text`` edited in the user's editor, in a private file beside config.toml."""
    if not path.parent.is_dir():
        os.makedirs(path.parent, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".config.", suffix=".toml")  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            result = subprocess.run([*shlex.split(editor), tmp])
        except (FileNotFoundError, PermissionError):
            raise TatlockError(f"editor not found: {editor}; nothing changed") from None
        if result.returncode != 0:
            raise TatlockError(
                f"the editor exited with status {result.returncode}; nothing changed"
            )
        try:
            return Path(tmp).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ConfigError("the edited file is not UTF-8 text; nothing changed") from None
    finally:
        Path(tmp).unlink(missing_ok=True)


TEMPLATE = """\
# tatlock's settings. Uncomment a line to set it; the environment (TATLOCK_...) wins over this file.
# `tatlock config` shows every setting, its value and where it comes from.
#
# backend = "ollama"                      # or "openai": llama-server, LM Studio, vLLM, Ollama's /v1
# model = "llama3.2:3b"                   # default: the hardware tier's
# ollama_host = "http://127.0.0.1:11434"
# base_url = "http://127.0.0.1:8080/v1"   # backend openai (LM Studio :1234, vLLM :8000)
# timeout = 120                           # seconds per model call
# keep_alive = "30m"
# tier = "auto"                           # low, medium, high or auto
# compact_interval = 40                   # messages
# answer_form = "json"                    # or "plain": where a direct answer is written (default:
# by tier)
# context_size = 4096                     # tokens
# timezone = "Europe/London"
# allowed_paths = [".", "~/Documents", "~/Downloads"]
# vision_model = "llava"
# embedding_model = "all-minilm"          # semantic recall; "off" for keyword search alone
# theme = "textual-dark"
# (api_key: keep it in the keyring with `tatlock secret set api_key`, not here)
"""
