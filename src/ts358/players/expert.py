"""The expert player: the hard player's sampling, with the solver deciding every decision kind.

The hard player (:class:`~ts358.players.sampling.SamplingPlayer`) values its game choice and
its discard only on layouts it solves exactly within its budget, which whole deals rarely
allow (no-tricks almost never), and falls back on rule-of-thumb play-outs; it gives in the
exchange by rule of thumb. The expert differs in three ways:

- **Every layout counts** in the game choice, the discard and the exchange. Each solve of
  such a decision gets its share of the node budget
  (``budget // solves still to come``), so a hard layout cannot starve the rest, and a solve
  stopped by its share answers with the bounds it proved (``Solver.bounds``). A whole deal
  not solved exactly is valued inside the interval the solver proved, where deals like it
  were found to lie (:func:`bounded_estimate`, fitted offline by
  ``tools/bounded_estimates.py`` on the data in ``tools/data/``). A card to play is
  valued as the hard player values it: its layouts solved in turn while the budget lasts,
  the one the budget runs out in counted by the middle of each card's interval; shares
  there (``play_shares=True``) measured worse, since early in a deal a share proves too
  little of any layout (docs/play.md).
- **The game from the first six cards** is valued so: for each game still available, the
  chooser's score on each sampled layout of the ten cards still to come, the talon and the
  others' hands, after taking the talon and discarding by rule of thumb.
- **The exchange** is decided by the solver: each candidate give (the lowest card of each
  suit that may be given, and stopping) and each candidate return for a trump received
  (the lowest card of each suit held) valued as if the exchange ended with it.

- **Inference** (``inference=True``): the layouts of a card to play are weighted by how
  likely each makes what the other seats did (:meth:`ExpertPlayer._layout_weights`), under
  a simple model of them, the rule of thumb: a chooser picks a trump suit it is long in and
  discards no trump and no ace; a seat plays the rule of thumb's card. Each observed act
  the model would not have made in a layout multiplies its weight by a factor below one,
  since real players are not the rule of thumb (the layouts are still drawn uniformly
  among those consistent with the view; the weights only change how much each counts).
  With ``solver_inference=N`` (0, the default, is off) a second model multiplies in: the
  others as players who choose by the solver, each of their last N cards solved again
  from where it was played (:meth:`ExpertPlayer._play_evidence`). Measured against hard
  players (docs/play.md), judged in the layout itself it plays worse, and judged from the
  player's own view (``inference_layouts``) no better: both stay off.

- **Delayed perfect information** (``fusion=N``, from N cards in hand down; 0, the
  default, is off): a remedy for strategy fusion, after EPIMC (Arjonilla, Saffidine and
  Cazenave, "Perfect Information Monte Carlo with Postponing Reasoning", 2024), which
  postpones the double-dummy solve to below the player's next decision. For each card to
  play and each layout, the other seats play on to this seat's next turn, each its own
  double-dummy best in that layout (the lowest of equal cards); there the layouts that
  went the same way, the same cards seen, are the ones this seat cannot tell apart, and it
  must play one card in all of them: the card with the best weighted total among them.
  A card is worth the sum over these groups of that best total, where the hard player's
  sum lets every layout pick its own best card, as if the hidden cards were known by then.
  It costs about three solves per card and layout, so it is used late in the deal only.

- **Selfish others** (``selfish=N``, from N cards in hand down; 0, the default, is off):
  the solver's values are paranoid (this seat against the other two playing together),
  but the other two each score their own tricks. Each card is valued instead, in each
  layout, by the rest of the deal played out with every seat (this one too) playing its
  own double-dummy best card there (:func:`_play_on`); the paranoid value breaks ties.
  About 3 solves per card, layout and trick left: late in the deal only. From 12 cards
  down it gained a little where it changed the card (against hard players and against
  medium ones) but lost in a duplicate arena against both (docs/play.md), so it is off.
  Where both apply, it stands over ``fusion``.

It thinks on two threads by default (each with its own table, the layouts dealt
round-robin), so that its decisions are a function of the seed, the view, the effort and
the thread count, never of timing. Its :data:`EXPERT_EFFORT` was set so that decisions stay
under a second on a 2-core machine (docs/arena.md has both levels' settings).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from ts358 import _core358
from ts358.cards import Card, CardSet, Rank, Suit
from ts358.players.advice import Advice, Basis
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.layouts import World, role_hands, sample_worlds
from ts358.players.sampling import (
    Effort,
    PlayEstimate,
    SamplingPlayer,
    SolveBudget,
    lowest_of_each_suit,
    with_hand,
)
from ts358.rules import Contract, Role, Triple, triple
from ts358.tricks import legal_cards
from ts358.view import DecisionKind, SeatView

__all__ = ["EXPERT_EFFORT", "ExpertPlayer"]

EXPERT_EFFORT = Effort(
    play_early=16,
    play_late=24,
    late_from=9,
    choose=8,
    discard=8,
    discard_candidates=6,
    give=6,
    node_budget=6_000_000,
)
"""The expert's effort: layouts per decision kind and the node budget per decision."""

_O = TypeVar("_O")  # an option ranked by _rank_by_average
_Deal = tuple[Triple[CardSet], CardSet, CardSet, Contract]  # hands, talon, discard, game

# Fitted by `python tools/bounded_estimates.py --fit tools/data/bounded-estimates.jsonl`: 50
# seeded deals of each game, the chooser's value stopped at 125,000 nodes (about a share of
# the expert's budget) against the exact value. Of the deals cut short, the estimates below
# missed by 1.16 tricks (root mean square) in trump and no-trump and 1.53 in no-tricks,
# against 3.31 and 4.02 for the middle of the interval.
PLAYOUT_SHIFT = -1.5
"""Trump and no-trump: the rule-of-thumb play-out takes one or two tricks more than the
exact value; the play-out plus this, moved into the proven interval, is the estimate."""
NO_TRICKS_SHARE = 0.2
"""No-tricks: the climb from 1 proves a lower bound only, and the value lay about a fifth of
the way from it to the top of the interval (the play-out, shifted, missed by 2.4 there)."""


OFF_MODEL_PLAY = 0.5
"""The weight factor for a card played that the rule of thumb would not have played."""
OFF_MODEL_TRUMP = 0.3
"""... for each card by which the chosen trump suit is shorter than the chooser's longest."""
OFF_MODEL_DISCARD = 0.3
"""... for each trump or ace in the chooser's discard (a trump game)."""

# `python tools/play_consistency.py --fit tools/data/play-consistency.jsonl` (60 boards of
# hard players): a card the solver proves worse than another the seat held showed in 3.3% of
# the cards played in the real layout against 9.1% in the layouts the other seats sampled,
# a ratio of 0.36 (0.16 to 0.55 by game and stage of the deal).
OFF_SOLVER_PLAY = 0.3
"""The weight factor for each card another seat played that the solver proves worse, in
the layout, than another card that seat held then (:meth:`ExpertPlayer._play_evidence`)."""
SELFISH_TIE = 1e-3
"""With ``selfish``, the weight of a card's paranoid score beside its play-out's score: a
tie-break only (an average score over the layouts differs from another's by far more)."""
CHECK_NODES = 50_000
"""The nodes of one such check, beside the decision's budget (what one check leaves unused
goes to the layout's next)."""


def bounded_estimate(game: Contract, lo: int, hi: int, playout: Callable[[], int]) -> float:
    """The estimated tricks of a whole deal whose value the solver bounded by ``lo <= value <=
    hi``; ``playout()`` gives the rule-of-thumb play-out's tricks, called only where needed.

    >>> bounded_estimate(Contract.NO_TRICKS, 3, 16, lambda: 0)
    5.6
    >>> [bounded_estimate(Contract.HEARTS, 4, 9, lambda: taken) for taken in (11, 6, 2)]
    [9, 4.5, 4]
    """
    if lo == hi:
        return lo
    if game is Contract.NO_TRICKS:
        return lo + NO_TRICKS_SHARE * (hi - lo)
    return min(hi, max(lo, playout() + PLAYOUT_SHIFT))


class ExpertPlayer(SamplingPlayer):
    """The expert player (see the module): ``seed``, ``effort`` (default
    :data:`EXPERT_EFFORT`), ``tt_mb`` per solver and ``threads`` (default 2) as for
    :class:`SamplingPlayer`; ``inference``, ``solver_inference``, ``fusion``, ``selfish``,
    ``play_shares``, ``solver_choice``, ``solver_discard`` and ``solver_exchange`` switch the
    parts so named
    (off, the game choice or the discard is made by rule-of-thumb play-outs of the same
    layouts, and the gives and returns by rule of thumb, as the hard player makes them)."""

    name = "expert"
    _spread = True

    def __init__(
        self,
        seed: int | None = 0,
        effort: Effort | None = None,
        tt_mb: int = 16,
        threads: int = 2,
        *,
        inference: bool = True,
        fusion: int = 0,
        solver_choice: bool = True,
        solver_discard: bool = True,
        solver_exchange: bool = True,
        solver_inference: int = 0,
        inference_layouts: int = 0,
        selfish: int = 0,
        play_shares: bool = False,
    ) -> None:
        super().__init__(seed, effort or EXPERT_EFFORT, tt_mb, threads)
        self._spread_play = play_shares
        if not isinstance(fusion, int) or fusion < 0:
            raise ValueError(f"fusion must be a whole number of cards, not {fusion!r}")
        if not isinstance(solver_inference, int) or solver_inference < 0:
            raise ValueError(
                f"solver_inference must be a whole number of plays, not {solver_inference!r}"
            )
        if not isinstance(selfish, int) or selfish < 0:
            raise ValueError(f"selfish must be a whole number of cards, not {selfish!r}")
        self.inference = inference
        self.fusion = fusion
        self.selfish = selfish
        if not isinstance(inference_layouts, int) or inference_layouts < 0:
            raise ValueError(
                f"inference_layouts must be a whole number of layouts, not {inference_layouts!r}"
            )
        self.solver_inference = solver_inference
        self.inference_layouts = inference_layouts
        self.solver_exchange = solver_exchange
        # Switches to measure each part by: off, that decision is the rule-of-thumb
        # play-outs' on the same layouts (as the hard player's when it solves none).
        self._by_rollouts = {
            kind
            for kind, on in (
                (DecisionKind.CHOOSE, solver_choice),
                (DecisionKind.DISCARD, solver_discard),
            )
            if not on
        }
        self._model = HeuristicPlayer()

    def _layout_weights(self, view: SeatView, worlds: list[World]) -> list[float] | None:
        """Each layout's weight: the product, over what the other seats did this deal, of
        1 where the rule-of-thumb model would have done the same in that layout and the
        factor below one (the ``OFF_MODEL_*`` constants) where not: the game chosen (a trump
        suit shorter than the chooser's longest, counted over its hand at the choice, talon
        aside) and the discard (trumps and aces in it) when another seat chose, and every
        card the other seats played."""
        if not self.inference:
            return None
        return [self._likelihood(view, world) for world in worlds]

    def _likelihood(self, view: SeatView, world: World) -> float:
        game = view.game
        assert game is not None
        chooser = view.chooser
        me = view.seat
        weight = 1.0
        plays = _plays(view)
        played = [CardSet(p.card for p in plays if p.seat == s) for s in range(3)]
        if chooser != me and game.trump is not None:
            talon = view.talon or CardSet()
            held = (world.hands[chooser] | played[chooser] | world.pile) - talon
            longest = max(len(held.suit(suit)) for suit in Suit)
            weight *= OFF_MODEL_TRUMP ** (longest - len(held.suit(game.trump)))
            off = sum(1 for c in world.pile if c.suit == game.trump or c.rank is Rank.ACE)
            weight *= OFF_MODEL_DISCARD**off
        # Replay the play: each other seat's hand when it played, and the model's card there.
        hands = [world.hands[s] | played[s] for s in range(3)]
        for p in plays:
            if p.seat != me:
                options = legal_cards(hands[p.seat], p.before, game, view.rules.void)
                if len(options) > 1:
                    as_seat = view._replace(
                        seat=p.seat,
                        hand=hands[p.seat],
                        options=options,
                        tricks=view.tricks[: p.trick],
                        leader=p.leader,
                        trick=p.before,
                        discard=world.pile if p.seat == chooser else None,
                        kind=DecisionKind.PLAY,
                    )
                    if self._model.play(as_seat) != p.card:
                        weight *= OFF_MODEL_PLAY
            hands[p.seat] = hands[p.seat].without_card(p.card)
        return weight

    def _play_evidence(self, view: SeatView) -> Callable[[SolveBudget, World], float] | None:
        """With ``solver_inference=N``, a second model of the others: players who choose
        their cards by the solver. Each of the last N cards the other seats played this deal
        (those that had a choice) is solved again from where it was played, on
        :data:`CHECK_NODES` nodes a card checked (shared by its checks), beside the
        decision's budget (so that the layouts' own solves are those of the expert without
        it). A check that proves nothing counts as consistent.

        - ``inference_layouts=0``: the check is made in the layout itself, as if the seat
          had known it; each card the solver proves worse there than another card the seat
          then held multiplies the layout's weight by :data:`OFF_SOLVER_PLAY`.
        - ``inference_layouts=K``: the check is made in K layouts the seat itself could
          have dealt then, its hand in this layout kept and the cards it could not see
          dealt again from its view (the exchange aside), since a player decides from its
          own view: the factor is :data:`OFF_SOLVER_PLAY` to the power of the share of them
          in which the card is proven worse."""
        if not self.solver_inference:
            return None
        game = view.game
        assert game is not None
        plays = _plays(view)
        checked = [i for i, p in enumerate(plays) if p.seat != view.seat]
        checked = checked[-self.solver_inference :]
        if not checked:
            return None
        contract, void = int(game), int(view.rules.void)
        misere = game is Contract.NO_TRICKS
        # Before each checked card, the cards played from it on were in their holders' hands.
        back = []
        for i in checked:
            masks = [0, 0, 0]
            for p in plays[i:]:
                masks[p.seat] |= p.card.mask
            back.append(masks)

        per_play = max(1, self.inference_layouts)

        def weigh(budget: SolveBudget, world: World) -> float:
            checks = SolveBudget(
                budget.solver, CHECK_NODES * len(checked), budget.deadline, spread=True
            )
            checks.pending = len(checked) * per_play
            factor = 1.0
            for i, masks in zip(checked, back):
                p = plays[i]
                hands = [world.hands[s].mask | masks[s] for s in range(3)]
                held = CardSet(hands[p.seat])
                options = legal_cards(held, p.before, game, view.rules.void)
                if len(options) < 2:
                    checks.pending = max(1, checks.pending - per_play)
                    continue
                layouts = [hands]
                if self.inference_layouts:
                    layouts = self._seat_layouts(view, world, p, held, options)
                worse = 0
                for seen in layouts:
                    got = checks.run(
                        "move_bounds",
                        tuple(seen[view.seat_of(r)] for r in Role),
                        int(view.role_of(p.leader)),
                        [c.id for c in p.before],
                        contract,
                        void,
                        per_card=checks.left // checks.pending // len(options),
                    )
                    worse += got is not None and _proven_worse(got, p.card, misere)
                factor *= OFF_SOLVER_PLAY ** (worse / len(layouts))
            return factor

        return weigh

    def _seat_layouts(
        self, view: SeatView, world: World, play: _Play, hand: CardSet, options: CardSet
    ) -> list[list[int]]:
        """The hands by seat (bitboards) in :attr:`inference_layouts` layouts that
        ``play``'s seat could have dealt when it played holding ``hand`` (``options`` its
        legal cards): the cards it could not see then dealt again from its view then (what
        it knew from the exchange left out), the draw seeded by this player's seed and the
        layout ``world`` of this decision."""
        as_seat = view._replace(
            seat=play.seat,
            hand=hand,
            options=options,
            exchanges=(),
            others_exchanged=0,
            tricks=view.tricks[: play.trick],
            leader=play.leader,
            trick=play.before,
            discard=world.pile if play.seat == view.chooser else None,
            kind=DecisionKind.PLAY,
        )
        key = (self.seed, view.deal_number, play.trick, len(play.before), *world.hands, world.pile)
        rng = random.Random(str(key))
        return [
            [h.mask for h in w.hands] for w in sample_worlds(as_seat, self.inference_layouts, rng)
        ]

    def give(self, view: SeatView) -> Card | None:
        if not self.solver_exchange:
            return super().give(view)
        return self._advise_give(view, 0.0).best

    def choose_return(self, view: SeatView) -> Card:
        if not self.solver_exchange:
            return super().choose_return(view)
        return self._advise_return(view, 0.0).best

    def _advise_return(self, view: SeatView, deadline: float) -> Advice[Card]:
        """The returns for a trump received ranked as the gives are: the rule of thumb's
        and the lowest card of each suit held (a higher one would give more away), each
        valued as if the exchange ended with it."""
        game, giver = view.game, view.give_to
        assert game is not None and giver is not None
        candidates = [self._rule_of_thumb.choose_return(view)]
        candidates += [c for c in lowest_of_each_suit(view.options) if c not in candidates]

        def deals(world: World) -> list[_Deal]:
            out = []
            for card in candidates:
                hands = list(world.hands)
                hands[view.seat] = hands[view.seat].without_card(card)
                hands[giver] = hands[giver].with_card(card)
                full = hands[view.chooser] | world.pile
                discard = self._rule_of_thumb_discard(view, full, game)
                out.append((triple(hands), world.pile, discard, game))
            return out

        return self._rank_by_average(view, self.effort.give, candidates, deals, deadline)

    def _rank_by_average(
        self,
        view: SeatView,
        count: int,
        options: list[_O],
        deals_of: Callable[[World], list[_Deal]],
        deadline: float,
    ) -> Advice[_O]:
        """The options ranked by this seat's score averaged over ``count`` sampled layouts,
        every option of a layout valued exactly or within proven bounds (the module). A
        layout the deadline kept from being reached counts for nothing; with none reached,
        the hard player's rule-of-thumb ranking stands in."""
        worlds = self._worlds(view, count)
        if view.kind in self._by_rollouts:
            return self._rank_by_rollouts(view, worlds, options, deals_of)
        role = view.role

        def value(budget: SolveBudget, deal: _Deal) -> tuple[float, bool]:
            hands, talon, discard, game = deal
            after = with_hand(hands, view.chooser, (hands[view.chooser] | talon) - discard)
            masks = tuple(after[view.seat_of(r)].mask for r in Role)
            got = budget.run("bounds", masks, 0, [], int(game), int(view.rules.void), int(role))
            lo, hi = got if got is not None else (0, len(after[view.seat]))
            tricks = bounded_estimate(game, lo, hi, lambda: self._rollout(view, *deal))
            # A score is linear in the tricks: -1 a trick in no-tricks, +1 in the others.
            slope = role.score(game, 1) - role.score(game, 0)
            return role.score(game, 0) + slope * tricks, lo == hi

        def solve(budget: SolveBudget, world: World) -> tuple[list[float], bool]:
            valued = [value(budget, deal) for deal in deals_of(world)]
            return [score for score, _ in valued], all(exact for _, exact in valued)

        reached = [
            r
            for r in self._solve_layouts(worlds, solve, deadline, calls_per_layout=len(options))
            if r is not None
        ]
        if not reached:
            return super()._rank_by_average(view, count, options, deals_of, deadline)
        totals = [sum(scores[i] for scores, _ in reached) for i in range(len(options))]
        solved = sum(exact for _, exact in reached)
        order = sorted(range(len(options)), key=lambda i: (-totals[i], i))
        assert view.kind is not None
        return Advice(
            view.kind,
            Basis.SOLVED,
            tuple((options[i], totals[i] / len(reached)) for i in order),
            sampled=len(worlds),
            solved=solved,
            bounded=len(reached) - solved,
        )

    def _estimate_selfish(self, view: SeatView, time_limit: float | None) -> PlayEstimate:
        """Each legal card's expected score when, after it, every seat (this one too) plays
        its own double-dummy best card in the layout to the end of the deal (``selfish``,
        the module); the paranoid value breaks ties (:data:`SELFISH_TIE`). A layout counts
        as solved when the paranoid values at its root are exact."""
        game, role, contract, void, me, taken, leader, start, sign = _turn(view)
        weigh = self._play_evidence(view)

        def solve(budget: SolveBudget, world: World) -> tuple[dict[int, float], bool, float] | None:
            factor = weigh(budget, world) if weigh is not None else 1.0
            hands = list(role_hands(view, world))
            root = budget.run("move_bounds", tuple(hands), leader, start, contract, void)
            if root is None:
                return None
            scores = {}
            for card, lo, hi in root:
                got = _play_on(budget, hands, leader, start, card, contract, void, sign, me, False)
                if got is None:
                    return None
                paranoid = (role.score(game, taken + lo) + role.score(game, taken + hi)) / 2
                scores[card] = role.score(game, taken + got[0]) + SELFISH_TIE * paranoid
            return scores, all(lo == hi for _, lo, hi in root), factor

        results, weights = self._solve_play_layouts(
            view, solve, time_limit, 1 + 3 * len(view.hand) * len(view.options)
        )
        totals = dict.fromkeys((card.id for card in view.options), 0.0)
        mass, solved, bounded = 0.0, 0, 0
        for i, got in enumerate(results):
            if got is None:
                continue
            scores, exact, factor = got
            weight = factor * (1.0 if weights is None else weights[i])
            for card_id, score in scores.items():
                totals[card_id] += weight * score
            mass += weight
            solved += exact
            bounded += not exact
        if not mass:
            return super().estimate_play(view, time_limit)
        return PlayEstimate(
            {Card.from_id(i): total / mass for i, total in totals.items()}, solved, bounded
        )

    def estimate_play(self, view: SeatView, time_limit: float | None = None) -> PlayEstimate:
        """As :meth:`SamplingPlayer.estimate_play`; from ``selfish`` cards in hand down, by
        the others' selfish play (:meth:`_estimate_selfish`); else from ``fusion`` cards
        down, with the perfect information delayed past this seat's next decision (the
        module)."""
        if self.selfish and len(view.hand) <= self.selfish and len(view.options) > 1:
            return self._estimate_selfish(view, time_limit)
        if not self.fusion or not 3 <= len(view.hand) <= self.fusion or len(view.options) < 2:
            return super().estimate_play(view, time_limit)
        game, role, contract, void, me, taken, leader, start, sign = _turn(view)
        cards = sorted(view.options, key=lambda c: c.id)
        slope = role.score(game, 1) - role.score(game, 0)

        def line(budget: SolveBudget, hands: list[int], card: int) -> _Line | None:
            """The cards the others play after ``card`` up to this seat's next turn (there
            is one: it holds two cards or more), the score of each card it may play then,
            and whether those were exact; None once the budget is spent."""
            got = _play_on(budget, hands, leader, start, card, contract, void, sign, me)
            if got is None:
                return None
            won, seen, bounds = got
            assert bounds is not None
            base = role.score(game, taken + won)
            scores = {c: base + slope * (lo + hi) / 2 for c, lo, hi in bounds}
            return seen, scores, all(lo == hi for _, lo, hi in bounds)

        weigh = self._play_evidence(view)

        def solve(budget: SolveBudget, world: World) -> tuple[list[_Line], float] | None:
            factor = weigh(budget, world) if weigh is not None else 1.0
            hands = list(role_hands(view, world))
            lines = []
            for card in cards:
                got = line(budget, hands, card.id)
                if got is None:
                    return None
                lines.append(got)
            return lines, factor

        results, weights = self._solve_play_layouts(view, solve, time_limit, 3 * len(cards))
        # Per card, the layouts that went the same way pool their scores of each next card.
        pooled: list[dict[tuple[int, ...], dict[int, float]]] = [{} for _ in cards]
        mass, solved, bounded = 0.0, 0, 0
        for i, got in enumerate(results):
            if got is None:
                continue
            lines, factor = got
            weight = factor * (1.0 if weights is None else weights[i])
            mass += weight
            exact = True
            for k, (seen, scores, proven) in enumerate(lines):
                pool = pooled[k].setdefault(seen, {})
                for c, score in scores.items():
                    pool[c] = pool.get(c, 0.0) + weight * score
                exact = exact and proven
            solved += exact
            bounded += not exact
        if not mass:
            return super().estimate_play(view, time_limit)
        values = {
            card: sum(max(pool.values()) for pool in pooled[k].values()) / mass
            for k, card in enumerate(cards)
        }
        return PlayEstimate(values, solved, bounded)


class _Turn(NamedTuple):
    """A card to play, as the solver takes it: the game and its code, the void rule's, this
    seat's role and code, the tricks it has taken, the trick's leader (a role) and its
    cards (ids), and each seat's sense of better (1: more tricks, -1 in no-tricks)."""

    game: Contract
    role: Role
    contract: int
    void: int
    me: int
    taken: int
    leader: int
    start: list[int]
    sign: int


def _turn(view: SeatView) -> _Turn:
    game = view.game
    assert game is not None
    leader = view.leader if view.leader is not None else view.seat
    return _Turn(
        game,
        view.role,
        int(game),
        int(view.rules.void),
        int(view.role),
        view.taken[view.seat],
        int(view.role_of(leader)),
        [c.id for c in view.trick],
        -1 if game is Contract.NO_TRICKS else 1,
    )


def _play_on(
    budget: SolveBudget,
    hands: list[int],
    leader: int,
    trick: list[int],
    card: int,
    contract: int,
    void: int,
    sign: int,
    me: int,
    stop: bool = True,
) -> tuple[int, tuple[int, ...], list[tuple[int, int, int]] | None] | None:
    """Seat ``me`` (roles, as all here) plays ``card`` to ``trick`` (of ``leader``) in the
    layout ``hands``; then every seat plays its own double-dummy best card there, the most
    tricks for itself (``sign`` 1) or the fewest (-1, no-tricks), the lowest of equal cards,
    until ``me`` is to play again (``stop``) or the deal ends. The tricks ``me`` won from
    ``trick`` on, the cards played after ``card``, and ``me``'s bounds (card id, lo, hi)
    where it stopped (None at the end of the deal); None once the budget is spent."""
    hands = list(hands)
    hands[me] &= ~(1 << card)
    trick, lead, won = [*trick, card], leader, 0
    seen: list[int] = []
    while True:
        if len(trick) == 3:
            lead = (lead + _core358.trick_winner(trick, contract)) % 3
            won += lead == me
            trick = []
            if not hands[lead]:
                return won, tuple(seen), None
        got = budget.run("move_bounds", tuple(hands), lead, trick, contract, void)
        if got is None:
            return None
        mover = (lead + len(trick)) % 3
        if stop and mover == me:
            return won, tuple(seen), got
        pick = max(got, key=lambda t: (sign * (t[1] + t[2]), -(t[0] & 15), -t[0]))[0]
        hands[mover] &= ~(1 << pick)
        trick.append(pick)
        seen.append(pick)


# A card's line in one layout: the others' cards up to this seat's next turn, the score of
# each card it may then play, and whether all were exact.
_Line = tuple[tuple[int, ...], dict[int, float], bool]


class _Play(NamedTuple):
    """A card played this deal: in the trick of index ``trick`` (of ``leader``), after
    ``before``, by ``seat``."""

    trick: int
    leader: int
    before: tuple[Card, ...]
    seat: int
    card: Card


def _plays(view: SeatView) -> list[_Play]:
    """Every card played so far in the deal, in order, the trick in progress last."""
    segments = [(trick.leader, trick.cards) for trick in view.tricks]
    if view.trick:
        assert view.leader is not None
        segments.append((view.leader, view.trick))
    return [
        _Play(k, leader, tuple(cards[:index]), (leader + index) % 3, card)
        for k, (leader, cards) in enumerate(segments)
        for index, card in enumerate(cards)
    ]


def _proven_worse(bounds: list[tuple[int, int, int]], card: Card, misere: bool) -> bool:
    """Whether the mover's ``bounds`` (card id, lo, hi) prove ``card`` worse than another:
    fewer tricks for the mover, or in no-tricks more."""
    lo, hi = {c: (lo, hi) for c, lo, hi in bounds}[card.id]
    if misere:
        return lo > min(h for _, _, h in bounds)
    return hi < max(lo for _, lo, _ in bounds)
