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
#         pointer client takes the first touch's emulated pointer events and
#         owns that touch (analyze: "pointer A"; the window, a listener, only
#         gets its TouchBegin and TouchEnd), the window owns the second touch;
#   psel  --xi-grab=reject x2 --xi-pointer-grab=select, no window: after both
#         rejects the emulated pointer events go to the selection
#         ("grab1 R -> grab2 R -> pointer A").
# The guest only records (into a folder shared with the host); the host
# then runs analyze on each file and asserts on the records and on
# analyze's ownership chains (record/tests/xi-chain-check.py), which keeps
# the VM's run short. XI_CHAIN_KEEP=DIR keeps the files.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
here="$abs_top_srcdir/record/tests"

names=(rr2 ra2 ar2 rrr3 rra3 pend pasync psync psel)

if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	[[ -x "$TOUCHTAPE" ]] || fail "build touchtape first"
	command -v python3 >/dev/null || { note "no python3"; exit 77; }
	XI_CHAIN_OUT="${XI_CHAIN_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/xi-chain.XXXXXX")}"
	mkdir -p "$XI_CHAIN_OUT"
	export XI_CHAIN_OUT
	[[ -n "${XI_CHAIN_KEEP:-}" ]] || trap 'rm -rf "$XI_CHAIN_OUT"' EXIT
	rc=0
	"$abs_top_srcdir/tests/vm/run" --xorg --timeout 240 --rw "$XI_CHAIN_OUT" -- \
		bash "${BASH_SOURCE[0]}" || rc=$?
	note "xi-chain-vm.sh: VM status $rc"
	[[ $rc == 0 ]] || exit "$( ((rc == 77)) && echo 77 || echo 1)"
	for name in "${names[@]}"; do
		"$TOUCHTAPE" analyze --json "$XI_CHAIN_OUT/$name.jsonl" >"$XI_CHAIN_OUT/$name.analyze.json" \
			2>"$XI_CHAIN_OUT/$name.analyze.err" || [[ $? == 1 ]] ||
			{ cat "$XI_CHAIN_OUT/$name.analyze.err"; fail "$name: analyze failed"; }
	done
	python3 "$here/xi-chain-check.py" check "$XI_CHAIN_OUT"
	echo "PASS: record --xi ownership chains in the VM"
	exit 0
fi

out="$XI_CHAIN_OUT"

# started FILE: the recorder says it records, which it does once every X
# client has its grab or selection in place and the device is open.
started() {
	grep -q '^touchtape record: recording XInput touch events' "$1" && grep -q 'press Ctrl-C' "$1"
}

# ended FILE: every sequence the clients got has ended: each TouchBegin has
# its TouchEnd (a listener's comes after the last decision, up to 400 ms
# after the lift), each raw begin its end, each emulated press its release
# and each pointer grab its ungrab.
count() { grep -c "\"xi\":\"$1\"" "$2"; }
ended() {
	(($(count RawTouchEnd "$1") > 0)) &&
		(($(count RawTouchBegin "$1") == $(count RawTouchEnd "$1"))) &&
		(($(count TouchBegin "$1") == $(count TouchEnd "$1"))) &&
		(($(count ButtonPress "$1") == $(count ButtonRelease "$1"))) &&
		(($(count GrabDevice "$1") == $(count UngrabDevice "$1")))
}

# record_play NAME EVENTS OPTIONS...: records the touchscreen and the X
# side with OPTIONS into $out/NAME.jsonl while EVENTS is replayed.
record_play() {
	local name="$1" events="$2"
	shift 2
	rm -f "$out/$name.jsonl"
	"$TOUCHTAPE" record "$ts_node" "$@" -o "$out/$name.jsonl" 2>"$out/$name.err" &
	local pid=$!
	wait_for 20 started "$out/$name.err" || { cat "$out/$name.err"; fail "$name: the recorder did not start"; }
	evemu-play "$ts_node" <"$events" || fail "evemu-play for $name failed"
	wait_for 10 ended "$out/$name.jsonl" || note "$name: not every sequence ended within 10 s"
	kill -INT "$pid"
	wait "$pid" || { cat "$out/$name.err"; fail "$name: record failed"; }
	note "t=$SECONDS s: $name"
}

make_touchscreen "$vm_data/touchscreen.desc"
ts_node="$node"
note "t=$SECONDS s: touchscreen made"
# Meanwhile X adds it: the touches, a long one (640 ms: every chain decides
# before the lift), a 50 ms tap, two fingers for pointer emulation.
python3 "$here/xi-chain-check.py" gen "$tmp" || fail "cannot write the touches"
in_x() { xinput list --name-only | grep -qx "touchtape VM test touchscreen"; }
wait_for 15 in_x || fail "the touchscreen was not added to X"
note "t=$SECONDS s: in X"

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
note "t=$SECONDS s: recorded"
