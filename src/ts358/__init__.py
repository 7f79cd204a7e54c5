"""ts358: engine, double-dummy solver and computer players for the card game 3-5-8."""

from ts358.cards import Card, CardSet, NotationError, Rank, Suit
from ts358.deal import Deal, DealResult, DealSetup, IllegalDecision, Pending
from ts358.match import Match, MatchSnapshot
from ts358.record import RecordError, match_record, replay
from ts358.rules import Contract, Role, Rules, VoidRule
from ts358.tricks import legal_cards, trick_winner
from ts358.view import DecisionKind, SeatView

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
