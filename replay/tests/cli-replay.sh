#!/bin/sh
# touchtape replay without devices: usage, guarded keys left out, values
# outside absinfo replayed and counted, the refusals (malformed lines,
# time backwards: FILE:LINE, nothing created), and --dry-run's schedule
# (speed, range, gaps, loops, report).
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":0,"realtime_us":0}}'
dev() {
	printf '%s\n' "{\"type\":\"device\",\"id\":0,\"name\":\"ts\",\"input_id\":{\"bustype\":3,\"vendor\":1,\"product\":2,\"version\":3},\"codes\":{\"EV_KEY\":[\"BTN_TOUCH\"$1],\"EV_ABS\":[]},\"absinfo\":{\"ABS_MT_SLOT\":{\"min\":0,\"max\":1},\"ABS_MT_TRACKING_ID\":{\"min\":0,\"max\":65535},\"ABS_MT_POSITION_X\":{\"min\":0,\"max\":100}},\"mt\":{\"protocol\":\"B\",\"slots\":2}}"
}
frame() { printf '{"type":"frame","dev":0,"t":%s,"ev":[%s]}\n' "$1" "$2"; }

{ echo "$hdr"; dev ""; frame 0 '[3,57,1],[3,53,10],[1,330,1],[0,0,0]'
  frame 100000 '[3,53,20],[0,0,0]'; frame 5100000 '[3,53,30],[0,0,0]'
  frame 5200000 '[3,57,-1],[1,330,0],[0,0,0]'; } >"$tmp/ok.jsonl"
{ echo "$hdr"; dev ',"KEY_A","KEY_WAKEUP"'; frame 0 '[1,30,1],[0,0,0]'; frame 5 '[1,143,1],[0,0,0]'
  frame 6 '[1,143,0],[1,30,0],[0,0,0]'; } >"$tmp/keys.jsonl"
{ echo "$hdr"; dev ""; frame 0 '[3,57,1],[3,53,10],[0,0,0]'; frame 10 '[3,53,999],[0,0,0]'; } >"$tmp/range.jsonl"
{ echo "$hdr"; dev ""; frame 0 '[3,57,1],[0,0,0]'; echo '{"type":"frame","dev":0,'; } >"$tmp/bad.jsonl"
{ echo "$hdr"; dev ""; frame 10 '[3,57,1],[0,0,0]'; frame 5 '[3,53,10],[0,0,0]'; } >"$tmp/back.jsonl"

T=$TOUCHTAPE
expect_exit 0 "--help" -- $T replay --help
expect_grep 'allow-keys' "$tmp/out" "--help documents --allow-keys"
expect_grep 'Exit status' "$tmp/out" "--help documents the exit status"
expect_exit 2 "no file" -- $T replay
expect_exit 2 "bad speed" -- $T replay --speed 0 "$tmp/ok.jsonl"
expect_exit 2 "bad time" -- $T replay --from soon "$tmp/ok.jsonl"
expect_exit 2 "verify with dry-run" -- $T replay --dry-run --verify "$tmp/ok.jsonl"
expect_exit 2 "missing file" -- $T replay --dry-run "$tmp/nope.jsonl"

expect_exit 0 "guarded keys left out" -- $T replay --dry-run "$tmp/keys.jsonl"
expect_grep 'replayed without its keys.*KEY_A \(1 key\) not created, 2 events dropped; --allow-keys' "$tmp/err" \
	"says which keys are left out, once"
expect_grep 'dev 0 line 4: KEY_WAKEUP 1 SYN_REPORT' "$tmp/out" "KEY_WAKEUP is replayed"
if grep -q 'KEY_A' "$tmp/out"; then fail "KEY_A is in the schedule"; else pass "KEY_A is not replayed"; fi
expect_exit 0 "--allow-keys" -- $T replay --dry-run --allow-keys "$tmp/keys.jsonl"
expect_grep 'line 3: KEY_A 1 SYN_REPORT' "$tmp/out" "--allow-keys replays KEY_A"
expect_exit 0 "value outside absinfo replayed" -- $T replay --dry-run "$tmp/range.jsonl"
expect_grep 'range.jsonl: warning: device 0 "ts": 1 value outside the absinfo range of ABS_MT_POSITION_X \(1\): replayed as recorded.*\[value-out-of-range\]' \
	"$tmp/err" "says how many values, on which axis"
expect_grep 'line 4: ABS_MT_POSITION_X 999 SYN_REPORT' "$tmp/out" "written as recorded"
expect_exit 2 "--force is gone" -- $T replay --dry-run --force "$tmp/range.jsonl"
expect_exit 1 "malformed line refused" -- $T replay --dry-run "$tmp/bad.jsonl"
expect_grep 'bad.jsonl:4: ' "$tmp/err" "FILE:LINE for the malformed line"
expect_grep 'nothing was created' "$tmp/err" "says nothing was created"
expect_exit 1 "time backwards refused" -- $T replay --dry-run "$tmp/back.jsonl"
expect_grep 'back.jsonl:4: error: .*\[time-backwards\]' "$tmp/err" "named as validate names it"
expect_exit 2 "--desc on a timeline" -- $T replay --dry-run --desc "$tmp/ok.jsonl" "$tmp/ok.jsonl"
expect_grep 'desc is for evemu' "$tmp/err" "--desc is for evemu files"
expect_exit 2 "unknown --device" -- $T replay --dry-run --device 7 "$tmp/ok.jsonl"

expect_exit 0 "dry run" -- $T replay --dry-run "$tmp/ok.jsonl"
expect_grep '^5\.100000 dev 0 line 5: ABS_MT_POSITION_X 30' "$tmp/out" "deadline from recorded time"
expect_exit 0 "speed 2, max gap 1s" -- $T replay --dry-run --speed 2 --max-gap 1s "$tmp/ok.jsonl"
expect_grep '^0\.550000 dev 0 line 5:' "$tmp/out" "gap shortened, then halved"
expect_exit 0 "from/to" -- $T replay --dry-run --from 50ms --to 5.1 "$tmp/ok.jsonl"
expect_grep '^0\.000000 dev 0 state: ABS_MT_TRACKING_ID 1 ABS_MT_POSITION_X 10 BTN_TOUCH 1 SYN_REPORT' "$tmp/out" "touch down before --from is prepared"
expect_grep '^0\.050000 dev 0 line 4:' "$tmp/out" "deadline counts from --from"
expect_grep 'ABS_MT_TRACKING_ID -1 BTN_TOUCH 0 SYN_REPORT' "$tmp/out" "released at the end of the range"
expect_exit 0 "loop 3" -- $T replay --dry-run --loop 3 --report "$tmp/r.json" "$tmp/ok.jsonl"
expect_grep 'would replay 12 frames in 3 loops' "$tmp/out" "three loops"
expect_grep '"frames_written":12,.*"loops":3' "$tmp/r.json" "JSON report"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r.json" && pass "report is JSON" || fail "report is not JSON"
fi
finish
