"""The rule presets and options (docs/rules.md#variants) through the whole engine: parsing
and refusals, whole matches of every preset with every computer level, records and saves
that replay, the end conditions, what each seat sees, and the computer players' hidden-
information twin check under each preset (the same view with the hidden cards re-dealt
consistently gives the same decision)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from test_expert import light as light_expert
from test_sampling_player import light as light_hard
from ts358.cards import CardSet
from ts358.deal import Deal, DealSetup
from ts358.match import Match, standings
from ts358.players import HeuristicPlayer, RandomPlayer, make_player
from ts358.players.layouts import sample_worlds
from ts358.record import match_record, replay
from ts358.rules import (
    PRESETS,
    Contract,
    Exchange,
    FirstLead,
    MatchEnd,
    Role,
    Rules,
    RulesError,
    Talon,
    Top,
    VoidRule,
)
from ts358.table.saves import SavedMatch, read_save, write_save
from ts358.view import DecisionKind

# Presets, and combinations that try each option's other values.
VARIANTS = {
    **{name: Rules.named(name, 3) for name in PRESETS},
    "unseen-overtrump": Rules.named("house", 3, talon="unseen", void="overtrump"),
    "discard-first-left-lead": Rules.named(
        "kurnik", 3, talon="discard-first", first_lead="left", exchange="trump-and-no-trump"
    ),
    "dealer-top-all-games": Rules.named("house", 3, top="dealer", sees=16, targets="9-5-2"),
    "target-end": Rules.named("sergeant-major", 9, end="target", target_score=4),
}


# ---------------------------------------------------------------------- the options


def test_presets_are_what_docs_rules_md_says():
    sm = PRESETS["sergeant-major"]
    assert (sm.top, sm.sees, sm.games.label, sm.repeat) == (Top.DEALER, 16, "suits", True)
    assert (sm.talon, sm.void, sm.exchange) == (
        Talon.DISCARD_FIRST,
        VoidRule.KURNIK,
        Exchange.BEFORE_CHOICE,
    )
    assert (sm.first_lead, sm.end, sm.length) == (FirstLead.LEFT, MatchEnd.TWELVE_TRICKS, 18)
    assert PRESETS["9-5-2"] == dataclasses.replace(sm, targets=(9, 5, 2))
    assert PRESETS["house"] == Rules() and Rules().label == "house"
    # Under Sergeant Major the dealer chooses and the player on their left leads.
    assert sm.dealing_role is Role.CHOOSER and sm.first_leader is Role.THIRD
    assert Rules().dealing_role is Role.DEALER and Rules().first_leader is Role.CHOOSER


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
def test_rules_round_trip_through_json_and_text(rules):
    data = json.loads(json.dumps(rules.to_json()))
    assert Rules.from_json(data, rules.length) == rules
    assert hash(Rules.from_json(data, rules.length)) == hash(rules)
    text = ",".join(
        [rules.label if rules.preset else "house"]
        + [f"{k}={'-'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in data.items()]
        + [f"length={rules.length}"]
    )
    assert Rules.parse(text) == rules


def test_house_and_kurnik_files_keep_their_old_shape():
    assert Rules().to_json() == {"void": "house", "exchange": True, "exchange_trumps": True}
    assert Rules.named("kurnik").to_json() == {
        "void": "kurnik",
        "exchange": True,
        "exchange_trumps": False,
    }
    assert Rules.from_json({"void": "house", "exchange": False, "exchange_trumps": True}, 6) == (
        Rules(exchange=Exchange.NONE)
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("house,repeat=yes", "repeat"),
        ("house,games=suits,length=18", "length"),
        ("sergeant-major,exchange_trumps=no", "exchange_trumps"),
        ("sergeant-major,sees=6", "sees"),
        ("house,targets=9-5-3", "targets"),
        ("house,targets=five", "targets"),
        ("house,talon=face-up", "talon"),
        ("house,end=forever", "end"),
        ("house,target_score=0", "target_score"),
        ("house,length=7", "length"),
        ("house,colour=red", "no rule option"),
        ("house,talon", "name=value"),
        ("canasta", "no rules"),
    ],
)
def test_a_combination_that_is_no_rule_set_is_refused_in_one_line(text, says):
    with pytest.raises(RulesError) as refused:
        Rules.parse(text)
    assert says in str(refused.value) and "\n" not in str(refused.value)


# ---------------------------------------------------------------------- the engine


def test_sergeant_major_deal_by_deal():
    rules = Rules.named("sergeant-major", 3)
    match = Match(rules, seed=4)
    deal = match.deal
    assert deal is not None
    # Deal 1: no exchange; the chooser (the dealing seat) sees all sixteen and only suits.
    pending = match.pending()
    assert pending.kind is DecisionKind.CHOOSE and pending.seat == deal.chooser
    assert len(pending.view.hand) == 16 and pending.view.available[deal.chooser] == rules.contracts
    match.apply("hearts")
    # It discards four of its sixteen first, seeing no talon; nobody sees the talon after.
    pending = match.pending()
    assert pending.kind is DecisionKind.DISCARD and pending.view.talon is None
    assert pending.view.options == pending.view.hand and len(pending.view.hand) == 16
    match.apply_answer(CardSet(sorted(pending.view.hand)[:4]))
    assert deal.talon_taken and deal.view(deal.chooser).talon == CardSet(deal.setup.talon)
    for seat in range(3):
        if seat != deal.chooser:
            assert deal.view(seat).talon is None and deal.view(seat).talon_taken
    # The player left of the dealer (the chooser) leads the first trick.
    assert match.pending().seat == (deal.chooser + 1) % 3
    # Later deals: the exchange before the choice, when the previous deal has plus and minus.
    players = [HeuristicPlayer()] * 3
    kinds = []
    while (pending := match.pending()) is not None:
        if match.number > 1 and match.deal.game is None:
            kinds.append(pending.kind)
        match.apply_answer(players[pending.seat].decide(pending.view))
    assert DecisionKind.GIVE in kinds and kinds[-1] is DecisionKind.CHOOSE
    assert DecisionKind.RETURN not in kinds  # no trump yet: every card comes back by rule


def test_9_5_2_scores_by_its_targets():
    match = Match(Rules.named("9-5-2", 3), seed=2)
    match.run([HeuristicPlayer()] * 3)
    for result in match.results:
        for seat in range(3):
            role = result.role_of(seat)
            assert result.scores[seat] == result.taken[seat] - (9, 5, 2)[role]


def test_twelve_tricks_end_the_match_with_that_player_first():
    rules = Rules.named("sergeant-major", 18)
    # A strong chooser against two random players takes 12 tricks sooner or later.
    for seed in range(40):
        match = Match(rules, seed=seed)
        match.run([HeuristicPlayer(), RandomPlayer(seed), RandomPlayer(seed + 1)])
        if match.winner is not None:
            break
    else:
        pytest.fail("no match of 40 ended on 12 tricks")
    assert len(match.results) < 18 or max(match.results[-1].taken) >= 12
    assert max(match.results[-1].taken) >= 12
    assert all(max(r.taken) < 12 for r in match.results[:-1])
    assert match.standings()[match.winner] == 1
    assert match.standings() == standings(match.totals, match.winner)
    assert list(match.standings()).count(1) == 1


def test_a_target_score_ends_the_match_after_its_deal():
    rules = Rules.named("house", 18, end="target", target_score=3)
    match = Match(rules, seed=8)
    match.run([HeuristicPlayer()] * 3)
    totals = [0, 0, 0]
    for number, result in enumerate(match.results, 1):
        totals = [t + s for t, s in zip(totals, result.scores)]
        assert (max(totals) >= 3) == (number == len(match.results)) or number == 18
    assert len(match.results) < 18


def test_a_match_on_a_condition_still_ends_at_its_length():
    rules = Rules.named("house", 3, end="target", target_score=100)
    match = Match(rules, seed=1)
    match.run([HeuristicPlayer()] * 3)
    assert len(match.results) == 3 and match.done


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
def test_records_and_saves_replay(tmp_path, rules):
    match = Match(rules, seed=3)
    match.run([HeuristicPlayer(), RandomPlayer(1), HeuristicPlayer()])
    record = json.loads(json.dumps(match_record(match)))
    again = replay(record)
    assert again.results == match.results and again.rules == rules
    assert again.standings() == match.standings()
    write_save(tmp_path / "m.json", SavedMatch(match, "m"))
    assert read_save(tmp_path / "m.json").match.results == match.results


# ---------------------------------------------------------------------- the players


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_level_plays_every_preset(name, level):
    rules = Rules.named(name, 3)
    match = Match(rules, seed=5)
    if level in ("hard", "expert"):  # light efforts: the logic is the same at any effort
        own = light_hard(5) if level == "hard" else light_expert(5)
        players = [own, make_player("medium", 1), make_player("easy", 2)]
    else:
        players = [make_player(level, s) for s in range(3)]
    match.run(players)
    assert match.done and sum(match.totals) == 0


def _twin(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """Deal 1 (no exchange) as ``seat`` sees it now, the cards it cannot see re-dealt
    consistently with its view (a sampled layout), the decisions replayed: the chooser's
    original sixteen and the talon taken from its twenty when it was taken unseen."""
    view = deal.view(seat)
    world = next(sample_worlds(view, 1, rng))
    played: dict[int, CardSet] = {s: CardSet() for s in range(3)}
    for trick in view.tricks:
        for index, card in enumerate(trick.cards):
            played[trick.seat_of(index)] = played[trick.seat_of(index)].with_card(card)
    for index, card in enumerate(view.trick):
        who = (view.leader + index) % 3
        played[who] = played[who].with_card(card)
    chooser = view.chooser
    discard = deal.discarded if seat == chooser else world.pile
    if view.talon is not None:
        talon = view.talon
    elif deal.talon_taken:  # unseen: four of the chooser's cards (discarded too, if taken first)
        held = world.hands[chooser] | played[chooser]
        if deal.rules.talon is Talon.UNSEEN:
            held = held | discard
        talon = CardSet(rng.sample(sorted(held), 4))
    else:
        talon = world.pile
    hands = []
    for s in range(3):
        if s == seat:
            first = deal.setup.hands[s][: len(view.hand)]
            if view.kind is DecisionKind.CHOOSE and len(first) < 16:  # the unseen ten too
                first += tuple(world.hands[s] - CardSet(first))
            hands.append(first if len(first) == 16 else deal.setup.hands[s])
            continue
        cards = world.hands[s] | played[s]
        if s == chooser and deal.talon_taken:
            cards = (cards | (discard or CardSet())) - talon
        hands.append(tuple(cards))
    other = Deal(DealSetup(1, deal.dealer, tuple(hands), tuple(talon)), deal.rules)
    for decision in deal.decisions:
        if len(decision.split()) == 4 and seat != chooser:
            decision = " ".join(map(str, discard))
        other.apply(decision)
    return other


def _decisions(rules: Rules, seed: int):
    """(deal, seat) at a decision of each kind a seat meets in deal 1: the choice, the
    discard, and plays early and late by each seat."""
    match = Match(rules, seed=seed)
    player = HeuristicPlayer()
    seen = set()
    while (pending := match.pending()) is not None and match.number == 1:
        tricks = len(pending.view.tricks)
        key = (pending.kind, pending.seat, tricks // 6)
        if key not in seen:
            seen.add(key)
            yield match.deal, pending.seat
        match.apply_answer(player.decide(pending.view))


@pytest.mark.parametrize(
    "name", ["sergeant-major", "9-5-2", "unseen-overtrump", "discard-first-left-lead"]
)
def test_decisions_ignore_the_real_hidden_cards_under_each_rule_set(name):
    rules = VARIANTS[name]
    rng = random.Random(7)
    checked = set()
    changed = 0
    for number, (deal, seat) in enumerate(_decisions(rules, 12)):
        if number % 3:  # a third of the points keeps the test quick
            continue
        view = deal.view(seat)
        decision = light_hard(3).decide(view)
        other = _twin(deal, seat, rng)
        assert other.view(seat) == view  # the seat cannot tell the two deals apart
        changed += any(other.hand(s) != deal.hand(s) for s in range(3) if s != seat)
        assert light_hard(3).decide(other.view(seat)) == decision, (view.kind, seat)
        checked.add(view.kind)
    assert {DecisionKind.PLAY, DecisionKind.CHOOSE} <= checked
    assert changed  # the hidden cards really were different


def test_the_review_scores_by_the_rules_targets():
    from ts358.analysis.review import review_deal

    rules = Rules.named("9-5-2", 3)
    match = Match(rules, seed=6)
    match.run([HeuristicPlayer()] * 3)
    result = match.results[0]
    theirs = review_deal(result, rules, (0, 1, 2), from_trick=13)
    house = review_deal(result, rules.void, (0, 1, 2), from_trick=13)
    assert theirs.reviews and len(theirs.reviews) == len(house.reviews)
    for a, b in zip(theirs.reviews, house.reviews):
        role = result.role_of(a.seat)
        shift = (8, 5, 3)[role] - (9, 5, 2)[role]  # trick games: tricks minus the target
        if result.game.label == "no-tricks":
            shift = -shift
        assert (a.card, a.lost, a.best) == (b.card, b.lost, b.best)
        assert (a.score, a.best_score) == (b.score + shift, b.best_score + shift)


def test_analyze_solves_a_sergeant_major_deal_as_it_is_played():
    """ts358 analyze under Sergeant Major: the discard of four of the sixteen, the talon
    taken after, the player left of the dealer on lead; checked against solve()."""
    from ts358.analysis.game_stats import deal_stats
    from ts358.analysis.solve import solve
    from ts358.position import Position

    rules = Rules.named("sergeant-major")
    record = deal_stats(5, 0, games=[Contract.HEARTS], candidates=1, rules=rules)
    entry = record["games"]["hearts"]
    hands = record["hands"]
    chooser = (CardSet.parse(hands["chooser"]) - CardSet.parse(entry["discard"])) | CardSet.parse(
        hands["talon"]
    )
    position = Position(
        Contract.HEARTS,
        (chooser, CardSet.parse(hands["third"]), CardSet.parse(hands["dealer"])),
        void=VoidRule.KURNIK,
        leader=Role.THIRD,
    )
    assert solve(position).player(Role.CHOOSER).tricks == entry["chooser"]["tricks"]
