"""The C double-dummy solver (ts358._core358.Solver) against the pure-Python reference.

Random positions with 1-5 tricks left, all six contracts, the three void rules, with and
without a trick in progress: every player's value and every per-card value must equal the
reference's. Solvers are reused across many positions (and across players, contracts and
void rules) to test the table keys, with a tiny table (1 MB) and the default one. The
overtrump rule changes play only where a third hand void in the suit led must beat a ruff,
which uniformly random positions rarely hold: crowded positions (dealt from the trump suit
and one or two others) hold it on most tricks.
"""

from __future__ import annotations

import _thread
import os
import random
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
from reference_solver import _legal, reference_move_values, reference_value
from ts358 import _core358

Solver = _core358.Solver
SearchLimit = _core358.SearchLimit

S, H, D, C = 0, 1, 2, 3
NT, NO_TRICKS = 4, 5
HOUSE, KURNIK, OVERTRUMP = 0, 1, 2
RANKS = "23456789TJQKA"


def card(text: str) -> int:
    """'SA' -> card id; suit letter then rank character."""
    return "SHDC".index(text[0]) * 16 + RANKS.index(text[1])


def hand(text: str) -> int:
    bits = 0
    for t in text.split():
        bits |= 1 << card(t)
    return bits


def random_position(
    rng: random.Random,
    tricks: int,
    in_progress: int | None = None,
    contract: int | None = None,
    void_rule: int | None = None,
    suits: list[int] | None = None,
):
    """Deal `tricks` cards to each seat (from the cards of `suits` only, if given), then play
    0-2 legal random cards to a trick."""
    deck = [s * 16 + r for s in (range(4) if suits is None else suits) for r in range(13)]
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i in range(3 * tricks):
        hands[i // tricks] |= 1 << deck[i]
    leader = rng.randrange(3)
    contract = rng.randrange(6) if contract is None else contract
    void_rule = rng.randrange(3) if void_rule is None else void_rule
    k = rng.randrange(3) if in_progress is None else in_progress
    trick: list[int] = []
    for i in range(k):
        seat = (leader + i) % 3
        cards = [c for c in range(64) if hands[seat] >> c & 1]
        c = rng.choice(_legal(cards, trick, contract, void_rule))
        trick.append(c)
        hands[seat] &= ~(1 << c)
    return tuple(hands), leader, trick, contract, void_rule


def crowded_position(
    rng: random.Random, tricks: int, in_progress: int, contract: int, void_rule: int
):
    """A random position of a trump contract dealt from the trump suit and one or two side
    suits only: voids, ruffs and over-ruffs on most tricks."""
    others = [s for s in range(4) if s != contract]
    suits = [contract, *rng.sample(others, rng.randint(1, 2))]
    return random_position(rng, tricks, in_progress, contract, void_rule, suits)


def check_position(solvers, pos) -> int:
    """Compare all values of one position against the reference; return checks made."""
    hands, leader, trick, contract, void_rule = pos
    ref_vals = [reference_value(hands, leader, trick, contract, void_rule, p) for p in range(3)]
    ref_moves = reference_move_values(hands, leader, trick, contract, void_rule)
    for solver in solvers:
        for p in range(3):
            got = solver.value(hands, leader, trick, contract, void_rule, p)
            assert got == ref_vals[p], (pos, p, got, ref_vals[p])
        got_moves = solver.move_values(hands, leader, trick, contract, void_rule)
        assert got_moves == ref_moves, (pos, got_moves, ref_moves)
    return 4 * len(solvers)


@pytest.fixture
def small():
    """A solver with a tiny table (1 MB): replacement is exercised all the time. One per test,
    so that no test's result depends on what another left in a table."""
    return Solver(tt_mb=1)


@pytest.fixture
def default():
    """A solver with the default table."""
    return Solver()


# (tricks left, positions) per contract and void rule: 18 combinations in all.
MIX = [(1, 25), (2, 30), (3, 35), (4, 30), (5, 7)]


@pytest.mark.parametrize("void_rule", [HOUSE, KURNIK, OVERTRUMP])
@pytest.mark.parametrize("contract", range(6))
def test_random_positions_against_reference(contract, void_rule, small, default):
    rng = random.Random(1000 * contract + void_rule)
    checks = 0
    for tricks, count in MIX:
        for i in range(count):
            pos = random_position(
                rng, tricks, in_progress=i % 3, contract=contract, void_rule=void_rule
            )
            checks += check_position([small, default], pos)
    assert checks > 0


# (tricks left, positions) per trump suit for the crowded positions.
CROWDED = [(2, 30), (3, 40), (4, 30), (5, 8)]


@pytest.mark.parametrize("contract", [S, H, D, C])
def test_overtrump_on_crowded_positions_against_reference(contract, small, default):
    """The overtrump rule where third hands often have to beat a ruff: every value and
    per-card value against the reference."""
    rng = random.Random(2000 + contract)
    for tricks, count in CROWDED:
        for i in range(count):
            check_position(
                [small, default], crowded_position(rng, tricks, i % 3, contract, OVERTRUMP)
            )


def test_overtrump_where_it_changes_values():
    """Even on crowded positions the overtrump rule seldom changes a double-dummy value
    (about one position in a hundred: a ruff that must be beaten is mostly beaten by
    choice too). Among 4,000 positions of 3-5 tricks, those where the solver finds some
    player's value or some card's value different from the house rule's are checked
    under both rules against the reference; a solver that ignored the rule would find
    none."""
    rng = random.Random(358)
    solver = Solver(tt_mb=1)
    found = 0
    for i in range(4000):
        contract = rng.randrange(4)
        hands, leader, trick, _, _ = pos = crowded_position(
            rng, 3 + i % 3, (i // 3) % 3, contract, OVERTRUMP
        )

        def values(rule, hands=hands, leader=leader, trick=trick, contract=contract):
            return [solver.value(hands, leader, trick, contract, rule, p) for p in range(3)] + [
                solver.move_values(hands, leader, trick, contract, rule)
            ]

        if values(HOUSE) != values(OVERTRUMP):
            found += 1
            check_position([Solver(tt_mb=1)], pos)
            check_position([Solver(tt_mb=1)], (hands, leader, trick, contract, HOUSE))
    assert found >= 20, found


def test_one_table_keeps_the_void_rules_apart():
    """Positions whose value differs between the overtrump and the house rule, solved in
    turn under all three rules by one solver, twice over: an entry stored under one rule
    must never answer under another (the table's key holds the rule)."""
    rng = random.Random(9)
    # One solver per rule to find the positions: nothing there depends on the key's rule.
    finders = {HOUSE: Solver(tt_mb=1), OVERTRUMP: Solver(tt_mb=1)}
    cases = []
    for _ in range(5000):
        if len(cases) == 10:
            break
        contract = rng.randrange(4)
        hands, leader, _, _, _ = crowded_position(rng, 4 + len(cases) % 2, 0, contract, HOUSE)
        if all(
            finders[HOUSE].value(hands, leader, [], contract, HOUSE, p)
            == finders[OVERTRUMP].value(hands, leader, [], contract, OVERTRUMP, p)
            for p in range(3)
        ):
            continue
        expected = {
            (rule, p): reference_value(hands, leader, [], contract, rule, p)
            for rule in (HOUSE, KURNIK, OVERTRUMP)
            for p in range(3)
        }
        assert any(expected[OVERTRUMP, p] != expected[HOUSE, p] for p in range(3))
        cases.append((hands, leader, contract, expected))
    assert len(cases) == 10
    for solver in (Solver(tt_mb=1), Solver()):
        for _round in range(2):
            for hands, leader, contract, expected in cases:
                for (rule, p), v in expected.items():
                    got = solver.value(hands, leader, [], contract, rule, p)
                    assert got == v, (hands, leader, contract, rule, p, got, v)


def test_fresh_solver_per_position():
    """No state carried over: a new solver for each position gives the same answers."""
    rng = random.Random(77)
    for _ in range(60):
        pos = random_position(rng, rng.randint(2, 4))
        check_position([Solver(tt_mb=1)], pos)


def test_table_shared_across_contracts_and_players():
    """Same deal, every contract, void rule and player through one solver, twice over."""
    rng = random.Random(5)
    solver = Solver(tt_mb=1)
    for _ in range(15):
        hands, leader, _, _, _ = random_position(rng, 4, in_progress=0)
        expected = {}
        for contract in range(6):
            for void_rule in (HOUSE, KURNIK, OVERTRUMP):
                for p in range(3):
                    expected[contract, void_rule, p] = reference_value(
                        hands, leader, [], contract, void_rule, p
                    )
        for _round in range(2):
            for (contract, void_rule, p), v in expected.items():
                assert solver.value(hands, leader, [], contract, void_rule, p) == v


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    tricks=st.integers(1, 4),
    k=st.integers(0, 2),
    contract=st.integers(0, 5),
    void_rule=st.integers(0, 2),
)
def test_hypothesis_against_reference(seed, tricks, k, contract, void_rule):
    pos = random_position(random.Random(seed), tricks, k, contract, void_rule)
    check_position([Solver(tt_mb=1)], pos)


# ---------------------------------------------------------------- hand-worked positions


def test_one_trick_forced_trump_house():
    # Spades trump. Seat 0 leads HA; seat 1 is void in hearts with a trump and a club:
    # house rule forces the trump, which takes the trick.
    hands = (hand("HA"), hand("S2"), hand("H3"))
    assert Solver().value(hands, 0, [], S, HOUSE, 1) == 1
    assert Solver().value(hands, 0, [], S, HOUSE, 0) == 0
    # Two tricks: seat 0 has led HA and keeps D5; seat 1 holds S2 CA, seat 2 H3 H4.
    hands = (hand("D5"), hand("S2 CA"), hand("H3 H4"))
    mv = Solver().move_values(hands, 0, [card("HA")], S, HOUSE)
    assert mv == [(card("S2"), 2)]  # the club is not even legal; ruff, then cash CA
    # Kurnik: the club is legal too; it loses the first trick, S2 then ruffs the D5.
    mv = Solver().move_values(hands, 0, [card("HA")], S, KURNIK)
    assert mv == [(card("S2"), 2), (card("CA"), 1)]
    assert mv == reference_move_values(hands, 0, [card("HA")], S, KURNIK)


def test_no_tricks_forced_follow():
    # No-tricks, one trick left: seat 1 holds only the HA and must follow to the heart lead,
    # so it takes the trick whatever it would like.
    hands = (hand("H2"), hand("HA"), hand("H3"))
    assert Solver().value(hands, 0, [], NO_TRICKS, HOUSE, 1) == 1
    assert Solver().value(hands, 0, [], NO_TRICKS, HOUSE, 0) == 0
    # Two tricks: seat 1 holds HA and C2, hearts are led: it must follow with the ace.
    hands = (hand("H2 C3"), hand("HA C2"), hand("H3 C4"))
    assert Solver().value(hands, 0, [], NO_TRICKS, HOUSE, 1) == 1
    # Seat 0 (pushing seat 1 up) can lead either card; the per-card values match the reference.
    mv = Solver().move_values(hands, 0, [], NO_TRICKS, HOUSE)
    assert [c for c, _ in mv] == [card("H2"), card("C3")]
    assert mv == reference_move_values(hands, 0, [], NO_TRICKS, HOUSE)


def test_house_versus_kurnik_void_with_trump():
    # Hearts trump. Seat 0 has led SA and keeps HA; seat 1 is void in spades with H2 D2.
    # House: seat 1 must ruff with H2, takes the trick, and loses the next one (D2 to the
    # HA ruff). Kurnik: it may also discard D2; then HA draws its H2: no trick at all.
    hands = (hand("HA"), hand("H2 D2"), hand("S3 D3"))
    mv_house = Solver().move_values(hands, 0, [card("SA")], H, HOUSE)
    assert mv_house == [(card("H2"), 1)]
    mv_kurnik = Solver().move_values(hands, 0, [card("SA")], H, KURNIK)
    assert mv_kurnik == [(card("H2"), 1), (card("D2"), 0)]
    assert mv_kurnik == reference_move_values(hands, 0, [card("SA")], H, KURNIK)
    # Seat 1's value: 1 either way (under kurnik it chooses to ruff).
    for rule in (HOUSE, KURNIK):
        assert Solver().value(hands, 0, [card("SA")], H, rule, 1) == 1
    # In no-tricks nothing is trump: seat 1 discards (any card) and, as the player trying
    # to avoid tricks, keeps its value at 0 under both rules.
    for rule in (HOUSE, KURNIK):
        assert Solver().value(hands, 0, [card("SA")], NO_TRICKS, rule, 1) == 0


def test_overtrump_forces_the_partner_over_a_ruff():
    # Hearts trump. Seat 0 (the player) has led SA and keeps HQ; seat 1 ruffed with H5 and
    # keeps C2; seat 2, void in spades, holds HK H2. House or kurnik: seat 2 plays H2 under
    # its partner's ruff, seat 1 leads C2, seat 0 ruffs with HQ (its only card) and HK takes
    # it: no trick for seat 0. Overtrump: seat 2 must go over H5 with HK, then lead H2 into
    # seat 0's HQ: seat 0 takes the last trick. (Seat 2 takes one trick either way.)
    hands = (hand("HQ"), hand("C2"), hand("HK H2"))
    trick = [card("SA"), card("H5")]
    for rule, value, moves in (
        (HOUSE, 0, [(card("H2"), 1), (card("HK"), 1)]),
        (KURNIK, 0, [(card("H2"), 1), (card("HK"), 1)]),
        (OVERTRUMP, 1, [(card("HK"), 1)]),
    ):
        for solver in (Solver(1), Solver()):
            assert solver.value(hands, 0, trick, H, rule, 0) == value, rule
            assert solver.move_values(hands, 0, trick, H, rule) == moves, rule
        assert reference_value(hands, 0, trick, H, rule, 0) == value
        assert reference_move_values(hands, 0, trick, H, rule) == moves
    # Holding only lower trumps, any of them; in no-trump (nothing to ruff with), any card.
    low = (hand("HQ"), hand("C2"), hand("H4 H2"))
    assert Solver().move_values(low, 0, trick, H, OVERTRUMP) == [(card("H2"), 0), (card("H4"), 0)]
    nt_trick = [card("SA"), card("S5")]
    assert Solver().move_values(hands, 0, nt_trick, NT, OVERTRUMP) == [
        (card("H2"), 1),
        (card("HK"), 0),
    ]


@pytest.mark.parametrize(
    "hands, leader, trick, contract, player, value",
    [
        ((hand("H2 H9 C9 CT CA"), hand("S2 H8 HJ D2 C5"), hand("H5 H6 HT D6 D8")), 2, [], H, 2, 2),
        ((hand("SQ H2 H9 D4 DA"), hand("S3 S8 D7 D9 DT"), hand("H5 HA D3 D5 D6")), 1, [], D, 1, 2),
        ((hand("S8 SA D4 C6 C8"), hand("S4 S6 H8 D2 DT"), hand("S5 SJ HT DA")), 2, ["SQ"], S, 0, 1),
    ],
)
def test_overtrump_ruff_rank_is_relevant(hands, leader, trick, contract, player, value):
    # Under the overtrump rule a third hand void in the suit led must beat the second
    # hand's ruff if it can: which of its trumps it may play depends on the ruff's rank,
    # so the ruff must be among the relevant cards (_overtrump_rel). Without it the search
    # took these positions' tables entries and small trumps for others' and found each
    # value one too high (found among 200,000 random crowded positions; the value is the
    # same under all three rules here).
    trick = [card(c) for c in trick]
    for rule in (HOUSE, KURNIK, OVERTRUMP):
        assert reference_value(hands, leader, trick, contract, rule, player) == value
        for solver in (Solver(1), Solver()):
            assert solver.value(hands, leader, trick, contract, rule, player) == value
    check_position([Solver(1), Solver()], (hands, leader, trick, contract, OVERTRUMP))


def test_lower_card_led_keeps_the_top():
    # Spades trump, seat 0 leads, seat 1 plays against the other two. Led, the DJ would
    # leave seat 1's remaining diamond on top (over the D4), and seat 1 could not be kept
    # from a trick; the D4, ruffed by seat 2, keeps the DJ on top and seat 1 takes none.
    # A bound that counts the suits whose top card a seat holds must name those top cards
    # as relevant: otherwise the search takes the D4 for an equivalent of the DJ.
    hands = (hand("HA DJ D4"), hand("D6 D5 CQ"), hand("S8 HT C8"))
    for solver in (Solver(1), Solver()):
        assert solver.value(hands, 0, [], S, HOUSE, 1) == 0
    assert reference_value(hands, 0, [], S, HOUSE, 1) == 0
    for led, tricks in (("DJ", 1), ("D4", 0)):
        rest = (hands[0] & ~hand(led), hands[1], hands[2])
        assert Solver().value(rest, 0, [card(led)], S, HOUSE, 1) == tricks
        assert reference_value(rest, 0, [card(led)], S, HOUSE, 1) == tricks


def test_equivalent_cards_reported_individually():
    # Seat 0 holds S2 S3 S4 (touching): every one is listed, all with the same value.
    hands = (hand("S2 S3 S4"), hand("SA H2 H3"), hand("SK D2 D3"))
    mv = Solver().move_values(hands, 0, [], NT, HOUSE)
    assert [c for c, _ in mv] == [card("S2"), card("S3"), card("S4")]
    assert len({v for _, v in mv}) == 1


def test_empty_position():
    assert Solver().value((0, 0, 0), 1, [], NT, HOUSE, 2) == 0
    assert Solver().move_values((0, 0, 0), 1, [], NT, HOUSE) == []


def test_table_size_and_stats():
    s = Solver(tt_mb=2)
    assert 1 << 20 <= s.tt_bytes <= 2 << 20
    rng = random.Random(1)
    pos = random_position(rng, 8, in_progress=0)
    v = s.value(*pos, 0)
    assert s.nodes > 0
    s.reset_stats()
    assert s.nodes == 0
    s.clear()
    assert s.value(*pos, 0) == v


# ---------------------------------------------------------------- the table's growth


def grown(solver) -> bool:
    return solver.tt_bytes > 2 << 20


def test_a_grown_table_keeps_its_entries():
    """Entries moved to a larger table are found again: the same solve then costs a few
    nodes instead of a search (an entry put in another bucket than its probe's is lost)."""
    rng = random.Random(3)
    for contract in (NO_TRICKS, NT, 0):
        pos = random_position(rng, 9, in_progress=0, contract=contract)
        solver = Solver(tt_mb=1)
        v = solver.value(*pos, 0)
        first = solver.nodes
        solver.grow(8)
        assert 7 << 20 < solver.tt_bytes <= 8 << 20
        solver.reset_stats()
        assert solver.value(*pos, 0) == v
        assert solver.nodes * 100 < first, (contract, solver.nodes, first)
        solver.grow(4)  # smaller: nothing changes
        assert solver.tt_bytes > 7 << 20


def test_the_table_grows_in_a_search_that_fills_it_and_values_stay():
    """13 tricks of no-tricks on a 1 MB table that may grow to 4 MB: some searches fill it
    and grow it (mid-test: the test runs again), in a value's search and in the cards'; every
    value and card value is that of a fixed table."""
    rng = random.Random(4)
    fixed = Solver(tt_mb=64)
    grew = {"value": 0, "cards": 0}
    for i in range(6):
        pos = random_position(rng, 13, in_progress=i % 3, contract=NO_TRICKS)
        p = i % 3
        growing = Solver(tt_mb=1, grow_mb=4)
        fixed.clear()
        assert growing.value(*pos, p) == fixed.value(*pos, p), pos
        grew["value"] += grown(growing)
        growing = Solver(tt_mb=1, grow_mb=4)
        fixed.clear()
        assert growing.move_values(*pos) == fixed.move_values(*pos), pos
        grew["cards"] += grown(growing)
        assert growing.tt_bytes <= 4 << 20
    assert grew["value"] >= 1 and grew["cards"] >= 1, grew


def heavy_for_a_small_table():
    """A position (and player) whose search grows a 1 MB table."""
    pos = random_position(random.Random(4), 13, in_progress=0, contract=NO_TRICKS)
    solver = Solver(tt_mb=1, grow_mb=4)
    solver.value(*pos, 0)
    assert grown(solver)
    return pos, 0


def test_a_table_other_solvers_use_stops_the_search_to_grow_and_not_near_a_deadline():
    pos, p = heavy_for_a_small_table()
    v = Solver().value(*pos, p)
    owner = Solver(tt_mb=1, grow_mb=4)
    helper = Solver(table_of=owner)
    lo, hi = owner.bounds(*pos, p)
    assert owner.grow_wanted and lo <= v <= hi and not grown(owner)
    with pytest.raises(SearchLimit, match="the table is to grow"):
        owner.value(*pos, p)
    with pytest.raises(RuntimeError, match="in use by other solvers"):
        owner.grow(8)
    with pytest.raises(RuntimeError, match="in use by other solvers"):
        helper.grow(8)
    helper.detach()
    owner.grow()
    assert grown(owner) and owner.value(*pos, p) == v and not owner.grow_wanted
    # Growing takes up to about a second: not with a deadline under two seconds away.
    near = Solver(tt_mb=1, grow_mb=4)
    lo, hi = near.bounds(*pos, p, deadline=time.monotonic() + 1.0)
    assert lo <= v <= hi and not grown(near)


def test_a_solver_with_helpers_is_freed_with_them():
    """A solver that made helpers for threads is freed as soon as it is dropped, helpers and
    table with it: no reference cycle (the garbage collector is off), no registry keeping
    it (issue 38: every reviewed deal used to keep its 32 MB table)."""
    import gc
    import weakref

    pos = random_position(random.Random(11), 5, contract=H)
    expected = Solver().value(*pos, 0)
    gc.disable()
    try:
        owner = Solver(1)
        helpers = owner.helpers(3)
        assert helpers[0] is owner and len(helpers) == 3
        assert owner.helpers(2) == helpers[:2]  # kept, not made again
        gone = [weakref.ref(s) for s in helpers]
        kept = helpers[2]
        del owner, helpers
        assert [r() is None for r in gone] == [True, True, False]
        # A helper someone still holds keeps the table alive and searches it.
        assert kept.value(*pos, 0) == expected
        del kept
        assert gone[2]() is None
    finally:
        gc.enable()


def test_helpers_let_go_leave_the_table_to_grow():
    owner = Solver(1, grow_mb=4)
    first = owner.helpers(2)[1]
    with pytest.raises(RuntimeError, match="in use by other solvers"):
        owner.grow()
    owner.release_helpers()
    with pytest.raises(RuntimeError, match="no table any more"):
        first.value(*random_position(random.Random(2), 3), 0)
    owner.grow()
    assert owner.tt_bytes > 3 << 20
    second = owner.helpers(2)[1]
    assert second is not first and second.tt_bytes == owner.tt_bytes
    with pytest.raises(ValueError, match="count must be at least 1"):
        owner.helpers(0)


def test_a_growth_limit_below_the_table_is_refused():
    with pytest.raises(ValueError, match="grow_mb must be 0 or at least tt_mb"):
        Solver(tt_mb=8, grow_mb=4)


# ---------------------------------------------------------------- input validation


@pytest.mark.parametrize(
    "args, message",
    [
        (((hand("S2"), hand("S2"), hand("S3")), 0, [], NT, HOUSE, 0), "two hands"),
        (((hand("S2 S4"), hand("S3"), hand("S5")), 0, [], NT, HOUSE, 0), "hand sizes"),
        (((hand("S2"), hand("S3"), hand("S5")), 0, [card("S4")], NT, HOUSE, 0), "hand sizes"),
        (((1 << 13, hand("S3"), hand("S5")), 0, [], NT, HOUSE, 0), "not card ids"),
        (((-1, hand("S3"), hand("S5")), 0, [], NT, HOUSE, 0), "not card ids"),
        (((1 << 70, hand("S3"), hand("S5")), 0, [], NT, HOUSE, 0), "not card ids"),
        (((hand("S2"), hand("S3")), 0, [], NT, HOUSE, 0), "three hands"),
        (((0, hand("S3"), hand("S5")), 0, [13], NT, HOUSE, 0), "not a card id"),
        (((0, hand("S3"), hand("S5")), 0, [card("S3")], NT, HOUSE, 0), "also in a hand"),
        (((0, 0, hand("S5")), 0, [card("S3"), card("S3")], NT, HOUSE, 0), "played twice"),
        (
            ((hand("C9"), hand("H2"), hand("S5 H3")), 0, [card("H4"), card("S3")], NT, HOUSE, 0),
            "not a legal play",
        ),
        (
            ((hand("S3"), hand("H2"), hand("S5 S6")), 0, [card("S4"), card("C2")], H, HOUSE, 0),
            "not a legal play",
        ),
        (((0, 0, 0), 0, [1, 2, 3], NT, HOUSE, 0), "at most two"),
        (((hand("S2"), hand("S3"), hand("S5")), 3, [], NT, HOUSE, 0), "leader"),
        (((hand("S2"), hand("S3"), hand("S5")), 0, [], NT, HOUSE, 3), "player"),
        (((hand("S2"), hand("S3"), hand("S5")), 0, [], 6, HOUSE, 0), "contract"),
        (((hand("S2"), hand("S3"), hand("S5")), 0, [], NT, 3, 0), "void rule"),
        (((hand("S2"), hand("S3"), hand("S5")), 0, [], NT, -1, 0), "void rule"),
    ],
)
def test_validation(args, message):
    s = Solver(tt_mb=1)
    with pytest.raises(ValueError, match=message):
        s.value(*args)
    if "player" not in message:
        with pytest.raises(ValueError, match=message):
            s.move_values(*args[:5])
    # The solver is still usable after an error.
    assert s.value((hand("S2"), hand("S3"), hand("S5")), 0, [], NT, HOUSE, 2) == 1


def test_bad_table_size():
    with pytest.raises(ValueError):
        Solver(tt_mb=0)


def test_keyboard_interrupt_stops_search():
    """Ctrl-C (simulated) ends a long solve with KeyboardInterrupt; the solver survives."""
    rng = random.Random(11)
    deals = [random_position(rng, 16, in_progress=0, contract=NO_TRICKS) for _ in range(50)]
    solver = Solver(tt_mb=1)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    deadline = time.monotonic() + 20
    try:
        with pytest.raises(KeyboardInterrupt):
            while time.monotonic() < deadline:
                for pos in deals:
                    solver.clear()
                    solver.value(*pos, 0)
    finally:
        timer.cancel()
    hands = (hand("S2"), hand("S3"), hand("S5"))
    assert solver.value(hands, 0, [], NT, HOUSE, 2) == 1


# ---------------------------------------------------------------- soak (pytest -m slow)


@pytest.mark.slow
def test_soak_six_tricks(small, default):
    rng = random.Random(606)
    for i in range(96):
        pos = random_position(rng, 6, in_progress=i % 3, contract=i % 6, void_rule=(i // 6) % 3)
        check_position([small, default], pos)


@pytest.mark.slow
def test_soak_seven_tricks_one_player(small, default):
    rng = random.Random(707)
    for i in range(12):
        hands, leader, trick, contract, void_rule = random_position(
            rng, 7, in_progress=i % 3, contract=i % 6, void_rule=(i // 6) % 3
        )
        p = i % 3
        ref = reference_value(hands, leader, trick, contract, void_rule, p)
        assert small.value(hands, leader, trick, contract, void_rule, p) == ref
        assert default.value(hands, leader, trick, contract, void_rule, p) == ref


@pytest.mark.slow
def test_soak_large_positions_self_consistent(small, default):
    """8-11 tricks: tiny and default tables agree, and the best per-card value is the value."""
    rng = random.Random(816)
    for i in range(60):
        pos = random_position(
            rng, rng.randint(8, 11), in_progress=i % 3, contract=i % 6, void_rule=(i // 6) % 3
        )
        _hands, leader, trick, contract, _void_rule = pos
        mover = (leader + len(trick)) % 3
        v = default.value(*pos, mover)
        assert Solver(tt_mb=1).value(*pos, mover) == v
        mv = default.move_values(*pos)
        vals = [x for _, x in mv]
        assert (min(vals) if contract == NO_TRICKS else max(vals)) == v
        for p in range(3):
            assert small.value(*pos, p) == default.value(*pos, p)
