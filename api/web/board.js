// The board: parsing the placement field of a FEN and drawing it as SVG
// with pieces drawn for Makruk and Shatranj (no fonts needed, so it looks the same in
// every browser, headless ones included).
"use strict";

const NAMES = { K: "Khun (king)", M: "Met", S: "Khon", N: "Ma (knight)", R: "Ruea (rook)", Q: "Ferz", B: "Alfil" };

// squareName(0) = "a1" … squareName(63) = "h8".
function squareName(s) {
  return "abcdefgh"[s % 8] + (Math.floor(s / 8) + 1);
}

// parseFen returns {board: 64 letters or "" (a1 first), side, count, rest}.
function parseFen(fen) {
  const f = fen.trim().split(/\s+/);
  const board = new Array(64).fill("");
  const ranks = (f[0] || "").split("/");
  for (let r = 0; r < ranks.length && r < 8; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (ch === "~") continue;
      else if (file < 8) board[(7 - r) * 8 + file++] = ch;
    }
  }
  return { board, side: f[1] === "b" ? "b" : "w", countLimit: f[3] || "-", countPly: f[4] || "0", fullmove: f[5] || "1" };
}

function boardFen(board) {
  const ranks = [];
  for (let r = 7; r >= 0; r--) {
    let s = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[r * 8 + file];
      if (!p) { empty++; continue; }
      if (empty) { s += empty; empty = 0; }
      s += p;
    }
    ranks.push(s + (empty ? empty : ""));
  }
  return ranks.join("/");
}

function makeFen(pos) {
  return `${boardFen(pos.board)} ${pos.side} - ${pos.countLimit} ${pos.countPly} ${pos.fullmove}`;
}

// Piece outlines in a 100 × 100 square, drawn from shapes of the Thai set:
// the Khun a tall stupa, the Met a short one, the Khon a lotus bud, the Ma
// a horse's head and the Ruea a boat-like tower.
const SHAPES = {
  K: `<path d="M25 88 H75 L70 78 H30 Z"/><path d="M32 78 C30 60 36 50 42 44 H58 C64 50 70 60 68 78 Z"/>
      <path d="M40 44 L50 22 L60 44 Z"/><circle cx="50" cy="17" r="6"/><path d="M38 60 H62" fill="none"/>`,
  // The Met: a short stupa of two tiers under a spire — smaller than the
  // Khun, and nothing like the bia, a flat shell.
  M: `<path d="M27 88 H73 L68 78 H32 Z"/><path d="M33 78 L37 66 H63 L67 78 Z"/><path d="M39 66 L42 56 H58 L61 66 Z"/>
      <path d="M44 56 L50 36 L56 56 Z"/>`,
  S: `<path d="M27 88 H73 L68 78 H32 Z"/><path d="M34 78 C30 62 40 44 50 28 C60 44 70 62 66 78 Z"/>
      <path d="M42 62 C46 56 54 56 58 62" fill="none"/>`,
  N: `<path d="M26 88 H76 L72 78 H30 Z"/>
      <path d="M32 78 C34 64 44 58 46 52 C40 54 32 56 28 50 C26 44 38 34 44 26 L46 16 L54 24 C66 26 74 40 72 78 Z"/>
      <circle cx="48" cy="34" r="3"/>`,
  R: `<path d="M24 88 H76 L72 78 H28 Z"/><path d="M32 78 L34 40 H66 L68 78 Z"/>
      <path d="M30 40 V26 H38 V32 H46 V26 H54 V32 H62 V26 H70 V40 Z"/>`,
  // Shatranj: the ferz a short dome with a crescent, the alfil an
  // elephant's head with its tusks.
  Q: `<path d="M27 88 H73 L68 78 H32 Z"/><path d="M34 78 C32 62 40 50 50 50 C60 50 68 62 66 78 Z"/>
      <path d="M44 44 A8 8 0 1 0 56 44 A6 6 0 1 1 44 44 Z"/>`,
  B: `<path d="M27 88 H73 L68 78 H32 Z"/><path d="M34 78 C28 60 30 36 50 30 C70 36 72 60 66 78 Z"/>
      <path d="M40 62 C34 66 30 60 32 54 M60 62 C66 66 70 60 68 54" fill="none"/><path d="M50 50 V74" fill="none"/>`,
};

// pieceName is a piece's name for people: "White Ruea (rook)".
function pieceName(letter) {
  const kind = letter.toUpperCase();
  return `${letter === kind ? "White" : "Black"} ${NAMES[kind] || kind}`;
}

function pieceSVG(letter, x, y, square) {
  const white = letter === letter.toUpperCase();
  const kind = letter.toUpperCase();
  const fill = white ? "#fbf7ea" : "#2b2b2b";
  const stroke = white ? "#222" : "#e8e0c8";
  return `<g class="piece" data-piece="${letter}" data-square="${square}" transform="translate(${x},${y})" fill="${fill}" stroke="${stroke}" stroke-width="3" stroke-linejoin="round" aria-hidden="true">
    <title>${pieceName(letter)}</title><g transform="translate(50,52) scale(1.2) translate(-50,-52)">${SHAPES[kind] || `<text x="50" y="66" text-anchor="middle" font-size="48">${letter}</text>`}</g></g>`;
}

// drawBoard draws board (a1 first) as SVG, White at the bottom, or Black
// when rotated; marks lists squares to highlight as {square: class}. Each
// square is a button for the keyboard, named by its square and piece;
// cursor (a square index) is the one in the tab order.
function drawBoard(board, marks, rotated = false, cursor = 0) {
  const bottom = rotated ? "Black" : "White";
  let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-24 0 824 824" class="board" role="group" aria-label="board, ${bottom} at the bottom: arrow keys move between squares, Enter picks a piece and its square">`;
  for (let s8 = 0; s8 < 64; s8++) {
    const file = s8 % 8, rank = Math.floor(s8 / 8);
    const x = (rotated ? 7 - file : file) * 100, y = (rotated ? rank : 7 - rank) * 100;
    const mark = marks[s8] ? ` ${marks[s8]}` : "";
    const name = squareName(s8);
    const label = `${name}, ${board[s8] ? pieceName(board[s8]) : "empty"}${marks[s8] ? `, ${marks[s8]}` : ""}`;
    s += `<rect class="sq${mark}" data-square="${name}" x="${x}" y="${y}" width="100" height="100" role="button" tabindex="${s8 === cursor ? 0 : -1}" aria-label="${label}"/>`;
    if (board[s8]) s += pieceSVG(board[s8], x, y, name);
  }
  for (let i = 0; i < 8; i++) {
    const at = rotated ? 7 - i : i;
    s += `<text class="coord" x="${at * 100 + 50}" y="818" text-anchor="middle" aria-hidden="true">${"abcdefgh"[i]}</text>`;
    s += `<text class="coord" x="-12" y="${(7 - at) * 100 + 56}" text-anchor="middle" aria-hidden="true">${i + 1}</text>`;
  }
  return s + "</svg>";
}
