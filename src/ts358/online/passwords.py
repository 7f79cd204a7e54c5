"""Passwords, kept only as scrypt hashes (memory-hard, in the standard library's
:mod:`hashlib`): ``scrypt$n$r$p$salt$hash``, salt and hash in base64. The cost is kept with
each hash, so raising it later leaves the old hashes readable.

>>> kept = hash_password("correct horse", cost=2**10)
>>> check_password("correct horse", kept), check_password("wrong", kept)
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

__all__ = ["COST", "MAX_PASSWORD", "MIN_PASSWORD", "check_password", "hash_password"]

COST = 2**15
"""scrypt's n: with r = 8, 32 MiB of memory and about 0.1 s a hash on this machine (OWASP's
recommended floor is 2^17 with r = 8 for 128 MiB; 2^15 keeps a sign-in flood within a small
server's memory, and the sign-in limits do the rest)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 200
_R, _P = 8, 1


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=2 * 128 * n * r + 2**20, dklen=32
    )


def hash_password(password: str, cost: int = COST) -> str:
    """The form a password is kept in."""
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, cost, _R, _P)
    encode = base64.b64encode
    return f"scrypt${cost}${_R}${_P}${encode(salt).decode()}${encode(digest).decode()}"


def check_password(password: str, kept: str) -> bool:
    """Whether ``password`` is the one ``kept`` was made from (compared in constant time;
    False for a kept form that is not one)."""
    try:
        scheme, n, r, p, salt, digest = kept.split("$")
        if scheme != "scrypt":
            return False
        found = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
        return hmac.compare_digest(found, base64.b64decode(digest))
    except (ValueError, TypeError):
        return False
