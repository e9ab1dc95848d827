# Shared by .ci/v2-reference and .ci/v3-reference (which define say).

# compare_with LIST NAME
# DST FILE... compares each FILE with its line in the reference LIST
# (data/NAME.txt; a listed file must match it), writes the lines of the
# files not listed to DST/NAME.new and, with APPEND=1, merges them into
# LIST, sorted by name.
compare_with() {
	local list=$1 name=$2 dst=$3
	shift 3
	local new=$dst/$name.new matched=0 bad=0 f base got want
	: >"$new"
	for f in "$@"; do
		[ -e "$f" ] || continue
		base=$(basename "$f")
		got=$(sha256sum "$f" | cut -d' ' -f1)
		want=$(awk -v f="$base" '$2 == f {print $1}' "$list")
		if [ -z "$want" ]; then
			echo "$got  $base" >>"$new"
		elif [ "$want" = "$got" ]; then
			matched=$((matched + 1))
		else
			echo "MISMATCH: $base"
			bad=$((bad + 1))
		fi
	done
	say "$matched files match data/$name.txt, $bad differ, $(wc -l <"$new") new (in $new)"
	[ "$bad" -eq 0 ] || exit 1
	if [ "${APPEND:-0}" = 1 ] && [ -s "$new" ]; then
		sort -k2 -o "$list" "$list" "$new"
		say "merged into $list"
	fi
}

# link_tables LIST KIND SRC DST links (or copies) into DST every table of
# SRC not there yet, each of which must be its line in LIST (the
# reference of version KIND), and says how many it took.
link_tables() {
	local list=$1 kind=$2 src=$3 dst=$4 linked=0 f base want got
	for f in "$src"/*.mtbm "$src"/*.mtbb; do
		[ -e "$f" ] || continue
		base=$(basename "$f")
		[ -e "$dst/$base" ] && continue
		want=$(awk -v f="$base" '$2 == f {print $1}' "$list")
		got=$(sha256sum "$f" | cut -d' ' -f1)
		if [ "$want" != "$got" ]; then
			echo "$f is not its version-$kind reference" >&2
			exit 1
		fi
		ln "$f" "$dst/$base" 2>/dev/null || cp "$f" "$dst/$base"
		linked=$((linked + 1))
	done
	say "$linked version-$kind tables taken from $src, each its reference"
}
