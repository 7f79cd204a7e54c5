"""ts358 serve in a real browser: headless Chromium (Debian's, at ``chromium`` on the PATH or
/usr/bin/chromium: Playwright can't download its own here) driven by Playwright against a
uvicorn server on a free port. A deal played by clicking, a three-deal match with the
exchange, two people at one table in two browser contexts, a phone-sized screen; any
console error fails the test.

Without a browser these tests are skipped, except under CI (``CI`` set, as .ci/run sets
it), where that is a failure. With ``TS358_WEB_SHOTS=DIR`` each phase's screenshot is
written to DIR (docs/web/ holds the ones docs/web.md shows), else to a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from web_support import live_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
WAIT_MS = 60_000


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM} (CI installs Debian's chromium)")
        pytest.skip("no Chromium to drive (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A server on a free port of 127.0.0.1, its data in a temporary folder."""
    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    with live_server(tmp_path / "saves") as running:
        yield running.url


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("TS358_WEB_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Console:
    """The console errors and uncaught exceptions of the pages it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(WAIT_MS)
        return page


@pytest.fixture
def console():
    watched = Console()
    yield watched
    assert watched.errors == []


def new_match(page: Page, url: str, **fields) -> None:
    page.goto(url + "/")
    page.wait_for_selector('[data-action="new-match"]')
    page.fill('input[name="pace"]', "0")
    for name, value in fields.items():
        if name == "name":
            page.fill('[data-field="name"]', value)
        elif name == "analysis":
            page.set_checked('input[name="analysis"]', value)
        elif name == "seed":
            page.fill('input[name="seed"]', str(value))
        else:
            page.select_option(f'select[name="{name}"]', str(value))
    page.click('[data-action="new-match"]')
    page.wait_for_selector("[data-phase]")


_SIGNATURE = """() => {
  const t = document.querySelector('[data-phase]');
  if (!t) return '';
  const cards = [...document.querySelectorAll('[data-card], [data-shown]')]
    .map((c) => (c.dataset.card || c.dataset.shown) + c.dataset.legal);
  // A card given and handed straight back (the automatic return) changes only the steps.
  const steps = document.querySelector('.exchanges')?.textContent || '';
  return [t.dataset.phase, t.dataset.myTurn, t.dataset.deal, cards.join(','), steps].join('|');
}"""

# After Next: the summary stays until every person at the table has pressed it.
_NEXT_DONE = """() => {
  const t = document.querySelector('[data-phase]');
  return !t || t.dataset.phase !== 'summary' || !document.querySelector('[data-action="next"]');
}"""

_READY = """() => {
  const t = document.querySelector('[data-phase]');
  if (!t) return false;
  if (t.dataset.phase === 'finished') return true;
  if (t.dataset.phase === 'summary') return !!document.querySelector('[data-action="next"]')
    || !!document.querySelector('[data-status]');
  return t.dataset.myTurn === 'true';
}"""


_GONE_ON = "() => document.querySelector('[data-phase]').dataset.phase !== 'summary'"


def phase(page: Page) -> str:
    return page.get_attribute("[data-phase]", "data-phase") or ""


def my_turn(page: Page) -> bool:
    return page.get_attribute("[data-phase]", "data-my-turn") == "true"


def act(page: Page) -> str:
    """Make this page's decision by clicking as tests/web_support.py:answer does (first game
    left, a trump to give or the last card that may be, the last card to return, the last
    four to discard, the first legal card; Next after a deal); the phase it was in."""
    now = phase(page)
    if now == "summary":
        page.click('[data-action="next"]')
        page.wait_for_function(_NEXT_DONE)
        return now
    before = page.evaluate(_SIGNATURE)
    legal = page.locator('.hand [data-legal="true"]')
    if now == "choose":
        page.locator("[data-game]:not([disabled])").first.click()
    elif now == "exchange":
        trump = page.get_attribute("[data-phase]", "data-trump")
        trumps = page.locator(f'.hand [data-legal="true"][data-card$="{trump}"]')
        confirm(page, trumps.first if trumps.count() else legal.last)
    elif now == "return":
        confirm(page, legal.last)
    elif now == "discard":
        count = legal.count()
        for index in range(count - 4, count):
            legal.nth(index).click()
        page.click('[data-action="discard"]')
    else:
        confirm(page, legal.first)
    page.wait_for_function(f"(old) => ({_SIGNATURE})() !== old", arg=before)
    return now


def confirm(page: Page, card) -> None:
    """Play (give, return) ``card``: a click with a mouse; on a touch screen a tap selects
    it and the play button confirms (docs/web.md: the hooks)."""
    card.click()
    # At once, in the page: a state arriving meanwhile may redraw it without the button.
    page.evaluate(
        """() => {
          const play = document.querySelector('[data-action="play"]');
          if (play && !play.disabled) play.click();
        }"""
    )


def play(page: Page, until: set[str], shots: Path | None = None, prefix: str = "") -> set[str]:
    """Click through the decisions until a phase of ``until``; the phases acted in. With
    ``shots``, a screenshot of each phase the first time it is this page's turn."""
    seen: set[str] = set()
    while True:
        page.wait_for_function(_READY)
        now = phase(page)
        if shots is not None and now not in seen:
            page.screenshot(path=str(shots / f"{prefix}{now}.png"))
        seen.add(now)
        if now in until:
            return seen
        if now == "play" and page.locator(".trick.finished").count() == 0:
            last = page.locator('[data-action="last"]')
            if last.is_enabled():  # the last trick on demand, and back
                last.click()
                assert page.locator(".trick.finished [data-shown]").count() == 3
                last.click()
        if now == "summary" and not page.locator('[data-action="next"]').count():
            page.wait_for_function(_GONE_ON)
            continue
        act(page)


def test_one_deal_played_by_clicking(browser, server, console, shots):
    page = console.watch(browser.new_page(viewport={"width": 960, "height": 680}))
    page.goto(server + "/")
    page.wait_for_selector('[data-action="new-match"]')
    page.screenshot(path=str(shots / "start.png"))
    new_match(page, server)  # the defaults: 6 deals against two medium computer players
    seen = play(page, {"summary"})
    assert "play" in seen
    assert {"choose", "discard", "play"} & seen and "play" in seen
    seats = page.locator("[data-seat]")
    assert seats.count() == 3
    tricks = [seats.nth(i).locator("[data-tricks]").inner_text() for i in range(3)]
    assert all("/" in x or "at most" in x for x in tricks), tricks
    assert sum(int(x.split("/")[0].split(",")[0]) for x in tricks) == 16

    # The double-dummy review arrives as a chart with the costly cards, and nothing moves:
    # the seat box and Next deal stay where they were, on the screen.
    def places() -> list[float]:
        found = []
        for selector in ('[data-seat="0"]', '[data-action="next"]'):
            box = None
            for _ in range(50):  # the page redraws on every message: a box may be gone
                box = page.wait_for_selector(selector, state="visible").bounding_box()
                if box is not None:
                    break
            assert box is not None
            found.append(box["y"] + box["height"])
        return found

    before = places()
    page.wait_for_selector('[data-panel="summary"] svg.chart', timeout=40_000)
    after = places()
    assert before == after and after[1] <= 680
    page.screenshot(path=str(shots / "review.png"))


def test_a_bot_takes_a_seat_chosen_on_the_start_page(browser, tmp_path, monkeypatch, console):
    import sys

    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    bot = Path(__file__).parent.parent / "examples" / "bots" / "first_legal.py"
    with live_server(tmp_path / "saves", bots={"first": f"cmd:{sys.executable} {bot}"}) as srv:
        page = console.watch(browser.new_page(viewport={"width": 960, "height": 680}))
        new_match(page, srv.url, **{"bot-right": "first", "deals": 3, "analysis": False})
        seen = play(page, {"summary"})
        assert "play" in seen
        (table,) = srv.lobby.tables.values()
        assert type(table.computers[2].player).__name__ == "BotPlayer"
        assert table.computers[2].player.bot_name == "first-legal"
        assert type(table.computers[1].player).__name__ != "BotPlayer"


def test_a_remote_bot_seat_chosen_on_the_start_page(browser, tmp_path, monkeypatch, console):
    import subprocess
    import sys

    monkeypatch.setenv("TS358_HOME", str(tmp_path))
    with live_server(tmp_path / "saves") as srv:
        page = console.watch(browser.new_page(viewport={"width": 960, "height": 680}))
        new_match(page, srv.url, **{"bot-left": "remote", "deals": 3, "analysis": False})
        command = page.wait_for_selector("[data-bot-seat]")
        assert command.get_attribute("data-bot-seat") == "1"
        url, token = command.get_attribute("data-bot-url"), command.get_attribute("data-bot-token")
        assert url == srv.url.replace("http://", "ws://") + "/bot"
        assert command.inner_text() == f"ts358 bot --connect {url} --token {token}"
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ts358",
                "bot",
                "--level",
                "medium",
                "--connect",
                url,
                "--token",
                token,
            ]
        )
        try:
            seen = play(page, {"summary"})
            assert "play" in seen
            (table,) = srv.lobby.tables.values()
            player = table.computers[1].player
            assert player.bot_name == "ts358 medium" and player.faults == []
        finally:
            bot.kill()
            bot.wait()


def test_a_three_deal_match_with_the_exchange(browser, server, console, shots):
    page = console.watch(browser.new_page(viewport={"width": 960, "height": 680}))
    # Seed 7: you give in the exchange of deal 2 (found by playing web_support.answer).
    new_match(page, server, deals=3, seed=7, analysis=False)
    seen = set()
    while phase(page) != "finished":
        page.wait_for_function(_READY)
        now = phase(page)
        if now == "exchange":
            assert page.locator('[data-action="stop"]').count() == 1
        if now not in seen and now != "finished":  # each phase's first screen (you choose
            page.screenshot(path=str(shots / f"{now}.png"))  # once in three deals)
        if now == "finished":
            break
        seen.add(act(page))
    assert {"choose", "exchange", "discard", "play", "summary"} <= seen
    assert "exchange" in seen
    assert page.locator(".score-sheet tr").count() == 3 + 2  # header, 3 deals, total
    page.screenshot(path=str(shots / "finished.png"))


def test_two_people_at_one_table_each_see_only_their_own_cards(browser, server, console, shots):
    host = console.watch(browser.new_context().new_page())
    new_match(host, server, humans=2, analysis=False, deals=3, name="Ala")
    link = host.locator('[data-link-seat="1"]')
    link.wait_for()
    friend = console.watch(browser.new_context().new_page())
    friend.goto(link.get_attribute("href"))
    # A friend's link asks the name first.
    friend.fill('[data-field="name"]', "Bolek")
    friend.click('[data-action="join"]')
    friend.wait_for_selector("[data-phase]")
    pages = (host, friend)
    # Every browser shows the same name for the same seat, each seated at its own bottom.
    for page in pages:
        page.wait_for_function(
            "() => document.querySelector('[data-seat=\"1\"] .name')?.textContent === 'Bolek'"
        )
        names = [page.inner_text(f'[data-seat="{s}"] .name') for s in range(3)]
        assert names[0] == "Ala" and names[1] == "Bolek" and names[2] not in ("Ala", "Bolek")
    assert host.locator('[data-seat="0"].bottom').count() == 1
    assert friend.locator('[data-seat="1"].bottom').count() == 1
    hand = ".hand [data-card]"
    cards = "els => els.map(e => e.dataset.card)"
    # Beside its own hand a page shows the cards played and the talon, never another card.
    others = (
        "els => els.filter(e => !e.closest('.hand, .trick, .talon'))"
        ".map(e => e.dataset.card || e.dataset.shown)"
    )
    for _ in range(60):
        time.sleep(0.3)  # both pages have their latest state
        mine = [set(p.eval_on_selector_all(hand, cards)) for p in pages]
        assert mine[0] and mine[1] and not mine[0] & mine[1]
        for page in pages:
            assert page.eval_on_selector_all("[data-card], [data-shown]", others) == []
            # [data-card] is the hand and nothing else (the documented hook).
            assert page.locator("[data-card]").count() == page.locator(".hand [data-card]").count()
        movers = [p for p in pages if my_turn(p)]
        if not movers:
            time.sleep(0.1)
            continue
        act(movers[0])
        if phase(movers[0]) == "play" and len(mine[0]) < 14:
            break
    host.screenshot(path=str(shots / "friends-host.png"))
    friend.screenshot(path=str(shots / "friends-guest.png"))


def test_a_phone_sized_screen(browser, server, console, shots):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
    )
    page = console.watch(context.new_page())
    new_match(page, server, analysis=False)
    page.wait_for_function(_READY)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    for box in page.locator(".hand [data-card]").all():
        edge = box.bounding_box()
        assert edge is not None and edge["x"] >= 0 and edge["x"] + edge["width"] <= 390
    page.screenshot(path=str(shots / "phone.png"), full_page=True)
    play(page, {"play"})
    page.screenshot(path=str(shots / "phone-play.png"), full_page=True)


# ---------------------------------------------------------------------- every screen size

SIZES = [(360, 640), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]
_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def serious_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds in the page."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}x)"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_page_fits_the_screen_and_passes_axe(browser, server, console, width, height):
    touch = width < 900
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    page = console.watch(context.new_page())
    page.goto(server + "/")
    page.wait_for_selector('[data-action="new-match"]')
    assert page.evaluate(_OVERFLOW) <= 0, "the start page scrolls sideways"
    assert in_view(page, '[data-action="new-match"]')
    for control in page.locator("button, select, input:not([type=checkbox]), a.button").all():
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44, control.evaluate("e => e.outerHTML")
    assert serious_violations(page) == []
    new_match(page, server, analysis=False, deals=3, seed=7)
    page.wait_for_function(_READY)
    assert page.evaluate(_OVERFLOW) <= 0, "the table scrolls sideways"
    for card in page.locator(".hand [data-card]").all():
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    if my_turn(page):
        # What is needed now is on the screen: the status, the decision's controls.
        assert in_view(page, "[data-status]")
    assert serious_violations(page) == []
    rules = page.locator('[data-action="rules"]').first.get_attribute("href")
    page.goto(server + rules)
    page.wait_for_selector("[data-rules]")
    assert page.evaluate(_OVERFLOW) <= 0, "the rules scroll sideways"
    assert serious_violations(page) == []
    context.close()


def test_a_whole_match_by_tapping_on_a_phone(browser, server, console, shots):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = console.watch(context.new_page())
    # Seed 7: you give in the exchange of deal 2 (tests/test_web_browser.py above).
    new_match(page, server, deals=3, seed=7, analysis=False)
    seen = set()
    while phase(page) != "finished":
        page.wait_for_function(_READY)
        now = phase(page)
        if now == "finished":
            break
        if now == "play" and my_turn(page):
            # A tap selects, the play button confirms; a second card's tap moves the choice.
            legal = page.locator('.hand [data-legal="true"]')
            legal.last.tap()
            assert page.locator(".hand .picked").count() == 1
            assert page.locator('[data-action="play"]').is_enabled()
            assert page.evaluate(_OVERFLOW) <= 0
        if now not in seen:
            page.screenshot(path=str(shots / f"phone-{now}.png"))
        seen.add(act(page))
    assert {"choose", "exchange", "discard", "play", "summary"} <= seen
    # The standings, numbered once, and the way back, on the first screen.
    page.wait_for_selector('[data-panel="standings"]')
    items = page.locator(".standings li").all_inner_texts()
    assert len(items) == 3 and not any(text.strip()[:1].isdigit() for text in items)
    assert in_view(page, '[data-panel="standings"]')
    home = page.locator('[data-action="home"]').last.bounding_box()
    assert home is not None and home["y"] + home["height"] <= 844
    page.screenshot(path=str(shots / "phone-finished.png"))
    context.close()


def test_a_sergeant_major_match_by_clicking(browser, server, console):
    """The English rules chosen on the start page: their name and end condition on the
    table, the chooser (the dealer) choosing a suit from all sixteen cards, the discard
    before the talon, and the match played to its end by clicking."""
    page = console.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    # Seed 5: the host deals (and so chooses) the first deal.
    new_match(page, server, rules="sergeant-major", deals=3, seed=5, analysis=False)
    page.wait_for_function(_READY)
    assert "Sergeant Major" in page.inner_text("[data-rules-name]")
    assert "12 tricks" in page.inner_text("[data-end]")
    chose = False
    while phase(page) != "finished":
        page.wait_for_function(_READY)
        now = phase(page)
        if now == "finished":
            break
        if now == "choose" and my_turn(page):
            chose = True
            assert page.locator(".hand [data-card]").count() == 16
            enabled = page.locator("[data-game]:not([disabled])")
            games = {enabled.nth(i).get_attribute("data-game") for i in range(enabled.count())}
            assert games and games <= {"spades", "hearts", "diamonds", "clubs"}
        if now == "discard" and my_turn(page):
            assert page.locator(".hand [data-card]").count() == 16  # the talon comes after
        if now == "summary" and not page.locator('[data-action="next"]').count():
            page.wait_for_function(_GONE_ON)
            continue
        act(page)
    assert chose
    assert page.locator('[data-panel="standings"] li').count() == 3
