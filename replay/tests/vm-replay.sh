#!/bin/bash
# touchtape replay against a real kernel (tests/vm/run): corpus recordings
# (Type A N-Trig, Type B Atmel maXTouch, Synaptics touchpad, Wacom finger
# sensor, 10-finger 3M) replayed with --verify, with and without --exact:
# zero unexplained differences; SIGINT/SIGTERM/SIGHUP leave no slot active
# and BTN_TOUCH up (seen by a second reader); --loop 3; a recording that
# starts mid-touch; timing against evemu-play. One VM boot for all of it.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
here=$abs_top_srcdir/replay/tests
ev=$corpus/evemu desc=$corpus/evemu-desc
conv() { python3 "$here/evemu2timeline.py" "$@"; }

conv "$ev/evemu__data_ntrig-dell-xt2.event" "$tmp/ntrig.jsonl"
conv "$ev/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events" "$tmp/atmel.jsonl"
conv --desc "$desc/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.desc" \
	"$ev/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.leftmove.events" "$tmp/synaptics.jsonl"
conv --desc "$desc/evemu-devices__tablets_Wacom ISDv4 E6 Finger.desc" \
	"$ev/evemu-devices__tablets_Wacom ISDv4 E6 Finger.double-top-swipe.events" "$tmp/wacom.jsonl"
conv "$ev/evemu__data_3m.event" "$tmp/3m.jsonl"
conv --skip-frames 10 "$ev/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events" "$tmp/mid.jsonl"
cp "$ev/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.leftmove.events" "$tmp/synaptics.event"
cp "$desc/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.desc" "$tmp/synaptics.desc.in"

rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 600 --rw "$tmp" -- \
	bash "$here/guest-replay.sh" "$tmp" || rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "VM run failed with status $rc"
res=$tmp/results
val() { awk -v k="$1" '$1 == k { print $2 }' "$res"; }
is() { # KEY WANT WHAT
	if [ "$(val "$1")" = "$2" ]; then pass "$3"; else
		fail "$3: $1 is '$(val "$1")', want '$2'"; fi
}

for name in ntrig atmel synaptics wacom 3m; do
	for mode in fuzz exact; do
		is "verify-$name-$mode-exit" 0 "$name ($mode) replays with --verify"
		expect_grep ', 0 unexplained differences' "$tmp/$name-$mode.log" "$name ($mode): zero unexplained differences"
		expect_grep '"unexplained":0' "$tmp/$name-$mode.json" "$name ($mode): JSON report says so"
		# The delivery through analyze's pass: nothing it lacks in
		# what was expected (the recordings' own anomalies are expected).
		expect_grep '^verify: 0 new anomalies in the delivered events$' "$tmp/$name-$mode.log" \
			"$name ($mode): no new anomaly"
		expect_grep '"new_anomaly_counts":\{"total":0\}' "$tmp/$name-$mode.json" "$name ($mode): JSON: no new anomaly"
	done
done
expect_grep 'explained: [0-9]+ x fuzz-smoothed' "$tmp/3m-fuzz.log" "fuzz smoothing is explained"
if grep -q 'fuzz' "$tmp/synaptics-exact.log"; then fail "--exact still smoothed"; else pass "--exact: no fuzz"; fi

is sigint-exit 130 "SIGINT: exit 130"
if [ "$(val sigint-active_before_last_frame)" -ge 9 ] 2>/dev/null; then
	pass "SIGINT came with $(val sigint-active_before_last_frame) fingers down"
else fail "SIGINT did not come during a multi-touch: $(val sigint-active_before_last_frame)"; fi
is sigint-active_at_end 0 "SIGINT: no slot active at the end"
is sigint-btn_touch_at_end 0 "SIGINT: BTN_TOUCH up at the end"
is sigint-keys_down_at_end 0 "SIGINT: no key down"
for sig in TERM HUP; do
	want=$((128 + $(kill -l $sig)))
	is "sig$sig-exit" $want "SIG$sig: exit $want"
	is "sig$sig-active_at_end" 0 "SIG$sig: no slot active"
	is "sig$sig-btn_touch_at_end" 0 "SIG$sig: BTN_TOUCH up"
done

is loop-exit 0 "--loop 3 --verify"
expect_grep 'in 3 loops' "$tmp/loop.log" "--loop 3 played three times"
expect_grep ', 0 unexplained differences' "$tmp/loop.log" "--loop 3: zero unexplained differences"
expect_grep '^verify: 0 new anomalies' "$tmp/loop.log" "--loop 3: each loop's anomalies expected, none new"
is loop-touch_downs 3 "--loop 3: three touch sequences, released between"
is loop-active_at_end 0 "--loop 3: released at the end"

is mid-exit 0 "mid-touch recording replays with --verify"
is mid-first_frame_active 4 "mid-touch: its 4 fingers are down in the first frame"
is mid-active_at_end 0 "mid-touch: released at the end"

cat "$tmp/timing.txt"
for f in "$tmp"/timing-*-tt.json; do echo "$(basename "$f"): $(cat "$f")"; done
expect_grep '^touchtape: .*frames matched' "$tmp/timing.txt" "timing measured"
finish
