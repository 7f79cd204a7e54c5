"""Matches: invariants over many seeded matches (all lengths, both rule sets, both players),
hidden information, illegal decisions, snapshots, rotation, standings."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts358 import CardSet, Contract, Rules
from ts358.cards import DECK
from ts358.deal import IllegalDecision
from ts358.match import MAX_NAME, Match, clean_name, standings
from ts358.players import HeuristicPlayer, Player, RandomPlayer
from ts358.record import match_record, replay
from ts358.view import DecisionKind


def naive_legal(hand, trick, game, rules):
    """docs/rules.md#playing-the-tricks, written out: follow suit; void, trump (house); else any."""
    if not trick:
        return set(hand)
    follow = {c for c in hand if c.suit == trick[0].suit}
    if follow:
        return follow
    trumps = {c for c in hand if c.suit == game.trump}
    if trumps and rules.void.label == "house":
        return trumps
    return set(hand)


def cards_in_view(view):
    cards = set(view.hand) | set(view.options) | set(view.trick)
    for extra in (view.talon, view.discard):
        if extra is not None:
            cards |= set(extra)
    for step in view.exchanges:
        cards |= {step.given, step.returned}
    for trick in view.tricks:
        cards |= set(trick.cards)
    if view.received is not None:
        cards.add(view.received)
    return cards


def knowable(deal, seat, kind):
    """The cards ``seat`` may know, from the engine's truth."""
    choosing = kind is DecisionKind.CHOOSE and seat == deal.chooser
    known = set(deal.setup.hands[seat][:6] if choosing else deal.setup.hands[seat])
    if not choosing:
        known |= set(deal.hand(seat))  # includes a trump just received
    for step in deal.exchanges:
        if seat in (step.giver, step.receiver):
            known |= {step.given, step.returned}
    if deal.talon_taken:
        known |= set(deal.setup.talon)
    for trick in deal.tricks:
        known |= set(trick.cards)
    return known | set(deal.trick)


class Spy(Player):
    """Passes decisions through, checking that each view holds nothing hidden from its seat."""

    def __init__(self, inner, match):
        self.inner = inner
        self.match = match
        self.views = 0

    def decide(self, view):
        deal = self.match.deal
        seen = cards_in_view(view)
        allowed = knowable(deal, view.seat, view.kind)
        assert seen <= allowed, f"seat {view.seat} sees {sorted(map(str, seen - allowed))}"
        others = [s for s in deal.exchanges if view.seat not in (s.giver, s.receiver)]
        assert view.others_exchanged == len(others)
        if view.kind in (DecisionKind.CHOOSE, DecisionKind.GIVE, DecisionKind.RETURN):
            assert view.talon is None
        if view.seat != deal.chooser:
            assert view.discard is None
        self.views += 1
        return self.inner.decide(view)


def illegal_attempt(view, deal):
    """A decision the rules forbid now, or None if there is none to try."""
    kind, hand = view.kind, deal.hand(view.seat)
    if kind is DecisionKind.CHOOSE:
        used = set(Contract) - view.available[view.seat]
        return min(used) if used else "trumps"
    if kind is DecisionKind.DISCARD:
        return CardSet(sorted(view.options)[:3])
    if kind is DecisionKind.PLAY and hand - view.options:
        return min(hand - view.options)
    outside = DECK - hand
    return min(outside) if outside else None


def check_conservation(deal):
    parts = [deal.hand(s) for s in range(3)]
    if deal.discarded is not None:
        parts.append(deal.discarded)
    if not deal.talon_taken:
        parts.append(CardSet(deal.setup.talon))
    parts.append(CardSet([c for t in deal.tricks for c in t.cards] + list(deal.trick)))
    assert sum(len(p) for p in parts) == 52
    union = CardSet()
    for p in parts:
        union = union | p
    assert union == DECK


def referee(match, players, rng, tries=0.05):
    """Drive the match step by step, checking the invariants at every step."""
    while not match.done:
        deal = match.deal
        check_conservation(deal)
        pending = match.pending()
        if rng.random() < tries:
            bad = illegal_attempt(pending.view, deal)
            if bad is not None:
                snapshot = match.snapshot()
                with pytest.raises(IllegalDecision):
                    match.apply_answer(bad)
                assert match.snapshot() == snapshot and match.pending() == pending
        decision = players[pending.seat].decide(pending.view)
        if pending.kind is DecisionKind.PLAY:
            hand = deal.hand(pending.seat)
            assert decision in naive_legal(hand, deal.trick, deal.game, match.rules)
        match.apply_answer(decision)


def check_finished(match):
    rules = match.rules
    k = rules.length // 3
    assert len(match.results) == rules.length
    totals = [0, 0, 0]
    chosen = {0: [], 1: [], 2: []}
    for i, result in enumerate(match.results):
        assert result.number == i + 1
        assert result.dealer == (match.first_dealer + i) % 3
        assert len(result.tricks) == 16 and sum(result.taken) == 16
        assert sum(result.scores) == 0
        assert len(result.discard) == 4
        chosen[result.chooser].append(result.game)
        if i == 0 or result.game.trump is None or not rules.exchange:
            assert result.exchanges == ()
        if not rules.exchange_trumps:
            assert all(s.given.suit != result.game.trump for s in result.exchanges)
        totals = [t + s for t, s in zip(totals, result.scores)]
    assert tuple(totals) == match.totals
    for seat in range(3):
        assert len(chosen[seat]) == k and len(set(chosen[seat])) == k


RULESETS = {"house": lambda n: Rules(length=n), "kurnik": lambda n: Rules.named("kurnik", n)}


def make_players(kind, seed):
    if kind == "random":
        return [RandomPlayer(seed * 3 + s) for s in range(3)]
    if kind == "heuristic":
        return [HeuristicPlayer() for _ in range(3)]
    return [RandomPlayer(seed), HeuristicPlayer(), RandomPlayer(seed + 1)]


@pytest.mark.parametrize("players", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("ruleset", ["house", "kurnik"])
@pytest.mark.parametrize("length", [3, 6, 9, 18])
@pytest.mark.parametrize("round_", range(3))
def test_invariants(length, ruleset, players, round_):
    seed = length * 1000 + len(ruleset) * 100 + len(players) * 10 + round_
    match = Match(RULESETS[ruleset](length), seed)
    spies = [Spy(p, match) for p in make_players(players, seed)]
    referee(match, spies, random.Random(seed))
    check_finished(match)
    assert all(s.views > 0 for s in spies)
    again = replay(match_record(match))
    assert again.results == match.results and again.totals == match.totals


def test_the_spy_catches_a_leak():
    match = Match(Rules(length=3), 4)
    spy = Spy(RandomPlayer(1), match)
    view = match.pending().view
    hidden = CardSet(match.deal.setup.hands[view.seat][6:7])  # the chooser's seventh card
    with pytest.raises(AssertionError, match="sees"):
        spy.decide(view._replace(hand=view.hand | hidden))
    other = (view.seat + 1) % 3
    with pytest.raises(AssertionError, match="sees"):
        spy.decide(view._replace(options=match.deal.hand(other)))
    spy.decide(view)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    exchange=st.booleans(),
    exchange_trumps=st.booleans(),
    void=st.sampled_from(["house", "kurnik"]),
)
def test_invariants_any_rules(seed, exchange, exchange_trumps, void):
    rules = Rules(void=void, exchange=exchange, exchange_trumps=exchange_trumps, length=3)
    match = Match(rules, seed)
    players = [Spy(p, match) for p in make_players("mixed", seed)]
    referee(match, players, random.Random(seed), tries=0.1)
    check_finished(match)


def test_same_seed_same_match():
    a, b = Match(Rules(length=6), 42), Match(Rules(length=6), 42)
    a.run(make_players("random", 1))
    b.run(make_players("random", 1))
    assert a.results == b.results
    c = Match(Rules(length=6), 43)
    c.run(make_players("random", 1))
    assert c.results != a.results


def test_first_dealer_is_drawn_from_the_seed():
    dealers = {Match(Rules(length=3), seed).first_dealer for seed in range(30)}
    assert dealers == {0, 1, 2}


def test_role_rotation_8_3_5_8():
    match = Match(Rules(length=9), 5)
    match.run(make_players("random", 5))
    obligation = {}
    for r in match.results:
        obligation[r.number] = {r.chooser: 8, r.third: 5, r.dealer: 3}
    for n in range(1, 9):
        for seat in range(3):
            assert obligation[n + 1][seat] == {8: 3, 3: 5, 5: 8}[obligation[n][seat]]


def test_18_deals_each_game_exactly_once():
    match = Match(Rules(length=18), 9)
    match.run(make_players("heuristic", 9))
    for seat in range(3):
        assert sorted(r.game for r in match.results if r.chooser == seat) == list(Contract)


def test_last_pick_is_forced():
    match = Match(Rules(length=18), 10)
    players = make_players("random", 10)
    while len(match.results) < 15:
        p = match.pending()
        match.apply_answer(players[p.seat].decide(p.view))
    # Deals 16-18: each seat's last turn to choose, one game left.
    p = match.pending()
    assert p.kind is DecisionKind.CHOOSE
    (forced,) = p.view.available[p.seat]
    others = [g for g in Contract if g is not forced]
    with pytest.raises(IllegalDecision):
        match.apply_answer(others[0])
    match.apply_answer(forced)


def test_exchange_uses_the_previous_deal_scores_not_totals():
    match = Match(Rules(length=6), 21)
    players = make_players("heuristic", 21)
    while len(match.results) < 3:
        p = match.pending()
        match.apply_answer(players[p.seat].decide(p.view))
    view = match.pending().view
    assert view.previous_scores == match.results[-1].scores
    assert view.totals == match.totals


def test_snapshot_restores_mid_match():
    match = Match(Rules(length=6), 77)
    players = make_players("random", 77)
    for _ in range(300):
        p = match.pending()
        match.apply_answer(players[p.seat].decide(p.view))
    snap = match.snapshot()
    copy = Match.restore(snap)
    assert copy.pending() == match.pending()
    assert copy.results == match.results and copy.totals == match.totals
    # Both continue identically.
    p1, p2 = make_players("heuristic", 0), make_players("heuristic", 0)
    match.run(p1)
    copy.run(p2)
    assert copy.results == match.results


def test_no_decision_after_the_match():
    match = Match(Rules(length=3), 1)
    match.run(make_players("random", 1))
    assert match.done and match.pending() is None
    with pytest.raises(IllegalDecision):
        match.apply("hearts")


@pytest.mark.parametrize(
    "totals, places",
    [
        ((3, 0, -3), (1, 2, 3)),
        ((2, 2, -4), (1, 1, 3)),
        ((-2, 1, 1), (3, 1, 1)),
        ((0, 0, 0), (1, 1, 1)),
        ((-1, 5, -4), (2, 1, 3)),
    ],
)
def test_equal_totals_share_a_place(totals, places):
    assert standings(totals) == places


def test_a_match_needs_a_seed_or_setups():
    with pytest.raises(ValueError):
        Match(Rules(length=3))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["house", "kurnik"])
def test_soak(ruleset):
    for seed in range(40):
        length = (3, 6, 9, 18)[seed % 4]
        match = Match(RULESETS[ruleset](length), 10_000 + seed)
        players = [
            Spy(p, match) for p in make_players(["random", "heuristic", "mixed"][seed % 3], seed)
        ]
        referee(match, players, random.Random(seed), tries=0.2)
        check_finished(match)
        assert replay(match_record(match)).results == match.results


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("Zoë\u00a0Nowak", "Zoë Nowak"),
        ("x" * 40, "x" * 40),
    ],
)
def test_a_name_is_kept_with_its_spaces_folded(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize(
    "typed", ["", "   ", "x" * (MAX_NAME + 1), "Ann\x1b[31m", "Ann\u202eLee", None, 7, ["Ann"]]
)
def test_a_name_that_is_not_one_is_refused_in_one_line(typed):
    with pytest.raises(ValueError, match="player's name") as caught:
        clean_name(typed)
    assert "\n" not in str(caught.value)
