"""ts358: engine, double-dummy solver and computer players for the card game 3-5-8.

The public API, importable from here: the cards and their notation (:class:`Card`,
:class:`CardSet`, :class:`Suit`, :class:`Rank`), the rules (:class:`Contract`, :class:`Role`,
:class:`Rules`, :class:`VoidRule`, :func:`legal_cards`, :func:`trick_winner`), a deal and a
match as state machines (:class:`Deal`, :class:`Match`, :class:`SeatView`), positions and the
double-dummy solver (:class:`Position`, :func:`solve`), computer players
(:func:`make_player`, :class:`Player`), match records (:func:`match_record`, :func:`replay`)
and the errors each of them raises. docs/architecture.md shows how the package is laid out.

>>> from ts358 import Match, Rules, make_player
>>> match = Match(Rules(length=3), seed=7)
>>> totals = match.run([make_player("medium", seat) for seat in range(3)])
>>> len(match.results), sum(totals)
(3, 0)
"""

from ts358.analysis.solve import MoveValue, PlayerValue, SolveResult, solve
from ts358.cards import Card, CardSet, NotationError, Rank, Suit
from ts358.deal import (
    Answer,
    Applied,
    Deal,
    DealResult,
    DealSetup,
    IllegalDecision,
    Pending,
)
from ts358.match import Match, MatchSnapshot
from ts358.players import LEVELS, Player, make_player
from ts358.position import IllegalPlay, Position, PositionError
from ts358.record import RecordError, match_record, replay
from ts358.rules import Contract, Role, Rules, VoidRule
from ts358.tricks import legal_cards, trick_winner
from ts358.view import DecisionKind, SeatView, Trick

__version__ = "0.1.0"

__all__ = [
    "LEVELS",
    "Answer",
    "Applied",
    "Card",
    "CardSet",
    "Contract",
    "Deal",
    "DealResult",
    "DealSetup",
    "DecisionKind",
    "IllegalDecision",
    "IllegalPlay",
    "Match",
    "MatchSnapshot",
    "MoveValue",
    "NotationError",
    "Pending",
    "Player",
    "PlayerValue",
    "Position",
    "PositionError",
    "Rank",
    "RecordError",
    "Role",
    "Rules",
    "SeatView",
    "SolveResult",
    "Suit",
    "Trick",
    "VoidRule",
    "legal_cards",
    "make_player",
    "match_record",
    "replay",
    "solve",
    "trick_winner",
]
