"""The online server's application (ts358.online.app) through Starlette's test client: people
signing up and in, the lobby's requests, the table's WebSocket for players and spectators,
and the checks against other sites, stolen seats, floods and bad input."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from online_helpers import lobby, play
from ts358._input import quote
from ts358.match import MAX_NAME, Match
from ts358.online.app import ONLINE_STATIC, create_public_app
from ts358.online.limits import Limiter
from ts358.rules import PRESETS, Rules
from ts358.table.saves import PlaySettings, SavedMatch
from ts358.table.texts import LANGUAGES, MESSAGES, t
from ts358.web.table import Table

SITE = "http://testserver"
ORIGIN = {"Origin": SITE}
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")


@pytest.fixture
def app(tmp_path):
    _, accounts, rooms = lobby(f"sqlite:///{tmp_path}/online.db")
    made = create_public_app(rooms, accounts, public_url=SITE, sweep_seconds=3600)
    made.state.rooms = rooms
    return made


def person(app, name: str) -> tuple[TestClient, str]:
    """A browser of a new person, signed up: its client and CSRF token."""
    client = TestClient(app)
    answer = client.post(
        "/api/signup", json={"name": name, "password": "password1"}, headers=ORIGIN
    )
    assert answer.status_code == 200, answer.text
    return client, answer.json()["csrf"]


def post(client: TestClient, csrf: str, path: str, body=None):
    return client.post(path, json=body or {}, headers={**ORIGIN, "X-CSRF-Token": csrf})


# ---------------------------------------------------------------------- people


def test_signing_up_in_and_out(app):
    with TestClient(app) as client:
        assert client.get("/api/me").json()["person"] is None
        made = client.post(
            "/api/signup", json={"name": "Ala", "password": "password1"}, headers=ORIGIN
        )
        assert made.status_code == 200 and made.json()["person"]["name"] == "Ala"
        cookie = made.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        me = client.get("/api/me").json()
        assert me["person"]["name"] == "Ala" and me["csrf"] == made.json()["csrf"]
        assert me["rules"] == list(PRESETS)
        forged = client.post("/api/signout", json={}, headers=ORIGIN)  # no CSRF token
        assert forged.status_code == 403 and client.get("/api/me").json()["person"]
        assert post(client, me["csrf"], "/api/signout").json() == {"person": None}
        assert client.get("/api/me").json()["person"] is None
        wrong = client.post(
            "/api/signin", json={"name": "ala", "password": "password2"}, headers=ORIGIN
        )
        assert wrong.status_code == 400 and wrong.json() == {"error": "wrong name or password"}
        right = client.post(
            "/api/signin", json={"name": "ala", "password": "password1"}, headers=ORIGIN
        )
        assert right.status_code == 200 and right.json()["person"]["name"] == "Ala"
        guest = TestClient(app).post("/api/guest", json={"name": "Ala"}, headers=ORIGIN)
        assert guest.status_code == 200 and guest.json()["person"]["kind"] == "guest"


def test_cookies_are_secure_behind_https(tmp_path):
    _, accounts, rooms = lobby(f"sqlite:///{tmp_path}/online.db")
    app = create_public_app(rooms, accounts, public_url="https://358.example.org")
    with TestClient(app, base_url="https://358.example.org") as client:
        made = client.post(
            "/api/signup",
            json={"name": "Ala", "password": "password1"},
            headers={"Origin": "https://358.example.org"},
        )
        assert "Secure" in made.headers["set-cookie"]


@pytest.mark.parametrize(
    "headers, body, status, words",
    [
        ({"Origin": "http://evil.example"}, {"name": "A", "password": "p"}, 403, "another site"),
        ({**ORIGIN, "Host": "evil.example"}, {"name": "A", "password": "p"}, 400, "unknown host"),
        ({**ORIGIN, "Content-Type": "text/plain"}, "name=A", 415, "JSON"),
        ({**ORIGIN, "Content-Type": "application/json"}, "{not json", 400, "not JSON"),
        ({**ORIGIN, "Content-Type": "application/json"}, "[" * 5000, 400, "bytes"),
        (ORIGIN, {"name": "A\x00", "password": "password1"}, 400, "printed"),
    ],
)
def test_bad_requests_are_one_line(app, headers, body, status, words):
    client = TestClient(app)
    if isinstance(body, dict):
        answer = client.post("/api/signup", json=body, headers=headers)
    else:
        answer = client.post("/api/signup", content=body, headers=headers)
    assert answer.status_code == status
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_changes_need_the_sessions_csrf_token(app):
    client, csrf = person(app, "Ala")
    for headers in (ORIGIN, {**ORIGIN, "X-CSRF-Token": "forged"}):
        refused = client.post("/api/tables", json={}, headers=headers)
        assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert post(client, csrf, "/api/tables").status_code == 200
    stranger = TestClient(app)
    assert stranger.post("/api/tables", json={}, headers=ORIGIN).status_code == 401
    assert stranger.get("/api/history").status_code == 401


def test_sign_in_floods_are_slowed(tmp_path):
    _, accounts, rooms = lobby(f"sqlite:///{tmp_path}/online.db")
    limits = {"signin": Limiter(per_minute=1, burst=3), "signin-name": Limiter(60, 100)}
    app = create_public_app(rooms, accounts, public_url=SITE, limits=limits)
    client = TestClient(app)
    codes = [
        client.post(
            "/api/signin", json={"name": f"n{i}", "password": "password1"}, headers=ORIGIN
        ).status_code
        for i in range(5)
    ]
    assert codes == [400, 400, 400, 429, 429]
    late = client.post("/api/signin", json={"name": "x", "password": "y"}, headers=ORIGIN)
    assert int(late.headers["retry-after"]) >= 1 and "try again" in late.json()["error"]
    polish = client.post(
        "/api/signin",
        json={"name": "x", "password": "y"},
        headers={**ORIGIN, "Accept-Language": "pl"},
    )
    wait = int(polish.headers["retry-after"])
    assert polish.json()["error"] == t("online.too_many", "pl", seconds=wait)


def test_every_response_carries_the_security_headers(app):
    answer = TestClient(app).get("/api/me")
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["content-security-policy"]


# ---------------------------------------------------------------------- the lobby's words

LOBBY_JS = (ONLINE_STATIC / "lobby.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("query", "accepted", "lang"),
    [
        ("?lang=pl", "", "pl"),
        ("?lang=cs", "pl-PL,pl;q=0.9", "cs"),  # the page's choice first
        ("", "cs-CZ,cs;q=0.9,en;q=0.8", "cs"),
        ("?lang=xx", "de-DE,de;q=0.9,pl;q=0.5", "pl"),
        ("", "de-DE", "en"),
        ("", "", "en"),
    ],
)
def test_the_lobby_comes_in_the_language_asked_or_the_browsers(app, query, accepted, lang):
    answer = TestClient(app).get("/api/me" + query, headers={"Accept-Language": accepted})
    me = answer.json()
    assert me["lang"] == lang and me["defaults"]["lang"] == lang  # a new table's too
    assert me["texts"]["lobby.sign.in"] == MESSAGES[lang]["lobby.sign.in"]
    assert {f"rules.{r}" for r in PRESETS} | {f"level.{v}" for v in me["levels"]} <= set(
        me["texts"]
    )


def test_every_word_the_lobby_page_says_is_in_every_language():
    # Every key the page names (T("sign.in"), the leaderboard's column keys, a status's
    # label) and nothing the page never says.
    named = set(
        re.findall(
            r'"((?:app|sign|kind|tables|table|seat|action|create|board|history)'
            r'\.[a-z_]+)"',
            LOBBY_JS,
        )
    )
    statuses = {"open", "playing", "finished", "abandoned"}
    assert 'label("status", t.status)' in LOBBY_JS
    used = {f"lobby.{key}" for key in named} | {f"lobby.status.{s}" for s in statuses}
    for lang in LANGUAGES:
        kept = {k for k in MESSAGES[lang] if k.startswith("lobby.")}
        assert used - kept == set(), lang
        assert kept - used == set(), lang


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_a_person_is_refused_in_the_language_of_their_page(app, lang):
    page = {**ORIGIN, "Accept-Language": lang}
    stranger = TestClient(app)
    wrong = stranger.post("/api/signin", json={"name": "Ala", "password": "x"}, headers=page)
    assert wrong.json()["error"] == t("online.wrong_password", lang)
    assert stranger.get("/api/history", headers=page).json()["error"] == t(
        "online.sign_in_first", lang
    )
    unprintable = stranger.post("/api/guest", json={"name": "Ala\x1b[31m"}, headers=page)
    assert unprintable.json()["error"] == t(
        "online.bad_name", lang, last=MAX_NAME, text=quote("Ala\x1b[31m")
    )
    ala, ala_csrf = person(app, "Ala")
    taken = stranger.post("/api/signup", json={"name": "ala", "password": "pass1234"}, headers=page)
    assert taken.json()["error"] == t("online.name_taken", lang, name="'ala'")
    table_id = post(ala, ala_csrf, "/api/tables", {"deals": 3}).json()["table"]["id"]
    bob, bob_csrf = person(app, "Bob")
    refused = bob.post(
        f"/api/tables/{table_id}/sit",
        json={"seat": 0},
        headers={**page, "X-CSRF-Token": bob_csrf},
    )
    assert refused.status_code == 400 and refused.json()["error"] == t("online.seat_taken", lang)
    # A program that names no language is refused in English.
    again = post(bob, bob_csrf, f"/api/tables/{table_id}/sit", {"seat": 0})
    assert again.json()["error"] == "that seat is taken"


def test_every_refusal_of_the_catalogue_is_said_by_the_server():
    source = "".join(path.read_text(encoding="utf-8") for path in ONLINE_STATIC.parent.glob("*.py"))
    said = {key for key in MESSAGES["en"] if key.startswith("online.")}
    assert {key for key in said if f'"{key}"' not in source} == set()


# ---------------------------------------------------------------------- tables


def test_three_people_meet_and_play_over_the_websocket(app):
    ala, ala_csrf = person(app, "Ala")
    bob, bob_csrf = person(app, "Bob")
    made = post(ala, ala_csrf, "/api/tables", {"deals": 3, "level": "easy", "pace": 0}).json()
    table_id = made["table"]["id"]
    listed = TestClient(app).get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table_id] and listed[0]["free"] == [1, 2]
    assert not listed[0]["owner_is_you"]
    assert ala.get("/api/tables").json()["tables"][0]["owner_is_you"]
    assert not bob.get("/api/tables").json()["tables"][0]["owner_is_you"]
    assert post(bob, bob_csrf, f"/api/tables/{table_id}/sit", {"seat": 2}).json()["seat"] == 2
    refused = post(bob, bob_csrf, f"/api/tables/{table_id}/start")
    assert refused.status_code == 400 and "owner" in refused.json()["error"]
    started = post(ala, ala_csrf, f"/api/tables/{table_id}/start").json()["table"]
    assert started["status"] == "playing"
    assert [s["kind"] for s in started["seats"]] == ["person", "computer", "person"]
    seats = {}
    for client, csrf, seat in ((ala, ala_csrf, 0), (bob, bob_csrf, 2)):
        answer = post(client, csrf, f"/api/tables/{table_id}/play").json()
        assert answer["seat"] == seat and answer["url"] == f"/table#seat={answer['token']}"
        seats[seat] = (client, answer["token"])
    # Bob can't open Ala's seat with her token: the seat's person is checked.
    with bob.websocket_connect("/ws", headers=ORIGIN) as socket:
        socket.send_json({"type": "join", "token": seats[0][1]})
        message = socket.receive_json()
        assert message.get("gone") and "someone else's" in message["message"]
    # A table page that knows its language (?lang=) is told in it; an old link too.
    with bob.websocket_connect("/ws?lang=cs", headers=ORIGIN) as socket:
        socket.send_json({"type": "join", "token": seats[0][1]})
        assert socket.receive_json()["message"] == t("online.not_yours", "cs")
    with bob.websocket_connect("/ws?lang=pl", headers=ORIGIN) as socket:
        socket.send_json({"type": "join", "token": "an-old-link"})
        assert socket.receive_json()["message"] == t("online.old_link", "pl")
    with (
        ala.websocket_connect("/ws", headers=ORIGIN) as one,
        bob.websocket_connect("/ws", headers=ORIGIN) as two,
    ):
        one.send_json({"type": "join", "token": seats[0][1]})
        two.send_json({"type": "join", "token": seats[2][1]})
        assert one.receive_json()["type"] == "welcome" and two.receive_json()["type"] == "welcome"
        one.send_json({"type": "hint"})
        one.send_json({"type": "name", "name": "Mallory"})
        found = []
        for _ in range(12):
            message = one.receive_json()
            if message["type"] == "error":
                found.append(message["message"])
            if len(found) == 2:
                break
        assert any("No hints" in m for m in found) and any("account" in m for m in found)
    table = app.state.rooms.tables[table_id]
    assert table.match.names[0] == "Ala" and table.match.names[2] == "Bob"


def test_a_spectator_is_sent_no_hidden_card(app):
    ala, csrf = person(app, "Ala")
    table_id = post(ala, csrf, "/api/tables", {"deals": 3, "level": "easy", "pace": 0}).json()[
        "table"
    ]["id"]
    post(ala, csrf, f"/api/tables/{table_id}/start")
    watcher = TestClient(app)
    with watcher.websocket_connect("/ws", headers=ORIGIN) as socket:
        socket.send_json({"type": "watch", "table": table_id})
        welcome = socket.receive_json()
        assert welcome["type"] == "welcome" and welcome["spectator"]
        state = socket.receive_json()
        assert state["spectator"] and state["hand"] == [] and state["decision"] is None
        socket.send_json({"type": "play", "card": "AS"})
        assert "only watches" in socket.receive_json()["message"]
    with watcher.websocket_connect("/ws", headers=ORIGIN) as socket:
        socket.send_json({"type": "watch", "table": "nosuchtable"})
        assert socket.receive_json()["gone"]
    with (
        pytest.raises(WebSocketDisconnect),
        watcher.websocket_connect("/ws", headers={"Origin": "http://evil.example"}) as socket,
    ):
        socket.receive_json()


def _public_cards(table: Table) -> set[str]:
    """The cards every seat may know: those played, and the talon once all three see it."""
    views = [table.view(s) for s in range(3)]
    shown: set[str] = set()
    for result in table.match.results:  # finished deals: their tricks are the table's
        for trick in result.tricks:
            shown |= {str(c) for c in trick.cards}
    if views[0] is not None:
        for trick in views[0].tricks:
            shown |= {str(c) for c in trick.cards}
        shown |= {str(c) for c in views[0].trick}
        if all(v.talon is not None for v in views):
            shown |= {str(c) for c in views[0].talon}
    return shown


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_spectators_state_holds_only_public_cards(preset, seed):
    rules = Rules.parse(preset).with_options({"length": 3})
    saved = SavedMatch(Match(rules, seed), "t", 0, "easy", PlaySettings(analysis=False))
    table = Table(saved, None, {0, 1}, stats=False)
    checked = []

    def check(table: Table) -> None:
        state = table.spectator_state()
        cards = set(CARD.findall(str(state)))
        leaked = cards - _public_cards(table)
        assert not leaked, f"deal {table.match.number}: {sorted(leaked)} shown to a spectator"
        assert state["hand"] == [] and state["decision"] is None
        checked.append(True)

    play(table, each=check)
    assert len(checked) > 50
    final = table.spectator_state()
    assert final["phase"] == "finished" and final["standings"]


def test_an_injected_leak_is_caught():
    """The check above can fail: a spectator's state with a seat's hand in it is caught."""
    rules = Rules.parse("house").with_options({"length": 3})
    saved = SavedMatch(Match(rules, 5), "t", 0, "easy", PlaySettings(analysis=False))
    table = Table(saved, None, {0}, stats=False)
    state = table.spectator_state()
    state["hand"] = [{"card": str(c)} for c in table.view(1).hand]
    assert set(CARD.findall(str(state))) - _public_cards(table)
