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

import functools
import re
import threading
from dataclasses import dataclass
from typing import Any

MARK = "[REDACTED]"
MIN_SECRET_LEN = 6  # shorter values would redact ordinary words

_KEY_WORDS = (
    r"pass(?:word|wd|phrase|code)?|pwd|api[_ -]?key|apikey|secret(?:[_ -]?key)?|client[_ "
    r"-]?secret"
    r"|(?:access|auth|bearer|refresh|session|id)[_ -]?token|token|authorization|private[_ "
    r"-]?key"
    r"|aws_secret_access_key|credentials?"
)


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    repl: str
    needles: tuple[str, ...]  # the rule runs only when one of these is in the text (a cheap test)
    lower: bool = False  # needles are looked for in the lower-cased text
    boundary: bool = False  # the match must not continue a word ("task-..." is not "sk-...")


# Most rules start with a literal, which lets the regex engine skip ahead quickly; the word
# boundary is checked afterwards instead of with a leading \b, which would make it try every
# position of a long prompt.
_RULES = [
    # PEM/OpenSSH/PGP private keys, also when the text was cut before the END line
    _Rule(
        re.compile(
            r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
            re.S,
        ),
        r"-----BEGIN \1----- [REDACTED KEY]",
        ("PRIVATE KEY",),
    ),
    # cloud and service tokens, recognisable by their prefixes
    _Rule(
        re.compile(r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
        "AKIA" + MARK,
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        boundary=True,
    ),
    _Rule(
        re.compile(r"github_pat_[A-Za-z0-9_]{20,}"),
        "github_pat_" + MARK,
        ("github_pat_",),
        boundary=True,
    ),
    _Rule(
        re.compile(r"(gh[pousr])_[A-Za-z0-9]{30,}"),
        r"\1_" + MARK,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        boundary=True,
    ),
    _Rule(re.compile(r"glpat-[A-Za-z0-9_-]{20,}"), "glpat-" + MARK, ("glpat-",), boundary=True),
    _Rule(re.compile(r"(xox[abposre])-[A-Za-z0-9-]{10,}"), r"\1-" + MARK, ("xox",), boundary=True),
    _Rule(
        re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"),
        "https://hooks.slack.com/services/" + MARK,
        ("hooks.slack.com",),
    ),
    _Rule(re.compile(r"sk-[A-Za-z0-9_-]{16,}"), "sk-" + MARK, ("sk-",), boundary=True),
    _Rule(
        re.compile(r"((?:sk|rk|pk)_(?:live|test))_[A-Za-z0-9]{16,}"),
        r"\1_" + MARK,
        ("_live_", "_test_"),
        boundary=True,
    ),
    _Rule(re.compile(r"AIza[0-9A-Za-z_-]{30,}"), "AIza" + MARK, ("AIza",), boundary=True),
    _Rule(re.compile(r"hf_[A-Za-z0-9]{30,}"), "hf_" + MARK, ("hf_",), boundary=True),
    _Rule(re.compile(r"npm_[A-Za-z0-9]{30,}"), "npm_" + MARK, ("npm_",), boundary=True),
    # JSON Web Tokens: base64url header (always '{"' -> eyJ), payload and signature
    _Rule(
        re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        "[REDACTED JWT]",
        ("eyJ",),
        boundary=True,
    ),
    # tatlock's own scrypt$N$r$p$salt$hash, then crypt(3) hashes as in /etc/shadow ($1$ md5,
    # $5$/$6$ sha, $2b$ bcrypt, $y$ yescrypt, argon2)
    _Rule(
        re.compile(r"scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+"),
        "[REDACTED HASH]",
        ("scrypt$",),
    ),
    _Rule(
        re.compile(r"\$(?:1|2[abxy]?|5|6|7|y|gy|sha1|md5|argon2(?:id|i|d))\$[^\s:\"']{8,}"),
        "[REDACTED HASH]",
        ("$",),
    ),
    # user:password@ in URLs
    _Rule(re.compile(r"://([^/\s:@]+):[^/\s@]+@"), r"://\1:" + MARK + "@", ("://",)),
    # Authorization: Bearer/Basic <token>
    _Rule(
        re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{12,}"),
        r"\1 " + MARK,
        ("bearer", "basic"),
        lower=True,
    ),
]

# password=..., "api_key": "...", token: ...  -- found from the separator, the key checked before it
_ASSIGN = re.compile(r"[:=]\s*[\"']?(?:[Bb]earer\s+)?([^\s\"',;}]{4,})")
_KEY_BEFORE = re.compile(r"(?i)(?:^|[^a-z0-9_])(?:" + _KEY_WORDS + r")[\"']?\s*\Z")
_ASSIGN_NEEDLES = ("pass", "pwd", "api", "secret", "token", "auth", "private", "credential")
# "my password is hunter2" (only words that name a secret outright: "the secret is out" stays)
_IS = re.compile(r"\s[Ii][Ss]\s+([^\s\"',;}]{4,})")
_IS_BEFORE = re.compile(r"(?i)(?:^|[^a-z0-9_])(?:pass(?:word|phrase|code)|pin|api[_ -]?key)\Z")
_IS_NEEDLES = ("pass", "pin", "api")


def _apply(rule: _Rule, text: str) -> str:
    if not rule.boundary:
        return rule.pattern.sub(rule.repl, text)

    def one(m: re.Match[str]) -> str:
        i = m.start()
        if i and (text[i - 1].isalnum() or text[i - 1] == "_"):
            return m.group(0)
        return m.expand(rule.repl)

    return rule.pattern.sub(one, text)


def _keyed(text: str, finder: re.Pattern[str], before: re.Pattern[str], window: int = 48) -> str:
    """Withhold group 1 of each ``finder`` match that ``before`` recognises just ahead of it."""
    parts: list[str] = []
    last = 0
    for m in finder.finditer(text):
        if m.start(1) >= last and before.search(text, max(0, m.start() - window), m.start()):
            parts += (text[last : m.start(1)], MARK)
            last = m.end(1)
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


_SECRET_KEY_RE = re.compile(
    r"(?i)pass(?:word|wd|phrase)|api_?key|secret|(?:^|_)token$|^token|credential"
)

_known: set[str] = set()
_known_lock = threading.Lock()
_known_sorted: tuple[str, ...] = ()


def register_secret(*values: str | None) -> None:
    """Remember secret values so every later :func:`redact` call withholds them (process-wide)."""
    global _known_sorted
    with _known_lock:
        for value in values:
            if isinstance(value, str) and len(value.strip()) >= MIN_SECRET_LEN:
                _known.add(value.strip())
        # longest first, so a secret that contains another is withheld whole
        _known_sorted = tuple(sorted(_known, key=len, reverse=True))


def known_secrets() -> tuple[str, ...]:
    return _known_sorted


def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with known secret values and secret-shaped substrings replaced by a marker."""
    if not text:
        return text
    if len(text) < 256:
        return _redact(text, tuple(secrets), _known_sorted)
    # long texts (prompts in the debug log) repeat from call to call: the persona, the
    # instructions, the memory; the known secrets are part of the key, so a new one is never missed
    return _redact_long(text, tuple(secrets), _known_sorted)


@functools.lru_cache(maxsize=256)
def _redact_long(text: str, secrets: tuple[str, ...], known: tuple[str, ...]) -> str:
    return _redact(text, secrets, known)


def _redact(text: str, secrets: tuple[str, ...], known: tuple[str, ...]) -> str:
    for s in (*known, *secrets):
        if s and len(s) >= MIN_SECRET_LEN and s in text:
            text = text.replace(s, MARK)
    lowered = text.lower()
    for rule in _RULES:
        hay = lowered if rule.lower else text
        if any(n in hay for n in rule.needles):
            text = _apply(rule, text)
    if any(n in lowered for n in _ASSIGN_NEEDLES):
        text = _keyed(text, _ASSIGN, _KEY_BEFORE)
    if any(n in lowered for n in _IS_NEEDLES):
        text = _keyed(text, _IS, _IS_BEFORE)
    return text


def scrub(value: Any, secrets: tuple[str, ...] | list[str] = ()) -> Any:
    """A copy of a JSON-like value with every string redacted; string values under keys that
    name a secret (``password``, ``api_key``, ``token``...) are withheld whole."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {
            k: (
                MARK
                if isinstance(v, str) and v and _SECRET_KEY_RE.search(str(k))
                else scrub(v, secrets)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [scrub(v, secrets) for v in value]
    if isinstance(value, tuple):
        return tuple(scrub(v, secrets) for v in value)
    return value
