#!/bin/bash
# touchtape record --xi ownership chains in the VM rig (real kernel uinput +
# real Xorg), one boot, short replays of the test touchscreen:
#   rr2   --xi-grab=reject-after=30 x2 --xi-window: grab1, grab2, window owns;
#   ra2   reject-after=30, accept-after=30: grab2 owns, the window loses;
#   ar2   accept, reject: grab1 owns, grab2 never sees the touch;
#   rrr3  reject-after=20 x3 --xi-window: three rejects, then the window;
#   rra3  reject-after=20, reject-after=20, accept: grab3 owns;
#   pend  --xi-grab=reject-after=400 --xi-window and a 50 ms tap: the finger
#         lifts before the (single, "grab") owner decides: pending_end;
#   pasync, psync  --xi-pointer-grab=async|sync --xi-window, two fingers: the
#         pointer client takes the first touch's emulated pointer events,
#         the window the second touch;
#   psel  --xi-grab=reject x2 --xi-pointer-grab=select, no window: after both
#         rejects the emulated pointer events go to the selection.
# Each is asserted on the records and on analyze's ownership chains
# (record/tests/xi-chain-check.py). XI_CHAIN_KEEP=DIR keeps the files.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
here="$abs_top_srcdir/record/tests"

keep=()
[[ -n "${XI_CHAIN_KEEP:-}" ]] && mkdir -p "$XI_CHAIN_KEEP" && keep=(--rw "$XI_CHAIN_KEEP")
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --xorg --timeout 240 "${keep[@]}"

out="${XI_CHAIN_KEEP:-$tmp}"

# record NAME OPTIONS...: records the touchscreen and the X side into
# $out/NAME.jsonl while EVENTS ($1 of play_into) is replayed.
record_play() {
	local name="$1" events="$2"
	shift 2
	rm -f "$out/$name.jsonl"
	"$TOUCHTAPE" record "$ts_node" "$@" -o "$out/$name.jsonl" 2>"$out/$name.err" &
	local pid=$!
	wait_for 20 grep -q '"xi_device"' "$out/$name.jsonl" 2>/dev/null ||
		{ cat "$out/$name.err"; fail "$name: the recorder did not start"; }
	sleep 0.3
	evemu-play "$ts_node" <"$events" || fail "evemu-play for $name failed"
	sleep 1	# the last decisions (up to 400 ms) and a slow X server
	kill -INT "$pid"
	wait "$pid" || { cat "$out/$name.err"; fail "$name: record failed"; }
	"$TOUCHTAPE" analyze --json "$out/$name.jsonl" >"$out/$name.analyze.json" 2>"$out/$name.analyze.err" ||
		[[ $? == 1 ]] || { cat "$out/$name.analyze.err"; fail "$name: analyze failed"; }
}

make_touchscreen "$vm_data/touchscreen.desc"
ts_node="$node"
in_x() { xinput list --name-only | grep -qx "touchtape VM test touchscreen"; }
wait_for 15 in_x || fail "the touchscreen was not added to X"

# Fingers, frames down: a long touch (640 ms, every chain decides before
# the lift), a 50 ms tap, two fingers for pointer emulation.
python3 "$here/xi-chain-check.py" gen 1 40 >"$tmp/long.events"
python3 "$here/xi-chain-check.py" gen 1 3 >"$tmp/tap.events"
python3 "$here/xi-chain-check.py" gen 2 20 >"$tmp/two.events"

record_play rr2 "$tmp/long.events" --xi-grab=reject-after=30 --xi-grab=reject-after=30 --xi-window
record_play ra2 "$tmp/long.events" --xi-grab=reject-after=30 --xi-grab=accept-after=30 --xi-window
record_play ar2 "$tmp/long.events" --xi-grab=accept --xi-grab=reject --xi-window
record_play rrr3 "$tmp/long.events" --xi-grab=reject-after=20 --xi-grab=reject-after=20 \
	--xi-grab=reject-after=20 --xi-window
record_play rra3 "$tmp/long.events" --xi-grab=reject-after=20 --xi-grab=reject-after=20 \
	--xi-grab=accept --xi-window
record_play pend "$tmp/tap.events" --xi-grab=reject-after=400 --xi-window
record_play pasync "$tmp/two.events" --xi-pointer-grab=async --xi-window
record_play psync "$tmp/two.events" --xi-pointer-grab=sync --xi-window
record_play psel "$tmp/long.events" --xi-grab=reject --xi-grab=reject --xi-pointer-grab=select
kill "$devpid" 2>/dev/null || true

for f in rr2 ra2 ar2 rrr3 rra3 pend pasync psync psel; do
	"$TOUCHTAPE" validate "$out/$f.jsonl" >"$out/$f.validate" 2>&1 ||
		{ cat "$out/$f.validate"; fail "$f.jsonl does not validate"; }
done
python3 "$here/xi-chain-check.py" check "$out"
echo "PASS: record --xi ownership chains in the VM"
