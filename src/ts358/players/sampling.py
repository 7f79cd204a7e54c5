"""The sampling player ("hard"): perfect-information Monte Carlo over the double-dummy solver.

For each decision it deals the cards its seat cannot see in several ways that fit everything
the seat knows (:mod:`ts358.players.layouts`), solves each layout exactly with the Cython solver as
if all cards were visible, and takes the choice with the best average score (tricks minus
obligation, or limit minus tricks in no-tricks). The solver values each layout in the
paranoid model: this seat alone against the other two.

- Play: the solver's per-card values for this seat, averaged over the layouts.
- Game choice, from the first six cards: for each game still available, the chooser's value
  after taking the talon and discarding by rule of thumb, averaged over the layouts.
- Discard: a few candidate discards (rule-of-thumb variants) scored the same way.
- Exchange: the rule of thumb (give low cards of suits without the ace; for a trump
  received, return the lowest side card): the solver adds little there and the exchange
  happens before most of the deal is known. The advice values the gives all the same
  (:meth:`SamplingPlayer.advise`), without changing the player's.

The valuation is :meth:`SamplingPlayer.advise`: each decision's options ranked by their
average score (:class:`~ts358.players.advice.Advice`), and the player takes the best, so
that a hint and the player's own decision are one computation.

Every decision has a node budget (:class:`Effort`): layouts are solved until it is spent.
Whole deals are often too expensive to solve in budget (the game choice and the discard
always look at whole deals); when not one layout could be solved, play falls back on the
rule of thumb, and the game choice and the discard compare their options by rule-of-thumb
rollouts on the same layouts (each layout played out by the rule-of-thumb player).

With ``threads=T`` the player keeps T solvers, each with its own table, and deals the
layouts of a decision round-robin (layout i to thread i % T); each thread solves its layouts
in turn with its own share of the node budget, and the results are combined in layout order.
One table shared by the threads would make what a budget buys depend on timing; own tables
keep decisions deterministic.

Decisions are a function of the seed, the view, the :class:`Effort` and the thread count
only: the layouts are drawn from a random generator seeded by the seed and the decision's
place in the match, so the same view always gives the same answer, whatever the hidden
cards really are and however fast the threads run. (One thread decides exactly as before
threads existed; two threads may decide otherwise, each layout having another budget.)

Its known flaw is *strategy fusion*: each layout is solved as if the player would know the
hidden cards later. It still plays far better than the rule of thumb.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from ts358 import _core358
from ts358.cards import Card, CardSet, Suit
from ts358.deal import Answer, Deal, DealSetup
from ts358.exchange import automatic_return
from ts358.players.advice import Advice, Basis
from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.layouts import World, sample_worlds
from ts358.players.solving import CorePosition, SolveBudget
from ts358.players.threads import run_threads
from ts358.rules import Contract, Role, Talon, Triple, triple
from ts358.view import DecisionKind, SeatView

_O = TypeVar("_O")  # an option ranked by _rank_by_average
_T = TypeVar("_T")  # what a search gives
_R = TypeVar("_R")  # what solving one layout gives

__all__ = ["Effort", "PlayEstimate", "SamplingPlayer", "advise"]


@dataclasses.dataclass(frozen=True)
class Effort:
    """How hard the player thinks: layouts sampled per decision, and a node budget.

    The budget (solver nodes per decision) keeps decision times bounded on the few layouts
    that are very expensive to solve exactly (whole deals, no-tricks above all) while it
    stays deterministic, unlike a clock: the same seed, view, effort and thread count give
    the same decision on any machine. Layouts are solved in turn until the budget is spent;
    on T threads each thread solves its own layouts (every T-th) with ``node_budget // T``
    of it (T the threads that have a layout), so a decision searches about as many nodes
    on any number of threads, in about 1/T of the time. In play the layout a budget runs
    out in counts by the bounds its search proved (:meth:`SamplingPlayer.estimate_play`),
    and the rule of thumb decides only when nothing was proven at all; for the game choice
    and the discard such a layout is left out.
    """

    play_early: int = 12  # layouts when holding more than `late_from` cards
    play_late: int = 24
    late_from: int = 9
    choose: int = 8
    discard: int = 6
    discard_candidates: int = 6
    give: int = 6  # layouts for the advice on a card to give (the player gives by rule of thumb)
    node_budget: int = 3_000_000


@dataclasses.dataclass(frozen=True)
class PlayEstimate:
    """Expected deal scores of the legal cards over sampled layouts.

    Attributes:
        scores: each legal card's average score (empty when nothing was proven).
        solved: layouts solved exactly.
        bounded: layouts cut short by the budget or the time, counted by their bounds.
    """

    scores: dict[Card, float]
    solved: int
    bounded: int

    @property
    def exact(self) -> bool:
        """Whether every layout counted was solved exactly (else the scores are estimates)."""
        return self.bounded == 0


class SamplingPlayer(Player):
    """The hard player: ``seed`` fixes its random choices, ``effort`` how hard it thinks,
    ``tt_mb`` the size of each solver's table, ``threads`` how many threads solve the
    layouts of a decision (each with its own solver and table: ``threads * tt_mb`` MB)."""

    name = "sampling"
    _spread = False  # whether each solve of a choice, discard or give gets only its share

    def __init__(
        self, seed: int | None = 0, effort: Effort | None = None, tt_mb: int = 16, threads: int = 1
    ) -> None:
        if not isinstance(threads, int):
            raise TypeError(f"threads must be an int, not {type(threads).__name__}")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads!r}")
        self.seed = 0 if seed is None else seed
        self.effort = effort or Effort()
        self.threads = threads
        # Checks at least as often as a thread's budget is spent, so that a small one is kept.
        check = min(1 << 16, max(1, self.effort.node_budget // threads))
        self._solvers = [_core358.Solver(tt_mb, check_every=check) for _ in range(threads)]
        self._rule_of_thumb = HeuristicPlayer()

    def reseed(self, key: str) -> None:
        """Before each decision at a table: the solvers' tables are emptied (in constant
        time), so that what the node budget reaches depends on this decision alone, not on
        what earlier decisions left in them: a match resumed, or a decision made in another
        process (:mod:`ts358.online.thinking`), goes on exactly as in the player that made
        the earlier ones. The random choices need no seed: they are drawn from the seed and
        the view (:meth:`_rng`)."""
        for solver in self._solvers:
            solver.clear()

    # ------------------------------------------------------------------ helpers

    def _rng(self, view: SeatView) -> random.Random:
        # Seeded from text, which hashes the same in every process: reproducible anywhere.
        key = (
            self.seed,
            view.seat,
            view.deal_number,
            len(view.tricks),
            len(view.trick),
            str(view.kind),
        )
        return random.Random(str(key))

    def _worlds(self, view: SeatView, count: int) -> list[World]:
        return list(sample_worlds(view, count, self._rng(view)))

    def _solve_layouts(
        self,
        worlds: list[World],
        solve: Callable[[SolveBudget, World], _R | None],
        deadline: float = 0.0,
        parallel: bool = True,
        calls_per_layout: int = 1,
        spread: bool | None = None,
    ) -> list[_R | None]:
        """``solve(budget, world)`` for each layout in turn while its thread's budget (and
        the deadline) lasts, the results in layout order (None: not reached).

        Layout i goes to thread i % T, T = min(threads, layouts); each thread solves its
        layouts in order on its own solver, with ``node_budget // T`` nodes. One thread runs
        in the calling thread, and so do all T shares, one after another, unless
        ``parallel``: small solves spend most of their time in Python, where threads only
        pass the interpreter lock to and fro. What a share solves depends on its layouts and
        its budget only, never on how fast the others run, so both ways decide alike.
        ``calls_per_layout`` is the solver calls ``solve`` makes per layout, for a spread
        budget's shares (``spread``, by default :attr:`_spread`)."""
        used = max(1, min(self.threads, len(worlds)))
        nodes = self.effort.node_budget // used
        stopping = threading.Event()  # set at Ctrl-C or an error: start no other layout
        shares = self._spread if spread is None else spread

        def work(t: int) -> list[_R | None]:
            budget = SolveBudget(self._solvers[t], nodes, deadline, shares)
            budget.pending = len(worlds[t::used]) * calls_per_layout
            out: list[_R | None] = []
            for world in worlds[t::used]:
                if budget.spent() or stopping.is_set():
                    break
                out.append(solve(budget, world))
            return out

        if used == 1 or not parallel:
            per_thread = [work(t) for t in range(used)]
        else:
            per_thread = run_threads(self._solvers[:used], work, on_stop=stopping.set)
        results: list[_R | None] = [None] * len(worlds)
        for t, got in enumerate(per_thread):
            for k, result in enumerate(got):
                results[t + k * used] = result
        return results

    def _seat_scores(
        self,
        view: SeatView,
        layouts: Iterable[tuple[Triple[CardSet], Contract]],
        budget: SolveBudget,
    ) -> list[int] | None:
        """This seat's score in each (whole deal, game) of ``layouts``, the deal given as the
        hands by seat once the talon is taken and the discard made, the chooser on lead; or
        None if the budget ran out on the way."""
        role = view.role
        scores = []
        for hands, game in layouts:
            by_role = [hands[view.seat_of(r)] for r in Role]
            tricks = budget.value(CorePosition.whole_deal(by_role, game, view.rules), role)
            if tricks is None:
                return None
            scores.append(view.rules.score(role, game, tricks))
        return scores

    def _rollout(
        self,
        view: SeatView,
        hands: Triple[CardSet],
        talon: CardSet,
        discard: CardSet,
        game: Contract,
    ) -> int:
        """This seat's tricks when the deal is played out by the rule of thumb: ``hands`` by
        seat before the talon (the chooser's sixteen), the chooser taking ``talon`` and
        discarding ``discard``. The cheap estimate used when exact solves of whole deals do
        not fit the budget."""
        setup = DealSetup(1, view.dealer, triple(tuple(h) for h in hands), tuple(talon))
        deal = Deal(setup, view.rules)  # deal 1: no exchange, already over or still unknown
        deal.choose(game)
        deal.discard(discard)
        while (pending := deal.pending()) is not None:
            deal.apply_answer(self._rule_of_thumb.decide(pending.view))
        return deal.result().taken[view.seat]

    def _rank_by_average(
        self,
        view: SeatView,
        count: int,
        options: list[_O],
        deals_of: Callable[[World], list[tuple[Triple[CardSet], CardSet, CardSet, Contract]]],
        deadline: float,
    ) -> Advice[_O]:
        """The options ranked by this seat's score averaged over ``count`` sampled layouts.

        ``deals_of(world)`` gives each option's whole deal on that layout: (hands by seat
        before the talon, the talon, the chooser's discard, the game). The deals are solved
        exactly while the budget (and the deadline) lasts; each layout counts only if every
        option was solved on it (paired). With not one layout solved (by any thread), the
        options are compared by rule-of-thumb rollouts of the deals instead. Equal totals
        keep the order of ``options``."""
        worlds = self._worlds(view, count)

        def solve(budget: SolveBudget, world: World) -> list[int] | None:
            layouts = [
                (with_hand(hands, view.chooser, (hands[view.chooser] | talon) - discard), game)
                for hands, talon, discard, game in deals_of(world)
            ]
            return self._seat_scores(view, layouts, budget)

        totals = [0] * len(options)
        solved = 0
        for scores in self._solve_layouts(worlds, solve, deadline):
            if scores is not None:
                totals = [t + s for t, s in zip(totals, scores)]
                solved += 1
        if not solved:
            return self._rank_by_rollouts(view, worlds, options, deals_of)
        return _ranked(view, Basis.SOLVED, options, totals, len(worlds), solved)

    def _rank_by_rollouts(
        self,
        view: SeatView,
        worlds: list[World],
        options: list[_O],
        deals_of: Callable[[World], list[tuple[Triple[CardSet], CardSet, CardSet, Contract]]],
    ) -> Advice[_O]:
        """The options ranked by this seat's score averaged over rule-of-thumb play-outs of
        their deals (``deals_of``, as for :meth:`_rank_by_average`) on ``worlds``."""
        totals = [0] * len(options)
        for world in worlds:
            rollouts = [
                view.rules.score(view.role, deal[3], self._rollout(view, *deal))
                for deal in deals_of(world)
            ]
            totals = [t + s for t, s in zip(totals, rollouts)]
        return _ranked(view, Basis.ROLLOUTS, options, totals, len(worlds), 0)

    # ------------------------------------------------------------------ advice

    def advise(self, view: SeatView, time_limit: float | None = None) -> Advice[Answer]:
        """The options of ``view``'s decision ranked by this seat's expected deal score over
        sampled layouts, from the view alone: what the player decides by.

        - Play: every legal card, valued as :meth:`estimate_play` does; by the rule of thumb
          when nothing was proven on any layout.
        - Game choice: every game left, each valued with the talon taken and the discard
          made by rule of thumb; discard: a few candidates (:meth:`_discard_candidates`).
          Both fall back on rule-of-thumb rollouts when no layout is solved in budget.
        - Give: the lowest card of each suit that may be given and stopping, each valued as
          if the exchange ended with it (a trump coming back as the rule of thumb returns
          one, the chooser then discarding by rule of thumb). The player itself still gives
          by rule of thumb: this valuation is advice only (the player is measured without it).
        - Return of a trump: the rule of thumb's choice, not valued (the expert values it).
        - One option only: forced, nothing valued.

        Within the node budget and, if given, ``time_limit`` seconds for the solves (the
        rollouts that replace them come after it, about 0.1-0.2 s for a game choice)."""
        deadline = time.monotonic() + time_limit if time_limit is not None else 0.0
        kind = view.kind
        if kind is DecisionKind.PLAY:
            return self._advise_play(view, time_limit)
        if kind is DecisionKind.CHOOSE:
            return self._advise_choose(view, deadline)
        if kind is DecisionKind.DISCARD:
            return self._advise_discard(view, deadline)
        if kind is DecisionKind.GIVE:
            return self._advise_give(view, deadline)
        if kind is DecisionKind.RETURN:
            return self._advise_return(view, deadline)
        raise ValueError(f"no decision is asked in this view (kind {kind!r})")

    def _advise_play(self, view: SeatView, time_limit: float | None) -> Advice[Card]:
        options = list(view.options)
        if len(options) == 1:
            return _forced(view, options[0])
        estimate = self.estimate_play(view, time_limit)
        scores = estimate.scores
        if not scores:
            choice = self._rule_of_thumb.play(view)
            return _rule_of_thumb(view, choice, options, self._play_layouts(view))
        # Best average score; among equals the lowest card, which gives least away.
        ranked = sorted(options, key=lambda c: (scores[c], -c.rank, -c.id), reverse=True)
        return Advice(
            DecisionKind.PLAY,
            Basis.SOLVED,
            tuple((card, scores[card]) for card in ranked),
            sampled=self._play_layouts(view),
            solved=estimate.solved,
            bounded=estimate.bounded,
        )

    def _advise_choose(self, view: SeatView, deadline: float) -> Advice[Contract]:
        games = sorted(view.available[view.seat])
        if len(games) == 1:
            return _forced(view, games[0])

        first = view.rules.talon is Talon.DISCARD_FIRST  # the discard is made from sixteen

        def deals(world: World) -> list[tuple[Triple[CardSet], CardSet, CardSet, Contract]]:
            full = world.hands[view.seat] | (CardSet() if first else world.pile)
            return [
                (world.hands, world.pile, self._rule_of_thumb_discard(view, full, g), g)
                for g in games
            ]

        return self._rank_by_average(view, self.effort.choose, games, deals, deadline)

    def _advise_discard(self, view: SeatView, deadline: float) -> Advice[CardSet]:
        game = view.game
        assert game is not None
        candidates = self._discard_candidates(view)
        if len(candidates) == 1:
            return _forced(view, candidates[0])

        def deals(world: World) -> list[tuple[Triple[CardSet], CardSet, CardSet, Contract]]:
            # The talon seen and in hand; or, discarding first, the talon as sampled.
            talon = view.talon if view.talon is not None else world.pile
            hands = with_hand(world.hands, view.seat, view.options - talon)
            return [(hands, talon, c, game) for c in candidates]

        return self._rank_by_average(view, self.effort.discard, candidates, deals, deadline)

    def _advise_give(self, view: SeatView, deadline: float) -> Advice[Card | None]:
        game = view.game
        if game is None:  # an exchange before the choice: no game to value the gives in
            return _rule_of_thumb(view, self._rule_of_thumb.give(view), [*view.options, None])
        candidates = self._give_candidates(view)

        def deals(world: World) -> list[tuple[Triple[CardSet], CardSet, CardSet, Contract]]:
            out = []
            for card in candidates:
                hands = self._after_give(view, world.hands, card)
                full = hands[view.chooser] | world.pile
                out.append((hands, world.pile, self._rule_of_thumb_discard(view, full, game), game))
            return out

        return self._rank_by_average(view, self.effort.give, candidates, deals, deadline)

    def _advise_return(self, view: SeatView, deadline: float) -> Advice[Card]:
        return _rule_of_thumb(view, self._rule_of_thumb.choose_return(view), view.options)

    # ------------------------------------------------------------------ decisions

    def estimate_play(self, view: SeatView, time_limit: float | None = None) -> PlayEstimate:
        """The expected deal score of each legal card (``view.options``) over the sampled
        layouts: what ``play`` maximises and what a hint shows.

        Layouts are solved in turn, sharing the node budget (on several threads, each
        thread's share; and ``time_limit`` seconds if given, the same deadline for every
        thread). The layout a budget or the time runs out in is not dropped: the search
        answers with the bounds it proved for each card, and the card counts with the middle
        of its score interval (a card proven better than another stays better, and a card
        nothing is known of counts the same as its neighbours). A layout where nothing at
        all was proven counts for nothing; with no layout counted the estimate is empty.
        The layouts are summed in their order, whichever thread solved them."""
        assert view.game is not None and view.kind is DecisionKind.PLAY
        role, rules = view.role, view.rules
        taken = view.taken[view.seat]

        def solve(budget: SolveBudget, world: World) -> list[tuple[int, int, int]] | None:
            return budget.move_bounds(CorePosition.in_play(view, world))

        totals = dict.fromkeys((card.id for card in view.options), 0.0)
        solved = bounded = 0
        mass: float = 0  # the counted layouts' weights
        n = len(view.hand)
        results, weights = self._solve_play_layouts(view, solve, time_limit)
        for i, raw in enumerate(results):
            if raw is None or all(lo == 0 and hi == n for _, lo, hi in raw):
                continue  # not reached, or nothing proven on this layout
            weight = 1 if weights is None else weights[i]
            for card_id, lo, hi in raw:
                totals[card_id] += (
                    weight
                    * (
                        rules.score(role, view.game, taken + lo)
                        + rules.score(role, view.game, taken + hi)
                    )
                    / 2
                )
            mass += weight
            if all(lo == hi for _, lo, hi in raw):
                solved += 1
            else:
                bounded += 1
        if not solved + bounded:
            return PlayEstimate({}, 0, 0)
        scores = {Card.from_id(i): total / mass for i, total in totals.items()}
        return PlayEstimate(scores, solved, bounded)

    def _solve_play_layouts(
        self,
        view: SeatView,
        solve: Callable[[SolveBudget, World], _R | None],
        time_limit: float | None,
    ) -> tuple[list[_R | None], list[float] | None]:
        """``solve`` on each of the sampled layouts of a card to play (:meth:`_solve_layouts`,
        within the budget and ``time_limit``), and the layouts' weights
        (:meth:`_layout_weights`). Late in the deal the layouts take milliseconds: not worth
        the threads. The layouts are solved in turn, never with shares of the budget, even
        where the player's other decisions spread it: early in a deal a share proves too
        little of any layout (docs/play.md)."""
        deadline = time.monotonic() + time_limit if time_limit is not None else 0.0
        worlds = self._worlds(view, self._play_layouts(view))
        weights = self._layout_weights(view, worlds)
        results = self._solve_layouts(
            worlds,
            solve,
            deadline,
            parallel=len(view.hand) > self.effort.late_from,
            spread=False,
        )
        return results, weights

    def _layout_weights(self, view: SeatView, worlds: list[World]) -> list[float] | None:
        """How likely each layout is, relative to the others, given what the other seats
        did; None: all alike (the hard player draws layouts uniformly and counts them so)."""
        return None

    def _play_layouts(self, view: SeatView) -> int:
        effort = self.effort
        return effort.play_late if len(view.hand) <= effort.late_from else effort.play_early

    def play_scores(self, view: SeatView) -> dict[Card, float]:
        """:meth:`estimate_play`'s scores within the node budget (empty if nothing was
        proven on any layout)."""
        return self.estimate_play(view).scores

    def play(self, view: SeatView) -> Card:
        return self._advise_play(view, None).best

    def choose_game(self, view: SeatView) -> Contract:
        return self._advise_choose(view, 0.0).best

    def discard(self, view: SeatView) -> CardSet:
        return self._advise_discard(view, 0.0).best

    def give(self, view: SeatView) -> Card | None:
        return self._rule_of_thumb.give(view)

    def choose_return(self, view: SeatView) -> Card:
        return self._rule_of_thumb.choose_return(view)

    # ------------------------------------------------------------------ the exchange

    def _give_candidates(self, view: SeatView) -> list[Card | None]:
        """The rule of thumb's give first, then the lowest card of each other suit that may
        be given, then stopping. The lowest card stands for its suit: for a side card the
        receiver's highest of the suit comes back (or the card itself), so a higher card
        would bring back the same and keep a worse one; for a trump any card may come
        back, and the lowest trump costs least."""
        candidates: list[Card | None] = [self._rule_of_thumb.give(view)]
        candidates += [c for c in lowest_of_each_suit(view.options) if c not in candidates]
        if None not in candidates:
            candidates.append(None)
        return candidates

    def _after_give(
        self, view: SeatView, hands: Triple[CardSet], card: Card | None
    ) -> Triple[CardSet]:
        """``hands`` by seat once this seat gave ``card`` (None: stopped) to ``view.give_to``
        and got its return: the automatic one, or for a trump the rule of thumb's."""
        if card is None:
            return hands
        game = view.game
        receiver = view.give_to
        assert game is not None and receiver is not None
        received = hands[receiver].with_card(card)
        back = automatic_return(hands[receiver], card, game)
        if back is None:
            as_receiver = view._replace(
                seat=receiver,
                hand=received,
                options=received,
                kind=DecisionKind.RETURN,
                give_to=None,
                gives_left=0,
                received=card,
            )
            back = self._rule_of_thumb.choose_return(as_receiver)
        out = list(hands)
        out[receiver] = received.without_card(back)
        out[view.seat] = hands[view.seat].without_card(card).with_card(back)
        return triple(out)

    # ------------------------------------------------------------------ discards

    def _rule_of_thumb_discard(self, view: SeatView, hand: CardSet, game: Contract) -> CardSet:
        as_chooser = view._replace(hand=hand, options=hand, game=game, kind=DecisionKind.DISCARD)
        return self._rule_of_thumb.discard(as_chooser)

    def _discard_candidates(self, view: SeatView) -> list[CardSet]:
        """The rule-of-thumb discard first, then a few sensible variants: the four cheapest
        cards, and each short suit emptied (a void to ruff, or in no-tricks to shed high
        cards on), topped up with the cheapest other cards. The solver scores a handful
        instead of all C(20, 4) = 4845 discards."""
        game = view.game
        assert game is not None
        hand = view.options
        misere = game is Contract.NO_TRICKS
        # Cheapest to give up first: low side cards, or in no-tricks the high ones.
        spare = sorted(
            (c for c in hand if c.suit != game.trump),
            key=lambda c: -c.rank if misere else c.rank,
        )
        candidates = [self._rule_of_thumb.discard(view)]

        def add(cards: list[Card]) -> None:
            for card in spare:
                if len(cards) >= 4:
                    break
                if card not in cards:
                    cards.append(card)
            candidate = CardSet(cards[:4])
            if len(candidate) == 4 and candidate not in candidates:
                candidates.append(candidate)

        add([])
        for suit in sorted(Suit, key=lambda s: len(hand.suit(s))):
            cards = list(hand.suit(suit))
            if suit != game.trump and 0 < len(cards) <= 4:
                add(cards)
        return candidates[: self.effort.discard_candidates]


def _ranked(
    view: SeatView,
    basis: Basis,
    options: list[_O],
    totals: list[int],
    sampled: int,
    solved: int,
) -> Advice[_O]:
    """The options by average score, best first (equal totals in the order of ``options``),
    each total counted over the layouts solved, or all sampled if none was."""
    layouts = solved or sampled
    order = sorted(range(len(options)), key=lambda i: (-totals[i], i))
    assert view.kind is not None
    return Advice(
        view.kind,
        basis,
        tuple((options[i], totals[i] / layouts) for i in order),
        sampled=sampled,
        solved=solved,
    )


def _forced(view: SeatView, answer: _O) -> Advice[_O]:
    assert view.kind is not None
    return Advice(view.kind, Basis.FORCED, ((answer, None),))


def _rule_of_thumb(
    view: SeatView, choice: _O, options: Iterable[_O], sampled: int = 0
) -> Advice[_O]:
    """The rule of thumb's ``choice`` first, then the other ``options`` in their order
    (``sampled`` layouts were dealt and nothing proven on them)."""
    assert view.kind is not None
    rest = tuple((o, None) for o in options if o != choice)
    return Advice(view.kind, Basis.RULE_OF_THUMB, ((choice, None), *rest), sampled=sampled)


def lowest_of_each_suit(cards: CardSet) -> list[Card]:
    """The lowest card of each suit ``cards`` hold, in suit order."""
    return [held.lowest() for suit in Suit if (held := cards.suit(suit))]


def with_hand(hands: Triple[CardSet], seat: int, hand: CardSet) -> Triple[CardSet]:
    out = list(hands)
    out[seat] = hand
    return triple(out)


def advise(
    view: SeatView,
    *,
    time_limit: float | None = 1.0,
    seed: int = 0,
    effort: Effort | None = None,
    threads: int = 1,
) -> Advice[Answer]:
    """Advice at ``view``'s decision, from that seat's view alone: its options ranked by the
    seat's expected deal score over sampled layouts (:meth:`SamplingPlayer.advise`).

    A fresh hard player of ``seed``, ``effort`` and ``threads`` thinks for at most
    ``time_limit`` seconds (None: only the node budget of ``effort`` limits it, and the
    advice is the same on any machine). Where the hard player values its options (the game,
    the discard, the card to play), the best option is its decision with the same seed,
    effort and threads and no time limit."""
    return SamplingPlayer(seed, effort, threads=threads).advise(view, time_limit)
