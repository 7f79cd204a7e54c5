"""A position in the play of one deal: who holds what, the trick in progress, tricks taken.

A :class:`Position` is the input of the double-dummy solver (:mod:`ts358.analysis.solve`). It is
immutable, hashable and checks itself on construction: a position that could not arise in
play under the rules (docs/rules.md#playing-the-tricks) raises :class:`PositionError`, whose
message names the offending key (the key of the TOML file format below) and the problem.

The file format (``ts358 solve FILE``)::

    contract = "hearts"     # spades | hearts | diamonds | clubs | no-trump | no-tricks
    rules = "house"         # optional: house (default) | kurnik
    lead = "chooser"        # optional: who leads when no trick is in progress (default chooser)
    [hands]                 # remaining cards; suits S.H.D.C; '-' for a void
    chooser = "AKQ2.T98.-.J76543"
    third   = "JT9.AKQ.5432.-"
    dealer  = "..."
    [trick]                 # optional: the trick in progress
    leader = "third"
    cards  = ["7H", "8H"]   # in play order from the leader
    [taken]                 # optional, default 0 each
    chooser = 3
    third = 2
    dealer = 1

Hands hold the cards a player still has; the cards already played to the trick in progress
are listed under ``[trick]`` only, so a player who has played to it holds one card fewer
than a player who has not. ``[taken]`` counts the tricks already won (they are not replayed).

The one-line notation (:meth:`Position.parse`, ``str(position)``; like FEN in chess) has the
same fields, separated by spaces: the contract, the rules, the three hands (chooser, third,
dealer) joined by ``/``, who leads (the trick in progress, or the next one), the cards of
the trick in progress joined by ``,`` (``-`` for none) and the tricks taken joined by ``/``.
The last three may be left out (chooser leads, no trick, nothing taken)::

    hearts house A.-.-.-/K.-.-.-/-.2.-.- chooser - 7/5/3

>>> pos = Position.parse("hearts house A.-.-.-/K.-.-.-/-.2.-.- chooser - 7/5/3")
>>> pos.to_move, pos.tricks_left, pos.legal_moves()
(<Role.CHOOSER: 0>, 1, CardSet.parse('A.-.-.-'))
>>> after = pos.play("AS").play("KS")
>>> str(after)
'hearts house -.-.-.-/-.-.-.-/-.2.-.- chooser AS,KS 7/5/3'
>>> Position.parse(str(after)) == after
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from os import PathLike
from typing import Any, BinaryIO

from ts358._input import (
    QUOTE_CHARS,
    InputError,
    TOMLDecodeError,
    parse_toml,
    quote,
    read_input,
)
from ts358.cards import DECK, Card, CardSet, NotationError
from ts358.rules import HAND_SIZE, TRICKS_PER_DEAL, Contract, Role, VoidRule, triple
from ts358.tricks import legal_cards, trick_winner

__all__ = ["IllegalPlay", "Position", "PositionError"]


_ROLE_KEYS = ", ".join(r.label for r in Role)


class PositionError(ValueError):
    """A malformed or impossible position.

    ``key`` is the file-format key at fault (``"hands.third"``, ``"trick.cards"``,
    ``"taken.dealer"``; None when the text is not TOML at all), ``problem`` says what is
    wrong, and ``source`` names where the text came from (a file name, or None). The message
    is ``"source: key: problem"``, leaving out the parts that are None.
    """

    def __init__(self, key: str | None, problem: str, source: str | None = None) -> None:
        self.key = key
        self.problem = problem
        self.source = source
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [p for p in (self.source, self.key) if p]
        return ": ".join([*parts, self.problem])

    def with_source(self, source: str | None) -> PositionError:
        """The same error, attributed to ``source`` (e.g. a file name)."""
        return PositionError(self.key, self.problem, source)

    def __str__(self) -> str:
        return self._message()

    def __reduce__(self) -> tuple[object, tuple[str | None, str, str | None]]:
        return (PositionError, (self.key, self.problem, self.source))


class IllegalPlay(ValueError):
    """A card that may not be played in a position; ``card`` and ``position`` say which."""

    def __init__(self, card: Card, position: Position) -> None:
        self.card = card
        self.position = position
        mover = position.to_move
        legal = " ".join(str(c) for c in position.legal_moves().descending()) or "nothing"
        super().__init__(
            f"{card} is not a legal play for {mover.label} in {position} "
            f"({mover.label} may play {legal})"
        )

    def __reduce__(self) -> tuple[object, tuple[Card, Position]]:
        return (IllegalPlay, (self.card, self.position))


_NOTATION = "CONTRACT RULES CHOOSER/THIRD/DEALER [LEADER [TRICK [TAKEN]]]"


@dataclasses.dataclass(frozen=True)
class Position:
    """A position in the play of a deal, validated on construction.

    Attributes:
        contract: the game being played (decides the trump suit, if any, and the scoring).
        hands: the cards each player still holds, indexed by :class:`Role`
            (chooser, third, dealer). Strings in hand notation are accepted and parsed.
        void: what a player void in the suit led must do (house: trump if possible;
            kurnik: any card).
        leader: who led the trick in progress, or who leads next when none is in progress.
        trick: the cards played to the trick in progress, in play order from ``leader``
            (zero to two cards: a third card completes the trick, which then belongs in
            ``taken``). Strings such as ``"7H"`` are accepted and parsed.
        taken: tricks already won by each player, indexed by :class:`Role`.

    Only ``contract`` and ``hands`` are positional; the rest are keyword arguments::

        Position(Contract.HEARTS, ("AK.-.-.-", "QJ.-.-.-", "T9.-.-.-"), leader=Role.THIRD)

    Raises:
        PositionError: the position is malformed or could not arise in play (a card twice,
            hand sizes that do not fit the trick in progress, an illegal card in the trick,
            more than 16 tricks in all, ...). Its ``key`` names the file-format key at fault.
    """

    contract: Contract
    hands: tuple[CardSet, CardSet, CardSet]
    _: dataclasses.KW_ONLY
    void: VoidRule = VoidRule.HOUSE
    leader: Role = Role.CHOOSER
    trick: tuple[Card, ...] = ()
    taken: tuple[int, int, int] = (0, 0, 0)

    # ------------------------------------------------------------------ validation

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "contract", _coerce(self.contract, Contract, "contract"))
        set_(self, "void", _coerce(self.void, VoidRule, "rules"))
        set_(self, "leader", _coerce(self.leader, Role, "lead"))
        set_(self, "hands", _coerce_hands(self.hands))
        set_(self, "trick", _coerce_trick(self.trick))
        set_(self, "taken", _coerce_taken(self.taken))
        self._check_cards()
        self._check_sizes()
        self._check_trick()
        self._check_taken()

    def _check_cards(self) -> None:
        seen: dict[Card, str] = {}
        for role in Role:
            key = f"hands.{role.label}"
            for card in self.hands[role]:
                if card in seen:
                    raise PositionError(key, f"{card} is also in {seen[card]}")
                seen[card] = key
        for card in self.trick:
            if card in seen:
                raise PositionError("trick.cards", f"{card} is also in {seen[card]}")
            seen[card] = "trick.cards"

    def _check_sizes(self) -> None:
        if len(self.trick) > 2:
            raise PositionError(
                "trick.cards",
                f"{len(self.trick)} cards, but a trick in progress holds at most 2 "
                "(a complete trick has been won: count it under [taken])",
            )
        # A player who has played to the trick in progress holds one card fewer.
        played = self._played_to_trick()
        adjusted = {r: len(self.hands[r]) + (r in played) for r in Role}
        counts: dict[int, int] = {}
        for size in adjusted.values():
            counts[size] = counts.get(size, 0) + 1
        if len(counts) == 1:
            return
        # The majority sets the expected size; with no majority, the player to move does.
        expected = max(counts, key=lambda s: (counts[s], s == adjusted[self.to_move]))
        for role in Role:
            if adjusted[role] != expected:
                want = expected - (role in played)
                why = (
                    f" ({role.label} has played to the trick in progress)"
                    if role in played
                    else (
                        " (players who have played to the trick hold one fewer)" if played else ""
                    )
                )
                held = len(self.hands[role])
                raise PositionError(
                    f"hands.{role.label}",
                    f"holds {held} card{'' if held == 1 else 's'}, expected {want}{why}",
                )

    def _check_trick(self) -> None:
        for i, card in enumerate(self.trick):
            role = self.leader.next(i)
            hand = self.hands[role].with_card(card)
            legal = legal_cards(hand, self.trick[:i], self.contract, self.void)
            if card not in legal:
                led = self.trick[0].suit.name.lower()
                raise PositionError(
                    "trick.cards",
                    f"{card} is not a legal play for {role.label} to a trick led in {led} "
                    f"under {self.void.label} rules ({role.label} could play only "
                    f"{' '.join(str(c) for c in legal.descending())})",
                )

    def _check_taken(self) -> None:
        left = self.tricks_left
        total = sum(self.taken)
        if total + left > TRICKS_PER_DEAL:
            raise PositionError(
                "taken",
                f"{total} tricks taken + {left} still to play = {total + left}, "
                f"but a deal has {TRICKS_PER_DEAL}",
            )

    def _played_to_trick(self) -> frozenset[Role]:
        return frozenset(self.leader.next(i) for i in range(len(self.trick)))

    # ------------------------------------------------------------------ queries

    @property
    def to_move(self) -> Role:
        """The player whose turn it is (the leader when no trick is in progress)."""
        return self.leader.next(len(self.trick))

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, counting the one in progress."""
        return len(self.hands[self.to_move])

    @property
    def is_over(self) -> bool:
        """True when every card has been played (nothing left to solve)."""
        return self.tricks_left == 0

    def legal_moves(self) -> CardSet:
        """The cards the player to move may play (empty when the deal is over)."""
        return legal_cards(self.hands[self.to_move], self.trick, self.contract, self.void)

    def play(self, card: Card | str) -> Position:
        """The position after the player to move plays ``card``.

        Completing a trick credits it to its winner, who leads the next one.

        Raises:
            IllegalPlay: ``card`` is not a legal play here (a ValueError).
            NotationError: ``card`` is text that is not a card.
        """
        if isinstance(card, str):
            card = Card.parse(card)
        if card not in self.legal_moves():
            raise IllegalPlay(card, self)
        mover = self.to_move
        h = [hand.without_card(card) if r is mover else hand for r, hand in zip(Role, self.hands)]
        hands = (h[0], h[1], h[2])
        trick = (*self.trick, card)
        if len(trick) < 3:
            return dataclasses.replace(self, hands=hands, trick=trick)
        winner = self.leader.next(trick_winner(trick, self.contract))
        t = [n + (r is winner) for r, n in zip(Role, self.taken)]
        return dataclasses.replace(
            self, hands=hands, trick=(), leader=winner, taken=(t[0], t[1], t[2])
        )

    # ------------------------------------------------------------------ constructors

    @classmethod
    def random(
        cls, seed: int, contract: Contract | str, void: VoidRule | str = VoidRule.HOUSE
    ) -> Position:
        """A random full deal: 16 cards each, chooser on lead, nothing taken.

        The deck is shuffled with ``random.Random(seed)``; the first 16 cards go to the
        chooser, the next 16 to the third player, the next 16 to the dealer, and the last
        four (the talon) are left out. The same seed always gives the same deal.
        """
        rng = random.Random(seed)
        deck = sorted(DECK)
        rng.shuffle(deck)
        hands = tuple(CardSet(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(3))
        return cls(contract, hands, void=void)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ TOML

    @classmethod
    def from_toml(cls, text: str, source: str | None = None) -> Position:
        """Parse a position from the TOML file format (see the module docstring).

        ``source`` (a file name) is attached to any error, so its message reads
        ``source: key: problem``.

        Raises:
            PositionError: the text is not TOML, or not a valid position.
        """
        try:
            try:
                data = parse_toml(text)
            except TOMLDecodeError as exc:
                raise PositionError(None, f"not TOML: {exc}") from None
            except InputError as exc:
                raise PositionError(None, str(exc)) from None
            return cls._from_mapping(data)
        except PositionError as exc:
            raise exc.with_source(source) from None

    @classmethod
    def load(cls, file: str | PathLike[str] | BinaryIO, source: str | None = None) -> Position:
        """Read a position file (UTF-8 TOML, at most :data:`~ts358._input.MAX_INPUT_BYTES`),
        given by its path or as a binary stream (standard input); errors name ``source``,
        by default the path.

        Raises:
            PositionError: the file is not a valid position.
            OSError: the file can't be read.
        """
        if source is None and isinstance(file, (str, PathLike)):
            source = str(file)
        try:
            text = read_input(file)
        except UnicodeDecodeError as exc:
            raise PositionError(None, f"not UTF-8 text ({exc.reason})", source) from None
        except InputError as exc:
            raise PositionError(None, str(exc), source) from None
        return cls.from_toml(text, source=source)

    @classmethod
    def _from_mapping(cls, data: Mapping[str, Any]) -> Position:
        _no_unknown_keys(data, ("contract", "rules", "lead", "hands", "trick", "taken"), "")
        if "contract" not in data:
            raise PositionError("contract", "missing (one of " + _contract_labels() + ")")
        contract = _parse_value(data["contract"], Contract, "contract")
        void = _parse_value(data.get("rules", "house"), VoidRule, "rules")
        lead = _parse_value(data.get("lead", "chooser"), Role, "lead")

        if "hands" not in data:
            raise PositionError("hands", f"missing (a table with keys {_ROLE_KEYS})")
        hands_table = _table(data["hands"], "hands")
        _no_unknown_keys(hands_table, [r.label for r in Role], "hands")
        hands = []
        for role in Role:
            key = f"hands.{role.label}"
            if role.label not in hands_table:
                raise PositionError(key, "missing (write '-.-.-.-' for an empty hand)")
            text = hands_table[role.label]
            if not isinstance(text, str):
                raise PositionError(key, f"expected a hand string, not {quote(text)}")
            try:
                hands.append(CardSet.parse(text))
            except (NotationError, ValueError) as exc:
                raise PositionError(key, str(exc)) from None

        leader = lead
        trick: list[Card] = []
        if "trick" in data:
            trick_table = _table(data["trick"], "trick")
            _no_unknown_keys(trick_table, ("leader", "cards"), "trick")
            if "leader" not in trick_table:
                raise PositionError("trick.leader", f"missing (one of {_ROLE_KEYS})")
            leader = _parse_value(trick_table["leader"], Role, "trick.leader")
            # With cards in the trick, `lead` (who leads when no trick is in progress) does
            # not apply. With none, both name the next leader and must agree.
            if "lead" in data and leader is not lead and not trick_table.get("cards"):
                raise PositionError(
                    "trick.leader",
                    f"{leader.label!r} conflicts with lead {lead.label!r} "
                    "(the trick has no cards yet, so both name who leads)",
                )
            cards = trick_table.get("cards", [])
            if not isinstance(cards, list):
                raise PositionError(
                    "trick.cards", f'expected a list like ["7H", "8H"], not {quote(cards)}'
                )
            for i, text in enumerate(cards):
                if not isinstance(text, str):
                    raise PositionError(
                        f"trick.cards[{i}]", f"expected a card string, not {quote(text)}"
                    )
                try:
                    trick.append(Card.parse(text))
                except NotationError as exc:
                    raise PositionError(f"trick.cards[{i}]", str(exc)) from None
            if len(set(trick)) != len(trick):
                dup = next(c for c in trick if trick.count(c) > 1)
                raise PositionError("trick.cards", f"{dup} is listed twice")

        taken = [0, 0, 0]
        if "taken" in data:
            taken_table = _table(data["taken"], "taken")
            _no_unknown_keys(taken_table, [r.label for r in Role], "taken")
            for role in Role:
                if role.label in taken_table:
                    taken[role] = taken_table[role.label]  # checked by the constructor
        return cls(
            contract,
            triple(hands),
            void=void,
            leader=leader,
            trick=tuple(trick),
            taken=triple(taken),
        )

    def to_toml(self) -> str:
        """The position in the TOML file format; :meth:`from_toml` reads it back equal."""
        lines = [
            f'contract = "{self.contract.label}"',
            f'rules = "{self.void.label}"',
        ]
        if not self.trick:
            lines.append(f'lead = "{self.leader.label}"')
        lines.append("")
        lines.append("[hands]")
        for role in Role:
            lines.append(f'{role.label:<7} = "{self.hands[role].format()}"')
        if self.trick:
            cards = ", ".join(f'"{c}"' for c in self.trick)
            lines += ["", "[trick]", f'leader = "{self.leader.label}"', f"cards = [{cards}]"]
        lines += ["", "[taken]"]
        lines += [f"{role.label:<7} = {self.taken[role]}" for role in Role]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> Position:
        """A position from its one-line notation (see the module docstring).

        Raises:
            PositionError: not notation, or not a valid position; its ``key`` names the
                field at fault as in the file format (``"hands.third"``, ``"trick.cards"``).
        """
        fields = text.split()
        if not 3 <= len(fields) <= 6:
            raise PositionError(None, f"not position notation: {quote(text)} (write {_NOTATION})")
        contract, rules, hands = fields[:3]
        leader = fields[3] if len(fields) > 3 else Role.CHOOSER.label
        trick = fields[4] if len(fields) > 4 else "-"
        taken = fields[5] if len(fields) > 5 else "0/0/0"
        parts = hands.split("/")
        if len(parts) != 3:
            raise PositionError("hands", f"expected three hands joined by '/', not {quote(hands)}")
        counts = taken.split("/")
        # ASCII digits only (int() refuses '²', which isdigit() takes) and few enough for int().
        if len(counts) != 3 or not all(c.isascii() and c.isdigit() and len(c) < 10 for c in counts):
            raise PositionError("taken", f"expected three counts joined by '/', not {quote(taken)}")
        data: dict[str, Any] = {
            "contract": contract,
            "rules": rules,
            "hands": dict(zip((r.label for r in Role), parts, strict=True)),
            "taken": {r.label: int(c) for r, c in zip(Role, counts, strict=True)},
        }
        if trick == "-":
            data["lead"] = leader
        else:
            data["trick"] = {"leader": leader, "cards": trick.split(",")}
        return cls._from_mapping(data)

    def __str__(self) -> str:
        """The one-line notation, which :meth:`parse` reads back equal."""
        hands = "/".join(str(h) for h in self.hands)
        trick = ",".join(str(c) for c in self.trick) or "-"
        taken = "/".join(map(str, self.taken))
        return f"{self.contract} {self.void} {hands} {self.leader} {trick} {taken}"

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"


# ---------------------------------------------------------------------- helpers


def _contract_labels() -> str:
    return ", ".join(c.label for c in Contract)


def _coerce(value: Any, kind: Any, key: str) -> Any:
    """An enum member from itself, its code or its label; PositionError naming ``key``."""
    if isinstance(value, kind):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return kind(value)
        except ValueError:
            raise PositionError(key, f"no {kind.__name__} with code {value}") from None
    return _parse_value(value, kind, key)


def _parse_value(value: Any, kind: Any, key: str) -> Any:
    if not isinstance(value, str):
        raise PositionError(key, f"expected a string, not {quote(value)}")
    try:
        return kind.parse(value)
    except NotationError as exc:
        raise PositionError(key, str(exc)) from None


def _items(value: Any, key: str, expected: str) -> tuple[Any, ...]:
    """The items of a list-like ``value``; PositionError naming ``key`` if it is not one."""
    # A string is iterable too, but here it is always a mistake (e.g. one hand given where
    # the three belong), never a list of characters.
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise PositionError(key, f"expected {expected}, not {quote(value)}")
    return tuple(value)


def _coerce_hands(hands: Any) -> tuple[CardSet, CardSet, CardSet]:
    hands = _items(hands, "hands", "three hands")
    if len(hands) != 3:
        raise PositionError(
            "hands", f"expected three hands (chooser, third, dealer), got {len(hands)}"
        )
    out = []
    for role, hand in zip(Role, hands):
        key = f"hands.{role.label}"
        if isinstance(hand, str):
            try:
                hand = CardSet.parse(hand)
            except (NotationError, ValueError) as exc:
                raise PositionError(key, str(exc)) from None
        elif not isinstance(hand, CardSet):
            raise PositionError(key, f"expected a CardSet or hand string, not {quote(hand)}")
        out.append(hand)
    return triple(out)


def _coerce_trick(trick: Any) -> tuple[Card, ...]:
    out = []
    for i, card in enumerate(_items(trick, "trick.cards", "a sequence of cards")):
        if isinstance(card, str):
            try:
                card = Card.parse(card)
            except NotationError as exc:
                raise PositionError(f"trick.cards[{i}]", str(exc)) from None
        elif not isinstance(card, Card):
            raise PositionError(f"trick.cards[{i}]", f"expected a card, not {quote(card)}")
        out.append(card)
    return tuple(out)


def _coerce_taken(taken: Any) -> tuple[int, int, int]:
    taken = _items(taken, "taken", "three trick counts")
    if len(taken) != 3:
        raise PositionError("taken", f"expected three trick counts, got {len(taken)}")
    for role, n in zip(Role, taken):
        if isinstance(n, bool) or not isinstance(n, int):
            raise PositionError(f"taken.{role.label}", f"expected a whole number, not {quote(n)}")
        if not 0 <= n <= TRICKS_PER_DEAL:
            raise PositionError(
                f"taken.{role.label}", f"{quote(n)} is out of range (0 to {TRICKS_PER_DEAL})"
            )
    return triple(int(n) for n in taken)


def _table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(key, f"expected a table [{key}], not {quote(value)}")
    return value


def _no_unknown_keys(table: Mapping[str, Any], allowed: Iterable[str], prefix: str) -> None:
    allowed = list(allowed)
    for key in table:
        if key not in allowed:
            # A quoted TOML key may be long or hold a line break: named as-is only if neither.
            if len(key) > QUOTE_CHARS or not key.isprintable():
                key = quote(key)
            full = f"{prefix}.{key}" if prefix else key
            raise PositionError(full, f"unknown key (expected {', '.join(allowed)})")
