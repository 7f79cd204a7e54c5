"""The analysis board (/analysis, ts358.web.analysis): its Python API against the solver,
the WebSocket /analysis/ws, and the page in Chromium (Playwright, as test_web_browser.py)."""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from ts358.analysis.solve import solve
from ts358.cards import Card
from ts358.match import Match
from ts358.players import make_player
from ts358.position import Position
from ts358.record import match_record
from ts358.rules import Role, Rules
from ts358.table.texts import card_text
from ts358.web.analysis import Board, BoardError, Cancelled, read_position, search
from ts358.web.app import create_app
from ts358.web.lobby import Lobby


def _endgame(seed: int, contract: str, tricks: int = 4) -> Position:
    """A position of ``tricks`` tricks left, no trick in progress, from a random deal."""
    position = Position.random(seed, contract)
    while position.tricks_left > tricks or position.trick:
        position = position.play(min(position.legal_moves()))
    return position


@pytest.mark.parametrize(("seed", "contract"), [(1, "hearts"), (2, "no-tricks"), (3, "no-trump")])
def test_search_values_are_the_solvers(seed, contract):
    position = _endgame(seed, contract, 5).play(min(_endgame(seed, contract, 5).legal_moves()))
    reports = []
    last = search(position, reports.append)
    exact = solve(position)
    assert last["exact"] and reports[-1] == last
    assert {c["card"]: (c["lo"], c["best"]) for c in last["cards"]} == {
        str(m.card): (m.tricks, m.best) for m in exact.moves
    }
    assert {p["role"]: p["lo"] for p in last["players"]} == {
        p.role.label: p.tricks for p in exact.players
    }
    for report in reports:  # sound bounds all along
        for row in report["cards"]:
            truth = next(m.tricks for m in exact.moves if str(m.card) == row["card"])
            assert row["lo"] <= truth <= row["hi"]


def test_search_stops_when_cancelled():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        search(Position.random(2, "no-tricks"), lambda m: None, cancel=cancel)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hearts house A.-.-.-/K.-.-.-",
        'contract = "hearts"\n[hands]\nchooser = "A.-.-.-"',
        "hearts house AA.-.-.-/K.-.-.-/-.2.-.- chooser - 7/5/3",
        "x" * 100,
    ],
)
def test_bad_positions_are_refused_in_one_line(text):
    with pytest.raises(BoardError) as refused:
        read_position(text)
    assert "\n" not in str(refused.value) and "Traceback" not in str(refused.value)


def test_board_steps_and_edits():
    board = Board()
    start = board.open("hearts house A.-.-.-/K.-.-.-/-.2.-.- chooser - 7/5/3")
    assert read_position(start.to_toml()) == start
    board.play("AS")
    with pytest.raises(BoardError, match="not a legal play"):
        board.play("2H")
    board.play("KS")
    assert board.position == start.play("AS").play("KS")
    assert board.back() == start.play("AS") and board.forward() == start.play("AS").play("KS")
    board.go(0)
    assert board.edit({"op": "contract", "contract": "spades"}).contract.label == "spades"
    # One card moved makes a draft (hand sizes differ); moving another back mends it.
    assert board.edit({"op": "move", "card": "AS", "to": "third"}) is None
    assert "hands" in board.draft_error and board.state()["draft"]
    mended = board.edit({"op": "move", "card": "KS", "to": "chooser"})
    assert mended is not None and str(mended.hands[0]) == "K.-.-.-"
    with pytest.raises(BoardError, match="no edit"):
        board.edit({"op": "nonsense"})


def test_board_reads_cards_typed_in_its_language():
    board = Board(lang="pl")
    board.open("hearts house Q.-.-.-/K.-.-.-/-.2.-.- chooser - 7/5/3")
    board.play("D♠")  # the Polish queen
    assert board.position.trick == (Card.parse("QS"),)
    board.set_language("en")
    with pytest.raises(BoardError, match="not a card"):
        board.play("D♠")
    with pytest.raises(BoardError, match="no language"):
        board.set_language("de")


def _record() -> str:
    match = Match(Rules(length=3), 5, ["A", "B", "C"])
    match.run([make_player("easy", s) for s in range(3)])
    return json.dumps(match_record(match))


def test_board_opens_a_record_deal_by_deal():
    board = Board()
    deals = board.open_record(_record())
    assert [d["deal"] for d in deals] == [1, 2, 3]
    first = board.position
    assert first is not None and first.tricks_left == 16
    while True:
        try:
            board.forward()
        except BoardError:
            break
    assert board.position.is_over and board.index == 48
    board.choose_deal(2)
    assert board.index == 0 and board.deal == 2
    with pytest.raises(BoardError):
        board.open_record('{"format": 1}')


# ---------------------------------------------------------------------- the WebSocket


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    with TestClient(create_app(Lobby(tmp_path / "saves"), lang="en")) as running:
        yield running


def _until(socket, kind, check=lambda m: True):
    while True:
        message = json.loads(socket.receive_text())
        if message["type"] == kind and check(message):
            return message


def test_socket_bad_message_one_line(client):
    with client.websocket_connect("/analysis/ws") as ws:
        assert json.loads(ws.receive_text())["empty"]
        for bad in ["not json", "[1]", '{"type": "fly"}', '{"type": "open", "text": "hearts"}']:
            ws.send_text(bad)
            error = _until(ws, "error")["error"]
            assert error and "\n" not in error and "Traceback" not in error


def test_socket_new_position_cancels_the_old_search(client):
    heavy = Position.random(2, "no-tricks")
    light = _endgame(1, "hearts")
    with client.websocket_connect("/analysis/ws") as ws:
        ws.receive_text()
        ws.send_text(json.dumps({"type": "open", "text": str(heavy)}))
        _until(ws, "board")
        ws.send_text(json.dumps({"type": "open", "text": str(light)}))
        started = time.monotonic()
        board = _until(ws, "board")
        done = _until(ws, "values", lambda m: m["exact"] and m["search"] == board["search"])
        assert done["notation"] == str(light)
        assert time.monotonic() - started < 5  # not queued behind the heavy search
        ws.send_text(json.dumps({"type": "best-line"}))
        last = _until(ws, "board", lambda m: m.get("over"))
        assert last["step"] == 12


# ---------------------------------------------------------------------- the page

from test_web_browser import (  # noqa: E402
    CHROMIUM,  # noqa: F401
    SIZES,
    browser,  # noqa: F401
    console,  # noqa: F401
    serious_violations,
    server,  # noqa: F401
    shots,  # noqa: F401
)


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def _context(browser, width, height):  # noqa: F811
    touch = width < 900
    return browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_page_opens_plays_the_best_line_and_steps_back(browser, server, console, shots, size):  # noqa: F811
    position = _endgame(1, "hearts")
    exact = solve(position)
    context = _context(browser, *size)
    page = console.watch(context.new_page())
    page.goto(f"{server}/analysis#pos={quote(str(position))}&lang=en")
    page.wait_for_selector('[data-search-status="exact"]')
    rows = page.locator("[data-value-card]")
    assert rows.count() == len(exact.moves)
    assert page.locator('[data-value-card][data-exact="true"]').count() == len(exact.moves)
    assert page.locator('[data-player-value][data-exact="true"]').count() == 3
    best = {str(m.card) for m in exact.moves if m.best}
    assert {
        r.get_attribute("data-value-card")
        for r in rows.all()
        if r.get_attribute("data-best") == "true"
    } == best
    assert _overflow(page) <= 0
    page.click('[data-action="edit"]')
    page.wait_for_selector('[data-edit="card"]')
    # The redrawn board keeps the values found.
    assert page.locator('[data-value-card][data-exact="true"]').count() == len(exact.moves)
    for control in page.locator("button, select, input, a.button, summary").all():
        if control.is_visible():
            box = control.bounding_box()
            assert box is not None and box["height"] >= 44, control.evaluate("e => e.outerHTML")
    assert serious_violations(page) == []
    if size in ((390, 844), (1366, 768)):
        page.screenshot(path=str(shots / f"{'phone-' if size[0] < 900 else ''}analysis.png"))
    page.click('[data-action="edit"]')
    page.click('[data-action="best-line"]')
    page.wait_for_selector('[data-step="12"]')
    assert page.locator("[data-move-card]").count() == 0
    page.click('[data-action="back"]')
    page.wait_for_selector('[data-step="11"]')
    assert page.locator("[data-move-card]").count() == 1
    page.fill("#open-text", "hearts house nonsense")
    page.click('[data-action="open"]')
    page.wait_for_selector("[data-error]:not(:empty)")
    assert "\n" not in page.text_content("[data-error]")
    assert _overflow(page) <= 0
    context.close()


def test_board_opens_a_saves_finished_deals(tmp_path, client):
    from ts358.table.saves import SavedMatch, write_save

    match = Match(Rules(length=3), 5, ["A", "B", "C"])
    match.run([make_player("easy", s) for s in range(3)])
    write_save(tmp_path / "m1.json", SavedMatch(match, "m1"))
    board = Board(tmp_path)
    assert len(board.open_save("m1")) == 3
    board.choose_deal(2)
    assert board.position == next(iter(board.line)) and board.deal == 2
    for bad in ("../m1", "nope"):
        with pytest.raises(BoardError):
            board.open_save(bad)
    with client.websocket_connect("/analysis/ws") as ws:  # not this computer's page
        ws.receive_text()
        ws.send_text(json.dumps({"type": "save", "id": "m1", "deal": 1}))
        assert "no saved matches" in _until(ws, "error")["error"]


def test_page_steps_through_a_recorded_deal_in_polish(browser, server, console):  # noqa: F811
    """A match record pasted, deal 2 chosen and stepped through card by card to four tricks
    left, where every value is exact and the solver's; the page in Polish (its words, its
    cards: 10 and D, never T or Q); a card typed the Polish way moved by editing."""
    record = _record()
    board = Board()
    board.open_record(record)
    board.choose_deal(2)
    board.go(36)
    assert board.position.tricks_left == 4 and not board.position.trick
    exact = solve(board.position)
    context = _context(browser, 390, 844)
    page = console.watch(context.new_page())
    page.goto(f"{server}/analysis#lang=pl")
    page.wait_for_selector('[data-action="open"]:text("Otwórz")')
    page.fill("#open-text", record)
    page.click('[data-action="open"]')
    page.wait_for_selector("[data-deal-select] option", state="attached")
    page.select_option("[data-deal-select]", "2")
    page.wait_for_function(
        "() => document.querySelector('[data-deal-select]').value === '2'"
        " && document.querySelector('[data-step=\"0\"]')"
    )
    for step in range(1, 37):
        page.click('[data-action="forward"]')
        page.wait_for_selector(f'[data-step="{step}"]')
    page.wait_for_selector('[data-search-status="exact"]')
    rows = {r.get_attribute("data-value-card"): r for r in page.locator("[data-value-card]").all()}
    assert set(rows) == {str(m.card) for m in exact.moves}
    for move in exact.moves:
        assert rows[str(move.card)].get_attribute("data-exact") == "true"
        value = rows[str(move.card)].locator("td").nth(1).text_content()
        assert value.startswith(f"{move.tricks} (")
    assert "Wstecz" in page.text_content('[data-action="back"]')
    shown = " ".join(c.text_content() for c in page.locator("[data-held], [data-move-card]").all())
    held = [c for hand in board.position.hands for c in hand]
    for card in held:
        assert card_text(card, True, "pl") in shown
    assert not any(letter in shown for letter in "TQJ")
    # Edit: a card typed as a Pole writes it, moved to another hand (a draft), then back.
    card = held[0]
    holder = next(r.label for r in Role if card in board.position.hands[r])
    other = "dealer" if holder != "dealer" else "chooser"
    page.click('[data-action="edit"]')
    page.fill('[data-edit="card"]', card_text(card, True, "pl"))
    page.select_option('[data-edit="to"]', other)
    page.click('[data-action="move-card"]')
    page.wait_for_selector("[data-draft-error]")
    page.fill('[data-edit="card"]', card_text(card, False, "pl"))
    page.select_option('[data-edit="to"]', holder)
    page.click('[data-action="move-card"]')
    page.wait_for_selector('[data-search-status="exact"]')
    assert page.locator("[data-draft-error]").count() == 0
    assert page.text_content("[data-error]") == ""
    assert _overflow(page) <= 0
    context.close()
