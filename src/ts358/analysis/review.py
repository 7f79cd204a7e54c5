"""After-deal analysis: how a finished deal went against double-dummy play, card by card.

For a :class:`~ts358.deal.DealResult`, :func:`review_deal` rebuilds the play position
before and after every card (hands after the exchange and the discard, cards already played
removed) and values each card in its player's own terms (:func:`ts358.analysis.solve.solve`:
that player alone against the other two, all cards seen). A card's **cost** is its
player's score before it (what their best card gives) minus the score after it; a
player's loss is the sum of their cards' costs (:meth:`DealReview.lost`), so the summary
and the list of costly cards agree by construction.

Why per card rather than the drops of a player's value from one trick to the next: in that
model a player's value falls only through their own cards (the other two are already
assumed to play against them) but it rises when another player's card is not the best
against them, and that can happen in the same trick as their own mistake. A drop over a
trick is the player's costs less what the others gave back in it, so it would hide a
mistake that was given back.

For the seats asked for (the human) every legal card is valued, which gives the better
alternatives to a costly card; the others' cards are valued by the two positions only.

Solving the early tricks of a full deal takes from milliseconds to minutes; pass
``deadline`` (a :func:`time.monotonic` value) to stop in time: it is kept inside the
searches, to a few milliseconds. Tricks are solved from the last to the first (the cheap end
first), so a cut-short review covers the end of the deal and says from which trick on
(:attr:`DealReview.first_trick`); the trick the deadline fell in is given as the intervals
of scores proven by then (:attr:`DealReview.cut`), and counts for nobody.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Collection

from ts358._core358 import Solver
from ts358.analysis.solve import SolveResult, new_solver, solve
from ts358.cards import Card, CardSet
from ts358.deal import DealResult
from ts358.position import Position
from ts358.rules import Contract, Role, Rules, Triple, VoidRule, triple

__all__ = ["DealReview", "PlayReview", "TrickValues", "play_positions", "review_deal"]

_Bounds = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class PlayReview:
    """One card played, valued in its player's own double-dummy terms.

    Attributes:
        trick: the trick number (1-16).
        seat: who played.
        card: the card played.
        score: the player's double-dummy deal score after playing ``card``.
        best_score: their score before it: what their best card gives.
        best: the cards that give ``best_score``, for the seats reviewed card by card
            (empty for the others).
    """

    trick: int
    seat: int
    card: Card
    score: int
    best_score: int
    best: tuple[Card, ...]

    @property
    def lost(self) -> int:
        """What the card cost its player: ``best_score - score`` (0 for a best card)."""
        return self.best_score - self.score


@dataclasses.dataclass(frozen=True)
class TrickValues:
    """The trick the deadline fell in: each seat's score before its card in trick
    ``number``, as the interval proven by then (by match seat, ``(lo, hi)``, equal where
    exact)."""

    number: int
    score_bounds: Triple[tuple[int, int]]


@dataclasses.dataclass(frozen=True)
class DealReview:
    """The analysis of one deal.

    Attributes:
        number: the deal number.
        game: the game played.
        reviews: every card of the analysed tricks (``first_trick`` to 16), in play order.
        first_trick: the first trick analysed (1 unless ``from_trick`` or the deadline cut
            it short; 17 when none was).
        cut: the trick before ``first_trick`` when the deadline fell in it, else None.
        scores: the deal's scores, by seat.
        seconds: time spent.
    """

    number: int
    game: Contract
    reviews: tuple[PlayReview, ...]
    first_trick: int
    cut: TrickValues | None
    scores: Triple[int]
    seconds: float

    @property
    def complete(self) -> bool:
        """Whether every trick was analysed."""
        return self.first_trick == 1

    def lost(self) -> tuple[int, int, int]:
        """The score each seat lost by its own cards in the analysed tricks: the sum of
        their costs (:attr:`PlayReview.lost`)."""
        lost = [0, 0, 0]
        for r in self.reviews:
            lost[r.seat] += r.lost
        return (lost[0], lost[1], lost[2])

    def mistakes(self) -> tuple[PlayReview, ...]:
        """The cards that cost something, in play order."""
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
    rules: Rules | VoidRule = VoidRule.HOUSE,
    review: Collection[int] = (0,),
    *,
    from_trick: int = 1,
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    solver: Solver | None = None,
) -> DealReview:
    """Analyse a finished deal (see the module docstring).

    Args:
        result: the deal.
        rules: the rules the deal was played under (their void rule and targets), or just
            its void rule (then the house targets).
        review: the seats whose every legal card is valued, for the better alternatives
            to their costly cards (:attr:`PlayReview.best`); every seat's cards are
            valued and costed either way.
        from_trick: analyse only this trick and the later ones (1-16).
        deadline: a :func:`time.monotonic` time at which the review stops, inside a
            search if need be (the values of that trick are then intervals).
        progress: called as ``progress(done, total)`` after each card valued.
        solver: a core solver to reuse (one is made otherwise).
    """
    start = time.monotonic()
    rules = rules if isinstance(rules, Rules) else Rules(void=rules)
    positions = play_positions(result, rules.void)

    def shift(role: Role) -> int:
        # The solver's scores are the house targets'; a rule set's differ by a constant.
        return rules.score(role, result.game, 0) - role.score(result.game, 0)

    # Each card of the tricks to analyse, with the positions before and after it.
    tricks: dict[int, list[tuple[int, Card, Position, Position]]] = {}
    for (number, seat, before), (_, _, after) in itertools.pairwise(positions):
        if number >= from_trick:
            card = result.tricks[number - 1].cards[len(before.trick)]
            tricks.setdefault(number, []).append((seat, card, before, after))
    total = sum(len(cards) for cards in tricks.values())
    done = 0
    solver = solver if solver is not None else new_solver(32)
    valued: list[tuple[int, int, PlayReview]] = []
    cut: TrickValues | None = None
    first = len(result.tricks) + 1

    def solve_in(position: Position, role: Role, moves: bool) -> SolveResult:
        # Within the seconds left; past the deadline, the trick it fell in still gets what
        # a search of a few milliseconds proves, for the ranges shown.
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        return solve(position, role, moves=moves, solver=solver, time_limit=left)

    for number in sorted(tricks, reverse=True):
        if deadline is not None and time.monotonic() >= deadline:
            break
        found: list[tuple[int, Card, _Bounds, _Bounds, tuple[Card, ...]]] = []
        # The last card first: its positions are the smallest, and the solver's table,
        # kept between solves, then makes the earlier ones of the deal several times cheaper.
        for seat, card, before, after in reversed(tricks[number]):
            role = result.role_of(seat)
            b, a, best = _value(card, role, before, after, seat in review, solve_in)
            d = shift(role)
            found.append((seat, card, (b[0] + d, b[1] + d), (a[0] + d, a[1] + d), best))
            done += 1
            if progress:
                progress(done, total)
        if not all(b[0] == b[1] and a[0] == a[1] for _, _, b, a, _ in found):
            bounds = {seat: b for seat, _, b, _, _ in found}
            cut = TrickValues(number, triple(bounds[s] for s in range(3)))
            break
        for seat, card, (before_score, _), (score, _), best in found:
            index = (seat - result.tricks[number - 1].leader) % 3
            valued.append(
                (number, index, PlayReview(number, seat, card, score, before_score, best))
            )
        first = number
    return DealReview(
        number=result.number,
        game=result.game,
        reviews=tuple(r for _, _, r in sorted(valued, key=lambda v: v[:2])),
        first_trick=first,
        cut=cut,
        scores=result.scores,
        seconds=time.monotonic() - start,
    )


def _value(
    card: Card,
    role: Role,
    before: Position,
    after: Position,
    every_card: bool,
    solve_in: Callable[[Position, Role, bool], SolveResult],
) -> tuple[_Bounds, _Bounds, tuple[Card, ...]]:
    """The score bounds of ``role`` before and after ``card``, and its best cards when
    ``every_card`` (else none)."""
    if every_card:
        moved = solve_in(before, role, True)
        now = moved.player(role)
        then = next(m.score_bounds for m in moved.moves if m.card == card)
        return (
            now.score_bounds,
            then,
            tuple(m.card for m in moved.moves if m.exact and m.score == now.score),
        )
    # After first, for the same reason as the order of the cards.
    then = solve_in(after, role, False).player(role).score_bounds
    return solve_in(before, role, False).player(role).score_bounds, then, ()
