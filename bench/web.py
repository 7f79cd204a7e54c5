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
    "serve('127.0.0.1', int(sys.argv[1]), echo=lambda line: print(line, flush=True))"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def client(
    url: str, seed: int, until: float, waits: list[float], computer: list[float]
) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        seated = (
            await http.post(
                "/api/tables",
                json={"deals": 3, "level": "hard", "pace": 0, "analysis": False, "seed": seed},
            )
        ).json()
    async with websockets.connect(url.replace("http", "ws") + "/ws") as ws:
        await ws.send(json.dumps({"type": "join", "token": seated["token"]}))
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


async def step(url: str, tables: int, seconds: float, seed: int) -> dict[str, Any]:
    waits: list[float] = []
    computer: list[float] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(client(url, seed + i, until, waits, computer) for i in range(tables)))
    ms = [1000 * w for w in waits]
    return {
        "tables": tables,
        "decisions": len(waits),
        "wait_ms": common.summarize(ms) if ms else None,
        "wait_p95_ms": common.percentile(ms, 95) if ms else None,
        "computer_decision_ms": common.summarize([1000 * c for c in computer])
        if computer
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,2,4,8,16", help="numbers of tables, in order")
    parser.add_argument("--seconds", type=float, default=30.0, help="play time of each step")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "TS358_HOME": home, "PYTHONPATH": str(common.ROOT / "src")}
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(port)], env=env, stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            server.stdout.readline()  # the address: the server listens
            idle = rss_mb(server.pid)
            steps = []
            opened = 0  # a table stays open (its save locked) until its match ends
            for count in (int(n) for n in args.tables.split(",")):
                result = asyncio.run(step(url, count, args.seconds, args.seed + 100 * count))
                opened += count
                result["rss_mb"] = rss_mb(server.pid)
                result["tables_open"] = opened
                result["mb_per_table"] = (result["rss_mb"] - idle) / opened
                steps.append(result)
                print(json.dumps(result), flush=True)
                if result["wait_p95_ms"] is not None and result["wait_p95_ms"] > 1000:
                    break
        finally:
            server.terminate()
            server.wait(10)
    data = {
        "machine": common.machine_info(),
        "seconds_per_step": args.seconds,
        "idle_rss_mb": idle,
        "steps": steps,
    }
    print(common.shown(common.write_results("web", data)))


if __name__ == "__main__":
    main()
