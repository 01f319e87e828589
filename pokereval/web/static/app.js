// The pokereval calculator page: plain JavaScript, no libraries, talks to /api/*.
// The spot lives in the URL (?game=omaha-hilo&h=AhAd2c3s&h=KK**&board=7c8d9h), so a
// link reproduces it; a URL with two or more hands runs as soon as the page loads.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#1f6feb", "#d1495b", "#2a9d5c", "#e09f1f", "#7b4fd6", "#00a6b4",
                "#8c564b", "#e377c2", "#6b7280", "#17becf"];
const ORDERED = new Set(["holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo"]);

const state = {
  games: [], byName: {}, health: null, features: {}, maxPlayers: {}, table: {},
  controller: null, lastField: null, lastResult: null,
};

// ---------------------------------------------------------------- helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function finite(x) { return typeof x === "number" && isFinite(x); }
function cell(x) { return finite(x) ? (100 * x).toFixed(2) : "-"; }
function count(n) { return Number(n).toLocaleString("en-US"); }

// JSON text of a request; a seed typed as digits goes as a number, whole (seeds reach
// 2**63, beyond what a JS number holds exactly).
function toJSON(body) {
  return JSON.stringify(body).replace(/"seed":"(\d+)"/, '"seed":$1');
}

async function postJSON(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: toJSON(body), signal,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `server answered ${response.status}` }; }
  return { ok: response.ok, status: response.status, data };
}

// ---------------------------------------------------------------- players

function game() { return state.byName[$("game").value]; }
function maxPlayers() { return state.maxPlayers[$("game").value] || 10; }

function playerInputs() { return Array.from(document.querySelectorAll("#players input")); }

function addPlayer(value = "") {
  const list = $("players");
  const n = list.children.length + 1;
  const id = `h${n}`;
  const input = el("input", { id, name: "h", class: "cards hand", spellcheck: "false",
                              placeholder: n === 1 ? "hand, e.g. AhAd2c3s" : "hand or range, e.g. KK** or AA**:$ds" });
  input.value = value;
  const remove = el("button", { type: "button", class: "remove", title: "remove this player",
                                "aria-label": `remove player ${n}` }, "\u00d7");
  remove.addEventListener("click", () => removePlayer(row));
  const row = el("div", { class: "row player" },
    el("label", { for: id, text: `Player ${n}` }), input, remove,
    el("span", { class: "pct", id: `${id}-pct` }),
    el("div", { class: "field-error", id: `${id}-error` }));
  list.append(row);
  watchField(input);
  input.addEventListener("change", () => updatePercentile(input));
  updatePlayerButtons();
  return input;
}

function removePlayer(row) {
  const values = playerInputs().map((i) => i.value);
  const index = Array.from($("players").children).indexOf(row);
  values.splice(index, 1);
  setPlayers(values);
}

function setPlayers(values) {
  $("players").replaceChildren();
  for (const v of values) addPlayer(v);
  while ($("players").children.length < 2) addPlayer("");
  updatePlayerButtons();
  playerInputs().forEach(updatePercentile);
}

function updatePlayerButtons() {
  const n = $("players").children.length, most = maxPlayers();
  $("add-player").disabled = n >= most;
  $("player-limit").textContent = `${n} of at most ${most} players`;
  for (const b of document.querySelectorAll("#players .remove")) b.disabled = n <= 2;
}

// ---------------------------------------------------------------- errors

function clearErrors(scope) {
  for (const node of scope.querySelectorAll(".invalid")) {
    node.classList.remove("invalid");
    node.removeAttribute("aria-invalid");
  }
  for (const node of scope.querySelectorAll(".field-error, .form-error")) node.textContent = "";
}

// The input an error is about, from the engine error's own field and player (as the
// server passes them on): "player" + 1 -> h2; "board", "dead", "game", "hole" as named.
function errorInput(data) {
  if (data.field === "player") return Number.isInteger(data.player) ? `h${data.player + 1}` : null;
  return data.field || null;
}

// Marks the input an error is about with the message (else the form's own line shows it).
function showError(scope, data, fieldIds, generalId) {
  const message = data.error || "error";
  const name = errorInput(data);
  const input = name && $(fieldIds[name] || name);
  const box = input && scope.contains(input) && $(`${input.id}-error`);
  if (box) {
    input.classList.add("invalid");
    input.setAttribute("aria-invalid", "true");
    box.textContent = message;
  } else {
    $(generalId).textContent = message;
  }
}

// ---------------------------------------------------------------- the URL

function spotQuery() {
  const q = new URLSearchParams();
  q.set("game", $("game").value);
  for (const input of playerInputs()) q.append("h", input.value.trim());
  if ($("board").value.trim()) q.set("board", $("board").value.trim());
  if ($("dead").value.trim()) q.set("dead", $("dead").value.trim());
  const mode = $("mode").value;
  if (mode === "exact") q.set("exact", "1");
  if (mode === "samples" && $("samples").value.trim()) q.set("samples", $("samples").value.trim());
  if ($("seed").value.trim()) q.set("seed", $("seed").value.trim());
  return q;
}

function evalQuery() {
  const q = new URLSearchParams({ view: "eval", game: $("eval-game").value, hole: $("hole").value.trim() });
  if ($("eval-board").value.trim()) q.set("board", $("eval-board").value.trim());
  return q;
}

function updateLinks() {
  const spot = `/?${spotQuery().toString()}`;
  $("share").href = spot;
  const hand = `/?${evalQuery().toString()}`;
  $("eval-share").href = hand;
  const query = queryLink();  // query.js
  $("query-share").href = query;
  history.replaceState(null, "", { equity: spot, eval: hand, query }[currentView()]);
}

function loadFromURL() {
  const q = new URLSearchParams(location.search);
  if (q.get("view") === "query") { loadQueryFromURL(q); return; }  // query.js
  const name = q.get("game");
  const known = name && state.byName[name] ? name : aliasOf(name);
  if (q.get("view") === "eval") {
    if (known) $("eval-game").value = known;
    $("hole").value = q.get("hole") || "";
    $("eval-board").value = q.get("board") || "";
    showView("eval");
    if ($("hole").value) evaluate();
    return;
  }
  showView("equity");
  if (known) $("game").value = known;
  $("board").value = q.get("board") || "";
  $("dead").value = q.get("dead") || "";
  if (q.get("exact") === "1") $("mode").value = "exact";
  if (q.get("samples")) { $("mode").value = "samples"; $("samples").value = q.get("samples"); }
  $("samples").hidden = $("mode").value !== "samples";
  $("seed").value = q.get("seed") || "";
  const hands = q.getAll("h");
  setPlayers(hands.length ? hands.slice(0, maxPlayers()) : ["", ""]);
  if (hands.length >= 2) run();
}

function aliasOf(name) {
  if (!name) return null;
  const key = name.toLowerCase().replace(/[_ ]/g, "-");
  const g = state.games.find((g) => g.name === key || (g.aliases || []).includes(key));
  return g ? g.name : null;
}

// ---------------------------------------------------------------- equity

function equityRequest() {
  const body = { game: $("game").value, hands: playerInputs().map((i) => i.value.trim()),
                 board: $("board").value.trim(), dead: $("dead").value.trim() };
  const mode = $("mode").value;
  if (mode === "exact") body.exact = true;
  if (mode === "samples") body.samples = Number($("samples").value.replace(/[_,\s]/g, "")) || 1000000;
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();  // digits: see toJSON
  return body;
}

async function run(event) {
  if (event) event.preventDefault();
  if (state.controller) state.controller.abort();
  clearErrors($("equity-form"));
  updateLinks();
  for (const id of ["result", "breakdown", "graph"]) $(id).replaceChildren();  // of the last spot
  const controller = new AbortController();
  state.controller = controller;
  setRunning(true, "starting\u2026");
  let final = false;
  try {
    const response = await fetch("/api/equity/stream", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: toJSON(equityRequest()), signal: controller.signal,
    });
    if (!response.ok) {
      let data;
      try { data = await response.json(); } catch (e) { data = { error: `server answered ${response.status}` }; }
      showError($("equity-form"), data, {}, "form-error");
      $("result").replaceChildren();
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, cut).trim();
        buffer = buffer.slice(cut + 1);
        if (!line) continue;
        const message = JSON.parse(line);
        // a 63-bit seed does not fit a JS number: keep its digits as written
        const seed = line.match(/"seed":(\d+)/);
        if (seed && message.result) message.result.seed = seed[1];
        if (message.event === "progress") {
          renderEquity(message);
          showProgress(message.result, message.fraction_done);
        } else if (message.event === "result") {
          final = true;
          renderEquity(message);
          if (state.features.breakdown) runBreakdown();
          state.lastResult = message.result;
          setStatus("");
        } else if (message.event === "error") {
          final = true;
          showError($("equity-form"), message, {}, "form-error");
          setStatus("");
        }
      }
    }
    if (!final) setStatus("the connection ended before the answer came");
  } catch (error) {
    if (error.name === "AbortError") {
      if (state.controller === controller) {
        setStatus("cancelled: the figures shown are partial");
        markCancelled();
      }
    } else {
      setStatus(`could not reach the server: ${error.message}`);
    }
  } finally {
    if (state.controller === controller) { state.controller = null; setRunning(false); }
  }
}

function cancel() { if (state.controller) state.controller.abort(); }

function setRunning(running, text) {
  $("run").disabled = running;
  $("cancel").disabled = !running;
  const bar = $("progress");
  bar.hidden = !running;
  if (running) { bar.removeAttribute("value"); setStatus(text || ""); }
}

function setStatus(text) { $("progress-text").textContent = text; }

function showProgress(r, fraction) {
  const bar = $("progress");
  if (finite(fraction)) bar.value = fraction; else bar.removeAttribute("value");
  if (r.exact) setStatus(`walking run-outs: ${count(r.samples)} so far`);
  else {
    const worst = worstStderr(r);
    setStatus(`sampling: ${count(r.samples)} run-outs` + (worst !== null ? `, \u00b1${(100 * worst).toFixed(3)}%` : ""));
  }
}

function worstStderr(r) {
  const errors = r.players.map((p) => p.std_error).filter(finite);
  return errors.length ? Math.max(...errors) : null;
}

// The table is drawn from the server's spec (GET /api/spec: the CLI's columns), and
// the legend and footer come with each answer: the page and the CLI agree by construction.
function renderEquity({ result: r, legend, footer }) {
  const g = state.byName[r.game];
  const cols = state.table[r.game].columns;
  const table = el("table", { id: "equity-table" });
  let title = g.title;
  if (r.board) title += `  board ${r.board}`;
  if (r.dead) title += `  dead ${r.dead}`;
  table.append(el("caption", { text: title }));
  const head = el("tr");
  for (const { label } of cols) head.append(el("th", { text: label }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  r.players.forEach((p, i) => {
    const row = el("tr", { "data-player": String(i) });
    for (const { key } of cols) {
      if (key === "hand") { row.append(el("td", { class: "hand", text: p.hand })); continue; }
      let text = cell(p[key]);
      if (key === "equity" && !r.exact && finite(p.std_error) && finite(p.equity)) {
        text += ` \u00b1${(100 * p.std_error).toFixed(2)}`;
      }
      row.append(el("td", key === "equity" ? { class: "equity", "data-field": key } : { "data-field": key },
                    text));
    }
    body.append(row);
  });
  table.append(body);
  const box = $("result");
  box.className = r.partial ? "partial" : "";
  box.replaceChildren(table, el("div", { class: "legend", id: "legend", text: legend }),
                      el("div", { class: "how", id: "how", text: footer }));
}

function markCancelled() {
  const footer = $("how");
  // the footer of figures still coming says "PARTIAL:"; Cancel gives it its reason
  if (footer) footer.textContent = footer.textContent.replace(/^(PARTIAL: )?/, "PARTIAL (cancelled): ");
  $("result").className = "partial";
}

// ---------------------------------------------------------------- percentile

async function updatePercentile(input) {
  const box = $(`${input.id}-pct`);
  if (!box) return;
  box.textContent = "";
  const gameName = input.id === "hole" ? $("eval-game").value : $("game").value;
  const g = state.byName[gameName];
  const cards = input.value.replace(/[\s,]/g, "");
  if (!state.features.percentile || !g || !ORDERED.has(g.name)) return;
  if (!/^([2-9TJQKA]|10)[cdhs]/i.test(cards) || cards.match(/([2-9TJQKA]|10)[cdhs]/gi).join("").length !== cards.length) return;
  if (cards.match(/([2-9TJQKA]|10)[cdhs]/gi).length !== g.hole) return;
  const { ok, data } = await postJSON("/api/percentile", { game: g.name, hand: cards });
  // pe.percentile follows ProPokerTools: the share of combos ranked at or below the hand
  // (the best class is 1.0), so the share of hands above it, its "top", is 1 - percentile
  if (ok && finite(data.percentile)) box.textContent = `top ${(100 * (1 - data.percentile)).toFixed(1)}% of hands`;
}

// ---------------------------------------------------------------- graph (next street)

async function runGraph() {
  $("graph").replaceChildren(el("span", { class: "hint", text: "computing the next street\u2026" }));
  const body = equityRequest();
  delete body.breakdown;
  const { ok, data } = await postJSON("/api/graph", body);
  if (!ok) { $("graph").replaceChildren(el("span", { class: "form-error", text: data.error })); return; }
  drawCurves(data);
}

// The next-street equity curve of each player: x = share of the deals, y = equity.
function drawCurves(data) {
  const W = 520, H = 300, L = 44, R = 12, T = 24, B = 36;
  const chart = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
                             "aria-label": "equity on the next street" });
  const x = (f) => L + f * (W - L - R), y = (e) => H - B - e * (H - T - B);
  for (let t = 0; t <= 4; t++) {
    chart.append(svg("line", { class: "grid", x1: L, x2: W - R, y1: y(t / 4), y2: y(t / 4), stroke: "#e6e9ee" }));
    chart.append(svg("text", { x: L - 6, y: y(t / 4) + 4, "text-anchor": "end" }, `${t * 25}%`));
    chart.append(svg("text", { x: x(t / 4), y: H - B + 16, "text-anchor": "middle" }, `${t * 25}%`));
  }
  chart.append(svg("text", { x: L + (W - L - R) / 2, y: H - 4, "text-anchor": "middle" },
                   "share of next-street deals (sorted by equity)"));
  chart.append(svg("text", { x: L, y: 14 }, "equity on the next street"));
  (data.players || []).forEach((p, i) => {
    let cum = 0, points = [];
    for (const [equity, weight] of p.curve || []) {
      points.push(`${x(cum).toFixed(1)},${y(equity).toFixed(1)}`);
      cum += weight;
      points.push(`${x(cum).toFixed(1)},${y(equity).toFixed(1)}`);
    }
    chart.append(svg("polyline", { points: points.join(" "), fill: "none",
                                   stroke: COLORS[i % COLORS.length], "stroke-width": 2 }));
    chart.append(svg("text", { x: W - R - 4, y: T + 14 * i + 4, "text-anchor": "end",
                               fill: COLORS[i % COLORS.length] },
                     `${p.hand}: ${cell(p.equity)}%`));
  });
  $("graph").replaceChildren(chart);
}

// ---------------------------------------------------------------- breakdown (hand types)

// Reads a player's breakdown ({section: {label: {won, tied, lost}}} or
// {section: [{category|label|name, won, tied, lost}]}) into rows to draw.
function breakdownSections(b) {
  const sections = [];
  for (const [title, value] of Object.entries(b || {})) {
    const entries = Array.isArray(value)
      ? value.map((item, i) => [item.category ?? item.label ?? item.name ?? item.low ?? String(i), item])
      : (value && typeof value === "object" ? Object.entries(value) : []);
    const rows = entries.filter(([, v]) => v && typeof v === "object")
      .map(([label, v]) => ({ label, won: +v.won || 0, tied: +v.tied || 0, lost: +v.lost || 0 }))
      .filter((r) => r.won + r.tied + r.lost > 0);
    if (rows.length) sections.push({ title, rows });
  }
  return sections;
}

// The hand-type bars come from a request of their own: a breakdown of a range spot is
// sampled, and it must not turn the table's exact answer into a sampled one.
async function runBreakdown() {
  const body = equityRequest();
  body.breakdown = true;
  const { ok, data } = await postJSON("/api/equity", body);
  if (ok) renderBreakdown(data);
}

function renderBreakdown(r) {
  const box = $("breakdown");
  box.replaceChildren();
  if (!state.features.breakdown) return;
  r.players.forEach((p, i) => {
    for (const section of breakdownSections(p.breakdown)) {
      box.append(drawBars(`${p.hand}: ${section.title}`, section.rows, COLORS[i % COLORS.length]));
    }
  });
}

const OUTCOME_PARTS = [["won", 1], ["tied", 0.55], ["lost", 0.2]];
const OUTCOME_NOTE = "dark: won, mid: tied, light: lost (% of run-outs)";

// Horizontal bars, one row per {label, ...parts}: each row's parts stacked in shades of
// `color`, its total written at the end (hand-type bars; the Query tab's histograms).
function drawBars(title, rows, color, { parts = OUTCOME_PARTS, note = OUTCOME_NOTE, rowH = 18 } = {}) {
  const W = 360, L = 110, T = 22, H = T + rows.length * rowH + 22;
  const total = (r) => parts.reduce((sum, [part]) => sum + r[part], 0);
  const most = Math.max(...rows.map(total)) || 1;
  const chart = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  chart.append(svg("text", { x: 6, y: 14 }, title));
  const scale = (v) => (v / most) * (W - L - 60);
  rows.forEach((r, k) => {
    const yy = T + k * rowH;
    chart.append(svg("text", { x: L - 6, y: yy + rowH - 6, "text-anchor": "end" }, String(r.label)));
    let xx = L;
    for (const [part, shade] of parts) {
      const w = scale(r[part]);
      chart.append(svg("rect", { x: xx, y: yy + 2, width: Math.max(w, 0), height: rowH - 5,
                                 fill: color, "fill-opacity": shade }));
      xx += w;
    }
    chart.append(svg("text", { x: xx + 4, y: yy + rowH - 6 }, cell(total(r))));
  });
  chart.append(svg("text", { x: L, y: H - 6 }, note));
  return chart;
}

// ---------------------------------------------------------------- evaluator

async function evaluate(event) {
  if (event) event.preventDefault();
  clearErrors($("eval-form"));
  updateLinks();
  const { ok, data } = await postJSON("/api/evaluate", {
    game: $("eval-game").value, hole: $("hole").value.trim(), board: $("eval-board").value.trim() });
  if (!ok) {
    showError($("eval-form"), data, { game: "eval-game", board: "eval-board" }, "eval-form-error");
    $("eval-result").replaceChildren();
    return;
  }
  const g = state.byName[data.game];
  const table = el("table", { id: "eval-table" });
  if (g.high) table.append(el("tr", {}, el("th", { text: "High" }), el("td", { text: data.high.name }),
                                         el("td", { class: "cards", text: data.high.cards })));
  if (g.low) table.append(el("tr", {}, el("th", { text: "Low" }),
                             el("td", { text: data.low ? data.low.name : "no qualifying low" }),
                             el("td", { class: "cards", text: data.low ? data.low.cards : "" })));
  $("eval-result").replaceChildren(table);
  updatePercentile($("hole"));
}

// ---------------------------------------------------------------- card picker

function buildPicker() {
  const suits = [["s", "\u2660"], ["h", "\u2665"], ["d", "\u2666"], ["c", "\u2663"]];
  for (const [suit, symbol] of suits) {
    for (const rank of "AKQJT98765432") {
      const b = el("button", { type: "button", class: suit, "data-card": rank + suit,
                               title: rank + suit, text: rank + symbol });
      b.addEventListener("mousedown", (e) => e.preventDefault());  // keep the field's focus
      b.addEventListener("click", () => pick(rank + suit));
      $("picker").append(b);
    }
  }
}

function watchField(input) {
  input.addEventListener("focus", () => {
    if (state.lastField) state.lastField.classList.remove("focused");
    state.lastField = input;
    input.classList.add("focused");
  });
  input.addEventListener("input", markUsed);
}

function pick(card) {
  const input = state.lastField && document.body.contains(state.lastField) ? state.lastField : playerInputs()[0];
  input.value += card;
  input.focus();
  markUsed();
}

function markUsed() {
  const used = new Set();
  for (const input of document.querySelectorAll("#equity-form input.cards")) {
    for (const m of input.value.matchAll(/([2-9TJQKA])([cdhs])/gi)) used.add(m[1].toUpperCase() + m[2].toLowerCase());
  }
  for (const b of document.querySelectorAll("#picker button")) b.classList.toggle("used", used.has(b.dataset.card));
}

// ---------------------------------------------------------------- views and start-up

const VIEWS = ["equity", "eval", "query"];

function showView(view) {
  for (const v of VIEWS) {
    const on = v === view;
    $(`${v}-view`).hidden = !on;
    $(`tab-${v}`).classList.toggle("active", on);
    $(`tab-${v}`).setAttribute("aria-pressed", String(on));
  }
  $("picker-box").hidden = view !== "equity";
}

function currentView() { return VIEWS.find((v) => !$(`${v}-view`).hidden) || "equity"; }

async function start() {
  const [games, health, spec] = await Promise.all(
    ["/api/games", "/api/health", "/api/spec"].map((path) => fetch(path).then((r) => r.json())));
  state.games = games;
  state.table = spec.equity_table;
  for (const g of games) state.byName[g.name] = g;
  state.health = health;
  state.features = health.features || {};
  state.maxPlayers = health.max_players || {};
  for (const select of [$("game"), $("eval-game")]) {
    for (const g of games) select.append(el("option", { value: g.name, text: g.title }));
  }
  $("game").value = "omaha-hilo";
  $("eval-game").value = "omaha-hilo";
  $("version").textContent = `pokereval ${health.version}`;
  $("graph-box").hidden = !state.features.graph;
  buildPicker();
  for (const id of ["board", "dead", "hole", "eval-board"]) watchField($(id));
  $("equity-form").addEventListener("submit", run);
  $("cancel").addEventListener("click", cancel);
  $("add-player").addEventListener("click", () => { if (playerInputs().length < maxPlayers()) addPlayer("").focus(); });
  $("game").addEventListener("change", () => {
    const values = playerInputs().map((i) => i.value);
    setPlayers(values.slice(0, Math.max(2, maxPlayers())));
  });
  $("mode").addEventListener("change", () => { $("samples").hidden = $("mode").value !== "samples"; });
  $("graph-run").addEventListener("click", runGraph);
  $("eval-form").addEventListener("submit", evaluate);
  $("hole").addEventListener("change", () => updatePercentile($("hole")));
  $("tab-equity").addEventListener("click", () => { showView("equity"); updateLinks(); });
  $("tab-eval").addEventListener("click", () => { showView("eval"); updateLinks(); });
  startQuery();  // query.js: the Query tab
  window.addEventListener("popstate", loadFromURL);
  loadFromURL();
  document.body.dataset.ready = "1";  // for scripted browsers
}

document.addEventListener("DOMContentLoaded", start);
