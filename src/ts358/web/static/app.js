// ts358 serve: the page. No build step, no external assets: the start page (new match,
// saved matches, statistics) and the table, drawn from the server's messages
// (docs/web.md). The server decides everything; this page only shows a seat's state and
// sends its decisions. Hooks for tests: data-action, data-phase, data-card, data-legal,
// data-game, data-seat, data-tricks (docs/web.md#hooks).
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const GAME_KEYS = ["spades", "hearts", "diamonds", "clubs", "no-trump", "no-tricks"];
const GAME_SHORT = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };

let texts = {};
const app = document.getElementById("app");

function T(key, params) {
  let text = texts[key] || key;
  for (const [name, value] of Object.entries(params || {})) {
    text = text.split("{" + name + "}").join(String(value));
  }
  return text;
}

// h("div", {class: "x", "data-a": 1, onclick: f}, child, "text", ...)
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

function rankText(card) {
  const rank = card.slice(0, -1);
  return rank === "T" ? "10" : rank;
}

function cardText(card) {
  return rankText(card) + SUITS[card.slice(-1)];
}

function gameShort(game) {
  return GAME_SHORT[game] || texts["short." + game] || game;
}

function cardClass(card) {
  return "card" + ("HD".includes(card.slice(-1)) ? " red" : "");
}

// A card face drawn in HTML and CSS: rank and suit in the corners, the suit in the middle.
// The cards of your hand carry data-card (the documented hook: [data-card] is your hand and
// nothing else); cards shown elsewhere (trick, talon, discard) carry data-shown.
function cardFace(card, attrs, inHand) {
  const suit = card.slice(-1);
  return h(
    attrs && attrs.onclick ? "button" : "div",
    { class: cardClass(card), [inHand ? "data-card" : "data-shown"]: card, title: cardText(card), ...attrs },
    h("span", { class: "corner top" }, rankText(card), h("br"), SUITS[suit]),
    h("span", { class: "pip" }, SUITS[suit]),
    h("span", { class: "corner bottom" }, rankText(card), h("br"), SUITS[suit]),
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

// ------------------------------------------------------------------ the start page

async function lobby(lang) {
  let info;
  try {
    info = await api("/api/lobby" + (lang ? "?lang=" + lang : ""));
  } catch (error) {
    app.replaceChildren(h("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  texts = info.texts;
  document.documentElement.lang = info.lang;
  const d = info.defaults;
  const select = (name, values, chosen, label) =>
    h("select", { name, id: "opt-" + name },
      values.map((v) => h("option", { value: v, selected: v === chosen }, label ? label(v) : v)));
  const form = h("form", { class: "new-match", onsubmit: (e) => { e.preventDefault(); start(form); } },
    h("h2", {}, T("web.new_match")),
    h("label", {}, T("web.deals"), select("deals", info.lengths, d.deals)),
    h("label", {}, T("web.level"), select("level", info.levels, d.level, (v) => T("level." + v))),
    // Each other seat: the level above, a bot on another computer, or one of the server's
    // bots (ts358 serve --bot NAME=COMMAND).
    ["left", "right"].map((seat) => h("label", {}, T("seat." + seat),
      select("bot-" + seat, ["", "remote", ...info.bots], "",
        (v) => (v === "" ? T("web.bot_none") : v === "remote" ? T("web.bot_remote") : v)))),
    h("label", {}, T("web.rules"), select("rules", info.rules, d.rules, (v) => T("rules." + v))),
    h("label", {}, T("web.language"), select("lang", info.languages, info.lang, (v) => v)),
    h("label", {}, T("web.humans"), select("humans", [1, 2, 3], d.humans,
      (v) => (v === 1 ? T("web.humans_1") : String(v)))),
    h("label", {}, T("web.pace"),
      h("input", { name: "pace", type: "number", min: 0, max: 5, step: 0.1, value: d.pace })),
    h("label", {}, T("web.analysis"),
      h("input", { name: "analysis", type: "checkbox", checked: true })),
    h("label", {}, T("web.seed"),
      h("input", { name: "seed", type: "number", min: 0, step: 1, placeholder: T("web.random") })),
    h("button", { type: "submit", class: "primary", "data-action": "new-match" }, T("web.start")),
    h("p", { class: "error", role: "alert", id: "lobby-error" }),
  );
  form.querySelector("#opt-lang").addEventListener("change", (e) => lobby(e.target.value));
  const saves = h("section", { class: "saves" }, h("h2", {}, T("web.saves")),
    info.saves.length
      ? h("ul", {}, info.saves.map((s) => h("li", {},
        h("span", {}, s.text),
        h("button", { "data-action": "resume", "data-save": s.id, onclick: () => resume(s.id) },
          T("web.resume")))))
      : h("p", {}, T("web.no_saves")),
    info.unreadable.length
      ? h("div", { class: "unreadable" }, h("p", {}, T("web.unreadable")),
        h("ul", {}, info.unreadable.map((s) => h("li", { "data-save": s.id }, `${s.id}: ${s.error}`))))
      : null);
  app.replaceChildren(h("div", { class: "lobby" },
    h("h1", {}, "3-5-8"), form, saves, statistics(info.stats)));
}

function statistics(stats) {
  const section = h("section", { class: "stats" }, h("h2", {}, T("web.stats")));
  if (!stats.played) {
    section.append(h("p", {}, T("stats.none")));
    return section;
  }
  section.append(h("table", {},
    h("tr", {}, [T("stats.played"), T("stats.won"), T("stats.win_rate"), T("stats.avg_total"),
      T("stats.best_total")].map((x) => h("th", {}, x))),
    h("tr", {}, [stats.played, stats.won, Math.round(stats.win_rate * 100) + "%",
      stats.average_total.toFixed(2), signed(stats.best_total)].map((x) => h("td", {}, x)))));
  section.append(h("h3", {}, T("stats.leaderboard")));
  if (!stats.leaderboard.length) section.append(h("p", {}, T("stats.no_wins")));
  else {
    section.append(h("table", { class: "leaderboard" },
      h("tr", {}, [T("stats.rank"), T("stats.result"), T("stats.date"), T("stats.level"),
        T("stats.deals")].map((x) => h("th", {}, x))),
      stats.leaderboard.map((e, i) => h("tr", {},
        [i + 1 + ".", e.result, e.finished.slice(0, 16).replace("T", " "), T("level." + e.level),
          e.deals].map((x) => h("td", {}, x))))));
  }
  return section;
}

function seatTable(data) {
  sessionStorage.setItem("links:" + data.token, JSON.stringify(data.links));
  sessionStorage.setItem("bots:" + data.token, JSON.stringify(data.bots || []));
  location.hash = "seat=" + data.token;
}

async function start(form) {
  const f = new FormData(form);
  const options = {
    deals: Number(f.get("deals")), level: f.get("level"), rules: f.get("rules"),
    lang: f.get("lang"), humans: Number(f.get("humans")), pace: Number(f.get("pace")),
    analysis: f.get("analysis") === "on",
  };
  if (f.get("seed")) options.seed = Number(f.get("seed"));
  const bots = ["left", "right"].map((seat) => f.get("bot-" + seat) || "");
  if (bots.some((b) => b)) options.opponents = bots.map((b) => b || options.level);
  try {
    seatTable(await api("/api/tables", options));
  } catch (error) {
    document.getElementById("lobby-error").textContent = error.message;
  }
}

async function resume(id) {
  try {
    seatTable(await api("/api/resume", { id }));
  } catch (error) {
    document.getElementById("lobby-error").textContent = error.message;
  }
}

// ------------------------------------------------------------------ the table

const table = {
  socket: null, token: null, seat: null, state: null, hint: null, review: null,
  links: [], bots: [], error: "", picked: new Set(), showLast: false, analysis: true, retry: 0,
  closed: false,
};

function connect(token) {
  table.token = token;
  table.closed = false;
  const links = sessionStorage.getItem("links:" + token);
  table.links = links ? JSON.parse(links) : [];
  const bots = sessionStorage.getItem("bots:" + token);
  table.bots = bots ? JSON.parse(bots) : [];
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/ws");
  table.socket = socket;
  socket.onopen = () => {
    table.retry = 0;
    socket.send(JSON.stringify({ type: "join", token }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (table.socket !== socket || table.closed) return;
    if (event.code === 4004 || event.code === 4000) return; // gone, or opened elsewhere
    table.error = T("web.reconnecting");
    render();
    table.retry = Math.min(table.retry + 1, 8);
    setTimeout(() => { if (table.socket === socket) connect(token); }, 300 * table.retry);
  };
}

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) {
    table.socket.send(JSON.stringify(message));
  }
}

function receive(message) {
  if (message.type === "welcome") {
    texts = message.texts;
    table.seat = message.seat;
    table.analysis = message.analysis !== false;
    if (message.links.length) table.links = message.links;
    document.documentElement.lang = message.lang;
    return;
  }
  if (message.type === "state") {
    const old = table.state;
    if (!old || old.deal !== message.deal || old.decision !== message.decision ||
        old.phase !== message.phase) {
      table.picked.clear();
      table.hint = null;
    }
    if (old && old.deal !== message.deal) table.showLast = false;
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
        message.message), h("p", {}, h("a", { href: "/" }, T("web.home")))));
      return;
    }
  }
  render();
}

function seatBox(s, state) {
  const turn = state.turn === s.seat;
  return h("div", {
    class: "seat" + (s.seat === state.seat ? " me" : "") + (turn ? " turn" : ""),
    "data-seat": s.seat,
  },
  h("div", { class: "who" }, h("b", { class: "name" }, s.name),
    h("span", { class: "kind" }, s.seat === state.seat ? "" :
      s.human ? T("web.human") + (s.connected ? "" : " · " + T("web.offline")) : T("web.computer"))),
  h("div", { class: "facts" },
    h("span", { class: "role" }, s.role_name),
    h("span", { class: "tricks", "data-tricks": s.tricks }, s.tricks),
    h("span", { class: "total" }, signed(s.total))),
  h("div", { class: "games-left" }, s.games_left.map(gameShort).join(" ")));
}

function position(seat, state) {
  const offset = (seat - state.seat + 3) % 3;
  return ["bottom", "left", "right"][offset];
}

function trickArea(state) {
  const area = h("div", { class: "trick" });
  let cards = state.trick && state.trick.cards.length ? state.trick.cards : null;
  let winner = null;
  const last = state.last_trick;
  if ((!cards && last && state.phase === "play") || (table.showLast && last)) {
    cards = last.cards;
    winner = last.winner;
    area.classList.add("finished");
  }
  for (const played of cards || []) {
    area.append(h("div", { class: "slot " + position(played.seat, state) },
      cardFace(played.card, { class: cardClass(played.card) + (winner === played.seat ? " winner" : "") })));
  }
  if (winner !== null) {
    const name = state.seats[winner].name;
    area.append(h("div", { class: "caption" },
      (table.showLast ? T("web.last") + " (" + last.number + "): " : "") + T("web.won_by", { name })));
  }
  return area;
}

function act(state) {
  const bar = h("div", { class: "actions" });
  if (state.decision === "choose") {
    const games = h("div", { class: "games" });
    state.games.forEach((g, i) => games.append(h("button", {
      "data-game": g.game, disabled: !g.available, class: "game",
      title: g.available ? String(i + 1) : texts["table.used"] || "",
      onclick: () => send({ type: "choose", game: g.game }),
    }, h("kbd", {}, i + 1), " ", g.name)));
    bar.append(games);
  }
  if (state.decision === "give") {
    bar.append(h("button", { "data-action": "stop", onclick: () => send({ type: "stop" }) },
      T("web.stop")));
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

function discardPicked() {
  if (table.picked.size === 4) send({ type: "discard", cards: [...table.picked] });
}

function clickCard(card) {
  const state = table.state;
  const kind = state.decision;
  if (kind === "discard") {
    if (table.picked.has(card)) table.picked.delete(card);
    else if (table.picked.size < 4) table.picked.add(card);
    render();
    const again = app.querySelector(`.hand [data-card="${card}"]`);
    if (again) again.focus();
    return;
  }
  if (kind === "give" || kind === "return" || kind === "play") send({ type: kind, card });
}

function handRow(state) {
  const hand = h("div", { class: "hand", role: "group", "aria-label": T("web.hand") });
  for (const c of state.hand || []) {
    const picked = table.picked.has(c.card);
    const attrs = {
      "data-legal": c.legal ? "true" : "false",
      class: cardClass(c.card) + (picked ? " picked" : "") + (c.legal ? "" : " dim"),
    };
    if (c.legal) attrs.onclick = () => clickCard(c.card);
    if (c.legal && state.decision === "discard") attrs["aria-pressed"] = picked ? "true" : "false";
    hand.append(cardFace(c.card, attrs, true));
  }
  return hand;
}

function statusLine(state) {
  if (state.decision === "discard") return T("web.discard_pick", { count: table.picked.size });
  if (state.phase === "summary" && !state.ready) return "";
  return state.status;
}

function scoreSheet(state) {
  const names = state.seats.map((s) => s.name);
  return h("section", { class: "panel score-sheet" }, h("h3", {}, T("web.score")),
    h("table", {},
      h("tr", {}, h("th", {}, T("score.deal")), h("th", {}, T("score.game")),
        names.map((n) => h("th", {}, n))),
      state.score_sheet.map((r) => h("tr", {}, h("td", {}, r.deal),
        h("td", {}, r.game_name + " (" + names[r.chooser] + ")"),
        r.scores.map((v) => h("td", {}, signed(v))))),
      h("tr", { class: "sum" }, h("td", {}), h("td", {}, T("score.total")),
        state.totals.map((v) => h("td", {}, signed(v))))));
}

function hintPanel() {
  const hint = table.hint;
  if (!hint) return null;
  const answer = (o) => o.card ? cardText(o.card) : o.name ? o.name :
    o.cards ? o.cards.map(cardText).join(" ") : T("web.stop");
  return h("section", { class: "panel hint", "data-panel": "hint" }, h("h3", {}, hint.title),
    hint.note ? h("p", { class: "note" }, hint.note) : null,
    h("ol", {}, hint.options.map((o) => h("li", { class: o.best ? "best" : "" },
      h("span", {}, answer(o)),
      o.score === null ? null : h("span", { class: "score" }, (o.score > 0 ? "+" : "") + o.score.toFixed(2))))));
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
      class: "line s" + position(seat, state) + (seat === state.seat ? " mine" : ""),
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

function summaryPanel(state) {
  const summary = state.summary;
  if (!summary) return null;
  const names = state.seats.map((s) => s.name);
  const panel = h("section", { class: "panel summary", "data-panel": "summary" },
    h("h3", {}, summary.title),
    h("table", {},
      h("tr", {}, ["col.player", "col.role", "col.tricks", "col.score", "col.total"]
        .map((k) => h("th", {}, T(k)))),
      summary.rows.map((r) => h("tr", {}, h("td", {}, names[r.seat]), h("td", {}, r.role_name),
        h("td", {}, r.tricks), h("td", {}, signed(r.score)), h("td", {}, signed(r.total))))));
  const review = table.review;
  if (review && review.deal === summary.deal) {
    panel.append(...[h("h3", {}, T("web.chart")), chart(review, state),
      h("p", { class: "legend" }, state.seats.map((s) =>
        h("span", { class: "key s" + position(s.seat, state) }, s.name))),
      review.partial ? h("p", {}, review.partial) : null,
      h("p", {}, review.summary),
      review.all_best ? h("p", {}, review.all_best) : null,
      h("ul", { class: "mistakes" }, review.mistakes.map((m) => h("li", {}, m.text)))]
      .filter((part) => part !== null));
  } else if (table.analysis && state.phase === "summary") {
    panel.append(h("p", { class: "note" }, T("web.analysing")));
  }
  if (state.standings) {
    panel.append(h("h3", {}, T("web.finished")), h("ol", { class: "standings" },
      state.standings.map((s) => h("li", {}, s.place + ". " + names[s.seat] + " " + signed(s.total)))));
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

function render() {
  const state = table.state;
  if (!state) {
    app.replaceChildren(h("p", { class: "loading" }, table.error || "3-5-8"));
    return;
  }
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.card || document.activeElement.dataset.game : null;
  const me = state.seats[state.seat];
  const left = state.seats[(state.seat + 1) % 3];
  const right = state.seats[(state.seat + 2) % 3];
  const between = state.summary && (state.phase === "summary" || state.phase === "finished");
  const number = between ? state.summary.deal : state.deal;
  const title = [T("score.deal") + " " + number + "/" + state.deals];
  const game = between ? T("game." + state.summary.game) : state.game_name;
  const trump = between ? ({ spades: "S", hearts: "H", diamonds: "D", clubs: "C" })[state.summary.game] : state.trump;
  if (game) title.push(game + (trump ? " " + SUITS[trump] : ""));
  const talon = state.talon && (state.phase === "discard" || table.showLast) ? h("div", { class: "talon" },
    h("span", {}, T("web.talon")), state.talon.map((c) => cardFace(c))) : null;
  const exchanges = (state.exchanges || []).length || state.others_exchanged ?
    h("div", { class: "exchanges" }, h("span", {}, T("web.exchange") + ": "),
      state.exchanges.map((e) => h("span", { class: "step" },
        cardText(e.given) + " → " + state.seats[e.receiver].name + ", " + cardText(e.returned) +
        " → " + state.seats[e.giver].name)),
      state.others_exchanged ? h("span", { class: "step" }, state.others_text) : null)
    : null;
  const view = h("div", {
    class: "table", "data-phase": state.phase, "data-my-turn": state.decision ? "true" : "false",
    "data-deal": state.deal || "", "data-trump": state.trump || "",
  },
  h("header", { class: "bar" },
    h("span", { class: "title" }, title.join(" · ")),
    h("span", { class: "tools" },
      h("button", { "data-action": "hint", disabled: !state.decision,
        onclick: () => { table.hint = { title: T("web.thinking"), options: [], note: "" }; render(); send({ type: "hint" }); } },
      T("web.hint")),
      h("button", { "data-action": "last", "aria-pressed": table.showLast ? "true" : "false",
        disabled: !state.last_trick,
        onclick: () => { table.showLast = !table.showLast; render(); } }, T("web.last")),
      h("select", { "data-action": "pace", title: T("web.pace"), "aria-label": T("web.pace"),
        onchange: (e) => send({ type: "pace", seconds: Number(e.target.value) }) },
      [...new Set([0, 0.4, 0.8, 1.5, 3, state.pace])].sort((a, b) => a - b)
        .map((v) => h("option", { value: v, selected: v === state.pace }, v + " s"))),
      h("a", { class: "button", href: "/", "data-action": "home" }, T("web.home")))),
  h("section", { class: "felt" },
    seatBox(left, state), seatBox(right, state),
    trickArea(state), talon),
  h("section", { class: "mine" },
    seatBox(me, state),
    exchanges,
    h("p", { class: "status", "data-status": "" }, statusLine(state)),
    table.error ? h("p", { class: "error", role: "alert" }, table.error) : null,
    act(state),
    state.phase === "summary" || state.phase === "finished" ? null : handRow(state),
    state.discard && table.showLast ? h("div", { class: "talon" }, h("span", {}, T("web.your_discard")),
      state.discard.map((c) => cardFace(c))) : null),
  h("aside", { class: "side" }, summaryPanel(state), hintPanel(), scoreSheet(state), linksPanel(), botsPanel(),
    h("p", { class: "keys" }, T("web.keys"))));
  app.replaceChildren(view);
  if (focused) {
    const again = app.querySelector(`[data-card="${focused}"][data-legal="true"], [data-game="${focused}"]`);
    if (again) again.focus();
  }
}

// Keys: 1-6 a game, arrows move between the cards you may pick, Enter or space picks (the
// cards are buttons), s stop, d discard, h hint, l last trick, n next deal.
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

function route() {
  const match = /^#seat=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (table.socket) {
    table.closed = true;
    table.socket.close();
    table.socket = null;
  }
  table.state = null;
  if (match) {
    render();
    connect(match[1]);
  } else {
    lobby();
  }
}

window.addEventListener("hashchange", route);
route();
