#!/bin/bash
# touchtape diff in the VM rig: a recording replayed through uinput and
# recorded again matches the original (kernel level, anomalies included);
# a copy with a jump made by hand differs from the replay in exactly that,
# and replay --verify does not blame the recording's own jumps on the
# replay. Runs every scenario in one VM boot.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_reexec "${BASH_SOURCE[0]}" --timeout 120

data="$abs_top_srcdir/tests/data/analyze"
status=0

# differs_with WHAT PATTERN ARGS...: `diff ARGS... rec.jsonl` finds the
# difference PATTERN names (with what follows from it: a touch left out
# also leaves out its BTN_TOUCH press and release and its frames).
differs_with() {
	local what=$1 pattern=$2
	shift 2
	if "$TOUCHTAPE" diff -T 50ms "$@" "$tmp/rec.jsonl" >"$tmp/diff.out"; then
		printf 'FAIL: the replay matches a copy with %s\n' "$what" >&2
		status=1
	fi
	cat "$tmp/diff.out"
	grep -Eq "$pattern" "$tmp/diff.out" || { printf 'FAIL: %s: not named\n' "$what" >&2; status=1; }
}
for f in session.jsonl type-a-pairing.jsonl jump-no.jsonl; do
	note "replaying $f"
	# The delay leaves a loaded emulated guest time to start the recorder.
	"$TOUCHTAPE" replay --quiet --start-delay 4 "$data/$f" >"$tmp/replay.out" 2>&1 &
	rpid=$!
	# The replay devices exist well before their first frame; wait for
	# them rather than guess (a loaded host boots the VM slowly).
	wait_for 20 sh -c '"$TOUCHTAPE" list 2>/dev/null | grep -q "touchtape replay:"' ||
		{ cat "$tmp/replay.out"; fail "$f: the replay device did not appear"; }
	# Record until the replay is over, however long the host takes.
	rm -f "$tmp/rec.jsonl"	# record never overwrites a recording
	"$TOUCHTAPE" record --quiet -o "$tmp/rec.jsonl" "touchtape replay:*" 2>"$tmp/rec.err" &
	recpid=$!
	wait "$rpid" || { cat "$tmp/replay.out"; fail "$f: replay failed"; }
	kill -INT "$recpid" 2>/dev/null || true	# it may have ended with its device
	wait "$recpid" || { cat "$tmp/rec.err" "$tmp/replay.out"; fail "$f: record failed"; }
	# -T 50ms: under TCG on a busy host a frame can be a tick (~20 ms)
	# late; what is compared here is which touches the replay made.
	if "$TOUCHTAPE" diff -T 50ms "$data/$f" "$tmp/rec.jsonl" >"$tmp/diff.out"; then
		note "$f: replay matches"
	else
		cat "$tmp/diff.out"
		printf 'FAIL: %s: the replay differs\n' "$f" >&2
		status=1
	fi
	# A changed copy still differs from the replay, and names the change.
	if [ "$f" = session.jsonl ]; then
		# (its time within a few ms: the first frame's lateness under TCG shifts it)
		differs_with "a touch removed" 'slot 1 touch at \+0\.0[6-9][0-9]* s \(50\.0, 50\.0\) mm is only in' \
			--kernel-only "$data/session-touch-removed.jsonl"
		# The same recording with a jump made by hand (out 70 mm and
		# back): against the replay, that anomaly kind and the path differ.
		awk '{ print }
/"t":10000,/ { print "{\"type\":\"frame\",\"dev\":0,\"t\":15000,\"ev\":[[\"EV_ABS\",\"ABS_MT_SLOT\",0],[\"EV_ABS\",\"ABS_MT_POSITION_X\",800],[\"EV_SYN\",\"SYN_REPORT\",0]]}" }' \
			"$data/session.jsonl" >"$tmp/jump.jsonl"
		differs_with "a jump added" ': jump \(error\): 2 in [^ ]*jump.jsonl, 0 in [^ ]*rec.jsonl; ' "$tmp/jump.jsonl"
		differs_with "a jump added (path)" 'slot 0 touch at \+0\.000000 s: paths part by' "$tmp/jump.jsonl"
	fi
done
# The copy with the jumps replayed with --verify (after the recordings,
# so that no device of it is about when they start): the recording's own
# jumps are expected, not the replay's, no finding.
if ! "$TOUCHTAPE" replay --quiet --verify "$tmp/jump.jsonl" >"$tmp/verify.out" 2>&1; then
	cat "$tmp/verify.out"
	printf 'FAIL: --verify blames the recording'"'"'s own jumps on the replay\n' >&2
	status=1
fi
grep -q '^verify: 0 new anomalies' "$tmp/verify.out" ||
	{ cat "$tmp/verify.out"; printf 'FAIL: --verify: want 0 new anomalies\n' >&2; status=1; }
exit "$status"
