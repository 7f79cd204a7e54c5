"""After-deal analysis: positions rebuilt from a finished deal, values at trick starts and
card reviews checked against the plain-Python reference solver on the last tricks."""

from __future__ import annotations

import pytest

from reference_solver import reference_move_values, reference_value
from ts358.analysis.review import DealReview, PlayReview, TrickValues, play_positions, review_deal
from ts358.cards import CardSet
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Contract, Role, Rules

FROM = 13  # four tricks left: the reference solver is fast there


def finished_deals(seed, count=3, rules=None):
    match = Match(rules or Rules(length=3), seed)
    players = [make_player("easy" if seed % 2 else "medium", seed * 3 + s) for s in range(3)]
    match.run(players)
    return match.results[:count], match.rules


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_positions_follow_the_play(seed):
    results, rules = finished_deals(seed, rules=Rules.kurnik(length=3) if seed == 2 else None)
    for result in results:
        positions = play_positions(result, rules.void)
        assert len(positions) == 16 * 3 + 1
        number, seat, first = positions[0]
        assert (number, seat) == (1, result.chooser)
        # 16 cards each at the start, and together the 48 cards not discarded.
        assert [len(h) for h in first.hands] == [16, 16, 16]
        all_cards = CardSet()
        for h in first.hands:
            all_cards = all_cards | h
        assert len(all_cards) == 48 and not (all_cards & result.discard)
        # Each position's player to move is the seat that played the next card.
        for (_n, s, pos), (trick_n, index) in zip(
            positions, [(t, i) for t in range(16) for i in range(3)]
        ):
            trick = result.tricks[trick_n]
            assert s == trick.seat_of(index)
            assert pos.to_move == Role((s - result.dealer - 1) % 3)
            assert trick.cards[index] in pos.hands[pos.to_move]
        end = positions[-1][2]
        assert end.is_over
        assert tuple(end.taken[Role((s - result.dealer - 1) % 3)] for s in range(3)) == result.taken


def ref_values(pos):
    hands = [h.mask for h in pos.hands]
    trick = [c.id for c in pos.trick]
    return [
        pos.taken[r]
        + reference_value(hands, int(pos.leader), trick, int(pos.contract), int(pos.void), int(r))
        for r in Role
    ]


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_endgame_values_and_reviews_match_the_reference(seed):
    results, rules = finished_deals(seed, count=2)
    for result in results:
        seats = (0, 1, 2)
        analysis = review_deal(result, rules.void, seats, from_trick=FROM)
        assert analysis.first_trick == FROM and not analysis.complete
        assert [v.number for v in analysis.values] == list(range(FROM, 18))
        role = [Role((s - result.dealer - 1) % 3) for s in range(3)]
        starts = {n: p for n, s, p in play_positions(result, rules.void) if not p.trick}
        for v in analysis.values:
            expected = (
                ref_values(starts[v.number])
                if v.number <= 16
                else [starts[17].taken[r] for r in Role]
            )
            assert v.tricks == tuple(expected[role[s]] for s in range(3))
            assert v.scores == tuple(role[s].score(result.game, v.tricks[s]) for s in range(3))
        assert analysis.values[-1].tricks == result.taken
        assert analysis.values[-1].scores == result.scores
        # Every play of the last tricks is reviewed, against the reference's card values.
        assert len(analysis.reviews) == 3 * (17 - FROM)
        before = {(n, s): p for n, s, p in play_positions(result, rules.void)}
        for r in analysis.reviews:
            pos = before[(r.trick, r.seat)]
            ref = dict(
                reference_move_values(
                    [h.mask for h in pos.hands],
                    int(pos.leader),
                    [c.id for c in pos.trick],
                    int(pos.contract),
                    int(pos.void),
                )
            )
            mover = role[r.seat]
            scores = {cid: mover.score(result.game, pos.taken[mover] + v) for cid, v in ref.items()}
            assert r.score == scores[r.card.id]
            assert r.best_score == max(scores.values())
            assert {c.id for c in r.best} == {c for c, v in scores.items() if v == r.best_score}
        # A seat's value drops only by its own mistakes: the reviews account for every drop.
        # Not always for all of it: a later mistake in the same trick (the other two play
        # against the seat) can give back what the seat's own card lost.
        lost = analysis.lost()
        for seat in seats:
            assert lost[seat] <= sum(r.lost for r in analysis.reviews if r.seat == seat)


def exact(number, tricks, scores):
    return TrickValues(number, tricks, scores, tuple((s, s) for s in scores))


def test_lost_adds_up_the_drops():
    values = (
        exact(14, (8, 5, 3), (0, 0, 0)),
        exact(15, (7, 6, 3), (-1, 1, 0)),
        exact(16, (8, 5, 3), (0, 0, 0)),
        exact(17, (7, 5, 4), (-1, 0, 1)),
    )
    a = DealReview(1, Contract.HEARTS, values, (), 14, 0.0)
    assert a.lost() == (2, 1, 0)
    # A trick cut short by the deadline (intervals) counts no drop into or out of it.
    cut = TrickValues(13, (None, 5, None), (None, 0, None), ((-2, 0), (0, 0), (-1, 1)))
    b = DealReview(1, Contract.HEARTS, (cut, *values), (), 13, 0.0)
    assert b.lost() == (2, 1, 0) and not b.complete and not cut.exact
    review = PlayReview(15, 0, CardSet.parse("AS").highest(), -1, 0, ())
    assert review.lost == 1


def test_deadline_in_the_past_still_gives_the_end():
    results, rules = finished_deals(7, count=1)
    analysis = review_deal(results[0], rules.void, (0,), deadline=0.0)
    assert analysis.values[-1].number == 17 and analysis.first_trick == 17
    assert analysis.values[-1].scores == results[0].scores
