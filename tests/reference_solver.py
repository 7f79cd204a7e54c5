"""A deliberately simple double-dummy reference for 3-5-8, in plain Python.

Used by the tests to check the C solver (``ts358._core358.Solver``). It shares no code
with the package: legality and the trick winner are written out again here, and the search
is plain minimax with alpha-beta pruning only (no transposition table, no equivalent cards,
no quick tricks). It is slow: keep positions small (up to about 5 tricks left).

Semantics (the same as ``Solver``):

* Card id = suit * 16 + rank (suits S H D C = 0..3, ranks 2..A = 0..12); a hand is a bitboard.
* Contracts 0-3 name the trump suit, 4 is no-trump, 5 is no-tricks.
* Void rule 0 (house): void in the suit led -> must play a trump if holding one (any trump).
  Void rule 1 (kurnik): void in the suit led -> any card.
  Void rule 2 (overtrump): void in the suit led -> must play a trump if holding one, and one
  higher than the highest trump already in the trick if holding such a trump (else any
  trump). Following suit is the same under every rule; without a trump suit (no-trump,
  no-tricks) a void player plays any card under every rule.
* ``value`` for player P: in trump and no-trump contracts, the most tricks from now on (the
  trick in progress counts) P can guarantee against the other two playing together; in
  no-tricks, the fewest tricks P can guarantee not to exceed against the other two playing
  together to push it up.
* ``move_values``: for every legal card of the seat to move, (card, value for the mover after
  playing that card), ascending card id.
"""

from __future__ import annotations

from collections.abc import Sequence

NO_TRUMP = 4
NO_TRICKS = 5
HOUSE = 0
KURNIK = 1
OVERTRUMP = 2


def _cards(bits: int) -> list[int]:
    out = []
    for card in range(64):
        if bits >> card & 1:
            out.append(card)
    return out


def _suit(card: int) -> int:
    return card // 16


def _rank(card: int) -> int:
    return card % 16


def _legal(hand: Sequence[int], trick: Sequence[int], contract: int, void_rule: int) -> list[int]:
    if not trick:
        return list(hand)
    led = _suit(trick[0])
    follow = [c for c in hand if _suit(c) == led]
    if follow:
        return follow
    if void_rule == KURNIK or contract >= 4:
        return list(hand)
    trumps = [c for c in hand if _suit(c) == contract]
    if not trumps:
        return list(hand)
    if void_rule == OVERTRUMP:
        played = [_rank(c) for c in trick if _suit(c) == contract]
        if played:
            higher = [c for c in trumps if _rank(c) > max(played)]
            if higher:
                return higher
    return trumps


def _winner(trick: Sequence[int], contract: int) -> int:
    """Index (0 = leader) of the card that takes the complete trick."""
    if contract < 4:
        trumps = [i for i, c in enumerate(trick) if _suit(c) == contract]
        if trumps:
            return max(trumps, key=lambda i: _rank(trick[i]))
    led = _suit(trick[0])
    return max((i for i, c in enumerate(trick) if _suit(c) == led), key=lambda i: _rank(trick[i]))


def _minimax(
    hands: list[list[int]],
    leader: int,
    trick: list[int],
    contract: int,
    void_rule: int,
    player: int,
    alpha: int,
    beta: int,
) -> int:
    """Player's tricks from here (trick in progress included), alpha-beta in (alpha, beta)."""
    mover = (leader + len(trick)) % 3
    if not trick and not hands[mover]:
        return 0
    # In trump/no-trump games the player maximises its tricks; in no-tricks it minimises them.
    maximise = (mover == player) != (contract == NO_TRICKS)
    best = -1 if maximise else 99
    for card in _legal(hands[mover], trick, contract, void_rule):
        hands[mover].remove(card)
        trick.append(card)
        if len(trick) == 3:
            win_seat = (leader + _winner(trick, contract)) % 3
            gain = 1 if win_seat == player else 0
            v = gain + _minimax(
                hands, win_seat, [], contract, void_rule, player, alpha - gain, beta - gain
            )
        else:
            v = _minimax(hands, leader, trick, contract, void_rule, player, alpha, beta)
        trick.pop()
        hands[mover].append(card)
        hands[mover].sort()
        if maximise:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def _setup(
    hands: Sequence[int], leader: int, trick: Sequence[int]
) -> tuple[list[list[int]], list[int]]:
    if len(hands) != 3 or not 0 <= leader <= 2 or len(trick) > 2:
        raise ValueError("bad position")
    lists = [_cards(int(h)) for h in hands]
    return lists, [int(c) for c in trick]


def reference_value(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    contract: int,
    void_rule: int,
    player: int,
) -> int:
    """The player's double-dummy value (see the module docstring)."""
    lists, tr = _setup(hands, leader, trick)
    return _minimax(lists, leader, tr, contract, void_rule, player, -1, 99)


def reference_move_values(
    hands: Sequence[int], leader: int, trick: Sequence[int], contract: int, void_rule: int
) -> list[tuple[int, int]]:
    """(card, mover's value after playing it) for every legal card of the mover."""
    lists, tr = _setup(hands, leader, trick)
    mover = (leader + len(tr)) % 3
    out = []
    for card in _legal(lists[mover], tr, contract, void_rule):
        rest = [list(h) for h in lists]
        rest[mover].remove(card)
        t2 = [*tr, card]
        if len(t2) == 3:
            win_seat = (leader + _winner(t2, contract)) % 3
            gain = 1 if win_seat == mover else 0
            v = gain + _minimax(rest, win_seat, [], contract, void_rule, mover, -1, 99)
        else:
            v = _minimax(rest, leader, t2, contract, void_rule, mover, -1, 99)
        out.append((card, v))
    out.sort()
    return out
