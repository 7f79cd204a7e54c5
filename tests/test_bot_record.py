"""The match record a bot is sent when its match is over (``match_end``,
docs/bots.md#the-match-record): it holds, card by card, only what the seat's own views
showed it during each deal (worked out here from those views, not from the engine's rule),
it conforms to the protocol's schema, and a bot's process receives it (once, before the
bye) when the table calls ``match_over``; nothing is sent to a bot never started or
handed over, and a fault on the way is caught and recorded."""

from __future__ import annotations

import copy
import functools
import io
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ts358.bots import BotPlayer, BotProcess
from ts358.bots.client import BotSide, serve_bot
from ts358.bots.process import BotFault
from ts358.bots.protocol import match_end_message
from ts358.bots.record import redacted_record
from ts358.cards import Card, CardSet
from ts358.match import Match
from ts358.players import make_player
from ts358.players.base import Player
from ts358.record import match_record
from ts358.rules import PRESETS, Rules
from ts358.view import SeatView

ROOT = Path(__file__).parent.parent
EXAMPLE_PY = ROOT / "examples" / "bots" / "first_legal.py"
EXAMPLE_JS = ROOT / "examples" / "bots" / "first_legal.js"
RULE_SETS = [Rules.named(name, 6) for name in PRESETS]
SCHEMA = json.loads((ROOT / "docs" / "bots" / "ts358-bot-1.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(SCHEMA)

TOP_KEYS = {"format", "rules", "length", "players", "seat", "deals", "totals", "places"}
DEAL_KEYS = {
    "number",
    "dealer",
    "chooser",
    "third",
    "game",
    "hands",
    "talon",
    "exchanges",
    "others_exchanged",
    "discard",
    "tricks",
    "taken",
    "scores",
}
_CARD = re.compile(r"[2-9TJQKA][SHDC]")

# A bot that plays its first options and writes every line it is sent to the file named by
# its argument (flushed at once, so that the file is complete when the bot is gone).
CAPTURE_BOT = """\
import json, sys
log = open(sys.argv[1], "w", encoding="utf-8")
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        answer = {"type": "hello", "name": "capture", "version": "1"}
    elif kind == "decide":
        options = message["options"]
        if message["kind"] == "choose":
            answer = {"game": options[0]}
        elif message["kind"] == "discard":
            answer = {"cards": options[:4]}
        else:
            answer = {"card": options[0]}
        answer = {"type": "decision", "id": message["id"], **answer}
    elif kind == "bye":
        break
    else:
        continue
    print(json.dumps(answer), flush=True)
"""


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = {key: value for key, value in SCHEMA.items() if key != "oneOf"}
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}"})


def conforms(message: dict[str, Any]) -> None:
    """A valid ``match_end`` of docs/bots/ts358-bot-1.schema.json, and a valid message."""
    validator("match_end").validate(message)
    jsonschema.Draft202012Validator(SCHEMA).validate(message)


def cards_in(value: Any) -> set[Card]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    if isinstance(value, str) and _CARD.fullmatch(value):
        return {Card.parse(value)}
    return set()


def strs(cards: Any) -> list[str]:
    return [str(c) for c in cards]


# ---------------------------------------------------------------------- playing; what each seat saw


Views = dict[int, dict[int, list[SeatView]]]  # seat -> deal number -> its views, in order


def play(match: Match, players: list[Player]) -> Views:
    """Play ``match`` to the end with ``players`` (deal_over after each deal, match_over at
    the end, as a table does); every seat's view is taken before every decision."""
    views: Views = {seat: {} for seat in range(3)}
    while (pending := match.pending()) is not None:
        deal = match.deal
        assert deal is not None
        for seat in range(3):
            views[seat].setdefault(match.number, []).append(deal.view(seat))
        applied = match.apply_answer(players[pending.seat].decide(pending.view))
        if applied.result is not None:
            for seat, player in enumerate(players):
                player.deal_over(seat, applied.result)
    for seat, player in enumerate(players):
        player.match_over(seat, match)
    return views


def seen(views: list[SeatView]) -> set[Card]:
    """Every card the seat's views of one deal showed it."""
    known: set[Card] = set()
    for view in views:
        known |= set(view.hand) | set(view.trick)
        known |= set(view.talon or ()) | set(view.discard or ())
        for step in view.exchanges:
            known |= {step.given, step.returned}
        for trick in view.tricks:
            known |= set(trick.cards)
    return known


def dealt(view: SeatView) -> CardSet | None:
    """The seat's hand as dealt, undone from one of its views: the cards it played, its
    discard, the talon it took and its exchange steps, latest first. None from a view that
    can't tell: the chooser's before its choice (its first six only), and any during the
    exchange (a trump given waits for its return: in the receiver's hand, in no step)."""
    seat = view.seat
    if view.game is None and seat == view.chooser:
        return None
    if view.game is not None and view.talon is None:
        return None
    hand = set(view.hand)
    for trick in view.tricks:
        hand |= {c for i, c in enumerate(trick.cards) if trick.seat_of(i) == seat}
    if view.leader is not None:
        hand |= {c for i, c in enumerate(view.trick) if (view.leader + i) % 3 == seat}
    hand |= set(view.discard or ())
    if seat == view.chooser and view.talon is not None:
        hand -= set(view.talon)
    for step in reversed(view.exchanges):
        if step.giver == seat:
            hand = (hand - {step.returned}) | {step.given}
        else:
            hand = (hand | {step.returned}) - {step.given}
    return CardSet(hand)


def check_redacted(record: dict[str, Any], seat: int, match: Match, views: Views) -> None:
    """``record`` holds for ``seat`` only what its views showed it: AssertionError if not."""
    full = match_record(match)
    assert set(record) == TOP_KEYS, set(record) ^ TOP_KEYS
    assert record["seat"] == seat
    for key in TOP_KEYS - {"seat", "deals"}:
        assert record[key] == full[key], key  # public: the rules, the names, the outcome
    assert len(record["deals"]) == len(match.results)
    for deal, result in zip(record["deals"], match.results):
        mine = views[seat][result.number]
        last = mine[-1]  # the seat's last view of the deal: the play had started
        assert last.tricks or last.trick or last.kind is not None
        at = (seat, result.number)
        # No card but those its views showed and the cards played (the whole table saw).
        played = {c for t in result.tricks for c in t.cards}
        leaked = cards_in(deal) - (seen(mine) | played)
        assert not leaked, (at, leaked)
        assert set(deal) == DEAL_KEYS, (at, set(deal) ^ DEAL_KEYS)
        assert deal["number"] == last.deal_number and deal["dealer"] == last.dealer
        assert (deal["chooser"], deal["third"]) == (last.chooser, last.third)
        assert last.game is not None and deal["game"] == last.game.label
        # Its own hand as its views give it; nobody else's.
        hands = {h for v in mine if (h := dealt(v)) is not None}
        assert len(hands) == 1, at
        assert deal["hands"] == [strs(hands.pop()) if s == seat else None for s in range(3)], at
        assert deal["talon"] == (None if last.talon is None else strs(last.talon)), at
        unseen = seat != last.chooser and last.rules.talon.label != "shown"
        assert last.talon is not None or unseen
        assert deal["exchanges"] == [
            {"from": s.giver, "to": s.receiver, "given": str(s.given), "returned": str(s.returned)}
            for s in last.exchanges
        ], at
        assert deal["others_exchanged"] == last.others_exchanged, at
        assert deal["discard"] == (None if last.discard is None else strs(last.discard)), at
        assert deal["tricks"] == [
            {"leader": t.leader, "cards": strs(t.cards), "winner": t.winner} for t in result.tricks
        ], at
        assert deal["taken"] == list(result.taken) and deal["scores"] == list(result.scores)


# ---------------------------------------------------------------------- the record


@functools.cache
def played(rules: Rules, seed: int) -> tuple[Match, Views]:
    match = Match(rules, seed)
    levels = ("easy", "medium", "easy")
    players = [make_player(levels[s], seed * 3 + s) for s in range(3)]
    return match, play(match, players)


CASES = [(rules, seed) for rules in RULE_SETS for seed in (11, 12, 13)]
IDS = [f"{rules.label}-{seed}" for rules, seed in CASES]


@pytest.mark.parametrize("rules, seed", CASES, ids=IDS)
def test_the_record_holds_only_what_the_seat_saw(rules, seed):
    match, views = played(rules, seed)
    assert match.done
    for seat in range(3):
        message = match_end_message(seat, match)
        conforms(message)
        assert message["type"] == "match_end"
        assert message["totals"] == list(match.totals)
        assert message["places"] == list(match.standings())
        assert message["record"] == redacted_record(match, seat)
        check_redacted(json.loads(json.dumps(message["record"])), seat, match, views)


def test_the_matches_hide_something_from_each_seat():
    # Otherwise the check above would be idle: each seat missed a discard, another seat's
    # hand, and (house rules) exchanges it had no part in; it had exchanges of its own.
    others = mine = 0
    for rules, seed in CASES:
        match, _ = played(rules, seed)
        for seat in range(3):
            record = redacted_record(match, seat)
            deals = record["deals"]
            assert any(d["discard"] is None for d in deals)
            assert all(d["hands"].count(None) == 2 for d in deals)
            others += sum(d["others_exchanged"] for d in deals)
            mine += sum(len(d["exchanges"]) for d in deals)
            # Discarded cards it never saw: not the talon's, never played.
            assert any(
                set(strs(r.discard)) - set(d["talon"] or ())
                for r, d in zip(match.results, deals)
                if d["discard"] is None
            )
    assert others > 0 and mine > 0


def test_the_check_fails_on_what_the_seat_may_not_know():
    match, views = played(Rules(length=6), 11)
    full = match_record(match)
    exchanged = next(
        (s, n)
        for s in range(3)
        for n, d in enumerate(redacted_record(match, s)["deals"])
        if d["others_exchanged"]
    )
    seat = exchanged[0]
    good = redacted_record(match, seat)
    check_redacted(good, seat, match, views)
    other = (seat + 1) % 3
    chose = next(n for n, r in enumerate(match.results) if r.chooser != seat)

    def spoiled(change) -> dict[str, Any]:
        record = copy.deepcopy(good)
        change(record)
        return record

    def their_hand(r):
        r["deals"][0]["hands"][other] = strs(CardSet(match.results[0].hands[other]))

    def their_discard(r):
        r["deals"][chose]["discard"] = strs(match.results[chose].discard)

    def their_exchange(r):
        n = exchanged[1]
        theirs = [s for s in full["deals"][n]["exchanges"] if seat not in (s["from"], s["to"])]
        r["deals"][n]["exchanges"].append(theirs[0])

    def dealt_order(r):
        r["deals"][0]["hands"][seat] = [str(c) for c in match.results[0].hands[seat]]

    def a_played_card_not_mine(r):
        hand = r["deals"][0]["hands"][seat]
        theirs = next(str(c) for c in match.results[0].hands[other])
        hand[0] = theirs

    for change in (
        their_hand,
        their_discard,
        their_exchange,
        dealt_order,
        a_played_card_not_mine,
        lambda r: r.update(seed=match.seed),
        lambda r: r.update(faults=[]),
        lambda r: r["deals"][1].update(first_six=["AS"]),
    ):
        with pytest.raises(AssertionError):
            check_redacted(spoiled(change), seat, match, views)
    with pytest.raises(AssertionError):
        check_redacted({**full, "seat": seat}, seat, match, views)


def test_the_schema_refuses_a_record_that_tells_too_much():
    match, _ = played(Rules(length=6), 12)
    good = match_end_message(0, match)
    conforms(good)
    conforms({**good, "a_key_of_a_later_version": 1})
    deal = good["record"]["deals"][0]
    others = [strs(CardSet(h)) for h in match.results[0].hands]
    for bad in (
        {key: value for key, value in good.items() if key != "record"},
        {**good, "record": {**good["record"], "seed": match.seed}},
        {**good, "record": {**good["record"], "deals": [{**deal, "hands": others}]}},
        {**good, "record": {**good["record"], "deals": [{**deal, "hands": [None] * 3}]}},
        {**good, "record": {**good["record"], "deals": [{**deal, "discard": ["AS"]}]}},
        {**good, "totals": [1, 2]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            conforms(bad)


def test_a_record_only_of_a_finished_match_and_a_seat():
    match = Match(Rules(length=3), 5)
    with pytest.raises(ValueError, match="finished"):
        redacted_record(match, 0)
    finished, _ = played(Rules(length=6), 13)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="seat"):
            redacted_record(finished, seat)


def test_an_eighteen_deal_record_is_one_line_a_bot_can_take():
    match = Match(Rules(length=18), 3)
    match.run([make_player("easy", s) for s in range(3)])
    line = json.dumps(match_end_message(2, match), separators=(",", ":"))
    assert len(line.encode()) < 65536


# ---------------------------------------------------------------------- sent to the bot


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    "rules", [Rules(length=3), Rules.named("kurnik", 3)], ids=["house", "kurnik"]
)
def test_a_bot_is_sent_its_record_when_the_match_is_over(rules, tmp_path):
    script = tmp_path / "capture.py"
    script.write_text(CAPTURE_BOT, encoding="utf-8")
    logs = [tmp_path / f"seat{s}.jsonl" for s in range(3)]
    bots = [BotPlayer([sys.executable, str(script), str(logs[s])], seed=s) for s in range(3)]
    match = Match(rules, 21)
    try:
        views = play(match, list(bots))
    finally:
        for bot in bots:
            bot.close()
    assert all(not bot.faults for bot in bots), [bot.faults for bot in bots]
    for seat in range(3):
        received = read_log(logs[seat])
        ends = [m for m in received if m["type"] == "match_end"]
        assert len(ends) == 1, seat
        assert [m["type"] for m in received[-3:]] == ["deal_end", "match_end", "bye"]
        (end,) = ends
        conforms(end)
        assert end == json.loads(json.dumps(match_end_message(seat, match)))
        check_redacted(end["record"], seat, match, views)


def bot_commands() -> list[Any]:
    node = shutil.which("node")
    return [
        pytest.param([sys.executable, str(EXAMPLE_PY)], id="python"),
        pytest.param(
            [node or "node", str(EXAMPLE_JS)],
            id="javascript",
            marks=pytest.mark.skipif(node is None, reason="node is not installed"),
        ),
    ]


@pytest.mark.parametrize("command", bot_commands())
def test_the_example_bots_take_the_match_end_and_exit_cleanly(command, monkeypatch):
    processes: list[BotProcess] = []
    original = BotProcess.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        processes.append(self)

    monkeypatch.setattr(BotProcess, "__init__", recording)
    bots = [BotPlayer(command, seed=s) for s in range(3)]
    try:
        play(Match(Rules(length=3), 8), list(bots))
    finally:
        for bot in bots:
            bot.close()
    assert all(not bot.faults for bot in bots), [bot.faults for bot in bots]
    assert len(processes) == 3
    # A bot that choked on match_end would have ended with an error, not at the bye.
    for process in processes:
        assert process._process.returncode == 0, list(process.stderr)


def test_ts358s_own_bot_side_takes_the_match_end():
    match, _ = played(Rules(length=6), 11)
    end = json.dumps(match_end_message(1, match))
    side = BotSide(lambda seed: make_player("easy", seed), "ts358")
    side.answer(json.dumps({"type": "hello", "seed": 4}))
    assert side.answer(end) is None and not side.done
    stdout, stderr = io.StringIO(), io.StringIO()
    stdin = io.StringIO(f'{{"type":"hello","seed":4}}\n{end}\n{{"type":"bye"}}\n')
    assert serve_bot(lambda seed: make_player("easy", seed), "ts358", stdin, stdout, stderr) == 0
    assert stderr.getvalue() == ""  # nothing it did not understand
    assert [json.loads(line)["type"] for line in stdout.getvalue().splitlines()] == ["hello"]


class Recording:
    """A transport that keeps what it is sent, and fails to send the kinds in ``refuse``."""

    def __init__(self, refuse: tuple[str, ...] = ()) -> None:
        self.sent: list[dict[str, Any]] = []
        self.refuse = refuse
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        if message["type"] in self.refuse:
            raise BotFault("died", "the bot's connection is closed")
        self.sent.append(message)

    def receive(self, deadline: float) -> bytes:
        message = self.sent[-1]
        if message["type"] == "hello":
            return b'{"type":"hello","name":"recording"}'
        options = message["options"]
        answer: dict[str, Any] = {"card": options[0]}
        if message["kind"] == "choose":
            answer = {"game": options[0]}
        elif message["kind"] == "discard":
            answer = {"cards": options[:4]}
        return json.dumps({"type": "decision", "id": message["id"], **answer}).encode()

    def close(self) -> None:
        self.closed = True


def test_nothing_is_sent_to_a_bot_never_started_or_handed_over(tmp_path):
    match, _ = played(Rules(length=6), 12)
    never = BotPlayer([sys.executable, str(tmp_path / "no_such_bot.py")])
    never.match_over(0, match)
    assert never.faults == [] and never._process is None

    gone = tmp_path / "gone.py"  # answers the hello, then exits: handed over at once
    gone.write_text(
        "import json, sys\nsys.stdin.readline()\n"
        'print(json.dumps({"type": "hello", "name": "gone"}), flush=True)\n',
        encoding="utf-8",
    )
    handed = BotPlayer([sys.executable, str(gone)], seconds=5.0)
    fresh = Match(Rules(length=3), 9)
    try:
        play(fresh, [handed, make_player("easy", 1), make_player("easy", 2)])
    finally:
        handed.close()
    assert [f.kind for f in handed.faults] == ["died"] and handed.faults[0].handed_over
    handed.match_over(0, fresh)
    assert len(handed.faults) == 1  # nothing sent, so nothing failed

    transport = Recording()
    recorded = BotPlayer(transport)
    fresh = Match(Rules(length=3), 9)
    play(fresh, [make_player("easy", 0), recorded, make_player("easy", 2)])
    assert [m["type"] for m in transport.sent].count("match_end") == 1
    assert transport.sent[-1] == match_end_message(1, fresh)
    assert recorded.faults == []


def test_a_fault_at_the_match_end_is_recorded_not_raised():
    transport = Recording(refuse=("match_end",))
    bot = BotPlayer(transport)
    match = Match(Rules(length=3), 9)
    play(match, [make_player("easy", 0), make_player("easy", 1), bot])
    assert [(f.kind, f.deal, f.handed_over) for f in bot.faults] == [("died", 3, True)]
    assert transport.closed
    assert all(m["type"] != "match_end" for m in transport.sent)
