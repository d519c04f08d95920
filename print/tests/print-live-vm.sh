#!/bin/bash
# touchtape print on a live device, in the VM rig (real uinput, real Xorg),
# in one boot:
#   1. `print NODE` and `print --xi NODE` while `touchtape replay` plays the
#      two-finger sample through uinput: every frame printed with slots
#      spelled out, the X server's touch events with --xi: both end with
#      the device (exit 0); `print --xi` without a device, the X side only,
#      like xinput test-xi2 --root, ends at SIGINT with exit 0;
#   2. `print` without an argument on a terminal: the recorder's device
#      picker, then the picked device live, until Ctrl-C (exit 0).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_reexec "${BASH_SOURCE[0]}" --xorg --timeout 150

sample="$abs_top_srcdir/samples/xi-touchscreen-two-finger.jsonl"
nframes=$(grep -c '"type":"frame"' "$sample")
status=0
check() {	# check FILE PATTERN WHAT
	if grep -Eq -- "$2" "$1"; then note "ok: $3"; else
		printf 'FAIL: %s: /%s/ not in %s\n' "$3" "$2" "$1" >&2; head -n 30 "$1" >&2; status=1; fi
}

# 1. Live device, plain and with --xi, while the replay plays.
# The replay waits for Enter (through a FIFO) until the prints are up.
mkfifo "$tmp/go"
"$TOUCHTAPE" replay --quiet --wait "$sample" <"$tmp/go" >"$tmp/replay.out" 2>&1 &
rpid=$!
exec 3>"$tmp/go"
node=""
# sysfs, not `touchtape list`: that opens every device, slow under TCG.
replay_node() {
	local n
	for n in /sys/class/input/event*/device/name; do
		if grep -q '^touchtape replay:' "$n" 2>/dev/null; then
			node=/dev/input/$(basename "$(dirname "$(dirname "$n")")")
			[[ -c "$node" ]] && return 0
		fi
	done
	return 1
}
wait_for 30 replay_node || { cat "$tmp/replay.out"; fail "the replay device did not appear"; }
# udev (run for Xorg) replaces a new node once: open it after that.
timeout 10 udevadm settle 2>/dev/null || sleep 1
wait_for 10 replay_node || { cat "$tmp/replay.out"; fail "the replay device went away"; }
note "replay device at $node"
"$TOUCHTAPE" print "$node" >"$tmp/plain.out" 2>"$tmp/plain.err" &
ppid=$!
"$TOUCHTAPE" print --xi "$node" >"$tmp/xi.out" 2>"$tmp/xi.err" &
xpid=$!
"$TOUCHTAPE" print --xi >"$tmp/xonly.out" 2>"$tmp/xonly.err" &
opid=$!
# Up when each has printed its header (the X one also its XI devices).
printed() { grep -q '===== start' "$tmp/plain.out" && grep -q '===== x-connected' "$tmp/xi.out" &&
	grep -q '===== x-connected' "$tmp/xonly.out"; }
wait_for 10 printed || { note "the prints were slow to start"; head -n 3 "$tmp"/*.err; }
sleep 0.5
echo >&3
exec 3>&-
wait "$rpid" || { cat "$tmp/replay.out"; fail "replay failed"; }
# The replay's device is gone: the prints of it end by themselves, as
# evtest does; the X side alone goes on until SIGINT.
prc=0; wait "$ppid" || prc=$?
xrc=0; wait "$xpid" || xrc=$?
sleep 0.5
kill -INT "$opid" || { echo "FAIL: print --xi (X only) ended before SIGINT" >&2; status=1; }
orc=0; wait "$opid" || orc=$?
for r in "print NODE:$prc:plain" "print --xi NODE:$xrc:xi" "print --xi (X only):$orc:xonly"; do
	IFS=: read -r what rc n <<<"$r"
	if [[ $rc -eq 0 ]]; then note "ok: $what: exit 0"; else
		echo "FAIL: $what: exit $rc" >&2; cat "$tmp/$n.err" >&2; status=1; fi
done
# each PATTERN WHAT FILE...: check in every FILE.
each() {
	local pattern=$1 what=$2 f
	shift 2
	for f in "$@"; do check "$tmp/$f" "$pattern" "$f: $what"; done
}
kernel=(plain.out xi.out)
each '^# device 0: "touchtape replay: ' "the device described" "${kernel[@]}"
each 'ABS_MT_TRACKING_ID +[0-9]+   slot 0 begins' "slot 0 begins" "${kernel[@]}"
each 'ABS_MT_TRACKING_ID +[0-9]+   slot 1 begins' "slot 1 begins" "${kernel[@]}"
each 'ABS_MT_POSITION_X +[0-9]+   slot 1 [+-][0-9]+' "slot 1 moves, with its change" "${kernel[@]}"
each 'slot 1 released' "slot 1 released" "${kernel[@]}"
each '^[0-9.]+ ===== device-removed' "the device's removal" "${kernel[@]}"
for f in "${kernel[@]}"; do
	got=$(grep -c 'SYN_REPORT' "$tmp/$f" || true)
	# The replay may add release/preparation frames.
	if (( got >= nframes )); then note "ok: $f: $got frames of $nframes"; else
		echo "FAIL: $f: $got frames printed, the sample has $nframes" >&2; status=1; fi
done
x=(xi.out xonly.out)
each '^# X server: ' "the X server named" "${x[@]}"
each 'XI    RawTouchBegin +\[observer\]' "raw touch begins" xi.out
# One client only may select touch events on the root window: the first
# of the two gets them, the other says so and shows raw events only.
cat "$tmp/xi.out" "$tmp/xonly.out" >"$tmp/both.out"
check "$tmp/both.out" 'XI    TouchBegin +\[observer\] .*flags: .*emulating_pointer' "touch begin with its flags"
check "$tmp/both.out" 'XI    TouchEnd +\[observer\]' "touch ends"
check "$tmp/both.out" '===== xi-select-denied: touch events on the root window' "the second X client told why"
check "$tmp/xonly.out" '^[0-9.]+ ===== stop: SIGINT' "xonly.out: the recorder's stop marker (a clean end)"
if grep -q ' dev0 ' "$tmp/xonly.out"; then echo "FAIL: kernel events in print --xi without a device" >&2; status=1; fi
if grep -q ' XI  ' "$tmp/plain.out"; then echo "FAIL: XI events without --xi" >&2; status=1; fi

# 2. No argument on a terminal: the picker, then the device live, ended
# by Ctrl-C typed on the terminal (a pty from script(1)). script runs
# $SHELL -c, and dash forks rather than execs the command, so a shell in
# the foreground would die of the Ctrl-C too: exec.
make_touchscreen "$vm_data/touchscreen.desc"
trc=0
( sleep 1.5; printf 't\n'; sleep 1; evemu-play "$node" <"$vm_data/two-finger.events"; sleep 1
  printf '\003'; sleep 2 ) |
	script -qec "exec '$TOUCHTAPE' print" /dev/null >"$tmp/term.out" 2>&1 || trc=$?
tr -d '\r' <"$tmp/term.out" >"$tmp/term.txt"
check "$tmp/term.txt" 'Record which\?' "picker: asks which device"
check "$tmp/term.txt" 'slot 1 begins' "picker: the picked device live"
check "$tmp/term.txt" '===== stop: SIGINT' "picker: Ctrl-C stops the recorder"
if [[ $trc -eq 0 ]]; then note "ok: picker: exit 0 after Ctrl-C"; else
	echo "FAIL: picker: exit $trc after Ctrl-C" >&2; tail -5 "$tmp/term.txt" >&2; status=1; fi
kill "$devpid" 2>/dev/null || true
exit "$status"
