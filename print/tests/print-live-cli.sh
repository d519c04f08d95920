#!/bin/sh
# touchtape print's live mode, what the host can check without devices:
# which argument goes live, and the errors. The live view itself is
# print/tests/print-live-vm.sh.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
m3="$samples/3m-two-finger.jsonl"

expect_exit 0 "--help" -- "$TOUCHTAPE" print --help
expect_grep 'Live, like evtest' "$tmp/out" "--help: the live mode"
expect_grep '^      --xi\[=DISPLAY\]' "$tmp/out" "--help: --xi"

# --xi shows the X server live: with a file it is a usage error.
expect_exit 2 "--xi with a file" -- "$TOUCHTAPE" print --xi "$m3"
expect_grep 'give a device node' "$tmp/err" "--xi with a file: says what it needs"

# A device node that is not there: the recorder's error, exit 1, nothing
# printed, no process left behind.
expect_exit 2 "missing device" -- "$TOUCHTAPE" print /dev/input/event-none
expect_grep '/dev/input/event-none: No such file or directory' "$tmp/err" "missing device: named"
[ -s "$tmp/out" ] && fail "missing device: printed something" || pass "missing device: nothing printed"
# A character device that is not evdev.
expect_exit 2 "not evdev" -- "$TOUCHTAPE" print /dev/null
expect_grep '/dev/null: not an evdev device node' "$tmp/err" "not evdev: says so"

# Standard input that is not a terminal is still a recording to read.
"$TOUCHTAPE" print <"$m3" >"$tmp/out" 2>"$tmp/err" && pass "stdin, no terminal" || fail "stdin, no terminal"
expect_grep '^0\.000019 dev0  -+ SYN_REPORT' "$tmp/out" "stdin: printed like the file"
finish
