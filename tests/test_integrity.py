"""The engine's integrity against its players (issue 19): a player changes nothing through the
objects of its view or the answers it gives, and learns nothing hidden from its seed.

Each attack is a real player in a real match; the engine must reject what it does or be
untouched by it, and the match record must stay honest (it replays). Then the object graph
of every kind of view is walked to check that it shares nothing changeable with the engine,
and the saves and records of the earlier seed scheme (tests/data, made by ts358 before this
change) still replay to the same match.
"""

from __future__ import annotations

import enum
import gc
import json
import random
import types
from pathlib import Path

import pytest

from ts358 import Card, CardSet, Rules, VoidRule
from ts358.bots import spec as bot_spec
from ts358.cards import DECK
from ts358.deal import DealSetup, IllegalDecision
from ts358.match import Match, MatchSnapshot, player_seed
from ts358.players import HeuristicPlayer, Player, RandomPlayer
from ts358.record import RecordError, format_record, load_record, match_record, replay
from ts358.seeds import derived_rng, derived_seed
from ts358.table.saves import SaveError, from_json, read_save, to_json
from ts358.table.seats import ComputerSeat
from ts358.terminal import play
from ts358.view import DecisionKind

DATA = Path(__file__).parent / "data"


def house():
    """A match's rules, new for each test: an attack that worked would change its object."""
    return Rules(length=3)


class Honest(HeuristicPlayer):
    """The rule-of-thumb player, remembering the honest answer before it attacks."""

    def decide(self, view):
        self.honest = super().decide(view)
        return self.attack(view, self.honest)

    def attack(self, view, honest):
        return honest


def referee(match, players):
    """Play ``match`` to the end; an answer other than the honest one is an attack, which the
    engine must reject (IllegalDecision, then the honest answer is played). Returns
    (attacks, attacks accepted)."""
    attacks = accepted = 0
    while (pending := match.pending()) is not None:
        player = players[pending.seat]
        answer = player.decide(pending.view)
        if answer is not player.honest:
            attacks += 1
            try:
                match.apply_answer(answer)
            except IllegalDecision:
                answer = player.honest
            else:
                accepted += 1
                continue
        match.apply_answer(answer)
    return attacks, accepted


class Revoker(Honest):
    """Makes its view's legal cards its whole hand, then plays a card the rules forbid."""

    def attack(self, view, honest):
        forbidden = view.hand - view.options
        if view.kind is not DecisionKind.PLAY or not forbidden:
            return honest
        object.__setattr__(view.options, "_mask", view.hand.mask)
        return forbidden.lowest()


def test_a_revoke_through_the_views_legal_cards_is_rejected():
    match = Match(house(), 3)
    attacks, accepted = referee(match, [Revoker() for _ in range(3)])
    assert attacks > 10 and accepted == 0
    replay(match_record(match))  # every card of the record is legal


def rule_values(rules):
    return (rules.void, rules.exchange, rules.exchange_trumps, rules.length)


class RulesChanger(Honest):
    """Switches its view's rules to Kurnik's, a long match and no trump exchanges."""

    def __init__(self):
        self.seen = []

    def attack(self, view, honest):
        self.seen.append(rule_values(view.rules))
        for name, value in (("void", VoidRule.KURNIK), ("length", 18), ("exchange_trumps", False)):
            object.__setattr__(view.rules, name, value)
        return honest


def test_changing_the_views_rules_changes_nothing():
    match = Match(house(), 11)
    players = [RulesChanger() for _ in range(3)]
    assert referee(match, players) == (0, 0)
    assert match.rules == house() and len(match.results) == 3
    for player in players:  # every view showed the match's rules, whatever came before
        assert set(player.seen) == {rule_values(house())}
    record = match_record(match)
    assert record["rules"]["void"] == "house" and record["rules"]["exchange_trumps"]
    assert replay(json.loads(format_record(record))).rules == house()


class DiscardChanger(Honest):
    """Changes the four cards it discarded after the engine took them."""

    def __init__(self):
        self.discarded = None

    def attack(self, view, honest):
        if view.kind is DecisionKind.DISCARD:
            self.discarded = honest
        elif self.discarded is not None:
            object.__setattr__(self.discarded, "_mask", DECK.mask)
        return honest


def test_changing_an_answer_after_it_was_taken_changes_nothing():
    match = Match(house(), 5)
    referee(match, [DiscardChanger() for _ in range(3)])
    assert all(len(result.discard) == 4 for result in match.results)
    replay(match_record(match))


class SeedReader(RandomPlayer):
    """Given its seed as the session gives it, rebuilds the first deal the ways the seed
    could make it: the match seed is the player seed, or ``(seed - seat) / 3`` (how the seats
    were seeded before issue 19); the deals come from ``random.Random(match seed)`` (before
    issue 19) or from the derived stream."""

    def __init__(self, seed):
        super().__init__(seed)
        self.seed = seed
        self.rebuilt = None

    def decide(self, view):
        if self.rebuilt is None:
            self.rebuilt = self.rebuilds(view)
        return super().decide(view)

    def rebuilds(self, view):
        for match_seed in {self.seed, (self.seed - view.seat) // 3}:
            for rng in (random.Random(match_seed), derived_rng("match-deals", match_seed)):
                first = rng.randrange(3)
                if (view.deal_number, view.dealer) != (1, first):
                    continue
                hand = DealSetup.shuffled(1, first, rng).hands[view.seat]
                if CardSet(hand[:6] if view.seat == (first + 1) % 3 else hand) == view.hand:
                    return True
        return False


def test_the_seed_reader_rebuilds_a_deal_dealt_the_old_way():
    # The attack works: seats seeded 3 * seed + seat, deals from random.Random(seed).
    match = Match(house(), 8, seeding=1)
    readers = [SeedReader(8 * 3 + seat) for seat in range(3)]
    match.run(readers)
    assert all(reader.rebuilt for reader in readers)


@pytest.mark.parametrize("auto", [True, False])
def test_a_player_cannot_rebuild_the_deal_from_its_seed(monkeypatch, auto):
    readers = []

    def make_reader(level, seed, threads=1):
        readers.append(SeedReader(seed))
        return readers[-1]

    monkeypatch.setattr(play, "make_player", make_reader)  # --auto's players
    monkeypatch.setattr(bot_spec, "make_player", make_reader)  # a seat's, beside a person
    for match_seed in (1, 8, 2**32 - 1):
        del readers[:]
        match = Match(house(), match_seed)
        if auto:
            play.play_auto(match, "easy", False, lambda line: None)
        else:
            seats = [ComputerSeat("easy", match_seed, seat) for seat in range(3)]
            for step in range(12):
                pending = match.pending()
                match.apply_answer(seats[pending.seat].decide(pending.view, step))
        # Each seat's player (made at its first decision) has its seat's derived seed.
        assert sorted(r.seed for r in readers) == sorted(
            player_seed(match_seed, s) for s in range(3)
        )
        assert [r.rebuilt for r in readers] == [False] * 3


def test_player_seeds_and_deals_come_from_separate_derived_streams():
    rng = derived_rng("match-deals", 8)
    match = Match(house(), 8)
    assert match.first_dealer == rng.randrange(3)
    assert match.deal.setup == DealSetup.shuffled(1, match.first_dealer, rng)
    assert player_seed(8, 2) == derived_seed("match-player", 8, 2)


def test_a_computer_seats_generator_is_seeded_by_its_own_seed_only():
    # Before issue 19 the session reseeded it from the match seed, which its state gave away.
    seat = ComputerSeat("easy", 8, 1)
    match = Match(house(), 8)
    while (pending := match.pending()).seat != 1:
        match.apply_answer(HeuristicPlayer().decide(pending.view))
    twin = RandomPlayer()
    twin.rng.seed(f"{player_seed(8, 1)}:7")
    assert seat.decide(pending.view, 7) == twin.decide(pending.view)
    assert seat.player.rng.getstate() == twin.rng.getstate()


# ---------------------------------------------------------------------- the object graph


def interned(obj):
    """Cards and enum members: one object per value for the whole process, never copied
    (a card compares by identity). Changing one with object.__setattr__ is rewriting the
    library, like patching a module: out of any view's reach to prevent (players.base)."""
    return isinstance(obj, (Card, enum.Enum))


def frozen(obj):
    """Whether no Python code, object.__setattr__ included, can change ``obj`` in place."""
    if interned(obj) or type(obj) in (int, float, str, bool, type(None)):
        return True
    if isinstance(obj, (tuple, frozenset)):  # a subclass only if it adds no attributes
        bases = [k for k in type(obj).__mro__ if k not in (tuple, frozenset, object)]
        return all(vars(k).get("__slots__", None) == () for k in bases)
    return False


def reachable(root):
    """{id: object} of every object reachable from ``root``, not entering classes, modules,
    functions or interned values."""
    found = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        opaque = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
        if id(obj) in found or isinstance(obj, opaque):
            continue
        found[id(obj)] = obj
        if not interned(obj):
            stack.extend(gc.get_referents(obj))
    return found


def shared_state(view, match):
    """The objects reachable from ``view`` that the engine holds and that can be changed."""
    engine = reachable(match)
    return [o for key, o in reachable(view).items() if key in engine and not frozen(o)]


def test_no_object_reachable_from_a_view_is_engine_state():
    kinds = set()
    for seed in range(3):
        match = Match(house(), seed)
        players = [RandomPlayer(seed * 3 + s) for s in range(3)]
        while (pending := match.pending()) is not None:
            kinds.add(pending.kind)
            for view in (pending.view, *(match.deal.view(s) for s in range(3))):
                assert shared_state(view, match) == [], (pending.kind, view.seat)
            match.apply_answer(players[pending.seat].decide(pending.view))
    assert kinds == set(DecisionKind)


def test_the_graph_check_finds_shared_state():
    match = Match(house(), 1)
    view = match.pending().view
    assert shared_state(view._replace(rules=match.rules), match) == [match.rules]
    hand = match.deal.setup.hands[0]
    assert shared_state(view._replace(trick=hand, hand=[hand]), match) == []  # tuples, cards
    assert shared_state(view._replace(hand=match.deal._hands), match) == [match.deal._hands]


class Vandal(Player):
    """Decides as its inner player would, then scribbles on every card set and rules object
    its view reaches."""

    def __init__(self, inner):
        self.inner = inner

    def decide(self, view):
        answer = self.inner.decide(view)
        for obj in reachable(view).values():
            if isinstance(obj, CardSet):
                object.__setattr__(obj, "_mask", DECK.mask)
            elif isinstance(obj, Rules):
                object.__setattr__(obj, "void", VoidRule.KURNIK)
                object.__setattr__(obj, "length", 18)
        return answer


def test_vandals_play_the_same_match_as_honest_players():
    honest, vandalised = Match(house(), 4), Match(house(), 4)
    honest.run([RandomPlayer(s) for s in range(3)])
    vandalised.run([Vandal(RandomPlayer(s)) for s in range(3)])
    assert vandalised.rules == house()
    assert match_record(vandalised) == match_record(honest)


# ---------------------------------------------------------------------- files of ts358-*/1


def test_an_old_record_replays_to_the_same_match():
    text = (DATA / "match-v1-seed5.json").read_text(encoding="utf-8")
    match = replay(load_record(DATA / "match-v1-seed5.json"))
    assert match.seeding == 1
    assert format_record(match_record(match)) == text  # written back as it was, /1
    relabelled = dict(json.loads(text), format="ts358-match/2")
    with pytest.raises(RecordError, match="deal 1: the dealer, hands or talon differ from seed 5"):
        replay(relabelled)


def test_an_old_save_resumes_the_same_match():
    recorded = replay(load_record(DATA / "match-v1-seed5.json"))
    saved = read_save(DATA / "save-v1-seed5.json")
    match = saved.match
    assert match.seeding == 1 and match.results == recorded.results[:1]
    assert match.deal.setup.hands == recorded.results[1].hands
    data = to_json(saved)
    assert data["format"] == "ts358-save/1"
    assert from_json(data).match.snapshot() == match.snapshot()
    # The rest of the recorded match, played on from the save, is the recorded match.
    everything = recorded.snapshot().decisions
    done = match.snapshot().decisions
    assert everything[: len(done)] == done
    for decision in everything[len(done) :]:
        match.apply(decision)
    assert match.results == recorded.results
    with pytest.raises(SaveError, match="decision"):
        from_json(dict(data, format="ts358-save/2"))


def test_new_files_say_the_new_scheme():
    match = Match(house(), 5)
    match.run([HeuristicPlayer() for _ in range(3)])
    record = match_record(match)
    assert record["format"] == "ts358-match/2" and replay(record).results == match.results
    assert Match(house(), 5, seeding=1).deal.setup.hands != match.results[0].hands
    assert Match.restore(MatchSnapshot(house(), 5, match.names, (), seeding=1)).seeding == 1
    with pytest.raises(ValueError, match="seeding"):
        Match(house(), 5, seeding=3)
