// The explorer and trainer: asks /api/v1/probe about the position on the
// board and shows the verdict under the honour count and every legal move
// grouped by its result. The server does all the chess; this page only
// draws and clicks.
"use strict";

// The position each game's page starts on.
const START_FENS = { makruk: "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", shatranj: "8/8/8/8/2q5/8/2k5/KR6 w - - 0 1" };
const GROUPS = ["win", "cursed-win", "win-unknown", "draw", "loss-unknown", "blessed-loss", "loss"];
const GROUP_TITLES = {
  "win": "Winning", "cursed-win": "Winning, but the count runs out first",
  "win-unknown": "Winning without the count (inside it: unknown, a board's-honour table is missing)",
  "draw": "Drawing",
  "loss-unknown": "Losing without the count (inside it: unknown, a board's-honour table is missing)",
  "blessed-loss": "Losing, but the count saves it", "loss": "Losing",
};
const OPPOSITE = { "win": "loss", "loss": "win", "cursed-win": "blessed-loss", "blessed-loss": "cursed-win", "draw": "draw" };

const state = {
  history: [], // FENs
  moves: [], // moves[i]: the move (UCI) that led to history[i], "" for a position set up
  at: -1,
  doc: null, // the probe document of the current position
  error: null,
  placing: "", // a piece letter, "x" to remove, "" to move pieces
  selected: -1,
  hint: "",
  rotated: false, // Black at the bottom
  cursor: 0, // the square the keyboard is on (a1)
  training: null, // {side: "w"|"b"} while the trainer runs
  shown: 0, // the number of the latest go(): an earlier one's answer, come late, is dropped
};

const $ = (id) => document.getElementById(id);

function currentFen() { return state.history[state.at]; }

// game is the game chosen: "makruk", or "shatranj" (no count, so no rules).
function game() { return $("game").value; }

// gameQuery is what the API is told of the game and the rules.
function gameQuery() {
  return game() === "makruk" ? `rules=${$("rules").value}` : `game=${game()}`;
}

function sideName(side) { return side === "w" ? "White" : "Black"; }

function movesFromPlies(p) { return Math.ceil(p / 2); }

// plural: "1 move", "2 moves".
function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

// mateText: "White mates in 16 moves (31 plies)".
function mateText(side, plies) {
  return `${sideName(side)} mates in ${plural(movesFromPlies(plies), "move", "moves")} (${plural(plies, "ply", "plies")})`;
}


// The mover's result and mate distance in plies from a move's entry (which
// describes the position after the move, from its side to move's view).
// A win or loss the count cannot be judged on (its board's-honour table
// is missing) is "win-unknown" or "loss-unknown".
function moverView(m) {
  const plies = m.dtm === null ? null : m.dtm + 1;
  let category = OPPOSITE[m.category];
  if (m.exact === false && (category === "win" || category === "loss")) category += "-unknown";
  return { category, plies };
}

async function probe(fen) {
  const r = await fetch(`api/v1/probe?fen=${encodeURIComponent(fen)}&${gameQuery()}`);
  const doc = await r.json();
  if (!r.ok) throw new Error(doc.error || `HTTP ${r.status}`);
  return doc;
}

// go shows fen, adding it to the history after the current position
// (reached by the move uci, "" when it was set up).
async function go(fen, addToHistory = true, uci = "") {
  if (addToHistory) {
    state.history = state.history.slice(0, state.at + 1);
    state.moves = state.moves.slice(0, state.at + 1);
    state.history.push(fen);
    state.moves.push(uci);
    state.at = state.history.length - 1;
  }
  state.selected = -1;
  state.hint = "";
  $("fen").value = fen;
  const mine = ++state.shown;
  let doc = null, error = null;
  try {
    doc = await probe(fen);
  } catch (e) {
    error = e.message;
  }
  // A later position (a load, a move, a change of rules) was asked for
  // while this one was probed: its answer is the one to show.
  if (mine !== state.shown) return;
  state.doc = doc;
  state.error = error;
  const url = new URL(location.href);
  url.searchParams.set("fen", fen);
  url.searchParams.set("rules", $("rules").value);
  // ?train=1 starts the trainer on the position a link opens, once: the
  // address of a later position (a reload, a copied link) does not.
  url.searchParams.delete("train");
  if (state.rotated) url.searchParams.set("view", "black");
  else url.searchParams.delete("view");
  if (game() === "makruk") url.searchParams.delete("game");
  else url.searchParams.set("game", game());
  if ($("announce").value === "plies") url.searchParams.delete("announce");
  else url.searchParams.set("announce", $("announce").value);
  history.replaceState(null, "", url);
  render();
  if (state.training) trainerStep();
}

// drawRandom loads a position of the material in the form that White wins
// inside the count, at the chosen level, drawn by the server from a fresh
// seed (the same seed would draw the same position).
async function drawRandom() {
  const seed = Math.floor(Math.random() * 2 ** 32);
  const q = new URLSearchParams({ material: $("random-material").value.trim(), level: $("level").value, seed });
  if (game() === "makruk") q.set("rules", $("rules").value);
  else q.set("game", game());
  try {
    const r = await fetch(`api/v1/random?${q}`);
    const doc = await r.json();
    if (!r.ok) throw new Error(doc.error || `HTTP ${r.status}`);
    await go(doc.fen);
  } catch (e) {
    state.doc = null;
    state.error = e.message;
    render();
  }
}

// verdict returns the headline under the chosen rules — who wins inside
// the count, or a draw by the count, stalemate, checkmate — and the plain
// mate distance beside it (secondary, as the count decides). Its tone
// colours it by what it says: "win" when it names a winner, "loss" when
// it names the side that lost, "cursed" for a draw by the count,
// "unknown" when the count's verdict cannot be told, "draw" otherwise.
function verdict(doc) {
  const side = parseFen(doc.fen).side;
  const other = side === "w" ? "b" : "w";
  if (doc.wdl === "loss" && doc.dtm === 0) return { head: `${sideName(side)} is ${lostBy(doc)}`, plain: `${sideName(other)} wins`, tone: "loss" };
  if (doc.wdl === "draw" && doc.moves.length === 0) return { head: "Stalemate", plain: `a draw: ${sideName(side)} has no move and is not in check`, tone: "draw" };
  if (doc.wdl === "draw" && bare(doc.fen, side)) return { head: "Draw", plain: `${sideName(side)}'s bare king takes the last piece, and both kings are bare`, tone: "draw" };
  if (doc.wdl === "draw") return { head: "Draw", plain: `neither side can force mate (${doc.material})`, tone: "draw" };
  const winner = doc.wdl === "win" ? side : other;
  const mate = mateText(winner, doc.dtm);
  if (counted(doc) && !doc.exact) {
    return {
      head: `${sideName(winner)} wins without the count; inside it: unknown`,
      plain: `${mate}, but the ${doc.count.rules} board's-honour table of ${doc.material} is missing`,
      tone: "unknown",
    };
  }
  switch (doc.category) {
    case "win": case "loss":
      return { head: counted(doc) ? `${sideName(winner)} wins inside the count` : `${sideName(winner)} wins`, plain: mate, tone: "win" };
    default: // cursed-win, blessed-loss, or a draw by an expired count
      return { head: "Draw by the count", plain: `${mate} without the count, but ${whyCursed(doc)}`, tone: "cursed" };
  }
}

// whyCursed says why the count draws a mate: the arithmetic of the count,
// or, under board's honour, the goal that decides.
function whyCursed(doc) {
  const left = plural(doc.count.remaining, "ply", "plies");
  if (doc.count.expired) return "the count has run out";
  if (doc.count.kind !== "board") return `the mate needs ${plural(doc.dtm, "ply", "plies")} and the count leaves ${left}`;
  const goal = "mate, or taking the last piece while the pieces' count that starts then still lets the mate come in time";
  if (doc.dtb === undefined || doc.dtb === null) return `the board's-honour count asks for its goal — ${goal} — and the defence can keep it from ever coming`;
  return `the board's-honour goal — ${goal} — is ${plural(doc.dtb, "ply", "plies")} away and the count leaves ${left}`;
}
// lostBy says how the side to move of a position lost before moving:
// checkmated, or in Shatranj also stalemated or left with a bare king.
function lostBy(doc) {
  if (doc.in_check) return "checkmated";
  return bare(doc.fen, parseFen(doc.fen).side) ? "left with a bare king" : "stalemated (in Shatranj the stalemated side loses)";
}

// bare says whether side ("w" or "b") has only its king in fen.
function bare(fen, side) {
  return !parseFen(fen).board.some((p) => p && p.toUpperCase() !== "K" && (p === p.toUpperCase()) === (side === "w"));
}

// calledText is the count as players call it aloud, as
// honour.Count.Called gives it: in moves, up "3 of 16" (the number called
// with the counting side's latest move) and down "13 left" (the moves
// left); in half-moves, every ply: up "5 of 16", down "11 left".
function calledText(c, way) {
  if (c.ply < 0) return "";
  if (c.unit === "half-moves") {
    if (way === "up") return `${c.ply} of ${c.limit}`;
    if (way === "down") return `${Math.max(c.limit - c.ply, 0)} left`;
    return "";
  }
  if (way === "up") return `${Math.floor((c.ply + 1) / 2)} of ${Math.floor((c.limit + 1) / 2)}`;
  if (way === "down") return `${Math.floor(Math.max(c.limit - c.ply + 1, 0) / 2)} left`;
  return "";
}

// countText: "pieces' honour, limit 32 plies, count at ply 5 → 27 plies left: CURSED WIN".
function countText(doc) {
  const c = doc.count;
  const result = doc.category.toUpperCase();
  if (doc.game === "shatranj") return `Shatranj: no counting rule: ${result}`;
  if (!counted(doc)) return `no counting rule (${c.rules} rules): ${result}`;
  const kind = c.kind === "pieces" ? "pieces' honour" : "board's honour";
  const at = c.ply < 0 ? "starting after this move" : `count at ply ${c.ply}`;
  const size = c.unit === "half-moves" ? "half-moves" : `plies (${c.limit / 2} moves)`;
  let text = `${kind}, limit ${c.limit} ${size}, ${at} → ${plural(c.remaining, "ply", "plies")} left (${c.rules} rules)`;
  const called = calledText(c, $("announce").value);
  if (called) text += `; called aloud: ${called}`;
  if (doc.dtb !== undefined) text += `; goal (mate or a winning capture of the last piece) in ${plural(doc.dtb, "ply", "plies")}`;
  if (!doc.exact) return `${text}: ${result} without the count — the ${c.rules} board's-honour table of ${doc.material} is missing`;
  return `${text}: ${result}`;
}

function render() {
  const pos = parseFen(currentFen());
  const marks = {};
  const last = state.moves[state.at];
  if (last) {
    marks[squareIndex(last.slice(0, 2))] = "last";
    marks[squareIndex(last.slice(2, 4))] = "last";
  }
  if (state.doc && state.doc.in_check && state.doc.fen === currentFen()) {
    // The king of the side to move, in check.
    const king = pos.side === "w" ? "K" : "k";
    const at = pos.board.indexOf(king);
    if (at >= 0) marks[at] = "check";
  }
  if (state.selected >= 0) marks[state.selected] = "selected";
  if (state.hint) { // a whole move, or (a trainer's first hint) the square to move from
    marks[squareIndex(state.hint.slice(0, 2))] = "hint";
    if (state.hint.length >= 4) marks[squareIndex(state.hint.slice(2, 4))] = "hint";
  }
  // Redrawing loses the keyboard's place on the board: put it back.
  const focused = $("board").contains(document.activeElement);
  $("board").innerHTML = drawBoard(pos.board, marks, state.rotated, state.cursor);
  if (focused) $("board").querySelector(`rect[data-square="${squareName(state.cursor)}"]`).focus();
  $("back").disabled = state.at <= 0;
  $("forward").disabled = state.at >= state.history.length - 1;
  for (const b of document.querySelectorAll("#palette button")) {
    b.classList.toggle("active", b.dataset.piece === state.placing);
  }
  const movesDiv = $("moves");
  movesDiv.innerHTML = "";
  if (state.error) {
    $("verdict").textContent = state.error;
    $("verdict").className = "verdict error";
    $("count").textContent = "";
    return;
  }
  const doc = state.doc;
  const v = verdict(doc);
  $("verdict").innerHTML = "";
  const head = document.createElement("strong");
  head.textContent = v.head;
  const plain = document.createElement("span");
  plain.className = "plain";
  plain.textContent = v.plain;
  $("verdict").append(head, " — ", plain);
  $("verdict").className = "verdict " + v.tone;
  $("count").textContent = countText(doc);
  $("stats-link").href = `stats.html?material=${doc.material}&rules=${doc.count.rules}` + (doc.game ? `&game=${doc.game}` : "");
  $("hint").disabled = !doc.best;
  $("hint").textContent = state.training ? "Hint" : "Show best move";
  if (state.training) {
    // The trainer does not give the answer away: no list of moves while
    // it runs (the board takes the moves), hints at a cost.
    const note = document.createElement("p");
    note.className = "hidden-moves";
    note.textContent = "The moves are hidden while you train: play on the board. A hint shows the piece to move, a second one where it goes; each is counted.";
    movesDiv.appendChild(note);
    return;
  }
  for (const group of GROUPS) {
    const moves = doc.moves.filter((m) => moverView(m).category === group);
    if (!moves.length) continue;
    const section = document.createElement("div");
    section.className = "group " + group;
    section.innerHTML = `<h3>${GROUP_TITLES[group]}</h3>`;
    for (const m of moves) {
      const v = moverView(m);
      const b = document.createElement("button");
      b.className = "move" + (m.uci === doc.best ? " best" : "");
      b.dataset.uci = m.uci;
      b.title = m.uci;
      let text = m.san || m.uci;
      if (v.plies !== null) text += (v.category.includes("win") ? " mate in " : " mated in ") + movesFromPlies(v.plies);
      // Under board's honour the goal decides the best move, not the mate.
      if (m.dtb !== undefined && m.dtb !== null && m.dtb + 1 !== v.plies) {
        text += `, goal in ${movesFromPlies(m.dtb + 1)}`;
        b.title = `${m.uci}; goal: mate, or a capture of the last piece into a pieces' count that still wins`;
      }
      // The count after the move: a capture can start a fresh one.
      if (m.count && counted(doc) && m.count.kind !== "none") text += ` · ${moveCountText(m.count)}`;
      b.textContent = text;
      b.addEventListener("click", () => playMove(m));
      section.appendChild(b);
    }
    movesDiv.appendChild(section);
  }
}

// moveCountText is the count after a move, short: "25 plies left", or
// "count starts, 32 left" when the move starts it.
function moveCountText(c) {
  const left = plural(c.remaining, "ply", "plies");
  return c.ply < 0 ? `count ${left}` : `${left} left`;
}

function squareIndex(name) {
  return "abcdefgh".indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}

function playMove(m) {
  if (state.training) {
    if (parseFen(currentFen()).side !== state.training.side) return; // the tablebase's turn
    // Messages name moves as the move list does: in SAN.
    const best = state.doc.moves.find((x) => x.uci === state.doc.best);
    state.training.played = m.san || m.uci;
    state.training.best = best ? best.san || best.uci : "";
  }
  go(m.fen, true, m.uci);
}

function onSquareClick(sq) {
  const pos = parseFen(currentFen());
  if (state.placing) {
    pos.board[sq] = state.placing === "x" ? "" : state.placing;
    pos.countLimit = "-";
    pos.countPly = "0";
    stopTraining("");
    go(makeFen(pos));
    return;
  }
  if (state.selected >= 0 && state.doc) {
    const uci = squareName(state.selected) + squareName(sq);
    const m = state.doc.moves.find((x) => x.uci === uci);
    if (m) { playMove(m); return; }
  }
  const p = pos.board[sq];
  const own = p && ((p === p.toUpperCase()) === (pos.side === "w"));
  state.selected = own && state.selected !== sq ? sq : -1;
  render();
}

// The trainer: the user plays the side that was to move when it started
// (it must be winning); the tablebase answers with its longest defence
// under the count. It ends at mate or when the count runs out.
function startTraining() {
  const doc = state.doc;
  if (doc && counted(doc) && !doc.exact) {
    $("trainer-status").textContent = `The trainer cannot judge this position under the ${doc.count.rules} count: the board's-honour table of ${doc.material} is missing (makruktb gen makes it).`;
    return;
  }
  const role = doc ? trainerRole(doc) : "";
  if (role === "defend") {
    // Defending: hold a position the count saves, or a draw that a wrong
    // move loses, against the tables' most dangerous attack.
    state.training = { side: parseFen(doc.fen).side, defend: true, hints: 0 };
    render();
    $("train").textContent = "Stop training";
    const goal = doc.category === "blessed-loss" ? "hold until the count runs out" : "hold the draw";
    $("trainer-status").textContent = `You defend ${sideName(state.training.side)}: ${goal}.`;
    return;
  }
  if (role !== "attack") {
    const why = doc && doc.category === "cursed-win" ? " (here the count runs out before the mate: a draw by the count)" : "";
    $("trainer-status").textContent = (counted(doc || { count: {} }) ? "The trainer needs a position the side to move wins inside the count" : "The trainer needs a position the side to move wins") + why +
      ", or one it can defend: a draw, or a loss the count saves, that a wrong move would lose.";
    return;
  }
  state.training = { side: parseFen(doc.fen).side, hints: 0 };
  render();
  $("train").textContent = "Stop training";
  $("trainer-status").textContent = `You play ${sideName(state.training.side)}: ${counted(doc) ? "mate inside the count" : "mate"}.`;
}

function stopTraining(message) {
  const hints = state.training ? state.training.hints : 0;
  state.training = null;
  $("train").textContent = "Train";
  $("trainer-status").textContent = message && hints ? `${message} (${plural(hints, "hint", "hints")} taken)` : message;
  render();
}

// showHint marks the best move: out of training the whole move; in
// training first the square to move from, then the move, each counted.
function showHint() {
  if (!state.doc || !state.doc.best) return;
  const best = state.doc.best;
  const t = state.training;
  if (t) {
    if (parseFen(currentFen()).side !== t.side || state.hint === best) return;
    t.hints++;
    state.hint = state.hint ? best : best.slice(0, 2);
  } else {
    state.hint = best;
  }
  render();
}

function trainerStep() {
  const doc = state.doc;
  if (!doc) return stopTraining("Training stopped: " + state.error);
  const side = parseFen(doc.fen).side;
  if (doc.wdl === "loss" && doc.dtm === 0) {
    const how = lostBy(doc).split(" (")[0];
    return stopTraining(side === state.training.side ? `You were ${how}.` : `${how === "checkmated" ? "Checkmate" : `${sideName(side)} is ${how}`}! You won.`);
  }
  if (doc.count.expired) {
    return stopTraining(state.training.defend ? "The count ran out: you held the draw!" : "The count ran out: a draw by the count.");
  }
  if (state.training.defend) return defenceStep(doc, side);
  if (side !== state.training.side && doc.category !== "loss") {
    // The user's move left the opponent anything but lost inside the count.
    const t = state.training;
    const now = doc.category === "blessed-loss" ? "a draw by the count" : "a draw";
    return stopTraining(`${t.played} throws the win away (now ${now}); ${t.best} would have kept it. Press ◀ to take it back.`);
  }
  if (side !== state.training.side && doc.best) {
    tablebaseReplies(doc);
  } else if (side === state.training.side) {
    $("trainer-status").textContent = `${lastExchange()}Your move: ${countText(doc)}`;
  }
}

// defenceStep goes on with the defending trainer: after the user's move,
// the attacker must not have a win inside the count; the tables then play
// the attacker's best try.
function defenceStep(doc, side) {
  const t = state.training;
  if (doc.wdl === "draw" && doc.moves.length === 0) return stopTraining("Stalemate: you held the draw!");
  if (side !== t.side && doc.category === "win") {
    return stopTraining(`${t.played} loses: now ${sideName(side)} wins inside the count; ${t.best} would have held. Press ◀ to take it back.`);
  }
  if (side !== t.side && doc.best) {
    tablebaseReplies(doc);
  } else if (side === t.side) {
    $("trainer-status").textContent = `${lastExchange()}Your move, hold on: ${countText(doc)}`;
  }
}

// tablebaseReplies plays the tables' best move in doc's position, after a
// pause that lets the user see the position their move made.
function tablebaseReplies(doc) {
  const reply = doc.moves.find((m) => m.uci === doc.best);
  const t = state.training;
  t.reply = reply.san || reply.uci;
  $("trainer-status").textContent = `You played ${t.played}; the tablebase plays ${t.reply}.`;
  // Not if the training stopped or another position was shown meanwhile.
  const shown = state.shown;
  setTimeout(() => { if (state.training === t && state.shown === shown) go(reply.fen, true, reply.uci); }, 300);
}

// lastExchange is the user's last move and the tables' answer, kept on
// screen while the user thinks: "You played Rb1, the tablebase Kd4. ".
function lastExchange() {
  const t = state.training;
  return t && t.played && t.reply ? `You played ${t.played}, the tablebase ${t.reply}. ` : "";
}

// setGame shows the controls and the palette of game g.
function setGame(g) {
  document.body.classList.toggle("game-makruk", g === "makruk");
  document.body.classList.toggle("game-shatranj", g === "shatranj");
  $("random-material").value = g === "makruk" ? "KRvK" : "KRvKQ";
  if (state.placing && !document.querySelector(`#palette button[data-piece="${state.placing}"]`).offsetParent) state.placing = "";
}

function init() {
  $("board").addEventListener("click", (e) => {
    const sq = e.target.closest("[data-square]"); // a square, or the piece on it
    if (!sq) return;
    state.cursor = squareIndex(sq.dataset.square);
    onSquareClick(state.cursor);
  });
  // The keyboard: arrows move the cursor square as the board is shown,
  // Enter or Space acts as a click on it.
  $("board").addEventListener("keydown", (e) => {
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onSquareClick(state.cursor);
      return;
    }
    const step = steps[e.key];
    if (!step) return;
    e.preventDefault();
    e.stopPropagation(); // not the history's arrows
    const dir = state.rotated ? -1 : 1;
    const file = Math.min(7, Math.max(0, state.cursor % 8 + dir * step[0]));
    const rank = Math.min(7, Math.max(0, Math.floor(state.cursor / 8) + dir * step[1]));
    state.cursor = rank * 8 + file;
    for (const r of $("board").querySelectorAll("rect.sq")) r.tabIndex = -1;
    const target = $("board").querySelector(`rect[data-square="${squareName(state.cursor)}"]`);
    target.tabIndex = 0;
    target.focus();
  });
  for (const b of document.querySelectorAll("#palette button")) {
    b.addEventListener("click", () => { state.placing = b.dataset.piece; state.selected = -1; render(); });
    if (b.dataset.piece && b.dataset.piece !== "x") {
      b.setAttribute("aria-label", `place ${pieceName(b.dataset.piece)}`);
      b.title = `place ${pieceName(b.dataset.piece)}`;
    }
  }
  $("fen-form").addEventListener("submit", (e) => { e.preventDefault(); stopTraining(""); go($("fen").value.trim()); });
  $("random-form").addEventListener("submit", (e) => { e.preventDefault(); stopTraining(""); drawRandom(); });
  $("back").addEventListener("click", () => { if (state.at > 0) { state.at--; stopTraining(""); go(currentFen(), false); } });
  $("forward").addEventListener("click", () => { if (state.at < state.history.length - 1) { state.at++; go(currentFen(), false); } });
  $("side").addEventListener("click", () => {
    const pos = parseFen(currentFen());
    pos.side = pos.side === "w" ? "b" : "w";
    pos.countLimit = "-";
    pos.countPly = "0";
    go(makeFen(pos));
  });
  $("rotate").addEventListener("click", () => {
    state.rotated = !state.rotated;
    go(currentFen(), false);
  });
  $("flip").addEventListener("click", () => {
    const pos = parseFen(currentFen());
    const board = new Array(64).fill("");
    for (let s = 0; s < 64; s++) {
      const p = pos.board[s];
      const mirrored = (7 - Math.floor(s / 8)) * 8 + (s % 8);
      board[mirrored] = p === p.toUpperCase() ? p.toLowerCase() : p.toUpperCase();
    }
    pos.board = board;
    pos.side = pos.side === "w" ? "b" : "w";
    go(makeFen(pos));
  });
  $("rules").addEventListener("change", () => go(currentFen(), false));
  $("game").addEventListener("change", () => {
    // A position of one game is seldom one of the other: start afresh.
    setGame(game());
    stopTraining("");
    go(START_FENS[game()]);
  });
  $("announce").addEventListener("change", () => go(currentFen(), false));
  $("train").addEventListener("click", () => (state.training ? stopTraining("") : startTraining()));
  $("hint").addEventListener("click", showHint);
  // Arrow keys step back and forward, as the buttons do.
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, #board")) return;
    if (e.key === "ArrowLeft") $("back").click();
    if (e.key === "ArrowRight") $("forward").click();
  });
  const params = new URL(location.href).searchParams;
  if (params.get("game") === "shatranj") $("game").value = "shatranj";
  state.rotated = params.get("view") === "black";
  setGame(game());
  const rules = params.get("rules");
  if (rules && [...$("rules").options].some((o) => o.value === rules)) $("rules").value = rules;
  const announce = params.get("announce");
  if (announce && [...$("announce").options].some((o) => o.value === announce)) $("announce").value = announce;
  go(params.get("fen") || START_FENS[game()]).then(() => {
    // ?train=1 (the technique pages' links) starts the trainer there.
    if (params.get("train") === "1" && state.doc && !state.training) startTraining();
  });
}

init();
