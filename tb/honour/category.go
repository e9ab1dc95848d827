package honour

import "fmt"

// Category is a result under an honour count, from the side to move's
// point of view, named as the lichess API and Syzygy name them. The
// categories are ordered from the worst to the best result, so a > b
// means a is better for the side it belongs to.
type Category int8

const (
	Loss        Category = iota - 2 // mated inside the count
	BlessedLoss                     // mated, but the count runs out first: a draw
	Draw
	CursedWin // mate exists, the count runs out first: a draw
	Win       // mates inside the count
)

var categoryNames = [...]string{"loss", "blessed-loss", "draw", "cursed-win", "win"}

// String returns the category's name: "win", "cursed-win", "draw",
// "blessed-loss" or "loss".
func (c Category) String() string {
	if c < Loss || c > Win {
		return fmt.Sprintf("Category(%d)", int8(c))
	}
	return categoryNames[c-Loss]
}

func (c Category) MarshalText() ([]byte, error) {
	if c < Loss || c > Win {
		return nil, fmt.Errorf("honour: no category %d", int8(c))
	}
	return []byte(c.String()), nil
}

func (c *Category) UnmarshalText(text []byte) error {
	for i, name := range categoryNames {
		if string(text) == name {
			*c = Loss + Category(i)
			return nil
		}
	}
	return fmt.Errorf("honour: unknown category %q", text)
}

// Opposite returns the category from the other side's point of view: the
// mover's result when c judges the position after the move.
func (c Category) Opposite() Category { return -c }

// Better reports whether a is a better result than b for the side it
// belongs to.
func (a Category) Better(b Category) bool { return a > b }

// IsWin reports whether the side to move wins inside the count; IsLoss
// whether it loses there. The other categories are draws under the count.
func (c Category) IsWin() bool  { return c == Win }
func (c Category) IsLoss() bool { return c == Loss }
