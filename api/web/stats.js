// The statistics page: the histogram plot, the share of count draws per
// rule profile and the longest wins of one material.
"use strict";

const $ = (id) => document.getElementById(id);

async function show(material) {
  $("status").textContent = `Counting ${material} over the full board…`;
  $("result").hidden = true;
  const r = await fetch(`api/v1/stats/${encodeURIComponent(material)}`);
  const st = await r.json();
  if (!r.ok) {
    $("status").textContent = st.error || `HTTP ${r.status}`;
    return;
  }
  $("status").textContent = "";
  $("plot").src = `api/v1/stats/${encodeURIComponent(material)}/plot.svg`;
  const rows = [`<tr><th>rules</th><th>to move</th><th>win</th><th>cursed-win</th><th>draw</th><th>blessed-loss</th><th>loss</th><th>count-draws</th></tr>`];
  for (const [rules, sides] of Object.entries(st.count)) {
    for (const side of ["w", "b"]) {
      const c = sides[side];
      const wins = c.win + c["cursed-win"];
      const share = wins ? (100 * c["cursed-win"] / wins).toFixed(1) + "%" : "–";
      rows.push(`<tr><td>${rules}</td><td>${side === "w" ? "White" : "Black"}</td><td>${c.win}</td><td>${c["cursed-win"]}</td><td>${c.draw}</td><td>${c["blessed-loss"]}</td><td>${c.loss}</td><td>${share}</td></tr>`);
    }
  }
  $("count-table").innerHTML = rows.join("");
  $("longest").innerHTML = "";
  for (const l of st.longest || []) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `./?fen=${encodeURIComponent(l.fen)}`;
    a.textContent = l.fen;
    li.append(a, ` mate in ${Math.ceil(l.dtm / 2)} moves (${l.dtm} plies)`);
    $("longest").appendChild(li);
  }
  $("result").hidden = false;
  const url = new URL(location.href);
  url.searchParams.set("material", material);
  history.replaceState(null, "", url);
}

$("material-form").addEventListener("submit", (e) => { e.preventDefault(); show($("material").value.trim()); });
const initial = new URL(location.href).searchParams.get("material");
if (initial) { $("material").value = initial; show(initial); }
