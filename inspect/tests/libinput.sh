#!/bin/sh
# touchtape inspect on the libinput layer: the samples' kernel layers with
# libinput events written by hand and merged in time order: on the
# touchscreen, libinput's touches under the kernel touches they came from
# (0 and 300 us later); on the touchpad, a 3-finger swipe and a cancelled
# 2-finger hold after the two kernel touches; --summary and --json list
# the libinput devices with the libinput model's counts.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
samples="$abs_top_srcdir/samples"

# The header stays first; the rest by time, file order among equals.
merge() {
	python3 -c '
import json, sys
lines = [l for f in sys.argv[1:] for l in open(f) if l.strip()]
head, rest = lines[0], lines[1:]
rest.sort(key=lambda l: json.loads(l).get("t", -1))
sys.stdout.write(head + "".join(rest))
' "$@"
}

cat >"$tmp/ts-li.jsonl" <<'LI'
{"type":"li_device","dev":0,"sysname":"event5","name":"3M touch","capabilities":["touch"],"size_mm":[300,200],"config":{"left-handed":"off"}}
{"type":"li","li":"TOUCH_DOWN","t":19,"dev":0,"slot":0,"seat_slot":0,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_DOWN","t":10329,"dev":0,"slot":1,"seat_slot":1,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_MOTION","t":20000,"dev":0,"slot":1,"seat_slot":1,"mm":[2,3],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_UP","t":2493419,"dev":0,"slot":1,"seat_slot":1}
{"type":"li","li":"TOUCH_CANCEL","t":2498397,"dev":0,"slot":0,"seat_slot":0}
LI
ts="$tmp/ts.jsonl"
merge "$samples/3m-two-finger.jsonl" "$tmp/ts-li.jsonl" >"$ts"

expect_exit 0 "touchscreen --text" -- "$TOUCHTAPE" inspect --text "$ts"
# under KERNEL_LANE LANE_REGEX WHAT: the lane right under the kernel lane.
under() {
	if grep -A1 "^$1 " "$tmp/out" | tail -n +2 | grep -Eq "$2"; then
		pass "$3"
	else
		fail "$3"; cat "$tmp/out" >&2
	fi
}
under 'dev0 s0 #2' '^ `li0 s0 \+0us +\[-*\]$' "text: li0 s0 under dev0 s0 #2, +0us"
under 'dev0 s1 #3' '^ `li0 s1 \+300us +\[-*\]$' "text: li0 s1 under dev0 s1 #3, +300us"
expect_exit 0 "touchscreen --summary" -- "$TOUCHTAPE" inspect --summary "$ts"
expect_grep '^libinput device 0 "3M touch" \(event5\): capabilities touch, 300\.0x200\.0 mm; config left-handed=off$' \
	"$tmp/out" "summary: libinput's view of the device"
expect_grep '^  touches 2 \(2 linked to kernel touches, 1 cancelled\), taps 0 \(left 0, right 0, middle 0\); no gestures$' \
	"$tmp/out" "summary: touches linked, the model's counts"

# The panes (headless): the kernel touch says what libinput made of it, the
# libinput touch where it came from; 's' to libinput only keeps its lanes.
(cd "$tmp" && TOUCHTAPE_INSPECT_HEADLESS=100x24 TOUCHTAPE_INSPECT_KEYS='jj<Dump>ssss<Dump>' \
	"$TOUCHTAPE" inspect ts.jsonl) >"$tmp/screens" 2>"$tmp/err" && pass "headless" || fail "headless"
sed -n '/^=== screen 1/,/^=== screen 2/p' "$tmp/screens" >"$tmp/s1"
sed -n '/^=== screen 2/,$p' "$tmp/screens" >"$tmp/s2"
expect_grep 'to touch dev0 s1 #3$' "$tmp/s1" "pane: the kernel touch selected"
expect_grep ' became li0 s1 \+300us$' "$tmp/s1" "pane: what libinput made of it"
expect_grep 'src:libinput ' "$tmp/s2" "'s': the libinput source"
grep -q '^ *dev0 s' "$tmp/s2" && fail "'s': a kernel lane with libinput only" || pass "'s': libinput lanes only"
expect_grep 'to touch li0 s0$' "$tmp/s2" "pane: a libinput touch selected"
expect_grep ' slot 0, seat slot 0, cancelled$' "$tmp/s2" "pane: its slots, cancelled"
expect_grep ' from dev0 s0 #2, 0us later$' "$tmp/s2" "pane: where it came from"

# The touchpad: two kernel touches from 0 and 14.862 ms, up by 0.806 s.
cat >"$tmp/tp-li.jsonl" <<'LI'
{"type":"li_device","dev":0,"sysname":"event7","name":"touchpad","capabilities":["pointer","gesture"],"size_mm":[99.5,58.25],"tap_fingers":3,"config":{"tap":"on","natural-scroll":"off"}}
{"type":"li","li":"GESTURE_HOLD_BEGIN","t":20000,"dev":0,"fingers":2}
{"type":"li","li":"GESTURE_HOLD_END","t":60000,"dev":0,"fingers":2,"cancelled":true}
{"type":"li","li":"GESTURE_SWIPE_BEGIN","t":100000,"dev":0,"fingers":3}
{"type":"li","li":"GESTURE_SWIPE_UPDATE","t":110000,"dev":0,"fingers":3,"delta":[2,-8],"unaccel":[1,-4]}
{"type":"li","li":"GESTURE_SWIPE_END","t":700000,"dev":0,"fingers":3}
{"type":"li","li":"POINTER_BUTTON","t":900000,"dev":0,"button":272,"state":"pressed","seat_count":1}
{"type":"li","li":"POINTER_BUTTON","t":960000,"dev":0,"button":272,"state":"released","seat_count":0}
LI
tp="$tmp/tp.jsonl"
merge "$samples/touchpad-two-finger-swipe.jsonl" "$tmp/tp-li.jsonl" >"$tp"
expect_exit 0 "touchpad --text" -- "$TOUCHTAPE" inspect --text "$tp"
# The gestures stand after the kernel touches that made them, in time order.
sed -n '/^dev0 s1 /,$p' "$tmp/out" >"$tmp/after"
expect_grep '^li0 hold 2f ' "$tmp/after" "text: the hold after the kernel touches"
expect_grep '^li0 swipe 3f  *\[%' "$tmp/out" "text: the swipe lane, its update"
(cd "$tmp" && TOUCHTAPE_INSPECT_HEADLESS=140x24 TOUCHTAPE_INSPECT_KEYS='jj<Dump>' \
	"$TOUCHTAPE" inspect tp.jsonl) >"$tmp/screens" 2>"$tmp/err" && pass "headless touchpad" || fail "headless touchpad"
expect_grep ' touch li0 hold 2f$' "$tmp/screens" "pane: the hold selected"
expect_grep ' 2 fingers, 2 kernel touches during it, cancelled$' "$tmp/screens" "pane: the model's kernel touches"
expect_grep ' began 5\.14ms after the last finger landed$' "$tmp/screens" "pane: recognition time"
expect_exit 0 "touchpad --summary" -- "$TOUCHTAPE" inspect --summary "$tp"
expect_grep '^libinput device 0 "touchpad" \(event7\): capabilities pointer gesture, 99\.5x58\.2 mm; config tap=on natural-scroll=off$' \
	"$tmp/out" "summary: capabilities, size and configuration"
expect_grep 'taps 1 \(left 1, right 0, middle 0\); gestures: swipe 3-finger 1, hold 2-finger 1 \(1 cancelled\)$' \
	"$tmp/out" "summary: taps and gestures by kind and finger count"

expect_exit 0 "touchpad --json" -- "$TOUCHTAPE" inspect --json "$tp"
python3 - "$tmp/out" <<'PY' && pass "JSON: libinput_devices" || fail "JSON: libinput_devices"
import json, sys
d = json.load(open(sys.argv[1]))["libinput_devices"]
assert len(d) == 1, d
d = d[0]
assert d["device"] == 0 and d["sysname"] == "event7" and d["capabilities"] == ["pointer", "gesture"], d
assert d["config"] == "tap=on natural-scroll=off" and d["taps"] == 1, d
assert {(g["kind"], g["fingers"], g["count"]) for g in d["gestures"]} == {("swipe", 3, 1), ("hold", 2, 1)}, d
assert d["gestures_cancelled"] == 1, d
PY
expect_exit 0 "no layer --json" -- "$TOUCHTAPE" inspect --json "$samples/3m-two-finger.jsonl"
expect_grep '"libinput_devices":\[\]' "$tmp/out" "JSON: no libinput layer, an empty list"
expect_exit 0 "no layer --summary" -- "$TOUCHTAPE" inspect --summary "$samples/3m-two-finger.jsonl"
grep -q '^libinput' "$tmp/out" && fail "summary: a libinput line without the layer" || pass "summary: no libinput line"
finish
