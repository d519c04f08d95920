#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# touchtape record --libinput against replayed devices, in one VM boot
# with systemd-udevd (libinput takes only devices udev has tagged):
#  1. without udevd, --libinput refuses the device and says why;
#  2. a touchscreen sample: libinput's TOUCH_DOWN/TOUCH_UP pair one to one
#     with the kernel's touches, at their frames' times, and the evdev
#     frames equal those of a plain record of the same replay;
#     --libinput-config tap=on on a touchscreen alone is refused (exit 2);
#  3. a touchpad (a one-finger move, a tap, a two-finger swipe) with
#     --libinput-config tap=on: the setting is in the li_device record,
#     the move gives pointer motion, the tap one click, the swipe finger
#     scrolling;
#  4. libinput record --with-libinput of the touchscreen, imported: its
#     libinput events become li records.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
vm_enter "${abs_top_builddir:-.}/touchtape" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 240

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
T=$TOUCHTAPE
check="python3 $abs_top_srcdir/record/tests/li-vm-check.py"
samples="$abs_top_srcdir/samples"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

replay_dev() { "$T" list 2>/dev/null | grep -q "touchtape replay:"; }

# replay FILE: starts the replay, waits for its device; $rpid.
replay() {
	# The delay leaves a loaded emulated guest time to start the recorders.
	"$T" replay --quiet --start-delay 4 "$1" >"$tmp/replay.out" 2>&1 &
	rpid=$!
	wait_for 20 replay_dev || { cat "$tmp/replay.out"; fail "$1: no replay device"; }
}

# start_rec OUT ARGS...: a recorder of the replay device, started; $recpid.
start_rec() {
	local out=$1
	shift
	"$T" record --quiet "$@" -o "$out" "touchtape replay:*" 2>"$out.err" &
	recpid=$!
	_started() { grep -q '"kind":"start"' "$out" 2>/dev/null; }
	wait_for 20 _started || { cat "$out.err"; bad "$out: the recorder did not start"; }
}

# finish PID...: waits for the replay, then stops the recorders (they may
# have ended with their device).
finish() {
	wait "$rpid" || { cat "$tmp/replay.out"; bad "the replay failed"; }
	sleep 1
	for p in "$@"; do
		kill -INT "$p" 2>/dev/null || true
		wait "$p" || bad "a recorder exited with $?"
	done
}

# 1. No udevd yet: the device is refused, with the reason.
replay "$samples/3m-two-finger.jsonl"
if "$T" record --libinput --duration 1 -o "$tmp/noudev.jsonl" "touchtape replay:*" 2>"$tmp/noudev.err"; then
	bad "--libinput without udevd succeeded"
fi
grep -q "systemd-udevd" "$tmp/noudev.err" && note "without udevd: $(cat "$tmp/noudev.err")" ||
	bad "no word of udevd: $(cat "$tmp/noudev.err")"
wait "$rpid"

for d in /lib/systemd /usr/lib/systemd; do
	[[ -x $d/systemd-udevd ]] && { "$d/systemd-udevd" --daemon >/dev/null 2>&1; break; }
done
udevadm trigger --action=add --subsystem-match=input || true
timeout 10 udevadm settle || true

# 2. The touchscreen.
replay "$samples/3m-two-finger.jsonl"
if "$T" record --libinput-config tap=on --duration 1 -o "$tmp/tap.jsonl" "touchtape replay:*" 2>"$tmp/tap.err"; then
	bad "tap=on on a touchscreen alone was accepted"
else
	[[ $? == 2 ]] || bad "tap=on on a touchscreen: want exit 2"
	note "$(cat "$tmp/tap.err")"
fi
start_rec "$tmp/ts-li.jsonl" --libinput
li=$recpid
start_rec "$tmp/ts-plain.jsonl"
finish "$li" "$recpid"
$check touches "$tmp/ts-li.jsonl" || bad "touchscreen: libinput's touches"
$check same-frames "$tmp/ts-li.jsonl" "$tmp/ts-plain.jsonl" || bad "touchscreen: evdev layer"
"$T" validate -q "$tmp/ts-li.jsonl" || bad "the --libinput recording does not validate"
"$T" print "$tmp/ts-li.jsonl" | grep -m3 -E 'LI .*TOUCH_(DOWN|UP)' || bad "print shows no li touch"

# 3. The touchpad, tapping on.
$check touchpad "$samples/touchpad-two-finger-swipe.jsonl" "$tmp/tp.jsonl"
replay "$tmp/tp.jsonl"
start_rec "$tmp/tp-li.jsonl" --libinput-config tap=on
finish "$recpid"
$check touchpad-li "$tmp/tp-li.jsonl" || bad "touchpad"

# 4. libinput record --with-libinput, imported.
replay "$samples/3m-two-finger.jsonl"
node="$("$T" list 2>/dev/null | grep "touchtape replay:" | grep -o '/dev/input/event[0-9]*' | head -n1)"
libinput record --with-libinput -o "$tmp/lr.yml" "$node" >/dev/null 2>"$tmp/lr.err" &
lrpid=$!
wait "$rpid"
sleep 1
kill -INT "$lrpid" 2>/dev/null; wait "$lrpid"
if grep -q "libinput:" "$tmp/lr.yml" 2>/dev/null; then
	"$T" convert -o "$tmp/lr.jsonl" "$tmp/lr.yml" || bad "libinput record file not converted"
	$check imported "$tmp/lr.jsonl" || bad "import of libinput: entries"
else
	cat "$tmp/lr.err"
	bad "libinput record --with-libinput wrote no libinput: entries"
fi

((failures == 0)) || exit 1
note "record --libinput: all checks passed"
