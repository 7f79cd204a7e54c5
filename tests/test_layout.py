"""The screens at 80 columns, in English, Polish and Czech: no line longer than 80, no table
that wraps (a table too wide wraps inside its cells: a game list with "BŠ" alone on the
next line, an interval broken after its comma) and messages that wrap only between words.

Every screen of a real session (``ts358 play`` with scripted answers, piped as a terminal of
80 columns would be: table, game choice, exchange, return, discard, tricks, errors, help,
hint, last trick, score table, deal summary, review, final standings), ``ts358 stats`` and
``ts358 arena`` runs through the commands' own consoles, recorded, so that each table and
each message is checked on its own; and every text of the catalogue, formatted with the
longest arguments it gets in play, is checked the same way.
"""

from __future__ import annotations

import io
import re
import string
from pathlib import Path
from typing import ClassVar

import pytest
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from cli_runner import run_cli
from test_i18n import foreign_cards
from test_play_interactive import human_script, illegal_card
from ts358.analysis import review
from ts358.analysis.hints import HintService
from ts358.match import DEFAULT_NAMES
from ts358.players import Advice, Basis
from ts358.rules import Contract
from ts358.table.history import MatchEntry, record_match
from ts358.table.texts import LANGUAGES, MESSAGES, games_text, plural_form, t
from ts358.view import DecisionKind

WIDTH = 80
WIDE = 1000
# The longest answers, echoed after their prompt when piped: four cards, else a command.
ANSWERS = {"prompt.discard": "2C 3C 4D 5D"}
ANSWER = "score"


class RecordingConsole(Console):
    """A command's console, made with the command's own arguments, that keeps everything
    printed on it (with the console's soft wrap) in :attr:`printed`."""

    printed: ClassVar[list[tuple[bool, tuple[object, ...], dict[str, object]]]] = []

    def print(self, *objects, **kwargs):
        RecordingConsole.printed.append((self.soft_wrap, objects, kwargs))
        super().print(*objects, **kwargs)


@pytest.fixture
def recorded(monkeypatch):
    """What the consoles of ``ts358 play``, ``stats`` and ``arena`` print."""
    RecordingConsole.printed = []
    for module in ("play", "stats", "arena"):
        monkeypatch.setattr(f"ts358.cli.{module}.Console", RecordingConsole)
    return RecordingConsole.printed


def render(renderable, width, **kwargs):
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None)
    console.print(renderable, **kwargs)
    return out.getvalue()


def lines(text):
    return [line.rstrip() for line in text.splitlines()]


def check_table(table):
    """The table fits: drawn at 80 columns exactly as with all the room it wants."""
    narrow = lines(render(table, WIDTH))
    assert narrow == lines(render(table, WIDE)), "\n" + "\n".join(narrow)


def check_message(message, **kwargs):
    """A message fits, or wraps only between words."""
    narrow = render(message, WIDTH, **kwargs)
    assert max(map(len, lines(narrow)), default=0) <= WIDTH, narrow
    assert narrow.split() == render(message, WIDE, **kwargs).split(), narrow


def check_printed(printed):
    """Each table and message printed, on its own (a soft-wrapped line is never broken
    by ts358: a path and the command to resume, which are copied from the terminal)."""
    for soft_wrap, objects, kwargs in printed:
        if kwargs.get("soft_wrap", soft_wrap):
            continue
        options = {k: v for k, v in kwargs.items() if k in ("markup", "highlight", "end")}
        todo = list(objects)
        while todo:
            item = todo.pop()
            if isinstance(item, Group):
                todo += item.renderables
            elif isinstance(item, Table):
                check_table(item)
            else:
                assert isinstance(item, (str, Text)), type(item)
                check_message(item, **options)


def check_output(output):
    too_long = [line for line in output.splitlines() if len(line) > WIDTH]
    assert not too_long, "\n".join(too_long)


def flat(text):
    return " ".join(text.split())


def literal(template):
    """The longest piece of ``template`` between placeholders."""
    return max((part.strip() for part, *_ in string.Formatter().parse(template)), key=len)


def about(template, name):
    """A pattern of the sentences ``template`` with ``name`` as the player's name (any
    other value anywhere else), in text of which :func:`flat` made one line."""
    pattern = ""
    for text, field, _, _ in string.Formatter().parse(template):
        pattern += re.escape(re.sub(r"\s+", " ", text))
        if field:
            pattern += re.escape(name) if field in ("name", "winner") else ".*"
    return pattern


def fake_hint(view):
    """Advice with long scores and the estimate line, at a card to play or to give."""
    options = list(view.options) + ([None] if view.kind is DecisionKind.GIVE else [])
    return Advice(
        view.kind,
        Basis.SOLVED,
        tuple((o, -12.5 + 3 * i) for i, o in enumerate(options)),
        sampled=132,
        solved=120,
        bounded=12,
    )


SEED = 43  # against easy players: the human chooses, gives, returns a trump, discards
SHOWN = [
    "table.deal",
    "table.first_six",
    "table.your_hand",
    "table.games_left",
    "table.talon",
    "table.on_table",
    "table.you_lead",
    "prompt.choose",
    "prompt.give",
    "prompt.return",
    "prompt.discard",
    "prompt.play",
    "err.not_card",
    "err.not_game",
    "err.discard_count",
    "err.stop_only_give",
    "ev.chose",
    "ev.you_chose",
    "ev.you_gave",
    "ev.gave_you",
    "ev.talon",
    "ev.talon_you",
    "ev.trick",
    "ev.trick_you",
    "help.title",
    "hint.title",
    "hint.estimate",
    "hint.title_give",
    "hint.give_note",
    "last.trick",
    "score.title",
    "summary.title",
    "analysis.title",
    "analysis.partial",
    "analysis.lost_part",
    "analysis.alt",
    "match.start",
    "match.seats",
    "match.first_dealer",
    "match.final",
    "match.result",
]
# A name in a sentence about the human: a second-person sentence instead.
THIRD_PERSON = ["ev.trick", "last.trick", "ev.talon"]


def answers(steps):
    """The human's answers, with errors and every command along the way."""
    out = []
    plays = 0
    for kind, view, answer in steps:
        if kind is DecisionKind.CHOOSE:
            out.append("banana")
        elif kind is DecisionKind.GIVE:
            out.append("hint")
        elif kind is DecisionKind.RETURN:
            out.append("stop")
        elif kind is DecisionKind.DISCARD:
            out.append(str(next(iter(view.options))))  # one card, not four
        elif kind is DecisionKind.PLAY:
            plays += 1
            if plays == 1:
                out += ["zz9", "hint", "score", "last", "help"]
            elif view.deal_number == 2 and not view.tricks:
                out += ["score", "last"]
            elif len(view.tricks) >= 2 and illegal_card(view) is not None:
                out += ["last", "hint", str(illegal_card(view))]
        out.append(answer)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_of_a_match_and_the_statistics_at_80_columns(
    lang, recorded, tmp_path, monkeypatch
):
    monkeypatch.setattr(HintService, "__call__", lambda self, view: fake_hint(view))
    # The review of the last five tricks of each deal: quick, and the same every time.
    monkeypatch.setattr(
        "ts358.terminal.play.review_deal",
        lambda result, void, seats, **_: review.review_deal(result, void, seats, from_trick=12),
    )
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    steps, match = human_script(SEED, level="easy")
    assert {kind for kind, _, _ in steps} == set(DecisionKind)
    assert Contract.NO_TRICKS in [r.game for r in match.results]
    env = {"COLUMNS": str(WIDTH), "TS358_HOME": str(tmp_path), "FORCE_COLOR": None}
    args = ["--deals", "3", "--seed", str(SEED), "--level", "easy", "--lang", lang]
    played = run_cli(["play", *args], "\n".join(answers(steps)) + "\n", env)
    assert played.exit_code == 0, played.stderr
    # Statistics with every level, every game chosen, the longest numbers, a leaderboard.
    for i, level in enumerate(("easy", "medium", "hard")):
        chosen = tuple((game.label, -8 + i) for game in Contract)
        for place, total in ((1, 18), (3, -18)):
            day = f"2026-12-{10 + i}T23:59:59"
            record_match(
                MatchEntry(f"{i}{place}", day, level, 18, "kurnik", 1, total, place, chosen)
            )
    stats = run_cli(["stats", "--lang", lang], env=env)
    assert stats.exit_code == 0, stats.stderr

    out = played.stdout + stats.stdout
    for text in (out, played.stderr, stats.stderr):
        check_output(text)
    check_printed(recorded)
    for key in SHOWN:
        assert flat(literal(MESSAGES[lang][key])) in flat(out), key
    # Every card on every screen as the language writes it: 10, and D and W in Polish
    # (the answers echoed after the prompts, typed in the engine's letters, aside).
    screens = "\n".join(line.split(" > ")[0] for line in out.splitlines())
    assert not foreign_cards(screens, lang), foreign_cards(screens, lang)
    # Sentences about the human are in the second person ("bierzesz ją", not "bierze Ty").
    for key in THIRD_PERSON:
        found = re.search(about(MESSAGES[lang][key], t("seat.you", lang)), flat(out))
        assert not found, (key, found.group())


def test_the_arena_table_keeps_its_intervals_on_one_line_when_piped(recorded):
    result = run_cli(
        ["arena", "--players", "medium,easy,easy", "--deals", "3", "--seed", "1", "--workers", "1"],
        env={"COLUMNS": str(WIDTH)},  # the width of a pipe
    )
    assert result.exit_code == 0, result.stderr
    check_output(result.stdout)
    check_printed(recorded)
    rows = [line for line in result.stdout.splitlines() if re.match(r"(medium|easy) +\d", line)]
    interval = r"\[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]"
    assert len(rows) == 2 and all(re.search(interval, row) for row in rows), result.stdout
    # The longest numbers fit too: a mean of -12.35, 1234567 decisions, 2 minutes for one.
    from ts358.cli.arena import _arena_table

    table = next(item for _, objects, _ in recorded for item in objects if isinstance(item, Table))
    assert table.row_count == 2
    doc = {"boards": 1000, "permutations": 6, "deals": 6000, "seed": 4294967295, "results": []}
    for config in ("medium", "easy", "hard"):
        doc["results"].append(
            {
                "config": config,
                "seats": 2,
                "mean": -12.345,
                "ci95": [-13.5, -11.25],
                "won": 1.0,
                "decisions": 1234567,
                "decision_ms": {"median": 1234.56, "max": 123456.78},
            }
        )
    check_table(_arena_table(doc))


# ---------------------------------------------------------------------- every text


def longest(lang, prefix):
    return max((v for k, v in MESSAGES[lang].items() if k.startswith(prefix)), key=len)


def long_arguments(lang):
    """The longest value each placeholder gets in play, in ``lang``."""
    name = max(
        [t(f"seat.{s}", lang) for s in ("you", "left", "right")] + list(DEFAULT_NAMES), key=len
    )
    return {
        **dict.fromkeys(("name", "winner", "a", "b", "left", "right", "giver", "receiver"), name),
        # --auto: the engine's names, one for each role
        **dict(zip(("chooser", "third", "dealer"), DEFAULT_NAMES)),
        "game": longest(lang, "game."),
        "games": games_text(Contract, lang),
        "rules": longest(lang, "rules."),
        "level": longest(lang, "level."),
        **dict.fromkeys(("number", "total", "deals"), 18),
        **dict.fromkeys(("taken", "last", "first"), 16),
        **dict.fromkeys(("need", "limit"), 8),
        "place": 3,
        "target": 100,
        **dict.fromkeys(("count", "layouts"), 20),
        **dict.fromkeys(("solved", "bounded"), 120),
        **dict.fromkeys(("card", "given", "returned", "example"), "10♥"),
        **dict.fromkeys(("suit", "trump"), "♥"),
        "cards": "  ".join(f"{name} 10{suit}" for suit in "♠♥♦"),
        **dict.fromkeys(("talon", "discard"), "10♠ 10♥ 10♦ 10♣"),
        "best": "J♠ K♥ 10♥ 7♥ 6♥ 5♥ 4♥ 2♥ 8♦ 7♦ 9♣ 8♣ 7♣",
        **dict.fromkeys(("score", "best_score"), "-12"),
        "result": -180,
        "list": ", ".join(f"{name} -12" for _ in range(3)),
        "text": "bez trumfów?",
        "reason": "seat 0 is to play a card now, not to give a card",
        "signal": "SIGTERM",
        "kind": longest(lang, "bot.kind."),
        "detail": "the bot ended with exit code 1; it said: ValueError: invalid literal for "
        "int() with base 10: 'AS'",
        "seed": 2**63 - 1,
        "path": str(Path("/home/przemysław/.local/share/ts358/saves/20261231-235959-1234567.json")),
    }


OVERRIDES = {"prompt.give": {"left": 3}, "prompt.discard": {"example": "10♥ 10♠ 10♦ 10♣"}}
COUNTS = (1, 2, 5, 12, 22, 112)  # every plural form in every language


def formatted(lang, key):
    """``key`` formatted with the longest arguments, once per plural form it has."""
    template = MESSAGES[lang][key]
    args = {**long_arguments(lang), **OVERRIDES.get(key, {})}
    fields = {name: spec for _, name, spec, _ in string.Formatter().parse(template) if name}
    missing = set(fields) - set(args)
    assert not missing, f"{key}: no realistic value for {missing} in long_arguments"
    counted = [name for name, spec in fields.items() if "|" in (spec or "")]
    for n in COUNTS if counted else (None,):
        yield t(key, lang, **{**args, **dict.fromkeys(counted, n)})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits_80_columns_or_wraps_between_words(lang):
    for key in MESSAGES[lang]:
        if key.startswith(("web.", "board.", "lobby.", "online.")):
            continue  # the pages in the browser (ts358 serve) lay their own lines out
        for text in formatted(lang, key):
            if key.startswith("auto.") or "\n" in text:
                # --auto lines are written as they are; help is laid out line by line.
                assert max(map(len, text.splitlines())) <= WIDTH, (key, text)
            elif key.startswith("prompt."):
                # The answer is echoed on the prompt's line, where Rich can't wrap it.
                assert len(f"{text} > {ANSWERS.get(key, ANSWER)}") <= WIDTH, (key, text)
            check_message(Text(text))


# ---------------------------------------------------------------------- plurals and names


def test_plural_forms_of_each_language():
    pl = [plural_form("pl", n) for n in (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 24, 25, 112, 122)]
    assert pl == [2, 0, 1, 1, 2, 2, 2, 2, 2, 1, 1, 2, 2, 1]
    cs = [plural_form("cs", n) for n in (0, 1, 2, 4, 5, 12, 22)]
    assert cs == [2, 0, 1, 1, 2, 2, 2]
    assert [plural_form("en", n) for n in (0, 1, 2, 21)] == [1, 0, 1, 1]


@pytest.mark.parametrize(
    "lang, counts",
    [
        ("en", ["1 card changed hands", "2 cards changed", "5 cards changed"]),
        ("pl", ["wymieniają 1 kartę.", "wymieniają 2 karty.", "wymieniają 5 kart."]),
        ("cs", ["vyměňují 1 kartu.", "vyměňují 2 karty.", "vyměňují 5 karet."]),
    ],
)
def test_counts_take_the_plural_form_of_the_language(lang, counts):
    for n, expected in zip((1, 2, 5), counts):
        assert expected in t("ev.others_exchanged", lang, count=n, a="A", b="B")
    assert t("ev.others_exchanged", lang, count=12, a="A", b="B") == t(
        "ev.others_exchanged", lang, count=5, a="A", b="B"
    ).replace("5", "12")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_has_the_forms_of_its_language(lang):
    forms = len({plural_form(lang, n) for n in range(200)})
    for key, template in MESSAGES[lang].items():
        for _, _, spec, _ in string.Formatter().parse(template):
            if spec and "|" in spec:
                assert len(spec.split("|")) == forms, (lang, key, spec)
        assert not re.search(r"\(s\)|\(e?s\)", template), (lang, key)  # "card(s)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_seat_names_are_people_not_words_of_the_game(lang):
    names = [t(f"seat.{seat}", lang) for seat in ("you", "left", "right")]
    assert len(set(names)) == 3
    words = {
        word.lower()
        for key, text in MESSAGES[lang].items()
        if not key.startswith("seat.")
        for word in re.findall(r"\w+", text)
    }
    for name in names[1:]:
        assert name.lower() not in words, name
