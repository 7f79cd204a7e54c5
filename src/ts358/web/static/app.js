// ts358 serve: the page. Plain JavaScript modules, no build step, no external assets
// (docs/web.md, "The stack"): the start page (new match, saved matches, statistics) and
// the table, drawn from the server's messages. The server decides everything; this page
// only shows a seat's state and sends its decisions. Hooks for tests: docs/web.md#hooks.
import {
  GAME_KEYS, SUITS, TRUMP_OF, cardText, decimal, fanLayout, fill, isRed, rankText,
  seatPosition, shownDeal, signed, standingRows, talonShown, tapAction, waitingFor,
} from "./ui.js";
import { h } from "./dom.js";

let texts = {};
let lang = "en";
let rankLetters = {};
const app = document.getElementById("app");
// A touch screen (no hovering pointer): tap to select, tap again to play; no key hints.
const touch = window.matchMedia("(hover: none), (pointer: coarse)").matches;
// The online server (ts358 serve --public) serves this page at /table, its lobby at /: the
// seats' names come from the accounts (none is asked), and anyone may watch a table in play
// (#watch=ID). The local server serves it at /.
const PUBLIC = location.pathname === "/table";

function T(key, params) {
  return fill(texts[key] || key, params, lang);
}

function ranks() {
  return rankLetters;
}

// The texts of a message of the server: its language's words and card letters.
function learn(message) {
  texts = message.texts;
  lang = message.lang;
  rankLetters = message.ranks || {};
  document.documentElement.lang = lang;
  localStorage.setItem("ts358.lang", lang);  // the analysis board's language too
}

const C = (card) => cardText(card, ranks());

function gameMark(game) {
  return TRUMP_OF[game] ? SUITS[TRUMP_OF[game]] : texts["short." + game] || game;
}

// A card face drawn in HTML and CSS. The cards of your hand carry data-card (the hook:
// [data-card] is your hand and nothing else); cards shown elsewhere carry data-shown.
function cardFace(card, attrs, inHand) {
  const suit = SUITS[card.slice(-1)];
  const rank = rankText(card, ranks());
  const extra = (attrs && attrs.class) || "";
  const button = Boolean(attrs && attrs.onclick);
  return h(
    button ? "button" : "div",
    {
      title: C(card), "aria-label": C(card), role: button ? null : "img", ...attrs,
      class: "card" + (isRed(card) ? " red" : "") + (extra ? " " + extra : ""),
      [inHand ? "data-card" : "data-shown"]: card,
    },
    h("span", { class: "corner top", "aria-hidden": "true" }, rank, h("br"), suit),
    h("span", { class: "pip", "aria-hidden": "true" }, suit),
  );
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function rulesLink() {
  return h("a", { class: "button", href: `/static/rules/${lang}.html`, "data-action": "rules",
    target: "_blank", rel: "noopener" }, T("web.rules_page"));
}

// ------------------------------------------------------------------ the start page

const NAME_KEY = "ts358.name";

async function lobby(chosenLang) {
  let info;
  try {
    info = await api("/api/lobby" + (chosenLang ? "?lang=" + chosenLang : ""));
  } catch (error) {
    app.replaceChildren(h("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  learn(info);
  const d = info.defaults;
  const field = (label, control) => h("label", { class: "field" }, h("span", {}, label), control);
  const select = (name, values, chosen, label) =>
    h("select", { name, id: "opt-" + name },
      values.map((v) => h("option", { value: v, selected: v === chosen }, label ? label(v) : v)));
  const form = h("form", { class: "new-match", onsubmit: (e) => { e.preventDefault(); start(form); } },
    h("h2", {}, T("web.new_match")),
    field(T("web.your_name"), h("input", { name: "name", maxlength: 40, autocomplete: "nickname",
      value: localStorage.getItem(NAME_KEY) || "", placeholder: T("web.player", { number: 1 }),
      "data-field": "name" })),
    field(T("web.deals"), select("deals", info.lengths, d.deals)),
    field(T("web.level"), select("level", info.levels, d.level, (v) => T("level." + v))),
    // Each other seat: the level above, a bot on another computer, or one of the server's
    // bots (ts358 serve --bot NAME=COMMAND).
    ["left", "right"].map((seat) => field(T("seat." + seat),
      select("bot-" + seat, ["", "remote", ...info.bots], "",
        (v) => (v === "" ? T("web.bot_none") : v === "remote" ? T("web.bot_remote") : v)))),
    field(T("web.rules"), select("rules", info.rules, d.rules, (v) => T("rules." + v))),
    field(T("web.language"), select("lang", info.languages, info.lang, (v) => T("lang." + v))),
    field(T("web.humans"), select("humans", [1, 2, 3], d.humans,
      (v) => (v === 1 ? T("web.humans_1") : T("web.humans_more", { count: v })))),
    field(T("web.pace"),
      h("input", { name: "pace", type: "number", min: 0, max: 5, step: 0.1, value: d.pace })),
    field(T("web.analysis"),
      h("input", { name: "analysis", type: "checkbox", checked: true })),
    field(T("web.seed"),
      h("input", { name: "seed", type: "number", min: 0, step: 1, placeholder: T("web.random") })),
    h("button", { type: "submit", class: "primary", "data-action": "new-match" }, T("web.start")),
    h("p", { class: "error", role: "alert", id: "lobby-error" }),
  );
  form.querySelector("#opt-lang").addEventListener("change", (e) => lobby(e.target.value));
  const saves = h("section", { class: "saves" }, h("h2", {}, T("web.saves")),
    info.saves.length
      ? h("ul", {}, info.saves.map((s) => h("li", { "data-save-row": s.id },
        h("span", { class: "save-text" }, h("b", {}, s.names.join(", ")), h("br"), s.text),
        h("span", { class: "save-actions" },
          h("button", { class: "primary", "data-action": "resume", "data-save": s.id,
            onclick: () => resume(s.id) }, T("web.resume")),
          h("button", { "data-action": "delete", "data-save": s.id, disabled: s.open,
            onclick: () => remove(s.id) }, T("web.delete"))))))
      : h("p", {}, T("web.no_saves")),
    info.unreadable.length
      ? h("div", { class: "unreadable" }, h("p", {}, T("web.unreadable")),
        h("ul", {}, info.unreadable.map((s) => h("li", { "data-save": s.id }, `${s.id}: ${s.error}`))))
      : null);
  app.replaceChildren(h("div", { class: "lobby" },
    h("header", { class: "lobby-head" }, h("h1", {}, "3-5-8"),
      h("nav", { class: "tools" }, rulesLink(),
        h("a", { class: "button", href: "/analysis", "data-action": "analysis" }, T("web.analysis_board")))),
    form, saves, statistics(info.stats)));
}

function statistics(stats) {
  const section = h("section", { class: "stats" }, h("h2", {}, T("web.stats")));
  if (!stats.played) {
    section.append(h("p", {}, T("stats.none")));
    return section;
  }
  section.append(h("div", { class: "scroll", tabindex: 0 }, h("table", {},
    h("tr", {}, [T("stats.played"), T("stats.won"), T("stats.win_rate"), T("stats.avg_total"),
      T("stats.best_total")].map((x) => h("th", {}, x))),
    h("tr", {}, [stats.played, stats.won, Math.round(stats.win_rate * 100) + "%",
      decimal(stats.average_total, lang), signed(stats.best_total)].map((x) => h("td", {}, x))))));
  section.append(h("h3", {}, T("stats.leaderboard")));
  if (!stats.leaderboard.length) section.append(h("p", {}, T("stats.no_wins")));
  else {
    section.append(h("div", { class: "scroll", tabindex: 0 }, h("table", { class: "leaderboard" },
      h("tr", {}, [T("stats.rank"), T("stats.result"), T("stats.date"), T("stats.level"),
        T("stats.deals")].map((x) => h("th", {}, x))),
      stats.leaderboard.map((e, i) => h("tr", {},
        [i + 1 + ".", e.result, e.finished.slice(0, 16).replace("T", " "), T("level." + e.level),
          e.deals].map((x) => h("td", {}, x)))))));
  }
  return section;
}

function seatTable(data) {
  sessionStorage.setItem("links:" + data.token, JSON.stringify(data.links));
  sessionStorage.setItem("bots:" + data.token, JSON.stringify(data.bots || []));
  location.hash = "seat=" + data.token;
}

function lobbyError(message) {
  const el = document.getElementById("lobby-error");
  if (el) el.textContent = message;
}

async function start(form) {
  const f = new FormData(form);
  const options = {
    deals: Number(f.get("deals")), level: f.get("level"), rules: f.get("rules"),
    lang: f.get("lang"), humans: Number(f.get("humans")), pace: Number(f.get("pace")),
    analysis: f.get("analysis") === "on",
  };
  const name = String(f.get("name") || "").trim();
  if (name) {
    options.name = name;
    localStorage.setItem(NAME_KEY, name);
  }
  if (f.get("seed")) options.seed = Number(f.get("seed"));
  const bots = ["left", "right"].map((seat) => f.get("bot-" + seat) || "");
  if (bots.some((b) => b)) options.opponents = bots.map((b) => b || options.level);
  try {
    seatTable(await api("/api/tables", options));
  } catch (error) {
    lobbyError(error.message);
  }
}

async function resume(id) {
  try {
    seatTable(await api("/api/resume", { id }));
  } catch (error) {
    lobbyError(error.message);
  }
}

async function remove(id) {
  if (!window.confirm(T("web.delete_confirm"))) return;
  try {
    await api("/api/delete", { id });
    lobby(lang);
  } catch (error) {
    lobbyError(error.message);
  }
}

// ------------------------------------------------------------------ the table

const table = {
  socket: null, token: null, seat: null, state: null, hint: null, review: null,
  links: [], bots: [], save: null, error: "", picked: new Set(), selected: null, showLast: false,
  showTalon: false, analysis: true, retry: 0, closed: false, onTable: new Set(),
  spectator: false, // watching a table of the online server: no hand, no decision
};

// A friend's link opens a seat: the name is asked once (and remembered by this browser).
function askName(token) {
  const form = h("form", { class: "ask-name", onsubmit: (e) => {
    e.preventDefault();
    const name = form.querySelector("input").value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    sessionStorage.setItem("named:" + token, "1");
    connect(token, name || null);
  } },
  h("h1", {}, "3-5-8"),
  h("label", { class: "field" }, h("span", {}, T("web.your_name")),
    h("input", { name: "name", maxlength: 40, autocomplete: "nickname", "data-field": "name",
      value: localStorage.getItem(NAME_KEY) || "" })),
  h("button", { type: "submit", class: "primary", "data-action": "join" }, T("web.join")));
  app.replaceChildren(form);
  form.querySelector("input").focus();
}

function connect(token, name) {
  table.token = token;
  table.spectator = false;
  const links = sessionStorage.getItem("links:" + token);
  table.links = links ? JSON.parse(links) : [];
  const bots = sessionStorage.getItem("bots:" + token);
  table.bots = bots ? JSON.parse(bots) : [];
  openSocket(name ? { type: "join", token, name } : { type: "join", token }, () => connect(token, null));
}

// Watching a table of the online server: its state as everyone may see it, nothing sent
// but the first message.
function watch(id) {
  table.token = null;
  table.spectator = true;
  table.links = [];
  table.bots = [];
  openSocket({ type: "watch", table: id }, () => watch(id));
}

function openSocket(first, again) {
  table.closed = false;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  // The language last used in this browser, for what is said before the table's own
  // language is known (a seat's old link, a table gone).
  const known = localStorage.getItem("ts358.lang");
  const socket = new WebSocket(scheme + location.host + "/ws" + (known ? "?lang=" + encodeURIComponent(known) : ""));
  table.socket = socket;
  socket.onopen = () => {
    table.retry = 0;
    socket.send(JSON.stringify(first));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (table.socket !== socket || table.closed) return;
    if (event.code === 4004 || event.code === 4000) return; // gone, or opened elsewhere
    table.error = T("web.reconnecting");
    render();
    table.retry = Math.min(table.retry + 1, 8);
    setTimeout(() => { if (table.socket === socket) again(); }, 300 * table.retry);
  };
}

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) {
    table.socket.send(JSON.stringify(message));
  }
}

function receive(message) {
  if (message.type === "welcome") {
    learn(message);
    table.seat = message.seat;
    table.spectator = message.spectator === true;
    table.analysis = message.analysis !== false && !table.spectator;
    table.save = message.save || null;
    if (message.links.length) table.links = message.links;
    return;
  }
  if (message.type === "state") {
    const old = table.state;
    if (!old || old.deal !== message.deal || old.decision !== message.decision ||
        old.phase !== message.phase) {
      table.picked.clear();
      table.selected = null;
      table.hint = null;
    }
    if (old && old.deal !== message.deal) {
      table.showLast = false;
      table.showTalon = false;
    }
    if (message.phase !== "summary" && message.phase !== "finished") table.review = null;
    table.state = message;
    table.error = "";
  } else if (message.type === "hint") {
    table.hint = message;
  } else if (message.type === "review") {
    table.review = message;
  } else if (message.type === "error") {
    table.error = message.message;
    if (message.gone) {
      table.closed = true;
      app.replaceChildren(h("div", { class: "gone" }, h("p", { class: "error", role: "alert" },
        message.message), h("p", {}, h("a", { class: "button", href: "/" }, T("web.home")))));
      return;
    }
  }
  render();
}

function seatBox(s, state) {
  const turn = state.turn === s.seat;
  const mine = s.seat === state.seat && !table.spectator;
  const used = new Set(s.games_left);
  return h("div", {
    class: "seat " + seatPosition(s.seat, state.seat) + (turn ? " turn" : ""),
    "data-seat": s.seat, "aria-current": turn ? "true" : null,
  },
  h("div", { class: "who" }, h("b", { class: "name" }, s.name),
    h("span", { class: "kind" }, mine ? T("web.you_mark") :
      s.human ? T("web.human") + (s.connected ? "" : " · " + T("web.offline")) : T("web.computer")),
    turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "●") : null),
  h("div", { class: "facts" },
    h("span", { class: "role" }, s.role_name),
    h("span", { class: "fact" }, T("web.tricks_label") + " ",
      h("b", { class: "tricks", "data-tricks": s.tricks }, s.tricks)),
    h("span", { class: "fact" }, T("web.total_label") + " ", h("b", { class: "total" }, signed(s.total)))),
  state.phase === "summary" || state.phase === "finished" ? null :
    h("div", { class: "games-left", title: T("table.games_left") },
      GAME_KEYS.map((g) => h("span", { class: "mark" + (used.has(g) ? "" : " used"),
        title: T("game." + g) }, gameMark(g)))));
}

// The trick: each seat's card in front of that seat, with its name; a finished trick shows
// its winner, then goes to the winner's side.
function trickArea(state) {
  const area = h("div", { class: "trick", role: "group", "aria-label": T("web.trick") });
  let cards = state.trick && state.trick.cards.length ? state.trick.cards : null;
  let winner = null;
  let number = null;
  const last = state.last_trick;
  if (table.showLast && last) {
    cards = last.cards;
    winner = last.winner;
    number = last.number;
  } else if (!cards && last && state.phase === "play") {
    cards = last.cards;
    winner = last.winner;
  }
  const seen = new Set();
  for (const played of cards || []) {
    const where = seatPosition(played.seat, state.seat);
    const fresh = !table.onTable.has(played.card) && !table.showLast;
    seen.add(played.card);
    area.append(h("div", { class: "slot " + where + (fresh ? " enter" : "") },
      cardFace(played.card, { class: winner === played.seat ? "winner" : "" }),
      h("span", { class: "label" }, state.seats[played.seat].name)));
  }
  table.onTable = seen;
  if (winner !== null) {
    area.classList.add("finished", "to-" + seatPosition(winner, state.seat));
    if (table.showLast) area.classList.add("shown-last");
    area.append(h("p", { class: "caption" },
      (number ? T("web.last") + " (" + number + "): " : "") +
      T("web.won_by", { name: state.seats[winner].name })));
  }
  return area;
}

function talonArea(state) {
  if (!talonShown(state, table.showTalon)) return null;
  return h("div", { class: "talon", "data-panel": "talon" },
    h("span", {}, T("web.talon")), state.talon.map((c) => cardFace(c)),
    state.discard && table.showTalon ? [h("span", {}, T("web.your_discard")),
      state.discard.map((c) => cardFace(c))] : null);
}

function act(state) {
  const bar = h("div", { class: "actions" });
  if (table.spectator) {
    if (state.phase === "finished") {
      bar.append(h("a", { class: "button primary", href: "/", "data-action": "home" }, T("web.home")));
    }
    return bar;
  }
  if (state.decision === "choose") {
    const games = h("div", { class: "games" });
    state.games.forEach((g, i) => games.append(h("button", {
      "data-game": g.game, disabled: !g.available, class: "game",
      title: g.available ? g.name : texts["table.used"] || "",
      onclick: () => send({ type: "choose", game: g.game }),
    }, touch ? null : h("kbd", {}, i + 1), h("span", { class: "mark" }, gameMark(g.game)), " ", g.name)));
    bar.append(games);
  }
  if (state.decision === "give") {
    bar.append(h("button", { "data-action": "stop", onclick: () => send({ type: "stop" }) },
      T("web.stop")));
  }
  if (["give", "return", "play"].includes(state.decision) && touch) {
    bar.append(h("button", {
      "data-action": "play", class: "primary", disabled: !table.selected,
      onclick: () => { if (table.selected) sendCard(state.decision, table.selected); },
    }, table.selected ? T("web.play_card", { card: C(table.selected) }) : T("web.tap_card")));
  }
  if (state.decision === "discard") {
    bar.append(h("button", {
      "data-action": "discard", class: "primary", disabled: table.picked.size !== 4,
      onclick: discardPicked,
    }, T("web.discard")));
  }
  if (state.phase === "summary" && !state.ready) {
    bar.append(h("button", { "data-action": "next", class: "primary",
      onclick: () => send({ type: "next" }) }, T("web.next")));
  }
  if (state.phase === "finished") {
    bar.append(h("a", { class: "button primary", href: "/", "data-action": "home" }, T("web.home")));
  }
  return bar;
}

// A card sent is no longer selected: the play button can't send it twice.
function sendCard(kind, card) {
  table.selected = null;
  render();
  send({ type: kind, card });
}

function discardPicked() {
  if (table.picked.size === 4) send({ type: "discard", cards: [...table.picked] });
}

function clickCard(card, legal) {
  const state = table.state;
  const kind = state.decision;
  const action = tapAction(kind, card, legal, table.selected, touch);
  if (action === "pick") {
    if (table.picked.has(card)) table.picked.delete(card);
    else if (table.picked.size < 4) table.picked.add(card);
  } else if (action === "select") {
    table.selected = card;
  } else if (action === "send") {
    sendCard(kind, card);
    return;
  } else if (action === "explain") {
    // A dimmed card: the server refuses it and says why, in the player's words.
    send({ type: kind, card });
    return;
  } else {
    return;
  }
  render();
  const again = app.querySelector(`.hand [data-card="${card}"]`);
  if (again) again.focus();
}

function handRow(state) {
  const hand = h("div", { class: "hand", role: "group", "aria-label": T("web.hand") });
  const cards = state.hand || [];
  const width = Math.min(app.clientWidth || window.innerWidth, 900) - 24;
  const cardWidth = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 52;
  const fan = fanLayout(cards.length, width, cardWidth);
  hand.style.setProperty("--step", fan.step + "px");
  let at = 0;
  for (const count of fan.rows) {
    const row = h("div", { class: "row" });
    for (const c of cards.slice(at, at + count)) {
      const picked = table.picked.has(c.card) || table.selected === c.card;
      const choosing = state.decision === "choose" || !state.decision;
      const attrs = {
        "data-legal": c.legal ? "true" : "false",
        class: (picked ? "picked" : "") + (c.legal || choosing ? "" : " dim"),
        onclick: state.decision && state.decision !== "choose" ? () => clickCard(c.card, c.legal) : null,
        "aria-disabled": c.legal ? null : "true",
      };
      if (c.legal && state.decision === "discard") attrs["aria-pressed"] = picked ? "true" : "false";
      row.append(cardFace(c.card, attrs, true));
    }
    hand.append(row);
    at += count;
  }
  return hand;
}

function statusLine(state) {
  if (table.spectator) return state.status || "";
  if (state.decision === "discard") return T("web.discard_pick", { count: table.picked.size });
  if (state.phase === "summary") {
    if (!state.ready) return "";
    const names = waitingFor(state.waiting, state.seats.map((s) => s.name), state.seat);
    return names.length ? T("web.waiting", { name: names.join(", ") }) : state.status;
  }
  return state.status;
}

function scoreSheet(state) {
  const names = state.seats.map((s) => s.name);
  return h("section", { class: "panel score-sheet", "data-panel": "score" }, h("h3", {}, T("web.score")),
    h("div", { class: "scroll", tabindex: 0 }, h("table", {},
      h("tr", {}, h("th", {}, T("score.deal")), h("th", {}, T("score.game")),
        names.map((n) => h("th", {}, n))),
      state.score_sheet.map((r) => h("tr", {}, h("td", {}, r.deal),
        h("td", {}, r.game_name + " (" + names[r.chooser] + ")"),
        r.scores.map((v) => h("td", {}, signed(v))))),
      h("tr", { class: "sum" }, h("td", {}), h("td", {}, T("score.total")),
        state.totals.map((v) => h("td", {}, signed(v)))))));
}

function hintPanel() {
  const hint = table.hint;
  if (!hint) return null;
  const answer = (o) => o.card ? C(o.card) : o.name ? o.name :
    o.cards ? o.cards.map(C).join(" ") : T("web.stop");
  return h("section", { class: "panel hint", "data-panel": "hint" },
    h("div", { class: "panel-head" }, h("h3", {}, hint.title),
      h("button", { class: "close", "aria-label": T("web.close"), onclick: () => { table.hint = null; render(); } }, "×")),
    hint.note ? h("p", { class: "note" }, hint.note) : null,
    h("ol", {}, hint.options.map((o) => h("li", { class: o.best ? "best" : "" },
      h("span", {}, answer(o)),
      o.score === null ? null : h("span", { class: "score" }, decimal(o.score, lang, 2, true))))));
}

function chart(review, state) {
  const rows = review.chart;
  if (!rows.length) return null;
  const W = 320, H = 150, pad = 24;
  const all = rows.flatMap((r) => r.scores).concat(review.result);
  const lo = Math.min(...all, 0), hi = Math.max(...all, 0);
  const x = (trick) => pad + ((trick - 1) / 16) * (W - 2 * pad);
  const y = (v) => H - pad - ((v - lo) / Math.max(hi - lo, 1)) * (H - 2 * pad);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", T("web.chart"));
  const add = (tag, attrs) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.append(el);
    return el;
  };
  add("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "zero" });
  for (const t of [1, 5, 9, 13, 17]) {
    add("text", { x: x(t), y: H - 6, class: "axis" }).textContent = t === 17 ? "=" : t;
  }
  for (const v of [lo, hi]) add("text", { x: 2, y: y(v) + 4, class: "axis" }).textContent = signed(v);
  for (let seat = 0; seat < 3; seat++) {
    const points = rows.map((r) => [x(r.trick), y(r.scores[seat])]);
    points.push([x(17), y(review.result[seat])]);
    add("polyline", {
      points: points.map((p) => p.join(",")).join(" "),
      class: "line s" + seatPosition(seat, state.seat) + (seat === state.seat ? " mine" : ""),
    });
    rows.forEach((r) => {
      if (r.costs[seat] > 0) {
        add("circle", { cx: x(r.trick), cy: y(r.scores[seat]), r: seat === state.seat ? 4 : 2.5,
          class: "cost" }).append(Object.assign(
          document.createElementNS("http://www.w3.org/2000/svg", "title"),
          { textContent: state.seats[seat].name + ": -" + r.costs[seat] }));
      }
    });
  }
  return svg;
}

function standingsPanel(state) {
  if (!state.standings) return null;
  const names = state.seats.map((s) => s.name);
  const mine = table.spectator ? null : state.standings.find((s) => s.seat === state.seat);
  return h("section", { class: "panel standings-panel", "data-panel": "standings" },
    h("h2", {}, T("web.finished")),
    state.winner_text ? h("p", { "data-winner": true }, state.winner_text) : null,
    h("ol", { class: "standings" }, standingRows(state.standings, names).map((r) =>
      h("li", { value: r.place }, h("span", { class: "name" }, r.name), " ",
        h("b", {}, r.total)))),
    mine ? h("p", {}, mine.place === 1 ? T("web.you_won") : T("web.your_place", { place: mine.place })) : null);
}

function summaryPanel(state) {
  const summary = state.summary;
  if (!summary) return null;
  const names = state.seats.map((s) => s.name);
  const panel = h("section", { class: "panel summary", "data-panel": "summary" },
    h("h3", {}, summary.title),
    h("div", { class: "scroll", tabindex: 0 }, h("table", {},
      h("tr", {}, ["col.player", "col.role", "col.tricks", "col.score", "col.total"]
        .map((k) => h("th", {}, T(k)))),
      summary.rows.map((r) => h("tr", {}, h("td", {}, names[r.seat]), h("td", {}, r.role_name),
        h("td", {}, r.tricks), h("td", {}, signed(r.score)), h("td", {}, signed(r.total)))))));
  const review = table.review;
  if (review && review.deal === summary.deal) {
    panel.append(...[h("h3", {}, T("web.chart")), chart(review, state),
      h("p", { class: "legend" }, state.seats.map((s) =>
        h("span", { class: "key s" + seatPosition(s.seat, state.seat) }, s.name))),
      review.partial ? h("p", {}, review.partial) : null,
      h("p", {}, review.summary),
      review.all_best ? h("p", {}, review.all_best) : null,
      h("ul", { class: "mistakes" }, review.mistakes.map((m) => h("li", {}, m.text))),
      table.save ? h("p", {}, h("a", { href: `/analysis#save=${table.save}&deal=${summary.deal}&lang=${lang}`,
        "data-action": "analyse-deal", target: "_blank", rel: "noopener" }, T("web.analysis_board"))) : null]
      .filter((part) => part !== null));
  } else if (table.analysis && state.phase === "summary") {
    panel.append(h("p", { class: "note" }, T("web.analysing")));
  }
  return panel;
}

// The remote bots' seats: the command that seats ts358's own player there, which any bot
// of the protocol can follow (docs/bots.md#remote-bots).
function botsPanel() {
  if (!table.bots || !table.bots.length) return null;
  return h("section", { class: "panel links" }, h("h3", {}, T("web.bot_links")),
    h("ul", {}, table.bots.map((b) => h("li", {}, T("web.link_seat", { name: b.name }), ": ",
      h("code", { "data-bot-seat": b.seat, "data-bot-url": b.url, "data-bot-token": b.token },
        `ts358 bot --connect ${b.url} --token ${b.token}`)))));
}

function linksPanel() {
  if (!table.links.length) return null;
  return h("section", { class: "panel links" }, h("h3", {}, T("web.links")),
    h("ul", {}, table.links.map((l) => h("li", {}, T("web.link_seat", { name: l.name }), ": ",
      h("a", { href: l.url, "data-link-seat": l.seat }, l.url)))));
}

function toolButton(action, label, pressed, disabled, onclick) {
  return h("button", { "data-action": action, "aria-pressed": pressed === null ? null : String(pressed),
    disabled, onclick }, label);
}

function render() {
  const state = table.state;
  if (!state || !state.seats) {
    app.replaceChildren(h("p", { class: "loading" }, table.error || "3-5-8"));
    return;
  }
  const watching = table.spectator;
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card || document.activeElement.dataset.game : null;
  const me = state.seats[state.seat];
  const left = state.seats[(state.seat + 1) % 3];
  const right = state.seats[(state.seat + 2) % 3];
  const between = state.phase === "summary" || state.phase === "finished";
  const number = shownDeal(state);
  const title = [T("score.deal") + " " + number + "/" + state.deals];
  const game = between && state.summary ? T("game." + state.summary.game) : state.game_name;
  const trump = between && state.summary ? TRUMP_OF[state.summary.game] : state.trump;
  if (game) title.push(game + (trump ? " " + SUITS[trump] : ""));
  const exchanges = (state.exchanges || []).length || state.others_exchanged ?
    h("div", { class: "exchanges" }, h("span", {}, T("web.exchange") + ": "),
      state.exchanges.map((e) => h("span", { class: "step" },
        C(e.given) + " → " + state.seats[e.receiver].name + ", " + C(e.returned) +
        " → " + state.seats[e.giver].name)),
      state.others_exchanged ? h("span", { class: "step" }, state.others_text) : null)
    : null;
  const endRule = state.end && state.phase !== "finished"
    ? h("p", { class: "end-rule", "data-end": true }, state.end) : null;
  const felt = state.phase === "finished" ? standingsPanel(state) : h("section", { class: "felt" },
    seatBox(left, state), seatBox(right, state), trickArea(state), talonArea(state));
  const pace = Number(state.pace);
  document.documentElement.style.setProperty("--move", Math.min(0.35, Math.max(0.08, pace * 0.3)) + "s");
  const view = h("div", {
    class: "table" + (touch ? " touch" : ""), "data-phase": state.phase,
    "data-my-turn": state.decision ? "true" : "false",
    "data-deal": number || "", "data-trump": state.trump || "",
  },
  h("header", { class: "bar" },
    h("span", { class: "title" }, title.join(" · "),
      state.rules && state.rules !== T("rules.house")
        ? h("span", { class: "rules-name", "data-rules-name": true }, " · " + state.rules) : null),
    watching ? h("b", { class: "spectator", "data-spectator": "" }, texts["web.watching"] || "Watching") : null,
    h("span", { class: "tools" },
      // No hints for a spectator, nor at the online server's tables (their matches are rated).
      watching || PUBLIC ? null : toolButton("hint", T("web.hint"), null, !state.decision,
        () => { table.hint = { title: T("web.thinking"), options: [], note: "" }; render(); send({ type: "hint" }); }),
      toolButton("last", T("web.last"), table.showLast, !state.last_trick || between,
        () => { table.showLast = !table.showLast; render(); }),
      toolButton("talon", T("web.talon"), table.showTalon, !state.talon || between,
        () => { table.showTalon = !table.showTalon; render(); }),
      watching ? null : h("select", { "data-action": "pace", title: T("web.pace"), "aria-label": T("web.pace"),
        onchange: (e) => send({ type: "pace", seconds: Number(e.target.value) }) },
      [...new Set([0, 0.4, 0.8, 1.5, 3, state.pace])].sort((a, b) => a - b)
        .map((v) => h("option", { value: v, selected: v === state.pace }, v + " s"))),
      rulesLink(),
      h("a", { class: "button", href: "/", "data-action": "home" }, T("web.home")))),
  h("div", { class: "play" },
    felt,
    h("section", { class: "mine" },
      seatBox(me, state),
      exchanges,
      h("p", { class: "status", "data-status": "", role: "status" }, statusLine(state)),
      table.error ? h("p", { class: "error", role: "alert" }, table.error) : null,
      hintPanel(),
      act(state),
      between || watching ? null : handRow(state))),
  h("aside", { class: "side" }, endRule, summaryPanel(state), scoreSheet(state), linksPanel(), botsPanel(),
    touch || watching ? null : h("p", { class: "keys" }, T("web.keys"))));
  app.replaceChildren(view);
  if (focused) {
    const again = app.querySelector(`[data-card="${focused}"][data-legal="true"], [data-game="${focused}"]`);
    if (again) again.focus();
  }
}

// Keys: 1-6 a game, arrows move between the cards you may pick, Enter or space picks (the
// cards are buttons), s stop, d discard, h hint, l last trick, t talon, n next deal.
document.addEventListener("keydown", (event) => {
  const state = table.state;
  if (!state || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
  const click = (selector) => {
    const el = app.querySelector(selector);
    if (el && !el.disabled) { el.click(); event.preventDefault(); }
  };
  const key = event.key.toLowerCase();
  if (state.decision === "choose" && key >= "1" && key <= "6") {
    click(`[data-game="${GAME_KEYS[Number(key) - 1]}"]`);
  } else if (key === "s") click('[data-action="stop"]');
  else if (key === "d") click('[data-action="discard"]');
  else if (key === "h") click('[data-action="hint"]');
  else if (key === "l") click('[data-action="last"]');
  else if (key === "t") click('[data-action="talon"]');
  else if (key === "n") click('[data-action="next"]');
  else if (key === "arrowleft" || key === "arrowright") {
    const cards = [...app.querySelectorAll('.hand [data-legal="true"]')];
    if (!cards.length) return;
    const at = cards.indexOf(document.activeElement);
    const step = key === "arrowright" ? 1 : -1;
    cards[(at + step + cards.length) % cards.length].focus();
    event.preventDefault();
  }
});

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (table.state) render(); }, 100);
});

function route() {
  const match = /^#seat=([A-Za-z0-9_-]+)$/.exec(location.hash);
  const watching = PUBLIC ? /^#watch=([A-Za-z0-9_-]+)$/.exec(location.hash) : null;
  if (table.socket) {
    table.closed = true;
    table.socket.close();
    table.socket = null;
  }
  table.state = null;
  table.error = "";
  if (watching) {
    render();
    watch(watching[1]);
    return;
  }
  if (!match) {
    // The online server's table page without a table: its lobby.
    if (PUBLIC) location.replace("/");
    else lobby();
    return;
  }
  const token = match[1];
  // The host came from the start page (its name given there); a friend's link asks first;
  // at the online server the name is the account's.
  const host = sessionStorage.getItem("links:" + token) !== null;
  if (PUBLIC || host || sessionStorage.getItem("named:" + token)) {
    render();
    connect(token, null);
  } else {
    lobbyTexts().then(() => askName(token));
  }
}

async function lobbyTexts() {
  try {
    learn(await api("/api/texts"));
  } catch {
    // The form still works with the keys as labels.
  }
}

window.addEventListener("hashchange", route);
route();
