#!/bin/sh
# touchtape record --libinput on the host: the option combinations and
# --libinput-config values refused before any device is opened (exit 2,
# naming what is wrong). What libinput records is record-libinput-vm.sh.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

expect_exit 0 "record --help" -- "$TOUCHTAPE" record --help
expect_grep "--libinput-config" "$tmp/out" "record --help mentions --libinput-config"

expect_exit 2 "an unknown setting" -- "$TOUCHTAPE" record --libinput-config tapp=on /dev/null
expect_grep "unknown setting 'tapp' .known: tap, tap-drag," "$tmp/err" "the unknown setting named, the known ones listed"
expect_exit 2 "a bad boolean" -- "$TOUCHTAPE" record --libinput-config tap=maybe /dev/null
expect_grep "tap takes on or off, not 'maybe'" "$tmp/err" "the bad value named"
expect_exit 2 "a bad enum" -- "$TOUCHTAPE" record --libinput-config scroll-method=three-finger /dev/null
expect_grep "scroll-method takes none, two-finger, edge, button, not 'three-finger'" "$tmp/err" "the methods listed"
expect_exit 2 "accel-speed out of range" -- "$TOUCHTAPE" record --libinput-config accel-speed=1.5 /dev/null
expect_grep "accel-speed takes a number from -1 to 1, not '1.5'" "$tmp/err" "the range given"
expect_exit 2 "a setting without value" -- "$TOUCHTAPE" record --libinput-config tap /dev/null
expect_grep "tap needs a value" "$tmp/err" "the missing value said"
expect_exit 2 "--libinput with --grab" -- "$TOUCHTAPE" record --libinput --grab /dev/null
expect_grep "grab would hide the events from libinput" "$tmp/err" "the grab conflict explained"
expect_exit 2 "--libinput with --autorestart" -- \
	"$TOUCHTAPE" record --libinput-config tap=on --autorestart 5 -o "$tmp/x" /dev/null
expect_grep "cannot be combined with --libinput" "$tmp/err" "the autorestart conflict explained"
[ ! -e "$tmp/x" ] && pass "no output file for a refused command line" || fail "output file created"

finish
