#!/bin/sh
# touchtape validate: exit status, "touchtape validate: FILE:LINE: what
# [kind]" messages, truncated files, --strict, --ignore, --max per kind.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":1,"realtime_us":2}}'
dev='{"type":"device","id":0,"name":"t","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"codes":{"EV_KEY":["BTN_TOUCH"]},"absinfo":{"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_TRACKING_ID":{"min":0,"max":65535},"ABS_MT_POSITION_X":{"min":0,"max":100}},"mt":{"protocol":"B","slots":2}}'

printf '%s\n%s\n%s\n%s\n' "$hdr" "$dev" '{"type":"frame","dev":0,"t":10,"ev":[[3,57,1],[1,330,1],[0,0,0]]}' \
	'{"type":"frame","dev":0,"t":20,"ev":[[3,57,-1],[1,330,0],[0,0,0]]}' > "$tmp/good.jsonl"
expect_exit 0 "valid file" -- "$TOUCHTAPE" validate --strict "$tmp/good.jsonl"
expect_grep 'good.jsonl: touchtape timeline, 4 records, 0 errors, 0 warnings' "$tmp/out" "summary line"

printf '%s\n%s\n%s\n%s\n' "$hdr" "$dev" '{"type":"frame","dev":0,"t":10,"ev":[[3,53,500],[0,0,0]]}' \
	'{"type":"frame","dev":0,"t":5,"ev":[[3,47,7],[0,0,0]]}' > "$tmp/bad.jsonl"
expect_exit 1 "semantic errors" -- "$TOUCHTAPE" validate "$tmp/bad.jsonl"
expect_grep '^touchtape validate: .*bad.jsonl:3: warning: device 0: ABS_MT_POSITION_X value 500 is outside its range \[0, 100\] \[value-out-of-range\]$' \
	"$tmp/err" "value range with line and kind (a warning: devices do it)"
expect_grep 'bad.jsonl:4: error: .*before the previous' "$tmp/err" "time backwards with line"
expect_grep 'bad.jsonl:4: error: .*slot 7 is beyond' "$tmp/err" "slot range with line"

printf '%s\n%s\n{"type":"frame","dev":0,"t":1' "$hdr" "$dev" > "$tmp/cut.jsonl"
expect_exit 0 "truncated last line is a warning" -- "$TOUCHTAPE" validate "$tmp/cut.jsonl"
expect_grep 'cut.jsonl:3: warning: the last line is cut short' "$tmp/err" "truncation warning"
expect_exit 1 "--strict fails on warnings" -- "$TOUCHTAPE" validate --strict "$tmp/cut.jsonl"

printf '%s\n{"type":"frame","dev":0,"t":1,"ev":[]}\n' "$hdr" > "$tmp/nodev.jsonl"
expect_exit 1 "frame of undeclared device" -- "$TOUCHTAPE" validate "$tmp/nodev.jsonl"
expect_grep 'nodev.jsonl:2: error: frame for device 0.*\[bad-line\]' "$tmp/err" "undeclared device message"

# Many warnings of one kind are summarised; other kinds are still shown.
{
	printf '%s\n%s\n' "$hdr" "$dev"
	i=1
	while [ $i -le 30 ]; do
		printf '{"type":"frame","dev":0,"t":%d,"ev":[[3,53,%d],[0,0,0]]}\n' $((i * 10)) $((200 + i))
		i=$((i + 1))
	done
	printf '{"type":"frame","dev":0,"t":9'
} >"$tmp/many.jsonl"
expect_exit 0 "30 warnings of one kind and a cut line" -- "$TOUCHTAPE" validate "$tmp/many.jsonl"
[ "$(grep -c '\[value-out-of-range\]$' "$tmp/err")" = 10 ] && pass "--max 10 per kind by default" ||
	fail "value-out-of-range shown $(grep -c '\[value-out-of-range\]$' "$tmp/err") times, want 10"
expect_grep '^touchtape validate: \.\.\. and 20 more value-out-of-range; --max 0 shows all$' "$tmp/err" "the rest counted"
expect_grep 'many.jsonl:33: warning: the last line is cut short.*\[reader-warning\]$' "$tmp/err" \
	"the cut-short warning is not hidden by the others"
expect_grep 'many.jsonl: touchtape timeline, 32 records, 0 errors, 31 warnings' "$tmp/out" "every warning counted"
expect_exit 0 "--max 0 shows all" -- "$TOUCHTAPE" validate --max 0 "$tmp/many.jsonl"
[ "$(grep -c '\[value-out-of-range\]$' "$tmp/err")" = 30 ] && pass "--max 0: all 30" || fail "--max 0 did not show all"
expect_exit 1 "--strict: warnings are findings" -- "$TOUCHTAPE" validate --strict "$tmp/many.jsonl"
expect_exit 0 "--strict with both warning kinds ignored" -- \
	"$TOUCHTAPE" validate --strict --ignore value-out-of-range --ignore reader-warning "$tmp/many.jsonl"
expect_grep 'many.jsonl: touchtape timeline, 32 records, 0 errors, 0 warnings' "$tmp/out" "ignored kinds not counted"
expect_exit 2 "--ignore with an unknown kind" -- "$TOUCHTAPE" validate --ignore no-such-kind "$tmp/many.jsonl"
expect_exit 2 "missing file" -- "$TOUCHTAPE" validate "$tmp/nope.jsonl"

expect_exit 1 "several files, one bad" -- "$TOUCHTAPE" validate "$tmp/good.jsonl" "$tmp/bad.jsonl"
expect_exit 0 "--quiet" -- "$TOUCHTAPE" validate -q "$tmp/good.jsonl"

for s in "$samples"/*.jsonl; do
	[ -e "$s" ] || continue
	# The synaptics touchpad's real jumps where its second finger lands
	# or lifts (samples/README.md): those errors and no others.
	if [ "$(basename "$s")" = xi-touchpad-synaptics.jsonl ]; then
		expect_exit 1 "sample $(basename "$s"): its jumps" -- "$TOUCHTAPE" validate "$s"
		grep -q ' 9 errors' "$tmp/out" && [ "$(grep -c 'error: .*\[jump\]$' "$tmp/err")" = 9 ] &&
			pass "sample $(basename "$s"): 9 errors, all jumps" || fail "sample $(basename "$s"): not its 9 jumps"
		continue
	fi
	expect_exit 0 "sample $(basename "$s") validates" -- "$TOUCHTAPE" validate "$s"
	grep -q ' 0 errors' "$tmp/out" && pass "sample $(basename "$s"): no errors" || fail "sample $(basename "$s"): errors"
done
finish
