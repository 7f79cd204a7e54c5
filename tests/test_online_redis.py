"""Two ``ts358 serve --public`` processes on one database and one Redis (real servers, from
tests/services.py): either serves the lobby, a person on the process that does not play
their table reaches it through the other (over Redis), each seeing only their own cards,
and the match is played to the end and rated."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed

from online_helpers import (
    Browser,
    answer,
    play_for,
    saved_decisions,
    start_server,
    stop,
)


def play_seat(ws, seen: list[dict], errors: list[BaseException]) -> None:
    """Answer the table's states to the match's end, keeping every state."""
    try:
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] != "state":
                continue
            seen.append(message)
            if message["phase"] == "finished":
                return
            reply = answer(message)
            if reply is not None:
                ws.send(json.dumps(reply))
    except BaseException as exc:  # handed to the test
        errors.append(exc)


@pytest.fixture
def two_processes(db_url, redis_clean_url, tmp_path):
    """Two servers on the database and Redis: (process, URL) each, stopped after the test."""
    started = [start_server(db_url, tmp_path, "--redis", redis_clean_url) for _ in range(2)]
    try:
        yield started
    finally:
        for process, _ in started:
            stop(process)


def test_two_processes_share_the_lobby_and_relay_a_seat(db_url, two_processes):
    (one, url1), (_, url2) = two_processes
    ala = Browser(url1)
    ala.post("/api/signup", {"name": "Ala", "password": "password1"})
    bob = Browser(url2)
    bob.post("/api/signup", {"name": "Bob", "password": "password2"})
    table = ala.post("/api/tables", {"deals": 3, "level": "easy", "pace": 0})["table"]
    listed = bob.http.get("/api/tables").json()["tables"]  # the other process's lobby
    assert [t["id"] for t in listed] == [table["id"]]
    bob.post(f"/api/tables/{table['id']}/sit", {"seat": 1})
    ala.post(f"/api/tables/{table['id']}/start")  # process one plays the table
    seats = {}
    for name, browser in (("Ala", ala), ("Bob", bob)):
        seats[name] = browser.seat(browser.post(f"/api/tables/{table['id']}/play")["token"])
    # Presence crosses processes: Ala, seen by process one only, is online on two.
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        listed = bob.http.get("/api/tables").json()
        if listed["tables"][0]["seats"][0]["online"]:
            break
        time.sleep(0.5)
    assert listed["tables"][0]["seats"][0]["online"] and listed["online"] >= 2
    assert not listed["tables"][0]["seats"][2]["online"]  # a computer
    states: dict[str, list[dict]] = {"Ala": [], "Bob": []}
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=play_seat, args=(seats[n], states[n], errors)) for n in seats
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(240)
    assert not errors, errors
    for name, seat in (("Ala", 0), ("Bob", 1)):
        assert states[name][-1]["phase"] == "finished"
        assert {s["seat"] for s in states[name]} == {seat}
        names = [row["name"] for row in states[name][-1]["seats"]]
        assert names[:2] == ["Ala", "Bob"]
    # Each page held its own cards only: what both held in a deal went between them in
    # the exchange.
    held: dict[str, dict[int, set[str]]] = {"Ala": {}, "Bob": {}}
    swapped: dict[int, set[str]] = {}
    for name in held:
        for state in states[name]:
            deal = state.get("deal")
            if deal is None:
                continue
            held[name].setdefault(deal, set()).update(h["card"] for h in state["hand"])
            for step in state.get("exchanges") or []:
                for key in ("given", "returned"):
                    swapped.setdefault(deal, set()).update(str(step[key] or "").split())
    assert held["Ala"] and held["Bob"]
    for deal, cards in held["Ala"].items():
        assert cards & held["Bob"].get(deal, set()) <= swapped.get(deal, set())
    for browser in (ala, bob):
        (entry,) = browser.http.get("/api/history").json()["history"]
        assert entry["table"] == table["id"]
    # Process one played the table throughout: Bob's decisions went through process two.
    engine = create_engine(db_url)
    with engine.connect() as connection:
        owner = connection.execute(
            text("SELECT process FROM tables WHERE id = :id"), {"id": table["id"]}
        ).scalar()
    engine.dispose()
    assert owner.split(":")[1] == str(one.pid)


def test_a_table_lives_on_when_the_process_playing_it_is_killed(db_url, two_processes):
    (one, url1), (_, url2) = two_processes
    ala = Browser(url1)
    ala.post("/api/signup", {"name": "Ala", "password": "password1"})
    table = ala.post("/api/tables", {"deals": 3, "level": "easy", "pace": 0})["table"]
    ala.post(f"/api/tables/{table['id']}/start")  # process one plays it
    back = Browser(url2, cookies=ala.http.cookies)  # Ala's page reaches process two
    token = back.post(f"/api/tables/{table['id']}/play")["token"]
    ws = back.seat(token)
    assert play_for(ws, 5) == 5  # through process two, relayed to one
    before = saved_decisions(db_url, table["id"])
    os.killpg(one.pid, signal.SIGKILL)
    one.wait(10)
    # The relayed page is told to reconnect once process one stops answering ...
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4005
    # ... and reconnecting, finds the table opened by process two, every decision kept.
    ws = back.seat(token)
    assert saved_decisions(db_url, table["id"])[: len(before)] == before
    play_for(ws, None)
    assert back.http.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "finished"
