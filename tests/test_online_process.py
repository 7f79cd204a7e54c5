"""``ts358 serve --public`` as a real process: killed (SIGKILL) in the middle of a match, its
table resumed by another server process on the same database with every decision kept, the
person's session still good there; the match then played to the end and rated. On SQLite
and on a real PostgreSQL (tests/services.py)."""

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(db_url: str, home) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "TS358_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ts358", "serve", "--public", "--db", db_url, "--port", str(port)],
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


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/online.db"
    return request.getfixturevalue("postgres_db")


def test_a_killed_server_process_loses_no_decision(db_url, tmp_path):
    first, url = start_server(db_url, tmp_path)
    try:
        ala = Browser(url)
        ala.post("/api/signup", {"name": "Ala", "password": "password1"})
        table = ala.post("/api/tables", {"deals": 3, "level": "easy", "pace": 0})["table"]
        ala.post(f"/api/tables/{table['id']}/start")
        token = ala.post(f"/api/tables/{table['id']}/play")["token"]
        ws = ala.seat(token)
        play_for(ws, 6)
        time.sleep(0.5)  # the computers' decisions after my last one, saved with my next
        before = saved_decisions(db_url, table["id"])
        assert len(before) >= 6
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
        ws.close()
    finally:
        stop(first)
    second, url2 = start_server(db_url, tmp_path)
    try:
        back = Browser(url2, cookies=ala.http.cookies)  # the session is in the database
        assert back.http.get("/api/me").json()["person"]["name"] == "Ala"
        back.csrf = back.http.get("/api/me").json()["csrf"]
        token = back.post(f"/api/tables/{table['id']}/play")["token"]
        ws = back.seat(token)
        after = saved_decisions(db_url, table["id"])
        assert after[: len(before)] == before  # every decision kept
        play_for(ws, None)
        ws.close()
        finished = back.http.get(f"/api/tables/{table['id']}").json()["table"]
        assert finished["status"] == "finished"
        (entry,) = back.http.get("/api/history").json()["history"]
        assert entry["table"] == table["id"] and entry["after"] != entry["before"]
        assert saved_decisions(db_url, table["id"])[: len(before)] == before
    finally:
        stop(second)
