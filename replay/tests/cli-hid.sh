#!/bin/sh
# touchtape replay --hid without devices (--dry-run): the reports of a
# timeline's hid records on the schedule (speed, gaps, range), the lift
# report built from the descriptor at the end (Tip Switch off, the rest as
# last sent), a keyboard collection's reports left out unless
# --allow-keys, and the refusals (no HID device, --device naming none,
# --exact and --desc, which are for uinput); --report and --from past the
# end as the evdev replay has them.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":0,"realtime_us":0}}'
# A one-finger touchscreen (report 1: tip, contact id, X, Y, contact
# count) and a keyboard (report 2: the modifiers) in one descriptor.
touch_desc=050d0904a10185010922a102094215002501750195018102750781030951250f7508810205010930
touch_desc=${touch_desc}26ff0f7510810209318102c0050d0954250a75088102c0
kbd_desc=05010906a1018502050719e029e715002501750195088102c0
# A pen (report 2: tip, barrel, in range, X, Y, pressure).
pen_desc=050d0902a10185020920a10009420944093215002501750195038102950581030501
pen_desc=${pen_desc}0930093126ff7f751095028102050d093026ff03751095018102c0c0
hid_dev() {
	printf '{"type":"hid_device","id":%s,"name":"test hid","bus":3,"vendor":1,"product":2,"version":3,"descriptor":"%s"}\n' "$1" "$2"
}
report() { printf '{"type":"hid","dev":0,"t":%s,"data":"%s"}\n' "$1" "$2"; }

{ echo "$hdr"; hid_dev 0 "$touch_desc$kbd_desc"
  report 0 0101031000200001; report 10000 0101031100210001; report 20000 0202
  report 2030000 0101031200220001; } >"$tmp/touch.jsonl"
{ echo "$hdr"; hid_dev 0 "$touch_desc"; report 0 0101031000200001
  report 10000 0100031000200001; } >"$tmp/lifted.jsonl"
{ echo "$hdr"; printf '%s\n' '{"type":"device","id":0,"name":"ts","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"codes":{"EV_KEY":["BTN_TOUCH"]}}'
  printf '%s\n' '{"type":"frame","dev":0,"t":0,"ev":[[1,330,1],[0,0,0]]}'; } >"$tmp/evdev.jsonl"

T=$TOUCHTAPE
expect_exit 0 "--help" -- $T replay --help
expect_grep '--hid' "$tmp/out" "--help documents --hid"

expect_exit 0 "--hid --dry-run" -- $T replay --hid --dry-run "$tmp/touch.jsonl"
expect_grep '^0\.000000 hid 0 line 3: 01 01 03 10 00 20 00 01$' "$tmp/out" "the first report at 0"
expect_grep '^2\.030000 hid 0 line 6: 01 01 03 12 00 22 00 01$' "$tmp/out" "the last report at its recorded time"
expect_grep '^2\.030000 hid 0 lift: 01 00 03 12 00 22 00 01$' "$tmp/out" \
	"the lift: the last report with the Tip Switch off"
expect_grep 'would replay 3 HID reports in 1 loop \(1 lift report\)' "$tmp/out" "the summary counts them"
expect_grep '1 report of its keyboard or keypad collection left out.*--allow-keys' "$tmp/err" \
	"the keyboard's report is left out, said"
if grep -q ': 02 02$' "$tmp/out"; then fail "the keyboard report is played"; else pass "no keyboard report"; fi

expect_exit 0 "--allow-keys" -- $T replay --hid --dry-run --allow-keys "$tmp/touch.jsonl"
expect_grep 'line 5: 02 02$' "$tmp/out" "--allow-keys replays the keyboard report"
expect_exit 0 "--speed 2 --max-gap 100ms" -- $T replay --hid --dry-run --speed 2 --max-gap 100ms "$tmp/touch.jsonl"
expect_grep '^0\.055000 hid 0 line 6:' "$tmp/out" "deadlines follow --speed and --max-gap"
expect_exit 0 "--from --to" -- $T replay --hid --dry-run --from 5ms --to 1s "$tmp/touch.jsonl"
expect_grep 'would replay 1 HID report in 1 loop' "$tmp/out" "--from and --to select the reports"
expect_exit 0 "--loop 2" -- $T replay --hid --dry-run --loop 2 "$tmp/touch.jsonl"
expect_grep 'would replay 6 HID reports in 2 loops \(2 lift reports\)' "$tmp/out" "lifted before the second loop too"

# The same pipeline as the evdev replay: --report, and --from past the end.
expect_exit 0 "--report" -- $T replay --hid --dry-run --loop 2 --report "$tmp/r.json" "$tmp/touch.jsonl"
expect_grep '^\{"frames_written":6,"extra_frames":2,"loops":2,"oversized_skipped":0,"lateness":\{' \
	"$tmp/r.json" "the JSON report counts the reports, lifts and loops"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r.json" && pass "report is JSON" ||
		fail "report is not JSON"
fi
expect_exit 2 "--report onto the input" -- $T replay --hid --dry-run --report "$tmp/touch.jsonl" "$tmp/touch.jsonl"
expect_exit 2 "--from past the end" -- $T replay --hid --dry-run --from 3s "$tmp/touch.jsonl"
expect_grep 'from 3\.000000 is past the end of .*touch\.jsonl: no report at or after it' "$tmp/err" \
	"--from past the last report is refused, as for evdev frames"

expect_exit 0 "nothing down at the end" -- $T replay --hid --dry-run "$tmp/lifted.jsonl"
if grep -q 'lift:' "$tmp/out"; then fail "a lift with nothing down"; else pass "no lift with nothing down"; fi

{ echo "$hdr"; hid_dev 0 "$pen_desc"; report 0 020510002000f401; } >"$tmp/pen.jsonl"
expect_exit 0 "a pen in range" -- $T replay --hid --dry-run "$tmp/pen.jsonl"
expect_grep '^0\.000000 hid 0 lift: 02 00 10 00 20 00 00 00$' "$tmp/out" \
	"the pen's lift: tip, in range and pressure off, X and Y kept"

expect_exit 1 "no HID device" -- $T replay --hid --dry-run "$tmp/evdev.jsonl"
expect_grep 'no HID device to replay' "$tmp/err" "says there is no HID device"
expect_exit 2 "--device naming none" -- $T replay --hid --dry-run -d 7 "$tmp/touch.jsonl"
expect_grep 'no HID device with id 7' "$tmp/err" "names the id"
expect_exit 2 "--exact" -- $T replay --hid --exact "$tmp/touch.jsonl"
expect_exit 2 "--desc" -- $T replay --hid --desc "$tmp/touch.jsonl" "$tmp/touch.jsonl"
finish
