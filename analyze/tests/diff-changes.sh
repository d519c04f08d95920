#!/bin/sh
# touchtape diff: a recording matches itself, a copy shifted in time with
# other tracking IDs (what a replay changes), and its own conversion; a
# changed copy (a touch removed, an ownership outcome changed, positions
# shifted) reports exactly those changes.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
s="$data/session.jsonl"

expect_exit 0 "same file" -- "$TOUCHTAPE" diff "$s" "$s"
expect_grep '^0 differences$' "$tmp/out" "same file: 0 differences"

# What a replay changes: every time 5 s later (plus 1 ms jitter on the
# kernel side), other tracking IDs, other XI touch ids.
awk '{
	while (match($0, /"t":[0-9]+/)) {
		v = substr($0, RSTART + 4, RLENGTH - 4) + 5000000
		if ($0 ~ /"type":"frame"/) v += 1000
		$0 = substr($0, 1, RSTART - 1) "\"T\":" v substr($0, RSTART + RLENGTH)
	}
	gsub(/"T":/, "\"t\":")
	gsub(/"ABS_MT_TRACKING_ID",1\]/, "\"ABS_MT_TRACKING_ID\",501]")
	gsub(/"detail":1,/, "\"detail\":41,"); gsub(/"touchid":1}/, "\"touchid\":41}")
	print
}' "$s" >"$tmp/replayed.jsonl"
expect_exit 0 "shifted, other IDs" -- "$TOUCHTAPE" diff "$s" "$tmp/replayed.jsonl"
expect_grep '^# ignored: absolute times' "$tmp/out" "says what it ignores"
grep -q '"detail":41' "$tmp/replayed.jsonl" && pass "the copy has other touch ids" || fail "copy unchanged"

# Exactly the changes, and nothing else.
only() {
	what=$1 file=$2 n=$3; shift 3
	expect_exit 1 "$what: differs" -- "$TOUCHTAPE" diff "$s" "$file"
	expect_grep "^$n differences?\$" "$tmp/out" "$what: $n difference(s)"
	for pat in "$@"; do expect_grep "$pat" "$tmp/out" "$what: $pat"; done
	got=$(grep -c ':[0-9-]* .*:[0-9-]*: ' "$tmp/out")
	[ "$got" = "$n" ] && pass "$what: $n listed" || fail "$what: $got listed, want $n"
}
# A touch removed: reported once, as the touch (and the XI touch it
# became); its BTN_TOUCH press and release and its frames, which went
# with it, are not listed again.
only "touch removed" "$data/session-touch-removed.jsonl" 2 \
	'session.jsonl:14 .*session-touch-removed.jsonl:-: device 0 slot 1 touch at \+0\.090000 s \(50\.0, 50\.0\) mm is missing' \
	'session.jsonl:15 .*session-touch-removed.jsonl:-: XI touch \[observer\] at \+0\.092000 s is missing'
only "positions shifted" "$data/session-shifted.jsonl" 3 \
	'paths part by 5\.00 mm at \+0\.000000 s into the touch \(RMS 4\.53, tolerance 1\.00\)' \
	'begin position \(80\.0, 20\.0\) vs \(85\.0, 20\.0\) mm, 5\.0 mm apart \(tolerance 1\.0\)' \
	'end position \(81\.0, 20\.0\) vs \(86\.0, 20\.0\) mm'
# The grab client rejects instead of accepting: the window client owns the
# touch instead of losing it. That it began unowned and ends at another
# time follows from the outcome and is not listed again.
only "ownership changed" "$data/session-ownership-changed.jsonl" 2 \
	'XI touch \[grab\] at \+0\.002000 s: ownership accepted vs rejected' \
	'XI touch \[window\] at \+0\.002100 s: ownership lost vs owned'
grep -qE 'began unowned|ends .* ms' "$tmp/out" && fail "ownership changed: consequences listed again" ||
	pass "ownership changed: no consequences listed"

# Tolerances: a 5 mm shift passes with -P 6mm --path-tolerance 6mm; XI
# ignored with -k.
expect_exit 0 "-P 6mm" -- "$TOUCHTAPE" diff -P 6mm --path-tolerance 6mm "$s" "$data/session-shifted.jsonl"
expect_exit 1 "-P 6mm alone: the path still parts" -- "$TOUCHTAPE" diff -P 6mm "$s" "$data/session-shifted.jsonl"
expect_exit 0 "--ignore path" -- "$TOUCHTAPE" diff -P 6mm --ignore path "$s" "$data/session-shifted.jsonl"
expect_exit 0 "--kernel-only" -- "$TOUCHTAPE" diff --kernel-only "$s" "$data/session-ownership-changed.jsonl"
expect_exit 1 "-T 500us: the 1 ms jitter shows" -- "$TOUCHTAPE" diff -T 500us "$s" "$tmp/replayed.jsonl"

# An evemu recording against its own conversion to a timeline.
if [ -d "$corpus" ] && "$TOUCHTAPE" convert --help >/dev/null 2>&1; then
	for f in evemu__data_3m.event evemu__data_bcm5974.event; do
		if "$TOUCHTAPE" convert "$corpus/evemu/$f" -o "$tmp/conv.jsonl" 2>/dev/null; then
			expect_exit 0 "$f vs its conversion" -- "$TOUCHTAPE" diff "$corpus/evemu/$f" "$tmp/conv.jsonl"
		fi
	done
fi

expect_exit 2 "one file" -- "$TOUCHTAPE" diff "$s"
expect_exit 2 "missing file" -- "$TOUCHTAPE" diff "$s" "$tmp/nope"
expect_exit 2 "bad tolerance" -- "$TOUCHTAPE" diff -T soon "$s" "$s"
expect_exit 0 "--help" -- "$TOUCHTAPE" diff --help
finish
