"""Local statistics of finished matches and the leaderboard (result = total x 10).

Everything lives in the user data directory, :func:`data_dir`: ``platformdirs``'
``user_data_dir("ts358")``, or the directory named by the environment variable
``TS358_HOME`` (tests point it at a temporary directory). Saves go to ``saves/`` there,
finished matches to ``stats.jsonl``: one JSON object per line, appended, so a damaged line
costs only that match (it is skipped with a warning, never a crash).

A match enters the statistics once (by its id) when it ends; the leaderboard lists the won
matches (first place, shared or not) by result = total x 10
(docs/rules.md#statistics-and-the-leaderboard).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ts358._input import parse_json

__all__ = [
    "HOME_ENV",
    "HistorySummary",
    "MatchEntry",
    "data_dir",
    "entry_from_match",
    "leaderboard",
    "load_entries",
    "record_match",
    "saves_dir",
    "stats_path",
    "summarize_history",
]

HOME_ENV = "TS358_HOME"


def data_dir() -> Path:
    """The user data directory of ts358 (``$TS358_HOME`` if set)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("ts358", appauthor=False))


def saves_dir() -> Path:
    return data_dir() / "saves"


def stats_path() -> Path:
    return data_dir() / "stats.jsonl"


@dataclasses.dataclass(frozen=True)
class MatchEntry:
    """One finished match as the statistics keep it (all from the human's seat).

    Attributes:
        id: the match id (see :func:`ts358.table.saves.new_id`).
        finished: ISO date and time the match ended.
        level: the computer players' level.
        deals: deals in the match (3, 6, 9, 18).
        rules: ``house`` or ``kurnik``.
        seed: the match seed.
        total: the human's total.
        place: the human's place (1 = first, shared or not).
        chosen: (game label, score) for each deal the human chose the game in.
    """

    id: str
    finished: str
    level: str
    deals: int
    rules: str
    seed: int
    total: int
    place: int
    chosen: tuple[tuple[str, int], ...] = ()

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def result(self) -> int:
        """The leaderboard result: total x 10."""
        return self.total * 10

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["chosen"] = [list(c) for c in self.chosen]
        return data

    @classmethod
    def from_json(cls, data: Any) -> MatchEntry:
        """ValueError if ``data`` is not an entry."""
        if not isinstance(data, dict):
            raise ValueError("not an object")
        kinds = {
            "id": str,
            "finished": str,
            "level": str,
            "deals": int,
            "rules": str,
            "seed": int,
            "total": int,
            "place": int,
        }
        for key, kind in kinds.items():
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise ValueError(f"key {key!r} missing or of the wrong type")
        chosen_raw = data.get("chosen", [])
        if not isinstance(chosen_raw, list):
            raise ValueError("key 'chosen' must be a list")
        chosen = []
        for item in chosen_raw:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], int)
            ):
                raise ValueError("key 'chosen' holds [game, score] pairs")
            chosen.append((item[0], item[1]))
        return cls(**{k: data[k] for k in kinds}, chosen=tuple(chosen))


def entry_from_match(
    match: Any, match_id: str, seat: int, level: str, now: _dt.datetime | None = None
) -> MatchEntry:
    """The statistics entry of a finished :class:`~ts358.match.Match` for ``seat``."""
    if not match.done:
        raise ValueError("the match is not finished")
    now = now or _dt.datetime.now().astimezone()
    chosen = tuple((r.game.label, r.scores[seat]) for r in match.results if r.chooser == seat)
    return MatchEntry(
        id=match_id,
        finished=now.isoformat(timespec="seconds"),
        level=level,
        deals=match.rules.length,
        rules=match.rules.void.label,
        seed=match.seed if match.seed is not None else 0,
        total=match.totals[seat],
        place=match.standings()[seat],
        chosen=chosen,
    )


def load_entries(path: Path | None = None) -> tuple[list[MatchEntry], int]:
    """The entries of the statistics file (each id once, the first kept) and how many
    damaged lines were skipped. A missing file is no entries."""
    path = path or stats_path()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return [], 0
    entries: list[MatchEntry] = []
    seen: set[str] = set()
    bad = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = MatchEntry.from_json(parse_json(line))
        except ValueError:  # json.JSONDecodeError and InputError are ValueErrors
            bad += 1
            continue
        if entry.id not in seen:
            seen.add(entry.id)
            entries.append(entry)
    return entries, bad


def record_match(entry: MatchEntry, path: Path | None = None) -> bool:
    """Append ``entry`` to the statistics unless its id is already there; True if added."""
    path = path or stats_path()
    entries, _ = load_entries(path)
    if any(e.id == entry.id for e in entries):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(entry.to_json(), ensure_ascii=False) + "\n"
    # Start on a fresh line even if the last write was cut short.
    prefix = ""
    if path.exists() and path.stat().st_size:
        with open(path, "rb") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                prefix = "\n"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(prefix + line)
        handle.flush()
        os.fsync(handle.fileno())
    return True


@dataclasses.dataclass(frozen=True)
class LevelSummary:
    level: str
    played: int
    won: int
    average_total: float
    best_total: int


@dataclasses.dataclass(frozen=True)
class HistorySummary:
    """Statistics over finished matches.

    Attributes:
        played, won: matches played and won (first place, shared or not).
        average_total: mean total per match (0.0 with no match).
        best_total: the highest total (None with no match).
        by_level: the same per level, levels in the order easy, medium, hard, others.
        games: per game label: (times chosen, times made, i.e. score >= 0).
    """

    played: int
    won: int
    average_total: float
    best_total: int | None
    by_level: tuple[LevelSummary, ...]
    games: dict[str, tuple[int, int]]

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


_LEVEL_ORDER = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}


def summarize_history(entries: Sequence[MatchEntry]) -> HistorySummary:
    """The statistics of ``entries``."""
    by_level = []
    for level in sorted({e.level for e in entries}, key=lambda lv: (_LEVEL_ORDER.get(lv, 9), lv)):
        group = [e for e in entries if e.level == level]
        by_level.append(
            LevelSummary(
                level,
                len(group),
                sum(e.won for e in group),
                sum(e.total for e in group) / len(group),
                max(e.total for e in group),
            )
        )
    games: dict[str, tuple[int, int]] = {}
    for entry in entries:
        for game, score in entry.chosen:
            chosen, made = games.get(game, (0, 0))
            games[game] = (chosen + 1, made + (score >= 0))
    return HistorySummary(
        played=len(entries),
        won=sum(e.won for e in entries),
        average_total=sum(e.total for e in entries) / len(entries) if entries else 0.0,
        best_total=max((e.total for e in entries), default=None),
        by_level=tuple(by_level),
        games=games,
    )


def leaderboard(entries: Iterable[MatchEntry], size: int = 10) -> list[MatchEntry]:
    """The won matches, best result first (earlier first among equal results)."""
    won = [e for e in entries if e.won]
    won.sort(key=lambda e: (-e.result, e.finished))
    return won[:size]
