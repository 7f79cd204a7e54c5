"""The lobby of the online server: tables in the database, the ones this process plays in
memory, seats taken and left, computer players filling the empty seats, finished matches
recorded with their places and ratings.

A table is **open** while people take its seats, **playing** from its start, **finished**
when its match ends, **abandoned** when its last person left before the start. While it is
played, its save (every decision, :mod:`ts358.table.saves`'s format) is rewritten in its row
when a ``ts358 play`` save would be, so a killed process loses at most the decision being
made. One process owns a table at a time: the row names the process and when it last said
it is alive (:data:`BEAT_SECONDS`); a table whose owner has been silent for
:data:`STALE_SECONDS` is taken over by the next process that needs it, which replays the
save (:meth:`Rooms.open_table`).

A seat is a person's from the moment they take it. When they leave a table in play, a
computer player of the table's level plays for them (from the decision due), and the seat
stays theirs: joining again gives it back. The last person at a table is never replaced.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import or_, select, update

from ts358._input import quote
from ts358.bots.record import redacted_record
from ts358.match import Match, standings
from ts358.online.accounts import Accounts, Person
from ts358.online.db import Database, DatabaseError, now
from ts358.online.errors import RequestError
from ts358.online.ratings import Skill, conservative, rate
from ts358.online.schema import MatchRow, PlaceRow, RatingRow, SeatRow, TableRow, UserRow
from ts358.players import LEVELS
from ts358.record import match_record
from ts358.rules import MATCH_LENGTHS, PRESETS, Rules
from ts358.table.saves import (
    DEFAULT_PACE,
    MAX_PACE,
    PlaySettings,
    SavedMatch,
    SaveError,
    WriteError,
    from_json,
    to_json,
)
from ts358.table.texts import LANGUAGES, Translator
from ts358.web.table import Table, default_names

__all__ = [
    "BEAT_SECONDS",
    "STALE_SECONDS",
    "LobbyError",
    "OnlineTable",
    "Rooms",
    "SeatInfo",
    "TableInfo",
    "TableOptions",
]

BEAT_SECONDS = 10.0
"""How often a process tells the database that it still plays its tables."""
STALE_SECONDS = 30.0
"""How long a table's process may be silent before another takes the table over."""

_log = logging.getLogger("ts358.online")


class LobbyError(RequestError):
    """A lobby request that can't be done; the message says why in one line."""


def _machine() -> str:
    """This machine: its host name and, where there is one, its machine id (two machines
    may share a host name)."""
    try:
        with open("/etc/machine-id", encoding="ascii") as handle:
            mark = handle.read(12).strip()
    except OSError:
        mark = ""
    name = socket.gethostname()[:40].replace(":", "-")
    return f"{name}-{mark}" if mark else name


def process_name() -> str:
    """This process, as a table's row names its owner: machine, process id, a random part."""
    return f"{_machine()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclasses.dataclass(frozen=True)
class TableOptions:
    """A new table as the lobby's form asks for it.

    Attributes:
        rules: a preset (``house``, ``kurnik``, ``sergeant-major``, ``9-5-2``); ratings
            are kept per preset.
        deals: the match's length (3, 6, 9 or 18; a rule set that ends on a condition
            takes it as its cap).
        level: the computer players' level, for the empty seats and those left.
        lang: the table's language (its texts and the names of the computer players).
        private: listed in the lobby (False) or opened by its link only (True).
        pace: seconds between the computer players' cards.
    """

    rules: str = "house"
    deals: int = 6
    level: str = "medium"
    lang: str = "en"
    private: bool = False
    pace: float = DEFAULT_PACE

    @classmethod
    def from_json(cls, data: Any) -> TableOptions:
        """The options of the form's JSON object (a key left out is the default);
        LobbyError (one line) for anything else."""
        if not isinstance(data, dict):
            raise LobbyError(f"the options are a JSON object, not {quote(data)}")
        unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise LobbyError(f"unknown option {quote(unknown[0])}")
        default = cls()

        def choice(key: str, allowed: tuple[Any, ...]) -> Any:
            value = data.get(key, getattr(default, key))
            if isinstance(value, bool) or value not in allowed:
                listed = ", ".join(str(a) for a in allowed)
                raise LobbyError(f"'{key}' must be one of {listed}, not {quote(value)}")
            return value

        private = data.get("private", False)
        if not isinstance(private, bool):
            raise LobbyError(f"'private' must be true or false, not {quote(private)}")
        pace = data.get("pace", default.pace)
        if (
            isinstance(pace, bool)
            or not isinstance(pace, (int, float))
            or not 0 <= pace <= MAX_PACE
        ):
            raise LobbyError(f"'pace' must be 0-{MAX_PACE:g} seconds, not {quote(pace)}")
        return cls(
            rules=choice("rules", tuple(PRESETS)),
            deals=choice("deals", MATCH_LENGTHS),
            level=choice("level", LEVELS),
            lang=choice("lang", LANGUAGES),
            private=private,
            pace=float(pace),
        )


@dataclasses.dataclass(frozen=True)
class SeatInfo:
    """A seat as the lobby shows it: free (``kind`` None), a person's or guest's (``present``
    false while a computer plays it for them), or a computer player's."""

    seat: int
    name: str | None
    kind: str | None
    present: bool
    user_id: int | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "present": self.present}


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """A table as the lobby lists it."""

    id: str
    rules: str
    deals: int
    level: str
    lang: str
    private: bool
    status: str
    owner: str
    seats: tuple[SeatInfo, SeatInfo, SeatInfo]
    owner_id: int = 0

    def seat_of(self, person: Person) -> int | None:
        """``person``'s seat at this table, if they have one."""
        return next((s.seat for s in self.seats if s.user_id == person.id), None)

    @property
    def free(self) -> list[int]:
        """The seats nobody has taken (only an open table has any)."""
        return [s.seat for s in self.seats if s.kind is None] if self.status == "open" else []

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.rules,
            "deals": self.deals,
            "level": self.level,
            "lang": self.lang,
            "private": self.private,
            "status": self.status,
            "owner": self.owner,
            "seats": [s.to_json() for s in self.seats],
            "free": self.free,
        }


class OnlineTable(Table):
    """A table of the online server: the browser table with the lobby's seats (every seat
    that a person may take has a token) and its save in the database."""

    def __init__(self, table_id: str, saved: SavedMatch, humans: set[int], keeper: Any) -> None:
        super().__init__(saved, None, humans, stats=False, keeper=keeper)
        self.id = table_id

    def seat_computer(self, seat: int, level: str | None = None) -> None:
        super().seat_computer(seat, level)
        self.connected.discard(seat)


class Rooms:
    """The online lobby on ``db``: every table's row, and the tables this process plays.

    Args:
        db: the database (migrated).
        accounts: its people.
        process: this process's name in the tables' rows (default: host, pid, random).
        on_change: called (from any thread) with a table's id when its row changed, for a
            server to tell other processes and browsers.
    """

    def __init__(
        self,
        db: Database,
        accounts: Accounts,
        process: str | None = None,
        on_change: Callable[[str], None] | None = None,
    ) -> None:
        self.db = db
        self.accounts = accounts
        self.process = process or process_name()
        self.on_change = on_change or (lambda table_id: None)
        self.tables: dict[str, OnlineTable] = {}
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ reading

    def info(self, table_id: str) -> TableInfo:
        """The table ``table_id``; LobbyError if there is none."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise LobbyError.of("online.no_table", text=quote(table_id))
        with self.db.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise LobbyError.of("online.no_table", text=quote(table_id))
            return self._info(session, row)

    def _info(self, session: Any, row: TableRow) -> TableInfo:
        seats: list[SeatInfo] = [SeatInfo(s, None, None, False, None) for s in range(3)]
        found = session.execute(
            select(SeatRow, UserRow)
            .join(UserRow, UserRow.id == SeatRow.user_id)
            .where(SeatRow.table_id == row.id)
        ).all()
        for seat, user in found:
            seats[seat.seat] = SeatInfo(seat.seat, user.name, user.kind, seat.present, user.id)
        owner = session.get(UserRow, row.owner_id)
        return TableInfo(
            id=row.id,
            rules=row.rules,
            deals=row.deals,
            level=row.level,
            lang=row.lang,
            private=row.private,
            status=row.status,
            owner=owner.name if owner is not None else "",
            seats=(seats[0], seats[1], seats[2]),
            owner_id=row.owner_id,
        )

    def listing(self, person: Person | None = None, limit: int = 100) -> list[TableInfo]:
        """The lobby: the public tables open or in play, newest first, and ``person``'s own
        tables that are not over (private ones too)."""
        with self.db.session() as session:
            query = select(TableRow).where(TableRow.status.in_(("open", "playing")))
            mine = select(SeatRow.table_id).where(SeatRow.user_id == person.id) if person else None
            if mine is not None:
                query = query.where(or_(TableRow.private.is_(False), TableRow.id.in_(mine)))
            else:
                query = query.where(TableRow.private.is_(False))
            rows = session.scalars(query.order_by(TableRow.created.desc()).limit(limit)).all()
            return [self._info(session, row) for row in rows]

    # ------------------------------------------------------------------ the lobby's changes

    def create(self, person: Person, options: TableOptions) -> TableInfo:
        """A new open table with ``person`` at seat 0."""
        table_id = secrets.token_urlsafe(12)
        stamp = now()
        with self.db.session() as session:
            session.add(
                TableRow(
                    id=table_id,
                    owner_id=person.id,
                    rules=options.rules,
                    preset=options.rules,
                    deals=options.deals,
                    level=options.level,
                    lang=options.lang,
                    private=options.private,
                    seed=secrets.randbelow(2**62),
                    status="open",
                    created=stamp,
                    updated=stamp,
                    save=json.dumps({"pace": options.pace}),
                )
            )
            session.flush()
            session.add(SeatRow(table_id=table_id, seat=0, user_id=person.id, present=True))
        self.on_change(table_id)
        return self.info(table_id)

    def sit(self, person: Person, table_id: str, seat: int | None = None) -> int:
        """``person`` takes a seat: a free seat of an open table (``seat``, or the first
        free), or their own seat again (a table in play: the computer that played it for
        them gives it back). Their seat; LobbyError if they can't sit there."""
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1, 2)):
            raise LobbyError(f"a seat is 0, 1 or 2, not {quote(seat)}")
        info = self.info(table_id)
        mine = info.seat_of(person)
        if mine is not None:
            if seat is not None and seat != mine:
                raise LobbyError.of("online.seated", number=mine)
            if info.status == "playing" and not info.seats[mine].present:
                self._come_back(person, info, mine)
            return mine
        if info.status != "open":
            raise LobbyError.of("online.not_open")
        free = info.free
        chosen = seat if seat is not None else (free[0] if free else None)
        if chosen is None or chosen not in free:
            raise LobbyError.of("online.seat_taken" if free else "online.table_full")
        try:
            with self.db.session() as session:
                row = session.get(TableRow, table_id)
                taken = session.get(SeatRow, (table_id, chosen))
                if row is None or row.status != "open" or taken is not None:
                    raise LobbyError.of("online.seat_taken")
                session.add(
                    SeatRow(table_id=table_id, seat=chosen, user_id=person.id, present=True)
                )
                row.updated = now()
        except DatabaseError:  # another request took it first (the seat's key is unique)
            raise LobbyError.of("online.seat_taken") from None
        self.on_change(table_id)
        return chosen

    def _come_back(self, person: Person, info: TableInfo, seat: int) -> None:
        with self.db.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == info.id, SeatRow.seat == seat)
                .values(present=True)
            )
        table = self.tables.get(info.id)
        if table is not None and seat in table.computers:
            table.seat_person(seat)
        self.on_change(info.id)

    def leave(self, person: Person, table_id: str) -> None:
        """``person`` leaves the table: before the start their seat is free again (the
        table is abandoned when nobody is left); in play a computer player plays it for them
        until they come back (unless they are the last person there)."""
        info = self.info(table_id)
        seat = info.seat_of(person)
        if seat is None:
            raise LobbyError.of("online.no_seat")
        if info.status == "open":
            with self.db.session() as session:
                found = session.get(SeatRow, (table_id, seat))
                if found is not None:
                    session.delete(found)
                session.flush()
                left = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
                row = session.get(TableRow, table_id)
                if row is not None and not left:
                    row.status = "abandoned"
                elif row is not None and row.owner_id == person.id:
                    row.owner_id = left[0].user_id
        elif info.status == "playing":
            self.hand_over(table_id, seat)
        self.on_change(table_id)

    def hand_over(self, table_id: str, seat: int) -> bool:
        """A computer player plays person ``seat``'s seat from now on (they left, or have
        been away too long); whether it does (not for the last person at the table)."""
        computer = self.accounts.computer(self.info(table_id).level).id
        with self._lock:
            table = self.tables.get(table_id)
            if table is not None:
                if seat not in table.humans or len(table.humans) == 1:
                    return False
                table.seat_computer(seat)
        with self.db.session() as session:
            present = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.present.is_(True))
            ).all()
            people = [s for s in present if s.user_id != computer]
            if table is None and len(people) <= 1:
                return False
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(present=False)
            )
        self.on_change(table_id)
        return True

    # ------------------------------------------------------------------ play

    def start(self, person: Person, table_id: str) -> OnlineTable:
        """Start an open table's match (its owner, or anyone seated once the three seats
        are taken): computer players of the table's level take the empty seats."""
        info = self.info(table_id)
        if info.status != "open":
            raise LobbyError.of("online.started")
        mine = info.seat_of(person)
        full = not info.free
        if mine is None or not (full or self._owner(table_id) == person.id):
            raise LobbyError.of("online.owner_starts")
        computer = self.accounts.computer(info.level)
        with self.db.session() as session:
            row = session.get(TableRow, table_id, with_for_update=True)
            if row is None or row.status != "open":
                raise LobbyError.of("online.started")
            for seat in info.free:
                session.add(
                    SeatRow(table_id=table_id, seat=seat, user_id=computer.id, present=True)
                )
            for found in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)):
                if found.user_id != computer.id:
                    found.token = secrets.token_urlsafe(24)
            row.status = "playing"
            row.process = self.process
            row.beat = now()
            pace = json.loads(row.save or "{}").get("pace", DEFAULT_PACE)
            row.save = None
            seed = row.seed
        people = {s.seat for s in info.seats if s.kind in ("person", "guest")}
        tr = Translator(info.lang)
        host = min(people)
        names = list(default_names(tr, host, people))
        for s in people:
            names[s] = info.seats[s].name or names[s]
        rules = Rules.parse(info.rules).with_options({"length": info.deals})
        match = Match(rules, seed, (names[0], names[1], names[2]))
        settings = PlaySettings(lang=info.lang, analysis=False, pace=pace)
        saved = SavedMatch(match, table_id, host, info.level, settings)
        table = self._open(table_id, saved, people)
        self.on_change(table_id)
        return table

    def _owner(self, table_id: str) -> int | None:
        with self.db.session() as session:
            row = session.get(TableRow, table_id)
            return row.owner_id if row is not None else None

    def _open(self, table_id: str, saved: SavedMatch, people: set[int]) -> OnlineTable:
        try:
            table = OnlineTable(table_id, saved, people, self._keeper(table_id))
        except WriteError as exc:
            raise LobbyError(str(exc)) from None
        with self.db.session() as session:
            rows = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id))
            table.tokens = {row.seat: row.token for row in rows if row.token is not None}
        with self._lock:
            self.tables[table_id] = table
        return table

    def find_seat(self, token: str) -> tuple[str, int, int] | None:
        """The table, seat and person a seat's token opens, or None."""
        if not isinstance(token, str) or not 0 < len(token) <= 64:
            return None
        with self.db.session() as session:
            row = session.scalar(select(SeatRow).where(SeatRow.token == token))
            return (row.table_id, row.seat, row.user_id) if row is not None else None

    def seat_token(self, table_id: str, seat: int) -> str | None:
        """The token of a person's seat at a table in play."""
        with self.db.session() as session:
            row = session.get(SeatRow, (table_id, seat))
            return row.token if row is not None else None

    def owner(self, table_id: str) -> str | None:
        """The live process that plays ``table_id``, or None (nobody, or a process that has
        been silent too long or has ended on this machine: the table may be opened here)."""
        with self.db.session() as session:
            row = session.get(TableRow, table_id)
            if row is None or row.status != "playing" or not row.process:
                return None
            beat = row.beat
            process = row.process
        beat = _utc(beat) if beat is not None else None
        if beat is None or beat < now() - _seconds(STALE_SECONDS) or _dead_here(process):
            return None
        return process

    def sync_seats(self, table_id: str) -> bool:
        """Bring the seats of ``table_id``, if this process plays it, in line with the
        database (another process took a person's leave or return); whether one changed."""
        table = self.tables.get(table_id)
        if table is None:
            return False
        computer = self.accounts.computer(self.info(table_id).level).id
        with self.db.session() as session:
            rows = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
        changed = False
        with self._lock:
            for row in rows:
                if row.user_id == computer:
                    continue
                if row.present and row.seat in table.computers:
                    table.seat_person(row.seat)
                    changed = True
                elif not row.present and row.seat in table.humans and len(table.humans) > 1:
                    table.seat_computer(row.seat)
                    changed = True
        return changed

    def open_table(self, table_id: str) -> OnlineTable:
        """The table in play ``table_id``, in this process: the one open here, or its save
        replayed from the database when its process is this one or has gone silent
        (:data:`STALE_SECONDS`); LobbyError if another live process plays it or it is not
        in play."""
        with self._lock:
            if table_id in self.tables:
                return self.tables[table_id]
            computer = self.accounts.computer(self.info(table_id).level).id
            stamp = now()
            stale = stamp - _seconds(STALE_SECONDS)
            with self.db.session() as session:
                owner = session.scalar(select(TableRow.process).where(TableRow.id == table_id))
                if owner and _dead_here(owner):  # its process on this machine has ended
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == table_id, TableRow.process == owner)
                        .values(process=None)
                    )
            with self.db.session() as session:
                claimed = session.execute(
                    update(TableRow)
                    .where(
                        TableRow.id == table_id,
                        TableRow.status == "playing",
                        or_(
                            TableRow.process.is_(None),
                            TableRow.process == self.process,
                            TableRow.beat < stale,
                        ),
                    )
                    .values(process=self.process, beat=stamp)
                )
                if not getattr(claimed, "rowcount", 0):
                    row = session.get(TableRow, table_id)
                    if row is None or row.status != "playing":
                        raise LobbyError(f"no table in play {quote(table_id)}")
                    raise LobbyError(
                        f"table {table_id} is played by another server ({row.process})"
                    )
                row = session.get(TableRow, table_id)
                assert row is not None
                text = row.save
                present = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
            if text is None:
                raise LobbyError(f"table {table_id} has no save to resume")
            try:
                saved = from_json(json.loads(text))
            except (SaveError, ValueError) as exc:
                raise LobbyError(f"table {table_id}'s save can't be resumed: {exc}") from None
            people = {s.seat for s in present if s.user_id != computer and s.present}
            if not people:  # everyone away: the seats wait for their people, played by nobody
                people = {s.seat for s in present if s.user_id != computer}
            _log.info(
                "table %s resumed by %s at decision %d",
                table_id,
                self.process,
                len(saved.match.snapshot().decisions),
            )
            return self._open(table_id, saved, people)

    def close_table(self, table_id: str) -> None:
        """Take a table out of this process (saved; its row no longer names this process, so
        any process may open it again)."""
        with self._lock:
            table = self.tables.pop(table_id, None)
        if table is not None:
            try:
                table.close()
            finally:
                with self.db.session() as session:
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == table_id, TableRow.process == self.process)
                        .values(process=None)
                    )

    def beat(self) -> None:
        """Tell the database that this process still plays its tables."""
        with self._lock:
            ids = list(self.tables)
        if ids:
            with self.db.session() as session:
                session.execute(
                    update(TableRow)
                    .where(TableRow.id.in_(ids), TableRow.process == self.process)
                    .values(beat=now())
                )

    def orphans(self) -> list[str]:
        """Tables in play whose process has gone silent (to be resumed by this one)."""
        stale = now() - _seconds(STALE_SECONDS)
        with self.db.session() as session:
            return list(
                session.scalars(
                    select(TableRow.id).where(
                        TableRow.status == "playing",
                        or_(TableRow.beat < stale, TableRow.process.is_(None)),
                    )
                )
            )

    def close(self) -> None:
        """Close every table of this process (a server stopping)."""
        for table_id in list(self.tables):
            try:
                self.close_table(table_id)
            except (WriteError, DatabaseError) as exc:
                _log.error("%s", exc)

    # ------------------------------------------------------------------ the save

    def _keeper(self, table_id: str) -> Callable[[SavedMatch], None]:
        def keep(saved: SavedMatch) -> None:
            text = json.dumps(to_json(saved), ensure_ascii=False)
            try:
                with self.db.session() as session:
                    row = session.get(TableRow, table_id)
                    if row is None or row.process != self.process:
                        owner = row.process if row is not None else "nobody"
                        raise WriteError(
                            f"table {table_id} is played by another server now ({owner})"
                        )
                    row.save = text
                    row.updated = row.beat = now()
                    if saved.match.done and row.status == "playing":
                        row.status = "finished"
                        self._record(session, row, saved.match, text)
            except DatabaseError as exc:
                raise WriteError(f"table {table_id} can't be saved: {exc}") from None
            if saved.match.done:
                self.on_change(table_id)

        return keep

    def _record(self, session: Any, row: TableRow, match: Match, text: str) -> None:
        """A finished match: its row, each seat's place, and the new ratings."""
        seats = {
            s.seat: s.user_id
            for s in session.scalars(select(SeatRow).where(SeatRow.table_id == row.id))
        }
        places = standings(match.totals, match.winner)
        record = MatchRow(
            table_id=row.id,
            preset=row.preset,
            deals=row.deals,
            ended=now(),
            save=text,
            record=json.dumps(match_record(match), ensure_ascii=False),
        )
        session.add(record)
        session.flush()
        kept: dict[int, RatingRow] = {}
        for user in seats.values():
            if user not in kept:
                found = session.get(RatingRow, (user, row.preset))
                if found is None:
                    found = RatingRow(
                        user_id=user,
                        preset=row.preset,
                        mu=Skill().mu,
                        sigma=Skill().sigma,
                        matches=0,
                    )
                    session.add(found)
                kept[user] = found
        before = [Skill(kept[seats[s]].mu, kept[seats[s]].sigma) for s in range(3)]
        after = rate(before, places)
        for seat in reversed(range(3)):
            # Two seats of one computer level: the first seat's result is its rating's.
            rating = kept[seats[seat]]
            rating.mu, rating.sigma = after[seat].mu, after[seat].sigma
        for rating in kept.values():
            rating.matches += 1
        for seat in range(3):
            session.add(
                PlaceRow(
                    match_id=record.id,
                    seat=seat,
                    user_id=seats[seat],
                    name=match.names[seat],
                    total=match.totals[seat],
                    place=places[seat],
                    before=conservative(before[seat]),
                    after=conservative(after[seat]),
                )
            )

    # ------------------------------------------------------------------ ratings

    def leaderboard(self, preset: str, size: int = 50) -> list[dict[str, Any]]:
        """The best conservative ratings under ``preset`` (people and computer levels; a
        guest plays once, so is not listed)."""
        if preset not in PRESETS:
            raise LobbyError(f"no rules {quote(preset)} (one of {', '.join(PRESETS)})")
        with self.db.session() as session:
            rows = session.execute(
                select(RatingRow, UserRow)
                .join(UserRow, UserRow.id == RatingRow.user_id)
                .where(RatingRow.preset == preset, UserRow.kind != "guest")
            ).all()
        rated = sorted(
            ((conservative(Skill(r.mu, r.sigma)), r.matches, user) for r, user in rows),
            key=lambda x: (-x[0], -x[1], x[2].name),
        )
        return [
            {"name": user.name, "kind": user.kind, "rating": number, "matches": matches}
            for number, matches, user in rated[:size]
        ]

    def history(self, person: Person, size: int = 50) -> list[dict[str, Any]]:
        """``person``'s finished matches, newest first: the rules, when, every seat's name,
        total and place, and their rating before and after."""
        with self.db.session() as session:
            mine = session.execute(
                select(PlaceRow, MatchRow)
                .join(MatchRow, MatchRow.id == PlaceRow.match_id)
                .where(PlaceRow.user_id == person.id)
                .order_by(MatchRow.ended.desc())
                .limit(size)
            ).all()
            out = []
            for place, match in mine:
                seats = session.scalars(
                    select(PlaceRow).where(PlaceRow.match_id == match.id).order_by(PlaceRow.seat)
                ).all()
                out.append(
                    {
                        "table": match.table_id,
                        "rules": match.preset,
                        "deals": match.deals,
                        "ended": _utc(match.ended).isoformat(timespec="seconds"),
                        "seat": place.seat,
                        "place": place.place,
                        "total": place.total,
                        "before": place.before,
                        "after": place.after,
                        "players": [
                            {"seat": s.seat, "name": s.name, "total": s.total, "place": s.place}
                            for s in seats
                        ],
                    }
                )
            return out

    def record(self, person: Person, table_id: str) -> dict[str, Any]:
        """The record of ``person``'s finished match at ``table_id``, as their seat may
        know it (:func:`ts358.bots.record.redacted_record`: the other hands of each deal
        stay hidden); LobbyError if they played no finished match there."""
        with self.db.session() as session:
            found = session.execute(
                select(PlaceRow.seat, MatchRow.save)
                .join(MatchRow, MatchRow.id == PlaceRow.match_id)
                .where(MatchRow.table_id == table_id, PlaceRow.user_id == person.id)
            ).first()
        if found is None:
            raise LobbyError(f"you played no finished match at table {quote(table_id)}")
        seat, text = found
        return redacted_record(from_json(json.loads(text)).match, seat)

    def rating(self, person: Person, preset: str) -> dict[str, Any]:
        """``person``'s rating under ``preset``: the conservative number and the matches."""
        with self.db.session() as session:
            row = session.get(RatingRow, (person.id, preset))
        skill = Skill(row.mu, row.sigma) if row is not None else Skill()
        return {"rating": conservative(skill), "matches": row.matches if row is not None else 0}


def _utc(when: Any) -> Any:
    """A time from the database in UTC (SQLite gives it back without its zone)."""
    return when.replace(tzinfo=now().tzinfo) if when.tzinfo is None else when


def _dead_here(process: str) -> bool:
    """Whether ``process`` (:func:`process_name`) ran on this machine and has ended."""
    parts = process.split(":")
    if len(parts) != 3 or parts[0] != _machine():
        return False
    try:
        os.kill(int(parts[-2]), 0)
    except ProcessLookupError:
        return True
    except (OSError, ValueError):
        return False
    return False


def _seconds(count: float) -> Any:
    import datetime as _dt

    return _dt.timedelta(seconds=count)
