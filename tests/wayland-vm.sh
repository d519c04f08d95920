#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# The Wayland layer end to end, in one VM boot with Weston and Xwayland
# (tests/vm/run --xwayland):
#  1. a touchscreen sample replayed through uinput while touchtape records
#     the kernel device and weston-simple-touch (WAYLAND_DEBUG=client)
#     takes the touches Weston delivers: one wl_touch down...up per kernel
#     touch, in order, at the kernel position scaled onto the output, with
#     the kernel's own timestamp (ms) as the compositor's; the latency
#     kernel frame -> client, measured (median, p95);
#  2. a touchpad pinch from the corpus, played twice: libinput (record
#     --libinput, the library Weston uses) makes two-finger pinches of it,
#     and Weston adds the touchpad; what its client gets of it is printed
#     (Weston 10 has no zwp_pointer_gestures_v1: nothing);
#  3. with record --wayland built: the same replays recorded through it
#     (wl_touch sequences, links, gestures); again with --xi-window on
#     Xwayland, whose X window on top takes the touches: Xwayland's XI
#     touches match the Wayland ones (same kernel touch, same whole-pixel
#     position, both latencies); and Weston killed mid-recording (a valid
#     file, the Wayland-lost marker).
# The checks are tests/wayland-vm-check.py. WAYLAND_VM_KEEP=DIR keeps the
# files in DIR.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
keep=()
if [[ -n "${WAYLAND_VM_KEEP:-}" && "${TT_VM_GUEST:-}" != 1 ]]; then
	mkdir -p "$WAYLAND_VM_KEEP"
	keep=(--rw "$WAYLAND_VM_KEEP")
fi
vm_enter "${abs_top_builddir:-.}/touchtape" "build touchtape first" "${BASH_SOURCE[0]}" \
	--xwayland --timeout 240 "${keep[@]}"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
T=$TOUCHTAPE
out="${WAYLAND_VM_KEEP:-$tmp}"
check() { $py "$abs_top_srcdir/tests/wayland-vm-check.py" "$@"; }
samples="$abs_top_srcdir/samples"
pinch="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/evemu/kwin-gestures__evemu_touchpad_pinch_out_2"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
has_wayland=0
[[ "$("$T" record --help 2>&1)" == *--wayland* ]] && has_wayland=1

[[ -n "${WAYLAND_DISPLAY:-}" && -n "${DISPLAY:-}" ]] || fail "no WAYLAND_DISPLAY/DISPLAY: Weston not started"
weston-info >"$out/globals.txt" 2>/dev/null || bad "weston-info failed"

# A Weston client that prints every event it gets (WAYLAND_DEBUG=client),
# fullscreen (kiosk-shell), so every touch lands on it; it takes the
# seat's touch and pointer as they come. Mapped when its surface enters
# the output (10-20 s from its start on a loaded TCG host).
WAYLAND_DEBUG=client weston-fullscreen -w 1024 -h 768 2>"$tmp/client.log" >/dev/null &
client=$!
_mapped() { grep -q 'wl_surface@[0-9]*\.enter(wl_output' "$tmp/client.log"; }
wait_for 60 _mapped || { tail "$tmp/client.log"; fail "weston-fullscreen was not mapped"; }
# client_part NAME: the client's lines since the last call, into $out/NAME.
client_part() {
	local n
	n=$(wc -l <"$tmp/client.log")
	sed -n "$((${client_at:-0} + 1)),${n}p" "$tmp/client.log" >"$out/$1"
	client_at=$n
}
# client_has REGEX: the client got a matching line since the last part.
client_has() { sed -n "$((${client_at:-0} + 1)),\$p" "$tmp/client.log" | grep -q "$1"; }

# 1. Touchscreen: kernel -> Weston -> a client.
vm_replay "$samples/xi-touchscreen-ten-finger.jsonl"
wait_for 30 client_has 'get_touch' || fail "the client got no wl_touch for the replayed touchscreen"
vm_record_replay "$out/ts-kernel.jsonl" '"kind":"start"'
vm_go
vm_finish "$recpid"
client_part ts-client.log
check touch-client "$out" || bad "touchscreen through Weston"

# 2. Touchpad pinch: libinput's view, and what Weston's client gets.
if [[ -f "$pinch" ]]; then
	# Twice: libinput's view of the first pinch is complete while the
	# device is still there (a recorder that lags behind under load
	# loses what it had not read when the device goes away).
	vm_replay "$pinch" --loop 2
	_added() { grep -q 'Synaptics TM3276-022: device is a touchpad' "${TT_VM_WESTON_LOG:-/run/ttvm-weston/weston.log}"; }
	wait_for 30 _added || bad "Weston's libinput did not add the replayed touchpad"
	vm_record_replay "$out/pinch-li.jsonl" '"type":"li_device"' --libinput
	vm_go
	vm_finish "$recpid"
	client_part pinch-client.log
	check pinch "$out" || bad "touchpad pinch"
else
	note "no corpus pinch at $pinch: touchpad part skipped"
fi
kill "$client" 2>/dev/null
wait "$client" 2>/dev/null

# 3. record --wayland (the kernel device in the same file).
# wl_validate NAME: validate finds nothing in NAME.jsonl but the
# wl-frame-missing errors Weston 10 makes: it sends no wl_touch.frame after
# the last up of a touch group (its touch focus is gone by the frame; the
# WAYLAND_DEBUG client of part 1 gets none either), so one per group of
# the file's kernel touches that the Wayland surface took (the checker
# counts them: a replay split into two groups under load, or a file whose
# X window took the touches, needs no other number). With "any": how many
# a looping replay cut short made.
wl_validate() {
	local rc=0 n want=${2:-}
	[[ -n "$want" ]] || want=$(check frame-missing-want "$out" "$1")
	"$T" validate "$out/$1.jsonl" >"$out/$1.validate" 2>&1 || rc=$?
	n=$(grep -c '\[wl-frame-missing\]' "$out/$1.validate")
	if ((rc > 1)) || grep 'error:\|warning:' "$out/$1.validate" | grep -qv '\[wl-frame-missing\]' ||
		[[ "$want" != any && $n != "$want" ]]; then
		cat "$out/$1.validate"
		bad "$1.jsonl: validate status $rc, $n wl-frame-missing (want $want and nothing else)"
	fi
	note "$1: validate: $n wl-frame-missing (no wl_touch.frame after a group's last up)"
}
if ((has_wayland)); then
	vm_replay "$samples/xi-touchscreen-ten-finger.jsonl"
	vm_record_replay "$out/ts-wl.jsonl" '"kind":"wayland-connected"' --wayland
	vm_go
	vm_finish "$recpid"
	wl_validate ts-wl
	# Status 1: the finding above.
	"$T" analyze --json "$out/ts-wl.jsonl" >"$out/ts-wl.analyze.json"
	(($? <= 1)) || bad "analyze ts-wl failed"
	check touch-wl "$out" || bad "record --wayland of the touchscreen"

	# --xi beside --wayland: the session's Xwayland is recorded, not
	# refused. The --xi-window client's window is override-redirect, and
	# Weston puts those in its Xwayland layer, above every shell surface
	# (NORMAL + 1): it covers the recorder's fullscreen Wayland surface and
	# takes every touch, so this is the same replay's XI view, to set
	# against ts-wl's wl_touch view (the Wayland surface gets none). The
	# window is mapped (XSync) before the Wayland side connects; Xwayland
	# then commits its surface to Weston.
	vm_replay "$samples/xi-touchscreen-ten-finger.jsonl"
	vm_record_replay "$out/xw.jsonl" '"kind":"wayland-connected"' --wayland --xi-window
	_viewable() { xwininfo -name "touchtape record --xi-window" 2>/dev/null | grep -q IsViewable; }
	wait_for 10 _viewable || bad "the --xi-window window is not viewable"
	sleep 1
	vm_go
	vm_finish "$recpid"
	wl_validate xw
	"$T" analyze --json "$out/xw.jsonl" >"$out/xw.analyze.json"
	(($? <= 1)) || bad "analyze xw failed"
	check xwayland "$out" || bad "Xwayland's XI touches against the Wayland ones"

	# Weston killed mid-recording: the Wayland layer ends with a marker,
	# the kernel side goes on, the file stays valid.
	vm_replay "$samples/xi-touchscreen-ten-finger.jsonl" --loop 0
	vm_record_replay "$out/killed.jsonl" '"kind":"wayland-connected"' --wayland
	vm_go
	sleep 1
	kill -KILL "$(cat /run/ttvm-weston/weston.pid)"
	wait_for 10 grep -q '"wayland-lost"' "$out/killed.jsonl" || bad "no wayland-lost marker 10 s after the kill"
	sleep 1
	kill -INT "$rpid"
	wait "$rpid"
	kill -INT "$recpid"
	wait "$recpid" || bad "the recorder exited with $? after the compositor went away"
	wl_validate killed any
	check killed "$out" || bad "Weston killed mid-recording"
else
	note "record --wayland is not built here: the recorder's part not run"
fi
((failures == 0)) || fail "$failures check(s) failed"
echo "PASS: wayland-vm"
