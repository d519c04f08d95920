#!/bin/sh
# touchtape record and list on the host: usage errors, --help, and the
# messages for missing devices. The kernel side is record/tests/vm-record.sh.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

expect_exit 0 "record --help" -- "$TOUCHTAPE" record --help
for opt in --output --all-touch --grab --show-keycodes --duration --frames --autorestart --quiet; do
	expect_grep "$opt" "$tmp/out" "record --help mentions $opt"
done
expect_grep "Examples:" "$tmp/out" "record --help has examples"
expect_exit 0 "list --help" -- "$TOUCHTAPE" list --help
expect_grep "--json" "$tmp/out" "list --help mentions --json"

expect_exit 2 "record --frames 0" -- "$TOUCHTAPE" record --frames 0 /dev/null
expect_exit 2 "record --frames x" -- "$TOUCHTAPE" record --frames x /dev/null
expect_exit 2 "record --duration -1" -- "$TOUCHTAPE" record --duration -1 /dev/null
expect_exit 2 "record --autorestart without -o" -- "$TOUCHTAPE" record --autorestart 5 /dev/null
expect_grep "needs -o FILE" "$tmp/err" "--autorestart explains"
expect_exit 2 "record --bogus" -- "$TOUCHTAPE" record --bogus
expect_exit 2 "list extra argument" -- "$TOUCHTAPE" list foo

expect_exit 2 "record a missing node" -- "$TOUCHTAPE" record /nonexistent/event99 -o "$tmp/x"
expect_grep "/nonexistent/event99: No such file" "$tmp/err" "missing node named"
[ ! -e "$tmp/x" ] && pass "no output file created for a failed start" || fail "output file created"
expect_exit 2 "record a non-evdev file" -- "$TOUCHTAPE" record /dev/null -o "$tmp/x"
expect_grep "not an evdev device" "$tmp/err" "non-evdev node explained"

# No DEVICE and no terminal: a clear message, not a prompt.
"$TOUCHTAPE" record </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && pass "no device, no terminal: exit 2" || fail "no device, no terminal: exit $rc"
expect_grep "no terminal" "$tmp/err" "no-terminal message"
# --guide grades the kernel's touches: with --xi and no DEVICE it picks
# them as without --xi (here: no terminal, the picker's message), rather
# than recording the X side alone.
DISPLAY=:99 "$TOUCHTAPE" record --guide touchscreen --xi -o "$tmp/guide.jsonl" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && pass "--guide --xi, no device, no terminal: exit 2" || fail "--guide --xi, no device: exit $rc"
expect_grep "no terminal" "$tmp/err" "--guide --xi without DEVICE picks the kernel devices"

finish
