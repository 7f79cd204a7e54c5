"""The online server's database: SQLite by default (a file, WAL, nothing to set up) or
PostgreSQL by URL, through SQLAlchemy 2; its schema made and upgraded by the migrations
(Alembic) when the server starts.

A table's save is a row rewritten after each decision, in a transaction of its own, so a
process killed at any moment loses at most the decision being made: the same promise as the
save files of ``ts358 play`` (:mod:`ts358.table.saves`), kept by the database's commit.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from ts358.table.history import data_dir

__all__ = ["Database", "DatabaseError", "default_url", "now"]

MIGRATIONS = Path(__file__).parent / "migrations"


class DatabaseError(RuntimeError):
    """The database can't be opened or used; the message says why in one line."""


def default_url() -> str:
    """The database of ``ts358 serve --public`` when none is named: ``online.db`` in the
    user data directory (``$TS358_HOME`` if set)."""
    return f"sqlite:///{data_dir() / 'online.db'}"


def now() -> _dt.datetime:
    """The time as the database keeps it: UTC, to the second's millionth."""
    return _dt.datetime.now(_dt.timezone.utc)


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    cursor = connection.cursor()
    # WAL: readers never wait for the writer; FULL: a commit is on disk when it returns.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Database:
    """A database by its SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``);
    DatabaseError (one line) if the URL is not one or its driver is missing.

    >>> db = Database("sqlite://")  # in memory
    >>> db.migrate()
    >>> sorted(db.tables())[:3]
    ['alembic_version', 'matches', 'places']
    """

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise DatabaseError(
                f"not a database URL: {url!r} (sqlite:///path or postgresql+psycopg://...)"
            ) from None
        self.url = parsed
        options: dict[str, Any] = {"pool_pre_ping": True}
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if database and database != ":memory:":
                folder = Path(database).expanduser().parent
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise DatabaseError(f"can't make the folder {folder}: {exc.strerror}") from None
            else:  # one connection for all, or each would have its own empty database
                from sqlalchemy.pool import StaticPool

                options = {"poolclass": StaticPool}
            options["connect_args"] = {"check_same_thread": False}
        try:
            self.engine: Engine = create_engine(parsed, **options)
        except (NoSuchModuleError, ImportError) as exc:
            raise DatabaseError(f"no driver for {parsed.drivername}: {exc}") from None
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Database({self.url.render_as_string(hide_password=True)!r})"

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction: committed at the end of the block, rolled back on an error;
        DatabaseError (one line) if the database fails."""
        try:
            with self.sessions.begin() as session:
                yield session
        except SQLAlchemyError as exc:
            raise DatabaseError(f"the database failed: {_first_line(exc)}") from None

    def migrate(self) -> None:
        """Bring the schema to the newest migration (nothing to do when it is there)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except SQLAlchemyError as exc:
            raise DatabaseError(
                f"can't open the database {self.url.render_as_string(hide_password=True)}: "
                f"{_first_line(exc)}"
            ) from None

    def tables(self) -> list[str]:
        """The tables the database has."""
        return inspect(self.engine).get_table_names()

    def close(self) -> None:
        self.engine.dispose()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
