"""Withhold text that looks like a secret before it reaches the model, the screen or a log.

Two kinds of protection:

- patterns for things that are secrets by their shape (private keys, cloud and chat-service
  tokens, JWTs, password hashes from /etc/shadow, ``password=...`` assignments, credentials
  in URLs);
- the exact values of secrets tatlock knows (the configured API key, keyring and environment
  secrets), registered process-wide with :func:`register_secret` so every log and tool result
  redacts them without each caller passing them around.

Redaction errs on the side of withholding: a false positive costs a few characters of a
tool result, a false negative can put someone's key into a model prompt or a log file.
"""

from __future__ import annotations

import re
import threading
from typing import Any

MARK = "[REDACTED]"
MIN_SECRET_LEN = 6  # shorter values would redact ordinary words

_KEY_WORDS = (r"pass(?:word|wd|phrase|code)?|pwd|api[_ -]?key|apikey|secret(?:[_ -]?key)?|client[_ -]?secret"
              r"|(?:access|auth|bearer|refresh|session|id)[_ -]?token|token|authorization|private[_ -]?key"
              r"|aws_secret_access_key|credentials?")

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # PEM/OpenSSH/PGP private keys, also when the text was cut before the END line
    (re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
                r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)", re.S),
     r"-----BEGIN \1----- [REDACTED KEY]"),
    # cloud and service tokens, recognisable by their prefixes
    (re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"), "AKIA" + MARK),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), "github_pat_" + MARK),
    (re.compile(r"\b(gh[pousr])_[A-Za-z0-9]{30,}"), r"\1_" + MARK),
    (re.compile(r"\b(glpat)-[A-Za-z0-9_-]{20,}"), r"\1-" + MARK),
    (re.compile(r"\b(xox[abposre])-[A-Za-z0-9-]{10,}"), r"\1-" + MARK),
    (re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"), "https://hooks.slack.com/services/" + MARK),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), "sk-" + MARK),
    (re.compile(r"\b((?:sk|rk|pk)_(?:live|test))_[A-Za-z0-9]{16,}"), r"\1_" + MARK),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"), "AIza" + MARK),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}"), "hf_" + MARK),
    (re.compile(r"\bnpm_[A-Za-z0-9]{30,}"), "npm_" + MARK),
    # JSON Web Tokens: base64url header (always '{"' -> eyJ), payload and signature
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), "[REDACTED JWT]"),
    # crypt(3) hashes as in /etc/shadow ($1$ md5, $5$/$6$ sha, $2b$ bcrypt, $y$ yescrypt, argon2)
    # and tatlock's own scrypt$N$r$p$salt$hash
    (re.compile(r"\bscrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+"), "[REDACTED HASH]"),
    (re.compile(r"\$(?:1|2[abxy]?|5|6|7|y|gy|sha1|md5|argon2(?:id|i|d))\$[^\s:\"']{8,}"), "[REDACTED HASH]"),
    # user:password@ in URLs
    (re.compile(r"\b([a-z][a-z0-9+.-]*://[^/\s:@]+):[^/\s@]+@", re.I), r"\1:" + MARK + "@"),
    # Authorization: Bearer/Basic <token>
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{12,}"), r"\1 " + MARK),
    # password=..., "api_key": "...", token: ...
    (re.compile(r"(?i)\b(" + _KEY_WORDS + r")(\"?'?\s*[:=]\s*\"?'?)(?:bearer\s+)?([^\s\"',;}]{4,})"),
     r"\1\2" + MARK),
    # "my password is hunter2" (only for words that name a secret outright, not "the secret is out")
    (re.compile(r"(?i)\b(pass(?:word|phrase|code)|pin|api[_ -]?key)(\s+is\s+)([^\s\"',;}]{4,})"), r"\1\2" + MARK),
]

_SECRET_KEY_RE = re.compile(r"(?i)pass(?:word|wd|phrase)|api_?key|secret|(?:^|_)token$|^token|credential")

_known: set[str] = set()
_known_lock = threading.Lock()
_known_sorted: tuple[str, ...] = ()


def register_secret(*values: str | None) -> None:
    """Remember secret values so every later :func:`redact` call withholds them (process-wide)."""
    global _known_sorted
    with _known_lock:
        for v in values:
            if isinstance(v, str) and len(v.strip()) >= MIN_SECRET_LEN:
                _known.add(v.strip())
        # longest first, so a secret that contains another is withheld whole
        _known_sorted = tuple(sorted(_known, key=len, reverse=True))


def known_secrets() -> tuple[str, ...]:
    return _known_sorted


def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with known secret values and secret-shaped substrings replaced by a marker."""
    if not text:
        return text
    for s in (*_known_sorted, *secrets):
        if s and len(s) >= MIN_SECRET_LEN and s in text:
            text = text.replace(s, MARK)
    for pat, repl in _PATTERNS:
        text = pat.sub(repl, text)
    return text


def scrub(value: Any, secrets: tuple[str, ...] | list[str] = ()) -> Any:
    """A copy of a JSON-like value with every string redacted; string values under keys that
    name a secret (``password``, ``api_key``, ``token``...) are withheld whole."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: (MARK if isinstance(v, str) and v and _SECRET_KEY_RE.search(str(k)) else scrub(v, secrets))
                for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, secrets) for v in value]
    if isinstance(value, tuple):
        return tuple(scrub(v, secrets) for v in value)
    return value
