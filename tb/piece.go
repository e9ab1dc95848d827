package tb

// Color is White or Black.
type Color uint8

const (
	White Color = iota
	Black
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b", as in FEN.
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// Name returns "White" or "Black".
func (c Color) Name() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// PieceType is the kind of a piece. The order of the non-king pieces, Rook,
// Khon, Knight, Met, is the order of material names (KRSNMvK…).
type PieceType uint8

const (
	Rook PieceType = iota
	Khon
	Knight
	Met
	Pawn
	King
	NumPieceTypes

	// NoPiece marks an empty square.
	NoPiece PieceType = 255
)

// pieceLetters holds the upper-case FEN letter of each piece type.
const pieceLetters = "RSNMPK"

// Letter returns the piece type's upper-case FEN letter.
func (t PieceType) Letter() byte {
	if t >= NumPieceTypes {
		return '?'
	}
	return pieceLetters[t]
}

// String returns the piece type's name.
func (t PieceType) String() string {
	switch t {
	case Rook:
		return "rook"
	case Khon:
		return "khon"
	case Knight:
		return "knight"
	case Met:
		return "met"
	case Pawn:
		return "pawn"
	case King:
		return "king"
	}
	return "none"
}
