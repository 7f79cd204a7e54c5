"""Contracts, roles and rule options: the vocabulary of the rules (docs/rules.md) as value
types, and the arithmetic of seats and roles.

>>> Contract.parse("nt"), Contract.HEARTS.trump
(<Contract.NO_TRUMP: 4>, <Suit.HEARTS: 1>)
>>> Role.THIRD.seat(dealer=2), Role.of_seat(1, dealer=2)
(1, <Role.THIRD: 1>)
>>> Role.CHOOSER.score(Contract.SPADES, 10), Role.DEALER.score(Contract.NO_TRICKS, 10)
(2, -2)
>>> Rules.named("kurnik", length=9).void, Rules.parse("9-5-2").targets
(<VoidRule.KURNIK: 1>, (9, 5, 2))
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from typing import Any, TypeVar

from ts358._input import quote
from ts358.cards import NotationError, Suit

__all__ = [
    "HAND_SIZE",
    "MATCH_LENGTHS",
    "TRICKS_PER_DEAL",
    "Contract",
    "Role",
    "Rules",
    "Seating",
    "Triple",
    "VoidRule",
    "check_match_length",
    "triple",
]

MATCH_LENGTHS = (3, 6, 9, 18)
"""The deals a match may have: 3k with k in 1, 2, 3, 6."""

TRICKS_PER_DEAL = 16
"""Tricks in a deal."""

HAND_SIZE = 16
"""Cards dealt to each player (the talon holds the other four)."""


_T = TypeVar("_T")

Triple = tuple[_T, _T, _T]
"""One value per seat (0-2) or per role (chooser, third, dealer)."""


def triple(values: Iterable[_T]) -> Triple[_T]:
    """``values`` (exactly three) as a :data:`Triple`; ValueError for another count."""
    a, b, c = values
    return (a, b, c)


def check_match_length(length: object) -> int:
    """``length`` if a match may have that many deals; ValueError saying what may."""
    if isinstance(length, bool) or length not in MATCH_LENGTHS:
        allowed = ", ".join(map(str, MATCH_LENGTHS[:-1])) + f" or {MATCH_LENGTHS[-1]}"
        raise ValueError(f"a match has {allowed} deals, not {quote(length)}")
    return length


_L = TypeVar("_L", bound="_Labelled")


class _Labelled(enum.IntEnum):
    """An enum written in files and on the command line as its lower-case name."""

    @property
    def label(self) -> str:
        """The name used in files, records and options."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls: type[_L], text: str) -> _L:
        """The member whose label is ``text`` (case and surrounding spaces ignored)."""
        key = text.strip().lower()
        for member in cls:
            if member.label == key:
                return member
        labels = ", ".join(m.label for m in cls)
        raise NotationError(f"not a {cls._noun()}: {quote(text)} (one of {labels})")

    @classmethod
    def _noun(cls) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.label


class Contract(_Labelled):
    """The six games the chooser can pick; the value is the core's contract code. Labels:
    spades, hearts, diamonds, clubs, no-trump, no-tricks."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    NO_TRUMP = 4
    NO_TRICKS = 5

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None in no-trump and no-tricks."""
        return Suit(self.value) if self.value < 4 else None

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract from its label (``hearts``, ``no-trump``, ``no-tricks``, also ``nt`` and
        ``misere``) or a suit's letter or symbol."""
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        key = {"nt": "no-trump", "notrump": "no-trump", "misere": "no-tricks"}.get(key, key)
        for contract in cls:
            if contract.label == key:
                return contract
        try:
            return cls(Suit.parse(key).value)
        except NotationError:
            labels = ", ".join(c.label for c in cls)
            raise NotationError(f"not a game: {quote(text)} (one of {labels})") from None


class Role(_Labelled):
    """A seat's role in one deal; the value is its place in the play order from the chooser."""

    CHOOSER = 0
    THIRD = 1
    DEALER = 2

    @property
    def obligation(self) -> int:
        """Tricks to take in trump and no-trump games under the house targets: 8, 5, 3
        (:meth:`Rules.target` for a rule set's)."""
        return (8, 5, 3)[self]

    @property
    def limit(self) -> int:
        """Most tricks allowed in no-tricks under the house targets: 3, 5, 8
        (:meth:`Rules.limit`)."""
        return (3, 5, 8)[self]

    def score(self, contract: Contract, tricks: int) -> int:
        """The deal score for taking ``tricks`` tricks in this role under the house targets
        (:meth:`Rules.score` for a rule set's; a position carries no targets)."""
        if contract is Contract.NO_TRICKS:
            return self.limit - tricks
        return tricks - self.obligation

    def seat(self, dealer: int) -> int:
        """The seat (0-2) holding this role in a deal dealt by ``dealer``."""
        return (dealer + 1 + self) % 3

    def next(self, steps: int = 1) -> Role:
        """The role ``steps`` places later in the play order (clockwise)."""
        return Role((self + steps) % 3)

    @classmethod
    def of_seat(cls, seat: int, dealer: int) -> Role:
        """The role of ``seat`` in a deal dealt by ``dealer`` (the inverse of :meth:`seat`)."""
        return cls((seat - dealer - 1) % 3)

    @classmethod
    def _noun(cls) -> str:
        return "role"


class VoidRule(_Labelled):
    """What a player void in the suit led must do; the value is the core's code."""

    HOUSE = 0  # must play a trump if holding one (need not overtrump)
    KURNIK = 1  # may play any card
    OVERTRUMP = 2  # must play a trump, one above the trick's highest trump when able

    @classmethod
    def _noun(cls) -> str:
        return "rule set"


class Seating:
    """The seats of a deal's roles, for anything that knows its deal's ``dealer``."""

    __slots__ = ()
    dealer: int

    @property
    def chooser(self) -> int:
        """The seat choosing the game (left of the dealer)."""
        return Role.CHOOSER.seat(self.dealer)

    @property
    def third(self) -> int:
        """The seat of the third player (right of the dealer)."""
        return Role.THIRD.seat(self.dealer)

    def role_of(self, seat: int) -> Role:
        """The role of ``seat`` in this deal."""
        return Role.of_seat(seat, self.dealer)

    def seat_of(self, role: Role) -> int:
        """The seat holding ``role`` in this deal."""
        return role.seat(self.dealer)


class Exchange(_Labelled):
    """When the exchange of cards between plus and minus players happens (if at all)."""

    NONE = 0  # never
    TRUMP = 1  # after the game is chosen, before trump games (house)
    TRUMP_AND_NO_TRUMP = 2  # after the game is chosen, before trump games and no-trump
    BEFORE_CHOICE = 3  # before the game is chosen, whatever it will be (Sergeant Major)

    @classmethod
    def _noun(cls) -> str:
        return "time of the exchange"


class ExchangeOrder(_Labelled):
    """Who exchanges first when two players give, or one gives to two."""

    TARGETS = 0  # by the new deal's targets (house: docs/rules.md#the-exchange)
    MOST_UP = 1  # the player most up gives first; the one most down receives first

    @classmethod
    def _noun(cls) -> str:
        return "exchange order"


class Top(_Labelled):
    """Which seat has the highest target and chooses the game."""

    LEFT = 0  # the player left of the dealer (house)
    DEALER = 1  # the dealer (Sergeant Major)

    @classmethod
    def _noun(cls) -> str:
        return "seat of the chooser"


class Games(_Labelled):
    """The games the chooser may pick."""

    ALL = 0  # four trump suits, no-trump, no-tricks
    SUITS = 1  # the four trump suits only

    @property
    def contracts(self) -> frozenset[Contract]:
        """The games of this set."""
        if self is Games.SUITS:
            return frozenset(c for c in Contract if c.trump is not None)
        return frozenset(Contract)

    @classmethod
    def _noun(cls) -> str:
        return "set of games"


class Talon(_Labelled):
    """How the chooser takes the talon."""

    SHOWN = 0  # turned face up for all, taken, then four cards discarded (house)
    UNSEEN = 1  # taken without showing it to the others, then four cards discarded
    DISCARD_FIRST = 2  # four of the sixteen discarded first, then the talon taken unseen

    @classmethod
    def _noun(cls) -> str:
        return "talon rule"


class FirstLead(_Labelled):
    """Who leads the first trick."""

    CHOOSER = 0  # the chooser (house)
    LEFT = 1  # the player left of the dealer (Sergeant Major: not the chooser)

    @classmethod
    def _noun(cls) -> str:
        return "first leader"


class MatchEnd(_Labelled):
    """When a match ends (each at the latest after :attr:`Rules.length` deals)."""

    DEALS = 0  # after its length in deals
    TWELVE_TRICKS = 1  # when a player takes 12 or more tricks in one deal: they win
    TARGET = 2  # after the deal in which a total reaches :attr:`Rules.target_score`

    @classmethod
    def _noun(cls) -> str:
        return "end of the match"


TWELVE = 12
"""Tricks in one deal that win a match ended by :attr:`MatchEnd.TWELVE_TRICKS`."""

_OPTION_TYPES: dict[str, type[_Labelled]] = {
    "void": VoidRule,
    "exchange": Exchange,
    "exchange_order": ExchangeOrder,
    "top": Top,
    "games": Games,
    "talon": Talon,
    "first_lead": FirstLead,
    "end": MatchEnd,
}


class RulesError(ValueError):
    """Rule options that are not a rule set (one line: which option and why)."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rule options of a match (docs/rules.md#variants); the defaults are the house rules.

    Roles are places in the play order from the player with the highest target, whoever
    deals: :attr:`Role.CHOOSER` takes ``targets[0]`` and chooses, :attr:`Role.THIRD` plays
    after them, :attr:`Role.DEALER` last. A deal's ``dealer`` seat (:class:`Seating`) is the
    seat of :attr:`Role.DEALER`; under ``top = dealer`` (Sergeant Major) the seat that deals
    the cards is the chooser's (:attr:`dealing_role`).
    """

    void: VoidRule = VoidRule.HOUSE
    exchange: Exchange = Exchange.TRUMP
    exchange_trumps: bool = True
    length: int = 6
    exchange_order: ExchangeOrder = ExchangeOrder.TARGETS
    top: Top = Top.LEFT
    targets: tuple[int, int, int] = (8, 5, 3)
    sees: int = 6
    games: Games = Games.ALL
    repeat: bool = False
    talon: Talon = Talon.SHOWN
    first_lead: FirstLead = FirstLead.CHOOSER
    end: MatchEnd = MatchEnd.DEALS
    target_score: int = 10

    def __copy__(self) -> Rules:
        # Checked once, when made: a copy (each seat's view gets one) needn't be checked again.
        copy = object.__new__(Rules)
        copy.__dict__.update(self.__dict__)
        return copy

    def __post_init__(self) -> None:
        for name, kind in _OPTION_TYPES.items():
            value = getattr(self, name)
            if isinstance(value, bool) and kind is Exchange:  # the earlier yes/no exchange
                object.__setattr__(self, name, Exchange.TRUMP if value else Exchange.NONE)
            elif not isinstance(value, kind):  # a label, e.g. from a file
                try:
                    object.__setattr__(self, name, kind.parse(str(value)))
                except NotationError as exc:
                    raise RulesError(f"{name}: {exc}") from None
        self._check()

    def _check(self) -> None:
        def refuse(message: str) -> None:
            raise RulesError(message)

        for name in ("exchange_trumps", "repeat"):
            if not isinstance(getattr(self, name), bool):
                refuse(f"{name}: yes or no, not {quote(getattr(self, name))}")
        try:
            check_match_length(self.length)
        except ValueError as exc:
            refuse(f"length: {exc}")
        targets = self.targets
        if (
            not isinstance(targets, tuple)
            or len(targets) != 3
            or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in targets)
            or sum(targets) != TRICKS_PER_DEAL
            or not targets[0] >= targets[1] >= targets[2]
        ):
            refuse(
                f"targets: three numbers from the highest, adding up to {TRICKS_PER_DEAL} "
                f"(8-5-3, 9-5-2), not {quote(targets)}"
            )
        if self.sees not in (6, HAND_SIZE):
            refuse(
                f"sees: the chooser sees 6 or {HAND_SIZE} cards before choosing, "
                f"not {quote(self.sees)}"
            )
        if self.repeat and Contract.NO_TRICKS in self.games.contracts:
            refuse(
                "repeat: games repeat without limit only with games = suits (no-tricks is limited)"
            )
        if not self.repeat and self.games_per_player > len(self.games.contracts):
            refuse(
                f"length: {self.length} deals need {self.games_per_player} different games "
                f"per player, and games = {self.games.label} has {len(self.games.contracts)} "
                "(a shorter match, or repeat = yes)"
            )
        if self.sees < HAND_SIZE and self.exchange is Exchange.BEFORE_CHOICE:
            refuse("sees: with the exchange before the choice the chooser sees all 16 cards")
        if not self.exchange_trumps and self.exchange is Exchange.BEFORE_CHOICE:
            refuse("exchange_trumps: before the choice no suit is trump yet (keep it yes)")
        if (
            isinstance(self.target_score, bool)
            or not isinstance(self.target_score, int)
            or not 0 < self.target_score <= 100
        ):
            refuse(f"target_score: a total from 1 to 100, not {quote(self.target_score)}")

    @property
    def games_per_player(self) -> int:
        """How many different games each player chooses in the match (k of 3k deals)."""
        return self.length // 3

    @property
    def contracts(self) -> frozenset[Contract]:
        """The games that may be chosen."""
        return self.games.contracts

    @property
    def dealing_role(self) -> Role:
        """The role of the seat that deals the cards."""
        return Role.CHOOSER if self.top is Top.DEALER else Role.DEALER

    @property
    def first_leader(self) -> Role:
        """The role that leads the first trick."""
        if self.first_lead is FirstLead.CHOOSER:
            return Role.CHOOSER
        return self.dealing_role.next()  # left of the dealer

    def exchanges_before(self, game: Contract | None) -> bool:
        """Whether there is an exchange before ``game`` (None: before the choice)."""
        if game is None:
            return self.exchange is Exchange.BEFORE_CHOICE
        if self.exchange is Exchange.TRUMP:
            return game.trump is not None
        if self.exchange is Exchange.TRUMP_AND_NO_TRUMP:
            return game is not Contract.NO_TRICKS
        return False

    def target(self, role: Role) -> int:
        """Tricks ``role`` must take in trump and no-trump games."""
        return self.targets[role]

    def limit(self, role: Role) -> int:
        """Most tricks ``role`` may take in no-tricks: the targets the other way round."""
        return self.targets[2 - role]

    def score(self, role: Role, contract: Contract, tricks: int) -> int:
        """The deal score for taking ``tricks`` tricks in ``role``."""
        if contract is Contract.NO_TRICKS:
            return self.limit(role) - tricks
        return tricks - self.target(role)

    # ------------------------------------------------------------------ names and text

    @property
    def preset(self) -> str | None:
        """The name of the preset these rules are (whatever the length), else None."""
        for name, rules in PRESETS.items():
            if dataclasses.replace(rules, length=self.length) == self:
                return name
        return None

    @property
    def label(self) -> str:
        """The preset's name, or ``custom``."""
        return self.preset or "custom"

    @classmethod
    def named(cls, name: str, length: int | None = None, **options: Any) -> Rules:
        """A preset (``house``, ``kurnik``, ``sergeant-major``, ``9-5-2``) with ``length``
        deals (None: the preset's) and ``options`` changed (values or their text, as
        :meth:`with_options`); RulesError (one line) for a name or a combination that is
        not a rule set."""
        key = name.strip().lower()
        if key not in PRESETS:
            raise RulesError(f"no rules {quote(name)} (one of {', '.join(PRESETS)})")
        rules = PRESETS[key]
        if length is not None:
            options["length"] = length
        return rules.with_options(options) if options else rules

    def with_options(self, options: dict[str, Any]) -> Rules:
        """These rules with ``options`` changed: values, or text as the command line and
        files write them (``talon="unseen"``, ``targets="9-5-2"``, ``repeat="yes"``)."""
        fields = {f.name for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = key.strip().lower().replace("-", "_")
            if name not in fields:
                raise RulesError(
                    f"no rule option {quote(key)} (one of {', '.join(sorted(fields))})"
                )
            changes[name] = _option_value(name, value)
        return dataclasses.replace(self, **changes)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules from text: a preset's name, then options, comma-separated:
        ``sergeant-major``, ``house,talon=unseen``, ``9-5-2,end=target,target_score=12``.

        >>> Rules.parse("sergeant-major,length=9").first_leader
        <Role.THIRD: 1>
        """
        name, *rest = text.split(",")
        options: dict[str, Any] = {}
        for item in rest:
            key, sep, value = item.partition("=")
            if not sep:
                raise RulesError(f"write a rule option as name=value, not {quote(item.strip())}")
            options[key] = value.strip()
        return cls.named(name, **options)

    def to_json(self) -> dict[str, Any]:
        """The options as the ``rules`` object of saves and match records (the length is
        stored beside it, as ``length``): the three options of the first formats always
        (``exchange`` a yes/no while it is one of those two), any other only when it is not
        the house rules', so files of the house and Kurnik rules read as they always did."""
        house = PRESETS["house"]
        exchange = self.exchange
        out: dict[str, Any] = {
            "void": self.void.label,
            "exchange": exchange.label
            if exchange not in (Exchange.NONE, Exchange.TRUMP)
            else exchange is Exchange.TRUMP,
            "exchange_trumps": self.exchange_trumps,
        }
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in out or f.name == "length" or value == getattr(house, f.name):
                continue
            out[f.name] = (
                value.label
                if isinstance(value, _Labelled)
                else (list(value) if isinstance(value, tuple) else value)
            )
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], length: int) -> Rules:
        """Rules from :meth:`to_json`'s object; options an older file lacks are the house
        rules'. RulesError (one line) for an unknown key or a bad value."""
        fields = {f.name for f in dataclasses.fields(cls)} - {"length"}
        unknown = set(data) - fields
        if unknown:
            raise RulesError(f"no rule option {quote(sorted(unknown)[0])}")
        options = dict(data)
        if not isinstance(options.get("exchange", True), (bool, str)):
            raise RulesError(f"exchange: yes, no or a time, not {quote(options['exchange'])}")
        if isinstance(options.get("targets"), list):
            options["targets"] = tuple(options["targets"])
        try:
            return cls(**options, length=length)
        except TypeError as exc:  # pragma: no cover - the keys are checked above
            raise RulesError(str(exc)) from None


def _option_value(name: str, value: Any) -> Any:
    """An option's value from its text (values that are not text are taken as they are)."""
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if name in _OPTION_TYPES:
        if name == "exchange" and text in ("yes", "no", "true", "false"):
            return text in ("yes", "true")
        return text
    if name in ("exchange_trumps", "repeat"):
        if text in ("yes", "true", "1", "on"):
            return True
        if text in ("no", "false", "0", "off"):
            return False
        raise RulesError(f"{name}: yes or no, not {quote(value)}")
    if name == "targets":
        parts = text.replace("/", "-").split("-")
        if all(p.isdigit() for p in parts):
            return tuple(int(p) for p in parts)
        raise RulesError(f"targets: three numbers such as 8-5-3, not {quote(value)}")
    try:
        return int(text)
    except ValueError:
        raise RulesError(f"{name}: a number, not {quote(value)}") from None


PRESETS: dict[str, Rules] = {
    "house": Rules(),
    "kurnik": Rules(void=VoidRule.KURNIK, exchange_trumps=False),
    "sergeant-major": Rules(
        void=VoidRule.KURNIK,
        exchange=Exchange.BEFORE_CHOICE,
        exchange_order=ExchangeOrder.MOST_UP,
        length=18,
        top=Top.DEALER,
        sees=HAND_SIZE,
        games=Games.SUITS,
        repeat=True,
        talon=Talon.DISCARD_FIRST,
        first_lead=FirstLead.LEFT,
        end=MatchEnd.TWELVE_TRICKS,
    ),
}
PRESETS["9-5-2"] = dataclasses.replace(PRESETS["sergeant-major"], targets=(9, 5, 2))
