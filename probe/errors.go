package probe

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrCorrupt is wrapped by every error about a damaged or truncated file.
var ErrCorrupt = errors.New("corrupt table")

// ErrUnsupported is wrapped by errors about files this version cannot read.
var ErrUnsupported = errors.New("unsupported table")

// ErrNeedsBoardTable is wrapped by errors about a WDL table that cannot be
// made without its profile's DTB table.
var ErrNeedsBoardTable = errors.New("the board's-honour table is needed")

// ErrNotStored is wrapped by errors about reading the side to move a
// version-2 file does not store: its values come from the other side's by
// a one-ply search (Tables does it; retro.Derive for a whole table).
var ErrNotStored = errors.New("side to move not stored in the file")

// CorruptError reports a damaged table file: which file, where, and what.
type CorruptError struct {
	File   string
	Offset int64
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s: corrupt table at offset %d: %s", e.File, e.Offset, e.Reason)
}

func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// MissingError reports a table that is not in the table directory.
type MissingError struct {
	Material string
	Dir      string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("table %s not found in %s", e.Material, e.Dir)
}

// Unwrap makes a missing table an fs.ErrNotExist.
func (e *MissingError) Unwrap() error { return fs.ErrNotExist }
