"""Saved matches (ts358-save/2): round trip mid-deal, atomic writes, the session's settings
kept (and defaulted in older saves), and every kind of bad file rejected with a SaveError
(never a crash, never a silently different match)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ts358.match import Match
from ts358.players import make_player
from ts358.record import format_record, match_record
from ts358.rules import Rules
from ts358.table.saves import (
    FORMAT,
    PlaySettings,
    SavedMatch,
    SaveError,
    from_json,
    read_save,
    to_json,
    write_save,
)


def played(seed, decisions, length=3, rules=None):
    match = Match(rules or Rules(length=length), seed, ("You", "Left", "Right"))
    players = [make_player("medium", s) for s in range(3)]
    for _ in range(decisions):
        pending = match.pending()
        if pending is None:
            break
        match.apply_answer(players[pending.seat].decide(pending.view))
    return match


@pytest.mark.parametrize("decisions", [0, 1, 7, 60, 130, 10_000])
def test_round_trip_restores_the_exact_state(tmp_path, decisions):
    match = played(21, decisions, rules=Rules.named("kurnik", 3))
    path = write_save(tmp_path / "s.json", SavedMatch(match, "id-1", 0, "easy"))
    back = read_save(path)
    assert back.id == "id-1" and back.human == 0 and back.level == "easy"
    restored = back.match
    assert restored.rules == match.rules and restored.seed == match.seed
    assert restored.snapshot() == match.snapshot()
    assert restored.totals == match.totals and restored.done == match.done
    if not match.done:
        assert restored.pending().view == match.pending().view


def test_file_is_json_with_the_documented_keys(tmp_path):
    match = played(4, 70)
    path = write_save(tmp_path / "a" / "b" / "s.json", SavedMatch(match, "x", None, "medium"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "ts358-save/2" == FORMAT
    assert data["seed"] == 4 and data["length"] == 3 and data["human"] is None
    assert data["deals_finished"] == len(match.results)
    assert len(data["decisions"]) == 70


def test_atomic_write_keeps_the_old_save_if_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    write_save(path, SavedMatch(played(1, 5), "a"))
    before = path.read_text()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_save(path, SavedMatch(played(1, 50), "a"))
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left


def good(tmp_path):
    path = write_save(tmp_path / "s.json", SavedMatch(played(9, 80), "g"))
    return path, json.loads(path.read_text())


def rewrite(path, data):
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="ts358-save/9"), "not a ts358 save"),
        (lambda d: d.update(format="ts358-match/1"), "match record"),
        (lambda d: d.pop("seed"), "'seed' is missing"),
        (lambda d: d.update(seed="x"), "'seed' has the wrong type"),
        (lambda d: d.update(length=4), "'length'"),
        (lambda d: d["rules"].update(void="strict"), "rules"),
        (lambda d: d.update(players=["a", "b"]), "three names"),
        (lambda d: d.update(human=5), "'human'"),
        (lambda d: d["decisions"].__setitem__(40, "ZZ"), "decision 41"),
        (lambda d: d["decisions"].__setitem__(0, 17), "decision 1: not text"),
        (lambda d: d.update(totals=[9, 9, -18]), "'totals'"),
        (lambda d: d.update(deals_finished=3), "'deals_finished'"),
        (lambda d: d.update(seed=d["seed"] + 1), "decision"),
        (lambda d: d.update(settings=["pl"]), "key 'settings' must be an object"),
        (lambda d: d["settings"].update(lang="de"), "settings: key 'lang' must be en, pl, cs"),
        (lambda d: d["settings"].update(ascii="yes"), "settings: key 'ascii' has the wrong type"),
        (lambda d: d["settings"].update(analysis=1), "settings: key 'analysis' has the wrong"),
        (
            lambda d: d["settings"].update(analysis_seconds=-1),
            "'analysis_seconds' must be a number of seconds",
        ),
        (lambda d: d["settings"].update(analysis_seconds=True), "'analysis_seconds' must be"),
        (lambda d: d["settings"].update(analysis_seconds=10**400), "'analysis_seconds' must be"),
        (lambda d: d["settings"].update(pace=10**400), "'pace' must be a number of seconds"),
        (lambda d: d["settings"].update(pace=float("nan")), "'pace' must be a number of seconds"),
        (lambda d: d["settings"].update(analysis_seconds="10"), "'analysis_seconds' must be"),
    ],
)
def test_bad_contents_are_save_errors(tmp_path, mutate, message):
    path, data = good(tmp_path)
    mutate(data)
    with pytest.raises(SaveError) as err:
        read_save(rewrite(path, data))
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        (b"[1, 2, 3]", "expected a JSON object"),
        (b"hello", "truncated or corrupt"),
    ],
)
def test_foreign_files(tmp_path, content, message):
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(SaveError, match=message):
        read_save(path)


def test_truncated_at_every_tenth_byte(tmp_path):
    path, _ = good(tmp_path)
    text = path.read_bytes()
    for cut in range(0, len(text) - 2, max(1, len(text) // 10)):
        path.write_bytes(text[:cut])
        with pytest.raises(SaveError):
            read_save(path)


def test_a_match_record_is_not_a_save(tmp_path):
    match = played(2, 10_000)
    path = tmp_path / "r.json"
    path.write_text(format_record(match_record(match)))
    with pytest.raises(SaveError, match="match record"):
        read_save(path)


def test_missing_file(tmp_path):
    with pytest.raises(SaveError, match="can't read"):
        read_save(tmp_path / "nope.json")


def test_to_json_from_json_in_memory():
    match = played(3, 33)
    back = from_json(to_json(SavedMatch(match, "m")))
    assert back.match.snapshot() == match.snapshot()


def test_the_settings_are_kept_and_each_key_is_optional(tmp_path):
    settings = PlaySettings(lang="pl", ascii=True, analysis=False, analysis_seconds=2.5, pace=1.5)
    path = write_save(tmp_path / "s.json", SavedMatch(played(5, 40), "k", 0, "hard", settings))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["settings"] == {
        "lang": "pl",
        "ascii": True,
        "analysis": False,
        "analysis_seconds": 2.5,
        "pace": 1.5,
    }
    assert read_save(path).settings == settings
    # A save written before the settings were kept has none: the defaults, as then.
    del data["settings"]
    assert read_save(rewrite(path, data)).settings == PlaySettings()
    assert PlaySettings() == PlaySettings(None, False, True, 10.0, 0.8)
    for key, value in (("lang", "cs"), ("lang", None), ("analysis_seconds", 0), ("pace", 5)):
        back = read_save(rewrite(path, dict(data, settings={key: value})))
        assert back.settings == PlaySettings(**{key: value})


def test_an_old_save_has_the_default_settings_and_keeps_its_format():
    saved = read_save(Path(__file__).parent / "data" / "save-v1-seed5.json")
    assert saved.settings == PlaySettings()
    saved.settings.lang = "cs"
    data = to_json(saved)
    assert data["format"] == "ts358-save/1" and data["settings"]["lang"] == "cs"
    assert from_json(data).settings.lang == "cs"
