// ts358 serve: the analysis board (/analysis). The server owns the board (the line of
// positions, the deals, the edits) and its search; this page draws what it is sent and
// sends what the user does, over the WebSocket /analysis/ws (docs/web.md, "The analysis
// board"). URLs: /analysis#pos=<notation>, /analysis#save=<id>&deal=<n>, either with
// &lang=<en|pl|cs>; without one, the language the start page or the table last used here.
import { h } from "./dom.js";
import { cardText, decimal, fill, SUITS, isRed } from "./ui.js";

const ROLES = ["chooser", "third", "dealer"];
const CONTRACTS = ["spades", "hearts", "diamonds", "clubs", "no-trump", "no-tricks"];
const $ = (selector) => document.querySelector(selector);

const LANG_KEY = "ts358.lang";
const page = { board: null, values: null, search: 0, socket: null, queue: [], editing: false };
const words = { texts: {}, lang: "en", ranks: {} };

function T(key, params) {
  return fill(words.texts[key] || key, params, words.lang);
}

const C = (card) => cardText(card, words.ranks);
const roleName = (role) => T(`role.${role}`);

// The language asked for: the link's, else the one last used on this computer's pages.
function chosenLang() {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.get("lang") || localStorage.getItem(LANG_KEY) || "";
}

async function learnTexts(lang) {
  const response = await fetch("/api/texts" + (lang ? `?lang=${encodeURIComponent(lang)}` : ""));
  const message = await response.json();
  words.texts = message.texts;
  words.lang = message.lang;
  words.ranks = message.ranks || {};
  document.documentElement.lang = words.lang;
  document.title = `ts358: ${T("web.analysis_board")}`;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = T(el.dataset.text);
  const select = $("[data-board-lang]");
  select.replaceChildren(...["en", "pl", "cs"].map((l) => h("option", { value: l, selected: l === words.lang }, T(`lang.${l}`))));
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
  else page.queue.push(message);
}

function showError(text) {
  $("[data-error]").textContent = text || "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/analysis/ws?lang=${words.lang}`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    for (const message of page.queue.splice(0)) socket.send(JSON.stringify(message));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    document.body.dataset.closed = "true";
    showError(T("board.closed"));
  });
}

// What the URL's hash asks for: a position's notation, or a save's deal.
function openFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("pos")) {
    send({ type: "open", text: params.get("pos") });
  } else if (params.has("save")) {
    const deal = parseInt(params.get("deal") || "1", 10);
    send({ type: "save", id: params.get("save"), deal: Number.isFinite(deal) ? deal : 1 });
  }
}

function receive(message) {
  if (message.type === "error") {
    showError(message.error);
    return;
  }
  if (message.type === "board") {
    if (message.search !== undefined) page.search = message.search;
    page.board = message;
    page.values = null;
    if (!message.draft) showError("");
    draw();
  } else if (message.type === "values") {
    if (message.search !== page.search || !page.board || message.notation !== page.board.notation) return;
    page.values = message;
    drawValues();
  }
}

function cardEl(card, attrs = {}, ...extra) {
  return h(attrs.onclick ? "button" : "span",
    { class: `card${isRed(card) ? " red" : ""}`, "aria-label": C(card), ...attrs },
    C(card), ...extra);
}

function valueText(row) {
  if (row.exact) return `${row.lo} (${row.score[0] > 0 ? "+" : ""}${row.score[0]})`;
  return `${row.lo}–${row.hi}`;
}

function draw() {
  const b = page.board;
  const root = $("#board");
  root.replaceChildren();
  $("#deals").hidden = !(b && b.deals && b.deals.length);
  if (b && b.deals && b.deals.length) {
    const select = $("[data-deal-select]");
    select.replaceChildren(...b.deals.map((d) => h("option", { value: d.deal, selected: d.deal === b.deal },
      T("board.deal_option", { deal: d.deal, game: T(`game.${d.game}`), scores: d.scores.join(" / ") }))));
  }
  if (!b || b.empty) {
    root.append(h("p", { class: "status" }, T("board.empty")));
    $("#edit").hidden = true;
    return;
  }
  const legal = new Set(b.legal || []);
  root.append(h("h2", {}, T("board.heading", { game: T(`game.${b.contract}`), rules: T(`rules.${b.rules}`) }),
    b.over ? ` · ${T("board.over")}` : b.to_move ? ` · ${T("board.to_play", { role: roleName(b.to_move) })}` : ""));
  if (b.draft) root.append(h("p", { class: "error", "data-draft-error": true }, T("board.draft", { error: b.draft_error })));
  const trick = h("div", { class: "trick", "data-trick": true, "aria-label": T("board.trick") },
    b.trick.length ? b.trick.map((t) => h("span", { class: "played" }, cardEl(t.card, { "data-trick-card": t.card }), roleName(t.role)))
      : h("span", { class: "status" }, T("board.no_trick", { role: roleName(b.leader) })));
  root.append(trick);
  const hands = h("div", { class: "hands" });
  for (const role of ROLES) {
    const toMove = role === b.to_move;
    const cards = b.hands[role].map((card) => toMove && legal.has(card)
      ? cardEl(card, { "data-move-card": card, onclick: () => send({ type: "play", card }) }, h("small", { "data-card-value": card }, "…"))
      : cardEl(card, { class: `card still${isRed(card) ? " red" : ""}`, "data-held": card }));
    hands.append(h("section", { class: `hand${toMove ? " to-move" : ""}`, "data-hand": role },
      h("h2", {}, h("span", {}, roleName(role)), h("span", {}, T("board.tricks", { count: b.taken[role] })),
        h("span", { "data-player-value": role, "data-exact": "false" }, T("board.value", { value: "…" }))),
      h("div", { class: "cards" }, cards.length ? cards : h("span", { class: "status" }, T("board.no_cards")))));
  }
  root.append(hands);
  root.append(h("div", { class: "row" },
    h("button", { "data-action": "back", disabled: b.step === 0, onclick: () => send({ type: "back" }) }, `◀ ${T("board.back")}`),
    h("button", { "data-action": "forward", disabled: b.step + 1 >= b.steps, onclick: () => send({ type: "forward" }) }, `${T("board.forward")} ▶`),
    h("button", { class: "primary", "data-action": "best-line", disabled: !!b.over || b.draft, onclick: () => send({ type: "best-line" }) }, T("board.best_line")),
    h("button", { "data-action": "edit", "aria-pressed": page.editing ? "true" : "false", onclick: () => { page.editing = !page.editing; draw(); } }, T("board.edit")),
    h("span", { class: "status", "data-step": b.step }, T("board.step", { step: b.step + 1, steps: b.steps }))));
  root.append(h("table", { class: "values", "data-values": true },
    h("thead", {}, h("tr", {}, h("th", {}, T("board.card")), h("th", {}, T("board.tricks_score")))),
    h("tbody", {}, (b.legal || []).map((card) => h("tr", { "data-value-card": card, "data-exact": "false" },
      h("td", {}, C(card)), h("td", { class: "inexact" }, "…"))))));
  root.append(h("p", { class: "status", "data-search-status": "searching" }, b.over ? "" : T("board.solving")));
  if (!b.draft) {
    $("[data-export='notation']").value = b.notation;
    $("[data-export='toml']").value = b.toml;
    $("[data-action='link']").href = `/analysis#pos=${encodeURIComponent(b.notation)}`;
    if (!b.deals.length) history.replaceState(null, "", `#pos=${encodeURIComponent(b.notation)}&lang=${words.lang}`);
  }
  drawEdit();
  if (page.values) drawValues();  // redrawn (the edit box, the language): values kept
}

function drawValues() {
  const v = page.values;
  for (const row of v.cards) {
    const tr = document.querySelector(`[data-value-card="${row.card}"]`);
    if (tr) {
      tr.dataset.exact = String(row.exact);
      tr.dataset.best = String(row.best);
      const cell = tr.children[1];
      cell.className = row.exact ? "" : "inexact";
      cell.textContent = valueText(row) + (row.exact ? " ✓" : "") + (row.best && row.exact ? ` ← ${T("board.best")}` : "");
    }
    const small = document.querySelector(`[data-card-value="${row.card}"]`);
    if (small) {
      small.textContent = row.exact ? String(row.lo) : `${row.lo}–${row.hi}`;
      small.parentElement.classList.toggle("best", row.best && row.exact);
      small.parentElement.dataset.exact = String(row.exact);
    }
  }
  for (const row of v.players) {
    const el = document.querySelector(`[data-player-value="${row.role}"]`);
    if (el) {
      el.dataset.exact = String(row.exact);
      el.textContent = T("board.value", { value: valueText(row) + (row.exact ? " ✓" : "") });
    }
  }
  const status = document.querySelector("[data-search-status]");
  if (status) {
    status.dataset.searchStatus = v.exact ? "exact" : "searching";
    const seconds = decimal(v.seconds, words.lang, 1);
    status.textContent = T(v.exact ? "board.exact" : "board.solving_for", { seconds });
  }
}

function drawEdit() {
  const box = $("#edit");
  const b = page.board;
  box.hidden = !page.editing || !b || b.empty;
  if (box.hidden) return;
  const select = (name, options, chosen, label) => h("select", { id: `edit-${name}`, "data-edit": name },
    options.map((o) => h("option", { value: o, selected: o === chosen }, label(o))));
  const moveCard = h("input", { id: "edit-card", "data-edit": "card", placeholder: C("7H"), autocomplete: "off" });
  const moveTo = select("to", ROLES, "chooser", roleName);
  const trick = h("input", { id: "edit-trick", "data-edit": "trick", placeholder: T("board.trick_hint"),
    value: b.trick.map((t) => C(t.card)).join(","), autocomplete: "off" });
  box.replaceChildren(h("h2", {}, T("board.edit_title")), h("div", { class: "edit-grid" },
    h("div", {}, h("label", { for: "edit-contract" }, T("board.game")),
      select("contract", CONTRACTS, b.contract, (g) => T(`game.${g}`))),
    h("div", {}, h("label", { for: "edit-leader" }, T("board.leader")),
      select("leader", ROLES, b.leader, roleName)),
    h("div", {}, h("label", { for: "edit-card" }, T("board.move_card")), moveCard,
      h("label", { for: "edit-to" }, T("board.to")), moveTo,
      h("button", { "data-action": "move-card", onclick: () => send({ type: "edit", op: "move", card: moveCard.value.trim(), to: moveTo.value }) }, T("board.move"))),
    h("div", {}, h("label", { for: "edit-trick" }, T("board.trick")), trick,
      h("button", { "data-action": "set-trick", onclick: () => send({ type: "edit", op: "trick", cards: trick.value.split(",").map((c) => c.trim()).filter(Boolean) }) }, T("board.set_trick")))));
  box.querySelector("[data-edit='contract']").addEventListener("change", (e) => send({ type: "edit", op: "contract", contract: e.target.value }));
  box.querySelector("[data-edit='leader']").addEventListener("change", (e) => send({ type: "edit", op: "leader", leader: e.target.value }));
}

$("#open-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("#open-text").value;
  send(text.trim().startsWith("{") ? { type: "record", text } : { type: "open", text });
});
$("[data-action='upload']").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) send({ type: "record", text: await file.text() });
});
$("[data-deal-select]").addEventListener("change", (event) => send({ type: "deal", deal: parseInt(event.target.value, 10) }));
window.addEventListener("hashchange", openFromHash);
// Another language: the page's words, and the server reads typed cards in it.
$("[data-board-lang]").addEventListener("change", async (event) => {
  localStorage.setItem(LANG_KEY, event.target.value);
  await learnTexts(event.target.value);
  send({ type: "lang", lang: words.lang });
  draw();
});
document.body.dataset.suits = Object.keys(SUITS).join("");
await learnTexts(chosenLang());
connect();
openFromHash();
