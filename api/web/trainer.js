// What the trainer accepts, shared by the explorer and the technique
// pages: a position the side to move wins inside the count (the user
// attacks), or one it can only hold — a draw, or a loss the count saves —
// that some move would lose (the user defends).
"use strict";

// counted says whether the rules have a count at all.
function counted(doc) { return doc.count.kind !== "none" && doc.count.kind !== ""; }

// trainerRole is "attack", "defend", or "" when the trainer cannot start
// from the probe document doc: the side to move loses, a draw no move
// spoils, or (board's honour without its table) the count cannot be told.
function trainerRole(doc) {
  if (counted(doc) && !doc.exact) return "";
  if (doc.category === "win") return "attack";
  if ((doc.category === "blessed-loss" || doc.category === "draw") && doc.moves.some((m) => m.category === "win")) return "defend";
  return "";
}
