"""Shared by the online server's tests: a database on SQLite or PostgreSQL, its lobby, and a
match played to the end at a table of the lobby by deterministic players."""

from __future__ import annotations

from ts358.online.accounts import Accounts
from ts358.online.db import Database
from ts358.online.rooms import Rooms
from ts358.players import make_player

CHEAP = 2**10  # scrypt's cost in the tests: a hash in about a millisecond


def lobby(url: str, process: str | None = None) -> tuple[Database, Accounts, Rooms]:
    """A migrated database at ``url``, its accounts and a lobby (of ``process``)."""
    db = Database(url)
    db.migrate()
    accounts = Accounts(db, cost=CHEAP)
    return db, accounts, Rooms(db, accounts, process=process)


def person_decision(table, seat: int):
    """A person's decision as a seeded easy player makes it (the same at the same step)."""
    player = make_player("easy", 1000 + table.step)
    return player.decide(table.view(seat))


def play(table, until_decisions: int | None = None) -> None:
    """Play ``table`` (people by :func:`person_decision`, computers by their players) to the
    end of the match, or until it has ``until_decisions`` decisions and a person's is due
    (when the save holds every decision made: the computers' are saved with the next
    person's)."""
    while not table.match.done:
        pending = table.match.pending()
        if (
            until_decisions is not None
            and len(table.match.snapshot().decisions) >= until_decisions
            and not table.waiting
            and pending is not None
            and pending.seat in table.humans
        ):
            return
        pending = table.computer_due()
        if pending is not None:
            table.apply_computer(pending, table.think(pending))
        elif table.waiting:
            for seat in sorted(table.waiting):
                table.go_on(seat)
        else:
            seat = table.match.pending().seat
            table.decide(seat, person_decision(table, seat))
