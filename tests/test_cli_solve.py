"""The ``ts358 solve`` and ``ts358 deal`` commands: output, JSON, stdin, errors."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import read_until_closed, run_cli
from reference_solver import reference_move_values, reference_value
from ts358 import Card, Contract, Role
from ts358.position import Position

# hearts; the dealer led 5D; the chooser (void in diamonds) must ruff with 2H.
SMALL = """\
contract = "hearts"
[hands]
chooser = "AK.2.-.-"
third   = "Q2.-.-.3"
dealer  = "-.-.A.2"
[trick]
leader = "dealer"
cards = ["5D"]
[taken]
chooser = 4
third = 5
dealer = 4
"""

# no-tricks, no trick in progress, third on lead; several legal cards.
NO_TRICKS = """\
contract = "no-tricks"
rules = "kurnik"
lead = "third"
[hands]
chooser = "K3.-.-.5"
third   = "A.-.T.2"
dealer  = "-.2.4.4"
[taken]
chooser = 4
third = 5
dealer = 4
"""


class Runner:
    """``ts358 ARGS`` through the real entry point, with the output charset given."""

    def __init__(self, charset="utf-8"):
        self.charset = charset

    def invoke(self, args, input=None, env=None):
        return run_cli(args, input=input, env=env, charset=self.charset)


@pytest.fixture
def runner():
    return Runner()


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("small.toml").write_text(SMALL, encoding="utf-8")
    Path("misere.toml").write_text(NO_TRICKS, encoding="utf-8")
    return tmp_path


def expected(text):
    """Values computed with the reference solver:
    ({role: (tricks, score)}, [(card, tricks, score)])."""
    pos = Position.from_toml(text)
    args = (
        tuple(h.mask for h in pos.hands),
        int(pos.leader),
        [c.id for c in pos.trick],
        int(pos.contract),
        int(pos.void),
    )

    def score(role, tricks):
        if pos.contract is Contract.NO_TRICKS:
            return (3, 5, 8)[role] - tricks
        return tricks - (8, 5, 3)[role]

    players = {}
    for role in Role:
        tricks = pos.taken[role] + reference_value(*args, int(role))
        players[role.label] = {
            "tricks": tricks,
            "score": score(role, tricks),
            "bounds": [tricks, tricks],
        }
    mover = pos.to_move
    moves = []
    for cid, v in reference_move_values(*args):
        card = Card.from_id(cid)
        tricks = pos.taken[mover] + v
        moves.append((card, tricks, score(mover, tricks)))
    moves.sort(key=lambda m: (m[0].suit, -m[0].rank))
    return pos, players, moves


def one_error_line(result, *parts):
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ts358: error: ")
    for part in parts:
        assert part in lines[0], lines[0]
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


# ---------------------------------------------------------------- human output


def test_human_output_shows_hands_trick_values_and_moves(runner, files):
    result = runner.invoke(["solve", "small.toml"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert result.stderr == ""
    assert "small.toml" in out and "hearts" in out
    # the hands, suit by suit (utf-8 output: suit symbols)
    assert re.search(r"♠\s+AK\s+Q2\s+-", out)
    assert re.search(r"♥ trump\s+2\s+-\s+-", out)
    assert re.search(r"♣\s+-\s+3\s+2", out)
    assert re.search(r"taken\s+4\s+5\s+4", out)
    assert "dealer 5♦" in out
    _, players, moves = expected(SMALL)
    for role, value in players.items():
        score = value["score"]
        shown = f"{score:+d}" if score else "0"
        assert re.search(rf"^{role}\s+{value['tricks']}\s+{re.escape(shown)}\s*$", out, re.M), out
    for card, tricks, _ in moves:
        assert re.search(rf"^{card.symbol()}\s+{tricks}\s+\S+\s+best", out, re.M), out


def test_best_cards_are_marked_and_others_are_not(runner, files):
    result = runner.invoke(["solve", "misere.toml"])
    assert result.exit_code == 0, result.stderr
    _, _, moves = expected(NO_TRICKS)
    best = max(s for _, _, s in moves)
    assert len({s for _, _, s in moves}) > 1, "the example needs a card that is not best"
    for card, tricks, score in moves:
        line = next(ln for ln in result.stdout.splitlines() if ln.startswith(card.symbol()))
        assert line.split()[1] == str(tricks)
        assert ("best" in line) == (score == best), line


def test_letters_when_stdout_cannot_encode_symbols(files):
    result = Runner(charset="ascii").invoke(["solve", "small.toml"])
    assert result.exit_code == 0, result.stderr
    assert "♠" not in result.stdout
    assert re.search(r"^S\s+AK\s+Q2\s+-", result.stdout, re.M)
    assert "dealer 5D" in result.stdout


def test_no_color_is_honoured(runner, files):
    coloured = runner.invoke(["solve", "small.toml"], env={"FORCE_COLOR": "1"})
    assert "\x1b[31m" in coloured.stdout  # red hearts and diamonds
    plain = runner.invoke(["solve", "small.toml"], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert plain.exit_code == 0
    assert "\x1b[31m" not in plain.stdout


# ---------------------------------------------------------------- JSON


def test_json_shape_and_values(runner, files):
    result = runner.invoke(["solve", "--json", "small.toml"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    pos, players, moves = expected(SMALL)
    assert list(data) == ["contract", "to_move", "players", "moves", "nodes", "seconds"]
    assert data["contract"] == "hearts"
    assert data["to_move"] == pos.to_move.label == "chooser"
    assert data["players"] == players
    assert data["moves"] == [
        {"card": str(c), "tricks": t, "score": s, "bounds": [t, t]} for c, t, s in moves
    ]
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)
    assert "\x1b" not in result.stdout
    assert result.stderr == ""  # no spinner when stderr is not a terminal


def test_json_player_and_no_moves(runner, files):
    _, players, moves = expected(NO_TRICKS)
    result = runner.invoke(["solve", "--json", "--player", "dealer", "misere.toml"])
    data = json.loads(result.stdout)
    assert data["players"] == {"dealer": players["dealer"]}
    assert len(data["moves"]) == len(moves)  # every legal card of the mover (third)
    result = runner.invoke(["solve", "--json", "--no-moves", "-p", "third", "misere.toml"])
    data = json.loads(result.stdout)
    assert data["moves"] == [] and data["players"] == {"third": players["third"]}


def test_stdin_and_several_files(runner, files):
    result = runner.invoke(["solve", "--json", "misere.toml", "-", "small.toml"], input=SMALL)
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["contract"] for d in lines] == ["no-tricks", "hearts", "hearts"]
    assert lines[1]["players"] == lines[2]["players"] == expected(SMALL)[1]
    human = runner.invoke(["solve", "-"], input=NO_TRICKS)
    assert human.exit_code == 0 and "<stdin>" in human.stdout


def test_finished_position(runner, files):
    Path("done.toml").write_text(
        'contract = "spades"\n[hands]\nchooser = "-.-.-.-"\nthird = "-.-.-.-"\n'
        'dealer = "-.-.-.-"\n[taken]\nchooser = 9\nthird = 4\ndealer = 3\n'
    )
    data = json.loads(runner.invoke(["solve", "--json", "done.toml"]).stdout)
    assert data["to_move"] is None and data["moves"] == []
    assert data["players"]["chooser"] == {"tricks": 9, "score": 1, "bounds": [9, 9]}
    human = runner.invoke(["solve", "done.toml"])
    assert human.exit_code == 0 and "all cards played" in human.stdout


# ---------------------------------------------------------------- errors

GOOD_HANDS = '[hands]\nchooser = "AK.-.-.-"\nthird = "QJ.-.-.-"\ndealer = "-.2.-.3"\n'

BAD_FILES = {
    "not-toml": ('contract = "hearts\n', "not TOML"),
    "missing-hand": (
        'contract = "hearts"\n[hands]\nchooser = "A.-.-.-"\ndealer = "K.-.-.-"\n',
        "hands.third:",
    ),
    "unknown-contract": ('contract = "trumps"\n' + GOOD_HANDS, "contract:"),
    "unknown-role": ('contract = "hearts"\nlead = "north"\n' + GOOD_HANDS, "lead:"),
    "unknown-rules": ('contract = "hearts"\nrules = "bridge"\n' + GOOD_HANDS, "rules:"),
    "unknown-key": ('contract = "hearts"\n' + GOOD_HANDS + "[extra]\nx = 1\n", "extra:"),
    "bad-card": ('contract = "hearts"\n' + GOOD_HANDS.replace("QJ", "QX"), "hands.third:"),
    "duplicate-card": ('contract = "hearts"\n' + GOOD_HANDS.replace("QJ", "QK"), "hands.third:"),
    "hand-sizes": ('contract = "hearts"\n' + GOOD_HANDS.replace("QJ", "QJT"), "hands.third:"),
    "illegal-trick": (
        'contract = "hearts"\n'
        '[hands]\nchooser = "K.-.-.-"\nthird = "Q.-.-.-"\ndealer = "-.2.-.3"\n'
        '[trick]\nleader = "chooser"\ncards = ["AS", "4C"]\n',
        "trick.cards:",
    ),
    "taken-range": ('contract = "hearts"\n' + GOOD_HANDS + "[taken]\nthird = -2\n", "taken.third:"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_is_one_line_naming_file_and_key(runner, files, name):
    text, key = BAD_FILES[name]
    Path(f"{name}.toml").write_text(text, encoding="utf-8")
    result = runner.invoke(["solve", "small.toml", f"{name}.toml"])
    one_error_line(result, f"ts358: error: {name}.toml: {key}")
    assert result.stdout == ""  # every file is checked before the first solve
    result = runner.invoke(["solve", "--json", "-"], input=text)
    one_error_line(result, f"ts358: error: <stdin>: {key}")


def test_missing_file(runner, files):
    one_error_line(runner.invoke(["solve", "nowhere.toml"]), "nowhere.toml", "cannot read")


@pytest.mark.parametrize(
    "args, parts",
    [
        (["solve", "-p", "north", "small.toml"], ("'--player'", "not a role: 'north'")),
        (["solve", "--tt-mb", "0", "small.toml"], ("'--tt-mb'", "at least 1, not 0")),
        # Tables the machine can't allocate (a MemoryError) or the core can't size (an
        # OverflowError): refused before any file is read.
        (["solve", "--tt-mb", "100000", "small.toml"], ("'--tt-mb'", "at most 65536, not 100000")),
        (["solve", "--tt-mb", "2147483648", "x.toml"], ("'--tt-mb'", "not 2147483648")),
        (["solve", "--tt-mb", "lots", "small.toml"], ("'--tt-mb'", "not a whole number: 'lots'")),
        (["solve", "--tt-mb", "1.5", "small.toml"], ("'--tt-mb'", "'1.5'")),
        (["solve"], ("Missing argument 'FILE",)),
        (["solve", "--time-limit", "0", "small.toml"], ("'--time-limit'", "more than 0")),
        (["solve", "--time-limit", "-2", "small.toml"], ("more than 0 seconds", "not -2")),
        (["solve", "--time-limit", "soon", "small.toml"], ("'--time-limit'", "'soon'")),
        (["solve", "--time-limit", "inf", "small.toml"], ("'--time-limit'", "'inf'")),
        (["solve", "--time-limit", "1e9", "small.toml"], ("'--time-limit'", "to 1000000", "'1e9'")),
        (["deal", "--seed", "1", "--contract", "bridge"], ("'--contract'", "not a game: 'bridge'")),
        (["deal", "--seed", "1", "-c", ""], ("'--contract'", "not a game: ''")),
        (["deal", "--seed", "1", "--rules", "x"], ("'--rules'", "not a rule set: 'x'")),
        (["deal", "--seed", "-1"], ("'--seed'", "at least 0, not -1")),
        (["deal", "--seed", "one"], ("'--seed'", "not a whole number: 'one'")),
        (["deal"], ("Missing option '--seed'",)),
    ],
)
def test_bad_options_are_one_line_naming_option_and_value(runner, files, args, parts):
    line = one_error_line(runner.invoke(args), *parts)
    if "Missing" not in line:
        assert line.startswith("ts358: error: Invalid value for ")


def test_a_table_too_large_for_the_memory_is_one_line(runner, files, monkeypatch):
    def no_memory(tt_mb):
        raise MemoryError("cannot allocate the transposition table")

    monkeypatch.setattr("ts358.cli.solve.new_solver", no_memory)
    result = runner.invoke(["solve", "--tt-mb", "65536", "small.toml"])
    one_error_line(result, "65536 MB", "--tt-mb")
    assert result.stdout == ""


def test_ctrl_c_exits_130(runner, files, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("ts358.cli.solve.solve", interrupted)
    result = runner.invoke(["solve", "small.toml"])
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------- deal


def test_deal_writes_a_file_that_solve_reads(runner, files):
    result = runner.invoke(
        ["deal", "--seed", "7", "--contract", "clubs", "--rules", "kurnik", "--out", "deal.toml"]
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and "deal.toml" in result.stderr
    pos = Position.load("deal.toml")
    assert pos == Position.random(7, Contract.CLUBS, "kurnik")
    assert [len(h) for h in pos.hands] == [16, 16, 16] and pos.to_move is Role.CHOOSER
    # a full deal: one player without per-card values keeps the test short
    solved = runner.invoke(["solve", "--json", "--no-moves", "-p", "chooser", "deal.toml"])
    assert solved.exit_code == 0, solved.stderr
    data = json.loads(solved.stdout)
    assert data["contract"] == "clubs" and set(data["players"]) == {"chooser"}
    assert 0 <= data["players"]["chooser"]["tricks"] <= 16


def test_deal_to_stdout_is_deterministic(runner):
    first = runner.invoke(["deal", "--seed", "3"])
    second = runner.invoke(["deal", "--seed", "3"])
    assert first.exit_code == 0 and first.stdout == second.stdout
    assert Position.from_toml(first.stdout) == Position.random(3, Contract.NO_TRUMP)


def test_help_teaches_the_file_format(runner):
    text = runner.invoke(["solve", "--help"], env={"COLUMNS": "100"}).stdout
    for word in ("[hands]", "[trick]", "[taken]", "contract", "--json", "--no-moves", "Examples"):
        assert word in text, word
    # The JSON shape's brackets survive Rich's markup (an unescaped "[lo, hi]" vanished).
    assert "bounds is [lo, hi]" in " ".join(text.split())
    assert "--seed" in runner.invoke(["deal", "--help"]).stdout


# ---------------------------------------------------------------- a real terminal


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_solve_in_a_pseudo_terminal(files):
    import ts358

    master, slave = os.openpty()
    env = dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", COLUMNS="100")
    env.pop("NO_COLOR", None)
    env.pop("PYTHONIOENCODING", None)
    src = str(Path(ts358.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    proc = subprocess.Popen(
        [sys.executable, "-m", "ts358", "solve", "small.toml"], stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    terminal = read_until_closed(master)
    os.close(master)
    assert proc.wait(timeout=60) == 0
    out = terminal.decode("utf-8")
    assert "♠" in out and "\x1b[" in out  # symbols and colour on a terminal
    assert "best" in out
    # The spinner on stderr while the file is solved, erased (cursor shown again) before
    # the results.
    spinner = out.index("solving small.toml")
    assert out.index("\x1b[?25h", spinner) < out.index("best")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_real_ctrl_c_during_a_long_solve_exits_130(files):
    import signal
    import time

    import ts358

    # a full no-tricks deal with every card valued: many seconds of search
    Path("long.toml").write_text(Position.random(0, Contract.NO_TRICKS).to_toml())
    env = dict(os.environ)
    src = str(Path(ts358.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    # A child of a background job inherits SIGINT ignored, and Python then installs no
    # handler: give the child the default disposition, as a terminal would.
    # small.toml first: its JSON line shows that the command is running (imports done)
    # and that the long solve is starting.
    proc = subprocess.Popen(
        [sys.executable, "-m", "ts358", "solve", "--json", "small.toml", "long.toml"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert json.loads(proc.stdout.readline())["contract"] == "hearts"
        time.sleep(1.0)
        assert proc.poll() is None, "the solve ended too soon to test Ctrl-C"
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 10 s after SIGINT")
        assert proc.returncode == 130
        assert time.perf_counter() - start < 5  # the search checks for signals
        assert b"Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_time_limit_gives_bounds_in_json_and_ranges_in_tables(runner, files):
    Path("hard.toml").write_text(Position.random(81, Contract.NO_TRICKS).to_toml())
    result = runner.invoke(["solve", "--json", "--time-limit", "0.2", "hard.toml"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    inexact = [p for p in data["players"].values() if p["bounds"][0] < p["bounds"][1]]
    assert inexact and all(p["tricks"] is None and p["score"] is None for p in inexact)
    for m in data["moves"]:
        lo, hi = m["bounds"]
        assert 0 <= lo <= hi <= 16 and (m["tricks"] is None) == (lo < hi)
    table = runner.invoke(["solve", "--time-limit", "0.2", "hard.toml"])
    assert table.exit_code == 0 and "time limit was reached" in table.stdout
    assert any(f"{lo}-{hi}" in table.stdout for p in inexact for lo, hi in [p["bounds"]])
    # Without a limit the small position is exact: bounds equal, no note.
    exact = runner.invoke(["solve", "--time-limit", "30", "small.toml"])
    assert exact.exit_code == 0 and "time limit" not in exact.stdout
