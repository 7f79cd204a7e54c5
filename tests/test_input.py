"""Crafted input never crashes ``ts358``: a position, record or save nested thousands deep, with
a number of thousands of digits, a value of megabytes, a byte-order mark, or ``/dev/zero``
for a file; usage errors; Ctrl-C during the imports. Every one gives one short line on stderr
and exit code 2 (130 for Ctrl-C), never a traceback; the fuzz tests mutate real files at
random and require the same of whatever comes out (or exit 0 when it is still valid).
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ts358.cli
from cli_runner import run_cli
from test_save import played
from ts358._input import MAX_INPUT_BYTES, QUOTE_CHARS, quote
from ts358.match import Match
from ts358.players import make_player
from ts358.position import Position, PositionError
from ts358.record import RecordError, format_record, load_record, match_record, replay
from ts358.rules import Contract, Rules
from ts358.table.saves import SavedMatch, to_json

LONGEST_LINE = 250
"""The longest error line accepted: the file's name, where in it, what is wrong and the values
at fault, each quoted at most QUOTE_CHARS long (a game's error lists the six games too)."""

DEEP = 3000
"""Nesting deeper than Python's recursion limit (1000), which the parsers recurse by."""


@pytest.fixture(autouse=True)
def _workdir(tmp_path, monkeypatch):
    """Files under short relative names (error lines start with them), a data directory of
    the test's own, English."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


def one_short_error_line(result, *parts):
    assert result.exit_code == 2, (result.exit_code, result.stdout[-500:], result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[:2000]
    line = lines[0]
    assert line.startswith("ts358: error: ") and len(line) <= LONGEST_LINE, line[:2000]
    for part in parts:
        assert part in line, line
    return line


# ---------------------------------------------------------------- the files mutated


def small_position(seed):
    """A position three tricks from the end (solved at once), some with a trick in progress."""
    contract = list(Contract)[seed % 6]
    pos = Position.random(seed, contract)
    rng = random.Random(seed)
    for _ in range(39 + seed % 3):
        pos = pos.play(rng.choice(sorted(pos.legal_moves())))
    return pos


POSITIONS = [small_position(seed).to_toml() for seed in range(4)] + [
    # Hand-written, as in the README: comments, defaults left out, a trick in progress.
    'contract = "hearts"  # the game\n[hands]\nchooser = "AK.T9.-.-"\nthird = "QJ.-.K.2"\n'
    'dealer = "32.2.-.-"\n[trick]\nleader = "dealer"\ncards = ["4C"]\n'
    "[taken]\nchooser = 6\nthird = 4\ndealer = 2\n"
]


def saved_text(seed, decisions):
    """A save (as write_save writes it) of a 3-deal match after ``decisions`` decisions."""
    saved = SavedMatch(played(seed, decisions), f"id-{seed}", 0, "medium")
    return json.dumps(to_json(saved), indent=1) + "\n"


SAVES = [saved_text(5, 0), saved_text(6, 9), saved_text(7, 75), saved_text(8, 10**6)]


def record_text(seed):
    match = Match(Rules(length=3), seed)
    match.run([make_player("easy", seed * 3 + s) for s in range(3)])
    return format_record(match_record(match))


def hand_made_record_text(seed):
    """A record without a seed: its deals are checked only against each other."""
    record = json.loads(record_text(seed))
    record["seed"] = None
    return format_record(record)


RECORDS = [record_text(9), hand_made_record_text(10)]


# ---------------------------------------------------------------- quoting and reading


@pytest.mark.parametrize(
    "value",
    [
        "x" * 10**6,
        "a\nb" * 1000,
        10**5000,  # more digits than str() converts
        -(10**100),
        ["y" * 1000] * 1000,
        {"k" * 1000: "v" * 1000},
        "\u2028" * 100,  # a line separator to str.splitlines
    ],
    ids=["long-text", "line-breaks", "huge-int", "long-int", "long-list", "dict", "separators"],
)
def test_quote_is_one_short_line_for_any_value(value):
    text = quote(value)
    assert len(text) <= QUOTE_CHARS and len(text.splitlines()) == 1


def test_quote_shows_a_nesting_deeper_than_the_recursion_limit():
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    assert quote(deep).startswith("[[[") and len(quote(deep)) <= QUOTE_CHARS


def test_quote_leaves_short_values_as_their_repr():
    assert [quote(v) for v in ("north", 17, None, [1, 2])] == ["'north'", "17", "None", "[1, 2]"]


# ---------------------------------------------------------------- the probes


def deep_array(depth=DEEP):
    return "[" * depth + "]" * depth


def test_a_position_nested_thousands_deep_is_one_line():
    Path("deep.toml").write_text(f"contract = {deep_array()}\n")
    one_short_error_line(run_cli(["solve", "deep.toml"]), "deep.toml: nested too deeply")
    Path("inline.toml").write_text("contract = " + "{a = " * DEEP + "1" + "}" * DEEP + "\n")
    one_short_error_line(run_cli(["solve", "inline.toml"]), "nested too deeply")


def test_a_save_nested_thousands_deep_is_one_line():
    Path("deep.json").write_text(f'{{"format": {deep_array()}}}')
    result = run_cli(["play", "--resume", "deep.json"])
    one_short_error_line(result, "deep.json: not a ts358 save (nested too deeply)")


def test_a_record_nested_thousands_deep_is_a_record_error():
    Path("deep.json").write_text(deep_array())
    with pytest.raises(RecordError, match=r"^deep.json: nested too deeply$"):
        load_record("deep.json")


def test_a_record_error_names_its_deal_once():  # found by test_fuzz_records
    record = json.loads(RECORDS[1])
    record["deals"][0]["dealer"] = None
    with pytest.raises(RecordError, match=r"^deal 1: key 'dealer' has the wrong type \(None\)$"):
        replay(record)


@pytest.mark.parametrize(
    "name", ["\x1b[2J\x1b[31mYou", "a\nb", "\u202eevil", "", "x" * 41, "\u2028"]
)
def test_a_player_name_that_would_reach_the_terminal_raw_is_refused(name):
    save = json.loads(SAVES[1])
    save["players"][1] = name
    Path("name.json").write_text(json.dumps(save))
    result = run_cli(["play", "--resume", "name.json", "--no-analysis"], input="quit\n")
    one_short_error_line(result, "name.json: ", "key 'players': a player's name")
    record = json.loads(RECORDS[0])
    record["players"][2] = name
    with pytest.raises(RecordError, match=r"^record: a player's name"):
        replay(record)
    with pytest.raises(ValueError, match="a player's name"):
        Match(Rules(length=3), 1, ["You", name, "Right"])


def test_names_with_spaces_and_letters_of_any_script_are_taken():
    assert Match(Rules(length=3), 1, ["Zażółć gęślą", "Příliš žluťoučký", "x" * 40]).names[0]


def with_seed(text, digits):
    data = json.loads(text)
    data["seed"] = 0
    return json.dumps(data).replace('"seed": 0', f'"seed": {digits}')


def test_a_seed_of_thousands_of_digits_in_a_save_is_one_line():
    Path("seed.json").write_text(with_seed(SAVES[1], "9" * 5000))
    result = run_cli(["play", "--resume", "seed.json"])
    one_short_error_line(result, "seed.json: not a ts358 save (a number with too many digits)")


def test_a_seed_of_thousands_of_digits_in_a_record_is_a_record_error():
    Path("seed.json").write_text(with_seed(RECORDS[0], "9" * 5000))
    with pytest.raises(RecordError, match=r"^seed.json: a number with too many digits$"):
        load_record("seed.json")


@pytest.mark.parametrize(
    "number",
    ["9" * 5000, "0x" + "f" * 5000, "0o" + "7" * 5000, "0b" + "1" * 20000],
    ids=["decimal", "hex", "octal", "binary"],
)
def test_a_position_with_a_number_of_thousands_of_digits_is_one_line(number):
    # Hex, octal and binary numbers are read at any length, and the error then quotes one
    # too long for str().
    Path("n.toml").write_text(POSITIONS[4] + f"[trick.x]\nn = {number}\n")
    Path("taken.toml").write_text(POSITIONS[4].replace("chooser = 6", f"chooser = {number}"))
    one_short_error_line(run_cli(["solve", "n.toml"]), "n.toml: ")
    one_short_error_line(run_cli(["solve", "taken.toml"]), "taken.toml: ")


@pytest.mark.parametrize("count", ["²", "9" * 5000])
def test_tricks_taken_in_notation_that_int_refuses_are_a_position_error(count):
    with pytest.raises(PositionError, match=r"^taken: expected three counts"):
        Position.parse(f"hearts house A.-.-.-/K.-.-.-/-.2.-.- chooser - {count}/0/0")


def test_a_value_of_megabytes_is_quoted_short():
    long = "x" * (MAX_INPUT_BYTES // 2)
    Path("contract.toml").write_text(POSITIONS[4].replace('"hearts"', f'"{long}"'))
    one_short_error_line(run_cli(["solve", "contract.toml"]), "contract: not a game: 'xxx")
    Path("hand.toml").write_text(POSITIONS[4].replace('"QJ.-.K.2"', f'"{long}"'))
    one_short_error_line(run_cli(["solve", "hand.toml"]), "hands.third: not a hand: 'xxx")
    Path("key.toml").write_text(POSITIONS[4] + f'"{long}\\n" = 1\n')
    one_short_error_line(run_cli(["solve", "key.toml"]), "unknown key")
    save = json.loads(SAVES[1])
    save["level"] = long
    Path("level.json").write_text(json.dumps(save))
    one_short_error_line(run_cli(["play", "--resume", "level.json"]), "level 'xxx")
    save["level"], save["decisions"][0] = "medium", long
    Path("decision.json").write_text(json.dumps(save))
    one_short_error_line(run_cli(["play", "--resume", "decision.json"]), "decision 1")
    record = json.loads(RECORDS[0])
    record["format"] = long
    with pytest.raises(RecordError) as error:
        replay(record)
    assert len(str(error.value)) <= LONGEST_LINE


def test_an_input_larger_than_the_cap_is_one_line_naming_the_cap():
    Path("big.toml").write_text('contract = "' + "x" * 20 * 2**20 + '"\n')
    one_short_error_line(run_cli(["solve", "big.toml"]), "big.toml: larger than 1 MB")
    result = run_cli(["solve", "-"], input=b" " * (MAX_INPUT_BYTES + 1))
    one_short_error_line(result, "<stdin>: larger than 1 MB")
    Path("big.json").write_bytes(b" " * (MAX_INPUT_BYTES + 1))
    result = run_cli(["play", "--resume", "big.json"])
    one_short_error_line(result, "big.json: not a ts358 save (larger than 1 MB")
    with pytest.raises(RecordError, match="larger than 1 MB"):
        load_record("big.json")
    # The JSON lines of `ts358 analyze` are capped line by line: a long run's file is long.
    Path("big.jsonl").write_bytes(b"\n\n" + b" " * (MAX_INPUT_BYTES + 1))
    result = run_cli(["analyze", "--summary", "big.jsonl"])
    one_short_error_line(result, "big.jsonl: line 3 is longer than 1 MB")


def test_a_line_of_analyze_output_nested_deeply_is_one_line():
    Path("deep.jsonl").write_text("\n" + deep_array() + "\n")
    result = run_cli(["analyze", "--summary", "deep.jsonl"])
    one_short_error_line(result, "deep.jsonl: line 2: nested too deeply")


ANALYSIS_LINE = None  # a real line of `ts358 analyze` output, made once by analysis_line()


def analysis_line():
    global ANALYSIS_LINE
    if ANALYSIS_LINE is None:
        result = run_cli(
            [
                "analyze",
                "--deals",
                "1",
                "--seed",
                "3",
                "--games",
                "hearts,no-trump",
                "--candidates",
                "1",
                "--max-nodes",
                "20000",
                "--workers",
                "1",
            ]
        )
        assert result.exit_code == 0, result.stderr
        ANALYSIS_LINE = json.loads(result.stdout.splitlines()[0])
    return ANALYSIS_LINE


@pytest.mark.parametrize(
    "line",
    [
        {"games": 5, "longest_first_six": 1},
        {"games": {"hearts": 5}, "longest_first_six": 1},
        {"games": {"hearts": {"chooser": "x"}}, "longest_first_six": 1},
        {"games": {}, "longest_first_six": [1]},
    ],
)
def test_an_analysis_line_of_the_wrong_shape_is_one_line(line):
    Path("bad.jsonl").write_text(json.dumps(analysis_line()) + "\n" + json.dumps(line) + "\n")
    result = run_cli(["analyze", "--summary", "bad.jsonl"])
    one_short_error_line(result, "bad.jsonl: line 2 is not an analysis record")


def _mutations(value):
    """A JSON value with one of its parts replaced (Hypothesis draws which and by what)."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 20),
        st.text(max_size=5),
        st.lists(st.integers(0, 3), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )

    def paths(v, prefix=()):
        yield prefix
        if isinstance(v, dict):
            for k, x in v.items():
                yield from paths(x, (*prefix, k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield from paths(x, (*prefix, i))

    every = list(paths(value))

    def replace(path, new):
        out = json.loads(json.dumps(value))
        if not path:
            return new
        node = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = new
        return out

    return st.builds(replace, st.sampled_from(every), leaves)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_analysis_lines(data):
    line = data.draw(_mutations(analysis_line()))
    Path("fuzz.jsonl").write_text(json.dumps(line) + "\n")
    result = run_cli(["analyze", "--summary", "fuzz.jsonl", "--json"])
    if result.exit_code != 0:
        one_short_error_line(result, "fuzz.jsonl: ")


def test_a_save_with_a_string_that_is_not_text_is_one_line():
    # JSON can escape half a UTF-16 pair; such a name can't be printed or saved again.
    save = json.loads(SAVES[1])
    save["players"][1] = "\ud800"
    Path("half.json").write_text(json.dumps(save))
    result = run_cli(["play", "--resume", "half.json", "--no-analysis"], input="quit\n")
    one_short_error_line(result, "half.json: not a ts358 save (a string that is not text: ")
    save["players"][1] = "\U0001f600"  # a character outside the BMP, escaped as a pair
    Path("pair.json").write_text(json.dumps(save))
    result = run_cli(["play", "--resume", "pair.json", "--no-analysis"], input="quit\n")
    assert result.exit_code == 0, result.stderr


def test_a_byte_order_mark_is_accepted():
    Path("bom.toml").write_text(POSITIONS[4], encoding="utf-8-sig")
    assert run_cli(["solve", "--json", "--threads", "1", "bom.toml"]).exit_code == 0
    result = run_cli(["solve", "--json", "-"], input=POSITIONS[4].encode("utf-8-sig"))
    assert result.exit_code == 0
    Path("bom.json").write_text(SAVES[3], encoding="utf-8-sig")
    result = run_cli(["play", "--resume", "bom.json"])
    assert result.exit_code == 0 and "finished" in result.stdout
    Path("record.json").write_text(RECORDS[0], encoding="utf-8-sig")
    assert replay(load_record("record.json")).done


@pytest.mark.parametrize(
    "args, part",
    [
        (["solve", "--frob", "f.toml"], "No such option: --frob"),
        (["solve"], "Missing argument 'FILE...'"),
        (["play", "--auto", "true"], "unexpected extra argument"),
        (["frob"], "No such command 'frob'"),
    ],
)
def test_usage_errors_are_one_line(args, part):
    one_short_error_line(run_cli(args), part)


def test_no_arguments_show_the_help_and_no_empty_error_line():
    result = run_cli([])
    assert result.exit_code == 2 and "Usage" in result.stdout and "solve" in result.stdout
    assert result.stderr == ""


# ---------------------------------------------------------------- real processes


def child_env():
    """The environment of a ``python`` child importing the ts358 this test imported."""
    src = str(Path(ts358.__file__).resolve().parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))


def sigint_default():
    # A child of a background job inherits SIGINT ignored, and Python then installs no
    # handler: give the child the default disposition, as a terminal would.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_the_entry_points_import_nothing_heavy_before_the_handler():
    # `python -m ts358` imports the package and then runs ts358.__main__; the console
    # script imports ts358.__main__ and calls its run(). Ctrl-C is handled from there on.
    code = (
        "import sys; before = set(sys.modules); import ts358.__main__; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["ts358", "ts358.__main__"]
    from importlib.metadata import entry_points

    scripts = entry_points(group="console_scripts", name="ts358")
    assert [s.value for s in scripts] == ["ts358.__main__:run"]


def test_the_api_is_imported_on_first_use_as_type_checkers_see_it():
    tree = ast.parse(Path(ts358.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and n.test.id == "TYPE_CHECKING")
    seen = {alias.name: node.module for node in block.body for alias in node.names}
    lazy = {name: module for module, names in ts358._MODULES.items() for name in names}
    assert seen == lazy and sorted(lazy) == sorted(ts358.__all__)
    for name, module in lazy.items():
        assert getattr(ts358, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        ts358.nothing  # noqa: B018


# The console script's own two lines, with a byte on stdout between them: the parent starts
# its clock once the interpreter has started and found the package (a Ctrl-C before that is
# the interpreter's to handle, and it prints a traceback of its own start-up).
STARTER = "import os, ts358.__main__ as entry; os.write(1, b'.'); entry.run()"


def interrupt_at(delay, *args):
    """``ts358 ARGS`` in a child process, sent SIGINT ``delay`` seconds after STARTER's byte."""
    child = subprocess.Popen(
        [sys.executable, "-c", STARTER, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
        preexec_fn=sigint_default,
    )
    try:
        with selectors.DefaultSelector() as ready:
            ready.register(child.stdout, selectors.EVENT_READ)
            assert ready.select(timeout=30), "the child never started"
        assert child.stdout.read(1) == b"."
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return child.returncode, err.decode("utf-8", "replace")


# Imports take a few hundred milliseconds; the long solve after them is stopped too.
DELAYS = [0, 0.03, 0.1, 0.3]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize(
    "delay",
    [*DELAYS, *(pytest.param(ms / 1000, marks=pytest.mark.slow) for ms in range(5, 400, 15))],
)
def test_ctrl_c_during_the_imports_exits_130_without_a_traceback(delay):
    # A full no-tricks deal on one thread: seconds of search if the signal came late.
    Path("long.toml").write_text(Position.random(0, Contract.NO_TRICKS).to_toml())
    code, err = interrupt_at(delay, "solve", "--threads", "1", "long.toml")
    assert code == 130, err
    assert err.strip().splitlines() == ["ts358: interrupted"], err


# The command line's import runs a class body whose __set_name__ is interrupted: Python 3.11
# wraps the KeyboardInterrupt raised there in a RuntimeError (a CI run met it in ipaddress).
WRAPPED = """
import importlib.abc, importlib.util, os, signal, sys

class Interrupted(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        return importlib.util.spec_from_loader(name, self) if name == "ts358.cli" else None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        class Slot:
            def __set_name__(self, owner, name):
                os.kill(os.getpid(), signal.SIGINT)
                sum(range(100000))

        class Owner:
            slot = Slot()

sys.meta_path.insert(0, Interrupted())
import ts358.__main__ as entry
entry.run()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to its own process")
def test_ctrl_c_that_the_imported_code_wraps_still_exits_130():
    done = subprocess.run(
        [sys.executable, "-c", WRAPPED, "solve", "x.toml"],
        capture_output=True,
        text=True,
        env=child_env(),
        preexec_fn=sigint_default,
        timeout=60,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == ["ts358: interrupted"], done.stderr


def run_limited(*args):
    """``python -m ts358 ARGS`` in a child allowed 1 GB of memory, so that a reader that
    reads /dev/zero to the end fails at once instead of taking the machine's memory."""

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run(
        [sys.executable, "-m", "ts358", *args],
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero, RLIMIT_AS")
@pytest.mark.parametrize(
    "args",
    [
        ["solve", "/dev/zero"],
        ["play", "--resume", "/dev/zero"],
        ["analyze", "--summary", "/dev/zero"],
    ],
    ids=["position", "save", "analyze"],
)
def test_dev_zero_is_one_line(args):
    result = run_limited(*args)
    assert result.returncode == 2, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ts358: error: /dev/zero: "), lines[:5]
    assert "1 MB" in lines[0]


# ---------------------------------------------------------------- fuzzing


NASTY = [
    deep_array(),
    deep_array(50),
    "{" * 20 + "}" * 20,
    "9" * 5000,
    "-" + "9" * 30,
    '"' + "x" * 100_000 + '"',
    '"\\n"',
    '"\\u2028"',
    '"\\ud800"',
    "1e999",
    "-1",
    "0",
    "17",
    "3.5",
    "true",
    "null",
    "[]",
    "{}",
    '""',
    '"hearts"',
    '"no-tricks"',
    '"AS"',
    '"-.-.-.-"',
    '"chooser"',
    '"stop"',
    '"easy"',
    '"2C 3C 4C 5C"',
    "\ufeff",
    "\x00",
    "\n",
    "[",
    '"',
]
"""Values that have broken or could break a reader, in JSON and in TOML (or neither)."""


def toml_value(draw, text):
    """A value of a ``key = value`` line replaced by a nasty one."""
    lines = text.split("\n")
    i = draw(st.sampled_from([i for i, line in enumerate(lines) if "=" in line] or [0]))
    lines[i] = lines[i].split("=")[0] + "= " + draw(st.sampled_from(NASTY))
    return "\n".join(lines)


def nodes(tree, path=()):
    """The paths to every value of a JSON tree, the tree's own first."""
    yield path
    items = (
        tree.items()
        if isinstance(tree, dict)
        else enumerate(tree)
        if isinstance(tree, list)
        else ()
    )
    for key, value in items:
        yield from nodes(value, (*path, key))


HOLE = "\x00hole\x00"


def json_value(draw, text):
    """A value anywhere in the JSON tree replaced by a nasty one, or left out."""
    try:
        tree = json.loads(text)
    except (ValueError, RecursionError):  # an earlier change broke it: left as it is
        return text
    path = draw(st.sampled_from(list(nodes(tree))))
    nasty = draw(st.sampled_from(NASTY))
    if not path:
        return nasty
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()):
        del parent[path[-1]]
        return json.dumps(tree, indent=1)
    parent[path[-1]] = HOLE
    return json.dumps(tree, indent=1).replace(json.dumps(HOLE), nasty)


@st.composite
def mutated(draw, corpus, change_a_value):
    """A file of ``corpus`` changed 1-4 times: a value replaced by a nasty one (or left out)
    by ``change_a_value`` (:func:`toml_value`, :func:`json_value`), text deleted, inserted,
    repeated, replaced by a nasty value or cut short, or bytes that are not UTF-8 put in."""
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.integers(1, 4))):
        # Mostly values: a change of the text itself seldom leaves it JSON or TOML.
        op = draw(st.sampled_from([*["value"] * 8, "nasty", "delete", "insert", "repeat", "cut"]))
        start = draw(st.integers(0, len(text)))
        end = min(len(text), start + draw(st.integers(0, 40)))
        if op == "value":
            text = change_a_value(draw, text)
        elif op == "nasty":
            text = text[:start] + draw(st.sampled_from(NASTY)) + text[end:]
        elif op == "delete":
            text = text[:start] + text[end:]
        elif op == "insert":
            text = text[:start] + draw(st.text(max_size=10)) + text[start:]
        elif op == "repeat":
            text = text[:end] + text[start:end] * draw(st.integers(1, 3)) + text[end:]
        elif op == "cut":
            text = text[:start]
    data = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data


def fuzz_settings(examples):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@pytest.fixture
def cli(monkeypatch):
    """run_cli with the Click command built once: building it from the Typer app is most of
    an in-process call (a process builds it once), and the fuzz tests make hundreds."""
    command = typer.main.get_command(ts358.cli.app)
    monkeypatch.setattr(ts358.cli, "app", lambda **kwargs: command.main(**kwargs))
    return run_cli


def exit_0_or_one_short_line(result):
    if result.exit_code == 0:
        assert "Traceback" not in result.stderr
    else:
        one_short_error_line(result)


FUZZ = [200, pytest.param(3000, marks=pytest.mark.slow)]


COMMANDS = {  # the files a command reads: (corpus, change_a_value, command, its input)
    "solve": (POSITIONS, toml_value, ["solve", "--json", "--threads", "1", "f"], None),
    "play": (SAVES, json_value, ["play", "--no-analysis", "--resume", "f"], "quit\n"),
}


@pytest.mark.parametrize("examples", FUZZ)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_fuzz_the_files_a_command_reads(cli, command, examples):
    corpus, change_a_value, args, stdin = COMMANDS[command]

    @fuzz_settings(examples)
    @given(mutated(corpus, change_a_value))
    def check(data):
        Path("f").write_bytes(data)
        exit_0_or_one_short_line(cli(args, input=stdin))

    check()


@pytest.mark.parametrize("examples", FUZZ)
def test_fuzz_records(examples):
    # No command reads a record: the API's reader and replay, which must raise RecordError
    # and nothing else, its message one short line.
    @fuzz_settings(examples)
    @given(mutated(RECORDS, json_value))
    def check(data):
        Path("r.json").write_bytes(data)
        try:
            replay(load_record("r.json"))
        except RecordError as exc:
            message = str(exc)
            assert len(message) <= LONGEST_LINE and len(message.splitlines()) == 1, message

    check()
