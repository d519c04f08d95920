#!/bin/sh
# The touchtape command line: help, version, usage errors, exit codes,
# print on files and pipes.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

expect_exit 0 "--version" -- "$TOUCHTAPE" --version
expect_grep '^touchtape [0-9]+\.[0-9]+' "$tmp/out" "--version prints the version"
expect_exit 0 "--help" -- "$TOUCHTAPE" --help
expect_grep 'validate' "$tmp/out" "--help lists commands"
expect_exit 0 "help" -- "$TOUCHTAPE" help
expect_exit 0 "help validate" -- "$TOUCHTAPE" help validate
expect_grep 'Usage: touchtape validate' "$tmp/out" "help CMD shows the command's usage"
expect_exit 2 "no command" -- "$TOUCHTAPE"
expect_exit 2 "unknown command" -- "$TOUCHTAPE" frobnicate
expect_grep "not a touchtape command" "$tmp/err" "unknown command message"
expect_exit 2 "unknown option" -- "$TOUCHTAPE" print --bogus
expect_grep "touchtape print --help" "$tmp/err" "usage error points to --help"
expect_exit 2 "validate without file" -- "$TOUCHTAPE" validate
expect_exit 2 "print bad --device" -- "$TOUCHTAPE" print --device x

for cmd in print validate; do
	expect_exit 0 "$cmd --help" -- "$TOUCHTAPE" "$cmd" --help
done

cat > "$tmp/t.jsonl" <<'JSON'
{"format":"touchtape-timeline","version":1,"tool":"test","start":{"monotonic_us":1000,"realtime_us":2000}}
{"type":"device","id":0,"name":"bad\u001b[2Jname","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"codes":{"EV_KEY":["BTN_TOUCH"]},"absinfo":{"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_TRACKING_ID":{"min":0,"max":65535},"ABS_MT_POSITION_X":{"min":0,"max":100}},"mt":{"protocol":"B","slots":2}}
{"type":"frame","dev":0,"t":10,"ev":[[3,57,1],[3,53,50],[1,330,1],[0,0,0]]}
{"type":"frame","dev":0,"t":18,"ev":[[3,53,55],[0,0,0]]}
{"type":"xi","xi":"TouchBegin","t":20,"deviceid":2,"sourceid":11,"detail":3,"flags":["emulating_pointer"],"client":"observer"}
{"type":"marker","t":30,"kind":"stop","text":"SIGINT"}
JSON
expect_exit 0 "print a file" -- "$TOUCHTAPE" print "$tmp/t.jsonl"
expect_grep 'ABS_MT_POSITION_X +55 +slot 0 \+5' "$tmp/out" "per-slot delta"
expect_grep 'ABS_MT_POSITION_X +50 +slot 0$' "$tmp/out" "a new touch's first value is not a delta"
expect_grep 'SYN_REPORT -+ \+0\.008ms' "$tmp/out" "frame gap"
expect_grep 'TouchBegin .*detail 3 flags: emulating_pointer' "$tmp/out" "XI flags spelled out"
expect_grep '===== stop: SIGINT' "$tmp/out" "marker"
if grep -q "$(printf '\033')" "$tmp/out"; then fail "escape sequence reached the terminal"; else pass "device name sanitized"; fi
"$TOUCHTAPE" print - < "$tmp/t.jsonl" > "$tmp/pipe.out" 2>&1
cmp -s "$tmp/out" "$tmp/pipe.out" && pass "print reads a pipe" || fail "print - differs from print FILE"
cat "$tmp/t.jsonl" | "$TOUCHTAPE" print > "$tmp/pipe2.out" 2>&1
cmp -s "$tmp/out" "$tmp/pipe2.out" && pass "print reads stdin by default" || fail "print from stdin differs"

expect_exit 2 "print a missing file" -- "$TOUCHTAPE" print "$tmp/nope.jsonl"
expect_grep 'nope.jsonl: No such file' "$tmp/err" "missing file message"
printf 'garbage\n' > "$tmp/g.txt"
expect_exit 2 "print garbage" -- "$TOUCHTAPE" print "$tmp/g.txt"
# Standard input has one name in every command's messages: <stdin>
# (issue 34: inspect said "-").
for cmd in "inspect --summary" "analyze" "validate --max 0"; do
	# shellcheck disable=SC2086
	"$TOUCHTAPE" $cmd - <"$samples/3m-two-finger.jsonl" >"$tmp/out" 2>&1
	grep -q '^-:' "$tmp/out" && fail "$cmd names stdin '-'" || pass "$cmd: stdin is not '-'"
	expect_grep '<stdin>' "$tmp/out" "$cmd names stdin <stdin>"
done
# A reader's warning is prefixed like every message, in every command,
# and carries no time it does not have (issue 34).
printf 'R: 1 05\nS: x\n' >"$tmp/w.hid"
for cmd in print "inspect --summary" convert validate; do
	# shellcheck disable=SC2086
	"$TOUCHTAPE" $cmd "$tmp/w.hid" >/dev/null 2>"$tmp/err"
	expect_grep "^touchtape ${cmd%% *}: .*w\.hid:2: warning: unknown line type" "$tmp/err" "$cmd: the warning is prefixed"
done
"$TOUCHTAPE" analyze "$tmp/w.hid" >"$tmp/out" 2>&1
expect_grep 'w\.hid:2: warning: unknown line type' "$tmp/out" "analyze lists the reader's warning"
grep -q 'w\.hid:2: 0\.000000 s' "$tmp/out" && fail "analyze gives the reader's warning a time of 0" ||
	pass "analyze: no time for the reader's warning"
finish
