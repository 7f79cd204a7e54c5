"""``ts358 play``: --auto plays and prints a match and writes a record that replays; bad
options are one line on stderr with exit code 2."""

import random as _random
import re

import pytest

from cli_runner import run_cli
from ts358.cards import CardSet
from ts358.deal import Deal, DealSetup
from ts358.match import Match
from ts358.players import make_player
from ts358.record import load_record, replay
from ts358.rules import Rules
from ts358.view import DecisionKind


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


def invoke(*args):
    """``ts358 play ARGS`` through the console-script entry point, stdout and stderr apart."""
    return run_cli(["play", *args])


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_auto_match_writes_a_record_that_replays(tmp_path, level):
    path = tmp_path / "match.json"
    result = invoke(
        "--auto", "--deals", "3", "--seed", "12", "--level", level, "--record", str(path)
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    record = load_record(path)
    match = replay(record)
    assert record["seed"] == 12 and record["length"] == 3
    # Each deal's game, its 16 tricks and the scores are printed.
    for deal in record["deals"]:
        assert f"Deal {deal['number']}: {deal['game']}, " in out
    assert len(re.findall(r"^\s+\d+\. .* won by ", out, re.M)) == 3 * 16
    assert out.count("scores:") == 3
    assert "Final standings:" in out
    names = record["players"]
    standings = out.split("Final standings:")[1]
    for seat, name in enumerate(names):
        assert re.search(
            rf"{match.standings()[seat]}\. {name}\s+{re.escape(f'{match.totals[seat]:+d}')}",
            standings,
        )
    assert "Record written" in result.stderr


def test_same_seed_same_output():
    a = invoke("--auto", "--deals", "3", "--seed", "4")
    b = invoke("--auto", "--deals", "3", "--seed", "4")
    assert a.exit_code == 0 and a.stdout == b.stdout


def test_kurnik_rules(tmp_path):
    path = tmp_path / "k.json"
    result = invoke(
        "--auto", "--deals", "3", "--seed", "2", "--rules", "kurnik", "--record", str(path)
    )
    assert result.exit_code == 0
    assert load_record(path)["rules"]["void"] == "kurnik"


@pytest.mark.parametrize("rules", ["sergeant-major", "9-5-2", "house,talon=unseen,void=overtrump"])
def test_auto_match_under_other_rules_writes_a_record_that_replays(tmp_path, rules):
    path = tmp_path / "r.json"
    result = invoke("--auto", "--seed", "3", "--rules", rules, "--record", str(path))
    assert result.exit_code == 0, result.stderr
    record = load_record(path)
    match = replay(record)
    assert match.done and match.rules == Rules.parse(rules)
    assert "Final standings" in result.stdout
    if rules == "sergeant-major":
        assert "Sergeant Major rules" in result.stdout
        # The dealer chooses; the player on their left leads the first trick.
        first = record["deals"][0]
        dealing = match.rules.dealing_role.seat(first["dealer"])
        assert first["chooser"] == dealing
        assert first["tricks"][0]["leader"] == (dealing + 1) % 3


@pytest.mark.parametrize(
    "args, parts",
    [
        # A value an option rejects: the option and the value, on one line.
        (["--auto", "--deals", "4"], ("Invalid value for '--deals'", "18 deals, not 4")),
        (["--auto", "--deals", "six"], ("Invalid value for '--deals'", "not 'six'")),
        (["--auto", "--seed", "x"], ("Invalid value for '--seed'", "not a whole number: 'x'")),
        (["--auto", "--rules", "house,repeat=yes"], ("Invalid value for '--rules'", "repeat")),
        (["--auto", "--rules", "sergeant-major", "--deals", "18x"], ("'--deals'", "18x")),
        (["--auto", "--rules", "house,games=suits", "--deals", "18"], ("length", "suits")),
        (["--auto", "--seed", "-1"], ("Invalid value for '--seed'", "at least 0, not -1")),
        (["--auto", "--level", "master"], ("Invalid value for '--level'", "not a level: 'master'")),
        (["--auto", "--lang", "de"], ("Invalid value for '--lang'", "not a language: 'de'")),
        (
            ["--auto", "--rules", "strict"],
            ("Invalid value for '--rules'", "no rules 'strict'"),
        ),
        (
            ["--auto", "--analysis-time", "soon"],
            ("Invalid value for '--analysis-time'", "not a number: 'soon'"),
        ),
        (
            ["--auto", "--analysis-time", "-1"],
            ("Invalid value for '--analysis-time'", "seconds from 0 to 1000000", "not '-1'"),
        ),
        (
            ["--auto", "--analysis-time", "1" + "0" * 400],
            ("Invalid value for '--analysis-time'", "seconds from 0 to 1000000", "not '1000"),
        ),
        (["--auto", "--colour"], ("No such option: --colour",)),
        # Rules of the command and files it can't use.
        (["--auto", "--resume", "x.json"], ("--resume", "--auto")),
        (["--resume", "/nonexistent/save.json"], ("can't read the save",)),
        (["--resume", "last"], ("no saved match",)),
        (
            ["--auto", "--deals", "3", "--seed", "1", "--record", "/nonexistent/dir/m.json"],
            ("record",),
        ),
    ],
)
def test_bad_options_one_line_exit_2(args, parts):
    result = invoke(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ts358: error: "), result.stderr
    for part in parts:
        assert part in lines[0], lines[0]


def test_auto_in_polish_translates_the_deal_lines():
    result = invoke("--auto", "--deals", "3", "--seed", "4", "--lang", "pl")
    assert result.exit_code == 0
    assert "Rozdanie 1:" in result.stdout and "Wyniki końcowe:" in result.stdout
    assert "Deal 1:" not in result.stdout


# ---------------------------------------------------------------------- every level, legal

# The sampling player ("hard") solves many full deals per decision: its runs are marked slow
# (pytest -m slow) and shorter.
ALL_LEVELS = [
    "easy",
    "medium",
    pytest.param("hard", marks=pytest.mark.slow),
    pytest.param("expert", marks=pytest.mark.slow),
]


def _legal(view, decision):
    kind = view.kind
    if kind is DecisionKind.CHOOSE:
        return decision in view.available[view.seat]
    if kind is DecisionKind.GIVE:
        return decision is None or decision in view.options
    if kind is DecisionKind.DISCARD:
        cards = CardSet(decision)
        return len(cards) == 4 and not (cards - view.options)
    return decision in view.options


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_hundreds_of_auto_matches_every_decision_legal(level):
    rng = _random.Random(level)
    decisions = 0
    count = 150 if level not in ("hard", "expert") else 2
    for seed in range(count):
        length = rng.choice((3, 3, 3, 6))
        rules = Rules(length=length) if seed % 2 else Rules.named("kurnik", length)
        match = Match(rules, seed)
        players = [make_player(level, seed * 3 + s) for s in range(3)]
        while not match.done:
            pending = match.pending()
            decision = players[pending.seat].decide(pending.view)
            assert _legal(pending.view, decision), (seed, pending.kind, decision)
            match.apply_answer(decision)  # the engine would raise on an illegal one too
            decisions += 1
        assert sum(match.totals) == 0
    assert decisions > count * 3 * 50


# ---------------------------------------------------------------------- hidden information


def _shuffle_into(rng, pool, sizes):
    pool = list(pool)
    rng.shuffle(pool)
    out, start = [], 0
    for size in sizes:
        out.append(pool[start : start + size])
        start += size
    return out


def _twins(seed, rng):
    """(original view, twin view) pairs for the first decisions of deal 1, where the twin
    deal permutes every card hidden from the deciding seat (consistently with its view)."""
    match = Match(Rules(length=3), seed)
    deal = match.deal
    setup = deal.setup
    chooser, third, dealer = deal.chooser, deal.third, deal.dealer
    hands = [list(h) for h in setup.hands]
    talon = list(setup.talon)
    pairs = []

    def twin_deal(new_hands, new_talon):
        return Deal(
            DealSetup(1, dealer, tuple(tuple(h) for h in new_hands), tuple(new_talon)),
            Rules(length=3),
        )

    # 1. The choice: the chooser sees only their first six.
    first_six = hands[chooser][:6]
    hidden = list(setup.hands[chooser][6:]) + hands[third] + hands[dealer] + talon
    ten, h3, hd, tl = _shuffle_into(rng, hidden, (10, 16, 16, 4))
    new = [None] * 3
    new[chooser], new[third], new[dealer] = first_six + ten, h3, hd
    pairs.append((deal.pending().view, twin_deal(new, tl).pending().view))

    medium = make_player("medium", 0)
    game = medium.decide(deal.pending().view)
    deal.apply_answer(game)
    while deal.pending().kind is not DecisionKind.DISCARD:
        deal.apply_answer(medium.decide(deal.pending().view))
    # 2. The discard: the chooser sees their 20; the others' 32 cards are hidden.
    h3, hd = _shuffle_into(rng, hands[third] + hands[dealer], (16, 16))
    new = [None] * 3
    new[chooser], new[third], new[dealer] = hands[chooser], h3, hd
    twin = twin_deal(new, talon)
    twin.apply_answer(game)
    pairs.append((deal.pending().view, twin.pending().view))

    deal.apply_answer(medium.decide(deal.pending().view))
    lead = medium.decide(deal.pending().view)
    deal.apply_answer(lead)
    # 3. The third's first card: the chooser's dealt cards and the dealer's are hidden;
    # the talon is public and the chooser still holds the card led.
    own = [c for c in hands[chooser] if c is not lead]
    fixed = [lead] if lead in hands[chooser] else []
    rest, hd = _shuffle_into(rng, own + hands[dealer], (16 - len(fixed), 16))
    new = [None] * 3
    new[chooser], new[third], new[dealer] = fixed + rest, hands[third], hd
    twin = twin_deal(new, talon)
    twin.apply_answer(game)
    twenty = twin.hand(chooser)
    twin.apply_answer(CardSet(_random.Random(seed).sample([c for c in twenty if c is not lead], 4)))
    twin.apply_answer(lead)
    pairs.append((deal.pending().view, twin.pending().view))
    return pairs


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_decisions_ignore_hidden_cards(level):
    rng = _random.Random(99)
    compared = 0
    seeds = 25 if level not in ("hard", "expert") else 1
    for seed in range(seeds):
        for original, twin in _twins(seed, rng):
            assert twin == original  # the engine shows nothing of the hidden cards
            a = make_player(level, 7).decide(original)
            b = make_player(level, 7).decide(twin)
            assert a == b
            compared += 1
    assert compared == 3 * seeds
