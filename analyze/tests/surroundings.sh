#!/bin/bash
# The devices' surroundings (udev properties, hwdb, quirks, the host's
# system) as print, inspect --summary, analyze and diff show them, on the
# touchpad sample with surroundings added; and replay's options for them.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

# with_sur IN OUT WIDTH QUIRK: IN with a system header and surroundings
# on its device (ID_INPUT_WIDTH_MM=WIDTH, quirk QUIRK).
with_sur() {
	sed -e '1s/}$/,"system":{"dmi_modalias":"dmi:bvnLENOVO:svnLENOVO:pn20QD:","os_id":"debian","os_version_id":"12","libinput_version":"1.22.1","libevdev_version":"1.13.0"}}/' \
	    -e '/"type":"device"/s/}$/,"syspath":"\/sys\/devices\/platform\/i8042\/serio1\/input\/input5\/event5","driver":"psmouse","udev":{"ID_INPUT":"1","ID_INPUT_TOUCHPAD":"1","ID_INPUT_WIDTH_MM":"'"$3"'","ID_PATH":"platform-i8042-serio-1","EVDEV_ABS_00":"::31"},"hwdb":{"EVDEV_ABS_00":"::31"},"quirks":["'"$4"'"]}/' \
	    "$1" >"$2"
}
with_sur "$samples/touchpad-two-finger-swipe.jsonl" "$tmp/a.jsonl" 123 ModelAppleTouchpad=1
with_sur "$samples/touchpad-two-finger-swipe.jsonl" "$tmp/b.jsonl" 97 AttrPressureRange=10:8
expect_exit 0 "the fixture is valid" -- "$TOUCHTAPE" validate "$tmp/a.jsonl"

expect_exit 0 "print" -- "$TOUCHTAPE" print "$tmp/a.jsonl"
expect_grep '^# system: debian 12, libinput 1.22.1, libevdev 1.13.0$' "$tmp/out" "print: the system"
expect_grep '^# DMI: dmi:bvnLENOVO:svnLENOVO:pn20QD:$' "$tmp/out" "print: DMI"
expect_grep '^#   driver: psmouse$' "$tmp/out" "print: the driver"
expect_grep '^#   udev ID_PATH=platform-i8042-serio-1$' "$tmp/out" "print: every udev property"
expect_grep '^#   hwdb EVDEV_ABS_00=::31$' "$tmp/out" "print: hwdb"
expect_grep '^#   quirk ModelAppleTouchpad=1$' "$tmp/out" "print: the quirk"

expect_exit 0 "inspect --summary" -- "$TOUCHTAPE" inspect --summary "$tmp/a.jsonl"
expect_grep '^  system: debian 12' "$tmp/out" "summary: the system"
expect_grep '^  udev: ID_INPUT=1 ID_INPUT_TOUCHPAD=1 ID_INPUT_WIDTH_MM=123 EVDEV_ABS_00=::31$' "$tmp/out" \
	"summary: the key properties, not ID_PATH"
expect_grep '^  quirk ModelAppleTouchpad=1$' "$tmp/out" "summary: the quirk"
expect_exit 0 "inspect --summary --json" -- "$TOUCHTAPE" inspect --summary --json "$tmp/a.jsonl"
expect_grep '"system":\{"dmi_modalias":"dmi:bvnLENOVO' "$tmp/out" "summary JSON: the system"
expect_grep '"driver":"psmouse".*"quirks":\["ModelAppleTouchpad=1"\]' "$tmp/out" "summary JSON: the device's"

expect_exit 0 "analyze" -- "$TOUCHTAPE" analyze "$tmp/a.jsonl"
expect_grep '^  driver: psmouse$' "$tmp/out" "analyze: the driver"
expect_exit 0 "analyze --json" -- "$TOUCHTAPE" analyze --json "$tmp/a.jsonl"
expect_grep '"os_id":"debian"' "$tmp/out" "analyze JSON: the system"
expect_grep '"udev":\{"ID_INPUT":"1",.*"hwdb":\{"EVDEV_ABS_00":"::31"\},"quirks":\["ModelAppleTouchpad=1"\]' \
	"$tmp/out" "analyze JSON: the device's surroundings"
# Without surroundings nothing is added.
"$TOUCHTAPE" analyze --json "$samples/touchpad-two-finger-swipe.jsonl" >"$tmp/plain.json"
grep -q '"system"\|"udev"\|"quirks"' "$tmp/plain.json" && fail "analyze JSON without surroundings has them" ||
	pass "analyze JSON without surroundings"

expect_exit 1 "diff: surroundings differ" -- "$TOUCHTAPE" diff "$tmp/a.jsonl" "$tmp/b.jsonl"
expect_grep ': device 0 udev property ID_INPUT_WIDTH_MM is "123" in .*a.jsonl vs "97" in .*b.jsonl$' "$tmp/out" \
	"diff: the changed property"
expect_grep ': device 0 quirk ModelAppleTouchpad=1 only in .*a.jsonl$' "$tmp/out" "diff: a quirk only in A"
expect_grep ': device 0 quirk AttrPressureRange=10:8 only in .*b.jsonl$' "$tmp/out" "diff: a quirk only in B"
expect_grep '^3 differences$' "$tmp/out" "diff: those 3 (ID_PATH is not compared)"
expect_exit 0 "diff: the same surroundings" -- "$TOUCHTAPE" diff "$tmp/a.jsonl" "$tmp/a.jsonl"
expect_exit 0 "diff: one side without surroundings" -- "$TOUCHTAPE" diff "$tmp/a.jsonl" \
	"$samples/touchpad-two-finger-swipe.jsonl"
expect_exit 0 "diff -k: the kernel layer only" -- "$TOUCHTAPE" diff -k "$tmp/a.jsonl" "$tmp/b.jsonl"
# A replay's name tag is not a difference.
sed 's/"name":"Synaptics TM3276-022"/"name":"touchtape replay: Synaptics TM3276-022 (pid 123.0)"/' \
	"$samples/touchpad-two-finger-swipe.jsonl" >"$tmp/tagged.jsonl"
expect_exit 0 "diff: a replay's name tag" -- "$TOUCHTAPE" diff "$samples/touchpad-two-finger-swipe.jsonl" \
	"$tmp/tagged.jsonl"
sed 's/"name":"Synaptics TM3276-022"/"name":"Synaptics TM3276-022 (pid x)"/' \
	"$samples/touchpad-two-finger-swipe.jsonl" >"$tmp/other.jsonl"
expect_exit 1 "diff: another name is still one" -- "$TOUCHTAPE" diff "$samples/touchpad-two-finger-swipe.jsonl" \
	"$tmp/other.jsonl"

# replay: the options, and --isolate refused with --hid.
"$TOUCHTAPE" replay --help >"$tmp/help"
expect_grep '--no-surroundings' "$tmp/help" "replay --help: --no-surroundings"
expect_grep '--isolate' "$tmp/help" "replay --help: --isolate"
expect_exit 2 "replay --hid --isolate refused" -- "$TOUCHTAPE" replay --hid --isolate "$tmp/a.jsonl"
expect_exit 0 "replay --dry-run --isolate" -- "$TOUCHTAPE" replay --dry-run --isolate --no-surroundings "$tmp/a.jsonl"
finish
