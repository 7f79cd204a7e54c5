"""Contracts, roles, scoring and rule options, checked against docs/rules.md#scoring-a-deal."""

import pytest

from ts358 import Contract, NotationError, Role, Rules, Suit, VoidRule


def test_obligations_and_limits_follow_the_rules():
    assert [r.obligation for r in (Role.CHOOSER, Role.THIRD, Role.DEALER)] == [8, 5, 3]
    assert [r.limit for r in (Role.CHOOSER, Role.THIRD, Role.DEALER)] == [3, 5, 8]
    assert sum(r.obligation for r in Role) == 16
    assert sum(r.limit for r in Role) == 16


@pytest.mark.parametrize(
    "contract, role, tricks, score",
    [
        # docs/rules.md#scoring-examples (clubs trump, no-tricks, no-trump).
        (Contract.CLUBS, Role.CHOOSER, 10, 2),
        (Contract.CLUBS, Role.THIRD, 4, -1),
        (Contract.CLUBS, Role.DEALER, 2, -1),
        (Contract.NO_TRICKS, Role.CHOOSER, 1, 2),
        (Contract.NO_TRICKS, Role.DEALER, 10, -2),
        (Contract.NO_TRICKS, Role.THIRD, 5, 0),
        (Contract.NO_TRUMP, Role.THIRD, 7, 2),
        # docs/rules.md#an-exchange-worked-through: obligation 5, 7 tricks; obligation 8, 6 tricks.
        (Contract.HEARTS, Role.THIRD, 7, 2),
        (Contract.HEARTS, Role.CHOOSER, 6, -2),
    ],
)
def test_scores_match_seed_examples(contract, role, tricks, score):
    assert role.score(contract, tricks) == score


@pytest.mark.parametrize("contract", list(Contract))
def test_scores_of_a_deal_sum_to_zero(contract):
    for chooser in range(17):
        for third in range(17 - chooser):
            taken = {Role.CHOOSER: chooser, Role.THIRD: third, Role.DEALER: 16 - chooser - third}
            assert sum(role.score(contract, n) for role, n in taken.items()) == 0


def test_contracts_have_the_right_trumps_and_labels():
    assert Contract.HEARTS.trump is Suit.HEARTS
    assert Contract.NO_TRUMP.trump is None
    assert Contract.NO_TRICKS.trump is None
    for contract in Contract:
        assert Contract.parse(contract.label) is contract
        assert Contract.parse(str(contract).upper()) is contract
    assert Contract.parse("H") is Contract.HEARTS


@pytest.mark.parametrize("text", ["trumps", "", "no tricks please"])
def test_unknown_contract_is_rejected_by_name(text):
    with pytest.raises(NotationError) as info:
        Contract.parse(text)
    assert repr(text) in str(info.value)


def test_roles_and_void_rules_parse():
    assert Role.parse(" Dealer ") is Role.DEALER
    assert VoidRule.parse("KURNIK") is VoidRule.KURNIK
    with pytest.raises(NotationError):
        Role.parse("north")
    with pytest.raises(NotationError):
        VoidRule.parse("strict")


def test_rules_defaults_are_the_house_rules():
    rules = Rules()
    assert rules.void is VoidRule.HOUSE and rules.exchange and rules.exchange_trumps
    assert rules.games_per_player == 2
    assert Rules(length=18).games_per_player == 6
    assert Rules.named("kurnik").void is VoidRule.KURNIK
    assert hash(Rules()) == hash(Rules())


@pytest.mark.parametrize("length", [0, 4, 12, 19])
def test_rules_reject_match_lengths_other_than_3k(length):
    with pytest.raises(ValueError):
        Rules(length=length)
