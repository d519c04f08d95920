#!/bin/bash
# The state a recording starts from, read while the device moves: 40
# recordings started on a replay that never pauses, each consistent with
# its first frames (no event repeats what the state says) and without a
# validate error. The recordings and checks are start-state-guest.py;
# TT_START_ROUNDS=N.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 180
"$py" "$abs_top_srcdir/evdev/tests/start-state-guest.py" "$TOUCHTAPE" \
	"$abs_top_srcdir/samples/3m-two-finger.jsonl" "$tmp/start" "${TT_START_ROUNDS:-40}" || exit 1
