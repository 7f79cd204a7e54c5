"""Deal and Match against a deliberately naive model of the rules (docs/rules.md), every option.

The model below is written from the rule text alone, with plain Python sets of cards: it shares
no code with the engine's rule logic (ts358.tricks, ts358.exchange, the Deal internals, the
Cython core, nor the helper methods of Rules such as ``score``, ``first_leader`` or
``exchanges_before``). It reads only the raw option fields of a Rules value, the value types
Card, CardSet and Contract as data, and each deal's cards from ``match.deal.setup`` when the
deal starts. A Hypothesis state machine plays a Match under a preset (house, kurnik,
sergeant-major, 9-5-2) or a random valid combination of the options, drives it with
decisions the model thinks legal (checking every Applied) and with decisions the model thinks
illegal (checking that IllegalDecision changes nothing), and after each step checks that the
engine and the model agree on whose turn it is, on every seat's view, on where each of the 52
cards is, on the scores and on how and when the match ends.

Where docs/rules.md leaves a point open the model says what it assumes (search for
"docs are silent").

The fast configuration runs by default; ``pytest -m slow`` runs a longer soak.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ts358.cards import DECK, Card, CardSet, Rank, Suit
from ts358.deal import DealSetup, IllegalDecision
from ts358.match import Match
from ts358.rules import (
    Contract,
    Exchange,
    ExchangeOrder,
    FirstLead,
    Games,
    MatchEnd,
    Rules,
    RulesError,
    Talon,
    Top,
    VoidRule,
)

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
FOUR_SUITS = frozenset(c for c, suit in TRUMP.items() if suit is not None)
GAMES = {Games.ALL: ALL_SIX, Games.SUITS: FOUR_SUITS}  # "games": all six, or the suits only
TWELVE = 12  # "end = twelve-tricks": 12 or more tricks in one deal end the match


def highest(cards) -> Card:
    return max(cards, key=lambda c: c.rank)


def places(totals, winner=None) -> tuple[int, int, int]:
    """docs/rules.md#totals-and-places: one more than the number of higher totals; under
    ``end = twelve-tricks`` the player who took 12 tricks wins and "the other two are placed
    by their totals" (second and third, or both second when equal)."""
    if winner is None:
        return tuple(1 + sum(t > mine for t in totals) for mine in totals)
    out = []
    for seat in range(3):
        if seat == winner:
            out.append(1)
        else:
            other = 3 - seat - winner
            out.append(2 + (totals[other] > totals[seat]))
    return tuple(out)


class NaiveDeal:
    """One deal, as a player reading docs/rules.md would track it.

    Seats: ``dealer`` is the seat the engine calls the dealer (docs: roles keep their names by
    place in the play order from the chooser, the last one being "dealer"); the chooser sits
    on its left and the "third" player on its right, whoever physically deals. Under
    ``top = left`` the last seat deals; under ``top = dealer`` the chooser does.
    """

    def __init__(self, number, dealer, hands, talon, rules, previous_scores, available):
        self.number = number
        self.dealer = dealer
        self.chooser = (dealer + 1) % 3
        self.third = (dealer + 2) % 3
        self.rules = rules
        self.previous_scores = previous_scores
        self.available = available  # games each seat may still choose
        # The play order from the chooser gives each seat its place, and its target.
        self.place = {self.chooser: 0, self.third: 1, dealer: 2}
        self.target = {s: rules.targets[p] for s, p in self.place.items()}
        self.limit = {s: rules.targets[2 - p] for s, p in self.place.items()}  # reversed
        # Who physically deals, and so who is "left of the dealer".
        deals_the_cards = self.chooser if rules.top is Top.DEALER else dealer
        if rules.first_lead is FirstLead.CHOOSER:
            self.first_leader = self.chooser
        else:
            self.first_leader = (deals_the_cards + 1) % 3
        self.dealt_hand = tuple(hands[self.chooser])
        self.hands = [set(h) for h in hands]
        self.talon = set(talon)
        self.talon_taken = False
        self.discard: set[Card] | None = None
        self.game: Contract | None = None
        self.transfers: list[list[int]] = []  # [giver, receiver, cards still to give]
        self.awaiting: Card | None = None  # a trump given, its return not yet chosen
        self.steps: list[tuple[int, int, Card, Card]] = []  # giver, receiver, given, returned
        self.leader = self.first_leader
        self.trick: list[Card] = []
        self.tricks: list[tuple[int, tuple[Card, ...], int]] = []  # leader, cards, winner
        self.taken = [0, 0, 0]
        if rules.exchange is Exchange.BEFORE_CHOICE:
            # "on every deal after the first, before the game is chosen"
            self.phase = GIVE
            self.transfers = self.plan()
            self.next_transfer()
        else:
            self.phase = CHOOSE

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

    def chooser_sees(self) -> set[Card]:
        """The chooser's cards while choosing: the first six dealt (``sees = 6``) or the
        whole hand as it is then (``sees = 16``: after an exchange before the choice)."""
        if self.rules.sees == 6:
            return set(self.dealt_hand[:6])
        return set(self.hands[self.chooser])

    def giveable(self, seat: int) -> set[Card]:
        if self.rules.exchange_trumps or self.trump is None:
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
        if not trumps or self.rules.void is VoidRule.KURNIK:
            return set(hand)
        if self.rules.void is VoidRule.OVERTRUMP:
            in_trick = [c.rank for c in self.trick if c.suit == self.trump]
            higher = {c for c in trumps if not in_trick or c.rank > max(in_trick)}
            return higher or trumps  # only lower trumps: any of them
        return trumps  # house: any trump

    # -- the decisions

    def exchange_after_choice(self, game: Contract) -> bool:
        if self.rules.exchange is Exchange.TRUMP:
            return TRUMP[game] is not None
        if self.rules.exchange is Exchange.TRUMP_AND_NO_TRUMP:
            return game is not Contract.NO_TRICKS
        return False  # none, or before the choice

    def choose(self, game: Contract) -> None:
        self.game = game
        if self.exchange_after_choice(game):
            self.phase = GIVE
            self.transfers = self.plan()
            self.next_transfer()
        else:
            self.to_talon()

    def plan(self) -> list[list[int]]:
        prev = self.previous_scores
        if prev is None or self.number == 1:
            return []
        plus = [s for s in range(3) if prev[s] > 0]
        minus = [s for s in range(3) if prev[s] < 0]
        most_up = self.rules.exchange_order is ExchangeOrder.MOST_UP
        # docs are silent on equal targets (e.g. 6-5-5): the model takes the place in the
        # play order from the chooser as the lower target among equal ones.
        if len(plus) == 1 and minus:
            # to each minus player as many as their minus: the lower new target first, or
            # (most-up) the larger minus first, the targets breaking a tie
            minus.sort(key=lambda s: (prev[s] if most_up else 0, self.target[s], -self.place[s]))
            return [[plus[0], s, -prev[s]] for s in minus]
        if len(plus) == 2 and len(minus) == 1:
            # each plus player gives their plus: the higher new target first, or (most-up)
            # the larger plus first, the targets breaking a tie
            plus.sort(key=lambda s: (-prev[s] if most_up else 0, -self.target[s], self.place[s]))
            return [[s, minus[0], prev[s]] for s in plus]
        return []

    def next_transfer(self) -> None:
        while self.transfers and (
            self.transfers[0][2] == 0 or not self.giveable(self.transfers[0][0])
        ):
            self.transfers.pop(0)
        if not self.transfers:
            if self.game is None:
                self.phase = CHOOSE  # the exchange came before the choice
            else:
                self.to_talon()

    def to_talon(self) -> None:
        if self.rules.talon is not Talon.DISCARD_FIRST:
            self.take_talon()  # shown to all, or seen only by the chooser
        self.phase = DISCARD

    def take_talon(self) -> None:
        self.hands[self.chooser] |= self.talon
        self.talon_taken = True

    def talon_seen_by(self, seat: int) -> bool:
        if not self.talon_taken:
            return False
        return self.rules.talon is Talon.SHOWN or seat == self.chooser

    def give(self, card: Card) -> tuple[int, int, Card, Card] | None:
        giver, receiver, _ = self.transfers[0]
        self.hands[giver].remove(card)
        self.hands[receiver].add(card)
        if self.trump is not None and card.suit == self.trump:
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
        if not self.talon_taken:
            self.take_talon()  # discard-first: the talon is taken only now
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
            if self.game is Contract.NO_TRICKS:
                return self.limit[seat] - self.taken[seat]
            return self.taken[seat] - self.target[seat]

        return score(0), score(1), score(2)

    # -- what is where

    def played(self) -> set[Card]:
        return {c for _, cards, _ in self.tricks for c in cards} | set(self.trick)


class NaiveMatch:
    """The match: dealer rotation, games used up, totals, how it ends."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.totals = [0, 0, 0]
        self.used: list[set[Contract]] = [set(), set(), set()]
        self.scores: list[tuple[int, int, int]] = []
        self.first_dealer: int | None = None
        self.deal: NaiveDeal | None = None
        self.winner: int | None = None
        self.ended = False  # the end condition was met
        self.games = GAMES[rules.games]

    def available(self, seat: int) -> frozenset[Contract]:
        if self.rules.repeat:
            return self.games
        return frozenset(self.games - self.used[seat])

    def start(self, setup) -> None:
        number = len(self.scores) + 1
        assert setup.number == number, f"deal {number} is set up as deal {setup.number}"
        if self.first_dealer is None:
            self.first_dealer = setup.dealer
        # Under either top the dealer moves one seat clockwise after each deal.
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
            tuple(self.available(s) for s in range(3)),
        )

    def finish(self) -> tuple[int, int, int]:
        deal = self.deal
        assert deal is not None and deal.game is not None
        scores = deal.scores()
        self.scores.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        self.used[deal.chooser].add(deal.game)
        self.deal = None
        end = self.rules.end
        if end is MatchEnd.TWELVE_TRICKS and max(deal.taken) >= TWELVE:
            self.winner = deal.taken.index(max(deal.taken))
            self.ended = True
        elif end is MatchEnd.TARGET and max(self.totals) >= self.rules.target_score:
            self.ended = True
        return scores

    @property
    def done(self) -> bool:
        return self.ended or len(self.scores) == self.rules.length

    def standings(self) -> tuple[int, int, int]:
        return places(self.totals, self.winner)


def refused_by(options: dict) -> set[str]:
    """The options docs/rules.md#the-options names for a combination that is not a rule set
    (empty for a rule set), for options each of which is a valid value on its own."""
    games = GAMES[options.get("games", Games.ALL)]
    repeat = options.get("repeat", False)
    before = options.get("exchange", Exchange.TRUMP) is Exchange.BEFORE_CHOICE
    targets = options.get("targets", (8, 5, 3))
    out = set()
    if sum(targets) != 16 or list(targets) != sorted(targets, reverse=True):
        out.add("targets")  # "any three numbers from the highest that add up to 16"
    if repeat and Contract.NO_TRICKS in games:
        out.add("repeat")  # "games that repeat without limit with no-tricks among them"
    if not repeat and options.get("length", 6) // 3 > len(games):
        out.add("length")  # "more deals than different games allow"
    if before and not options.get("exchange_trumps", True):
        out.add("exchange_trumps")
    if before and options.get("sees", 6) == 6:
        out.add("sees")
    return out


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


# ---------------------------------------------------------------------------- the rule sets

PRESET_NAMES = ("house", "kurnik", "sergeant-major", "9-5-2")
LENGTHS = (3, 6)  # short matches; the presets' 18 deals too
OPTION_VALUES = {
    "void": list(VoidRule),
    "exchange": list(Exchange),
    "exchange_trumps": [True, False],
    "length": list(LENGTHS),
    "exchange_order": list(ExchangeOrder),
    "top": list(Top),
    # any three numbers from the highest adding up to 16; equal targets too
    "targets": [(8, 5, 3), (9, 5, 2), (6, 5, 5), (7, 7, 2), (10, 6, 0)],
    "sees": [6, 16],
    "games": list(Games),
    "repeat": [True, False],
    "talon": list(Talon),
    "first_lead": list(FirstLead),
    "end": list(MatchEnd),
    "target_score": [1, 3, 10, 100],
}
OPTIONS = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_VALUES.items()})


def rule_set(options: dict) -> Rules | None:
    """Rules of ``options``, or None when Rules refuses them as no rule set."""
    try:
        return Rules(**options)
    except RulesError:
        return None


def preset_rules(names) -> st.SearchStrategy[Rules]:
    """The presets ``names`` at a short length, by name or as text."""
    return st.builds(
        lambda name, length, as_text: (
            Rules.parse(f"{name},length={length}") if as_text else Rules.named(name, length)
        ),
        st.sampled_from(names),
        st.sampled_from(LENGTHS),
        st.booleans(),
    )


PRESET_RULES = preset_rules(PRESET_NAMES)
# The exchange before the choice needs sees = 16 and exchange_trumps = yes: drawn as often.
BEFORE_CHOICE = st.fixed_dictionaries(
    {
        **{k: st.sampled_from(v) for k, v in OPTION_VALUES.items()},
        "exchange": st.just(Exchange.BEFORE_CHOICE),
        "sees": st.just(16),
        "exchange_trumps": st.just(True),
    }
)
CUSTOM_RULES = st.one_of(OPTIONS, BEFORE_CHOICE).map(rule_set).filter(lambda r: r is not None)
RULES = st.one_of(PRESET_RULES, CUSTOM_RULES)

HONOURS = [c for c in DECK if c.rank >= Rank.JACK]  # the 16 jacks, queens, kings and aces


def deal_setups(rules: Rules, seed: int, how: str) -> list[DealSetup]:
    """Each deal's cards, shuffled by ``random.Random(seed)``. ``rigged``: about half the
    deals give one seat all 16 honours, so that 12-trick deals and large totals happen;
    ``suited``: the pack is dealt nearly in suit order, so that the hands are long in one or
    two suits and void in the others (trumping, and overtrumping, in most tricks)."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(3)
    setups = []
    for number in range(1, rules.length + 1):
        deck = list(DECK)
        rng.shuffle(deck)
        if how == "suited":
            order = rng.sample(list(Suit), 4)
            deck.sort(key=lambda c: order.index(c.suit))
            cut = rng.randrange(52)
            deck = deck[cut:] + deck[:cut]
            for _ in range(rng.randrange(12)):
                i, j = rng.randrange(52), rng.randrange(52)
                deck[i], deck[j] = deck[j], deck[i]
        if how == "rigged" and rng.random() < 0.5:
            strong = rng.randrange(3)
            honours = rng.sample(HONOURS, 16)
            rest = [c for c in deck if c.rank < Rank.JACK]
            hands = [rest[0:16], rest[16:32]]
            hands.insert(strong, honours)
            talon = rest[32:]
        else:
            hands = [deck[0:16], deck[16:32], deck[32:48]]
            talon = deck[48:]
        dealer = (first_dealer + number - 1) % 3
        setups.append(DealSetup(number, dealer, tuple(map(tuple, hands)), tuple(talon)))
    return setups


# ---------------------------------------------------------------------------- the state machine


class RulesModel(RuleBasedStateMachine):
    """A Match driven by decisions drawn from the naive model, checked at every step."""

    RULES = RULES  # the rule sets drawn (a subclass may draw from fewer)

    @initialize(
        data=st.data(),
        seed=st.integers(0, 2**32 - 1),
        cards=st.sampled_from(["seed", "shuffled", "rigged", "suited"]),
    )
    def start(self, data, seed: int, cards: str) -> None:
        """A match under a preset or a random valid combination of the options; its cards
        from a seed, or from deal setups made here (:func:`deal_setups`)."""
        rules = data.draw(self.RULES, label="rules")
        self.rules = rules
        if cards == "seed":
            self.match = Match(rules, seed=seed)
        else:
            self.match = Match(rules, setups=deal_setups(rules, seed, cards))
        self.model = NaiveMatch(rules)
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
                trump = self.model.deal.trump
                trumps = [c for c in options[:-1] if trump is not None and c.suit == trump]
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
        assert result.scores == scores, (
            f"scores: engine {result.scores}, model {scores} ({self.rules}, taken {deal.taken}, "
            f"game {deal.game.label}, dealer {deal.dealer})"
        )
        assert sum(result.scores) == 0
        assert result.taken == tuple(deal.taken)
        assert (result.game, result.dealer, result.number) == (deal.game, deal.dealer, deal.number)
        assert set(result.discard) == deal.discard
        assert [(s.giver, s.receiver, s.given, s.returned) for s in result.exchanges] == deal.steps
        assert [(t.leader, t.cards, t.winner) for t in result.tricks] == deal.tricks
        self.results.append(result)
        if self.model.done:
            assert match.done and match.deal is None and match.pending() is None, (
                f"the match should be over after deal {deal.number} ({self.rules.end.label}, "
                f"taken {deal.taken}, totals {self.model.totals})"
            )
        else:
            assert match.deal is not None and not match.done, (
                f"the match ended after deal {deal.number} ({self.rules.end.label}, taken "
                f"{deal.taken}, totals {self.model.totals})"
            )
            self.model.start(match.deal.setup)

    # -- illegal decisions

    def illegal_calls(self, data) -> tuple[str, tuple]:
        """A decision the model says is illegal now, drawn by its description: (the Match
        method, its arguments)."""
        if self.model.done:
            calls = {
                "play after the match": lambda: ("play", (Card.parse("AS"),)),
                "choose after the match": lambda: ("choose", (Contract.HEARTS,)),
                "stop after the match": lambda: ("stop_giving", ()),
                "text after the match": lambda: ("apply", ("hearts",)),
            }
            return calls[data.draw(st.sampled_from(sorted(calls)))]()
        deal = self.model.deal
        assert deal is not None
        seat, kind, options = self.options()
        hand = sorted(deal.hands[seat])
        not_held = sorted(set(DECK) - deal.hands[seat])
        refused = sorted(set(hand) - set(options))  # trumps (no trumps given), illegal plays

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
            used = sorted(self.model.games - deal.available[seat])
            if used:
                calls["a used-up game"] = lambda: ("choose", (pick(used),))
                calls["a used-up game, as text"] = lambda: ("apply", (pick(used).label,))
            outside = sorted(ALL_SIX - self.model.games)
            if outside:
                calls["a game the rules don't have"] = lambda: ("choose", (pick(outside),))
                calls["a game the rules don't have, as text"] = lambda: (
                    "apply",
                    (pick(outside).label,),
                )
            calls["a game as text to choose()"] = lambda: ("choose", ("hearts",))
            calls["not a game"] = lambda: ("apply", ("trumps",))
            calls["a card instead of a game"] = lambda: ("apply", (str(pick(hand)),))
        elif kind == GIVE:
            calls["give a card not in hand"] = lambda: ("give", (pick(not_held),))
            calls["give None"] = lambda: ("give", (None,))
            calls["give text"] = lambda: ("apply", ("nothing",))
            if refused:
                calls["give a trump (exchange_trumps = no)"] = lambda: ("give", (pick(refused),))
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
            if not deal.talon_taken:
                talon = sorted(deal.talon)
                calls["discard a talon card before taking it"] = lambda: (
                    "discard",
                    (CardSet([*hand[:3], pick(talon)]),),
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
        self.check_match()

    def check_pending(self) -> None:
        match = self.match
        if self.model.done:
            assert match.pending() is None and match.done
            return
        seat, kind, options = self.options()
        pending = match.pending()
        assert pending is not None
        model = self.model.deal
        assert (pending.seat, pending.kind.value) == (seat, kind), (
            f"engine asks seat {pending.seat} to {pending.kind}, model seat {seat} to {kind} "
            f"({self.rules}; dealer {model.dealer}, game {model.game}, "
            f"{len(model.tricks)} tricks)"
        )
        view = pending.view
        assert view.kind is pending.kind and view.seat == seat
        if kind == PLAY:
            assert same_cards(view.options, options), (
                f"seat {seat} may play: engine {view.options}, model {CardSet(options)} "
                f"(hand {CardSet(model.hands[seat])}, trick {model.trick}, "
                f"game {model.game.label}, void {self.rules.void.label})"
            )
        elif kind == GIVE:
            assert same_cards(view.options, options[:-1])
            _, receiver, left = model.transfers[0]
            assert (view.give_to, view.gives_left) == (receiver, left), (
                f"seat {seat} gives to seat {view.give_to} ({view.gives_left} left), model: to "
                f"seat {receiver} ({left} left); previous scores {model.previous_scores}, "
                f"dealer {model.dealer}, {self.rules}"
            )
        elif kind == RETURN:
            assert same_cards(view.options, options)
            assert view.received == model.awaiting
            assert view.give_to == model.transfers[0][0]  # it goes back to the giver
        elif kind == DISCARD:
            # of the 20 after taking the talon, or of the 16 before it (discard-first)
            assert same_cards(view.options, options)
            assert len(options) == (20 if model.talon_taken else 16)
        else:
            assert not view.options and view.available[seat] == frozenset(options)
            assert options and set(options) <= self.model.games

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
        if model.talon_taken and self.rules.talon is Talon.SHOWN:  # face up for everyone
            public = public | CardSet(model.talon)
        previous = self.model.scores[-1] if model.number > 1 else None
        due = model.due()
        for seat in range(3):
            view = deal.view(seat)
            assert (view.seat, view.dealer, view.deal_number) == (seat, model.dealer, model.number)
            assert (view.chooser, view.third) == (model.chooser, model.third)
            assert view.rules == self.rules
            if model.phase == CHOOSE and seat == model.chooser:
                hand = CardSet(model.chooser_sees())
                assert len(view.hand) == self.rules.sees
            else:
                hand = CardSet(model.hands[seat])
            assert view.hand == hand, (
                f"seat {seat} sees the hand {view.hand}, model {hand} (phase {model.phase}, "
                f"sees {self.rules.sees})"
            )
            assert (view.game, view.available) == (model.game, model.available)
            assert view.totals == tuple(self.model.totals)
            assert view.previous_scores == previous
            assert view.talon_taken == model.talon_taken  # public
            seen_talon = model.talon_seen_by(seat)
            assert (view.talon is not None) == seen_talon, (
                f"seat {seat} (chooser {model.chooser}) sees the talon: engine "
                f"{view.talon is not None}, model {seen_talon} (talon {self.rules.talon.label})"
            )
            if view.talon is not None:
                assert same_cards(view.talon, model.talon)
            known = hand | public
            if seen_talon:
                known = known | CardSet(model.talon)
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

    def check_match(self) -> None:
        """How far the match is, the games left, and how it ends."""
        match, model = self.match, self.model
        assert match.done == model.done
        assert match.number == len(model.scores) + (0 if model.done else 1)
        assert len(model.scores) <= self.rules.length
        assert match.winner == model.winner, f"winner: engine {match.winner}, model {model.winner}"
        assert match.standings() == model.standings(), (
            f"standings: engine {match.standings()}, model {model.standings()} "
            f"(totals {model.totals}, winner {model.winner})"
        )
        assert match.condition_met() == model.ended
        for seat in range(3):
            assert match.available(seat) == model.available(seat)


FAST = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    phases=[p for p in Phase if p is not Phase.explain],  # explaining a failure takes minutes
)
SOAK = settings(
    max_examples=500,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    phases=[p for p in Phase if p is not Phase.explain],  # explaining a failure takes minutes
)


def rule_sets(name: str):
    """The rule sets of one preset (at each short length, from its name or its text), or
    the random valid combinations (``custom``)."""
    if name == "custom":
        return CUSTOM_RULES
    return preset_rules([name])


@pytest.mark.parametrize(
    ("name", "examples"), [*((name, 30) for name in PRESET_NAMES), ("custom", 200)]
)
def test_engine_agrees_with_the_naive_model(name, examples):
    machine = type(f"RulesModel_{name}", (RulesModel,), {"RULES": rule_sets(name)})
    run_state_machine_as_test(machine, settings=settings(FAST, max_examples=examples))


@pytest.mark.slow
def test_engine_agrees_with_the_naive_model_soak():
    run_state_machine_as_test(RulesModel, settings=SOAK)


# ---------------------------------------------------------------------------- the rule sets


@pytest.mark.parametrize(
    ("options", "names"),
    [
        # games that repeat without limit with no-tricks among them
        ({"repeat": True}, "repeat"),
        ({"repeat": True, "games": Games.ALL, "length": 3}, "repeat"),
        # more deals than different games allow
        ({"games": Games.SUITS, "length": 18}, "length"),
        # exchange_trumps = no or sees = 6 with the exchange before the choice
        (
            {"exchange": Exchange.BEFORE_CHOICE, "sees": 16, "exchange_trumps": False},
            "exchange_trumps",
        ),
        ({"exchange": Exchange.BEFORE_CHOICE, "sees": 6}, "sees"),
        # targets that do not add up to 16
        ({"targets": (8, 5, 2)}, "targets"),
        ({"targets": (9, 5, 3)}, "targets"),
    ],
)
def test_the_refused_combinations_of_docs_rules_md_are_refused_in_one_line(options, names):
    assert refused_by(options) == {names}
    with pytest.raises(RulesError) as refused:
        Rules(**options)
    message = str(refused.value)
    assert "\n" not in message and names in message, message


@settings(max_examples=300, deadline=None)
@given(OPTIONS, st.sampled_from([3, 6, 9, 18]))
def test_rules_refuse_exactly_the_combinations_docs_rules_md_refuses(options, length):
    """Every drawn combination of valid option values is a rule set unless docs/rules.md
    lists it as refused; a refusal is one line naming one of the options at fault."""
    options = dict(options, length=length)
    at_fault = refused_by(options)
    try:
        Rules(**options)
    except RulesError as exc:
        message = str(exc)
        assert at_fault, f"refused a rule set: {message}"
        assert "\n" not in message and any(message.startswith(f"{n}:") for n in at_fault), (
            f"{message!r} names none of {sorted(at_fault)}"
        )
    else:
        assert not at_fault, f"took options docs/rules.md refuses ({sorted(at_fault)})"
