"""ts358 serve under load: tables played at once by scripted WebSocket clients, each seat 0
against two hard computer players, on this machine.

    python bench/web.py                      # 1, 2, 4, 8 ... tables, 30 s each
    python bench/web.py --tables 1,4 --seconds 10

The server runs in its own process (``ts358.web.server.serve`` on a free port, its saves in a
temporary folder), as it would for people. For each number of tables, that many clients
start a 3-deal match each (hard players, no pace, no analysis) and play for ``--seconds``:
a client answers each decision of its seat at once as the web tests' scripted seat does
(tests/web_support.py: the first game left, the first legal card ...) and times how long
the server takes to answer it with the next state (**wait**: the event loop's answer, while
the computer players think on worker threads). Also the time from one computer card to the
next (**computer decision**), and the server's resident memory at the end of the step above the
idle server's, per table open (the tables of the earlier steps stay open: a table lives
until its match ends). The steps go on until the p95 wait passes 1 s or the numbers run out.

``--server`` chooses what is measured (the online server's modes, docs/web.md#online):

    python bench/web.py --server local        # ts358 serve (the default)
    python bench/web.py --server threads      # ts358 serve --public --thinking threads
    python bench/web.py --server processes    # ts358 serve --public (a pool of processes)
    python bench/web.py --server two          # two --public processes, one Redis

The online server's people are made in its database before it starts (each client a person
with a session, so that the sign-in limits don't count); each client creates its table,
starts it and joins its seat as a browser does (cookie, CSRF token, Origin). With ``two``,
the clients alternate between the processes, so each plays half the tables, and a Redis
server is started for them (Debian's redis-server). Memory is the resident memory of the
server processes and their children (the thinking processes), above the idle servers'. The
steps stop once the computer players' median decision passes 1 s (a step runs to
``--seconds`` all the same).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx  # what the test extra installs (Starlette's test client uses it)
import websockets

import common  # bench/common.py: puts src/ and tests/ on sys.path, machine info, result files
from web_support import answer as reply  # the scripted seat of the web tests

SERVER = (
    "import sys; from ts358.web.server import serve; "
    "serve('127.0.0.1', int(sys.argv[-1]), echo=lambda line: print(line, flush=True))"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its descendants (a server's thinking processes)."""
    total = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1]) / 1024
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        total += sum(rss_mb(int(child)) for child in children)
    return total


async def seat_local(url: str, seed: int) -> tuple[str, dict[str, str]]:
    """A new table of ``ts358 serve`` (seat 0 against two hard players): its seat's token."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        seated = (
            await http.post(
                "/api/tables",
                json={"deals": 3, "level": "hard", "pace": 0, "analysis": False, "seed": seed},
            )
        ).json()
    return seated["token"], {}


async def seat_public(url: str, cookie: str) -> tuple[str, dict[str, str]]:
    """A new table of the online server, made, started and joined by the person of
    ``cookie`` as their browser would: its seat's token and the headers of the socket."""
    headers = {"Origin": url, "Cookie": f"ts358_session={cookie}"}
    async with httpx.AsyncClient(base_url=url, timeout=60, headers=headers) as http:
        csrf = (await http.get("/api/me")).json()["csrf"]
        http.headers["X-CSRF-Token"] = csrf
        options = {"deals": 3, "level": "hard", "pace": 0}
        table = (await http.post("/api/tables", json=options)).json()["table"]["id"]
        await http.post(f"/api/tables/{table}/start", json={})
        token = (await http.post(f"/api/tables/{table}/play", json={})).json()["token"]
    return token, headers


async def client(
    url: str,
    seat: Any,
    until: float,
    waits: list[float],
    computer: list[float],
) -> None:
    token, headers = await seat
    async with websockets.connect(
        url.replace("http", "ws") + "/ws", additional_headers=headers
    ) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_at: float | None = None
        last_card = time.monotonic()
        answered = None
        while time.monotonic() < until:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
            except asyncio.TimeoutError:
                return
            now = time.monotonic()
            if message["type"] != "state":
                continue
            if sent_at is not None:
                waits.append(now - sent_at)
                sent_at = None
            elif message.get("decision") is None and message["phase"] == "play":
                computer.append(now - last_card)
            last_card = now
            if message["phase"] == "finished":
                return
            answer = reply(message)
            key = json.dumps([message.get(k) for k in ("deal", "phase", "decision", "hand")])
            if answer is not None and key != answered:
                answered = key
                sent_at = time.monotonic()
                await ws.send(json.dumps(answer))


async def step(
    urls: list[str], tables: int, seconds: float, seed: int, cookies: list[str] | None
) -> dict[str, Any]:
    waits: list[float] = []
    computer: list[float] = []
    until = time.monotonic() + seconds
    jobs = []
    for i in range(tables):
        url = urls[i % len(urls)]
        seat = seat_public(url, cookies.pop()) if cookies is not None else seat_local(url, seed + i)
        jobs.append(client(url, seat, until, waits, computer))
    await asyncio.gather(*jobs)
    ms = [1000 * w for w in waits]
    thinking = [1000 * c for c in computer]
    return {
        "tables": tables,
        "decisions": len(waits),
        "wait_ms": common.summarize(ms) if ms else None,
        "wait_p95_ms": common.percentile(ms, 95) if ms else None,
        "computer_decision_ms": common.summarize(thinking) if thinking else None,
        "computer_decision_p50_ms": common.percentile(thinking, 50) if thinking else None,
    }


def people(db_url: str, count: int) -> list[str]:
    """``count`` people in the online server's database, each with a session: the cookies."""
    from ts358.online.accounts import Accounts
    from ts358.online.db import Database

    db = Database(db_url)
    db.migrate()
    accounts = Accounts(db, cost=2**10)
    cookies = []
    for i in range(count):
        person = accounts.sign_up(f"bench {i}", "password")
        cookies.append(accounts.open_session(person)[0])
    db.close()
    return cookies


def start(argv: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """A server process and its address, once it listens."""
    port = free_port()
    process = subprocess.Popen(
        [*argv, "--port", str(port)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    process.stdout.readline()  # the address: the server listens
    return process, f"http://127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,2,4,8,16", help="numbers of tables, in order")
    parser.add_argument("--seconds", type=float, default=30.0, help="play time of each step")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--server",
        choices=("local", "threads", "processes", "two"),
        default="local",
        help="ts358 serve, or the online server thinking on threads, on a process pool, or "
        "two online processes with Redis",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.tables.split(",")]
    stops = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TS358_HOME": home, "PYTHONPATH": str(common.ROOT / "src")}
        cookies = None
        if args.server == "local":
            servers = [start([sys.executable, "-c", SERVER], env)]  # SERVER takes --port N
        else:
            db_url = f"sqlite:///{home}/online.db"
            cookies = people(db_url, sum(counts))
            thinking = "threads" if args.server == "threads" else "processes"
            argv = [sys.executable, "-m", "ts358", "serve", "--public", "--db", db_url]
            argv += ["--thinking", thinking]
            if args.server == "two":
                from services import start_redis  # tests/services.py: Debian's redis-server

                redis_url, stop_redis = start_redis()
                stops.append(stop_redis)
                argv += ["--redis", redis_url]
            servers = [start(argv, env) for _ in range(2 if args.server == "two" else 1)]
        urls = [url for _, url in servers]
        time.sleep(5 if args.server != "local" else 0)  # the thinking processes start
        try:
            idle = sum(rss_mb(process.pid) for process, _ in servers)
            steps = []
            opened = 0  # a table stays open until its match ends
            for count in counts:
                result = asyncio.run(
                    step(urls, count, args.seconds, args.seed + 100 * count, cookies)
                )
                opened += count
                result["rss_mb"] = sum(rss_mb(process.pid) for process, _ in servers)
                result["tables_open"] = opened
                result["mb_per_table"] = (result["rss_mb"] - idle) / opened
                steps.append(result)
                print(json.dumps(result), flush=True)
                slow = result["computer_decision_p50_ms"] or 0
                if (result["wait_p95_ms"] or 0) > 1000 or slow > 1000:
                    break
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait(15)
            for stop in stops:
                stop()
    data = {
        "machine": common.machine_info(),
        "server": args.server,
        "seconds_per_step": args.seconds,
        "idle_rss_mb": idle,
        "steps": steps,
    }
    print(common.shown(common.write_results(f"web-{args.server}", data)))


if __name__ == "__main__":
    main()
