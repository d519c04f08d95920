#!/bin/bash
# record --guide --xi under Xorg (tests/vm/run --xorg, in the Xorg group's
# boot): a replayed touchscreen (guide-fixture.py: a still finger, a stroke,
# a tap), hot-added to X, while guide-guest.py plays the person at a
# pseudo-terminal. guide-check.py: each exercise's markers bracket its
# kernel touch and its XI touch (begin, updates, end, raw), the skipped
# exercises have none, the file validates and the grade measured the
# guided touches and the kernel-to-client latency.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --xorg --timeout 120

here="$abs_top_srcdir/record/tests"
# In the guest's memory: $tmp may be a 9p share ($TMPDIR), whose writes
# can stall the recorder while the host is busy.
tmp=$(mktemp -d /dev/shm/tt-guide-xi.XXXXXX)
"$py" "$here/guide-fixture.py" evdev "$tmp/in.jsonl" || fail "guide-fixture.py"
"$py" "$here/guide-guest.py" "$TOUCHTAPE" "$tmp/in.jsonl" "$tmp/out.jsonl" "touchtape replay:*" --xi
rc=$?
tr '\r' '\n' <"$tmp/out.jsonl.tty" 2>/dev/null | grep -a "Exercise\|grade\|Done\|Skipped" | sed 's/^/  | /' | head -20
((rc == 0)) || fail "record --guide --xi: the guided recording failed ($rc)"
"$py" "$here/guide-check.py" "$TOUCHTAPE" "$tmp/out.jsonl" "$tmp/in.jsonl.expect.json" xi ||
	fail "record --guide --xi"
echo "ok: record --guide --xi: the markers bracket the kernel and XI touches, the grade measured them"
