"""Secrets (API keys, remembered passwords) in the OS keyring, never in a plain file.

Each secret is a keyring entry of service ``tatlock`` under its NAME (``api_key`` is the
OpenAI-compatible server's key; ``weather``, ``search`` or any other name for providers and
remembered passwords). An environment variable stands in for the keyring where there is
none (a headless Linux box has no Secret Service): ``TATLOCK_API_KEY`` for ``api_key``,
``TATLOCK_SECRET_<NAME>`` for the others; it also wins over the keyring, like every setting.

The names (never the values) of the secrets set through tatlock are listed in a small private
file, ``secret-names`` beside config.toml, so that tatlock can withhold every one of those
secrets from its debug logs and tool results (:func:`known_values`) without loading the keyring
on every start when there are none (importing and probing keyring costs ~0.1 s).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tatlock.errors import NotFound, TatlockError, UsageError
from tatlock.redact import register_secret

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.paths import Paths

SERVICE = "tatlock"
INDEX_FILE = "secret-names"
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
MAX_VALUE = 8192


class Settings(Protocol):
    """What secrets needs of the configuration: the API key it holds and where its files are.
    (tatlock.config.Config is one; config imports secrets, so secrets does not import config.)"""

    api_key: str | None
    paths: Paths


class KeyringUnavailable(TatlockError):
    """No usable OS keyring: the message names the environment variable to use instead."""


def validate_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        shown = name[:80] if isinstance(name, str) and name else "(empty)"
        raise UsageError(
            f"invalid secret name {shown!r}: use 1-64 lowercase letters, digits or '_', "
            "starting with a letter (e.g. api_key, weather)"
        )
    return name


def env_var(name: str) -> str:
    """The environment variable that stands in for secret ``name``."""
    validate_name(name)
    return "TATLOCK_API_KEY" if name == "api_key" else f"TATLOCK_SECRET_{name.upper()}"


def require_keyring(name: str, *, deleting: bool = False) -> Any:
    """The keyring module with a real backend, or KeyringUnavailable naming ``name``'s variable."""
    problem = backend_problem()
    if problem:
        if deleting:
            raise KeyringUnavailable(
                f"{problem}, so there is nothing to delete (a secret given as "
                f"{env_var(name)} goes away when that variable is unset)"
            )
        raise KeyringUnavailable(f"{problem}: set the environment variable {env_var(name)} instead")
    import keyring

    return keyring


def backend_problem() -> str | None:
    """Why the OS keyring cannot be used (one phrase), or None when it can."""
    try:
        import keyring
        from keyring.backends import chainer, fail, null
    except Exception:  # pragma: no cover - keyring is a dependency, but a broken install happens
        return "the keyring package cannot be loaded"
    try:
        kr = keyring.get_keyring()
    except Exception as exc:
        return f"the OS keyring cannot be loaded ({_short(exc)})"
    if isinstance(kr, (fail.Keyring, null.Keyring)) or (
        isinstance(kr, chainer.ChainerBackend) and not kr.backends
    ):
        return (
            "no OS keyring is available here (Secret Service, macOS Keychain or Windows Credential "
            "Locker)"
        )
    return None


def _short(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:160] or type(exc).__name__


def _failure(name: str, what: str, exc: BaseException) -> TatlockError:
    """Any failure of the keyring backend (locked, D-Bus gone) as one line naming the fallback."""
    from keyring.errors import NoKeyringError

    if isinstance(exc, NoKeyringError):
        return KeyringUnavailable(
            f"no OS keyring is available here: set the environment variable {env_var(name)} instead"
        )
    return TatlockError(
        f"the OS keyring could not {what} ({_short(exc)}); the environment variable "
        f"{env_var(name)} can be used instead"
    )


def _call(name: str, what: str, fn, *args):
    try:
        return fn(*args)
    except Exception as exc:
        raise _failure(name, what, exc) from None


# set/get/delete are the verbs of `tatlock secret`; the builtin ``set`` is not used in this module
def set(name: str, value: str, paths: Paths | None = None) -> None:
    """Store ``value`` as secret ``name`` in the OS keyring (KeyringUnavailable without one)."""
    validate_name(name)
    if not isinstance(value, str) or not value.strip():
        raise UsageError("the secret is empty; nothing was stored")
    value = value.strip("\r\n")
    if len(value) > MAX_VALUE or any(ord(c) < 32 and c != "\t" for c in value):
        raise UsageError(
            f"the secret must be one line of at most {MAX_VALUE} characters; nothing was stored"
        )
    kr = require_keyring(name)
    _call(name, "store the secret", kr.set_password, SERVICE, name, value)
    register_secret(value)
    names = _index(paths)
    if name not in names:
        _write_index(paths, [*names, name])


def get(name: str, paths: Paths | None = None) -> str | None:
    """Secret ``name``: its environment variable, else the keyring when tatlock set it there
    (its index of names says so: a start with no secrets never loads keyring); None when
    neither has it (also when there is no keyring). The value is registered for redaction."""
    value = os.environ.get(env_var(name)) or None
    if value is None and name in _index(paths) and backend_problem() is None:
        import keyring

        value = _call(name, "read the secret", keyring.get_password, SERVICE, name)
    register_secret(value)
    return value


def in_keyring(name: str) -> bool:
    """Whether the keyring holds secret ``name`` (False without a keyring)."""
    if backend_problem() is not None:
        return False
    import keyring

    return (
        _call(name, "read the secret", keyring.get_password, SERVICE, validate_name(name))
        is not None
    )


def where(name: str) -> str | None:
    """ "environment" or "keyring" for where secret ``name`` is found, or None."""
    if os.environ.get(env_var(name)):
        return "environment"
    return "keyring" if in_keyring(name) else None


def delete(name: str, paths: Paths | None = None) -> None:
    """Remove secret ``name`` from the keyring; NotFound when it has none."""
    validate_name(name)
    kr = require_keyring(name, deleting=True)
    from keyring.errors import PasswordDeleteError

    try:
        kr.delete_password(SERVICE, name)
    except PasswordDeleteError:
        _write_index(paths, [n for n in _index(paths) if n != name])
        raise NotFound(_not_found(name)) from None
    except Exception as exc:
        raise _failure(name, "delete the secret", exc) from None
    _write_index(paths, [n for n in _index(paths) if n != name])


def _not_found(name: str) -> str:
    hint = (
        f" (it is set in the environment variable {env_var(name)})"
        if os.environ.get(env_var(name))
        else ""
    )
    return f"no secret {name!r} in the OS keyring{hint}"


def _index_path(paths: Paths | None) -> Path:
    if paths is None:
        from tatlock.paths import Paths

        paths = Paths.resolve()
    return paths.config_dir / INDEX_FILE


def _index(paths: Paths | None = None) -> list[str]:
    """Names of the secrets set through tatlock (the values are only in the keyring)."""
    try:
        text = _index_path(paths).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [n for n in dict.fromkeys(text.split()) if NAME_RE.fullmatch(n)]


def _write_index(paths: Paths | None, names: list[str]) -> None:
    from tatlock.files import write_private

    path = _index_path(paths)
    try:
        if names:
            write_private(path, "".join(f"{n}\n" for n in sorted(dict.fromkeys(names))))
        else:
            path.unlink(missing_ok=True)
    except Exception:  # the list only helps redaction; the keyring holds the secret either way
        pass


def names(paths: Paths | None = None) -> list[str]:
    """Names of the secrets tatlock knows: set through tatlock, or in the environment."""
    found = dict.fromkeys(_index(paths))
    if os.environ.get("TATLOCK_API_KEY"):
        found["api_key"] = None
    for var, value in os.environ.items():
        if var.startswith("TATLOCK_SECRET_") and value:
            n = var[len("TATLOCK_SECRET_") :].lower()
            if NAME_RE.fullmatch(n):
                found[n] = None
    return sorted(found)


def known_values(cfg: Settings | None = None) -> tuple[str, ...]:
    """Every secret value tatlock knows (config api_key, environment, keyring), registered
    process-wide so debug logs and tool results withhold them. Call once at open. The keyring
    is loaded only when secrets were set through tatlock; one that fails is skipped (the
    environment's and config's secrets are still returned)."""
    values: list[str] = []
    if cfg is not None and cfg.api_key:
        values.append(cfg.api_key)
    for n in names(cfg.paths if cfg is not None else None):
        try:
            v = get(n)
        except TatlockError:
            continue
        if v:
            values.append(v)
    register_secret(*values)
    return tuple(dict.fromkeys(values))
