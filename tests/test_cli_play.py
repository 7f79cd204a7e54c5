"""``ts358 play``: --auto plays and prints a match and writes a record that replays; bad
options are one line on stderr with exit code 2."""

import re
import sys
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from ts358.cli import main
from ts358.record import load_record, replay

runner = CliRunner()


def invoke(*args):
    """``ts358 play ARGS`` through the console-script entry point, stdout and stderr apart.

    ``main`` is what turns a CommandError into one line and exit 2 (Typer's own handling
    behind ``CliRunner.invoke`` doesn't know it), so run it in the runner's isolation."""
    code = 0
    with runner.isolation() as (out, err, _):
        try:
            main(["play", *args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return SimpleNamespace(exit_code=code, stdout=stdout, stderr=stderr)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_auto_match_writes_a_record_that_replays(tmp_path, level):
    path = tmp_path / "match.json"
    result = invoke("--auto", "--deals", "3", "--seed", "12", "--level", level, "--record", str(path))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    record = load_record(path)
    match = replay(record)
    assert record["seed"] == 12 and record["length"] == 3
    # Each deal's game, its 16 tricks and the scores are printed.
    for deal in record["deals"]:
        assert f"Deal {deal['number']}:" in out
        assert f"game: {deal['game']}" in out
    assert len(re.findall(r"^\s+\d+\. .* won by ", out, re.M)) == 3 * 16
    assert out.count("scores:") == 3
    assert "Final standings:" in out
    names = record["players"]
    standings = out.split("Final standings:")[1]
    for seat, name in enumerate(names):
        assert re.search(rf"{match.standings()[seat]}\. {name}\s+{re.escape(f'{match.totals[seat]:+d}')}", standings)
    assert "Record written" in result.stderr


def test_same_seed_same_output():
    a = invoke("--auto", "--deals", "3", "--seed", "4")
    b = invoke("--auto", "--deals", "3", "--seed", "4")
    assert a.exit_code == 0 and a.stdout == b.stdout


def test_kurnik_rules(tmp_path):
    path = tmp_path / "k.json"
    result = invoke("--auto", "--deals", "3", "--seed", "2", "--rules", "kurnik", "--record", str(path))
    assert result.exit_code == 0
    assert load_record(path)["rules"]["void"] == "kurnik"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--auto", "--deals", "4"], "--deals"),
        (["--auto", "--deals", "six"], "--deals"),
        (["--auto", "--seed", "x"], "--seed"),
        (["--auto", "--level", "hard"], "--level"),
        (["--auto", "--rules", "strict"], "--rules"),
        (["--deals", "3"], "interactive"),
        (["--auto", "--deals", "3", "--seed", "1", "--record", "/nonexistent/dir/m.json"], "record"),
    ],
)
def test_bad_options_one_line_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ts358: error:") and message in lines[0]
