// The statistics page: the histogram plot, the share of count draws per
// rule profile and the longest wins of one material.
"use strict";

const $ = (id) => document.getElementById(id);

// The built-in profiles first, in this order; others after them.
const RULES_ORDER = ["thai", "thai-strong", "thai-plain", "thai-halfmove", "cambodian", "asean", "none"];

// n with thousands separators: 10,780,728.
function num(n) { return n.toLocaleString("en-US"); }

const PIECE_NAMES = { K: "king (Khun)", M: "Met", S: "Khon", N: "knight (Ma)", R: "rook (Ruea)", Q: "ferz", B: "alfil" };
// The game, from the address: "shatranj" (no count, no heat map yet) or
// Makruk's "".
const game = new URL(location.href).searchParams.get("game") === "shatranj" ? "shatranj" : "";
const gameQuery = game ? `?game=${game}` : "";
const state = { material: "" };

function plural(n, one, many) { return `${num(n)} ${n === 1 ? one : many}`; }

async function show(material) {
  // The first count of a material reads its tables whole (a five-piece one
  // takes from seconds to a minute; the server keeps the answer): say so,
  // with the time so far, rather than leave the page still.
  const started = Date.now();
  let under = ""; // what the server is computing, when it takes a while
  const tell = () => {
    const s = Math.round((Date.now() - started) / 1000);
    $("status").textContent = `Counting ${material} over the full board… ${s} s` +
      (s >= 3 ? " (the first count of a material reads its tables whole: a five-piece one can take a minute; later ones are instant)" : "") + under;
  };
  // Every second: the clock, and (from the third) the server's list of
  // computations, where a large table may be waiting behind another.
  const poll = async () => {
    tell();
    if (Date.now() - started < 2500) return;
    try {
      const r = await fetch("api/v1/work");
      const work = (await r.json()).work || [];
      under = work.length ? ". Under way on the server: " + work.map((w) => `${w.what} (${w.state} ${Math.round(w.seconds)} s)`).join(", ") : "";
    } catch {
      under = "";
    }
  };
  tell();
  const ticker = setInterval(poll, 1000);
  $("result").hidden = true;
  let r, st;
  try {
    r = await fetch(`api/v1/stats/${encodeURIComponent(material)}${gameQuery}`);
    st = await r.json();
  } catch (e) {
    $("status").textContent = `No answer from the server: ${e.message}`;
    return;
  } finally {
    clearInterval(ticker);
  }
  if (!r.ok) {
    $("status").textContent = st.error || `HTTP ${r.status}`;
    return;
  }
  $("status").textContent = "";
  $("plot").src = `api/v1/stats/${encodeURIComponent(material)}/plot.svg${gameQuery}`;
  for (const e of document.querySelectorAll(".makruk")) e.hidden = game !== "";
  // Where a profile's board's-honour table is missing, the wins and losses
  // it would judge are unknown, not zero: a column says how many, and the
  // note below which files would tell.
  const order = (r) => (RULES_ORDER.includes(r) ? RULES_ORDER.indexOf(r) : RULES_ORDER.length);
  const profiles = Object.keys(st.count || {}).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const unknown = (rules) => st.count[rules].w.unknown + st.count[rules].b.unknown > 0;
  const missing = profiles.filter(unknown);
  const rows = [`<tr><th>rules</th><th>to move</th><th>win</th><th>cursed-win</th><th>draw</th><th>blessed-loss</th><th>loss</th>` +
    (missing.length ? "<th>unknown</th>" : "") + `<th>count-draws</th></tr>`];
  for (const rules of profiles) {
    const sides = st.count[rules];
    for (const side of ["w", "b"]) {
      const c = sides[side];
      const wins = c.win + c["cursed-win"];
      let share = wins ? (100 * c["cursed-win"] / wins).toFixed(1) + "%" : "–";
      if (unknown(rules)) share = "unknown";
      rows.push(`<tr><td>${rules}</td><td>${side === "w" ? "White" : "Black"}</td><td>${num(c.win)}</td><td>${num(c["cursed-win"])}</td><td>${num(c.draw)}</td><td>${num(c["blessed-loss"])}</td><td>${num(c.loss)}</td>` +
        (missing.length ? `<td>${num(c.unknown)}</td>` : "") + `<td>${share}</td></tr>`);
    }
  }
  $("count-unknown").hidden = !missing.length;
  $("count-unknown").textContent = missing.length
    ? `Unknown: wins and losses only a board's-honour table can judge under the count, and the directory lacks it: ${missing.map((r) => `${st.material}.${r}.mtbb`).join(", ")} (makruktb gen --dtb ${missing.join(",")} ${st.material} makes ${missing.length === 1 ? "it" : "them"}).`
    : "";
  $("count-table").innerHTML = rows.join("");
  $("longest").innerHTML = "";
  for (const l of st.longest || []) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `./?fen=${encodeURIComponent(l.fen)}` + (game ? `&game=${game}` : "");
    a.textContent = l.fen;
    // A longest win is the side to move's.
    const winner = l.fen.split(" ")[1] === "w" ? "White" : "Black";
    li.append(a, `: ${winner} to move mates in ${plural(Math.ceil(l.dtm / 2), "move", "moves")} (${plural(l.dtm, "ply", "plies")})`);
    $("longest").appendChild(li);
  }
  // The heat map's pieces: each kind of the material, the defending king first.
  const [white, black] = st.material.split("v");
  const pieces = ["k", ...new Set([...white].concat([...black].map((c) => c.toLowerCase())))].filter((p, i, a) => a.indexOf(p) === i);
  $("heat-piece").innerHTML = pieces.map((p) => `<option value="${p}">${p === p.toUpperCase() ? "White" : "Black"} ${PIECE_NAMES[p.toUpperCase()] || p}</option>`).join("");
  state.material = material;
  if (!game) showHeat();
  $("result").hidden = false;
  const url = new URL(location.href);
  url.searchParams.set("material", material);
  history.replaceState(null, "", url);
}

// showHeat draws the heat map of the chosen piece and figure, inline so
// that each square's figures show on hover.
async function showHeat() {
  const q = new URLSearchParams({ piece: $("heat-piece").value, figure: $("heat-figure").value });
  $("heat-board").textContent = "Mapping…";
  const r = await fetch(`api/v1/heatmap/${encodeURIComponent(state.material)}/board.svg?${q}`);
  const text = await r.text();
  if (!r.ok) {
    $("heat-board").textContent = (() => { try { return JSON.parse(text).error; } catch { return `HTTP ${r.status}`; } })();
    return;
  }
  $("heat-board").innerHTML = text;
}

$("heat-piece").addEventListener("change", showHeat);
$("heat-figure").addEventListener("change", showHeat);
$("material-form").addEventListener("submit", (e) => { e.preventDefault(); show($("material").value.trim()); });
const initial = new URL(location.href).searchParams.get("material");
if (initial) { $("material").value = initial; show(initial); }
