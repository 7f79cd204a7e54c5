"""A server that stays up (issue 38): one hint at a time per seat and bounded pools, so that a
flood from one seat stalls no other table; floods slowed; numbers refused cleanly; idle
tables closed and their saves released; the pace kept in the save; requests that never
finish their head cut off; ``--host ::`` reachable over IPv4 and IPv6; SIGTERM exits 143
with every match saved. The servers here are real (uvicorn on a free port, configured as
``ts358 serve`` configures it) where the network matters, and the command itself where its
exit matters."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from ts358.table.saves import SaveLock, read_save
from ts358.web import server as web_server
from ts358.web.app import Flood, create_app
from ts358.web.lobby import Lobby
from ts358.web.workers import Busy, WorkPool
from web_support import answer, live_server, receive, send

LOCAL = ("127.0.0.1", 50000)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    return tmp_path


def post(url: str, path: str, data: dict) -> dict:
    request = urllib.request.Request(
        url + path, json.dumps(data).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def seat(url: str, token: str):
    """A WebSocket to the server at ``url``, joined to the seat of ``token`` (the welcome
    read)."""
    ws = ws_connect(url.replace("http://", "ws://") + "/ws", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "join", "token": token}))
    welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome", welcome
    return ws


def text_frame(message: dict) -> bytes:
    """``message`` as one masked WebSocket text frame (what a client sends)."""
    payload = json.dumps(message).encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


# ---------------------------------------------------------------- one table can't stall another


def test_a_hint_flood_is_refused_as_busy_and_stalls_no_other_table(home):
    with live_server(home / "saves") as server:
        flooder = seat(server.url, post(server.url, "/api/tables", {"pace": 0, "seed": 5})["token"])
        honest_token = post(
            server.url, "/api/tables", {"pace": 0.2, "seed": 6, "deals": 18, "analysis": False}
        )["token"]
        state = json.loads(flooder.recv(timeout=30))
        while state.get("decision") is None:
            state = json.loads(flooder.recv(timeout=30))
        arrivals: list[float] = []
        stop = threading.Event()

        def play_honestly() -> None:
            with seat(server.url, honest_token) as ws:
                while not stop.is_set():
                    message = json.loads(ws.recv(timeout=30))
                    arrivals.append(time.monotonic())
                    if message["type"] == "state" and answer(message) is not None:
                        ws.send(json.dumps(answer(message)))

        honest = threading.Thread(target=play_honestly, daemon=True)
        honest.start()
        time.sleep(1.0)
        flood_start = time.monotonic()
        # Sixty hints in one write, as the adversarial test sent them.
        flooder.socket.sendall(b"".join(text_frame({"type": "hint"}) for _ in range(60)))
        replies = [json.loads(flooder.recv(timeout=60)) for _ in range(60)]
        flood_end = time.monotonic()
        time.sleep(1.0)
        stop.set()
        honest.join(40)
        flooder.close()
    kinds = [r["type"] for r in replies]
    busy = [r for r in replies if r["type"] == "error" and "being computed" in r["message"]]
    assert kinds.count("hint") == 1 and len(busy) == 59, kinds
    during = [t for t in arrivals if flood_start - 1 <= t <= flood_end + 1]
    gaps = [b - a for a, b in itertools.pairwise(during)]
    assert len(during) >= 5 and max(gaps) < 1.0, (len(during), max(gaps))


def test_a_flood_of_messages_is_slowed_not_dropped(home):
    app = create_app(Lobby(home / "saves"), base_url="http://127.0.0.1:8358", lang="en")
    with TestClient(app, base_url="http://127.0.0.1:8358", client=LOCAL) as client:
        token = client.post("/api/tables", json={"pace": 0, "seed": 3}).json()["token"]
        with client.websocket_connect("/ws") as ws:
            send(ws, {"type": "join", "token": token})
            receive(ws)
            while receive(ws).get("decision") is None:
                pass
            sent_at = time.monotonic()
            for _ in range(130):
                send(ws, {"type": "state"})
            answers = [receive(ws) for _ in range(130)]
            took = time.monotonic() - sent_at
    assert all(a["type"] == "state" for a in answers)
    # 100 at once, the other 30 at 20 a second.
    assert took >= 1.2


def test_flood_delays_follow_the_bucket():
    now = [0.0]
    flood = Flood(rate=2.0, burst=3, clock=lambda: now[0])
    assert [flood.delay() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert flood.delay() == 0.5  # the fourth at once waits for half a token's time
    now[0] = 0.5  # it waited: the next one waits its own half second
    assert flood.delay() == 0.5
    now[0] = 10.0  # a pause refills the bucket, never beyond its size
    assert [flood.delay() for _ in range(4)] == [0.0, 0.0, 0.0, 0.5]


def test_a_pool_refuses_work_beyond_its_queue_and_does_the_rest():
    async def scenario() -> list[object]:
        pool = WorkPool("test", threads=1, capacity=2)
        gate = threading.Event()
        first = asyncio.ensure_future(pool.run(gate.wait, 10))
        await asyncio.sleep(0)  # queued
        while pool.waiting:  # until the thread has taken the first item
            await asyncio.sleep(0.01)
        queued = [asyncio.ensure_future(pool.run(lambda n=n: n)) for n in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(Busy, match="test queue is full"):
            await pool.run(lambda: "late")
        gate.set()
        return [await first, *[await q for q in queued]]

    assert asyncio.run(scenario()) == [True, 0, 1]


# ---------------------------------------------------------------------- tables closed, saves kept


def test_a_table_nobody_uses_is_closed_saved_and_released(home):
    lobby = Lobby(home / "saves")
    app = create_app(lobby, lang="en", idle_seconds=0.3, sweep_seconds=0.05)
    with TestClient(app, base_url="http://127.0.0.1:8358", client=LOCAL) as client:
        kept = client.post("/api/tables", json={"pace": 0, "seed": 7}).json()["token"]
        left = client.post("/api/tables", json={"pace": 1.5, "seed": 8}).json()["token"]
        with client.websocket_connect("/ws") as staying:
            send(staying, {"type": "join", "token": kept})
            receive(staying)
            with client.websocket_connect("/ws") as leaving:
                send(leaving, {"type": "join", "token": left})
                receive(leaving)
                send(leaving, {"type": "pace", "seconds": 5})
                while receive(leaving).get("pace") != 5:
                    pass
            # Nobody sees the computer players' decisions due before the person's first
            # (seed 8 has some), so they are not paced and the table is soon idle: soon
            # after those decisions, which on a busy shared host can take seconds.
            deadline = time.monotonic() + 30
            while len(lobby.tables) > 1 and time.monotonic() < deadline:
                time.sleep(0.05)
            (open_path,) = lobby.tables
            assert open_path.stem in {s["id"] for s in lobby.saves("en")[0] if s["open"]}
        closed = [p for p in (home / "saves").glob("*.json") if p != open_path]
        (path,) = closed
        with SaveLock(path):  # released: another process could take it now
            pass
        assert read_save(path).settings.pace == 5
        # Resumed, the table keeps its pace.
        resumed = client.post("/api/resume", json={"id": path.stem})
        assert resumed.status_code == 200, resumed.text
        assert next(t for p, t in lobby.tables.items() if p == path).pace == 5


def test_the_lobby_names_a_save_it_can_not_read_and_lists_the_others(home):
    folder = home / "saves"
    app = create_app(Lobby(folder), lang="en")
    with TestClient(app, base_url="http://127.0.0.1:8358", client=LOCAL) as client:
        token = client.post("/api/tables", json={"pace": 0, "seed": 9}).json()["token"]
        with client.websocket_connect("/ws") as ws:
            send(ws, {"type": "join", "token": token})
            receive(ws)
        (good,) = folder.glob("*.json")
        data = json.loads(good.read_text(encoding="utf-8"))
        data["settings"]["analysis_seconds"] = 10**400
        (folder / "huge.json").write_text(json.dumps(data), encoding="utf-8")
        (folder / "cut.json").write_text('{"format": "ts358-save/2", "se', encoding="utf-8")
        for _ in range(2):  # on every call, not once
            response = client.get("/api/lobby")
            assert response.status_code == 200, response.text
            body = response.json()
            assert [s["id"] for s in body["saves"]] == [good.stem]
            errors = {u["id"]: u["error"] for u in body["unreadable"]}
            assert set(errors) == {"huge", "cut"}
            assert "'analysis_seconds' must be a number of seconds" in errors["huge"]
            assert "truncated or corrupt" in errors["cut"]


def test_a_websocket_from_another_port_of_this_computer_is_refused(home):
    with live_server(home / "saves") as server:
        token = post(server.url, "/api/tables", {"pace": 0, "seed": 2})["token"]
        ws_url = server.url.replace("http://", "ws://") + "/ws"
        for origin in (f"http://127.0.0.1:{server.port + 1}", "http://127.0.0.1", "null"):
            # Refused at the handshake, before anything is read.
            with pytest.raises(InvalidStatus, match="HTTP 403"):
                ws_connect(ws_url, origin=origin, open_timeout=10)
        with ws_connect(ws_url, origin=server.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


# ---------------------------------------------------------------------- the network


def test_a_request_that_never_finishes_its_head_is_cut_off(home, monkeypatch):
    monkeypatch.setattr(web_server, "REQUEST_HEAD_SECONDS", 0.5)
    with live_server(home / "saves") as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        slow = socket.create_connection(("127.0.0.1", server.port))
        started = time.monotonic()
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for conn in (silent, slow):
            conn.settimeout(10)
            assert conn.recv(1024) == b""  # closed by the server
        assert time.monotonic() - started < 5
        # A whole request is served, and the same connection may send another.
        with socket.create_connection(("127.0.0.1", server.port)) as conn:
            conn.settimeout(10)
            head = f"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
            for _ in range(2):
                conn.sendall(head.encode())
                reply = b""
                while b"\r\n\r\n" not in reply:
                    reply += conn.recv(65536)
                assert reply.startswith(b"HTTP/1.1 200")
                length = int(reply.split(b"content-length: ")[1].split(b"\r\n")[0])
                body = reply.split(b"\r\n\r\n", 1)[1]
                while len(body) < length:
                    body += conn.recv(65536)
                time.sleep(0.3)  # under the deadline between requests too


def free_port() -> int:
    with socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::", 0))
        return int(probe.getsockname()[1])


def http_get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:
        return int(response.status)


def test_serve_on_every_address_answers_ipv4_and_ipv6_and_sigterm_saves_and_exits_143(home):
    port = free_port()
    env = {**os.environ, "TS358_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "ts358", "serve", "--host", "::", "--port", str(port)]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        assert "ts358 serve: the table is at" in server.stdout.readline()
        for base in (f"http://127.0.0.1:{port}", f"http://[::1]:{port}"):
            assert http_get(base + "/") == 200
            assert http_get(base + "/api/lobby") == 200
        url = f"http://127.0.0.1:{port}"
        token = post(url, "/api/tables", {"pace": 0, "seed": 11, "analysis": False})["token"]
        with seat(url, token) as ws:
            state = json.loads(ws.recv(timeout=30))
            while answer(state) is None:
                state = json.loads(ws.recv(timeout=30))
            ws.send(json.dumps(answer(state)))
            while json.loads(ws.recv(timeout=30)).get("decision") is not None:
                pass  # until the answer is taken (the next state asks nothing of us yet)
            server.send_signal(signal.SIGTERM)
            _, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 128 + signal.SIGTERM, err
    assert err.strip().splitlines()[-1] == "ts358 serve: stopped by SIGTERM; every match is saved"
    (path,) = (home / "saves").glob("*.json")
    assert read_save(path).match.snapshot()  # readable, with the decisions made
    assert not list(Path(path.parent).glob(".*.lock"))  # released
