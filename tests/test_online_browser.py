"""ts358 serve --public in a real browser (headless Chromium driven by Playwright, as in
tests/test_web_browser.py): three people sign up in three browsers, meet in the lobby, play a
three-deal match to its end by clicking, each seeing only their own cards, while a fourth
browser watches the table; then each finds the match in their history with their rating, and
the leaderboard lists them.

The online server runs in this process (a SQLite database in a temporary folder), served by
uvicorn from a thread as ``ts358 serve`` configures it. Without a browser the test is
skipped, except under CI (``CI`` set), where that is a failure.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from test_web_browser import (
    CHROMIUM,  # noqa: F401
    act,
    browser,  # noqa: F401
    console,  # noqa: F401
    my_turn,
    phase,
    serious_violations,
    shots,  # noqa: F401
)
from ts358.online.accounts import Accounts
from ts358.online.app import create_public_app
from ts358.online.db import Database
from ts358.online.rooms import Rooms
from ts358.table.texts import MESSAGES
from ts358.web.server import bind
from web_support import serving

NAMES = ("Ala Nowak", "Bolek", "Celina")
PASSWORD = "a long enough password"


@dataclasses.dataclass(frozen=True)
class Online:
    url: str
    rooms: Rooms


@contextlib.contextmanager
def online_server(folder, leave_seconds: float = 30.0) -> Iterator[Online]:
    """The public app on a free port of 127.0.0.1, its database in ``folder``."""
    db = Database(f"sqlite:///{folder}/online.db")
    db.migrate()
    accounts = Accounts(db, cost=2**10)
    rooms = Rooms(db, accounts)
    sock = bind("127.0.0.1", 0)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_public_app(
        rooms, accounts, public_url=url, leave_seconds=leave_seconds, sweep_seconds=0.5
    )
    with serving(app, sock):
        yield Online(url, rooms)


@pytest.fixture
def online(tmp_path):
    with online_server(tmp_path) as running:
        yield running


# ---------------------------------------------------------------------- the lobby

_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    form = page.locator('[data-form="signup"]')
    form.locator('[data-field="name"]').fill(name)
    form.locator('[data-field="password"]').fill(PASSWORD)
    form.locator('[data-action="signup"]').click()
    page.wait_for_selector("[data-me]")
    assert page.inner_text("[data-me]") == name
    assert page.locator('[data-form="signup"]').count() == 0
    for panel in ("lobby", "create", "leaderboard", "history"):
        assert page.locator(f'[data-panel="{panel}"]').count() == 1


def seat_name(page: Page, table: str, seat: int) -> str:
    return page.inner_text(f'[data-table="{table}"] [data-seat-name="{seat}"]')


def wait_seat_name(page: Page, table: str, seat: int, name: str) -> None:
    page.wait_for_function(
        '([t, s, n]) => document.querySelector(`[data-table="${t}"] '
        '[data-seat-name="${s}"]`)?.textContent === n',
        arg=[table, seat, name],
    )


# ---------------------------------------------------------------------- the table

_DUE = """() => {
  const t = document.querySelector('[data-phase]');
  if (!t || t.dataset.phase === 'finished') return false;
  if (t.dataset.phase === 'summary') return !!document.querySelector('[data-action="next"]');
  return t.dataset.myTurn === 'true';
}"""

# What a page shows of the cards, read at once (a state may arrive between two reads): its
# hand, how many [data-card] there are, the cards shown outside the hand, the trick and the
# talon, and the deal it shows.
_SEEN = """() => {
  const name = (e) => e.dataset.card || e.dataset.shown;
  const all = [...document.querySelectorAll('[data-card], [data-shown]')];
  return {
    hand: [...document.querySelectorAll('.hand [data-card]')].map(name),
    cards: document.querySelectorAll('[data-card]').length,
    elsewhere: all.filter((e) => !e.closest('.hand, .trick, .talon')).map(name),
    trick: [...document.querySelectorAll('.trick [data-shown]')].map(name),
    talon: [...document.querySelectorAll('.talon [data-shown]')].map(name),
    deal: document.querySelector('[data-phase]')?.dataset.deal,
  };
}"""


# The page's state as the clicks change it: tests/test_web_browser.py's signature with the
# exchange's steps (a card given may come back as it went, the rest of the page unchanged).
def check_cards(players: list[Page], watcher: Page, rooms: Rooms, table_id: str) -> None:
    """Each page shows only its own hand (and the cards every seat may see); the watcher
    has no hand, and shows only the cards of the tricks and the talon once turned."""
    seen = [page.evaluate(_SEEN) for page in players]
    hands = [set(s["hand"]) for s in seen]
    for s in seen:
        # [data-card] is the hand and nothing else (the documented hook); beside it a page
        # shows the cards played and the talon, never another card.
        assert s["cards"] == len(s["hand"]) and s["elsewhere"] == [], s
    for i in range(3):
        for j in range(i + 1, 3):
            assert not hands[i] & hands[j], (i, j, hands[i] & hands[j])
    watched = watcher.evaluate(_SEEN)
    assert watched["cards"] == 0 and watched["elsewhere"] == [], watched
    # A card played is in nobody's hand (the talon, turned, is in the chooser's until the
    # discard: it is checked below against the engine).
    in_trick, in_talon = set(watched["trick"]), set(watched["talon"])
    assert not in_trick & set().union(*hands), in_trick & set().union(*hands)
    # Against the engine's own state (a page may be a state behind it, never ahead): no
    # page shows a card another seat holds, and the watcher's cards are the ones played in
    # this deal and the talon once shown to all.
    table = rooms.tables.get(table_id)
    if table is None or table.match.deal is None:
        return
    match, deal = table.match, table.match.deal
    held = [{str(c) for c in deal.hand(seat)} for seat in range(3)]
    for seat, s in enumerate(seen):
        if s["deal"] == str(match.number):
            others = held[(seat + 1) % 3] | held[(seat + 2) % 3]
            assert not hands[seat] & others, (seat, hands[seat] & others)
    if watched["deal"] != str(match.number):
        return
    played = {str(c) for t in deal.tricks for c in t.cards} | {str(c) for c in deal.trick}
    assert in_trick <= played, in_trick - played
    if in_talon:
        assert all(deal.talon_seen_by(seat) for seat in range(3))
        assert in_talon == {str(c) for c in deal.setup.talon}


def names_at_the_table(page: Page) -> list[str]:
    return [page.inner_text(f'[data-seat="{s}"] .name') for s in range(3)]


# ---------------------------------------------------------------------- the test


def test_three_people_meet_in_the_lobby_play_and_are_rated(browser, online, console, shots):  # noqa: F811
    url = online.url
    started = time.monotonic()
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 800}),
        # One of them on a phone: the lobby fits it, and the table is played by tapping.
        browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True),
        browser.new_context(viewport={"width": 960, "height": 700}),
    ]
    watcher_context = browser.new_context(viewport={"width": 960, "height": 700})
    try:
        # A wrong password is one line under the form (before the console is watched: the
        # browser logs the refused request as an error).
        watcher = watcher_context.new_page()
        watcher.set_default_timeout(60_000)
        watcher.goto(url + "/")
        signin = watcher.locator('[data-form="signin"]')
        signin.locator('[data-field="name"]').fill("Nobody")
        signin.locator('[data-field="password"]').fill("not the password")
        signin.locator('[data-action="signin"]').click()
        watcher.wait_for_selector('[data-error="signin"]:not(:empty)')
        assert watcher.inner_text('[data-error="signin"]') == "wrong name or password"
        assert watcher.locator("[data-me]").count() == 0
        console.watch(watcher)

        players = [console.watch(c.new_page()) for c in contexts]
        for page, name in zip(players, NAMES):
            sign_up(page, url, name)
        ala, bolek, celina = players
        assert bolek.evaluate(_OVERFLOW) <= 0, "the lobby scrolls sideways on a phone"
        for control in bolek.locator("button, select, input:not([type=checkbox]), a.button").all():
            box = control.bounding_box()
            assert box is not None and box["height"] >= 44, control.evaluate("e => e.outerHTML")

        # Ala opens a table of three deals, computer players easy (none will play: the
        # three seats are taken), no pause between cards.
        form = ala.locator('[data-form="create"]')
        form.locator('[data-field="deals"]').select_option("3")
        form.locator('[data-field="level"]').select_option("easy")
        form.locator('[data-field="pace"]').fill("0")
        form.locator('[data-action="create"]').click()
        mine = ala.locator('[data-table][data-mine="0"]')
        mine.wait_for()
        table_id = mine.get_attribute("data-table")
        assert table_id and mine.get_attribute("data-status") == "open"
        assert seat_name(ala, table_id, 0) == NAMES[0]
        assert ala.locator(f'[data-table="{table_id}"] [data-seat-name="1"]').inner_text() == "free"
        # The other two find it in their lobby (polled) and sit.
        for page, seat in ((bolek, 1), (celina, 2)):
            sit = page.locator(f'[data-table="{table_id}"] [data-action="sit"][data-seat="{seat}"]')
            sit.click()
            page.wait_for_selector(f'[data-table="{table_id}"][data-mine="{seat}"]')
            assert seat_name(page, table_id, seat) == NAMES[seat]
        wait_seat_name(ala, table_id, 2, NAMES[2])
        assert [seat_name(ala, table_id, s) for s in range(3)] == list(NAMES)
        assert ala.locator(f'[data-table="{table_id}"] [data-action="start"]').count() == 1
        bolek.screenshot(path=str(shots / "online-lobby-phone.png"), full_page=True)
        ala.screenshot(path=str(shots / "online-lobby.png"), full_page=True)

        # Ala starts: all three go to the table (the other two when their lobby sees it).
        ala.click(f'[data-table="{table_id}"] [data-action="start"]')
        for page in players:
            page.wait_for_url("**/table#seat=*")
            page.wait_for_selector("[data-phase]")
        for seat, page in enumerate(players):
            assert page.get_attribute("[data-seat].bottom", "data-seat") == str(seat)
            assert page.locator('[data-field="name"]').count() == 0  # no name asked
            assert page.locator('[data-action="hint"]').count() == 0  # no hints: rated

        # Someone not signed in watches it from the lobby.
        watcher.goto(url + "/")
        watcher.click(f'[data-table="{table_id}"][data-status="playing"] [data-action="watch"]')
        watcher.wait_for_url(f"**/table#watch={table_id}")
        watcher.wait_for_selector("[data-spectator]")
        watcher.wait_for_selector("[data-phase]")
        for page in [*players, watcher]:
            page.wait_for_function(
                "n => document.querySelector('[data-seat=\"2\"] .name')?.textContent === n",
                arg=NAMES[2],
            )
            assert names_at_the_table(page) == list(NAMES)
        for action in ("next", "hint", "pace", "stop", "discard"):
            assert watcher.locator(f'[data-action="{action}"]').count() == 0
        watcher.screenshot(path=str(shots / "online-watch.png"))
        assert serious_violations(watcher) == []

        # The match, played by clicking, checked at every decision.
        deadline = time.monotonic() + 150
        decisions = 0
        while True:
            assert time.monotonic() < deadline, "the match took too long"
            check_cards(players, watcher, online.rooms, table_id)
            if all(phase(p) == "finished" for p in players):
                break
            mover = next((p for p in players if p.evaluate(_DUE)), None)
            if mover is None:
                time.sleep(0.03)
                continue
            act(mover)
            decisions += 1
            assert watcher.locator("[data-card]").count() == 0
        assert decisions > 3 * 16
        watcher.wait_for_function(
            "() => document.querySelector('[data-phase]')?.dataset.phase === 'finished'"
        )
        assert watcher.locator("[data-card]").count() == 0
        assert watcher.locator('[data-panel="standings"] li').count() == 3
        for page in players:
            assert page.locator('[data-panel="standings"] li').count() == 3
            assert not my_turn(page)

        # Back in the lobby: the match in each one's history, rated; all three on the board.
        for page in players:
            page.locator('[data-action="home"]').last.click()
            page.wait_for_url(url + "/")
            row = page.locator(f'[data-history-row="{table_id}"]')
            row.wait_for()
            before = float(row.get_attribute("data-rating-before") or "nan")
            after = float(row.get_attribute("data-rating-after") or "nan")
            assert before == 0.0 and after == after  # a first match; a number
            assert row.get_attribute("data-place") in ("1", "2", "3")
            assert all(name in row.inner_text() for name in NAMES), row.inner_text()
            assert page.locator('[data-rating="house"]').count() == 1
            page.wait_for_selector("[data-leader-row]")
            leaders = page.eval_on_selector_all(
                "[data-leader-row]", "els => els.map(e => e.dataset.leaderRow)"
            )
            assert set(NAMES) <= set(leaders), leaders
            # The finished table is no longer in the lobby.
            assert page.locator(f'[data-table="{table_id}"]').count() == 0
        ala.screenshot(path=str(shots / "online-history.png"), full_page=True)
        assert time.monotonic() - started < 150
    finally:
        for context in [*contexts, watcher_context]:
            context.close()


def test_a_guest_shares_a_private_table_by_its_link(browser, online, console):  # noqa: F811
    page = console.watch(browser.new_page())
    # The table page without a table is the lobby.
    page.goto(online.url + "/table")
    page.wait_for_url(online.url + "/")
    page.wait_for_selector('[data-form="guest"]')
    assert serious_violations(page) == []
    # A guest, and a private table's link: it shows that table to whoever opens it.
    page.locator('[data-form="guest"] [data-field="name"]').fill("<b>Zoe</b>")
    page.click('[data-action="guest"]')
    page.wait_for_selector("[data-me]")
    assert page.inner_text("[data-me]") == "<b>Zoe</b>"  # a name is text, never HTML
    form = page.locator('[data-form="create"]')
    form.locator('[data-field="private"]').check()
    form.locator('[data-action="create"]').click()
    link = page.locator("[data-link]")
    link.wait_for()
    table_id = link.get_attribute("data-link")
    assert link.get_attribute("href") == f"{online.url}/#table={table_id}"
    page.wait_for_selector("[data-panel='leaderboard'] .empty")
    assert serious_violations(page) == []
    other = console.watch(browser.new_context().new_page())
    other.goto(f"{online.url}/#table={table_id}")
    other.wait_for_selector(f'[data-panel="shared"] [data-table="{table_id}"]')
    assert seat_name(other, table_id, 0) == "<b>Zoe</b>"
    assert other.locator('[data-table] [data-action="sit"]').count() == 0  # signed out
    # Not in the lobby of anyone else.
    assert other.locator('[data-panel="lobby"] [data-table]').count() == 0
    other.locator('[data-form="guest"] [data-field="name"]').fill("Yann")
    other.click('[data-action="guest"]')
    other.click(f'[data-table="{table_id}"] [data-action="sit"][data-seat="2"]')
    other.wait_for_selector(f'[data-table="{table_id}"][data-mine="2"]')
    wait_seat_name(page, table_id, 2, "Yann")
    other.click(f'[data-table="{table_id}"] [data-action="leave"]')
    wait_seat_name(page, table_id, 2, "free")
    other.context.close()


def test_the_lobby_speaks_the_browsers_language_and_keeps_another_chosen(browser, online, console):  # noqa: F811
    context = browser.new_context(locale="pl-PL")  # Accept-Language: pl-PL
    page = console.watch(context.new_page())
    page.goto(online.url + "/")
    page.wait_for_selector('[data-form="guest"]')
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.text_content('[data-action="signin"]') == MESSAGES["pl"]["lobby.sign.in"]
    assert page.title() == MESSAGES["pl"]["lobby.app.title"]
    assert "lobby." not in page.inner_text("body")  # no key without its words
    # Czech chosen: the page comes again in Czech, and stays so without ?lang=.
    page.select_option('[data-action="lang"]', "cs")
    page.wait_for_selector('html[lang="cs"]')  # (wait_for_function would eval: CSP)
    page.goto(online.url + "/")
    page.wait_for_selector('[data-form="guest"]')
    assert page.evaluate("document.documentElement.lang") == "cs"
    # The server's refusals come in Czech too.
    signin = page.locator('[data-form="signin"]')
    signin.locator('[data-field="name"]').fill("Nikdo")
    signin.locator('[data-field="password"]').fill("not the password")
    signin.locator('[data-action="signin"]').click()
    wrong = MESSAGES["cs"]["online.wrong_password"]
    page.wait_for_selector(f'[data-error="signin"]:has-text("{wrong}")')
    # (which the browser logs as an error, once)
    console.errors.remove(
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    )
    page.locator('[data-form="guest"] [data-field="name"]').fill("Věra")
    page.click('[data-action="guest"]')
    page.wait_for_selector("[data-me]")
    # A new table is in the page's language, and its card says so in Czech.
    assert page.locator('[data-form="create"] [data-field="lang"]').input_value() == "cs"
    page.locator('[data-form="create"] [data-action="create"]').click()
    card = page.locator("[data-table][data-mine]")
    card.wait_for()
    status = MESSAGES["cs"]["lobby.status.open"]
    assert card.locator("[data-status-text]").text_content() == status
    assert MESSAGES["cs"]["lang.cs"] in card.text_content()
    assert "lobby." not in page.inner_text("body")
    assert serious_violations(page) == []
    context.close()


def test_a_lobby_out_of_sight_asks_seldom_and_at_once_when_seen(browser, online, console):  # noqa: F811
    page = console.watch(browser.new_page())
    asked: list[float] = []
    page.on("request", lambda r: asked.append(time.monotonic()) if "/api/tables" in r.url else None)
    page.goto(online.url + "/")
    page.wait_for_selector("[data-tables]")

    def seen(hidden: bool) -> None:
        page.evaluate(
            """(hidden) => {
                Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
                document.dispatchEvent(new Event("visibilitychange"));
            }""",
            hidden,
        )

    page.wait_for_timeout(2500)  # (events come only while Playwright is called)
    assert len(asked) >= 2  # every 2 s in sight
    seen(True)
    page.wait_for_timeout(3000)  # the poll due now finds the page hidden and waits 20 s
    hidden_from = len(asked)
    page.wait_for_timeout(3000)  # two polls if it were in sight
    assert len(asked) == hidden_from
    seen(False)
    waited = 0
    while len(asked) == hidden_from and waited < 1500:  # at once: well before the 2 s poll
        page.wait_for_timeout(100)
        waited += 100
    assert len(asked) == hidden_from + 1, waited
