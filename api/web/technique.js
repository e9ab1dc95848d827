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

// exploreLink opens fen in the explorer.
function exploreLink(fen) {
  const a = document.createElement("a");
  a.href = `./?fen=${encodeURIComponent(fen)}`;
  a.textContent = fen;
  a.title = "open this position in the explorer";
  return a;
}

// otherSide is fen with the other side to move.
function otherSide(fen) {
  const f = fen.split(" ");
  f[1] = f[1] === "w" ? "b" : "w";
  return f.join(" ");
}

const SIDE = { w: "White", b: "Black" };

// trainTry finds how the trainer can start from fen, and says so: under
// the thai count; else without a count (where the thai count draws it);
// else with the other side to move (a zugzwang's other half). It returns
// a list item's tail: a link that starts the trainer, or why there is none.
async function trainTry(fen) {
  const tries = [
    { fen, rules: "thai", note: "" },
    { fen, rules: "none", note: " without the count (the thai count draws it)" },
    { fen: otherSide(fen), rules: "thai", note: `, ${SIDE[otherSide(fen).split(" ")[1]]} to move` },
    { fen: otherSide(fen), rules: "none", note: `, ${SIDE[otherSide(fen).split(" ")[1]]} to move, without the count` },
  ];
  for (const t of tries) {
    let doc;
    try {
      doc = await getJSON(`api/v1/probe?fen=${encodeURIComponent(t.fen)}&rules=${t.rules}`);
    } catch {
      continue; // an illegal position with the other side to move
    }
    const role = trainerRole(doc);
    if (!role) continue;
    const a = document.createElement("a");
    a.className = "train";
    a.href = `./?fen=${encodeURIComponent(t.fen)}&rules=${t.rules}&train=1`;
    const side = SIDE[t.fen.split(" ")[1]];
    a.textContent = role === "attack" ? `train: ${side} wins${t.note}` : `train: ${side} holds${t.note}`;
    a.title = "start the trainer from this position";
    return [" — ", a];
  }
  return [" — not for the trainer: the side to move loses whatever it plays"];
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
    const items = [];
    for (const l of stats.longest || []) {
      const li = document.createElement("li");
      const winner = l.fen.split(" ")[1] === "w" ? "White" : "Black";
      li.append(exploreLink(l.fen), `: ${winner} to move mates in ${plural(Math.ceil(l.dtm / 2), "move", "moves")}`);
      $("longest").appendChild(li);
      items.push([li, l.fen]);
    }
    $("heat-wins").innerHTML = wins;
    $("heat-mates").innerHTML = mates;
    $("examples").innerHTML = "";
    for (const e of study.examples || []) {
      const li = document.createElement("li");
      const answer = e.move ? `${e.move}, mate in ${Math.ceil(e.dtm / 2)}` : `mated in ${Math.floor(e.dtm / 2)}`;
      li.append(`${KINDS[e.kind] || e.kind}: `, exploreLink(e.fen), ` (${answer})`);
      $("examples").appendChild(li);
      items.push([li, e.fen]);
    }
    if (!(study.examples || []).length) $("examples").textContent = "none in this ending";
    // Each position gets the trainer link it can start, or says why not.
    const tails = await Promise.all(items.map(([, fen]) => trainTry(fen)));
    items.forEach(([li], i) => li.append(...tails[i]));
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
