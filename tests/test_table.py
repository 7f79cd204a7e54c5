"""The application layer's table (ts358.table.table): a match with people and computer seats,
driven with no front end, refusing with reasons as values, saved as it goes."""

from __future__ import annotations

import pytest

from ts358 import Card, Rules
from ts358.match import Match
from ts358.players import HeuristicPlayer, Player
from ts358.refusal import Reason
from ts358.table.saves import PlaySettings, SavedMatch, read_save
from ts358.table.table import Refused, Table, TableReason
from ts358.view import DecisionKind


class Watching(HeuristicPlayer):
    """The rule of thumb, noting what the table tells it."""

    def __init__(self) -> None:
        super().__init__()
        self.deals: list[int] = []
        self.over: list[tuple[int, Match]] = []
        self.closed = 0

    def deal_over(self, seat, result):
        self.deals.append(result.number)

    def match_over(self, seat, match):
        self.over.append((seat, match))

    def close(self):
        self.closed += 1


def new_table(tmp_path, seed=5, opponents=None, humans=(0,)):
    match = Match(Rules(length=3), seed)
    saved = SavedMatch(match, "t", 0, "easy", PlaySettings(analysis=False))
    path = tmp_path / "t.json"
    return Table(saved, path, humans, stats=False, opponents=opponents), path


def illegal_card(view):
    """A card the seat holds but may not play now, or one it does not hold."""
    held_not_legal = sorted(view.hand - view.options)
    if held_not_legal:
        return held_not_legal[0]
    return next(c for c in map(Card.parse, ("AS", "KH", "QD", "JC", "2S")) if c not in view.hand)


def test_a_match_with_no_front_end(tmp_path):
    watchers = {1: Watching(), 2: Watching()}
    table, path = new_table(tmp_path, opponents=dict(watchers))
    person = HeuristicPlayer()
    refusals = set()
    while not table.match.done:
        if (pending := table.computer_due()) is not None:
            with pytest.raises(Refused) as raised:
                table.due_view(0)
            assert raised.value.reason is TableReason.NOT_YOUR_TURN
            table.apply_computer(pending, table.think(pending))
            continue
        if table.waiting:
            with pytest.raises(Refused) as raised:
                table.decide(0, None)
            assert raised.value.reason is TableReason.BETWEEN_DEALS
            table.go_on(0)
            continue
        view = table.due_view(0)
        if view.kind is DecisionKind.PLAY:
            step = table.step
            with pytest.raises(Refused) as raised:
                table.decide(0, illegal_card(view))
            refusals.add(raised.value.reason.reason)
            assert table.step == step and table.view(0) == view  # nothing changed
        table.decide(0, person.decide(view))
        # A person's decision is in the save at once.
        assert len(read_save(path).match.snapshot().decisions) == table.step
    assert refusals & {Reason.NOT_HELD, Reason.MUST_FOLLOW, Reason.MUST_TRUMP}
    with pytest.raises(Refused) as raised:
        table.decide(0, None)
    assert raised.value.reason is TableReason.FINISHED
    for seat, watcher in watchers.items():
        assert watcher.deals == [1, 2, 3]
        assert [(s, m.done) for s, m in watcher.over] == [(seat, True)]
        assert watcher.closed >= 1
    assert read_save(path).match.done


def test_the_same_seeds_make_the_same_match_as_a_front_end_would(tmp_path):
    def play(table):
        person = HeuristicPlayer()
        while not table.match.done:
            if (pending := table.computer_due()) is not None:
                table.apply_computer(pending, table.think(pending))
            elif table.waiting:
                table.go_on(0)
            else:
                table.decide(0, person.decide(table.due_view(0)))
        return table.match.snapshot().decisions

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, _ = new_table(tmp_path / "a", seed=9, opponents={1: "medium"})
    second, _ = new_table(tmp_path / "b", seed=9, opponents={1: "medium"})
    assert play(first) == play(second)


def test_a_discard_named_with_a_card_twice_is_refused_as_such(tmp_path):
    table, _ = new_table(tmp_path, seed=3)
    person = HeuristicPlayer()
    while True:
        if (pending := table.computer_due()) is not None:
            table.apply_computer(pending, table.think(pending))
            continue
        if table.waiting:
            table.go_on(0)
            continue
        view = table.due_view(0)
        if view.kind is DecisionKind.DISCARD:
            break
        table.decide(0, person.decide(view))
    cards = sorted(view.options)[:3]
    with pytest.raises(Refused) as raised:
        table.decide(0, [*cards, cards[0]])
    assert raised.value.reason.reason is Reason.DISCARD_TWICE
    assert table.decide(0, sorted(view.options)[:4]) is None
    assert table.view(0).kind is not DecisionKind.DISCARD


def test_players_are_players(tmp_path):
    # A player made already takes its seat as it is (a remote bot's seat, a test's).
    player = Watching()
    table, _ = new_table(tmp_path, opponents={2: player})
    assert isinstance(table.computers[2].player, Player) and table.computers[2].player is player
