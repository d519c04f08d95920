#!/bin/bash
# touchtape record --xi in the VM rig (real kernel uinput + real Xorg), all
# scenarios in one boot:
#   1. observer: a two-finger and a ten-finger touchscreen sequence replayed
#      through uinput, recorded with the kernel device and --xi; the XI touch
#      sequences match the kernel ones one to one, pointer emulation is on
#      the first touch only, and the library's link pairs every kernel touch
#      with its XI touch within the frame period plus a margin, and says
#      which one emulates the pointer; list and list --json show the
#      touchscreen's X device with its kernel node;
#   2. ownership: --xi-grab=reject-after=50 --xi-window, then accept;
#   3. a touchpad (a Synaptics description from the corpus): the touch
#      class the X driver gave it, and what it delivers;
#   4. the X server killed mid-recording: a valid file with an x-lost
#      marker, the kernel side still recording.
# The checks are record/tests/xi-vm-check.py. XI_VM_KEEP=DIR keeps the
# recordings in DIR (samples/ were made that way).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
: "${XI_LINK:=$abs_top_builddir/xi/tests/xi-link}"
export TOUCHTAPE XI_LINK
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
export TT_CORPUS="$corpus"

if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	[[ -x "$TOUCHTAPE" && -x "$XI_LINK" ]] || fail "build touchtape and xi/tests/xi-link first"
	[[ -d "$corpus" ]] || { note "no corpus at $corpus"; exit 77; }
	command -v python3 >/dev/null || { note "no python3"; exit 77; }
	keep=()
	if [[ -n "${XI_VM_KEEP:-}" ]]; then
		mkdir -p "$XI_VM_KEEP"
		keep=(--rw "$XI_VM_KEEP")
	fi
	vm_reexec "${BASH_SOURCE[0]}" --xorg --timeout 300 "${keep[@]}"
fi

out="${XI_VM_KEEP:-$tmp}"
here="$abs_top_srcdir/record/tests"
FRAME_MS=16	# the replayed sequences' frame period

# gen_touches NFINGERS MOVES FILE: an evemu-play sequence for the test
# touchscreen: fingers go down one per frame (slot i, tracking ID 100+i),
# all move MOVES frames, then lift one per frame, in the same order.
# (Decimal codes: mawk reads no hex constants.)
gen_touches() {
	awk -v n="$1" -v moves="$2" -v ms="$FRAME_MS" 'function ev(t, c, v) {
		printf "E: %.6f %04x %04x %d\n", f * ms / 1000.0, t, c, v }
	function syn() { ev(0, 0, 0); f++ }
	BEGIN {
		f = 0
		for (i = 0; i < n; i++) {
			ev(3, 47, i); ev(3, 57, 100 + i)
			ev(3, 53, 300 + i * 350); ev(3, 54, 1000 + i * 150)
			if (i == 0) { ev(1, 330, 1); ev(3, 0, 300); ev(3, 1, 1000) }
			syn()
		}
		for (m = 1; m <= moves; m++) {
			for (i = 0; i < n; i++) {
				ev(3, 47, i); ev(3, 53, 300 + i * 350 + m * 9)
				ev(3, 54, 1000 + i * 150 + m * 17)
			}
			ev(3, 0, 300 + m * 9); ev(3, 1, 1000 + m * 17)
			syn()
		}
		for (i = 0; i < n; i++) {
			ev(3, 47, i); ev(3, 57, -1)
			if (i == n - 1) ev(1, 330, 0)
			syn()
		}
	}' >"$3"
}

# record NAME NODE|"" [OPTIONS...]: starts a recording into $out/NAME.jsonl
# and waits until the X side is set up.
record() {
	local name="$1" dev="$2"
	shift 2
	rm -f "$out/$name.jsonl"
	"$TOUCHTAPE" record ${dev:+"$dev"} "$@" -o "$out/$name.jsonl" 2>"$out/$name.err" &
	recpid=$!
	wait_for 20 grep -q '"xi_device"' "$out/$name.jsonl" 2>/dev/null ||
		{ cat "$out/$name.err"; fail "$name: the recorder did not start"; }
	sleep 0.5
}
stop_recording() {
	sleep 1	# the X server is slow under TCG: let the last events arrive
	kill -INT "$recpid"
	local rc=0
	wait "$recpid" || rc=$?
	echo "$rc" >"$out/$1.rc"
}
play() { evemu-play "$node" <"$1" || fail "evemu-play $1 failed"; }

# X only (no kernel device): it sees the touchscreen hot-added (hierarchy
# event, then the device's record) and stops cleanly after --duration.
"$TOUCHTAPE" record --xi --duration 8 -o "$out/x-only.jsonl" 2>"$out/x-only.err" &
xonly=$!
wait_for 20 grep -q '"xi_device"' "$out/x-only.jsonl" 2>/dev/null || fail "--xi alone did not start"
make_touchscreen "$vm_data/touchscreen.desc"
ts_node="$node"
ts_pid="$devpid"
in_x() { xinput list --name-only | grep -qx "$1"; }
wait_for 15 in_x "touchtape VM test touchscreen" || fail "the touchscreen was not added to X"
wait "$xonly" || { cat "$out/x-only.err"; fail "--xi without devices failed"; }
"$TOUCHTAPE" list >"$out/list.txt" 2>&1 || true
"$TOUCHTAPE" list --json >"$out/list.json" 2>"$out/list-json.err" || true

gen_touches 2 20 "$tmp/two.events"
gen_touches 10 15 "$tmp/ten.events"

record ts-two "$ts_node" --xi
# A second recorder while the first holds the touch selection on the root
# window: BadAccess, an xi-select-denied marker, raw events only.
"$TOUCHTAPE" record --xi -o "$out/denied.jsonl" 2>"$out/denied.err" &
denied=$!
wait_for 20 grep -q '"xi_device"' "$out/denied.jsonl" 2>/dev/null || fail "second recorder did not start"
sleep 0.5
play "$tmp/two.events"
stop_recording ts-two
kill -INT "$denied"
wait "$denied" || fail "the second recorder failed: $(cat "$out/denied.err")"
record ts-ten "$ts_node" --xi
play "$tmp/ten.events"
stop_recording ts-ten
record ts-reject "$ts_node" --xi-grab=reject-after=50 --xi-window
play "$tmp/two.events"
stop_recording ts-reject
record ts-accept "$ts_node" --xi-grab=accept --xi-window
play "$tmp/two.events"
stop_recording ts-accept

# Touchpad: the hp8470p Synaptics description and a real two-finger scroll
# (both slots used).
tp_desc="$corpus/evemu-desc/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.hp8470p.desc"
tp_events="$corpus/evemu/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events"
make_touchscreen "$tp_desc"
tp_node="$node"
wait_for 15 in_x "SynPS/2 Synaptics TouchPad" || fail "the touchpad was not added to X"
xinput list --long "SynPS/2 Synaptics TouchPad" >"$out/touchpad-xinput.txt" 2>&1 || true
record touchpad "$tp_node" --xi
play "$tp_events"
stop_recording touchpad

# The X server killed mid-recording: the kernel side goes on.
node="$ts_node"
record x-killed "$ts_node" --xi
# ...and one with no kernel device: it stops (exit status 1).
"$TOUCHTAPE" record --xi -o "$out/x-killed-alone.jsonl" 2>"$out/x-killed-alone.err" &
alone=$!
wait_for 20 grep -q '"xi_device"' "$out/x-killed-alone.jsonl" 2>/dev/null || fail "x-only recorder did not start"
play "$tmp/two.events"
sleep 1
kill -TERM "$(cat /run/ttvm-xorg/xorg.pid)"
wait_for 10 grep -q '"x-lost"' "$out/x-killed.jsonl" || note "no x-lost marker yet"
play "$tmp/two.events"
stop_recording x-killed
rc=0
wait "$alone" || rc=$?
echo "$rc" >"$out/x-killed-alone.rc"

kill "$ts_pid" "$devpid" 2>/dev/null || true
for f in ts-two ts-ten ts-reject ts-accept touchpad x-killed denied x-killed-alone; do
	# The touchpad check pairs touches without a latency bound: a 1 s
	# window, as the X server falls behind a busy TCG guest (we saw 325 ms).
	window=""
	[[ "$f" == touchpad ]] && window=1000000
	"$XI_LINK" "$out/$f.jsonl" $window >"$out/$f.link" || fail "xi-link $f failed"
	# The touchpad sample's own jumps (samples/README.md) come through
	# the replay: errors, but no other kind.
	if ! "$TOUCHTAPE" validate "$out/$f.jsonl" >"$out/$f.validate" 2>&1 &&
	   ! { [[ "$f" == touchpad ]] && ! grep ': error: ' "$out/$f.validate" | grep -qv '\[jump\]'; }; then
		cat "$out/$f.validate"; fail "$f.jsonl does not validate"
	fi
done
# Under TCG the X server and the recorder run 10-50x slower than on
# hardware; tests/vm/run says which accelerator it used.
accel=tcg
[[ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" == kvm-clock ]] && accel=kvm
python3 "$here/xi-vm-check.py" "$out" "$FRAME_MS" "$accel"
echo "PASS: record --xi in the VM"
