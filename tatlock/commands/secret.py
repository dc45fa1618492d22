"""`tatlock secret set|get|delete|list NAME`: API keys and passwords in the OS keyring.

The value never touches a file: ``set`` reads it without echo from the terminal (or from
stdin's first line with ``--stdin``), and ``get`` prints it only with ``--show``.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from tatlock import secrets
from tatlock.commands.common import confirm
from tatlock.errors import NotFound, UsageError


def _out(line: str) -> None:
    sys.stdout.write(line + "\n")


def _read_value(args: argparse.Namespace) -> str:
    if args.stdin:
        value = sys.stdin.readline().rstrip("\r\n")
        if not value.strip():
            raise UsageError("no secret on stdin's first line; nothing was stored")
        return value
    if not sys.stdin.isatty():
        raise UsageError(
            "no terminal to ask for the secret: use --stdin to read it from stdin's first line"
        )
    value = getpass.getpass(f"Value of {args.name} (not shown): ")
    if not value.strip():
        raise UsageError("the secret is empty; nothing was stored")
    return value


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        names = secrets.names()
        problem = secrets.backend_problem()
        if not names:
            _out(
                "no secrets"
                + (f"; {problem}: give them as TATLOCK_SECRET_<NAME>" if problem else "")
            )
        for name in names:
            _out(f"{name}  ({secrets.where(name) or 'not found'})")
        return 0
    name = secrets.validate_name(args.name)
    if args.action == "set":
        secrets.require_keyring(name)  # say there is none before asking for the value
        if secrets.in_keyring(name) and not confirm(
            f"Replace the secret {name} in the OS keyring?", yes=args.yes
        ):
            _out(f"Kept the secret {name}.")
            return 0
        secrets.set(name, _read_value(args))
        _out(f"stored {name} in the OS keyring")
        return 0
    if args.action == "get":
        where = secrets.where(name)
        if where is None:
            problem = secrets.backend_problem()
            raise NotFound(
                f"no secret {name!r}"
                + (
                    f"; {problem}: set {secrets.env_var(name)} instead"
                    if problem
                    else f" (set it with `tatlock secret set {name}`)"
                )
            )
        if args.show:
            _out(secrets.get(name) or "")
        else:
            place = (
                "the OS keyring"
                if where == "keyring"
                else f"the environment variable {secrets.env_var(name)}"
            )
            _out(f"{name} is set (in {place}); add --show to print it")
        return 0
    if args.action == "delete":
        secrets.require_keyring(name, deleting=True)
        if not confirm(f"Delete the secret {name} from the OS keyring?", yes=args.yes):
            _out(f"Kept the secret {name}.")
            return 0
        secrets.delete(name)
        _out(f"deleted {name} from the OS keyring")
        return 0
    raise UsageError(f"unknown action {args.action!r}")
