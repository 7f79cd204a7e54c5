"""The reinforcement-learning examples (examples/rl/) run as a user runs them: the training
script reports its learning and saves weights, reproducibly from its seed, and the
evaluation script plays those very weights (or a baseline) in the duplicate arena."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ts358.rl import NUM_ACTIONS, OBSERVATION_SIZE, evaluate_policy

EXAMPLES = Path(__file__).parent.parent / "examples" / "rl"
TRAIN = EXAMPLES / "train_linear.py"
EVALUATE = EXAMPLES / "evaluate.py"
NUMBER = r"([+-]\d+\.\d{3})"


def run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done


def training_report(stdout: str) -> tuple[float, list[tuple[int, float, float]]]:
    """The untrained score and the (deals, training mean, arena mean) of each report."""
    untrained = re.search(
        rf"^untrained \(random legal actions\): arena mean {NUMBER}$", stdout, re.M
    )
    assert untrained, stdout
    reports = re.findall(
        rf"^deals +(\d+)  training mean {NUMBER}  arena mean {NUMBER}  \(\d+ s\)$", stdout, re.M
    )
    return float(untrained[1]), [(int(n), float(t), float(a)) for n, t, a in reports]


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("rl") / "weights"  # no suffix: saved under this very name
    return path, run(TRAIN, "--quick", "--seed", "3", "--save", str(path)).stdout


def load_linear_policy(path: Path):
    spec = importlib.util.spec_from_file_location("train_linear", TRAIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LinearPolicy.load(str(path))


def test_training_reports_and_saves(trained: tuple[Path, str]) -> None:
    path, stdout = trained
    untrained, reports = training_report(stdout)
    assert -16 <= untrained <= 16
    assert [n for n, _, _ in reports] == [100, 200, 300]  # --quick: 300 deals, every 100
    assert all(-16 <= t <= 16 and -16 <= a <= 16 for _, t, a in reports)
    assert stdout.rstrip().endswith(f"saved {path}")
    with np.load(path) as saved:
        assert saved["W"].shape == (5, NUM_ACTIONS, OBSERVATION_SIZE)
        assert saved["b"].shape == (5, NUM_ACTIONS)
        assert saved["mean"].shape == (5, OBSERVATION_SIZE)
        assert np.abs(saved["W"]).sum() > 0  # it learnt something


def test_training_is_reproducible_from_its_seed(trained: tuple[Path, str]) -> None:
    _, stdout = trained
    again = run(TRAIN, "--quick", "--seed", "3").stdout
    assert training_report(again) == training_report(stdout)
    other = run(TRAIN, "--quick", "--seed", "4").stdout
    assert training_report(other)[1] != training_report(stdout)[1]


def test_evaluate_plays_the_saved_weights(trained: tuple[Path, str]) -> None:
    path, _ = trained
    done = run(EVALUATE, "--weights", str(path), "--boards", "2", "--seed", "5", "--json")
    results = json.loads(done.stdout)
    assert "board 2/2" in done.stderr
    assert [r["config"] for r in results["results"]] == ["policy", "easy"]
    # The same games as the loaded weights' greedy policy in this process, and not the
    # games of the untrained policy (zero weights: the first legal action).
    policy = load_linear_policy(path)
    here = evaluate_policy(policy.greedy, ("easy", "easy"), boards=2, seed=5)
    assert results["digest"] == here["digest"]
    first = json.loads(
        run(EVALUATE, "--policy", "first-legal", "--boards", "2", "--seed", "5", "--json").stdout
    )
    assert first["digest"] != results["digest"]


def test_evaluate_prints_the_table() -> None:
    stdout = run(
        EVALUATE, "--policy", "random", "--opponents", "easy,medium", "--boards", "2"
    ).stdout
    assert stdout.startswith("2 boards x 6 seatings = 12 deals, seed 0")
    rows = dict(re.findall(r"^(policy|easy|medium) +1 +([+-]\d+\.\d\d) ", stdout, re.M))
    assert set(rows) == {"policy", "easy", "medium"}
    assert all(-16 <= float(mean) <= 16 for mean in rows.values())
    assert re.search(r"^policy - medium: [+-]\d+\.\d\d per deal", stdout, re.M)


def test_evaluate_refuses_a_bad_opponent() -> None:
    done = subprocess.run(
        [sys.executable, str(EVALUATE), "--opponents", "easy,nobody", "--boards", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "not a level: 'nobody'" in done.stderr
