"""Saved matches (format ``ts358-save/1``): a match in progress, written after every deal and
on quit or Ctrl-C, and resumed exactly where it stopped (mid-deal too).

A match is a pure function of its rules, seed and the decisions applied
(:meth:`ts358.match.Match.snapshot`), so a save holds just those plus the settings of the
session (which seat is the human, the computer players' level). Loading replays every
decision on a fresh engine, so a save is accepted exactly when it describes a reachable
match state; anything else (not JSON, truncated, another format, a decision the rules
reject, totals that don't match) raises :class:`SaveError` with a one-line reason.

Writes are atomic: the JSON goes to a temporary file in the same directory, is flushed to
disk, then renamed over the target with :func:`os.replace`, so a crash mid-write leaves the
previous save intact.

Example file::

    {"format": "ts358-save/1", "id": "20260101-120000-42", "saved": "2026-01-01T12:03:00+00:00",
     "rules": {"void": "house", "exchange": true, "exchange_trumps": true}, "length": 6,
     "seed": 42, "players": ["You", "Left", "Right"], "human": 0, "level": "medium",
     "deals_finished": 1, "totals": [2, -1, -1], "finished": false,
     "decisions": ["hearts", "2C 3C 4D 5D", "AH", "..."]}
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import json
import os
import tempfile
from pathlib import Path
from typing import Any, TypeVar

from ts358._input import InputError, parse_json, quote, read_input
from ts358._jsonfields import field, rules_field
from ts358.deal import IllegalDecision
from ts358.match import Match

__all__ = [
    "FORMAT",
    "SaveError",
    "SavedMatch",
    "from_json",
    "new_id",
    "read_save",
    "to_json",
    "write_save",
]

FORMAT = "ts358-save/1"

T = TypeVar("T")


class SaveError(ValueError):
    """A save file that can't be used; the message says why in one line."""


@dataclasses.dataclass
class SavedMatch:
    """A match with the settings of the session playing it.

    Attributes:
        match: the engine, in the state saved.
        id: a stable identifier of the match (statistics use it to count a match once).
        human: the human's seat, or None when computer players play every seat.
        level: the computer players' level (easy, medium, hard).
    """

    match: Match
    id: str
    human: int | None = 0
    level: str = "medium"


def new_id(seed: int, now: _dt.datetime | None = None) -> str:
    """An identifier from the time and the seed: ``20260101-120000-42``."""
    now = now or _dt.datetime.now()
    return f"{now:%Y%m%d-%H%M%S}-{seed}"


def to_json(saved: SavedMatch) -> dict[str, Any]:
    """The save as JSON-ready data."""
    match = saved.match
    if match.seed is None:
        raise ValueError("only a seeded match can be saved")
    snap = match.snapshot()
    rules = match.rules
    return {
        "format": FORMAT,
        "id": saved.id,
        "saved": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "rules": rules.to_json(),
        "length": rules.length,
        "seed": match.seed,
        "players": list(match.names),
        "human": saved.human,
        "level": saved.level,
        "deals_finished": len(match.results),
        "totals": list(match.totals),
        "finished": match.done,
        "decisions": list(snap.decisions),
    }


def _need(data: dict[str, Any], key: str, kind: type[T]) -> T:
    return field(data, key, kind, "", SaveError)


def from_json(data: Any) -> SavedMatch:
    """The match a save describes, replayed and checked; SaveError if it is not a valid save."""
    if not isinstance(data, dict):
        raise SaveError("not a ts358 save (expected a JSON object)")
    fmt = data.get("format")
    if fmt != FORMAT:
        if isinstance(fmt, str) and fmt.startswith("ts358-match/"):
            raise SaveError(f"this is a match record ({fmt}), not a saved match")
        raise SaveError(f"not a ts358 save (format {quote(fmt)}, expected {FORMAT!r})")
    rules = rules_field(data, "", SaveError)
    seed = _need(data, "seed", int)
    names = _need(data, "players", list)
    if len(names) != 3 or not all(isinstance(n, str) for n in names):
        raise SaveError("key 'players' must list three names")
    human = data.get("human", 0)
    if human is not None and (
        not isinstance(human, int) or isinstance(human, bool) or human not in (0, 1, 2)
    ):
        raise SaveError(f"key 'human' must be a seat 0-2 or null, not {quote(human)}")
    level = _need(data, "level", str)
    match_id = _need(data, "id", str)
    decisions = _need(data, "decisions", list)
    match = Match(rules, seed, names)
    for index, decision in enumerate(decisions, 1):
        if not isinstance(decision, str):
            raise SaveError(f"decision {index}: not text ({quote(decision)})")
        try:
            match.apply(decision)
        except IllegalDecision as exc:
            raise SaveError(f"decision {index} (deal {match.number}): {exc}") from None
    finished = _need(data, "deals_finished", int)
    if finished != len(match.results):
        raise SaveError(
            f"key 'deals_finished' is {quote(finished)}, the decisions finish "
            f"{len(match.results)} deals"
        )
    totals = _need(data, "totals", list)
    if totals != list(match.totals):
        raise SaveError(
            f"key 'totals' is {quote(totals)}, the decisions give {quote(list(match.totals))}"
        )
    return SavedMatch(match, match_id, human, level)


def write_save(path: str | Path, saved: SavedMatch) -> Path:
    """Write ``saved`` to ``path`` atomically (temporary file + :func:`os.replace`); the
    directory is created if needed. Returns the path. OSError if it can't be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(to_json(saved), ensure_ascii=False, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def read_save(path: str | Path) -> SavedMatch:
    """Load and check a save file; SaveError (message starting with the path) otherwise."""
    path = Path(path)
    try:
        text = read_input(path)
        if not text.strip():
            raise SaveError(f"{path}: the save file is empty")
        data = parse_json(text)
    except OSError as exc:
        raise SaveError(f"{path}: can't read the save: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a ts358 save (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path}: the save file is truncated or corrupt ({exc.msg} at line {exc.lineno})"
        ) from None
    except InputError as exc:
        raise SaveError(f"{path}: not a ts358 save ({exc})") from None
    try:
        return from_json(data)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None
