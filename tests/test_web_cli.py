"""``ts358 serve`` at the command line: its help, and one line with exit code 2 for a port
that is taken, a bad option, an address that is not this machine's, a missing extra."""

from __future__ import annotations

import importlib.util

from cli_runner import run_cli
from ts358.web.server import bind, public_url


def test_help_teaches():
    result = run_cli(["serve", "--help"])
    assert result.exit_code == 0
    for words in ("--host", "--port", "--open", "0.0.0.0", "ts358[web]", "link"):
        assert words in result.stdout, words


def test_a_port_that_is_taken_is_one_line():
    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        result = run_cli(["serve", "--port", str(port)])
    finally:
        taken.close()
    assert result.exit_code == 2
    assert result.stderr == (
        f"ts358: error: port {port} is taken on 127.0.0.1 (is ts358 serve running already? "
        "--port chooses another)\n"
    )


def test_bad_options_are_one_line():
    for args, words in (
        (["--port", "70000"], "must be at most 65535"),
        (["--port", "x"], "not a whole number"),
        (["--host", "no-such-host.invalid"], "--host no-such-host.invalid: not an address"),
    ):
        result = run_cli(["serve", *args])
        assert result.exit_code == 2, args
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_without_the_extra_it_says_what_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "starlette" else real(name)
    )
    result = run_cli(["serve"])
    assert result.exit_code == 2
    assert result.stderr == (
        "ts358: error: ts358 serve needs the web extra (starlette missing): "
        'pip install "ts358[web]"\n'
    )


def test_links_name_the_address_friends_reach():
    assert public_url("127.0.0.1", 8358) == "http://127.0.0.1:8358"
    assert public_url("::1", 80) == "http://[::1]:80"
    assert not public_url("0.0.0.0", 8358).startswith("http://0.0.0.0")
