"""The arena seating a bot on another computer (``remote``): it listens on a WebSocket of its
own, the bot joins with its token as at a server's table, and each board is a match of its
own over the one connection."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from ts358.batch.arena import (
    ArenaError,
    make_board,
    play_board,
    run_arena,
    seat_permutations,
    summarize_arena,
)
from ts358.bots.client import connect_bot
from ts358.bots.listen import BotListener
from ts358.players import make_player

pytest.importorskip("websockets")


def medium(seed):
    return make_player("medium", seed)


def connected(listener: BotListener) -> list[threading.Thread]:
    """``ts358 bot --level medium``'s side, in threads, one per seat of ``listener``."""
    threads = [
        threading.Thread(
            target=connect_bot, args=(listener.url, bot.token, medium, "remote-medium")
        )
        for bot in listener.bots
    ]
    for thread in threads:
        thread.start()
    assert listener.wait(30)
    return threads


@pytest.mark.parametrize("configs", [("remote", "medium", "easy"), ("remote", "remote", "easy")])
def test_a_remote_bot_plays_the_decisions_of_the_same_player_in_process(configs):
    listener = BotListener(configs.count("remote"))
    try:
        threads = connected(listener)
        doc = run_arena(configs, 3, seed=4, remote=listener.bots)
    finally:
        listener.close()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive()  # told bye at the end of the run
    assert doc["faults"] == [] and doc["deals"] == 3 * len(seat_permutations(configs))

    def factory(config, seed):
        return medium(seed) if config == "remote" else make_player(config, seed)

    names = tuple(doc["players"])
    expected = [play_board(make_board(4, b), names, 4, factory) for b in range(3)]
    assert doc["digest"] == summarize_arena(names, expected)["digest"]


def test_a_remote_bot_that_drops_hands_its_seat_over_and_the_run_completes():
    listener = BotListener(1)

    def drop_after_two(url, token):
        from websockets.sync.client import connect

        with connect(url) as socket:
            socket.send(json.dumps({"type": "join", "token": token}))
            decided = 0
            for text in socket:
                message = json.loads(text)
                if message["type"] == "hello":
                    socket.send(json.dumps({"type": "hello", "name": "dropper"}))
                elif message["type"] == "decide":
                    if decided == 2:
                        return
                    decided += 1
                    option = message["options"][0]
                    key = {"choose": "game", "discard": "cards"}.get(message["kind"], "card")
                    value = message["options"][:4] if key == "cards" else option
                    socket.send(json.dumps({"type": "decision", "id": message["id"], key: value}))

    try:
        thread = threading.Thread(
            target=drop_after_two, args=(listener.url, listener.bots[0].token)
        )
        thread.start()
        assert listener.wait(30)
        start = time.monotonic()
        doc = run_arena(["remote", "easy", "easy"], 2, seed=6, remote=listener.bots, bot_seconds=2)
        took = time.monotonic() - start
    finally:
        listener.close()
    thread.join(10)
    kinds = [f["kind"] for f in doc["faults"]]
    # The drop, then every later match finds the seat closed: each a fault, none a wait.
    assert kinds[0] == "died" and set(kinds[1:]) <= {"no_start"} and len(kinds) == 2 * 3
    assert all(f["handed_over"] for f in doc["faults"])
    assert doc["deals"] == 2 * 3 and took < 30


def test_the_remote_seats_and_their_connections_must_match():
    with pytest.raises(ArenaError, match="1 remote seat and 0"):
        run_arena(["remote", "easy", "easy"], 1, seed=1)


def test_a_wrong_token_is_refused():
    from websockets.sync.client import connect

    listener = BotListener(1)
    try:
        with connect(listener.url) as socket:
            socket.send(json.dumps({"type": "join", "token": "x" * 32}))
            answer = json.loads(socket.recv(timeout=10))
        assert answer["type"] == "error" and answer["gone"] is True
        assert not listener.bots[0].connected
    finally:
        listener.close()


def test_ts358_arena_listens_and_ts358_bot_connects():
    args = "arena --players remote,easy,easy --deals 2 --seed 3 --json --listen 127.0.0.1:0"
    arena = subprocess.Popen(
        [sys.executable, "-m", "ts358", *args.split(), "--bot-wait", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert arena.stderr is not None
        line = arena.stderr.readline()
        assert line.startswith(
            "remote bot 1 of 1: ts358 bot --level LEVEL --connect ws://127.0.0.1:"
        )
        words = line.split()
        url, token = words[words.index("--connect") + 1], words[words.index("--token") + 1]
        ts358_bot = [sys.executable, "-m", "ts358", "bot", "--level", "easy"]
        bot = subprocess.run(
            [*ts358_bot, "--connect", url, "--token", token],
            capture_output=True,
            text=True,
            timeout=120,
        )
        out, err = arena.communicate(timeout=120)
    finally:
        arena.kill()
    assert bot.returncode == 0, bot.stderr
    assert arena.returncode == 0, err
    doc = json.loads(out)
    assert doc["players"][0] == "remote" or "remote" in doc["players"]
    assert doc["faults"] == [] and doc["deals"] == 2 * 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "remote,easy,easy", "--bot-wait", "0.3"], "not every remote bot connected"),
        (["--listen", "127.0.0.1:0"], "--listen is where remote bots connect"),
        (["--players", "remote,easy,easy", "--listen", "nowhere"], "HOST:PORT"),
        (["--players", "easy,remote,easy", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    ],
)
def test_arena_remote_errors_are_one_line(args, message):
    from cli_runner import run_cli

    result = run_cli(["arena", "--deals", "1", *args])
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.stderr
