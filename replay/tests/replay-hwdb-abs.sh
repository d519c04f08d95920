#!/bin/sh
# replay --hwdb-abs takes hwdb EVDEV_ABS entries as udev writes them and
# refuses anything else before a device is made (exit 2); the VM test
# grade/tests/grade-fuzz-vm.sh shows the kernel filtering with it.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
rec="$samples/3m-two-finger.jsonl"

expect_exit 0 "a fuzz entry" -- "$TOUCHTAPE" replay --dry-run --hwdb-abs EVDEV_ABS_35=:::8 --hwdb-abs EVDEV_ABS_36=:::8 "$rec"
expect_exit 0 "a range and resolution" -- "$TOUCHTAPE" replay --dry-run --hwdb-abs EVDEV_ABS_00=0:4095:16 "$rec"
expect_exit 0 "every field" -- "$TOUCHTAPE" replay --dry-run --hwdb-abs EVDEV_ABS_2f=0:9:0:0:0 "$rec"
for bad in EVDEV_ABS_35 "EVDEV_ABS_35=:::x" "EVDEV_ABS_zz=:::8" "EVDEV_ABS_40=:::8" "EVDEV_ABS_35=1:2:3:4:5:6" \
	"ABS_35=:::8" "EVDEV_ABS_=:::8" "EVDEV_ABS_35=:::99999999999"; do
	expect_exit 2 "refused: $bad" -- "$TOUCHTAPE" replay --dry-run --hwdb-abs "$bad" "$rec"
	expect_grep "^touchtape replay: --hwdb-abs takes an entry like EVDEV_ABS_35=:::8" "$tmp/err" "$bad: says what it takes"
done
expect_exit 2 "not with --hid" -- "$TOUCHTAPE" replay --dry-run --hid --hwdb-abs EVDEV_ABS_35=:::8 "$rec"
finish
