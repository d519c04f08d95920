#!/bin/sh
# validate and analyze with --from/--to: the whole file is read (a touch
# begun before --from is followed, so its jump inside the window is seen),
# only what lies in the window is reported, counted and decides the exit
# status. window.jsonl: touch 1 (10-50 ms) jumps at 20 ms (line 4), touch 2
# (90-160 ms) jumps at 150 ms (line 10), touch 3 (300-320 ms) has a pressure
# out of range at 310 ms (line 13, a warning).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
f="$abs_top_srcdir/tests/data/analyze/window.jsonl"
T=$TOUCHTAPE

# lines FILE: the line numbers of the anomalies a report lists.
lines() { grep -oE 'window\.jsonl:[0-9]+:' "$1" | cut -d: -f2 | sort -n | tr '\n' ' '; }
expect_lines() {
	local got; got=$(lines "$1")
	[ "$got" = "$2" ] && pass "$3: lines $2" || fail "$3: lines '$got', want '$2'"
}

# The whole file: both jumps and the warning.
expect_exit 1 "validate, no window" -- "$T" validate "$f"
expect_lines "$tmp/err" "4 10 13 " "validate, no window"
expect_exit 1 "analyze, no window" -- "$T" analyze "$f"
expect_lines "$tmp/out" "4 10 13 " "analyze, no window"

# 100-200 ms: only the jump of the touch begun at 90 ms; still a finding.
expect_exit 1 "validate --from 100ms --to 200ms" -- "$T" validate --from 100ms --to 200ms "$f"
expect_lines "$tmp/err" "10 " "validate in the window"
expect_grep '1 error, 0 warnings \(from 0\.100000 s to 0\.200000 s\)$' "$tmp/out" "validate counts the window"
expect_exit 1 "analyze --from 100ms --to 200ms" -- "$T" analyze --from 100ms --to 200ms "$f"
expect_lines "$tmp/out" "10 " "analyze in the window"
expect_grep 'tracking ID 2: 0\.090000-0\.160000 s' "$tmp/out" "the touch begun before --from is listed"
grep -qE 'tracking ID (1|3):' "$tmp/out" && fail "touches outside the window listed" ||
	pass "touches outside the window left out"
expect_grep '^1 touch sequence, 0 XI touch sequences, 1 anomaly$' "$tmp/out" "analyze counts the window"
# Cut first with convert, the touch's begin is lost and so is its jump:
# the window is not the same as a shorter file.
"$T" convert --from 100ms --to 200ms "$f" -o "$tmp/cut.jsonl"
expect_exit 0 "the cut file has no jump" -- "$T" analyze "$tmp/cut.jsonl"

# The JSON says the window and its numbers: 4 frames from 110 to 160 ms.
expect_exit 1 "analyze --json in the window" -- "$T" analyze --json --from 100ms --to 200ms "$f"
cp "$tmp/out" "$tmp/w.json"
expect_grep '"from_us":100000,"to_us":200000,"start_us":110000,"end_us":160000,"duration_us":50000,"frames":4,' \
	"$tmp/w.json" "JSON: the window and its span"
expect_grep '"anomaly_counts":\{"total":1,"jump":1\}' "$tmp/w.json" "JSON: the window's anomaly counts"
expect_grep '"touch_sequences":1,"max_simultaneous":1,' "$tmp/w.json" "JSON: the window's touches"
[ "$(grep -c '"kind":' "$tmp/w.json")" -eq 1 ] && pass "JSON lists one anomaly" || fail "JSON anomalies"
expect_exit 1 "analyze --json, no window" -- "$T" analyze --json "$f"
expect_grep '"from_us":null,"to_us":null,' "$tmp/out" "JSON without a window: null"

# After the jumps only the warning is left: exit 0, 1 with --strict.
expect_exit 0 "validate --from 250ms" -- "$T" validate --from 250ms "$f"
expect_lines "$tmp/err" "13 " "validate after the jumps"
expect_exit 0 "analyze --from 250ms" -- "$T" analyze --from 250ms "$f"
expect_lines "$tmp/out" "13 " "analyze after the jumps"
expect_exit 1 "analyze --from 250ms --strict" -- "$T" analyze --strict --from 250ms "$f"
# Up to 5 ms: nothing at all.
expect_exit 0 "analyze --to 5ms" -- "$T" analyze --strict --to 5ms "$f"
expect_grep '^0 touch sequences, 0 XI touch sequences, 0 anomalies$' "$tmp/out" "an empty window reports nothing"
expect_exit 0 "analyze --json --to 5ms" -- "$T" analyze --json --to 5ms "$f"
expect_grep '"frames":0,.*"touch_sequences":0,"max_simultaneous":0,.*"slots_used":\[\],' "$tmp/out" \
	"JSON: an empty window has no touches and no slots used"

# --from past the end is bad usage, as in replay and inspect.
for c in validate analyze; do
	expect_exit 2 "$c --from past the end" -- "$T" $c --from 10s "$f"
	expect_grep "touchtape $c: --from 10\.000000 s is past the end of .*window\.jsonl" "$tmp/err" \
		"$c: past the end explained"
	[ -s "$tmp/out" ] && fail "$c printed a report past the end" || pass "$c: no report past the end"
done
expect_exit 2 "analyze --to before --from" -- "$T" analyze --from 200ms --to 100ms "$f"

finish
