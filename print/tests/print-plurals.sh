#!/bin/sh
# Counts in the text output of print, inspect and diff: "1 frame", never
# "1 frames", on a hand-made file with one of everything and on every
# sample.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

# One device with one slot, one frame, one touch.
cat >"$tmp/one.jsonl" <<'EOT'
{"format":"touchtape-timeline","version":1,"tool":"test","start":{"monotonic_us":0,"realtime_us":0}}
{"type":"device","id":0,"name":"One","input_id":{"bustype":3,"vendor":1,"product":1,"version":1},"codes":{"EV_SYN":["SYN_REPORT"],"EV_KEY":["BTN_TOUCH"],"EV_ABS":["ABS_MT_SLOT","ABS_MT_POSITION_X","ABS_MT_POSITION_Y","ABS_MT_TRACKING_ID"]},"absinfo":{"ABS_MT_SLOT":{"min":0,"max":0},"ABS_MT_POSITION_X":{"min":0,"max":1000,"resolution":10},"ABS_MT_POSITION_Y":{"min":0,"max":1000,"resolution":10},"ABS_MT_TRACKING_ID":{"min":0,"max":65535}},"mt":{"protocol":"B","slots":1}}
{"type":"frame","dev":0,"t":1000,"ev":[[3,57,5],[3,53,100],[3,54,200],[1,330,1],[0,0,0]]}
EOT
# A numeral 1 followed by a plural noun; counts of units (1 ms, 1 s) and
# names are not nouns.
plural='(^|[^0-9.])1 (devices|frames|events|XI events|touch sequences|touches|slots|lines|warnings|errors|differences|anomalies|updates|intervals|lanes)\b'

check() {
	what=$1; shift
	"$@" >"$tmp/o" 2>&1
	if grep -qE "$plural" "$tmp/o"; then
		fail "$what: $(grep -E "$plural" "$tmp/o" | head -1)"
	else
		pass "$what"
	fi
}
"$TOUCHTAPE" validate "$tmp/one.jsonl" >/dev/null 2>&1 || fail "hand-made file does not validate"
check "print, one of each" "$TOUCHTAPE" print "$tmp/one.jsonl"
check "inspect --summary, one of each" "$TOUCHTAPE" inspect --summary "$tmp/one.jsonl"
expect_grep ', 1 device, 1 frame, 5 events, 0 XI events$' "$tmp/o" "inspect --summary: 1 device, 1 frame"
expect_grep '^  1 frame, 5 events, 1 touch sequence, max 1 simultaneous' "$tmp/o" \
	"inspect --summary: 1 touch sequence"
check "inspect --text, one of each" "$TOUCHTAPE" inspect --text "$tmp/one.jsonl"

# A second file with one more device: diff says "1 device vs 2".
sed -n 2p "$tmp/one.jsonl" | sed 's/"id":0/"id":1/' >"$tmp/dev1"
cat "$tmp/one.jsonl" "$tmp/dev1" >"$tmp/two.jsonl"
check "diff, one device vs two" "$TOUCHTAPE" diff "$tmp/one.jsonl" "$tmp/two.jsonl"
expect_grep '1 device vs 2' "$tmp/o" "diff: 1 device vs 2"
expect_grep '^1 difference$' "$tmp/o" "diff: 1 difference"

for f in "$samples"/*.jsonl; do
	n=$(basename "$f")
	check "print $n" "$TOUCHTAPE" print "$f"
	check "inspect --summary $n" "$TOUCHTAPE" inspect --summary "$f"
	check "inspect --text $n" "$TOUCHTAPE" inspect --text "$f"
done
finish
