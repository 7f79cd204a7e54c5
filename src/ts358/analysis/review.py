"""After-deal analysis: how a finished deal went against double-dummy play.

For a :class:`~ts358.deal.DealResult`, :func:`review_deal` rebuilds the play position at
the start of every trick (hands after the exchange and the discard, cards already played
removed) and solves it for all three players (:func:`ts358.analysis.solve.solve`: each player alone
against the other two, all cards seen). In that model a player's value can only drop
through their own play (the other two are already assumed to play against them), so the
drops over a trick are the tricks that player lost against double dummy. For the seats
asked for (the human), the position before each of their plays is solved card by card,
which gives the best alternative to each card that lost something.

Solving the early tricks of a full deal takes from milliseconds to minutes; pass
``deadline`` (a :func:`time.monotonic` value) to stop in time: it is kept inside the
searches, to a few milliseconds. Tricks are solved from the last to the first (the cheap end
first), so a cut-short review covers the end of the deal and says from which trick on
(:attr:`DealReview.first_trick`); the trick the deadline fell in is given as the intervals
of scores proven by then.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection
from typing import Any

from ts358.analysis.solve import new_solver, solve
from ts358.cards import Card, CardSet
from ts358.deal import DealResult
from ts358.position import Position
from ts358.rules import Contract, Role, Triple, VoidRule, triple

__all__ = ["DealReview", "PlayReview", "TrickValues", "play_positions", "review_deal"]


@dataclasses.dataclass(frozen=True)
class TrickValues:
    """Each seat's double-dummy value at the start of trick ``number`` (1-16; 17 = the end).

    ``tricks`` and ``scores`` are by match seat: total tricks for the deal and its score,
    None where the deadline cut the solve short; ``score_bounds`` are the scores proven
    (equal where exact).
    """

    number: int
    tricks: Triple[int | None]
    scores: Triple[int | None]
    score_bounds: Triple[tuple[int, int]]

    @property
    def exact(self) -> bool:
        """Whether every seat's value is exact."""
        return all(s is not None for s in self.scores)


@dataclasses.dataclass(frozen=True)
class PlayReview:
    """One card a reviewed seat played, against its best alternatives.

    Attributes:
        trick: the trick number (1-16).
        seat: who played.
        card: the card played.
        score: the seat's double-dummy deal score after playing ``card``.
        best_score: the best score any legal card gave.
        best: the cards that gave ``best_score``.
    """

    trick: int
    seat: int
    card: Card
    score: int
    best_score: int
    best: tuple[Card, ...]

    @property
    def lost(self) -> int:
        """Score (= tricks) lost by this card against the best one."""
        return self.best_score - self.score


@dataclasses.dataclass(frozen=True)
class DealReview:
    """The analysis of one deal.

    Attributes:
        number: the deal number.
        game: the game played.
        values: the values at the start of each analysed trick and at the end (number 17),
            in trick order.
        reviews: the reviewed seats' plays in analysed tricks, in play order.
        first_trick: the first trick analysed (1 unless ``from_trick`` or the deadline cut
            it short; 17 when only the end of the deal was).
        seconds: time spent.
    """

    number: int
    game: Contract
    values: tuple[TrickValues, ...]
    reviews: tuple[PlayReview, ...]
    first_trick: int
    seconds: float

    @property
    def complete(self) -> bool:
        """Whether every trick was reviewed exactly."""
        return self.first_trick == 1 and all(v.exact for v in self.values)

    def lost(self) -> tuple[int, int, int]:
        """Tricks each seat lost against double dummy over the analysed tricks: the sum of
        the drops of its value from one trick start to the next (where both are exact)."""
        lost = [0, 0, 0]
        for before, after in zip(self.values, self.values[1:]):
            for seat in range(3):
                a, b = before.scores[seat], after.scores[seat]
                if a is not None and b is not None:
                    lost[seat] += max(0, a - b)
        return (lost[0], lost[1], lost[2])

    def mistakes(self) -> tuple[PlayReview, ...]:
        """The reviewed plays that lost something against the best card."""
        return tuple(r for r in self.reviews if r.lost > 0)


def _play_hands(result: DealResult) -> list[CardSet]:
    """Each seat's 16 cards at the start of play: dealt, exchanged, talon taken, discarded."""
    hands = [CardSet(h) for h in result.hands]
    for step in result.exchanges:
        if step.given is not step.returned:
            giver, receiver = hands[step.giver], hands[step.receiver]
            hands[step.giver] = giver.without_card(step.given).with_card(step.returned)
            hands[step.receiver] = receiver.with_card(step.given).without_card(step.returned)
    chooser = result.chooser
    hands[chooser] = (hands[chooser] | CardSet(result.talon)) - result.discard
    return hands


def play_positions(result: DealResult, void: VoidRule) -> list[tuple[int, int, Position]]:
    """Every position of the play of ``result`` before a card is played, as
    (trick number, seat to play, position), in play order; the last entry is the end of the
    deal (trick 17, seat -1)."""
    hands = _play_hands(result)
    role_seat = [result.seat_of(r) for r in Role]
    taken = [0, 0, 0]
    out: list[tuple[int, int, Position]] = []

    def position(leader: int, trick: tuple[Card, ...]) -> Position:
        return Position(
            result.game,
            triple(hands[s] for s in role_seat),
            void=void,
            leader=result.role_of(leader),
            trick=trick,
            taken=triple(taken[s] for s in role_seat),
        )

    for number, trick in enumerate(result.tricks, 1):
        for index, card in enumerate(trick.cards):
            seat = trick.seat_of(index)
            out.append((number, seat, position(trick.leader, trick.cards[:index])))
            hands[seat] = hands[seat].without_card(card)
        taken[trick.winner] += 1
    out.append((len(result.tricks) + 1, -1, position(result.tricks[-1].winner, ())))
    return out


def review_deal(
    result: DealResult,
    void: VoidRule = VoidRule.HOUSE,
    review: Collection[int] = (0,),
    *,
    from_trick: int = 1,
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    solver: Any | None = None,
) -> DealReview:
    """Analyse a finished deal (see the module docstring).

    Args:
        result: the deal.
        void: the void rule the deal was played under.
        review: the seats whose every play is valued card by card.
        from_trick: analyse only this trick and the later ones (1-16).
        deadline: a :func:`time.monotonic` time at which the review stops, inside a
            search if need be (the values of that trick are then intervals).
        progress: called as ``progress(done, total)`` after each solve.
        solver: a core solver to reuse (one is made otherwise).
    """
    start = time.monotonic()
    positions = play_positions(result, void)
    seat_role = [result.role_of(s) for s in range(3)]
    # One position per trick start: the leader's, and the end.
    by_trick: dict[int, Position] = {}
    for number, _, pos in positions:
        if number not in by_trick and not pos.trick and number >= from_trick:
            by_trick[number] = pos
    plays = [(n, seat, p) for n, seat, p in positions if seat in review and n >= from_trick]
    total = len(by_trick) + len(plays)
    done = 0
    solver = solver if solver is not None else new_solver(32)
    values: dict[int, TrickValues] = {}
    reviews: dict[tuple[int, int], PlayReview] = {}
    end = len(result.tricks) + 1
    first = end

    def limit() -> float | None:
        # Seconds left; a past deadline still lets the end of the deal (no search) be valued.
        return None if deadline is None else max(deadline - time.monotonic(), 1e-3)

    for number in sorted(by_trick, reverse=True):
        left = limit()
        if values and deadline is not None and time.monotonic() >= deadline:
            break
        pos = by_trick[number]
        # The solver's table is kept between solves: later positions of the same deal
        # share most of their subtrees, which makes the early tricks several times cheaper.
        solved = solve(pos, moves=False, solver=solver, time_limit=left)
        values[number] = TrickValues(
            number,
            triple(solved.player(seat_role[s]).tricks for s in range(3)),
            triple(solved.player(seat_role[s]).score for s in range(3)),
            triple(solved.player(seat_role[s]).score_bounds for s in range(3)),
        )
        first = min(first, number)
        done += 1
        if progress:
            progress(done, total)
        if not solved.exact:
            break  # the deadline fell in this trick
        # The reviewed seats' plays in this trick.
        for n, seat, p in plays:
            if n != number or (deadline is not None and time.monotonic() >= deadline):
                continue
            left = limit()
            moved = solve(p, seat_role[seat], moves=True, solver=solver, time_limit=left)
            done += 1
            if progress:
                progress(done, total)
            if not moved.exact:
                continue
            card = next(
                result.tricks[n - 1].cards[i]
                for i in range(3)
                if result.tricks[n - 1].seat_of(i) == seat
            )
            scores = {m.card: m.score for m in moved.moves if m.score is not None}
            best = max(scores.values())
            reviews[(n, seat)] = PlayReview(
                n, seat, card, scores[card], best, tuple(c for c, s in scores.items() if s == best)
            )
    ordered_values = tuple(values[n] for n in sorted(values))
    ordered_reviews = tuple(
        reviews[k]
        for k in sorted(reviews, key=lambda k: (k[0], (k[1] - result.tricks[k[0] - 1].leader) % 3))
    )
    return DealReview(
        number=result.number,
        game=result.game,
        values=ordered_values,
        reviews=ordered_reviews,
        first_trick=first,
        seconds=time.monotonic() - start,
    )
