"""The message catalogue: every key in every language with the same placeholders, every key
the code uses exists, game names as players say them, locale detection, parsing games."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from ts358.cards import NotationError
from ts358.rules import Contract
from ts358.table import texts as i18n
from ts358.table.texts import MESSAGES, detect_language, game_name, parse_game, t

SRC = Path(i18n.__file__).resolve().parents[1]  # the package


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_in_every_language_with_the_same_placeholders():
    keys = set(MESSAGES["en"])
    for lang in ("pl", "cs"):
        assert set(MESSAGES[lang]) == keys, lang
        for key in keys:
            assert fields(MESSAGES[lang][key]) == fields(MESSAGES["en"][key]), (lang, key)
            assert MESSAGES[lang][key].strip()


def test_every_key_used_by_play_and_stats_exists():
    used = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        # t(key, lang), a Translator tr(key) or self.tr(key), and its own self(key)
        used |= set(re.findall(r'\b(?:tn?|tr|self)\(\s*"([a-z_.-]+)"', text))
    assert len(used) > 60
    assert used <= set(MESSAGES["en"]), used - set(MESSAGES["en"])
    # Keys built at run time: games, roles, levels, rules, short names, tricks you took.
    for game in Contract:
        assert f"game.{game.label}" in MESSAGES["en"]
    for key in (
        "role.chooser",
        "role.third",
        "role.dealer",
        "level.easy",
        "level.medium",
        "level.hard",
        "rules.house",
        "rules.kurnik",
        "short.no-trump",
        "short.no-tricks",
        "ev.trick_you",
        "last.trick_you",
    ):
        assert key in MESSAGES["en"]


@pytest.mark.parametrize(
    "lang, names",
    [
        ("pl", ["pik", "kier", "karo", "trefl", "bez atu", "bez lew"]),
        ("cs", ["piky", "srdce", "káry", "kříže", "bez trumfů", "bez štychů"]),
        ("en", ["spades", "hearts", "diamonds", "clubs", "no-trump", "no-tricks"]),
    ],
)
def test_game_names_as_players_say_them(lang, names):
    assert [game_name(g, lang) for g in Contract] == names
    for game, name in zip(Contract, names):
        assert parse_game(name) is game
        assert parse_game(name.upper()) is game


@pytest.mark.parametrize(
    "text, game",
    [
        ("bez stychu", Contract.NO_TRICKS),
        ("Bez Trumfu", Contract.NO_TRUMP),
        ("BA", Contract.NO_TRUMP),
        ("kary", Contract.DIAMONDS),
        ("krize", Contract.CLUBS),
        ("♥", Contract.HEARTS),
        ("s", Contract.SPADES),
        ("no trump", Contract.NO_TRUMP),
        ("misere", Contract.NO_TRICKS),
    ],
)
def test_parse_game_variants(text, game):
    assert parse_game(text) is game


def test_parse_game_rejects_nonsense():
    with pytest.raises(NotationError):
        parse_game("banana")


@pytest.mark.parametrize(
    "env, lang",
    [
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LC_ALL": "cs_CZ.UTF-8", "LANG": "pl_PL.UTF-8"}, "cs"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANGUAGE": "cs:en"}, "cs"),
        ({}, "en"),
    ],
)
def test_detect_language(env, lang):
    assert detect_language(env) == lang


def test_t_formats_and_falls_back():
    assert t("table.tricks_at_most", "pl", taken=2, limit=8) == "2, najwyżej 8"
    assert t("table.tricks_at_most", "cs", taken=2, limit=8) == "2, nejvýše 8"
    assert t("no.such.key", "cs") == "no.such.key"
    assert i18n.Translator("cs")("seat.you") == "Vy"
    assert i18n.Translator("pl").seat_names(1) == ("Marek", "Ty", "Bartek")
    with pytest.raises(ValueError, match="not a language"):
        i18n.Translator("de")


def test_ascii_fallback_when_the_encoding_cannot_show_suits():
    class Stream:
        def __init__(self, encoding):
            self.encoding = encoding

    assert i18n.can_encode_symbols(Stream("utf-8"))
    assert not i18n.can_encode_symbols(Stream("ascii"))
    assert not i18n.can_encode_symbols(Stream("latin-1"))
    assert not i18n.can_encode_symbols(Stream(None))
