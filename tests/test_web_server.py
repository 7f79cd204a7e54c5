"""ts358 serve through Starlette's test client: the start page's requests, the seats'
WebSockets in every phase, refused decisions and messages, reconnects, a terminal save
resumed, and no hidden card in any message a seat is sent (the check computes what a seat
may know from the engine: tests/web_support.py)."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ts358.table.saves import read_save
from ts358.web import app as web_app
from ts358.web.app import create_app
from ts358.web.lobby import Lobby
from web_support import answer, cards_in, known_cards, receive, send

DATA = Path(__file__).parent / "data"
_STACK: list[contextlib.ExitStack] = []
LOCAL = ("127.0.0.1", 50000)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def lobby(home):
    return Lobby(home / "saves")


@pytest.fixture
def client(lobby):
    app = create_app(lobby, base_url="http://127.0.0.1:8358", lang="en")
    # The WebSockets the test opens are closed (the stack) before the client stops, which
    # waits for them.
    with (
        TestClient(app, base_url="http://127.0.0.1:8358", client=LOCAL) as c,
        contextlib.ExitStack() as stack,
    ):
        _STACK[:] = [stack]
        yield c


@pytest.fixture
def sent(monkeypatch):
    """Every message the server sends, with what its seat may know when it is sent."""
    log: list[tuple[int, dict, set]] = []
    original = web_app.Room.send

    async def recording(room, seat, message):
        if seat in room.sockets:
            match = room.table.match
            deal = message.get("deal") or match.number
            log.append((seat, message, known_cards(match, seat, deal)))
        await original(room, seat, message)

    monkeypatch.setattr(web_app.Room, "send", recording)
    return log


def new_table(client, **options):
    response = client.post("/api/tables", json={"pace": 0, **options})
    assert response.status_code == 200, response.text
    return response.json()


def connect(client, **headers):
    # The autouse fixture's stack of the test calling this (pytest gives no other handle).
    return _STACK[0].enter_context(client.websocket_connect("/ws", headers=dict(headers)))


def join(client, token):
    socket = connect(client)
    send(socket, {"type": "join", "token": token})
    welcome = receive(socket)
    assert welcome["type"] == "welcome", welcome
    return socket


def signature(state):
    return json.dumps(
        [
            state.get(k)
            for k in ("deal", "phase", "decision", "hand", "trick", "ready", "gives_left")
        ]
    )


def play_alone(socket, until="finished"):
    """Play the seat by :func:`answer` against the computer players until ``until`` (a
    phase); the phases seen and every message received."""
    phases, messages, answered = set(), [], None
    while True:
        message = receive(socket)
        messages.append(message)
        assert message["type"] != "error", message
        if message["type"] != "state":
            continue
        phases.add(message["phase"])
        if message["phase"] == until:
            return phases, messages
        reply = answer(message)
        if reply is not None and signature(message) != answered:
            answered = signature(message)
            send(socket, reply)


def assert_nothing_hidden(sent):
    assert sent
    for seat, message, known in sent:
        leaked = cards_in(message) - known
        assert not leaked, (seat, message["type"], sorted(map(str, leaked)))


# ---------------------------------------------------------------------- the start page


def test_lobby_offers_defaults_saves_and_statistics(client):
    info = client.get("/api/lobby").json()
    assert info["defaults"]["deals"] == 6 and info["levels"] == ["easy", "medium", "hard", "expert"]
    assert info["saves"] == [] and info["stats"]["played"] == 0
    assert info["texts"]["web.new_match"] == "New match"
    assert client.get("/api/lobby?lang=pl").json()["texts"]["web.new_match"] == "Nowa partia"


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_lobby_answers_only_this_computer(lobby):
    app = create_app(lobby, base_url="http://127.0.0.1:8358")
    with TestClient(app, base_url="http://127.0.0.1:8358", client=("192.168.1.7", 1)) as c:
        assert c.get("/api/lobby").status_code == 403
        assert c.post("/api/tables", json={}).status_code == 403
    with TestClient(app, base_url="http://evil.example:8358", client=LOCAL) as c:
        assert c.get("/api/lobby").status_code == 403  # DNS rebinding: a foreign Host


def test_lobby_refuses_bad_requests_with_one_line(client):
    form = client.post("/api/tables", content="deals=6", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    for options, why in (
        ({"deals": 5}, "'deals' must be one of 3, 6, 9, 18"),
        ({"level": "master"}, "'level' must be one of"),
        ({"humans": 4}, "'humans'"),
        ({"pace": -1}, "'pace' must be a number of seconds from 0 to 5"),
        ({"pace": 10**400}, "'pace' must be a number of seconds from 0 to 5, not <a number"),
        ({"analysis_seconds": 10**400}, "'analysis_seconds' must be a number of seconds"),
        ({"seed": 10**400}, "'seed' must be a whole number"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ):
        response = client.post("/api/tables", json=options)
        assert response.status_code == 400 and why in response.json()["error"], options
    assert (
        "not JSON"
        in client.post(
            "/api/tables", content=b"{", headers={"content-type": "application/json"}
        ).json()["error"]
    )
    for save_id in ("../stats", "/etc/passwd", "x" * 200):
        response = client.post("/api/resume", json={"id": save_id})
        assert response.status_code == 400 and "not the id of a saved match" in response.text


# ---------------------------------------------------------------------- a whole match


def test_a_whole_match_against_computer_players_hides_every_hidden_card(client, lobby, sent):
    seated = new_table(client, deals=3, level="medium", seed=7, analysis_seconds=2)
    socket = join(client, seated["token"])
    phases, messages = play_alone(socket)
    assert {"choose", "exchange", "discard", "play", "summary", "finished"} <= phases
    final = messages[-1]
    reviewed = {m["deal"] for m in messages if m["type"] == "review"}
    while reviewed != {1, 2, 3}:  # the last deal's analysis comes after the end
        message = receive(socket)
        if message["type"] == "review":
            reviewed.add(message["deal"])
            assert message["chart"] and len(message["result"]) == 3
    assert [row["place"] for row in final["standings"]] == sorted(
        row["place"] for row in final["standings"]
    )
    assert_nothing_hidden(sent)
    (table,) = lobby.tables.values()
    assert table.match.done and table.lock is None  # the save is released at the end
    saved = read_save(table.save_path)
    assert saved.match.done and saved.match.totals == table.match.totals
    stats = client.get("/api/lobby").json()["stats"]
    assert stats["played"] == 1


def test_three_people_see_every_phase_and_only_their_own_cards(client, lobby, sent):
    seated = new_table(client, deals=3, humans=3, seed=1, analysis=False)
    assert [link["seat"] for link in seated["links"]] == [1, 2]
    tokens = [seated["token"]] + [link["url"].split("#seat=")[1] for link in seated["links"]]
    sockets = [join(client, token) for token in tokens]
    # Each connection's arrival sends every connected seat its state.
    states = [None, None, None]
    for seat, socket in enumerate(sockets):
        for _ in range(3 - seat):
            states[seat] = receive(socket)
    phases = [set(), set(), set()]
    while states[0]["phase"] != "finished":
        mover = next((s for s in range(3) if answer(states[s]) is not None), None)
        assert mover is not None, states
        send(sockets[mover], answer(states[mover]))
        for seat, socket in enumerate(sockets):
            states[seat] = receive(socket)
            assert states[seat]["type"] == "state", states[seat]
            phases[seat].add(states[seat]["phase"])
    every = {"choose", "exchange", "return", "discard", "play", "summary", "finished"}
    assert set().union(*phases) == every
    # Only the receiver of a trump is told that a return is due.
    assert [("return" in p) for p in phases].count(True) >= 1
    assert_nothing_hidden(sent)
    hands = [{c["card"] for c in s.get("hand", [])} for s in states]
    assert not (hands[0] & hands[1]) and not (hands[1] & hands[2])


def test_the_check_can_fail():
    # A state naming a card of another hand is caught by the check itself.
    from ts358.match import Match

    match = Match(seed=3)
    other = match.deal.setup.hands[1][0]
    assert other in cards_in({"hand": [{"card": str(other)}]}) - known_cards(match, 0, 1)
    assert other in cards_in({"text": f"Ben holds {other.symbol()}"})


# ---------------------------------------------------------------------- refused input


def test_out_of_turn_illegal_and_wrong_decisions_are_refused_and_change_nothing(client, lobby):
    seated = new_table(client, deals=3, humans=3, seed=1, analysis=False)
    tokens = [seated["token"]] + [link["url"].split("#seat=")[1] for link in seated["links"]]
    (table,) = lobby.tables.values()
    chooser = table.match.deal.chooser
    socket = join(client, tokens[(chooser + 1) % 3])
    receive(socket)
    before = table.match.snapshot()
    send(socket, {"type": "choose", "game": "hearts"})
    assert receive(socket) == {"type": "error", "message": "it is not your turn"}
    mine = join(client, tokens[chooser])
    state = receive(mine)
    receive(socket)  # the chooser's arrival
    send(mine, {"type": "play", "card": state["hand"][0]["card"]})
    message = receive(mine)
    assert message["message"] == "now choosing the game is asked, not playing a card"
    hidden = next(c for c in table.match.deal.setup.hands[chooser][6:])
    send(mine, {"type": "give", "card": str(hidden)})
    assert "choosing the game is asked" in receive(mine)["message"]
    assert table.match.snapshot() == before
    send(mine, {"type": "choose", "game": "spades"})
    assert receive(mine)["type"] == "state"


def test_a_card_not_held_or_against_the_rules_is_refused_with_the_reason(client, lobby):
    seated = new_table(client, deals=3, seed=5, level="easy")
    socket = join(client, seated["token"])
    (table,) = lobby.tables.values()
    state = receive(socket)
    while state["type"] != "state" or state["decision"] != "play":
        reply = answer(state) if state["type"] == "state" else None
        if reply:
            send(socket, reply)
        state = receive(socket)
    view = table.match.deal.view(0)
    other = next(c for c in table.match.deal.hand(1))
    send(socket, {"type": "play", "card": str(other)})
    assert receive(socket)["message"] == f"{other.symbol()} is not in your hand"
    illegal = [c for c in view.hand if c not in view.options]
    if illegal:
        send(socket, {"type": "play", "card": str(illegal[0])})
        assert "is not allowed" in receive(socket)["message"]
    assert table.match.deal.view(0).hand == view.hand


@pytest.mark.parametrize(
    "raw, why",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"type": "dance"}', "unknown type 'dance'"),
        ('{"type": "play"}', "key 'card' is missing"),
        ('{"type": "play", "card": "ZZ"}', "not a card: 'ZZ'"),
        ('{"type": "play", "card": 7}', "a card is written as text"),
        ('{"type": "next", "please": 1}', "unknown key 'please'"),
        ('{"type": "discard", "cards": "AS"}', "a list of cards"),
        ('{"type": "pace", "seconds": 1e400}', "a number of seconds from 0 to 5, not inf"),
        (
            '{"type": "pace", "seconds": 1%s}' % ("0" * 400),
            "a number of seconds from 0 to 5, not <a number of",
        ),
        ('{"type": "pace", "seconds": true}', "a number of seconds from 0 to 5, not True"),
        ('{"type": "choose", "game": ["hearts"]}', "a game is one of"),
        ("[" * 5000, "a message of 5000 bytes"),
        ('{"type": "join", "token": "x"}', "has joined its seat already"),
    ],
)
def test_malformed_messages_get_an_error_and_the_connection_stays(client, raw, why):
    socket = join(client, new_table(client, deals=3, level="easy", seed=2)["token"])
    receive(socket)
    socket.send_text(raw)
    error = receive(socket)
    assert error["type"] == "error" and why in error["message"], error
    send(socket, {"type": "state"})
    assert receive(socket)["type"] == "state"


def test_bytes_that_are_not_text_get_an_error(client):
    socket = join(client, new_table(client, deals=3, level="easy", seed=2)["token"])
    receive(socket)
    socket.send_bytes(b"\xff\xfe{")
    assert "not UTF-8" in receive(socket)["message"]


def test_a_wrong_token_or_no_join_is_told_and_closed(client):
    socket = connect(client)
    send(socket, {"type": "join", "token": "not-a-seat"})
    message = receive(socket)
    assert message["gone"] and "not on the server" in message["message"]
    with pytest.raises(WebSocketDisconnect):
        receive(socket)
    socket = connect(client)
    send(socket, {"type": "play", "card": "AS"})
    assert "join first" in receive(socket)["message"]


def test_a_page_of_another_site_can_not_open_a_seat(client):
    token = new_table(client, deals=3, level="easy", seed=2)["token"]
    foreign = {"origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers=foreign) as ws:
        send(ws, {"type": "join", "token": token})
        receive(ws)


# ---------------------------------------------------------------------- reconnects, saves


def test_a_seat_that_reconnects_finds_the_table_as_it_was(client, lobby):
    token = new_table(client, deals=3, level="easy", seed=4)["token"]
    socket = join(client, token)
    state = receive(socket)
    decisions = 0
    while True:  # a few decisions, then leave when the next one is due (nothing moves then)
        while answer(state) is None:
            state = receive(socket)
        if decisions == 4:
            break
        send(socket, answer(state))
        decisions += 1
        state = receive(socket)
    socket.close()
    (table,) = lobby.tables.values()
    assert table.connected == set() or table.connected == {0}
    again = join(client, token)
    resumed = receive(again)
    for key in ("deal", "phase", "hand", "trick", "seats", "score_sheet", "decision", "talon"):
        assert resumed[key] == state[key], key
    send(again, answer(resumed))
    assert receive(again)["type"] == "state"


def test_a_second_connection_to_a_seat_replaces_the_first(client):
    token = new_table(client, deals=3, level="easy", seed=4)["token"]
    first = join(client, token)
    receive(first)
    second = join(client, token)
    assert receive(second)["type"] == "state"
    with pytest.raises(WebSocketDisconnect):
        for _ in range(5):
            receive(first)


def test_a_terminal_save_resumes_in_the_browser_and_back(client, home):
    folder = home / "saves"
    folder.mkdir()
    shutil.copy(DATA / "save-v1-seed5.json", folder / "20260101-000000-5.json")
    listed = client.get("/api/lobby").json()["saves"]
    assert [s["id"] for s in listed] == ["20260101-000000-5"]
    before = read_save(folder / "20260101-000000-5.json")
    seated = client.post("/api/resume", json={"id": "20260101-000000-5"}).json()
    socket = join(client, seated["token"])
    state = receive(socket)
    assert state["deal"] == before.match.number
    assert state["totals"] == list(before.match.totals)
    while answer(state) is None:
        state = receive(socket)
    send(socket, answer(state))
    receive(socket)
    after = read_save(folder / "20260101-000000-5.json")  # what the terminal resumes
    done = len(before.match.snapshot().decisions)
    assert after.match.snapshot().decisions[:done] == before.match.snapshot().decisions
    assert len(after.match.snapshot().decisions) > done
    # Resuming it again finds the open table, not a second one.
    assert (
        client.post("/api/resume", json={"id": "20260101-000000-5"}).json()["token"]
        == (seated["token"])
    )


def test_hint_answers_the_decision_due(client, monkeypatch):
    from ts358.analysis.hints import HintService
    from ts358.players.advice import Advice, Basis

    def advise(view):
        return Advice(view.kind, Basis.SOLVED, tuple((c, 1.0) for c in view.options), 3, 3)

    monkeypatch.setattr(HintService, "__call__", lambda self, view: advise(view))
    socket = join(client, new_table(client, deals=3, level="easy", seed=5)["token"])
    state = receive(socket)
    while answer(state) is None or state["decision"] != "play":
        if answer(state):
            send(socket, answer(state))
        state = receive(socket)
    send(socket, {"type": "hint"})
    hint = receive(socket)
    assert hint["type"] == "hint" and hint["options"] and hint["options"][0]["best"]
    assert "average over 3 sampled layouts" in hint["note"]


def test_hint_when_nothing_is_asked_is_refused(client):
    from ts358.match import Match
    from ts358.rules import Rules

    # A match whose first decision is seat 0's (it chooses the game): seat 1 then waits,
    # and nothing moves until seat 0 decides.
    seed = next(n for n in range(50) if Match(Rules(length=3), n).deal.chooser == 0)
    seated = new_table(client, deals=3, humans=2, seed=seed, analysis=False)
    socket = join(client, seated["links"][0]["url"].split("#seat=")[1])
    receive(socket)
    send(socket, {"type": "hint"})
    while (message := receive(socket))["type"] == "state":
        assert message["decision"] is None
    assert message == {"type": "error", "message": "it is not your turn"}


# ---------------------------------------------------------------------- names, saves, texts


def test_every_seat_sees_the_same_names(client, lobby, home):
    seated = new_table(client, deals=3, humans=3, seed=4, analysis=False, name="  Ala  Kot ")
    tokens = [seated["token"]] + [link["url"].split("#seat=")[1] for link in seated["links"]]
    assert [link["name"] for link in seated["links"]] == ["Player 2", "Player 3"]
    first = join(client, tokens[0])
    with client.websocket_connect("/ws") as second:
        send(second, {"type": "join", "token": tokens[1], "name": "Bolek"})
        assert receive(second)["type"] == "welcome"
        with client.websocket_connect("/ws") as third:
            send(third, {"type": "join", "token": tokens[2]})
            receive(third)
            send(third, {"type": "name", "name": "Lolek"})
            state = receive(third)
            while [s["name"] for s in state["seats"]][2] != "Lolek":
                state = receive(third)
            for socket in (first, second):
                seen = receive(socket)
                while [s["name"] for s in seen["seats"]] != ["Ala Kot", "Bolek", "Lolek"]:
                    seen = receive(socket)
            # A name that can't be printed is refused in one line; the seat keeps its name.
            for bad in ("x" * 41, "a\u202eb", "\n"):
                send(third, {"type": "name", "name": bad})
                refused = receive(third)
                assert refused["type"] == "error" and "\n" not in refused["message"], refused
            send(third, {"type": "name", "name": 5})
            assert receive(third)["type"] == "error"
    (path,) = lobby.tables
    # The names are the save's, which resumes with them (in the terminal too).
    assert read_save(path).match.names == ("Ala Kot", "Bolek", "Lolek")


def test_a_host_name_that_can_not_be_printed_is_refused_at_the_start(client):
    for bad in ("", "x" * 41, "a\u202eb", 7):
        answer_ = client.post("/api/tables", json={"name": bad})
        assert answer_.status_code == 400 and "name" in answer_.json()["error"], answer_.text


def test_a_saved_match_is_listed_by_its_names_and_can_be_deleted(client, lobby, home):
    seated = new_table(client, deals=3, seed=2, analysis=False, name="Ala")
    (path,) = lobby.tables
    listed = client.get("/api/lobby").json()["saves"]
    assert listed[0]["names"][0] == "Ala" and listed[0]["open"] is True
    assert path.stem not in listed[0]["text"]  # a date and time, not the raw id
    # Open at a table: not deleted.
    refused = client.post("/api/delete", json={"id": path.stem})
    assert refused.status_code == 400 and "open" in refused.json()["error"]
    lobby.close_table(next(iter(lobby.tables.values())))
    assert seated["token"]
    done = client.post("/api/delete", json={"id": path.stem})
    assert done.status_code == 200 and not path.exists()
    assert client.get("/api/lobby").json()["saves"] == []
    for bad in ({"id": "../x"}, {"id": path.stem}, {"x": 1}):
        assert client.post("/api/delete", json=bad).status_code == 400


def test_a_friend_s_page_gets_its_texts_and_card_letters(client):
    polish = client.get("/api/texts?lang=pl").json()
    assert polish["lang"] == "pl" and polish["texts"]["web.your_name"]
    assert (
        polish["ranks"]["Q"] == "D" and polish["ranks"]["J"] == "W" and polish["ranks"]["T"] == "10"
    )
    assert client.get("/api/texts?lang=xx").json()["lang"] in ("en", "pl", "cs")
