"""``ts358 play`` with you at the table, through the real entry point with scripted input.

The human's answers are worked out independently of the CLI: the engine plays the same
seeded match with the rule-of-thumb player in seat 0 (the CLI's computer players are the
same deterministic medium players), and its decisions become the input lines. So the CLI
must end with exactly the totals the engine gives.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cli_runner import run_cli
from ts358.analysis.hints import HintService
from ts358.cards import CardSet
from ts358.deal import format_decision
from ts358.match import Match
from ts358.players import Advice, Basis, make_player
from ts358.rules import Rules
from ts358.table.history import load_entries
from ts358.table.saves import read_save
from ts358.table.texts import Translator
from ts358.view import DecisionKind


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every test gets its own data directory (never the real one) and English."""
    monkeypatch.setenv("TS358_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    return tmp_path / "home"


EN = Translator("en")  # cards as the English texts write them: 10♥, not T♥


def invoke(args, stdin=""):
    return run_cli(["play", *args], input=stdin)


def human_script(seed, deals=3, level="medium", rules=None):
    """[(kind, view, answer)] of seat 0 played by the medium player against the CLI's
    computer seats of ``level``, and the final match (house rules unless ``rules``)."""
    from ts358.table.seats import ComputerSeat

    rules = (rules or Rules()).with_options({"length": deals})
    match = Match(rules, seed, ("You", "Left", "Right"))
    human = make_player("medium", 0)
    others = {s: ComputerSeat(level, seed, s) for s in (1, 2)}
    steps = []
    step = 0
    while not match.done:
        pending = match.pending()
        if pending.seat == 0:
            decision = human.decide(pending.view)
            steps.append((pending.kind, pending.view, format_decision(pending.kind, decision)))
        else:
            decision = others[pending.seat].decide(pending.view, step)
        match.apply_answer(decision)
        step += 1
    return steps, match


def illegal_card(view):
    """A card in hand that the rules forbid now, or None."""
    bad = view.hand - view.options
    return next(iter(bad), None)


def test_whole_match_with_typo_illegal_hint_quit_and_resume(home, monkeypatch):
    seed = 11
    steps, expected = human_script(seed)
    calls = []

    def fake_hint(view):
        calls.append(view)
        # One layout cut short by time: the hint says its values are estimates.
        ranked = tuple((card, float(-i)) for i, card in enumerate(view.options))
        return Advice(view.kind, Basis.SOLVED, ranked, sampled=4, solved=3, bounded=1)

    monkeypatch.setattr(HintService, "__call__", lambda self, view: fake_hint(view))
    plays = [i for i, (kind, view, _) in enumerate(steps) if kind is DecisionKind.PLAY]
    bad_at = next(i for i in plays if illegal_card(steps[i][1]) is not None)
    bad_card = illegal_card(steps[bad_at][1])
    quit_at = plays[20]  # in the middle of the second deal or late in the first
    lines = []
    for i, (_kind, _view, answer) in enumerate(steps[:quit_at]):
        if i == plays[0]:
            lines += ["zz9", "hint", "score", "last", "help"]
        if i == bad_at:
            lines.append(str(bad_card))
        lines.append(answer)
    lines.append("quit")
    first = invoke(
        ["--deals", "3", "--seed", str(seed), "--lang", "en", "--no-analysis"],
        "\n".join(lines) + "\n",
    )
    assert first.exit_code == 0, first.stderr
    out = first.stdout
    assert "'zz9' is neither a card nor a command" in out
    assert f"{EN.card(bad_card)} is not allowed" in out
    assert len(calls) == 1 and calls[0].kind is DecisionKind.PLAY
    assert "Expected deal score per card" in out
    assert "(estimates: 3 layouts solved, 1 cut short by time" in out
    assert "Commands (accepted at every prompt)" in out
    # Saved on quit: where, and how to go on, on stderr (not stdout).
    saves = list((home / "saves").glob("*.json"))
    assert len(saves) == 1
    assert f"Match saved to {saves[0]}" in first.stderr and "--resume" in first.stderr
    assert "Match saved" not in out
    state = read_save(saves[0]).match
    assert len(state.snapshot().decisions) > 0 and not state.done

    rest = [answer for _, _, answer in steps[quit_at:]]
    second = invoke(
        ["--resume", str(saves[0]), "--lang", "en", "--no-analysis"], "\n".join(rest) + "\n"
    )
    assert second.exit_code == 0, second.stderr
    assert f"Resumed the match from {saves[0]}" in second.stdout
    assert "Final standings" in second.stdout
    final = read_save(saves[0]).match
    assert final.done and final.totals == expected.totals
    # Piped answers never wait between deals: no line is taken for it, no prompt shown.
    assert "Enter: deal" not in first.stdout + second.stdout
    assert [r.scores for r in final.results] == [r.scores for r in expected.results]
    place = expected.standings()[0]
    assert (("You won!" in second.stdout) or ("You share first place!" in second.stdout)) == (
        place == 1
    )
    assert f"Your result: {expected.totals[0] * 10} " in second.stdout
    entries, bad = load_entries(home / "stats.jsonl")
    assert bad == 0 and len(entries) == 1
    assert entries[0].total == expected.totals[0] and entries[0].place == place
    assert entries[0].result == expected.totals[0] * 10


def test_summary_and_analysis_after_a_deal(monkeypatch):
    seed = 3
    steps, expected = human_script(seed)
    first_deal = [a for kind, view, a in steps if view.deal_number == 1]
    result = invoke(
        ["--deals", "3", "--seed", str(seed), "--lang", "en", "--analysis-time", "0.5"],
        "\n".join(first_deal) + "\nquit\n",
    )
    assert result.exit_code == 0, result.stderr
    deal = expected.results[0]
    out = result.stdout
    assert "Deal 1: " in out and "Double-dummy analysis:" in out and "Lost by own cards" in out
    assert "Analysing the deal" in result.stderr and "Analysing" not in out
    # The summary row of each player: tricks/obligation and the score.
    summary = out.split("Deal 1: ")[1]
    for seat in range(3):
        role = (seat - deal.dealer - 1) % 3
        need = ((3, 5, 8) if deal.game.label == "no-tricks" else (8, 5, 3))[role]
        assert f"{deal.taken[seat]}/{need}" in summary
        assert f"{deal.scores[seat]:+d}" in summary
    # The last analysis row ('=') is the deal's actual outcome.
    final_row = next(line for line in summary.splitlines() if line.strip().startswith("="))
    assert final_row.split()[1:] == [f"{deal.scores[s]:+d}" for s in range(3)]


def test_eof_saves_and_resume_of_a_bad_file_is_one_line(home):
    result = invoke(["--deals", "3", "--seed", "2", "--lang", "en"], "")
    assert result.exit_code == 0
    saves = list((home / "saves").glob("*.json"))
    assert len(saves) == 1 and "Match saved to" in result.stderr
    path = saves[0]
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    bad = invoke(["--resume", str(path)])
    assert bad.exit_code == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "truncated or corrupt" in lines[0] and str(path) in lines[0]
    assert bad.stdout == ""


def test_resume_last_and_options_fixed_by_the_save(home):
    invoke(["--deals", "3", "--seed", "8", "--lang", "en"], "quit\n")
    again = invoke(["--resume", "last", "--lang", "en", "--no-analysis"], "quit\n")
    assert again.exit_code == 0 and "Resumed the match" in again.stdout
    clash = invoke(["--resume", "last", "--seed", "3"])
    assert clash.exit_code == 2 and "--seed" in clash.stderr


def test_polish_and_czech_and_ascii():
    pl = invoke(["--deals", "3", "--seed", "4", "--lang", "pl", "--ascii"], "quit\n")
    assert pl.exit_code == 0
    assert "Rozdanie 1 z 3" in pl.stdout and "Partia zapisana" in pl.stderr
    assert not any(s in pl.stdout for s in "♠♥♦♣")
    cs = invoke(["--deals", "3", "--seed", "4", "--lang", "cs"], "quit\n")
    assert "Rozdání 1 z 3" in cs.stdout and "Partie uložena" in cs.stderr


def test_game_by_name_in_another_language_and_used_games_refused():
    # Find a seed where the human chooses in deal 1 and try a Czech name, a typo, then a number.
    for seed in range(40):
        match = Match(Rules(length=3), seed)
        if match.pending().seat == 0:
            break
    result = invoke(
        ["--deals", "3", "--seed", str(seed), "--lang", "en", "--no-analysis"],
        "bogus\nbez trumfu\nquit\n",
    )
    assert "'bogus' is not a game" in result.stdout
    assert "You chose no-trump." in result.stdout


class Interrupting(io.StringIO):
    """A stdin whose read after the given lines is a Ctrl-C."""

    def __init__(self, lines):
        super().__init__("".join(f"{line}\n" for line in lines))
        self.left = len(lines)

    def readline(self, *args):
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline(*args)


def test_ctrl_c_saves_and_resumes_at_the_same_decision(home):
    from rich.console import Console

    from ts358.table.saves import SavedMatch
    from ts358.terminal.play import PlayOptions, play_interactive

    steps, _ = human_script(6)
    answers = [a for _, _, a in steps[:5]]
    saved = SavedMatch(Match(Rules(length=3), 6, ("You", "Left", "Right")), "t-6", 0, "medium")
    out, err = io.StringIO(), io.StringIO()
    path = home / "x.json"
    code = play_interactive(
        saved,
        PlayOptions(path, analysis=False, hint=None, stats=False),
        Console(file=out),
        Console(file=err, soft_wrap=True),
        stream=Interrupting(answers),
    )
    assert code == 130
    assert "Interrupted" in err.getvalue() and str(path) in err.getvalue()
    back = read_save(path).match
    assert back.pending().seat == 0
    assert back.pending().view == saved.match.pending().view


def test_real_hint_late_in_a_deal():
    from ts358.players import sampling

    steps, _ = human_script(5)
    view = next(
        v
        for kind, v, _ in steps
        if kind is DecisionKind.PLAY and len(v.hand) == 3 and len(v.options) > 1
    )
    scores = sampling.SamplingPlayer(1).play_scores(view)
    assert set(scores) == set(view.options)


def test_exchange_as_giver_shows_each_card_that_comes_back():
    seed = next(
        s for s in range(40) if any(k is DecisionKind.GIVE for k, _, _ in human_script(s)[0])
    )
    steps, expected = human_script(seed)
    upto = max(i for i, (k, _, _) in enumerate(steps) if k is DecisionKind.GIVE) + 2
    result = invoke(
        ["--deals", "3", "--seed", str(seed), "--lang", "en", "--no-analysis"],
        "\n".join(a for _, _, a in steps[:upto]) + "\nquit\n",
    )
    assert result.exit_code == 0
    assert "Give a card to" in result.stdout
    names = ("You", "Ben", "Tom")
    for deal in expected.results:
        for step in deal.exchanges:
            if step.giver == 0 and deal.number <= 2:
                line = (
                    f"You gave {EN.card(step.given)} to {names[step.receiver]} "
                    f"and got back {EN.card(step.returned)}."
                )
                assert line in result.stdout


def test_minus_player_chooses_the_return_for_a_trump():
    found = None
    for seed in range(200):
        steps, _expected = human_script(seed, level="easy")
        at = next((i for i, (k, _, _) in enumerate(steps) if k is DecisionKind.RETURN), None)
        if at is not None:
            found = seed, steps, at
            break
    assert found, "no seed with a trump given to the human"
    seed, steps, at = found
    lines = [a for _, _, a in steps[:at]] + ["stop", "hint", steps[at][2], "quit"]
    result = invoke(
        ["--deals", "3", "--seed", str(seed), "--level", "easy", "--lang", "en", "--no-analysis"],
        "\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.stderr
    received = steps[at][1].received
    assert f"You received the trump {EN.card(received)}" in result.stdout
    assert "stop ends the exchange; now you have to answer with a card" in result.stdout
    rule = make_player("medium").decide(steps[at][1])
    assert (
        "Not valued (the strong player does not value returns); the rule of thumb's choice: "
        f"{EN.card(rule)}"
    ) in " ".join(result.stdout.split())  # as one line: messages wrap between words
    save = read_save(
        next((Path(__import__("os").environ["TS358_HOME"]) / "saves").glob("*.json"))
    ).match
    deal = save.deal
    returned = [e for e in deal.exchanges if e.receiver == 0 and e.given is received]
    assert returned and str(returned[-1].returned) == steps[at][2]


def test_hand_marks_legal_cards_without_colour_and_games_left():
    from rich.console import Console

    from ts358.terminal.render import CardStyle, render_hand, render_table

    hand = CardSet.parse("AK.Q2.-.T")
    legal = CardSet.parse("-.Q2.-.-")
    out = io.StringIO()
    Console(file=out, no_color=True, width=100).print(render_hand(hand, legal, CardStyle(False)))
    lines = out.getvalue().split("\n")
    assert lines[0].split() == ["S", "(1)AS", "(2)KS"]
    assert lines[1].split() == ["H", "[3]QH", "[4]2H"]
    assert lines[2].split() == ["C", "(5)10C"]  # ten is 10 in every text, never T
    # During a deal the chooser's current game no longer counts as left.
    steps, _ = human_script(3)
    view = next(v for k, v, _ in steps if k is DecisionKind.PLAY and v.chooser != 0)
    out = io.StringIO()
    Console(file=out, no_color=True, width=120).print(
        render_table(view, ("You", "Left", "Right"), CardStyle(False))
    )
    chooser_name = ("You", "Left", "Right")[view.chooser]
    lines = out.getvalue().splitlines()
    games_left = next(line for line in lines if "Games left" in line).index("Games left")
    row = next(line for line in lines if line.startswith(chooser_name))
    short = {
        "spades": "S",
        "hearts": "H",
        "diamonds": "D",
        "clubs": "C",
        "no-trump": "NT",
        "no-tricks": "NoTr",
    }
    assert short[view.game.label] not in row[games_left:].split()


def test_strong_hint_too_early_gives_the_rule_of_thumbs_card():
    hints = HintService(seconds=1e-9)  # no time to prove anything
    match = Match(Rules(length=3), seed=3)
    while (pending := match.pending()).kind is not DecisionKind.PLAY:
        match.apply_answer(make_player("medium").decide(pending.view))
    advice = hints(pending.view)
    assert advice.basis is Basis.RULE_OF_THUMB
    assert advice.best == make_player("medium").decide(pending.view)
    out = io.StringIO()
    from rich.console import Console

    from ts358.terminal.render import CardStyle, render_advice

    Console(file=out, width=200).print(render_advice(advice, CardStyle(True)))
    assert out.getvalue() == (
        "Not valued (no sampled layout could be solved in time this early in the deal); "
        f"the rule of thumb's choice: {EN.card(advice.best)}\n"
    )


def test_a_hint_with_one_choice_says_so():
    from rich.console import Console

    from ts358.players import advise
    from ts358.terminal.render import CardStyle, render_advice

    match = Match(Rules(length=3), seed=5)
    while (p := match.pending()).kind is not DecisionKind.PLAY or len(p.view.options) > 1:
        match.apply_answer(make_player("medium").decide(p.view))
    out = io.StringIO()
    Console(file=out, width=80).print(render_advice(advise(p.view), CardStyle(False)))
    assert out.getvalue() == f"Only one choice: {p.view.options.lowest()}\n"


def test_hint_at_the_game_choice_the_exchange_and_the_discard(monkeypatch):
    from ts358.analysis import hints
    from ts358.players import Effort, SamplingPlayer

    # A lighter strong player than the session's: the same advice, sooner.
    light = Effort(choose=2, discard=2, give=2, node_budget=300_000)
    monkeypatch.setattr(
        hints, "SamplingPlayer", lambda seed, threads: SamplingPlayer(seed, effort=light, tt_mb=4)
    )
    wanted = {DecisionKind.CHOOSE, DecisionKind.GIVE, DecisionKind.DISCARD}
    seed = next(s for s in range(40) if wanted <= {k for k, _, _ in human_script(s)[0]})
    steps, _ = human_script(seed)
    lines, asked = [], {}
    for kind, view, answer in steps:
        if kind in wanted and kind not in asked:
            asked[kind] = view
            lines.append("hint")
        lines.append(answer)
        if asked.keys() == wanted:
            break
    result = invoke(
        ["--deals", "3", "--seed", str(seed), "--lang", "en", "--no-analysis"],
        "\n".join([*lines, "quit"]) + "\n",
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "No hint available" not in out
    blocks = {}
    for block in out.split("> hint\n")[1:]:
        title = block.split("\n", 1)[0]
        blocks[title] = block.split(" > ", 1)[0].splitlines()[1:]
    games = blocks["Expected deal score per game (strong computer player):"]
    view = asked[DecisionKind.CHOOSE]
    rows = [line for line in games if line.startswith("  ")]  # the notes above may wrap
    assert len(rows) == len(view.available[view.seat]) and "← best" in rows[0]
    gives = blocks["Expected deal score per card to give (strong computer player):"]
    assert gives[0] == "(each as if the exchange ended with that card)"
    assert any(line.split()[0] == "stop" for line in gives[2:])
    discards = blocks["Expected deal score of the best discards found (strong computer player):"]
    rows = [line for line in discards if line.startswith("  ")]
    assert "← best" in rows[0] and len(rows[0].split()) == 7  # 4 cards, score, ←, best


def test_ctrl_c_during_the_review_skips_it_and_the_match_goes_on(home, monkeypatch):
    from rich.console import Console

    from ts358.table.saves import SavedMatch
    from ts358.terminal.play import PlayOptions, play_interactive

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("ts358.terminal.play.review_deal", interrupted)
    steps, expected = human_script(8, deals=3)
    saved = SavedMatch(Match(Rules(length=3), 8, ("You", "Left", "Right")), "t-8", 0, "medium")
    out, err = io.StringIO(), io.StringIO()
    code = play_interactive(
        saved,
        PlayOptions(home / "r.json", analysis=True, hint=None, stats=False),
        Console(file=out),
        Console(file=err, soft_wrap=True),
        stream=io.StringIO("\n".join(a for _, _, a in steps) + "\n"),
    )
    assert code == 0 and saved.match.done  # every deal was played, not just the first
    assert err.getvalue().count("Analysis cancelled (Ctrl-C); the match goes on.") == 3
    assert saved.match.totals == expected.totals


def test_a_whole_sergeant_major_match_in_the_terminal(home):
    rules = Rules.named("sergeant-major")
    seed = 5  # the human (seat 0) deals and chooses the first deal
    steps, expected = human_script(seed, rules=rules)
    assert steps[0][0] is DecisionKind.CHOOSE and len(steps[0][1].hand) == 16
    answers = "\n".join(answer for _, _, answer in steps) + "\n"
    args = ["--rules", "sergeant-major", "--deals", "3", "--seed", str(seed), "--lang", "en"]
    result = invoke([*args, "--no-analysis"], answers)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Sergeant Major rules" in out and "12 tricks in one deal" in out
    assert "left of the dealer" in out and "right of the dealer" in out
    assert "You take the talon without showing it" in out
    assert "Your first six cards" not in out
    for number in range(1, len(expected.results) + 1):
        assert f"Deal {number}" in out
    assert "Final standings" in out
