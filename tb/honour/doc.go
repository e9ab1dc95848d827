// Package honour is Makruk's honour counts, the rule that replaces chess's
// 50-move rule, in one place: the rule profiles (Rules: thai, cambodian,
// asean, none, or a JSON file), which count applies to a material and where
// it starts (FreshCount), how a move carries it on (Next), how long a mate
// may take inside it (MatingPlies, GoalPlies), and the judgement of a
// value under a count (Judge, JudgeBoard) into the categories win,
// cursed-win, draw, blessed-loss and loss.
//
// Pieces' honour runs when one side has only its king; board's honour
// while both sides have pieces (HasBoardHonour), and a capture that bares
// a side replaces it with a fresh pieces' count. Counts are in plies.
package honour
