#!/bin/sh
# touchtape validate: exit status, FILE:LINE messages, truncated files.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":1,"realtime_us":2}}'
dev='{"type":"device","id":0,"name":"t","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"codes":{"EV_KEY":["BTN_TOUCH"]},"absinfo":{"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_TRACKING_ID":{"min":0,"max":65535},"ABS_MT_POSITION_X":{"min":0,"max":100}},"mt":{"protocol":"B","slots":2}}'

printf '%s\n%s\n%s\n' "$hdr" "$dev" '{"type":"frame","dev":0,"t":10,"ev":[[3,57,1],[0,0,0]]}' > "$tmp/good.jsonl"
expect_exit 0 "valid file" -- "$TOUCHTAPE" validate "$tmp/good.jsonl"
expect_grep 'good.jsonl: touchtape timeline, 3 records, 0 errors, 0 warnings' "$tmp/out" "summary line"

printf '%s\n%s\n%s\n%s\n' "$hdr" "$dev" '{"type":"frame","dev":0,"t":10,"ev":[[3,53,500],[0,0,0]]}' \
	'{"type":"frame","dev":0,"t":5,"ev":[[3,47,7],[0,0,0]]}' > "$tmp/bad.jsonl"
expect_exit 1 "semantic errors" -- "$TOUCHTAPE" validate "$tmp/bad.jsonl"
expect_grep 'bad.jsonl:3: warning: .*outside its range' "$tmp/err" "value range with line (a warning: devices do it)"
expect_grep 'bad.jsonl:4: error: .*before the previous' "$tmp/err" "time backwards with line"
expect_grep 'bad.jsonl:4: error: .*slot 7 is beyond' "$tmp/err" "slot range with line"

printf '%s\n%s\n{"type":"frame","dev":0,"t":1' "$hdr" "$dev" > "$tmp/cut.jsonl"
expect_exit 0 "truncated last line is a warning" -- "$TOUCHTAPE" validate "$tmp/cut.jsonl"
expect_grep 'cut.jsonl:3: warning: the last line is cut short' "$tmp/err" "truncation warning"
expect_exit 1 "--strict fails on warnings" -- "$TOUCHTAPE" validate --strict "$tmp/cut.jsonl"

printf '%s\n{"type":"frame","dev":0,"t":1,"ev":[]}\n' "$hdr" > "$tmp/nodev.jsonl"
expect_exit 1 "frame of undeclared device" -- "$TOUCHTAPE" validate "$tmp/nodev.jsonl"
expect_grep 'nodev.jsonl:2: frame for device 0' "$tmp/err" "undeclared device message"

expect_exit 1 "several files, one bad" -- "$TOUCHTAPE" validate "$tmp/good.jsonl" "$tmp/bad.jsonl"
expect_exit 0 "--quiet" -- "$TOUCHTAPE" validate -q "$tmp/good.jsonl"

for s in "$samples"/*.jsonl; do
	[ -e "$s" ] || continue
	expect_exit 0 "sample $(basename "$s") validates" -- "$TOUCHTAPE" validate "$s"
done
finish
