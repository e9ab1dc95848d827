package probe

import (
	"os"

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
