"""ts358: engine, double-dummy solver and computer players for the card game 3-5-8.

The public API, importable from here: the cards and their notation (:class:`Card`,
:class:`CardSet`, :class:`Suit`, :class:`Rank`), the rules (:class:`Contract`, :class:`Role`,
:class:`Rules`, :class:`VoidRule`, :func:`legal_cards`, :func:`trick_winner`), a deal and a
match as state machines (:class:`Deal`, :class:`Match`, :class:`SeatView`), positions and the
double-dummy solver (:class:`Position`, :func:`solve`), computer players
(:func:`make_player`, :class:`Player`), advice at any decision from a seat's view
(:func:`advise`, :class:`Advice`, :class:`Basis`, :class:`Effort`), match records
(:func:`match_record`, :func:`replay`) and the errors each of them raises.
docs/architecture.md shows how the package is laid out.

>>> from ts358 import Match, Rules, make_player
>>> match = Match(Rules(length=3), seed=7)
>>> totals = match.run([make_player("medium", seat) for seat in range(3)])
>>> len(match.results), sum(totals)
(3, 0)
"""

# typing.TYPE_CHECKING without importing typing, which takes longer than the rest of this file
# (type checkers know the name).
TYPE_CHECKING = False
if TYPE_CHECKING:
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
    from ts358.players import (
        LEVELS,
        Advice,
        Basis,
        Effort,
        Player,
        PlayerSpec,
        advise,
        make_player,
    )
    from ts358.position import IllegalPlay, Position, PositionError
    from ts358.record import RecordError, match_record, replay
    from ts358.rules import Contract, Role, Rules, VoidRule
    from ts358.tricks import legal_cards, trick_winner
    from ts358.view import DecisionKind, SeatView, Trick

# ``import ts358`` imports none of the API: each name is imported from its module on first use
# (__getattr__). So the ``ts358`` command starts light and has its Ctrl-C handler in place
# before the heavy imports (ts358.__main__). The modules of the API's names, as imported above
# for type checkers:
_MODULES = {
    "ts358.analysis.solve": ("MoveValue", "PlayerValue", "SolveResult", "solve"),
    "ts358.cards": ("Card", "CardSet", "NotationError", "Rank", "Suit"),
    "ts358.deal": (
        "Answer",
        "Applied",
        "Deal",
        "DealResult",
        "DealSetup",
        "IllegalDecision",
        "Pending",
    ),
    "ts358.match": ("Match", "MatchSnapshot"),
    "ts358.players": (
        "LEVELS",
        "Advice",
        "Basis",
        "Effort",
        "Player",
        "PlayerSpec",
        "advise",
        "make_player",
    ),
    "ts358.position": ("IllegalPlay", "Position", "PositionError"),
    "ts358.record": ("RecordError", "match_record", "replay"),
    "ts358.rules": ("Contract", "Role", "Rules", "VoidRule"),
    "ts358.tricks": ("legal_cards", "trick_winner"),
    "ts358.view": ("DecisionKind", "SeatView", "Trick"),
}

__version__ = "0.1.0"

__all__ = [
    "LEVELS",
    "Advice",
    "Answer",
    "Applied",
    "Basis",
    "Card",
    "CardSet",
    "Contract",
    "Deal",
    "DealResult",
    "DealSetup",
    "DecisionKind",
    "Effort",
    "IllegalDecision",
    "IllegalPlay",
    "Match",
    "MatchSnapshot",
    "MoveValue",
    "NotationError",
    "Pending",
    "Player",
    "PlayerSpec",
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
    "advise",
    "legal_cards",
    "make_player",
    "match_record",
    "replay",
    "solve",
    "trick_winner",
]


def __getattr__(name: str) -> object:
    import importlib

    for module, names in _MODULES.items():
        if name in names:
            value = getattr(importlib.import_module(module), name)
            globals()[name] = value  # found at once the next time
            return value
    raise AttributeError(f"module 'ts358' has no attribute {name!r}")
