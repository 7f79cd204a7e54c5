"""ts358: engine, double-dummy solver and computer players for the card game 3-5-8."""

from .cards import Card, CardSet, NotationError, Rank, Suit
from .rules import Contract, Role, Rules, VoidRule
from .tricks import legal_cards, trick_winner
from .deal import Deal, DealResult, DealSetup, IllegalDecision, Pending
from .match import Match, MatchSnapshot
from .view import DecisionKind, SeatView
from .record import RecordError, match_record, replay

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardSet",
    "Contract",
    "NotationError",
    "Rank",
    "Role",
    "Rules",
    "Suit",
    "VoidRule",
    "legal_cards",
    "trick_winner",
    "Deal",
    "DealResult",
    "DealSetup",
    "IllegalDecision",
    "Pending",
    "Match",
    "MatchSnapshot",
    "DecisionKind",
    "SeatView",
    "RecordError",
    "match_record",
    "replay",
]
