"""The online server's lobby, people, ratings and storage (ts358.online), on SQLite and on a
real PostgreSQL (tests/services.py): tables made, sat at, left, started and played to the
end, the matches recorded and rated, a table taken over from a process that died."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select, text, update

from online_helpers import lobby, play
from ts358.match import standings
from ts358.online.accounts import AccountError
from ts358.online.db import Database, DatabaseError
from ts358.online.ratings import Skill, conservative, rate
from ts358.online.rooms import LobbyError, TableOptions
from ts358.online.schema import Base, MatchRow, RatingRow, TableRow, UserRow
from ts358.record import replay
from ts358.table.saves import WriteError

# ---------------------------------------------------------------------- the database


def test_the_migrations_make_exactly_the_schema(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    db, _, _ = lobby(db_url)
    db.migrate()  # again: nothing to do
    with db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    assert {"users", "sessions", "tables", "seats", "matches", "places", "ratings"} <= set(
        db.tables()
    )


def test_sqlite_is_written_ahead(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/sub/online.db")  # the folder is made
    db.migrate()
    with db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.mark.parametrize(
    "bad, words",
    [
        ("not a db_url", "not a database URL"),
        ("nosuchdb://x/y", "no driver"),
        ("postgresql+psycopg://nobody@127.0.0.1:1/none", "can't open the database"),
    ],
)
def test_a_bad_database_is_one_line(bad, words):
    with pytest.raises(DatabaseError, match=words) as caught:
        Database(bad).migrate()
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------------- people


def test_people_sign_up_and_in_with_passwords_kept_as_hashes(db_url):
    db, accounts, _ = lobby(db_url)
    ala = accounts.sign_up("  Ala   Kot ", "correct horse")
    assert ala.name == "Ala Kot" and ala.kind == "person"
    assert accounts.sign_in("ala kot", "correct horse") == ala  # case and spaces folded
    for name, password in (("Ala Kot", "wrong horse"), ("Nobody", "correct horse"), (3, "x")):
        with pytest.raises(AccountError, match=r"^wrong name or password$"):
            accounts.sign_in(name, password)
    with pytest.raises(AccountError, match="taken"):
        accounts.sign_up("ALA KOT", "another one")
    with pytest.raises(AccountError, match="8-200"):
        accounts.sign_up("Bob", "short")
    with pytest.raises(AccountError, match="printed"):
        accounts.sign_up("Bob\x1b[31m", "long enough")
    with db.session() as session:
        kept = session.scalar(select(UserRow.password).where(UserRow.id == ala.id))
    assert kept.startswith("scrypt$") and "correct horse" not in kept


def test_guests_and_sessions(db_url):
    _, accounts, _ = lobby(db_url)
    ala = accounts.sign_up("Ala", "correct horse")
    one, two = accounts.guest("Ala"), accounts.guest("Ala")  # never a person's, never shared
    assert one.guest and one.name == "Ala" and len({ala.id, one.id, two.id}) == 3
    token, csrf = accounts.open_session(ala)
    assert accounts.session(token) == (ala, csrf)
    assert accounts.session(token + "x") is None and accounts.session(None) is None
    accounts.close_session(token)
    assert accounts.session(token) is None
    old, _ = accounts.open_session(ala, days=-1)
    assert accounts.session(old) is None
    assert accounts.computer("hard") == accounts.computer("hard")


# ---------------------------------------------------------------------- ratings


def test_ratings_follow_openskill_plackett_luce():
    model = PlackettLuce()
    start = [Skill(25.0, 8.0), Skill(30.0, 5.0), Skill(20.0, 7.0)]
    for places in ([1, 2, 3], [2, 1, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1]):
        expected = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in start], ranks=places)
        got = rate(start, places)
        for skill, team in zip(got, expected, strict=True):
            assert skill.mu == pytest.approx(team[0].mu)
            assert skill.sigma == pytest.approx(team[0].sigma)
    tied = rate([Skill(), Skill(), Skill()], [1, 1, 3])
    assert tied[0] == tied[1] and conservative(tied[0]) > conservative(tied[2])
    with pytest.raises(ValueError):
        rate([Skill()], [1])


# ---------------------------------------------------------------------- the lobby


def test_seats_are_taken_left_and_the_table_is_started(db_url):
    _, accounts, rooms = lobby(db_url)
    ala, bob, cyd, dan = (
        accounts.sign_up(n, "password " + n) for n in ("Ala", "Bob", "Cyd", "Dan")
    )
    info = rooms.create(ala, TableOptions(deals=3, level="easy", private=False))
    assert info.status == "open" and info.free == [1, 2] and info.seat_of(ala) == 0
    assert rooms.sit(bob, info.id, 2) == 2
    with pytest.raises(LobbyError, match="taken"):
        rooms.sit(cyd, info.id, 2)
    with pytest.raises(LobbyError, match="you sit at seat 2 of this table already"):
        rooms.sit(bob, info.id, 1)
    with pytest.raises(LobbyError, match="owner"):
        rooms.start(bob, info.id)  # not the owner, and a seat is free
    assert rooms.sit(cyd, info.id) == 1
    with pytest.raises(LobbyError, match="full"):
        rooms.sit(dan, info.id)
    rooms.leave(ala, info.id)  # the owner leaves: the table passes on
    after = rooms.info(info.id)
    assert after.free == [0] and after.owner in ("Bob", "Cyd")
    assert rooms.sit(dan, info.id) == 0
    table = rooms.start(cyd, info.id)  # full: anyone seated starts it
    assert rooms.info(info.id).status == "playing" and table.humans == {0, 1, 2}
    assert table.match.names == ("Dan", "Cyd", "Bob")
    with pytest.raises(LobbyError, match="watch"):
        rooms.sit(ala, info.id)


def test_an_open_table_left_by_everyone_is_abandoned_and_private_tables_are_unlisted(db_url):
    _, accounts, rooms = lobby(db_url)
    ala, bob = accounts.sign_up("Ala", "password a"), accounts.sign_up("Bob", "password b")
    public = rooms.create(ala, TableOptions())
    secret = rooms.create(ala, TableOptions(private=True))
    assert [t.id for t in rooms.listing(bob)] == [public.id]
    assert {t.id for t in rooms.listing(ala)} == {public.id, secret.id}
    assert [t.id for t in rooms.listing(None)] == [public.id]
    rooms.sit(bob, secret.id)  # its link is enough
    assert {t.id for t in rooms.listing(bob)} == {public.id, secret.id}
    rooms.leave(ala, public.id)
    assert rooms.info(public.id).status == "abandoned"
    assert public.id not in {t.id for t in rooms.listing(None)}
    with pytest.raises(LobbyError, match="no seat"):
        rooms.leave(bob, public.id)


@pytest.mark.parametrize(
    "data, words",
    [
        ({"rules": "chess"}, "'rules' must be one of"),
        ({"deals": 7}, "'deals' must be one of"),
        ({"level": "god"}, "'level'"),
        ({"private": "yes"}, "'private'"),
        ({"pace": 99}, "'pace'"),
        ({"colour": "red"}, "unknown option"),
        ([], "JSON object"),
    ],
)
def test_bad_table_options_are_one_line(data, words):
    with pytest.raises(LobbyError, match=words):
        TableOptions.from_json(data)


def test_a_match_played_to_the_end_is_recorded_and_rated(db_url):
    db, accounts, rooms = lobby(db_url)
    ala, bob = accounts.sign_up("Ala", "password a"), accounts.sign_up("Bob", "password b")
    info = rooms.create(ala, TableOptions(deals=3, level="easy", rules="kurnik"))
    rooms.sit(bob, info.id)
    table = rooms.start(ala, info.id)
    play(table)
    assert rooms.info(info.id).status == "finished"
    totals = table.match.totals
    places = standings(totals, table.match.winner)
    # The ratings are OpenSkill's for the places, each player's first match under kurnik.
    expected = rate([Skill(), Skill(), Skill()], places)
    for person, seat in ((ala, 0), (bob, 1)):
        rating = rooms.rating(person, "kurnik")
        assert rating == {"rating": conservative(expected[seat]), "matches": 1}
        assert rooms.rating(person, "house") == {"rating": 0.0, "matches": 0}
        (entry,) = rooms.history(person)
        assert entry["table"] == info.id and entry["rules"] == "kurnik" and entry["deals"] == 3
        assert entry["seat"] == seat and entry["place"] == places[seat]
        assert entry["total"] == totals[seat]
        assert [p["name"] for p in entry["players"]] == list(table.match.names)
        assert entry["before"] == 0.0 and entry["after"] == conservative(expected[seat])
    board = rooms.leaderboard("kurnik")
    assert {r["name"] for r in board} == {"Ala", "Bob", "easy"}
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    with db.session() as session:
        saved = json.loads(session.get(TableRow, info.id).save)
        kept = session.scalar(select(MatchRow.record).where(MatchRow.table_id == info.id))
    assert saved["finished"] and saved["totals"] == list(totals)
    # The record kept is the match's (ts358.record replays it to the same totals) ...
    assert replay(json.loads(kept)).totals == totals
    # ... and each person is given it as their seat may know it.
    for person, seat in ((ala, 0), (bob, 1)):
        mine = rooms.record(person, info.id)
        assert mine["totals"] == list(totals) and len(mine["deals"]) == 3
        for deal in mine["deals"]:
            assert [hand is not None for hand in deal["hands"]] == [s == seat for s in range(3)]
    with pytest.raises(LobbyError, match="no finished match"):
        rooms.record(accounts.sign_up("Cyd", "password c"), info.id)
    with pytest.raises(LobbyError):
        rooms.leaderboard("chess")


def test_a_person_who_leaves_is_played_for_and_takes_the_seat_back(db_url):
    _, accounts, rooms = lobby(db_url)
    ala, bob = accounts.sign_up("Ala", "password a"), accounts.sign_up("Bob", "password b")
    info = rooms.create(ala, TableOptions(deals=3, level="easy"))
    rooms.sit(bob, info.id)
    table = rooms.start(ala, info.id)
    play(table, until_decisions=8)
    rooms.leave(bob, info.id)
    assert 1 in table.computers and table.humans == {0}
    assert not rooms.info(info.id).seats[1].present
    assert not rooms.hand_over(info.id, 0)  # the last person is never replaced
    with pytest.raises(LobbyError):
        rooms.sit(bob, info.id, 2)
    assert rooms.sit(bob, info.id) == 1  # back
    assert table.humans == {0, 1} and 1 not in table.computers
    assert rooms.info(info.id).seats[1].present
    play(table)
    assert rooms.info(info.id).status == "finished"
    assert rooms.rating(bob, "house")["matches"] == 1  # the seat stayed his


def test_a_table_is_taken_over_from_a_silent_process_with_every_decision(db_url, tmp_path):
    db, accounts, first = lobby(db_url, process="first:1:a")
    ala = accounts.sign_up("Ala", "password a")
    info = first.create(ala, TableOptions(deals=3, level="easy"))
    table = first.start(ala, info.id)
    play(table, until_decisions=20)
    decisions = table.match.snapshot().decisions
    _, _, second = lobby(db_url, process="second:2:b")
    with pytest.raises(LobbyError, match="another server"):
        second.open_table(info.id)  # the first is alive
    with db.session() as session:  # ... until it has been silent long enough
        session.execute(
            update(TableRow)
            .where(TableRow.id == info.id)
            .values(beat=dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5))
        )
    assert info.id in second.orphans()
    resumed = second.open_table(info.id)
    assert resumed.match.snapshot().decisions == decisions
    table._written = -1  # the first process's next save is refused: the table is not its
    with pytest.raises(WriteError, match="another server"):
        table.keep()
    play(resumed)
    # The same match as one never interrupted (the same seed, the same people's decisions).
    with db.session() as session:
        seed = session.get(TableRow, info.id).seed
    _, accounts2, alone = lobby(f"sqlite:///{tmp_path}/alone.db")
    ala2 = accounts2.sign_up("Ala", "password a")
    info2 = alone.create(ala2, TableOptions(deals=3, level="easy"))
    with alone.db.session() as session:
        session.get(TableRow, info2.id).seed = seed
    whole = alone.start(ala2, info2.id)
    play(whole)
    assert whole.match.snapshot().decisions == resumed.match.snapshot().decisions


def test_two_seats_of_one_computer_level_count_one_match(db_url):
    db, accounts, rooms = lobby(db_url)
    ala = accounts.sign_up("Ala", "password a")
    info = rooms.create(ala, TableOptions(deals=3, level="easy"))
    play(rooms.start(ala, info.id))
    computer = accounts.computer("easy")
    with db.session() as session:
        row = session.get(RatingRow, (computer.id, "house"))
        assert row.matches == 1
