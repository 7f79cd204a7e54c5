"""``ts358 play``: a match against two computer players in the terminal, or (``--auto``)
three computer players printed deal by deal; a thin layer over :mod:`ts358.terminal.play`."""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text

from ts358._input import quote
from ts358.analysis.hints import HintService
from ts358.bots import DEFAULT_SECONDS
from ts358.cli.app import CommandError, app
from ts358.cli.options import (
    BotTime,
    Deals,
    Language,
    Level,
    Opponents,
    RuleSet,
    Seed,
    seconds,
)
from ts358.match import Match
from ts358.players import LEVELS
from ts358.rules import Rules
from ts358.table.history import saves_dir
from ts358.table.records import check_record, write_match_record
from ts358.table.saves import (
    DEFAULT_ANALYSIS_SECONDS,
    PlaySettings,
    SavedMatch,
    SaveError,
    WriteError,
    claim_save,
    new_id,
    open_save,
    save_files,
)
from ts358.table.seats import ENGINE_NAMES, HUMAN_SEAT
from ts358.table.texts import Translator, can_encode_symbols, detect_language
from ts358.terminal import play
from ts358.terminal.render import render_standings

__all__ = ["play_command"]

DEFAULT_LEVEL = "medium"

PLAY_HELP = (
    "Play a match of 3-5-8 against two computer players (default 6 deals; the first dealer "
    "is drawn at random from the seed). Type a card as QH, Q♥, 10h or its number in your "
    "hand, or Enter when only one card may be played; the commands hint, last, talon, score, "
    "help and quit work at every prompt. Input can be piped, one answer per line. The match "
    "is saved after each of your answers and on quit, Ctrl-C, SIGTERM or SIGHUP (in the user "
    "data directory, or $TS358_HOME), and --resume FILE continues it exactly where it stopped "
    "('--resume last' takes the newest save), with the options it was played with (--level, "
    "--lang, --ascii, --analysis, --analysis-time; give one again to change it); a save is played "
    "by one process at a time. Finished matches go into "
    "'ts358 stats'. With --auto, three computer players play and each deal is printed. "
    "--record writes the match record (JSON, docs/match-record.md)."
)


def _resume_path(text: str) -> Path:
    if text.strip().lower() != "last":
        return Path(text)
    folder = saves_dir()
    saves = save_files(folder)
    if not saves:
        raise CommandError(f"--resume last: no saved match in {folder}")
    return saves[0]


@app.command(
    "play",
    help=PLAY_HELP,
    short_help="Play a match against two computer players (--auto: watch three play).",
)
def play_command(
    auto: Annotated[bool, typer.Option("--auto", help="Three computer players play.")] = False,
    deals: Deals = None,
    seed: Seed = None,
    level: Level = None,
    opponents: Opponents = None,
    bot_time: BotTime = None,
    rules: RuleSet = None,
    lang: Language = None,
    ascii_only: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--ascii/--no-ascii",
            help="Write suits as S H D C, not ♠♥♦♣ (default: symbols where the terminal "
            "can show them).",
        ),
    ] = None,
    resume: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--resume", metavar="FILE", help="Continue a saved match ('last': the newest save)."
        ),
    ] = None,
    record: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--record", metavar="FILE", help="Write the match record (JSON) here."),
    ] = None,
    analysis: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--analysis/--no-analysis",
            help="The double-dummy review after each deal (default: on).",
        ),
    ] = None,
    analysis_time: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(
            "--analysis-time",
            metavar="SECONDS",
            parser=seconds,
            help="Time budget of each deal's review; the end of the deal is reviewed first "
            f"(default: {DEFAULT_ANALYSIS_SECONDS:g}).",
        ),
    ] = None,
) -> None:
    given: dict[str, Any] = {
        "lang": lang,
        "ascii": ascii_only,
        "analysis": analysis,
        "analysis_seconds": analysis_time,
    }
    try:
        match_rules = (rules or Rules()).with_options({} if deals is None else {"length": deals})
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    # 63 bits: a player that knows its own seed (hashed from the match seed) must not be
    # able to find the match seed, and so the deals, by trying them all.
    match_seed = seed if seed is not None else secrets.randbelow(2**63)
    try:
        if auto:
            if resume is not None:
                raise CommandError(
                    "--resume continues a match with you at the table; "
                    "it can't be combined with --auto"
                )
            if opponents is not None:
                raise CommandError(
                    "--opponents seats players against you; with --auto, use ts358 arena "
                    "to seat bots"
                )
            settings, symbols = _begin(PlaySettings(), given)
            tr = Translator(settings.lang or "en")
            _auto(match_rules, match_seed, level or DEFAULT_LEVEL, symbols, record, tr)
            return
        # Rich wraps long lines at word boundaries to the terminal's width (80 when piped).
        console = Console(file=sys.stdout, highlight=False)
        err = Console(file=sys.stderr, highlight=False)
        # Holds the save's lock until the session ends.
        with contextlib.ExitStack() as hold:
            if resume is not None:
                fixed = (("--deals", deals), ("--seed", seed), ("--rules", rules))
                for name, value in fixed:
                    if value is not None:
                        raise CommandError(
                            f"{name} can't be combined with --resume: the save fixes it"
                        )
                saved, save_path = _resume(resume, level, hold)
                saved.settings, symbols = _begin(saved.settings, given)
                if not _resumed(saved, save_path, console, Translator(saved.settings.lang or "en")):
                    return
            else:
                settings, symbols = _begin(PlaySettings(), given)
                saved, save_path = _start(
                    match_rules, match_seed, level or DEFAULT_LEVEL, settings, console, hold
                )
            options = play.PlayOptions(
                save_path=save_path,
                analysis=saved.settings.analysis,
                analysis_seconds=saved.settings.analysis_seconds,
                record=record,
                symbols=symbols,
                hint=HintService(),
                opponents=_seats(opponents, saved),
                bot_seconds=bot_time or DEFAULT_SECONDS,
            )
            code = play.play_interactive(saved, options, console, err)
    except WriteError as exc:
        raise CommandError(str(exc)) from None
    if code:
        raise typer.Exit(code)


def _seats(opponents: tuple[str, str] | None, saved: SavedMatch) -> dict[int, str]:
    """The two computer seats, in playing order after the human's, and who plays them."""
    if opponents is None:
        return {}
    human = saved.human if saved.human is not None else HUMAN_SEAT
    return {(human + 1) % 3: opponents[0], (human + 2) % 3: opponents[1]}


def _begin(base: PlaySettings, given: dict[str, Any]) -> tuple[PlaySettings, bool]:
    """The session's settings: ``base`` (a save's, or the defaults) with the options given on
    the command line (None: not given) instead, the locale's language if none is set; prepares
    stdout. Also whether cards are written with suit symbols."""
    settings = dataclasses.replace(base, **{k: v for k, v in given.items() if v is not None})
    settings.lang = settings.lang or detect_language()
    if not can_encode_symbols(sys.stdout):
        # Never crash on a character the terminal can't show.
        with contextlib.suppress(AttributeError, ValueError):
            sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
        return settings, False
    return settings, not settings.ascii


def _auto(
    rules: Rules, seed: int, level: str, symbols: bool, record: Path | None, tr: Translator
) -> None:
    if record is not None:
        check_record(record)
    match = Match(rules, seed)
    typer.echo(
        tr(
            "auto.start",
            deals=rules.length,
            seed=seed,
            rules=tr.rules(rules),
            level=tr(f"level.{level}"),
        )
    )
    play.play_auto(match, level, symbols, typer.echo, tr.lang)
    if record is not None:
        write_match_record(record, match)
        typer.echo(tr("match.record", path=record), err=True)


def _resume(resume: str, level: str | None, hold: contextlib.ExitStack) -> tuple[SavedMatch, Path]:
    """The saved match to continue and its path, its lock in ``hold``."""
    save_path = _resume_path(resume)
    try:
        saved, lock = open_save(save_path)
    except SaveError as exc:
        raise CommandError(str(exc)) from None
    hold.enter_context(lock)
    if saved.human is None:
        raise CommandError(f"{save_path}: this save has no human seat")
    if level is not None:
        saved.level = level
    elif saved.level not in LEVELS:
        raise CommandError(f"{save_path}: level {quote(saved.level)} is not available here")
    return saved, save_path


def _resumed(saved: SavedMatch, save_path: Path, console: Console, tr: Translator) -> bool:
    """Say which match is resumed; False (with the standings) when it is finished already."""
    match = saved.match
    if match.done:
        console.print(Text(tr("match.finished_already")))
        names = tr.seat_names(saved.human)
        console.print(render_standings(match.totals, match.standings(), names, tr))
        return False
    console.print(
        Text(tr("match.resumed", path=save_path, number=match.number, total=match.rules.length)),
        soft_wrap=True,  # a path is never broken
    )
    return True


def _start(
    rules: Rules,
    seed: int,
    level: str,
    settings: PlaySettings,
    console: Console,
    hold: contextlib.ExitStack,
) -> tuple[SavedMatch, Path]:
    """A new match with the human at :data:`~ts358.table.seats.HUMAN_SEAT`, its save
    file claimed (its lock in ``hold``; the session writes it at once)."""
    match = Match(rules, seed, ENGINE_NAMES)
    saved = SavedMatch(match, new_id(seed), HUMAN_SEAT, level, settings)
    try:
        save_path, lock = claim_save(saves_dir(), saved)
    except OSError as exc:
        raise CommandError(
            f"can't save the match in {saves_dir()}: {exc.strerror or exc}"
        ) from None
    hold.enter_context(lock)
    tr = Translator(settings.lang or "en")
    names = tr.seat_names(HUMAN_SEAT)
    console.print(
        Text(
            tr(
                "match.start",
                deals=rules.length,
                rules=tr.rules(rules),
                level=tr(f"level.{level}"),
                seed=seed,
            ),
            style="bold",
        )
    )
    if (end := tr.end(rules)) is not None:
        console.print(Text(end))
    console.print(Text(tr("match.seats", left=names[1], right=names[2])))
    dealing = rules.dealing_role.seat(match.first_dealer)
    console.print(Text(tr("match.first_dealer", name=names[dealing])))
    return saved, save_path
