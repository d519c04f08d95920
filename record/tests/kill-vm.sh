#!/bin/bash
# Crash safety of touchtape record, in the VM rig: 100 recorders SIGKILLed
# at random moments (20-800 ms) while they record a replayed multi-touch
# stream (samples/3m-two-finger.jsonl, looped); every file must be valid up
# to its last complete line. The kills and checks are kill-guest.py. Two
# CPU hogs run beside it in the guest, so both cores are busy: the
# recorders fall behind (SYN_DROPPED) and must still leave valid files.
# TT_KILL_SEED=N repeats a run (the seed is printed); TT_KILL_RUNS=N.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 300

# The replay feeding the recorders runs under the sanitizers when they are
# built (it is stopped by SIGINT, so LeakSanitizer checks its exit); the
# killed recorders are the plain binary: a SIGKILL leaves nothing to check.
replay_tt=$TOUCHTAPE
[[ -x "${TOUCHTAPE_SAN:-}" ]] && { replay_tt=$TOUCHTAPE_SAN; vm_san_env; }
hogs=()
for _ in 1 2; do
	"$py" -c 'while True: pass' &
	hogs+=($!)
done
rc=0
"$py" "$abs_top_srcdir/record/tests/kill-guest.py" "$TOUCHTAPE" "$replay_tt" \
	"$abs_top_srcdir/samples/3m-two-finger.jsonl" "$tmp/kill" \
	"${TT_KILL_RUNS:-100}" ${TT_KILL_SEED:+"$TT_KILL_SEED"} || rc=$?
kill "${hogs[@]}"
wait "${hogs[@]}" 2>/dev/null
if [[ $rc != 0 ]]; then
	echo "replay log:"
	cat "$tmp/kill/replay.log"
	exit 1
fi
