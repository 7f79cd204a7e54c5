"""``ts358 serve --public`` as a real process: killed (SIGKILL) in the middle of a match, its
table resumed by another server process on the same database with every decision kept, the
person's session still good there; the match then played to the end and rated. On SQLite
and on a real PostgreSQL (tests/services.py)."""

from __future__ import annotations

import os
import signal
import time

from online_helpers import (
    Browser,
    play_for,
    saved_decisions,
    start_server,
    stop,
)


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
