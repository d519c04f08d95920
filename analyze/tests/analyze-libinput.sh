#!/bin/sh
# analyze and diff of the libinput layer, on the samples' kernel layers
# with libinput events written by hand: taps, gestures by kind and finger
# count, scroll sums, the acceleration ratio, libinput touches linked to
# their kernel touches with their latencies (text and JSON); diff lists
# exactly what was changed in the libinput layer, nothing for a file
# against itself.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
samples="$abs_top_srcdir/samples"

# The touchpad: two fingers from 0 and 14.862 ms, up by 0.806 s.
tp="$tmp/touchpad.jsonl"
{ cat "$samples/touchpad-two-finger-swipe.jsonl"; cat <<'LI'
{"type":"li","li":"GESTURE_HOLD_BEGIN","t":20000,"dev":0,"fingers":2}
{"type":"li","li":"GESTURE_HOLD_END","t":60000,"dev":0,"fingers":2,"cancelled":true}
{"type":"li","li":"POINTER_SCROLL_FINGER","t":60000,"dev":0,"vert":-10.25}
{"type":"li","li":"POINTER_SCROLL_FINGER","t":70000,"dev":0,"vert":-9.75,"horiz":0.5}
{"type":"li","li":"GESTURE_SWIPE_BEGIN","t":100000,"dev":0,"fingers":3}
{"type":"li","li":"GESTURE_SWIPE_UPDATE","t":110000,"dev":0,"fingers":3,"delta":[2,-8],"unaccel":[1,-4]}
{"type":"li","li":"GESTURE_SWIPE_END","t":120000,"dev":0,"fingers":3}
{"type":"li","li":"POINTER_MOTION","t":130000,"dev":0,"delta":[3,4],"unaccel":[1.5,2]}
{"type":"li","li":"POINTER_BUTTON","t":900000,"dev":0,"button":272,"state":"pressed","seat_count":1}
{"type":"li","li":"POINTER_BUTTON","t":960000,"dev":0,"button":272,"state":"released","seat_count":0}
LI
} >"$tp"

expect_exit 0 "analyze touchpad" -- "$TOUCHTAPE" analyze "$tp"
expect_grep '^libinput:$' "$tmp/out" "a libinput section"
expect_grep 'device 0: touches 0 .* taps 1 \(left 1, right 0, middle 0\), other button presses 0' "$tmp/out" "one left tap"
expect_grep 'acceleration ratio 2\.000' "$tmp/out" "acceleration ratio"
expect_grep 'distance vertical -20\.00 horizontal 0\.50' "$tmp/out" "scroll sums"
expect_grep 'gestures: swipe 3-finger 1, hold 2-finger 1 \(1 cancelled\)' "$tmp/out" "gestures by kind and fingers"
expect_grep 'swipe 3 fingers up: 0\.100000-0\.120000 s .* 2 kernel touches, began 85\.1 ms after' "$tmp/out" \
	"the swipe: direction, kernel touches, recognition time"

expect_exit 0 "analyze --json" -- "$TOUCHTAPE" analyze --json "$tp"
python3 - "$tmp/out" <<'PY' && pass "JSON numbers" || fail "JSON numbers"
import json, sys
li = json.load(open(sys.argv[1]))["libinput"]
d = li["devices"][0]
assert d["taps"] == 1 and d["tap_buttons"]["left"] == 1, d
assert d["acceleration_ratio"] == 2.0 and d["pointer_motions"] == 1, d
assert d["scroll"]["finger_events"] == 2 and d["scroll"]["vertical"] == -20.0, d
assert {(g["kind"], g["fingers"], g["count"]) for g in d["gestures"]} == {("hold", 2, 1), ("swipe", 3, 1)}, d
sw = [g for g in li["gestures"] if g["kind"] == "swipe"][0]
assert sw["direction"] == "up" and sw["kernel_touches"] == 2 and sw["latency_us"] == 100000 - 14862, sw
assert li["gesture_latency_us"]["count"] == 2, li
PY

# The touchscreen: kernel touches in slot 0 from 19 us (tracking ID 2),
# slot 1 from 10029 us (ID 3); libinput's: linked, 0 and 300 us later.
ts="$tmp/touchscreen.jsonl"
{ cat "$samples/3m-two-finger.jsonl"; cat <<'LI'
{"type":"li","li":"TOUCH_DOWN","t":19,"dev":0,"slot":0,"seat_slot":0,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_DOWN","t":10329,"dev":0,"slot":1,"seat_slot":1,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_UP","t":2493419,"dev":0,"slot":1,"seat_slot":1}
{"type":"li","li":"TOUCH_CANCEL","t":2498397,"dev":0,"slot":0,"seat_slot":0}
LI
} >"$ts"
expect_exit 0 "analyze touchscreen" -- "$TOUCHTAPE" analyze "$ts"
expect_grep 'touches 2 \(2 linked to kernel touches, 1 cancelled\)' "$tmp/out" "touches linked"
expect_grep 'touch latency \(libinput - kernel\): median 150 us, p95 285 us, max 300 us over 2' "$tmp/out" "latencies"
expect_exit 0 "analyze --json touchscreen" -- "$TOUCHTAPE" analyze --json "$ts"
expect_grep '"touch_latency_us":{"count":2,"median":150,"p95":285,"max":300}' "$tmp/out" "JSON latencies"

# No libinput layer: no section, no key.
expect_exit 0 "analyze without libinput" -- "$TOUCHTAPE" analyze --json "$samples/3m-two-finger.jsonl"
grep -q '"libinput"' "$tmp/out" && fail "a libinput key without the layer" || pass "no libinput key"

# diff: nothing against itself; exactly the changes otherwise.
expect_exit 0 "diff itself" -- "$TOUCHTAPE" diff "$tp" "$tp"
expect_grep '^0 differences$' "$tmp/out" "0 differences"
sed -e '/POINTER_BUTTON/d' -e 's/"vert":-9.75/"vert":-19.75/' \
    -e 's/SWIPE_\(BEGIN\|UPDATE\|END\)\(.*\)"fingers":3/SWIPE_\1\2"fingers":4/' \
    -e 's/"unaccel":\[1,-4\]/"unaccel":[6,1]/' "$tp" >"$tmp/changed.jsonl"
expect_exit 1 "diff changed" -- "$TOUCHTAPE" diff "$tp" "$tmp/changed.jsonl"
expect_grep '^4 differences$' "$tmp/out" "4 differences"
expect_grep 'touchpad.jsonl:- .*changed.jsonl:-: libinput device 0: scroll vertical -20\.00 vs -30\.00 \(tolerance 10%\)' "$tmp/out" "scroll distance"
expect_grep 'swipe 3-finger up at \+0\.100000 s: 3 vs 4 fingers' "$tmp/out" "finger count"
expect_grep 'swipe 3-finger up at \+0\.100000 s: direction up vs right' "$tmp/out" "direction"
expect_grep 'touchpad.jsonl:[0-9]* .*changed.jsonl:-: libinput device 0 left tap at \+0\.900000 s: only in' "$tmp/out" "the tap"
expect_exit 1 "diff --scroll-tolerance 0.5" -- "$TOUCHTAPE" diff --scroll-tolerance 0.5 "$tp" "$tmp/changed.jsonl"
expect_grep '^3 differences$' "$tmp/out" "scroll within 50%"
sed '/TOUCH_CANCEL/s/CANCEL/UP/' "$ts" >"$tmp/ts2.jsonl"
expect_exit 1 "diff touchscreen" -- "$TOUCHTAPE" diff "$ts" "$tmp/ts2.jsonl"
expect_grep 'libinput device 0: touches cancelled 1 vs 0' "$tmp/out" "touches cancelled"
grep -v '"li"' "$tp" >"$tmp/none.jsonl"
expect_exit 1 "diff without a layer" -- "$TOUCHTAPE" diff "$tp" "$tmp/none.jsonl"
expect_grep 'a libinput layer only in .*touchpad.jsonl' "$tmp/out" "layer only in A"
expect_grep '^1 difference$' "$tmp/out" "and nothing else"
sed '/GESTURE_HOLD/d' "$tp" >"$tmp/nohold.jsonl"
expect_exit 1 "diff hold not recognised" -- "$TOUCHTAPE" diff "$tp" "$tmp/nohold.jsonl"
expect_grep 'hold 2-finger at \+0\.020000 s: not recognised in' "$tmp/out" "gesture not recognised"
expect_exit 2 "bad --scroll-tolerance" -- "$TOUCHTAPE" diff --scroll-tolerance 2 "$tp" "$tp"

# validate: the libinput layer's sequences.
expect_exit 0 "validate touchpad" -- "$TOUCHTAPE" validate "$tp"
expect_exit 0 "validate touchscreen" -- "$TOUCHTAPE" validate "$ts"
{ cat "$samples/3m-two-finger.jsonl"; cat <<'LI'
{"type":"li","li":"TOUCH_DOWN","t":19,"dev":0,"slot":0,"seat_slot":0,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_DOWN","t":20,"dev":0,"slot":0,"seat_slot":0,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_UP","t":2493419,"dev":0,"slot":1,"seat_slot":1}
{"type":"li","li":"TOUCH_UP","t":2493419,"dev":0,"slot":0,"seat_slot":0}
{"type":"li","li":"GESTURE_PINCH_UPDATE","t":2493420,"dev":0,"fingers":2,"delta":[0,0],"unaccel":[0,0],"scale":1,"angle":0}
{"type":"li","li":"GESTURE_SWIPE_BEGIN","t":2493420,"dev":0,"fingers":3}
{"type":"li","li":"GESTURE_SWIPE_END","t":2493430,"dev":0,"fingers":3}
{"type":"li","li":"GESTURE_HOLD_END","t":2493430,"dev":0,"fingers":3}
LI
} >"$tmp/bad.jsonl"
expect_exit 1 "validate bad sequences" -- "$TOUCHTAPE" validate "$tmp/bad.jsonl"
expect_grep '4 errors, 0 warnings' "$tmp/out" "4 errors"
expect_grep 'bad.jsonl:492: error: device 0: libinput TOUCH_DOWN of seat slot 0 while it is down \[li-touch-sequence\]' "$tmp/err" "down twice"
expect_grep 'bad.jsonl:493: error: .*TOUCH_UP of seat slot 1 without a TOUCH_DOWN \[li-touch-sequence\]' "$tmp/err" "up without down"
expect_grep 'bad.jsonl:495: error: .*GESTURE_PINCH_UPDATE without its BEGIN \[li-gesture-sequence\]' "$tmp/err" "update without begin"
expect_grep 'bad.jsonl:498: error: .*GESTURE_HOLD_END without its BEGIN' "$tmp/err" "end without begin"

# libinput's own warnings: libinput-log markers (record --libinput writes
# its error-priority messages so) counted and listed with time and line;
# a file with the log alone still has the section.
logf="$tmp/log.jsonl"
{ cat "$ts"; cat <<'LOG'
{"type":"marker","t":2498400,"kind":"libinput-log","dev":0,"text":"kernel bug: Touch jump detected and discarded."}
{"type":"marker","t":2498500,"kind":"libinput-log","text":"client bug: \u001b[31mred"}
LOG
} >"$logf"
expect_exit 0 "analyze libinput-log" -- "$TOUCHTAPE" analyze "$logf"
expect_grep "^  libinput's log: 2 messages$" "$tmp/out" "the log counted"
expect_grep '^    2\.498400 s \(line [0-9]+\) device 0: kernel bug: Touch jump detected and discarded\.$' "$tmp/out" \
	"a message with its time and device"
expect_grep '^    2\.498500 s \(line [0-9]+\): client bug: .*red$' "$tmp/out" "a message without a device"
grep -q "$(printf '\033')" "$tmp/out" && fail "an escape reached the terminal" || pass "the message sanitized"
expect_exit 0 "analyze --json libinput-log" -- "$TOUCHTAPE" analyze --json "$logf"
python3 - "$tmp/out" <<'PY' && pass "JSON log" || fail "JSON log"
import json, sys
li = json.load(open(sys.argv[1]))["libinput"]
assert li["log_messages"] == 2, li
assert li["log"][0]["t"] == 2498400 and li["log"][0]["device"] == 0, li["log"]
assert li["log"][0]["message"] == "kernel bug: Touch jump detected and discarded.", li["log"]
assert li["log"][1]["device"] is None and li["log"][1]["message"].endswith("red"), li["log"]
PY
grep -v '"type":"li"' "$logf" | grep -v li_device >"$tmp/logonly.jsonl"
expect_exit 0 "analyze, the log alone" -- "$TOUCHTAPE" analyze "$tmp/logonly.jsonl"
expect_grep "^  libinput's log: 2 messages$" "$tmp/out" "the log without li records"
expect_exit 0 "analyze without the log" -- "$TOUCHTAPE" analyze "$ts"
expect_grep "^  libinput's log: 0 messages$" "$tmp/out" "no log: 0 messages"
finish
