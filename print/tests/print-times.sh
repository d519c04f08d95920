#!/bin/sh
# touchtape print: every event at its own time (the frame's time plus the
# event's dt, the frame's time when it has none), and the gap between
# frames with its sign.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
m3="$samples/3m-two-finger.jsonl"

# The 3M sample's first frame: t 19, SYN_REPORT without dt.
expect_exit 0 "3M sample" -- "$TOUCHTAPE" print "$m3"
expect_grep '^0\.000019 dev0  -+ SYN_REPORT -+$' "$tmp/out" "3M: first SYN_REPORT at its frame's time"
expect_grep '^0\.000017 dev0  EV_ABS  ABS_Y ' "$tmp/out" "3M: ABS_Y at its own time (dt -2)"
expect_grep '^0\.004988 dev0  -+ SYN_REPORT -+ \+4\.969ms$' "$tmp/out" "3M: second frame, gap +4.969ms"

# A hand-made file: the first event 500 us before its frame, the others
# at the frame's time; a frame 100 us earlier than the one before; a
# SYN_REPORT 3 us after its frame.
head -n 2 "$m3" >"$tmp/t.jsonl"
cat >>"$tmp/t.jsonl" <<'EOT'
{"type":"frame","dev":0,"t":1000,"ev":[[3,57,5,-500],[3,53,100],[3,54,200],[0,0,0]]}
{"type":"frame","dev":0,"t":900,"ev":[[3,53,101],[0,0,0]]}
{"type":"frame","dev":0,"t":2000,"ev":[[3,57,-1],[0,0,0,3]]}
EOT
expect_exit 0 "hand-made" -- "$TOUCHTAPE" print "$tmp/t.jsonl"
grep -v '^#' "$tmp/out" >"$tmp/events"
cat >"$tmp/want" <<'EOT'
0.000500 dev0  EV_ABS  ABS_MT_TRACKING_ID           5   slot 0 begins
0.001000 dev0  EV_ABS  ABS_MT_POSITION_X          100   slot 0
0.001000 dev0  EV_ABS  ABS_MT_POSITION_Y          200   slot 0
0.001000 dev0  ------------ SYN_REPORT ------------
0.000900 dev0  EV_ABS  ABS_MT_POSITION_X          101   slot 0 +1
0.000900 dev0  ------------ SYN_REPORT ------------ -0.100ms
0.002000 dev0  EV_ABS  ABS_MT_TRACKING_ID          -1   slot 0 released
0.002003 dev0  ------------ SYN_REPORT ------------ +1.100ms
EOT
if diff -u "$tmp/want" "$tmp/events" >"$tmp/d"; then pass "hand-made: times and gaps"; else
	fail "hand-made: times and gaps"; sed 's/^/  | /' "$tmp/d" >&2; fi
grep -q '+-' "$tmp/out" && fail "a gap printed as +-" || pass "no +- gap"
finish
