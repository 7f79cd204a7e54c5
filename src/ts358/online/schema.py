"""The online server's tables in the database (SQLAlchemy 2, declarative): people, their
sign-in sessions, the tables of the lobby and their seats, finished matches with each
seat's place and rating, and the ratings per rules preset.

The schema is made and changed only by the migrations (:mod:`ts358.online.migrations`,
Alembic); a test checks that they make exactly these tables.
"""

from __future__ import annotations

import datetime as _dt

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Base",
    "MatchRow",
    "PlaceRow",
    "RatingRow",
    "SeatRow",
    "SessionRow",
    "TableRow",
    "UserRow",
]


class Base(DeclarativeBase):
    pass


class UserRow(Base):
    """A person with a password, a guest (a name only, no password) or a computer player
    of one level (rated like a person, never signed in)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # The name as compared: folded case and spaces, so "Ala" and "ALA " are one person.
    key: Mapped[str] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(10))  # person, guest, computer
    password: Mapped[str | None] = mapped_column(String(200))  # scrypt$... (passwords.py)
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the cookie's token is kept only as its SHA-256."""

    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    """A table of the lobby: open (waiting for people), playing, finished or abandoned
    (closed before its match ended by everybody leaving). While it is played its save is
    here, rewritten as the file of ``ts358 play`` would be, and ``process`` names the
    server process that owns it; ``beat`` is when that process last said it is alive."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    rules: Mapped[str] = mapped_column(String(300))
    preset: Mapped[str] = mapped_column(String(40))
    deals: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(20))
    lang: Mapped[str] = mapped_column(String(5))
    private: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(10), index=True)
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    save: Mapped[str | None] = mapped_column(Text)
    process: Mapped[str | None] = mapped_column(String(80))
    beat: Mapped[_dt.datetime | None] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """Who sits where: a person's seat keeps its person while a computer plays it for them
    (``present`` false), so that they can take it back."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    present: Mapped[bool] = mapped_column(Boolean)
    # A person's seat in play: the secret its page joins with (with its person's session).
    token: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)


class MatchRow(Base):
    """A finished match of a table: its save (every decision), its record (every card, as
    ``ts358 play --record`` writes it) and when it ended."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), unique=True)
    preset: Mapped[str] = mapped_column(String(40), index=True)
    deals: Mapped[int] = mapped_column(Integer)
    ended: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    save: Mapped[str] = mapped_column(Text)
    record: Mapped[str | None] = mapped_column(Text)  # ts358.record's format (docs/match-record.md)


class PlaceRow(Base):
    """One seat of a finished match: who played it (a person, or the computer that played
    it when nobody had taken it), the total, the place (shared places are equal) and the
    conservative rating before and after."""

    __tablename__ = "places"
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    total: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's OpenSkill rating (Plackett-Luce) under one rules preset."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
