"""The tables of a server and what the start page offers: a new match, the saved matches to
resume, the statistics and the leaderboard, all on the files of ``ts358 play``
(:mod:`ts358.table.saves`, :mod:`ts358.table.history`).

A save played at a table is locked by the server's process (:class:`SaveLock`), as a
terminal session locks it, so the terminal and the browser never play one match at once;
it is released when the match ends or the server stops.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ts358._input import InputError, number, quote
from ts358.analysis.hints import HintService
from ts358.bots.remote import RemoteBot
from ts358.bots.seat import BotPlayer
from ts358.match import Match, clean_name, player_seed
from ts358.players import LEVELS, Player
from ts358.rules import MATCH_LENGTHS, Contract, Rules
from ts358.table.history import leaderboard, load_entries, saves_dir, summarize_history
from ts358.table.saves import (
    DEFAULT_ANALYSIS_SECONDS,
    DEFAULT_PACE,
    MAX_PACE,
    PlaySettings,
    SavedMatch,
    SaveError,
    SaveLock,
    WriteError,
    claim_save,
    new_id,
    open_save,
    read_save,
    save_files,
)
from ts358.table.seats import HUMAN_SEAT
from ts358.table.texts import LANGUAGES, Translator, game_name, t
from ts358.web.table import Table, default_names

__all__ = ["Lobby", "LobbyError", "MatchOptions"]

MAX_SAVES_LISTED = 30
"""The newest saves the start page lists."""

MAX_FORM_ANALYSIS_SECONDS = 3600.0
"""The longest review budget the start page takes."""

_log = logging.getLogger("ts358.web")
_SAVE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,99}")


def _saved_time(path: Path) -> str:
    """When ``path`` was last written, local time to the minute (``2026-12-05 08:26``)."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return path.stem
    return datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")


class LobbyError(ValueError):
    """A request of the start page that can't be done; the message says why in one line."""


def _choice(data: dict[str, Any], key: str, allowed: tuple[Any, ...], default: Any) -> Any:
    value = data.get(key, default)
    if value not in allowed or isinstance(value, bool):
        listed = ", ".join(str(a) for a in allowed)
        raise LobbyError(f"'{key}' must be one of {listed}, not {quote(value)}")
    return value


def _rules_text(data: dict[str, Any], deals: int) -> str:
    """The ``rules`` asked for: a preset, with options if wanted, that makes a rule set
    with ``deals`` deals."""
    value = data.get("rules", "house")
    if not isinstance(value, str) or len(value) > 300:
        raise LobbyError(f"'rules' must be a preset's name, not {quote(value)}")
    try:
        Rules.parse(value).with_options({"length": deals})
    except ValueError as exc:
        raise LobbyError(f"'rules': {exc}") from None
    return value


def _number(data: dict[str, Any], key: str, high: float, default: float) -> float:
    try:
        return float(number(data.get(key, default), 0, high, unit="seconds"))
    except InputError as exc:
        raise LobbyError(f"'{key}' {exc}") from None


@dataclasses.dataclass(frozen=True)
class MatchOptions:
    """A new match as the start page asks for it (the options of ``ts358 play``).

    Attributes:
        deals: 3, 6, 9 or 18.
        level: the computer players' level (one of :data:`~ts358.players.LEVELS`).
        rules: a preset (``house``, ``kurnik``, ``sergeant-major``, ``9-5-2``), with
            options changed if wanted (:meth:`Rules.parse <ts358.rules.Rules.parse>`:
            ``house,talon=unseen``).
        lang: en, pl or cs.
        humans: people at the table (1: you against two computer players; 2 or 3: the
            other seats are opened by links).
        pace: seconds between the computer players' cards.
        analysis: the double-dummy review after each deal.
        analysis_seconds: its time budget.
        seed: the match's seed (None: a random one).
        opponents: who plays the computer seats, in playing order after the host's: a
            level, the name of one of the server's bots (``ts358 serve --bot``) or
            ``remote`` (a bot on another computer connects to the seat: docs/bots.md);
            empty: both at ``level``.
        name: the host's name, as every seat sees it (None: "Player 1").
    """

    deals: int = 6
    level: str = "medium"
    rules: str = "house"
    lang: str = "en"
    humans: int = 1
    pace: float = DEFAULT_PACE
    analysis: bool = True
    analysis_seconds: float = DEFAULT_ANALYSIS_SECONDS
    seed: int | None = None
    opponents: tuple[str, ...] = ()
    name: str | None = None

    @classmethod
    def from_json(cls, data: Any, lang: str = "en", bots: Iterable[str] = ()) -> MatchOptions:
        """The options of the start page's JSON object (a key left out is the default,
        ``lang`` the language's, ``bots`` the names of the server's bots); LobbyError (one
        line) for a value not allowed."""
        if not isinstance(data, dict):
            raise LobbyError(f"the options are a JSON object, not {quote(data)}")
        unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise LobbyError(f"unknown option {quote(unknown[0])}")
        seed = data.get("seed")
        if seed is not None:
            try:
                number(seed, 0, 2**63 - 1, whole=True)
            except InputError:
                raise LobbyError(
                    f"'seed' must be a whole number from 0 to 2**63-1, not {quote(seed)}"
                ) from None
        analysis = data.get("analysis", True)
        if not isinstance(analysis, bool):
            raise LobbyError(f"'analysis' must be true or false, not {quote(analysis)}")
        opponents = data.get("opponents", [])
        allowed = (*LEVELS, *bots, REMOTE)
        if (
            not isinstance(opponents, list)
            or len(opponents) not in (0, 2)
            or not all(isinstance(o, str) and o in allowed for o in opponents)
        ):
            raise LobbyError(
                f"'opponents' must be two of {', '.join(allowed)}, not {quote(opponents)}"
            )
        name = data.get("name")
        if name is not None:
            try:
                name = clean_name(name)
            except ValueError as exc:
                raise LobbyError(f"'name': {exc}") from None
        deals = _choice(data, "deals", MATCH_LENGTHS, 6)
        return cls(
            name=name or None,
            deals=deals,
            level=_choice(data, "level", LEVELS, "medium"),
            rules=_rules_text(data, deals),
            lang=_choice(data, "lang", LANGUAGES, lang),
            humans=_choice(data, "humans", (1, 2, 3), 1),
            pace=_number(data, "pace", MAX_PACE, DEFAULT_PACE),
            analysis=analysis,
            analysis_seconds=_number(
                data, "analysis_seconds", MAX_FORM_ANALYSIS_SECONDS, DEFAULT_ANALYSIS_SECONDS
            ),
            seed=seed,
            opponents=tuple(opponents),
        )


REMOTE = "remote"
"""The opponent that is a bot on another computer, connecting by the WebSocket ``/bot``."""


class Lobby:
    """The tables of one server and the start page's requests.

    Args:
        folder: where matches are saved (default: the saves of ``ts358 play``,
            :func:`~ts358.table.history.saves_dir`).
        stats: finished matches go into the statistics.
        on_table: called with each table opened (the server prints the friends' links).
        bots: the bots a new match may seat, by name: each a ``cmd:COMMAND`` (docs/bots.md).
            Given by whoever starts the server (``ts358 serve --bot NAME=COMMAND``), never
            by a request: a request can name a bot, not a command.
    """

    def __init__(
        self,
        folder: Path | None = None,
        *,
        stats: bool = True,
        on_table: Callable[[Table], None] | None = None,
        bots: Mapping[str, str] | None = None,
    ) -> None:
        self.folder = folder if folder is not None else saves_dir()
        self.bots = dict(bots or {})
        self.hints = HintService()  # the hints of every table of this lobby, one at a time
        self.stats = stats
        self.on_table = on_table
        self.tables: dict[Path, Table] = {}
        # Tables are opened on worker threads (the server's) while the loop looks tokens up.
        self._lock = threading.Lock()

    def _opened(self, table: Table) -> Table:
        assert table.save_path is not None
        with self._lock:
            self.tables[table.save_path] = table
        if self.on_table is not None:
            self.on_table(table)
        return table

    def new_match(self, options: MatchOptions) -> Table:
        """A new match saved in :attr:`folder`, the host at seat 0 and the other people at
        the next seats; LobbyError if it can't be saved there."""
        seed = options.seed if options.seed is not None else secrets.randbelow(2**63)
        try:
            rules = Rules.parse(options.rules).with_options({"length": options.deals})
        except ValueError as exc:
            raise LobbyError(f"'rules': {exc}") from None
        settings = PlaySettings(
            lang=options.lang,
            analysis=options.analysis,
            analysis_seconds=options.analysis_seconds,
            pace=options.pace,
        )
        humans = range(HUMAN_SEAT, HUMAN_SEAT + options.humans)
        names = default_names(Translator(options.lang), HUMAN_SEAT, humans, options.name)
        match = Match(rules, seed, names)
        saved = SavedMatch(match, new_id(seed), HUMAN_SEAT, options.level, settings)
        try:
            path, lock = claim_save(self.folder, saved)
        except OSError as exc:
            raise LobbyError(
                f"can't save the match in {self.folder}: {exc.strerror or exc}"
            ) from None
        computers = [s for s in range(3) if s not in humans]
        chosen: dict[int, str | Player] = {}
        for seat, name in zip(computers, options.opponents):
            if name == REMOTE:
                remote = RemoteBot(secrets.token_urlsafe(24))
                chosen[seat] = BotPlayer(remote, seed=player_seed(seed, seat))
            else:
                chosen[seat] = self.bots.get(name, name)
        try:
            table = Table(saved, path, humans, lock=lock, stats=self.stats, opponents=chosen)
        except WriteError as exc:
            lock.release()
            raise LobbyError(str(exc)) from None
        return self._opened(table)

    def _save_path(self, save_id: str) -> Path:
        # Only a save of the folder, by its id: a request must not name a file to open.
        if not isinstance(save_id, str) or not _SAVE_ID.fullmatch(save_id):
            raise LobbyError(f"not the id of a saved match: {quote(save_id)}")
        return self.folder / f"{save_id}.json"

    def resume(self, save_id: str) -> Table:
        """The table of the saved match ``save_id`` (the one open already, or the save
        opened, locked and replayed), its human seat a person again; LobbyError if it is
        not a save that can be played on."""
        path = self._save_path(save_id)
        with self._lock:
            if path in self.tables:
                return self.tables[path]
        try:
            saved, lock = open_save(path)
        except SaveError as exc:
            raise LobbyError(str(exc)) from None
        problem = None
        if saved.human is None:
            problem = "this save has no human seat"
        elif saved.match.done:
            problem = "this match is finished already"
        elif saved.level not in LEVELS:
            problem = f"level {quote(saved.level)} is not available here"
        if problem is not None:
            lock.release()
            raise LobbyError(f"{path}: {problem}")
        assert saved.human is not None
        saved.settings.lang = saved.settings.lang or "en"
        try:
            table = Table(saved, path, [saved.human], lock=lock, stats=self.stats)
        except WriteError as exc:
            lock.release()
            raise LobbyError(str(exc)) from None
        return self._opened(table)

    def delete(self, save_id: str) -> None:
        """Delete the saved match ``save_id``; LobbyError if it
        is not a save of the folder, or it is being played (at a table of this server, or by
        another process)."""
        path = self._save_path(save_id)
        with self._lock:
            if path in self.tables:
                raise LobbyError("this match is open at a table: close its tab first")
        if not path.exists():
            raise LobbyError(f"no saved match {quote(save_id)}")
        try:
            with SaveLock(path):
                path.unlink()
        except SaveError as exc:
            raise LobbyError(str(exc)) from None
        except OSError as exc:
            raise LobbyError(f"can't delete {path}: {exc.strerror or exc}") from None

    def open_tables(self) -> list[Table]:
        """The tables open now."""
        with self._lock:
            return list(self.tables.values())

    def close_table(self, table: Table) -> None:
        """Close ``table`` (saved, its save's lock released: :meth:`Table.close`) and forget
        it: its seats' tokens open nothing any more, and its save resumes as a new table.
        WriteError if the save can't be written (the table is closed all the same)."""
        path = table.save_path
        with self._lock:
            if path is not None and self.tables.get(path) is table:
                del self.tables[path]
        table.close()

    def find_remote(self, token: str) -> RemoteBot | None:
        """The seat of a bot on another computer that ``token`` opens, or None."""
        with self._lock:
            tables = list(self.tables.values())
        for table in tables:
            bot = table.remote_bot(token)
            if bot is not None:
                return bot
        return None

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a seat token, or None."""
        with self._lock:
            tables = list(self.tables.values())
        for table in tables:
            seat = table.seat_of(token)
            if seat is not None:
                return table, seat
        return None

    def saves(self, lang: str = "en") -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """The saved matches that can be resumed, newest first (at most
        :data:`MAX_SAVES_LISTED` files looked at), and those that can't be read, each with
        its id and why (``{"id": ..., "error": ...}``): a damaged save never hides the
        others."""
        listed = []
        unreadable = []
        for path in save_files(self.folder)[:MAX_SAVES_LISTED]:
            try:
                saved = read_save(path)
            except SaveError as exc:
                why = str(exc).removeprefix(f"{path}: ")
                unreadable.append({"id": path.stem, "error": why})
                continue
            except Exception:  # a bug in a reader: logged, and the other saves still listed
                _log.exception("reading %s", path)
                unreadable.append({"id": path.stem, "error": "can't be read (see the log)"})
                continue
            match = saved.match
            if saved.human is None or match.done:
                continue
            listed.append(
                {
                    "id": path.stem,
                    "deal": match.number,
                    "deals": match.rules.length,
                    "level": saved.level,
                    "totals": list(match.totals),
                    "names": list(match.names),
                    "saved": _saved_time(path),
                    "open": path in self.tables,
                    "text": t(
                        "web.save_line",
                        lang,
                        id=_saved_time(path),
                        number=match.number,
                        total=match.rules.length,
                        level=t(f"level.{saved.level}", lang),
                    ),
                }
            )
        return listed, unreadable

    def statistics(self, lang: str = "en") -> dict[str, Any]:
        """The statistics and the leaderboard of ``ts358 stats`` as JSON-ready data."""
        entries, damaged = load_entries()
        summary = summarize_history(entries)
        return {
            "played": summary.played,
            "won": summary.won,
            "win_rate": summary.win_rate,
            "average_total": summary.average_total,
            "best_total": summary.best_total,
            "damaged": damaged,
            "by_level": [dataclasses.asdict(lv) for lv in summary.by_level],
            "games": [
                {
                    "game": g.label,
                    "name": game_name(g, lang),
                    "chosen": summary.games[g.label][0],
                    "made": summary.games[g.label][1],
                }
                for g in Contract
                if g.label in summary.games
            ],
            "leaderboard": [
                {
                    "result": e.result,
                    "finished": e.finished,
                    "level": e.level,
                    "deals": e.deals,
                    "total": e.total,
                }
                for e in leaderboard(entries)
            ],
        }

    def close(self) -> None:
        """Close every table (the server stops): each saved, its lock released."""
        for table in self.open_tables():
            try:
                self.close_table(table)
            except WriteError as exc:
                _log.error("%s", exc)
