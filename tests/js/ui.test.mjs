// The page's logic (src/ts358/web/static/ui.js), run by Node's own test runner:
//   node --test tests/js/   (tests/test_web_ui_logic.py runs it with the Python tests)
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardText, decimal, fanLayout, fill, pluralForm, seatPosition, shownDeal, standingRows,
  talonShown, tapAction, waitingFor,
} from "../../src/ts358/web/static/ui.js";

test("every browser places the seats the same way round relative to itself", () => {
  for (const me of [0, 1, 2]) {
    assert.equal(seatPosition(me, me), "bottom");
    assert.equal(seatPosition((me + 1) % 3, me), "left");
    assert.equal(seatPosition((me + 2) % 3, me), "right");
  }
});

test("cards are written as the language writes them", () => {
  assert.equal(cardText("TH"), "10♥");
  assert.equal(cardText("QS", { Q: "D", J: "W" }), "D♠");
  assert.equal(cardText("JD", { Q: "D", J: "W" }), "W♦");
  assert.equal(cardText("AC", { Q: "D" }), "A♣");
});

test("decimals in each language's form", () => {
  assert.equal(decimal(-1.5, "pl"), "-1,50");
  assert.equal(decimal(-1.5, "cs"), "-1,50");
  assert.equal(decimal(1.5, "en", 2, true), "+1.50");
  assert.equal(decimal(0, "en", 2, true), "0.00");
});

test("a hand fans out in one row where it fits, else in rows of touchable cards", () => {
  const wide = fanLayout(16, 1200, 58);
  assert.deepEqual(wide.rows, [16]);
  assert.ok(wide.step <= 64);
  for (const [count, width] of [[16, 328], [20, 358], [6, 328], [20, 1000]]) {
    const fan = fanLayout(count, width, 52);
    assert.equal(fan.rows.reduce((a, b) => a + b, 0), count);
    assert.ok(fan.step >= 44, `${count} cards in ${width}px: step ${fan.step}`);
    assert.ok(52 + fan.step * (fan.rows[0] - 1) <= width, "no row wider than the hand");
    assert.ok(Math.max(...fan.rows) - Math.min(...fan.rows) <= 1, "rows even");
  }
  assert.deepEqual(fanLayout(1, 300, 52).rows, [1]);
});

test("a tap selects on a touch screen and plays at the second tap; a click plays", () => {
  assert.equal(tapAction("play", "AS", true, null, false), "send");
  assert.equal(tapAction("play", "AS", true, null, true), "select");
  assert.equal(tapAction("play", "AS", true, "AS", true), "send");
  assert.equal(tapAction("play", "AS", true, "KS", true), "select");
  assert.equal(tapAction("play", "2H", false, null, true), "explain");
  assert.equal(tapAction("discard", "2H", true, null, true), "pick");
  assert.equal(tapAction("discard", "2H", false, null, false), "none");
  assert.equal(tapAction("choose", "2H", true, null, false), "none");
});

test("plural forms and templates as the server writes them", () => {
  assert.deepEqual([1, 2, 5, 12, 22, 25].map((n) => pluralForm("pl", n)), [0, 1, 2, 2, 1, 2]);
  assert.deepEqual([1, 3, 5].map((n) => pluralForm("cs", n)), [0, 1, 2]);
  assert.equal(fill("{count} {count:karta|karty|kart}", { count: 3 }, "pl"), "3 karty");
  assert.equal(fill("{name} leads", { name: "Ala" }, "en"), "Ala leads");
  assert.equal(fill("{missing}", {}, "en"), "{missing}");
});

test("standings are numbered once, ties shown as shared places", () => {
  const rows = standingRows(
    [{ seat: 1, place: 1, total: 6 }, { seat: 0, place: 2, total: -2 }, { seat: 2, place: 2, total: -2 }],
    ["Ala", "Ben", "Tom"],
  );
  assert.deepEqual(rows.map((r) => `${r.place}. ${r.name} ${r.total}`), ["1. Ben +6", "2. Ala -2", "2. Tom -2"]);
});

test("who the table waits for, by name, and which deal is shown", () => {
  assert.deepEqual(waitingFor([0, 2], ["Ala", "Ben", "Tom"], 0), ["Tom"]);
  assert.deepEqual(waitingFor([], ["Ala", "Ben", "Tom"], 0), []);
  assert.equal(shownDeal({ phase: "summary", summary: { deal: 2 }, deal: 3 }), 2);
  assert.equal(shownDeal({ phase: "play", summary: null, deal: 3 }), 3);
});

test("the talon is on the table until the first trick is complete, later on demand", () => {
  const talon = ["AS", "KS", "QS", "JS"];
  assert.equal(talonShown({ talon, phase: "discard" }, false), true);
  assert.equal(talonShown({ talon, phase: "play", last_trick: null }, false), true);
  assert.equal(talonShown({ talon, phase: "play", last_trick: { number: 1 } }, false), false);
  assert.equal(talonShown({ talon, phase: "play", last_trick: { number: 1 } }, true), true);
  assert.equal(talonShown({ talon: null, phase: "discard" }, true), false);
});
