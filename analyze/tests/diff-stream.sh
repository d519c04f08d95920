#!/bin/sh
# touchtape diff reads both files side by side and lets each kernel touch
# go once it is compared: what it holds at a time (TT_DIFF_STATS=1, on
# stderr) is the same for a recording and for twenty copies of it one
# after the other, with the copies' differences found as before. A frame
# back in time makes it read the files again holding every touch to the
# end: the same differences, all touches held.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
gen="$abs_top_srcdir/bench/gen-long.sh"

# held FILE: the "diff stats" lines of a diff's stderr
held() { grep '^diff stats: ' "$1"; }

# What a replay changes: every time 5 s later, the kernel's 1 ms more.
shifted() {
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "t" in r:
        r["t"] += 5000000 + (1000 if r.get("type") == "frame" else 0)
    print(json.dumps(r, separators=(",", ":")))' "$1"
}

for s in touchpad-two-finger-swipe 3m-two-finger xi-touchscreen-ten-finger; do
	"$TOUCHTAPE" convert -F evemu -o "$tmp/$s.evemu" "$samples/$s.jsonl" 2>/dev/null ||
		{ fail "$s: no evemu copy"; continue; }
	for n in 1 20; do
		sh "$gen" "$tmp/$s.evemu" "$n" 1000000 >"$tmp/$s.$n.evemu" &&
			"$TOUCHTAPE" convert -o "$tmp/$s.$n.jsonl" "$tmp/$s.$n.evemu" 2>/dev/null ||
			fail "$s: $n copies not made"
		shifted "$tmp/$s.$n.jsonl" >"$tmp/$s.$n.shifted.jsonl"
		TT_DIFF_STATS=1 expect_exit 0 "$s x$n: itself" -- "$TOUCHTAPE" diff "$tmp/$s.$n.jsonl" "$tmp/$s.$n.jsonl"
		held "$tmp/err" >"$tmp/$s.$n.self"
		TT_DIFF_STATS=1 expect_exit 0 "$s x$n: shifted" -- "$TOUCHTAPE" diff "$tmp/$s.$n.jsonl" \
			"$tmp/$s.$n.shifted.jsonl"
		held "$tmp/err" >"$tmp/$s.$n.shifted"
	done
	for k in self shifted; do
		if [ -s "$tmp/$s.1.$k" ] && cmp -s "$tmp/$s.1.$k" "$tmp/$s.20.$k"; then
			pass "$s ($k): holds as much of 20 copies as of one"
		else
			fail "$s ($k): holds more of 20 copies than of one"
			diff "$tmp/$s.1.$k" "$tmp/$s.20.$k" | sed 's/^/  | /' >&2
		fi
	done
done

# A change in the 20th copy only (x moved by a tenth of the range): found
# as in one copy, the touch compared at its place.
s=3m-two-finger
move_x() {
	awk -v skip="$1" '/"type":"frame"/ && ++n > skip {
		out = ""
		while (match($0, /\[3,53,[0-9]+,/)) {
			v = substr($0, RSTART + 6, RLENGTH - 7) + 3000
			out = out substr($0, 1, RSTART - 1) "[3,53," v ","
			$0 = substr($0, RSTART + RLENGTH)
		}
		$0 = out $0
	} { print }' "$2"
}
frames=$(grep -c '"type":"frame"' "$tmp/$s.1.jsonl")
move_x 0 "$tmp/$s.1.jsonl" >"$tmp/$s.1.moved.jsonl"
move_x $((19 * frames)) "$tmp/$s.20.jsonl" >"$tmp/$s.20.moved.jsonl"
expect_exit 1 "a change in one copy" -- "$TOUCHTAPE" diff "$tmp/$s.1.jsonl" "$tmp/$s.1.moved.jsonl"
grep -v '^#' "$tmp/out" | sed 's/^[^ ]* [^ ]*: //' >"$tmp/one"
expect_exit 1 "a change in the last copy" -- "$TOUCHTAPE" diff "$tmp/$s.20.jsonl" "$tmp/$s.20.moved.jsonl"
grep -v '^#' "$tmp/out" | sed 's/^[^ ]* [^ ]*: //' >"$tmp/last"
if [ "$(grep -c . "$tmp/one")" -gt 1 ] && [ "$(sed 's/+[0-9.]* s:/+T s:/' "$tmp/one")" = \
	"$(sed 's/+[0-9.]* s:/+T s:/' "$tmp/last")" ]; then
	pass "a change in the last copy: the differences of one copy"
else
	fail "a change in the last copy: other differences than in one copy"
	diff "$tmp/one" "$tmp/last" | sed 's/^/  | /' >&2
fi

# A frame back in time: every touch held to the end, the same result.
awk '/"type":"frame"/ && ++n == 300 { sub(/"t":[0-9]+/, "\"t\":0") } { print }' "$tmp/$s.20.jsonl" \
	>"$tmp/$s.back.jsonl"
TT_DIFF_STATS=1 expect_exit 1 "a frame back in time" -- "$TOUCHTAPE" diff "$tmp/$s.20.jsonl" "$tmp/$s.back.jsonl"
total=$(sed -n 's/^# comparing .* (\([0-9]*\) touch.*/\1/p' "$tmp/out")
expect_grep "^diff stats: a: held at most $total kernel touches" "$tmp/err" "a frame back in time: all held"
expect_grep '^[1-9][0-9]* differences?$' "$tmp/out" "a frame back in time: the anomaly found"
finish
