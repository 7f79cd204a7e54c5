"""Saved matches (format ``ts358-save/2``): a match in progress, written as it is played
and resumed exactly where it stopped (mid-deal too). A ``ts358-save/1`` file is the same but
for its seed, which made the deals the earlier way (:class:`~ts358.match.Match`
``seeding=1``); it is resumed, and saved again, as ``/1``.

A match is a pure function of its rules, seed and the decisions applied
(:meth:`ts358.match.Match.snapshot`), so a save holds just those plus the settings of the
session (which seat is the human, the computer players' level, and the options of ``ts358
play`` it was played with: :class:`PlaySettings`, an optional ``settings`` object that older
saves lack and that older versions ignore). Loading replays every
decision on a fresh engine, so a save is accepted exactly when it describes a reachable
match state; anything else (not JSON, truncated, another format, a decision the rules
reject, totals that don't match) raises :class:`SaveError` with a one-line reason.

Durability: the session rewrites the whole save after each human decision, before the
computer players think (:mod:`ts358.terminal.play` says exactly when). Each write is atomic
and synced: the JSON goes to a temporary file in the same directory, is flushed and
``fsync``-ed, renamed over the target with :func:`os.replace`, and the directory is synced,
so whatever happens to the process (kill -9, a power cut once the write has returned) the
file is the previous save or the new one, never a mix. An append-only journal would write
fewer bytes and sync once instead of twice (file and directory), but a save is small (about
8 KB at the end of an 18-deal match), so a rewrite costs about a millisecond, which no one
typing an answer notices; in return a save stays one complete file in one format, with no
journal tail to replay, no torn last line to repair and nothing to compact, and copying it
copies the match.

Ownership: a process plays a save only while it holds the save's :class:`SaveLock`, an OS
lock that the OS drops when the process ends however it ends, so two processes never write
one save and a killed one never blocks it. :func:`claim_save` picks the file of a new match
under that lock, so two matches started in the same second with the same seed get two
files.

Example file::

    {"format": "ts358-save/2", "id": "20260101-120000-42", "saved": "2026-01-01T12:03:00+00:00",
     "rules": {"void": "house", "exchange": true, "exchange_trumps": true}, "length": 6,
     "seed": 42, "players": ["You", "Left", "Right"], "human": 0, "level": "medium",
     "settings": {"lang": "pl", "ascii": false, "analysis": true, "analysis_seconds": 10.0,
                  "pace": 0.8},
     "deals_finished": 1, "totals": [2, -1, -1], "finished": false,
     "decisions": ["hearts", "2C 3C 4D 5D", "AH", "..."]}
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TypeVar

from ts358._input import InputError, number, parse_json, quote, read_input
from ts358._jsonfields import field, rules_field
from ts358.deal import IllegalDecision
from ts358.match import Match
from ts358.table.texts import LANGUAGES

__all__ = [
    "DEFAULT_ANALYSIS_SECONDS",
    "DEFAULT_PACE",
    "FORMAT",
    "MAX_ANALYSIS_SECONDS",
    "MAX_PACE",
    "PlaySettings",
    "SaveError",
    "SaveInUse",
    "SaveLock",
    "SavedMatch",
    "WriteError",
    "claim_save",
    "from_json",
    "new_id",
    "open_save",
    "read_save",
    "remove_stale_temporaries",
    "save",
    "save_files",
    "to_json",
    "write_save",
]

FORMAT = "ts358-save/2"
_FORMATS = {1: "ts358-save/1", 2: FORMAT}  # by the match's seeding

T = TypeVar("T")


class SaveError(ValueError):
    """A save file that can't be used; the message says why in one line."""


class WriteError(RuntimeError):
    """A save or a record that can't be written; the message says which file and why."""


class SaveInUse(SaveError):
    """The save is being played by another process (which holds its :class:`SaveLock`)."""


DEFAULT_ANALYSIS_SECONDS = 10.0
"""The time budget of the review after each deal unless ``--analysis-time`` says otherwise."""
MAX_ANALYSIS_SECONDS = 1e6
"""The longest review budget a save (and ``--analysis-time``) takes: 11 days, a typo."""
DEFAULT_PACE = 0.8
"""Seconds between the computer players' cards at a browser table unless it is told
otherwise (the terminal shows each card as it is played)."""
MAX_PACE = 5.0
"""The slowest pace of the computer players' cards, in seconds."""


@dataclasses.dataclass
class PlaySettings:
    """The options of ``ts358 play`` that shape a session, kept in its save so that a
    resumed match is played as it was started (an option given again changes it). Not the
    record file: a save copied from elsewhere must not choose where this process writes.

    Attributes:
        lang: the language of the texts (en, pl or cs); None: the locale's.
        ascii: suits written as letters even where symbols can be shown.
        analysis: the double-dummy review after each deal.
        analysis_seconds: the time budget of each review.
        pace: seconds between the computer players' cards at a browser table.
    """

    lang: str | None = None
    ascii: bool = False
    analysis: bool = True
    analysis_seconds: float = DEFAULT_ANALYSIS_SECONDS
    pace: float = DEFAULT_PACE

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> PlaySettings:
        """The settings of a save's ``settings`` object; a key left out (a save from an
        older version has none) is the default. SaveError if a value is not one the
        options take."""
        if not isinstance(data, dict):
            raise SaveError(f"key 'settings' must be an object, not {quote(data)}")
        default = cls()
        lang = data.get("lang", default.lang)
        if lang is not None and lang not in LANGUAGES:
            raise SaveError(
                f"settings: key 'lang' must be {', '.join(LANGUAGES)} or null, not {quote(lang)}"
            )
        return cls(
            lang=lang,
            ascii=_flag(data, "ascii", default.ascii),
            analysis=_flag(data, "analysis", default.analysis),
            analysis_seconds=_seconds(data, "analysis_seconds", MAX_ANALYSIS_SECONDS, default),
            pace=_seconds(data, "pace", MAX_PACE, default),
        )


def _seconds(settings: dict[str, Any], key: str, high: float, default: PlaySettings) -> float:
    try:
        return float(number(settings.get(key, getattr(default, key)), 0, high, unit="seconds"))
    except InputError as exc:
        raise SaveError(f"settings: key {key!r} {exc}") from None


def _flag(settings: dict[str, Any], key: str, default: bool) -> bool:
    if key not in settings:
        return default
    return field(settings, key, bool, "settings", SaveError)


@dataclasses.dataclass
class SavedMatch:
    """A match with the settings of the session playing it.

    Attributes:
        match: the engine, in the state saved.
        id: a stable identifier of the match (statistics use it to count a match once).
        human: the human's seat, or None when computer players play every seat.
        level: the computer players' level (easy, medium, hard).
        settings: the options the match is played with.
    """

    match: Match
    id: str
    human: int | None = 0
    level: str = "medium"
    settings: PlaySettings = dataclasses.field(default_factory=PlaySettings)


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
        "format": _FORMATS[match.seeding],
        "id": saved.id,
        "saved": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "rules": rules.to_json(),
        "length": rules.length,
        "seed": match.seed,
        "players": list(match.names),
        "human": saved.human,
        "level": saved.level,
        "settings": saved.settings.to_json(),
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
    seeding = next((s for s, name in _FORMATS.items() if name == fmt), None)
    if seeding is None:
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
    settings = PlaySettings.from_json(data.get("settings", {}))
    match_id = _need(data, "id", str)
    decisions = _need(data, "decisions", list)
    try:
        match = Match(rules, seed, names, seeding=seeding)
    except ValueError as exc:
        raise SaveError(f"key 'players': {exc}") from None
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
    return SavedMatch(match, match_id, human, level, settings)


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
    _sync_directory(path.parent)
    return path


def save(saved: SavedMatch, path: Path) -> None:
    """Write ``saved`` to ``path`` (:func:`write_save`); WriteError (one line) if it can't
    be written."""
    try:
        write_save(path, saved)
    except OSError as exc:
        raise WriteError(f"can't save the match to {path}: {exc.strerror or exc}") from None


def _sync_directory(folder: Path) -> None:
    # The rename is an entry of the directory: until the directory is synced, a power cut
    # can bring back the previous save. Windows can't open a directory this way, and some
    # network and FUSE file systems refuse to sync one; the new save is in place regardless.
    if sys.platform == "win32":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:  # the first byte of the file; locking past its end is allowed
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


class SaveLock:
    """This process's ownership of the save at ``path``: an exclusive OS lock
    (``fcntl.flock``; on Windows ``msvcrt.locking``) on the file ``.<name>.lock`` next to
    it. The lock is on that file rather than the save because every write replaces the
    save's file (:func:`write_save`). The OS drops the lock when the process ends, however
    it ends, so a lock never outlives its owner; the file is removed on :meth:`release`
    (a killed owner leaves it, and the next owner takes it over).

    Raises SaveInUse when another process holds the lock, OSError when the lock file
    can't be created (e.g. a folder that can't be written). A context manager.
    """

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        self.path = path.with_name(f".{path.name}.lock")
        self._fd: int | None = None
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if not _try_lock(fd):
                os.close(fd)
                raise SaveInUse(f"{path}: this match is being played by another ts358 process")
            # The owner before us may have removed the file between our open and our lock:
            # the lock is worth something only on the file the path still names.
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            if current is not None and os.path.samestat(os.fstat(fd), current):
                self._fd = fd
                return
            os.close(fd)

    def release(self) -> None:
        """Give the save up (again: nothing)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if sys.platform == "win32":
            # Windows removes no open file: if another process has opened it since we
            # closed it, the removal fails and the file stays for that process.
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        else:
            # Removed while still locked, so that a process that opened it meanwhile finds
            # it gone once it gets the lock, and starts again on a new file.
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(fd)

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def claim_save(folder: str | Path, saved: SavedMatch) -> tuple[Path, SaveLock]:
    """The file of a new match in ``folder`` (created if needed), locked by this process
    (the match is not written yet): ``<id>.json``, or ``<id>-2.json``, ``<id>-3.json`` ...
    when that is taken (two matches with one seed started in the same second), ``saved.id``
    following. Taken means that the file exists or that another process has claimed it:
    every process writing a save holds its lock, so nothing can create the file while we
    hold it. OSError if the folder can't be written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(folder)
    base, n = saved.id, 1
    while True:
        match_id = base if n == 1 else f"{base}-{n}"
        n += 1
        path = folder / f"{match_id}.json"
        try:
            lock = SaveLock(path)
        except SaveInUse:
            continue
        if os.path.lexists(path):
            lock.release()
            continue
        saved.id = match_id
        return path, lock


def remove_stale_temporaries(folder: str | Path) -> list[Path]:
    """Remove from ``folder`` the temporary files that writes of saves left behind when
    their process was killed between writing and renaming (:func:`write_save`); returns
    those removed. A temporary file is stale when its save's lock is free: every process
    writes a save only while it holds that lock, so a write still going on keeps its file."""
    removed = []
    for tmp in Path(folder).glob(".*.json.*.tmp"):
        save = tmp.with_name(tmp.name[1:].split(".json.", 1)[0] + ".json")
        try:
            with SaveLock(save):
                tmp.unlink()
        except (SaveInUse, OSError):  # being written, or already gone, or not ours to remove
            continue
        removed.append(tmp)
    return removed


def save_files(folder: str | Path) -> list[Path]:
    """The saves in ``folder``, newest first (none if it does not exist); the stale
    temporary files of interrupted writes are removed on the way
    (:func:`remove_stale_temporaries`)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    remove_stale_temporaries(folder)
    found = []
    for path in folder.glob("*.json"):
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:  # e.g. a symbolic link to a file that is gone: not a save
            continue
    return [path for _, path in sorted(found, reverse=True)]


def open_save(path: str | Path) -> tuple[SavedMatch, SaveLock]:
    """The save at ``path`` (:func:`read_save`) and its lock, taken first, so that what is
    read is what this process alone will write. SaveError if another process plays it
    (SaveInUse), if its folder can't be written or if the save is not valid (the lock is
    then released)."""
    try:
        lock = SaveLock(path)
    except OSError as exc:
        if not os.path.lexists(path):  # no folder, so no save: that is the error to report
            read_save(path)
        raise SaveError(f"{path}: can't lock the save for writing: {exc.strerror or exc}") from None
    try:
        return read_save(path), lock
    except BaseException:
        lock.release()
        raise
