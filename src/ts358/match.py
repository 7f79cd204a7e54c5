"""A match of 3k deals (docs/rules.md#the-match): deals in turn, the dealer moving one seat
clockwise, each seat's games used up, totals, standings.

Like :class:`~ts358.deal.Deal`, a match is driven by :meth:`Match.pending` and the same typed
methods (:meth:`Match.play` ...), :meth:`Match.apply` (notation) or :meth:`Match.apply_answer`;
:meth:`Match.run` is just that loop with player objects. A match's
state is a pure function of its seed (or deal setups) and the decisions applied, which is
what :meth:`Match.snapshot` saves and :meth:`Match.restore` replays.

The seed makes the deals and, apart from them, the computer players' seeds
(:func:`player_seed`): each is derived from the seed and its own label by a one-way hash
(:mod:`ts358.seeds`), so a player's seed tells nothing of the cards it can't see.
"""

from __future__ import annotations

import dataclasses
import random
import unicodedata
from collections.abc import Sequence

from ts358._input import quote
from ts358.cards import Card, CardSet
from ts358.deal import (
    Answer,
    Applied,
    Deal,
    DealResult,
    DealSetup,
    Decider,
    IllegalDecision,
    Pending,
)
from ts358.refusal import Reason, Refusal
from ts358.rules import TWELVE, Contract, MatchEnd, Rules
from ts358.seeds import derived_rng, derived_seed

__all__ = [
    "DEFAULT_NAMES",
    "MAX_NAME",
    "SEEDING",
    "Match",
    "MatchSnapshot",
    "check_name",
    "clean_name",
    "player_seed",
    "standings",
]

DEFAULT_NAMES = ("North", "East", "West")

SEEDING = 2
"""How a new match makes its deals from its seed (:class:`Match`); 1 is the earlier way."""


MAX_NAME = 40
"""The longest player name a match takes."""


def check_name(name: object) -> None:
    """ValueError (one line, quoting it) unless ``name`` is a player's name: 1 to
    :data:`MAX_NAME` printable characters (names are printed at the table: a control or
    format character, an escape sequence, a newline, a bidirectional override, from a crafted
    save, record or browser would reach the terminal)."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        raise ValueError(f"a player's name is 1-{MAX_NAME} characters, not {quote(name)}")
    if any(unicodedata.category(c)[0] in "CZ" and c != " " for c in name):
        raise ValueError(f"a player's name has a character that can't be printed: {quote(name)}")


def clean_name(name: object) -> str:
    """``name`` as typed, with its runs of spaces folded to one and its ends trimmed; the
    ValueError of :func:`check_name` if that is not a player's name."""
    if isinstance(name, str):
        name = " ".join(name.split())
    check_name(name)
    return name  # type: ignore[return-value]  # check_name refused anything but text


def player_seed(match_seed: int, seat: int) -> int:
    """The seed of the computer player in ``seat`` of the match with ``match_seed``.

    Derived one way with its own label, as the deals are with theirs, so a player that knows
    its seed can find the deals only by trying match seeds until one gives its seed."""
    return derived_seed("match-player", match_seed, seat)


def standings(totals: Sequence[int], winner: int | None = None) -> tuple[int, ...]:
    """The place of each seat: 1 + how many seats have a higher total (equal totals share);
    a ``winner`` (who took 12 tricks in a deal, :attr:`MatchEnd.TWELVE_TRICKS`) first,
    the others after them by their totals."""
    if winner is None:
        return tuple(1 + sum(other > mine for other in totals) for mine in totals)
    return tuple(
        1
        if seat == winner
        else 2 + sum(totals[o] > totals[seat] for o in range(3) if o not in (seat, winner))
        for seat in range(3)
    )


@dataclasses.dataclass(frozen=True)
class MatchSnapshot:
    """Everything needed to restore a match: its setup and the decisions applied so far."""

    rules: Rules
    seed: int | None
    names: tuple[str, str, str]
    decisions: tuple[str, ...]
    setups: tuple[DealSetup, ...] | None = None
    seeding: int = SEEDING


class Match:
    """A match between seats 0-2 (clockwise, fixed for the match).

    With a ``seed`` the first dealer and every shuffle come from one generator: with
    ``seeding=2`` (the default; formats ``ts358-match/2``, ``ts358-save/2``) it is
    :func:`derived_rng("match-deals", seed) <ts358.seeds.derived_rng>`, with ``seeding=1``
    (the ``/1`` formats, written before the players' seeds were derived) ``random.Random(seed)``.
    ``setups`` instead gives each deal's cards explicitly (tests, hand-made records).
    """

    def __init__(
        self,
        rules: Rules = Rules(),
        seed: int | None = None,
        names: Sequence[str] = DEFAULT_NAMES,
        *,
        setups: Sequence[DealSetup] | None = None,
        seeding: int = SEEDING,
    ) -> None:
        if seeding not in (1, 2):
            raise ValueError(f"seeding must be 1 or 2, not {seeding!r}")
        if len(names) != 3:
            raise ValueError("a match has three players")
        for name in names:
            check_name(name)
        if setups is None and seed is None:
            raise ValueError("a match needs a seed or the deals' setups")
        if setups is not None and not (
            len(setups) == rules.length
            or (rules.end is not MatchEnd.DEALS and 0 < len(setups) <= rules.length)
        ):
            raise ValueError(f"{rules.length} deal setups are needed, not {len(setups)}")
        self.rules = rules
        self.seed = seed
        self.seeding = seeding
        self.names: tuple[str, str, str] = (names[0], names[1], names[2])
        self._setups = tuple(setups) if setups is not None else None
        self._rng = random.Random(seed) if seeding == 1 else derived_rng("match-deals", seed)
        self.first_dealer = setups[0].dealer if setups else self._rng.randrange(3)
        for number, setup in enumerate(self._setups or (), 1):
            # Checked up front so a bad setup fails here, not in the middle of the match.
            if setup.number != number or setup.dealer != self.dealer_of(number):
                raise ValueError(
                    f"deal {number}: setup says deal {setup.number} with dealer "
                    f"{setup.dealer}, the rotation gives dealer {self.dealer_of(number)}"
                )
        self.results: list[DealResult] = []
        self.totals: tuple[int, int, int] = (0, 0, 0)
        self.used: list[frozenset[Contract]] = [frozenset()] * 3
        self.winner: int | None = None  # who took 12 tricks in a deal (MatchEnd.TWELVE_TRICKS)
        self._decided: list[str] = []  # decisions of the finished deals, in notation
        self.deal: Deal | None = None
        self._start_deal()

    # ------------------------------------------------------------------ queries

    @property
    def done(self) -> bool:
        return self.deal is None

    @property
    def number(self) -> int:
        """The number (1-based) of the deal in progress, or of the last one when done."""
        return len(self.results) + (0 if self.deal is None else 1)

    def available(self, seat: int) -> frozenset[Contract]:
        """The games ``seat`` may still choose."""
        if self.rules.repeat:
            return self.rules.contracts
        return self.rules.contracts - self.used[seat]

    def dealer_of(self, number: int) -> int:
        return (self.first_dealer + number - 1) % 3

    def standings(self) -> tuple[int, ...]:
        return standings(self.totals, self.winner)

    def condition_met(self) -> bool:
        """Whether the match's end condition (docs/rules.md#the-match) was met by the last
        deal: 12 tricks taken in it, or a total at the target score."""
        if not self.results or self.rules.end is MatchEnd.DEALS:
            return False
        if self.rules.end is MatchEnd.TWELVE_TRICKS:
            return self.winner is not None
        return max(self.totals) >= self.rules.target_score

    def pending(self) -> Pending | None:
        """The decision due now (seat, kind, that seat's view), or None when the match is over."""
        return self.deal.pending() if self.deal is not None else None

    # ------------------------------------------------------------------ driving

    def _deal(self) -> Deal:
        if self.deal is None:
            raise IllegalDecision(Refusal(Reason.MATCH_OVER))
        return self.deal

    def _after(self, applied: Applied) -> Applied:
        if applied.result is not None:
            self._finish_deal()
        return applied

    def apply(self, text: str) -> Applied:
        """Apply the pending decision in notation (:meth:`Deal.apply`); IllegalDecision
        (state unchanged) if not allowed."""
        return self._after(self._deal().apply(text))

    def apply_answer(self, answer: Answer) -> Applied:
        """Apply a player's answer to the pending decision (:meth:`Deal.apply_answer`)."""
        return self._after(self._deal().apply_answer(answer))

    def choose(self, game: Contract) -> Applied:
        """:meth:`Deal.choose` in the deal in progress."""
        return self._after(self._deal().choose(game))

    def give(self, card: Card) -> Applied:
        """:meth:`Deal.give` in the deal in progress."""
        return self._after(self._deal().give(card))

    def stop_giving(self) -> Applied:
        """:meth:`Deal.stop_giving` in the deal in progress."""
        return self._after(self._deal().stop_giving())

    def return_card(self, card: Card) -> Applied:
        """:meth:`Deal.return_card` in the deal in progress."""
        return self._after(self._deal().return_card(card))

    def discard(self, cards: CardSet) -> Applied:
        """:meth:`Deal.discard` in the deal in progress."""
        return self._after(self._deal().discard(cards))

    def play(self, card: Card) -> Applied:
        """:meth:`Deal.play` in the deal in progress."""
        return self._after(self._deal().play(card))

    def run(self, players: Sequence[Decider]) -> tuple[int, int, int]:
        """Play to the end, asking ``players[seat]`` for each decision; return the totals."""
        if len(players) != 3:
            raise ValueError("three players are needed")
        while (pending := self.pending()) is not None:
            self.apply_answer(players[pending.seat].decide(pending.view))
        return self.totals

    def snapshot(self) -> MatchSnapshot:
        current = self.deal.decisions if self.deal is not None else ()
        decisions = (*self._decided, *current)
        return MatchSnapshot(
            self.rules, self.seed, self.names, decisions, self._setups, self.seeding
        )

    @classmethod
    def restore(cls, snapshot: MatchSnapshot) -> Match:
        """A match in the state ``snapshot`` was taken in (decisions re-applied and checked)."""
        match = cls(
            snapshot.rules,
            snapshot.seed,
            snapshot.names,
            setups=snapshot.setups,
            seeding=snapshot.seeding,
        )
        for decision in snapshot.decisions:
            match.apply(decision)
        return match

    # ------------------------------------------------------------------ deals

    def _start_deal(self) -> None:
        number = len(self.results) + 1
        dealer = self.dealer_of(number)
        if self._setups is not None:
            if number > len(self._setups):
                raise ValueError(f"no deal setup for deal {number}: the match is not over")
            setup = self._setups[number - 1]
        else:
            setup = DealSetup.shuffled(number, dealer, self._rng)
        self.deal = Deal(
            setup,
            self.rules,
            available=tuple(self.available(s) for s in range(3)),
            previous_scores=self.results[-1].scores if self.results else None,
            totals=self.totals,
        )

    def _finish_deal(self) -> None:
        assert self.deal is not None
        result = self.deal.result()
        self._decided.extend(self.deal.decisions)
        self.results.append(result)
        t = self.totals
        self.totals = (t[0] + result.scores[0], t[1] + result.scores[1], t[2] + result.scores[2])
        chooser = result.chooser
        self.used[chooser] = self.used[chooser] | {result.game}
        if self.rules.end is MatchEnd.TWELVE_TRICKS and max(result.taken) >= TWELVE:
            self.winner = result.taken.index(max(result.taken))
        if len(self.results) < self.rules.length and not self.condition_met():
            self._start_deal()
        else:
            self.deal = None
