"""The match record (format ``ts358-match/2``, docs/match-record.md): writing it, reading
it, and replaying it. Records of format ``ts358-match/1``, whose seed made the deals the
earlier way (:class:`~ts358.match.Match` ``seeding=1``), are read and written back as such.

Replaying is the only validation: the recorded decisions are fed to a fresh engine and every
recorded outcome (the cards dealt, automatic returns, trick winners, tricks taken, scores,
totals) is checked against what the engine computes. So a record is accepted exactly when it
is a match the rules allow, and the error says which deal, trick or key is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ts358._input import InputError, parse_json, quote, read_input
from ts358._jsonfields import field, rules_field
from ts358.cards import Card, CardSet
from ts358.deal import Applied, DealResult, DealSetup, IllegalDecision
from ts358.match import Match
from ts358.rules import Contract, MatchEnd
from ts358.view import DecisionKind

__all__ = [
    "FORMAT",
    "RecordError",
    "format_record",
    "load_record",
    "match_record",
    "replay",
    "write_record",
]

FORMAT = "ts358-match/2"
_FORMATS = {1: "ts358-match/1", 2: FORMAT}  # by the match's seeding

T = TypeVar("T")


class RecordError(ValueError):
    """A match record that is malformed or breaks a rule; the message says where and why."""


# ---------------------------------------------------------------------- writing


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _deal_record(d: DealResult) -> dict[str, Any]:
    return {
        "number": d.number,
        "dealer": d.dealer,
        "chooser": d.chooser,
        "third": d.third,
        "hands": [_cards(h) for h in d.hands],
        "talon": _cards(d.talon),
        "game": d.game.label,
        "exchanges": [
            {"from": s.giver, "to": s.receiver, "given": str(s.given), "returned": str(s.returned)}
            for s in d.exchanges
        ],
        "discard": _cards(d.discard),
        "tricks": [
            {"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner} for t in d.tricks
        ],
        "taken": list(d.taken),
        "scores": list(d.scores),
    }


def match_record(match: Match, faults: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The record of a finished match, as plain JSON-ready data; ``faults``, the faults of
    bots that played in it (:class:`ts358.bots.Fault` with the seat), under ``faults``
    when there were any."""
    if not match.done:
        raise ValueError("only a finished match has a record (use Match.snapshot mid-match)")
    rules = match.rules
    return {
        "format": _FORMATS[match.seeding],
        "rules": rules.to_json(),
        "seed": match.seed,
        "length": rules.length,
        "players": list(match.names),
        "deals": [_deal_record(d) for d in match.results],
        "totals": list(match.totals),
        "places": list(match.standings()),
        **({"faults": list(faults)} if faults else {}),
    }


def format_record(record: dict[str, Any]) -> str:
    """JSON text with one line per top-level key and per deal: diffable, still compact."""
    lines = []
    for key, value in record.items():
        if key == "deals":
            deals = ",\n  ".join(json.dumps(d, ensure_ascii=False) for d in value)
            lines.append(f'"deals": [\n  {deals}\n ]')
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{" + ",\n ".join(lines) + "}\n"


def write_record(path: str | Path, match: Match, faults: Sequence[dict[str, Any]] = ()) -> None:
    Path(path).write_text(format_record(match_record(match, faults)), encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    """The JSON of a record file (not yet replayed); RecordError if it can't be read."""
    try:
        data = parse_json(read_input(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: can't read the record: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON: {exc}") from None
    except InputError as exc:
        raise RecordError(f"{path}: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data


# ---------------------------------------------------------------------- reading


def _get(obj: Any, key: str, kind: type[T], where: str) -> T:
    return field(obj, key, kind, where, RecordError)


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(f"{where}: not a card: {quote(text)}")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _card_list(obj: Any, key: str, where: str) -> tuple[Card, ...]:
    values = _get(obj, key, list, where)
    return tuple(_card(v, f"{where}: {key}") for v in values)


def _int_triple(obj: Any, key: str, where: str) -> tuple[int, int, int]:
    values = _get(obj, key, list, where)
    if len(values) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise RecordError(f"{where}: key {key!r} must be three integers, not {quote(values)}")
    return (values[0], values[1], values[2])


def _setup(deal: Any, number: int) -> DealSetup:
    where = f"deal {number}"
    if _get(deal, "number", int, where) != number:
        raise RecordError(f"{where}: key 'number' is {quote(deal['number'])}, expected {number}")
    hands = _get(deal, "hands", list, where)
    if len(hands) != 3:
        raise RecordError(f"{where}: key 'hands' must list three hands")
    cards = tuple(_card_list({"hands": h}, "hands", where) for h in hands)
    dealer = _get(deal, "dealer", int, where)
    talon = _card_list(deal, "talon", where)
    try:
        return DealSetup(number, dealer, (cards[0], cards[1], cards[2]), talon)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _expect(where: str, key: str, recorded: Any, actual: Any) -> None:
    if recorded != actual:
        raise RecordError(
            f"{where}: key {key!r} is {quote(recorded)}, the rules give {quote(actual)}"
        )


def _replay_exchange(match: Match, steps: list[Any], where: str) -> None:
    for i, step in enumerate(steps, 1):
        at = f"{where}: exchange {i}"
        giver = _get(step, "from", int, at)
        receiver = _get(step, "to", int, at)
        given = _card(_get(step, "given", str, at), at)
        returned = _card(_get(step, "returned", str, at), at)
        # Transfers the record skips were stopped early (or given nothing).
        while (due := _giving(match)) is not None and due != (giver, receiver):
            _apply(at, match.stop_giving)
        if due is None:
            raise RecordError(f"{at}: no exchange from seat {giver} to seat {receiver} is due")
        done = _apply(at, partial(match.give, given)).step
        if done is None:  # a trump: the receiver chose what came back
            _apply(at, partial(match.return_card, returned))
        else:
            _expect(at, "returned", str(returned), str(done.returned))
    while _kind(match) is DecisionKind.GIVE:
        _apply(f"{where}: exchanges", match.stop_giving)


def _apply(where: str, decide: Callable[[], Applied]) -> Applied:
    try:
        return decide()
    except IllegalDecision as exc:
        raise RecordError(f"{where}: {exc}") from None


def _kind(match: Match) -> DecisionKind | None:
    pending = match.pending()
    return pending.kind if pending is not None else None


def _giving(match: Match) -> tuple[int, int] | None:
    """(giver, receiver) when a card is to be given now, else None."""
    pending = match.pending()
    if pending is None or pending.kind is not DecisionKind.GIVE:
        return None
    receiver = pending.view.give_to
    assert receiver is not None  # a GIVE view names the receiver
    return pending.seat, receiver


def _replay_deal(match: Match, deal: dict[str, Any], number: int) -> None:
    where = f"deal {number}"
    setup = _setup(deal, number)
    engine = match.deal
    assert engine is not None
    if setup != engine.setup:
        source = f"seed {quote(match.seed)}" if match.seed is not None else "the deal rotation"
        raise RecordError(f"{where}: the dealer, hands or talon differ from {source}")
    _expect(where, "chooser", _get(deal, "chooser", int, where), engine.chooser)
    _expect(where, "third", _get(deal, "third", int, where), engine.third)
    game = _get(deal, "game", str, where)
    try:
        contract = Contract.parse(game)
    except ValueError as exc:
        raise RecordError(f"{where}: key 'game': {exc}") from None
    # The exchange comes after the choice, or before it (Exchange.BEFORE_CHOICE).
    first = match.rules.exchanges_before(None)
    if not first:
        _apply(f"{where}: game", partial(match.choose, contract))
    _replay_exchange(match, _get(deal, "exchanges", list, where), where)
    if first:
        _apply(f"{where}: game", partial(match.choose, contract))

    discard = _card_list(deal, "discard", where)
    if _kind(match) is not DecisionKind.DISCARD:
        raise RecordError(f"{where}: the exchange did not end where the record says")
    try:
        _apply(f"{where}: discard", partial(match.discard, CardSet(discard)))
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"{where}: discard: {exc}") from None

    tricks = _get(deal, "tricks", list, where)
    if len(tricks) != 16:
        raise RecordError(f"{where}: key 'tricks' must hold 16 tricks, not {len(tricks)}")
    for t, trick in enumerate(tricks, 1):
        at = f"{where}: trick {t}"
        pending = match.pending()
        assert pending is not None and pending.kind is DecisionKind.PLAY
        _expect(at, "leader", _get(trick, "leader", int, at), pending.seat)
        cards = _card_list(trick, "cards", at)
        if len(cards) != 3:
            raise RecordError(f"{at}: key 'cards' must hold 3 cards, not {len(cards)}")
        winner = _get(trick, "winner", int, at)
        played = [_apply(at, partial(match.play, card)) for card in cards]
        assert played[-1].trick is not None  # the third card completes the trick
        _expect(at, "winner", winner, played[-1].trick.winner)

    result = match.results[-1]
    _expect(where, "taken", _int_triple(deal, "taken", where), result.taken)
    _expect(where, "scores", _int_triple(deal, "scores", where), result.scores)


def replay(record: dict[str, Any]) -> Match:
    """Replay a record on a fresh engine and return the finished match; RecordError (with
    the deal, trick or key at fault) if the record is malformed or breaks a rule."""
    if not isinstance(record, dict):
        raise RecordError("record: a record is a JSON object")
    fmt = record.get("format")
    seeding = next((s for s, name in _FORMATS.items() if name == fmt), None)
    if seeding is None:
        raise RecordError(f"record: key 'format' is {quote(fmt)}, expected {FORMAT!r}")
    rules = rules_field(record, "record", RecordError)
    if "seed" not in record:
        raise RecordError("record: key 'seed' is missing (null for a hand-made deal)")
    seed = record["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"record: key 'seed' must be an integer or null, not {quote(seed)}")
    names = _get(record, "players", list, "record")
    if len(names) != 3 or not all(isinstance(n, str) for n in names):
        raise RecordError("record: key 'players' must list three names")
    deals = _get(record, "deals", list, "record")
    if not (len(deals) == rules.length or (rules.end is not MatchEnd.DEALS and deals)):
        raise RecordError(f"record: {len(deals)} deals recorded, the length is {rules.length}")
    try:
        if seed is not None:
            match = Match(rules, seed, names, seeding=seeding)
        else:
            setups = [_setup(d, n) for n, d in enumerate(deals, 1)]
            match = Match(rules, None, names, setups=setups, seeding=seeding)
    except ValueError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"record: {exc}") from None
    for number, deal in enumerate(deals, 1):
        if not isinstance(deal, dict):
            raise RecordError(f"deal {number}: expected an object")
        _replay_deal(match, deal, number)
    _expect("record", "totals", _int_triple(record, "totals", "record"), match.totals)
    if "places" in record:
        _expect("record", "places", record["places"], list(match.standings()))
    return match
