"""The bot protocol ts358-bot/1 (docs/bots.md): views round-trip, a bot is never sent a card
its seat may not know, every fault of a bot leaves the table playing (the fault recorded,
no process left), ts358's own players through the protocol play as they do in process, and
the example bots play whole arenas."""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from cli_runner import run_cli
from ts358.batch.arena import make_board, play_board, run_arena
from ts358.bots import BotPlayer, BotProcess, serve_bot, view_from_json, view_to_json
from ts358.bots.keeper import BotKeeper
from ts358.bots.protocol import BotProtocolError, decide_message, parse_message, read_decision
from ts358.bots.spec import BotSpec, parse_seat
from ts358.cards import Card, CardSet
from ts358.deal import format_decision
from ts358.match import Match
from ts358.players import make_player
from ts358.record import replay
from ts358.rules import PRESETS, Contract, Exchange, Rules
from ts358.table.saves import SavedMatch
from ts358.terminal.play import PlayOptions, play_interactive
from ts358.view import DecisionKind
from web_support import cards_in, known_cards

ROOT = Path(__file__).parent.parent
FAULTY = Path(__file__).parent / "bots" / "faulty_bot.py"
EXAMPLE_PY = ROOT / "examples" / "bots" / "first_legal.py"
EXAMPLE_JS = ROOT / "examples" / "bots" / "first_legal.js"
RULE_SETS = [Rules.named(name, 3) for name in PRESETS]
SCHEMA = json.loads((ROOT / "docs" / "bots" / "ts358-bot-1.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(SCHEMA)


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = {key: value for key, value in SCHEMA.items() if key != "oneOf"}
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}"})


def conforms(message: dict, name: str) -> None:
    """``message`` is a valid message ``name`` of docs/bots/ts358-bot-1.schema.json."""
    validator(name).validate(message)


def views(seed: int, rules: Rules):
    match = Match(rules, seed)
    players = [make_player("easy", seed * 3 + s) for s in range(3)]
    while (pending := match.pending()) is not None:
        yield pending.view
        match.apply_answer(players[pending.seat].decide(pending.view))


def every_kind(rules: Rules) -> set[DecisionKind]:
    # Without trumps exchanged (or with no trump yet) no card comes back by choice.
    chosen = rules.exchange_trumps and rules.exchange is not Exchange.BEFORE_CHOICE
    return set(DecisionKind) - (set() if chosen else {DecisionKind.RETURN})


# ---------------------------------------------------------------------- the messages


@pytest.mark.parametrize("rules", RULE_SETS, ids=list(PRESETS))
def test_every_view_round_trips_through_json(rules):
    kinds = set()
    for seed in range(4):
        for view in views(seed, rules):
            back = view_from_json(json.loads(json.dumps(view_to_json(view))))
            assert back == view
            kinds.add(view.kind)
    assert kinds == every_kind(rules)


def test_a_decision_is_checked_against_the_view():
    view = next(v for v in views(2, Rules(length=3)) if v.kind is DecisionKind.PLAY)
    legal = next(iter(view.options))
    assert read_decision({"type": "decision", "id": 4, "card": str(legal)}, 4, view) == legal
    held_not_legal = next(iter(view.hand - view.options), None)
    for bad, why in [
        ({"type": "decision", "id": 4, "card": "ZZ"}, "not a card"),
        ({"type": "decision", "id": 4, "card": 7}, "must be text"),
        ({"type": "decision", "id": 4}, "'card' is missing"),
        ({"type": "decision", "id": 4, "card": None}, "must be text"),
        ({"type": "decision", "id": 3, "card": str(legal)}, "for id 3, not 4"),
        ({"type": "hello", "id": 4}, "expected a decision"),
    ] + (
        [({"type": "decision", "id": 4, "card": str(held_not_legal)}, "not one of")]
        if held_not_legal
        else []
    ):
        with pytest.raises(BotProtocolError, match=why):
            read_decision(bad, 4, view)
    choose = next(views(2, Rules(length=3)))
    assert choose.kind is DecisionKind.CHOOSE
    message = decide_message(1, choose, 5.0)
    assert read_decision({"type": "decision", "id": 1, "game": message["options"][0]}, 1, choose)
    with pytest.raises(BotProtocolError, match="not a game"):
        read_decision({"type": "decision", "id": 1, "game": "chess"}, 1, choose)
    discard = next(v for v in views(2, Rules(length=3)) if v.kind is DecisionKind.DISCARD)
    four = sorted(str(c) for c in discard.options)[:4]
    assert read_decision({"type": "decision", "id": 9, "cards": four}, 9, discard) == CardSet(
        Card.parse(c) for c in four
    )
    outside = str(
        next(
            c
            for c in CardSet(Card.parse(x) for x in ("AS", "AH", "AD", "AC", "KS"))
            if c not in discard.options
        )
    )
    for cards in (four[:3], [four[0]] * 4, "AS AH", [*four[:3], outside], [*four, outside]):
        with pytest.raises(BotProtocolError):
            read_decision({"type": "decision", "id": 9, "cards": cards}, 9, discard)
    for line in ("", "[1]", "{", b"\xff"):
        with pytest.raises(BotProtocolError):
            parse_message(line)


def test_the_schema_refuses_what_the_protocol_refuses():
    view = next(v for v in views(2, Rules(length=3)) if v.kind is DecisionKind.PLAY)
    good = decide_message(5, view, 2.0)
    conforms(good, "decide")
    conforms({**good, "a_key_of_a_later_version": 1}, "decide")  # forward compatible
    for bad in (
        {**good, "id": 0},
        {**good, "kind": "bid"},
        {**good, "view": {**good["view"], "hand": ["1S"]}},
        {key: value for key, value in good.items() if key != "view"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            conforms(bad, "decide")
    conforms({"type": "decision", "id": 5, "card": None}, "decision")
    for bad in (
        {"type": "decision", "id": 5},
        {"type": "decision", "id": 5, "card": "AS", "game": "hearts"},
        {"type": "decision", "id": 5, "cards": ["AS", "AS", "KS", "QS"]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            conforms(bad, "decision")


def test_seats_are_parsed_and_written_one_way():
    assert str(parse_seat("CMD:  python3 'my bot.py'  -x")) == "cmd:python3 'my bot.py' -x"
    assert parse_seat("cmd:python3 a.py") == BotSpec(("python3", "a.py"))
    assert str(parse_seat("hard:nodes=5000")) == "hard:nodes=5000"
    for bad, why in (("cmd:", "needs the bot's command"), ("cmd:'x", "can't be split")):
        with pytest.raises(ValueError, match=why):
            parse_seat(bad)


# ---------------------------------------------------------------------- hidden information


@pytest.mark.parametrize("rules", RULE_SETS, ids=list(PRESETS))
def test_a_bot_is_never_sent_a_card_its_seat_may_not_know(rules, monkeypatch):
    sent: list[tuple[Match, int, dict, set]] = []
    current: dict[str, object] = {}
    original = BotProcess.send

    def recording(self, message):
        match, seat = current["match"], current["seat"]
        deal = message.get("deal") or message.get("view", {}).get("deal") or match.number
        sent.append((match, seat, message, known_cards(match, seat, deal)))
        original(self, message)

    monkeypatch.setattr(BotProcess, "send", recording)
    kinds = set()
    matches = []
    for seed in range(3):
        match = Match(rules, 40 + seed)
        matches.append(match)
        bots = [BotPlayer([sys.executable, str(EXAMPLE_PY)], seed=s) for s in range(3)]
        current["match"] = match
        try:
            while (pending := match.pending()) is not None:
                current["seat"] = pending.seat
                kinds.add(pending.view.kind)
                applied = match.apply_answer(bots[pending.seat].decide(pending.view))
                if applied.result is not None:
                    for s, bot in enumerate(bots):
                        current["seat"] = s
                        bot.deal_over(s, applied.result)
        finally:
            for bot in bots:
                bot.close()
        assert all(not bot.faults for bot in bots), [bot.faults for bot in bots]
    assert kinds == every_kind(rules)
    assert len(sent) > 100
    for _, seat, message, known in sent:
        conforms(message, message["type"])
        leaked = cards_in(message) - known
        assert not leaked, (seat, message["type"], leaked)
    # The events tell each seat every card of every deal once, in the order played, and
    # each trick's winner after its third card.
    for match in matches:
        for seat in range(3):
            told: dict[int, list[tuple]] = {}
            for m, s, message, _ in sent:
                if m is match and s == seat and message["type"] == "events":
                    told.setdefault(message["deal"], []).extend(
                        (e.get("seat"), e.get("card"), e.get("winner"))
                        for e in message["events"]
                        if e["event"] in ("card", "trick")
                    )
            for result in match.results:
                expected = []
                for trick in result.tricks:
                    expected += [
                        (trick.seat_of(i), str(c), None) for i, c in enumerate(trick.cards)
                    ]
                    expected.append((None, None, trick.winner))
                assert told.pop(result.number) == expected, (seat, result.number)
            assert not told


# ---------------------------------------------------------------------- faults


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is reaped by its parent; here the parent is this process.
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


@pytest.fixture
def started(monkeypatch):
    """The bot processes started during the test."""
    processes: list[BotProcess] = []
    original = BotProcess.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        processes.append(self)

    monkeypatch.setattr(BotProcess, "__init__", recording)
    return processes


@pytest.mark.parametrize(
    "mode, kind, handed_over",
    [
        ("late", "late", True),
        ("illegal", "illegal", False),
        ("malformed", "malformed", False),
        ("oversized", "oversized", True),
        ("flood", "flood", True),
        ("hang", "late", True),
        ("die", "died", True),
        ("silent", "no_start", True),
        ("child", "late", True),
    ],
)
def test_every_fault_of_a_bot_leaves_the_table_playing(mode, kind, handed_over, started):
    board = make_board(7, 0)
    command = [sys.executable, str(FAULTY), mode, "3"]

    def factory(config, seed):
        if config == "bot":
            return BotPlayer(command, seconds=0.5, seed=seed)
        return make_player(config, seed)

    start = time.monotonic()
    outcome = play_board(board, ("bot", "medium", "medium"), 7, factory)
    took = time.monotonic() - start
    assert len(outcome.scores) == 3  # every seating's deal finished
    faults = outcome.faults
    assert len(faults) >= 3 and {f["kind"] for f in faults} == {kind}, faults
    assert all(f["handed_over"] is handed_over for f in faults)
    assert all(f["decision"] == (0 if mode == "silent" else 3) for f in faults), faults
    if handed_over:  # one fault a seating: the rest of the deal by the fallback
        assert len(faults) == 3
    # Never waited past the time control (0.5 s a decision, a hand-over ends the waits).
    assert took < 30
    time.sleep(0.2)
    assert started and not [p.pid for p in started if alive(p.pid)]
    if mode == "child":
        found = subprocess.run(
            ["pgrep", "-f", "import time; time.sleep(3600)"], capture_output=True, text=True
        )
        assert found.stdout.strip() == ""


def test_a_bot_that_can_not_start_is_a_fault_not_a_crash():
    board = make_board(7, 1)

    def factory(config, seed):
        if config == "bot":
            return BotPlayer(["/nonexistent/bot"], seconds=0.5)
        return make_player(config, seed)

    outcome = play_board(board, ("bot", "medium", "medium"), 7, factory)
    assert {f["kind"] for f in outcome.faults} == {"no_start"}
    assert "can't run '/nonexistent/bot'" in outcome.faults[0]["detail"]


def test_an_arena_records_the_faults_and_names_the_bot():
    bad = f"cmd:{sys.executable} {FAULTY} illegal 2"
    doc = run_arena([bad, "medium", "medium"], 2, seed=3, workers=1)
    assert doc["players"][0] == bad or bad in doc["players"]
    assert doc["faults"] and {f["kind"] for f in doc["faults"]} == {"illegal"}
    assert all(f["player"] == bad for f in doc["faults"])
    assert doc["deals"] == 2 * 3


@pytest.mark.parametrize(
    "configs, processes", [(("bot", "medium", "medium"), 1), (("bot", "bot", "medium"), 2)]
)
def test_the_arena_starts_a_bot_once_per_seat_it_takes_not_once_per_board(
    configs, processes, started
):
    command = f"cmd:{sys.executable} {EXAMPLE_PY}"
    keeper = BotKeeper(seconds=5)
    named = tuple(command if c == "bot" else c for c in configs)
    try:
        kept = [play_board(make_board(5, b), named, 5, keeper.make, keeper.done) for b in range(3)]
    finally:
        keeper.close()
    assert len(started) == processes == keeper.started
    time.sleep(0.2)
    assert not [p.pid for p in started if alive(p.pid)]
    # The same decisions as a new process for every board: each board starts with a hello.
    fresh = [play_board(make_board(5, b), named, 5) for b in range(3)]
    assert [o.scores for o in kept] == [o.scores for o in fresh]
    assert all(not o.faults for o in kept + fresh)


def test_a_bot_that_failed_is_started_again_for_the_next_board(started):
    keeper = BotKeeper(seconds=0.5)
    bot = f"cmd:{sys.executable} {FAULTY} die 3"
    try:
        outcomes = [
            play_board(make_board(7, b), (bot, "medium", "medium"), 7, keeper.make, keeper.done)
            for b in range(2)
        ]
    finally:
        keeper.close()
    assert [len(o.faults) for o in outcomes] == [3, 3]  # one a seating, each a new process
    assert len(started) == 6
    time.sleep(0.2)
    assert not [p.pid for p in started if alive(p.pid)]


# ---------------------------------------------------------------------- ts358's players as bots


def test_ts358_bot_plays_the_decisions_of_the_same_player_in_process():
    bot = f"cmd:{sys.executable} -m ts358 bot --level medium"
    through = run_arena([bot] * 3, 20, seed=11, workers=2)
    inside = run_arena(["medium"] * 3, 20, seed=11, workers=2)
    assert through["faults"] == [] and through["digest"] == inside["digest"]


def test_ts358_bot_seeds_its_player_from_the_hello():
    bot = f"cmd:{sys.executable} -m ts358 bot --level hard:layouts=2:nodes=20000"
    through = run_arena([bot] * 3, 2, seed=12, workers=2)
    inside = run_arena(["hard:layouts=2:nodes=20000"] * 3, 2, seed=12, workers=2)
    assert through["faults"] == [] and through["digest"] == inside["digest"]


def test_ts358_bot_says_what_it_did_not_understand_and_goes_on():
    view = next(views(3, Rules(length=3)))
    lines = [
        json.dumps({"type": "decide", "id": 1, "kind": "choose", "view": {}, "options": []}),
        json.dumps(
            {
                "type": "hello",
                "protocol": "ts358-bot/1",
                "seat": view.seat,
                "seed": 5,
                "future_key": [1],
            }
        ),
        "not json",
        json.dumps({"type": "decide", "id": 2, "view": {"seat": 1}}),
        json.dumps({"type": "news", "text": "a message of a later version"}),
        json.dumps(decide_message(3, view, 5.0)),
        json.dumps({"type": "bye"}),
        json.dumps(decide_message(4, view, 5.0)),
    ]
    out, err = io.StringIO(), io.StringIO()
    serve_bot(
        lambda seed: make_player("medium", seed), "t", io.StringIO("\n".join(lines)), out, err
    )
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["type"] for a in answers] == ["hello", "decision"]
    conforms(answers[0], "bot_hello")
    conforms(answers[1], "decision")
    assert answers[1]["id"] == 3 and Contract.parse(answers[1]["game"]) in view.available[view.seat]
    problems = err.getvalue().splitlines()
    assert len(problems) == 3 and all(p.startswith("ts358 bot: ") for p in problems)
    assert "before the hello" in problems[0] and "not a JSON line" in problems[1]


def test_bot_help_and_a_bad_level():
    assert "ts358-bot/1" in run_cli(["bot", "--help"]).stdout
    bad = run_cli(["bot", "--level", "grandmaster"])
    assert bad.exit_code == 2 and "not a level: 'grandmaster'" in bad.stderr


# ---------------------------------------------------------------------- the example bots


def test_the_python_example_bot_plays_an_arena_against_hard():
    # One board, played in all six seatings (twenty boards: the slow soak below).
    doc = run_arena([f"cmd:{sys.executable} {EXAMPLE_PY}", "hard", "medium"], 1, seed=21, workers=2)
    assert doc["faults"] == [] and doc["deals"] == 6


def test_the_javascript_example_bot_plays_an_arena_against_hard():
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("no node (CI installs Debian's nodejs)")
        pytest.skip("no node to run the JavaScript example (apt-get install nodejs)")
    doc = run_arena([f"cmd:node {EXAMPLE_JS}", "hard", "medium"], 1, seed=22, workers=2)
    assert doc["faults"] == [] and doc["deals"] == 6


@pytest.mark.slow
@pytest.mark.parametrize("bot", [EXAMPLE_PY, EXAMPLE_JS], ids=["python", "javascript"])
def test_the_example_bots_play_twenty_boards_against_hard(bot):
    runner = sys.executable if bot.suffix == ".py" else "node"
    doc = run_arena([f"cmd:{runner} {bot}", "hard", "hard"], 20, seed=23, workers=2)
    assert doc["faults"] == [] and doc["deals"] == 20 * 3


# ---------------------------------------------------------------------- ts358 play against bots


class Answers(io.StringIO):
    """The human's answers at ``ts358 play``'s prompts, each made when asked: the medium
    player's decision on the view due (so the answers fit whatever the bots did)."""

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        self.player = make_player("medium", 0)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        pending = self.match.pending()
        if pending is None:
            return ""
        return format_decision(pending.kind, self.player.decide(pending.view)) + "\n"


def test_a_match_at_the_terminal_against_faulty_bots_completes_with_the_faults_recorded(
    tmp_path, started
):
    match = Match(Rules(length=3), 8, ("You", "Left", "Right"))
    saved = SavedMatch(match, "bots", 0, "medium")
    opponents = {
        1: f"cmd:{sys.executable} {FAULTY} illegal 2",
        2: f"cmd:{sys.executable} {FAULTY} die 5",
    }
    record = tmp_path / "record.json"
    options = PlayOptions(
        tmp_path / "save.json",
        analysis=False,
        hint=None,
        stats=False,
        record=record,
        opponents=opponents,
    )
    out = io.StringIO()
    code = play_interactive(
        saved, options, Console(file=out, width=300), Console(file=io.StringIO()), Answers(match)
    )
    assert code == 0 and match.done
    faults = json.loads(record.read_text())["faults"]
    assert [(f["seat"], f["kind"], f["decision"]) for f in faults] == [
        (1, "illegal", 2),
        (2, "died", 5),
    ]
    assert faults[1]["handed_over"] and not faults[0]["handed_over"]
    said = out.getvalue()
    assert "(a bot) erred: a decision the rules do not allow" in said
    assert "(a bot) failed: it ended" in said
    # The record replays: the faults changed who decided, never the rules.
    assert replay(json.loads(record.read_text())).totals == match.totals
    time.sleep(0.2)
    assert len(started) == 2 and not [p.pid for p in started if alive(p.pid)]


def test_play_opponents_option_is_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    for args, why in (
        (["--opponents", "hard"], "two players separated by a comma"),
        (["--opponents", "hard,cmd:"], "needs the bot's command"),
        (["--opponents", "hard,grandmaster"], "not a level: 'grandmaster'"),
        (["--auto", "--opponents", "hard,medium"], "use ts358 arena"),
    ):
        result = run_cli(["play", *args])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and why in lines[0], result.stderr


def play_the_person(client, token: str) -> list[str]:
    """Seat ``token`` of a browser table played to the end of its match by the web tests'
    scripted person; the error messages it was told on the way."""
    from web_support import answer, receive, send

    notices = []
    with client.websocket_connect("/ws") as ws:
        send(ws, {"type": "join", "token": token})
        receive(ws)
        while True:
            message = receive(ws)
            if message["type"] == "error":
                notices.append(message["message"])
            elif message["type"] == "state":
                if message["phase"] == "finished":
                    return notices
                if answer(message) is not None:
                    send(ws, answer(message))


# ---------------------------------------------------------------------- a browser table


def test_a_browser_table_seats_the_servers_bots_and_survives_their_faults(tmp_path, started):
    from starlette.testclient import TestClient

    from ts358.web.app import create_app
    from ts358.web.lobby import Lobby

    bots = {
        "first": f"cmd:{sys.executable} {EXAMPLE_PY}",
        "dies": f"cmd:{sys.executable} {FAULTY} die 4",
    }
    lobby = Lobby(tmp_path / "saves", stats=False, bots=bots)
    app = create_app(lobby, lang="en")
    with TestClient(app, base_url="http://127.0.0.1:8358", client=("127.0.0.1", 5)) as client:
        assert client.get("/api/lobby").json()["bots"] == ["dies", "first"]
        for opponents, why in (
            (["first"], "'opponents' must be two of"),
            (["first", "nobody"], "not ['first', 'nobody']"),
            ([f"cmd:{sys.executable} {EXAMPLE_PY}", "hard"], "'opponents' must be two of"),
        ):
            refused = client.post("/api/tables", json={"opponents": opponents})
            assert refused.status_code == 400 and why in refused.json()["error"], refused.text
        seated = client.post(
            "/api/tables",
            json={
                "deals": 3,
                "seed": 6,
                "pace": 0,
                "analysis": False,
                "opponents": ["first", "dies"],
            },
        ).json()
        notices = play_the_person(client, seated["token"])
    assert len(notices) == 1 and "Tom (a bot) failed: it ended" in notices[0], notices
    assert not lobby.tables  # the finished match's table closed, and its bots with it
    time.sleep(0.2)
    assert len(started) == 2 and not [p.pid for p in started if alive(p.pid)]


def test_serve_bot_option_is_checked():
    for value, why in (
        ("nobot", "NAME=COMMAND"),
        ("a b=python3 x.py", "NAME=COMMAND"),
        ("hard=python3 x.py", "is taken"),
        ("remote=python3 x.py", "is taken"),
        ("mine=", "needs the bot's command"),
    ):
        result = run_cli(["serve", "--bot", value, "--port", "1"])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and why in lines[0], result.stderr


def test_the_bots_time_control_is_an_option_of_the_arena():
    late = f"cmd:{sys.executable} {FAULTY} late 2"
    start = time.monotonic()
    result = run_cli(
        [
            "arena",
            "--players",
            f"{late},medium,medium",
            "--deals",
            "1",
            "--seed",
            "4",
            "--workers",
            "1",
            "--bot-time",
            "0.3",
            "--json",
        ]
    )
    took = time.monotonic() - start
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["bot_seconds"] == 0.3
    assert [f["kind"] for f in doc["faults"]] == ["late"] * 3
    assert took < 20  # three seatings, each waiting 0.3 s once, not 2 s
    bad = run_cli(["arena", "--bot-time", "0", "--deals", "1"])
    assert bad.exit_code == 2 and "'--bot-time'" in bad.stderr and "more than 0" in bad.stderr


# ---------------------------------------------------------------------- remote bots


def first_option(message: dict) -> dict:
    """A decision for a decide message: its first option (four for a discard)."""
    if message["kind"] == "choose":
        return {"game": message["options"][0]}
    if message["kind"] == "discard":
        return {"cards": message["options"][:4]}
    return {"card": message["options"][0]}


def remote_bot(client, token: str, log: list, quit_after: int | None = None) -> None:
    """A bot on another computer: joins with ``token`` and answers every decide with its
    first option (or drops its connection after ``quit_after`` decisions)."""
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/bot") as ws:
        ws.send_text(json.dumps({"type": "join", "token": token}))
        decided = 0
        while True:
            try:
                message = json.loads(ws.receive_text())
            except WebSocketDisconnect:
                return
            log.append(message)
            if message["type"] == "hello":
                ws.send_text(json.dumps({"type": "hello", "name": "remote-test"}))
            elif message["type"] == "decide":
                if quit_after is not None and decided == quit_after:
                    return
                decided += 1
                ws.send_text(
                    json.dumps({"type": "decision", "id": message["id"], **first_option(message)})
                )
            elif message["type"] == "bye":
                return


@pytest.mark.parametrize("quit_after", [None, 3], ids=["plays", "drops"])
def test_a_bot_on_another_computer_takes_its_seat_over_the_websocket(tmp_path, quit_after):
    import threading

    from starlette.testclient import TestClient

    from ts358.web.app import create_app
    from ts358.web.lobby import Lobby

    lobby = Lobby(tmp_path / "saves", stats=False)
    app = create_app(lobby, base_url="http://127.0.0.1:8358", lang="en")
    with TestClient(app, base_url="http://127.0.0.1:8358", client=("127.0.0.1", 5)) as client:
        seated = client.post(
            "/api/tables",
            json={
                "deals": 3,
                "seed": 9,
                "pace": 0,
                "analysis": False,
                "opponents": ["remote", "medium"],
            },
        ).json()
        (link,) = seated["bots"]
        assert link["seat"] == 1 and link["url"] == "ws://127.0.0.1:8358/bot"
        (table,) = lobby.tables.values()
        # A wrong token opens nothing.
        with client.websocket_connect("/bot") as wrong:
            wrong.send_text(json.dumps({"type": "join", "token": "x" * 32}))
            assert json.loads(wrong.receive_text())["gone"] is True
        log: list[dict] = []
        bot = threading.Thread(target=remote_bot, args=(client, link["token"], log, quit_after))
        bot.start()
        notices = play_the_person(client, seated["token"])
        bot.join(30)
        assert not bot.is_alive()
    faults = table.computers[1].player.faults
    kinds = {m["type"] for m in log}
    assert {"hello", "decide", "events"} <= kinds
    for message in log:
        conforms(message, message["type"])
    if quit_after is None:
        assert faults == [] and notices == [] and "deal_end" in kinds
        assert sum(m["type"] == "decide" for m in log) > 3 * 16
    else:
        assert [f.kind for f in faults] == ["died"] and faults[0].decision == quit_after + 1
        assert len(notices) == 1 and "Ben (a bot) failed" in notices[0]


def test_ts358_bot_connects_to_a_remote_seat_and_plays_as_in_process(tmp_path, monkeypatch):
    import urllib.request

    from websockets.sync.client import connect as ws_connect

    from web_support import answer, live_server

    monkeypatch.setenv("TS358_HOME", str(tmp_path))

    def play_out(url: str, token: str) -> list[int]:
        with ws_connect(url.replace("http://", "ws://") + "/ws") as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            while True:
                message = json.loads(ws.recv(timeout=60))
                if message["type"] != "state":
                    continue
                if message["phase"] == "finished":
                    return message["totals"]
                if answer(message) is not None:
                    ws.send(json.dumps(answer(message)))

    def new_table(url: str, opponents: list[str]) -> dict:
        body = {"deals": 3, "seed": 12, "pace": 0, "analysis": False, "opponents": opponents}
        request = urllib.request.Request(
            url + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    with live_server(tmp_path / "saves") as server:
        seated = new_table(server.url, ["remote", "medium"])
        (link,) = seated["bots"]
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ts358",
                "bot",
                "--level",
                "medium",
                "--connect",
                link["url"],
                "--token",
                link["token"],
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            through = play_out(server.url, seated["token"])
            assert bot.wait(30) == 0, bot.stderr.read() if bot.stderr else ""
        finally:
            if bot.poll() is None:
                bot.kill()
        inside = play_out(server.url, new_table(server.url, ["medium", "medium"])["token"])
    assert through == inside
    refused = run_cli(["bot", "--connect", "ws://127.0.0.1:1/bot"])
    assert refused.exit_code == 2 and "--connect and --token go together" in refused.stderr
