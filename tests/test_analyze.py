"""``ts358 analyze``: the per-deal record against the public solver, the summary tables worked
by hand, the same lines from one worker, two workers and a Dask cluster.

Full-deal solves take from a tenth of a second to minutes (no-tricks is the slow one), so the
runs here use two deals and one game picked for quick solves (seed 2, deals 6-7, hearts)."""

import json
import sys

import pytest
from cli_runner import run_cli

from ts358.analyze import (
    analyze_deal,
    discard_candidates,
    longest_first_six,
    make_setup,
    read_records,
    summarize,
)
from ts358.cards import DECK, CardSet, Suit
from ts358.deal import Deal
from ts358.players import HeuristicPlayer
from ts358.position import Position
from ts358.rules import Contract, Role
from ts358.solve import solve

WORKLOAD = ["--deals", "2", "--first", "6", "--seed", "2", "--games", "hearts", "--candidates", "2"]


def invoke(*args):
    return run_cli(args)


def chooser_view(seed, index, game):
    deal = Deal(make_setup(seed, index))
    deal.apply(game)
    return deal.pending().view


# ---------------------------------------------------------------------- discards


@pytest.mark.parametrize("game", list(Contract))
def test_discard_candidates_are_sensible_and_distinct(game):
    view = chooser_view(5, 0, game)
    hand = view.options
    assert len(hand) == 20
    first = HeuristicPlayer().discard(view)
    candidates = discard_candidates(hand, game, first, 5)
    assert candidates[0] == first and len(candidates) == 5 == len(set(candidates))
    for candidate in candidates:
        assert len(candidate) == 4 and not (candidate - hand)
    for candidate in candidates[1:]:
        for card in candidate:
            suit = hand.suit(card.suit)
            if game is Contract.NO_TRICKS:  # among the three highest of its suit
                assert sum(c.rank > card.rank for c in suit) < 3
            else:
                assert card.suit != game.trump and card.rank < 11  # no trumps, kings, aces
                assert sum(c.rank < card.rank for c in suit) < 3
    assert discard_candidates(hand, game, first, 1) == [first]


def test_longest_suit_of_the_first_six_breaks_ties_by_high_cards():
    six = CardSet.parse("2S 3S 4H KH 5D 6C")
    assert longest_first_six(six) == (Suit.HEARTS, 2)
    assert longest_first_six(CardSet.parse("2S 3S 4H 5H 6D 7C")) == (Suit.SPADES, 2)
    assert longest_first_six(CardSet.parse("2C 3C 4C AS KS 5D")) == (Suit.CLUBS, 3)


# ---------------------------------------------------------------------- one deal


@pytest.fixture(scope="module")
def record():
    return analyze_deal(2, 6, games=[Contract.HEARTS], candidates=2)


def test_record_describes_the_deal(record):
    hands = record["hands"]
    parts = [CardSet.parse(hands[r]) for r in ("chooser", "third", "dealer")]
    talon = CardSet.parse(hands["talon"])
    assert [len(p) for p in parts] == [16, 16, 16] and len(talon) == 4
    assert parts[0] | parts[1] | parts[2] | talon == DECK
    setup = make_setup(2, 6)
    assert record["first_six"] == " ".join(str(c) for c in setup.hands[setup.chooser][:6])
    assert not (CardSet.parse(record["first_six"]) - parts[0])
    assert record["discard"] == "best of 2 rule-of-thumb candidates"
    entry = record["games"]["hearts"]
    discard = CardSet.parse(entry["discard"])
    assert len(discard) == 4 and not (discard - (parts[0] | talon))
    assert entry["made"] == (entry["chooser"]["score"] >= 0)


def test_record_values_agree_with_the_public_solver(record):
    hands = record["hands"]
    twenty = CardSet.parse(hands["chooser"]) | CardSet.parse(hands["talon"])
    entry = record["games"]["hearts"]
    position = Position(
        "hearts",
        (twenty - CardSet.parse(entry["discard"]), CardSet.parse(hands["third"]), CardSet.parse(hands["dealer"])),
    )
    result = solve(position, moves=False, tt_mb=16)
    for role in Role:
        value = result.player(role)
        assert entry[role.label] == {"tricks": value.tricks, "score": value.score}


def test_the_kept_discard_is_the_best_candidate(record):
    view = chooser_view(2, 6, Contract.HEARTS)
    hands = record["hands"]
    others = (CardSet.parse(hands["third"]), CardSet.parse(hands["dealer"]))
    scores = []
    for candidate in discard_candidates(view.options, Contract.HEARTS, HeuristicPlayer().discard(view), 2):
        position = Position("hearts", (view.options - candidate, *others))
        scores.append(solve(position, player=Role.CHOOSER, moves=False, tt_mb=16).players[0].score)
    assert record["games"]["hearts"]["chooser"]["score"] == max(scores)


# ---------------------------------------------------------------------- summary


def _record(first_six, longest, length, games):
    return {
        "first_six": first_six,
        "longest_first_six": {"suit": longest, "length": length},
        "discard": "best of 3 rule-of-thumb candidates",
        "games": {
            label: {
                "chooser": {"score": c}, "third": {"score": t}, "dealer": {"score": d}, "made": c >= 0,
            }
            for label, (c, t, d) in games.items()
        },
    }


RECORDS = [
    # Three hearts and two spades among the first six.
    _record("2H 3H 4H 2S 3S 2D", "hearts", 3, {"hearts": (1, -3, 0), "spades": (-2, 1, 0), "no-trump": (-1, 0, 0)}),
    # Three hearts again; this time hearts fails and no-trump makes.
    _record("5H 6H 7H AS KS QD", "hearts", 3, {"hearts": (-1, 0, 1), "spades": (-3, 2, 1), "no-trump": (0, -1, -1)}),
    # Four clubs; clubs not analyzed, only hearts (no hearts in the six).
    _record("2C 3C 4C 5C 2D 3D", "clubs", 4, {"hearts": (-4, 2, 2)}),
]


def test_summary_worked_by_hand():
    table = summarize(RECORDS)
    assert table["deals"] == 3 and table["discard"] == ["best of 3 rule-of-thumb candidates"]
    games = {row["game"]: row for row in table["games"]}
    assert [row["game"] for row in table["games"]] == ["spades", "hearts", "no-trump"]
    assert games["hearts"]["deals"] == 3 and games["hearts"]["made"] == pytest.approx(1 / 3, abs=1e-4)
    assert games["hearts"]["mean_score"] == pytest.approx({"chooser": -4 / 3, "third": -1 / 3, "dealer": 1}, abs=1e-4)
    assert games["spades"]["made"] == 0 and games["no-trump"]["made"] == 0.5
    longest = {row["length"]: row for row in table["by_longest"]}
    assert longest[3] == {"length": 3, "deals": 2, "trump": 0.5, "no-trump": 0.5, "no-tricks": None, "any": 1.0}
    assert longest[4] == {"length": 4, "deals": 1, "trump": None, "no-trump": None, "no-tricks": None, "any": 0.0}
    trumps = {row["trumps"]: row for row in table["by_trumps"]}
    # Hearts with 3 trumps twice (made once), spades with 2 trumps twice (never), hearts with 0.
    assert trumps[3] == {"trumps": 3, "observations": 2, "made": 0.5, "mean_score": 0.0}
    assert trumps[2] == {"trumps": 2, "observations": 2, "made": 0.0, "mean_score": -2.5}
    assert trumps[0] == {"trumps": 0, "observations": 1, "made": 0.0, "mean_score": -4.0}


def test_read_records_names_the_bad_line():
    good = json.dumps(RECORDS[0])
    assert read_records([good, "", good]) == [RECORDS[0], RECORDS[0]]
    with pytest.raises(ValueError, match="line 2 is not JSON"):
        read_records([good, "{oops"])
    with pytest.raises(ValueError, match="line 1 is not an analysis record"):
        read_records(['{"deal": 1}'])


# ---------------------------------------------------------------------- command line


@pytest.fixture(scope="module")
def local_lines():
    result = invoke("analyze", *WORKLOAD, "--workers", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout.splitlines()


def test_cli_lines_in_deal_order(local_lines, record):
    records = [json.loads(line) for line in local_lines]
    assert [r["deal"] for r in records] == [6, 7]
    assert records[0] == record  # the API and the command agree


def test_two_workers_write_the_same_file(local_lines, tmp_path):
    path = tmp_path / "deals.jsonl"
    result = invoke("analyze", *WORKLOAD, "--workers", "2", "--out", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert path.read_text().splitlines() == local_lines


def test_a_dask_cluster_writes_the_same_lines(local_lines):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        result = invoke("analyze", *WORKLOAD, "--scheduler", cluster.scheduler_address)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == local_lines


def test_cli_summary(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n")
    result = invoke("analyze", "--summary", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == summarize(RECORDS)
    tables = invoke("analyze", "--summary", str(path))
    assert tables.exit_code == 0, tables.stderr
    assert "33.3%" in tables.stdout and "no-trump" in tables.stdout
    assert "best of 3 rule-of-thumb candidates" in tables.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["--games", "hearts,bridge"], "--games: not a game"),
        (["--candidates", "0"], "--candidates must be at least 1"),
        (["--deals", "-1"], "--deals must be at least 1"),
        (["--rules", "street"], "--rules must be house or kurnik"),
        (["--summary", "/nonexistent/x.jsonl"], "can't read"),
    ],
)
def test_cli_errors_are_one_line(args, message):
    result = invoke("analyze", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_cli_summary_of_a_bad_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n")
    result = invoke("analyze", "--summary", str(path))
    assert result.exit_code == 2 and "line 1 is not JSON" in result.stderr


def test_cli_without_dask_gives_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = invoke("analyze", *WORKLOAD, "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "pip install 'ts358[dask]'" in result.stderr
