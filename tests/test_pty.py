"""``ts358 play`` in a real pseudo-terminal (pexpect): one whole deal typed at the prompts,
then quit (saved, exit 0); Enter for the only card allowed; Ctrl-C at a prompt (saved, exit
130); the wait for Enter after a deal (nothing of the next deal before it, the save already
written, quit, Ctrl-C and SIGTERM there as at any prompt, other text refused); ``--auto``
never waits."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pexpect  # in the test extra: a real pseudo-terminal is part of the suite
import pytest

import ts358
from ts358.deal import format_decision
from ts358.match import Match
from ts358.players import make_player
from ts358.rules import Rules
from ts358.table.saves import read_save
from ts358.view import DecisionKind

PROMPT = r" > "


def first_deal_answers(seed, only=False):
    """Seat 0's answers in deal 1, from the engine with the medium player in every seat, and
    the deal; with ``only``, an empty answer where one card alone may be played."""
    match = Match(Rules(length=3), seed, ("You", "Left", "Right"))
    players = [make_player("medium", seed * 3 + s) for s in range(3)]
    answers = []
    while not match.results:
        pending = match.pending()
        decision = players[pending.seat].decide(pending.view)
        if pending.seat == 0:
            alone = only and pending.kind is DecisionKind.PLAY and len(pending.view.options) == 1
            answers.append("" if alone else format_decision(pending.kind, decision))
        match.apply_answer(decision)
    return answers, match.results[0]


def child_env(home):
    """The environment of a ``ts358`` child process with its data in ``home``."""
    env = dict(os.environ)
    env.update(
        TS358_HOME=str(home),
        LC_ALL="C.UTF-8",
        LANG="C.UTF-8",
        NO_COLOR="1",
        TERM="xterm",
        # The child imports the ts358 this test imported (a checkout's src/ or an install).
        PYTHONPATH=str(Path(ts358.__file__).resolve().parent.parent)
        + os.pathsep
        + env.get("PYTHONPATH", ""),
    )
    return env


def spawn_play(home, *args, analysis=False):
    """``ts358 play --lang en --no-analysis ARGS`` in a pseudo-terminal, data in ``home``;
    with ``analysis``, the analysis within 2 seconds a deal instead."""
    options = ["--analysis-time", "2"] if analysis else ["--no-analysis"]
    return pexpect.spawn(
        sys.executable,
        ["-m", "ts358", "play", "--lang", "en", *options, *args],
        env=child_env(home),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )


def spawn(home, *args, analysis=False):
    """``ts358 play`` of a new 3-deal match in a pseudo-terminal."""
    return spawn_play(home, "--deals", "3", *args, analysis=analysis)


PAUSE = r"Enter: deal 2 of 3 \(quit: save and stop\) > "


def next_decision(child):
    """Wait for the prompt of the next decision, going on at the waits after a deal."""
    while child.expect([r"Enter: deal \d+ of \d+ \(quit: save and stop\) > ", PROMPT]) == 0:
        child.sendline("")


def test_one_deal_in_a_terminal_then_quit(tmp_path):
    seed = 13
    answers, deal = first_deal_answers(seed)
    child = spawn(tmp_path, "--seed", str(seed))
    for answer in answers:
        child.expect(PROMPT)
        child.sendline(answer)
    child.expect("Deal 1: ")
    child.expect(PAUSE)
    child.sendline("")
    child.expect(PROMPT)  # the first prompt of deal 2
    child.sendline("quit")
    child.expect("Match saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    save = next((tmp_path / "saves").glob("*.json"))
    match = read_save(save).match
    assert len(match.results) == 1 and match.results[0].scores == deal.scores


def test_enter_plays_the_only_card_allowed(tmp_path):
    seed = 13
    answers, deal = first_deal_answers(seed, only=True)
    assert "" in answers
    child = spawn(tmp_path, "--seed", str(seed))
    for answer in answers:
        child.expect("your only legal card" if answer == "" else PROMPT)
        if answer == "":
            child.expect(PROMPT)
        child.sendline(answer)
    child.expect("Deal 1: ")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    match = read_save(next((tmp_path / "saves").glob("*.json"))).match
    assert match.results[0] == deal


def test_ctrl_c_at_a_prompt_saves_and_exits_130(tmp_path):
    child = spawn(tmp_path, "--seed", "2")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted")
    child.expect("Match saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert list((tmp_path / "saves").glob("*.json"))


# A signal that arrives after Python last looked at its signals and before input() starts
# its read in C interrupts nothing: the read waits for a line (Ctrl-C just as the prompt
# appears: ^C echoed, then nothing). Here every such signal misses the read: the main
# thread blocks SIGINT, so the kernel delivers it to another thread, whose handler only
# notes it for the main thread. The prompt's wait must still raise it, without an Enter.
SIGNAL_ELSEWHERE = """
import signal, threading
from rich.console import Console
from ts358.terminal.human import LineInput

threading.Thread(target=threading.Event().wait, daemon=True).start()  # takes the signal
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # the main thread's only
try:
    LineInput(Console()).ask("Your answer")
except KeyboardInterrupt:
    print("KeyboardInterrupt raised")
"""


def test_a_ctrl_c_that_misses_the_read_still_stops_the_prompt(tmp_path):
    child = pexpect.spawn(
        sys.executable,
        ["-c", SIGNAL_ELSEWHERE],
        env=child_env(tmp_path),
        encoding="utf-8",
        timeout=10,
    )
    child.expect("Your answer > ")
    time.sleep(0.3)  # waiting for the line
    child.kill(signal.SIGINT)
    child.expect("KeyboardInterrupt raised", timeout=5)  # without an Enter
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def play_first_deal(child, answers):
    for answer in answers:
        child.expect(PROMPT)
        child.sendline(answer)


def test_after_a_deal_the_terminal_waits_for_enter(tmp_path):
    seed = 13
    answers, _ = first_deal_answers(seed)
    child = spawn(tmp_path, "--seed", str(seed), analysis=True)
    play_first_deal(child, answers)
    child.expect("Deal 1: ")
    child.expect("Lost by own cards")
    child.expect(PAUSE)
    # Nothing of deal 2 comes before Enter, and the save already holds deal 1.
    child.expect(pexpect.TIMEOUT, timeout=1.5)
    assert "Deal 2" not in child.before and PROMPT not in child.before
    save = next((tmp_path / "saves").glob("*.json"))
    assert len(read_save(save).match.results) == 1
    # The commands work there, and the wait goes on after each.
    for command, answer in [
        ("score", "Match score"),
        ("last", r"Last trick \(16\)"),
        ("hint", "there is no decision to advise on between deals"),
        # Anything else is refused, not taken for Enter: a typo scrolls nothing away.
        ("nxt", "'nxt' is not a command: Enter starts the next deal"),
    ]:
        child.sendline(command)
        child.expect(answer)
        child.expect(PAUSE)
    child.sendline("")
    child.expect("Deal 2 of 3")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("how, code", [("quit", 0), ("ctrl-c", 130), ("sigterm", 143)])
def test_the_wait_after_a_deal_ends_like_any_prompt(tmp_path, how, code):
    seed = 13
    answers, deal = first_deal_answers(seed)
    child = spawn(tmp_path, "--seed", str(seed))
    play_first_deal(child, answers)
    child.expect(PAUSE)
    if how == "quit":
        child.sendline("q")
    elif how == "ctrl-c":
        child.sendintr()
    else:
        child.kill(signal.SIGTERM)
    child.expect("Match saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code
    save = next((tmp_path / "saves").glob("*.json"))
    match = read_save(save).match
    assert [r.scores for r in match.results] == [deal.scores]
    # Resumed, the match goes straight on with deal 2.
    child = spawn_play(tmp_path, "--resume", str(save))
    child.expect("deal 2 of 3")
    child.expect(PROMPT)
    assert "Enter:" not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_auto_never_waits_in_a_terminal(tmp_path):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ts358", "play", "--auto", "--deals", "3", "--seed", "4", "--lang", "en"],
        env=child_env(tmp_path),
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    child.expect("Final standings")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Enter:" not in child.before
