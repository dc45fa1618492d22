"""Secrets in an answer: credential-like text anywhere ("the password is hunter2!"), and the
secret values the question or a finding holds (the user's own, a file's), never to be repeated.
Examples are not secrets: "a weak password is P@ssw0rd1", "your password is something you
should change".
"""

from __future__ import annotations

from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

CREDENTIAL = Rulebook(
    "gate.credential",
    [
        Rule(
            "credential.openai_key",
            "credential",
            r"\bsk-[A-Za-z0-9_-]{16,}",
            ("my key is sk-abcdefghijklmnop1234",),
            ("the sk-1 form", "task-force"),
            flags=0,
        ),
        Rule(
            "credential.aws_key",
            "credential",
            r"\bAKIA[0-9A-Z]{16}\b",
            ("AKIAABCDEFGHIJKLMNOP",),
            ("AKIA is a prefix",),
            flags=0,
        ),
        Rule(
            "credential.private_key",
            "credential",
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
            ("-----BEGIN RSA PRIVATE KEY-----",),
            ("-----BEGIN CERTIFICATE-----",),
            flags=0,
        ),
        Rule(
            "credential.said",
            "credential",
            r"(?<!\ba\s)(?<!\bweak\s)(?<!\bstrong\s)(?<!\bbad\s)(?<!\bgood\s)(?<!\bcommon\s)(?<!\bexample\s)"
            r"(?<![a-z])(?:password|passwd|passcode|api[_ "
            r"-]?key|secret|token)\s*(?:is|[:=])\s*[\"'`]?"
            r"(?=\S*[0-9!@#$%^&*_+=])[A-Za-z0-9!@#$%^&*_+\-=]{6,}",
            ("Your password is hunter2!, sir.", "token: abc123xyz"),
            ("a weak password is P@ssw0rd1", "your password is something you should change"),
        ),
    ],
)

# the value itself is the rule's first group
VALUES = Rulebook(
    "gate.secret_value",
    [
        Rule(
            "value.openai_key",
            "secret",
            r"\b(sk-[A-Za-z0-9_-]{8,})",
            ("use sk-abcdefgh12",),
            ("sk-abc",),
            flags=0,
        ),
        Rule(
            "value.aws_key",
            "secret",
            r"\b(AKIA[0-9A-Z]{16})\b",
            ("AKIAABCDEFGHIJKLMNOP",),
            ("AKIA",),
            flags=0,
        ),
        Rule(
            "value.said",
            "secret",
            r"(?<![a-z])(?:password|passwd|passcode|pin|api[_ "
            r"-]?key|token|secret)s?\s*(?:is|was|[:=])\s*[\"'`]?"
            r"([^\s\"'`,;\\]{4,})",  # a backslash ends a value: "\n" in a JSON finding
            ("my password is hunter2", "PIN: 4921", "api_key=xyz123"),
            ("the password policy", "pin is 12"),
        ),
        Rule(
            "value.bare",
            "secret",
            r"\b(?:password|passwd|passcode|pin)\s+([A-Za-z0-9!@#$%^&*_+=-]*[0-9!@#$%^&*_+=][A-Za-z0-9!@#$%^&*_+=-]*)",
            ("my pin 49217", "password hunter2!"),
            ("password manager", "pin code"),
        ),
    ],
)

_CORE = lazy(r"[A-Za-z0-9]+")


def secret_values(*texts: str) -> list[str]:
    """Secret values written in these texts (the user's own, a file's), longest first."""
    found = {
        m.group(1).rstrip(".!?")
        for t in texts
        if t
        for rule in VALUES
        for m in rule.regex.finditer(t)
    }
    return sorted(
        (v for v in found if len(v) >= 4 and v.lower() not in ("something", "secret")),
        key=len,
        reverse=True,
    )


def credential(text: str) -> str | None:
    for rule in CREDENTIAL:
        m = rule.search(text)
        if m:
            return m.group(0)
    return None


def contains_secret(text: str, secret: str) -> bool:
    """The secret, or its letters and digits up to its first symbol ("hunter2" of "hunter2!x")."""
    if secret in text:
        return True
    core = _CORE.match(secret)
    if not core or len(core.group(0)) < 5:
        return False
    word = core.group(0)
    return any(
        not _alnum(text, i - 1) and not _alnum(text, i + len(word)) for i in _find_all(text, word)
    )


def _alnum(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i].isascii() and text[i].isalnum()


def _find_all(text: str, word: str) -> list[int]:
    out, i = [], text.find(word)
    while i >= 0:
        out.append(i)
        i = text.find(word, i + 1)
    return out


def redact(text: str, values: tuple[str, ...] | list[str]) -> str:
    for v in sorted(values, key=len, reverse=True):
        if v:
            text = text.replace(v, "[secret]")
    return text
