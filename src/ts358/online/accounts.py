"""People of the online server: a name with a password (kept as a scrypt hash), a guest
with a name only, and each computer level as a player of its own (rated like a person); the
sessions of signed-in browsers, by a random token whose SHA-256 alone is kept.

Names are compared with their case and spaces folded (``Ala`` and ``ALA`` are one person).
A guest's name is shown with its mark and never takes a person's: a guest is a new player
each time, told apart by a number that is not shown.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import secrets

from sqlalchemy import delete, select

from ts358._input import quote
from ts358.match import MAX_NAME, clean_name
from ts358.online.db import Database, now
from ts358.online.errors import RequestError
from ts358.online.passwords import (
    COST,
    MAX_PASSWORD,
    MIN_PASSWORD,
    check_password,
    hash_password,
)
from ts358.online.schema import SessionRow, UserRow

__all__ = ["SESSION_DAYS", "AccountError", "Accounts", "Person", "name_key"]

SESSION_DAYS = 30
"""How long a sign-in lasts."""
_DUMMY = hash_password("not a password", 2**10)


class AccountError(RequestError):
    """A sign-up or sign-in that can't be done; the message says why in one line."""


@dataclasses.dataclass(frozen=True)
class Person:
    """Someone the server knows: ``kind`` is ``person``, ``guest`` or ``computer``."""

    id: int
    name: str
    kind: str

    @property
    def guest(self) -> bool:
        return self.kind == "guest"


def name_key(name: str) -> str:
    """A name as compared: case and spaces folded."""
    return " ".join(name.split()).casefold()


def _clean_name(name: object) -> str:
    try:
        return clean_name(name)
    except ValueError:
        raise AccountError.of("online.bad_name", last=MAX_NAME, text=quote(name)) from None


def _person(row: UserRow) -> Person:
    return Person(row.id, row.name, row.kind)


def _token_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Signing up and in, guests, sessions, on ``db``.

    Args:
        db: the database (migrated).
        cost: scrypt's cost for new passwords (:data:`ts358.online.passwords.COST`; tests
            take a smaller one).
    """

    def __init__(self, db: Database, cost: int = COST) -> None:
        self.db = db
        self.cost = cost

    def sign_up(self, name: object, password: object) -> Person:
        """A new person; AccountError if the name is taken or not a name, or the password is
        too short or too long."""
        clean = _clean_name(name)
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError.of("online.password_length", first=MIN_PASSWORD, last=MAX_PASSWORD)
        kept = hash_password(password, self.cost)
        with self.db.session() as session:
            if session.scalar(select(UserRow.id).where(UserRow.key == name_key(clean))):
                raise AccountError.of("online.name_taken", name=repr(clean))
            row = UserRow(
                name=clean, key=name_key(clean), kind="person", password=kept, created=now()
            )
            session.add(row)
            session.flush()
            return _person(row)

    def sign_in(self, name: object, password: object) -> Person:
        """The person with this name and password; AccountError (the same words whether
        the name or the password is wrong) otherwise."""
        wrong = AccountError.of("online.wrong_password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong
        if len(password) > MAX_PASSWORD:
            raise wrong
        with self.db.session() as session:
            row = session.scalar(
                select(UserRow).where(UserRow.key == name_key(name), UserRow.kind == "person")
            )
        # A name nobody has costs the same time as a wrong password: no list of names.
        if row is None or row.password is None:
            check_password(password, _DUMMY.replace("$1024$", f"${self.cost}$", 1))
            raise wrong
        if not check_password(password, row.password):
            raise wrong
        return _person(row)

    def guest(self, name: object) -> Person:
        """A guest of this name (a new player, shown as the name with the guest's mark)."""
        clean = _clean_name(name)
        with self.db.session() as session:
            row = UserRow(
                name=clean,
                key=f"~{name_key(clean)}#{secrets.token_hex(8)}",
                kind="guest",
                password=None,
                created=now(),
            )
            session.add(row)
            session.flush()
            return _person(row)

    def computer(self, level: str) -> Person:
        """The player that stands for the computer players of ``level`` (made on first use)."""
        key = f"@{level}"
        with self.db.session() as session:
            row = session.scalar(select(UserRow).where(UserRow.key == key))
            if row is None:
                row = UserRow(name=level, key=key, kind="computer", password=None, created=now())
                session.add(row)
                session.flush()
            return _person(row)

    def person(self, user_id: int) -> Person | None:
        with self.db.session() as session:
            row = session.get(UserRow, user_id)
            return _person(row) if row is not None else None

    # ------------------------------------------------------------------ sessions

    def open_session(self, person: Person, days: float = SESSION_DAYS) -> tuple[str, str]:
        """A new session of ``person``: its token (the cookie) and its CSRF token (sent
        back by the page with each change it asks for)."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        start = now()
        with self.db.session() as session:
            session.add(
                SessionRow(
                    id=_token_id(token),
                    user_id=person.id,
                    csrf=csrf,
                    created=start,
                    expires=start + _dt.timedelta(days=days),
                )
            )
        return token, csrf

    def session(self, token: str | None) -> tuple[Person, str] | None:
        """The person and CSRF token of a live session, or None."""
        if not token or len(token) > 200:
            return None
        with self.db.session() as session:
            found = session.execute(
                select(SessionRow, UserRow)
                .join(UserRow, UserRow.id == SessionRow.user_id)
                .where(SessionRow.id == _token_id(token))
            ).first()
            if found is None:
                return None
            row, user = found
            expires = row.expires
            if expires.tzinfo is None:  # SQLite gives the time back without its zone
                expires = expires.replace(tzinfo=_dt.timezone.utc)
            if expires <= now():
                session.delete(row)
                return None
            return _person(user), row.csrf

    def close_session(self, token: str | None) -> None:
        """Sign out: the session is gone."""
        if token:
            with self.db.session() as session:
                session.execute(delete(SessionRow).where(SessionRow.id == _token_id(token)))

    def sweep_sessions(self) -> int:
        """Forget the sessions that have expired; how many."""
        with self.db.session() as session:
            result = session.execute(delete(SessionRow).where(SessionRow.expires <= now()))
            return int(getattr(result, "rowcount", 0) or 0)
