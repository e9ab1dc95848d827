package honour

import "fmt"

// # Counting aloud
//
// Players call a running count in moves, not plies: the counting side
// calls a number with each of its moves. The texts differ in which way
// (../shared/sources: one counts up from where the rules start the count,
// "3, 4, 5 … of 16"; another counts down, "64, 63, 62 …"). From a count
// of Ply plies out of Limit:
//
//	up      (Ply+1)/2 of (Limit+1)/2   the number called with the counting
//	                                   side's latest move (its first move
//	                                   calls 1; a pieces' count that starts
//	                                   at 3 pieces calls 3)
//	down    (Limit−Ply+1)/2            the moves left, the current one
//	                                   included (64 at the start of a
//	                                   board's count of 128 plies)
//
// A profile that counts half-moves (UnitHalfMoves) calls every ply: up
// "Ply of Limit", down "Limit−Ply left".

// Announcement is the way a count is shown: in plies, or called aloud in
// moves, counting up or down.
type Announcement string

const (
	AnnouncePlies Announcement = "plies"
	AnnounceUp    Announcement = "up"
	AnnounceDown  Announcement = "down"
)

// ParseAnnouncement reads "plies" (also ""), "up" or "down".
func ParseAnnouncement(s string) (Announcement, error) {
	switch a := Announcement(s); a {
	case "", AnnouncePlies:
		return AnnouncePlies, nil
	case AnnounceUp, AnnounceDown:
		return a, nil
	}
	return "", fmt.Errorf("announce %q: plies, up (\"3 of 16\") or down (\"64, 63, 62…\")", s)
}

// Called returns the count as players call it aloud (see above) in unit
// u, e.g. "3 of 16" counting up or "13 left" counting down; "" in plies,
// for no count, and for a count that has not started.
func (c Count) Called(a Announcement, u Unit) string {
	if c.Kind == NoCountKind || c.Kind == "" || !c.Started() {
		return ""
	}
	if u == UnitHalfMoves {
		switch a {
		case AnnounceUp:
			return fmt.Sprintf("%d of %d", c.Ply, c.Limit)
		case AnnounceDown:
			return fmt.Sprintf("%d left", max(c.Limit-c.Ply, 0))
		}
		return ""
	}
	switch a {
	case AnnounceUp:
		return fmt.Sprintf("%d of %d", (c.Ply+1)/2, (c.Limit+1)/2)
	case AnnounceDown:
		return fmt.Sprintf("%d left", max(c.Limit-c.Ply+1, 0)/2)
	}
	return ""
}
