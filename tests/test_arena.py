"""The duplicate-deal arena: boards with a real match context, every seat permutation, the
statistics worked out by hand, reproducible whatever the number of workers or the cluster."""

import json
import math
import os
import pty
import subprocess
import sys

import pytest

from cli_runner import read_until_closed, run_cli
from ts358.batch.arena import (
    BoardOutcome,
    TimeHistogram,
    make_board,
    play_board,
    run_arena,
    seat_permutations,
    summarize_arena,
    t_quantile,
)
from ts358.players import HeuristicPlayer, make_player
from ts358.rules import Contract


def invoke(*args):
    """``ts358 ARGS`` through the console-script entry point, stdout and stderr apart."""
    return run_cli(args)


def reproducible(doc):
    """The results document without what depends on the machine (times, execution)."""
    doc = {k: v for k, v in doc.items() if k != "execution"}
    doc["results"] = [{k: v for k, v in r.items() if k != "decision_ms"} for r in doc["results"]]
    return doc


# ---------------------------------------------------------------------- boards


def test_boards_are_a_function_of_seed_and_index():
    assert make_board(5, 3) == make_board(5, 3)
    assert make_board(5, 3).setup != make_board(5, 4).setup
    assert make_board(5, 3).setup != make_board(6, 3).setup


def test_board_context_is_a_real_match_state():
    numbers = set()
    for index in range(24):
        board = make_board(1, index)
        number = board.setup.number
        numbers.add(number)
        assert 1 <= number <= 6
        used = [6 - len(a) for a in board.available]
        # One game used up per deal played before, at most 2 per seat in a 6-deal match.
        assert sum(used) == number - 1 and max(used) <= 2
        assert len(board.available[board.setup.chooser]) >= 5
        if number == 1:
            assert board.previous_scores is None and board.totals == (0, 0, 0)
        else:
            assert board.previous_scores is not None and sum(board.previous_scores) == 0
        assert sum(board.totals) == 0
    assert len(numbers) >= 4  # the deal number really varies


@pytest.mark.parametrize(
    "configs,count",
    [(("a", "b", "c"), 6), (("hard", "medium", "medium"), 3), (("x", "x", "x"), 1)],
)
def test_each_configuration_holds_each_seat_equally_often(configs, count):
    perms = seat_permutations(configs)
    assert len(perms) == count == len(set(perms))
    for label in set(configs):
        per_seat = [sum(p[s] == label for p in perms) for s in range(3)]
        assert per_seat == [per_seat[0]] * 3
        assert per_seat[0] * 3 == configs.count(label) * count


def test_every_permutation_plays_the_same_cards():
    # Three copies of one deterministic player, under three names: six seatings, and the
    # same cards and context give the same deal each time.
    board = make_board(2, 0)
    outcome = play_board(board, ("p", "q", "r"), 2, lambda config, seed: HeuristicPlayer())
    assert len(outcome.scores) == 6
    assert len(set(outcome.scores)) == 1 and len(set(outcome.games)) == 1
    assert all(sum(s) == 0 for s in outcome.scores)
    assert Contract.parse(outcome.games[0]) in board.available[board.setup.chooser]


def test_player_seeds_depend_on_board_permutation_and_seat_only():
    calls = []

    def factory(config, seed):
        calls.append((config, seed))
        return make_player(config, seed)

    board = make_board(4, 1)
    first = play_board(board, ("easy", "medium", "medium"), 4, factory)
    seats = [c for c, _ in calls]
    assert seats == [
        level for perm in seat_permutations(("easy", "medium", "medium")) for level in perm
    ]
    assert len({seed for _, seed in calls}) == 9
    again = []
    second = play_board(
        board,
        ("easy", "medium", "medium"),
        4,
        lambda c, s: again.append((c, s)) or make_player(c, s),
    )
    assert again == calls and second.scores == first.scores
    other = []
    play_board(
        board,
        ("easy", "medium", "medium"),
        5,
        lambda c, s: other.append((c, s)) or make_player(c, s),
    )
    assert {s for _, s in other}.isdisjoint(s for _, s in calls)


# ---------------------------------------------------------------------- statistics


@pytest.mark.parametrize(
    "df,value",
    [
        (1, 12.706),
        (2, 4.303),
        (3, 3.182),
        (4, 2.776),
        (5, 2.571),
        (10, 2.228),
        (30, 2.042),
        (120, 1.980),
    ],
)
def test_t_quantile_matches_the_printed_table(df, value):
    assert t_quantile(0.975, df) == pytest.approx(value, abs=0.004)


def test_summary_worked_by_hand():
    # Seatings in order: (A,B,B), (B,A,B), (B,B,A).
    boards = [
        BoardOutcome(
            0,
            1,
            ((2, -1, -1), (1, 1, -2), (0, 0, 0)),
            ("hearts",) * 3,
            {
                "A": {"play": TimeHistogram([0.001]), "choose": TimeHistogram([0.003])},
                "B": {"play": TimeHistogram([0.002])},
            },
        ),
        BoardOutcome(
            1,
            2,
            ((-2, 1, 1), (0, -3, 3), (1, 2, -3)),
            ("spades",) * 3,
            {"A": {"play": TimeHistogram([0.010])}, "B": {}},
        ),
    ]
    doc = summarize_arena(("A", "B", "B"), list(reversed(boards)))  # order given doesn't matter
    a, b = doc["results"]
    assert (a["config"], a["seats"], b["config"], b["seats"]) == ("A", 1, "B", 2)
    assert doc["boards"] == 2 and doc["permutations"] == 3 and doc["deals"] == 6
    # A per board: (2 + 1 + 0)/3 = 1 and (-2 - 3 - 3)/3 = -8/3.
    assert a["mean"] == pytest.approx(-5 / 6, abs=1e-4)
    half = 12.706 * (11 / 3) / 2**0.5 / 2**0.5
    assert a["ci95"] == pytest.approx([-5 / 6 - half, -5 / 6 + half], abs=0.01)
    # B per board: (-1 - 1 + 1 - 2 + 0 + 0)/6 = -1/2 and (1 + 1 + 0 + 3 + 1 + 2)/6 = 4/3.
    assert b["mean"] == pytest.approx(5 / 12, abs=1e-4)
    # Wins: board 0, A 1 + 1/2 + 1/3, B 1/2 + 2/3; board 1, B wins all three deals.
    assert a["won"] == pytest.approx((11 / 6) / 6, abs=1e-4)
    assert b["won"] == pytest.approx((7 / 6 + 3) / 12, abs=1e-4)
    assert a["seat_deals"] == 6 and b["seat_deals"] == 12
    assert a["decisions"] == 3 and b["decisions"] == 1
    assert a["decision_ms"]["median"] == pytest.approx(3.0, rel=0.005)
    assert a["decision_ms"]["max"] == 10.0
    assert b["decision_ms"]["median"] == pytest.approx(2.0, rel=0.005)
    # By kind, merged over the boards: A played in 1 and 10 ms and chose in 3.
    by_kind = a["decision_ms"]["by_kind"]
    assert sorted(by_kind) == ["choose", "play"]
    assert by_kind["play"]["count"] == 2 and by_kind["play"]["max"] == 10.0
    assert by_kind["play"]["median"] == pytest.approx(1.0, rel=0.005)
    assert by_kind["choose"]["count"] == 1
    assert by_kind["choose"]["p99"] == pytest.approx(3.0, rel=0.005)
    (pair,) = doc["pairs"]
    assert (pair["a"], pair["b"]) == ("A", "B")
    assert pair["mean_difference"] == pytest.approx((1.5 - 4) / 2, abs=1e-4)


def test_time_histogram_median_within_half_a_percent():
    import random
    import statistics

    rng = random.Random(3)
    times = [rng.lognormvariate(-7, 2) for _ in range(2001)]
    whole = TimeHistogram(times[:1000])
    whole.merge(TimeHistogram(times[1000:]))
    assert whole.count == 2001 and whole.max == max(times)
    assert whole.median() == pytest.approx(statistics.median(times), rel=0.005)
    assert TimeHistogram().median() is None
    ordered = sorted(times)
    for q in (0.1, 0.9, 0.99):
        assert whole.quantile(q) == pytest.approx(ordered[math.ceil(q * 2001) - 1], rel=0.005)
    assert whole.quantile(1.0) == pytest.approx(max(times), rel=0.005)
    assert TimeHistogram().quantile(0.9) is None
    assert TimeHistogram([0.0]).median() == 0.0


def test_one_board_has_no_interval():
    doc = summarize_arena(
        ("A", "B", "C"), [BoardOutcome(0, 1, ((1, 0, -1),) * 6, ("hearts",) * 6, {})]
    )
    assert all(r["ci95"] is None for r in doc["results"])


# ---------------------------------------------------------------------- runs


@pytest.fixture(scope="module")
def local_doc():
    return run_arena(("medium", "easy", "easy"), 8, 11, workers=1)


def test_medium_beats_random_and_scores_balance(local_doc):
    medium, easy = local_doc["results"]
    assert (medium["config"], easy["config"]) == ("medium", "easy")
    # Every deal's scores sum to zero, so the seat-weighted means do too.
    assert medium["mean"] * 1 + easy["mean"] * 2 == pytest.approx(0, abs=1e-3)
    assert local_doc["deals"] == 24 and medium["seat_deals"] == 24 and easy["seat_deals"] == 48
    (pair,) = local_doc["pairs"]
    assert pair["ci95"][0] > 0  # the rule of thumb is clearly better than random play
    assert medium["won"] > 1 / 3 > easy["won"]
    # At least the 16 cards of each seat-deal were decisions, each timed.
    assert medium["decisions"] >= 16 * 24 and easy["decisions"] >= 16 * 48
    assert 0 <= medium["decision_ms"]["median"] <= medium["decision_ms"]["max"]


def test_same_results_whatever_the_workers_and_chunks(local_doc):
    pooled = run_arena(("medium", "easy", "easy"), 8, 11, workers=2, chunk_cap=3)
    one_by_one = run_arena(("medium", "easy", "easy"), 8, 11, workers=1, chunk_cap=1)
    assert pooled["execution"]["chunks"] > 1 and one_by_one["execution"]["chunks"] == 8
    assert reproducible(pooled) == reproducible(local_doc) == reproducible(one_by_one)
    other_seed = run_arena(("medium", "easy", "easy"), 8, 12, workers=1)
    assert other_seed["digest"] != local_doc["digest"]


def test_same_results_on_a_dask_cluster(local_doc):
    import distributed  # the test extra installs Dask

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        result = invoke(
            "arena",
            "--players",
            "medium,easy,easy",
            "--deals",
            "8",
            "--seed",
            "11",
            "--scheduler",
            cluster.scheduler_address,
            "--json",
        )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["execution"]["scheduler"] == cluster.scheduler_address
    assert reproducible(doc) == reproducible(local_doc)


# ---------------------------------------------------------------------- command line


def test_cli_json_matches_the_api_and_keeps_streams_apart(local_doc):
    result = invoke(
        "arena",
        "--players",
        "medium,easy,easy",
        "--deals",
        "8",
        "--seed",
        "11",
        "--workers",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    assert reproducible(json.loads(result.stdout)) == reproducible(local_doc)


def test_cli_table():
    result = invoke(
        "arena", "--players", "easy,medium,easy", "--deals", "2", "--seed", "3", "--workers", "1"
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "medium" in out and "easy" in out and "95% CI" in out
    assert "2 boards x 3 seatings = 6 deals" in out
    assert " on 1 local worker; " in out  # a count in good English: not "1 local worker(s)"


@pytest.mark.parametrize(
    "args,parts",
    [
        (["--players", "medium,easy"], ("'--players'", "three levels", "'medium,easy'")),
        (["--players", "medium,master,easy"], ("'--players'", "not a level: 'master'")),
        (["--deals", "0"], ("'--deals'", "at least 1, not 0")),
        (["--deals", "many"], ("'--deals'", "not a whole number: 'many'")),
        (["--seed", "-3"], ("'--seed'", "at least 0, not -3")),
        (["--workers", "0"], ("'--workers'", "at least 1, not 0")),
        (["--workers", "two"], ("'--workers'", "not a whole number: 'two'")),
        (["--scheduler", " "], ("'--scheduler'", "an address")),
        (
            ["--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"],
            ("--workers is for local runs",),
        ),
    ],
)
def test_cli_errors_are_one_line(args, parts):
    result = invoke("arena", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("ts358: error: ")
    for part in parts:
        assert part in result.stderr, result.stderr


def test_cli_without_dask_gives_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = invoke("arena", "--deals", "1", "--seed", "1", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "pip install 'ts358[dask]'" in result.stderr


def test_progress_bar_on_a_terminal_and_clean_json_on_stdout():
    # stderr is a real pseudo-terminal, stdout a pipe: the bar goes to the terminal only.
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="100", TERM="xterm")
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ts358",
            "arena",
            "--players",
            "medium,easy,easy",
            "--deals",
            "4",
            "--seed",
            "1",
            "--workers",
            "1",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    terminal = read_until_closed(master)
    stdout, _ = proc.communicate(timeout=60)
    os.close(master)
    assert proc.returncode == 0, terminal.decode(errors="replace")
    assert json.loads(stdout)["boards"] == 4
    assert b"arena" in terminal
