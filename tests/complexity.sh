#!/bin/sh
# No production function over cyclomatic complexity 30 or 80 lines (as
# pmccabe counts them, like `make complexity COMPLEXITY_MAX=30
# FUNCTION_LINES_MAX=80`): a function past that is a parser or a key
# handler that wants one function per state or a table.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

max_cc=30
max_lines=80

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
while read -r fn what; do
	fail "$fn is over complexity $max_cc or $max_lines lines: $what"
done <"$tmp/over"

# The check itself: pmccabe saw the functions it should have.
expect_grep '^[0-9]+	[0-9]+	[0-9]+	[0-9]+	[0-9]+	formats/timeline-device\.c\([0-9]+\): timeline_parse_device$' \
	"$tmp/pmccabe" "pmccabe measures the production sources"
[ "$failures" -eq 0 ] && pass "no function over complexity $max_cc or $max_lines lines"
finish
