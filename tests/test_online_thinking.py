"""The computer players thinking in worker processes (ts358.online.thinking): the same
decisions as at the table's own seat, a dead worker costing nothing, and a whole online
match played with the thinking off the web process."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
from starlette.testclient import TestClient

from online_helpers import lobby, person_decision
from ts358.match import Match
from ts358.online.app import create_public_app
from ts358.online.thinking import Thinkers
from ts358.rules import Rules
from ts358.table.saves import PlaySettings, SavedMatch
from ts358.web.table import Table

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture(scope="module")
def thinkers():
    pool = Thinkers("processes", processes=2)
    yield pool
    pool.close()


def computer_decisions(level: str, seed: int, limit: int, thinkers: Thinkers) -> int:
    """Play a match with ``level`` computers at seats 1 and 2, asking the worker processes
    for each of their decisions as well as the seat itself: they must agree."""
    rules = Rules.parse("house").with_options({"length": 3})
    saved = SavedMatch(Match(rules, seed), "t", 0, level, PlaySettings(analysis=False))
    table = Table(saved, None, {0}, stats=False)
    compared = 0
    while not table.match.done and compared < limit:
        pending = table.computer_due()
        if pending is not None:
            job = thinkers.job(table.computers[pending.seat], pending, table.step)
            assert job is not None
            there = asyncio.run(thinkers.think(job))
            here = table.think(pending)
            assert there == here, f"decision {table.step}: {there} in a worker, {here} here"
            table.apply_computer(pending, here)
            compared += 1
        elif table.waiting:
            table.go_on(0)
        else:
            table.decide(0, person_decision(table, 0))
    return compared


@pytest.mark.parametrize(
    "level, seed, limit", [("easy", 3, 200), ("medium", 4, 200), ("hard", 5, 8)]
)
def test_a_worker_makes_the_seats_own_decision(level, seed, limit, thinkers):
    assert computer_decisions(level, seed, limit, thinkers) >= min(limit, 40)


def test_a_dead_worker_costs_nothing(thinkers):
    computer_decisions("easy", 7, 2, thinkers)  # the pool is up
    for pid in list(thinkers._executor._processes):  # type: ignore[union-attr]
        os.kill(pid, signal.SIGKILL)
    assert computer_decisions("easy", 8, 30, thinkers) == 30


def test_thinking_in_threads_is_the_seats_own():
    assert Thinkers("threads").job(None, None, 0) is None  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="processes, threads or dask"):
        Thinkers("gpu")


def test_an_online_match_with_the_computers_in_worker_processes(tmp_path):
    _, accounts, rooms = lobby(f"sqlite:///{tmp_path}/online.db")
    pool = Thinkers("processes", processes=2)
    app = create_public_app(rooms, accounts, public_url="http://testserver", thinkers=pool)
    with TestClient(app) as client:
        csrf = client.post(
            "/api/signup", json={"name": "Ala", "password": "password1"}, headers=ORIGIN
        ).json()["csrf"]
        headers = {**ORIGIN, "X-CSRF-Token": csrf}
        table_id = client.post(
            "/api/tables", json={"deals": 3, "level": "medium", "pace": 0}, headers=headers
        ).json()["table"]["id"]
        client.post(f"/api/tables/{table_id}/start", json={}, headers=headers)
        token = client.post(f"/api/tables/{table_id}/play", json={}, headers=headers).json()[
            "token"
        ]
        table = rooms.tables[table_id]
        with client.websocket_connect("/ws", headers=ORIGIN) as socket:
            socket.send_json({"type": "join", "token": token})
            while True:
                message = socket.receive_json()
                if message["type"] != "state":
                    continue
                if message["phase"] == "finished":
                    break
                if message["phase"] == "summary" and not message["ready"]:
                    socket.send_json({"type": "next"})
                elif message["decision"] is not None:
                    answer = person_decision(table, 0)
                    socket.send_json(_message(message["decision"], answer))
    assert rooms.info(table_id).status == "finished"
    assert pool._executor is None  # closed with the app
    # The web process never made the computer players (nor their solvers' tables).
    assert [c.made for c in table.computers.values()] == [None, None]


def _message(kind: str, answer) -> dict:
    if kind == "choose":
        return {"type": "choose", "game": answer.label}
    if kind == "give":
        return {"type": "stop"} if answer is None else {"type": "give", "card": str(answer)}
    if kind == "discard":
        return {"type": "discard", "cards": [str(c) for c in answer]}
    return {"type": kind, "card": str(answer)}


def test_thinking_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        pool = Thinkers(scheduler=cluster.scheduler_address)
        try:
            assert pool.kind == "dask"
            assert computer_decisions("medium", 9, 20, pool) == 20
        finally:
            pool.close()
