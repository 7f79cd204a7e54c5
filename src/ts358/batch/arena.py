"""Duplicate-deal arena: compare computer players on the same deals in every seat.

A **board** is one deal with its full match context: the deal's number in a 6-deal match,
the dealer, the games each seat still has, the previous deal's scores (for the exchange),
the match totals, and the cards. Board ``b`` of a run with seed ``S`` is made from a random
generator seeded by ``(S, b)`` only: it draws the deal number (1-6), then plays the match up
to that deal with three rule-of-thumb ("medium") players, so the context (games used up,
exchanges) is the kind a real match produces; the board is the next deal of that match.

With three player configurations (levels with optional settings,
:class:`~ts358.players.PlayerSpec`, e.g. ``hard:layouts=48,hard,medium``), each board is played
once per distinct *seat permutation* of the configurations: 6 when all differ, 3 when two
are equal, 1 when all three are. Each configuration thus holds every seat equally often on
every board, and the luck of the cards cancels. A player's random seed derives from
``(S, board, permutation, seat)``, so results never depend on how the boards were split
between workers.

Statistics, per configuration (equal configurations are pooled: ``medium`` in
``hard,medium,medium`` is both medium seats):

* **mean score per deal**: the configuration's deal score, averaged first over its seats on
  each board (all permutations), then over the boards; the 95% confidence interval is
  Student's t over those per-board means (boards are independent, the seats within a board
  are not);
* **won**: the share of its seat-deals in which it had the highest score of the deal, a tie
  for the highest shared equally (two tied: half a win each). Three equal players win 1/3;
* **decision time**: median (to 0.5%, from a histogram) and maximum of the wall-clock time
  of each ``decide`` call.

Scores and wins are reproducible from the seed; decision times of course are not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ts358.batch.pool import chunk_ranges, run_chunks, task_slots
from ts358.bots.keeper import BotKeeper
from ts358.bots.process import Transport
from ts358.bots.seat import DEFAULT_SECONDS, BotPlayer
from ts358.bots.spec import BotSpec, RemoteSpec, make_seat, parse_seat
from ts358.deal import Deal, DealResult, DealSetup, IllegalDecision
from ts358.match import Match
from ts358.players import HeuristicPlayer, PlayerSpec
from ts358.players.base import Player
from ts358.rules import Contract, MatchEnd, Rules, triple
from ts358.seeds import derived_rng, derived_seed

__all__ = [
    "ArenaError",
    "Board",
    "BoardOutcome",
    "TimeHistogram",
    "make_board",
    "play_board",
    "play_chunk",
    "run_arena",
    "seat_permutations",
    "summarize_arena",
    "t_quantile",
]

MATCH_LENGTH = 6
BOARD_CONTEXT = (
    "board b: deal number drawn from 1 to the match length (6 unless --rules says) by a "
    "generator seeded with (seed, b), the match up "
    "to it played by medium players; every seat permutation of the players plays it"
)


class ArenaError(RuntimeError):
    """A player gave an illegal decision (a bug in that player)."""


@dataclasses.dataclass(frozen=True)
class Board:
    """One deal with its match context; :meth:`deal` makes a fresh :class:`Deal` of it."""

    index: int
    rules: Rules
    setup: DealSetup
    available: tuple[frozenset[Contract], ...]
    previous_scores: tuple[int, int, int] | None
    totals: tuple[int, int, int]

    def deal(self) -> Deal:
        return Deal(
            self.setup,
            self.rules,
            available=self.available,
            previous_scores=self.previous_scores,
            totals=self.totals,
        )


@dataclasses.dataclass(frozen=True)
class BoardOutcome:
    """A board played in every seat permutation.

    ``scores[p][seat]`` is the deal score of ``seat`` in permutation ``p`` (of
    :func:`seat_permutations`); ``games[p]`` the game chosen; ``times[label][kind]`` the
    times of the decisions of that configuration on this board by decision kind (``play``,
    ``choose``, ...), in seconds; ``faults`` the faults of bots (which seating, seat and
    player, and :class:`~ts358.bots.Fault`'s keys)."""

    index: int
    number: int
    scores: tuple[tuple[int, int, int], ...]
    games: tuple[str, ...]
    times: dict[str, dict[str, TimeHistogram]]
    faults: tuple[dict[str, Any], ...] = ()


class TimeHistogram:
    """Decision times in logarithmic bins 1% wide: a run of millions of decisions keeps a
    few hundred counts, not every time. A quantile is the centre of its bin (within 0.5%);
    the maximum is exact."""

    STEP = math.log(1.01)
    FLOOR = 1e-7  # seconds; anything faster counts as this

    __slots__ = ("bins", "count", "max")

    def __init__(self, seconds: Iterable[float] = ()) -> None:
        self.bins: dict[int, int] = {}
        self.count = 0
        self.max = 0.0
        for t in seconds:
            self.add(t)

    def add(self, seconds: float) -> None:
        b = int(math.log(max(seconds, self.FLOOR) / self.FLOOR) / self.STEP)
        self.bins[b] = self.bins.get(b, 0) + 1
        self.count += 1
        self.max = max(self.max, seconds)

    def merge(self, other: TimeHistogram) -> None:
        for b, n in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + n
        self.count += other.count
        self.max = max(self.max, other.max)

    def quantile(self, q: float) -> float | None:
        """The time that a share ``q`` (0-1) of the decisions took at most, None if none."""
        if not self.count:
            return None
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= q * self.count:
                return min(self.FLOOR * math.exp((b + 0.5) * self.STEP), self.max)
        raise AssertionError("unreachable")

    def median(self) -> float | None:
        return self.quantile(0.5)

    def milliseconds(self) -> dict[str, Any]:
        """Count, median, p90, p99 and max in milliseconds, as the results give them."""
        out: dict[str, Any] = {"count": self.count}
        for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
            t = self.quantile(q)
            out[name] = None if t is None else _round(t * 1000, 3)
        out["max"] = _round(self.max * 1000, 3) if self.count else None
        return out

    def __getstate__(self) -> tuple[dict[int, int], int, float]:
        return (self.bins, self.count, self.max)

    def __setstate__(self, state: tuple[dict[int, int], int, float]) -> None:
        self.bins, self.count, self.max = state


def make_board(seed: int, index: int, rules: Rules | None = None) -> Board:
    """Board ``index`` of a run with ``seed`` (see the module notes)."""
    rules = rules if rules is not None else Rules(length=MATCH_LENGTH)
    rng = derived_rng("arena-board", seed, index)
    number = rng.randrange(1, rules.length + 1)
    # The match up to the board's deal goes on whatever its end condition says: a board
    # is one deal in the middle of a match.
    prefix_rules = dataclasses.replace(rules, end=MatchEnd.DEALS)
    match = Match(prefix_rules, seed=rng.getrandbits(64))
    prefix = HeuristicPlayer()
    while len(match.results) < number - 1:
        pending = match.pending()
        assert pending is not None
        match.apply_answer(prefix.decide(pending.view))
    deal = match.deal
    assert deal is not None and deal.setup.number == number
    return Board(index, rules, deal.setup, deal.available, deal.previous_scores, deal.totals)


def seat_permutations(configs: Sequence[str]) -> list[tuple[str, str, str]]:
    """The distinct ways to seat the three configurations, in a fixed (sorted) order."""
    if len(configs) != 3:
        raise ValueError("the arena needs three player configurations")
    return sorted({triple(p) for p in itertools.permutations(configs)})


def labels(configs: Sequence[str]) -> list[str]:
    """The distinct configurations, in the order first given."""
    return list(dict.fromkeys(configs))


def play_board(
    board: Board,
    configs: Sequence[str],
    seed: int,
    factory: Callable[[str, int], Player] = make_seat,
    done: Callable[[Player], None] | None = None,
) -> BoardOutcome:
    """Play ``board`` once per seat permutation of ``configs``; players from
    ``factory(config, player_seed)`` (default: :func:`ts358.bots.spec.make_seat`, a computer
    player or a bot), given to ``done`` after each deal (default: closed; a
    :class:`~ts358.bots.keeper.BotKeeper` keeps a bot's process for the next)."""
    scores = []
    games = []
    faults: list[dict[str, Any]] = []
    times: dict[str, dict[str, TimeHistogram]] = {label: {} for label in labels(configs)}
    clock = time.perf_counter
    for p, perm in enumerate(seat_permutations(configs)):
        players: list[Player] = []
        try:
            for s in range(3):
                players.append(
                    factory(perm[s], derived_seed("arena-player", seed, board.index, p, s))
                )
            result = _play(board, perm, players, times, clock)
        finally:
            for player in players:
                if done is not None:
                    done(player)
                else:
                    player.close()
        scores.append(result.scores)
        games.append(result.game.label)
        for s, player in enumerate(players):
            if isinstance(player, BotPlayer):
                faults += [
                    {
                        "board": board.index,
                        "seating": p,
                        "seat": s,
                        "player": perm[s],
                        **f.to_json(),
                    }
                    for f in player.faults
                ]
    return BoardOutcome(
        board.index, board.setup.number, tuple(scores), tuple(games), times, tuple(faults)
    )


def _play(
    board: Board,
    perm: tuple[str, str, str],
    players: list[Player],
    times: dict[str, dict[str, TimeHistogram]],
    clock: Callable[[], float],
) -> DealResult:
    deal = board.deal()
    while True:
        pending = deal.pending()
        if pending is None:
            break
        seat = pending.seat
        start = clock()
        decision = players[seat].decide(pending.view)
        kind = pending.view.kind.value if pending.view.kind else "none"
        times[perm[seat]].setdefault(kind, TimeHistogram()).add(clock() - start)
        try:
            deal.apply_answer(decision)
        except IllegalDecision as exc:
            raise ArenaError(f"board {board.index}, {perm[seat]} in seat {seat}: {exc}") from None
    result = deal.result()
    for s, player in enumerate(players):
        player.deal_over(s, result)
    return result


@dataclasses.dataclass(frozen=True)
class ArenaChunk:
    """The arguments of one task: a consecutive range of boards."""

    seed: int
    configs: tuple[str, str, str]
    start: int
    stop: int
    bot_seconds: float = DEFAULT_SECONDS
    rules: Rules = Rules(length=MATCH_LENGTH)


def run_chunk(chunk: ArenaChunk) -> list[BoardOutcome]:
    """One task (module level, so workers can unpickle it): its boards made and played, each
    bot's process kept from board to board."""
    keeper = BotKeeper(chunk.bot_seconds)
    try:
        return play_chunk(chunk, keeper)
    finally:
        keeper.close()


def play_chunk(chunk: ArenaChunk, keeper: BotKeeper) -> list[BoardOutcome]:
    """The boards of ``chunk``, each seat's player made by ``keeper``."""
    return [
        play_board(
            make_board(chunk.seed, b, chunk.rules),
            chunk.configs,
            chunk.seed,
            keeper.make,
            keeper.done,
        )
        for b in range(chunk.start, chunk.stop)
    ]


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher expansion about the normal quantile; within
    0.2% of the exact value for df >= 3; df = 1 and 2 exact)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    z = statistics.NormalDist().inv_cdf(p)
    if df == 2:
        return (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
    n = float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / n + g2 / n**2 + g3 / n**3 + g4 / n**4


def _mean_ci(values: Sequence[float]) -> tuple[float, float | None]:
    """Mean and the half-width of its 95% t interval (None with fewer than 2 values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None
    sd = statistics.stdev(values)
    return mean, t_quantile(0.975, len(values) - 1) * sd / math.sqrt(len(values))


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def summarize_arena(configs: Sequence[str], outcomes: Sequence[BoardOutcome]) -> dict[str, Any]:
    """The statistics of the module notes, as a JSON-ready dict (``results`` per
    configuration, ``pairs`` with the paired difference of each two configurations)."""
    perms = seat_permutations(configs)
    names = labels(configs)
    outcomes = sorted(outcomes, key=lambda o: o.index)
    per_board: dict[str, list[float]] = {n: [] for n in names}
    wins = dict.fromkeys(names, 0.0)
    seat_deals = dict.fromkeys(names, 0)
    times = {n: TimeHistogram() for n in names}
    kind_times: dict[str, dict[str, TimeHistogram]] = {n: {} for n in names}
    digest = hashlib.sha256()
    for outcome in outcomes:
        sums = dict.fromkeys(names, 0.0)
        counts = dict.fromkeys(names, 0)
        for perm, scores in zip(perms, outcome.scores):
            digest.update(f"{outcome.index}:{scores};".encode())
            top = max(scores)
            winners = [s for s in range(3) if scores[s] == top]
            for seat in range(3):
                label = perm[seat]
                sums[label] += scores[seat]
                counts[label] += 1
                seat_deals[label] += 1
                if seat in winners:
                    wins[label] += 1 / len(winners)
        for n in names:
            per_board[n].append(sums[n] / counts[n])
            for kind, histogram in outcome.times.get(n, {}).items():
                times[n].merge(histogram)
                kind_times[n].setdefault(kind, TimeHistogram()).merge(histogram)
    results = []
    for n in names:
        entry: dict[str, Any] = {"config": n, "seats": configs.count(n)}
        if outcomes:
            mean, half = _mean_ci(per_board[n])
            entry["mean"] = round(mean, 4)
            entry["ci95"] = None if half is None else [round(mean - half, 4), round(mean + half, 4)]
            entry["won"] = round(wins[n] / seat_deals[n], 4)
        else:
            entry.update(mean=None, ci95=None, won=None)
        entry["seat_deals"] = seat_deals[n]
        entry["decisions"] = times[n].count
        entry["decision_ms"] = times[n].milliseconds() | {
            "by_kind": {k: h.milliseconds() for k, h in sorted(kind_times[n].items())}
        }
        results.append(entry)
    pairs = []
    for a, b in itertools.combinations(names, 2):
        diffs = [x - y for x, y in zip(per_board[a], per_board[b])]
        if diffs:
            mean, half = _mean_ci(diffs)
            ci = None if half is None else [round(mean - half, 4), round(mean + half, 4)]
            pairs.append({"a": a, "b": b, "mean_difference": round(mean, 4), "ci95": ci})
    return {
        "boards": len(outcomes),
        "permutations": len(perms),
        "deals": len(outcomes) * len(perms),
        "results": results,
        "pairs": pairs,
        "digest": digest.hexdigest(),
        "faults": [f for outcome in outcomes for f in outcome.faults],
    }


def run_arena(
    configs: Sequence[str],
    boards: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_boards: Callable[[int], None] | None = None,
    chunk_cap: int = 8,
    bot_seconds: float = DEFAULT_SECONDS,
    remote: Sequence[Transport] = (),
    rules: Rules | None = None,
) -> dict[str, Any]:
    """Play ``boards`` boards in every seat permutation and return the results document
    (:func:`summarize_arena` plus the run's parameters). ``on_boards(n)`` is called as chunks of
    ``n`` boards finish (progress). ``bot_seconds``: the time control of the bots
    (``cmd:`` players), seconds per decision. ``remote``: the connections of the ``remote``
    seats' bots (:class:`~ts358.bots.listen.BotListener`), one per ``remote`` in
    ``configs``; with them the boards are played in this process, one after another.
    ``rules``: the matches the boards come from (None: the house rules, 6 deals)."""
    rules = rules if rules is not None else Rules(length=MATCH_LENGTH)

    if len(configs) != 3:
        raise ValueError("the arena needs three player configurations")
    # Written out the one way, so that equal players pool however they were typed.
    try:
        parsed = [parse_seat(c) for c in configs]
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    names = triple(map(str, parsed))
    specs = dict(zip(names, parsed))
    wanted = sum(isinstance(s, RemoteSpec) for s in parsed)
    if wanted != len(remote):
        raise ArenaError(
            f"{wanted} remote {'seat' if wanted == 1 else 'seats'} and "
            f"{len(remote)} remote bots' connections"
        )
    slots = 1 if remote else task_slots(workers, scheduler)
    ranges = chunk_ranges(boards, slots, cap=chunk_cap)
    chunks = [ArenaChunk(seed, names, r.start, r.stop, bot_seconds, rules) for r in ranges]

    def done(index: int, result: list[BoardOutcome]) -> None:
        if on_boards is not None:
            on_boards(len(result))

    start = time.perf_counter()
    if remote:  # the connections are in this process: the boards are played here
        keeper = BotKeeper(bot_seconds, remote)
        try:
            results = []
            for index, chunk in enumerate(chunks):
                results.append(play_chunk(chunk, keeper))
                done(index, results[-1])
        finally:
            keeper.close()
    else:
        results = run_chunks(run_chunk, chunks, workers=workers, scheduler=scheduler, on_done=done)
    seconds = time.perf_counter() - start
    outcomes = [o for chunk in results for o in chunk]
    document = {
        "command": "arena",
        "players": list(names),
        "efforts": {
            name: spec.described()
            for name, spec in specs.items()
            if isinstance(spec, PlayerSpec) and spec.level in ("hard", "expert")
        },
        "seed": seed,
        "rules": {"name": rules.label, **rules.to_json(), "length": rules.length},
        **(
            {"bot_seconds": bot_seconds}
            if any(isinstance(s, (BotSpec, RemoteSpec)) for s in parsed)
            else {}
        ),
        "board_context": BOARD_CONTEXT,
        "won_means": "highest score of the deal, ties shared; 1/3 is par",
        **summarize_arena(names, outcomes),
        "execution": {
            "workers": None if scheduler is not None else slots,
            "scheduler": scheduler,
            "task_slots": slots,
            "chunks": len(chunks),
            "seconds": round(seconds, 3),
        },
    }
    return document
