"""Password hashing: scrypt (memory-hard) with a random per-user salt, stdlib only."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

N, R, P = 2**15, 8, 1  # ~32 MiB, ~0.1 s: OWASP's scrypt baseline is N=2^17 with r=8, p=1
MAXMEM = 128 * 1024 * 1024


def hash_password(password: str, *, n: int = N) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=R, p=P, maxmem=MAXMEM, dklen=32)
    b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
    return f"scrypt${n}${R}${P}${b64(salt)}${b64(digest)}"


def verify_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(
            password.encode(),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            maxmem=MAXMEM,
            dklen=len(expected),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)
