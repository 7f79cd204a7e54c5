"""Player specifications: a level and its settings in one short text, as the arena takes them.

``hard`` is the hard player with its default :class:`~ts358.players.sampling.Effort`;
``hard:layouts=48:nodes=12000000`` the same player sampling 48 layouts for every decision
with a budget of 12 million solver nodes per decision. The settings are what makes
strength against thinking time measurable in a duplicate arena
(``ts358 arena --players hard:layouts=48,hard,medium``).

Settings, each ``name=whole number``, separated by ``:``:

- ``layouts``: the layouts of every decision kind (play early and late, game choice,
  discard, the advice on a give);
- ``nodes``: the node budget per decision (``node_budget``);
- any field of :class:`Effort` by its name (``play_early``, ``play_late``, ``late_from``,
  ``choose``, ``discard``, ``discard_candidates``, ``give``, ``node_budget``), applied after
  ``layouts`` and ``nodes`` whatever the order written;
- ``threads``: the player's solver threads (unless given, the caller's choice, else 1 for
  hard and 2 for expert);
- ``inference`` (expert only): 1 (the default) to weight layouts by what the other seats
  did, 0 to count them all alike;
- ``solver_choice``, ``solver_discard`` (expert only): 1 (the default) to value the game
  choice, the discard, by the solver; 0 to value it by rule-of-thumb play-outs of the same
  layouts, as the hard player does when it can solve none (to measure what the solver adds);
- ``solver_exchange`` (expert only): 1 (the default) to decide the gives and the returns
  for a trump received by the solver; 0 to make them by rule of thumb, as the hard player.

``hard`` and ``expert`` take settings, each starting from its own default effort
(:data:`~ts358.players.expert.EXPERT_EFFORT` for the expert); ``easy`` and ``medium`` have
none to set.

>>> spec = PlayerSpec.parse("hard:nodes=6000000:layouts=48")
>>> str(spec)
'hard:layouts=48:nodes=6000000'
>>> spec.effort().play_late, spec.effort().node_budget
(48, 6000000)
>>> PlayerSpec.parse("medium:layouts=4")
Traceback (most recent call last):
...
ValueError: medium takes no settings, not 'medium:layouts=4'
"""

from __future__ import annotations

import dataclasses

from ts358._input import quote
from ts358.players.base import Player
from ts358.players.expert import EXPERT_EFFORT, ExpertPlayer
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.random import RandomPlayer
from ts358.players.sampling import Effort, SamplingPlayer

__all__ = ["LEVELS", "SETTINGS", "PlayerSpec", "make_player"]

LEVELS = ("easy", "medium", "hard", "expert")

# The levels that search: their default effort and threads.
_SEARCHERS = {"hard": (Effort(), 1), "expert": (EXPERT_EFFORT, 2)}
_EFFORT_FIELDS = tuple(f.name for f in dataclasses.fields(Effort))
_LAYOUT_FIELDS = ("play_early", "play_late", "choose", "discard", "give")
_GROUPS = {"layouts": _LAYOUT_FIELDS, "nodes": ("node_budget",)}
_EXPERT_ONLY = {
    "inference": 1,
    "solver_choice": 1,
    "solver_discard": 1,
    "solver_exchange": 1,
}
"""The expert's own settings, by their default values."""
SETTINGS = ("layouts", "nodes", "threads", *_EXPERT_ONLY, *_EFFORT_FIELDS)
"""The names of the settings of ``hard`` and ``expert``, in their written order."""

_LIMITS = {
    "node_budget": 10**12,
    "nodes": 10**12,
    "threads": 256,
    "inference": 1,
    "solver_choice": 1,
    "solver_discard": 1,
    "solver_exchange": 1,
}
_MAX_SETTING = 100_000  # layouts, candidates, cards: anything larger is a typo


@dataclasses.dataclass(frozen=True)
class PlayerSpec:
    """A computer player's level and settings, as parsed from ``level[:name=value...]``.

    Attributes:
        level: one of :data:`LEVELS`.
        settings: ``(name, value)`` pairs in the order of :data:`SETTINGS`, each name once.
    """

    level: str
    settings: tuple[tuple[str, int], ...] = ()

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """The specification written as ``text``; ValueError, quoting it, if it is not one."""
        level, *parts = text.strip().lower().split(":")
        level = level.strip()
        if level not in LEVELS:
            raise ValueError(f"not a level: {quote(level)} (one of {', '.join(LEVELS)})")
        if parts and level not in _SEARCHERS:
            raise ValueError(f"{level} takes no settings, not {quote(text)}")
        values: dict[str, int] = {}
        for part in parts:
            name, sep, value = (s.strip() for s in part.partition("="))
            if not sep or not name:
                raise ValueError(f"a setting is name=value, not {quote(part)} in {quote(text)}")
            if name not in SETTINGS:
                raise ValueError(
                    f"not a setting of {level}: {quote(name)} (one of {', '.join(_own(level))})"
                )
            if name in values:
                raise ValueError(f"{name} is set twice in {quote(text)}")
            if name in _EXPERT_ONLY and level != "expert":
                raise ValueError(f"{name} is a setting of expert only, not of {level}")
            values[name] = _whole(name, value)
        return cls(level, tuple((n, values[n]) for n in SETTINGS if n in values))

    def __str__(self) -> str:
        return ":".join([self.level, *(f"{n}={v}" for n, v in self.settings)])

    def effort(self) -> Effort:
        """The :class:`Effort` the settings give (the level's defaults where none is set;
        :class:`Effort`'s own for a level that does not search)."""
        changes: dict[str, int] = {}
        for name, value in self.settings:
            for field in _GROUPS.get(name, (name,) if name in _EFFORT_FIELDS else ()):
                changes[field] = value
        base = _SEARCHERS[self.level][0] if self.level in _SEARCHERS else Effort()
        return dataclasses.replace(base, **changes)

    def threads(self, default: int | None = None) -> int:
        """The ``threads`` setting; where it is not set, ``default``, else the level's own
        (1 for a level that does not search)."""
        own = _SEARCHERS[self.level][1] if self.level in _SEARCHERS else 1
        return dict(self.settings).get("threads", default or own)

    def described(self) -> dict[str, int]:
        """Every setting the player has, given or by default: its :class:`Effort`'s fields,
        ``threads`` and, for the expert, its own settings (as the arena's results record
        them)."""
        out = dataclasses.asdict(self.effort()) | {"threads": self.threads()}
        if self.level == "expert":
            out |= {name: dict(self.settings).get(name, v) for name, v in _EXPERT_ONLY.items()}
        return out

    def make(self, seed: int | None = None, *, threads: int | None = None) -> Player:
        """A new player of this specification; ``threads`` stands where the text sets none."""
        if self.level == "easy":
            return RandomPlayer(seed)
        if self.level == "medium":
            return HeuristicPlayer()
        effort, count = self.effort(), self.threads(threads)
        if self.level == "expert":
            own = _EXPERT_ONLY | dict(self.settings)
            return ExpertPlayer(
                seed,
                effort,
                threads=count,
                inference=bool(own["inference"]),
                solver_choice=bool(own["solver_choice"]),
                solver_discard=bool(own["solver_discard"]),
                solver_exchange=bool(own["solver_exchange"]),
            )
        return SamplingPlayer(seed, effort, threads=count)


def _own(level: str) -> list[str]:
    return [n for n in SETTINGS if level == "expert" or n not in _EXPERT_ONLY]


def _whole(name: str, text: str) -> int:
    least = 0 if name in _EXPERT_ONLY else 1
    limit = _LIMITS.get(name, _MAX_SETTING)
    try:
        value = int(text, 10)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {quote(text)}") from None
    if not least <= value <= limit:
        raise ValueError(f"{name} must be from {least} to {limit:,}, not {value:,}")
    return value


def make_player(
    spec: str | PlayerSpec, seed: int | None = None, *, threads: int | None = None
) -> Player:
    """The computer player of a level, or of a specification such as ``hard:layouts=48``.

    ``easy`` plays random legal cards; ``medium`` plays by rule of thumb; ``hard`` samples
    the hidden cards and solves each layout double dummy (:class:`SamplingPlayer`);
    ``expert`` does the same with the solver deciding every decision kind
    (:class:`~ts358.players.expert.ExpertPlayer`). Those two think on ``threads`` threads
    unless the specification sets its own; by default hard on one (the arena and ``ts358
    analyze`` run one player per worker process, and the arena's measurements stay
    comparable) and expert on two. Their decisions depend on the thread count; the other
    levels use none and ignore it. ValueError for a text that is not a specification (see
    the module).
    """
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads!r}")
    parsed = spec if isinstance(spec, PlayerSpec) else PlayerSpec.parse(spec)
    return parsed.make(seed, threads=threads)
