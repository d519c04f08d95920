#!/bin/bash
# SYN_DROPPED on purpose, in the VM rig: 50 short recordings of a flooding
# replay, each recorder stopped (SIGSTOP) twice while the kernel's buffer
# overflows. validate must find no error and analyze no anomaly but the
# drops and the touches down at the end: after a drop the slots are
# unknown until libevdev's resync, and what the kernel skipped is not a
# fault. The recordings and checks are diag-drop-guest.py; TT_DROP_RUNS=N.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	[[ -x "$TOUCHTAPE" ]] || fail "build touchtape first"
	command -v python3 >/dev/null || { note "no python3"; exit 77; }
	vm_reexec "${BASH_SOURCE[0]}" --timeout 150
fi
rc=0
"$py" "$abs_top_srcdir/tests/diag-drop-guest.py" "$TOUCHTAPE" \
	"$abs_top_srcdir/samples/3m-two-finger.jsonl" "$tmp/drop" "${TT_DROP_RUNS:-50}" || rc=$?
if [[ $rc != 0 ]]; then
	echo "replay log:"
	cat "$tmp/drop/replay.log"
	exit 1
fi
