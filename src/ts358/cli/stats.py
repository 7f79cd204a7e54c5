"""``ts358 stats``: local statistics of finished matches and the leaderboard.

A thin layer over :mod:`ts358.session.history` (:func:`~ts358.session.history.load_entries`,
:func:`~ts358.session.history.summarize_history`, :func:`~ts358.session.history.leaderboard`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import typer
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ts358.cli.app import CommandError, app
from ts358.rules import Contract
from ts358.session import texts as i18n
from ts358.session.history import (
    MatchEntry,
    leaderboard,
    load_entries,
    stats_path,
    summarize_history,
)
from ts358.session.texts import game_name, t

__all__ = ["render_stats"]


def render_stats(entries: Sequence[MatchEntry], size: int = 10) -> RenderableType:
    """The statistics and the leaderboard of ``entries`` in the current language."""
    if not entries:
        return Text(t("stats.none"))
    summary = summarize_history(entries)
    parts: list[RenderableType] = []
    table = Table(title=t("stats.title"), title_justify="left", box=None, padding=(0, 2, 0, 0))
    table.add_column(t("stats.level"))
    for key in (
        "stats.played",
        "stats.won",
        "stats.win_rate",
        "stats.avg_total",
        "stats.best_total",
    ):
        table.add_column(t(key), justify="right")
    for lv in summary.by_level:
        table.add_row(
            t(f"level.{lv.level}") if f"level.{lv.level}" in i18n.MESSAGES["en"] else lv.level,
            str(lv.played),
            str(lv.won),
            f"{lv.won / lv.played:.0%}",
            f"{lv.average_total:+.2f}",
            f"{lv.best_total:+d}",
        )
    table.add_row(
        Text("Σ", style="bold"),
        str(summary.played),
        str(summary.won),
        f"{summary.win_rate:.0%}",
        f"{summary.average_total:+.2f}",
        f"{summary.best_total:+d}" if summary.best_total is not None else "-",
    )
    parts.append(table)
    if summary.games:
        games = Table(
            title=t("stats.chooser_games"), title_justify="left", box=None, padding=(0, 2, 0, 0)
        )
        games.add_column(t("score.game"))
        games.add_column(t("stats.played"), justify="right")
        games.add_column(t("stats.made"), justify="right")
        for game in Contract:
            if game.label in summary.games:
                chosen, made = summary.games[game.label]
                games.add_row(game_name(game), str(chosen), str(made))
        parts.append(Text(""))
        parts.append(games)
    parts.append(Text(""))
    board = leaderboard(entries, size)
    if not board:
        parts.append(Text(t("stats.no_wins")))
    else:
        top = Table(
            title=t("stats.leaderboard"), title_justify="left", box=None, padding=(0, 2, 0, 0)
        )
        top.add_column(t("stats.rank"), justify="right")
        top.add_column(t("stats.result"), justify="right")
        top.add_column(t("stats.date"))
        top.add_column(t("stats.level"))
        top.add_column(t("stats.deals"), justify="right")
        for rank, entry in enumerate(board, 1):
            top.add_row(
                f"{rank}.",
                str(entry.result),
                entry.finished[:16].replace("T", " "),
                t(f"level.{entry.level}"),
                str(entry.deals),
            )
        parts.append(top)
    return Group(*parts)


@app.command("stats")
def stats_command(
    lang: str = typer.Option(
        "", "--lang", help="pl, cs or en (default: from the locale, else en)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the finished matches as JSON lines."),
    top: int = typer.Option(10, "--top", metavar="N", help="Entries in the leaderboard."),
) -> None:
    """Statistics of your finished matches and the leaderboard (won matches, result = total x 10).

    Kept in the user data directory (or $TS358_HOME), file stats.jsonl.
    """
    if lang.strip():
        key = lang.strip().lower()
        if key not in i18n.LANGUAGES:
            raise CommandError(f"--lang must be one of {', '.join(i18n.LANGUAGES)}, not {lang!r}")
    else:
        key = i18n.detect_language()
    i18n.set_language(key)
    if top < 1:
        raise CommandError(f"--top must be at least 1, not {top}")
    path = stats_path()
    try:
        entries, bad = load_entries(path)
    except OSError as exc:
        raise CommandError(f"{path}: can't read the statistics: {exc.strerror or exc}") from None
    if bad:
        print("ts358: warning: " + t("stats.bad_lines", path=path, count=bad), file=sys.stderr)
    if as_json:
        for entry in entries:
            sys.stdout.write(json.dumps(entry.to_json(), ensure_ascii=False) + "\n")
        return
    Console(file=sys.stdout, highlight=False).print(render_stats(entries, top))
