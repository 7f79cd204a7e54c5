"""After-deal analysis: positions rebuilt from a finished deal; every card's cost (its
player's score before it minus after it) checked against the plain-Python reference solver
on the last tricks, the summary as the sum of the costs listed, on seeded deals and on a
hand-made one whose mistake is given back in the same trick; the table as rendered."""

from __future__ import annotations

import io
import itertools
import time

import pytest
from rich.console import Console

from reference_solver import reference_move_values, reference_value
from ts358.analysis.review import DealReview, PlayReview, TrickValues, play_positions, review_deal
from ts358.cards import Card, CardSet
from ts358.deal import Deal, DealSetup
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Contract, Role, Rules, VoidRule
from ts358.terminal.render import CardStyle, render_review

FROM = 13  # four tricks left: the reference solver is fast there


def finished_deals(seed, count=3, rules=None):
    match = Match(rules or Rules(length=3), seed)
    players = [make_player("easy" if seed % 2 else "medium", seed * 3 + s) for s in range(3)]
    match.run(players)
    return match.results[:count], match.rules


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_positions_follow_the_play(seed):
    results, rules = finished_deals(seed, rules=Rules.named("kurnik", 3) if seed == 2 else None)
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


def ref_value(pos, role):
    """``role``'s total tricks for the deal at ``pos``, by the reference solver."""
    if pos.is_over:
        return pos.taken[role]
    hands = [h.mask for h in pos.hands]
    trick = [c.id for c in pos.trick]
    value = reference_value(
        hands, int(pos.leader), trick, int(pos.contract), int(pos.void), int(role)
    )
    return pos.taken[role] + value


def reference_costs(result, void, from_trick):
    """{(trick, seat): (card, score before, score after)} of every card from ``from_trick``
    on, each in its player's own terms, by the reference solver: the definition of a
    card's cost written out again."""
    positions = play_positions(result, void)
    out = {}
    for (n, seat, before), (_, _, after) in itertools.pairwise(positions):
        if n >= from_trick:
            role = Role((seat - result.dealer - 1) % 3)
            card = result.tricks[n - 1].cards[len(before.trick)]
            scores = [role.score(result.game, ref_value(p, role)) for p in (before, after)]
            out[(n, seat)] = (card, *scores)
    return out


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_every_card_costs_what_the_reference_says_and_the_loss_is_their_sum(seed):
    results, rules = finished_deals(seed, count=2)
    for result in results:
        for seats in ((0, 1, 2), (0,)):
            analysis = review_deal(result, rules.void, seats, from_trick=FROM)
            assert analysis.first_trick == FROM and not analysis.complete
            assert analysis.cut is None and analysis.scores == result.scores
            expected = reference_costs(result, rules.void, FROM)
            # Every card of the last tricks, in play order.
            assert [(r.trick, r.seat) for r in analysis.reviews] == list(expected)
            for r in analysis.reviews:
                card, before, after = expected[(r.trick, r.seat)]
                assert (r.card, r.best_score, r.score) == (card, before, after)
            # The better cards, for the seats reviewed card by card.
            before = {(n, s): p for n, s, p in play_positions(result, rules.void)}
            for r in analysis.reviews:
                if r.seat not in seats:
                    assert r.best == ()
                    continue
                pos = before[(r.trick, r.seat)]
                ref = reference_move_values(
                    [h.mask for h in pos.hands],
                    int(pos.leader),
                    [c.id for c in pos.trick],
                    int(pos.contract),
                    int(pos.void),
                )
                mover = pos.to_move
                best = {
                    cid
                    for cid, v in ref
                    if mover.score(result.game, pos.taken[mover] + v) == r.best_score
                }
                assert {c.id for c in r.best} == best
            # The summary is the sum of the costs listed, each seat's exactly.
            for seat in range(3):
                costs = [b - a for (_, s), (_, b, a) in expected.items() if s == seat]
                assert analysis.lost()[seat] == sum(costs)
                assert analysis.lost()[seat] == sum(
                    r.lost for r in analysis.mistakes() if r.seat == seat
                )
            assert all(r.lost > 0 for r in analysis.mistakes())


def cards(text):
    return tuple(Card.parse(c) for c in text.split())


def given_back_deal():
    """No-trump, you (seat 0) the chooser: you win the first 14 tricks, then lead 5♠ from
    K♥ 5♠ instead of K♥ (Left holds J♥ 9♠, Right A♠ 6♠), which loses the K♥'s trick if
    Right takes the spade with the ace and leads the 6♠. Right plays the 6♠ instead, a
    mistake of its own, and you still make the K♥: the same trick gives your point
    back."""
    you = cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AD KH 5S")
    left = cards("JH 9S 2D 3D 4D 5D 6D 7D 8D 2S 3S 4S 7S 6H 7H 8H")
    right = cards("AS 6S 9D TD JD QD KD 8S TS JS QS KS 9H TH QH AH")
    deal = Deal(DealSetup(1, 2, (you, left, right), cards("2H 3H 4H 5H")), Rules())
    deal.apply("no-trump")
    deal.apply("2H 3H 4H 5H")
    # Your clubs from the top; Left and Right throw everything but a diamond and the end.
    clubs = zip(
        you[:13],
        cards("3D 4D 5D 6D 7D 8D 2S 3S 4S 7S 6H 7H 8H"),
        cards("TD JD QD KD 8S TS JS QS KS 9H TH QH AH"),
    )
    for card in (*(c for trick in clubs for c in trick), *cards("AD 2D 9D 5S 9S 6S JH AS KH")):
        deal.play(card)
    return deal.result()


def test_a_mistake_given_back_in_its_trick_still_counts():
    result = given_back_deal()
    assert result.taken == (15, 1, 0) and result.scores == (7, -4, -3)
    analysis = review_deal(result, VoidRule.HOUSE, (0, 1, 2), from_trick=15)
    plays = {(r.trick, r.seat): r for r in analysis.reviews}
    # You were +7 before the trick and are +7 after it: no drop, yet your 5♠ cost 1.
    yours = plays[(15, 0)]
    assert (str(yours.card), yours.best_score, yours.score) == ("5S", 7, 6)
    assert [str(c) for c in yours.best] == ["KH"]
    assert plays[(16, 0)].best_score == 7
    # Right's 6♠ cost Right 2 (A♠ wins both tricks), and gave you the point back.
    assert (str(plays[(15, 2)].card), plays[(15, 2)].lost) == ("6S", 2)
    assert analysis.lost() == (1, 0, 2)
    assert [(r.trick, r.seat) for r in analysis.mistakes()] == [(15, 0), (15, 2)]
    # The solver agrees with the reference, card by card.
    expected = reference_costs(result, VoidRule.HOUSE, 15)
    assert {k: (r.card, r.best_score, r.score) for k, r in plays.items()} == expected
    # Over the whole deal your only costly card is the 5♠.
    whole = review_deal(result, VoidRule.HOUSE, (0,))
    assert whole.complete and whole.lost()[0] == 1
    assert [(r.trick, str(r.card)) for r in whole.mistakes() if r.seat == 0] == [(15, "5S")]


def rendered(analysis, width=80):
    console = Console(width=width, file=io.StringIO(), no_color=True)
    console.print(render_review(analysis, ("You", "Left", "Right"), 0, CardStyle(True)))
    return console.file.getvalue()


def table_rows(text):
    """{row label: the cells after it} of the analysis table."""
    rows = {}
    for line in text.splitlines():
        label, _, rest = line.strip().partition(" ")
        if label == "=" or label[:1].isdigit():
            rows[label] = rest.strip()
    return rows


def test_the_mark_is_on_the_row_of_the_costly_card_and_the_summary_is_the_list():
    text = rendered(review_deal(given_back_deal(), VoidRule.HOUSE, (0,)))
    rows = table_rows(text)
    # Your 5♠ of trick 15 is marked on row 15 (before it you were +7), Right's 6♠ too;
    # row 16 is the next trick, nothing marked.
    assert rows["15"].split() == ["+7", "(-1)", "-5", "-1", "(-2)"]
    assert rows["16"].split() == ["+7", "-4", "-3"]
    assert rows["="].split() == ["+7", "-4", "-3"]
    # The tricks in which nothing changed share a line.
    assert rows["1-12"].split() == ["+6", "-5", "-1"]
    assert "Lost by own cards (score before minus after):" in " ".join(text.split())
    assert "You 1, Left 0, Right 3" in text
    assert "Trick 15: you played 5♠ (score +6); better: K♥ (score +7)" in text


def exact_play(trick, seat, before, after):
    return PlayReview(trick, seat, Card.parse("2C"), after, before, ())


def test_a_cut_short_review_shows_the_ranges_and_counts_only_the_tricks_analysed():
    plays = tuple(
        exact_play(n, s, b, a)
        for n, row in ((15, ((0, 0), (1, 1), (0, -1))), (16, ((0, 0), (1, 0), (-1, -1))))
        for s, (b, a) in enumerate(row)
    )
    cut = TrickValues(14, ((-2, 1), (1, 1), (-3, 0)))
    analysis = DealReview(1, Contract.HEARTS, plays, 15, cut, (0, 0, -1), 0.0)
    assert analysis.lost() == (0, 1, 1) and not analysis.complete
    assert [(r.trick, r.seat) for r in analysis.mistakes()] == [(15, 2), (16, 1)]
    text = rendered(analysis)
    rows = table_rows(text)
    assert rows["14"].split() == ["-2..+1", "+1", "-3..+0"]
    assert rows["15"].split() == ["+0", "+1", "+0", "(-1)"]
    assert rows["16"].split() == ["+0", "+1", "(-1)", "-1"]
    assert "Time limit reached: analysed from trick 15 on." in text
    flat = " ".join(text.split())
    assert "Lost by own cards from trick 15 on" in flat and "You 0, Left 1, Right 1" in flat


def test_a_trick_the_deadline_falls_in_is_the_cut_and_counts_for_nobody(monkeypatch):
    from ts358.analysis import review as review_module

    real = review_module.solve

    def cut_short(position, *args, **kwargs):
        # A budget of one node, on one thread (the same on every machine): the small end
        # of the deal is solved, the first position that needs a search is cut short as by
        # a deadline.
        return real(position, *args, **{**kwargs, "max_nodes": 1, "threads": 1})

    result = finished_deals(4, count=1)[0][0]
    full = review_deal(result, VoidRule.HOUSE, (0,))
    monkeypatch.setattr(review_module, "solve", cut_short)
    analysis = review_deal(result, VoidRule.HOUSE, (0,), deadline=time.monotonic() + 60)
    first = analysis.first_trick
    assert 1 < first < 17 and analysis.cut is not None and analysis.cut.number == first - 1
    assert any(lo < hi for lo, hi in analysis.cut.score_bounds)
    # The tricks after the cut, exactly as without a limit; the cut trick counts for nobody.
    assert analysis.reviews == tuple(r for r in full.reviews if r.trick >= first)
    assert analysis.lost() == tuple(
        sum(r.lost for r in full.reviews if r.trick >= first and r.seat == s) for s in range(3)
    )


def test_deadline_in_the_past_analyses_nothing():
    results, rules = finished_deals(7, count=1)
    analysis = review_deal(results[0], rules.void, (0,), deadline=0.0)
    assert analysis.first_trick == 17 and analysis.reviews == () and analysis.cut is None
    assert analysis.scores == results[0].scores
    assert "Analysis skipped (time limit)." in rendered(analysis)
