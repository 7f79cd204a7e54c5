"""``ts358 analyze``: the per-deal record against the public solver, the summary tables worked
by hand, the same lines from one worker, two workers and a Dask cluster.

Full-deal solves take from a tenth of a second to minutes (no-tricks is the slow one), so the
runs here use two deals and one game picked for quick solves (seed 2, deals 6-7, hearts), and
the node-budget runs five deals whose unbudgeted solves would take minutes (deals 6-10)."""

import json
import sys

import pytest

from cli_runner import run_cli
from ts358 import _core358
from ts358.analysis.game_stats import (
    deal_stats,
    discard_candidates,
    longest_first_six,
    make_setup,
    read_stats_lines,
    run_game_stats,
    summarize_game_stats,
)
from ts358.analysis.solve import solve
from ts358.cards import DECK, CardSet, Suit
from ts358.deal import Deal
from ts358.players import HeuristicPlayer
from ts358.position import Position
from ts358.rules import Contract, Role

WORKLOAD = ["--deals", "2", "--first", "6", "--seed", "2", "--games", "hearts", "--candidates", "2"]
# Five deals, so that one worker runs chunks of two deals and two workers chunks of one.
BUDGETED = [
    "--deals",
    "5",
    "--first",
    "6",
    "--seed",
    "2",
    "--games",
    "hearts",
    "--candidates",
    "2",
    "--max-nodes",
    "40000",
]


def invoke(*args):
    return run_cli(args)


def chooser_view(seed, index, game):
    deal = Deal(make_setup(seed, index))
    deal.apply_answer(game)
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
    return deal_stats(2, 6, games=[Contract.HEARTS], candidates=2)


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
        (
            twenty - CardSet.parse(entry["discard"]),
            CardSet.parse(hands["third"]),
            CardSet.parse(hands["dealer"]),
        ),
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
    for candidate in discard_candidates(
        view.options, Contract.HEARTS, HeuristicPlayer().discard(view), 2
    ):
        position = Position("hearts", (view.options - candidate, *others))
        scores.append(solve(position, player=Role.CHOOSER, moves=False, tt_mb=16).players[0].score)
    assert record["games"]["hearts"]["chooser"]["score"] == max(scores)


# ---------------------------------------------------------------------- node budget


class StoppingSolver:
    """A Solver that raises SearchLimit for the solves ``stop(hands, player)`` picks; it logs
    its calls ("clear", or the player of each solve)."""

    def __init__(self, stop):
        self.solver = _core358.Solver(16)
        self.stop = stop
        self.log = []

    def clear(self):
        self.log.append("clear")
        self.solver.clear()

    def value(self, hands, leader, trick, contract, void_rule, player, *, max_nodes=0, deadline=0):
        self.log.append(player)
        if self.stop(hands, player):
            raise _core358.SearchLimit("stopped by the test")
        return self.solver.value(
            hands,
            leader,
            trick,
            contract,
            void_rule,
            player,
            max_nodes=max_nodes,
            deadline=deadline,
        )


def analyze_stopping(stop):
    solver = StoppingSolver(stop)
    return deal_stats(
        2, 6, games=[Contract.HEARTS], candidates=2, solver=solver, max_nodes=10**12
    ), solver


def test_a_large_budget_changes_nothing_but_the_max_nodes_key(record):
    budgeted = deal_stats(2, 6, games=[Contract.HEARTS], candidates=2, max_nodes=10**9)
    assert budgeted.pop("max_nodes") == 10**9
    assert budgeted == record
    assert list(budgeted) == list(record)


def test_a_stopped_role_is_null(record):
    budgeted, _ = analyze_stopping(lambda hands, player: player == Role.DEALER)
    entry, exact = budgeted["games"]["hearts"], record["games"]["hearts"]
    assert entry["dealer"] is None and entry["unsolved"] == 1
    assert {k: entry[k] for k in ("discard", "tried", "chooser", "third", "made")} == {
        k: exact[k] for k in ("discard", "tried", "chooser", "third", "made")
    }
    assert budgeted["solves"] == record["solves"]


def test_a_stopped_candidate_is_skipped():
    view = chooser_view(2, 6, Contract.HEARTS)
    first, second = discard_candidates(
        view.options, Contract.HEARTS, HeuristicPlayer().discard(view), 2
    )
    budgeted, _ = analyze_stopping(lambda hands, player: hands[0] == (view.options - first).mask)
    entry = budgeted["games"]["hearts"]
    assert (
        CardSet.parse(entry["discard"]) == second and entry["tried"] == 2 and entry["unsolved"] == 1
    )
    others = (CardSet.parse(budgeted["hands"]["third"]), CardSet.parse(budgeted["hands"]["dealer"]))
    position = Position("hearts", (view.options - second, *others))
    chooser = solve(position, player=Role.CHOOSER, moves=False, tt_mb=16).players[0]
    assert entry["chooser"] == {"tricks": chooser.tricks, "score": chooser.score}
    assert entry["made"] == (chooser.score >= 0)


def test_when_every_candidate_stops_there_is_no_discard():
    budgeted, solver = analyze_stopping(lambda hands, player: player == Role.CHOOSER)
    entry = budgeted["games"]["hearts"]
    assert entry == {
        "discard": None,
        "tried": 2,
        "chooser": None,
        "third": None,
        "dealer": None,
        "made": None,
        "unsolved": 2,
    }
    assert solver.log == ["clear", Role.CHOOSER, Role.CHOOSER]  # the third and dealer not tried
    assert budgeted["solves"] == 2


def test_a_budgeted_record_does_not_depend_on_the_solvers_past():
    # The Solver has just solved this very deal without a budget: its table holds every answer.
    solver = _core358.Solver(32)
    deal_stats(2, 7, games=[Contract.HEARTS], candidates=2, solver=solver)
    again = deal_stats(2, 7, games=[Contract.HEARTS], candidates=2, solver=solver, max_nodes=1)
    fresh = deal_stats(2, 7, games=[Contract.HEARTS], candidates=2, max_nodes=1)
    assert "unsolved" in fresh["games"]["hearts"]  # the budget bites
    assert again == fresh


def test_a_negative_budget_is_refused():
    with pytest.raises(ValueError, match="max_nodes"):
        deal_stats(2, 6, games=[Contract.HEARTS], max_nodes=-1)


@pytest.fixture(scope="module")
def budgeted_lines():
    result = invoke("analyze", *BUDGETED, "--workers", "1")
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def test_a_tiny_budget_gives_nulls_that_the_summary_leaves_out():
    records = run_game_stats(
        2, 2, first=6, games=[Contract.HEARTS], candidates=2, workers=1, max_nodes=1
    )
    assert all(r["max_nodes"] == 1 for r in records)
    entries = [r["games"]["hearts"] for r in records]
    assert any("unsolved" in e for e in entries)
    assert any(e[role] is None for e in entries for role in ("chooser", "third", "dealer"))
    for e in entries:
        if e["discard"] is None:
            # Every candidate's chooser solve stopped: nothing else was solved.
            assert e["unsolved"] == e["tried"]
            assert all(e[role] is None for role in ("chooser", "third", "dealer"))
        else:
            assert e["chooser"] is not None
            assert sum(e[role] is None for role in ("third", "dealer")) <= e.get("unsolved", 0)
    row = summarize_game_stats(records)["games"][0]
    for role in ("chooser", "third", "dealer"):
        solved = [e[role]["score"] for e in entries if e[role] is not None]
        assert row["mean_score"][role] == (round(sum(solved) / len(solved), 4) if solved else None)


def test_budgeted_values_are_exact_and_the_summary_counts_the_unsolved(budgeted_lines):
    records = [json.loads(line) for line in budgeted_lines]
    assert [r["deal"] for r in records] == [6, 7, 8, 9, 10] and all(
        r["max_nodes"] == 40_000 for r in records
    )
    entries = [r["games"]["hearts"] for r in records]
    assert any(e["chooser"] is None for e in entries) and any(
        e["chooser"] is not None for e in entries
    )
    for record, entry in zip(records, entries):
        if entry["discard"] is None:
            assert entry["chooser"] is entry["made"] is entry["third"] is entry["dealer"] is None
            assert entry["unsolved"] == entry["tried"]
            continue
        hands = record["hands"]
        twenty = CardSet.parse(hands["chooser"]) | CardSet.parse(hands["talon"])
        masks = (
            (twenty - CardSet.parse(entry["discard"])).mask,
            CardSet.parse(hands["third"]).mask,
            CardSet.parse(hands["dealer"]).mask,
        )
        for role in Role:
            if entry[role.label] is not None:
                tricks = _core358.Solver(16).value(masks, 0, [], int(Contract.HEARTS), 0, int(role))
                assert entry[role.label]["tricks"] == tricks
    row = summarize_game_stats(records)["games"][0]
    assert row["deals"] == 5 and row["unsolved"] == sum(e["chooser"] is None for e in entries)
    made = [e["made"] for e in entries if e["made"] is not None]
    assert row["made"] == round(sum(made) / len(made), 4)


def test_a_budgeted_run_is_the_same_on_two_workers(budgeted_lines):
    result = invoke("analyze", *BUDGETED, "--workers", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == budgeted_lines


def test_cli_summary_of_a_budgeted_file_says_what_it_leaves_out(budgeted_lines, tmp_path):
    path = tmp_path / "budgeted.jsonl"
    path.write_text("\n".join(budgeted_lines) + "\n")
    records = read_stats_lines(budgeted_lines)
    result = invoke("analyze", "--summary", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == summarize_game_stats(records)
    tables = invoke("analyze", "--summary", str(path))
    assert tables.exit_code == 0, tables.stderr
    text = " ".join(tables.stdout.split())
    assert "unsolved" in text and "excluded" in text and "biased toward easier deals" in text
    assert "40,000" in text


# ---------------------------------------------------------------------- summary


def _score(score):
    return None if score is None else {"score": score}


def _record(first_six, longest, length, games, max_nodes=0):
    record = {
        "first_six": first_six,
        "longest_first_six": {"suit": longest, "length": length},
        "discard": "best of 3 rule-of-thumb candidates",
        "games": {
            label: {
                "chooser": _score(c),
                "third": _score(t),
                "dealer": _score(d),
                "made": None if c is None else c >= 0,
            }
            for label, (c, t, d) in games.items()
        },
    }
    if max_nodes:
        record["max_nodes"] = max_nodes
    return record


RECORDS = [
    # Three hearts and two spades among the first six.
    _record(
        "2H 3H 4H 2S 3S 2D",
        "hearts",
        3,
        {"hearts": (1, -3, 0), "spades": (-2, 1, 0), "no-trump": (-1, 0, 0)},
    ),
    # Three hearts again; this time hearts fails and no-trump makes.
    _record(
        "5H 6H 7H AS KS QD",
        "hearts",
        3,
        {"hearts": (-1, 0, 1), "spades": (-3, 2, 1), "no-trump": (0, -1, -1)},
    ),
    # Four clubs; clubs not analyzed, only hearts (no hearts in the six).
    _record("2C 3C 4C 5C 2D 3D", "clubs", 4, {"hearts": (-4, 2, 2)}),
]


def test_summary_worked_by_hand():
    table = summarize_game_stats(RECORDS)
    assert table["deals"] == 3 and table["discard"] == ["best of 3 rule-of-thumb candidates"]
    games = {row["game"]: row for row in table["games"]}
    assert [row["game"] for row in table["games"]] == ["spades", "hearts", "no-trump"]
    assert games["hearts"]["deals"] == 3 and games["hearts"]["made"] == pytest.approx(
        1 / 3, abs=1e-4
    )
    assert games["hearts"]["mean_score"] == pytest.approx(
        {"chooser": -4 / 3, "third": -1 / 3, "dealer": 1}, abs=1e-4
    )
    assert games["spades"]["made"] == 0 and games["no-trump"]["made"] == 0.5
    longest = {row["length"]: row for row in table["by_longest"]}
    assert longest[3] == {
        "length": 3,
        "deals": 2,
        "trump": 0.5,
        "no-trump": 0.5,
        "no-tricks": None,
        "any": 1.0,
    }
    assert longest[4] == {
        "length": 4,
        "deals": 1,
        "trump": None,
        "no-trump": None,
        "no-tricks": None,
        "any": 0.0,
    }
    trumps = {row["trumps"]: row for row in table["by_trumps"]}
    # Hearts with 3 trumps twice (made once), spades with 2 trumps twice (never), hearts with 0.
    assert trumps[3] == {"trumps": 3, "observations": 2, "made": 0.5, "mean_score": 0.0}
    assert trumps[2] == {"trumps": 2, "observations": 2, "made": 0.0, "mean_score": -2.5}
    assert trumps[0] == {"trumps": 0, "observations": 1, "made": 0.0, "mean_score": -4.0}


# Two more deals analyzed with a node budget (None: the solve stopped).
UNSOLVED = [
    # Hearts and no-trump without a chooser value; spades without the third's.
    _record(
        "2H 3H 4H 5H 2S 3D",
        "hearts",
        4,
        {"hearts": (None, None, None), "spades": (1, None, -2), "no-trump": (None, None, None)},
        1000,
    ),
    # Hearts fails, no-trump unknown: whether any game is made is unknown.
    _record(
        "6H 7H 8H 9H TH 4D",
        "hearts",
        5,
        {"hearts": (-1, 0, 0), "no-trump": (None, None, None)},
        1000,
    ),
]


def test_summary_leaves_out_unsolved_values_worked_by_hand():
    table = summarize_game_stats(RECORDS + UNSOLVED)
    assert table["deals"] == 5 and table["max_nodes"] == [0, 1000]
    games = {row["game"]: row for row in table["games"]}
    hearts, spades, no_trump = games["hearts"], games["spades"], games["no-trump"]
    assert (hearts["deals"], hearts["unsolved"], hearts["made"]) == (5, 1, 0.25)
    assert hearts["mean_score"] == {"chooser": -1.25, "third": -0.25, "dealer": 0.75}
    assert (spades["deals"], spades["unsolved"]) == (3, 0)
    assert spades["made"] == pytest.approx(1 / 3, abs=1e-4)
    assert spades["mean_score"] == pytest.approx(
        {"chooser": -4 / 3, "third": 1.5, "dealer": -1 / 3}, abs=1e-4
    )
    assert (no_trump["deals"], no_trump["unsolved"], no_trump["made"]) == (4, 2, 0.5)
    assert no_trump["mean_score"] == {"chooser": -0.5, "third": -0.5, "dealer": -0.5}
    longest = {row["length"]: row for row in table["by_longest"]}
    # Length 4: clubs not analyzed; hearts unsolved; spades made, so some game is.
    assert longest[4] == {
        "length": 4,
        "deals": 2,
        "trump": None,
        "no-trump": None,
        "no-tricks": None,
        "any": 0.5,
    }
    assert longest[5] == {
        "length": 5,
        "deals": 1,
        "trump": 0.0,
        "no-trump": None,
        "no-tricks": None,
        "any": None,
    }
    trumps = {row["trumps"]: row for row in table["by_trumps"]}
    assert trumps[1] == {
        "trumps": 1,
        "observations": 1,
        "made": 1.0,
        "mean_score": 1.0,
    }  # spades only
    assert trumps[5] == {"trumps": 5, "observations": 1, "made": 0.0, "mean_score": -1.0}
    assert 4 not in trumps
    assert [g["unsolved"] for g in summarize_game_stats(RECORDS)["games"]] == [0, 0, 0]


def test_read_records_names_the_bad_line():
    good = json.dumps(RECORDS[0])
    assert read_stats_lines([good, "", good]) == [RECORDS[0], RECORDS[0]]
    with pytest.raises(ValueError, match="line 2 is not JSON"):
        read_stats_lines([good, "{oops"])
    with pytest.raises(ValueError, match="line 1 is not an analysis record"):
        read_stats_lines(['{"deal": 1}'])


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
    import distributed  # the test extra installs Dask

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
    assert json.loads(result.stdout) == summarize_game_stats(RECORDS)
    tables = invoke("analyze", "--summary", str(path))
    assert tables.exit_code == 0, tables.stderr
    assert "33.3%" in tables.stdout and "no-trump" in tables.stdout
    assert "best of 3 rule-of-thumb candidates" in tables.stdout


@pytest.mark.parametrize(
    "args,parts",
    [
        (["--games", "hearts,bridge"], ("'--games'", "not a game: 'bridge'")),
        (["--candidates", "0"], ("'--candidates'", "at least 1, not 0")),
        (["--deals", "-1"], ("'--deals'", "at least 1, not -1")),
        (["--deals", "ten"], ("'--deals'", "not a whole number: 'ten'")),
        (["--first", "-1"], ("'--first'", "at least 0, not -1")),
        (["--max-nodes", "-1"], ("'--max-nodes'", "at least 0, not -1")),
        # more than the core's 64-bit counter takes (an OverflowError before)
        (["--max-nodes", str(2**64)], ("'--max-nodes'", f"not {2**64}")),
        (["--rules", "street"], ("'--rules'", "no rules 'street'")),
        (["--workers", "0"], ("'--workers'", "at least 1, not 0")),
        (
            ["--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"],
            ("--workers is for local runs",),
        ),
        (["--summary", "/nonexistent/x.jsonl"], ("can't read", "/nonexistent/x.jsonl")),
    ],
)
def test_cli_errors_are_one_line(args, parts):
    result = invoke("analyze", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("ts358: error: ")
    for part in parts:
        assert part in result.stderr, result.stderr


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


def test_a_time_limit_per_solve_is_recorded_and_cuts_hard_solves():
    record = deal_stats(3, 0, games=[Contract.NO_TRICKS], candidates=2, time_limit=0.01)
    assert record["time_limit"] == 0.01 and "max_nodes" not in record
    game = record["games"]["no-tricks"]
    assert game["unsolved"] >= 1  # a full no-tricks deal takes far longer than 10 ms
    with pytest.raises(ValueError):
        deal_stats(3, 0, time_limit=-1)


def test_cli_time_limit_errors_are_one_line():
    for value, part in (("0", "more than 0"), ("x", "'x'")):
        result = invoke("analyze", "--time-limit", value)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert "'--time-limit'" in result.stderr and part in result.stderr
