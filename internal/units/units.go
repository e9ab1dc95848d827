// Package units writes and reads the quantities the commands, the
// pipeline and the API talk in: bytes as people read them (binary
// units), the sizes a flag such as --memory takes, counts with their
// nouns.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Bytes writes n bytes in the largest binary unit below it: "1.04 GiB",
// "316.0 MiB", "12.4 KiB", "109 B".
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ParseSize reads "24GiB", "512M", "1.5G" or "1000000" (bytes): a number
// with an optional unit, B, KiB, MiB, GiB or TiB (K, M, G, T and KB … TB
// mean the same binary units).
func ParseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	number, unit := t, ""
	if i >= 0 {
		number, unit = t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	}
	f, err := strconv.ParseFloat(number, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q: want a size such as 20GiB, 512MiB or a number of bytes", text)
	}
	shift := map[string]uint{"": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20, "G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40}
	s, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (B, KiB, MiB, GiB or TiB)", text, unit)
	}
	return int64(f * float64(uint64(1)<<s)), nil
}

// Plural writes a count with its noun: "1 table", "3 tables".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
