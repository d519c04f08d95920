#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# touchtape record --libinput against replayed devices, in one VM boot
# with systemd-udevd (libinput takes only devices udev has tagged):
#  1. without udevd, --libinput refuses the device and says why;
#  2. a touchscreen sample: libinput's TOUCH_DOWN/TOUCH_UP pair one to one
#     with the kernel's touches, at their frames' times, and the evdev
#     frames equal those of a plain record of the same replay;
#     --libinput-config tap=on on a touchscreen alone is refused (exit 2);
#     libinput record --with-libinput of the same replay, imported: its
#     libinput events become li records;
#  3. a touchpad (a one-finger move, a tap, a two-finger swipe) with
#     --libinput-config tap=on: the setting is in the li_device record,
#     the move gives pointer motion, the tap one click, the swipe finger
#     scrolling.
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

replay() { vm_replay "$1"; }
go() { vm_go; }
finish() { vm_finish "$@"; }
# start_rec OUT ARGS...: a recorder of the replay device, started (and
# with --libinput*, libinput's view of it written); $recpid.
start_rec() {
	local out=$1 want='"kind":"start"'
	shift
	[[ "$*" == *--libinput* ]] && want='"type":"li_device"'
	vm_record_replay "$out" "$want" "$@"
}

# 1. No udevd yet: the device is refused, with the reason.
replay "$samples/3m-two-finger.jsonl"
if "$T" record --libinput --duration 1 -o "$tmp/noudev.jsonl" "touchtape replay:*" 2>"$tmp/noudev.err"; then
	bad "--libinput without udevd succeeded"
fi
grep -q "systemd-udevd" "$tmp/noudev.err" && note "without udevd: $(cat "$tmp/noudev.err")" ||
	bad "no word of udevd: $(cat "$tmp/noudev.err")"
kill -INT "$rpid"
exec 3>&-
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
node="$("$T" list 2>/dev/null | grep "touchtape replay:" | grep -o '/dev/input/event[0-9]*' | head -n1)"
libinput record --with-libinput -o "$tmp/lr.yml" "$node" >/dev/null 2>"$tmp/lr.err" &
lr=$!
_lr_started() { grep -q "events:" "$tmp/lr.yml" 2>/dev/null; }
wait_for 15 _lr_started || note "libinput record has not written its device yet"
go
finish "$li" "$recpid"
kill -INT "$lr" 2>/dev/null
wait "$lr"
$check touches "$tmp/ts-li.jsonl" || bad "touchscreen: libinput's touches"
$check same-frames "$tmp/ts-li.jsonl" "$tmp/ts-plain.jsonl" || bad "touchscreen: evdev layer"
"$T" validate -q "$tmp/ts-li.jsonl" || bad "the --libinput recording does not validate"
"$T" print "$tmp/ts-li.jsonl" >"$tmp/ts-li.txt" || bad "print failed"
grep -m3 -E 'LI .*TOUCH_(DOWN|UP)' "$tmp/ts-li.txt" || bad "print shows no li touch"
if grep -q "libinput:" "$tmp/lr.yml" 2>/dev/null; then
	"$T" convert -o "$tmp/lr.jsonl" "$tmp/lr.yml" || bad "libinput record file not converted"
	$check imported "$tmp/lr.jsonl" || bad "import of libinput: entries"
else
	cat "$tmp/lr.err"
	bad "libinput record --with-libinput wrote no libinput: entries"
fi

# 3. The touchpad, tapping on.
$check touchpad "$samples/touchpad-two-finger-swipe.jsonl" "$tmp/tp.jsonl"
replay "$tmp/tp.jsonl"
start_rec "$tmp/tp-li.jsonl" --libinput-config tap=on
go
finish "$recpid"
$check touchpad-li "$tmp/tp-li.jsonl" || bad "touchpad"

((failures == 0)) || exit 1
note "record --libinput: all checks passed"
