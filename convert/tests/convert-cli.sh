#!/bin/sh
# touchtape convert: usage, exit codes, what the target cannot hold is
# reported, --desc, stdin, look-alikes, FILE:LINE on malformed input.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

expect_exit 0 "--help" -- "$TOUCHTAPE" convert --help
expect_grep 'touchtape convert \[OPTIONS\] IN' "$tmp/out" "usage line"
expect_grep 'Examples:' "$tmp/out" "examples"
expect_exit 2 "no input" -- "$TOUCHTAPE" convert
expect_grep "Try 'touchtape convert --help'" "$tmp/err" "points to --help"
expect_exit 2 "bad --to" -- "$TOUCHTAPE" convert --to xml x
expect_exit 2 "bad --device" -- "$TOUCHTAPE" convert --device -1 x
expect_exit 2 "missing file" -- "$TOUCHTAPE" convert "$tmp/nonexistent"
expect_grep 'nonexistent: No such file' "$tmp/err" "names the file"

desc='# EVEMU 1.2
N: cli touchscreen
I: 0003 0001 0002 0003
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 03 00 00 00 00 00 80 60 02
A: 2f 0 1 0 0 0
A: 35 0 100 0 0 0
A: 36 0 100 0 0 0
A: 39 0 65535 0 0 0'
events='E: 1700000000.000100 0003 0039 0005
E: 1700000000.000100 0003 0035 0010
E: 1700000000.000100 0000 0000 0000
E: 1700000000.016100 0003 0039 -001
E: 1700000000.016100 0000 0000 0000'
printf '%s\n' "$desc" >"$tmp/t.desc"
printf '%s\n' "$events" >"$tmp/t.events"
printf '%s\n%s\n' "$desc" "$events" >"$tmp/t.evemu"

# Default output: a timeline that validates, with the epoch start kept.
expect_exit 0 "evemu to timeline" -- "$TOUCHTAPE" convert "$tmp/t.evemu" -o "$tmp/t.jsonl"
expect_exit 0 "validates" -- "$TOUCHTAPE" validate "$tmp/t.jsonl"
expect_grep '"realtime_us":1700000000000100' "$tmp/t.jsonl" "epoch start kept"
expect_grep '"source_format":"evemu"' "$tmp/t.jsonl" "source format"
expect_grep '"t":16000,' "$tmp/t.jsonl" "relative frame times"
# Every reading command takes evemu directly.
expect_exit 0 "validate reads evemu" -- "$TOUCHTAPE" validate "$tmp/t.evemu"
expect_grep 't.evemu: evemu, 4 records, 0 errors' "$tmp/out" "as evemu"

# Split files: --desc.
expect_exit 0 "--desc" -- "$TOUCHTAPE" convert --desc "$tmp/t.desc" "$tmp/t.events" -o "$tmp/s.jsonl"
if cmp -s "$tmp/t.jsonl" "$tmp/s.jsonl"; then pass "split = joined"; else fail "split and joined files differ"; fi
expect_exit 0 "events-only, inferred" -- "$TOUCHTAPE" convert "$tmp/t.events" -o "$tmp/i.jsonl"
expect_grep 'warning: events-only recording without a description' "$tmp/err" "inference warned"
expect_exit 2 "--desc on a timeline" -- "$TOUCHTAPE" convert --desc "$tmp/t.desc" "$tmp/t.jsonl"

# Back to evemu, same events; stdin works.
expect_exit 0 "to evemu from stdin" -- sh -c "\"$TOUCHTAPE\" convert --to evemu - <\"$tmp/t.jsonl\" >\"$tmp/b.evemu\""
expect_grep '^E: 1700000000.016100 0003 0039 -001' "$tmp/b.evemu" "epoch time and zero padding kept"
expect_grep '^A: 35 0 100 0 0 0$' "$tmp/b.evemu" "absinfo"
expect_grep '^# EVEMU 1.3$' "$tmp/b.evemu" "version line"

# What evemu cannot hold is reported.
xi='{"type":"xi","xi":"TouchBegin","t":5,"deviceid":2,"detail":1}'
mk='{"type":"marker","t":6,"kind":"note","text":"hello"}'
{ cat "$tmp/t.jsonl"; echo "$xi"; echo "$mk"; } >"$tmp/x.jsonl"
expect_exit 0 "timeline with XI to evemu" -- "$TOUCHTAPE" convert --to evemu "$tmp/x.jsonl" -o "$tmp/x.evemu"
expect_grep 'no XInput records: 0 XI devices and 1 XI event were not written' "$tmp/err" "XI reported"
expect_grep 'no markers: 1 marker written as comments' "$tmp/err" "marker reported"
expect_grep '^# touchtape marker at 0.000006 s: note: hello' "$tmp/x.evemu" "marker as a comment"
expect_exit 2 "--device picks none" -- "$TOUCHTAPE" convert --to evemu --device 7 "$tmp/x.jsonl" -o "$tmp/n.evemu"
expect_grep 'there is no device 7' "$tmp/err" "a --device the file lacks is an error"
[ ! -e "$tmp/n.evemu" ] && pass "--device the file lacks: no output left" || fail "--device the file lacks: output written"

# Malformed lines: FILE:LINE, exit 1, the rest converted.
printf '%s\nE: 1700000000.000200 0003 zz 1\n%s\n' "$desc" "$events" >"$tmp/bad.evemu"
expect_exit 1 "malformed line" -- "$TOUCHTAPE" convert "$tmp/bad.evemu" -o "$tmp/bad.jsonl"
expect_grep 'bad.evemu:11: E: type and code must be hex' "$tmp/err" "FILE:LINE message"
expect_grep '"t":16000,' "$tmp/bad.jsonl" "later frames converted"

# Look-alikes.
printf 'Input driver version is 1.0.1\nInput device ID: bus 0x3\n' >"$tmp/evtest.txt"
expect_exit 2 "evtest" -- "$TOUCHTAPE" convert "$tmp/evtest.txt"
expect_grep 'evtest dump' "$tmp/err" "evtest named"
printf 'I: Bus=0011 Vendor=0001\nN: Name="x"\nP: Phys=y\n' >"$tmp/proc.txt"
expect_exit 2 "/proc/bus/input/devices" -- "$TOUCHTAPE" convert "$tmp/proc.txt"
expect_grep '/proc/bus/input/devices' "$tmp/err" "proc named"
# libinput replay refuses a device without udev properties: a touchscreen
# and a touchpad get the ones udev's input_id would give them.
expect_exit 0 "to libinput: touchscreen" -- "$TOUCHTAPE" convert --to libinput "$samples/3m-two-finger.jsonl" -o "$tmp/ts.yml"
expect_grep '^    - ID_INPUT_TOUCHSCREEN=1$' "$tmp/ts.yml" "touchscreen udev properties"
expect_exit 0 "to libinput: touchpad" -- "$TOUCHTAPE" convert --to libinput "$samples/touchpad-two-finger-swipe.jsonl" -o "$tmp/tp.yml"
expect_grep '^    - ID_INPUT_TOUCHPAD=1$' "$tmp/tp.yml" "touchpad udev properties"
finish
