"""How soon the browser table is usable on a phone: headless Chromium (Debian's) at 390x844
with touch, against a server on this machine.

    python bench/web_page.py              # 10 loads
    python bench/web_page.py --runs 20

Each run opens the start page in a fresh browser context (nothing cached), measures
**start page**: from navigation to the new-match button being there, then presses it with
the defaults (6 deals against two medium players, no pace) and measures **table**: from the
press to the first moment the seat's decision is due and its controls are on the page (the
first six cards and the game buttons, or the hand's legal cards).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import common  # bench/common.py: puts src/ and tests/ on sys.path, machine info, result files
from web_support import live_server

READY = """() => {
  const t = document.querySelector('[data-phase]');
  return !!t && t.dataset.myTurn === 'true'
    && !!document.querySelector('[data-game]:not([disabled]), .hand [data-legal="true"]');
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    starts: list[float] = []
    tables: list[float] = []
    with (
        tempfile.TemporaryDirectory() as home,
        live_server(Path(home) / "saves") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=chromium)
        for _ in range(args.runs):
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
            )
            page = context.new_page()
            begin = time.perf_counter()
            page.goto(server.url + "/")
            page.wait_for_selector('[data-action="new-match"]')
            starts.append((time.perf_counter() - begin) * 1000)
            page.fill('input[name="pace"]', "0")
            begin = time.perf_counter()
            page.click('[data-action="new-match"]')
            page.wait_for_function(READY, polling=10)
            tables.append((time.perf_counter() - begin) * 1000)
            context.close()
        browser.close()
    data = {
        "viewport": "390x844, touch",
        "runs": args.runs,
        "start_page_ms": common.summarize(starts),
        "table_ms": common.summarize(tables),
    }
    print(data)
    print(common.shown(common.write_results("web-page", data)))


if __name__ == "__main__":
    main()
