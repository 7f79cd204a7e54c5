"""Position: parsing, validation (one test per error class), TOML round-trip, random deals."""

import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts358 import Card, CardSet, Contract, Role, VoidRule
from ts358.position import IllegalPlay, Position, PositionError

EXAMPLE = """
contract = "hearts"     # spades | hearts | diamonds | clubs | no-trump | no-tricks
rules = "house"
lead = "chooser"
[hands]
chooser = "AKQ2.T98.-.J7654"
third   = "T9.AKQ.5432.T9"
dealer  = "76.J76.AKQ.AKQ"
[trick]
leader = "third"
cards  = ["JS", "8S"]
[taken]
chooser = 2
third = 1
dealer = 0
"""


def toml(**parts):
    """A small valid position file, with some parts replaced (None drops a line)."""
    lines = {
        "contract": 'contract = "spades"',
        "rules": None,
        "lead": None,
        "hands": '[hands]\nchooser = "AK.-.-.-"\nthird = "QJ.-.-.-"\ndealer = "-.2.-.3"',
        "trick": None,
        "taken": None,
    }
    lines.update(parts)
    return "\n".join(v for v in lines.values() if v is not None) + "\n"


def error_of(text):
    with pytest.raises(PositionError) as info:
        Position.from_toml(text, source="pos.toml")
    return info.value


def assert_names(err, key, *words):
    assert err.key == key
    assert str(err).startswith(f"pos.toml: {key}: "), str(err)
    for word in words:
        assert word in str(err), str(err)


# ---------------------------------------------------------------- parsing


def test_example_parses_into_the_fields_it_states():
    pos = Position.from_toml(EXAMPLE)
    assert pos.contract is Contract.HEARTS
    assert pos.void is VoidRule.HOUSE
    assert pos.hands == (
        CardSet.parse("AKQ2.T98.-.J7654"),
        CardSet.parse("T9.AKQ.5432.T9"),
        CardSet.parse("76.J76.AKQ.AKQ"),
    )
    assert pos.leader is Role.THIRD
    assert pos.trick == (Card.parse("JS"), Card.parse("8S"))
    assert pos.taken == (2, 1, 0)
    # third led, dealer followed: the chooser is to move and must follow spades
    assert pos.to_move is Role.CHOOSER
    assert pos.legal_moves() == CardSet.parse("AKQ2.-.-.-")
    assert pos.tricks_left == 12


def test_defaults_house_rules_chooser_lead_nothing_taken():
    pos = Position.from_toml(toml())
    assert pos.void is VoidRule.HOUSE
    assert pos.leader is Role.CHOOSER and pos.to_move is Role.CHOOSER
    assert pos.trick == () and pos.taken == (0, 0, 0)


def test_lead_and_kurnik_rules():
    pos = Position.from_toml(toml(rules='rules = "kurnik"', lead='lead = "dealer"'))
    assert pos.void is VoidRule.KURNIK
    assert pos.to_move is Role.DEALER
    assert pos.legal_moves() == CardSet.parse("-.2.-.3")


def test_symbols_and_tens_are_accepted_in_cards():
    pos = Position.from_toml(
        toml(
            hands='[hands]\nchooser = "K.-.-.-"\nthird = "Q.-.-.-"\ndealer = "-.2.-.3"',
            trick='[trick]\nleader = "chooser"\ncards = ["♠A", "10s"]',
        )
    )
    assert pos.trick == (Card.parse("AS"), Card.parse("TS"))


def test_python_constructor_takes_strings_and_checks_the_same_way():
    pos = Position("spades", ("AK.-.-.-", "QJ.-.-.-", "-.2.-.3"), leader="third")
    assert pos == Position.from_toml(toml(lead='lead = "third"'))
    with pytest.raises(PositionError) as info:
        Position(Contract.SPADES, ("AK.-.-.-", "QJ.-.-.-", "-.2.-.-"))
    assert info.value.key == "hands.dealer"


def test_position_is_immutable_and_hashable():
    pos = Position.from_toml(EXAMPLE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pos.leader = Role.CHOOSER
    assert hash(pos) == hash(Position.from_toml(EXAMPLE))
    assert len({pos, Position.from_toml(EXAMPLE)}) == 1


# ---------------------------------------------------------------- one test per error class


def test_not_toml():
    err = error_of('contract = "hearts\n')
    assert err.key is None
    assert str(err).startswith("pos.toml: not TOML: ")


def test_missing_hand():
    err = error_of(toml(hands='[hands]\nchooser = "AK.-.-.-"\ndealer = "QJ.-.-.-"'))
    assert_names(err, "hands.third", "missing")


def test_missing_contract():
    assert_names(error_of(toml(contract=None)), "contract", "missing")


def test_unknown_contract():
    assert_names(error_of(toml(contract='contract = "trumps"')), "contract", "'trumps'")


def test_unknown_role():
    assert_names(error_of(toml(lead='lead = "north"')), "lead", "'north'")
    err = error_of(toml(trick='[trick]\nleader = "west"\ncards = []'))
    assert_names(err, "trick.leader", "'west'")


def test_unknown_rules():
    assert_names(error_of(toml(rules='rules = "bridge"')), "rules", "'bridge'")


def test_unknown_key():
    assert_names(error_of(toml(rules='trump = "hearts"')), "trump", "unknown key")
    err = error_of(
        toml(
            hands='[hands]\nchooser = "AK.-.-.-"\nthird = "QJ.-.-.-"\n'
            'dealer = "-.2.-.3"\nnorth = "-.-.-.-"'
        )
    )
    assert_names(err, "hands.north", "unknown key")
    assert_names(error_of(toml(taken="[taken]\nme = 1")), "taken.me", "unknown key")


def test_bad_card_in_a_hand():
    err = error_of(
        toml(hands='[hands]\nchooser = "AK.-.-.-"\nthird = "QX.-.-.-"\ndealer = "-.2.-.3"')
    )
    assert_names(err, "hands.third", "'QX.-.-.-'")


def test_bad_card_in_the_trick():
    err = error_of(toml(trick='[trick]\nleader = "chooser"\ncards = ["1S"]'))
    assert_names(err, "trick.cards[0]", "'1S'")


def test_duplicate_card():
    err = error_of(
        toml(hands='[hands]\nchooser = "AK.-.-.-"\nthird = "QK.-.-.-"\ndealer = "-.2.-.3"')
    )
    assert_names(err, "hands.third", "KS", "hands.chooser")
    # a card both in the trick and in a hand
    err = error_of(
        toml(
            hands='[hands]\nchooser = "K.-.-.-"\nthird = "QK.-.-.-"\ndealer = "-.2.-.3"',
            trick='[trick]\nleader = "chooser"\ncards = ["KS"]',
        )
    )
    assert err.key in ("hands.third", "trick.cards")
    assert "KS" in str(err)


def test_wrong_hand_sizes():
    err = error_of(
        toml(hands='[hands]\nchooser = "AK.-.-.-"\nthird = "QJT.-.-.-"\ndealer = "-.2.-.3"')
    )
    assert_names(err, "hands.third", "3", "2")
    # with a trick in progress the player who played holds one fewer: here the chooser
    # led AS and still holds two cards, one too many
    err = error_of(
        toml(
            hands='[hands]\nchooser = "K3.-.-.-"\nthird = "QJ.-.-.-"\ndealer = "-.2.-.3"',
            trick='[trick]\nleader = "chooser"\ncards = ["AS"]',
        )
    )
    assert_names(err, "hands.chooser", "holds 2", "expected 1")


def test_illegal_card_in_the_trick():
    # the chooser led AS; third, still holding QS, discarded 4C
    err = error_of(
        toml(
            hands='[hands]\nchooser = "K.-.-.-"\nthird = "Q.-.-.-"\ndealer = "-.2.-.3"',
            trick='[trick]\nleader = "chooser"\ncards = ["AS", "4C"]',
        )
    )
    assert_names(err, "trick.cards", "4C", "third")


def test_trick_of_three_cards_is_refused():
    err = error_of(
        toml(
            hands='[hands]\nchooser = "K.-.-.-"\nthird = "Q.-.-.-"\ndealer = "-.2.-.-"',
            trick='[trick]\nleader = "chooser"\ncards = ["AS", "JS", "3C"]',
        )
    )
    assert_names(err, "trick.cards", "at most 2")


def test_void_rule_decides_whether_a_discard_was_legal():
    # hearts are trump; third led JS and the dealer, void in spades but holding 2H, threw 3C
    parts = {
        "contract": 'contract = "hearts"',
        "hands": '[hands]\nchooser = "K2.-.-.-"\nthird = "Q.-.-.-"\ndealer = "-.2.-.-"',
        "trick": '[trick]\nleader = "third"\ncards = ["JS", "3C"]',
    }
    assert_names(error_of(toml(**parts)), "trick.cards", "3C", "dealer")
    pos = Position.from_toml(toml(rules='rules = "kurnik"', **parts))
    assert pos.to_move is Role.CHOOSER


def test_taken_out_of_range():
    assert_names(error_of(toml(taken="[taken]\nchooser = -1")), "taken.chooser", "-1")
    assert_names(error_of(toml(taken='[taken]\nthird = "two"')), "taken.third", "'two'")
    # 15 taken + 2 left > 16
    err = error_of(toml(taken="[taken]\nchooser = 8\nthird = 5\ndealer = 2"))
    assert_names(err, "taken", "16")
    # 14 taken + 2 left = 16 is fine
    assert Position.from_toml(toml(taken="[taken]\nchooser = 8\nthird = 4\ndealer = 2")).taken == (
        8,
        4,
        2,
    )


def test_error_without_source_has_no_prefix():
    with pytest.raises(PositionError) as info:
        Position.from_toml(toml(contract='contract = "x"'))
    assert str(info.value).startswith("contract: ")
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------- play, random deals


def test_play_completes_tricks_and_credits_the_winner():
    pos = Position.from_toml(toml(contract='contract = "hearts"'))
    # chooser AS, third must follow (QS), dealer has no spade and must trump with 2H
    pos = pos.play("AS").play("QS")
    assert pos.legal_moves() == CardSet.parse("-.2.-.-")
    with pytest.raises(IllegalPlay) as info:
        pos.play("3C")
    assert info.value.card == Card.parse("3C") and info.value.position == pos
    message = str(info.value)  # names the card, the player, the position and what is legal
    assert "3C" in message and "dealer" in message and str(pos) in message and "2H" in message
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    pos = pos.play("2H")
    assert pos.trick == () and pos.leader is Role.DEALER and pos.taken == (0, 0, 1)
    pos = pos.play("3C").play("KS").play("JS")  # nobody follows clubs or trumps: dealer wins
    assert pos.taken == (0, 0, 2) and pos.is_over and pos.legal_moves() == CardSet()


def test_random_deal_is_full_distinct_and_seeded():
    pos = Position.random(42, Contract.NO_TRUMP)
    assert [len(h) for h in pos.hands] == [16, 16, 16]
    assert len(pos.hands[0] | pos.hands[1] | pos.hands[2]) == 48
    assert pos.leader is Role.CHOOSER and pos.trick == () and pos.taken == (0, 0, 0)
    assert pos == Position.random(42, "no-trump")
    assert pos.hands != Position.random(43, "no-trump").hands
    assert Position.random(42, "spades", "kurnik").void is VoidRule.KURNIK
    # random.Random(seed) is the source: the chooser gets the first 16 cards of a shuffle
    deck = sorted(Card.from_id(s * 16 + r) for s in range(4) for r in range(13))
    random.Random(42).shuffle(deck)
    assert pos.hands[Role.CHOOSER] == CardSet(deck[:16])


# ---------------------------------------------------------------- round-trip


@st.composite
def positions(draw):
    """Valid positions reached by random legal play from a random deal."""
    seed = draw(st.integers(0, 2**32))
    contract = draw(st.sampled_from(list(Contract)))
    void = draw(st.sampled_from(list(VoidRule)))
    plies = draw(st.integers(0, 48))
    pos = Position.random(seed, contract, void)
    rng = random.Random(seed + plies)
    for _ in range(plies):
        pos = pos.play(rng.choice(sorted(pos.legal_moves())))
    if draw(st.booleans()):
        # any tricks taken that fit: a position need not come from a full deal
        room = 16 - pos.tricks_left
        a = draw(st.integers(0, room))
        b = draw(st.integers(0, room - a))
        c = draw(st.integers(0, room - a - b))
        pos = dataclasses.replace(pos, taken=(a, b, c))
    return pos


@settings(max_examples=150, deadline=None)
@given(positions())
def test_toml_round_trip(pos):
    text = pos.to_toml()
    back = Position.from_toml(text)
    assert back == pos
    assert hash(back) == hash(pos)
    assert back.to_toml() == text


@settings(max_examples=100, deadline=None)
@given(positions())
def test_positions_reached_by_play_are_consistent(pos):
    assert sum(pos.taken) + pos.tricks_left <= 16
    sizes = [len(h) for h in pos.hands]
    played = {Role((pos.leader + i) % 3) for i in range(len(pos.trick))}  # independent of Role.next
    assert {sizes[r] + (r in played) for r in Role} == {pos.tricks_left}
    assert pos.is_over == (pos.tricks_left == 0)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_notation_round_trip(pos):
    text = str(pos)
    assert "\n" not in text and Position.parse(text) == pos
    assert eval(repr(pos)) == pos  # the repr is the constructor call that gives it back


def test_notation_fields_and_defaults():
    pos = Position.parse("no-trump kurnik AK.-.-.-/QJ.-.-.-/T9.-.-.-")
    assert pos.contract is Contract.NO_TRUMP and pos.void is VoidRule.KURNIK
    assert pos.leader is Role.CHOOSER and pos.trick == () and pos.taken == (0, 0, 0)
    assert pos.hands[Role.THIRD] == CardSet.parse("QJ.-.-.-")
    mid = Position.parse("spades house AK.-.-.-/QJ.-.-.-/9.-.-.- dealer TS 1/2/11")
    assert mid.leader is Role.DEALER and mid.trick == (Card.parse("TS"),)
    assert mid.to_move is Role.CHOOSER and mid.taken == (1, 2, 11)


@pytest.mark.parametrize(
    "text, key, words",
    [
        ("hearts", None, ["not position notation", "CONTRACT RULES"]),
        ("hearts house A.-.-.-/K.-.-.-", "hands", ["three hands"]),
        ("bridge house A.-.-.-/K.-.-.-/Q.-.-.-", "contract", ["bridge"]),
        ("hearts strict A.-.-.-/K.-.-.-/Q.-.-.-", "rules", ["strict"]),
        ("hearts house A.-.-.-/K.-.-.-/X.-.-.-", "hands.dealer", ["'X'"]),
        ("hearts house A.-.-.-/K.-.-.-/Q.-.-.- north", "lead", ["north"]),
        ("hearts house -.-.3.-/K.-.-.-/QJ.-.-.- chooser AS,2C", "trick.cards", ["2C"]),
        ("hearts house A.-.-.-/K.-.-.-/Q.-.-.- chooser - 1/2", "taken", ["three counts"]),
        ("hearts house A.-.-.-/K.-.-.-/Q.-.-.- chooser - 9/9/9", "taken", ["16"]),
    ],
)
def test_bad_notation_names_the_field(text, key, words):
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    assert info.value.key == key
    for word in words:
        assert word in str(info.value)
