"""The engine's integrity against its players (issue 19): a player changes nothing through the
objects of its view or the answers it gives.

Each attack is a real player in a real match; the engine must reject what it does or be
untouched by it, and the match record must stay honest (it replays). Then the object graph
of every kind of view is walked to check that it shares nothing changeable with the engine.
"""

from __future__ import annotations

import enum
import gc
import json
import types

from ts358 import Card, CardSet, Rules, VoidRule
from ts358.cards import DECK
from ts358.deal import IllegalDecision
from ts358.match import Match
from ts358.players import HeuristicPlayer, Player, RandomPlayer
from ts358.record import format_record, match_record, replay
from ts358.view import DecisionKind


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
