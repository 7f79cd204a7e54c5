// ts358 serve --public: the lobby page. Plain JavaScript modules, no build step, no
// external assets (docs/web.md, "Online"): signing up or in (or a guest's name), the tables
// open and in play (polled), a new table, the leaderboard and your matches. The table
// itself is the table page (/table#seat=TOKEN, /table#watch=ID). Every name on this page is
// someone's input: it is only ever written as text (h() and textContent), never as HTML.
// Hooks for tests: docs/web.md (the lobby's hooks).
import { h } from "/static/dom.js";
import { fill } from "/static/ui.js";

// ------------------------------------------------------------------ words

// The page's words come from the server (GET /api/me, in the language the page asks for:
// ?lang= in its address, else the last one chosen here or at a table, else the browser's):
// the lobby's own under "lobby.", and the names of the rules, levels and languages. Before
// they arrive only a failure to reach the server can be said, in English.
const BEFORE = {
  "lobby.app.network": "The server can't be reached: check the connection and try again.",
  "lobby.app.retry": "Try again",
};
let lang = "en";
let words = {};

function T(key, params) {
  const full = "lobby." + key;
  return fill(words[full] ?? BEFORE[full] ?? full, params, lang);
}

// A value's label (a status, a preset, a level, a language) where the words have one, else
// the value itself (a preset the page doesn't know yet).
function label(group, value) {
  const own = `lobby.${group}.${value}`;
  const shared = `${group}.${value}`;
  return own in words ? words[own] : shared in words ? words[shared] : String(value);
}

function askedLanguage() {
  const inAddress = new URLSearchParams(location.search).get("lang");
  if (inAddress) return inAddress;
  try {
    return localStorage.getItem("ts358.lang") || "";
  } catch {
    return "";  // storage refused (a private window): the browser's language
  }
}

// Another language: kept for the next visit (and the analysis board), the page loaded again.
function chooseLanguage(chosen) {
  try {
    localStorage.setItem("ts358.lang", chosen);
  } catch {
    // not kept: the address says it below
  }
  const url = new URL(location.href);
  url.searchParams.set("lang", chosen);
  location.replace(url.toString());
}

function signed(n) {
  return n > 0 ? "+" + n : String(n);
}

function rating(n) {
  return Number(n).toFixed(1);
}

// ------------------------------------------------------------------ the server

const POLL_MS = 2000;
// A page in a tab out of sight asks seldom, but within the 30 s that keep its person
// online; it asks at once when it is seen again.
const HIDDEN_POLL_MS = 20000;
const app = document.getElementById("app");
const S = {
  options: null, // GET /api/me: the choices of a new table
  me: null, // {id, name, kind} or null
  csrf: "",
  tables: [],
  sharedId: null, // #table=ID
  shared: null,
  sharedError: "",
  lobbyError: "",
  tableErrors: new Map(),
  seen: new Map(), // table id -> the status it had when last seen
  mine: new Set(), // the tables where you sit, open or in play
  going: false, // on the way to a table
  board: "house",
  created: null, // the id of the table just created
  painted: "",
  asked: 0,
  parts: {},
  timer: null,
};

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(path, body) {
  // Refusals come in the page's language, once it has one (the first request lets the
  // browser's languages choose it).
  const spoken = S.options ? { "Accept-Language": lang } : {};
  const init = body === undefined
    ? { headers: { Accept: "application/json", ...spoken } }
    : {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": S.csrf || "", ...spoken },
      body: JSON.stringify(body),
    };
  let response;
  try {
    response = await fetch(path, { ...init, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new ApiError(T("app.network"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const said = data && typeof data.error === "string" ? data.error : "";
    throw new ApiError(said || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

const tablePath = (id) => "/api/tables/" + encodeURIComponent(id);

// ------------------------------------------------------------------ the page

function field(text, control, extra) {
  return h("label", { class: "field" + (extra ? " " + extra : "") }, h("span", {}, text), control);
}

function errorLine(where, message) {
  return h("p", { class: "error", role: "alert", "data-error": where }, message || "");
}

function setError(where, message) {
  const el = app.querySelector(`[data-error="${where}"]`);
  if (el) el.textContent = message || "";
}

function draw() {
  const me = S.me;
  const head = h("header", { class: "top" },
    h("h1", {}, "3-5-8 ", h("span", { class: "sub" }, "online")),
    h("nav", { class: "tools" },
      h("select", { "data-action": "lang", "aria-label": T("app.language"),
        onchange: (e) => chooseLanguage(e.target.value) },
      S.options.languages.map((l) => h("option", { value: l, selected: l === lang }, label("lang", l)))),
      h("a", { class: "button", href: `/static/rules/${lang}.html`, target: "_blank", rel: "noopener",
        "data-action": "rules" }, T("app.rules_page")),
      me ? h("span", { class: "account" },
        h("span", { class: "me" }, T("sign.as") + " ", h("b", { "data-me": "" }, me.name),
          me.kind === "guest" ? h("span", { class: "kind" }, " (" + T("kind.guest") + ")") : null),
        h("button", { "data-action": "signout", onclick: signOut }, T("sign.out"))) : null));
  S.parts.shared = h("div", { class: "shared" });
  S.parts.tables = h("div", { class: "tlist", "data-tables": "" });
  const lobby = h("section", { class: "box", "data-panel": "lobby", "aria-labelledby": "tables-title" },
    h("h2", { id: "tables-title" }, T("tables.title")),
    errorLine("lobby", S.lobbyError),
    S.parts.tables);
  S.parts.board = h("div", { class: "board" });
  const board = h("section", { class: "box", "data-panel": "leaderboard", "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, T("board.title")),
    field(T("board.rules"), h("select", { "data-field": "leaderboard-rules", name: "leaderboard-rules",
      onchange: (e) => { S.board = e.target.value; loadBoard(); } },
    S.options.rules.map((r) => h("option", { value: r, selected: r === S.board }, label("rules", r))))),
    errorLine("leaderboard"),
    S.parts.board);
  S.parts.history = h("div", { class: "history" });
  const history = me ? h("section", { class: "box", "data-panel": "history", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, T("history.title")), errorLine("history"), S.parts.history) : null;
  S.painted = "";
  app.replaceChildren(h("div", { class: "online" },
    head,
    me ? null : signForms(),
    h("div", { class: "columns" },
      h("div", { class: "column" }, S.parts.shared, lobby, me ? createForm() : null),
      h("div", { class: "column" }, board, history))));
  paintTables();
}

// ------------------------------------------------------------------ signing in

function signForms() {
  const form = (kind, title, fields, submit, note) => {
    const el = h("form", { class: "box sign", "data-form": kind, "aria-labelledby": kind + "-title",
      onsubmit: (e) => { e.preventDefault(); sign(kind, el); } },
    h("h2", { id: kind + "-title" }, title),
    fields,
    h("button", { type: "submit", class: "primary", "data-action": kind }, submit),
    note ? h("p", { class: "note" }, note) : null,
    errorLine(kind));
    return el;
  };
  const name = (complete) => field(T("sign.name"), h("input", { name: "name", "data-field": "name",
    required: true, maxlength: 40, autocomplete: complete, autocapitalize: "words", spellcheck: "false" }));
  const password = (text, complete) => field(text, h("input", { name: "password", type: "password",
    "data-field": "password", required: true, maxlength: 200, autocomplete: complete }));
  return h("div", { class: "signs" },
    form("signin", T("sign.in_title"), [name("username"), password(T("sign.password"), "current-password")],
      T("sign.in")),
    form("signup", T("sign.up_title"), [name("username"), password(T("sign.new_password"), "new-password")],
      T("sign.up"), T("sign.up_note")),
    form("guest", T("sign.guest_title"), [name("nickname")], T("sign.guest"), T("sign.guest_note")));
}

async function sign(kind, form) {
  const value = (f) => {
    const input = form.querySelector(`[data-field="${f}"]`);
    return input ? input.value : undefined;
  };
  const body = { name: value("name") };
  if (kind !== "guest") body.password = value("password");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  setError(kind, "");
  try {
    const answer = await api("/api/" + kind, body);
    S.me = answer.person;
    S.csrf = answer.csrf || "";
    S.seen.clear();
    draw();
    refreshAll();
  } catch (error) {
    setError(kind, error.message);
    button.disabled = false;
  }
}

async function signOut() {
  try {
    await api("/api/signout", {});
  } catch {
    // The session ends on this page whatever the server said.
  }
  signedOut("");
}

// The session is over (signed out here, or elsewhere, or expired): the forms again.
function signedOut(message) {
  S.me = null;
  S.csrf = "";
  S.mine.clear();
  draw();
  refreshAll();
  if (message) setError("signin", message);
}

// ------------------------------------------------------------------ the tables

function tableCard(t) {
  const me = S.me;
  const mine = t.mine !== null && t.mine !== undefined;
  const open = t.status === "open";
  const playing = t.status === "playing";
  const owner = mine && t.owner_is_you;
  const canSit = Boolean(me) && open && !mine;
  const busy = (fn) => async (event) => {
    const button = event.currentTarget;
    if (button) button.disabled = true;
    await fn();
    if (button && button.isConnected) button.disabled = false;
  };
  const seats = h("ul", { class: "tseats" }, t.seats.map((s) => {
    const free = s.kind === null || s.kind === undefined;
    const name = free ? T("seat.free") : s.kind === "computer" ? T("seat.computer", { level: label("level", s.name) }) : s.name;
    const notes = [];
    if (s.kind === "guest") notes.push(T("kind.guest"));
    if (s.seat === t.mine) notes.push(T("table.you"));
    if (playing && !free && s.kind !== "computer" && !s.present) notes.push(T("seat.away"));
    return h("li", { class: "tseat" + (free ? " free" : "") + (s.seat === t.mine ? " me" : "") },
      h("span", { class: "who", "data-seat-name": s.seat, "data-kind": free ? "free" : s.kind }, name),
      notes.length ? h("span", { class: "kind" }, "(" + notes.join(", ") + ")") : null,
      canSit && free ? h("button", { "data-action": "sit", "data-seat": s.seat,
        onclick: busy(() => sit(t.id, s.seat)) }, T("action.sit")) : null);
  }));
  const link = location.origin + "/#table=" + encodeURIComponent(t.id);
  const actions = h("div", { class: "tactions" },
    mine && open && (owner || !t.free.length)
      ? h("button", { class: "primary", "data-action": "start", onclick: busy(() => startTable(t.id)) },
        T("action.start")) : null,
    mine && open ? h("button", { "data-action": "leave", onclick: busy(() => leave(t.id)) }, T("action.leave")) : null,
    mine && playing ? h("button", { class: "primary", "data-action": "play", onclick: busy(() => goPlay(t.id)) },
      T("action.play")) : null,
    playing ? h("a", { class: "button", "data-action": "watch", href: "/table#watch=" + encodeURIComponent(t.id) },
      T("action.watch")) : null);
  return h("article", {
    class: "tcard" + (mine ? " mine" : "") + (t.id === S.created ? " fresh" : ""),
    "data-table": t.id, "data-status": t.status, "data-mine": mine ? t.mine : null,
    "aria-label": label("rules", t.rules) + ", " + T("table.owner", { name: t.owner }),
  },
  h("div", { class: "thead" },
    h("b", { class: "trules" }, label("rules", t.rules)),
    h("span", {}, T("table.deals", { count: t.deals })),
    h("span", { class: "badge status-" + t.status, "data-status-text": "" }, label("status", t.status))),
  h("p", { class: "tmeta" },
    [T("table.owner", { name: t.owner }), T("table.level", { level: label("level", t.level) }),
      label("lang", t.lang)].concat(t.private ? [T("table.private")] : []).join(" · ")),
  seats,
  mine && open && owner && t.free.length ? h("p", { class: "note" }, T("table.fill")) : null,
  t.private && (mine || t.id === S.sharedId) ? h("p", { class: "tlink" }, T("table.link") + " ",
    h("a", { href: link, "data-link": t.id }, link),
    navigator.clipboard ? h("button", { "data-action": "copy-link", onclick: (e) => copy(link, e.currentTarget) },
      T("table.copy")) : null) : null,
  actions.childNodes.length ? actions : null,
  errorLine("table", S.tableErrors.get(t.id) || ""));
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = T("table.copied");
  } catch {
    // Nothing copied: the link is on the page to select.
  }
}

// The list, drawn again only when something in it changed (a poll every two seconds would
// otherwise take the focus from the button a keyboard is on).
function paintTables() {
  if (!S.parts.tables) return;
  setError("lobby", S.lobbyError);
  const listed = new Set(S.tables.map((t) => t.id));
  const shared = S.sharedId && !listed.has(S.sharedId) ? S.shared : null;
  const key = JSON.stringify([S.me && S.me.id, S.tables, shared, S.sharedId, S.sharedError,
    [...S.tableErrors], S.created]);
  if (key === S.painted) return;
  S.painted = key;
  const focused = document.activeElement;
  const again = focused && focused.dataset && focused.dataset.action
    ? { action: focused.dataset.action, seat: focused.dataset.seat,
      table: focused.closest("[data-table]")?.dataset.table } : null;
  // Your tables first, then the others as the server lists them (newest first).
  const sorted = [...S.tables].sort((a, b) => (b.mine !== null) - (a.mine !== null));
  S.parts.tables.replaceChildren(...(sorted.length ? sorted.map(tableCard)
    : [h("p", { class: "empty" }, T("tables.none"))]));
  if (S.sharedId && (shared || S.sharedError)) {
    S.parts.shared.replaceChildren(h("section", { class: "box", "data-panel": "shared" },
      h("h2", {}, T("tables.shared")),
      shared ? tableCard(shared) : null,
      shared && !S.me && shared.status === "open" ? h("p", { class: "note" }, T("tables.sign_to_sit")) : null,
      errorLine("shared", S.sharedError)));
  } else {
    S.parts.shared.replaceChildren();
  }
  if (again && again.table) {
    const seat = again.seat !== undefined ? `[data-seat="${again.seat}"]` : "";
    const el = app.querySelector(`[data-table="${CSS.escape(again.table)}"] [data-action="${again.action}"]${seat}`);
    if (el) el.focus();
  }
}

async function refreshTables() {
  const asked = ++S.asked;
  let tables = null;
  let error = "";
  try {
    tables = (await api("/api/tables")).tables;
  } catch (e) {
    error = e.message;
  }
  let shared = null;
  let sharedError = "";
  if (S.sharedId) {
    try {
      shared = (await api(tablePath(S.sharedId))).table;
    } catch (e) {
      sharedError = e.message;
    }
  }
  if (asked !== S.asked) return; // a later answer is on its way
  S.lobbyError = error;
  if (tables) S.tables = tables;
  S.shared = shared;
  S.sharedError = sharedError;
  if (tables) notice(tables.concat(shared ? [shared] : []));
  paintTables();
}

// A table where you sit has started (its owner pressed Start): to the table. A table of
// yours that is over: your matches and the leaderboard again.
function notice(tables) {
  const mine = new Set();
  for (const t of tables) {
    const before = S.seen.get(t.id);
    S.seen.set(t.id, t.status);
    const seated = t.mine !== null && t.mine !== undefined;
    if (seated && t.status !== "finished" && t.status !== "abandoned") mine.add(t.id);
    if (seated && t.status === "playing" && before === "open" && !S.going) goPlay(t.id);
  }
  const ended = [...S.mine].some((id) => !mine.has(id));
  S.mine = mine;
  if (ended) {
    loadHistory();
    loadBoard();
  }
}

async function tableAction(id, run) {
  S.tableErrors.delete(id);
  try {
    await run();
  } catch (error) {
    if (error.status === 401) {
      signedOut(error.message);
      return;
    }
    S.tableErrors.set(id, error.message);
  }
  await refreshTables();
}

const post = (id, what, body) => api(tablePath(id) + "/" + what, body || {});

function sit(id, seat) {
  return tableAction(id, () => post(id, "sit", seat === undefined ? {} : { seat }));
}

function leave(id) {
  return tableAction(id, () => post(id, "leave"));
}

function startTable(id) {
  return tableAction(id, async () => {
    await post(id, "start");
    S.seen.set(id, "playing");
    await goPlay(id);
  });
}

// To your seat at a table in play: its token, then the table page.
async function goPlay(id) {
  if (S.going) return;
  S.going = true;
  try {
    const answer = await post(id, "play");
    location.assign(answer.url);
  } catch (error) {
    S.going = false;
    if (error.status === 401) {
      signedOut(error.message);
      return;
    }
    S.tableErrors.set(id, error.message);
    paintTables();
  }
}

// ------------------------------------------------------------------ a new table

function createForm() {
  const o = S.options;
  const d = o.defaults || {};
  const select = (name, values, chosen, group) =>
    h("select", { name, "data-field": name },
      values.map((v) => h("option", { value: String(v), selected: v === chosen }, group ? label(group, v) : String(v))));
  const form = h("form", { class: "box create", "data-form": "create", "data-panel": "create",
    "aria-labelledby": "create-title", onsubmit: (e) => { e.preventDefault(); create(form); } },
  h("h2", { id: "create-title" }, T("create.title")),
  field(T("create.rules"), select("rules", o.rules, d.rules, "rules")),
  field(T("create.deals"), select("deals", o.lengths, d.deals)),
  field(T("create.level"), select("level", o.levels, d.level, "level")),
  field(T("create.lang"), select("lang", o.languages, d.lang, "lang")),
  field(T("create.pace"), h("input", { name: "pace", "data-field": "pace", type: "number", min: 0, max: 5,
    step: 0.1, value: d.pace ?? 0.8, inputmode: "decimal" })),
  field(T("create.private"), h("input", { name: "private", "data-field": "private", type: "checkbox",
    checked: Boolean(d.private) }), "check"),
  h("button", { type: "submit", class: "primary", "data-action": "create" }, T("create.submit")),
  h("p", { class: "note", role: "status", "data-created": "" }),
  errorLine("create"));
  return form;
}

async function create(form) {
  const get = (name) => form.querySelector(`[data-field="${name}"]`);
  const body = {
    rules: get("rules").value,
    deals: Number(get("deals").value),
    level: get("level").value,
    lang: get("lang").value,
    private: get("private").checked,
    pace: Number(get("pace").value || 0),
  };
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  setError("create", "");
  form.querySelector("[data-created]").textContent = "";
  try {
    const answer = await api("/api/tables", body);
    S.created = answer.table.id;
    S.seen.set(answer.table.id, answer.table.status);
    form.querySelector("[data-created]").textContent = T("create.done");
    await refreshTables();
    const card = app.querySelector(`[data-table="${CSS.escape(answer.table.id)}"]`);
    if (card) card.scrollIntoView({ block: "nearest" });
  } catch (error) {
    if (error.status === 401) signedOut(error.message);
    else setError("create", error.message);
  }
  button.disabled = false;
}

// ------------------------------------------------------------------ ratings

async function loadBoard() {
  if (!S.parts.board) return;
  const rules = S.board;
  let data;
  try {
    data = await api("/api/leaderboard?rules=" + encodeURIComponent(rules));
  } catch (error) {
    setError("leaderboard", error.message);
    return;
  }
  if (rules !== S.board) return;
  setError("leaderboard", "");
  const rows = data.leaderboard || [];
  S.parts.board.replaceChildren(rows.length
    ? h("div", { class: "scroll", tabindex: 0 }, h("table", { class: "leaders" },
      h("thead", {}, h("tr", {}, ["board.rank", "board.name", "board.rating", "board.matches"]
        .map((k) => h("th", { scope: "col" }, T(k))))),
      h("tbody", {}, rows.map((r, i) => h("tr", { "data-leader-row": r.name, "data-kind": r.kind,
        "data-rating": r.rating },
      h("td", {}, i + 1 + "."),
      h("td", { class: "name" }, r.kind === "computer" ? T("seat.computer", { level: label("level", r.name) }) : r.name),
      h("td", {}, rating(r.rating)),
      h("td", {}, r.matches))))))
    : h("p", { class: "empty" }, T("board.none")));
}

function when(text) {
  // The server's times are UTC; one written without its offset is read as UTC too.
  const iso = /([zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : text + "Z";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return text;
  return date.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

async function loadHistory() {
  if (!S.parts.history || !S.me) return;
  let data;
  try {
    data = await api("/api/history");
  } catch (error) {
    if (error.status === 401) signedOut(error.message);
    else setError("history", error.message);
    return;
  }
  if (!S.parts.history) return;
  setError("history", "");
  const ratings = Object.entries(data.ratings || {}).filter(([, r]) => r.matches > 0);
  const rows = data.history || [];
  S.parts.history.replaceChildren(...[
    ratings.length ? h("ul", { class: "ratings" }, ratings.map(([preset, r]) =>
      h("li", { "data-rating": preset }, T("history.rating",
        { rules: label("rules", preset), rating: rating(r.rating), count: r.matches })))) : null,
    rows.length ? h("ol", { class: "matches" }, rows.map((m) => h("li", {
      "data-history-row": m.table, "data-place": m.place,
      "data-rating-before": m.before, "data-rating-after": m.after,
    },
    h("p", { class: "mhead" }, h("b", {}, label("rules", m.rules)), " · ",
      T("table.deals", { count: m.deals }), " · ", when(m.ended)),
    h("p", {}, h("b", {}, T("history.place", { place: m.place })), " · ",
      T("history.total", { total: signed(m.total) }), " · ",
      h("span", { class: "change" + (m.after >= m.before ? " up" : " down") },
        T("history.change", { before: rating(m.before), after: rating(m.after) }),
        " (" + signed(Number((m.after - m.before).toFixed(1))) + ")")),
    h("p", { class: "players" }, m.players.flatMap((p, i) => [i ? ", " : "",
      h("span", { class: p.seat === m.seat ? "me" : "", "data-player": p.seat }, p.name + " " + signed(p.total))])))))
      : h("p", { class: "empty" }, T("history.none"))].filter(Boolean));
}

// ------------------------------------------------------------------ going

function readHash() {
  const match = /^#table=([A-Za-z0-9_-]{1,32})$/.exec(location.hash);
  S.sharedId = match ? match[1] : null;
  S.shared = null;
  S.sharedError = "";
}

function refreshAll() {
  refreshTables();
  loadBoard();
  loadHistory();
}

async function poll() {
  clearTimeout(S.timer);
  try {
    await refreshTables();
  } finally {
    S.timer = setTimeout(poll, document.hidden ? HIDDEN_POLL_MS : POLL_MS);
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && S.options) poll();
});

async function main() {
  try {
    S.options = await api("/api/me?lang=" + encodeURIComponent(askedLanguage()));
  } catch (error) {
    app.replaceChildren(h("div", { class: "online" }, h("h1", {}, "3-5-8"), errorLine("app", error.message),
      h("button", { "data-action": "retry", onclick: main }, T("app.retry"))));
    return;
  }
  lang = S.options.lang;
  words = S.options.texts;
  document.documentElement.lang = lang;
  document.title = T("app.title");
  S.me = S.options.person;
  S.csrf = S.options.csrf || "";
  if (S.options.defaults && S.options.defaults.rules) S.board = S.options.defaults.rules;
  readHash();
  draw();
  loadBoard();
  loadHistory();
  poll();
}

window.addEventListener("hashchange", () => {
  readHash();
  refreshTables();
});
// Back from a table (the browser's back button keeps the page): the lobby as it is now.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) {
    S.going = false;
    refreshAll();
  }
});

main();
