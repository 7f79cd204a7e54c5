"""Shared by the online server's tests: a database on SQLite or PostgreSQL, its lobby, and a
match played to the end at a table of the lobby by deterministic players."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx2 as httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import connect as ws_connect

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


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A database for a test: an SQLite file, and a new database on the real PostgreSQL
    (tests/services.py)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/online.db"
    return request.getfixturevalue("postgres_db")


def play(table, until_decisions: int | None = None, each=None) -> None:
    """Play ``table`` (people by :func:`person_decision`, computers by their players) to the
    end of the match, or until it has ``until_decisions`` decisions and a person's is due
    (when the save holds every decision made: the computers' are saved with the next
    person's); ``each(table)`` is called before each step."""
    while not table.match.done:
        if each is not None:
            each(table)
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db_url: str, home, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """``ts358 serve --public`` on ``db_url`` in a process of its own (``options`` added),
    and its address, once it answers."""
    port = free_port()
    env = {**os.environ, "TS358_HOME": str(home)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ts358",
            "serve",
            "--public",
            "--db",
            db_url,
            "--port",
            str(port),
            "--thinking",
            "threads",
            *options,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server ended: {process.stdout.read().decode()}")
        try:
            httpx.get(url + "/api/me", timeout=1)
            return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start in 30 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


class Browser:
    """A person's browser: cookies kept, the CSRF token sent with each change."""

    def __init__(self, url: str, cookies: httpx.Cookies | None = None) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, cookies=cookies, headers={"Origin": url})
        self.csrf = self.http.get("/api/me").json()["csrf"]

    def post(self, path: str, body: dict | None = None) -> dict:
        answer = self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf or ""})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        self.csrf = data.get("csrf", self.csrf)
        return data

    def seat(self, token: str):
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        socket_url = self.url.replace("http://", "ws://") + "/ws"
        ws = ws_connect(
            socket_url,
            additional_headers={"Cookie": cookie, "Origin": self.url},
            open_timeout=10,
            legacy=True,
        )
        ws.send(json.dumps({"type": "join", "token": token}))
        return ws


def answer(state: dict) -> dict | None:
    """A legal message for the state (the first legal option), or None."""
    if state["phase"] in ("summary",) and not state["ready"]:
        return {"type": "next"}
    decision = state.get("decision")
    legal = [h["card"] for h in state.get("hand", []) if h["legal"]]
    if decision == "choose":
        return {"type": "choose", "game": next(g["game"] for g in state["games"] if g["available"])}
    if decision == "give":
        return {"type": "stop"}
    if decision == "discard":
        return {"type": "discard", "cards": [h["card"] for h in state["hand"]][:4]}
    if decision in ("return", "play") and legal:
        return {"type": decision, "card": legal[0]}
    return None


def play_for(ws, decisions: int | None) -> int:
    """Answer the table's states until ``decisions`` are made (None: the match's end)."""
    made = 0
    while decisions is None or made < decisions:
        message = json.loads(ws.recv(timeout=60))
        if message["type"] != "state":
            continue
        if message["phase"] == "finished":
            return made
        reply = answer(message)
        if reply is not None:
            ws.send(json.dumps(reply))
            made += reply["type"] != "next"
    return made


def saved_decisions(db_url: str, table_id: str) -> list[str]:
    engine = create_engine(db_url)
    with engine.connect() as connection:
        save = connection.execute(
            text("SELECT save FROM tables WHERE id = :id"), {"id": table_id}
        ).scalar()
    engine.dispose()
    return json.loads(save)["decisions"]
