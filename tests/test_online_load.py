"""A load test of ``ts358 serve --public``, bounded in count and time, against 127.0.0.1
only: while two honest people play their matches, 200 connections open and idle, send bad,
unknown and oversized messages, try other people's seats and flood the sign-in; the honest
tables play on to their ends, the floods are refused, and the server still answers."""

from __future__ import annotations

import asyncio
import json
import time

import httpx2 as httpx
import websockets

from online_helpers import Browser, answer, start_server, stop

CONNECTIONS = 200
SIGN_IN_FLOOD = 300


async def honest(url: str, cookies: dict[str, str], token: str, times: list[float]) -> str:
    """Play a seat to the end of its match; the seconds each answer took to be answered."""
    headers = {"Origin": url, "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    async with websockets.connect(
        url.replace("http://", "ws://") + "/ws", additional_headers=headers, open_timeout=20
    ) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] != "state":
                continue
            if sent is not None:
                times.append(time.monotonic() - sent)
                sent = None
            if message["phase"] == "finished":
                return "finished"
            reply = answer(message)
            if reply is not None:
                await ws.send(json.dumps(reply))
                sent = time.monotonic()


async def nuisance(url: str, index: int, table_id: str, token: str) -> str:
    """One hostile connection: what it tries depends on ``index``."""
    socket_url = url.replace("http://", "ws://") + "/ws"
    try:
        async with websockets.connect(
            socket_url, additional_headers={"Origin": url}, open_timeout=30, max_size=2**20
        ) as ws:
            kind = index % 5
            if kind == 0:  # opens and says nothing
                await asyncio.sleep(3)
            elif kind == 1:  # not JSON, unknown types, before joining
                await ws.send("{not json")
            elif kind == 2:  # someone else's seat, with no session
                await ws.send(json.dumps({"type": "join", "token": token}))
            elif kind == 3:  # an oversized message
                await ws.send(json.dumps({"type": "join", "token": "x" * 100_000}))
            else:  # watches, then floods the table with actions a spectator can't take
                await ws.send(json.dumps({"type": "watch", "table": table_id}))
                for _ in range(50):
                    await ws.send(json.dumps({"type": "play", "card": "AS"}))
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                pass
    except (OSError, websockets.WebSocketException, asyncio.TimeoutError) as exc:
        return type(exc).__name__
    return "done"


async def sign_in_flood(url: str) -> list[int]:
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=30) as client:
        answers = await asyncio.gather(
            *(
                client.post("/api/signin", json={"name": "Ala", "password": f"guess{i}"})
                for i in range(SIGN_IN_FLOOD)
            )
        )
    return [a.status_code for a in answers]


def test_the_honest_tables_play_on_under_load(tmp_path):
    server, url = start_server(f"sqlite:///{tmp_path}/online.db", tmp_path)
    try:
        seats = []
        for name in ("Ala", "Bob"):
            person = Browser(url)
            person.post("/api/signup", {"name": name, "password": "password " + name})
            table = person.post("/api/tables", {"deals": 3, "level": "easy", "pace": 0})["table"]
            person.post(f"/api/tables/{table['id']}/start")
            token = person.post(f"/api/tables/{table['id']}/play")["token"]
            seats.append((dict(person.http.cookies.items()), token, table["id"]))

        async def run() -> tuple[list[str], list[str], list[int], list[float]]:
            times: list[float] = []
            players = [asyncio.ensure_future(honest(url, c, t, times)) for c, t, _ in seats]
            attacks = [
                asyncio.ensure_future(nuisance(url, i, seats[0][2], seats[0][1]))
                for i in range(CONNECTIONS)
            ]
            flood = asyncio.ensure_future(sign_in_flood(url))
            played = await asyncio.wait_for(asyncio.gather(*players), 180)
            return played, await asyncio.gather(*attacks), await flood, times

        start = time.monotonic()
        played, attacked, codes, times = asyncio.run(run())
        assert played == ["finished", "finished"]
        assert codes.count(429) >= SIGN_IN_FLOOD - 20  # 10 a minute, then refused
        assert set(codes) <= {400, 429}
        assert attacked.count("done") >= CONNECTIONS * 0.9, attacked
        times.sort()
        p95 = times[int(len(times) * 0.95)]
        assert p95 < 5.0, f"the honest seats waited {p95:.2f} s (p95) under load"
        assert time.monotonic() - start < 180
        # The server is still up and well.
        assert httpx.get(url + "/api/me", timeout=10).status_code == 200
        assert server.poll() is None
    finally:
        stop(server)
