"""``ts358 --help`` and every command's: flags shown as flags (no value type), arguments by
their name, each option with its help; and ``ts358 --version``."""

from __future__ import annotations

import importlib.metadata
import re

import pytest
import typer

from cli_runner import run_cli
from ts358.cli import app

COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
VALUE_TYPE = re.compile(r"<\w+(?:\[\w+\])?>")  # how Typer writes a type: <bool>, <list[str]>


def help_of(*command):
    result = run_cli([*command, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_every_command_is_checked():
    assert {"play", "stats", "solve", "deal", "arena", "analyze"} <= set(COMMANDS)


@pytest.mark.parametrize("command", [(), *((c,) for c in COMMANDS)])
def test_help_shows_flags_as_flags_and_arguments_by_name(command):
    text = help_of(*command)
    assert not VALUE_TYPE.search(text), VALUE_TYPE.findall(text)
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage  # Typer's {FILE}...
    assert re.search(r"--help\s+Show this message and exit", text)


def test_the_flags_and_arguments_read_as_typed():
    play = help_of("play")
    for flag in ("--auto", "--ascii", "--no-ascii", "--analysis", "--no-analysis"):
        assert re.search(rf"{flag}\b", play), flag
    assert re.search(r"--analysis-time\s+SECONDS", play) and re.search(r"--resume\s+FILE", play)
    solve = help_of("solve")
    assert "Usage: ts358 solve [OPTIONS] FILE..." in solve
    assert re.search(r"\*\s+FILE\.\.\.\s+Position files", solve)
    assert re.search(r"--version\s+Print the version and exit", help_of())


def test_version():
    result = run_cli(["--version"])
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == f"ts358 {importlib.metadata.version('ts358')}\n"
