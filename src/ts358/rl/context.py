"""Where an environment's deals and matches come from: the rules, a deal's match context,
and the seeds (shared by the PettingZoo environments, the Gymnasium wrapper and OpenSpiel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Any

from ts358.batch.arena import Board, make_board
from ts358.deal import Deal, DealSetup
from ts358.match import Match
from ts358.rules import Contract, Role, Rules
from ts358.seeds import derived_rng

__all__ = ["DealContext", "new_match", "rules_of"]


def rules_of(rules: Rules | str) -> Rules:
    """Rules, or the text of :meth:`Rules.parse <ts358.rules.Rules.parse>` (``house``,
    ``kurnik``, ``sergeant-major,length=9``)."""
    return rules if isinstance(rules, Rules) else Rules.parse(rules)


@dataclasses.dataclass(frozen=True)
class DealContext:
    """A deal's match context, and the deals made in it.

    Attributes:
        rules: the rules.
        dealer: the dealer's seat; None draws it for each deal.
        deal_number: the deal's number in its match (a first deal has no exchange).
        previous_scores: the previous deal's scores by seat, which decide the exchange
            (None in a first deal).
        games_left: the games each seat may still choose (None: all of the rules' games).
        totals: the match totals before the deal, by seat.
        arena_context: draw the whole context for each deal as the arena's boards are drawn
            (a match played to a random deal by rule-of-thumb players); the other context
            fields are then not used.
    """

    rules: Rules = Rules()
    dealer: int | None = None
    deal_number: int = 1
    previous_scores: tuple[int, int, int] | None = None
    games_left: tuple[frozenset[Contract], ...] | None = None
    totals: tuple[int, int, int] = (0, 0, 0)
    arena_context: bool = False

    @classmethod
    def of(
        cls,
        rules: Rules | str = "house",
        *,
        dealer: int | None = None,
        deal_number: int | None = None,
        previous_scores: Sequence[int] | None = None,
        games_left: Sequence[Collection[Contract | str]] | None = None,
        totals: Sequence[int] = (0, 0, 0),
        arena_context: bool = False,
    ) -> DealContext:
        """The context from the environments' arguments, checked (ValueError, one line,
        saying which argument): rules as text, games by name, the deal number 2 by default
        when there are previous scores."""
        rules = rules_of(rules)
        if dealer is not None and dealer not in (0, 1, 2):
            raise ValueError(f"dealer is a seat, 0-2, not {dealer!r}")
        previous = _triple_ints("previous_scores", previous_scores)
        number = deal_number if deal_number is not None else 1 + (previous is not None)
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError(f"deal_number is a whole number, not {number!r}")
        if not 1 <= number <= rules.length:
            raise ValueError(f"deal_number is 1-{rules.length} under these rules, not {number}")
        if number > 1 and previous is None:
            raise ValueError(f"deal {number} needs the previous deal's scores (previous_scores)")
        if number == 1 and previous is not None:
            raise ValueError("a first deal has no previous scores (deal_number 2 or more)")
        left = None if games_left is None else _games(games_left, rules)
        if left is not None:
            choosers = range(3) if dealer is None else (Role.CHOOSER.seat(dealer),)
            for seat in choosers:
                if not left[seat]:
                    raise ValueError(f"games_left: seat {seat} may choose and has no game left")
        return cls(
            rules,
            dealer,
            number,
            previous,
            left,
            _triple_ints("totals", totals) or (0, 0, 0),
            arena_context,
        )

    def deal(self, seed: int, options: dict[str, Any] | None = None) -> Deal:
        """The deal of ``seed`` in this context; ``options`` may give its cards instead
        (``{"setup": DealSetup}``) or an arena board (``{"board": Board}``, cards and
        context). Other options are ignored, as PettingZoo's API test expects."""
        options = options or {}
        board = options.get("board")
        setup = options.get("setup")
        if board is None and self.arena_context:
            board = make_board(seed, 0, self.rules)
        if board is not None:
            if not isinstance(board, Board):
                raise ValueError(f"options['board'] is an arena Board, not {board!r}")
            return board.deal()
        if setup is None:
            rng = derived_rng("rl-deal", seed)
            dealer = self.dealer if self.dealer is not None else rng.randrange(3)
            setup = DealSetup.shuffled(self.deal_number, dealer, rng)
        elif not isinstance(setup, DealSetup):
            raise ValueError(f"options['setup'] is a DealSetup, not {setup!r}")
        return Deal(
            setup,
            self.rules,
            available=self.games_left,
            previous_scores=self.previous_scores,
            totals=self.totals,
        )


def new_match(rules: Rules, seed: int) -> Match:
    """The match of ``seed`` under ``rules`` (its deals as :class:`~ts358.match.Match` makes
    them from a seed)."""
    return Match(rules, seed=seed)


def _triple_ints(name: str, values: Sequence[int] | None) -> tuple[int, int, int] | None:
    if values is None:
        return None
    items = tuple(values)
    if len(items) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        raise ValueError(f"{name} is three whole numbers, one per seat, not {values!r}")
    return (items[0], items[1], items[2])


def _games(
    games_left: Sequence[Collection[Contract | str]], rules: Rules
) -> tuple[frozenset[Contract], ...]:
    if len(games_left) != 3:
        raise ValueError("games_left is three collections of games, one per seat")
    out = []
    for seat, games in enumerate(games_left):
        chosen = frozenset(g if isinstance(g, Contract) else Contract.parse(g) for g in games)
        if not chosen <= rules.contracts:
            extra = ", ".join(sorted(g.label for g in chosen - rules.contracts))
            raise ValueError(f"games_left of seat {seat}: {extra} not in these rules' games")
        out.append(chosen)
    return tuple(out)
