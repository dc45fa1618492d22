"""Which local files tatlock's tools may read.

A model can be talked into asking for anything ("read ~/.ssh/id_ed25519"), so the decision
is made here, on the real path (``~`` expanded, ``..`` and every symlink resolved), before
the file is even looked at:

1. never a credential store or secret file (``~/.ssh``, ``~/.gnupg``, keyrings, browser
   profiles, password stores, cloud credentials, ``/etc/shadow``...), never tatlock's own
   data (other users' memory, password hashes, debug logs), never a system folder;
2. never a dotfile or a file in a dot-folder (below the allowed folder it is in);
3. only inside an allowed folder: by default the current folder and the user's Documents and
   Downloads; ``allowed_paths`` in config.toml (``TATLOCK_ALLOWED_PATHS``) replaces that list.

A path can name one of tatlock's own files without being inside its folders (a hard link, a
bind mount), so the file actually opened is also compared, by device and inode, with every
file in tatlock's folders (:func:`own_files`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from tatlock.files import own_files

__all__ = ["own_files"]  # here for the tools, which ask this module what they may read

# below the home folder: credential stores and browser profiles (dot-folders are refused
# anyway; these are listed so that an allowed folder inside them still refuses them)
_HOME_PRIVATE = (
    ".ssh",
    ".gnupg",
    ".pki",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".password-store",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".authinfo",
    ".authinfo.gpg",
    ".vault-token",
    ".terraform.d",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".config/op",
    ".config/Bitwarden",
    ".config/keybase",
    ".local/share/keyrings",
    ".local/share/kwalletd",
    ".mozilla",
    ".thunderbird",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    ".config/opera",
    ".config/Signal",
    ".config/Slack",
    ".config/discord",
    ".var/app",
    "Library/Keychains",
    "Library/Cookies",
    "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox",
    "Library/Application Support/BraveSoftware",
    "Library/Application Support/Microsoft Edge",
    "Library/Safari",
    "Library/Mail",
    "Library/Messages",
    "snap/firefox",
    "snap/chromium",
)
# system paths: secrets and pseudo-files (a FIFO or /dev/zero would block or never end)
_SYSTEM_PRIVATE = (
    "/etc/shadow",
    "/etc/gshadow",
    "/etc/shadow-",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh",
    "/etc/ssl/private",
    "/etc/security/opasswd",
    "/etc/master.passwd",
    "/etc/spwd.db",
    "/root",
    "/proc",
    "/sys",
    "/dev",
    "/run",
    "/var/lib",
    "/var/db",
    "/private/etc/master.passwd",
    "/private/var/db",
)
# file names that hold keys or passwords wherever they are
_SECRET_FILE = re.compile(
    r"(?i)(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(pem|key|p12|pfx|jks|keystore|kdbx|kdb|keychain|keychain-db|"
    r"ovpn|ppk|gpg|pgp)|credentials(\.\w+)?|secrets?(\.\w+)?|logins\.json|key[34]\.db|cookies\.sqlite|"
    r"login data|cookies|web data|shadow|gshadow|master\.passwd|htpasswd|\.htpasswd)"
)
# folders that are never a sensible place to read from (a cwd of / must not open the machine)
_NOT_A_ROOT = {
    "/",
    "/etc",
    "/usr",
    "/var",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/boot",
    "/opt",
    "/srv",
    "/tmp",
    "/private",
    "/System",
    "/Library",
}

DEFAULT_DESCRIPTION = "the current folder, ~/Documents and ~/Downloads"


def real(path: str | Path, base: Path | None = None) -> Path:
    """``path`` with ``~`` expanded, made absolute against ``base`` (default: the current
    folder), and ``..`` and every symlink resolved."""
    p = Path(os.path.expanduser(str(path)))
    if not p.is_absolute():
        p = (base or Path.cwd()) / p
    return Path(os.path.realpath(p))


def _home() -> Path:
    return real(Path.home())


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def private_reason(path: Path, private_dirs: Iterable[Path] = ()) -> str | None:
    """Why the real path ``path`` must never be read, or None."""
    home = _home()
    for rel in _HOME_PRIVATE:
        if _within(path, home / rel):
            return "a credentials or browser-profile location"
    for sp in _SYSTEM_PRIVATE:
        if _within(path, Path(sp)) and not _within(home, Path(sp)):  # root's home is /root
            return "a system file or folder holding secrets"
    for d in private_dirs:
        if _within(path, d):
            return "tatlock's own private data"
    if _SECRET_FILE.fullmatch(path.name):
        return "a key, password or credentials file"
    return None


def default_roots() -> list[Path]:
    """The current folder (unless it is / or a system folder) and Documents, Downloads."""
    roots = []
    try:
        cwd = real(Path.cwd())
    except OSError:  # the current folder was deleted
        cwd = None
    if cwd is not None and str(cwd) not in _NOT_A_ROOT and cwd != Path(cwd.anchor):
        roots.append(cwd)
    home = Path.home()
    for name, fn in (("Documents", "user_documents_dir"), ("Downloads", "user_downloads_dir")):
        candidates = [home / name]
        try:
            import platformdirs

            candidates.insert(0, Path(getattr(platformdirs, fn)()))
        except Exception:  # platformdirs reads XDG user-dirs; the plain name is the fallback
            pass
        for candidate in candidates:
            if candidate.is_dir() and candidate != home:
                roots.append(real(candidate))
                break
    return list(dict.fromkeys(roots))


def roots_from(entries: Iterable[str] | None) -> list[Path]:
    """The allowed folders: ``allowed_paths`` entries (``.`` is the current folder), or the
    defaults."""
    if entries is None:
        return default_roots()
    out: list[Path] = []
    for entry in entries:
        if entry.strip() == ".":
            out.extend(r for r in default_roots()[:1])
        else:
            out.append(real(entry))
    return list(dict.fromkeys(out))


def check_entry(entry: str, private_dirs: Iterable[Path] = ()) -> str | None:
    """Why one ``allowed_paths`` entry is unacceptable (for config validation), or None."""
    if not entry.strip() or "\x00" in entry:
        return "an empty entry"
    if entry.strip() == ".":
        return None
    expanded = os.path.expanduser(entry.strip())
    if not os.path.isabs(expanded):
        return "not an absolute path (use /full/path, ~/folder or . for the current folder)"
    p = real(expanded)
    if str(p) == "/":
        return "the whole file system"
    reason = private_reason(p, private_dirs)
    if reason:
        return reason
    home = _home()
    if any(
        part.startswith(".")
        for part in (p.relative_to(home).parts if _within(p, home) else p.parts)
    ):
        return "a hidden (dot) folder"
    if not p.is_dir():
        return "not an existing folder"
    return None


def refusal(path: Path, roots: list[Path], private_dirs: Iterable[Path] = ()) -> str | None:
    """Why the real path ``path`` may not be read, as a sentence fit for a tool result; None
    when it may."""
    reason = private_reason(path, private_dirs)
    if reason:
        return f"{path} is {reason}; tatlock never reads those."
    root = next((r for r in roots if _within(path, r)), None)
    if root is None:
        where = ", ".join(str(r) for r in roots) or "none are configured"
        return (
            f"{path} is outside the folders tatlock may read ({where}); "
            "add its folder to allowed_paths in config.toml to allow it."
        )
    if any(part.startswith(".") for part in path.relative_to(root).parts):
        return (
            f"{path} is a hidden (dot) file or inside a hidden folder; tatlock does not read those."
        )
    return None
