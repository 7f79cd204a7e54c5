// ts358 serve: the page's logic that needs no page (where a seat sits, how a card is
// written, how the hand fans out, what a tap does), as plain functions that Node's test
// runner checks (tests/js/ui.test.mjs) and app.js draws with.

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const GAME_KEYS = ["spades", "hearts", "diamonds", "clubs", "no-trump", "no-tricks"];
export const TRUMP_OF = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };

// Where a seat sits as `me` sees the table: me at the bottom, the next seat (who plays
// after me) on my left, the one after on my right; the same way round in every browser.
export function seatPosition(seat, me) {
  return ["bottom", "left", "right"][(seat - me + 3) % 3];
}

// A card's rank as the language writes it: `ranks` maps the engine's letters to the
// language's (the server's texts "rank.T", "rank.Q", ...); ten is 10 wherever it is missing.
export function rankText(card, ranks) {
  const rank = card.slice(0, -1);
  if (ranks && ranks[rank]) return ranks[rank];
  return rank === "T" ? "10" : rank;
}

export function cardText(card, ranks) {
  return rankText(card, ranks) + SUITS[card.slice(-1)];
}

export function isRed(card) {
  return "HD".includes(card.slice(-1));
}

// A number as the language writes it: "-1,50" in Polish and Czech, "+1.50" in English.
export function decimal(value, lang, places = 2, signed = false) {
  const text = new Intl.NumberFormat(lang || "en", {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
    signDisplay: signed ? "exceptZero" : "auto",
  }).format(value);
  return text.replace("\u2212", "-");
}

export function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

// How a hand of `count` cards `cardWidth` wide fans out in `width` pixels: as few rows as
// let every card show at least `minVisible` pixels of itself (a touch target), the cards
// spread evenly over the rows (the first rows holding the extra ones). Each card shows `step`
// pixels, never more than the card and a small gap, so a short hand stays together.
export function fanLayout(count, width, cardWidth, minVisible = 44, gap = 6) {
  if (count <= 1) return { rows: [count], step: cardWidth + gap };
  const perRow = Math.max(1, Math.floor((width - cardWidth) / minVisible) + 1);
  const rowCount = Math.ceil(count / perRow);
  const rows = [];
  for (let r = 0; r < rowCount; r++) {
    rows.push(Math.floor(count / rowCount) + (r < count % rowCount ? 1 : 0));
  }
  const widest = rows[0];
  const step = widest <= 1 ? cardWidth + gap : Math.min(cardWidth + gap, (width - cardWidth) / (widest - 1));
  return { rows, step: Math.floor(step) };
}

// Which of a language's plural forms goes with `count` (CLDR's whole-number categories:
// en one/other; pl one/few/many; cs one/few/other), as the server's texts.plural_form.
export function pluralForm(lang, count) {
  if (count === 1) return 0;
  if (lang === "pl") {
    return [2, 3, 4].includes(count % 10) && ![12, 13, 14].includes(count % 100) ? 1 : 2;
  }
  if (lang === "cs") return [2, 3, 4].includes(count) ? 1 : 2;
  return 1;
}

// A message template filled in: `{name}` by its value, `{count:karta|karty|kart}` by the
// plural form that goes with the number.
export function fill(template, params, lang) {
  return template.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    if (!params || !(name in params)) return whole;
    const value = params[name];
    if (spec && spec.includes("|")) return spec.split("|")[pluralForm(lang, Number(value))];
    return String(value);
  });
}

// What a tap on a card of the hand does. With a mouse a legal card is played at once;
// on a touch screen the first tap selects it and a second tap on it (or the play button)
// plays it, so that a finger brushing the fan plays nothing.
export function tapAction(decision, card, legal, selected, touch) {
  if (decision === "discard") return legal ? "pick" : "none";
  if (!["give", "return", "play"].includes(decision)) return "none";
  if (!legal) return "explain";
  if (!touch || selected === card) return "send";
  return "select";
}

// The rows of the final standings, best first: the place (shared places repeat) written
// once, by the list's own numbers, never twice.
export function standingRows(standings, names) {
  return standings.map((s) => ({ place: s.place, name: names[s.seat], total: signed(s.total) }));
}

// Who the table waits for between deals, by name (none when it waits for nobody).
export function waitingFor(waiting, names, me) {
  return (waiting || []).filter((s) => s !== me).map((s) => names[s]);
}

// Whether the talon is on the table for everyone: from its turning (the discard) until the
// first trick is complete; later only on demand.
export function talonShown(state, onDemand) {
  if (!state.talon) return false;
  if (onDemand) return true;
  return state.phase === "discard" || (state.phase === "play" && !state.last_trick);
}

// The deal a page shows: the finished one during its summary, else the one being played.
export function shownDeal(state) {
  const between = state.summary && (state.phase === "summary" || state.phase === "finished");
  return between ? state.summary.deal : state.deal;
}
