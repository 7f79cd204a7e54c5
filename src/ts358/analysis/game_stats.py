"""Batch double-dummy analysis of random deals: how well can the chooser do in each game?

For deal ``i`` of a run with seed ``S`` the cards are shuffled by a random generator seeded
with ``(S, i)`` only (deal 1 of a match, dealer seat 0, so no exchange). Then, for each game:

1. the chooser takes the talon and discards four cards. The best of all C(20, 4) = 4845
   discards would take thousands of full-deal solves, so the discard is an **approximation**:
   the best, for the chooser's double-dummy score, of ``N`` rule-of-thumb candidates (stated
   in every output line as ``"discard": "best of N rule-of-thumb candidates"``):

   * the rule-of-thumb player's own discard (:class:`~ts358.players.HeuristicPlayer`);
   * then the best-ranked other sets of four from a pool of sensible discards: in trump
     games the three lowest cards below the king of each side suit, ranked by suits voided
     (more first), then by rank total (lower first); in no-trump the three lowest cards below
     the king of each suit, by rank total; in no-tricks the three highest of each suit, by
     rank total (higher first), then by suits voided.

   Equal scores keep the earlier candidate. The true best discard can only be better, so
   the chooser's values are lower bounds of the exact ones.
2. with that discard, each player's double-dummy value (:mod:`ts358.analysis.solve`: the paranoid
   model, one player against the other two; the three values need not add up to 16) as
   tricks and deal score. The game is **made** when the chooser's score is >= 0.

One JSON object per deal (:func:`deal_stats`), written as JSON lines; :func:`summarize_game_stats`
turns a file of them into the tables printed by ``ts358 analyze --summary``.

**Node budget.** Full-deal solves take from milliseconds to minutes, so a run's time is set
by a few monster solves. ``max_nodes=N`` (N > 0) stops each solve after about ``N`` nodes
(``_core358.SearchLimit``) and records what it could not finish honestly:

* a discard candidate whose chooser solve stops is skipped, not compared (the kept discard
  is the best of the solved ones, still a lower bound);
* if every candidate stops there is no discard: ``discard``, ``chooser``, ``third``,
  ``dealer`` and ``made`` are null (the third and dealer are not solved);
* a stopped third or dealer solve makes that role null;
* the game entry counts its stopped solves in ``"unsolved": k`` (only when k > 0), and the
  record carries ``"max_nodes": N``; ``"solves"`` counts the stopped solves too.

``time_limit=T`` (seconds, T > 0) stops each solve after about ``T`` seconds the same way
and the record carries ``"time_limit": T``; unlike a node budget it depends on the machine
and its load, so such records are not reproducible. Without a budget the records have
neither key. A node budget is a count, not a clock, so the same run gives the same records
on any machine and any split into chunks: each deal starts from an empty solver table,
because what the table holds changes how many nodes a solve needs. The records depend on
the solver version and table size (32 MB), though. :func:`summarize_game_stats` leaves the
nulls out, which biases its figures toward easier deals.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ts358 import _core358
from ts358._core358 import Solver
from ts358._input import InputError, parse_json
from ts358.batch.pool import chunk_ranges, run_chunks, task_slots
from ts358.cards import Card, CardSet, Suit
from ts358.deal import Deal, DealSetup
from ts358.players import HeuristicPlayer
from ts358.players.solving import CorePosition
from ts358.rules import Contract, Role, Rules, Talon
from ts358.seeds import derived_rng

__all__ = [
    "DEFAULT_CANDIDATES",
    "deal_stats",
    "discard_candidates",
    "discard_method",
    "longest_first_six",
    "run_game_stats",
    "summarize_game_stats",
]

DEFAULT_CANDIDATES = 3
GAMES = tuple(Contract)
_HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # A K Q J


def discard_method(candidates: int) -> str:
    return f"best of {candidates} rule-of-thumb candidates"


def make_setup(seed: int, index: int) -> DealSetup:
    """The cards of deal ``index`` of a run with ``seed`` (deal 1 of a match, dealer 0)."""
    return DealSetup.shuffled(1, 0, derived_rng("analyze-deal", seed, index))


def discard_candidates(hand: CardSet, game: Contract, first: CardSet, count: int) -> list[CardSet]:
    """``first`` (the rule-of-thumb discard), then the ``count - 1`` best-ranked other
    discards of the module notes, from the chooser's 20 cards ``hand``."""
    candidates = [first]
    if count <= 1:
        return candidates
    trump = game.trump
    misere = game is Contract.NO_TRICKS
    pool: list[Card] = []
    for suit in Suit:
        cards = sorted(hand.suit(suit), key=lambda c: c.rank, reverse=misere)
        if trump is not None and suit == trump:
            continue
        if not misere:
            cards = [c for c in cards if c.rank < 11]  # keep kings and aces
        pool.extend(cards[:3])

    def rank_key(combo: tuple[Card, ...]) -> tuple[int, int, tuple[int, ...]]:
        total = sum(c.rank for c in combo)
        taken = CardSet(combo)
        voids = sum(1 for s in Suit if hand.suit(s) and not (hand.suit(s) - taken))
        ids = tuple(sorted(c.id for c in combo))  # a fixed order among equals
        if misere:
            return (-total, -voids, ids)
        if trump is not None:
            return (-voids, total, ids)
        return (total, -voids, ids)

    for combo in sorted(itertools.combinations(pool, 4), key=rank_key):
        candidate = CardSet(combo)
        if candidate not in candidates:
            candidates.append(candidate)
            if len(candidates) == count:
                break
    return candidates


def _value(
    solver: Solver,
    hands: Sequence[CardSet],
    game: Contract,
    rules: Rules,
    role: Role,
    max_nodes: int,
    time_limit: float = 0,
) -> dict[str, int] | None:
    """The role's value, or None when the solve stops at the node budget or time limit."""
    deadline = time.monotonic() + time_limit if time_limit > 0 else 0
    try:
        tricks = solver.value(
            *CorePosition.whole_deal(hands, game, rules),
            int(role),
            max_nodes=max_nodes,
            deadline=deadline,
        )
    except _core358.SearchLimit:
        return None
    return {"tricks": tricks, "score": rules.score(role, game, tricks)}


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def longest_first_six(first_six: CardSet) -> tuple[Suit, int]:
    """The longest suit among the first six cards and its length; ties go to the suit with
    more high-card points (A 4, K 3, Q 2, J 1), then to the first of S H D C."""

    def key(suit: Suit) -> tuple[int, int, int]:
        cards = first_six.suit(suit)
        return (len(cards), sum(_HCP.get(c.rank, 0) for c in cards), -suit)

    best = max(Suit, key=key)
    return best, len(first_six.suit(best))


def deal_stats(
    seed: int,
    index: int,
    *,
    games: Sequence[Contract] = GAMES,
    candidates: int = DEFAULT_CANDIDATES,
    rules: Rules = Rules(),
    solver: Solver | None = None,
    max_nodes: int = 0,
    time_limit: float = 0,
) -> dict[str, Any]:
    """The analysis of deal ``index`` (module notes) as a JSON-ready dict; ``max_nodes > 0``
    is the node budget and ``time_limit > 0`` the time limit (seconds) of each solve
    (module notes)."""
    if time_limit < 0:
        raise ValueError("time_limit must be at least 0 (0: no limit)")
    if candidates < 1:
        raise ValueError("at least one discard candidate is needed")
    if max_nodes < 0:
        raise ValueError("max_nodes must be at least 0 (0: no limit)")
    solver = solver if solver is not None else _core358.Solver(32)
    if max_nodes:
        # Entries left by earlier deals change how many nodes a solve needs, so without this
        # whether a budgeted solve finishes would depend on the deals before it in its chunk.
        # Without a budget the values are exact whatever the table holds.
        solver.clear()
    setup = make_setup(seed, index)
    dealer = setup.dealer
    by_role = [setup.hands[r.seat(dealer)] for r in Role]
    first_six = CardSet(by_role[Role.CHOOSER][:6])
    suit, length = longest_first_six(first_six)
    rule_of_thumb = HeuristicPlayer()
    solves = 0
    out_games: dict[str, Any] = {}
    for game in games:
        deal = Deal(setup, rules)
        deal.choose(game)
        pending = deal.pending()
        assert pending is not None and pending.seat == deal.chooser  # the discard
        twenty = pending.view.options
        # Discarding before taking the talon (Talon.DISCARD_FIRST): it joins the hand after.
        later = CardSet(setup.talon) if rules.talon is Talon.DISCARD_FIRST else CardSet()
        first = rule_of_thumb.discard(pending.view)
        best: tuple[int, CardSet, dict[str, int]] | None = None
        stopped = 0
        tried = discard_candidates(twenty, game, first, candidates)
        for candidate in tried:
            hands = [(twenty - candidate) | later, CardSet(by_role[1]), CardSet(by_role[2])]
            value = _value(solver, hands, game, rules, Role.CHOOSER, max_nodes, time_limit)
            solves += 1
            if value is None:
                stopped += 1
            elif best is None or value["score"] > best[0]:
                best = (value["score"], candidate, value)
        if best is None:
            entry: dict[str, Any] = {
                "discard": None,
                "tried": len(tried),
                "chooser": None,
                "third": None,
                "dealer": None,
                "made": None,
            }
        else:
            _, discard, chooser_value = best
            hands = [(twenty - discard) | later, CardSet(by_role[1]), CardSet(by_role[2])]
            entry = {
                "discard": _cards(discard.descending()),
                "tried": len(tried),
                "chooser": chooser_value,
            }
            for role in (Role.THIRD, Role.DEALER):
                value = _value(solver, hands, game, rules, role, max_nodes, time_limit)
                solves += 1
                stopped += value is None
                entry[role.label] = value
            entry["made"] = chooser_value["score"] >= 0
        if stopped:
            entry["unsolved"] = stopped
        out_games[game.label] = entry
    budget: dict[str, Any] = {"max_nodes": max_nodes} if max_nodes else {}
    if time_limit:
        budget["time_limit"] = time_limit
    return {
        "deal": index,
        "seed": seed,
        "rules": rules.void.label,
        **({"rule_set": rules.to_json()} if rules.preset != "house" else {}),
        "discard": discard_method(candidates),
        **budget,
        "first_six": _cards(by_role[Role.CHOOSER][:6]),
        "longest_first_six": {"suit": suit.name.lower(), "length": length},
        "hands": {
            "chooser": str(CardSet(by_role[0])),
            "third": str(CardSet(by_role[1])),
            "dealer": str(CardSet(by_role[2])),
            "talon": _cards(setup.talon),
        },
        "games": out_games,
        "solves": solves,
    }


@dataclasses.dataclass(frozen=True)
class AnalyzeChunk:
    """The arguments of one task: a consecutive range of deals."""

    seed: int
    start: int
    stop: int
    games: tuple[Contract, ...]
    candidates: int
    rules: Rules
    max_nodes: int
    time_limit: float = 0


def run_chunk(chunk: AnalyzeChunk) -> list[dict[str, Any]]:
    """One task (module level, so workers can unpickle it); one solver for its deals."""
    solver = _core358.Solver(32)
    rules = chunk.rules
    return [
        deal_stats(
            chunk.seed,
            i,
            games=chunk.games,
            candidates=chunk.candidates,
            rules=rules,
            solver=solver,
            max_nodes=chunk.max_nodes,
            time_limit=chunk.time_limit,
        )
        for i in range(chunk.start, chunk.stop)
    ]


def run_game_stats(
    deals: int,
    seed: int,
    *,
    first: int = 0,
    games: Sequence[Contract] = GAMES,
    candidates: int = DEFAULT_CANDIDATES,
    rules: Rules = Rules(),
    workers: int | None = None,
    scheduler: str | None = None,
    on_deal: Callable[[dict[str, Any]], None] | None = None,
    chunk_cap: int = 4,
    max_nodes: int = 0,
    time_limit: float = 0,
) -> list[dict[str, Any]]:
    """Analyze deals ``first .. first+deals-1``; returns their records in order. ``on_deal`` gets
    each record *in deal order* as soon as it and all earlier ones are done (streaming).
    ``max_nodes > 0`` is the node budget and ``time_limit > 0`` the time limit of each
    solve (module notes)."""

    slots = task_slots(workers, scheduler)
    chunks = [
        AnalyzeChunk(
            seed,
            first + r.start,
            first + r.stop,
            tuple(games),
            candidates,
            rules,
            max_nodes,
            time_limit,
        )
        for r in chunk_ranges(deals, slots, cap=chunk_cap)
    ]
    ready: dict[int, list[dict[str, Any]]] = {}
    next_chunk = 0

    def done(index: int, records: list[dict[str, Any]]) -> None:
        nonlocal next_chunk
        ready[index] = records
        while next_chunk in ready:
            for record in ready.pop(next_chunk):
                if on_deal is not None:
                    on_deal(record)
            next_chunk += 1

    results = run_chunks(run_chunk, chunks, workers=workers, scheduler=scheduler, on_done=done)
    return [record for chunk in results for record in chunk]


def stats_line(record: dict[str, Any]) -> str:
    """One JSON line (keys in a fixed order, no spaces to spare)."""
    return json.dumps(record, separators=(",", ":"))


# ---------------------------------------------------------------------- summary


def _rate(made: int, total: int) -> float | None:
    return None if total == 0 else round(made / total, 4)


def _mean(cell: list[int]) -> float | None:
    """The mean of a ``[count, total]`` cell (None for no values)."""
    return None if cell[0] == 0 else round(cell[1] / cell[0], 4)


def summarize_game_stats(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Tables from analysis records (JSON-ready):

    * ``games``: per game, deals analyzed, ``unsolved`` (deals whose chooser value stopped at
      the node budget), share made by the chooser, mean score of each role;
    * ``by_longest``: by the length of the chooser's longest suit among the first six (ties
      as in :func:`longest_first_six`): the share made when that suit is trump, in no-trump,
      in no-tricks, and with the best game for the deal (hindsight: any game made);
    * ``by_trumps``: trump games pooled over the four suits, by how many trumps were among
      the first six: observations, share made, mean chooser score;
    * ``max_nodes``: the node budgets of the records (0: none).

    Null values (solves stopped at the node budget) are left out: every share and mean is over
    the solved values only (a deal counts for "any game made" once a solved game is made, or
    when all its games are solved). That biases them toward easier deals.
    """
    per_game: dict[str, dict[str, Any]] = {}
    by_longest: dict[int, dict[str, list[int]]] = {}
    by_trumps: dict[int, list[int]] = {}  # trumps -> [count, made, score total]
    count = 0
    methods: set[str] = set()
    budgets: set[int] = set()
    roles = ("chooser", "third", "dealer")
    for record in records:
        count += 1
        methods.add(record.get("discard", "?"))
        budgets.add(record.get("max_nodes", 0))
        games = record["games"]
        for label, entry in games.items():
            g = per_game.setdefault(
                label, {"deals": 0, "unsolved": 0, "made": [0, 0], **{r: [0, 0] for r in roles}}
            )
            g["deals"] += 1
            if entry["chooser"] is None:
                g["unsolved"] += 1
            else:
                g["made"][0] += 1
                g["made"][1] += bool(entry["made"])
            for role in roles:
                if entry[role] is not None:
                    g[role][0] += 1
                    g[role][1] += entry[role]["score"]
        longest = record["longest_first_six"]
        row = by_longest.setdefault(
            longest["length"],
            {"deals": [0], "trump": [0, 0], "no-trump": [0, 0], "no-tricks": [0, 0], "any": [0, 0]},
        )
        row["deals"][0] += 1
        for column, label in (
            ("trump", longest["suit"]),
            ("no-trump", "no-trump"),
            ("no-tricks", "no-tricks"),
        ):
            if label in games and games[label]["made"] is not None:
                row[column][0] += 1
                row[column][1] += bool(games[label]["made"])
        outcomes = [e["made"] for e in games.values()]
        if True in outcomes or (outcomes and None not in outcomes):
            row["any"][0] += 1
            row["any"][1] += True in outcomes
        six = [Card.parse(t) for t in record["first_six"].split()]
        for label, entry in games.items():
            trump = Contract.parse(label).trump
            if trump is None or entry["chooser"] is None:
                continue
            n = sum(1 for c in six if c.suit == trump)
            cell = by_trumps.setdefault(n, [0, 0, 0])
            cell[0] += 1
            cell[1] += bool(entry["made"])
            cell[2] += entry["chooser"]["score"]
    order = {c.label: c.value for c in Contract}
    games_table = []
    for label in sorted(per_game, key=lambda x: order.get(x, 99)):
        g = per_game[label]
        games_table.append(
            {
                "game": label,
                "deals": g["deals"],
                "unsolved": g["unsolved"],
                "made": _rate(g["made"][1], g["made"][0]),
                "mean_score": {r: _mean(g[r]) for r in roles},
            }
        )
    longest_table = []
    for length in sorted(by_longest):
        row = by_longest[length]
        longest_table.append(
            {
                "length": length,
                "deals": row["deals"][0],
                **{
                    col: _rate(row[col][1], row[col][0])
                    for col in ("trump", "no-trump", "no-tricks", "any")
                },
            }
        )
    trumps_table = [
        {
            "trumps": n,
            "observations": c[0],
            "made": _rate(c[1], c[0]),
            "mean_score": round(c[2] / c[0], 4),
        }
        for n, c in sorted(by_trumps.items())
    ]
    return {
        "deals": count,
        "discard": sorted(methods),
        "max_nodes": sorted(budgets),
        "games": games_table,
        "by_longest": longest_table,
        "by_trumps": trumps_table,
    }


def read_stats_lines(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Records from JSON lines (blank lines skipped); ValueError names a bad line."""
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = parse_json(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number} is not JSON: {exc.msg}") from None
        except InputError as exc:
            raise ValueError(f"line {number}: {exc}") from None
        if (
            not isinstance(record, dict)
            or "games" not in record
            or "longest_first_six" not in record
        ):
            raise ValueError(f"line {number} is not an analysis record (no games)")
        # The record is checked by use, as a replay checks a match record: the summary reads
        # every field it needs, and a field of the wrong shape fails here with the line's
        # number rather than later in the summary of all lines.
        try:
            summarize_game_stats([record])
        except (TypeError, KeyError, AttributeError, ValueError, IndexError):
            raise ValueError(
                f"line {number} is not an analysis record (a field of the wrong kind)"
            ) from None
        records.append(record)
    return records
