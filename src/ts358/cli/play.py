"""``ts358 play``: play a match. With ``--auto`` three computer players play it and every deal
is printed; the interactive seat comes later.

Options are read as text and checked here, so a bad value is one line on stderr (exit 2)
rather than Click's usage block.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import IO, Any

import typer

from ..cards import Card
from ..deal import DealResult
from ..match import Match
from ..players import LEVELS, make_player
from ..record import write_record
from ..rules import MATCH_LENGTHS, Rules
from .app import CommandError, app

SUIT_SYMBOLS = "♠♥♦♣"

PLAY_HELP = (
    "Play a match of 3-5-8. With --auto, three computer players play it: each deal's game, "
    "exchange, tricks and scores are printed, then the final standings (equal totals share "
    "a place). --record writes the match record (JSON, docs/match-record.md), which "
    "replays to the same match."
)


def _symbols(stream: IO[str] | Any) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SUIT_SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _int_option(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise CommandError(f"{name} must be a whole number, not {text!r}") from None


def _rules(deals: str, rules: str) -> Rules:
    length = _int_option("--deals", deals)
    if length not in MATCH_LENGTHS:
        raise CommandError(f"--deals must be 3, 6, 9 or 18 (3k deals), not {length}")
    key = rules.strip().lower()
    if key == "house":
        return Rules(length=length)
    if key == "kurnik":
        return Rules.kurnik(length=length)
    raise CommandError(f"--rules must be house or kurnik, not {rules!r}")


class _Printer:
    def __init__(self, names: tuple[str, str, str], symbols: bool) -> None:
        self.names = names
        self.symbols = symbols
        self.width = max(len(n) for n in names)

    def card(self, card: Card) -> str:
        return card.symbol() if self.symbols else str(card)

    def cards(self, cards: Any) -> str:
        return " ".join(self.card(c) for c in cards)

    def seats(self, values: tuple[int, ...], signed: bool = False) -> str:
        fmt = "{:+d}" if signed else "{:d}"
        return ", ".join(f"{self.names[s]} {fmt.format(v)}" for s, v in enumerate(values))

    def deal(self, d: DealResult) -> list[str]:
        names = self.names
        lines = [
            f"Deal {d.number}: dealer {names[d.dealer]} (3), chooser {names[d.chooser]} (8), "
            f"third {names[d.third]} (5); game: {d.game.label}"
        ]
        for step in d.exchanges:
            lines.append(
                f"  exchange: {names[step.giver]} gives {self.card(step.given)} to "
                f"{names[step.receiver]}, gets {self.card(step.returned)}"
            )
        lines.append(f"  talon: {self.cards(d.talon)}; discard: {self.cards(d.discard)}")
        for i, trick in enumerate(d.tricks, 1):
            lines.append(
                f"  {i:2d}. {names[trick.leader]:<{self.width}}  {self.cards(trick.cards):<12}"
                f"  won by {names[trick.winner]}"
            )
        lines.append(f"  tricks: {self.seats(d.taken)}")
        lines.append(f"  scores: {self.seats(d.scores, signed=True)}")
        return lines

    def standings(self, match: Match) -> list[str]:
        places = match.standings()
        lines = ["Final standings:"]
        for seat in sorted(range(3), key=lambda s: (places[s], s)):
            name = self.names[seat]
            lines.append(f"  {places[seat]}. {name:<{self.width}}  {match.totals[seat]:+d}")
        return lines


@app.command("play", help=PLAY_HELP)
def play_command(
    auto: bool = typer.Option(False, "--auto", help="Three computer players play the match."),
    deals: str = typer.Option("6", "--deals", metavar="N", help="Deals: 3, 6, 9 or 18."),
    seed: str = typer.Option(
        "", "--seed", metavar="S", help="Seed of the shuffles and players (default: random)."
    ),
    level: str = typer.Option("medium", "--level", help="easy (random) or medium."),
    rules: str = typer.Option("house", "--rules", help="house or kurnik."),
    record: Path | None = typer.Option(
        None, "--record", metavar="FILE", help="Write the match record (JSON) here."
    ),
) -> None:
    match_rules = _rules(deals, rules)
    if level.strip().lower() not in LEVELS:
        raise CommandError(f"--level must be {' or '.join(LEVELS)}, not {level!r}")
    match_seed = _int_option("--seed", seed) if seed.strip() else secrets.randbelow(2**32)
    if not auto:
        raise CommandError(
            "the interactive seat is not available yet: use --auto to watch computer players"
        )
    match = Match(match_rules, match_seed)
    players = [make_player(level.strip().lower(), match_seed * 3 + s) for s in range(3)]
    printer = _Printer(match.names, _symbols(sys.stdout))
    typer.echo(
        f"Match of {match_rules.length} deals, seed {match_seed}, {rules.strip().lower()} "
        f"rules, {level.strip().lower()} players: {', '.join(match.names)}"
    )
    done = 0
    while not match.done:
        pending = match.pending()
        assert pending is not None
        match.apply(players[pending.seat].decide(pending.view))
        if len(match.results) > done:
            done = len(match.results)
            typer.echo("")
            typer.echo("\n".join(printer.deal(match.results[-1])))
            typer.echo(f"  totals: {printer.seats(match.totals, signed=True)}")
    typer.echo("")
    typer.echo("\n".join(printer.standings(match)))
    if record is not None:
        try:
            write_record(record, match)
        except OSError as exc:
            raise CommandError(f"can't write the record {record}: {exc.strerror or exc}") from None
        typer.echo(f"Record written to {record}", err=True)

