"""The bot protocol's cost (docs/bots.md): round trips to a local subprocess bot, and an arena
with bots against the same players in process.

    python bench/bots.py                    # 3 matches' decisions, 20 boards
    python bench/bots.py --matches 5 --boards 10

**Round trip**: a ``BotPlayer`` running ``ts358 bot --level easy`` (a random player, so that
the time is the protocol's: the view to JSON, the pipe both ways, the bot reading the view
back and answering, the answer checked) asked every decision of whole seeded 6-deal
matches; the time of each ``decide`` against the same player's in process. **Arena**: the
seconds of ``ts358 arena`` with ``cmd:ts358 bot --level medium`` in all three seats and with
``medium`` in all three (the same digest is checked): each chunk of boards starts a bot
process for each of its three seats and keeps them from board to board
(:class:`~ts358.bots.keeper.BotKeeper`), so the difference is the protocol's round trips
and the bots' starts.
"""

from __future__ import annotations

import argparse
import sys
import time

import common  # bench/common.py: puts src/ and tests/ on sys.path, machine info, result files
from ts358.batch.arena import run_arena
from ts358.bots import BotPlayer
from ts358.match import Match, player_seed
from ts358.players import make_player
from ts358.rules import Rules


def round_trips(matches: int) -> dict[str, object]:
    protocol: list[float] = []
    starts: list[float] = []
    inside: list[float] = []
    for m in range(matches):
        match = Match(Rules(length=6), 500 + m)
        bots = [
            BotPlayer(
                [sys.executable, "-m", "ts358", "bot", "--level", "easy"],
                seed=player_seed(500 + m, s),
            )
            for s in range(3)
        ]
        players = [make_player("easy", player_seed(500 + m, s)) for s in range(3)]
        try:
            while (pending := match.pending()) is not None:
                view = pending.view
                bot = bots[pending.seat]
                fresh = bot.bot_name is None  # its first decision: its start and hello too
                start = time.perf_counter()
                answer = bot.decide(view)
                (starts if fresh else protocol).append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                same = players[pending.seat].decide(view)
                inside.append((time.perf_counter() - start) * 1000)
                # The same player, through the pipe (unless a fault gave the fallback's).
                assert answer == same, (answer, same, bot.faults)
                match.apply_answer(answer)
        finally:
            for bot in bots:
                bot.close()
        assert not any(bot.faults for bot in bots)
    return {
        "decisions": len(protocol),
        "first_decision_ms": common.summarize(starts),
        "protocol_ms": {
            **common.summarize(protocol),
            "p99_ms": common.percentile(protocol, 99),
        },
        "in_process_ms": common.summarize(inside),
    }


def arenas(boards: int) -> dict[str, object]:
    bot = f"cmd:{sys.executable} -m ts358 bot --level medium"
    through = run_arena([bot] * 3, boards, seed=31, workers=2)
    inside = run_arena(["medium"] * 3, boards, seed=31, workers=2)
    assert through["digest"] == inside["digest"] and not through["faults"]
    return {
        "boards": boards,
        "deals": through["deals"],
        "bot_processes": 3 * through["execution"]["chunks"],
        "seconds_with_bots": through["execution"]["seconds"],
        "seconds_in_process": inside["execution"]["seconds"],
        "digest": through["digest"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--boards", type=int, default=20)
    args = parser.parse_args()
    data = {"round_trip": round_trips(args.matches), "arena": arenas(args.boards)}
    print(data)
    print(common.shown(common.write_results("bots", data)))


if __name__ == "__main__":
    main()
