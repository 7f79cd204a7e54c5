"""Deal and Match against a deliberately naive model of the rules (docs/rules.md).

The model below is written from the rule text alone, with plain Python sets of cards: it shares
no code with the engine's rule logic (ts358.tricks, ts358.exchange, the Deal internals and the
Cython core), only the value types Card, CardSet, Contract, Rules and VoidRule as data, and
reads each deal's cards from ``match.deal.setup`` when the deal starts. A Hypothesis
state machine drives a Match with decisions the model thinks legal (checking every Applied)
and with decisions the model thinks illegal (checking that IllegalDecision changes nothing),
and after each step checks that the engine and the model agree on whose turn it is, on every
seat's view, on where each of the 52 cards is, and on the scores.

The fast configuration runs by default; ``pytest -m slow`` runs a longer soak.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ts358.cards import DECK, Card, CardSet, Suit
from ts358.deal import IllegalDecision
from ts358.match import Match
from ts358.rules import Contract, Rules, VoidRule

# ---------------------------------------------------------------------------- the naive model

CHOOSE, GIVE, RETURN, DISCARD, PLAY = "choose", "give", "return", "discard", "play"

TRUMP = {
    Contract.SPADES: Suit.SPADES,
    Contract.HEARTS: Suit.HEARTS,
    Contract.DIAMONDS: Suit.DIAMONDS,
    Contract.CLUBS: Suit.CLUBS,
    Contract.NO_TRUMP: None,
    Contract.NO_TRICKS: None,
}
ALL_SIX = frozenset(TRUMP)
OBLIGATION = {"chooser": 8, "third": 5, "dealer": 3}  # trick games
LIMIT = {"chooser": 3, "third": 5, "dealer": 8}  # no-tricks


def role(seat: int, dealer: int) -> str:
    """Clockwise from the dealer: the chooser, then the third player, then the dealer."""
    return {(dealer + 1) % 3: "chooser", (dealer + 2) % 3: "third", dealer: "dealer"}[seat]


def highest(cards) -> Card:
    return max(cards, key=lambda c: c.rank)


class NaiveDeal:
    """One deal, as a player reading docs/rules.md would track it."""

    def __init__(self, number, dealer, hands, talon, rules, previous_scores, available):
        self.number = number
        self.dealer = dealer
        self.chooser = (dealer + 1) % 3
        self.rules = rules
        self.previous_scores = previous_scores
        self.available = available  # games each seat may still choose
        self.first_six = set(hands[self.chooser][:6])
        self.hands = [set(h) for h in hands]
        self.talon = set(talon)
        self.talon_taken = False
        self.discard: set[Card] | None = None
        self.game: Contract | None = None
        self.phase = CHOOSE
        self.transfers: list[list[int]] = []  # [giver, receiver, cards still to give]
        self.awaiting: Card | None = None  # a trump given, its return not yet chosen
        self.steps: list[tuple[int, int, Card, Card]] = []  # giver, receiver, given, returned
        self.leader = self.chooser
        self.trick: list[Card] = []
        self.tricks: list[tuple[int, tuple[Card, ...], int]] = []  # leader, cards, winner
        self.taken = [0, 0, 0]

    # -- whose turn, and what may they do

    def due(self) -> tuple[int, str] | None:
        if self.phase == CHOOSE:
            return self.chooser, CHOOSE
        if self.phase == GIVE:
            giver, receiver, _ = self.transfers[0]
            return (receiver, RETURN) if self.awaiting is not None else (giver, GIVE)
        if self.phase == DISCARD:
            return self.chooser, DISCARD
        if self.phase == PLAY:
            return (self.leader + len(self.trick)) % 3, PLAY
        return None

    @property
    def trump(self) -> Suit | None:
        return TRUMP[self.game] if self.game is not None else None

    def giveable(self, seat: int) -> set[Card]:
        if self.rules.exchange_trumps:
            return set(self.hands[seat])
        return {c for c in self.hands[seat] if c.suit != self.trump}

    def legal(self, seat: int) -> set[Card]:
        hand = self.hands[seat]
        if not self.trick:
            return set(hand)
        led = self.trick[0].suit
        follow = {c for c in hand if c.suit == led}
        if follow:
            return follow
        trumps = {c for c in hand if c.suit == self.trump}
        if trumps and self.rules.void is VoidRule.HOUSE:
            return trumps
        return set(hand)

    # -- the decisions

    def choose(self, game: Contract) -> None:
        self.game = game
        self.phase = GIVE
        self.transfers = self.plan()
        self.next_transfer()

    def plan(self) -> list[list[int]]:
        prev = self.previous_scores
        if prev is None or self.number == 1 or self.trump is None or not self.rules.exchange:
            return []
        plus = [s for s in range(3) if prev[s] > 0]
        minus = [s for s in range(3) if prev[s] < 0]
        obligation = {s: OBLIGATION[role(s, self.dealer)] for s in range(3)}
        if len(plus) == 1 and minus:
            # to each minus player as many as their minus, the lower new obligation first
            minus.sort(key=lambda s: obligation[s])
            return [[plus[0], s, -prev[s]] for s in minus]
        if len(plus) == 2 and len(minus) == 1:
            # each plus player gives their plus, the higher new obligation first
            plus.sort(key=lambda s: -obligation[s])
            return [[s, minus[0], prev[s]] for s in plus]
        return []

    def next_transfer(self) -> None:
        while self.transfers and (
            self.transfers[0][2] == 0 or not self.giveable(self.transfers[0][0])
        ):
            self.transfers.pop(0)
        if not self.transfers:
            # the talon, shown to everyone, goes to the chooser
            self.hands[self.chooser] |= self.talon
            self.talon_taken = True
            self.phase = DISCARD

    def give(self, card: Card) -> tuple[int, int, Card, Card] | None:
        giver, receiver, _ = self.transfers[0]
        self.hands[giver].remove(card)
        self.hands[receiver].add(card)
        if card.suit == self.trump:
            self.awaiting = card
            return None
        back = highest(c for c in self.hands[receiver] if c.suit == card.suit)
        return self.step(card, back)

    def return_card(self, card: Card) -> tuple[int, int, Card, Card]:
        given = self.awaiting
        assert given is not None
        self.awaiting = None
        return self.step(given, card)

    def step(self, given: Card, back: Card) -> tuple[int, int, Card, Card]:
        transfer = self.transfers[0]
        giver, receiver, _ = transfer
        self.hands[receiver].remove(back)
        self.hands[giver].add(back)
        self.steps.append((giver, receiver, given, back))
        transfer[2] -= 1
        self.next_transfer()
        return self.steps[-1]

    def stop_giving(self) -> None:
        self.transfers.pop(0)
        self.next_transfer()

    def do_discard(self, cards: set[Card]) -> None:
        self.hands[self.chooser] -= cards
        self.discard = set(cards)
        self.phase = PLAY

    def play(self, card: Card) -> tuple[int, tuple[Card, ...], int] | None:
        seat = (self.leader + len(self.trick)) % 3
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < 3:
            return None
        trumps = [c for c in self.trick if c.suit == self.trump]
        led = [c for c in self.trick if c.suit == self.trick[0].suit]
        best = highest(trumps or led)
        winner = (self.leader + self.trick.index(best)) % 3
        trick = (self.leader, tuple(self.trick), winner)
        self.tricks.append(trick)
        self.taken[winner] += 1
        self.leader = winner
        self.trick = []
        if len(self.tricks) == 16:
            self.phase = "done"
        return trick

    def scores(self) -> tuple[int, int, int]:
        def score(seat: int) -> int:
            r = role(seat, self.dealer)
            if self.game is Contract.NO_TRICKS:
                return LIMIT[r] - self.taken[seat]
            return self.taken[seat] - OBLIGATION[r]

        return score(0), score(1), score(2)

    # -- what is where

    def played(self) -> set[Card]:
        return {c for _, cards, _ in self.tricks for c in cards} | set(self.trick)


class NaiveMatch:
    """The match: dealer rotation, games used up, totals."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.totals = [0, 0, 0]
        self.used: list[set[Contract]] = [set(), set(), set()]
        self.scores: list[tuple[int, int, int]] = []
        self.first_dealer: int | None = None
        self.deal: NaiveDeal | None = None

    def start(self, setup) -> None:
        number = len(self.scores) + 1
        assert setup.number == number, f"deal {number} is set up as deal {setup.number}"
        if self.first_dealer is None:
            self.first_dealer = setup.dealer
        assert setup.dealer == (self.first_dealer + number - 1) % 3, "the dealer didn't rotate"
        hands = [tuple(h) for h in setup.hands]
        assert all(len(h) == 16 for h in hands) and len(setup.talon) == 4
        assert sorted([*hands[0], *hands[1], *hands[2], *setup.talon]) == sorted(DECK)
        self.deal = NaiveDeal(
            number,
            setup.dealer,
            hands,
            tuple(setup.talon),
            self.rules,
            self.scores[-1] if self.scores else None,
            tuple(frozenset(ALL_SIX - u) for u in self.used),
        )

    def finish(self) -> tuple[int, int, int]:
        deal = self.deal
        assert deal is not None and deal.game is not None
        scores = deal.scores()
        self.scores.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        self.used[deal.chooser].add(deal.game)
        self.deal = None
        return scores

    @property
    def done(self) -> bool:
        return len(self.scores) == self.rules.length


# ---------------------------------------------------------------------------- notation


def card_text(card: Card, style: int) -> str:
    """The card as a player might type it: ``AS``, ``as``, ``A♠`` or ``10s``."""
    if style == 1:
        return str(card).lower()
    if style == 2:
        return card.symbol()
    if style == 3 and card.rank.letter == "T":
        return "10" + card.suit.letter.lower()
    return str(card)


def notation(kind: str, value, style: int) -> str:
    if kind == CHOOSE:
        return value.label.upper() if style % 2 else value.label
    if kind == GIVE and value is None:
        return "stop" if style % 2 else " STOP "
    if kind == DISCARD:
        return (", " if style % 2 else " ").join(card_text(c, style) for c in sorted(value))
    return card_text(value, style)


def same_cards(engine_cards, model_cards) -> bool:
    return set(engine_cards) == set(model_cards)


# ---------------------------------------------------------------------------- the state machine


class RulesModel(RuleBasedStateMachine):
    """A Match driven by decisions drawn from the naive model, checked at every step."""

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        length=st.sampled_from([3, 6]),
        variant=st.sampled_from(["house", "kurnik"]),
    )
    def start(self, seed: int, length: int, variant: str) -> None:
        self.rules = Rules.named(variant, length=length)
        self.match = Match(self.rules, seed=seed)
        self.model = NaiveMatch(self.rules)
        assert self.match.deal is not None
        self.model.start(self.match.deal.setup)
        self.results = []

    # -- legal decisions

    def options(self) -> tuple[int, str, list]:
        """Whose turn, what kind, and the model's legal answers (discards aside)."""
        deal = self.model.deal
        assert deal is not None
        due = deal.due()
        assert due is not None
        seat, kind = due
        if kind == CHOOSE:
            return seat, kind, sorted(deal.available[seat])
        if kind == GIVE:
            return seat, kind, [*sorted(deal.giveable(seat)), None]
        if kind in (RETURN, DISCARD):
            return seat, kind, sorted(deal.hands[seat])
        return seat, kind, sorted(deal.legal(seat))

    @precondition(lambda self: not self.model.done)
    @rule(data=st.data(), style=st.integers(0, 4))
    def decide(self, data, style: int) -> None:
        """One legal decision, typed (style 0) or in notation (styles 1-4)."""
        _, kind, options = self.options()
        if kind == DISCARD:
            value = frozenset(
                data.draw(st.lists(st.sampled_from(options), min_size=4, max_size=4, unique=True))
            )
        else:
            value = data.draw(st.sampled_from(options))
        self.apply_legal(value, style)

    @precondition(lambda self: not self.model.done)
    @rule(count=st.integers(1, 50), seed=st.integers(0, 2**16))
    def decide_many(self, count: int, seed: int) -> None:
        """``count`` legal decisions in a row (to get through whole deals), each checked; the
        choices come from ``random.Random(seed)`` (seed 0 always takes the first option)."""
        rng = random.Random(seed)
        for _ in range(count):
            choice = rng.randrange(256) if seed else 0
            if self.model.done:
                return
            _, kind, options = self.options()
            if kind == DISCARD:
                value = frozenset(random.Random(choice).sample(options, 4))
            elif kind == GIVE:
                trumps = [c for c in options[:-1] if c.suit == self.model.deal.trump]
                if choice % 4 == 3:
                    value = None
                elif choice % 4 == 2 and trumps:
                    value = trumps[choice // 4 % len(trumps)]
                else:
                    value = options[choice // 4 % (len(options) - 1)]
            else:
                value = options[choice % len(options)]
            self.apply_legal(value, 0 if choice % 8 else choice % 5)
            self.check_all()

    def apply_legal(self, value, style: int) -> None:
        deal = self.model.deal
        assert deal is not None
        seat, kind, _ = self.options()
        match = self.match
        if style:
            applied = match.apply(notation(kind, value, style))
        elif kind == CHOOSE:
            applied = match.choose(value)
        elif kind == GIVE:
            applied = match.stop_giving() if value is None else match.give(value)
        elif kind == RETURN:
            applied = match.return_card(value)
        elif kind == DISCARD:
            applied = match.discard(CardSet(value))
        else:
            applied = match.play(value)
        assert (applied.seat, applied.kind.value) == (seat, kind)

        step = trick = None
        if kind == CHOOSE:
            assert applied.decision == value.label
            deal.choose(value)
        elif kind == GIVE:
            assert applied.decision == ("stop" if value is None else str(value))
            if value is None:
                deal.stop_giving()
            else:
                step = deal.give(value)
        elif kind == RETURN:
            assert applied.decision == str(value)
            step = deal.return_card(value)
        elif kind == DISCARD:
            assert CardSet.parse(applied.decision) == CardSet(value)
            deal.do_discard(set(value))
        else:
            assert applied.decision == str(value)
            trick = deal.play(value)

        got_step = applied.step
        got_step = got_step and (
            got_step.giver,
            got_step.receiver,
            got_step.given,
            got_step.returned,
        )
        assert got_step == step, f"exchange step: engine {got_step}, model {step}"
        got_trick = applied.trick
        got_trick = got_trick and (got_trick.leader, got_trick.cards, got_trick.winner)
        assert got_trick == trick, f"trick: engine {got_trick}, model {trick}"

        if deal.phase != "done":
            assert applied.result is None, "the engine ended the deal early"
            return
        result = applied.result
        assert result is not None, "the deal is over but no result came back"
        scores = self.model.finish()
        assert result.scores == scores, f"scores: engine {result.scores}, model {scores}"
        assert sum(result.scores) == 0
        assert result.taken == tuple(deal.taken)
        assert (result.game, result.dealer, result.number) == (deal.game, deal.dealer, deal.number)
        assert set(result.discard) == deal.discard
        assert [(s.giver, s.receiver, s.given, s.returned) for s in result.exchanges] == deal.steps
        assert [(t.leader, t.cards, t.winner) for t in result.tricks] == deal.tricks
        self.results.append(result)
        if self.model.done:
            assert match.done and match.deal is None and match.pending() is None
        else:
            assert match.deal is not None and not match.done
            self.model.start(match.deal.setup)

    # -- illegal decisions

    def illegal_calls(self, data) -> tuple[str, tuple]:
        """A decision the model says is illegal now, drawn by its description: (the Match
        method, its arguments)."""
        if self.model.done:
            calls = {
                "play after the match": lambda: ("play", (Card.parse("AS"),)),
                "choose after the match": lambda: ("choose", (Contract.NO_TRUMP,)),
                "stop after the match": lambda: ("stop_giving", ()),
                "text after the match": lambda: ("apply", ("hearts",)),
            }
            return calls[data.draw(st.sampled_from(sorted(calls)))]()
        deal = self.model.deal
        assert deal is not None
        seat, kind, options = self.options()
        hand = sorted(deal.hands[seat])
        not_held = sorted(set(DECK) - deal.hands[seat])
        refused = sorted(set(hand) - set(options))  # trumps (Kurnik give), illegal plays

        def pick(cards):
            return data.draw(st.sampled_from(cards))

        wrong_kind = {
            CHOOSE: lambda: ("choose", (sorted(deal.available[deal.chooser])[0],)),
            GIVE: lambda: ("give", (pick(hand),)),
            RETURN: lambda: ("return_card", (pick(hand),)),
            DISCARD: lambda: ("discard", (CardSet(hand[:4]),)),
            PLAY: lambda: ("play", (pick(hand),)),
        }
        calls = {f"{k} while to {kind}": call for k, call in wrong_kind.items() if k != kind}
        if kind != GIVE:
            calls[f"stop while to {kind}"] = lambda: ("stop_giving", ())
        if kind == CHOOSE:
            used = sorted(ALL_SIX - deal.available[seat])
            if used:
                calls["a used-up game"] = lambda: ("choose", (pick(used),))
                calls["a used-up game, as text"] = lambda: ("apply", (pick(used).label,))
            calls["a game as text to choose()"] = lambda: ("choose", ("hearts",))
            calls["not a game"] = lambda: ("apply", ("trumps",))
            calls["a card instead of a game"] = lambda: ("apply", (str(pick(hand)),))
        elif kind == GIVE:
            calls["give a card not in hand"] = lambda: ("give", (pick(not_held),))
            calls["give None"] = lambda: ("give", (None,))
            calls["give text"] = lambda: ("apply", ("nothing",))
            if refused:
                calls["give a trump (Kurnik)"] = lambda: ("give", (pick(refused),))
        elif kind == RETURN:
            calls["return a card not in hand"] = lambda: ("return_card", (pick(not_held),))
            calls["stop instead of returning"] = lambda: ("apply", ("stop",))
        elif kind == DISCARD:
            calls["discard 3"] = lambda: ("discard", (CardSet(hand[:3]),))
            calls["discard 5"] = lambda: ("discard", (CardSet(hand[:5]),))
            calls["discard a card not in hand"] = lambda: (
                "discard",
                (CardSet([*hand[:3], pick(not_held)]),),
            )
            calls["discard a list"] = lambda: ("discard", (hand[:4],))
            calls["discard a card twice"] = lambda: (
                "apply",
                (" ".join(map(str, [*hand[:3], hand[0]])),),
            )
        else:
            calls["play a card not in hand"] = lambda: ("play", (pick(not_held),))
            calls["play stop"] = lambda: ("apply", ("stop",))
            calls["play a card as text to play()"] = lambda: ("play", (str(hand[0]),))
            if refused:
                calls["play a card the rules refuse"] = lambda: ("play", (pick(refused),))
                calls["play a card the rules refuse, as text"] = lambda: (
                    "apply",
                    (str(pick(refused)),),
                )
        return calls[data.draw(st.sampled_from(sorted(calls)))]()

    @rule(data=st.data())
    def try_illegal(self, data) -> None:
        """An illegal decision raises IllegalDecision and changes nothing."""
        method, args = self.illegal_calls(data)
        before = self.engine_state()
        with pytest.raises(IllegalDecision):
            getattr(self.match, method)(*args)
        assert self.engine_state() == before

    def engine_state(self):
        match = self.match
        deal = match.deal
        hands = None if deal is None else tuple(deal.hand(s) for s in range(3))
        decisions = None if deal is None else deal.decisions
        views = None if deal is None else tuple(deal.view(s) for s in range(3))
        return match.pending(), hands, decisions, views, match.totals, len(match.results)

    # -- invariants

    @invariant()
    def check(self) -> None:
        self.check_all()

    def check_all(self) -> None:
        self.check_pending()
        self.check_cards()
        self.check_views()
        self.check_totals()

    def check_pending(self) -> None:
        match = self.match
        if self.model.done:
            assert match.pending() is None and match.done
            return
        seat, kind, options = self.options()
        pending = match.pending()
        assert pending is not None
        assert (pending.seat, pending.kind.value) == (seat, kind), (
            f"engine asks seat {pending.seat} to {pending.kind}, model seat {seat} to {kind}"
        )
        view = pending.view
        assert view.kind is pending.kind and view.seat == seat
        if kind == PLAY:
            assert same_cards(view.options, options), (
                f"seat {seat} may play: engine {view.options}, model {CardSet(options)} "
                f"(hand {CardSet(self.model.deal.hands[seat])}, trick {self.model.deal.trick}, "
                f"game {self.model.deal.game.label})"
            )
        elif kind == GIVE:
            assert same_cards(view.options, options[:-1])
            deal = self.model.deal
            _, receiver, left = deal.transfers[0]
            assert (view.give_to, view.gives_left) == (receiver, left), (
                f"seat {seat} gives to seat {view.give_to} ({view.gives_left} left), model: to "
                f"seat {receiver} ({left} left); previous scores {deal.previous_scores}, "
                f"dealer {deal.dealer}"
            )
        elif kind == RETURN:
            assert same_cards(view.options, options)
            assert view.received == self.model.deal.awaiting
        elif kind == DISCARD:
            assert same_cards(view.options, options) and len(options) == 20
        else:
            assert not view.options and view.available[seat] == frozenset(options)

    def check_cards(self) -> None:
        """Each of the 52 cards in exactly one place, the same place for engine and model."""
        deal = self.match.deal
        model = self.model.deal
        if deal is None:
            return
        assert model is not None
        places = [
            deal.hand(0),
            deal.hand(1),
            deal.hand(2),
            CardSet() if deal.talon_taken else CardSet(deal.setup.talon),
            deal.discarded or CardSet(),
            CardSet(c for t in deal.tricks for c in t.cards),
            CardSet(deal.trick),
        ]
        assert sum(len(p) for p in places) == 52
        union = CardSet()
        for p in places:
            union = union | p
        assert union == DECK
        assert deal.talon_taken == model.talon_taken
        expected = [
            *model.hands,
            set() if model.talon_taken else model.talon,
            model.discard or set(),
            {c for _, cards, _ in model.tricks for c in cards},
            set(model.trick),
        ]
        for name, got, want in zip(
            ["hand 0", "hand 1", "hand 2", "talon", "discard", "tricks", "trick"], places, expected
        ):
            assert set(got) == want, f"{name}: engine {got}, model {CardSet(want)}"

    def check_views(self) -> None:
        """What each seat sees is its own hand and public cards, never another's hidden ones."""
        deal = self.match.deal
        model = self.model.deal
        if deal is None:
            return
        assert model is not None
        tricks = deal.tricks
        assert [(t.leader, t.cards, t.winner) for t in tricks] == model.tricks
        public = CardSet(model.played())
        if model.talon_taken:
            public = public | CardSet(model.talon)
        previous = self.model.scores[-1] if model.number > 1 else None
        due = model.due()
        for seat in range(3):
            view = deal.view(seat)
            assert (view.seat, view.dealer, view.deal_number) == (seat, model.dealer, model.number)
            if model.phase == CHOOSE and seat == model.chooser:
                hand = CardSet(model.first_six)
                assert len(view.hand) == 6
            else:
                hand = CardSet(model.hands[seat])
            assert view.hand == hand, f"seat {seat} sees the hand {view.hand}, model {hand}"
            assert (view.game, view.available) == (model.game, model.available)
            assert view.totals == tuple(self.model.totals)
            assert view.previous_scores == previous
            assert (view.talon is not None) == model.talon_taken
            if view.talon is not None:
                assert same_cards(view.talon, model.talon)
            known = hand | public
            if seat == model.chooser and model.discard is not None:
                assert view.discard is not None and same_cards(view.discard, model.discard)
                known = known | view.discard
            else:
                assert view.discard is None
            mine = [s for s in model.steps if seat in s[:2]]
            assert [(s.giver, s.receiver, s.given, s.returned) for s in view.exchanges] == mine
            assert view.others_exchanged == len(model.steps) - len(mine)
            known = known | CardSet({c for s in mine for c in s[2:]})
            assert view.tricks == tricks
            assert view.trick == tuple(model.trick)
            assert view.taken == tuple(model.taken)
            assert view.leader == (model.leader if model.phase == PLAY else None)
            if due is None or due[0] != seat:
                assert view.kind is None and not view.options
            # Nothing in the view is another seat's hidden card.
            seen = view.hand | view.options | CardSet(view.trick)
            seen = seen | (view.talon or CardSet()) | (view.discard or CardSet())
            seen = seen | CardSet({c for s in view.exchanges for c in (s.given, s.returned)})
            if view.received is not None:
                seen = seen | CardSet([view.received])
            assert not seen - known, f"seat {seat} sees {seen - known}"

    def check_totals(self) -> None:
        match = self.match
        assert match.results == self.results  # the results the Applied handed back
        assert len(match.results) == len(self.model.scores)
        assert [r.scores for r in match.results] == self.model.scores
        assert all(sum(s) == 0 for s in self.model.scores)
        sums = tuple(sum(r.scores[s] for r in match.results) for s in range(3))
        assert match.totals == sums == tuple(self.model.totals)
        for seat in range(3):
            assert match.used[seat] == frozenset(self.model.used[seat])


FAST = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[p for p in Phase if p is not Phase.explain],  # explaining a failure takes minutes
)
SOAK = settings(
    max_examples=500,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[p for p in Phase if p is not Phase.explain],  # explaining a failure takes minutes
)


def test_engine_agrees_with_the_naive_model():
    run_state_machine_as_test(RulesModel, settings=FAST)


@pytest.mark.slow
def test_engine_agrees_with_the_naive_model_soak():
    run_state_machine_as_test(RulesModel, settings=SOAK)
