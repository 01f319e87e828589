// The page's Query tab: a PQL statement (ProPokerTools' Poker Query Language) sent to
// POST /api/pql; the answer is a table of its selectors and a bar chart per histogram
// (drawn by app.js's drawBars, as the hand-type bars are).  Loaded after app.js, whose
// helpers ($, el, toJSON, drawBars, COLORS, count) it uses; app.js's start() calls
// startQuery().  The query lives in the URL (?view=query&q=...), like a spot.
"use strict";

const EXAMPLES = [
  ["Omaha Hi/Lo: how often A2** is quartered with the nut low",
   "select count(tiesLo(hero)) as quartered\nfrom game='omaha8', hero='A2**', villain1='15%', villain2='15%'\n" +
   "where nutLo(hero, river) and not (winsHi(hero) or tiesHi(hero))"],
  ["Omaha Hi/Lo: average equity of A2** against a 15% range",
   "select avg(riverEquity(hero)) as heroEquity\nfrom game='omaha8', hero='A2**', villain='15%'"],
  ["Stud Hi/Lo: the pot shares of AsKs2c against QhQd5s (histogram)",
   "select histogram(fractionalRiverEquity(hero))\nfrom game='stud8', hero='AsKs2c', villain='QhQd5s'"],
  ["Hold'em, exact: AhAs against KhKs on 2c3d4s",
   "select avg(riverEquity(hero)) as heroEquity, count(winsHi(hero)) as heroWins\n" +
   "from game='holdem', hero='AhAs', villain='KhKs', board='2c3d4s'"],
  ["Stud: the winning hand types of three random hands (histogram)",
   "select histogram(winningHandType())\nfrom game='studhi', p1='*', p2='*', p3='*'"],
];

const queryState = { controller: null, timer: null };

function percent4(x) { return `${(100 * x).toFixed(4)}%`; }

// ---------------------------------------------------------------- the request

function queryRequest() {
  const body = { query: $("query").value.trim() };
  const mode = $("query-mode").value;
  if (mode === "exact") body.exact = true;
  if (mode === "trials") {
    body.exact = false;
    body.trials = Number($("query-trials").value.replace(/[_,\s]/g, "")) || 600000;
  }
  if ($("query-seed").value.trim()) body.seed = $("query-seed").value.trim();  // digits: see toJSON
  return body;
}

function queryLink() {
  const q = new URLSearchParams({ view: "query", q: $("query").value.trim() });
  const mode = $("query-mode").value;
  if (mode === "exact") q.set("exact", "1");
  if (mode === "trials" && $("query-trials").value.trim()) q.set("trials", $("query-trials").value.trim());
  if ($("query-seed").value.trim()) q.set("seed", $("query-seed").value.trim());
  return `/?${q.toString()}`;
}

function loadQueryFromURL(q) {
  $("query").value = q.get("q") || "";
  $("query-mode").value = q.get("exact") === "1" ? "exact" : q.get("trials") ? "trials" : "auto";
  $("query-trials").value = q.get("trials") || "";
  $("query-trials").hidden = $("query-mode").value !== "trials";
  $("query-seed").value = q.get("seed") || "";
  showView("query");
  if ($("query").value) runQuery();
}

// ---------------------------------------------------------------- running

function setQueryRunning(running) {
  $("query-run").disabled = running;
  $("query-cancel").disabled = !running;
  clearInterval(queryState.timer);
  queryState.timer = null;
  if (running) {
    const started = performance.now();
    const tick = () => { $("query-status").textContent = `running\u2026 ${((performance.now() - started) / 1000).toFixed(0)} s`; };
    tick();
    queryState.timer = setInterval(tick, 500);
  }
}

async function runQuery(event) {
  if (event) event.preventDefault();
  if (queryState.controller) queryState.controller.abort();
  $("query-error").textContent = "";
  $("query").classList.remove("invalid");
  updateLinks();
  $("query-result").replaceChildren();
  $("query-charts").replaceChildren();
  const controller = new AbortController();
  queryState.controller = controller;
  setQueryRunning(true);
  try {
    const response = await fetch("/api/pql", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: toJSON(queryRequest()), signal: controller.signal,
    });
    const text = await response.text();
    let data;
    try { data = JSON.parse(text); } catch (e) { data = { error: `server answered ${response.status}` }; }
    if (!response.ok) {
      $("query-error").textContent = data.error || `server answered ${response.status}`;
      if (data.field === "query" || !data.field) $("query").classList.add("invalid");
      $("query-status").textContent = "";
      return;
    }
    const seed = text.match(/"seed":(\d+)/);  // a 63-bit seed does not fit a JS number
    if (seed) data.seed = seed[1];
    renderQuery(data);
    $("query-status").textContent = "";
  } catch (error) {
    if (queryState.controller !== controller) return;  // a newer run took its place
    $("query-status").textContent = error.name === "AbortError"
      ? "cancelled: the server stopped the query" : `could not reach the server: ${error.message}`;
  } finally {
    if (queryState.controller === controller) { queryState.controller = null; setQueryRunning(false); }
  }
}

function cancelQuery() { if (queryState.controller) queryState.controller.abort(); }

// ---------------------------------------------------------------- the answer

// A selector's value as `pokereval pql` prints it: a count as a percentage, an average
// (max, min) to 4 places with its exact fraction when there is one.
function columnValue(c) {
  if (c.selector === "histogram") return `${c.buckets.length} buckets (chart below)`;
  if (c.selector === "count") return percent4(c.value);
  const text = typeof c.value === "number" ? c.value.toFixed(4) : String(c.value);
  return c.fraction && c.fraction.includes("/") ? `${text} (${c.fraction})` : text;
}

function columnError(c, exact) {
  if (exact) return "exact";
  if (c.selector === "histogram" || c.selector === "max" || c.selector === "min") return "-";
  return c.selector === "count" ? percent4(c.std_error) : c.std_error.toFixed(4);
}

// The line under the table: trials, how, and how often `where` held.
function queryFooter(r) {
  const notes = [r.exact ? "exact, every deal" : `seed ${r.seed}`];
  if (r.dealt && r.trials !== r.dealt) notes.push(`where held in ${percent4(r.acceptance)} of ${count(r.dealt)} dealt`);
  if (r.stopped) notes.push(`stopped: ${r.stopped}`);
  else if (r.partial) notes.push("partial: interrupted");
  return `${count(r.trials)} trials (${notes.join("; ")}) in ${r.elapsed.toFixed(2)} s`;
}

function renderQuery(r) {
  const table = el("table", { id: "query-table" });
  table.append(el("caption", { text: state.byName[r.game] ? state.byName[r.game].title : r.game }));
  const head = el("tr");
  for (const label of ["Name", "Selector", "Value", "Std error", "Count"]) head.append(el("th", { text: label }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const c of r.columns) {
    body.append(el("tr", {},
      el("td", { "data-field": "name", text: c.name }),
      el("td", { "data-field": "selector", text: c.selector }),
      el("td", { "data-field": "value", text: columnValue(c) }),
      el("td", { "data-field": "std_error", text: columnError(c, r.exact) }),
      el("td", { "data-field": "count", text: c.selector === "count" ? count(c.count) : "-" })));
  }
  table.append(body);
  const footer = el("p", { id: "query-footer", class: "how", text: queryFooter(r) });
  $("query-result").className = r.partial ? "partial" : "";
  $("query-result").replaceChildren(table, footer);
  const charts = r.columns.filter((c) => c.selector === "histogram").map((c, i) =>
    drawBars(c.name, c.buckets.map((b) => ({ label: b.bucket, fraction: b.fraction })),
             COLORS[i % COLORS.length],
             { parts: [["fraction", 1]], rowH: c.buckets.length > 30 ? 12 : 18,
               note: `% of ${count(r.trials)} trials` }));
  $("query-charts").replaceChildren(...charts);
}

// ---------------------------------------------------------------- start-up

function startQuery() {
  const picker = $("query-example");
  EXAMPLES.forEach(([label], i) => picker.append(el("option", { value: String(i), text: label })));
  picker.addEventListener("change", () => {
    if (picker.value === "") return;
    $("query").value = EXAMPLES[Number(picker.value)][1];
    picker.value = "";
    $("query").focus();
    updateLinks();
  });
  $("query-form").addEventListener("submit", runQuery);
  $("query-cancel").addEventListener("click", cancelQuery);
  $("query-mode").addEventListener("change", () => { $("query-trials").hidden = $("query-mode").value !== "trials"; });
  $("query").addEventListener("keydown", (e) => {  // Ctrl-Enter runs, as in a query editor
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) runQuery(e);
  });
  $("tab-query").addEventListener("click", () => { showView("query"); updateLinks(); });
}
