#!/bin/bash
# touchtape diff in the VM rig: a recording replayed through uinput and
# recorded again matches the original (kernel level). Runs every scenario
# in one VM boot.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_reexec "${BASH_SOURCE[0]}" --timeout 120

data="$abs_top_srcdir/tests/data/analyze"
status=0
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
	# A changed copy still differs from the replay: exactly the change.
	if [ "$f" = session.jsonl ]; then
		if "$TOUCHTAPE" diff -T 50ms --kernel-only "$data/session-touch-removed.jsonl" "$tmp/rec.jsonl" >"$tmp/diff.out"; then
			printf 'FAIL: the replay matches a copy with a touch removed\n' >&2
			status=1
		fi
		cat "$tmp/diff.out"
		grep -q '^1 difference$' "$tmp/diff.out" || { printf 'FAIL: want 1 difference\n' >&2; status=1; }
		# (its time within a few ms: the first frame's lateness under TCG shifts it)
		grep -Eq 'slot 1 touch at \+0\.0[6-9][0-9]* s \(50\.0, 50\.0\) mm is only in' "$tmp/diff.out" ||
			{ printf 'FAIL: the removed touch is not named\n' >&2; status=1; }
	fi
done
exit "$status"
