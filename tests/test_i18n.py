"""The message catalogue: every key in every language with the same placeholders, every key
the code uses exists, game names as players say them, locale detection, parsing games."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from ts358.cards import DECK, Card, NotationError
from ts358.refusal import Reason, Refusal
from ts358.rules import Contract
from ts358.table import texts as i18n
from ts358.table.texts import LANGUAGES, MESSAGES, detect_language, game_name, parse_game, t
from ts358.view import DecisionKind

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


# ---------------------------------------------------------------------- cards and numbers

# The cards every message is filled with: tens, queens and jacks, where the languages differ.
SAMPLE = [Card.parse(c) for c in ("TH", "QS", "JD", "AC", "KH", "9S")]
# Rank letters a language does not write (ten is 10 everywhere; Polish writes D and W).
FOREIGN = {"en": "T", "pl": "TJQ", "cs": "T"}


def foreign_cards(text, lang):
    """Cards in ``text`` written with a rank letter ``lang`` does not use: ``T♥``, in Polish
    ``Q♠`` or ``J♦``, and with suit letters ``TH``, ``QS`` (also lower case, ``th``)."""
    letters = FOREIGN[lang]
    symbols = re.findall(rf"(?<![\w])[{letters}][♠♥♦♣]", text)
    plain = re.findall(rf"(?<![\w])[{letters}][SHDC](?![\w])", text, re.I)
    return symbols + plain


def test_the_rank_check_can_fail():
    assert foreign_cards("Lewa 3: Marek T♥  bierze", "pl") == ["T♥"]
    assert foreign_cards("np. QH albo jh", "pl") == ["QH", "jh"]
    assert foreign_cards("Q♠ J♦ 10♥", "cs") == [] and foreign_cards("TS", "cs") == ["TS"]
    assert foreign_cards("D♠ W♦ 10♥ DH WS 10C", "pl") == []


def card_values(lang, symbols):
    """Every placeholder of the catalogue, filled as the front ends fill it, the cards written
    by the language's :class:`Translator`."""
    tr = i18n.Translator(lang)
    card = tr.card(SAMPLE[0], symbols)
    cards = tr.cards(SAMPLE, symbols)
    return {
        **dict.fromkeys(("name", "winner", "a", "b", "left", "right", "giver", "receiver"), "X"),
        **dict.fromkeys(("chooser", "third", "dealer", "id", "path", "signal", "detail"), "X"),
        **dict.fromkeys(("card", "given", "returned", "example"), card),
        **dict.fromkeys(("cards", "best", "talon", "discard"), cards),
        **dict.fromkeys(("suit", "trump"), "♥" if symbols else "H"),
        "game": tr.game(Contract.HEARTS),
        "games": tr.games(Contract),
        "rules": tr("rules.house"),
        "level": tr("level.hard"),
        "kind": tr("bot.kind.late"),
        **dict.fromkeys(("score", "best_score"), "-1"),
        "list": "X 1",
        "text": "zz9",
        "reason": "X",
        "what": tr("web.kind.play"),
        "asked": tr("web.kind.give"),
        "role": tr("role.dealer"),
        "scores": "0 / -3 / 3",
        "value": "5 (0)",
        "seconds": tr.decimal(1.5, 1),
        **dict.fromkeys(("rating", "before", "after"), tr.decimal(25.3, 1)),
        "error": "X",
    }


NUMBERS = (
    "number", "total", "deals", "taken", "limit", "last", "first", "place", "count",
    "layouts", "solved", "bounded", "seed", "result", "deal", "step", "steps", "target",
)  # fmt: skip


@pytest.mark.parametrize("symbols", [True, False])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_with_cards_as_its_language_writes_them(lang, symbols):
    values = card_values(lang, symbols)
    for key, template in MESSAGES[lang].items():
        names = fields(template)
        missing = names - set(values) - set(NUMBERS)
        assert not missing, (key, missing)
        for n in (1, 2, 5, 22):
            text = t(key, lang, **values, **dict.fromkeys(NUMBERS, n))
            assert "{" not in text and "}" not in text, (lang, key, text)
            assert not foreign_cards(text, lang), (lang, key, text)
    # The cards the values hold are there: 10 and the language's letters.
    shown = t("ev.you_gave", lang, **values)
    assert ("10♥" if symbols else "10H") in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusals_name_cards_as_the_language_writes_them(lang):
    tr = i18n.Translator(lang)
    for card in SAMPLE:
        for symbols in (True, False):
            refusal = Refusal(Reason.NOT_HELD, 0, DecisionKind.PLAY, card=card)
            text = tr.refusal(refusal, symbols)
            assert tr.card(card, symbols) in text and not foreign_cards(text, lang), text


@pytest.mark.parametrize(
    "lang, written",
    [
        ("en", ["10♥", "Q♠", "J♦", "A♣", "K♥", "9♠"]),
        ("pl", ["10♥", "D♠", "W♦", "A♣", "K♥", "9♠"]),
        ("cs", ["10♥", "Q♠", "J♦", "A♣", "K♥", "9♠"]),
    ],
)
def test_cards_are_written_as_each_language_writes_them(lang, written):
    tr = i18n.Translator(lang)
    assert [tr.card(c) for c in SAMPLE] == written
    ten, queen = written[0][:-1], written[1][:-1]
    assert tr.cards(SAMPLE[:2], symbols=False) == f"{ten}H {queen}S"
    # The engine's notation does not change: records, saves and bots keep T, J, Q.
    assert [str(c) for c in SAMPLE] == ["TH", "QS", "JD", "AC", "KH", "9S"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_written_by_a_language_is_read_back_by_it(lang):
    tr = i18n.Translator(lang)
    for card in DECK:
        for symbols in (True, False):
            assert tr.parse_card(tr.card(card, symbols)) is card
            assert tr.parse_card(tr.card(card, symbols).lower()) is card
        assert tr.parse_card(str(card)) is card  # the engine's letters, everywhere
        assert tr.parse_card(card.symbol()) is card


@pytest.mark.parametrize(
    "lang, text, card",
    [
        ("pl", "D♥", "QH"),
        ("pl", "W♦", "JD"),
        ("pl", "dh", "QH"),
        ("pl", "♥D", "QH"),
        ("pl", "wS", "JS"),
        ("pl", "DD", "QD"),
        ("pl", "D10", "TD"),  # suit first, as the engine reads it: the ten of diamonds
        ("pl", "DW", "JD"),  # suit first too: the jack of diamonds
        ("pl", "KD", "KD"),
        ("pl", "Q♥", "QH"),  # the English letters are always accepted
        ("pl", "10h", "TH"),
        ("cs", "D♥", "QH"),
        ("cs", "J♦", "JD"),
        ("en", "10♠", "TS"),
        ("en", "th", "TH"),
    ],
)
def test_a_card_typed_in_the_letters_of_the_language(lang, text, card):
    assert i18n.Translator(lang).parse_card(text) is Card.parse(card)


@pytest.mark.parametrize(
    "lang, text", [("en", "D♥"), ("en", "W♦"), ("cs", "W♦"), ("pl", "X♥"), ("pl", "WW"), ("pl", "")]
)
def test_letters_of_another_language_are_not_cards(lang, text):
    with pytest.raises(NotationError):
        i18n.Translator(lang).parse_card(text)


def test_the_engines_parser_stays_unambiguous():
    # The Polish letters live in the texts' layer: the engine (records, saves, bots) reads
    # one notation, in which D is a suit only.
    for text in ("D♥", "W♦", "DH", "WD"):
        with pytest.raises(NotationError):
            Card.parse(text)
    assert Card.parse("D10") is Card.parse("TD") and Card.parse("KD") is Card.parse("KD")


@pytest.mark.parametrize(
    "lang, value, places, signed, text",
    [
        ("en", -1.5, 2, False, "-1.50"),
        ("pl", -1.5, 2, False, "-1,50"),
        ("cs", -1.5, 2, False, "-1,50"),
        ("pl", 2.25, 2, True, "+2,25"),
        ("en", 2.25, 1, True, "+2.2"),
        ("cs", 3, 0, False, "3"),
        ("en", -0.001, 2, True, "+0.00"),  # never -0.00
        ("pl", -0.004, 2, False, "0,00"),
        ("cs", 12.345, 3, False, "12,345"),
    ],
)
def test_decimals_as_each_language_writes_them(lang, value, places, signed, text):
    assert i18n.Translator(lang).decimal(value, places, signed=signed) == text
    assert i18n.decimal_text(value, lang, places, signed) == text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_short_games_of_the_table_are_games_in_every_language(lang):
    for game in Contract:
        for symbols in (True, False):
            short = i18n.game_short(game, symbols, lang)
            assert parse_game(short) is game, (lang, short)
            assert parse_game(short.lower()) is game
    assert parse_game("NoTr") is parse_game("BŠ") is parse_game("bl") is Contract.NO_TRICKS
    assert parse_game("BT") is parse_game("ba") is parse_game("NT") is Contract.NO_TRUMP


# ---------------------------------------------------------------------- the texts' words

# Words a native speaker changed (the catalogue must not say them again): Polish jargon
# and calques, Czech words that mean something else.
REWORDED = {
    "pl": [
        "Ziarno",
        "ziarno",
        "szacunek",
        "silny komputer)",
        "silny komputer ",
        "masz już w tej partii za sobą",
        "żadna karta nie ma numeru",
        "Stracone własnymi kartami",
        "Tempo kart graczy",
        "Twój wynik w otwarte karty",
    ],
    "cs": [
        "seed",
        "Semínko",
        "její cena",
        "Ztraceno vlastními kartami",
        "už máte v této partii za sebou",
        "Tempo karet",
        "silný počítač)",
        "silný počítač ",
        "žádný štych neskončil",
    ],
}


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_reworded_texts_stay_reworded(lang):
    for key, template in MESSAGES[lang].items():
        text = re.sub(r"\{[^}]*\}", "", template)  # the words, not the placeholders
        for phrase in REWORDED[lang]:
            assert phrase not in text, (key, phrase)


def test_the_words_a_native_speaker_reads():
    # The label agrees with the level after it: one level, not plural opponents.
    assert t("web.level", "pl") == "Poziom przeciwników"  # "Poziom przeciwników: łatwy"
    assert t("web.level", "cs") == "Úroveň soupeřů"  # "Úroveň soupeřů: lehká"
    # The hint is not called Help in Czech: typing the hint's word gives the hint.
    from ts358.terminal.human import _HELP_WORDS, _HINT_WORDS

    for lang in LANGUAGES:
        word = t("web.hint", lang).lower()
        assert word not in _HELP_WORDS, (lang, word)
    assert t("web.hint", "cs").lower() in _HINT_WORDS
    assert "nápověda" in _HELP_WORDS and not _HELP_WORDS & _HINT_WORDS
    # One word for the seed in the terminal and the browser.
    start = {"seed": 7, "deals": 3, "rules": "r", "level": "l"}
    assert "Číslo partie" in t("web.seed", "cs") and "č. 7" in t("match.start", "cs", **start)
    assert "Numer partii" in t("web.seed", "pl") and "nr 7" in t("match.start", "pl", **start)
