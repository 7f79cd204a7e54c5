"""Player specifications (``hard:layouts=48``): parsing, the Effort they give, the players they
make, and the arena and command line that take them."""

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_runner import run_cli
from ts358.batch.arena import run_arena
from ts358.players import (
    Effort,
    HeuristicPlayer,
    PlayerSpec,
    RandomPlayer,
    SamplingPlayer,
    make_player,
)
from ts358.players.spec import SETTINGS

EFFORT_FIELDS = [f.name for f in dataclasses.fields(Effort)]


def test_a_level_alone_is_the_default_player():
    spec = PlayerSpec.parse(" Hard ")
    assert spec == PlayerSpec("hard") and str(spec) == "hard"
    assert spec.effort() == Effort() and spec.threads() == 1
    assert isinstance(make_player("easy", 3), RandomPlayer)
    assert isinstance(make_player("medium"), HeuristicPlayer)
    hard = make_player("hard", 3)
    assert isinstance(hard, SamplingPlayer) and hard.effort == Effort() and hard.threads == 1


def test_layouts_set_every_layout_count_and_nodes_the_budget():
    effort = PlayerSpec.parse("hard:layouts=48:nodes=12000000").effort()
    default = Effort()
    assert (effort.play_early, effort.play_late, effort.choose, effort.discard, effort.give) == (
        48,
        48,
        48,
        48,
        48,
    )
    assert effort.node_budget == 12_000_000
    # What the groups do not name keeps its default.
    assert effort.late_from == default.late_from
    assert effort.discard_candidates == default.discard_candidates


def test_a_field_by_name_wins_over_its_group_whatever_the_order():
    for text in ("hard:layouts=10:play_late=30", "hard:play_late=30:layouts=10"):
        effort = PlayerSpec.parse(text).effort()
        assert effort.play_late == 30 and effort.play_early == 10 and effort.choose == 10
    assert PlayerSpec.parse("hard:node_budget=5:nodes=9").effort().node_budget == 5


def test_the_player_made_has_the_settings():
    player = make_player("hard:choose=3:threads=2", 7)
    assert isinstance(player, SamplingPlayer)
    assert player.effort == dataclasses.replace(Effort(), choose=3)
    assert player.threads == 2 and player.seed == 7
    # A thread count in the text stands over the caller's; the caller's fills in where none.
    assert make_player("hard:threads=2", threads=3).threads == 2
    assert make_player("hard", threads=3).threads == 3


@given(
    st.sampled_from(["hard", "expert"]),
    st.dictionaries(st.sampled_from(SETTINGS), st.integers(1, 256), max_size=len(SETTINGS)),
    st.randoms(use_true_random=False),
)
def test_the_written_form_round_trips_whatever_the_order(level, settings, rnd):
    own = {
        "inference": 1,
        "solver_choice": 1,
        "solver_discard": 1,
        "solver_exchange": 1,
    }
    for name, limit in own.items():  # the expert's own settings
        if name in settings:
            if level == "hard":
                del settings[name]
            else:
                settings[name] %= limit + 1
    items = list(settings.items())
    rnd.shuffle(items)
    text = ":".join([level, *(f"{n}={v}" for n, v in items)])
    spec = PlayerSpec.parse(text)
    assert dict(spec.settings) == settings
    assert PlayerSpec.parse(str(spec)) == spec
    assert hash(PlayerSpec.parse(str(spec))) == hash(spec)
    # Settings are written in one order, so equal players are equal texts.
    assert [n for n, _ in spec.settings] == [n for n in SETTINGS if n in settings]


@pytest.mark.parametrize(
    "text,message",
    [
        ("master", "not a level: 'master' (one of easy, medium, hard, expert)"),
        ("medium:layouts=4", "medium takes no settings, not 'medium:layouts=4'"),
        ("easy:nodes=4", "easy takes no settings"),
        ("hard:layout=4", "not a setting of hard: 'layout' (one of layouts, nodes, threads, play"),
        ("expert:layout=4", "not a setting of expert: 'layout'"),
        ("hard:nodes", "a setting is name=value, not 'nodes' in 'hard:nodes'"),
        ("hard:=4", "a setting is name=value, not '=4'"),
        ("hard:", "a setting is name=value, not ''"),
        ("hard:nodes=1e6", "nodes must be a whole number, not '1e6'"),
        ("hard:nodes=0", "nodes must be from 1 to 1,000,000,000,000, not 0"),
        ("hard:layouts=-2", "layouts must be from 1 to 100,000, not -2"),
        ("hard:threads=1000", "threads must be from 1 to 256, not 1,000"),
        ("hard:inference=0", "inference is a setting of expert only, not of hard"),
        ("expert:inference=2", "inference must be from 0 to 1, not 2"),
        ("expert:selfish=8", "not a setting of expert: 'selfish'"),  # removed
        ("hard:solver_choice=0", "solver_choice is a setting of expert only, not of hard"),
        ("expert:solver_discard=2", "solver_discard must be from 0 to 1, not 2"),
        ("hard:layouts=2:layouts=3", "layouts is set twice in 'hard:layouts=2:layouts=3'"),
        ("hard:layouts=" + "9" * 5000, "layouts must be a whole number, not '9999"),
    ],
)
def test_a_bad_specification_says_what_is_wrong(text, message):
    with pytest.raises(ValueError) as info:
        PlayerSpec.parse(text)
    assert message in str(info.value)
    assert len(str(info.value)) <= 300  # one line: quoted values are shortened


def test_the_arena_pools_equal_players_however_written_and_records_their_effort():
    doc = run_arena(
        ("hard:nodes=50000:layouts=2", "HARD: layouts=2 : nodes=50000", "medium"), 1, 5, workers=1
    )
    assert doc["players"] == ["hard:layouts=2:nodes=50000"] * 2 + ["medium"]
    assert [r["config"] for r in doc["results"]] == ["hard:layouts=2:nodes=50000", "medium"]
    assert doc["results"][0]["seats"] == 2
    effort = doc["efforts"]["hard:layouts=2:nodes=50000"]
    assert effort["node_budget"] == 50000 and effort["play_late"] == 2 and effort["threads"] == 1
    assert set(doc["efforts"]) == {"hard:layouts=2:nodes=50000"}  # medium has none


def test_the_arena_plays_the_settings_it_is_given():
    # Two hard players that differ only in effort must be able to decide differently: a
    # parser that dropped the settings would make them one player and the same scores.
    weak, strong = "hard:layouts=1:nodes=2000", "hard:layouts=8:nodes=400000"
    doc = run_arena((weak, strong, "medium"), 3, 2, workers=1)
    assert {r["config"] for r in doc["results"]} == {weak, strong, "medium"}
    base = run_arena((weak, weak, "medium"), 3, 2, workers=1)
    assert doc["digest"] != base["digest"]


def test_cli_takes_specifications_and_refuses_bad_ones_in_one_line():
    result = run_cli((
        "arena", "--players", "hard:layouts=1:nodes=3000,medium,easy", "--deals", "1",
        "--seed", "4", "--workers", "1", "--json",
    ))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["players"][0] == "hard:layouts=1:nodes=3000"
    bad = run_cli(("arena", "--players", "hard:layout=2,hard,medium", "--deals", "1"))
    assert bad.exit_code == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "'--players'" in lines[0] and "'layout'" in lines[0]
    assert "Traceback" not in bad.stderr
