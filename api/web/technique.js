// The technique pages: for each ending players practise, the longest win,
// the defending king's heat maps and the examples study lists, each a
// link that starts the explorer's trainer there.
"use strict";

const $ = (id) => document.getElementById(id);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

const ENDINGS = ["KRvK", "KRRvK", "KSSvK", "KSMvK", "KNMvK", "KMMMvK", "KRvKM", "KRvKN", "KRvKS"];

const KINDS = {
  single_winning_move_w: "White to move: one move wins",
  single_winning_move_b: "Black to move: one move wins",
  whoever_moves_loses: "mutual zugzwang: whoever moves loses (White to move)",
  white_to_move_loses_black_to_move_draws: "mutual zugzwang: White to move loses, Black to move draws",
  white_to_move_draws_black_to_move_loses: "mutual zugzwang: White to move draws, Black to move loses (Black to move)",
  count_critical_w: "White to move: one move keeps the win inside the thai count",
  count_critical_b: "Black to move: one move keeps the win inside the thai count",
};

function trainLink(fen) {
  const a = document.createElement("a");
  a.href = `./?fen=${encodeURIComponent(fen)}&train=1`;
  a.textContent = fen;
  a.title = "start the trainer from this position";
  return a;
}

async function getJSON(url) {
  const r = await fetch(url);
  const doc = await r.json();
  if (!r.ok) throw new Error(doc.error || `HTTP ${r.status}`);
  return doc;
}

async function getSVG(url) {
  const r = await fetch(url);
  const text = await r.text();
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return text;
}

// studyOf is the study of a material under a fresh thai count (its
// count-critical examples too), or without a count when the count cannot
// be judged (board's honour without its thai DTB table).
async function studyOf(m) {
  try {
    return await getJSON(`api/v1/study/${m}?examples=3&rules=thai`);
  } catch {
    return getJSON(`api/v1/study/${m}?examples=3`);
  }
}

async function show(material) {
  $("technique").hidden = true;
  $("status").textContent = `Reading ${material} (the first time reads its tables whole: it may take a while)…`;
  try {
    const m = encodeURIComponent(material);
    const [stats, study, wins, mates] = await Promise.all([
      getJSON(`api/v1/stats/${m}`),
      studyOf(m),
      getSVG(`api/v1/heatmap/${m}/board.svg?piece=k&figure=wins`),
      getSVG(`api/v1/heatmap/${m}/board.svg?piece=k&figure=mates`),
    ]);
    $("title").textContent = stats.material;
    $("longest").innerHTML = "";
    for (const l of stats.longest || []) {
      const li = document.createElement("li");
      const winner = l.fen.split(" ")[1] === "w" ? "White" : "Black";
      li.append(trainLink(l.fen), `: ${winner} to move mates in ${plural(Math.ceil(l.dtm / 2), "move", "moves")}`);
      $("longest").appendChild(li);
    }
    $("heat-wins").innerHTML = wins;
    $("heat-mates").innerHTML = mates;
    $("examples").innerHTML = "";
    for (const e of study.examples || []) {
      const li = document.createElement("li");
      const answer = e.move ? `${e.move}, mate in ${Math.ceil(e.dtm / 2)}` : `mated in ${Math.floor(e.dtm / 2)}`;
      li.append(`${KINDS[e.kind] || e.kind}: `, trainLink(e.fen), ` (${answer})`);
      $("examples").appendChild(li);
    }
    if (!(study.examples || []).length) $("examples").textContent = "none in this ending";
    $("status").textContent = "";
    $("technique").hidden = false;
  } catch (e) {
    $("status").textContent = e.message;
  }
  const url = new URL(location.href);
  url.searchParams.set("material", material);
  history.replaceState(null, "", url);
}

for (const m of ENDINGS) {
  const a = document.createElement("a");
  a.href = `technique.html?material=${m}`;
  a.textContent = m;
  a.addEventListener("click", (e) => { e.preventDefault(); show(m); });
  $("endings").append(a, " ");
}
const initial = new URL(location.href).searchParams.get("material");
if (initial) show(initial);
