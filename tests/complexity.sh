#!/bin/sh
# No production function over cyclomatic complexity 30 or 80 lines (as
# pmccabe counts them, like `make complexity COMPLEXITY_MAX=30
# FUNCTION_LINES_MAX=80`): a function past that is a parser or a key
# handler that wants one function per state or a table.
#
# tests/complexity-allow.txt lists, as FILE:FUNCTION, the functions still
# over while their folders are being split; they are printed, not failed.
# An entry that is no longer over fails, so the list only shrinks, and
# formats/ and lib/ may not be on it at all.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

max_cc=30
max_lines=80
allow="$abs_top_srcdir/tests/complexity-allow.txt"

command -v pmccabe >/dev/null || { echo "SKIP: needs pmccabe (./bootstrap installs it)"; exit 77; }

# Production code: the .c files of the top-level folders, without the
# tests (tests/, FOLDER/tests/) and the benchmarks.
(cd "$abs_top_srcdir" && find . -mindepth 2 -maxdepth 2 -name '*.c' \
	! -path './tests/*' ! -path './bench/*' | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/sources"
[ -s "$tmp/sources" ] || { fail "no production sources found under $abs_top_srcdir"; finish; }
(cd "$abs_top_srcdir" && xargs pmccabe <"$tmp/sources") >"$tmp/pmccabe" ||
	{ fail "pmccabe failed"; finish; }

# "FILE:FUNCTION complexity C, L lines" for every function over a limit.
awk -v cc="$max_cc" -v len="$max_lines" '$2 > cc || $5 > len {
	file = $6; sub(/\([0-9]+\):$/, "", file)
	printf "%s:%s complexity %d, %d lines\n", file, $7, $2, $5 }' \
	"$tmp/pmccabe" >"$tmp/over"
grep -v '^[[:space:]]*\(#\|$\)' "$allow" 2>/dev/null | tr -d ' \t' >"$tmp/allowed"

while read -r fn what; do
	if grep -qxF "$fn" "$tmp/allowed"; then
		echo "allowed for now: $fn $what"
	else
		fail "$fn is over complexity $max_cc or $max_lines lines: $what"
	fi
done <"$tmp/over"

while read -r fn; do
	case $fn in
	formats/*|lib/*)
		fail "$fn: formats/ and lib/ are held to the limits, take it off $(basename "$allow")";;
	esac
	grep -q "^$fn " "$tmp/over" ||
		fail "$fn is within the limits now: take it off $(basename "$allow")"
done <"$tmp/allowed"

# The check itself: pmccabe saw the functions it should have.
expect_grep '^[0-9]+	[0-9]+	[0-9]+	[0-9]+	[0-9]+	formats/timeline-reader\.c\([0-9]+\): parse_device$' \
	"$tmp/pmccabe" "pmccabe measures the production sources"
[ "$failures" -eq 0 ] && pass "no function over complexity $max_cc or $max_lines lines but the $(wc -l <"$tmp/allowed") allowed"
finish
