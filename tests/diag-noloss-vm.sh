#!/bin/bash
# No silent loss, in the VM rig: 20 fast replays (--exact --speed 10,
# 4 loops) of a Type B sample, two at a time, each recorded beside three
# CPU hogs, every other one with the recorder stopped (SIGSTOP) for a
# second, another recorder starting while they play. Every
# recording holds every frame the replay wrote as the kernel delivers it,
# or marks where frames are missing with a SYN_DROPPED (and its resync
# leaves a reader in the device's state). The recordings and checks are
# diag-noloss-guest.py; TT_NOLOSS_ROUNDS=N.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 240
"$py" "$abs_top_srcdir/tests/diag-noloss-guest.py" "$TOUCHTAPE" \
	"$abs_top_srcdir/samples/3m-two-finger.jsonl" "$tmp/noloss" "${TT_NOLOSS_ROUNDS:-20}" || exit 1
