"""What seeing every card is worth to a sampling player: the ceiling of inference.

A sampling player (``hard``, ``expert``) decides on layouts of the cards it cannot see, drawn
from what its seat knows. Inference can at best make those layouts the real one. This
measures how much that best would give: each of the arena's seeded boards is played once by
three ``--player`` players (the line), then once per seat with that seat's player handed
the real layout instead of its samples at the decisions of ``--kinds`` (the same player,
seed and method otherwise; the other seats play as in the line). Its score minus the
line's is what full sight was worth to it there, paired on the same deal and the same
opponents. ``--sighted`` gives the sighted seat another specification at those decisions
(another budget, to tell what the real layout gives from what more search gives); its other
decisions stay the line's.

    python bench/ceiling.py --player hard --kinds play --boards 100 --seed 13000

The summary: the mean difference per seat and deal (each board's three seats averaged,
95% t interval over boards), by role and by game. Not a player: a bench tool that reads
the engine's hidden state on purpose.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.batch.arena import make_board
from ts358.cards import CardSet
from ts358.deal import Deal
from ts358.players import PlayerSpec, make_player
from ts358.players.layouts import World
from ts358.players.sampling import SamplingPlayer
from ts358.rules import Role
from ts358.seeds import derived_seed
from ts358.view import SeatView

KINDS = ("play", "choose", "discard")


def real_world(deal: Deal, view: SeatView) -> World:
    """The real layout in the form a sampling player's ``_worlds`` gives its guesses: every
    seat's hand now and the pile the seat cannot see (the talon before it is shown, the
    chooser's discard after; nothing for the chooser once it knows its discard)."""
    hands = (deal.hand(0), deal.hand(1), deal.hand(2))
    if not deal.talon_taken:
        pile = CardSet(deal.setup.talon)
    elif view.seat == deal.chooser:
        pile = CardSet()
    else:
        pile = deal.discarded or CardSet()
    return World(hands=hands, pile=pile)


def sighted(player: SamplingPlayer, deal: Deal) -> SamplingPlayer:
    """``player`` with the real layout as its only sample (:class:`Split` asks it only at the
    decisions measured)."""

    def worlds(view: SeatView, count: int) -> list[World]:
        return [real_world(deal, view)]

    player._worlds = worlds  # type: ignore[method-assign]
    return player


class Split:
    """``seen`` at the decisions of ``kinds``, ``line`` at the others, so that the seat's
    other decisions stay those of the line's player."""

    def __init__(self, seen: SamplingPlayer, line: Any, kinds: set[str]) -> None:
        self.seen, self.line, self.kinds = seen, line, kinds

    def decide(self, view: SeatView) -> Any:
        sighted_here = view.kind is not None and view.kind.value in self.kinds
        return (self.seen if sighted_here else self.line).decide(view)


def _player(spec: str, seed: int, board: int, seat: int) -> Any:
    return make_player(spec, derived_seed("ceiling", seed, board, seat))


def _play(deal: Deal, players: list[Any]) -> tuple[int, int, int]:
    while (pending := deal.pending()) is not None:
        deal.apply_answer(players[pending.seat].decide(pending.view))
    return deal.result().scores


def play_board(task: dict[str, Any]) -> dict[str, Any]:
    """One board: the line, then each seat sighted in turn."""
    seed, index, spec = task["seed"], task["board"], task["player"]
    sighted_spec = task.get("sighted") or spec
    board = make_board(seed, index)
    line_deal = board.deal()
    line = _play(line_deal, [_player(spec, seed, index, s) for s in range(3)])
    seats = []
    for seat in range(3):
        deal = board.deal()
        players = [_player(spec, seed, index, s) for s in range(3)]
        seen = sighted(_player(sighted_spec, seed, index, seat), deal)
        players[seat] = Split(seen, players[seat], set(task["kinds"]))
        scores = _play(deal, players)
        seats.append(
            {
                "seat": seat,
                "role": Role(deal.role_of(seat)).label,
                "line": line[seat],
                "sighted": scores[seat],
            }
        )
    return {"board": index, "game": str(line_deal.game), "seats": seats}


def summarize(header: dict[str, Any], boards: list[dict[str, Any]]) -> dict[str, Any]:
    per_board = []
    by_role: dict[str, list[float]] = {}
    by_game: dict[str, list[float]] = {}
    for board in boards:
        diffs = [s["sighted"] - s["line"] for s in board["seats"]]
        per_board.append(sum(diffs) / 3)
        by_game.setdefault(board["game"], []).append(per_board[-1])
        for s, d in zip(board["seats"], diffs):
            by_role.setdefault(s["role"], []).append(d)
    return {
        **header,
        "boards": len(boards),
        "per_seat_deal": common.interval(per_board),
        "by_role": {r: common.interval(v) for r, v in sorted(by_role.items())},
        "by_game_per_seat_deal": {g: common.interval(v) for g, v in sorted(by_game.items())},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="hard", help="a sampling player's specification")
    parser.add_argument(
        "--sighted", help="the sighted seat's specification, if not --player's (another budget)"
    )
    parser.add_argument("--kinds", default="play", help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--boards", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--name", default="ceiling")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",")]
    if bad := [k for k in kinds if k not in KINDS]:
        parser.error(f"not a decision kind sampled here: {bad[0]!r} (one of {', '.join(KINDS)})")
    specs = [PlayerSpec.parse(text) for text in (args.player, args.sighted or args.player)]
    for spec in specs:
        if not isinstance(make_player(spec, 0), SamplingPlayer):
            parser.error(f"{str(spec)!r} does not sample layouts (hard or expert do)")
    header = {"player": str(specs[0]), "sighted": str(specs[1]), "kinds": kinds, "seed": args.seed}
    tasks = [{**header, "board": b} for b in range(args.boards)]
    boards: list[dict[str, Any]] = []

    def keep(result: dict[str, Any], n: int) -> None:
        boards.append(result)
        diffs = [s["sighted"] - s["line"] for s in result["seats"]]
        print(f"{n}/{args.boards}: board {result['board']} {result['game']}: {diffs}", flush=True)

    common.run_tasks(play_board, tasks, args.workers, keep)
    boards.sort(key=lambda b: b["board"])
    doc = {**summarize(header, boards), "boards_played": boards}
    path = common.write_results(args.name, doc)
    print(json.dumps({k: doc[k] for k in ("boards", "per_seat_deal", "by_role")}))
    print(f"results: {common.shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
