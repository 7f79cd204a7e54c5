"""Nothing lost, whatever happens to the process: every answer is on disk before the next
prompt (and before the computer players think), kill -9 at any moment loses at most the
answer being typed, SIGTERM and SIGHUP save like Ctrl-C, a save is played by one process at
a time, save ids never collide, and a save folder or a record that can't be written, or a
dangling link among the saves, is one line and exit 2 before play starts."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys

import pexpect
import pytest
from rich.console import Console

from cli_runner import run_cli
from test_play_interactive import human_script
from test_pty import PROMPT, child_env, next_decision, spawn, spawn_play
from ts358.match import Match
from ts358.rules import Rules
from ts358.table import saves
from ts358.table.saves import SavedMatch, SaveInUse, SaveLock, claim_save, read_save
from ts358.table.seats import ComputerSeat
from ts358.terminal.human import HumanPlayer
from ts358.terminal.play import PlayOptions, play_interactive
from ts358.view import DecisionKind

# Seat 0 chooses the game and discards in deal 1 and gives in the exchange of deal 2.
SEED = 20


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    return tmp_path / "home"


def invoke(args, stdin=""):
    return run_cli(["play", "--lang", "en", "--no-analysis", *args], input=stdin)


def only_save(home):
    (path,) = (home / "saves").glob("*.json")
    return path


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith("ts358: error: ")
    return lines[0]


def next_prompt(path):
    """The view of the human's next prompt from the save at ``path``: the computer players'
    decisions not written yet are made as the session makes them."""
    match = read_save(path).match
    computers = {s: ComputerSeat("medium", match.seed, s) for s in (1, 2)}
    step = len(match.snapshot().decisions)
    while (pending := match.pending()).seat != 0:
        match.apply_answer(computers[pending.seat].decide(pending.view, step))
        step += 1
    return pending.view


def end(child):
    child.expect(pexpect.EOF)
    child.close()
    return child


def test_kill_9_at_any_moment_loses_at_most_the_answer_being_typed(tmp_path):
    steps, expected = human_script(SEED)
    kinds = [kind for kind, _, _ in steps]
    # At the prompts of the game, the discard, a card mid-deal, the exchange and a card of
    # the last deal; the third kill comes right after an answer, which may or may not have
    # been read by then.
    points = [
        kinds.index(DecisionKind.CHOOSE),
        kinds.index(DecisionKind.DISCARD),
        9,
        kinds.index(DecisionKind.GIVE),
        len(steps) - 5,
    ]
    child = spawn(tmp_path, "--seed", str(SEED))
    sent = 0
    for n, point in enumerate(points):
        while sent < point:
            next_decision(child)
            child.sendline(steps[sent][2])
            sent += 1
        next_decision(child)
        typed = n == 2
        if typed:
            child.sendline(steps[sent][2])
        child.kill(signal.SIGKILL)
        assert end(child).signalstatus == signal.SIGKILL
        view = next_prompt(only_save(tmp_path))
        if typed and view == steps[sent + 1][1]:
            sent += 1
        assert view == steps[sent][1]
        child = spawn_play(tmp_path, "--resume", "last")  # the killed one's lock is gone
        child.expect("Resumed the match")
    for _, _, answer in steps[sent:]:
        next_decision(child)
        child.sendline(answer)
    child.expect("Final standings")
    assert end(child).exitstatus == 0
    final = read_save(only_save(tmp_path)).match
    assert final.done and final.totals == expected.totals
    assert [r.scores for r in final.results] == [r.scores for r in expected.results]


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_closing_the_terminal_save_like_ctrl_c(tmp_path, name):
    steps, _ = human_script(SEED)
    child = spawn(tmp_path, "--seed", str(SEED))
    for _, _, answer in steps[:4]:
        child.expect(PROMPT)
        child.sendline(answer)
    child.expect(PROMPT)
    if name == "SIGTERM":
        child.kill(signal.SIGTERM)
        child.expect(r"Stopped \(SIGTERM\)\.")
        child.expect("Match saved to")
        child.expect("Resume with: ts358 play --resume")
        end(child)
    else:
        # The terminal goes away: the kernel hangs up the session, and what the process
        # writes after that has nowhere to go.
        child.ptyproc.fileobj.close()
        child.wait()
    codes = {128 + getattr(signal, name)}
    if name == "SIGHUP":
        # The hang-up also ends the terminal's input: on a busy machine the process can read
        # that end of input before the signal arrives, and then saves and leaves as on
        # Ctrl-D (exit 0). Either way nothing may be lost, which the save shows.
        codes.add(0)
    assert child.exitstatus in codes
    assert read_save(only_save(tmp_path)).match.pending().view == steps[4][1]


def test_every_answer_is_on_disk_before_the_computer_players_think(tmp_path, monkeypatch):
    steps, expected = human_script(SEED)
    saved = SavedMatch(Match(Rules(length=3), SEED, ("You", "Left", "Right")), "d", 0, "medium")
    path = tmp_path / "d.json"
    answered = [0]  # decisions in the match after each answer

    def on_disk():
        return read_save(path).match.snapshot().decisions

    def applied():
        return saved.match.snapshot().decisions

    human_decide = HumanPlayer.decide
    computer_decide = ComputerSeat.decide

    def prompt(self, view):
        assert on_disk() == applied()
        answer = human_decide(self, view)
        answered.append(len(applied()) + 1)
        return answer

    def think(self, view, step):
        disk = on_disk()
        assert disk == applied()[: len(disk)] and len(disk) >= answered[-1]
        return computer_decide(self, view, step)

    monkeypatch.setattr(HumanPlayer, "decide", prompt)
    monkeypatch.setattr(ComputerSeat, "decide", think)
    code = play_interactive(
        saved,
        PlayOptions(path, analysis=False, hint=None, stats=False),
        Console(file=io.StringIO()),
        Console(file=io.StringIO()),
        stream=io.StringIO("".join(f"{answer}\n" for _, _, answer in steps)),
    )
    assert code == 0 and saved.match.totals == expected.totals
    assert len(answered) == len(steps) + 1
    assert on_disk() == applied()


def test_a_save_is_played_by_one_process_at_a_time(tmp_path):
    steps, _ = human_script(SEED)
    first = spawn(tmp_path, "--seed", str(SEED))
    first.expect(PROMPT)
    path = only_save(tmp_path)
    for target in (str(path), "last"):
        second = subprocess.run(
            [sys.executable, "-m", "ts358", "play", "--resume", target, "--lang", "en"],
            env=child_env(tmp_path),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.splitlines() == [
            f"ts358: error: {path}: this match is being played by another ts358 process"
        ]
    first.sendline(steps[0][2])
    first.expect(PROMPT)
    first.sendline("quit")
    first.expect("Match saved to")
    assert end(first).exitstatus == 0
    assert read_save(path).match.pending().view == steps[1][1]  # the first one's answer
    assert [p.name for p in (tmp_path / "saves").iterdir()] == [path.name]  # no lock left


def test_the_lock_of_a_save(tmp_path):
    path = tmp_path / "s.json"
    lock = SaveLock(path)
    with pytest.raises(SaveInUse, match=r"s\.json: this match is being played by another"):
        SaveLock(path)
    lock.release()
    lock.release()
    assert list(tmp_path.iterdir()) == []
    # The file of an owner that was killed: its lock went with it.
    (tmp_path / ".s.json.lock").write_text("")
    with SaveLock(path), pytest.raises(SaveInUse):
        SaveLock(path)


def test_a_lock_file_removed_while_waiting_for_it_is_not_taken(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    owner = SaveLock(path)
    real = saves._try_lock
    tries = []

    def owner_leaves_first(fd):
        # The owner releases (and removes the file) between our open and our lock.
        if not tries:
            owner.release()
        tries.append(fd)
        return real(fd)

    monkeypatch.setattr(saves, "_try_lock", owner_leaves_first)
    with SaveLock(path):
        assert len(tries) == 2  # the removed file's lock was given up for the new file's
        monkeypatch.setattr(saves, "_try_lock", real)
        with pytest.raises(SaveInUse):
            SaveLock(path)


def test_a_claimed_save_name_is_taken_even_before_it_is_written(tmp_path):
    def saved():
        return SavedMatch(Match(Rules(length=3), 42), "20260101-120000-42")

    first, second = saved(), saved()
    path1, lock1 = claim_save(tmp_path / "saves", first)
    path2, lock2 = claim_save(tmp_path / "saves", second)
    assert (path1.name, path2.name) == ("20260101-120000-42.json", "20260101-120000-42-2.json")
    assert (first.id, second.id) == ("20260101-120000-42", "20260101-120000-42-2")
    lock1.release()
    lock2.release()


def test_two_matches_started_in_the_same_second_get_two_saves(home, monkeypatch):
    monkeypatch.setattr("ts358.cli.play.new_id", lambda seed: f"20260101-120000-{seed}")
    for _ in range(2):
        assert invoke(["--deals", "3", "--seed", "42"], "quit\n").exit_code == 0
    found = {p.name: read_save(p).id for p in (home / "saves").glob("*.json")}
    assert found == {
        "20260101-120000-42.json": "20260101-120000-42",
        "20260101-120000-42-2.json": "20260101-120000-42-2",
    }


def read_only(folder):
    """Make ``folder`` read-only; False (and undone) where that does not stop writes, as
    for root."""
    folder.chmod(0o555)
    probe = folder / ".probe"
    try:
        probe.touch()
    except PermissionError:
        return True
    probe.unlink()
    folder.chmod(0o755)
    return False


def test_a_read_only_save_folder_stops_before_play(home):
    steps, _ = human_script(SEED)
    answers = "".join(f"{answer}\n" for _, _, answer in steps)
    assert invoke(["--deals", "3", "--seed", str(SEED)], "quit\n").exit_code == 0
    path = only_save(home)
    before = path.read_bytes()
    if not read_only(home / "saves"):
        pytest.skip(
            "chmod does not make a folder read-only for this user (root): "
            "test_a_save_that_cannot_be_written_stops_before_play checks the same"
        )
    try:
        resumed = invoke(["--resume", "last"], answers)
        new = invoke(["--deals", "3", "--seed", "1"], answers)
    finally:
        (home / "saves").chmod(0o755)
    assert "can't lock the save for writing: Permission denied" in one_error_line(resumed)
    assert f"can't save the match in {home / 'saves'}: Permission denied" in one_error_line(new)
    assert PROMPT not in resumed.stdout + new.stdout
    assert path.read_bytes() == before


def test_a_save_that_cannot_be_written_stops_before_play(home, monkeypatch):
    # The folder takes no new file (as read-only for a user that is not root).
    steps, _ = human_script(SEED)
    assert invoke(["--deals", "3", "--seed", str(SEED)], "quit\n").exit_code == 0
    path = only_save(home)
    before = path.read_bytes()

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(saves.tempfile, "mkstemp", refused)
    resumed = invoke(["--resume", "last"], "".join(f"{a}\n" for _, _, a in steps))
    line = one_error_line(resumed)
    assert line == f"ts358: error: can't save the match to {path}: Permission denied"
    assert PROMPT not in resumed.stdout
    assert path.read_bytes() == before


def test_the_record_is_checked_before_the_match(home, tmp_path):
    steps, _ = human_script(SEED)
    answers = "".join(f"{answer}\n" for _, _, answer in steps)
    bad = tmp_path / "missing" / "r.json"
    auto = run_cli(["play", "--auto", "--deals", "3", "--seed", "1", "--record", str(bad)])
    assert "can't write the record" in one_error_line(auto) and auto.stdout == ""
    seated = invoke(["--deals", "3", "--seed", str(SEED), "--record", str(bad)], answers)
    assert f"can't write the record {bad}: No such file" in one_error_line(seated)
    assert PROMPT not in seated.stdout
    assert list((home / "saves").iterdir()) == []  # neither a save nor its lock
    # The check leaves no file behind when the match stops before its end.
    good = tmp_path / "r.json"
    assert invoke(["--deals", "3", "--seed", "1", "--record", str(good)], "quit\n").exit_code == 0
    assert not good.exists()


def test_resume_last_skips_a_dangling_symbolic_link(home):
    assert invoke(["--deals", "3", "--seed", "3"], "quit\n").exit_code == 0
    path = only_save(home)
    (home / "saves" / "zzz.json").symlink_to(home / "saves" / "gone.json")
    again = invoke(["--resume", "last"], "quit\n")
    assert again.exit_code == 0, again.stderr
    assert f"Resumed the match from {path}" in again.stdout
    path.unlink()
    alone = invoke(["--resume", "last"])
    assert "--resume last: no saved match in" in one_error_line(alone)
    assert os.path.islink(home / "saves" / "zzz.json")


@pytest.mark.parametrize("key", ["analysis_seconds", "pace"])
def test_a_save_with_a_huge_number_is_one_line_on_resume(home, key):
    # JSON reads an int of any length; one of 400 digits was a traceback (exit 1).
    assert invoke(["--deals", "3", "--seed", "4"], "quit\n").exit_code == 0
    path = only_save(home)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    data["settings"][key] = 10**400
    path.write_text(json.dumps(data), encoding="utf-8")
    for target in (str(path), "last"):
        line = one_error_line(invoke(["--resume", target]))
        assert str(path) in line and f"key '{key}' must be a number of seconds" in line


def test_an_interrupted_write_leaves_nothing_once_the_folder_is_used_again(home):
    assert invoke(["--deals", "3", "--seed", "5"], "quit\n").exit_code == 0
    path = only_save(home)
    folder = path.parent
    # What a write killed between its temporary file and the rename leaves, for this save
    # and for one that never got its first write.
    stale = [folder / f".{path.name}.k1l2m3.tmp", folder / ".20260101-000000-9.json.x.tmp"]
    for tmp in stale:
        tmp.write_text('{"format": "ts358-save/2", "dec', encoding="utf-8")
    # A write going on in another process (it holds the save's lock) keeps its file.
    other = folder / "20260101-000000-8.json"
    busy = folder / f".{other.name}.abc.tmp"
    busy.write_text("{", encoding="utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(other)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        again = invoke(["--resume", "last"], "quit\n")
        assert again.exit_code == 0, again.stderr
        assert not any(tmp.exists() for tmp in stale) and busy.exists()
    finally:
        holder.kill()
        holder.wait()
    # Once the other process is gone, its file is stale too: a new match clears it.
    assert invoke(["--deals", "3", "--seed", "6"], "quit\n").exit_code == 0
    assert not busy.exists()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


HOLD_LOCK = """
import sys, time
from ts358.table.saves import SaveLock
lock = SaveLock(sys.argv[1])
print("locked", flush=True)
time.sleep(60)
"""
