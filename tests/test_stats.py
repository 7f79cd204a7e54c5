"""Local statistics and the leaderboard: the store (append, dedupe, damaged lines), the
numbers (worked out by hand here), and ``ts358 stats`` in three languages."""

from __future__ import annotations

import io
import json

import pytest

from cli_runner import run_cli
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Rules
from ts358.table.history import (
    MatchEntry,
    data_dir,
    entry_from_match,
    leaderboard,
    load_entries,
    record_match,
    stats_path,
    summarize_history,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def entry(id, total, place, level="medium", finished="2026-01-01T10:00:00", chosen=()):
    return MatchEntry(id, finished, level, 6, "house", 1, total, place, tuple(chosen))


def invoke(*args):
    return run_cli(["stats", *args])


def test_data_dir_follows_the_environment(home):
    assert data_dir() == home and stats_path() == home / "stats.jsonl"


def test_record_dedupes_and_skips_damaged_lines(home):
    assert record_match(entry("a", 3, 1))
    assert not record_match(entry("a", 3, 1))
    with open(stats_path(), "a") as f:
        f.write('{"id": "broken", "tot')  # a write cut short
    assert record_match(entry("b", -2, 3))
    entries, bad = load_entries()
    assert [e.id for e in entries] == ["a", "b"] and bad == 1


def test_summary_and_leaderboard_numbers():
    entries = [
        entry("a", 4, 1, "easy", chosen=[("hearts", 1), ("no-tricks", -2)]),
        entry("b", -3, 3, "easy"),
        entry("c", 2, 1, "medium", "2026-01-02T00:00:00", chosen=[("hearts", 0)]),
        entry("d", 4, 1, "medium", "2026-01-03T00:00:00"),
        entry("e", 7, 2, "hard"),
    ]
    s = summarize_history(entries)
    assert (s.played, s.won, s.best_total) == (5, 3, 7)
    assert s.average_total == pytest.approx(14 / 5)
    assert [(lv.level, lv.played, lv.won, lv.best_total) for lv in s.by_level] == [
        ("easy", 2, 1, 4),
        ("medium", 2, 2, 4),
        ("hard", 1, 0, 7),
    ]
    assert s.games == {"hearts": (2, 2), "no-tricks": (1, 0)}
    board = leaderboard(entries)
    assert [(e.id, e.result) for e in board] == [("a", 40), ("d", 40), ("c", 20)]  # 'e' lost


def test_entry_from_a_finished_match():
    match = Match(Rules(length=3), 5)
    match.run([make_player("medium", s) for s in range(3)])
    e = entry_from_match(match, "m5", 1, "medium")
    assert e.total == match.totals[1] and e.place == match.standings()[1]
    assert e.result == 10 * match.totals[1]
    assert [g for g, _ in e.chosen] == [r.game.label for r in match.results if r.chooser == 1]
    assert MatchEntry.from_json(json.loads(json.dumps(e.to_json()))) == e


def test_render_history_draws_the_tables_in_the_language_given():
    from rich.console import Console

    from ts358.table import texts
    from ts358.terminal.render import render_history

    def text(entries, size=10, lang="en"):
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(render_history(entries, texts.Translator(lang), size))
        return console.export_text()

    assert "No finished matches yet" in text([])
    shown = text([entry("a", 5, 1, chosen=[("clubs", 2)]), entry("b", 3, 1), entry("c", -1, 2)], 1)
    assert "Leaderboard" in shown and "clubs" in shown
    assert " 50 " in shown and " 30 " not in shown  # the leaderboard has `size` rows
    assert "Ranking" in text([entry("a", 5, 1)], lang="pl")


def test_cli_empty_then_filled_in_three_languages(home):
    empty = invoke("--lang", "en")
    assert empty.exit_code == 0 and "No finished matches yet" in empty.stdout
    record_match(entry("a", 5, 1, chosen=[("clubs", 2)]))
    record_match(entry("b", -1, 2))
    en = invoke("--lang", "en")
    assert "Leaderboard" in en.stdout and "50" in en.stdout
    assert "Played" in en.stdout and "clubs" in en.stdout
    pl = invoke("--lang", "pl")
    assert "Ranking" in pl.stdout and "trefl" in pl.stdout
    cs = invoke("--lang", "cs")
    assert "Žebříček" in cs.stdout and "kříže" in cs.stdout
    js = invoke("--json")
    assert [json.loads(line)["id"] for line in js.stdout.splitlines()] == ["a", "b"]


def test_cli_warns_on_stderr_about_damaged_lines(home):
    record_match(entry("a", 1, 1))
    with open(stats_path(), "a") as f:
        f.write("garbage\n")
    result = invoke("--lang", "en")
    assert result.exit_code == 0
    assert "1 damaged line skipped" in result.stderr and "damaged" not in result.stdout


@pytest.mark.parametrize(
    "args, parts",
    [
        (["--lang", "xx"], ("'--lang'", "not a language: 'xx'")),
        (["--top", "0"], ("'--top'", "at least 1, not 0")),
        (["--top", "ten"], ("'--top'", "not a whole number: 'ten'")),
    ],
)
def test_cli_bad_options(args, parts):
    result = invoke(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("ts358: error: Invalid value for ")
    for part in parts:
        assert part in result.stderr, result.stderr
