"""``ts358 play`` at the table: only what a prompt accepts is numbered, messages say what
happened in good English (counts, repeated cards, examples that fit ``--ascii``), Enter plays
the only card allowed, ``talon`` shows the talon and your discard again, and a resumed match
keeps the options it was played with (the language first).

The answers come from the engine as in ``test_play_interactive`` (:func:`human_script`)."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from cli_runner import run_cli
from test_play_interactive import human_script
from ts358.cards import CardSet
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Contract, Rules
from ts358.table import texts
from ts358.table.history import MatchEntry
from ts358.terminal.render import render_history, render_summary
from ts358.view import DecisionKind

NAMES = ("You", "Left", "Right")
EN = texts.Translator("en")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every test gets its own data directory (never the real one) and English."""
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    return tmp_path / "home"


def play(seed, lines, *options):
    """``ts358 play`` of a new 3-deal match of ``seed`` with ``lines`` typed."""
    return run_cli(
        ["play", "--deals", "3", "--seed", str(seed), "--no-analysis", *options],
        input="".join(f"{line}\n" for line in lines),
    )


def answers(steps):
    return [answer for _, _, answer in steps]


def chooser_seed():
    """A seed whose first deal has you choose the game (and so take the talon and discard)."""
    return next(s for s in range(40) if human_script(s)[0][0][0] is DecisionKind.CHOOSE)


def test_the_choice_screen_numbers_the_games_and_not_the_cards():
    steps, _ = human_script(chooser_seed())
    out = play(chooser_seed(), ["quit"]).stdout
    lines = out.split("Your first six cards")[1].split("Choose the game")[0].splitlines()
    games_at = next(i for i, line in enumerate(lines) if "spades" in line)
    hand = "\n".join(lines[:games_at])
    assert all(EN.card(card) in hand for card in steps[0][1].hand)
    assert not re.search(r"[\[(]\d+[\])]", hand), hand  # no number the prompt would refuse
    games = [line.split()[0] for line in lines[games_at : games_at + 6]]
    assert games == ["[1]", "[2]", "[3]", "[4]", "[5]", "[6]"]


def saved_decisions(home):
    (path,) = (home / "saves").glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))["decisions"]


def test_a_card_named_twice_in_the_discard_is_named(home):
    seed = chooser_seed()
    steps, _ = human_script(seed)
    at = next(i for i, (kind, _, _) in enumerate(steps) if kind is DecisionKind.DISCARD)
    low = sorted(steps[at][1].options, key=lambda c: c.rank)
    twice = f"{low[0]} {low[0]} {low[1]} {low[2]}"
    lines = [*answers(steps[:at]), twice, f"{low[0]} {low[1]}", steps[at][2], "quit"]
    out = play(seed, lines).stdout
    assert f"{EN.card(low[0])} is named twice: discard 4 different cards" in out
    assert "discard exactly 4 different cards, not 2" in out
    assert "not 4" not in out
    assert steps[at][2] in saved_decisions(home)  # then the right answer was taken


def test_examples_of_cards_fit_the_letters_of_ascii_and_of_the_language():
    out = play(4, ["zz9", "help", "quit"], "--ascii", "--lang", "en").stdout
    assert "(e.g. QH, 10h or a number;" in out and "a card: QH, 10h, or its number" in out
    assert "QH, QH" not in out
    out = play(4, ["zz9", "help", "quit"], "--lang", "en").stdout
    assert "(e.g. QH, Q♥, 10h or a number;" in out and "a card: QH, Q♥, 10h, or its" in out
    pl = play(4, ["zz9", "help", "quit"], "--lang", "pl").stdout
    assert "(np. DH, D♥, 10h albo numer;" in pl and "karta: DH, D♥, 10h albo jej numer" in pl
    cs = play(4, ["zz9", "help", "quit"], "--lang", "cs").stdout
    assert "(např. QH, Q♥, 10h nebo číslo;" in cs


def test_one_card_changed_hands_is_said_in_good_english():
    seed = 3
    steps, _ = human_script(seed)
    at = next(i for i, (_, view, _) in enumerate(steps) if view.others_exchanged == 1)
    out = play(seed, [*answers(steps[: at + 1]), "quit"]).stdout
    left, right = texts.t("seat.left", "en"), texts.t("seat.right", "en")
    assert f"1 card changed hands between {left} and {right}." in out
    assert "card(s)" not in out


def test_counted_messages_take_the_plural_form_of_each_language():
    assert texts.t("ev.others_exchanged", "en", count=1, a="A", b="B") == (
        "1 card changed hands between A and B."
    )
    assert "2 cards" in texts.t("ev.others_exchanged", "en", count=2, a="A", b="B")
    assert texts.t("stats.bad_lines", "en", count=0, path="f") == "f: 0 damaged lines skipped"
    assert texts.t("stats.bad_lines", "en", count=1, path="f") == "f: 1 damaged line skipped"
    assert "wymieniają 5 kart." in texts.t("ev.others_exchanged", "pl", count=5, a="A", b="B")
    assert "wymieniają 2 karty." in texts.t("ev.others_exchanged", "pl", count=2, a="A", b="B")


def no_tricks_result():
    for seed in range(60):
        match = Match(Rules(length=3), seed)
        match.run([make_player("medium", s) for s in range(3)])
        for result in match.results:
            if result.game is Contract.NO_TRICKS:
                return result, match
    raise AssertionError("no no-tricks deal in 60 matches")


def test_the_no_tricks_summary_says_at_most_like_the_table():
    result, match = no_tricks_result()
    out = io.StringIO()
    Console(file=out, width=100).print(render_summary(result, match.totals, EN.seat_names(0), EN))
    text = out.getvalue()
    for seat in range(3):
        limit = result.role_of(seat).limit
        assert f"{result.taken[seat]}, at most {limit}" in text
        assert f"{result.taken[seat]}/{limit}" not in text


def test_the_games_as_chooser_are_counted_as_chosen_not_as_matches():
    entry = MatchEntry(
        id="a",
        finished="2026-01-01T12:00:00+00:00",
        level="medium",
        deals=3,
        rules="house",
        seed=1,
        total=3,
        place=1,
        chosen=(("clubs", 2), ("hearts", -1)),
    )
    out = io.StringIO()
    Console(file=out, width=120).print(render_history([entry], EN))
    text = out.getvalue()
    levels, games = text.split(texts.t("stats.chooser_games", "en"))
    assert texts.t("stats.played", "en") in levels  # the matches, in the table per level
    assert texts.t("stats.played", "en") not in games  # the games: chosen, not played
    assert re.search(r"Game\s+Chosen\s+Made", games)
    assert re.search(r"clubs\s+1\s+1", games) and re.search(r"hearts\s+1\s+0", games)


def test_enter_plays_the_only_card_allowed(home):
    seed = 3
    steps, expected = human_script(seed)
    at = next(
        i
        for i, (kind, view, _) in enumerate(steps)
        if kind is DecisionKind.PLAY and len(view.options) == 1
    )
    (only,) = steps[at][1].options
    rest = [a for _, view, a in steps[at + 1 :] if view.deal_number == 1]
    result = play(seed, [*answers(steps[:at]), "", *rest, "quit"])
    assert result.exit_code == 0, result.stderr
    assert f"Your card (Enter plays {EN.card(only)}, your only legal card;" in result.stdout
    # The deal went on as it would have with the card typed.
    deal = Match(Rules(length=3), seed, NAMES)
    for decision in saved_decisions(home):
        deal.apply(decision)
    assert deal.results[0] == expected.results[0]


def test_talon_shows_the_talon_and_your_discard_at_any_prompt():
    seed = chooser_seed()
    steps, expected = human_script(seed)
    at = next(i for i, (kind, _, _) in enumerate(steps) if kind is DecisionKind.DISCARD)
    lines = ["talon", *answers(steps[: at + 1]), "talon", "quit"]
    out = play(seed, lines).stdout
    assert "The talon has not been shown yet in this deal." in out
    deal = expected.results[0]
    talon = " ".join(EN.card(c) for c in CardSet(deal.talon).descending())
    discard = " ".join(EN.card(c) for c in deal.discard.descending())
    after = out.split("The talon has not been shown yet")[1]
    assert f"Talon (shown to all): {talon}" in after
    assert f"Your discard: {discard}." in after


@pytest.mark.parametrize("lang", texts.LANGUAGES)
def test_the_help_at_the_table_lists_every_command(lang):
    from ts358.terminal.human import COMMANDS

    text = texts.t("help.text", lang, cards="QH")
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", text, re.M), (lang, command)


def test_a_resumed_match_keeps_the_language_and_the_options(home):
    seed = 8
    first = play(seed, ["quit"], "--lang", "pl", "--ascii", "--analysis-time", "3")
    assert first.exit_code == 0 and "Rozdanie 1 z 3" in first.stdout
    (path,) = (home / "saves").glob("*.json")
    settings = json.loads(path.read_text())["settings"]
    assert settings == {
        "lang": "pl",
        "ascii": True,
        "analysis": False,
        "analysis_seconds": 3.0,
        "pace": 0.8,
    }
    # The locale says English: Polish, letters and no analysis come from the save.
    steps, _ = human_script(seed)
    deal_1 = [a for _, view, a in steps if view.deal_number == 1]
    again = run_cli(["play", "--resume", str(path)], input="\n".join([*deal_1, "quit"]) + "\n")
    assert again.exit_code == 0, again.stderr
    assert "Wznowiono partię" in again.stdout and "Rozdanie 2 z 3" in again.stdout
    assert not any(s in again.stdout for s in "♠♥♦♣")
    assert "Analiza" not in again.stdout + again.stderr
    # An option given again replaces the saved one, and is saved.
    third = run_cli(["play", "--resume", "last", "--lang", "cs", "--no-ascii"], input="quit\n")
    assert "Pokračuje partie" in third.stdout and any(s in third.stdout for s in "♠♥♦♣")
    settings = json.loads(path.read_text())["settings"]
    assert settings == {
        "lang": "cs",
        "ascii": False,
        "analysis": False,
        "analysis_seconds": 3.0,
        "pace": 0.8,
    }
    fourth = run_cli(["play", "--resume", "last", "--analysis"], input="quit\n")
    assert fourth.exit_code == 0 and "Pokračuje partie" in fourth.stdout
    assert json.loads(path.read_text())["settings"]["analysis"] is True


def test_a_new_match_saves_the_language_of_the_locale(home, monkeypatch):
    monkeypatch.setenv("LC_ALL", "cs_CZ.UTF-8")
    play(5, ["quit"])
    (path,) = (home / "saves").glob("*.json")
    assert json.loads(path.read_text())["settings"]["lang"] == "cs"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    again = run_cli(["play", "--resume", str(path)], input="quit\n")
    assert "Pokračuje partie" in again.stdout
