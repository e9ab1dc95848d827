package probe

import (
	"os"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// WriteCodec1WDL writes the WDL file WriteWDL writes without sub-tables in
// the layout of the files made before WDL files stored bounds where
// captures decide (codec 1): what RecodeWDL reads.
func WriteCodec1WDL(path string, dtm, dtb *File, r *honour.Rules) error {
	if err := WriteWDL(path, dtm, dtb, r, nil, 0); err != nil {
		return err
	}
	f, err := OpenFile(path)
	if err != nil {
		return err
	}
	h := f.Header
	f.Close()
	h.Codec = codecZstd
	out, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer out.Close()
	_, err = out.WriteAt(h.marshal(), 0)
	return err
}

// WriteEditedWDL is WriteWDL with edit changing the codes of side's
// indices from lo before they are encoded: a file that is wrong where
// edit says.
func WriteEditedWDL(path string, dtm, dtb *File, r *honour.Rules, subs *Tables, version int, edit func(side tb.Color, lo uint64, codes []byte)) error {
	return atomicfile.Write(path, func(f *os.File) error {
		_, err := writeWDL(f, dtm, dtb, r, subs, version, edit)
		return err
	})
}
