"""The messages of ``ts358-bot/1`` (docs/bots.md): one JSON object a line, each with a
``type``. A seat's whole view goes into every ``decide``, so that a bot needs no state of its
own; it is built from the :class:`~ts358.view.SeatView` the engine made for that seat, so it
holds nothing the seat may not know.

Both directions are here: what the table writes (:func:`hello_message`,
:func:`decide_message`, :func:`deal_end_message`, :func:`match_end_message`) and reads
back (:func:`read_decision`, checked against the view: a bot's answer never reaches the
engine unchecked), and what a bot reads (:func:`view_from_json`, the exact inverse of
:func:`view_to_json`) and writes (:func:`decision_message`), each line through
:func:`parse_message`. Keys a reader does not know are ignored (forward compatible).

>>> from ts358.match import Match
>>> view = Match(seed=1).pending().view
>>> view_from_json(json.loads(json.dumps(view_to_json(view)))) == view
True
"""

from __future__ import annotations

import json
from typing import Any

from ts358._input import InputError, parse_json, quote
from ts358.bots.record import redacted_record
from ts358.cards import Card, CardSet, NotationError
from ts358.deal import Answer
from ts358.exchange import ExchangeStep
from ts358.match import Match
from ts358.rules import Contract, Rules
from ts358.view import DecisionKind, SeatView, Trick

__all__ = [
    "MAX_LINE_BYTES",
    "PROTOCOL",
    "BotProtocolError",
    "deal_end_message",
    "decide_message",
    "decision_message",
    "events_message",
    "hello_message",
    "match_end_message",
    "parse_message",
    "read_decision",
    "rules_from_json",
    "rules_to_json",
    "view_from_json",
    "view_to_json",
]

PROTOCOL = "ts358-bot/1"
"""The protocol's name and version, in the first message of each side."""

MAX_LINE_BYTES = 65536
"""The longest line either side may send (a view is about 2 KB)."""


class BotProtocolError(ValueError):
    """A message that is not what the protocol says; the text says what and where."""


# ---------------------------------------------------------------------- the table writes


def rules_to_json(rules: Rules) -> dict[str, Any]:
    return {**rules.to_json(), "length": rules.length}


def hello_message(
    seat: int, rules: Rules, seconds: float, *, seed: int | None = None
) -> dict[str, Any]:
    """The table's first message: the protocol, the bot's seat (0-2, fixed for the match),
    the rules and the match's length, the time control (seconds per decision) and the seed
    the table's own player of that seat would have (a bot may use it to be repeatable)."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "seat": seat,
        "rules": rules_to_json(rules),
        "time": {"per_decision": seconds},
        "seed": seed,
    }


def _cards(cards: CardSet | tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def view_to_json(view: SeatView) -> dict[str, Any]:
    """Everything ``view`` holds, as JSON (docs/bots.md#the-view)."""
    return {
        "seat": view.seat,
        "deal": view.deal_number,
        "dealer": view.dealer,
        "rules": rules_to_json(view.rules),
        "hand": _cards(view.hand),
        "available": [sorted(g.label for g in games) for games in view.available],
        "totals": list(view.totals),
        "previous_scores": None if view.previous_scores is None else list(view.previous_scores),
        "game": None if view.game is None else view.game.label,
        "exchanges": [
            {
                "giver": s.giver,
                "receiver": s.receiver,
                "given": str(s.given),
                "returned": str(s.returned),
            }
            for s in view.exchanges
        ],
        "others_exchanged": view.others_exchanged,
        "talon": _cards(view.talon),
        "discard": _cards(view.discard),
        "tricks": [
            {"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner} for t in view.tricks
        ],
        "leader": view.leader,
        "trick": _cards(view.trick),
        "taken": list(view.taken),
        "kind": None if view.kind is None else view.kind.value,
        "options": _cards(view.options),
        "give_to": view.give_to,
        "gives_left": view.gives_left,
        "received": None if view.received is None else str(view.received),
        "talon_taken": view.talon_taken,
    }


def decide_message(number: int, view: SeatView, seconds: float) -> dict[str, Any]:
    """Decision ``number`` (counted from 1 in the match) asked of the bot: its kind, the
    seat's whole view, what it may answer and the seconds it has."""
    assert view.kind is not None
    options: list[str] = (
        sorted(g.label for g in view.available[view.seat])
        if view.kind is DecisionKind.CHOOSE
        else [str(c) for c in view.options]
    )
    return {
        "type": "decide",
        "id": number,
        "kind": view.kind.value,
        "view": view_to_json(view),
        "options": options,
        "time_left": seconds,
    }


def deal_end_message(
    deal: int, game: Contract, taken: tuple[int, ...], scores: tuple[int, ...]
) -> dict[str, Any]:
    """A deal is over: its game, each seat's tricks and score (what the whole table knows;
    the hands are not told, nor the chooser's discard)."""
    return {
        "type": "deal_end",
        "deal": deal,
        "game": game.label,
        "taken": list(taken),
        "scores": list(scores),
    }


def match_end_message(seat: int, match: Match) -> dict[str, Any]:
    """The finished ``match`` is over: each seat's total and place, and its record as
    ``seat`` may know it (:func:`~ts358.bots.record.redacted_record`: the seat's own hands,
    exchanges and discards, nobody else's, and no seed)."""
    record = redacted_record(match, seat)
    return {
        "type": "match_end",
        "totals": list(record["totals"]),
        "places": list(record["places"]),
        "record": record,
    }


def events_message(deal: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """What happened in deal ``deal`` since the bot last heard (:mod:`ts358.bots.events`)."""
    return {"type": "events", "deal": deal, "events": events}


def read_decision(data: dict[str, Any], number: int, view: SeatView) -> Answer:
    """A bot's answer (a message, :func:`parse_message`) to decision ``number`` on ``view``,
    checked against it: a game it may choose, a card of its options (or ``null`` to stop
    giving), four different cards of its options to discard. BotProtocolError naming what
    is wrong otherwise."""
    if data.get("type") != "decision":
        raise BotProtocolError(
            f"expected a decision, not a message of type {quote(data.get('type'))}"
        )
    if data.get("id") != number or isinstance(data.get("id"), bool):
        raise BotProtocolError(f"a decision for id {quote(data.get('id'))}, not {number}")
    kind = view.kind
    try:
        if kind is DecisionKind.CHOOSE:
            game = Contract.parse(_text(data, "game"))
            if game not in view.available[view.seat]:
                raise BotProtocolError(f"{game.label} is not a game this seat may choose")
            return game
        if kind is DecisionKind.DISCARD:
            raw = data.get("cards")
            if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
                raise BotProtocolError("key 'cards' must be a list of four cards")
            cards = [Card.parse(c) for c in raw]
            if len(cards) != 4 or len(set(cards)) != 4:
                raise BotProtocolError(f"a discard is four different cards, not {quote(raw)}")
            chosen = CardSet(cards)
            if chosen - view.options:
                raise BotProtocolError(f"{chosen - view.options} not in the hand")
            return chosen
        if "card" not in data:
            raise BotProtocolError("key 'card' is missing")
        if data["card"] is None and kind is DecisionKind.GIVE:
            return None
        card = Card.parse(_text(data, "card"))
    except NotationError as exc:
        raise BotProtocolError(str(exc)) from None
    if card not in view.options:
        raise BotProtocolError(f"{card} is not one of the cards this decision allows")
    return card


def parse_message(line: str | bytes) -> dict[str, Any]:
    """One line of the protocol: a JSON object (BotProtocolError if it is not one)."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        data = parse_json(text)
    except (UnicodeDecodeError, json.JSONDecodeError, InputError) as exc:
        raise BotProtocolError(f"not a JSON line: {exc}") from None
    if not isinstance(data, dict):
        raise BotProtocolError("a message is a JSON object")
    return data


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise BotProtocolError(f"key {key!r} must be text, not {quote(value)}")
    return value


# ---------------------------------------------------------------------- a bot reads and writes


def rules_from_json(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise BotProtocolError("key 'rules' must be an object")
    options = {k: v for k, v in data.items() if k != "length"}
    try:
        return Rules.from_json(options, data["length"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BotProtocolError(f"rules: {exc}") from None


def view_from_json(data: Any) -> SeatView:
    """The :class:`SeatView` a ``decide`` message's ``view`` holds (:func:`view_to_json`'s
    inverse); BotProtocolError if it is not one."""
    if not isinstance(data, dict):
        raise BotProtocolError("key 'view' must be an object")

    def cards(value: Any) -> CardSet:
        return CardSet(Card.parse(c) for c in value)

    def maybe(value: Any) -> CardSet | None:
        return None if value is None else cards(value)

    try:
        return SeatView(
            seat=data["seat"],
            deal_number=data["deal"],
            dealer=data["dealer"],
            rules=rules_from_json(data["rules"]),
            hand=cards(data["hand"]),
            available=tuple(frozenset(Contract.parse(g) for g in a) for a in data["available"]),
            totals=tuple(data["totals"]),
            previous_scores=(
                None if data["previous_scores"] is None else tuple(data["previous_scores"])
            ),
            game=None if data["game"] is None else Contract.parse(data["game"]),
            exchanges=tuple(
                ExchangeStep(
                    s["giver"], s["receiver"], Card.parse(s["given"]), Card.parse(s["returned"])
                )
                for s in data["exchanges"]
            ),
            others_exchanged=data["others_exchanged"],
            talon=maybe(data["talon"]),
            discard=maybe(data["discard"]),
            tricks=tuple(
                Trick(t["leader"], tuple(Card.parse(c) for c in t["cards"]), t["winner"])
                for t in data["tricks"]
            ),
            leader=data["leader"],
            trick=tuple(Card.parse(c) for c in data["trick"]),
            taken=tuple(data["taken"]),
            kind=None if data["kind"] is None else DecisionKind(data["kind"]),
            options=cards(data["options"]),
            give_to=data["give_to"],
            gives_left=data["gives_left"],
            received=None if data["received"] is None else Card.parse(data["received"]),
            talon_taken=bool(data.get("talon_taken", data["talon"] is not None)),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BotProtocolError(f"view: not a seat's view ({type(exc).__name__}: {exc})") from None


def decision_message(number: int, answer: Answer) -> dict[str, Any]:
    """A bot's answer to decision ``number``."""
    if isinstance(answer, Contract):
        return {"type": "decision", "id": number, "game": answer.label}
    if isinstance(answer, CardSet):
        return {"type": "decision", "id": number, "cards": [str(c) for c in answer]}
    return {"type": "decision", "id": number, "card": None if answer is None else str(answer)}
