"""The messages a browser sends (docs/web.md#messages-from-a-browser), read and checked.

Each message is one JSON object with a ``type``; :func:`parse_request` turns it into one of
the request classes or raises :class:`ProtocolError` with one line saying what is wrong.
What a message may be is checked before anything reads it: at most
:data:`MAX_MESSAGE_BYTES`, JSON parsed with the nesting and number caps of
:mod:`ts358._input`, no key that the type does not have, values of the right kind, cards in
the project's notation. Whether the decision is the seat's to make, and allowed by the
rules, is for the table (:meth:`ts358.web.table.Table.decide`) to say.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ts358._input import InputError, number, parse_json, quote
from ts358.cards import Card, NotationError
from ts358.rules import Contract
from ts358.table.saves import MAX_PACE
from ts358.view import DecisionKind

__all__ = [
    "MAX_MESSAGE_BYTES",
    "Choose",
    "Decision",
    "Discard",
    "Give",
    "Hint",
    "Join",
    "Name",
    "Next",
    "Pace",
    "Play",
    "ProtocolError",
    "Refresh",
    "Request",
    "Return",
    "Stop",
    "Watch",
    "parse_request",
]

MAX_MESSAGE_BYTES = 4096
"""The longest message a browser may send: the longest real one (a discard) is under 100
bytes, and a message is read whole before it is checked."""

MAX_TOKEN = 100
"""The longest seat token read (the tokens are 32 characters)."""


class ProtocolError(ValueError):
    """A message that is not one of the protocol's; the text says what is wrong."""


@dataclasses.dataclass(frozen=True)
class Join:
    """The first message of a connection: the seat's token, and the person's name if they
    gave one."""

    token: str
    name: str | None = None


@dataclasses.dataclass(frozen=True)
class Watch:
    """The first message of someone watching a table (an online server's): the table's id."""

    table: str


@dataclasses.dataclass(frozen=True)
class Choose:
    game: Contract
    kind = DecisionKind.CHOOSE


@dataclasses.dataclass(frozen=True)
class Give:
    card: Card
    kind = DecisionKind.GIVE


@dataclasses.dataclass(frozen=True)
class Stop:
    """Give no more cards in this turn of the exchange."""

    kind = DecisionKind.GIVE


@dataclasses.dataclass(frozen=True)
class Return:
    card: Card
    kind = DecisionKind.RETURN


@dataclasses.dataclass(frozen=True)
class Discard:
    cards: tuple[Card, ...]
    kind = DecisionKind.DISCARD


@dataclasses.dataclass(frozen=True)
class Play:
    card: Card
    kind = DecisionKind.PLAY


@dataclasses.dataclass(frozen=True)
class Hint:
    """Advice on the decision due from this seat."""


@dataclasses.dataclass(frozen=True)
class Next:
    """Go on after a deal's summary."""


@dataclasses.dataclass(frozen=True)
class Refresh:
    """Send the table's state again."""


@dataclasses.dataclass(frozen=True)
class Pace:
    """Seconds between the computer players' cards."""

    seconds: float


@dataclasses.dataclass(frozen=True)
class Name:
    """This seat's person's name (checked by the table: 1-40 printable characters)."""

    name: str


Decision = Choose | Give | Stop | Return | Discard | Play
Request = Join | Watch | Decision | Hint | Next | Refresh | Pace | Name

_KEYS: dict[str, tuple[str, ...]] = {
    "join": ("token",),
    "watch": ("table",),
    "choose": ("game",),
    "give": ("card",),
    "stop": (),
    "return": ("card",),
    "discard": ("cards",),
    "play": ("card",),
    "hint": (),
    "next": (),
    "state": (),
    "pace": ("seconds",),
    "name": ("name",),
}
_OPTIONAL: dict[str, tuple[str, ...]] = {"join": ("name",)}
MAX_NAME_TEXT = 200  # what a name message may carry before the table checks the name


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise ProtocolError(f"a card is written as text (e.g. 'AS'), not {quote(value)}")
    try:
        return Card.parse(value)
    except NotationError:
        raise ProtocolError(f"not a card: {quote(value)} (write e.g. AS, TH, 2C)") from None


def _read(text: str | bytes) -> dict[str, Any]:
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"a message of {size} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        data = parse_json(text.decode("utf-8") if isinstance(text, bytes) else text)
    except UnicodeDecodeError:
        raise ProtocolError("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except InputError as exc:
        raise ProtocolError(str(exc)) from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object, not {quote(data)}")
    return data


def _name(kind: str, value: object) -> str | None:
    if value is None and kind == "join":
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME_TEXT:
        raise ProtocolError(f"{kind}: a name is text of 1-40 characters, not {quote(value)}")
    return value


def parse_request(text: str | bytes) -> Request:
    """The request in one message; ProtocolError (one line) if it is not one."""
    data = _read(text)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise ProtocolError(f"unknown type {quote(kind)} (one of {', '.join(_KEYS)})")
    extra = sorted(set(data) - {"type", *_KEYS[kind], *_OPTIONAL.get(kind, ())})
    if extra:
        raise ProtocolError(f"{kind}: unknown key {quote(extra[0])}")
    missing = [k for k in _KEYS[kind] if k not in data]
    if missing:
        raise ProtocolError(f"{kind}: key {missing[0]!r} is missing")
    if kind == "join":
        token = data["token"]
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            raise ProtocolError(f"join: the token is text of 1-{MAX_TOKEN} characters")
        return Join(token, _name(kind, data.get("name")))
    if kind == "watch":
        table = data["table"]
        if not isinstance(table, str) or not 0 < len(table) <= MAX_TOKEN:
            raise ProtocolError(f"watch: the table is text of 1-{MAX_TOKEN} characters")
        return Watch(table)
    if kind == "name":
        name = _name(kind, data["name"])
        assert name is not None
        return Name(name)
    if kind == "choose":
        game = data["game"]
        labels = ", ".join(c.label for c in Contract)
        if not isinstance(game, str):
            raise ProtocolError(f"choose: a game is one of {labels}, not {quote(game)}")
        try:
            return Choose(Contract.parse(game))
        except NotationError:
            raise ProtocolError(f"choose: not a game: {quote(game)} (one of {labels})") from None
    if kind in ("give", "return", "play"):
        card = _card(data["card"])
        return Give(card) if kind == "give" else Return(card) if kind == "return" else Play(card)
    if kind == "discard":
        cards = data["cards"]
        if not isinstance(cards, list) or not 0 < len(cards) <= 20:
            raise ProtocolError("discard: 'cards' is a list of cards (four of them)")
        return Discard(tuple(_card(c) for c in cards))
    if kind == "pace":
        try:
            return Pace(float(number(data["seconds"], 0, MAX_PACE, unit="seconds")))
        except InputError as exc:
            raise ProtocolError(f"pace: 'seconds' {exc}") from None
    simple: dict[str, Request] = {
        "stop": Stop(),
        "hint": Hint(),
        "next": Next(),
        "state": Refresh(),
    }
    return simple[kind]
