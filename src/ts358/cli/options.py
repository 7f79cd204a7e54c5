"""Options shared by several commands, as typed ``Annotated`` aliases.

Each option is parsed by Typer into its type; a value it rejects becomes one line on stderr
(``ts358: error: Invalid value for '--deals': ...``) and exit code 2, like every expected
error (:mod:`ts358.cli.app`). Parsers say what is allowed, from the same constants the
engine checks (:data:`~ts358.rules.MATCH_LENGTHS`, the labels of
:class:`~ts358.rules.VoidRule`).
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ts358.cards import NotationError
from ts358.players import LEVELS
from ts358.rules import VoidRule, check_match_length
from ts358.session.texts import LANGUAGES

__all__ = ["Deals", "Language", "Level", "RuleSet", "Seed", "language", "level", "match_length", "rule_set"]


def match_length(text: str) -> int:
    """The number of deals of a match: 3, 6, 9 or 18."""
    length: object = text
    try:
        length = int(text)
    except ValueError:
        pass  # check_match_length rejects it, quoting it
    try:
        return check_match_length(length)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def rule_set(text: str) -> VoidRule:
    """house or kurnik."""
    try:
        return VoidRule.parse(text)
    except NotationError as exc:
        raise typer.BadParameter(str(exc)) from None


def level(text: str) -> str:
    """A computer player's level: easy, medium or hard."""
    key = text.strip().lower()
    if key not in LEVELS:
        raise typer.BadParameter(f"not a level: {text!r} (one of {', '.join(LEVELS)})")
    return key


def language(text: str) -> str:
    """A language of the texts: pl, cs or en."""
    key = text.strip().lower()
    if key not in LANGUAGES:
        raise typer.BadParameter(f"not a language: {text!r} (one of {', '.join(LANGUAGES)})")
    return key


# Optional[...] rather than "X | None": Typer reads these annotations at run time, and the
# package supports Python 3.10.
Seed = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--seed",
        metavar="S",
        min=0,
        help="Seed of the shuffles and the computer players (default: random).",
    ),
]
Deals = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--deals", metavar="N", parser=match_length, help="Deals: 3, 6, 9 or 18 (default: 6)."),
]
RuleSet = Annotated[
    Optional[VoidRule],  # noqa: UP045
    typer.Option(
        "--rules",
        metavar="RULES",
        parser=rule_set,
        help="house (default), or kurnik (void in the suit led: any card; trumps not exchanged).",
    ),
]
Level = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--level",
        parser=level,
        help="Computer players: easy (random), medium (rule of thumb) or hard (sampling with "
        "the solver); default: medium.",
    ),
]
Language = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--lang", parser=language, help="pl, cs or en (default: from the locale, else en)."
    ),
]
