"""Soak tests (``python -m pytest -m slow tests/test_soak.py``, a few minutes): a process that
reviews deal after deal, and a server that plays match after match with the after-deal
review, keep a steady resident memory (issue 38: each review kept 32 MB for ever). The
figures are printed (``-s``) for the notes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect as ws_connect

from ts358.analysis.review import review_deal
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Rules
from web_support import answer

pytestmark = pytest.mark.slow

MB = 1 << 20
GROWTH_LIMIT_MB = 50


def resident_mb(pid: int | str = "self") -> float:
    """The resident memory of a process (Linux), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / MB
    raise AssertionError("no VmRSS")


def finished_deals(count: int, seed: int) -> list:
    results = []
    while len(results) < count:
        match = Match(Rules(length=18), seed + len(results))
        players = [make_player("easy", s) for s in range(3)]
        while (pending := match.pending()) is not None:
            match.apply_answer(players[pending.seat].decide(pending.view))
        results += list(match.results)
    return results[:count]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_fifty_reviewed_deals_in_one_process_keep_a_steady_memory():
    deals = finished_deals(55, seed=900)
    for result in deals[:5]:  # warm up: the allocator's and the modules' first growth
        review_deal(result, deadline=time.monotonic() + 1.0)
    before = resident_mb()
    for result in deals[5:]:
        review_deal(result, deadline=time.monotonic() + 1.0)
    after = resident_mb()
    print(f"\n50 reviewed deals: {before:.0f} MB -> {after:.0f} MB")
    assert after - before < GROWTH_LIMIT_MB, (before, after)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(url: str, path: str, data: dict) -> dict:
    request = urllib.request.Request(
        url + path, json.dumps(data).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def play_match(url: str, seed: int) -> int:
    """A person answering at once against two computer players, 6 deals with the review:
    how many reviews came."""
    token = post(
        url,
        "/api/tables",
        {
            "deals": 6,
            "level": "easy",
            "pace": 0,
            "seed": seed,
            "analysis": True,
            "analysis_seconds": 2,
        },
    )["token"]
    reviews = 0
    with ws_connect(url.replace("http://", "ws://") + "/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "review":
                reviews += 1
            if message["type"] != "state":
                continue
            if message["phase"] == "finished":
                while reviews < 6:  # the last deal's review comes after the end
                    if json.loads(ws.recv(timeout=120))["type"] == "review":
                        reviews += 1
                return reviews
            if message["phase"] == "summary" and not message["ready"]:
                # Next only once the review is in, as a person reading it would.
                while reviews < message["score_sheet"][-1]["deal"]:
                    if json.loads(ws.recv(timeout=120))["type"] == "review":
                        reviews += 1
            step = answer(message)
            if step is not None:
                ws.send(json.dumps(step))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_server_playing_ten_reviewed_matches_keeps_a_steady_memory(tmp_path):
    port = free_port()
    env = {**os.environ, "TS358_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "ts358", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert server.stdout is not None and "the table is at" in server.stdout.readline()
        threading.Thread(target=server.stdout.read, daemon=True).start()  # drain it
        start = resident_mb(server.pid)
        assert play_match(url, 700) == 6
        time.sleep(1)
        before = resident_mb(server.pid)
        reviews = 0
        for pair in range(1, 10, 3):  # three tables at a time, nine more matches
            counts: list[int] = []
            players = [
                threading.Thread(target=lambda s=s, c=counts: c.append(play_match(url, 700 + s)))
                for s in range(pair, pair + 3)
            ]
            for player in players:
                player.start()
            for player in players:
                player.join(600)
            assert len(counts) == 3, "a match did not finish"
            reviews += sum(counts)
        time.sleep(1)
        after = resident_mb(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    print(
        f"\nserver, ten 6-deal matches: {start:.0f} MB at start, {before:.0f} MB after the "
        f"first match, {after:.0f} MB after the tenth ({reviews + 6} reviews)"
    )
    assert reviews == 54
    assert after - before < GROWTH_LIMIT_MB, (start, before, after)
