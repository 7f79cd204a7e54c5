"""The match record a bot is sent when its match is over (``match_end``,
docs/bots.md#the-match-record): the record :func:`ts358.record.match_record` writes,
redacted to what one seat may know.

The rule is what the seat's own views (:class:`~ts358.view.SeatView`) showed it during each
deal, nothing more:

- ``hands``: the seat's own hand as dealt (as a set, in the order of a view's ``hand``, not
  the order dealt); the other two are ``null``;
- ``talon``: the talon, in the order of a view's ``talon``, when the seat saw it: every
  seat under the house rules' ``talon = shown`` (it is turned face up for everyone in every
  finished deal), only the chooser when it is taken unseen; ``null`` for the others;
- ``exchanges``: the steps the seat gave or received; ``others_exchanged``: how many cards
  changed hands between the other two (the view's count, never which cards);
- ``discard``: the chooser's own discard, ``null`` for the other two;
- the game, the tricks (every card played, which the whole table saw), the tricks taken and
  the scores, the totals and the places: public.

The match's ``seed`` is left out (it makes every deal, so it would give every card), and so
are the bots' ``faults``. Keys are copied by name, never wholesale: a key the match record
gains later reaches a bot only once it is added here.
"""

from __future__ import annotations

from typing import Any

from ts358.cards import Card, CardSet
from ts358.match import Match
from ts358.record import match_record
from ts358.rules import Talon

__all__ = ["redacted_record"]

_PUBLIC = ("format", "rules", "length", "players")
_PUBLIC_DEAL = ("number", "dealer", "chooser", "third", "game")
_PUBLIC_END = ("tricks", "taken", "scores")


def _as_view_lists(cards: list[str]) -> list[str]:
    # A view's order (CardSet's), not the order dealt: the order is no part of a view.
    return [str(c) for c in CardSet(Card.parse(c) for c in cards)]


def redacted_record(match: Match, seat: int) -> dict[str, Any]:
    """The record of the finished ``match`` as ``seat`` (0-2) may know it (the module's
    rule); ValueError if the match is not finished or the seat is not 0-2."""
    if seat not in (0, 1, 2):
        raise ValueError(f"a seat is 0, 1 or 2, not {seat!r}")
    full = match_record(match)  # ValueError before the match is over
    deals = []
    for deal in full["deals"]:
        mine = [s for s in deal["exchanges"] if seat in (s["from"], s["to"])]
        redacted: dict[str, Any] = {key: deal[key] for key in _PUBLIC_DEAL}
        redacted["hands"] = [
            _as_view_lists(hand) if s == seat else None for s, hand in enumerate(deal["hands"])
        ]
        # A finished deal went past the talon: turned for everyone, or seen by the chooser.
        shown = match.rules.talon is Talon.SHOWN or seat == deal["chooser"]
        redacted["talon"] = _as_view_lists(deal["talon"]) if shown else None
        redacted["exchanges"] = [dict(step) for step in mine]
        redacted["others_exchanged"] = len(deal["exchanges"]) - len(mine)
        redacted["discard"] = list(deal["discard"]) if seat == deal["chooser"] else None
        redacted.update({key: deal[key] for key in _PUBLIC_END})
        deals.append(redacted)
    return {
        **{key: full[key] for key in _PUBLIC},
        "seat": seat,
        "deals": deals,
        "totals": full["totals"],
        "places": full["places"],
    }
